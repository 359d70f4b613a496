"""``council code-review``: the six-reviewer flow, one subcommand per step.

Part of the ``council`` shell (it adds this app as its ``code-review`` group): options,
the state file's name, the terminal questions and the exit codes.  The flow itself is
``council_filters.codereview``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import typer

from council_filters.cli import _shell as kit
from council_filters.cli._council_options import CONFIG, STATE, TRUST
from council_filters.codereview import accepting, correct, review, session, setup
from council_filters.council import prepare, scope
from council_filters.pack.git import GitRepo
from council_filters.state import machine

CR_HELP = """The code-review flow with one command per step: six reviewers (security,
requirements, tests, architecture, regression, performance), your selection, one corrector
per origin, scoped re-review with a two-attempt limit.

\b
  run       collect the context, run the security and test scripts (under their opt-ins),
            send each origin its own pack, verify and re-ask, consolidate with stable IDs,
            write the report and the state file
  accept    choose what to fix; everything else open is dismissed, and said so
  fix       run the corrector for each origin with findings to fix
  rereview  re-run only the origins whose findings were fixed, on what the fixes touched
  status    the state summary; exit 0 when done, 3 while work remains

Reviewer commands come from your commands file (as for `council review`): each origin goes to
`code-review.ORIGIN = NAME` when given, else --reviewer NAME, else the first configured
reviewer; `corrector = CMD` is the correction command.  Every command runs with
COUNCIL_REVIEWER and COUNCIL_ORIGIN set; packs and answers are redacted.  The references sent
to each reviewer ship with council-filters; a file ORIGIN.md in --references DIR or in
${XDG_CONFIG_HOME:-~/.config}/council/code-review/ replaces one."""

CR_EPILOG = (
    kit.exit_code_table()
    + """

Examples:

\b
  council code-review run --base origin/main --task "Expire idle sessions"
  council code-review run --worktree --run-tests --state review/state.json
  council code-review accept --severity critical,security
  council code-review accept SEC-001 ARQ-002
  council code-review fix && council code-review rereview
  council code-review status || echo "work remains\""""
)

code_review = kit.make_app(CR_HELP, CR_EPILOG, no_args_is_help=True)

CR_KEEP_ENV = typer.Option([], "--env", metavar="NAME",
                           help="With --run-tests: pass this variable of your environment to"
                           " the test command too (repeatable; the tests run with a trimmed"
                           " environment). Default: none.")


CR_STATE = typer.Option("review-state.json", "--state", metavar="FILE",
                     envvar="COUNCIL_STATE",
                     help="The state file (default: review-state.json; its files go to"
                     " FILE.d/).")
REVIEWER = typer.Option(None, "--reviewer", metavar="NAME",
                        help="The reviewer for every origin without a code-review.ORIGIN line"
                        " (default: the first configured one).")
REFS = typer.Option(None, "--references", metavar="DIR",
                    help="Directory whose ORIGIN.md, finding-contract.md or correction.md"
                    " replace the shipped ones (default: the user configuration's).")


def _cr_say(message: str) -> None:
    s = kit.streams()
    for line in message.splitlines() or [""]:
        s.warn(line)


def _cr_setup(root: Path, config_file: str | None, trust: bool, reviewer: str | None,
           refs_dir: str | None) -> tuple[review.Reviewers, str | None]:
    _path, table = prepare.commands(config_file, os.environ, root, trust, kit.streams().warn)
    return setup.reviewers(str(root), table, reviewer, refs_dir, os.environ, _cr_say)


def _cr_root(directory: str | None) -> Path:
    start = directory or STATE["dir"] or "."
    if not os.path.isdir(start):
        raise kit.UsageError("-C: no such directory", source=start)
    return Path(GitRepo.discover(start).root)


def _meta_root(state: str) -> Path:
    return Path(session.Session(state).meta()["root"])


@code_review.command("run")
def run_cmd(
    base: str | None = typer.Option(None, "--base", metavar="REF",
                                    help="Review BASE...HEAD plus uncommitted work (the default"
                                    " scope; default REF: origin/HEAD, main, master, ...)."),
    worktree: bool = typer.Option(False, "--worktree",
                                  help="Review HEAD against every uncommitted change."),
    staged: bool = typer.Option(False, "--staged", help="Review HEAD against the staged changes."),
    commit: str | None = typer.Option(None, "--commit", metavar="SHA",
                                      help="Review one commit against its first parent."),
    committed: bool = typer.Option(False, "--committed",
                                   help="With --base: leave uncommitted changes out."),
    state: str = CR_STATE,
    task: str | None = typer.Option(None, "--task", metavar="TEXT",
                                    help="The task the change implements (default: none)."),
    spec: str | None = typer.Option(None, "--spec", metavar="DIR",
                                    help="The spec file or folder (default: matched under"
                                    " .specs/)."),
    run_tests: bool = typer.Option(False, "--run-tests",
                                   help="Run the change's tests (they execute the repository's"
                                   " code on this machine, with a trimmed environment)."
                                   " Default: off unless COUNCIL_RUN_TESTS=1; the tests origin"
                                   " is told they did not run."),
    run_audit: bool = typer.Option(False, "--audit",
                                   help="Run the dependency auditors when a manifest changed."
                                   " Default: off."),
    test_cmd: str | None = typer.Option(None, "--test-cmd", metavar="CMD",
                                        help="The test command (default: declared or"
                                        " detected)."),
    keep_env: list[str] = CR_KEEP_ENV,
    directory: str | None = typer.Option(None, "-C", metavar="DIR",
                                         help="The repository (default: here)."),
    config_file: str | None = CONFIG,
    trust: bool = TRUST,
    reviewer: str | None = REVIEWER,
    refs_dir: str | None = REFS,
) -> int:
    """Review a change with the six reviewers and start (or continue) the state file."""
    kind = scope.choose(base, worktree, staged, commit)
    if committed and kind != "base":
        raise kit.UsageError(f"--committed goes with --base, not --{kind}")
    root = _cr_root(directory)
    who, _corrector = _cr_setup(root, config_file, trust, reviewer, refs_dir)
    opts = review.RunOptions(repo=str(root), state=state, scope=kind, base=base, commit=commit,
                             committed=committed, task=task, spec=spec,
                             run_tests=_cr_tests_opted_in(run_tests), run_audit=run_audit,
                             test_cmd=test_cmd, keep_env=_cr_keep_env(keep_env))
    asker = _cr_ask_task if task is None and spec is None and sys.stdin.isatty() else None
    outcome = review.run(opts, who, _cr_say, ask_task=asker)
    s = kit.streams()
    s.stdout.write(outcome.report.encode("utf-8"))
    s.stdout.flush()
    return outcome.code


def _cr_tests_opted_in(flag: bool) -> bool:
    """--run-tests, or COUNCIL_RUN_TESTS=1 (council-tests' opt-in)."""
    return flag or os.environ.get("COUNCIL_RUN_TESTS", "") == "1"


def _cr_keep_env(names: list[str]) -> tuple[str, ...]:
    for name in names:
        if not name or "=" in name or not name.isprintable():
            raise kit.UsageError("--env takes a variable name")
    return tuple(names)


def _cr_ask_task() -> str | None:
    """The readiness gate's one question: the task, when neither a spec nor a task was found."""
    err = kit.streams().stderr
    err.write("no spec and no task were found: what should this change do? (one line; empty"
              " to review without): ")
    err.flush()
    return sys.stdin.readline().strip() or None


@code_review.command("accept")
def accept_cmd(
    ids: list[str] = typer.Argument(None, metavar="[IDS]...", help="Finding IDs to accept."),
    severity: str | None = typer.Option(None, "--severity", metavar="LIST",
                                        help="Accept by severity or category, e.g."
                                        " critical,security."),
    all_: bool = typer.Option(False, "--all", help="Accept every open finding."),
    none: bool = typer.Option(False, "--none", help="Accept nothing: dismiss every open one."),
    state: str = CR_STATE,
) -> int:
    """Accept findings to fix; every other open finding is dismissed (listed by ID).
    With no selection and a terminal on stdin, asks."""
    chosen = accepting.choice(ids or [], severity, all_, none)
    if chosen.empty():
        if not sys.stdin.isatty():
            raise kit.UsageError("accept: give IDS, --severity LIST, --all or --none")
        err = kit.streams().stderr
        for line in accepting.listing(state):
            err.write(line + "\n")
        err.write("accept which? IDs, severities/categories (critical,security), 'all' or"
                  " nothing to dismiss every one: ")
        err.flush()
        chosen = accepting.parse_answer(state, sys.stdin.readline().strip())
    accepted, dismissed = accepting.accept(state, chosen)
    out = kit.streams().stdout
    out.write(f"accepted {len(accepted)}: {' '.join(accepted) or '-'}\n".encode())
    out.write(f"dismissed {len(dismissed)}: {' '.join(dismissed) or '-'}\n".encode())
    return kit.EXIT_OK


@code_review.command("fix")
def fix_cmd(
    state: str = CR_STATE,
    config_file: str | None = CONFIG,
    trust: bool = TRUST,
    refs_dir: str | None = REFS,
) -> int:
    """Run one corrector per origin with accepted (or reopened) findings and record what
    each did.  Exit 3 when a corrector failed or left a finding without an outcome."""
    root = _meta_root(state)
    who, corrector = _cr_setup(root, config_file, trust, None, refs_dir)
    if corrector is None:
        raise kit.UsageError("no corrector: add a `corrector = CMD` line to the commands file")
    code, _report = correct.fix(state, corrector, who.caller, who.refs, _cr_say)
    return code


@code_review.command("rereview")
def rereview_cmd(
    state: str = CR_STATE,
    config_file: str | None = CONFIG,
    trust: bool = TRUST,
    reviewer: str | None = REVIEWER,
    refs_dir: str | None = REFS,
    run_tests: bool = typer.Option(False, "--run-tests",
                                   help="Run the failing tests under re-review again (by their"
                                   " node IDs with pytest) to settle the test script's findings."
                                   " Default: off (unless COUNCIL_RUN_TESTS=1), they stay in"
                                   " re-review."),
    keep_env: list[str] = CR_KEEP_ENV,
) -> int:
    """Re-run the origins whose findings were fixed, on the lines the corrections touched:
    verified, reopened (one more correction while fix_attempts < 2, else frozen) or
    fix-induced (a new finding with a fresh ID).  Exit 3 when a finding could not be settled
    (its reviewer did not answer, or a test finding without --run-tests)."""
    root = _meta_root(state)
    who, _corrector = _cr_setup(root, config_file, trust, reviewer, refs_dir)
    code, _settled = review.rereview(state, who, _cr_say,
                                     run_tests=_cr_tests_opted_in(run_tests),
                                     keep_env=_cr_keep_env(keep_env))
    return code


@code_review.command("status")
def status_cmd(
    state: str = CR_STATE,
    as_json: bool = typer.Option(False, "--json", help="Print the summary as JSON."),
) -> int:
    """The session's state: exit 0 when every accepted finding is verified, escalated or
    dismissed (and none is waiting to be accepted), 3 while work remains."""
    summary = machine.summarize(session.Session(state).load())
    out = kit.streams().stdout
    out.write(kit.dumps(summary) if as_json else machine.render_status(summary).encode())
    return kit.EXIT_OK if summary["complete"] else kit.EXIT_CONDITION
