"""Running batch work on a ``dask.distributed`` cluster (the optional ``dask`` extra).

``--scheduler local`` starts a LocalCluster of worker processes here;
``--scheduler tcp://host:8786`` (or any address a Dask client takes, or the
path of a scheduler file as ``dask scheduler --scheduler-file`` writes) joins
a running cluster: one started by dask-kubernetes, dask-jobqueue, YARN or by
hand.  Workers must have council-filters installed (the same version).  No
argv, no stdio.
"""

from __future__ import annotations

import contextlib
import logging
import os
from collections.abc import Callable, Collection, Iterator
from typing import Any

from council_filters.base.errors import CouncilError, UsageError
from council_filters.base.storage import INSTALL_HINT

LOCAL = "local"
CONNECT_TIMEOUT = "20s"
_LOGGERS = ("distributed", "dask", "tornado", "bokeh")


def distributed_module() -> Any:
    """dask.distributed, or a usage error that says how to install it."""
    try:
        import distributed
    except ImportError:
        raise UsageError(f"--scheduler needs Dask: {INSTALL_HINT}") from None
    return distributed


class DaskBackend:
    """The batch runner's view of a Dask client (see ``batch.Backend``).

    When the client loses the scheduler (it happens when a worker dies while
    the client fetches a result from it), a new client is made and every
    task in flight counts as lost: the runner sends it again.
    """

    RECONNECTS = 3

    def __init__(self, new_client: Callable[[], Any], in_process: bool | None = None) -> None:
        self._distributed = distributed_module()
        self._new_client = new_client
        self.client = new_client()
        self.reconnects = 0
        if in_process is None:
            try:
                pids = set(self.client.run(os.getpid).values())
            except Exception:  # noqa: BLE001 - no workers yet: assume other processes
                pids = set()
            in_process = bool(pids) and pids == {os.getpid()}
        self.in_process = in_process

    @property
    def slots(self) -> int:
        try:
            return max(1, int(sum(self.client.nthreads().values())))
        except Exception:  # noqa: BLE001 - a scheduler without workers yet
            return 1

    def submit(self, fn: Callable[..., Any], *args: Any) -> Any:
        return self.client.submit(fn, *args, pure=False)

    def wait(self, handles: Collection[Any]) -> list[Any]:
        try:
            done = self._distributed.wait(list(handles), return_when="FIRST_COMPLETED").done
        except Exception as exc:  # noqa: BLE001 - the client lost the scheduler
            self._reconnect(exc)
            return list(handles)  # their results raise: the runner sends them again
        return list(done)

    def _reconnect(self, exc: Exception) -> None:
        self.reconnects += 1
        with contextlib.suppress(Exception):
            self.client.close()
        failure = type(exc).__name__
        if self.reconnects <= self.RECONNECTS:
            try:
                self.client = self._new_client()
                return
            except Exception as again:  # noqa: BLE001 - reported below
                failure = type(again).__name__
        raise CouncilError(
            f"lost the Dask scheduler ({failure}); what finished is in the manifest: rerun "
            "the same command to go on"
        ) from None

    def result(self, handle: Any) -> Any:
        return handle.result()

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.client.close()


@contextlib.contextmanager
def quiet_logs() -> Iterator[None]:
    """Dask's own logging (worker restarts, lost keys) stays off the user's terminal."""
    names = [n for n in logging.root.manager.loggerDict if n.split(".")[0] in _LOGGERS]
    saved = {n: logging.getLogger(n).level for n in set(names) | set(_LOGGERS)}
    for name in saved:
        logging.getLogger(name).setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        for name, level in saved.items():
            logging.getLogger(name).setLevel(level)


@contextlib.contextmanager
def connect(address: str, *, workers: int | None = None) -> Iterator[DaskBackend]:
    """A backend on the cluster at ``address`` (``local``: a LocalCluster of ``workers``)."""
    distributed = distributed_module()
    with quiet_logs(), contextlib.ExitStack() as stack:
        if address == LOCAL:
            n = workers or os.cpu_count() or 1
            try:
                cluster = stack.enter_context(distributed.LocalCluster(
                    n_workers=n, threads_per_worker=1, processes=True,
                    dashboard_address=":0", silence_logs=logging.CRITICAL,
                ))
                backend = DaskBackend(lambda: distributed.Client(cluster), in_process=False)
                stack.callback(backend.close)
                backend.client.wait_for_workers(n)
            except (OSError, TimeoutError) as exc:
                raise UsageError(f"cannot start a local Dask cluster: {type(exc).__name__}") \
                    from None
            yield backend
            return

        def new_client() -> Any:
            if os.path.isfile(address):
                return distributed.Client(scheduler_file=address, timeout=CONNECT_TIMEOUT)
            return distributed.Client(address, timeout=CONNECT_TIMEOUT)

        try:
            backend = DaskBackend(new_client)
        except (OSError, TimeoutError, ValueError) as exc:
            raise UsageError(f"cannot connect to the Dask scheduler: {type(exc).__name__}",
                             source=address) from None
        stack.callback(backend.close)
        yield backend
