"""Backends: where groups of files run (this process, local processes, Dask)."""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import multiprocessing
from collections.abc import Callable, Collection, Iterable, Iterator
from typing import Any, Protocol

from council_filters.base import storage
from council_filters.base.errors import UsageError


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
        from council_filters.base import dask_backend

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
