"""Running every reviewer of a council run in parallel, and stopping them all at once."""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from council_filters.base.vocab import display_name
from council_filters.dispatch import budget as money
from council_filters.dispatch import config, process, usage
from council_filters.dispatch import outcome as cls
from council_filters.dispatch.cache import Cache
from council_filters.dispatch.cache import key as cache_key

#: How long past the kill grace a stopped run may take to let its threads finish.
STOP_SLACK = 0.6


@dataclass(frozen=True)
class Task:
    reviewer: str
    pack: str
    token: str | None
    command: config.Command | None
    family: str | None = None

    @property
    def pack_tokens(self) -> int:
        return usage.estimate_tokens(self.pack)

    def cache_key(self) -> str | None:
        return cache_key(self.command, self.pack, self.token) if self.command else None


@dataclass(frozen=True)
class Reuse:
    """What may answer a reviewer without starting it: the cache, and the budget."""

    cache: Cache | None = None
    replay: bool = False  # answer from the cache only; start no CLI
    budget: money.Budget = money.Budget()


def prepare(tasks: Sequence[Task], reuse: Reuse, cwd: str | None) -> list[cls.Result | None]:
    """Per task, in order: the result decided without starting its CLI (a cached answer,
    a ``--replay`` miss, a budget skip), or None (run it).

    A reviewer with no command, or whose command is not there, is left to
    :func:`run_reviewer` (which starts nothing) and costs no budget.
    """
    out: list[cls.Result | None] = []
    ledger = money.Ledger(reuse.budget)
    for task in tasks:
        name = display_name(task.reviewer)
        cmd = task.command
        kept = None
        if reuse.cache is not None and cmd is not None:
            entry_key = task.cache_key()
            kept = reuse.cache.get(entry_key) if entry_key else None
        if kept is not None:
            res = cls.Result(**{k: v for k, v in kept.items() if k != "usage"})
            res.usage = kept.get("usage") if isinstance(kept.get("usage"), dict) else None
            res.cached = True
            out.append(res)
        elif cmd is None or config.command_missing(cmd.shell, cwd):
            out.append(None)
        elif reuse.replay:
            out.append(cls.Result(
                status=cls.UNAVAILABLE, error_kind="not-cached",
                summary=f"{name}: no cached answer for this pack and command; --replay starts"
                " no CLI.",
            ))
        else:
            why = ledger.admit(task.reviewer, task.family, task.pack_tokens)
            out.append(None if why is None else cls.Result(
                status=cls.UNAVAILABLE, error_kind="budget", summary=why + "."
            ))
    return out


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
    res = cls.classify(reviewer, command, run, token, limits)
    res.usage = usage.read(run.stdout, run.stderr)
    return res


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
            # a signal can land inside ``start`` between a thread's creation and its
            # start: that thread never ran, and joining it would raise
            if thread.ident is not None:
                thread.join(max(0.0, deadline - time.monotonic()))
        self.registry.signal_all(signal.SIGKILL)
        self.registry.remove_dirs()
