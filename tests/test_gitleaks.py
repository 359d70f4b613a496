"""--rules FILE: gitleaks TOML configurations, their semantics, RE2, errors."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import secret_corpus as sc

from council_filters.cli import _shell as kit
from council_filters.redaction.secrets import load_rules, redact_value
from council_filters.redaction.secrets.gitleaks import compile_re2, translate

from conftest import run_filter

DATA = Path(__file__).resolve().parent / "data"
DEFAULT_TOML = DATA / "gitleaks-default.toml"


def run(args: list[str], stdin: bytes = b"") -> tuple[int, bytes, str]:
    r = run_filter("redact", args, stdin)
    return r.code, r.out, r.err


def config(tmp_path: Path, text: str, name: str = "rules.toml") -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


# --------------------------------------------------------------------------- #
# gitleaks' own default configuration.
# --------------------------------------------------------------------------- #
#: Providers of the generated corpus that gitleaks' default file has rules for.
GITLEAKS_PROVIDERS = (
    "aws-access-key-id",
    "aws-temporary",
    "github-ghp",
    "github-ghr",
    "github-ghs",
    "github-fine-grained",
    "gitlab",
    "slack-bot",
    "slack-user",
    "slack-webhook",
    "stripe-live",
    "stripe-short",
    "openai-svcacct",
    "openai-admin",
    "openai-project",
    "anthropic",
    "google-api",
    "jwt",
    "npm",
    "pypi",
    "sendgrid",
    "twilio-api-key",
    "azure-storage",
)


def test_the_default_gitleaks_file_loads() -> None:
    rules = load_rules(str(DEFAULT_TOML))
    assert rules is not None and not rules.extended
    assert len(rules.rules) > 200  # every rule with a regex (path-only rules report files)
    assert "generic-api-key" in rules.ids and "github-pat" in rules.ids


@pytest.mark.parametrize("shape", ["env", "json", "yaml", "alone", "log"])
def test_the_default_gitleaks_file_redacts_its_providers(shape: str) -> None:
    rules = load_rules(str(DEFAULT_TOML))
    rng = random.Random(shape)
    providers = {p.name: p for p in sc.PROVIDERS}
    for name in GITLEAKS_PROVIDERS:
        p = providers[name]
        for _ in range(3):
            secret, key = p.make(rng), rng.choice(p.keys)
            text = {
                "env": f"{key}={secret}",
                "json": f'{{"{key}": "{secret}"}}',
                "yaml": f"{key}: {secret}",
                "alone": secret,
                "log": f"2025-01-01 INFO using {secret} now",
            }[shape]
            out, lines = redact_value(text.encode(), rules)
            assert sc._core(p, secret).encode() not in out, (name, text)
            assert lines == [1]


def test_check_names_gitleaks_rule_ids() -> None:
    token = "ghp_" + "aB3" * 12
    code, out, err = run(["--rules", str(DEFAULT_TOML), "--check"], f"x\n{token}\n".encode())
    assert code == kit.EXIT_CONDITION and out == b""
    # The eleven still run first and name the line.
    assert err.splitlines() == [
        "stdin:2: github-token",
        "council-redact: github-token: 1 line",
        "council-redact: 1 line would be redacted",
    ]
    slack = "xoxb-123456789012-1234567890123-" + "aB3dE" * 5
    code, out, err = run(["--rules", str(DEFAULT_TOML), "--check"], f"{slack}\n".encode())
    assert (code, err.splitlines()[:2]) == (
        3, ["stdin:1: slack-bot-token", "council-redact: slack-bot-token: 1 line"])


def test_extended_and_a_file_combine(tmp_path: Path) -> None:
    path = config(
        tmp_path,
        """
[[rules]]
id = "acme-token"
regex = '''acme_[a-z0-9]{16}'''
keywords = ["acme_"]
""",
    )
    code, out, err = run(
        ["--rules", f"extended,{path}"], b"acme_0123456789abcdef\npassword=hunter2\nok\n"
    )
    assert (code, err) == (0, "")
    assert out == (
        b"--- redacted credential at line 1 ---\n--- redacted credential at line 2 ---\nok\n"
    )
    code, out, _ = run(["--rules", path], b"acme_0123456789abcdef\npassword=hunter2\n")
    assert out == b"--- redacted credential at line 1 ---\npassword=hunter2\n"


# --------------------------------------------------------------------------- #
# Semantics: secretGroup, entropy, keywords, allowlists, paths, extend.
# --------------------------------------------------------------------------- #
SEMANTICS = """
[[rules]]
id = "grouped"
regex = '''(?i)grp[_-]?key\\s*=\\s*"?([a-z0-9]{12,})"?'''
secretGroup = 1
entropy = 3.0
keywords = ["grp"]

[[rules.allowlists]]
regexes = ['''^test''']

[[rules.allowlists]]
stopwords = ["sample"]

[[rules]]
id = "matchtarget"
regex = '''mt_[a-z0-9]{10}'''
[[rules.allowlists]]
regexTarget = "line"
regexes = ['''#\\s*allowed''']

[[rules]]
id = "pathonly"
path = '''\\.pem$'''

[[rules]]
id = "pathbound"
regex = '''pb_[a-z0-9]{10}'''
path = '''config/'''

[[rules]]
id = "andcond"
regex = '''ac_[a-z0-9]{10}'''
[[rules.allowlists]]
condition = "AND"
regexes = ['''^ac_0''']
paths = ['''fixtures/''']

[allowlist]
stopwords = ["deadbeef"]
paths = ['''vendor/''']
"""


@pytest.mark.parametrize(
    ("line", "fires"),
    [
        ('grp_key = "a1b2c3d4e5f6g7h8"', True),
        ('GRP-KEY="a1b2c3d4e5f6g7h8"', True),  # keywords are case-insensitive
        ('grp_key = "aaaaaaaaaaaaaaaa"', False),  # entropy gate (on the group)
        ('grp_key = "test1b2c3d4e5f6g7"', False),  # allowlist regex on the secret
        ('grp_key = "sample2c3d4e5f6g7"', False),  # stopword
        ('grp_key = "deadbeef3d4e5f6g7"', False),  # global stopword
        ("mt_0123456789", True),
        ("mt_0123456789  # allowed", False),  # regexTarget = line
        ("ac_0123456789", True),  # AND: the path part does not hold on stdin
    ],
)
def test_semantics_on_stdin(tmp_path: Path, line: str, fires: bool) -> None:
    rules = load_rules(config(tmp_path, SEMANTICS))
    assert bool(redact_value(line.encode(), rules)[1]) is fires


def test_paths_apply_to_named_files(tmp_path: Path) -> None:
    path = config(tmp_path, SEMANTICS)
    for sub in ("config", "fixtures", "vendor", "other"):
        (tmp_path / sub).mkdir()
        (tmp_path / sub / "a.txt").write_text("pb_0123456789\nac_0123456789\nmt_0123456789\n")
    got = {}
    for sub in ("config", "fixtures", "vendor", "other"):
        code, out, _ = run(["--rules", path, str(tmp_path / sub / "a.txt")])
        assert code == 0
        got[sub] = [ln.startswith(b"--- redacted") for ln in out.splitlines()]
    assert got["config"] == [True, True, True]  # pathbound applies under config/
    assert got["other"] == [False, True, True]
    assert got["fixtures"] == [False, False, True]  # AND: regex and path both hold
    assert got["vendor"] == [False, False, False]  # the global path allowlist


def test_extend_a_base_file_and_disable_rules(tmp_path: Path) -> None:
    config(tmp_path, SEMANTICS, "base.toml")
    child = config(
        tmp_path,
        """
[extend]
path = "base.toml"
disabledRules = ["matchtarget"]

[[rules]]
id = "child"
regex = '''ch_[0-9]{8}'''
""",
    )
    rules = load_rules(child)
    assert rules is not None
    assert "matchtarget" not in rules.ids and {"grouped", "child"} <= set(rules.ids)
    assert redact_value(b"ch_01234567\nmt_0123456789\n", rules)[1] == [1]


# --------------------------------------------------------------------------- #
# RE2.
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize(
    ("pattern", "subject", "matches"),
    [
        ("ab(?i)cd", "abCD", True),  # an inline flag holds from there on
        ("ab(?i)cd", "ABcd", False),
        ("(?i:ab)cd", "ABcd", True),
        ("(?i:ab)cd", "ABCD", False),
        (r"\w+\z", "abc", True),  # \z is the end of the text
        (r"\Qa.b*\E", "a.b*", True),
        (r"\Qa.b*\E", "aXbb", False),
        ("[[:alnum:]]{3}", "a1Z", True),
        (r"\w", "é", False),  # ASCII classes, as in RE2
        (r"\d", "٣", False),
        ("[a&&b]", "&", True),  # no set operations: & is a character
        ("[a-c--]", "-", True),
        (r"\bkey\b", "a key here", True),
    ],
)
def test_re2_meaning(pattern: str, subject: str, matches: bool) -> None:
    assert bool(compile_re2(pattern).search(subject)) is matches


@pytest.mark.parametrize(
    ("pattern", "named"),
    [
        ("a(?=b)", "lookahead"),
        ("a(?!b)", "negative lookahead"),
        ("(?<=a)b", "lookbehind"),
        ("(?<!a)b", "negative lookbehind"),
        (r"(a)\1", "back-reference"),
        ("(?P<x>a)(?P=x)", "named back-reference"),
        ("(?>ab)", "atomic group"),
        ("a*+", "possessive"),
        ("(?U)a+", "ungreedy"),
        (r"a\C", r"\C"),
        ("(?R)", "recursion"),
    ],
)
def test_unsupported_constructs_are_named(pattern: str, named: str) -> None:
    _, problems = translate(pattern)
    assert any(named in p for p in problems), problems


def test_all_problems_in_one_error(tmp_path: Path) -> None:
    path = config(
        tmp_path,
        """
title = "mine"

[[rules]]
id = "ok-rule"
regex = '''ok_[0-9]{4}'''

[[rules]]
id = "look"
regex = '''tok(?=en)'''

[[rules]]
id = "backref"
regex = '''(["'])x\\1'''

[[rules]]
id = "nogroup"
regex = '''abc'''
secretGroup = 2
""",
    )
    code, out, err = run(["--rules", path], b"secret text\n")
    assert code == kit.EXIT_USAGE and out == b""
    lines = err.splitlines()
    assert len(lines) == 1  # one line, no traceback
    msg = lines[0]
    assert msg.startswith(f"council-redact: {path}:9: unsupported rules (3 problems): ")
    assert "rule 'look': regex: lookahead (?=...) is not RE2 syntax" in msg
    assert "rule 'backref' (line 13): regex: back-reference \\1 is not RE2 syntax" in msg
    assert "secretGroup 2 but the regex has 0 group(s)" in msg
    assert "secret text" not in err


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[[rules]\n", "invalid TOML"),
        ("[[rules]]\nregex = 'a'\n", "a rule has no id"),
        ("[[rules]]\nid = 'x'\n", "the rule has neither regex nor path"),
        ("[[rules]]\nid = 'x'\nregex = '('\n", "invalid regex"),
        ("[[rules]]\nid = 'x'\nregex = 'a'\n[[rules.required]]\nid = 'y'\n", "composite rules"),
        ("[extend]\nuseDefault = true\n", "not bundled"),
        (
            "[[rules]]\nid = 'x'\nregex = 'a'\n[[rules.allowlists]]\ncondition = 'XOR'\n"
            "regexes = ['b']\n",
            "condition must be OR or AND",
        ),
        ("[[rules]]\nid = 'x'\nregex = 'a'\nkeywords = 'a'\n", "keywords must be a list"),
    ],
)
def test_bad_files_are_usage_errors(tmp_path: Path, text: str, message: str) -> None:
    code, _, err = run(["--rules", config(tmp_path, text), "-"], b"")
    assert code == kit.EXIT_USAGE
    assert message in err and len(err.splitlines()) == 1


def test_unreadable_and_bad_specs(tmp_path: Path) -> None:
    code, _, err = run(["--rules", str(tmp_path / "none.toml")])
    assert code == 2 and "cannot read rules: No such file or directory" in err
    code, _, err = run(["--rules", "extended,"])
    assert code == 2 and "--rules: give extended" in err
    bad = tmp_path / "bad.toml"
    bad.write_bytes(b"\xff\xfe")
    code, _, err = run(["--rules", str(bad)])
    assert code == 2 and "not UTF-8" in err
