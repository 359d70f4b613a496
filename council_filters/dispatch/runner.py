"""Running every reviewer of a council run in parallel, and stopping them all at once."""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from council_filters.base.vocab import display_name
from council_filters.dispatch import config, process
from council_filters.dispatch import outcome as cls

#: How long past the kill grace a stopped run may take to let its threads finish.
STOP_SLACK = 0.6


@dataclass(frozen=True)
class Task:
    reviewer: str
    pack: str
    token: str | None
    command: config.Command | None


def run_reviewer(
    reviewer: str,
    pack: str,
    token: str | None,
    command: config.Command | None,
    limits: process.Limits,
    env: Mapping[str, str],
    *,
    cancel: process.Cancel | None = None,
    registry: process.Registry | None = None,
) -> cls.Result:
    """Run one reviewer's command on its pack and classify the outcome."""
    name = display_name(reviewer)
    if command is None:
        return cls.Result(
            status=cls.UNAVAILABLE,
            error_kind="not-configured",
            summary=f"No command configured for {name} (--command {reviewer}=CMD, "
            f"COUNCIL_CMD_{config.env_key(reviewer)} or the config file).",
        )
    if config.command_missing(command.shell, limits.cwd):
        word = config.first_word(command.shell)
        return cls.Result(
            status=cls.UNAVAILABLE,
            exit_code=127,
            error_kind="not-found",
            stderr=f"{word}: command not found or not executable\n",
            summary=f"{name} command not found or not executable ({word}); CLI not invoked.",
        )
    data = pack.encode("utf-8", "replace")
    pack_file = process.private_pack(reviewer, data, registry) if command.uses_file else None
    child_env = dict(env)
    child_env["COUNCIL_REVIEWER"] = reviewer
    try:
        shell = config.substitute(command.shell, pack_file) if pack_file else command.shell
        run = process.execute(
            shell, None if pack_file else data, limits, child_env,
            cancel=cancel, registry=registry,
        )
    finally:
        if pack_file:
            process.remove_pack(pack_file, registry)
    return cls.classify(reviewer, command, run, token, limits)


class _Slot:
    def __init__(self, task: Task) -> None:
        self.task = task
        self.done = threading.Event()
        self.result: cls.Result | None = None
        self.error: BaseException | None = None


class Runner:
    """Runs tasks in daemon threads, at most ``jobs`` at once; :meth:`stop` ends them all.

    Daemon threads (not an executor, whose workers the interpreter waits for
    at exit) so that an interrupted run can leave the moment its reviewers
    are stopped.
    """

    def __init__(self, limits: process.Limits, env: Mapping[str, str], jobs: int) -> None:
        self.limits = limits
        self.env = env
        self.cancel = process.Cancel()
        self.registry = process.Registry()
        self._gate = threading.Semaphore(max(1, jobs))
        self._threads: list[threading.Thread] = []

    def start(self, tasks: Sequence[Task]) -> list[_Slot]:
        slots = [_Slot(t) for t in tasks]
        for slot in slots:
            thread = threading.Thread(target=self._work, args=(slot,), daemon=True)
            self._threads.append(thread)
            thread.start()
        return slots

    def _work(self, slot: _Slot) -> None:
        try:
            with self._gate:
                if self.cancel.is_set():
                    return
                t = slot.task
                slot.result = run_reviewer(
                    t.reviewer, t.pack, t.token, t.command, self.limits, self.env,
                    cancel=self.cancel, registry=self.registry,
                )
        except BaseException as exc:  # noqa: BLE001 - handed to the waiting thread
            slot.error = exc
        finally:
            slot.done.set()

    def wait(self, slot: _Slot) -> cls.Result:
        """The slot's result, once its reviewer is done (short waits: signals stay prompt)."""
        while not slot.done.wait(0.1):
            pass
        if slot.error is not None:
            raise slot.error
        assert slot.result is not None
        return slot.result

    def results(self, slots: Sequence[_Slot]) -> Iterator[cls.Result]:
        for slot in slots:
            yield self.wait(slot)

    def stop(self, signum: int) -> None:
        """Stop every reviewer now: TERM to every group, KILL after the grace, packs removed.

        Returns within ``kill_grace + STOP_SLACK`` seconds whatever the
        reviewers do.
        """
        self.cancel.set(signum)
        self.registry.signal_all(signal.SIGTERM)
        deadline = time.monotonic() + self.limits.kill_grace + STOP_SLACK
        for thread in self._threads:
            thread.join(max(0.0, deadline - time.monotonic()))
        self.registry.signal_all(signal.SIGKILL)
        self.registry.remove_dirs()
