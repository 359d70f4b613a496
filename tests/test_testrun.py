"""council-tests: real runs on repositories the tests build (failing, passing, hanging suites),
the report readers on recorded outputs, coverage findings, exit codes, no leaks."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from council_filters.testrun import coverage as cov
from council_filters.testrun import reports
from council_filters.testrun import run as testrun

from conftest import make_repo, run_filter

SECRET = "sk-ant-api03-" + "C" * 30
PYTEST = f"{shlex.quote(sys.executable)} -m pytest -q"


def run(args: list[str], stdin: bytes = b"") -> tuple[int, list[dict[str, Any]], str]:
    res = run_filter("tests", ["--run-tests", *args], stdin)
    return res.code, res.records(), res.err


def context(repo: Path, *args: str) -> bytes:
    res = run_filter("context", ["--repo", str(repo), "--task", "t", *args])
    assert res.code == 0, res.err
    return res.out


def findings(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [r for r in records if r["kind"] == "finding"]


def summary(records: list[dict[str, Any]]) -> dict[str, Any]:
    assert records[-1]["kind"] == "tests"
    return records[-1]


PY_BASE = {"requirements.txt": "pytest\n", "app.py": "def add(a, b):\n    return a + b\n"}
FAILING = """from app import add


def test_add():
    assert add(1, 2) == 3


def test_add_wrong():
    total = add(2, 2)
    assert total == 5, "token " + "sk-ant-api03-" + "C" * 30
"""


def test_one_failing_pytest_test_is_one_critical_finding_at_its_file_and_line(tmp_path):
    repo = make_repo(tmp_path / "r", PY_BASE, {"tests/test_app.py": FAILING})
    ctx = context(repo, "--test-cmd", PYTEST)
    code, records, err = run(["--repo", str(repo)], ctx)
    assert code == 0, err
    (f,) = findings(records)
    assert (f["origin"], f["source"], f["confidence"], f["severity"]) == (
        "tests", "script", 1.0, "critical")
    assert (f["file"], f["line"]) == ("tests/test_app.py", 8)
    assert (f["failure_file"], f["failure_line"]) == ("tests/test_app.py", 10)
    assert f["test"] == "tests/test_app.py::test_add_wrong"
    run_rec = summary(records)["runs"][0]
    assert run_rec["status"] == "failed" and run_rec["parser"] == "junit"
    assert run_rec["tests"] == {"total": 2, "failed": 1, "errors": 0, "skipped": 0}
    assert SECRET.encode() not in json.dumps(records).encode()
    assert not (repo / ".pytest_cache").exists()  # the run leaves no cache in the repository


def test_the_detected_command_runs_in_its_package_root(tmp_path):
    repo = make_repo(tmp_path / "r", {"svc/requirements.txt": "pytest\n",
                                      "svc/app.py": PY_BASE["app.py"]},
                     {"svc/tests/test_app.py": FAILING.replace("\n\n\ndef test_add_wrong",
                                                               "\n\n\ndef test_x")})
    ctx = json.loads(context(repo))
    assert ctx["test_runs"][0]["root"] == "svc"
    ctx["test_runs"][0]["test_cmd"] = PYTEST  # the same command, with this interpreter
    code, records, err = run(["--repo", str(repo)], json.dumps(ctx).encode())
    (f,) = findings(records)
    assert (f["file"], f["line"], f["root"]) == ("svc/tests/test_app.py", 8, "svc")


def test_a_passing_suite_emits_no_finding(tmp_path):
    repo = make_repo(tmp_path / "r", PY_BASE, {"tests/test_app.py": FAILING.split(
        "\n\n\ndef test_add_wrong")[0] + "\n"})
    code, records, err = run(["--repo", str(repo)], context(repo, "--test-cmd", PYTEST))
    assert code == 0 and findings(records) == []
    assert summary(records)["runs"][0]["status"] == "passed"
    assert summary(records)["skipped"] is False


HANGING = """import subprocess, time


def test_hangs(tmp_path_factory):
    child = subprocess.Popen(["sleep", "300"])
    open({pidfile!r}, "w").write(str(child.pid))
    time.sleep(300)
"""


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie is gone for our purposes
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return True


def test_a_hanging_suite_is_stopped_at_the_timeout_and_reported(tmp_path):
    pidfile = tmp_path / "child.pid"
    repo = make_repo(tmp_path / "r", PY_BASE,
                     {"tests/test_hang.py": HANGING.format(pidfile=str(pidfile))})
    start = time.monotonic()
    code, records, err = run(["--repo", str(repo), "--timeout", "3", "--kill-after", "1"],
                             context(repo, "--test-cmd", PYTEST))
    assert time.monotonic() - start < 30
    assert code == 0, err
    (f,) = findings(records)
    assert f["rule"] == "test-timeout" and f["severity"] == "critical"
    assert "timed out after 3 s" in f["summary"]
    run_rec = summary(records)["runs"][0]
    assert run_rec["status"] == "timeout" and run_rec["exit_code"] is None
    pid = int(pidfile.read_text())
    deadline = time.monotonic() + 5
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _alive(pid), "the suite's child process outlived the timeout"


def test_a_command_without_a_report_is_one_finding_with_a_redacted_tail(tmp_path):
    repo = make_repo(tmp_path / "r", {"go.mod": "module m\n"}, {"a.go": "package m\n"})
    cmd = f"echo 'connecting with {SECRET}'; echo 'build failed: undefined: Foo' >&2; exit 2"
    code, records, err = run(["--repo", str(repo), "--test-cmd", cmd], b"")
    (f,) = findings(records)
    assert f["rule"] == "test-command-failed" and f["exit_code"] == 2
    assert "build failed: undefined: Foo" in f["evidence"]
    assert SECRET not in json.dumps(records) and SECRET not in err
    assert summary(records)["runs"][0]["status"] == "error"


def test_a_collection_error_is_reported_at_its_file(tmp_path):
    repo = make_repo(tmp_path / "r", PY_BASE, {"tests/test_broken.py": "import nonexistent_mod\n"
                                               "\n\ndef test_x():\n    pass\n"})
    code, records, _ = run(["--repo", str(repo)], context(repo, "--test-cmd", PYTEST))
    fs = findings(records)
    assert len(fs) == 1 and fs[0]["file"] == "tests/test_broken.py"
    assert fs[0]["summary"].startswith("Test errored")


def test_private_tmpdir_and_nothing_left_behind(tmp_path):
    probe = tmp_path / "probe.json"
    test = ("import os, stat, json\n\ndef test_tmp():\n    d = os.environ['TMPDIR']\n"
            f"    json.dump([d, stat.S_IMODE(os.stat(os.path.dirname(d)).st_mode)], "
            f"open({str(probe)!r}, 'w'))\n")
    repo = make_repo(tmp_path / "r", PY_BASE, {"tests/test_tmp.py": test})
    run(["--repo", str(repo)], context(repo, "--test-cmd", PYTEST))
    tmpdir, mode = json.loads(probe.read_text())
    assert mode == 0o700
    assert not os.path.exists(os.path.dirname(tmpdir))


def test_no_test_command_is_skipped_degraded(tmp_path):
    repo = make_repo(tmp_path / "r", {"README.md": "x\n"}, {"README.md": "y\n"})
    ctx = context(repo)
    assert "test_cmd" in json.loads(ctx)["missing"]
    code, records, err = run(["--repo", str(repo)], ctx)
    assert code == 0 and records == [{"kind": "tests", "skipped": True,
                                      "reason": "no test command in the context",
                                      "coverage_threshold": 80, "runs": []}]
    assert "skipped (degraded)" in err
    assert run(["--repo", str(repo), "--strict"], ctx)[0] == 3


def test_fail_level_exits_3_on_a_failing_test(tmp_path):
    repo = make_repo(tmp_path / "r", PY_BASE, {"tests/test_app.py": FAILING})
    ctx = context(repo, "--test-cmd", PYTEST)
    assert run(["--repo", str(repo), "--fail-level", "critical"], ctx)[0] == 3
    assert run(["--repo", str(repo), "--fail-level", "P1"], ctx)[0] == 3


def test_coverage_below_threshold_and_uncovered_new_function(tmp_path):
    base = {"requirements.txt": "pytest\n", "app.py": "def add(a, b):\n    return a + b\n"}
    change = {"app.py": "def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n"
                        "    return a - b\n",
              "tests/test_app.py": "from app import add\n\n\ndef test_add():\n"
                                   "    assert add(1, 2) == 3\n"}
    repo = make_repo(tmp_path / "r", base, change)
    report = {"totals": {"percent_covered": 60.0}, "files": {"app.py": {
        "executed_lines": [1, 2, 5], "missing_lines": [6]}}}
    cmd = f"{PYTEST} && printf '%s' {shlex.quote(json.dumps(report))} > coverage.json"
    ctx = json.loads(context(repo, "--test-cmd", PYTEST, "--coverage-cmd", cmd))
    code, records, _ = run(["--repo", str(repo)], json.dumps(ctx).encode())
    got = {(f["rule"], f["file"], f["line"], f["severity"]) for f in findings(records)}
    assert ("coverage-below-threshold", None, None, "warning") in got
    assert ("new-code-uncovered", "app.py", 5, "critical") not in got  # line 5 executed
    report["files"]["app.py"] = {"executed_lines": [1, 2], "missing_lines": [5, 6]}
    cmd = f"{PYTEST} && printf '%s' {shlex.quote(json.dumps(report))} > coverage.json"
    ctx["test_runs"][0]["coverage_cmd"] = cmd
    code, records, _ = run(["--repo", str(repo)], json.dumps(ctx).encode())
    got = {(f["rule"], f["file"], f["line"], f["severity"]) for f in findings(records)}
    assert got == {("coverage-below-threshold", None, None, "warning"),
                   ("new-code-uncovered", "app.py", 5, "critical")}
    assert summary(records)["runs"][0]["coverage"] == 60.0
    code, records, _ = run(["--repo", str(repo), "--no-coverage"], json.dumps(ctx).encode())
    assert findings(records) == [] and summary(records)["runs"][0]["coverage"] is None


@pytest.mark.skipif(shutil.which("cargo") is None, reason="cargo not installed")
def test_a_failing_cargo_test_is_found_at_its_function(tmp_path):
    lib = ("pub fn add(a: i32, b: i32) -> i32 { a + b }\n\n#[cfg(test)]\nmod tests {\n"
           "    use super::*;\n\n    #[test]\n    fn adds() {\n        assert_eq!(add(1, 1), 2);\n"
           "    }\n\n    #[test]\n    fn adds_wrong() {\n        assert_eq!(add(2, 2), 5);\n"
           "    }\n}\n")
    repo = make_repo(tmp_path / "r", {"Cargo.toml": '[package]\nname = "calc"\nversion = '
                                      '"0.1.0"\nedition = "2021"\n'}, {"src/lib.rs": lib})
    ctx = context(repo)
    assert json.loads(ctx)["test_cmd"] == "cargo test"
    code, records, err = run(["--repo", str(repo), "--timeout", "300"], ctx)
    (f,) = findings(records)
    assert (f["file"], f["line"], f["test"]) == ("src/lib.rs", 13, "tests::adds_wrong")
    assert f["failure_line"] == 14
    assert summary(records)["runs"][0]["parser"] == "cargo"


def test_bad_context_is_one_located_error(tmp_path):
    code, records, err = run([], b'{"test_cmd": "' + SECRET.encode())
    assert code == 1 and records == [] and SECRET not in err
    assert err.startswith("council-tests: stdin: invalid JSON")
    code, records, err = run([], b"[1]")
    assert code == 1 and "must be a JSON object" in err


def test_a_run_root_outside_the_repository_is_refused(tmp_path):
    ctx = {"test_runs": [{"root": "../..", "test_cmd": "true"}]}
    code, _, err = run(["--repo", str(tmp_path)], json.dumps(ctx).encode())
    assert code == 1 and "inside the repository" in err


# --------------------------------------------------------------------------- #
# Report readers on recorded outputs.
# --------------------------------------------------------------------------- #
GO_JSON = b"\n".join(json.dumps(e).encode() for e in [
    {"Action": "run", "Package": "example.com/m/calc", "Test": "TestAdd"},
    {"Action": "output", "Package": "example.com/m/calc", "Test": "TestAdd",
     "Output": "    calc_test.go:12: got 4, want 5\n"},
    {"Action": "fail", "Package": "example.com/m/calc", "Test": "TestAdd"},
    {"Action": "pass", "Package": "example.com/m/calc", "Test": "TestSub"},
    {"Action": "fail", "Package": "example.com/m/calc"},
])


def test_go_json_events():
    failures, counts = reports.read_go_json(GO_JSON)  # type: ignore[misc]
    assert [(f.package, f.definition, f.failure_file, f.failure_line, f.message)
            for f in failures] == [("example.com/m/calc", "TestAdd", "calc_test.go", 12,
                                    "got 4, want 5")]
    assert (counts.total, counts.failed) == (2, 1)
    assert reports.read_go_json(b"ok  \texample.com/m\t0.1s\n") is None


def test_go_text_prefers_the_failing_subtest():
    text = ("--- FAIL: TestParse (0.00s)\n    --- FAIL: TestParse/empty (0.00s)\n"
            "        parse_test.go:30: unexpected nil\nFAIL\n")
    (f,) = reports.read_go_text(text)
    assert (f.name, f.definition, f.failure_file, f.failure_line) == (
        "TestParse/empty", "TestParse", "parse_test.go", 30)


def test_jest_json_with_locations_and_stack_frames():
    doc = {"testResults": [{"name": "/repo/src/a.test.js", "assertionResults": [
        {"fullName": "adds", "status": "passed"},
        {"fullName": "math subtracts", "status": "failed", "location": {"line": 9, "column": 3},
         "failureMessages": ["Error: expect(received).toBe(expected)\n    at Object.<anonymous>"
                             " (/repo/src/a.test.js:11:17)"]}]}]}
    failures, counts = reports.read_jest(json.dumps(doc).encode())  # type: ignore[misc]
    (f,) = failures
    assert (f.name, f.file, f.line, f.failure_line) == ("math subtracts", "/repo/src/a.test.js",
                                                        9, 11)
    assert (counts.total, counts.failed) == (2, 1)


def test_rspec_and_minitest_lines():
    (r,) = reports.read_rspec("Failed examples:\n\nrspec ./spec/cart_spec.rb:14 # Cart totals\n")
    assert (r.file, r.line, r.name) == ("spec/cart_spec.rb", 14, "Cart totals")
    (m,) = reports.read_minitest("  1) Failure:\nCartTest#test_total [test/cart_test.rb:9]:\n")
    assert (m.file, m.failure_line, m.definition) == ("test/cart_test.rb", 9, "test_total")


def test_surefire_junit_maps_class_to_file_via_the_stack_trace():
    xml = b"""<testsuite><testcase classname="com.shop.CartTest" name="totals">
<failure message="expected 3 but was 4">org.opentest4j.AssertionFailedError: expected
\tat com.shop.CartTest.totals(CartTest.java:27)
</failure></testcase><testcase classname="com.shop.CartTest" name="ok"/></testsuite>"""
    (f,), counts = reports.read_junit(xml)
    assert (f.file, f.failure_line, f.definition, f.name) == (
        "com/shop/CartTest.java", 27, "totals", "com.shop.CartTest.totals")
    assert (counts.total, counts.failed) == (2, 1)


def test_pytest_summary_fallback():
    (f,) = reports.read_pytest_summary("FAILED tests/test_a.py::test_b[1-2] - assert 1 == 2\n")
    assert (f.file, f.definition, f.message) == ("tests/test_a.py", "test_b", "assert 1 == 2")


@pytest.mark.parametrize(("name", "data", "total", "lines"), [
    ("coverage.json", json.dumps({"totals": {"percent_covered": 75.0}, "files": {"a.py": {
        "executed_lines": [1], "missing_lines": [2]}}}).encode(), 75.0, {"a.py": {1: 1, 2: 0}}),
    ("lcov.info", b"SF:src/a.js\nDA:1,3\nDA:2,0\nend_of_record\n", 50.0,
     {"src/a.js": {1: 3, 2: 0}}),
    ("coverage.out", b"mode: set\nm/a.go:3.10,5.2 2 1\nm/a.go:7.10,8.2 2 0\n", 50.0,
     {"m/a.go": {3: 1, 4: 1, 5: 1, 7: 0, 8: 0}}),
    ("coverage.xml", b'<coverage line-rate="0.25"><packages><package><classes><class '
     b'filename="a.py"><lines><line number="1" hits="1"/><line number="2" hits="0"/></lines>'
     b"</class></classes></package></packages></coverage>", 25.0, {"a.py": {1: 1, 2: 0}}),
])
def test_coverage_formats(name, data, total, lines):
    report = cov.read(name, data)
    assert report is not None
    assert report.total() == pytest.approx(total)
    assert report.lines == lines
    assert cov.read(name, b"garbage") is None


def test_uncovered_new_functions_only_counts_added_definitions():
    lines = ["def old():", "    return 1", "", "def new():", "    return 2", "",
             "def tested():", "    return 3"]
    hits = {2: 0, 5: 0, 8: 1}
    assert cov.uncovered_new_functions("m.py", lines, {4, 5, 7, 8}, hits) == [(4, "new")]


def _which(*installed: str):
    return lambda name: f"/usr/bin/{name}" if name in installed else None


@pytest.mark.parametrize(("command", "installed", "expected"), [
    ("uv run pytest", ("python3",), "PY -m pytest"),
    ("poetry run pytest -q tests", (), "PY -m pytest -q tests"),
    ("pdm run python -m unittest", (), "PY -m unittest"),
    ("hatch test", (), "PY -m pytest"),
    ("hatch test --cover", (), "PY -m pytest"),
    ("pytest -x", (), "PY -m pytest -x"),
    ("pnpm test", ("npm",), "npm test"),
    ("bun run test", ("npm",), "npm test"),
    ("uv run pytest", ("uv",), None),  # installed: unchanged
    ("pdm run test", (), None),  # a project task: no stand-in
    ("pnpm test", (), None),  # no npm either
    ("./gradlew test", (), None),
    ("API_KEY=x pytest", (), None),
])
def test_a_missing_runner_falls_back_to_the_same_tests(command, installed, expected):
    new, note = testrun.fallback(command, _which(*installed))
    if expected is None:
        assert (new, note) == (command, None)
    else:
        assert new.replace(shlex.quote(sys.executable), "PY") == expected
        assert note is not None and "is not installed" in note


def test_a_uv_project_runs_its_tests_without_uv(tmp_path, monkeypatch):
    only = tmp_path / "only"
    only.mkdir()
    for tool in ("git", "sh", "python3"):
        real = shutil.which(tool)
        assert real is not None
        (only / tool).symlink_to(real)
    repo = make_repo(tmp_path / "r", {"pyproject.toml": '[project]\nname = "a"\n'
                                      '[tool.pytest.ini_options]\n', "uv.lock": "",
                                      "app.py": PY_BASE["app.py"]},
                     {"tests/test_app.py": FAILING})
    ctx = context(repo)
    assert json.loads(ctx)["test_cmd"] == "uv run pytest"
    monkeypatch.setenv("PATH", str(only))
    code, records, err = run(["--repo", str(repo)], ctx)
    (f,) = findings(records)
    assert (f["file"], f["line"]) == ("tests/test_app.py", 8)
    assert "uv is not installed" in err
    assert summary(records)["runs"][0]["note"].startswith("uv is not installed")


NODE_IDS = """import pytest


class TestOuter:
    @pytest.mark.parametrize("value", [1, "a b", (2, 3)])
    def test_param(self, value):
        assert value == 0

    class TestInner:
        def test_deep(self):
            assert False


def test_plain():
    assert 0
"""


def test_failing_pytest_tests_are_named_by_their_node_ids(tmp_path):
    """Each failing test carries pytest's own node ID (classes, nested classes, parameters),
    the one `pytest ID` re-runs alone."""
    import subprocess

    repo = make_repo(tmp_path / "r", PY_BASE, {"tests/sub/test_ids.py": NODE_IDS})
    code, records, err = run(["--repo", str(repo), "--test-cmd", PYTEST])
    assert code == 0, err
    named = sorted(f["test"] for f in findings(records))
    env = {k: v for k, v in os.environ.items() if k != "PYTEST_ADDOPTS"}
    own = subprocess.run([sys.executable, "-m", "pytest", "-q", "-rf", "-p", "no:cacheprovider"],
                         cwd=repo, capture_output=True, text=True, env=env, check=False)
    failed = sorted(line.split(" ", 1)[1].split(" - ", 1)[0]
                    for line in own.stdout.splitlines() if line.startswith("FAILED "))
    assert len(failed) == 5 and named == failed
    assert "tests/sub/test_ids.py::TestOuter::TestInner::test_deep" in named
    for node in named:  # each identifier selects exactly its one test
        one = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                              node], cwd=repo, capture_output=True, text=True, env=env,
                             check=False)
        assert "1 failed" in one.stdout, (node, one.stdout)
