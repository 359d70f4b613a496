"""The suite-wide promises: every executable is wired, documented and tested alike."""

from __future__ import annotations

import importlib
import os
import subprocess
from pathlib import Path

import pytest

from conftest import run_filter
from docs import executables, help_text, page, pages

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


def test_reference_pages_are_current():
    """Every executable has its docs/ page, ending with its --help as the command prints it."""
    found, missing = pages()
    assert not missing, f"no reference page with a help section for {missing}"
    assert set(found) == {page(name) for name in EXES}
    stale = [p.name for p, (current, new) in found.items() if new != current]
    assert not stale, f"stale help sections in {stale}: run `make docs`"
    for name in EXES:
        assert f"Usage: {name} " in page(name).read_text(), name


README = ROOT / "README.md"
_NUMBERS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
            "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen"]


def test_readme_is_a_front_door():
    """Short, with every command named once in its table and linked to its page, the command
    count right, and every local link pointing at a file that exists."""
    import re

    text = README.read_text()
    assert len(text.splitlines()) <= 400
    assert f"as {_NUMBERS[len(EXES)]} commands" in text
    rows = re.findall(r"^\| `(council[a-z-]*)` \|.*?\]\((docs/[a-z-]+\.md)\)", text, re.M)
    assert {name for name, _ in rows} == set(EXES)
    for name, link in rows:
        assert ROOT / link == page(name), (name, link)
    for link in re.findall(r"\]\(([^)#:]+)\)", text):
        assert (ROOT / link).is_file(), link
    assert "<!-- help:" not in text, "the --help reference lives in docs/, not the README"


def test_readme_test_command_is_what_ci_runs():
    text = README.read_text()
    block = text.split("\n## Two commands\n")[1].split("\n## ")[0]
    commands = [line.split("#")[0].strip() for line in block.splitlines()
                if line.startswith("make ")]
    assert commands == ["make demo", "make test"]
    ci = [line for line in (ROOT / ".ci" / "run").read_text().splitlines()
          if line and not line.startswith(("#", "set ", "cd "))]
    assert ci == ["make test"]


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
