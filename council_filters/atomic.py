"""Durable file writes: temp file in the same directory, fsync, rename or link, fsync the dir.

Two operations, both safe against a crash half-way (a reader sees the old
state or the new one, never a torn file):

- :func:`write_new` creates ``path`` and refuses to clobber: the finished temp
  file is hard-linked to the target name, which fails if a file appeared there
  meanwhile (``FileExistsError``). Where hard links are not supported it
  falls back to ``O_CREAT | O_EXCL`` on the target itself.
- :func:`replace` atomically replaces ``path`` (for state files).

Temp files are created ``0600`` and chmod-ed to ``mode`` (less the umask)
only when complete.  Nothing here knows about argv or stdio.
"""

from __future__ import annotations

import contextlib
import errno
import os
import tempfile
from collections.abc import Callable, Iterable

_LINK_UNSUPPORTED = {errno.EPERM, errno.EOPNOTSUPP, errno.ENOTSUP, errno.EXDEV, errno.ENOSYS}


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def fsync_dir(directory: str) -> None:
    """fsync a directory so a rename or link in it is durable (best effort on odd filesystems)."""
    try:
        fd = os.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        with contextlib.suppress(OSError):
            os.fsync(fd)
    finally:
        os.close(fd)


def _write_temp(directory: str, data: bytes, mode: int) -> str:
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=".part", dir=directory)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode & ~_umask())
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return tmp


def write_new(path: str, data: bytes, *, mode: int = 0o666) -> None:
    """Create ``path`` holding ``data``; ``FileExistsError`` if anything is already there."""
    directory = os.path.dirname(os.path.abspath(path))
    tmp = _write_temp(directory, data, mode)
    try:
        try:
            os.link(tmp, path)
        except OSError as exc:
            if exc.errno not in _LINK_UNSUPPORTED:
                raise
            _write_exclusive(path, data, mode)
    finally:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
    fsync_dir(directory)


def _write_exclusive(path: str, data: bytes, mode: int) -> None:
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(path, flags, mode)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        os.fsync(fd)
    finally:
        os.close(fd)


def replace(path: str, data: bytes, *, mode: int = 0o666) -> None:
    """Atomically replace (or create) ``path`` with ``data``."""
    directory = os.path.dirname(os.path.abspath(path))
    tmp = _write_temp(directory, data, mode)
    try:
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    fsync_dir(directory)


def write_first_free(
    candidates: Iterable[str], render: Callable[[str], bytes], *, mode: int = 0o666
) -> str | None:
    """Write to the first candidate path that does not exist yet; return it (None if all taken).

    ``render(path)`` produces the bytes for that path (a report may name its
    own path).  A candidate that is taken, or that appears between the check
    and the link, is skipped; nothing is ever overwritten.
    """
    for path in candidates:
        if os.path.lexists(path):
            continue
        try:
            write_new(path, render(path), mode=mode)
        except FileExistsError:
            continue
        return path
    return None
