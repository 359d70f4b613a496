"""Redaction over many files: one output per input, a manifest, retries, resume.

The unit of work is one file, redacted as its own stream by
:func:`council_filters.redaction.redact_stream` (fresh line numbers and PEM
state, read in chunks), written under a temporary name and renamed.  Files are
sent to workers in small groups (a Dask task per file costs more than
redacting a small file); a group's files are still independent.  The runner
only needs a :class:`Backend`: in this process, local processes, or a Dask
cluster (:mod:`council_filters.dask_backend`).

The manifest is JSON Lines, one record per input (the last one for an input
wins), appended as files finish when it is a local file and rewritten in input
order at the end.  A rerun with the same manifest skips a file whose recorded
output still has the recorded size and sha256 and was made by the same rules.
No argv, no stdio: progress goes to a stream the caller passes.
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import hashlib
import math
import multiprocessing
import os
import pickle
import posixpath
import time
from collections import deque
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import IO, Any, Protocol, TextIO

import orjson

from council_filters import storage
from council_filters.base.errors import UsageError
from council_filters.redaction import PATTERN_NAMES, redact_stream

KIND = "redacted-file"
MANIFEST_NAME = "manifest.jsonl"
OK, FAILED, VERIFIED = "ok", "failed", "verified"
#: A group of files sent as one task: at most this many files or bytes.
GROUP_FILES = 256
GROUP_BYTES = 16 << 20


# --------------------------------------------------------------------------- #
# Planning: which input goes where.
# --------------------------------------------------------------------------- #
@dataclass(frozen=True)
class FileTask:
    input: str
    output: str
    size: int | None = None
    #: (bytes_out, sha256) of an output a previous run recorded as done.
    expect: tuple[int, str] | None = None


def relative_output(location: str, base: str | None = None) -> str:
    """The path an input's output takes under the output directory.

    Without ``base`` it is the input's own path with the URL scheme, leading
    ``/`` and ``.`` parts dropped (``logs/a.txt``, ``/var/log/x`` ->
    ``var/log/x``, ``s3://bucket/k`` -> ``bucket/k``); with ``base`` it is the
    path relative to ``base``.  A path that climbs out (``..``) is refused.
    """
    path = storage.url_path(location) if storage.is_url(location) else location
    path = path.replace(os.sep, "/")
    if base is not None:
        root = storage.url_path(base) if storage.is_url(base) else base
        root = root.replace(os.sep, "/")
        if not storage.is_url(location) and not storage.is_url(base):
            path = os.path.relpath(os.path.abspath(path), os.path.abspath(root))
        else:
            path = posixpath.relpath("/" + path.lstrip("/"), "/" + root.lstrip("/"))
        path = path.replace(os.sep, "/")
    parts = [p for p in path.split("/") if p not in ("", ".")]
    if not parts or ".." in parts:
        where = "outside --base" if base is not None else "above the current directory"
        raise UsageError(f"input lies {where}; give --base to say where paths start",
                         source=location)
    return "/".join(parts)


def plan(
    inputs: Iterable[str],
    out_dir: str,
    *,
    base: str | None = None,
    manifest: str | None = None,
) -> list[FileTask]:
    """One task per distinct input file, in order (directories and globs expanded)."""
    out_local = storage.local_path(out_dir)
    out_abs = os.path.abspath(out_local) if out_local is not None else None

    def inside_out_dir(path: str) -> bool:
        if out_abs is None:
            return False
        p = os.path.abspath(path)
        return p == out_abs or p.startswith(out_abs + os.sep)

    manifest_abs = None
    if manifest is not None and storage.local_path(manifest) is not None:
        manifest_abs = os.path.abspath(storage.local_path(manifest) or "")
    tasks: list[FileTask] = []
    seen: set[str] = set()
    by_output: dict[str, str] = {}
    for given in inputs:
        for location in storage.expand(given, exclude=inside_out_dir):
            if location in seen:
                continue
            seen.add(location)
            output = storage.join(out_dir, relative_output(location, base))
            other = by_output.get(output)
            if other is not None:
                raise UsageError(f"two inputs would be written to the same output (the other is "
                                 f"{other})", source=location)
            by_output[output] = location
            local_in, local_out = storage.local_path(location), storage.local_path(output)
            if local_in is not None and local_out is not None:
                if os.path.abspath(local_in) == os.path.abspath(local_out):
                    raise UsageError("the output would overwrite its input; choose another "
                                     "--out-dir", source=location)
                if manifest_abs is not None and os.path.abspath(local_out) == manifest_abs:
                    raise UsageError("the output would overwrite the manifest", source=location)
            tasks.append(FileTask(location, output, storage.size_of(location)))
    return tasks


def rules_key(rules: object) -> str:
    """How the manifest names a rule set (a resumed run redoes files made by other rules)."""
    if rules is None:
        return "default"
    own = getattr(rules, "fingerprint", None)
    if isinstance(own, str) and own:
        return own
    return "sha256:" + hashlib.sha256(pickle.dumps(rules)).hexdigest()[:16]


# --------------------------------------------------------------------------- #
# The work on one file (runs wherever the backend runs it; never raises).
# --------------------------------------------------------------------------- #
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
        with src, storage.atomic_output(task.output) as dst:
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


# --------------------------------------------------------------------------- #
# Backends: where groups run.
# --------------------------------------------------------------------------- #
class Backend(Protocol):
    @property
    def slots(self) -> int:
        """How many groups can run at once."""
        ...

    @property
    def in_process(self) -> bool:
        """Whether tasks run in this process (memory:// URLs are per process)."""
        ...

    def submit(self, fn: Callable[..., Any], *args: Any) -> Any: ...

    def wait(self, handles: Collection[Any]) -> list[Any]:
        """Block until at least one handle is done; return the done ones."""
        ...

    def result(self, handle: Any) -> Any:
        """The result, or an exception when the worker running it was lost."""
        ...

    def close(self) -> None: ...


class SerialBackend:
    """Everything in this process, one group at a time."""

    slots = 1
    in_process = True

    def submit(self, fn: Callable[..., Any], *args: Any) -> Any:
        f: cf.Future[Any] = cf.Future()
        try:
            f.set_result(fn(*args))
        except Exception as exc:  # noqa: BLE001 - handed to the runner like a lost worker
            f.set_exception(exc)
        return f

    def wait(self, handles: Collection[Any]) -> list[Any]:
        return list(handles)

    def result(self, handle: Any) -> Any:
        return handle.result()

    def close(self) -> None:
        pass


class ProcessBackend:
    """``jobs`` local worker processes; a killed one is replaced and its work resent."""

    in_process = False

    def __init__(self, jobs: int) -> None:
        self.slots = jobs
        methods = multiprocessing.get_all_start_methods()
        self._context = multiprocessing.get_context(
            "forkserver" if "forkserver" in methods else "spawn"
        )
        self._pool = self._new_pool()

    def _new_pool(self) -> cf.ProcessPoolExecutor:
        return cf.ProcessPoolExecutor(max_workers=self.slots, mp_context=self._context)

    def submit(self, fn: Callable[..., Any], *args: Any) -> Any:
        try:
            return self._pool.submit(fn, *args)
        except cf.BrokenExecutor:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = self._new_pool()
            return self._pool.submit(fn, *args)

    def wait(self, handles: Collection[Any]) -> list[Any]:
        done, _ = cf.wait(handles, return_when=cf.FIRST_COMPLETED)
        return list(done)

    def result(self, handle: Any) -> Any:
        return handle.result()

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)


# --------------------------------------------------------------------------- #
# The manifest.
# --------------------------------------------------------------------------- #
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


# --------------------------------------------------------------------------- #
# Progress on a terminal.
# --------------------------------------------------------------------------- #
def human_bytes(n: float) -> str:
    for unit in ("B", "KB", "MB", "GB", "TB"):
        if n < 1000 or unit == "TB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1000
    return f"{n:.1f} TB"  # pragma: no cover


def human_seconds(s: float) -> str:
    s = int(round(s))
    if s < 60:
        return f"{s}s"
    if s < 3600:
        return f"{s // 60}m{s % 60:02d}s"
    return f"{s // 3600}h{s % 3600 // 60:02d}m"


class Progress:
    """One status line, redrawn in place at most every ``interval`` seconds."""

    def __init__(
        self, stream: TextIO, files: int, total_bytes: int, *,
        clock: Callable[[], float] = time.monotonic, interval: float = 0.25,
    ) -> None:
        self.stream = stream
        self.files = files
        self.total_bytes = total_bytes
        self.clock = clock
        self.interval = interval
        self.start = clock()
        self.last = -math.inf
        self.width = 0

    def line(self, files_done: int, bytes_done: int, bytes_skipped: int) -> str:
        elapsed = max(self.clock() - self.start, 1e-9)
        worked = bytes_done - bytes_skipped
        rate = worked / elapsed
        text = (f"{files_done}/{self.files} files  {human_bytes(bytes_done)}/"
                f"{human_bytes(self.total_bytes)}  {human_bytes(rate)}/s")
        left = self.total_bytes - bytes_done
        if files_done >= self.files:
            text += f"  done in {human_seconds(elapsed)}"
        elif rate > 0 and worked > 0:
            text += f"  ETA {human_seconds(left / rate)}"
        return text

    def update(self, files_done: int, bytes_done: int, bytes_skipped: int,
               *, final: bool = False) -> None:
        now = self.clock()
        if not final and now - self.last < self.interval:
            return
        self.last = now
        text = self.line(files_done, bytes_done, bytes_skipped)
        pad = max(self.width - len(text), 0)
        self.width = len(text)
        self.stream.write("\r" + text + " " * pad + ("\n" if final else ""))
        self.stream.flush()


# --------------------------------------------------------------------------- #
# The runner.
# --------------------------------------------------------------------------- #
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


def check_memory_urls(locations: Iterable[str], backend: Backend) -> None:
    """memory:// lives in one process: refuse it where tasks run in other processes."""
    if backend.in_process:
        return
    for loc in locations:
        if storage.scheme(loc) == "memory":
            raise UsageError("memory:// URLs live in one process; use them with --jobs 1 or "
                             "a scheduler whose workers are threads of this process",
                             source=loc)


@contextlib.contextmanager
def open_backend(jobs: int, scheduler: str | None) -> Iterator[Backend]:
    """In this process (``jobs`` 1), ``jobs`` local processes, or a Dask cluster."""
    if scheduler is not None:
        from council_filters import dask_backend

        with dask_backend.connect(scheduler, workers=jobs) as backend:
            yield backend
        return
    if jobs <= 1:
        yield SerialBackend()
        return
    pool = ProcessBackend(jobs)
    try:
        yield pool
    finally:
        pool.close()
