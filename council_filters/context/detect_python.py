"""Stack detection for Python roots (pyproject, setup files, Pipfile, requirements)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from typing import Any

from council_filters.context.tree import (
    REQUIREMENTS,
    Stack,
    Tree,
    dig,
    join,
    load_ini,
    load_toml,
    nearest,
    percent,
    skipped,
    split,
)

PY_LOCKS: tuple[tuple[str, str], ...] = (
    ("uv.lock", "uv"),
    ("poetry.lock", "poetry"),
    ("pdm.lock", "pdm"),
    ("Pipfile.lock", "pipenv"),
)
PY_TOOL_TABLES = (("uv", "uv"), ("poetry", "poetry"), ("pdm", "pdm"), ("hatch", "hatch"))
PY_BACKENDS = (("poetry", "poetry"), ("pdm", "pdm"), ("hatchling", "hatch"), ("uv_build", "uv"))
PY_RUN = {"uv": "uv run ", "poetry": "poetry run ", "pdm": "pdm run ", "hatch": "hatch run ",
          "pipenv": "pipenv run ", "pip": ""}



_REQ_NAME = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)")


def _req_name(spec: str) -> str | None:
    m = _REQ_NAME.match(spec)
    return m[1].lower().replace("_", "-") if m else None


def _py_deps(pyproject: dict[str, Any], extra_lines: Iterable[str]) -> set[str]:
    """Every dependency name the project declares anywhere (normalised)."""
    specs: list[str] = []

    def add_list(value: Any) -> None:
        if isinstance(value, list):
            specs.extend(v for v in value if isinstance(v, str))

    def add_table(value: Any) -> None:
        if isinstance(value, dict):
            specs.extend(k for k in value if isinstance(k, str))

    add_list(dig(pyproject, "project", "dependencies"))
    for group in (dig(pyproject, "project", "optional-dependencies") or {}).values():
        add_list(group)
    for group in (dig(pyproject, "dependency-groups") or {}).values():
        add_list(group)
    add_list(dig(pyproject, "tool", "uv", "dev-dependencies"))
    add_table(dig(pyproject, "tool", "poetry", "dependencies"))
    add_table(dig(pyproject, "tool", "poetry", "dev-dependencies"))
    for group in (dig(pyproject, "tool", "poetry", "group") or {}).values():
        add_table(dig(group, "dependencies"))
    for group in (dig(pyproject, "tool", "pdm", "dev-dependencies") or {}).values():
        add_list(group)
    for env in (dig(pyproject, "tool", "hatch", "envs") or {}).values():
        add_list(dig(env, "dependencies"))
        add_list(dig(env, "extra-dependencies"))
    specs.extend(extra_lines)
    return {n for n in (_req_name(s) for s in specs) if n}


def _requirement_files(tree: Tree, root: str) -> list[str]:
    files = [join(root, n) for n in sorted(tree.names.get(root, ())) if REQUIREMENTS.match(n)]
    sub = join(root, "requirements")
    files += [p for p in tree.under(sub) if p.endswith((".txt", ".in")) and split(p)[0] == sub]
    return files


def python_manager(tree: Tree, root: str, pyproject: dict[str, Any]) -> tuple[str, str | None]:
    lock = nearest(tree, root, PY_LOCKS)
    if lock:
        return lock[1], lock[0]
    tool: dict[str, Any] = pyproject["tool"] if isinstance(pyproject.get("tool"), dict) else {}
    for table, manager in PY_TOOL_TABLES:
        if table in tool:
            return manager, None
    backend = dig(pyproject, "build-system", "build-backend")
    if isinstance(backend, str):
        for word, manager in PY_BACKENDS:
            if backend.startswith(word):
                return manager, None
    if tree.has(root, "Pipfile"):
        return "pipenv", None
    return "pip", None


def _py_tests(tree: Tree, root: str) -> list[str]:
    return [p for p in tree.under(root) if not skipped(p) and re.search(
        r"(?:^|/)(?:test_[^/]*|[^/]*_test)\.py\Z", p)]


def detect_python(tree: Tree, root: str) -> Stack:
    notes: list[str] = []
    pyproject = load_toml(tree, join(root, "pyproject.toml"), notes) \
        if tree.has(root, "pyproject.toml") else {}
    manager, lockfile = python_manager(tree, root, pyproject)
    req_files = _requirement_files(tree, root)
    req_lines = [ln.split("#", 1)[0] for f in req_files for ln in tree.text(f).splitlines()
                 if not ln.lstrip().startswith(("-", "#"))]
    if tree.has(root, "Pipfile"):
        pipfile = load_toml(tree, join(root, "Pipfile"), notes)
        for section in ("packages", "dev-packages"):
            table = pipfile.get(section)
            if isinstance(table, dict):
                req_lines.extend(k for k in table if isinstance(k, str))
    deps = _py_deps(pyproject, req_lines)
    manifest = next((join(root, n) for n in ("pyproject.toml", "setup.py", "setup.cfg", "Pipfile")
                     if tree.has(root, n)), req_files[0] if req_files else join(root, "."))
    setup_cfg = load_ini(tree, join(root, "setup.cfg")) if tree.has(root, "setup.cfg") else None
    tox = load_ini(tree, join(root, "tox.ini")) if tree.has(root, "tox.ini") else None
    pytest_signal = (
        dig(pyproject, "tool", "pytest") is not None
        or tree.has(root, "pytest.ini")
        or (tox is not None and tox.has_section("pytest"))
        or (setup_cfg is not None and setup_cfg.has_section("tool:pytest"))
        or "pytest" in deps
        or any(split(p)[1] == "conftest.py" for p in tree.under(root) if not skipped(p))
    )
    test_files = _py_tests(tree, root)
    unittest_only = bool(test_files) and not pytest_signal and all(
        re.search(r"(?m)^\s*(?:import unittest|from unittest\b)", tree.text(p))
        for p in test_files[:50])
    run = PY_RUN[manager]
    script, body = _py_script(pyproject, manager, ("test", "tests"))
    if re.search(r"\b(?:py\.test|pytest)\b", body):
        pytest_signal = True
    elif re.search(r"\bunittest\b", body):
        unittest_only = True
    if pytest_signal or (test_files and not unittest_only) or manager == "hatch":
        framework: str | None = "pytest"
    else:
        framework = "unittest" if unittest_only else None
    if script is not None:
        test_cmd: str | None = script
    elif framework == "pytest":
        test_cmd = "hatch test" if manager == "hatch" else (
            "python -m pytest" if manager == "pip" else f"{run}pytest")
    elif framework == "unittest":
        test_cmd = f"{run}python -m unittest"
    else:
        test_cmd = None
    coverage_cmd = _py_script(pyproject, manager, ("cov", "coverage", "test-cov", "test:cov"))[0]
    if coverage_cmd is None and framework == "pytest" and script is None:
        if manager == "hatch":
            coverage_cmd = "hatch test --cover"
        elif "pytest-cov" in deps:
            coverage_cmd = f"{test_cmd} --cov"
    threshold = percent(dig(pyproject, "tool", "coverage", "report", "fail_under"))
    for path, section in ((".coveragerc", "report"), ("setup.cfg", "coverage:report"),
                          ("tox.ini", "coverage:report")):
        if threshold is None and tree.has(root, path):
            ini = load_ini(tree, join(root, path))
            if ini.has_option(section, "fail_under"):
                threshold = percent(ini.get(section, "fail_under"))
    if threshold is None:
        addopts = dig(pyproject, "tool", "pytest", "ini_options", "addopts")
        text = " ".join(addopts) if isinstance(addopts, list) else str(addopts or "")
        m = re.search(r"--cov-fail-under[= ]([0-9.]+)", text)
        threshold = percent(m[1]) if m else None
    return Stack(root, "python", "python", manager, manifest, lockfile, framework, test_cmd,
                 coverage_cmd, threshold, notes=notes)


def _py_script(pyproject: dict[str, Any], manager: str, names: Sequence[str]
               ) -> tuple[str | None, str]:
    """(how to run a task named ``names`` in pdm/hatch scripts, poethepoet or taskipy, its text)."""
    run = PY_RUN[manager]
    tables = [
        ("pdm", dig(pyproject, "tool", "pdm", "scripts"), "pdm run {}"),
        ("hatch", dig(pyproject, "tool", "hatch", "envs", "default", "scripts"), "hatch run {}"),
        ("poe", dig(pyproject, "tool", "poe", "tasks"), run + "poe {}"),
        ("taskipy", dig(pyproject, "tool", "taskipy", "tasks"), run + "task {}"),
    ]
    for _tool, table, shape in tables:
        if isinstance(table, dict):
            for name in names:
                if name in table:
                    return shape.format(name), json.dumps(table[name])
    return None, ""

