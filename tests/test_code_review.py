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

from conftest import make_repo, run_filter

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
    def __init__(self, tmp: Path, monkeypatch: pytest.MonkeyPatch, modes: dict[str, str],
                 base: dict[str, str] | None = None, change: dict[str, str] | None = None
                 ) -> None:
        self.repo = make_repo(tmp / "repo", base or BASE, change or CHANGE,
                              branch="feature/search")
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
        argv = ["code-review", args[0], "--state", str(self.state), *args[1:]]
        if config and args[0] in ("run", "fix", "rereview"):
            argv += ["--config", str(self.commands)]
        res = run_filter(council_cli.main, argv)
        return res.code, res.out.decode(), res.err

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


def test_packs_are_redacted_and_hold_each_origins_own_slice(tmp_path, monkeypatch):
    flow = Flow(tmp_path, monkeypatch, {})
    secret = "sk-ant-api03-" + "Q" * 40
    (flow.repo / "settings.py").write_text(f'API_KEY = "{secret}"\n')
    packs = tmp_path / "packs"
    packs.mkdir()
    monkeypatch.setenv("STUB_PACKS", str(packs))
    code, report, err = flow.cli("run", "--base", "main", "--task", "Find users by name")
    assert code == 0, err
    sent = {p.name: p.read_text() for p in packs.iterdir()}
    assert len(sent) >= 6
    assert not [name for name, text in sent.items() if secret in text]
    assert secret not in flow.state.read_text() and secret not in report
    # Each origin has its own reference and its own slice, and no other origin's.
    sec, req, arq = sent["security-0.txt"], sent["requirements-0.txt"], sent["architecture-0.txt"]
    assert sec.startswith("# Security reviewer") and "Script findings" in sec
    assert "Requirements reviewer" not in sec and "Find users by name" not in sec
    assert req.startswith("# Requirements reviewer") and "Find users by name" in req
    assert "Find users by exact name." in req and "Script findings" not in req
    assert arq.startswith("# Architecture reviewer") and "Codebase documents" in arq
    assert "settings.py: 1" in sec  # the uncommitted file is part of the change
    # The scan found the credential, by rule and line, never by its text.
    got = flow.findings()
    assert any(f.get("file") == "settings.py" and f.get("source") == "script"
               for f in got.values())


def test_a_user_reference_replaces_the_shipped_one(tmp_path, monkeypatch):
    flow = Flow(tmp_path, monkeypatch, {})
    refs = tmp_path / "xdg" / "council" / "code-review"
    refs.mkdir(parents=True)
    (refs / "regression.md").write_text("# Our own regression checklist\n")
    packs = tmp_path / "packs"
    packs.mkdir()
    monkeypatch.setenv("STUB_PACKS", str(packs))
    assert flow.cli("run", "--base", "main")[0] == 0
    assert (packs / "regression-0.txt").read_text().startswith("# Our own regression checklist")
    assert (packs / "security-0.txt").read_text().startswith("# Security reviewer")


def test_worktree_scope_reviews_uncommitted_work_only(tmp_path, monkeypatch):
    flow = Flow(tmp_path, monkeypatch, {})
    (flow.repo / "extra.py").write_text("def q(db, name):\n"
                                        "    return db.execute(\"SELECT '\" + name + \"'\")\n")
    code, _report, err = flow.cli("run", "--worktree")
    assert code == 0, err
    files = {f["file"] for f in flow.findings().values()}
    assert files == {"extra.py"}  # the committed change (app.py, report.py) is not in scope
    meta = json.loads((flow.state.parent / "state.json.d" / "run.json").read_text())
    assert meta["scope"] == "worktree"


def test_the_interactive_picker(tmp_path, monkeypatch):
    flow = Flow(tmp_path, monkeypatch, {})
    assert flow.cli("run", "--base", "main")[0] == 0

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr(sys, "stdin", Terminal("PRF-001 security\n"))
    code, out, err = flow.cli("accept")
    assert code == 0, err
    assert "SEC-001" in err and "accept which?" in err  # the open findings were listed
    assert out.splitlines() == ["accepted 2: SEC-001 PRF-001", "dismissed 1: ARQ-001"]


# --------------------------------------------------------------------------- #
# The finding contract, the universal rules and the correctors' batches, as functions.
# --------------------------------------------------------------------------- #
LINES = {"app.py": {4, 5}, "report.py": {2}}


def test_an_answer_in_either_shape_reads_as_findings():
    from council_filters.codereview import answers

    konecty = json.dumps([{"origin": "SEC", "severity": "high", "path": "app.py", "line": "5",
                           "title": "Injection", "description": "Concatenated.",
                           "recommendation": "Bind it.", "confidence": "95%"}])
    got = answers.read("Here you go:\n```json\n" + konecty + "\n```\n", "security", LINES)
    assert got.ok, got.errors
    (f,) = got.findings
    assert (f["origin"], f["file"], f["line"], f["subject"]) == ("security", "app.py", 5,
                                                                 "Injection")
    assert f["discussion"] == "Concatenated.\n\nBind it." and f["source"] == "llm"
    pr = {"findings": [{"location": {"kind": "line", "file": "report.py", "start": 2, "end": 2,
                                     "side": "new"}, "label": "issue", "subject": "N+1",
                        "discussion": "A query per user.", "severity": "medium",
                        "confidence": 0.9}]}
    got = answers.read(json.dumps(pr), "performance", LINES)
    assert got.ok and got.findings[0]["line"] == 2 and got.findings[0]["label"] == "issue"
    assert answers.read("[]", "tests", LINES).verify_output() == {"ok": True, "count": 0}


def test_what_does_not_validate_comes_back_as_path_message_hint():
    from council_filters.codereview import answers

    bad = json.dumps([{"severity": "sev9", "file": "app.py", "line": 9, "subject": "x"},
                      {"origin": "tests", "file": "nope.py", "line": 1, "subject": "y",
                       "confidence": 0.9}, "text"])
    out = answers.read(bad, "security", LINES).verify_output()
    assert out["ok"] is False
    by_path = {e["path"]: e for e in out["errors"]}
    assert set(by_path) == {"/0/severity", "/0/confidence", "/0/line", "/1/origin",
                            "/1/file", "/2"}
    assert "4-5" in by_path["/0/line"]["hint"]  # the lines it may point at
    assert all(e["message"] and e["hint"] for e in out["errors"])
    assert "sev9" not in json.dumps(out)  # the reviewer's values are never quoted
    assert answers.read("no json at all", "security", LINES).errors[0]["path"] == ""


def test_the_universal_rules():
    from council_filters.codereview import answers

    kept = answers.universal_rules([
        {"file": "app.py", "line": 5, "confidence": 0.8, "subject": "a"},
        {"file": "app.py", "line": 5, "confidence": 0.79, "subject": "b"},
        {"file": "app.py", "line": 1, "confidence": 0.99, "subject": "c"},
        {"file": "app.py", "line": 1, "source": "script", "subject": "d"},
    ], LINES)
    assert [f["subject"] for f in kept.kept] == ["a", "d"]
    assert kept.kept[1]["confidence"] == 1.0
    assert (kept.low_confidence, kept.outside) == (1, 1)


def test_corrector_batches_keep_shared_files_apart():
    from council_filters.codereview import correct

    def plan(origin: str, *files: str) -> correct.Plan:
        return correct.Plan(origin, [{"id": f"X-{i}", "file": f} for i, f in enumerate(files)])

    got = correct.batches([plan("security", "a.py"), plan("tests", "t.py"),
                           plan("architecture", "a.py", "b.py"), plan("regression", "b.py"),
                           plan("performance", "c.py"), plan("requirements")])
    assert [[p.origin for p in b] for b in got] == [
        ["security", "tests", "regression", "performance"], ["architecture"], ["requirements"]]
    answer = correct.read_answer(json.dumps([
        {"id": "SEC-001", "outcome": "fixed", "files_touched": ["./a.py"]},
        {"id": "SEC-009", "outcome": "fixed"},
        {"id": "SEC-002", "outcome": "maybe"}]), ["SEC-001", "SEC-002"])
    assert answer.outcomes == [{"id": "SEC-001", "outcome": "fixed", "files_touched": ["a.py"],
                                "reason": None}]
    assert len(answer.problems) == 2


CALC_TEST = """import pytest

from calc import add


class TestAdd:
    @pytest.mark.parametrize("a", [1, 2])
    def test_sum(self, a):
        assert add(a, 1) == a + 1

    def test_zero(self):
        assert add(0, 0) == 0
"""


def test_failing_tests_by_node_id_through_fix_and_rereview(tmp_path, monkeypatch):
    flow = Flow(tmp_path, monkeypatch, {"tests": "fix"},
                base={"calc.py": "def add(a, b):\n    return 0\n"},
                change={"calc.py": "def add(a, b):\n    return a - b\n",
                        "tests/test_calc.py": CALC_TEST})
    code, report, err = flow.cli("run", "--base", "main", "--run-tests", "--test-cmd",
                                 f"{PY} -m pytest -q")
    assert code == 0, err
    tests = sorted(f["test"] for f in flow.findings().values() if f["origin"] == "tests")
    assert tests == ["tests/test_calc.py::TestAdd::test_sum[1]",
                     "tests/test_calc.py::TestAdd::test_sum[2]"]
    assert "skipped" not in report.split("## Scripts", 1)[1].split("##", 1)[0]
    assert "TST-001" in report
    assert flow.cli("accept", "--severity", "tests")[0] == 0
    assert flow.cli("fix")[0] == 0
    code, _o, err = flow.cli("rereview")
    assert code == 3 and "settled only by running the tests again" in err
    assert {f["status"] for f in flow.findings().values() if f["origin"] == "tests"} == {"fixed"}
    code, _o, err = flow.cli("rereview", "--run-tests")
    assert code == 0, err
    assert {f["status"] for f in flow.findings().values() if f["origin"] == "tests"} == {
        "verified"}
    assert flow.cli("status")[0] == 0


def test_a_reviewer_that_is_not_installed_is_reported_not_fatal(tmp_path, monkeypatch):
    flow = Flow(tmp_path, monkeypatch, {})
    flow.commands.write_text(flow.commands.read_text() + "ghost = /nonexistent/reviewer-cli\n"
                             "code-review.regression = ghost\n")
    code, report, err = flow.cli("run", "--base", "main")
    assert code == 0, err
    assert "regression (ghost) did not answer" in err
    assert "| regression | ghost | 1 | did not answer" in report
    assert "SEC-001" in flow.findings()


def test_an_unknown_origin_or_reviewer_in_the_commands_file_is_a_usage_error(tmp_path,
                                                                             monkeypatch):
    flow = Flow(tmp_path, monkeypatch, {})
    original = flow.commands.read_text()
    flow.commands.write_text(original + "code-review.style = alpha\n")
    code, _o, err = flow.cli("run", "--base", "main")
    assert code == 2
    assert "commands:5: `code-review.style`: not one of the code-review origins" in err
    flow.commands.write_text(original + "code-review.tests = gamma\n")
    code, _o, err = flow.cli("run", "--base", "main")
    assert code == 2 and "gamma is not a configured reviewer" in err
    assert not flow.state.exists()


def test_the_code_review_lines_name_no_reviewer_for_council_review():
    from council_filters.codereview import setup
    from council_filters.council import config

    table = {"claude": "claude -p", "codex": "codex exec -", "corrector": "fixer",
             "code-review.tests": "codex", "claude.adapter": "text"}
    names = config.reviewer_names(table)
    assert names == ["claude", "codex"]
    assert setup.origin_map(table, names)["tests"] == "codex"
    assert setup.origin_map(table, names)["security"] == "claude"
    assert set(setup.origin_map(table, names, "codex").values()) == {"codex"}
    assert setup.corrector(table) == "fixer"


def test_each_reference_keeps_to_its_lane_and_names_the_others():
    from council_filters.codereview import references

    refs = references.load_all()
    for origin in references.ORIGINS:
        text = refs[origin].text
        assert refs[origin].where == "shipped"
        assert f"(origin: {origin}," in text.splitlines()[0]
        lane, _, rest = text.partition("## Not your lane")
        assert "## Your lane" in lane and rest
        others = rest.split("\n## ", 1)[0]
        for other in references.ORIGINS:
            if other != origin:
                assert f"({other})" in others, (origin, other)
                assert f"({other})" not in lane, (origin, other)
    assert "0.8" in refs[references.CONTRACT].text
    for word in ("design choice", "public contract", "business behaviour", "false positive"):
        assert word in refs[references.CORRECTION].text


def test_the_readiness_gate_asks_for_the_task_on_a_terminal(tmp_path, monkeypatch):
    base = {"app.py": "def find(db, name):\n    return 1\n"}
    flow = Flow(tmp_path, monkeypatch, {}, base=base, change={"app.py": CHANGE["app.py"]})
    packs = tmp_path / "packs"
    packs.mkdir()
    monkeypatch.setenv("STUB_PACKS", str(packs))

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr(sys, "stdin", Terminal("Look users up by their exact name\n"))
    code, _report, err = flow.cli("run", "--base", "main")
    assert code == 0, err
    assert "no spec and no task were found" in err
    assert "Look users up by their exact name" in (packs / "requirements-0.txt").read_text()
    assert json.loads(flow.state.read_text())["context"]["task"].startswith("Look users up")


def test_a_bare_array_after_prose_and_confidence_in_words():
    from council_filters.codereview import answers

    text = ("I checked the change. Findings: [{\"file\": \"app.py\", \"line\": 4,"
            " \"subject\": \"Unchecked input\", \"confidence\": \"high\"}] -- that is all.")
    got = answers.read(text, "security", LINES)
    assert got.ok and got.findings[0]["subject"] == "Unchecked input"
    assert answers.universal_rules(got.findings, LINES).kept[0]["confidence"] == 0.9
    low = answers.read('[{"file": "app.py", "line": 4, "subject": "x", "confidence": "low"}]',
                       "security", LINES)
    assert low.ok and not answers.universal_rules(low.findings, LINES).kept


def test_an_answer_that_never_validates_keeps_its_last_attempt_with_warnings():
    from dataclasses import dataclass, field

    from council_filters.codereview import ask
    from council_filters.dispatch import outcome as dout
    from council_filters.dispatch import process

    @dataclass(frozen=True)
    class Recorder(ask.Caller):
        packs: list[str] = field(default_factory=list)

        def call(self, name: str, shell: str, origin: str, pack: str) -> dout.Result:
            self.packs.append(pack)
            answers = ["not json", '[{"file": "app.py", "line": 4, "subject": "ok one",'
                       ' "confidence": 0.9}, {"file": "app.py", "line": 99, "subject": "off",'
                       ' "confidence": 0.9}]']
            return dout.Result(output=answers[min(len(self.packs) - 1, 1)])

    caller = Recorder(process.Limits(), {})
    got = ask.ask(caller, ask.Question("security", "alpha", "true", "PACK", LINES))
    assert got.attempts == 3 and not got.valid and got.answered
    assert [f["subject"] for f in got.findings] == ["ok one", "off"]
    assert "did not validate after 3 attempts" in got.warnings[0]
    assert any("/1/line" in w for w in got.warnings)
    assert caller.packs[0] == "PACK"
    assert "attempt 1 of 3" in caller.packs[1] and "attempt 2 of 3" in caller.packs[2]
    assert '"hint"' in caller.packs[2] and caller.packs[2].startswith("PACK")
    # The universal rules then keep only what points at an added line.
    from council_filters.codereview import answers
    assert [f["subject"] for f in answers.universal_rules(got.findings, LINES).kept] == ["ok one"]


def test_tests_run_under_the_opt_in_with_a_trimmed_environment(tmp_path, monkeypatch):
    probe = ("import os\n\n\ndef test_probe():\n"
             "    assert 'COUNCIL_PROBE' not in os.environ\n")
    flow = Flow(tmp_path, monkeypatch, {}, base={"calc.py": "x = 1\n"},
                change={"calc.py": "x = 2\n", "tests/test_probe.py": probe})
    monkeypatch.setenv("COUNCIL_PROBE", "a value the tests must not see")
    monkeypatch.setenv("COUNCIL_RUN_TESTS", "1")
    cmd = f"{PY} -m pytest -q"
    code, report, err = flow.cli("run", "--base", "main", "--test-cmd", cmd)
    assert code == 0, err
    assert "tests: 0 finding(s)" in report  # it ran (opted in), and did not see the variable
    code, report, err = flow.cli("run", "--base", "main", "--test-cmd", cmd,
                                 "--env", "COUNCIL_PROBE")
    assert code == 0, err
    assert [f["test"] for f in flow.findings().values() if f["origin"] == "tests"] == [
        "tests/test_probe.py::test_probe"]
    monkeypatch.delenv("COUNCIL_RUN_TESTS")
    code, report, err = flow.cli("run", "--base", "main", "--test-cmd", cmd)
    assert "tests: skipped: the change's tests were not run" in report


def test_the_dependency_audit_runs_only_when_asked(tmp_path, monkeypatch):
    flow = Flow(tmp_path, monkeypatch, {})
    (flow.repo / "requirements.txt").write_text("requests==2.0.0\n")
    code, report, err = flow.cli("run", "--base", "main")
    assert code == 0, err
    assert "dependency-audit skipped (not asked: the audit runs only with --audit)" in err
    assert "security: dependency-audit skipped" in report
