"""Safe file access: the one contained reader and the two durable writes.

Reading (:func:`read_regular`, :func:`contained`): a file a council run reads
on someone else's behalf (a work-tree file for a pack, a finding's source
line, a reviewer's fenced output) is opened without following a final
symlink and without blocking on a FIFO, checked to be a regular file through
the open descriptor (so a swap after any earlier check is refused, not
followed), and read up to a limit.  :func:`contained` decides whether a
repository-relative path stays inside its root.

Writing, both safe against a crash half-way (a reader sees the old state or
the new one, never a torn file): the data goes to a private temp file
``.<name>.XXXXXXXX.tmp`` (mode 0600) in the target's directory, is fsynced,
chmod-ed to ``mode`` (less the umask) and then

- :func:`write_new` hard-links it to the target name, which fails if anything
  appeared there meanwhile (``FileExistsError``; where hard links are not
  supported, ``O_CREAT | O_EXCL`` on the target itself);
- :func:`replace` renames it over the target;

and the directory is fsynced so the link or rename itself survives a power
cut.  Nothing here knows about argv or stdio.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import stat
import tempfile
from collections.abc import Callable, Iterable

#: A NUL in the first this-many bytes makes a file binary (git's own heuristic).
BINARY_PROBE = 8000

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_CHUNK = 1 << 20


def is_binary(head: bytes) -> bool:
    """True when ``head`` (a file's first bytes) holds a NUL within :data:`BINARY_PROBE`."""
    return b"\0" in head[:BINARY_PROBE]


# --------------------------------------------------------------------------- #
# Reading.
# --------------------------------------------------------------------------- #
def read_regular(
    path: str | bytes | os.PathLike[str],
    *,
    limit: int | None = None,
    max_size: int | None = None,
    restrict: int | None = None,
) -> tuple[bytes, int]:
    """``(the first limit bytes, the file's size)`` of a regular file; OSError otherwise.

    Never follows a final symlink (``O_NOFOLLOW``: ``ELOOP``), never blocks
    on a FIFO, refuses anything that is not a regular file and, with
    ``max_size``, a file larger than that (``EFBIG``), before reading a byte.
    ``restrict`` chmods the open file first (best effort): ``0o600`` keeps a
    reviewer's raw output private while it is handled.  ``limit`` None reads
    the whole file.
    """
    fd = os.open(path, os.O_RDONLY | _NOFOLLOW | _NONBLOCK)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise OSError(errno.EINVAL, "not a regular file")
        if max_size is not None and st.st_size > max_size:
            raise OSError(errno.EFBIG, "file too large")
        if restrict is not None:
            with contextlib.suppress(OSError):
                os.fchmod(fd, restrict)
        chunks = []
        left = limit
        while left is None or left > 0:
            chunk = os.read(fd, _CHUNK if left is None else min(_CHUNK, left))
            if not chunk:
                break
            chunks.append(chunk)
            if left is not None:
                left -= len(chunk)
        return b"".join(chunks), st.st_size
    finally:
        os.close(fd)


def contained(root: str, rel: str) -> str | None:
    """``root/rel`` when ``rel`` is a relative path that stays inside ``root``, else None.

    ``root`` must be a real path (``os.path.realpath``).  Refused: an empty or
    absolute path, a NUL, a ``..`` segment, a final symlink, and any path
    whose real location is outside ``root`` (a symlinked parent included).
    """
    if not rel or rel.startswith("/") or "\0" in rel:
        return None
    if any(seg == ".." for seg in rel.split("/")):
        return None
    full = os.path.join(root, rel)
    try:
        if not os.path.realpath(full).startswith(root + os.sep) or os.path.islink(full):
            return None
    except (OSError, ValueError):
        return None
    return full


# --------------------------------------------------------------------------- #
# Writing.
# --------------------------------------------------------------------------- #
_LINK_UNSUPPORTED = {errno.EPERM, errno.EOPNOTSUPP, errno.ENOTSUP, errno.EXDEV, errno.ENOSYS}


def temp_name_pattern(path: str) -> re.Pattern[str]:
    """The names of the temp files a write to ``path`` uses (to clean up after a crash)."""
    return re.compile(r"\A\." + re.escape(os.path.basename(path)) + r"\.[A-Za-z0-9_]{8}\.tmp\Z")


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


def _write_temp(path: str, data: bytes, mode: int) -> str:
    directory = os.path.dirname(os.path.abspath(path))
    name = os.path.basename(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=directory)
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
    tmp = _write_temp(path, data, mode)
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
    fsync_dir(os.path.dirname(os.path.abspath(path)))


def _write_exclusive(path: str, data: bytes, mode: int) -> None:
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW
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
    tmp = _write_temp(path, data, mode)
    try:
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    fsync_dir(os.path.dirname(os.path.abspath(path)))


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
