"""council-tests runs the change's test command only when asked (--run-tests or
COUNCIL_RUN_TESTS=1), and then with a trimmed environment: no credential of the caller."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from conftest import ROOT, make_repo, run_filter

SECRETS = {"ANTHROPIC_API_KEY": "sk-ant-" + "k" * 20, "GITHUB_TOKEN": "ghp_" + "t" * 36,
           "AWS_SECRET_ACCESS_KEY": "a" * 40, "MY_APP_PASSWORD": "hunter2-" + "p" * 12,
           "NPM_TOKEN": "npm_" + "n" * 36}


def _repo(tmp: Path) -> tuple[Path, Path]:
    dump = tmp / "env.dump"
    repo = make_repo(tmp / "r", {"a.py": "x = 1\n"}, {"a.py": "x = 2\n"})
    return repo, dump


def _context(cmd: str) -> bytes:
    return json.dumps({"kind": "context", "test_runs": [
        {"root": ".", "test_cmd": cmd, "coverage_cmd": None, "framework": None}],
        "test_cmd": cmd}).encode()


def _tests(repo: Path, dump: Path, *args: str, env: dict[str, str | None] | None = None):
    cmd = f"env > {dump}; pwd >> {dump}"
    return run_filter("tests", ["--repo", str(repo), "--test-cmd", cmd, *args],
                      env={**SECRETS, "COUNCIL_RUN_TESTS": None, **(env or {})})


def test_nothing_runs_without_the_opt_in(tmp_path):
    repo, dump = _repo(tmp_path)
    res = _tests(repo, dump)
    assert res.code == 0, res.err
    assert not dump.exists()
    summary = res.records()[-1]
    assert summary["skipped"] is True and "--run-tests" in summary["reason"]
    assert "pass --run-tests" in res.err
    # a context's declared command is not run either
    res = run_filter("tests", ["--repo", str(repo), "-"], _context(f"touch {dump}"),
                     env={"COUNCIL_RUN_TESTS": None})
    assert res.code == 0 and not dump.exists()


@pytest.mark.parametrize("how", ["flag", "env"])
def test_the_opted_in_run_has_no_credentials(tmp_path, how):
    repo, dump = _repo(tmp_path)
    args, extra = (["--run-tests"], {}) if how == "flag" else ([], {"COUNCIL_RUN_TESTS": "1"})
    res = _tests(repo, dump, *args, env={**extra, "PATH": f".{os.pathsep}{os.environ['PATH']}"})
    assert res.code == 0, res.err
    seen = dump.read_text()
    for name, value in SECRETS.items():
        assert value not in seen and f"{name}=" not in seen
    env = dict(line.split("=", 1) for line in seen.splitlines() if "=" in line)
    assert env["HOME"] == os.environ["HOME"]
    assert all(os.path.isabs(p) for p in env["PATH"].split(os.pathsep))
    assert "COUNCIL_RUN_TESTS" not in env


def test_env_passes_one_named_variable(tmp_path):
    repo, dump = _repo(tmp_path)
    res = _tests(repo, dump, "--run-tests", "--env", "MY_APP_PASSWORD")
    assert res.code == 0, res.err
    seen = dump.read_text()
    assert SECRETS["MY_APP_PASSWORD"] in seen and SECRETS["GITHUB_TOKEN"] not in seen
    assert _tests(repo, dump, "--run-tests", "--env", "A=B").code == 2


@pytest.mark.slow
@pytest.mark.parametrize("target", ["review-cycle", "review-cycle-files"])
def test_make_review_cycles_do_not_run_the_tests_by_default(tmp_path, target):
    import shlex
    import sys

    marker = tmp_path / "RAN"
    repo = make_repo(tmp_path / "r", {"a.py": "x = 1\n"}, {
        "a.py": "x = 2\n",
        "Makefile": f"test:\n\ttouch {marker}\n",
        "package.json": json.dumps({"scripts": {"test": f"touch {marker}"}}),
        ".specs/codebase/TESTING.md": f"# Testing\n\n```\ntouch {marker}\n```\n"})
    state = tmp_path / "out" / "review-state.json"
    state.parent.mkdir()
    data = Path(__file__).resolve().parent / "data" / "code_review"
    commands = tmp_path / "commands"
    commands.write_text(f"stub = {shlex.quote(sys.executable)} "
                        f"{shlex.quote(str(data / 'reviewer.py'))}\n")
    modes = tmp_path / "modes.json"
    modes.write_text("{}")
    env = {k: v for k, v in os.environ.items() if not k.startswith("COUNCIL_")}
    env.update(STUB_MODE=str(modes), XDG_CONFIG_HOME=str(tmp_path / "xdg"))
    res = subprocess.run(["make", "-s", "--no-print-directory", "-C", str(ROOT), target,
                          f"REPO={repo}", "BASE=main", f"STATE={state}",
                          f"COMMANDS={commands}"],
                         capture_output=True, text=True, timeout=300, env=env)
    assert res.returncode == 0, res.stderr
    assert not marker.exists()
