"""The manifest: loaded for resume, appended as files finish, rewritten at the end."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Sequence
from typing import IO, Any

import orjson

from council_filters.base import storage
from council_filters.base.errors import UsageError
from council_filters.redaction.batch.planning import OK, FileTask
from council_filters.redaction.batch.work import _reason


class Manifest:
    """The record of a batch: loaded for resume, appended as files finish, rewritten at the end."""

    def __init__(self, location: str) -> None:
        self.location = location
        self.local = storage.local_path(location)
        self.entries: dict[str, dict[str, Any]] = {}
        self.unreadable_lines = 0
        self.changed = False
        self._log: IO[bytes] | None = None

    def load(self) -> None:
        try:
            data = storage.read_whole(self.location)
        except OSError as exc:
            raise UsageError(f"cannot read the manifest: {_reason(exc)}",
                             source=self.location) from None
        for raw in (data or b"").splitlines():
            if not raw.strip():
                continue
            try:
                entry = orjson.loads(raw)
            except orjson.JSONDecodeError:
                self.unreadable_lines += 1
                continue
            if isinstance(entry, dict) and isinstance(entry.get("input"), str):
                self.entries.pop(entry["input"], None)
                self.entries[entry["input"]] = entry
            else:
                self.unreadable_lines += 1

    def open_log(self) -> None:
        """Start appending (local manifests only), holding a lock against a second run."""
        if self.local is None:
            return
        directory = os.path.dirname(os.path.abspath(self.local))
        try:
            os.makedirs(directory, exist_ok=True)
            fh = open(self.local, "ab")  # noqa: SIM115 - closed in close()
        except OSError as exc:
            raise UsageError(f"cannot write the manifest: {_reason(exc)}",
                             source=self.location) from None
        try:
            import fcntl

            fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except ImportError:  # pragma: no cover - not POSIX
            pass
        except OSError:
            fh.close()
            raise UsageError("another run is using this manifest", source=self.location) from None
        if fh.tell() > 0:
            with open(self.local, "rb") as check:
                check.seek(-1, os.SEEK_END)
                if check.read(1) != b"\n":
                    fh.write(b"\n")  # a line torn by a crash stays on its own
        self._log = fh

    def previous(self, task: FileTask, key: str) -> FileTask:
        """``task`` with what a previous run recorded as done for it (for resume)."""
        prev = self.entries.get(task.input)
        if (
            prev is None
            or prev.get("status") != OK
            or prev.get("output") != task.output
            or prev.get("rules") != key
            or not isinstance(prev.get("bytes_out"), int)
            or not isinstance(prev.get("sha256"), str)
            or (task.size is not None and prev.get("bytes_in") != task.size)
        ):
            return task
        return FileTask(task.input, task.output, task.size, (prev["bytes_out"], prev["sha256"]))

    def record(self, entry: dict[str, Any]) -> None:
        if self.entries.get(entry["input"]) == entry:
            return  # the same record again (a file that failed the same way): nothing new
        self.entries.pop(entry["input"], None)
        self.entries[entry["input"]] = entry
        self.changed = True
        if self._log is not None:
            self._log.write(orjson.dumps(entry) + b"\n")
            self._log.flush()

    def finish(self, order: Sequence[str]) -> None:
        """Rewrite the manifest if anything changed: this run's inputs in order, then the rest."""
        try:
            if self.changed:
                wanted = set(order)
                lines = [self.entries[i] for i in order if i in self.entries]
                lines += [e for i, e in self.entries.items() if i not in wanted]
                data = b"".join(orjson.dumps(e) + b"\n" for e in lines)
                try:
                    storage.write_whole(self.location, data)
                except OSError as exc:
                    raise UsageError(f"cannot write the manifest: {_reason(exc)}",
                                     source=self.location) from None
        finally:
            self.close()

    def close(self) -> None:
        if self._log is not None:
            with contextlib.suppress(OSError):
                self._log.close()
            self._log = None
