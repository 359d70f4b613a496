"""council: run a whole council on the repository you are in.

Thin shell over ``council_filters.council``: options, the commands file, the
scope, progress on a terminal, the gates and the exit code.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import typer

from council_filters import paths, severity
from council_filters.base import safefs, vocab
from council_filters.cli import _shell as kit
from council_filters.council import chain, config, gates, reports, scope
from council_filters.dispatch import parse_config
from council_filters.pack import core as packcore
from council_filters.pack.git import REF_RE, GitRepo

HELP = """Run a council on the current git repository: pack, redact, dispatch to your
reviewers, redact, fence, parse, consolidate -- one command, the same chain as the
council-* filters piped together.

Reviewer commands come from YOUR configuration, never silently from the repository
under review: --config FILE, else $COUNCIL_COMMANDS, else
${XDG_CONFIG_HOME:-~/.config}/council/commands (`council init` writes an example
there).  A `.council/commands` in the reviewed repository is used only with
--trust-repo-config.  The pack is redacted before any reviewer sees it.  The report
is written to docs/council/<date>-<mode>-<slug>.md in the repository; the synthesis
is printed.  Progress goes to stderr when it is a terminal."""

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
  council plan docs/plans/cache.md"""
)

app = kit.make_app(HELP, EPILOG, no_args_is_help=True)
PROG = "council"
_STATE: dict[str, str | None] = {"dir": None}


@app.callback()
def _main(
    directory: str | None = typer.Option(
        None, "-C", metavar="DIR", help="Run as if started in DIR (default: here)."
    ),
    version: bool = kit.version_option(),
) -> None:
    """Run a council on a git repository."""
    _STATE["dir"] = directory


# --------------------------------------------------------------------------- #
# Options every council mode takes.
# --------------------------------------------------------------------------- #
CONFIG = typer.Option(
    None, "--config", metavar="FILE",
    help="Reviewer commands file (default: $COUNCIL_COMMANDS, else"
    " ${XDG_CONFIG_HOME:-~/.config}/council/commands).",
)
TRUST = typer.Option(
    False, "--trust-repo-config",
    help="Use the reviewed repository's .council/commands (it runs shell commands on this"
    " machine: only for repositories whose every change you trust). Default: off.",
)
REVIEWERS = typer.Option(
    None, "--reviewers", metavar="A,B",
    help="Run only these of the configured reviewers (default: every configured one).",
)
FAIL_ON = typer.Option(
    None, "--fail-on", metavar="REVISE|REJECT", case_sensitive=False,
    help="Exit 3 when a counted verdict is at or above this (default: never).",
)
MIN_REVIEWERS = typer.Option(
    0, "--min-reviewers", min=0, metavar="N",
    help="Exit 3 when fewer than N reviewers cast a counted verdict (default: 0).",
)
FAIL_LEVEL = typer.Option(
    None, "--fail-level", metavar="SEVERITY",
    help="Exit 3 when a finding is at or above this severity: critical, medium, minor or an"
    " alias (high, p1, blocking, ...), any case; the findings are named (council-consolidate's"
    " gate; default: none).",
)
SARIF = typer.Option(
    None, "--sarif", metavar="FILE",
    help="Also write the findings as SARIF 2.1.0 to FILE, for code scanning (default: none).",
)
CODEQUALITY = typer.Option(
    None, "--codequality", metavar="FILE",
    help="Also write the findings as a GitLab Code Quality report (one entry per finding,"
    " stable fingerprints) to FILE, for merge requests (default: none).",
)
RDJSONL = typer.Option(
    None, "--rdjsonl", metavar="FILE",
    help="Also write the findings as reviewdog diagnostics (rdjsonl, with suggestions where a"
    " reviewer gave replacement code) to FILE, for inline review comments (default: none).",
)
NO_REDACT = typer.Option(
    False, "--no-redact-pack",
    help="Send the pack to the reviewers unredacted. Default: off (each credential in the"
    " diff or files becomes a typed placeholder such as \u2039redacted:aws-access-key-id\u203a;"
    " the line, its diff prefix and its identifiers stay).",
)
PATHS = typer.Option(
    None, "--paths", metavar="A,B", help="Comma-separated files to include (default: none)."
)
REPORT_DIR = typer.Option(
    None, "--report-dir", metavar="DIR",
    help="Write the report into DIR (default: docs/council in the repository, which every"
    " review leaves out of its snapshot and of the uncommitted-file count).",
)


def _fail(message: str, code: int = kit.EXIT_USAGE) -> kit.CouncilError:
    return kit.UsageError(message) if code == kit.EXIT_USAGE else kit.DataError(message)


def _repo() -> GitRepo:
    start = _STATE["dir"] or "."
    if not os.path.isdir(start):
        raise kit.UsageError("-C: no such directory", source=start)
    return GitRepo.discover(start)


def _commands(explicit: str | None, root: Path, trust: bool) -> tuple[str, dict[str, str]]:
    s = kit.streams()
    found = config.resolve(explicit, os.environ, root, trust_repo=trust)
    for note in found.notes:
        s.warn(note)
    if found.path is None:
        where = config.user_commands_path(os.environ)
        raise kit.UsageError(
            f"no reviewer commands: run `council init` to write an example to {where}, or"
            " pass --config FILE"
        )
    try:
        text = found.path.read_text(encoding="utf-8")
        table = parse_config(text, str(found.path))
    except (OSError, UnicodeDecodeError) as exc:
        reason = getattr(exc, "strerror", None) or type(exc).__name__
        raise kit.UsageError(f"cannot read: {reason}", source=str(found.path)) from None
    except ValueError as exc:
        raise kit.UsageError(str(exc)) from None
    return str(found.path.resolve()), table


def _reviewers(table: dict[str, str], only: str | None) -> list[str]:
    names = config.reviewer_names(table)
    if only:
        wanted = [n.strip() for n in only.split(",") if n.strip()]
        unknown = [n for n in wanted if n not in names]
        if unknown:
            raise kit.UsageError(f"--reviewers: not in the commands file: {', '.join(unknown)}")
        names = wanted
    bad = [n for n in names if not vocab.is_name(n)]
    if bad:
        raise kit.UsageError(
            "reviewer names must match [a-z0-9][a-z0-9_-]*, up to 32 characters"
        )
    if not names:
        raise kit.UsageError("the commands file names no reviewer")
    return names


def _file_reviewers(table: dict[str, str], names: Sequence[str]) -> tuple[str, ...]:
    """Pack-as-file reviewers that get an ingest token: upstream's, when their command
    really reads the pack from a file."""
    return tuple(
        n for n in names
        if n in vocab.FILE_REVIEWERS and ("{pack_file}" in table[n] or "{pack_dir}" in table[n])
    )


def _progress(names: Sequence[str]):  # type: ignore[no-untyped-def]
    err = kit.streams().stderr
    if not (hasattr(err, "isatty") and err.isatty()):
        return None
    shown = ", ".join(vocab.display_name(n) for n in names)

    def show(elapsed: float) -> None:
        err.write(f"\r\x1b[Kcouncil: {shown} running — {int(elapsed)}s")
        err.flush()

    return show


@dataclass(frozen=True)
class Checked:
    """Everything a run needs that can be wrong, checked before the first pack is built."""

    commands_file: str
    table: dict[str, str]
    names: list[str]
    fail_on: str | None
    min_reviewers: int
    fail_level: str | None  # canonical severity


def _check(
    git: GitRepo, *, config_file: str | None, trust: bool, only: str | None,
    fail_on: str | None, min_reviewers: int, fail_level: str | None,
) -> Checked:
    """The gate options (one severity table, any case), then the commands file (every
    line, with file:line), then the reviewers: a usage error (exit 2) before anything runs."""
    if fail_on is not None:
        fail_on = fail_on.upper()
        if fail_on not in gates.FAIL_ON:
            raise kit.UsageError("--fail-on must be REVISE or REJECT (any case)")
    level = severity.gate_level(fail_level)
    commands_file, table = _commands(config_file, Path(git.root), trust)
    names = _reviewers(table, only)
    if min_reviewers > len(names):
        raise kit.UsageError(
            f"--min-reviewers {min_reviewers}: only {len(names)} reviewer"
            f"{'s are' if len(names) != 1 else ' is'} configured, so the gate could never pass"
        )
    return Checked(commands_file, table, names, fail_on, min_reviewers, level)


def _run(
    pack_args: list[str],
    checked: Checked,
    *,
    no_redact: bool,
    sarif: str | None = None,
    rdjsonl: str | None = None,
    codequality: str | None = None,
    git: GitRepo,
    slug: str,
    report_dir: str | None = None,
) -> int:
    s = kit.streams()
    root = Path(git.root)
    mode = pack_args[0]
    commands_file, table, names = checked.commands_file, checked.table, checked.names
    fail_on, min_reviewers, fail_level = (
        checked.fail_on, checked.min_reviewers, checked.fail_level)
    date = paths.today()
    reserved = reports.reserve(str(root), reports.report_dir(str(root), report_dir), mode, slug,
                               date)
    pack_args = [mode, "--slug", slug, *pack_args[1:]]
    write_args = ("--write-to", reserved.shown, "--date", date, "--slug", slug)
    plan = chain.Plan(
        pack_args=tuple(pack_args),
        reviewers=tuple(names),
        commands_file=commands_file,
        root=str(root),
        redact_pack=not no_redact,
        extended_rules=chain.extended_rules_available(),
        consolidate_args=write_args + (("--fail-level", fail_level) if fail_level else ()),
        file_reviewers=_file_reviewers(table, names),
        sarif=os.path.abspath(sarif) if sarif else None,
        rdjsonl=os.path.abspath(rdjsonl) if rdjsonl else None,
        codequality=os.path.abspath(codequality) if codequality else None,
    )
    if no_redact:
        s.warn("--no-redact-pack: the pack goes to the reviewers unredacted")
    show = _progress(names)
    started = time.monotonic()
    s.stdout.flush()
    stdin = sys.stdin.buffer if pack_args[-1:] == ["-"] else None
    try:
        outcome = chain.run(plan, stdin=stdin, progress=show)
    except BaseException:
        reports.release(reserved)
        raise
    if outcome.failed_stage is not None or outcome.consolidate_code not in (
        kit.EXIT_OK, kit.EXIT_CONDITION
    ):
        reports.release(reserved)
    if show is not None:
        s.stderr.write(f"\r\x1b[Kcouncil: done in {int(time.monotonic() - started)}s\n")
    if outcome.failed_stage is not None:
        s.warn(
            f"council-{outcome.failed_stage} failed (exit {outcome.stage_code});"
            " no report written"
        )
        code = outcome.stage_code
        return code if code in (kit.EXIT_DATA, kit.EXIT_USAGE) else kit.EXIT_INTERNAL
    s.stdout.write(outcome.report)
    s.stdout.flush()
    # council-consolidate's notes (its warnings, the findings a gate tripped on), in order.
    s.stderr.write(outcome.notes.decode("utf-8", "replace"))
    if outcome.consolidate_code not in (kit.EXIT_OK, kit.EXIT_CONDITION):
        s.warn(f"council-consolidate failed (exit {outcome.consolidate_code})")
        return int(outcome.consolidate_code or kit.EXIT_INTERNAL)
    failures = gates.check(outcome.records, gates.Gates(fail_on, min_reviewers))
    if outcome.consolidate_code == kit.EXIT_CONDITION:
        failures.append(f"--fail-level {fail_level}: the findings named above")
    for failure in failures:
        s.warn(f"gate failed: {failure}")
    return kit.EXIT_CONDITION if failures else kit.EXIT_OK


# --------------------------------------------------------------------------- #
# Commands.
# --------------------------------------------------------------------------- #
@app.command("review")
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
    config_file: str | None = CONFIG,
    trust: bool = TRUST,
    reviewers: str | None = REVIEWERS,
    fail_on: str | None = FAIL_ON,
    min_reviewers: int = MIN_REVIEWERS,
    fail_level: str | None = FAIL_LEVEL,
    no_redact: bool = NO_REDACT,
    sarif: str | None = SARIF,
    rdjsonl: str | None = RDJSONL,
    codequality: str | None = CODEQUALITY,
    report_dir: str | None = REPORT_DIR,
) -> int:
    """Review a change: a branch (--base), the uncommitted work (--worktree, --staged) or
    one commit (--commit).  The scope is named in the report's title and file name; the
    report says when the pack had to be cut."""
    chosen = [n for n, on in (("--base", base is not None), ("--worktree", worktree),
                               ("--staged", staged), ("--commit", commit is not None)) if on]
    if len(chosen) > 1:
        raise kit.UsageError(f"choose one scope: {' or '.join(chosen)}")
    git = _repo()
    checked = _check(git, config_file=config_file, trust=trust, only=reviewers, fail_on=fail_on,
                     min_reviewers=min_reviewers, fail_level=fail_level)
    kind = {"--worktree": "worktree", "--staged": "staged", "--commit": "commit"}.get(
        chosen[0] if chosen else "", "base"
    )
    own = reports.inside(str(git.root), reports.report_dir(str(git.root), report_dir))
    exclude = (own,) if own else ()
    rng = scope.resolve(git, kind, base=base, commit=commit, exclude=exclude)
    if kind == "base":
        dirty = scope.uncommitted_files(git, exclude)
        if dirty:
            noun = "file" if dirty == 1 else "files"
            kit.streams().warn(
                f"warning: {dirty} uncommitted {noun} not reviewed (this reviews commits"
                " only; --worktree includes them)"
            )
    args = ["review", "--max-diff-bytes", str(max_diff_bytes)]
    if max_diff_lines is not None:
        args += ["--max-diff-lines", str(max_diff_lines)]
    if rng.base is not None:
        args += ["--base", rng.base]
    if rng.head is not None:
        args += ["--head", rng.head]
    args += ["--scope", kind]
    named = base if kind == "base" and base is not None else None
    if kind == "base" and named is None:
        named = git.upstream() or "origin/main"
    if named is not None and check_name(named):
        args += ["--base-name", named]
    return _run(args, checked, no_redact=no_redact, sarif=sarif, rdjsonl=rdjsonl,
                codequality=codequality, git=git,
                slug=_review_slug(git, kind, named, rng, commit), report_dir=report_dir)


def check_name(ref: str) -> bool:
    """Whether a ref passes the pack's allowlist (it is shown, never run)."""
    return REF_RE.match(ref) is not None and not ref.startswith("-")


def _review_slug(
    git: GitRepo, kind: str, named: str | None, rng: scope.Range, commit: str | None
) -> str:
    """The branch's slug and the scope: feat-x-vs-main, feat-x-worktree, feat-x-commit-abc1234."""
    branch = git.branch_name()
    if kind == "base":
        what = f"vs {named or rng.base or 'base'}"
    elif kind == "commit":
        what = f"commit {git.commit_sha(commit or 'HEAD')[:7]}"
    else:
        what = kind
    return paths.scoped_slug(branch, what)


@app.command("question")
def question_cmd(
    words: list[str] = typer.Argument(..., metavar="TEXT", help="The question ('-' reads stdin)."),
    paths: str | None = PATHS,
    config_file: str | None = CONFIG,
    trust: bool = TRUST,
    reviewers: str | None = REVIEWERS,
    fail_on: str | None = FAIL_ON,
    min_reviewers: int = MIN_REVIEWERS,
    fail_level: str | None = FAIL_LEVEL,
    no_redact: bool = NO_REDACT,
    report_dir: str | None = REPORT_DIR,
) -> int:
    """Ask the council a question, with optional files for context.  The synthesis quotes
    each reviewer's answer and where they agree; a question has no verdict tally."""
    git = _repo()
    checked = _check(git, config_file=config_file, trust=trust, only=reviewers, fail_on=fail_on,
                     min_reviewers=min_reviewers, fail_level=fail_level)
    args = ["question", *(["--paths", paths] if paths else []), "--", *words]
    return _run(args, checked, no_redact=no_redact, git=git, slug=_text_slug(words),
                report_dir=report_dir)


@app.command("debug")
def debug_cmd(
    words: list[str] = typer.Argument(
        ..., metavar="SYMPTOM", help="The symptom: what goes wrong ('-' reads stdin)."
    ),
    paths: str | None = typer.Option(
        None, "--paths", metavar="A,B",
        help="Up to three files the symptom points at (comma-separated; each is shown with"
        " its line numbers and its last ten commits). Default: none.",
    ),
    config_file: str | None = CONFIG,
    trust: bool = TRUST,
    reviewers: str | None = REVIEWERS,
    fail_on: str | None = FAIL_ON,
    min_reviewers: int = MIN_REVIEWERS,
    fail_level: str | None = FAIL_LEVEL,
    no_redact: bool = NO_REDACT,
    report_dir: str | None = REPORT_DIR,
) -> int:
    """Have the council investigate a bug: the symptom, the files it cites and their recent
    history."""
    git = _repo()
    checked = _check(git, config_file=config_file, trust=trust, only=reviewers, fail_on=fail_on,
                     min_reviewers=min_reviewers, fail_level=fail_level)
    args = ["debug", *(["--paths", paths] if paths else []), "--", *words]
    return _run(args, checked, no_redact=no_redact, git=git, slug=_text_slug(words),
                report_dir=report_dir)


def _text_slug(words: Sequence[str]) -> str:
    """The slug council-pack would derive from the text (``-``: the text is on stdin)."""
    if list(words) == ["-"]:
        return "stdin"
    text = " ".join(words)
    return paths.build_slug(paths.text_slug_source(text))


@app.command("plan")
def plan_cmd(
    file: str = typer.Argument(..., metavar="FILE", help="The planning document (in the repo)."),
    config_file: str | None = CONFIG,
    trust: bool = TRUST,
    reviewers: str | None = REVIEWERS,
    fail_on: str | None = FAIL_ON,
    min_reviewers: int = MIN_REVIEWERS,
    fail_level: str | None = FAIL_LEVEL,
    no_redact: bool = NO_REDACT,
    report_dir: str | None = REPORT_DIR,
) -> int:
    """Have the council review a planning document."""
    git = _repo()
    checked = _check(git, config_file=config_file, trust=trust, only=reviewers, fail_on=fail_on,
                     min_reviewers=min_reviewers, fail_level=fail_level)
    given = os.path.join(_STATE["dir"] or ".", file)  # relative to -C DIR, as git -C does
    rel = os.path.relpath(os.path.realpath(given), os.path.realpath(git.root)) if (
        os.path.exists(given)
    ) else file
    return _run(["plan", "--", rel], checked, no_redact=no_redact, git=git,
                slug=paths.build_slug(paths.plan_slug_source(rel)), report_dir=report_dir)


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


def _code_review() -> None:
    from council_filters.cli import code_review

    app.add_typer(code_review.app, name="code-review")


_code_review()
main = kit.main_for(app, PROG)


def entry() -> None:
    kit.entry(main)


if __name__ == "__main__":
    entry()
