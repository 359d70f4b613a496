"""council-dispatch: run each reviewer's command on its pack, in parallel.

Thin shell over ``council_filters.dispatch``: options, the command table,
reading records, writing them back in input order.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import typer

from council_filters import dispatch as core
from council_filters.base.settings import COUNCIL_TIMEOUT, parse_seconds
from council_filters.cli import _shell as kit

HELP = """Run each reviewer's command on its pack and add what it said and how it ended.

Like the upstream reviewer agents' `timeout --signal=TERM --kill-after=10 $COUNCIL_TIMEOUT
<cli>` step, for every pack record at once: all reviewers run in parallel, so a run
takes as long as its slowest reviewer.  Each record gains output, stderr,
exit_code, status (OK, TIMEOUT, ERROR, UNAVAILABLE), duration_ms, summary and
error_kind; records are written in input order, other records pass through.
Buffers all records of the run (it must wait for the slowest reviewer)."""

EPILOG = (
    """Commands: --command NAME=CMD, else $COUNCIL_CMD_<NAME>, else the config file
(--config FILE, default .council/commands when present; lines `NAME = CMD`,
`NAME.adapter = opencode-json`, # comments).  CMD runs under `sh -c`;
{pack_file} / {pack_dir} become the shell-quoted path of a private copy of the
pack (0600 in a 0700 directory, removed after), otherwise the pack is on stdin.

Environment: COUNCIL_TIMEOUT (600; 1-86400 seconds, validated as upstream),
COUNCIL_KILL_GRACE (10 seconds between TERM and KILL).

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
DEFAULT_CONFIG = ".council/commands"


def _pairs(values: Sequence[str] | None, what: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in values or ():
        name, eq, value = item.partition("=")
        if not eq or not name or not value:
            raise kit.UsageError(f"{what} must look like NAME=VALUE")
        out[name] = value
    return out


def _config(path: str | None) -> dict[str, str]:
    if path is None:
        if not Path(DEFAULT_CONFIG).is_file():
            return {}
        path = DEFAULT_CONFIG
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = getattr(exc, "strerror", None) or type(exc).__name__
        raise kit.UsageError(f"cannot read config: {reason}", source=path) from None
    try:
        return core.parse_config(text, path)
    except ValueError as exc:
        raise kit.UsageError(str(exc)) from None


def _limits(
    timeout: str | None,
    kill_after: str | None,
    output_cap: int,
    cwd: str | None,
) -> core.Limits:
    s = kit.streams()
    raw = timeout if timeout is not None else os.environ.get(COUNCIL_TIMEOUT.name)
    seconds = COUNCIL_TIMEOUT.resolve(raw, s.warn)
    grace_raw = kill_after if kill_after is not None else os.environ.get("COUNCIL_KILL_GRACE", "")
    try:
        grace = parse_seconds(grace_raw, "COUNCIL_KILL_GRACE") if grace_raw else 10.0
    except ValueError as exc:
        raise kit.UsageError(str(exc)) from None
    return core.Limits(timeout=seconds, kill_grace=grace, output_cap=output_cap, cwd=cwd)


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
        help=f"Command file (default: {DEFAULT_CONFIG} if present).",
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
    keep_going: bool = kit.keep_going_option(),
    version: bool = kit.version_option(),
) -> int:
    s = kit.streams()
    limits = _limits(timeout, kill_after, output_cap, cwd)
    table = _pairs(commands, "--command")
    adapter_table = _pairs(adapters, "--adapter")
    conf = _config(config)
    env = dict(os.environ)
    records: list[kit.Record] = []
    tasks: list[tuple[str, str, str | None, core.Command | None] | None] = []
    for source, lineno, rec in kit.iter_jsonl(files or [], s.stdin, keep_going=keep_going):
        if isinstance(rec, kit.CouncilError):
            records.append(kit.error_record(rec))
            tasks.append(None)
            continue
        if rec.get("kind") != "reviewer":
            records.append(rec)
            tasks.append(None)
            continue
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
            records.append(kit.error_record(err))
            tasks.append(None)
            continue
        assert isinstance(reviewer, str) and isinstance(pack, str)
        try:
            cmd = core.resolve_command(reviewer, table, adapter_table, env, conf)
        except ValueError as exc:
            raise kit.UsageError(str(exc)) from None
        records.append(rec)
        tasks.append((reviewer, pack, token if isinstance(token, str) else None, cmd))
    n_jobs = jobs or max(1, sum(t is not None for t in tasks))
    writer = kit.RecordWriter(s.stdout)
    with ThreadPoolExecutor(max_workers=n_jobs) as pool:
        futures: list[Future[core.Result] | None] = [
            pool.submit(core.run_reviewer, *task, limits, env) if task else None for task in tasks
        ]
        for rec, fut in zip(records, futures, strict=True):
            if fut is not None:
                result = fut.result()
                for name in result.capped:
                    s.warn(f"{rec['reviewer']}: {name} capped at the byte limit")
                rec.update(result.fields())
            writer.write(rec)
    return kit.EXIT_OK


def main(argv: Sequence[str] | None = None, *, stdin=None, stdout=None, stderr=None) -> int:  # type: ignore[no-untyped-def]
    return kit.run(app, "council-dispatch", argv, stdin=stdin, stdout=stdout, stderr=stderr)


def entry() -> None:
    kit.entry(main)


if __name__ == "__main__":
    entry()
