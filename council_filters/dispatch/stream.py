"""council-dispatch's work over one run's records: the limits, the tasks, the run.

:func:`limits` reads the time and output limits (options over the environment),
:func:`task` turns one pack record into a :class:`~council_filters.dispatch.runner.Task`
(or the error that names it), :func:`run` starts the tasks in parallel and writes every
record back in input order; :func:`trap_signals` turns SIGINT, SIGTERM and SIGHUP into
:class:`Interrupted`, so every reviewer is stopped and the pack copies removed.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, BinaryIO

from council_filters import dispatch as core
from council_filters.base.errors import CouncilError, DataError, UsageError
from council_filters.base.jsonl import Record, RecordWriter
from council_filters.base.settings import COUNCIL_TIMEOUT, parse_seconds


def pairs(values: Sequence[str] | None, what: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in values or ():
        name, eq, value = item.partition("=")
        if not eq or not name or not value:
            raise UsageError(f"{what} must look like NAME=VALUE")
        out[name] = value
    return out


def parsed(path: str, what: str, parse: Callable[[str, str], dict[str, Any]]) -> dict[str, Any]:
    """A user's file read as UTF-8 and parsed; a usage error naming the file if not."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = getattr(exc, "strerror", None) or type(exc).__name__
        raise UsageError(f"cannot read {what}: {reason}", source=path) from None
    try:
        return parse(text, path)
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def timeout_seconds(option: str | None, upstream: bool, warn: Callable[[str], None]) -> int:
    """--timeout, else $COUNCIL_TIMEOUT: a whole number of seconds, 1-86400."""
    if option is not None:
        return strict_seconds(option, "--timeout")
    raw = os.environ.get(COUNCIL_TIMEOUT.name)
    if upstream:
        return COUNCIL_TIMEOUT.resolve(raw, warn)
    if raw is None or raw == "":
        return COUNCIL_TIMEOUT.default
    return strict_seconds(raw, COUNCIL_TIMEOUT.name)


def strict_seconds(raw: str, what: str) -> int:
    problems: list[str] = []
    seconds = COUNCIL_TIMEOUT.resolve(raw, problems.append)
    if problems or raw == "":  # the value is not shown: it may be anything
        raise UsageError(f"{what} must be a whole number of seconds from 1 to 86400")
    return seconds


def limits(
    timeout: str | None,
    kill_after: str | None,
    output_cap: int,
    cwd: str | None,
    upstream: bool,
    warn: Callable[[str], None],
) -> core.Limits:
    """--timeout and --kill-after over $COUNCIL_TIMEOUT and $COUNCIL_KILL_GRACE."""
    seconds = timeout_seconds(timeout, upstream, warn)
    grace_raw = kill_after if kill_after is not None else os.environ.get("COUNCIL_KILL_GRACE", "")
    try:
        grace = parse_seconds(grace_raw, "COUNCIL_KILL_GRACE") if grace_raw else 10.0
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    return core.Limits(timeout=seconds, kill_grace=grace, output_cap=output_cap, cwd=cwd)


class Interrupted(BaseException):
    """SIGINT, SIGTERM or SIGHUP arrived (a BaseException: nothing may swallow it)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


_STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


@contextlib.contextmanager
def trap_signals() -> Iterator[None]:
    """Turn the stop signals into :class:`Interrupted` (once); an inherited SIG_IGN stays."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    fired: list[int] = []

    def handler(signum: int, _frame: object) -> None:
        fired.append(signum)
        if len(fired) == 1:
            raise Interrupted(signum)

    saved = {}
    for sig in _STOP_SIGNALS:
        previous = signal.getsignal(sig)
        if previous is signal.SIG_IGN:
            continue
        saved[sig] = previous
        signal.signal(sig, handler)
    try:
        yield
    finally:
        for sig, previous in saved.items():
            signal.signal(sig, previous)


def reuse(
    cache: str | None, replay: bool, tokens: int | None, usd: float | None, prices: str | None
) -> core.Reuse:
    if replay and cache is None:
        raise UsageError("--replay needs --cache DIR (the answers it replays)")
    if usd is not None and prices is None:
        raise UsageError("--budget-usd needs --prices FILE (what a token costs)")
    table = parsed(prices, "the price table", core.parse_prices) if prices is not None else {}
    return core.Reuse(
        cache=core.Cache(cache) if cache is not None else None,
        replay=replay,
        budget=core.Budget(tokens, usd, table),
    )


def task(
    rec: Record,
    source: str,
    lineno: int,
    keep_going: bool,
    table: dict[str, str],
    adapter_table: dict[str, str],
    env: dict[str, str],
    conf: dict[str, str],
) -> core.Task | CouncilError | None:
    """The task for one input record; None for records that pass through."""
    if rec.get("kind") != "reviewer":
        return None
    reviewer, pack, token = rec.get("reviewer"), rec.get("pack"), rec.get("ingest_token")
    problem = (
        "reviewer must be a string"
        if not isinstance(reviewer, str) or not reviewer
        else "pack must be a string"
        if not isinstance(pack, str)
        else "ingest_token must be a string"
        if token is not None and not isinstance(token, str)
        else None
    )
    if problem:
        err = DataError(problem, source=source, line=lineno)
        if not keep_going:
            raise err
        return err
    assert isinstance(reviewer, str) and isinstance(pack, str)
    try:
        cmd = core.resolve_command(reviewer, table, adapter_table, env, conf)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    family = conf.get(f"{reviewer}.family") or None
    return core.Task(reviewer, pack, token if isinstance(token, str) else None, cmd, family)


def run(
    records: list[Record],
    tasks: list[core.Task | None],
    limits: core.Limits,
    env: dict[str, str],
    jobs: int,
    stdout: BinaryIO,
    warn: Callable[[str], None],
    reuse: core.Reuse | None = None,
) -> None:
    """Run the tasks in parallel and write every record in input order."""
    reuse = reuse or core.Reuse()
    live = [t for t in tasks if t is not None]
    decided = iter(core.prepare(live, reuse, limits.cwd))
    plan = [(t, next(decided)) if t is not None else (None, None) for t in tasks]
    to_run = [t for t, d in plan if t is not None and d is None]
    runner = core.Runner(limits, env, jobs or max(1, len(to_run)))
    writer = RecordWriter(stdout)
    try:
        slots = iter(runner.start(to_run))
        for rec, (task, known) in zip(records, plan, strict=True):
            if task is not None:
                result = known if known is not None else runner.wait(next(slots))
                for name in result.capped:
                    warn(f"{task.reviewer}: {name} capped at the byte limit")
                if result.abandoned:
                    warn(f"{task.reviewer}: a process that left its group still held the"
                           " output after the command ended; it was stopped, the pipes closed")
                if result.error_kind == "budget" and result.summary:
                    warn(result.summary)
                if known is None:
                    keep(reuse.cache, task, result, warn)
                rec.update(result.fields())
                rec["pack_tokens"] = task.pack_tokens
                if task.family:
                    rec["family"] = task.family
            writer.write(rec)
    except Interrupted as stop:
        runner.stop(stop.signum)
        raise interrupted(stop.signum) from None


def keep(cache: core.Cache | None, task: core.Task, result: core.Result,
         warn: Callable[[str], None]) -> None:
    """Keep an OK answer in the cache (a cache that cannot be written only warns)."""
    key = task.cache_key()
    if cache is None or key is None or task.command is None:
        return
    try:
        cache.put(key, task.command, result.fields())
    except OSError as exc:
        warn(f"{task.reviewer}: answer not cached: {exc.strerror or 'error'}")


def interrupted(signum: int) -> CouncilError:
    name = signal.Signals(signum).name
    return CouncilError(f"interrupted by {name}; reviewers stopped", code=128 + signum)


