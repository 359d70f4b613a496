"""The work on one file (runs wherever the backend runs it; never raises)."""

from __future__ import annotations

import hashlib
import io
import os
import stat
from collections.abc import Sequence
from typing import IO, Any

from council_filters.base import storage
from council_filters.base.errors import UsageError
from council_filters.redaction.batch.planning import FAILED, KIND, OK, VERIFIED, FileTask
from council_filters.redaction.machine import redact_stream
from council_filters.redaction.patterns import PATTERN_NAMES


class _ReadError(Exception):
    def __init__(self, exc: OSError) -> None:
        super().__init__(exc)
        self.exc = exc


class _Reading:
    """An input stream whose OSErrors are told apart from the output's."""

    def __init__(self, fh: IO[bytes]) -> None:
        self.fh = fh

    def read(self, n: int = -1) -> bytes:
        try:
            return self.fh.read(n)
        except OSError as exc:
            raise _ReadError(exc) from None


class _Hashing:
    """An output stream that hashes what it writes."""

    def __init__(self, fh: IO[bytes]) -> None:
        self.fh = fh
        self.sha = hashlib.sha256()

    def write(self, data: bytes) -> int:
        self.sha.update(data)
        return self.fh.write(data)


def _reason(exc: OSError) -> str:
    return exc.strerror or type(exc).__name__


def _entry(task: FileTask, status: str, **fields: Any) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "kind": KIND, "input": task.input, "output": task.output, "status": status,
        "bytes_in": None, "bytes_out": None, "redacted": None, "sha256": None,
        "rules": None, "attempts": None, "error": None,
    }
    entry.update(fields)
    return entry


def output_intact(location: str, size: int, sha256: str) -> bool:
    """Whether ``location`` holds exactly ``size`` bytes hashing to ``sha256``."""
    local = storage.local_path(location)
    try:
        if local is not None and os.stat(local).st_size != size:
            return False
        sha = hashlib.sha256()
        n = 0
        with storage.open_read(location) as fh:
            for chunk in iter(lambda: fh.read(1 << 20), b""):
                sha.update(chunk)
                n += len(chunk)
        return n == size and sha.hexdigest() == sha256
    except OSError:
        return False


def redact_file(task: FileTask, rules: object, key: str) -> dict[str, Any]:
    """Redact one input into its output; the manifest record of what happened."""
    if task.expect is not None and output_intact(task.output, *task.expect):
        return _entry(task, VERIFIED, rules=key)
    try:
        try:
            src = storage.open_read(task.input)
        except OSError as exc:
            raise _ReadError(exc) from None
        try:  # the output keeps the input's permission bits (a URL input: 0600)
            mode = stat.S_IMODE(os.fstat(src.fileno()).st_mode)
        except (OSError, AttributeError, ValueError, io.UnsupportedOperation):
            mode = 0o600
        with src, storage.atomic_output(task.output, mode) as dst:
            out = _Hashing(dst)
            stats = redact_stream(
                _Reading(src), out, rules=rules,  # type: ignore[arg-type]
                path=storage.url_path(task.input),
            )
    except _ReadError as err:
        return _entry(task, FAILED, rules=key, error=f"cannot read: {_reason(err.exc)}")
    except OSError as exc:
        return _entry(task, FAILED, rules=key, error=f"cannot write: {_reason(exc)}")
    except UsageError as exc:  # a URL scheme that cannot be used here
        return _entry(task, FAILED, rules=key, error=exc.message)
    except Exception as exc:  # noqa: BLE001 - reported per file, the run goes on
        return _entry(task, FAILED, rules=key, error=f"internal error: {type(exc).__name__}")
    return _entry(
        task, OK, bytes_in=stats.bytes_in, bytes_out=stats.bytes_out,
        redacted=per_rule(stats.counts), sha256=out.sha.hexdigest(), rules=key,
    )


def per_rule(counts: dict[str, int]) -> dict[str, int]:
    """Redacted lines per rule id, in table order (the eleven patterns first, then by id)."""
    order = {name: i for i, name in enumerate(PATTERN_NAMES)}
    ids = sorted((k for k, v in counts.items() if v), key=lambda k: (order.get(k, len(order)), k))
    return {k: counts[k] for k in ids}


def redact_group(tasks: Sequence[FileTask], rules: object, key: str) -> list[dict[str, Any]]:
    """:func:`redact_file` over a group of files (one task of a backend)."""
    return [redact_file(t, rules, key) for t in tasks]
