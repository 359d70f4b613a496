"""`make review-cycle-files`: consolidate -> state add -> accept [-> record-fix] -> scope,
run through the Makefile on the bundled six-origin example; and `make review-cycle`, the
call of `council code-review` (run, accept, fix, rereview, status)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from pipeline_kit import EXAMPLES, ROOT, bin_dir, clean_env

pytestmark = pytest.mark.slow  # the code-review flow through make and real processes

ORIGINS = ("sec", "req", "tst", "arq", "reg", "prf")
EXAMPLE = EXAMPLES / "code-review"
PROJECT = EXAMPLES / "project" / "change"


def review_cycle(state: Path, findings: list[Path], *extra: str
                 ) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["make", "-s", "--no-print-directory", "-C", str(ROOT), "review-cycle-files",
         f"BIN={bin_dir()}", f"REPO={PROJECT}", f"STATE={state}",
         "FINDINGS=" + " ".join(str(p) for p in findings), *extra],
        env=clean_env(COUNCIL_NOW="2026-01-07T12:00:00Z"), capture_output=True, text=True,
        timeout=60, check=False)


def load(state: Path) -> dict[str, dict]:
    return {f["id"]: f for f in json.loads(state.read_text())["findings"]}


def scope_record(stdout: str) -> dict:
    lines = stdout.splitlines()
    assert len(lines) == 1, stdout
    record = json.loads(lines[0])
    assert record["kind"] == "scope"
    return record


def test_review_cycle_on_the_example(tmp_path):
    state = tmp_path / "review-state.json"
    findings = [EXAMPLE / f"{o}.jsonl" for o in ORIGINS]
    res = review_cycle(state, findings, "ACCEPT=--severity critical,security",
                       f"FIXES={EXAMPLE / 'fixes.jsonl'}")
    assert res.returncode == 0, res.stderr
    assert res.stderr == ""
    assert scope_record(res.stdout) == {
        "kind": "scope",
        "reviewers_to_rerun": ["security", "tests"],
        "files_to_inspect": ["app/search.py", "app/sessions.py", "tests/test_sessions.py"],
        "findings_in_scope": ["SEC-001", "TST-001"],
        "escalated": [],
    }
    got = load(state)
    assert {fid: f["status"] for fid, f in got.items()} == {
        "SEC-001": "fixed", "SEC-002": "accepted", "REQ-001": "dismissed",
        "TST-001": "fixed", "ARQ-001": "dismissed", "REG-001": "dismissed",
        "PRF-001": "dismissed",
    }
    # The injection and the slow LIKE on app/search.py:5 are two problems: not merged.
    assert got["SEC-001"]["merged_origins"] == ["security"]
    assert got["SEC-001"]["severity"] == "critical"
    assert got["SEC-001"]["fix_attempts"] == 1 and got["SEC-001"]["in_scope"] is True
    assert got["TST-001"]["files_touched"] == ["app/sessions.py", "tests/test_sessions.py"]
    history = json.loads(state.read_text())["history"]
    assert {h["verb"] for h in history} >= {"init", "add", "accept", "record-fix", "scope"}


def test_review_cycle_without_fixes_scopes_nothing_and_keeps_ids(tmp_path):
    state = tmp_path / "review-state.json"
    findings = [EXAMPLE / f"{o}.jsonl" for o in ORIGINS]
    res = review_cycle(state, findings, "ACCEPT=--ids SEC-001,REG-001")
    assert res.returncode == 0, res.stderr
    assert scope_record(res.stdout)["findings_in_scope"] == []
    first = load(state)
    assert sorted(fid for fid, f in first.items() if f["status"] == "accepted") == [
        "REG-001", "SEC-001"]

    # The next round: the same findings keep their IDs (same fingerprints), a new
    # one gets the next number of its code, and settled findings stay settled.
    extra = tmp_path / "sec-round2.jsonl"
    extra.write_text(json.dumps({
        "kind": "finding", "origin": "security", "severity": "critical",
        "file": "app/sessions.py", "line": 30,
        "subject": "close_session does not check that the caller owns the token",
    }) + "\n")
    again = review_cycle(state, [*findings, extra], "ACCEPT=--severity critical")
    assert again.returncode == 0, again.stderr
    second = load(state)
    assert set(second) == set(first) | {"SEC-003"}
    assert second["SEC-003"]["status"] == "accepted"
    assert {fid: f["status"] for fid, f in second.items() if fid != "SEC-003"} == {
        fid: f["status"] for fid, f in first.items()}


def test_review_cycle_needs_findings(tmp_path):
    res = review_cycle(tmp_path / "s.json", [])
    assert res.returncode != 0
    assert "review-cycle-files: give BASE=REF and/or FINDINGS=" in res.stderr
    assert not (tmp_path / "s.json").exists()


def test_review_cycle_refuses_an_unknown_selection(tmp_path):
    state = tmp_path / "review-state.json"
    res = review_cycle(state, [EXAMPLE / "sec.jsonl"], "ACCEPT=--severity critcal")
    assert res.returncode != 0
    assert "council-state: accept: --severity item" in res.stderr
    # Nothing was accepted or dismissed: the findings are still open.
    assert {f["status"] for f in load(state).values()} == {"open"}


def test_review_cycle_with_the_script_layers(tmp_path):
    """BASE set: context, security-scan and (opted in: RUN_TESTS=1) run-tests run first and
    their findings join."""
    import shlex
    import sys

    from conftest import make_repo

    repo = make_repo(tmp_path / "repo", {
        "requirements.txt": "pytest\n",
        "app.py": "def find(db, name):\n    return db.execute('SELECT 1')\n",
        ".specs/features/search/spec.md": "# Search\n",
    }, {
        "app.py": "def find(db, name):\n"
                  "    return db.execute(\"SELECT * FROM users WHERE name = '\" + name + \"'\")\n",
        "tests/test_app.py": "def test_ok():\n    assert True\n\n\ndef test_bad():\n"
                             "    assert 1 == 2\n",
    }, branch="feature/search")
    state = tmp_path / "review" / "review-state.json"
    state.parent.mkdir()
    other = tmp_path / "arq.jsonl"
    other.write_text(json.dumps({"kind": "finding", "origin": "architecture", "severity":
                                 "minor", "file": "requirements.txt", "line": 1, "subject": "pin"})
                     + "\n")
    pytest_cmd = f"{shlex.quote(sys.executable)} -m pytest -q"
    res = subprocess.run(
        ["make", "-s", "--no-print-directory", "-C", str(ROOT), "review-cycle-files",
         f"BIN={bin_dir()}", f"REPO={repo}", f"STATE={state}", "BASE=main", "TASK=Search",
         f"FINDINGS={other}", "ACCEPT=--all", f"TESTS_ARGS=--test-cmd '{pytest_cmd}'",
         "RUN_TESTS=1"],
        env=clean_env(COUNCIL_NOW="2026-01-07T12:00:00Z"), capture_output=True, text=True,
        timeout=180, check=False)
    assert res.returncode == 0, res.stderr
    ctx = json.loads((state.parent / "context.json").read_text())
    assert ctx["spec"]["path"] == ".specs/features/search" and ctx["readiness"] == "degraded"
    scan_summary = json.loads((state.parent / "sec-script.jsonl.summary.json").read_text())
    assert scan_summary["kind"] == "scan"
    got = load(state)
    by_origin = sorted((f["origin"], f["file"], f["line"], f.get("rule")) for f in got.values())
    assert by_origin == [
        ("architecture", "requirements.txt", 1, None),
        ("security", "app.py", 2, "sql-string-built"),
        ("tests", "tests/test_app.py", 5, "test-failure"),
    ]
    assert {f["status"] for f in got.values()} == {"accepted"}
    assert json.loads(state.read_text())["context"]["base"] == "main"


def test_review_cycle_is_a_call_of_council_code_review(tmp_path):
    import shlex
    import sys

    from conftest import make_repo

    data = Path(__file__).resolve().parent / "data" / "code_review"
    repo = make_repo(tmp_path / "repo", {"app.py": "def find(db, name):\n    return 1\n"}, {
        "app.py": "def find(db, name):\n"
                  "    return db.execute(\"SELECT * FROM users WHERE name = '\" + name + \"'\")\n",
    })
    py = shlex.quote(sys.executable)
    commands = tmp_path / "commands"
    commands.write_text(f"stub = {py} {shlex.quote(str(data / 'reviewer.py'))}\n"
                        f"corrector = {py} {shlex.quote(str(data / 'corrector.py'))}\n")
    modes = tmp_path / "modes.json"
    modes.write_text("{}")
    state = tmp_path / "review" / "state.json"
    state.parent.mkdir()
    res = subprocess.run(
        ["make", "-s", "--no-print-directory", "-C", str(ROOT), "review-cycle",
         f"BIN={bin_dir()}", f"REPO={repo}", f"STATE={state}", "BASE=main", "TASK=Search",
         f"COMMANDS={commands}", "ACCEPT=--severity critical", "FIX=1"],
        env=clean_env(COUNCIL_NOW="2026-01-07T12:00:00Z", STUB_MODE=str(modes),
                      XDG_CONFIG_HOME=str(tmp_path / "xdg")),
        capture_output=True, text=True, timeout=180, check=False)
    assert res.returncode == 0, res.stderr
    assert "<!-- code-review:security:SEC-001 -->" in res.stdout
    assert "accepted 1: SEC-001" in res.stdout
    assert "complete: every finding is verified, dismissed or escalated" in res.stdout
    assert load(state)["SEC-001"]["status"] == "verified"
    assert "?" in (repo / "app.py").read_text()
