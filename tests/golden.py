"""Golden cases, discovered by name under ``golden/<filter>/``.

A case is a set of files sharing a stem:

    <case>.in     bytes on stdin (absent: empty stdin)
    <case>.args   JSON array of arguments (absent: no arguments)
    <case>.out    the exact expected stdout
    <case>.err    the exact expected stderr (absent: not compared)
    <case>.code   the expected exit code (absent: 0)
    <case>.repo   a shell script that builds a repository: it runs in a fresh temporary
                  directory (with the pinned git identity and dates of tests/procenv.py and
                  CASE_DIR naming the case's folder), and the case then runs there

A filter whose cases read a git repository has ``golden/<filter>/git-repo/``,
from which each run builds one, never using this checkout's own history:

    git-repo/base/     the files of the first commit, on ``main``
    git-repo/change/   files written over them in a second commit (optional)
    git-repo/deleted   paths the second commit removes, one a line (optional)
    git-repo/branch    the second commit's branch, checked out (default: feature)

Identity, dates and git configuration are pinned, so the commits (and any ids
in the output) are the same on every machine; that filter's cases then run
inside the built repository, with relative paths resolving against its root.
Other cases run in ``golden/<filter>/``.

A new case needs no new test code.  ``python tests/golden.py --regen [FILTER]``
rewrites ``.out``/``.code`` (and an existing ``.err``) from the current tool;
for ``redact`` it runs the reference awk program named by
``COUNCIL_REFERENCE_AWK`` under mawk instead, since that program, not this
tool, is the source of truth there.
"""

from __future__ import annotations

import atexit
import json
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from conftest import Result, git, run_filter
from procenv import GIT_ENV

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "golden"


@dataclass(frozen=True)
class Case:
    filter: str
    name: str
    dir: Path

    def path(self, ext: str) -> Path:
        return self.dir / f"{self.name}.{ext}"

    @property
    def id(self) -> str:
        return f"{self.filter}/{self.name}"

    def stdin(self) -> bytes:
        p = self.path("in")
        return p.read_bytes() if p.exists() else b""

    def args(self) -> list[str]:
        p = self.path("args")
        return list(json.loads(p.read_text())) if p.exists() else []

    def expected_code(self) -> int:
        p = self.path("code")
        return int(p.read_text().strip()) if p.exists() else 0


def discover(filters: list[str] | None = None) -> list[Case]:
    cases = []
    for fdir in sorted(p for p in GOLDEN.iterdir() if p.is_dir()) if GOLDEN.exists() else []:
        if filters and fdir.name not in filters:
            continue
        for out in sorted(fdir.glob("*.out")):
            cases.append(Case(fdir.name, out.name[: -len(".out")], fdir))
    return cases


GIT_REPO = "git-repo"
_built: dict[Path, Path] = {}


def built_repo(fdir: Path) -> Path | None:
    """The repository a filter's cases run in, built (once per process, in a private
    temporary directory) from ``<fdir>/git-repo/``; ``None`` when there is none."""
    spec = fdir / GIT_REPO
    if not spec.is_dir():
        return None
    if fdir in _built:
        return _built[fdir]
    tmp = Path(tempfile.mkdtemp(prefix="council-golden-"))
    atexit.register(shutil.rmtree, tmp, True)
    repo = tmp / "repo"
    shutil.copytree(spec / "base", repo, symlinks=True)
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base")
    change, deleted, branch = spec / "change", spec / "deleted", spec / "branch"
    if change.is_dir() or deleted.is_file():
        git(repo, "checkout", "-q", "-b",
             branch.read_text().strip() if branch.is_file() else "feature")
        for rel in deleted.read_text().split("\n") if deleted.is_file() else []:
            if rel.strip():
                git(repo, "rm", "-q", "--", rel.strip())
        if change.is_dir():
            shutil.copytree(change, repo, symlinks=True, dirs_exist_ok=True)
        git(repo, "add", "-A")
        git(repo, "commit", "-q", "-m", "change")
    _built[fdir] = repo
    return repo


def build_repo(case: Case, where: Path) -> None:
    """Run the case's ``.repo`` script in ``where`` (pinned git identity, dates and config)."""
    env = {**os.environ, **GIT_ENV, "CASE_DIR": str(case.dir)}
    subprocess.run(["sh", "-eu", str(case.path("repo"))], cwd=where, env=env, check=True,
                   stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)


def run_case(case: Case) -> Result:
    """Run one case in-process: inside the repository its ``.repo`` script builds, else inside
    the filter's built repository if it has one, else next to the case files.  Git's
    configuration is pinned, and git cannot climb out of golden/ into this checkout."""
    env = {**GIT_ENV, "GIT_CEILING_DIRECTORIES": str(GOLDEN)}
    if case.path("repo").exists():
        with tempfile.TemporaryDirectory(prefix="council-golden-") as scratch:
            build_repo(case, Path(scratch))
            return run_filter(case.filter, case.args(), case.stdin(), cwd=scratch, env=env)
    cwd = built_repo(case.dir) or case.dir
    return run_filter(case.filter, case.args(), case.stdin(), cwd=cwd, env=env)


def regen(filters: list[str] | None) -> int:
    for case in discover(filters):
        if case.filter == "redact" and not case.args():
            ref = os.environ.get("COUNCIL_REFERENCE_AWK")
            awk = shutil.which("mawk") or shutil.which("awk")
            if not ref or not awk:
                print(f"skip {case.id}: set COUNCIL_REFERENCE_AWK (and install mawk)")
                continue
            res = subprocess.run(
                [awk, "-f", ref], input=case.stdin(), capture_output=True,
                env={**os.environ, "LC_ALL": "C"}, check=False,
            )
            case.path("out").write_bytes(res.stdout)
            continue
        code, out, err = run_case(case)
        case.path("out").write_bytes(out)
        if code or case.path("code").exists():
            case.path("code").write_text(f"{code}\n")
        if case.path("err").exists():
            case.path("err").write_text(err)
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    sys.path.insert(0, str(ROOT / "tests"))
    argv = sys.argv[1:]
    if not argv or argv[0] != "--regen":
        print(__doc__)
        sys.exit(2)
    sys.exit(regen(argv[1:] or None))
