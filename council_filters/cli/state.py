"""council-state: the review state machine over review-state.json (thin CLI)."""

from __future__ import annotations

import os
import time
from dataclasses import dataclass

import orjson
import typer

from council_filters.cli import _shell as kit
from council_filters.consolidate import origins
from council_filters.state import machine as review_state
from council_filters.state import store as statefile

HELP = """\
The review state machine: accept -> fix -> re-review, kept in review-state.json.

Like a tiny database with one writer: every verb that changes the state takes an
exclusive lock, checks the request against the transition table, and replaces the
file atomically; an illegal request changes nothing and exits 1.  It reads all of
its input before it starts (not a streaming filter).

The file is --file, else $COUNCIL_STATE, else ./review-state.json.  History
timestamps come from COUNCIL_NOW (YYYY-MM-DDTHH:MM:SSZ or epoch seconds), else
SOURCE_DATE_EPOCH, else the clock.
"""

EPILOG = (
    kit.exit_code_table()
    + "\n\n"
    + """Examples:

\b
  council-state init context.json
  council-consolidate --format findings verdicts.jsonl | council-state add
  council-state accept --severity critical,security
  corrector | council-state record-fix
  council-state scope > scope.json
  rereview < scope.json | council-state verify
  council-state status || echo "work remains"
  council-state --file other.json history --id SEC-001 | jq -c .changes
"""
)

app = kit.make_app(HELP, EPILOG, no_args_is_help=True)

FILE_HELP = "State file (default: $COUNCIL_STATE, else ./review-state.json)."
INPUTS_HELP = "JSON Lines input files; none or '-' reads stdin."


@dataclass(frozen=True)
class Options:
    """What every verb shares: the state file and how long a writer waits for its lock."""

    file: str
    lock_timeout: float


@app.callback()
def options(
    ctx: typer.Context,
    file: str = typer.Option(None, "--file", "-f", metavar="FILE", envvar="COUNCIL_STATE",
                              help=FILE_HELP),
    lock_timeout: float = typer.Option(
        statefile.DEFAULT_LOCK_TIMEOUT, "--lock-timeout", metavar="SECONDS",
        help="Seconds a writer waits for the lock before giving up (exit 1).",
    ),
    version: bool = kit.version_option(),
) -> None:
    ctx.obj = Options(file or statefile.DEFAULT_NAME, float(lock_timeout))


def _options(ctx: typer.Context) -> Options:
    opts = ctx.obj
    assert isinstance(opts, Options)
    return opts


def _path(ctx: typer.Context) -> str:
    return _options(ctx).file


def _now() -> str:
    return review_state.clock(os.environ, time.time())


def _records(paths: list[str] | None) -> list[review_state.Located]:
    """Every input record, decoded before the lock is taken."""
    out: list[review_state.Located] = []
    for source, line, record in kit.iter_jsonl(paths or [], kit.streams().stdin):
        assert isinstance(record, dict)
        out.append((source, line, record))
    return out


def _transact(ctx: typer.Context, mutate: statefile.Mutation) -> review_state.Result:
    opts = _options(ctx)
    return statefile.transact(opts.file, mutate, timeout=opts.lock_timeout)


def _emit(records: list[kit.Record]) -> None:
    kit.RecordWriter(kit.streams().stdout).write_all(records)


@app.command()
def init(
    ctx: typer.Context,
    context: str = typer.Argument("-", help="Context JSON object (from collect-context);"
                                  " '-' reads stdin; empty input means {}."),
    force: bool = typer.Option(False, "--force",
                               help="Replace an existing (valid) state file. Default: off."),
) -> int:
    """Create a new session state from a context JSON object."""
    data = kit.read_all([context], kit.streams().stdin)
    source = kit.source_name(context)
    if data.strip():
        try:
            value = orjson.loads(data)
        except orjson.JSONDecodeError as exc:
            raise kit.DataError(f"invalid JSON: {exc.msg} at line {exc.lineno}", source=source
                                ) from None
    else:
        value = {}
    if not isinstance(value, dict):
        raise kit.DataError(f"context must be a JSON object, got {kit.json_type(value)}",
                            source=source)
    problem = kit.shape_problem(value, data)
    if problem:
        raise kit.DataError(f"context: {problem}", source=source)
    now = _now()

    def mutate(current: review_state.State | None) -> review_state.Result:
        if current is not None and not force:
            raise kit.DataError("state file already exists (use init --force to replace it)",
                                source=_path(ctx))
        return review_state.new_state(value, now)

    opts = _options(ctx)
    statefile.create(opts.file, mutate, timeout=opts.lock_timeout)
    return kit.EXIT_OK


@app.command()
def add(ctx: typer.Context,
        inputs: list[str] = typer.Argument(None, help=INPUTS_HELP)) -> int:
    """Merge consolidated findings; new IDs enter as open.

    Input: finding records from council-consolidate --format findings.  A known ID with the
    same fingerprint refreshes the finding's own fields; a different fingerprint is an error."""
    records = _records(inputs)
    now = _now()
    _transact(ctx, lambda st: review_state.add_findings(st, records, now))
    return kit.EXIT_OK


@app.command()
def accept(
    ctx: typer.Context,
    all_: bool = typer.Option(False, "--all", help="Accept every open finding. Default: off."),
    severity: list[str] = typer.Option(
        None, "--severity", metavar="LIST", help="Comma list of severities (critical, medium,"
        " minor or an alias) and categories (security, performance, a reviewer name) to"
        " accept. Default: none."),
    ids: list[str] = typer.Option(None, "--ids", metavar="LIST",
                                  help="Comma list of finding IDs to accept. Default: none."),
) -> int:
    """Accept the selected open findings; every other open finding becomes dismissed."""
    now = _now()

    def mutate(current: review_state.State) -> review_state.Result:
        selection = review_state.parse_selection(
            current, all_=all_, severities=severity or [], ids=ids or [])
        return review_state.accept(current, selection, now)

    _transact(ctx, mutate)
    return kit.EXIT_OK


@app.command("record-fix")
def record_fix(ctx: typer.Context,
               inputs: list[str] = typer.Argument(None, help=INPUTS_HELP)) -> int:
    """Record corrector output: fixed or escalated, per finding.

    Input: {"id", "outcome": "fixed"|"escalated", "files_touched": [...], "reason"}."""
    records = _records(inputs)
    now = _now()
    _transact(ctx, lambda st: review_state.record_fix(st, records, now))
    return kit.EXIT_OK


@app.command()
def scope(ctx: typer.Context) -> int:
    """Compute the scoped re-review and print it as one record.

    Prints {reviewers_to_rerun, files_to_inspect, findings_in_scope, escalated}.  Fixed findings
    enter re-review (fix_attempts + 1); reopened findings out of attempts are escalated and
    frozen."""
    now = _now()
    result = _transact(ctx, lambda st: review_state.scope(st, now))
    _emit(result.output)
    return kit.EXIT_OK


@app.command()
def verify(ctx: typer.Context,
           inputs: list[str] = typer.Argument(None, help=INPUTS_HELP)) -> int:
    """Record re-review output: verified or reopened, plus fix-induced findings.

    Input: {"id", "outcome": "verified"|"reopened"} for findings in scope, and finding records
    with "fix_induced": true and no id; those get fresh IDs and are printed."""
    records = _records(inputs)
    now = _now()
    result = _transact(ctx, lambda st: review_state.verify(st, records, now))
    _emit(result.output)
    return kit.EXIT_OK


@app.command()
def status(ctx: typer.Context,
           json_: bool = typer.Option(False, "--json",
                                      help="One JSON object for machines. Default: off (text).")
           ) -> int:
    """Summarise; exit 0 when every finding is terminal, 3 when work remains."""
    summary = review_state.summarize(statefile.load(_path(ctx)))
    out = kit.streams().stdout
    if json_:
        out.write(kit.dumps(summary))
    else:
        out.write(review_state.render_status(summary).encode())
    return kit.EXIT_OK if summary["complete"] else kit.EXIT_CONDITION


@app.command()
def show(ctx: typer.Context,
         ids: list[str] = typer.Argument(None, help="Finding IDs (default: all).")) -> int:
    """Print findings as JSON Lines (kind "finding"), in state order."""
    findings = statefile.load(_path(ctx))["findings"]
    if ids:
        by_id = {f["id"]: f for f in findings}
        missing = [i for i in ids if i not in by_id]
        if missing:
            raise kit.DataError(f"{missing[0]}: unknown finding ID"
                                if origins.is_id_token(missing[0])
                                else "unknown finding ID")
        findings = [by_id[i] for i in dict.fromkeys(ids)]
    _emit([{"kind": "finding", **f} for f in findings])
    return kit.EXIT_OK


@app.command()
def history(ctx: typer.Context,
            id_: str = typer.Option(None, "--id", metavar="ID",
                                    help="Only entries about this finding (default: all).")
            ) -> int:
    """Print the history as JSON Lines (kind "history"), oldest first."""
    entries = statefile.load(_path(ctx))["history"]
    if id_ is not None:
        entries = [e for e in entries if e.get("id") == id_]
    _emit([{"kind": "history", **e} for e in entries])
    return kit.EXIT_OK


main = kit.main_for(app, "council-state")


def entry() -> None:
    kit.entry(main)


if __name__ == "__main__":
    entry()
