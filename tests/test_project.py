"""The suite-wide promises: every executable is wired, documented and tested alike."""

from __future__ import annotations

import importlib
import os
import subprocess
from pathlib import Path

import pytest

from conftest import run_filter
from docs import README, executables, help_text, render

ROOT = Path(__file__).resolve().parent.parent
EXES = executables()


def test_bin_launchers_match_console_scripts():
    launchers = {p.name for p in (ROOT / "bin").iterdir() if p.name.startswith("council")}
    assert launchers == set(EXES)
    for name in launchers:
        assert os.access(ROOT / "bin" / name, os.X_OK), name


@pytest.mark.parametrize("name", sorted(EXES))
def test_help_teaches(name):
    text = help_text(EXES[name], [])
    assert "Examples:" in text, f"{name} --help has no Examples block"
    assert "|" in text.split("Examples:", 1)[1], f"{name} examples show no pipe"
    assert "Exit codes:" in text and "70" in text, f"{name} --help has no exit-code table"


@pytest.mark.parametrize("name", sorted(EXES))
def test_version_from_one_source(name):
    from council_filters import __version__

    mod = importlib.import_module(EXES[name])
    code, out, _err = run_filter(mod.main, ["--version"])
    assert code == 0
    assert out.split(b"\n", 1)[0] == f"{name} {__version__}".encode()


# `council` is the front command over the filters, not a filter: its cases need a
# repository and reviewers, and are built by tests/test_council.py.
@pytest.mark.parametrize("name", sorted(set(EXES) - {"council"}))
def test_golden_cases_exist(name):
    short = name.removeprefix("council-")
    cases = list((ROOT / "golden" / short).glob("*.out"))
    assert cases, f"no golden cases under golden/{short}/"


def test_readme_sections_are_current():
    text = README.read_text()
    new, missing = render(text)
    assert not missing, f"README lacks help sections for {missing}"
    assert new == text, "README help sections are stale: run `make docs`"


@pytest.mark.parametrize("name", sorted(EXES))
def test_launcher_runs_from_checkout(name):
    res = subprocess.run(
        [str(ROOT / "bin" / name), "--version"], capture_output=True, text=True, check=False,
        env={**os.environ, "PYTHONPATH": ""},
    )
    assert res.returncode == 0, res.stderr
    assert res.stdout.startswith(name + " ")


def test_tests_run_filters_through_one_entry_point():
    """No test module drives a ``main`` with its own streams: ``conftest.run_filter`` does
    that (a forked child writing to its real descriptors is not a runner)."""
    import ast

    offenders = []
    for path in sorted((ROOT / "tests").glob("*.py")):
        if path.name == "conftest.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            func = node.func if isinstance(node, ast.Call) else None
            runner = isinstance(func, ast.Attribute) and (
                func.attr == "main"
                or (func.attr == "run" and isinstance(func.value, ast.Name)
                    and func.value.id == "kit"))
            if runner and {"stdin", "stdout", "stderr"} & {k.arg for k in node.keywords}:
                offenders.append(f"{path.name}:{node.lineno}")
    assert offenders == [], "use conftest.run_filter: " + ", ".join(offenders)
