"""`council code-review`: the whole loop (run -> accept -> fix -> rereview -> status) on
repositories built here, with stub reviewer CLIs and a stub corrector that edits files."""

from __future__ import annotations

import io
import json
import shlex
import sys
from pathlib import Path

import pytest

from council_filters.cli import council as council_cli

from conftest import make_repo

DATA = Path(__file__).resolve().parent / "data" / "code_review"
PY = shlex.quote(sys.executable)

BASE = {
    "app.py": "def find(db, name):\n    return db.execute('SELECT 1')\n",
    "report.py": "def report(db, users):\n    return None\n",
    ".specs/features/search/spec.md": "# Search\nFind users by exact name.\n",
}
CHANGE = {
    "app.py": "import sqlite3\n\n\ndef find(db, name):\n"
              "    return db.execute(\"SELECT * FROM users WHERE name = '\" + name + \"'\")\n",
    "report.py": "def report(db, users):\n"
                 "    for user in users: db.execute('SELECT 1 WHERE id = ?', (user,))\n",
}


class Flow:
    def __init__(self, tmp: Path, monkeypatch: pytest.MonkeyPatch, modes: dict[str, str]
                 ) -> None:
        self.repo = make_repo(tmp / "repo", BASE, CHANGE, branch="feature/search")
        self.state = tmp / "review" / "state.json"
        self.state.parent.mkdir()
        self.log = tmp / "calls.jsonl"
        self.modes = tmp / "modes.json"
        self.set_modes(modes)
        commands = tmp / "commands"
        commands.write_text(
            f"alpha = {PY} {shlex.quote(str(DATA / 'reviewer.py'))}\n"
            f"beta = {PY} {shlex.quote(str(DATA / 'reviewer.py'))}\n"
            "code-review.performance = beta\n"
            f"corrector = {PY} {shlex.quote(str(DATA / 'corrector.py'))}\n")
        self.commands = commands
        monkeypatch.setenv("STUB_LOG", str(self.log))
        monkeypatch.setenv("STUB_MODE", str(self.modes))
        monkeypatch.setenv("COUNCIL_NOW", "2026-01-07T12:00:00Z")
        monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp / "xdg"))
        monkeypatch.delenv("COUNCIL_COMMANDS", raising=False)
        monkeypatch.chdir(self.repo)

    def set_modes(self, modes: dict[str, str]) -> None:
        self.modes.write_text(json.dumps(modes))

    def cli(self, *args: str, config: bool = True) -> tuple[int, str, str]:
        out, err = io.BytesIO(), io.StringIO()
        argv = ["code-review", args[0], "--state", str(self.state), *args[1:]]
        if config and args[0] in ("run", "fix", "rereview"):
            argv += ["--config", str(self.commands)]
        code = council_cli.main(argv, stdin=io.BytesIO(), stdout=out, stderr=err)
        return code, out.getvalue().decode(), err.getvalue()

    def findings(self) -> dict[str, dict]:
        return {f["id"]: f for f in json.loads(self.state.read_text())["findings"]}

    def calls(self) -> list[dict]:
        if not self.log.exists():
            return []
        return [json.loads(line) for line in self.log.read_text().splitlines()]


def run_and_accept(flow: Flow, *accept: str) -> tuple[str, str]:
    code, report, err = flow.cli("run", "--base", "main", "--task", "Find users by name")
    assert code == 0, err
    code, out, err = flow.cli("accept", *accept)
    assert code == 0, err
    return report, out


def test_run_reviews_with_six_origins_and_reasks_an_invalid_answer(tmp_path, monkeypatch):
    flow = Flow(tmp_path, monkeypatch, {})
    code, report, err = flow.cli("run", "--base", "main", "--task", "Find users by name")
    assert code == 0, err
    calls = flow.calls()
    # Six origins asked at once, each with COUNCIL_ORIGIN / COUNCIL_REVIEWER set; the
    # performance origin goes to the reviewer its code-review line names.
    first = [c for c in calls if not c["retry"]]
    assert sorted(c["origin"] for c in first) == sorted(
        ["security", "requirements", "tests", "architecture", "regression", "performance"])
    assert {c["origin"]: c["reviewer"] for c in first}["performance"] == "beta"
    assert {c["reviewer"] for c in first if c["origin"] != "performance"} == {"alpha"}
    # The architecture stub answered prose first: re-asked once with the verifier's errors.
    assert [c["origin"] for c in calls if c["retry"]] == ["architecture"]
    got = flow.findings()
    # The scan's SQL finding and the security reviewer's finding on that line are one.
    assert sorted(got) == ["ARQ-001", "PRF-001", "SEC-001"]
    assert got["SEC-001"]["merged_count"] == 2 and got["SEC-001"]["source"] == "script"
    # The regression stub's 0.5-confidence guess is left out by the universal rules.
    assert not [f for f in got.values() if f["origin"] == "regression"]
    assert "<!-- code-review:security:SEC-001 -->" in report
    assert "below confidence 0.8 left out" in report
    assert "tests: skipped: the change's tests were not run (--run-tests" in report
    assert "tests script skipped" in err
    assert {f["status"] for f in got.values()} == {"open"}
    code, out, _ = flow.cli("status")
    assert code == 3 and "waiting for accept" in out


def test_the_whole_loop_with_disjoint_correctors_confirmed(tmp_path, monkeypatch):
    flow = Flow(tmp_path, monkeypatch, {"security": "fix", "performance": "fix"})
    _report, out = run_and_accept(flow, "SEC-001", "PRF-001")
    assert "accepted 2: SEC-001 PRF-001" in out
    assert "dismissed 1: ARQ-001" in out
    code, _out, err = flow.cli("fix")
    assert code == 0, err
    assert "correcting: security, performance (at the same time)" in err
    assert "?" in (flow.repo / "app.py").read_text()
    got = flow.findings()
    assert got["SEC-001"]["status"] == "fixed" and got["SEC-001"]["files_touched"] == ["app.py"]
    assert got["PRF-001"]["status"] == "fixed"
    code, _out, _err = flow.cli("status")
    assert code == 3
    before = len(flow.calls())
    code, _out, err = flow.cli("rereview")
    assert code == 0, err
    rerun = [c for c in flow.calls()[before:] if "origin" in c]
    # Only the origins whose findings were fixed are asked again, with the re-review pack.
    assert sorted(c["origin"] for c in rerun) == ["performance", "security"]
    assert all(c["rereview"] for c in rerun)
    got = flow.findings()
    assert got["SEC-001"]["status"] == "verified" and got["PRF-001"]["status"] == "verified"
    assert got["SEC-001"]["fix_attempts"] == 1
    assert "SEC-001: verified" in err
    code, out, _ = flow.cli("status")
    assert code == 0 and "complete" in out


def test_a_fix_that_fails_twice_is_frozen(tmp_path, monkeypatch):
    flow = Flow(tmp_path, monkeypatch, {"security": "noop"})
    _report, out = run_and_accept(flow, "--severity", "critical")
    assert "accepted 1: SEC-001" in out and "dismissed 2:" in out
    for attempt in (1, 2):
        code, _o, err = flow.cli("fix")
        assert code == 0, err
        code, _o, err = flow.cli("rereview")
        assert code == 0, err
        got = flow.findings()["SEC-001"]
        assert got["fix_attempts"] == attempt
        if attempt == 1:
            assert got["status"] == "reopened" and "SEC-001: reopened" in err
            assert flow.cli("status")[0] == 3
    got = flow.findings()["SEC-001"]
    assert got["status"] == "escalated" and got["frozen"] is True
    assert "failed verification twice" in err
    code, _o, err = flow.cli("fix")
    assert code == 0 and "nothing to fix" in err
    assert flow.cli("status")[0] == 0


def test_a_fix_induced_finding_gets_a_fresh_id(tmp_path, monkeypatch):
    flow = Flow(tmp_path, monkeypatch, {"security": "induce"})
    run_and_accept(flow, "--all")
    assert flow.cli("fix")[0] == 0
    code, _o, err = flow.cli("rereview")
    assert code == 0, err
    got = flow.findings()
    assert got["SEC-001"]["status"] == "verified"
    induced = [f for f in got.values() if f.get("fix_induced")]
    assert [f["id"] for f in induced] == ["SEC-002"]
    assert induced[0]["status"] == "open" and induced[0]["file"] == "app.py"
    assert "FIX-INDUCED SEC-002" in err
    assert flow.cli("status")[0] == 3  # the new finding waits for a decision


def test_overlapping_correctors_run_one_after_the_other(tmp_path, monkeypatch):
    flow = Flow(tmp_path, monkeypatch, {"security": "fix", "architecture": "append",
                                         "performance": "escalate"})
    _r, out = run_and_accept(flow, "--all")
    assert "accepted 3:" in out and "dismissed 0: -" in out
    code, _o, err = flow.cli("fix")
    assert code == 0, err
    order = [line for line in err.splitlines() if "correcting:" in line]
    # security and performance touch different files; architecture shares app.py.
    assert order == ["council: correcting: security, performance (at the same time)",
                     "council: correcting: architecture"]
    text = (flow.repo / "app.py").read_text()
    assert "?" in text and "repository layer" in text  # both edits kept
    got = flow.findings()
    assert got["PRF-001"]["status"] == "escalated" and got["PRF-001"]["frozen"]
    assert got["PRF-001"]["reason"] == "needs a design decision"
    assert got["ARQ-001"]["status"] == "fixed"


def test_an_undeclared_edit_is_reported(tmp_path, monkeypatch):
    flow = Flow(tmp_path, monkeypatch, {"security": "undeclared"})
    run_and_accept(flow, "SEC-001")
    code, _o, err = flow.cli("fix")
    assert code == 0
    assert "undeclared edit: notes.txt" in err and "corrector: security" in err
    meta = json.loads((flow.state.parent / "state.json.d" / "run.json").read_text())
    assert meta["fix_rounds"][0]["undeclared"] == [{"file": "notes.txt",
                                                    "correctors": ["security"]}]


def test_accept_says_what_it_dismissed_and_refuses_a_typo(tmp_path, monkeypatch):
    flow = Flow(tmp_path, monkeypatch, {})
    assert flow.cli("run", "--base", "main")[0] == 0
    code, _o, err = flow.cli("accept", "--severity", "critcal")
    assert code == 2 and "neither a severity" in err
    assert {f["status"] for f in flow.findings().values()} == {"open"}
    code, out, _ = flow.cli("accept", "--none")
    assert code == 0 and out.splitlines() == ["accepted 0: -",
                                              "dismissed 3: SEC-001 ARQ-001 PRF-001"]
    assert flow.cli("status")[0] == 0


def test_run_stops_on_a_blocking_context(tmp_path, monkeypatch):
    flow = Flow(tmp_path, monkeypatch, {})
    code, _o, err = flow.cli("run", "--commit", "HEAD~0", "--state", str(flow.state))
    assert code == 0  # one commit is a change
    empty = make_repo(tmp_path / "empty", {"a.py": "x = 1\n"})
    monkeypatch.chdir(empty)
    code, _o, err = flow.cli("run", "--base", "main")
    assert code == 3
    assert "give the change to review" in err
    assert not (tmp_path / "empty" / "state.json").exists()


def test_fix_needs_a_corrector_line(tmp_path, monkeypatch):
    flow = Flow(tmp_path, monkeypatch, {})
    run_and_accept(flow, "--all")
    flow.commands.write_text(flow.commands.read_text().replace("corrector =", "# corrector ="))
    code, _o, err = flow.cli("fix")
    assert code == 2 and "corrector = CMD" in err
