"""council-dispatch: run each reviewer's command on its pack, in parallel.

Thin shell over ``council_filters.dispatch``: options, the command table,
reading records, writing them back in input order.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import typer

from council_filters import dispatch as core
from council_filters.base.settings import COUNCIL_TIMEOUT, parse_seconds
from council_filters.cli import _shell as kit
from council_filters.council import config as commands_file

HELP = """Run each reviewer's command on its pack and add what it said and how it ended.

Like the upstream reviewer agents' `timeout --signal=TERM --kill-after=10 $COUNCIL_TIMEOUT
<cli>` step, for every pack record at once: all reviewers run in parallel, so a run
takes as long as its slowest reviewer.  Each record gains output, stderr,
exit_code, status (OK, TIMEOUT, ERROR, UNAVAILABLE), duration_ms, summary and
error_kind; records are written in input order, other records pass through.
Buffers all records of the run (it must wait for the slowest reviewer)."""

EPILOG = (
    """Commands: --command NAME=CMD, else $COUNCIL_CMD_<NAME>, else the config file
(--config FILE, else $COUNCIL_COMMANDS, else ${XDG_CONFIG_HOME:-~/.config}/council/commands;
the working directory's .council/commands only with --trust-repo-config; lines `NAME = CMD`,
`NAME.adapter = opencode-json`, # comments).  CMD runs under `sh -c`;
{pack_file} / {pack_dir} become the shell-quoted path of a private copy of the
pack (0600 in a 0700 directory, removed after), otherwise the pack is on stdin.

Time: each reviewer gets COUNCIL_TIMEOUT seconds (default 600; a whole number
1-86400, anything else is a usage error; --upstream: warn and use 600, as
upstream), then TERM to its process group and KILL COUNCIL_KILL_GRACE seconds
later (default 10).  Output a reviewer's stray children keep writing after it
exited is read for at most 1 s more, then the pipes are abandoned.  SIGINT,
SIGTERM or SIGHUP stop every reviewer (TERM, KILL after the grace), remove the
pack copies and exit 130, 143 or 129.

"""
    + kit.exit_code_table()
    + """

Examples:

\b
  council-pack review --base main | council-dispatch --command claude='claude -p' \\
      --command gemini='cd {pack_dir} && agy -p "Read pack.txt"' | council-redact --jsonl
  COUNCIL_TIMEOUT=300 council-dispatch --jobs 2 packs.jsonl > reviews.jsonl"""
)

app = kit.make_app(HELP, EPILOG)


def _pairs(values: Sequence[str] | None, what: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in values or ():
        name, eq, value = item.partition("=")
        if not eq or not name or not value:
            raise kit.UsageError(f"{what} must look like NAME=VALUE")
        out[name] = value
    return out


def _config(explicit: str | None, cwd: str | None, trust_repo: bool) -> dict[str, str]:
    found = commands_file.resolve(explicit, os.environ, cwd or ".", trust_repo=trust_repo)
    for note in found.notes:
        kit.streams().warn(note)
    if found.path is None:
        return {}
    return _parsed(str(found.path), "config", core.parse_config)


def _parsed(path: str, what: str, parse: Callable[[str, str], dict[str, Any]]) -> dict[str, Any]:
    """A user's file read as UTF-8 and parsed; a usage error naming the file if not."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = getattr(exc, "strerror", None) or type(exc).__name__
        raise kit.UsageError(f"cannot read {what}: {reason}", source=path) from None
    try:
        return parse(text, path)
    except ValueError as exc:
        raise kit.UsageError(str(exc)) from None


def _timeout(option: str | None, upstream: bool, warn: Callable[[str], None]) -> int:
    """--timeout, else $COUNCIL_TIMEOUT: a whole number of seconds, 1-86400."""
    if option is not None:
        return _strict_seconds(option, "--timeout")
    raw = os.environ.get(COUNCIL_TIMEOUT.name)
    if upstream:
        return COUNCIL_TIMEOUT.resolve(raw, warn)
    if raw is None or raw == "":
        return COUNCIL_TIMEOUT.default
    return _strict_seconds(raw, COUNCIL_TIMEOUT.name)


def _strict_seconds(raw: str, what: str) -> int:
    problems: list[str] = []
    seconds = COUNCIL_TIMEOUT.resolve(raw, problems.append)
    if problems or raw == "":  # the value is not shown: it may be anything
        raise kit.UsageError(f"{what} must be a whole number of seconds from 1 to 86400")
    return seconds


def _limits(
    timeout: str | None,
    kill_after: str | None,
    output_cap: int,
    cwd: str | None,
    upstream: bool,
) -> core.Limits:
    s = kit.streams()
    seconds = _timeout(timeout, upstream, s.warn)
    grace_raw = kill_after if kill_after is not None else os.environ.get("COUNCIL_KILL_GRACE", "")
    try:
        grace = parse_seconds(grace_raw, "COUNCIL_KILL_GRACE") if grace_raw else 10.0
    except ValueError as exc:
        raise kit.UsageError(str(exc)) from None
    return core.Limits(timeout=seconds, kill_grace=grace, output_cap=output_cap, cwd=cwd)


class Interrupted(BaseException):
    """SIGINT, SIGTERM or SIGHUP arrived (a BaseException: nothing may swallow it)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


_STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


@contextlib.contextmanager
def _trap_signals() -> Iterator[None]:
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


@app.command()
def command(
    files: list[str] = typer.Argument(
        None, metavar="FILE", help="Pack records (default: stdin; '-' is stdin)."
    ),
    commands: list[str] = typer.Option(
        None, "--command", "-c", metavar="NAME=CMD",
        help="Command for reviewer NAME (repeatable; default: $COUNCIL_CMD_<NAME>, else"
        " --config).",
    ),
    adapters: list[str] = typer.Option(
        None,
        "--adapter",
        metavar="NAME=ADAPTER",
        help="Output adapter for NAME: text or opencode-json (default: opencode-json for an"
        " opencode command with --format json, else text).",
    ),
    config: str | None = typer.Option(
        None,
        "--config",
        metavar="FILE",
        help="Command file (default: $COUNCIL_COMMANDS, else"
        " ${XDG_CONFIG_HOME:-~/.config}/council/commands when present).",
    ),
    trust_repo: bool = typer.Option(
        False,
        "--trust-repo-config",
        help="Use .council/commands of the working directory (--cwd) when no --config or"
        " $COUNCIL_COMMANDS is given; it runs shell commands, so only for repositories"
        " whose every change you trust. Default: off (it is ignored, with a warning).",
    ),
    jobs: int = typer.Option(
        0, "--jobs", "-j", min=0, help="Reviewers run at once (default 0: all)."
    ),
    timeout: str | None = typer.Option(
        None, "--timeout", metavar="SECONDS",
        help="Overrides COUNCIL_TIMEOUT (same validation; default: $COUNCIL_TIMEOUT, else"
        " 600).",
    ),
    kill_after: str | None = typer.Option(
        None,
        "--kill-after",
        metavar="SECONDS",
        help="Seconds between TERM and KILL (default: $COUNCIL_KILL_GRACE or 10).",
    ),
    output_cap: int = typer.Option(
        core.DEFAULT_OUTPUT_CAP,
        "--output-cap",
        min=1,
        metavar="BYTES",
        help="Keep at most this much stdout per reviewer (stderr: 1 MiB).",
    ),
    cwd: str | None = typer.Option(
        None, "--cwd", metavar="DIR", help="Working directory of the commands (default: current)."
    ),
    upstream: bool = typer.Option(
        False, "--upstream",
        help="A bad COUNCIL_TIMEOUT warns and falls back to 600, as upstream (default: off,"
        " it is a usage error).",
    ),
    cache: str | None = typer.Option(
        None, "--cache", metavar="DIR",
        help="Response cache: an OK answer is kept (redacted, 0600 in a 0700 DIR) under the"
        " reviewer's command line, adapter and pack, and an identical later pack is answered"
        " from it without starting the CLI (default: none).",
    ),
    replay: bool = typer.Option(
        False, "--replay",
        help="Answer every reviewer from --cache only and start no CLI; a reviewer with no"
        " cached answer is UNAVAILABLE (not-cached). Default: off.",
    ),
    budget_tokens: int | None = typer.Option(
        None, "--budget-tokens", min=0, metavar="N",
        help="Skip, before it starts, a reviewer whose pack (estimated at UTF-8 bytes / 4"
        " tokens) would take the run over N tokens; cached answers cost nothing (default:"
        " no budget).",
    ),
    budget_usd: float | None = typer.Option(
        None, "--budget-usd", min=0.0, metavar="USD",
        help="Skip, before it starts, a reviewer whose pack's estimated price (--prices)"
        " would take the run over USD; a reviewer with no price is skipped (default: none).",
    ),
    prices: str | None = typer.Option(
        None, "--prices", metavar="FILE",
        help="Price table: `NAME = INPUT_USD_PER_MTOK [OUTPUT_USD_PER_MTOK]` per reviewer or"
        " family (default: none).",
    ),
    keep_going: bool = kit.keep_going_option(),
    version: bool = kit.version_option(),
) -> int:
    s = kit.streams()
    limits = _limits(timeout, kill_after, output_cap, cwd, upstream)
    table = _pairs(commands, "--command")
    adapter_table = _pairs(adapters, "--adapter")
    conf = _config(config, cwd, trust_repo)
    reuse = _reuse(cache, replay, budget_tokens, budget_usd, prices)
    env = dict(os.environ)
    records: list[kit.Record] = []
    tasks: list[core.Task | None] = []
    with _trap_signals():
        try:
            for source, lineno, rec in kit.iter_jsonl(files or [], s.stdin, keep_going=keep_going):
                if isinstance(rec, kit.CouncilError):
                    records.append(kit.error_record(rec))
                    tasks.append(None)
                    continue
                task = _task(rec, source, lineno, keep_going, table, adapter_table, env, conf)
                if isinstance(task, kit.CouncilError):
                    records.append(kit.error_record(task))
                    tasks.append(None)
                    continue
                records.append(rec)
                tasks.append(task)
        except Interrupted as stop:
            raise _interrupted(stop.signum) from None
        _run(records, tasks, limits, env, jobs, s, reuse)
    return kit.EXIT_OK


def _reuse(
    cache: str | None, replay: bool, tokens: int | None, usd: float | None, prices: str | None
) -> core.Reuse:
    if replay and cache is None:
        raise kit.UsageError("--replay needs --cache DIR (the answers it replays)")
    if usd is not None and prices is None:
        raise kit.UsageError("--budget-usd needs --prices FILE (what a token costs)")
    table = _parsed(prices, "the price table", core.parse_prices) if prices is not None else {}
    return core.Reuse(
        cache=core.Cache(cache) if cache is not None else None,
        replay=replay,
        budget=core.Budget(tokens, usd, table),
    )


def _task(
    rec: kit.Record,
    source: str,
    lineno: int,
    keep_going: bool,
    table: dict[str, str],
    adapter_table: dict[str, str],
    env: dict[str, str],
    conf: dict[str, str],
) -> core.Task | kit.CouncilError | None:
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
        err = kit.DataError(problem, source=source, line=lineno)
        if not keep_going:
            raise err
        return err
    assert isinstance(reviewer, str) and isinstance(pack, str)
    try:
        cmd = core.resolve_command(reviewer, table, adapter_table, env, conf)
    except ValueError as exc:
        raise kit.UsageError(str(exc)) from None
    family = conf.get(f"{reviewer}.family") or None
    return core.Task(reviewer, pack, token if isinstance(token, str) else None, cmd, family)


def _run(
    records: list[kit.Record],
    tasks: list[core.Task | None],
    limits: core.Limits,
    env: dict[str, str],
    jobs: int,
    s: kit.Streams,
    reuse: core.Reuse | None = None,
) -> None:
    """Run the tasks in parallel and write every record in input order."""
    reuse = reuse or core.Reuse()
    live = [t for t in tasks if t is not None]
    decided = iter(core.prepare(live, reuse, limits.cwd))
    plan = [(t, next(decided)) if t is not None else (None, None) for t in tasks]
    to_run = [t for t, d in plan if t is not None and d is None]
    runner = core.Runner(limits, env, jobs or max(1, len(to_run)))
    writer = kit.RecordWriter(s.stdout)
    try:
        slots = iter(runner.start(to_run))
        for rec, (task, known) in zip(records, plan, strict=True):
            if task is not None:
                result = known if known is not None else runner.wait(next(slots))
                for name in result.capped:
                    s.warn(f"{task.reviewer}: {name} capped at the byte limit")
                if result.abandoned:
                    s.warn(f"{task.reviewer}: a process that left its group still held the"
                           " output after the command ended; it was stopped, the pipes closed")
                if result.error_kind == "budget" and result.summary:
                    s.warn(result.summary)
                if known is None:
                    _keep(reuse.cache, task, result, s)
                rec.update(result.fields())
                rec["pack_tokens"] = task.pack_tokens
                if task.family:
                    rec["family"] = task.family
            writer.write(rec)
    except Interrupted as stop:
        runner.stop(stop.signum)
        raise _interrupted(stop.signum) from None


def _keep(cache: core.Cache | None, task: core.Task, result: core.Result, s: kit.Streams) -> None:
    """Keep an OK answer in the cache (a cache that cannot be written only warns)."""
    key = task.cache_key()
    if cache is None or key is None or task.command is None:
        return
    try:
        cache.put(key, task.command, result.fields())
    except OSError as exc:
        s.warn(f"{task.reviewer}: answer not cached: {exc.strerror or 'error'}")


def _interrupted(signum: int) -> kit.CouncilError:
    name = signal.Signals(signum).name
    return kit.CouncilError(f"interrupted by {name}; reviewers stopped", code=128 + signum)


def main(argv: Sequence[str] | None = None, *, stdin=None, stdout=None, stderr=None) -> int:  # type: ignore[no-untyped-def]
    return kit.run(app, "council-dispatch", argv, stdin=stdin, stdout=stdout, stderr=stderr)


def entry() -> None:
    kit.entry(main)


if __name__ == "__main__":
    entry()
