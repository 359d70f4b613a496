"""council-tests: run-tests, the deterministic tests reviewer (thin CLI)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import orjson
import typer

from council_filters.base import childenv, script_findings
from council_filters.cli import _shell as kit
from council_filters.pack.git import GitRepo
from council_filters.testrun import run as testrun

HELP = """\
Run the project's test command and report each failing test as a finding.

The tests reviewer of the code-review flow, deterministic: it reads a context (from
council-context) for the test command of each package root the change touches, runs it in
that root under a timeout (the whole process group is stopped when it expires), with a
private TMPDIR, and writes finding records (origin "tests", source "script", confidence 1.0):
one critical finding per failing test at the test's file and line (from pytest's JUnit XML,
go test -json, jest/vitest JSON, cargo's libtest output, RSpec/Minitest lines, JUnit reports
of Maven and Gradle), else one finding with the redacted tail of the output; a warning when
line coverage is under the threshold; a critical finding for each function the diff adds that
no test runs, when coverage data exists.  A last record of kind "tests" summarises each run.

Running a change's tests is running its code: nothing runs without --run-tests (or
COUNCIL_RUN_TESTS=1 in the environment); without it the summary says "skipped": true with the
reason and the exit is 0.  With it, only the declared command runs (the coverage command when
the context has one, unless --no-coverage), with a trimmed environment: PATH (absolute
entries only), HOME, locale, the toolchains' directories and the proxy settings, never the
rest of the caller's environment (API keys, tokens); --env NAME passes one more variable.
No test command: "skipped": true and exit 0 (the seed's exit 2 "degraded", which is this
suite's usage code), or 3 with --strict.  Reads the whole context first (not a streaming
filter).
"""

EPILOG = (
    kit.exit_code_table()
    + "\n\n"
    + """Examples:

\b
  council-context --base main | council-tests --run-tests > tst.jsonl
  council-tests context.json --run-tests --timeout 300 --fail-level critical || echo "fail"
  council-tests --run-tests --test-cmd 'python -m pytest -q' < /dev/null | jq -c .
  council-tests context.json --run-tests --env DATABASE_URL | council-consolidate --format findings
"""
)

app = kit.make_app(HELP, EPILOG)


def _read_context(path: str | None, stdin: Any) -> dict[str, Any]:
    data = kit.read_all([path or "-"], stdin)
    source = kit.source_name(path or "-")
    if not data.strip():
        return {}
    try:
        value = orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        raise kit.DataError(f"invalid JSON: {exc.msg.split(',', 1)[0]} at line {exc.lineno}",
                            source=source) from None
    if not isinstance(value, dict):
        raise kit.DataError(f"context must be a JSON object, got {kit.json_type(value)}",
                            source=source)
    return value


def _seconds(value: str, name: str) -> float:
    try:
        number = float(value)
    except ValueError:
        kit.fail_usage(f"{name} must be a number of seconds")
    if not 0 < number <= 86400:
        kit.fail_usage(f"{name} must be between 0 and 86400 seconds")
    return number


@app.command()
def command(
    context: str = typer.Argument(None, metavar="CONTEXT",
                                  help="Context JSON from council-context; none or '-' reads"
                                  " stdin (with --test-cmd: only a named file is read)."),
    repo: str = typer.Option(".", "--repo", "-C", metavar="DIR",
                             help="The repository (its git top level is used). Default: the"
                             " current directory."),
    test_cmd: str = typer.Option(None, "--test-cmd", metavar="CMD",
                                 help="Run this command at the repository root instead of the"
                                 " context's. Default: the context's."),
    timeout: str = typer.Option("600", "--timeout", metavar="SECONDS",
                                help="Stop a run after this long. Default: 600."),
    kill_after: str = typer.Option("5", "--kill-after", metavar="SECONDS",
                                   help="SIGKILL this long after SIGTERM. Default: 5."),
    no_coverage: bool = typer.Option(False, "--no-coverage",
                                     help="Run the test command, not the coverage command, and"
                                     " skip coverage findings. Default: off."),
    threshold: float = typer.Option(None, "--threshold", metavar="PERCENT", min=0, max=100,
                                    help="Coverage threshold. Default: the context's, else 80."),
    fail_level: str = typer.Option(None, "--fail-level", metavar="SEVERITY",
                                   help="Exit 3 when a finding is at or above this severity"
                                   " (critical, medium, minor or an alias). Default: never."),
    summary_file: str = typer.Option(None, "--summary", metavar="FILE",
                                     help="Write the last record (kind tests) to FILE,"
                                     " replacing it, instead of stdout. Default: stdout."),
    run_tests: bool = typer.Option(False, "--run-tests",
                                   help="Run the change's test command (it is the change's"
                                   " code; trimmed environment). Default: off, unless"
                                   " COUNCIL_RUN_TESTS=1."),
    keep_env: list[str] = typer.Option([], "--env", metavar="NAME",
                                       help="Pass this variable of your environment to the"
                                       " test command too (repeatable). Default: none."),
    strict: bool = typer.Option(False, "--strict",
                                help="Exit 3 when there is no test command to run."
                                " Default: off."),
    version: bool = kit.version_option(),
) -> int:
    ctx = kit.streams()
    level = script_findings.fail_level(fail_level)
    settings = testrun.Settings(timeout=_seconds(timeout, "--timeout"),
                                kill_grace=_seconds(kill_after, "--kill-after"),
                                coverage=not no_coverage)
    data = {} if test_cmd and context is None else _read_context(context, ctx.stdin)
    root = Path(repo)
    if not root.is_dir():
        raise kit.UsageError("not a directory", source=repo)
    try:
        root = Path(GitRepo.discover(root).root)
    except kit.DataError:
        root = root.resolve()
    opted_in = run_tests or os.environ.get("COUNCIL_RUN_TESTS", "") == "1"
    for name in keep_env:
        if not name or "=" in name or not name.isprintable():
            kit.fail_usage("--env takes a variable name")
    declared = bool(test_cmd) or bool(testrun.runs_of(data))
    not_asked = declared and not opted_in
    if not_asked:
        outcomes, limit = testrun.run_context(  # nothing runs: the threshold only
            root, {"coverage_threshold": data.get("coverage_threshold")}, settings,
            threshold=threshold)
    else:
        outcomes, limit = testrun.run_context(root, data, settings, test_cmd=test_cmd or None,
                                              threshold=threshold, warn=ctx.warn,
                                              shown=kit.scrub,
                                              env_base=childenv.trimmed(keep=keep_env))
    runs = outcomes
    findings = sorted((f for o in outcomes for f in o.findings), key=testrun.sort_key)
    writer = kit.RecordWriter(ctx.stdout)
    writer.write_all(findings)
    summary: dict[str, Any] = {"kind": "tests", "skipped": not runs}
    if not_asked:
        summary["reason"] = "not asked: the tests run only with --run-tests"
        ctx.warn("tests not run: they are the change's code; pass --run-tests to run them")
    elif not runs:
        summary["reason"] = "no test command in the context"
        ctx.warn("no test command: skipped (degraded)")
    summary["coverage_threshold"] = int(limit) if limit.is_integer() else limit
    summary["runs"] = [o.record() for o in outcomes]
    script_findings.write_summary(writer, summary_file, summary)
    if strict and not runs and not not_asked:
        return kit.EXIT_CONDITION
    return kit.EXIT_CONDITION if script_findings.reaches(findings, level) else kit.EXIT_OK


main = kit.main_for(app, "council-tests")


def entry() -> None:
    kit.entry(main)


if __name__ == "__main__":
    entry()
