"""Review scopes as commits the pack can read from git objects.

``council-pack review`` reads a commit, never the work tree.  An uncommitted
scope becomes a snapshot: a tree written from a private copy of the index
(the user's index, work tree and refs are never touched) and a commit object
on top of HEAD that no ref points to; git prunes it like any other loose
object.  Each scope yields the (base, head) pair the pack diffs:

* ``base``     -- REF's merge base .. HEAD (the committed change only);
* ``worktree`` -- HEAD .. HEAD plus staged, unstaged and untracked (not ignored) files;
* ``staged``   -- HEAD .. HEAD plus what is staged;
* ``commit``   -- SHA's first parent .. SHA (a root commit: the empty tree .. SHA).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from dataclasses import dataclass

from council_filters.base.errors import DataError, UsageError
from council_filters.pack.git import GitRepo

SCOPES = ("base", "worktree", "staged", "commit")
# A fixed identity for snapshot commits: they are never shown, and a CI job
# without user.name must still be able to make them.
_IDENTITY = {
    "GIT_AUTHOR_NAME": "council",
    "GIT_AUTHOR_EMAIL": "council@localhost",
    "GIT_COMMITTER_NAME": "council",
    "GIT_COMMITTER_EMAIL": "council@localhost",
    "GIT_AUTHOR_DATE": "1970-01-01T00:00:00Z",
    "GIT_COMMITTER_DATE": "1970-01-01T00:00:00Z",
}


@dataclass(frozen=True)
class Range:
    """What to review: ``--base`` and ``--head`` for council-pack (None: pack's default)."""

    base: str | None
    head: str | None = None


def _text(git: GitRepo, *args: str, env: dict[str, str] | None = None) -> str:
    return git.run(args, env=env).stdout.decode("ascii", "replace").strip()


def _rev(git: GitRepo, rev: str) -> str | None:
    args = ["rev-parse", "--verify", "--quiet", "--end-of-options", rev]
    res = git.run(args, ok_codes=range(256))
    sha = res.stdout.decode("ascii", "replace").strip()
    return sha if res.returncode == 0 and sha else None


def commit_of(git: GitRepo, rev: str, what: str) -> str:
    """The commit SHA a user's revision names (``main``, ``v1.2``, ``HEAD~3``, a SHA)."""
    if not rev or rev.startswith("-") or not rev.isprintable() or " " in rev:
        raise DataError(f"{what}: a revision cannot be empty, start with '-' or hold blanks")
    sha = _rev(git, rev + "^{commit}")  # after --end-of-options: never an option
    if sha is None:
        raise DataError(f'{what} "{rev}" is not a commit in this repository')
    return sha


def _commit(git: GitRepo, tree: str, parent: str | None, message: str) -> str:
    args = ["commit-tree", tree, "-m", message]
    if parent:
        args[2:2] = ["-p", parent]
    return _text(git, *args, env=dict(_IDENTITY))


def _write_empty(git: GitRepo) -> str:
    res = git.run(["hash-object", "-t", "tree", "-w", "--stdin"], stdin=b"")
    return res.stdout.decode("ascii").strip()


def _index_tree(git: GitRepo, *, add_all: bool, exclude: tuple[str, ...] = ()) -> str:
    """The tree of a private copy of the index (with every work-tree change added);
    ``exclude`` (directories relative to the top) keep what HEAD has there."""
    real = git.root / os.fsdecode(git.out("rev-parse", "--git-path", "index").strip())
    scratch = tempfile.mkdtemp(prefix="council-index-")  # 0700
    try:
        index = os.path.join(scratch, "index")
        if real.is_file():
            shutil.copyfile(real, index)
            os.chmod(index, 0o600)
        env = {"GIT_INDEX_FILE": index}
        skip = [":(top,exclude,literal)" + d for d in exclude]
        if add_all:
            git.run(["add", "--all", "--", ":/", *skip], env=env)
        if exclude:
            specs = [":(top,literal)" + d for d in exclude]
            if _rev(git, "HEAD") is not None:
                git.run(["reset", "-q", "HEAD", "--", *specs], env=env, ok_codes=(0, 1))
            else:
                git.run(["rm", "-r", "-q", "--cached", "--ignore-unmatch", "--", *specs],
                        env=env)
        return _text(git, "write-tree", env=env)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def choose(base: str | None, worktree: bool, staged: bool, commit: str | None) -> str:
    """The one scope ``--base``/``--worktree``/``--staged``/``--commit`` name ("base" when
    none does); two at once is a usage error."""
    chosen = [n for n, on in (("base", base is not None), ("worktree", worktree),
                              ("staged", staged), ("commit", commit is not None)) if on]
    if len(chosen) > 1:
        raise UsageError("choose one scope: " + " or ".join(f"--{n}" for n in chosen))
    return chosen[0] if chosen else "base"


def snapshot_tree(git: GitRepo, *, add_all: bool = True) -> str:
    """The tree of the work tree as it is now (every change and untracked file added, or
    only the index), written from a private copy of the index: nothing of the user's moves."""
    return _index_tree(git, add_all=add_all)


def resolve(
    git: GitRepo, scope: str, *, base: str | None = None, commit: str | None = None,
    exclude: tuple[str, ...] = (),
) -> Range:
    """The (base, head) pair for ``scope``; snapshot commits are written as needed.

    ``exclude``: directories (relative to the top, e.g. the council's report
    directory) a snapshot leaves as HEAD has them."""
    if scope == "base":
        if base is None:
            return Range(None)  # council-pack's default: the upstream branch, else origin/main
        return Range(commit_of(git, base, "--base"))
    if scope == "commit":
        if not commit:
            raise DataError("--commit needs a revision")
        sha = commit_of(git, commit, "--commit")
        parent = _rev(git, sha + "^1")
        if parent is not None:
            return Range(parent, sha)
        root = _commit(git, _write_empty(git), None, "council: empty base")
        return Range(root, _commit(git, _text(git, "rev-parse", sha + "^{tree}"), root, "council"))
    if scope not in ("worktree", "staged"):
        raise DataError(f"unknown scope {scope!r}")
    head = _rev(git, "HEAD")
    tree = _index_tree(git, add_all=scope == "worktree", exclude=exclude)
    if head is None:  # no commit yet: everything is new
        head = _commit(git, _write_empty(git), None, "council: empty base")
    elif _text(git, "rev-parse", head + "^{tree}") == tree:
        what = "uncommitted changes" if scope == "worktree" else "staged changes"
        raise DataError(f"nothing to review: no {what}")
    return Range(head, _commit(git, tree, head, f"council: {scope} snapshot"))


def uncommitted_files(git: GitRepo, exclude: tuple[str, ...] = ()) -> int:
    """How many files differ from HEAD in the index or the work tree (untracked included),
    leaving out those under ``exclude`` (directories relative to the top)."""
    raw = git.out("status", "--porcelain=v1", "-z", "--untracked-files=all")
    fields = raw.split(b"\0")
    count = 0
    i = 0
    while i < len(fields):
        entry = fields[i]
        i += 1
        if not entry:
            continue
        if entry[:1] in (b"R", b"C") or entry[1:2] in (b"R", b"C"):
            i += 1  # a rename or copy carries its source path in the next field
        path = os.fsdecode(entry[3:])
        if any(path == d or path.startswith(d.rstrip("/") + "/") for d in exclude):
            continue
        count += 1
    return count
