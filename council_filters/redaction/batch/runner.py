"""The runner: groups of files on a backend, retries, the summary."""

from __future__ import annotations

import contextlib
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

from council_filters.redaction.batch.backends import Backend
from council_filters.redaction.batch.manifest import Manifest
from council_filters.redaction.batch.planning import (
    FAILED,
    GROUP_BYTES,
    GROUP_FILES,
    OK,
    VERIFIED,
    FileTask,
    rules_key,
)
from council_filters.redaction.batch.progress import Progress
from council_filters.redaction.batch.work import _entry, redact_group


@dataclass
class Summary:
    files: int = 0
    written: int = 0
    verified: int = 0
    failed: list[dict[str, Any]] = field(default_factory=list)
    bytes_in: int = 0
    bytes_out: int = 0
    lost_tasks: int = 0
    seconds: float = 0.0


def groups(tasks: Sequence[FileTask], slots: int) -> list[list[FileTask]]:
    """Consecutive tasks in groups small enough to keep every slot busy to the end."""
    if not tasks:
        return []
    per = max(1, min(GROUP_FILES, len(tasks) // (slots * 8) or 1))
    out: list[list[FileTask]] = []
    current: list[FileTask] = []
    size = 0
    for t in tasks:
        current.append(t)
        size += t.size or 0
        if len(current) >= per or size >= GROUP_BYTES:
            out.append(current)
            current, size = [], 0
    if current:
        out.append(current)
    return out


def run(
    tasks: Sequence[FileTask],
    backend: Backend,
    manifest: Manifest,
    *,
    rules: object = None,
    retries: int = 2,
    progress: TextIO | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> Summary:
    """Redact every task's file on ``backend``; record each in ``manifest``."""
    start = clock()
    key = rules_key(rules)
    tasks = [manifest.previous(t, key) for t in tasks]
    summary = Summary(files=len(tasks))
    total = sum(t.size or 0 for t in tasks)
    bar = Progress(progress, len(tasks), total, clock=clock) if progress is not None else None
    attempts: dict[str, int] = {}
    pending: deque[list[FileTask]] = deque(groups(tasks, backend.slots))
    inflight: dict[Any, list[FileTask]] = {}
    window = max(2, backend.slots * 2)
    done_files = done_bytes = skipped_bytes = 0

    def settle(task: FileTask, entry: dict[str, Any]) -> None:
        nonlocal done_files, done_bytes, skipped_bytes
        n = attempts[task.input] = attempts.get(task.input, 0) + 1
        if entry["status"] == FAILED and n <= retries:
            pending.append([FileTask(task.input, task.output, task.size)])
            return
        done_files += 1
        size = task.size if task.size is not None else entry.get("bytes_in") or 0
        done_bytes += size
        if entry["status"] == VERIFIED:
            summary.verified += 1
            skipped_bytes += size
            return
        entry["attempts"] = n
        manifest.record(entry)
        if entry["status"] == OK:
            summary.written += 1
            summary.bytes_in += entry["bytes_in"]
            summary.bytes_out += entry["bytes_out"]
        else:
            summary.failed.append(entry)

    try:
        while pending or inflight:
            while pending and len(inflight) < window:
                group = pending.popleft()
                inflight[backend.submit(redact_group, group, rules, key)] = group
            for handle in backend.wait(list(inflight)):
                group = inflight.pop(handle)
                try:
                    entries = backend.result(handle)
                except Exception as exc:  # noqa: BLE001 - a lost worker: the group is redone
                    summary.lost_tasks += 1
                    why = f"worker lost: {type(exc).__name__}"
                    entries = [_entry(t, FAILED, rules=key, error=why) for t in group]
                for task, entry in zip(group, entries, strict=True):
                    settle(task, entry)
            if bar is not None:
                bar.update(done_files, done_bytes, skipped_bytes)
    finally:
        for handle in inflight:
            with contextlib.suppress(Exception):
                handle.cancel()
    if bar is not None:
        bar.update(done_files, done_bytes, skipped_bytes, final=True)
    summary.seconds = clock() - start
    return summary
