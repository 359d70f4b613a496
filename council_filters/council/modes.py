"""What each council mode hands council-pack, and the slug its report is named by.

``review`` turns a scope (``--base``, ``--worktree``, ``--staged``, ``--commit``, or
``--since last|REF``) into the revisions the pack compares and the name of the base it
shows; ``question`` and ``debug`` pass their text, ``plan`` its document, each with the
slug council-pack would derive from it.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from council_filters.base import paths
from council_filters.base.errors import DataError, UsageError
from council_filters.council import reports, scope, since
from council_filters.pack.git import REF_RE, GitRepo


@dataclass(frozen=True)
class Review:
    """A review's pack arguments, its report slug and the (branch, head) to record."""

    args: list[str]
    slug: str
    reviewed: tuple[str, str] | None = None


def review_kind(base: str | None, worktree: bool, staged: bool, commit: str | None,
                since_ref: str | None) -> str:
    """The review's scope (``base``, ``worktree``, ``staged`` or ``commit``), checked."""
    if since_ref is not None and (worktree or staged or commit is not None):
        raise UsageError("--since reviews commits of the branch: drop --worktree, --staged"
                         " and --commit")
    return scope.choose(base, worktree, staged, commit)


def resolve(git: GitRepo, kind: str, *, base: str | None, commit: str | None,
            since_ref: str | None, report_dir: str | None, max_diff_bytes: int,
            max_diff_lines: int | None, env: Mapping[str, str],
            warn: Callable[[str], None]) -> Review:
    """The scope resolved to revisions (after the gates and the commands file are checked),
    the uncommitted-file warning, the pack's arguments and the report's slug."""
    own = reports.inside(str(git.root), reports.report_dir(str(git.root), report_dir))
    exclude = (own,) if own else ()
    reviewed: tuple[str, str] | None = None
    if since_ref is not None:
        rng, reviewed = since_range(git, since_ref, base, exclude, env, warn)
    else:
        rng = scope.resolve(git, kind, base=base, commit=commit, exclude=exclude)
    if kind == "base":
        dirty = scope.uncommitted_files(git, exclude)
        if dirty:
            noun = "file" if dirty == 1 else "files"
            warn(f"warning: {dirty} uncommitted {noun} not reviewed (this reviews commits"
                 " only; --worktree includes them)")
    args = ["review", "--max-diff-bytes", str(max_diff_bytes)]
    if max_diff_lines is not None:
        args += ["--max-diff-lines", str(max_diff_lines)]
    if rng.base is not None:
        args += ["--base", rng.base]
    if rng.head is not None:
        args += ["--head", rng.head]
    args += ["--scope", kind]
    named = base if kind == "base" and base is not None else None
    if kind == "base" and named is None:
        named = git.upstream() or "origin/main"
    if named is not None and check_name(named):
        args += ["--base-name", named]
    return Review(args, review_slug(git, kind, named, rng, commit), reviewed)


def since_range(
    git: GitRepo, ref: str, base: str | None, exclude: tuple[str, ...],
    env: Mapping[str, str], warn: Callable[[str], None],
) -> tuple[scope.Range, tuple[str, str] | None]:
    """The range of ``--since last|REF`` and the (branch, head) to record after the run."""
    head = since.commit_sha(git, "HEAD")
    if head is None:
        raise DataError("--since: the repository has no commit yet")
    if ref != "last":
        start = scope.resolve(git, "base", base=ref, exclude=exclude)
        return scope.Range(start.base, head), None
    branch = git.branch_name()
    whole = scope.resolve(git, "base", base=base, exclude=exclude)
    if branch == "HEAD":
        warn("--since last: HEAD is detached, so no branch records where its"
             " review ended; reviewing the whole branch")
        return whole, None
    found = since.last(env, git, branch, head)
    if found.notice:
        warn(found.notice)
    if found.base is None:
        return whole, (branch, head)
    return scope.Range(found.base, head), (branch, head)


def check_name(ref: str) -> bool:
    """Whether a ref passes the pack's allowlist (it is shown, never run)."""
    return REF_RE.match(ref) is not None and not ref.startswith("-")


def review_slug(
    git: GitRepo, kind: str, named: str | None, rng: scope.Range, commit: str | None
) -> str:
    """The branch's slug and the scope: feat-x-vs-main, feat-x-worktree, feat-x-commit-abc1234."""
    branch = git.branch_name()
    if kind == "base":
        what = f"vs {named or rng.base or 'base'}"
    elif kind == "commit":
        what = f"commit {git.commit_sha(commit or 'HEAD')[:7]}"
    else:
        what = kind
    return paths.scoped_slug(branch, what)


def text(mode: str, words: Sequence[str], file_paths: str | None) -> tuple[list[str], str]:
    """``question``/``debug``: the pack's arguments and the slug council-pack would derive
    from the text (``-``: the text is on stdin)."""
    args = [mode, *(["--paths", file_paths] if file_paths else []), "--", *words]
    if list(words) == ["-"]:
        return args, "stdin"
    return args, paths.build_slug(paths.text_slug_source(" ".join(words)))


def plan(git: GitRepo, directory: str | None, file: str) -> tuple[list[str], str]:
    """``plan``: the document relative to the repository (a path is relative to -C DIR, as
    git -C does), and its slug."""
    given = os.path.join(directory or ".", file)
    rel = os.path.relpath(os.path.realpath(given), os.path.realpath(git.root)) if (
        os.path.exists(given)
    ) else file
    return ["plan", "--", rel], paths.build_slug(paths.plan_slug_source(rel))
