"""council-dispatch: run each reviewer's command on its pack, in parallel.

Thin shell over ``council_filters.dispatch``: options, the command table,
reading records, writing them back in input order.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

import typer

from council_filters import dispatch as core
from council_filters.cli import _shell as kit
from council_filters.council import config as commands_file
from council_filters.dispatch import stream

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


def _config(explicit: str | None, cwd: str | None, trust_repo: bool) -> dict[str, str]:
    found = commands_file.resolve(explicit, os.environ, cwd or ".", trust_repo=trust_repo)
    for note in found.notes:
        kit.streams().warn(note)
    if found.path is None:
        return {}
    return stream.parsed(str(found.path), "config", core.parse_config)


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
    limits = stream.limits(timeout, kill_after, output_cap, cwd, upstream, s.warn)
    table = stream.pairs(commands, "--command")
    adapter_table = stream.pairs(adapters, "--adapter")
    conf = _config(config, cwd, trust_repo)
    reuse = stream.reuse(cache, replay, budget_tokens, budget_usd, prices)
    env = dict(os.environ)
    records: list[kit.Record] = []
    tasks: list[core.Task | None] = []
    with stream.trap_signals():
        try:
            for source, lineno, rec in kit.iter_jsonl(files or [], s.stdin, keep_going=keep_going):
                if isinstance(rec, kit.CouncilError):
                    records.append(kit.error_record(rec))
                    tasks.append(None)
                    continue
                task = stream.task(rec, source, lineno, keep_going, table, adapter_table, env, conf)
                if isinstance(task, kit.CouncilError):
                    records.append(kit.error_record(task))
                    tasks.append(None)
                    continue
                records.append(rec)
                tasks.append(task)
        except stream.Interrupted as stop:
            raise stream.interrupted(stop.signum) from None
        stream.run(records, tasks, limits, env, jobs, s.stdout, s.warn, reuse)
    return kit.EXIT_OK


def main(argv: Sequence[str] | None = None, *, stdin=None, stdout=None, stderr=None) -> int:  # type: ignore[no-untyped-def]
    return kit.run(app, "council-dispatch", argv, stdin=stdin, stdout=stdout, stderr=stderr)


def entry() -> None:
    kit.entry(main)


if __name__ == "__main__":
    entry()
