"""Storage for ``review-state.json``: load and validate, lock, write atomically.

Reading never locks: a writer replaces the file with ``rename``, so a reader
sees the old file or the new one, whole.

Writing (:func:`transact`) holds an exclusive ``fcntl.flock`` on a sidecar
file ``<file>.lock`` for the whole read-modify-write.  The lock cannot live
on the state file itself: each write renames a new inode into place, so a
second writer would lock the old inode and both would win.  The sidecar is
created once (mode 0600) and never deleted (deleting it would let two
writers lock two different inodes).  The kernel drops the lock when its
holder dies, even by SIGKILL, so a crash never leaves a stale lock.

A write goes to a temporary file in the same directory (``mkstemp``: mode
0600), is flushed and fsynced, renamed over the state file, and then the
directory is fsynced so the rename itself survives a power cut.  A killed
writer leaves at worst a stray ``.<file>.XXXXXXXX.tmp``, which the next
writer removes while it holds the lock.

A file that is empty, truncated, not JSON, not a council-state file, from a
newer version, or failing the schema or the state invariants is refused
with a message saying which, and is never overwritten (``init --force``
included).
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import functools
import os
import random
import time
from collections.abc import Callable, Iterator
from typing import Any

import orjson

from council_filters.base import safefs, schemas
from council_filters.base.errors import DataError, UsageError
from council_filters.base.jsonl import shape_problem
from council_filters.state import machine as review_state

State = dict[str, Any]

SCHEMA_NAME = "review-state"
DEFAULT_NAME = "review-state.json"
LOCK_SUFFIX = ".lock"
DEFAULT_LOCK_TIMEOUT = 60.0


@functools.lru_cache(maxsize=1)
def _validator() -> Any:
    import jsonschema

    cls = jsonschema.validators.validator_for(schemas.load(SCHEMA_NAME))
    return cls(schemas.inlined(SCHEMA_NAME))


# --------------------------------------------------------------------------- #
# Encoding and validation.
# --------------------------------------------------------------------------- #
def serialize(state: State) -> bytes:
    """The file's bytes: indented JSON, key order kept, one trailing newline."""
    return orjson.dumps(state, option=orjson.OPT_INDENT_2) + b"\n"


def _where(path: Any) -> str:
    return "/".join(str(p) for p in path) or "(top level)"


def validate(state: Any, source: str) -> State:
    """Check a decoded value is a state this version can use; return it or raise."""
    if not isinstance(state, dict) or state.get("format") != review_state.FORMAT:
        raise DataError(
            "not a council-state file (no \"format\": \"council-review-state\"); refusing to"
            " touch it",
            source=source,
        )
    version = state.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise DataError("invalid state file: version is not a positive integer",
                            source=source)
    if version > review_state.VERSION:
        raise DataError(
            f"state file version {version} is newer than this council-state understands"
            f" ({review_state.VERSION}); upgrade council-filters",
            source=source,
        )
    validator = _validator()
    if not validator.is_valid(state):
        error = min(validator.iter_errors(state), key=lambda e: [str(p) for p in e.path])
        # Name the place and the rule, never the value (it may hold context text).
        raise DataError(
            f"invalid state file: {_where(error.absolute_path)}: fails schema rule"
            f" '{error.validator}'",
            source=source,
        )
    broken = review_state.check_consistency(state)
    if broken is not None:
        raise DataError(f"invalid state file: {broken}", source=source)
    return state


def parse(data: bytes, source: str) -> State:
    """Decode and validate a state file's bytes."""
    if not data.strip():
        raise DataError("state file is empty (truncated?); refusing to use it", source=source)
    try:
        value = orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        raise DataError(
            f"state file is corrupt or truncated (invalid JSON at line {exc.lineno},"
            f" column {exc.colno}); refusing to use it",
            source=source,
        ) from None
    problem = shape_problem(value, data) if isinstance(value, dict) else None
    if problem:
        raise DataError(f"invalid state file: {problem}", source=source)
    return validate(value, source)


def read_bytes(path: str, source: str | None = None) -> bytes:
    """The file's bytes; a missing or unreadable file is a usage error (exit 2)."""
    shown = source or path
    try:
        with open(path, "rb") as fh:
            return fh.read()
    except FileNotFoundError:
        raise UsageError(
            "no state file here (create one with: council-state init)", source=shown
        ) from None
    except OSError as exc:
        raise UsageError(f"cannot read: {exc.strerror or type(exc).__name__}",
                             source=shown) from None


def load(path: str) -> State:
    """Read and validate the state file, without locking."""
    return parse(read_bytes(path), path)


# --------------------------------------------------------------------------- #
# Locking and atomic replacement.
# --------------------------------------------------------------------------- #
def lock_path(path: str) -> str:
    return path + LOCK_SUFFIX


@contextlib.contextmanager
def exclusive_lock(path: str, timeout: float = DEFAULT_LOCK_TIMEOUT) -> Iterator[None]:
    """Hold ``flock(LOCK_EX)`` on ``<path>.lock`` (created 0600) for the block."""
    lpath = lock_path(path)
    try:
        fd = os.open(lpath, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o600)
    except OSError as exc:
        raise UsageError(f"cannot open lock file: {exc.strerror or type(exc).__name__}",
                             source=lpath) from None
    try:
        deadline = time.monotonic() + timeout
        pause = 0.001
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except OSError as exc:
                if exc.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                    raise
            if time.monotonic() >= deadline:
                raise DataError(f"timed out after {timeout:g}s waiting for the lock",
                                    source=lpath)
            time.sleep(pause * (0.5 + random.random()))  # noqa: S311 - jitter, not crypto
            pause = min(pause * 2, 0.02)
        yield
    finally:
        os.close(fd)  # closing drops the lock


def remove_stale_temps(path: str) -> int:
    """Remove temp files a killed writer left; call only while holding the lock."""
    directory = os.path.dirname(path) or "."
    pattern = safefs.temp_name_pattern(path)
    removed = 0
    with contextlib.suppress(OSError):
        for entry in os.listdir(directory):
            if pattern.match(entry):
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(os.path.join(directory, entry))
                    removed += 1
    return removed


def write_atomic(path: str, data: bytes) -> None:
    """Replace ``path`` with ``data``, durably, the file private (0600)."""
    safefs.replace(path, data, mode=0o600)


def resolve(path: str) -> str:
    """The real path of the state file (a symlink is followed, so the link survives)."""
    return os.path.realpath(path)


Mutation = Callable[[State], "review_state.Result"]
Creation = Callable[[State | None], "review_state.Result"]


def transact(path: str, mutate: Mutation, *, timeout: float = DEFAULT_LOCK_TIMEOUT
             ) -> review_state.Result:
    """Locked read-modify-write of an existing state file.

    ``mutate`` gets the current (validated) state and returns a Result; the
    file is rewritten only when the result changed something.  Any exception
    leaves the file exactly as it was.
    """
    return _locked(path, lambda current: mutate(_require(current)), timeout, must_exist=True)


def create(path: str, build: Creation, *, timeout: float = DEFAULT_LOCK_TIMEOUT
           ) -> review_state.Result:
    """Like :func:`transact`, but ``build`` gets None when there is no file yet."""
    return _locked(path, build, timeout, must_exist=False)


def _require(state: State | None) -> State:
    assert state is not None  # _locked reads the file when it must exist
    return state


def _locked(path: str, fn: Creation, timeout: float, *, must_exist: bool
            ) -> review_state.Result:
    real = resolve(path)
    directory = os.path.dirname(real) or "."
    if not os.path.isdir(directory):
        raise UsageError("directory does not exist", source=path)
    with exclusive_lock(real, timeout):
        remove_stale_temps(real)
        current: State | None = None
        if must_exist or os.path.lexists(real):
            current = parse(read_bytes(real, path), path)
        result = fn(current)
        if result.changed:
            write_atomic(real, serialize(result.state))
        return result
