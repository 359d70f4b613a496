"""Nothing of a reviewed repository is imported: every Python stage the council starts,
and every ``bin/`` launcher, runs isolated from its working directory.

The hostile change plants a shadowing module for every top-level module the filters
import (this package, its third-party dependencies and theirs, the standard library
modules it loads, ``sitecustomize``); each shadow records its own import in a marker
directory outside the repository.  A run is isolated when no marker appears and the
run still works (the shadows are not needed to finish)."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest

from conftest import FILTERS, ROOT, bin_dir
from procenv import GIT_ENV

_NEVER = {"__main__", "__mp_main__", "_frozen_importlib", "_frozen_importlib_external"}


def _distribution_modules() -> set[str]:
    """Top-level modules of council-filters' runtime requirements, recursively."""
    by_dist: dict[str, set[str]] = {}
    for module, dists in metadata.packages_distributions().items():
        for dist in dists:
            by_dist.setdefault(dist.lower().replace("_", "-"), set()).add(module)
    seen: set[str] = set()
    todo = ["council-filters"]
    names: set[str] = set()
    while todo:
        dist = todo.pop()
        if dist in seen:
            continue
        seen.add(dist)
        names |= by_dist.get(dist, set())
        try:
            reqs = metadata.requires(dist) or []
        except metadata.PackageNotFoundError:
            continue
        for req in reqs:
            if "extra ==" in req:
                continue
            m = re.match(r"[A-Za-z0-9_.-]+", req)
            if m:
                todo.append(m.group(0).lower().replace("_", "-").replace(".", "-"))
    return names


def _loaded_modules() -> set[str]:
    """Top-level names in sys.modules once every module of the package is imported."""
    code = (
        "import sys, pkgutil, importlib, council_filters\n"
        "for m in pkgutil.walk_packages(council_filters.__path__, 'council_filters.'):\n"
        "    importlib.import_module(m.name)\n"
        "print('\\n'.join(sorted({n.partition('.')[0] for n in sys.modules})))\n"
    )
    out = subprocess.run([sys.executable, "-P", "-c", code], capture_output=True, text=True,
                         check=True, cwd=ROOT).stdout
    return set(out.split())


@pytest.fixture(scope="module")
def shadowed() -> list[str]:
    names = (_loaded_modules() | _distribution_modules()
             | {"council_filters", "orjson", "typer", "click", "regex", "jsonschema",
                "fastjsonschema", "sitecustomize", "usercustomize"})
    names -= _NEVER | set(sys.builtin_module_names)
    return sorted(n for n in names if n.isidentifier())


def plant(where: Path, names: list[str], marks: Path) -> None:
    """A package ``NAME/__init__.py`` and a module ``NAME.py`` for each name: importing
    either writes ``marks/NAME``."""
    marks.mkdir(exist_ok=True)
    for name in names:
        body = f"open({str(marks / name)!r}, 'w').close()\n"
        (where / f"{name}.py").write_text(body)
        pkg = where / name
        if not pkg.exists():
            pkg.mkdir()
            (pkg / "__init__.py").write_text(body)


def test_the_shadow_list_holds_the_filters_imports(shadowed):
    for name in ("council_filters", "orjson", "typer", "click", "regex", "jsonschema",
                 "fastjsonschema", "json", "subprocess", "pathlib", "shlex", "sitecustomize"):
        assert name in shadowed
    assert len(shadowed) > 80  # stdlib and the dependencies' dependencies too


def test_a_shadow_is_imported_without_isolation(tmp_path, shadowed):
    # The planted modules are live: a plain `python -m` in that directory imports them.
    plant(tmp_path, shadowed, tmp_path / "marks")
    subprocess.run([sys.executable, "-m", "council_filters.cli.fence", "--help"], cwd=tmp_path,
                   capture_output=True, check=False)
    assert any((tmp_path / "marks").iterdir())  # the first module runpy needs, already
    only = tmp_path / "only"
    only.mkdir()
    plant(only, ["council_filters"], only / "marks")
    subprocess.run([sys.executable, "-m", "council_filters.cli.fence", "--help"], cwd=only,
                   capture_output=True, check=False)
    assert (only / "marks" / "council_filters").exists()


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True,
                   env={**os.environ, **GIT_ENV})


@pytest.mark.slow
def test_council_review_imports_nothing_from_the_reviewed_repository(tmp_path, shadowed):
    repo = tmp_path / "project"
    repo.mkdir()
    _git(repo, "init", "-q", "-b", "trunk")
    (repo / "app.py").write_text("def f():\n    return 1\n")
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "init")
    _git(repo, "checkout", "-qb", "change")
    marks = tmp_path / "marks"
    plant(repo, shadowed, marks)
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "the hostile change")
    xdg = tmp_path / "xdg"
    (xdg / "council").mkdir(parents=True)
    answer = "Verdict: APPROVE\\nConfidence: HIGH\\nFindings: none\\nSummary: looked.\\n"
    (xdg / "council" / "commands").write_text(
        f"alpha = cat > /dev/null; printf {shlex.quote(answer)}\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith("COUNCIL_")}
    env["XDG_CONFIG_HOME"] = str(xdg)
    for launcher in {bin_dir(), ROOT / "bin"}:
        res = subprocess.run([str(launcher / "council"), "review", "--base", "trunk"], cwd=repo,
                             env=env, capture_output=True, text=True, timeout=300)
        assert res.returncode == 0, res.stderr
        assert sorted(p.name for p in marks.iterdir()) == []
        assert list((repo / "docs" / "council").glob("*.md"))


@pytest.mark.parametrize("launcher", [True, False], ids=["bin-launcher", "installed"])
def test_no_executable_imports_from_its_working_directory(tmp_path, shadowed, launcher):
    marks = tmp_path / "marks"
    work = tmp_path / "work"
    work.mkdir()
    plant(work, shadowed, marks)
    where = ROOT / "bin" if launcher else bin_dir()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    for name in ("council", *(f"council-{f}" for f in FILTERS)):
        res = subprocess.run([str(where / name), "--help"], cwd=work, env=env,
                             capture_output=True, text=True, timeout=60)
        assert res.returncode == 0, (name, res.stderr)
    res = subprocess.run([str(where / "council-redact")], cwd=work, env=env, input="a line\n",
                         capture_output=True, text=True, timeout=60)
    assert res.returncode == 0 and res.stdout == "a line\n", res.stderr
    assert sorted(p.name for p in marks.iterdir()) == []


def test_a_relative_launcher_path_still_isolates(tmp_path, shadowed):
    # `bin/council-fence` run from the checkout's parent with a relative path: the checkout
    # is found by an absolute path, never as "bin/.." of whatever directory runs later.
    marks = tmp_path / "marks"
    plant(tmp_path, ["council_filters", "orjson", "typer"], marks)
    rel = os.path.relpath(ROOT / "bin" / "council-fence", tmp_path)
    res = subprocess.run([rel, "--help"], cwd=tmp_path, capture_output=True, text=True,
                         timeout=60)
    assert res.returncode == 0, res.stderr
    assert sorted(p.name for p in marks.iterdir()) == []


def test_child_pythonpath_is_absolute(tmp_path):
    from council_filters.base import pyproc

    assert pyproc.absolute_pythonpath(f"{os.pathsep}lib{os.pathsep}/abs", "/here") == \
        os.pathsep.join(["/here/lib", "/abs"])
    env = pyproc.child_env({"PYTHONPATH": os.pathsep, "PATH": "/bin"})
    assert "PYTHONPATH" not in env and env["PATH"] == "/bin"
    assert pyproc.module_argv("m", "x")[1:] == ["-P", "-m", "m", "x"]
