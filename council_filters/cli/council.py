"""council: run a whole council on the repository you are in.

Thin shell over ``council_filters.council``: options (the shared ones declared once in
``_council_options``), the repository, the streams and the exit code.  ``council
code-review`` is ``_code_review``.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path

import typer

from council_filters.base import safefs
from council_filters.cli import _shell as kit
from council_filters.cli._code_review import code_review
from council_filters.cli._council_options import (
    EXTRAS,
    GATES,
    OUTPUTS,
    PATHS,
    REPORT,
    STATE,
    Group,
    with_options,
)
from council_filters.council import config, modes, prepare
from council_filters.council import run as council_run
from council_filters.council.prepare import Options
from council_filters.pack import core as packcore
from council_filters.pack.git import GitRepo

HELP = """Run a council on the current git repository: pack, redact, dispatch to your
reviewers, redact, fence, parse, consolidate -- one command, the same chain as the
council-* filters piped together.

Reviewer commands come from YOUR configuration, never silently from the repository
under review: --config FILE, else $COUNCIL_COMMANDS, else
${XDG_CONFIG_HOME:-~/.config}/council/commands (`council init` writes an example
there).  A `.council/commands` in the reviewed repository is used only with
--trust-repo-config.  The pack shows every line with its number and is redacted
before any reviewer sees it (only each credential's span is replaced).  The report
is written to docs/council/<date>-<mode>-<slug>.md in the repository (or --report-dir
DIR), its name taken before any reviewer runs; that directory is never part of a
review.  The synthesis is printed.  Progress goes to stderr when it is a terminal."""

EPILOG = (
    """Gates (exit 3): --fail-on REVISE|REJECT (a counted verdict at or above it),
--min-reviewers N (fewer than N counted verdicts: TIMEOUT, ERROR, UNAVAILABLE and
UNKNOWN never count), --fail-level SEVERITY (a finding at or above it, or a finding
that could not be read).  A stage of the chain that fails stops the run with its
exit code and no report.

Environment: COUNCIL_COMMANDS, XDG_CONFIG_HOME, COUNCIL_TIMEOUT (600 s per reviewer),
COUNCIL_KILL_GRACE; COUNCIL_CMD_<NAME> overrides one reviewer's command.

"""
    + kit.exit_code_table()
    + """

Examples:

\b
  council init                                  # writes ~/.config/council/commands
  council review --base origin/main             # the branch's commits
  council review --worktree                     # HEAD plus every uncommitted change
  council review --staged --fail-on REJECT --min-reviewers 2 2>&1 | tee council.log
  council -C ../other-repo review --commit abc1234
  council question "Is the session cache thread-safe?" --paths app/cache.py
  council plan docs/plans/cache.md
  council code-review run --base origin/main    # the six-reviewer flow (code-review --help)"""
)

app = kit.make_app(HELP, EPILOG, no_args_is_help=True)
PROG = "council"


@app.callback()
def _main(
    directory: str | None = typer.Option(
        None, "-C", metavar="DIR", help="Run as if started in DIR (default: here)."
    ),
    version: bool = kit.version_option(),
) -> None:
    """Run a council on a git repository."""
    STATE["dir"] = directory


def _repo() -> GitRepo:
    start = STATE["dir"] or "."
    if not os.path.isdir(start):
        raise kit.UsageError("-C: no such directory", source=start)
    return GitRepo.discover(start)


Built = tuple[list[str], str, tuple[str, str] | None]  # pack arguments, slug, --since record


def _run(git: GitRepo, opts: Options, build: Callable[[], Built]) -> int:
    """Check the options and the commands file, then build the pack's arguments (the
    scope is resolved only once the options are known good), then run the chain."""
    s = kit.streams()
    checked = prepare.check(Path(git.root), opts, os.environ, s.warn)
    args, slug, reviewed = build()
    stdin = sys.stdin.buffer if args[-1:] == ["-"] else None
    return council_run.run(args, checked, opts, git=git, slug=slug, console=s, env=os.environ,
                           stdin=stdin, reviewed=reviewed)


@app.command("review")
@with_options
def review_cmd(
    base: str | None = typer.Option(
        None, "--base", metavar="REF",
        help="Review the commits since the merge base with REF (the default scope; default"
        " REF: the upstream-tracking branch, else origin/main).",
    ),
    worktree: bool = typer.Option(
        False, "--worktree",
        help="Review HEAD plus staged, unstaged and untracked (not ignored) changes.",
    ),
    staged: bool = typer.Option(False, "--staged", help="Review HEAD plus the staged changes."),
    commit: str | None = typer.Option(
        None, "--commit", metavar="SHA", help="Review one commit against its first parent."
    ),
    max_diff_lines: int | None = typer.Option(
        None, "--max-diff-lines", min=1, metavar="N",
        help=f"Keep at most N diff lines; a longer diff is cut (default:"
        f" {packcore.DIFF_LINE_CAP} lines, applied when the diff is over --max-diff-bytes).",
    ),
    max_diff_bytes: int = typer.Option(
        packcore.DIFF_BODY_CAP, "--max-diff-bytes", min=1, metavar="BYTES",
        help=f"Cut a diff over BYTES to its stat and first lines (default:"
        f" {packcore.DIFF_BODY_CAP}).",
    ),
    _gates: Group = GATES,
    _outputs: Group = OUTPUTS,
    _report: Group = REPORT,
    since_ref: str | None = typer.Option(
        None, "--since", metavar="last|REF",
        help="Review only the commits after REF, or after the last reviewed commit of this"
        " branch (`last`: recorded in ${XDG_STATE_HOME:-~/.local/state}/council; after a"
        " rebase or force-push, or with no record, the whole branch, with a notice). Default:"
        " the whole branch.",
    ),
    _extras: Group = EXTRAS,
    *,
    opts: Options,
) -> int:
    """Review a change: a branch (--base), the uncommitted work (--worktree, --staged) or
    one commit (--commit).  The scope is named in the report's title and file name; the
    report says when the pack had to be cut."""
    kind = modes.review_kind(base, worktree, staged, commit, since_ref)
    git = _repo()

    def build() -> Built:
        found = modes.resolve(git, kind, base=base, commit=commit, since_ref=since_ref,
                              report_dir=opts.report_dir, max_diff_bytes=max_diff_bytes,
                              max_diff_lines=max_diff_lines, env=os.environ,
                              warn=kit.streams().warn)
        return found.args, found.slug, found.reviewed

    return _run(git, opts, build)


@app.command("question")
@with_options
def question_cmd(
    words: list[str] = typer.Argument(..., metavar="TEXT", help="The question ('-' reads stdin)."),
    paths: str | None = PATHS,
    _gates: Group = GATES,
    _report: Group = REPORT,
    _extras: Group = EXTRAS,
    *,
    opts: Options,
) -> int:
    """Ask the council a question, with optional files for context.  The synthesis quotes
    each reviewer's answer and where they agree; a question has no verdict tally."""
    args, slug = modes.text("question", words, paths)
    return _run(_repo(), opts, lambda: (args, slug, None))


@app.command("debug")
@with_options
def debug_cmd(
    words: list[str] = typer.Argument(
        ..., metavar="SYMPTOM", help="The symptom: what goes wrong ('-' reads stdin)."
    ),
    paths: str | None = typer.Option(
        None, "--paths", metavar="A,B",
        help="Up to three files the symptom points at (comma-separated; each is shown with"
        " its line numbers and its last ten commits). Default: none.",
    ),
    _gates: Group = GATES,
    _report: Group = REPORT,
    _extras: Group = EXTRAS,
    *,
    opts: Options,
) -> int:
    """Have the council investigate a bug: the symptom, the files it cites and their recent
    history."""
    args, slug = modes.text("debug", words, paths)
    return _run(_repo(), opts, lambda: (args, slug, None))


@app.command("plan")
@with_options
def plan_cmd(
    file: str = typer.Argument(..., metavar="FILE", help="The planning document (in the repo)."),
    _gates: Group = GATES,
    _report: Group = REPORT,
    _extras: Group = EXTRAS,
    *,
    opts: Options,
) -> int:
    """Have the council review a planning document."""
    git = _repo()
    return _run(git, opts, lambda: (*modes.plan(git, STATE["dir"], file), None))


@app.command("init")
def init_cmd(
    path: str | None = typer.Option(
        None, "--path", metavar="FILE",
        help="Where to write (default: ${XDG_CONFIG_HOME:-~/.config}/council/commands).",
    ),
) -> int:
    """Write the example reviewer commands file to your configuration (never over a file)."""
    s = kit.streams()
    target = Path(path) if path else config.user_commands_path(os.environ)
    if os.path.lexists(target):
        raise kit.UsageError("already exists; edit it, or remove it first", source=str(target))
    example = (Path(__file__).resolve().parent.parent / "data" / "commands.example").read_bytes()
    target.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    try:
        safefs.write_new(str(target), example, mode=0o600)
    except FileExistsError:
        raise kit.UsageError("already exists", source=str(target)) from None
    s.stdout.write(f"{target}\n".encode())
    s.warn(f"wrote the example reviewer commands to {target}; edit it, then: council review")
    return kit.EXIT_OK


app.add_typer(code_review, name="code-review")

main = kit.main_for(app, PROG)


def entry() -> None:
    kit.entry(main)


if __name__ == "__main__":
    entry()
