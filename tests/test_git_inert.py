"""git never runs what a checkout's configuration or attributes name: every git call of
council review (each scope), council-context, council-scan and council-pack neutralises
fsmonitor, hooks, textconv and external diff drivers named by .gitattributes,
diff.external, clean/smudge/process filters, and a reviewer's own git calls get the same
overrides.  Each vector is first shown to fire under plain git (the control)."""

from __future__ import annotations

import os
import shlex
import subprocess
from pathlib import Path

import pytest

from conftest import bin_dir
from procenv import GIT_ENV

pytestmark = pytest.mark.slow

VECTORS = ("fsmonitor", "post-index-change", "reference-transaction", "textconv",
           "diff-command", "diff-external", "filter-clean", "filter-smudge", "filter-process",
           "lfs-clean", "nested-fsmonitor")


def _git(repo: Path, *args: str, env: dict[str, str] | None = None) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True,
                          env={**os.environ, **GIT_ENV, **(env or {})}, text=True).stdout


def _evil(tmp: Path, marks: Path, name: str, body: str = "cat") -> str:
    script = tmp / "evil" / name
    script.parent.mkdir(exist_ok=True)
    script.write_text(f"#!/bin/sh\ntouch {shlex.quote(str(marks / name))}\n{body}\n")
    script.chmod(0o755)
    return str(script)


def _hostile(tmp: Path) -> tuple[Path, Path]:
    marks = tmp / "marks"
    marks.mkdir()
    repo = tmp / "repo"
    repo.mkdir()
    _git(repo, "init", "-q", "-b", "main")
    (repo / "app.py").write_text("x = 1\n")
    (repo / "data.bin").write_text("a\n")
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "base")
    _git(repo, "checkout", "-qb", "change")
    (repo / ".gitattributes").write_text(
        "*.py diff=evil filter=evil\n*.bin filter=lfs diff=cmd\n*.txt filter=proc\n")
    (repo / "app.py").write_text("x = 2\n")
    (repo / "data.bin").write_text("b\n")
    (repo / "notes.txt").write_text("n\n")
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "change")
    cfg = {
        "core.fsmonitor": _evil(tmp, marks, "fsmonitor", "exit 1"),
        "diff.evil.textconv": _evil(tmp, marks, "textconv"),
        "diff.cmd.command": _evil(tmp, marks, "diff-command", "exit 0"),
        "diff.external": _evil(tmp, marks, "diff-external", "exit 0"),
        "filter.evil.clean": _evil(tmp, marks, "filter-clean"),
        "filter.evil.smudge": _evil(tmp, marks, "filter-smudge"),
        "filter.evil.required": "true",
        "filter.proc.process": _evil(tmp, marks, "filter-process", "exit 1"),
        "filter.lfs.clean": _evil(tmp, marks, "lfs-clean"),
    }
    for key, value in cfg.items():
        _git(repo, "config", key, value)
    hooks = repo / ".git" / "hooks"
    for hook in ("post-index-change", "reference-transaction"):
        (hooks / hook).write_text(f"#!/bin/sh\ntouch {shlex.quote(str(marks / hook))}\n")
        (hooks / hook).chmod(0o755)
    # uncommitted edits: the worktree scope and status read them through the filters
    (repo / "app.py").write_text("x = 3\n")
    (repo / "data.bin").write_text("c\n")
    (repo / "notes.txt").write_text("m\n")
    return repo, marks


def _fired(marks: Path) -> set[str]:
    found = {p.name for p in marks.iterdir()}
    for p in marks.iterdir():
        p.unlink()
    return found


@pytest.fixture(scope="module")
def control(tmp_path_factory) -> set[str]:
    """What plain git runs in such a checkout (status, diff, log -p, add, update-ref)."""
    tmp = tmp_path_factory.mktemp("control")
    repo, marks = _hostile(tmp)
    env = {"GIT_INDEX_FILE": str(tmp / "index")}
    for args in (["status"], ["diff", "main...HEAD"], ["diff"], ["log", "-p", "-1"],
                 ["update-ref", "refs/x", "HEAD"]):
        subprocess.run(["git", "-C", str(repo), *args], capture_output=True,
                       env={**os.environ, **GIT_ENV}, check=False)
    subprocess.run(["git", "-C", str(repo), "-c", "filter.proc.process=", "add", "-A"],
                   capture_output=True, check=False,
                   env={**os.environ, **GIT_ENV, **env})
    subprocess.run(["git", "-C", str(repo), "-c", "diff.external=", "diff", "main...HEAD",
                    "--", "data.bin"], capture_output=True, check=False, env=os.environ)
    return _fired(marks) | {"nested-fsmonitor"}


@pytest.fixture(scope="module")
def ours(tmp_path_factory) -> dict[str, set[str]]:
    """What each of the project's commands ran in the same checkout, per command."""
    tmp = tmp_path_factory.mktemp("ours")
    repo, marks = _hostile(tmp)
    xdg = tmp / "xdg"
    (xdg / "council").mkdir(parents=True)
    nested = tmp / "nested"
    answer = "Verdict: APPROVE\\nConfidence: HIGH\\nFindings: none\\nSummary: ok.\\n"
    # the reviewer itself runs git in the checkout: its fsmonitor must not fire either
    (xdg / "council" / "commands").write_text(
        f"alpha = cat > /dev/null; git status > /dev/null 2>&1; git diff > /dev/null 2>&1; "
        f"ls {shlex.quote(str(marks))} > {shlex.quote(str(nested))}; printf '{answer}'\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith("COUNCIL_")}
    env["XDG_CONFIG_HOME"] = str(xdg)
    runs = {
        "council review --base": [str(bin_dir() / "council"), "review", "--base", "main"],
        "council review --worktree": [str(bin_dir() / "council"), "review", "--worktree"],
        "council review --staged": [str(bin_dir() / "council"), "review", "--staged"],
        "council-context": [str(bin_dir() / "council-context"), "--base", "main"],
        "council-scan": [str(bin_dir() / "council-scan"), "--base", "main"],
        "council-pack": [str(bin_dir() / "council-pack"), "review", "--base", "main"],
    }
    seen: dict[str, set[str]] = {}
    for name, argv in runs.items():
        if name == "council review --staged":
            _git(repo, "-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null",
                 "-c", "filter.evil.clean=", "-c", "filter.evil.required=false",
                 "-c", "filter.lfs.clean=", "-c", "filter.proc.process=", "add", "app.py")
            _fired(marks)
        res = subprocess.run(argv, cwd=repo, env=env, capture_output=True, text=True,
                             timeout=300)
        assert res.returncode in (0, 3), (name, res.stderr)
        got = _fired(marks)
        if nested.exists():
            got |= {"nested-" + n for n in nested.read_text().split()}
            nested.unlink()
        seen[name] = got
    return seen


@pytest.mark.parametrize("vector", VECTORS)
def test_the_vector_fires_under_plain_git(control, vector):
    assert vector in control


@pytest.mark.parametrize("vector", VECTORS)
def test_no_command_of_ours_runs_it(ours, vector):
    hits = {name for name, fired in ours.items() if vector in fired
            or (vector == "nested-fsmonitor" and "nested-fsmonitor" in fired)}
    assert hits == set(), f"{vector} ran under {sorted(hits)}"
