"""council-scan: secrets and lexical patterns on added lines only, the per-language table
(positives and near misses), the dependency audit through fake auditors, no leaked secret."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

import pytest

from council_filters.redaction.patterns import CREDENTIAL_PATTERNS
from council_filters.scan import lexical

from conftest import make_repo, run_filter

SECRETS = {
    "anthropic": "sk-ant-api03-" + "Q7" * 15,
    "openai-project": "sk-proj-" + "x9Y" * 10,
    "github-token": "ghp_" + "a1B2" * 10,
    "aws-access-key": "AKIA" + "Z7Q4" * 4,
    "google-api": "AIza" + "b" * 35,
}
PEM_LINE = "-----BEGIN RSA PRIVATE KEY-----"


def run(args: list[str], stdin: bytes = b"", cwd: Path | None = None
        ) -> tuple[int, bytes, list[dict[str, Any]], str]:
    if "--rules" not in args:  # the tables below are the default patterns'
        args = [*args, "--rules", "default"]
    res = run_filter("scan", args, stdin, cwd=cwd)
    return res.code, res.out, res.records(), res.err


def findings(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [r for r in records if r["kind"] == "finding"]


def assert_no_secret(raw: bytes, err: str) -> None:
    for value in [*SECRETS.values(), *PLANTED.values()]:
        assert value.encode() not in raw
        assert value not in err


PLANTED = {"key": "sk-ant-api03-" + "Z" * 32, "token": "ghp_" + "Kq3" * 14}
OLD = f'''import db

API_KEY = "{PLANTED["key"]}"


def find(name):
    return db.execute("SELECT * FROM users WHERE name = '" + name + "'")
'''
NEW = OLD + f'''

def find_again(name):
    token = "{PLANTED["token"]}"
    return db.execute("SELECT * FROM users WHERE name = '" + name + "'")
'''


def test_added_lines_only_secrets_and_sql(tmp_path):
    repo = make_repo(tmp_path / "r", {"app.py": OLD}, {"app.py": NEW})
    code, raw, records, err = run(["--repo", str(repo), "--base", "main"])
    assert code == 0, err
    got = sorted((f["rule"], f["file"], f["line"]) for f in findings(records))
    assert got == [("secret/github-token", "app.py", 11), ("sql-string-built", "app.py", 12)]
    for f in findings(records):
        assert (f["origin"], f["source"], f["confidence"]) == ("security", "script", 1.0)
    assert_no_secret(raw, err)
    last = records[-1]
    assert last["kind"] == "scan" and last["files"] == 1 and last["added_lines"] == 5


def test_removed_lines_and_headers_are_never_scanned():
    secret = PLANTED["key"]
    diff = (f"diff --git a/x.py b/x.py\n--- a/x.py\n+++ b/x.py {secret}\n@@ -1,2 +1,2 @@\n"
            f' same = 1\n-old = "{secret}"\n+new = 2\n').encode()
    code, raw, records, err = run(["--no-audit"], diff)
    assert findings(records) == [] and code == 0
    assert_no_secret(raw, err)


@pytest.mark.parametrize("rule", sorted(SECRETS))
def test_each_credential_shape_is_found_and_never_printed(rule):
    value = SECRETS[rule]
    diff = (f"--- a/conf.env\n+++ b/conf.env\n@@ -0,0 +1,2 @@\n+X={value}\n+plain=1\n").encode()
    code, raw, records, err = run(["--diff", "-"], diff)
    (f,) = findings(records)
    assert (f["rule"], f["line"], f["severity"]) == (f"secret/{rule}", 1, "critical")
    assert "evidence" not in f
    assert_no_secret(raw, err)


def test_a_private_key_block_is_found_at_its_begin_line():
    diff = (f"--- /dev/null\n+++ b/k.pem\n@@ -0,0 +1,3 @@\n+{PEM_LINE}\n+MIIEow{'A' * 58}\n"
            "+-----END RSA PRIVATE KEY-----\n").encode()
    (f,) = findings(run(["--diff", "-"], diff)[2])
    assert (f["rule"], f["line"]) == ("secret/pem-private-key", 1)


def test_every_default_rule_fires():
    for p in CREDENTIAL_PATTERNS:
        shape = p.prefix.replace(b"gh[pous]_", b"ghs_").decode() + "A1" * (p.tail_len // 2 + 1)
        diff = f"--- a/x\n+++ b/x\n@@ -0,0 +1 @@\n+v = {shape}\n".encode()
        rules = [f["rule"] for f in findings(run(["--diff", "-"], diff)[2])]
        assert rules == [f"secret/{p.name}"], p.name


def test_a_secret_line_with_a_lexical_hit_keeps_no_evidence():
    secret = PLANTED["key"]
    diff = (f"--- a/a.py\n+++ b/a.py\n@@ -0,0 +1 @@\n"
            f'+log.info("key %s", api_key or "{secret}")\n').encode()
    code, raw, records, err = run(["--diff", "-"], diff)
    assert {f["rule"] for f in findings(records)} == {"secret/anthropic", "sensitive-log"}
    assert all("evidence" not in f for f in findings(records))
    assert_no_secret(raw, err)


# --------------------------------------------------------------------------- #
# The lexical table: positives and near misses per language.
# --------------------------------------------------------------------------- #
LEX = [
    # (file, line, rule or None)
    ("a.py", 'cur.execute("SELECT * FROM t WHERE id = " + uid)', "sql-string-built"),
    ("a.py", 'cur.execute(f"DELETE FROM t WHERE id = {uid}")', "sql-string-built"),
    ("a.py", 'q = "UPDATE users SET name = \'%s\'" % name', "sql-string-built"),
    ("a.py", 'q = "select * from users where id = {}".format(uid)', "sql-string-built"),
    ("a.py", 'cur.execute("SELECT * FROM t WHERE id = %s", (uid,))', None),
    ("a.py", 'msg = "Select a file from the list: " + name', None),
    ("a.js", "db.query(`SELECT * FROM t WHERE id = ${id}`)", "sql-string-built"),
    ("a.ts", 'db.query("SELECT name FROM t WHERE id = " + id)', "sql-string-built"),
    ("a.js", 'db.query("SELECT name FROM t WHERE id = ?", [id])', None),
    ("a.go", 'q := fmt.Sprintf("SELECT * FROM t WHERE id = %d", id)', "sql-string-built"),
    ("a.go", 'rows, _ := db.Query("SELECT * FROM t WHERE id = $1", id)', None),
    ("a.rb", 'User.where("name = \'#{name}\'").where("SELECT 1 FROM x")', "sql-string-built"),
    ("a.php", '$q = "SELECT * FROM t WHERE id = $id";', "sql-string-built"),
    ("A.java", 'stmt.executeQuery("SELECT * FROM t WHERE id = " + id);', "sql-string-built"),
    ("a.rs", 'let q = format!("SELECT * FROM t WHERE id = {}", id);', "sql-string-built"),
    ("a.py", 'os.system("rm -rf " + path)', "shell-string-built"),
    ("a.py", 'subprocess.run(f"ls {d}", shell=True)', "shell-string-built"),
    ("a.py", 'subprocess.run(["ls", d])', None),
    ("a.js", "exec(`git checkout ${branch}`)", "shell-string-built"),
    ("a.js", 'execFile("git", ["checkout", branch])', None),
    ("a.go", 'exec.Command("sh", "-c", "ls "+dir)', "shell-string-built"),
    ("a.go", 'exec.Command("ls", dir)', None),
    ("a.rb", "system(\"tar xf #{file}\")", "shell-string-built"),
    ("a.php", "shell_exec(\"convert $file out.png\");", "shell-string-built"),
    ("a.py", 'log.info("opened session %s for %s", token, user)', "sensitive-log"),
    ("a.py", 'logger.debug(f"login {user} with {password}")', "sensitive-log"),
    ("a.py", 'print("api key:", settings.api_key)', "sensitive-log"),
    ("a.py", 'logger.info("password reset requested for %s", user)', None),
    ("a.py", 'log.info("used %d tokens", n_tokens)', None),
    ("a.js", "console.log('auth', req.headers.authorization, accessToken)", "sensitive-log"),
    ("a.js", "console.log('token refreshed for', userId)", None),
    ("a.go", 'log.Printf("user %s secret %s", u, secret)', "sensitive-log"),
    ("a.rb", 'Rails.logger.info("pw: #{user.password}")', "sensitive-log"),
    ("A.java", 'log.info("Card {}", cardNumber);', "sensitive-log"),
    ("a.py", "result = eval(expr)", "eval"),
    ("a.py", "model.eval()", None),
    ("a.py", "ast.literal_eval(text)", None),
    ("a.py", 'note = "never eval(x) here"', None),
    ("a.js", "const f = new Function('a', body)", "eval"),
    ("a.js", "setTimeout(\"run()\", 10)", "eval"),
    ("a.php", "eval($code);", "eval"),
    ("a.sh", 'eval "$CMD"', "eval"),
    ("a.py", "requests.get(url, verify=False)", "tls-verify-disabled"),
    ("a.py", "ctx = ssl._create_unverified_context()", "tls-verify-disabled"),
    ("a.py", "requests.get(url, verify=True)", None),
    ("a.js", "new https.Agent({ rejectUnauthorized: false })", "tls-verify-disabled"),
    ("a.js", "process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0'", "tls-verify-disabled"),
    ("a.go", "tls.Config{InsecureSkipVerify: true}", "tls-verify-disabled"),
    ("a.go", "tls.Config{InsecureSkipVerify: false}", None),
    ("a.rb", "http.verify_mode = OpenSSL::SSL::VERIFY_NONE", "tls-verify-disabled"),
    ("a.php", "curl_setopt($ch, CURLOPT_SSL_VERIFYPEER, false);", "tls-verify-disabled"),
    ("a.rs", "Client::builder().danger_accept_invalid_certs(true)", "tls-verify-disabled"),
    ("a.sh", "curl -k https://example.invalid/x", "tls-verify-disabled"),
    ("A.java", "builder.setSSLHostnameVerifier(NoopHostnameVerifier.INSTANCE)",
     "tls-verify-disabled"),
    ("a.py", "# requests.get(url, verify=False)", None),
    ("a.js", "// eval(x)", None),
    ("README.md", "requests.get(url, verify=False)", None),
]


@pytest.mark.parametrize(("path", "line", "rule"), LEX,
                         ids=[f"{i}-{r or 'none'}" for i, (_, _, r) in enumerate(LEX)])
def test_lexical_table(path, line, rule):
    lang = lexical.language(path)
    got = [r.id for r in lexical.match_line(lang, line)] if lang else []
    assert got == ([rule] if rule else [])


def test_lexical_finding_shape_through_the_cli():
    diff = b"--- a/a.go\n+++ b/a.go\n@@ -1 +1,2 @@\n ctx\n+tls.Config{InsecureSkipVerify: true}\n"
    code, _, records, _ = run(["--diff", "-", "--fail-level", "critical"], diff)
    (f,) = findings(records)
    assert code == 3
    assert f == {"kind": "finding", "origin": "security", "source": "script", "confidence": 1.0,
                 "severity": "critical", "category": "security", "rule": "tls-verify-disabled",
                 "file": "a.go", "line": 2, "summary": "TLS certificate verification disabled",
                 "evidence": "tls.Config{InsecureSkipVerify: true}",
                 "discussion": lexical.RULES[-4].discussion}


# --------------------------------------------------------------------------- #
# Dependency audit.
# --------------------------------------------------------------------------- #
def _fake(tmp: Path, name: str, body: str) -> Path:
    directory = tmp / "fakebin"
    directory.mkdir(exist_ok=True)
    exe = directory / name
    exe.write_text("#!/bin/sh\n" + body)
    exe.chmod(exe.stat().st_mode | stat.S_IEXEC)
    return directory


def test_audit_through_an_installed_auditor(tmp_path, monkeypatch):
    report = {"dependencies": [{"name": "flask", "version": "0.12", "vulns": [
        {"id": "PYSEC-2019-179", "fix_versions": ["1.0"], "description": "DoS via JSON"}]},
        {"name": "click", "version": "8.1", "vulns": []}]}
    fake = _fake(tmp_path, "pip-audit", f"echo '{json.dumps(report)}'\nexit 1\n")
    monkeypatch.setenv("PATH", f"{fake}{os.pathsep}{os.environ['PATH']}")
    repo = make_repo(tmp_path / "r", {"requirements.txt": "click==8.1\n"},
                     {"requirements.txt": "click==8.1\nflask==0.12\n"})
    code, raw, records, err = run(["--repo", str(repo), "--base", "main", "--audit"])
    (f,) = findings(records)
    assert (f["rule"], f["file"], f["line"], f["severity"]) == (
        "vulnerable-dependency", "requirements.txt", 2, "critical")
    assert f["advisory"] == "PYSEC-2019-179" and f["tool"] == "pip-audit"
    assert records[-1]["audited"] == [{"root": ".", "tool": "pip-audit", "advisories": 1}]
    assert records[-1]["skipped_layers"] == []


def test_a_missing_auditor_is_a_skipped_layer(tmp_path, monkeypatch):
    only_git = tmp_path / "only-git"
    only_git.mkdir()
    for tool in ("git", "sh"):
        real = [p for p in os.environ["PATH"].split(os.pathsep) if (Path(p) / tool).exists()][0]
        (only_git / tool).symlink_to(Path(real) / tool)
    monkeypatch.setenv("PATH", str(only_git))
    repo = make_repo(tmp_path / "r", {"package.json": "{}", "package-lock.json": "{}"},
                     {"package.json": '{"dependencies":{"left-pad":"1"}}'})
    code, _, records, _ = run(["--repo", str(repo), "--base", "main", "--audit"])
    assert code == 0
    assert records[-1]["skipped_layers"] == [{"layer": "dependency-audit", "root": ".",
                                              "tool": "npm", "reason": "npm is not installed"}]


def test_no_manifest_change_means_no_audit_and_no_skip(tmp_path):
    repo = make_repo(tmp_path / "r", {"requirements.txt": "x\n"}, {"a.py": "x = 1\n"})
    records = run(["--repo", str(repo), "--base", "main"])[2]
    assert records[-1]["skipped_layers"] == [] and records[-1]["audited"] == []


def test_a_diff_alone_skips_the_audit_with_a_reason(tmp_path):
    diff = b"--- a/go.mod\n+++ b/go.mod\n@@ -1 +1,2 @@\n module m\n+require x v1\n"
    records = run(["--diff", "-", "--audit"], diff, cwd=tmp_path)[2]
    assert records[-1]["skipped_layers"][0]["reason"].startswith("no repository")


# --------------------------------------------------------------------------- #
# Inputs and errors.
# --------------------------------------------------------------------------- #
def test_context_names_the_base(tmp_path):
    repo = make_repo(tmp_path / "r", {"a.py": "x = 1\n"}, {"a.py": "x = 1\ny = eval(s)\n"})
    ctx = tmp_path / "ctx.json"
    ctx.write_text(json.dumps({"kind": "context", "base": "main"}))
    records = run(["--repo", str(repo), "--context", str(ctx)])[2]
    assert [(f["rule"], f["line"]) for f in findings(records)] == [("eval", 2)]


def test_stdin_and_dash_and_file_agree(tmp_path):
    diff = b"--- a/a.py\n+++ b/a.py\n@@ -0,0 +1 @@\n+y = eval(s)\n"
    (tmp_path / "c.diff").write_bytes(diff)
    a = run([], diff, cwd=tmp_path)[1]
    assert a == run(["--diff", "-"], diff, cwd=tmp_path)[1]
    assert a == run(["--diff", "c.diff"], cwd=tmp_path)[1]


@pytest.mark.parametrize("args", [["--base", PLANTED["key"]], ["--base", "-" + PLANTED["key"]],
                                  ["--fail-level", PLANTED["key"]],
                                  ["--diff", "/nonexistent/" + PLANTED["key"]]])
def test_errors_are_one_line_and_never_echo_a_secret(tmp_path, args):
    repo = make_repo(tmp_path / "r", {"a": "1\n"}, {"a": "2\n"})
    code, raw, _, err = run(["--repo", str(repo), *args])
    assert code in (1, 2) and len(err.splitlines()) == 1 and raw == b""
    assert_no_secret(raw, err)


def test_output_is_sorted_and_stable():
    diff = (b"--- a/b.py\n+++ b/b.py\n@@ -0,0 +1,2 @@\n+eval(x)\n+os.system('a' + b)\n"
            b"--- a/a.py\n+++ b/a.py\n@@ -0,0 +1 @@\n+eval(y)\n")
    first = run([], diff)[1]
    assert first == run([], diff)[1]
    keys = [(f["file"], f["line"]) for f in findings([json.loads(x) for x in first.splitlines()])]
    assert keys == sorted(keys)


def test_docs_show_the_rule_table_as_the_code_has_it():
    text = (Path(__file__).resolve().parent.parent / "docs" / "scan.md").read_text()
    begin, end = "<!-- rules:begin -->\n", "<!-- rules:end -->"
    assert text.split(begin, 1)[1].split(end, 1)[0] == lexical.table_markdown()


def _secrets_package() -> bool:
    import importlib.util

    return importlib.util.find_spec("council_filters.redaction.secrets") is not None


@pytest.mark.skipif(not _secrets_package(), reason="the extended rules are not installed")
def test_the_extended_rules_are_the_default_when_installed():
    conn = "postgres://app:" + "Xq7" * 6 + "@db.internal:5432/app"
    diff = f"--- a/s.py\n+++ b/s.py\n@@ -0,0 +1 @@\n+DSN = '{conn}'\n".encode()
    res = run_filter("scan", [], diff)
    assert res.records()[-1]["secret_rules"] == "extended"
    (f,) = [r for r in res.records() if r["kind"] == "finding" and r["rule"].startswith("secret/")]
    assert conn.encode() not in res.out
    assert [r["rule"] for r in run(["--diff", "-"], diff)[2] if r["kind"] == "finding"
            and r["rule"].startswith("secret/")] == []  # the default patterns miss it


@pytest.mark.skipif(_secrets_package(), reason="the extended rules are installed")
def test_asking_for_missing_extended_rules_is_a_usage_error():
    res = run_filter("scan", ["--rules", "extended"], b"")
    assert res.code == 2 and "not installed" in res.err
    assert run_filter("scan", [], b"").records()[-1]["secret_rules"] == "default"
