"""The redaction's private disk cache: compiled scan databases, loaded rule files.

One directory (``COUNCIL_CACHE_DIR``, else ``$XDG_CACHE_HOME/council-filters``;
an empty ``COUNCIL_CACHE_DIR`` turns the cache off), mode 0700, owned by the
user; each entry a 0600 file written atomically (a private temp file renamed
over the name).  An entry is used only when it is a regular file of ours that
nobody else may write; any failure to read or write one is ignored: the cache
only saves work, the caller then does that work.
"""

from __future__ import annotations

import os
import stat

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


def cache_dir() -> str | None:
    """Where entries are kept (``COUNCIL_CACHE_DIR`` or the XDG cache); None: off."""
    env = os.environ.get("COUNCIL_CACHE_DIR")
    if env is not None:
        return env or None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "council-filters")


def digest(data: bytes) -> str:
    """The sha256 of ``data``, in hex (without loading OpenSSL when CPython has its own)."""
    try:
        from _sha256 import sha256
    except ImportError:  # pragma: no cover - another interpreter or version
        from hashlib import sha256
    return sha256(data).hexdigest()  # type: ignore[no-any-return]


def entry_path(name: str) -> str | None:
    """The path of entry ``name`` (None when the cache is off)."""
    directory = cache_dir()
    return os.path.join(directory, name) if directory else None


def read(path: str, limit: int = 1 << 24) -> bytes | None:
    """An entry's bytes, or None (missing, not ours, open to others, or too big)."""
    try:
        fd = os.open(path, os.O_RDONLY | _NOFOLLOW)
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if (st.st_uid != os.getuid() or st.st_mode & 0o077 or st.st_size > limit
                or not stat.S_ISREG(st.st_mode)):
            return None
        # One read of the whole entry (entries are replaced, never written in
        # place: a read of its size is all of it); more only if it was short.
        data = os.read(fd, st.st_size + 1)
        if len(data) == st.st_size:
            return data
        parts = [data]
        while chunk := os.read(fd, 1 << 20):
            parts.append(chunk)
        return b"".join(parts)
    except OSError:
        return None
    finally:
        os.close(fd)


def write(path: str, data: bytes) -> None:
    """Write an entry atomically, 0600 in a 0700 directory; failures are ignored."""
    import tempfile

    directory = os.path.dirname(path)
    try:
        os.makedirs(directory, mode=0o700, exist_ok=True)
        st = os.stat(directory)
        if st.st_uid != os.getuid() or st.st_mode & 0o077:
            return
        fd, tmp = tempfile.mkstemp(dir=directory, prefix=".entry-", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
            os.replace(tmp, path)
        except BaseException:
            os.unlink(tmp)
            raise
    except Exception:  # noqa: BLE001 - the cache is an optimisation only
        return
