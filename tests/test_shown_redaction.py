"""What the project writes from repository text or tool output goes through the extended
rules: the code-review report's snippets, council-tests' failure evidence, a reviewer's
stderr in a summary -- a credential council-scan flagged never appears in clear beside it."""

from __future__ import annotations

import shlex
import sys

import pytest

from conftest import make_repo, run_filter

pytest.importorskip("council_filters.redaction.secrets")

# Shapes the eleven default patterns do not know, each built so no scanner trips on this file.
PASSWORD = "Sup3r" + "S3cretPw9"
CREDENTIALS = {
    "url-password": f"postgres://admin:{PASSWORD}@db.internal:5432/app",
    "slack-webhook": "https://hooks.slack.com/services/T" + "0ABCDEFG/B0ABCDEFG/" + "x7" * 12,
    "stripe": "sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc",
}
TAILS = {"url-password": PASSWORD, "slack-webhook": "x7" * 12,
         "stripe": "4eC39HqLyjWDarjtT1zdp7dc"}


def _change() -> str:
    return "".join(f'{name.replace("-", "_").upper()} = "{value}"\n'
                   for name, value in CREDENTIALS.items())


def test_report_snippets_never_show_what_the_scan_flagged(tmp_path):
    repo = make_repo(tmp_path / "r", {"settings.py": "DEBUG = False\n"},
                     {"settings.py": "DEBUG = False\n" + _change()})
    scan = run_filter("scan", ["--repo", str(repo), "--base", "main", "--rules", "extended"])
    assert scan.code == 0, scan.err
    findings = [r for r in scan.records() if r["kind"] == "finding"]
    assert len(findings) >= len(CREDENTIALS)
    for fmt in ("markdown", "rdjsonl", "sarif", "json", "findings"):
        res = run_filter("consolidate", ["--repo", str(repo), "--format", fmt], scan.out)
        assert res.code == 0, (fmt, res.err)
        for tail in TAILS.values():
            assert tail not in res.out.decode(), fmt
    md = run_filter("consolidate", ["--repo", str(repo)], scan.out).out.decode()
    assert "settings.py" in md


def test_test_failure_evidence_is_redacted_with_the_extended_rules(tmp_path):
    repo = make_repo(tmp_path / "r", {"a.txt": "x\n"}, {"a.txt": "y\n"})
    script = tmp_path / "failing.py"
    script.write_text("import sys\n" + "".join(
        f"print({value!r})\n" for value in CREDENTIALS.values()) + "sys.exit(1)\n")
    cmd = f"{shlex.quote(sys.executable)} {shlex.quote(str(script))}"
    res = run_filter("tests", ["--repo", str(repo), "--run-tests", "--test-cmd", cmd])
    assert res.code == 0, res.err
    text = res.out.decode()
    assert '"kind":"finding"' in text.replace(" ", "")
    for tail in TAILS.values():
        assert tail not in text and tail not in res.err


def test_reviewer_stderr_in_a_summary_is_redacted_with_the_extended_rules(tmp_path):
    from council_filters.dispatch import outcome

    for value, tail in zip(CREDENTIALS.values(), TAILS.values(), strict=True):
        line = f"error: cannot connect with {value}\n".encode()
        assert tail.encode() not in outcome.redact_excerpt(line)
    # and through a real dispatch: a failing reviewer's stderr reaches its summary
    cfg = tmp_path / "commands"
    value = CREDENTIALS["url-password"]
    cfg.write_text(f"alpha = cat > /dev/null; echo 'fatal: {value}' >&2; exit 1\n")
    pack = b'{"kind":"pack","reviewer":"alpha","pack":"p"}\n'
    res = run_filter("dispatch", ["--config", str(cfg), "--jsonl"], pack)
    assert PASSWORD not in res.out.decode() and PASSWORD not in res.err
