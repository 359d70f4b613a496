"""What a pack shows, gathered from the repository: work-tree files, the review base,
the changed files' excerpts.

Every file read here goes through the one contained reader
(:func:`council_filters.base.safefs.read_regular`) after the hardened path
checks; git blobs come from :class:`council_filters.pack.git.GitRepo`.  No
argv, no stdio: a warning goes to the ``warn`` callback the caller passes.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from pathlib import Path

from council_filters.base import diffs, safefs
from council_filters.base import paths as pathrules
from council_filters.base.errors import DataError
from council_filters.pack import core
from council_filters.pack.git import MODE_SUBMODULE, MODE_SYMLINK, Blob, GitRepo, check_ref


def read_work_file(root: Path, rel: str, cap: int) -> core.Excerpt:
    """A validated work-tree file: never a symlink, never outside, never binary."""
    pathrules.validate_path(rel, root, hardened=True)
    try:
        head, size = safefs.read_regular(root / rel, limit=max(cap, safefs.BINARY_PROBE))
    except OSError as exc:
        raise pathrules.PathRefused(f"cannot read ({exc.strerror})", rel) from None
    if safefs.is_binary(head):
        raise pathrules.PathRefused("binary files not permitted", rel)
    return core.Excerpt(rel, head, size)


def conventions(root: Path, rel: str) -> bytes | None:
    """The conventions file (CLAUDE.md by default), if it is a regular text file in the repo."""
    if not rel:
        return None
    try:
        return read_work_file(root, rel, core.CONVENTIONS_CAP).content
    except DataError:
        return None


def path_list(paths: str | None, root: Path, cap: int, limit: int) -> list[core.Excerpt]:
    """The ``--paths`` files, each validated and cut at ``cap``; at most ``limit`` of them."""
    items = [p for p in (paths or "").split(",")] if paths else []
    if len(items) > limit:
        raise DataError(
            f"too many --paths: {len(items)} given, at most {limit} (COUNCIL_PATH_MAX_FILES)"
        )
    return [read_work_file(root, p, cap) for p in items]


def resolve_base(git: GitRepo, base: str | None, warn: Callable[[str], None]) -> str:
    """The merge-base SHA for review mode (upstream rules; never a silent fallback)."""
    if base is not None:
        if base == "":
            raise DataError("--base requires a ref argument")
        check_ref(base)
        if not git.verify(base):
            raise DataError(f'--base ref "{base}" does not exist')
        sha = git.merge_base(base)
        if sha is None:
            raise DataError(f"cannot resolve merge-base with {base}")
        return sha
    upstream = git.upstream()
    if upstream is None:
        warn("no upstream tracking branch — falling back to origin/main")
        upstream = "origin/main"
    check_ref(upstream)
    sha = git.merge_base(upstream)
    if sha is None:
        raise DataError(
            f"cannot resolve merge-base with {upstream} — fetch the remote or pass --base <ref>"
        )
    return sha


def changed_excerpts(git: GitRepo, base: str) -> core.ReviewInput:
    diff_and_stat = git.start_diff_and_stat(base)  # git works on them while the files are read
    try:
        changed, excerpts, not_shown = _excerpts(git, base)
    except BaseException:
        with contextlib.suppress(Exception):
            diff_and_stat()  # reaped; the first failure is the one reported
        raise
    diff, stat = diff_and_stat()
    return core.ReviewInput(base, diff, lambda: stat, excerpts, not_shown, len(changed))


def _excerpts(
    git: GitRepo, base: str
) -> tuple[list[str], list[core.Excerpt], list[dict[str, str]]]:
    """The changed paths, the excerpts of the first text files, and the files not shown."""
    changed = git.changed_files(base)
    entries = git.head_entries(changed)
    not_shown: list[dict[str, str]] = []
    order: list[Blob] = []
    for path in changed:
        entry = entries.get(path)
        if entry is None:
            not_shown.append({"path": pathrules.show_path(path), "reason": "deleted"})
        elif entry.mode == MODE_SYMLINK:
            not_shown.append({"path": pathrules.show_path(path), "reason": "symlink"})
        elif entry.mode == MODE_SUBMODULE:
            not_shown.append({"path": pathrules.show_path(path), "reason": "submodule"})
        else:
            order.append(entry)
    excerpts: list[core.Excerpt] = []
    used = 0
    by_oid = [e.oid for e in order]
    limit = max(core.EXCERPT_CAP, safefs.BINARY_PROBE)
    for entry, (_oid, head, size) in zip(order, git.read_blobs(by_oid, limit), strict=False):
        if safefs.is_binary(head):
            if not diffs.mostly_text(head):
                not_shown.append({"path": pathrules.show_path(entry.path), "reason": "binary"})
                continue
            head = head.replace(b"\0", diffs.NUL_SHOWN)  # text that hid behind a NUL byte
        ex = core.Excerpt(entry.path, head, size)
        excerpts.append(ex)
        used += ex.shown_bytes(core.EXCERPT_CAP)
        if used > core.EXCERPTS_TOTAL:
            break  # this one does not fit: the rest are omitted unread
    return changed, excerpts, not_shown
