"""Where batch inputs and outputs live: local paths, or fsspec URLs.

A location is a local path (``logs/a.txt``, ``/var/log/x.log``) or a URL
with a scheme (``file:///data/x``, ``s3://bucket/key``, ``memory://out``).
Local paths go through :mod:`os` directly; URLs through fsspec, which is
imported only when a URL is used (it comes with the ``dask`` extra).  No argv,
no stdio.
"""

from __future__ import annotations

import contextlib
import errno
import glob as globmod
import os
import re
import stat
from collections.abc import Callable, Iterable, Iterator
from typing import IO, Any

from council_filters.base.errors import UsageError

INSTALL_HINT = "pip install 'council-filters[dask]'"
_SCHEME = re.compile(r"\A[A-Za-z][A-Za-z0-9+.-]*://")
_GLOB_CHARS = re.compile(r"[*?\[]")


def is_url(location: str) -> bool:
    return _SCHEME.match(location) is not None


def has_glob(location: str) -> bool:
    return _GLOB_CHARS.search(location) is not None


def scheme(location: str) -> str:
    return location.split("://", 1)[0].lower() if is_url(location) else ""


def fsspec_module() -> Any:
    """fsspec, or a usage error saying how to install it."""
    try:
        import fsspec
    except ImportError:
        raise UsageError(f"URLs need fsspec: {INSTALL_HINT}") from None
    return fsspec


def url_fs(url: str) -> tuple[Any, str]:
    """``(filesystem, path within it)`` for a URL."""
    fsspec = fsspec_module()
    try:
        return fsspec.core.url_to_fs(url)  # type: ignore[no-any-return]
    except (ValueError, ImportError) as exc:
        # An unknown scheme, or a known one whose backend is not installed (s3fs, gcsfs...).
        raise UsageError(f"cannot use {scheme(url)}:// URLs: {_first_line(exc)}") from None


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0][:200] if text else type(exc).__name__


def join(directory: str, rel: str) -> str:
    """``directory/rel`` for a local directory or a URL prefix."""
    if is_url(directory):
        return directory.rstrip("/") + "/" + rel
    return os.path.join(directory, rel)


def url_path(url: str) -> str:
    """The path part of a URL, without its scheme (``file:///a/b`` -> ``/a/b``)."""
    return url.split("://", 1)[1] if is_url(url) else url


# --------------------------------------------------------------------------- #
# Listing.
# --------------------------------------------------------------------------- #
def _leaves(path: str, root: str) -> bool:
    """True when ``path`` is a symlink whose target (resolved, existing or not) is outside
    ``root``."""
    if not os.path.islink(path):
        return False
    target = os.path.realpath(path)
    top = os.path.realpath(root)
    return not (target == top or target.startswith(top.rstrip(os.sep) + os.sep))


def _glob_root(pattern: str) -> str:
    """The directory a glob is anchored in: its path up to the first magic component."""
    parts = pattern.split(os.sep)
    fixed = []
    for part in parts:
        if has_glob(part):
            break
        fixed.append(part)
    return os.sep.join(fixed) or "."


def expand(location: str, *, exclude: Callable[[str], bool] = lambda p: False,
           skipped: Callable[[str, str], None] | None = None) -> list[str]:
    """The files a location names, sorted: a glob's matches, a directory's files, or itself.

    A local directory is walked (regular files, sorted by path); a URL ending
    in ``/`` is listed recursively; a glob (``*``, ``?``, ``[``) is matched.  A
    glob matching nothing is a usage error.  A plain file is returned as
    given, even when it does not exist (it is reported when it is read).
    A symlink met in a walked directory or a glob's matches whose target
    leaves that directory (``env.log -> /proc/self/environ``) is skipped and
    reported through ``skipped(path, reason)``: the tree is the input, not what
    it points at.
    """
    if is_url(location):
        fs, path = url_fs(location)
        if has_glob(path):
            found = sorted(p for p in fs.glob(path) if not fs.isdir(p))
            if not found:
                raise UsageError("no file matches", source=location)
            return [_unstrip(fs, location, p) for p in found]
        if location.endswith("/"):
            return [_unstrip(fs, location, p) for p in sorted(fs.find(path))]
        return [location]

    def inside(paths: Iterable[str], root: str) -> list[str]:
        kept = []
        for p in paths:
            if _leaves(p, root):
                if skipped is not None:
                    skipped(p, "a symlink that leaves the input directory: skipped")
                continue
            kept.append(p)
        return kept

    if os.path.isdir(location):
        out: list[str] = []
        for top, dirs, files in os.walk(location):
            dirs[:] = sorted(d for d in dirs if not exclude(os.path.join(top, d)))
            out.extend(inside(
                (p for p in (os.path.join(top, f) for f in sorted(files)) if not exclude(p)),
                location))
        return sorted(out)
    if has_glob(location) and not os.path.lexists(location):
        found = sorted(p for p in globmod.glob(location) if not os.path.isdir(p))
        if not found:
            raise UsageError("no file matches", source=location)
        return inside(found, _glob_root(location))
    return [location]


def _unstrip(fs: Any, original: str, path: str) -> str:
    """A listed path as a URL in the spelling of the one given (same scheme)."""
    return scheme(original) + "://" + path.lstrip("/") if scheme(original) != "file" else (
        "file://" + path
    )


def size_of(location: str) -> int | None:
    """The size in bytes, when cheap to know (local files); None otherwise."""
    if is_url(location):
        if scheme(location) == "file":
            location = url_path(location)
        else:
            return None
    try:
        return os.stat(location).st_size
    except OSError:
        return None


# --------------------------------------------------------------------------- #
# Reading and writing.
# --------------------------------------------------------------------------- #
def open_read(location: str) -> IO[bytes]:
    """A binary stream over a location (OSError when it cannot be opened)."""
    if is_url(location):
        fs, path = url_fs(location)
        if fs.isdir(path):
            raise IsADirectoryError(21, "Is a directory")
        return fs.open(path, "rb")  # type: ignore[no-any-return]
    # Non-blocking, so a FIFO in a tree of inputs cannot hang a worker.
    fd = os.open(location, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(errno.EISDIR, "Is a directory")
        if not stat.S_ISREG(mode):
            raise OSError(errno.EINVAL, "not a regular file")
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def temp_name(name: str) -> str:
    """The temporary name an output is written under before its rename.

    The same for every attempt, so a retry after a killed worker takes over
    (truncates) what the dead one left instead of leaving it behind.
    """
    return "." + name + ".part"


@contextlib.contextmanager
def atomic_output(location: str, mode: int | None = None) -> Iterator[IO[bytes]]:
    """A stream whose bytes land at ``location`` only when the block ends without error.

    The bytes go to a hidden temporary name in the target's directory (see
    :func:`temp_name`; created ``0600``, never through a symlink; parents are
    created as needed), which is renamed over the target at the end and
    removed on failure: the target is never half-written.  ``mode``: the
    permission bits to give it (an input's, so a 0600 log stays 0600; never
    more than 0666 less the umask); default 0666 less the umask.
    """
    if is_url(location) and scheme(location) != "file":
        fs, path = url_fs(location)
        parent, _, name = path.rpartition("/")
        tmp = f"{parent}/{temp_name(name)}" if parent else temp_name(name)
        if parent:
            fs.makedirs(parent, exist_ok=True)
        try:
            with fs.open(tmp, "wb") as fh:
                yield fh
            fs.mv(tmp, path)
        except BaseException:
            with contextlib.suppress(Exception):
                if fs.exists(tmp):
                    fs.rm(tmp)
            raise
        return
    path = url_path(location) if is_url(location) else location
    directory, name = os.path.split(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    tmp = os.path.join(directory, temp_name(name))
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(tmp, flags, 0o600)
    try:
        with os.fdopen(fd, "wb") as fh:
            yield fh
        os.chmod(tmp, (0o666 if mode is None else mode & 0o666) & ~_umask())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


_UMASK: int | None = None


def _umask() -> int:
    global _UMASK
    if _UMASK is None:
        _UMASK = os.umask(0o022)
        os.umask(_UMASK)
    return _UMASK


def write_whole(location: str, data: bytes) -> None:
    """Replace ``location`` with ``data`` atomically (local: fsync'd; URL: temp then move)."""
    if is_url(location) and scheme(location) != "file":
        with atomic_output(location) as fh:
            fh.write(data)
        return
    from council_filters.base import safefs

    path = url_path(location) if is_url(location) else location
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    safefs.replace(path, data)


def read_whole(location: str) -> bytes | None:
    """The bytes at ``location``, or None when nothing is there."""
    try:
        with open_read(location) as fh:
            return fh.read()
    except FileNotFoundError:
        return None


def local_path(location: str) -> str | None:
    """The local filesystem path of a location (None for other schemes)."""
    if not is_url(location):
        return location
    if scheme(location) == "file":
        return url_path(location)
    return None
