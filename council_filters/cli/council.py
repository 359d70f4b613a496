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

from council_filters.base import paths, safefs, severity, vocab
from council_filters.cli import _shell as kit
from council_filters.codereview import ask, correct, references, review, session, setup
from council_filters.consolidate import origins, usage
from council_filters.council import chain, config, gates, reports, scope, since
from council_filters.dispatch import parse_config
from council_filters.pack import core as packcore
from council_filters.pack.git import REF_RE, GitRepo
from council_filters.state import machine

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


CACHE = typer.Option(
    None, "--cache", metavar="DIR",
    help="Response cache: an identical later run (same command line, adapter and pack) is"
    " answered from DIR without starting the CLI; answers are kept redacted, 0600 in a 0700"
    " DIR (default: $COUNCIL_CACHE, else `council.cache = DIR` in the commands file, else"
    " none).",
)
NO_CACHE = typer.Option(False, "--no-cache", help="Use no response cache. Default: off.")
REPLAY = typer.Option(
    False, "--replay",
    help="Parse, gate and report from cached answers only: no CLI is started (new rules over"
    " old answers, offline); a reviewer with no cached answer is UNAVAILABLE. Default: off.",
)
BUDGET_TOKENS = typer.Option(
    None, "--budget-tokens", min=0, metavar="N",
    help="Skip, before it starts, a reviewer whose pack (estimated: UTF-8 bytes / 4) would take"
    " the run over N tokens; the skip is reported and --min-reviewers still gates (default:"
    " none).",
)
BUDGET_USD = typer.Option(
    None, "--budget-usd", min=0.0, metavar="USD",
    help="The same for the pack's estimated price from --prices (default: none).",
)
PRICES = typer.Option(
    None, "--prices", metavar="FILE",
    help="Price table: `NAME = INPUT_USD_PER_MTOK [OUTPUT_USD_PER_MTOK]` lines, NAME a"
    " reviewer or a family (default: none).",
)
MIN_FAMILIES = typer.Option(
    0, "--min-families", min=0, metavar="N",
    help="Exit 3 when the counted verdicts come from fewer than N model families (`NAME.family"
    " = F` in the commands file; default: 0).",
)
MIN_COVERAGE = typer.Option(
    None, "--min-coverage", min=0.0, max=100.0, metavar="PCT",
    help="Exit 3 when less than PCT percent of the changed lines were seen by at least"
    " max(1, --min-reviewers) counted reviewers (default: none).",
)
JSON_OUT = typer.Option(
    None, "--json", metavar="FILE",
    help="Also write the consolidation JSON (verdicts, findings, usage, coverage, totals) to"
    " FILE (default: none).",
)
SUMMARY = typer.Option(
    None, "--job-summary", metavar="FILE",
    help="Append the synthesis and the usage table to FILE, markdown (default:"
    " $GITHUB_STEP_SUMMARY when set, else none).",
)


@dataclass(frozen=True)
class Extras:
    """The cache, budget, gate and output options every council mode takes."""

    cache: str | None = None
    no_cache: bool = False
    replay: bool = False
    budget_tokens: int | None = None
    budget_usd: float | None = None
    prices: str | None = None
    min_families: int = 0
    min_coverage: float | None = None
    json: str | None = None
    job_summary: str | None = None


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
    def show(elapsed: float, done: frozenset[str] = frozenset()) -> None:
        waiting = [vocab.display_name(n) for n in names if n not in done]
        if done:
            err.write(f"\r\x1b[Kcouncil: {len(names) - len(waiting)} of {len(names)} reviewers"
                      f" done; waiting on {', '.join(waiting) or 'the report'}"
                      f" — {int(elapsed)}s")
        else:
            err.write(f"\r\x1b[Kcouncil: {', '.join(waiting)} running — {int(elapsed)}s")
        err.flush()

    return show


def _review_args(pack_args: Sequence[str]) -> tuple[str, ...]:
    """consolidate's ``--rev``/``--base``: the commit the pack read (a scope's snapshot
    for uncommitted work) and the diff base, so evidence is checked against them."""
    out: list[str] = []
    for flag, name in (("--head", "--rev"), ("--base", "--base")):
        if flag in pack_args:
            i = list(pack_args).index(flag)
            if i + 1 < len(pack_args):
                out += [name, pack_args[i + 1]]
    return tuple(out)


@dataclass(frozen=True)
class Checked:
    """Everything a run needs that can be wrong, checked before the first pack is built."""

    commands_file: str
    table: dict[str, str]
    names: list[str]
    fail_on: str | None
    min_reviewers: int
    fail_level: str | None  # canonical severity
    dispatch_args: tuple[str, ...] = ()


def _check(
    git: GitRepo, *, config_file: str | None, trust: bool, only: str | None,
    fail_on: str | None, min_reviewers: int, fail_level: str | None,
    extras: Extras | None = None,
) -> Checked:
    """The gate options (one severity table, any case), then the commands file (every
    line, with file:line), then the reviewers and the dispatch options: a usage error
    (exit 2) before anything runs."""
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
    dispatch_args = _dispatch_args(extras or Extras(), table)
    return Checked(commands_file, table, names, fail_on, min_reviewers, level, dispatch_args)


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
    extras: Extras = Extras(),
    reviewed: tuple[str, str] | None = None,
) -> int:
    s = kit.streams()
    root = Path(git.root)
    mode = pack_args[0]
    commands_file, table, names = checked.commands_file, checked.table, checked.names
    fail_on, min_reviewers, fail_level = (
        checked.fail_on, checked.min_reviewers, checked.fail_level)
    dispatch_args = checked.dispatch_args
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
        review_args=_review_args(pack_args),
        json=os.path.abspath(extras.json) if extras.json else None,
        dispatch_args=dispatch_args,
        report_path=reserved.shown,
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
    _job_summary(extras, outcome)
    if reviewed is not None and gates.counted(outcome.records):
        try:
            since.record(os.environ, git, *reviewed)
        except OSError as exc:
            s.warn(f"--since last: the reviewed commit was not recorded:"
                   f" {exc.strerror or 'error'}")
    failures = gates.check(outcome.records, gates.Gates(
        fail_on, min_reviewers, extras.min_families, extras.min_coverage))
    if outcome.consolidate_code == kit.EXIT_CONDITION:
        failures.append(f"--fail-level {fail_level}: the findings named above")
    for failure in failures:
        s.warn(f"gate failed: {failure}")
    return kit.EXIT_CONDITION if failures else kit.EXIT_OK


def _cache_dir(extras: Extras, table: dict[str, str]) -> str | None:
    """--cache, else $COUNCIL_CACHE, else the commands file's ``council.cache`` (a relative
    path there is relative to the home directory); --no-cache: none."""
    if extras.no_cache:
        if extras.replay:
            raise kit.UsageError("--replay answers from the cache: drop --no-cache")
        return None
    chosen = extras.cache or os.environ.get("COUNCIL_CACHE") or table.get("council.cache")
    if not chosen:
        if extras.replay:
            raise kit.UsageError("--replay needs a cache: --cache DIR, $COUNCIL_CACHE or"
                                 " `council.cache = DIR` in the commands file")
        return None
    return os.path.abspath(os.path.expanduser(chosen))


def _dispatch_args(extras: Extras, table: dict[str, str]) -> tuple[str, ...]:
    args: list[str] = []
    cache = _cache_dir(extras, table)
    if cache is not None:
        args += ["--cache", cache]
    if extras.replay:
        args.append("--replay")
    if extras.budget_tokens is not None:
        args += ["--budget-tokens", str(extras.budget_tokens)]
    if extras.budget_usd is not None:
        if extras.prices is None:
            raise kit.UsageError("--budget-usd needs --prices FILE (what a token costs)")
        args += ["--budget-usd", repr(extras.budget_usd)]
    if extras.prices is not None:
        if not os.path.isfile(extras.prices):
            raise kit.UsageError("--prices: no such file", source=extras.prices)
        args += ["--prices", os.path.abspath(extras.prices)]
    return tuple(args)


def _job_summary(extras: Extras, outcome: chain.Outcome) -> None:
    """Append the synthesis and the usage table to the job summary file, when there is one."""
    target = extras.job_summary or os.environ.get("GITHUB_STEP_SUMMARY") or None
    if target is None:
        return
    pairs = [(str(r.get("reviewer")), r) for r in outcome.records]
    body = outcome.report.decode("utf-8", "replace").rstrip("\n")
    text = "\n".join([body, "", *usage.section(pairs)]).rstrip("\n") + "\n\n"
    try:
        with open(target, "a", encoding="utf-8") as fh:
            fh.write(text)
    except OSError as exc:
        kit.streams().warn(f"job summary not written: {exc.strerror or 'error'}")


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
    since_ref: str | None = typer.Option(
        None, "--since", metavar="last|REF",
        help="Review only the commits after REF, or after the last reviewed commit of this"
        " branch (`last`: recorded in ${XDG_STATE_HOME:-~/.local/state}/council; after a"
        " rebase or force-push, or with no record, the whole branch, with a notice). Default:"
        " the whole branch.",
    ),
    cache: str | None = CACHE,
    no_cache: bool = NO_CACHE,
    replay: bool = REPLAY,
    budget_tokens: int | None = BUDGET_TOKENS,
    budget_usd: float | None = BUDGET_USD,
    prices: str | None = PRICES,
    min_families: int = MIN_FAMILIES,
    min_coverage: float | None = MIN_COVERAGE,
    json_out: str | None = JSON_OUT,
    job_summary: str | None = SUMMARY,
) -> int:
    """Review a change: a branch (--base), the uncommitted work (--worktree, --staged) or
    one commit (--commit).  The scope is named in the report's title and file name; the
    report says when the pack had to be cut."""
    extras = Extras(cache, no_cache, replay, budget_tokens, budget_usd, prices, min_families,
                    min_coverage, json_out, job_summary)
    if since_ref is not None and (worktree or staged or commit is not None):
        raise kit.UsageError("--since reviews commits of the branch: drop --worktree, --staged"
                             " and --commit")
    kind = scope.choose(base, worktree, staged, commit)
    git = _repo()
    checked = _check(git, config_file=config_file, trust=trust, only=reviewers, fail_on=fail_on,
                     min_reviewers=min_reviewers, fail_level=fail_level, extras=extras)
    own = reports.inside(str(git.root), reports.report_dir(str(git.root), report_dir))
    exclude = (own,) if own else ()
    reviewed: tuple[str, str] | None = None
    if since_ref is not None:
        rng, reviewed = _since(git, since_ref, base, exclude)
    else:
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
                slug=_review_slug(git, kind, named, rng, commit), report_dir=report_dir,
                extras=extras, reviewed=reviewed)


def _since(
    git: GitRepo, ref: str, base: str | None, exclude: tuple[str, ...]
) -> tuple[scope.Range, tuple[str, str] | None]:
    """The range of ``--since last|REF`` and the (branch, head) to record after the run."""
    head = since.commit_sha(git, "HEAD")
    if head is None:
        raise kit.DataError("--since: the repository has no commit yet")
    if ref != "last":
        start = scope.resolve(git, "base", base=ref, exclude=exclude)
        return scope.Range(start.base, head), None
    branch = git.branch_name()
    whole = scope.resolve(git, "base", base=base, exclude=exclude)
    if branch == "HEAD":
        kit.streams().warn("--since last: HEAD is detached, so no branch records where its"
                           " review ended; reviewing the whole branch")
        return whole, None
    found = since.last(os.environ, git, branch, head)
    if found.notice:
        kit.streams().warn(found.notice)
    if found.base is None:
        return whole, (branch, head)
    return scope.Range(found.base, head), (branch, head)


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
    cache: str | None = CACHE,
    no_cache: bool = NO_CACHE,
    replay: bool = REPLAY,
    budget_tokens: int | None = BUDGET_TOKENS,
    budget_usd: float | None = BUDGET_USD,
    prices: str | None = PRICES,
    min_families: int = MIN_FAMILIES,
    min_coverage: float | None = MIN_COVERAGE,
    json_out: str | None = JSON_OUT,
    job_summary: str | None = SUMMARY,
) -> int:
    """Ask the council a question, with optional files for context.  The synthesis quotes
    each reviewer's answer and where they agree; a question has no verdict tally."""
    extras = Extras(cache, no_cache, replay, budget_tokens, budget_usd, prices, min_families,
                    min_coverage, json_out, job_summary)
    git = _repo()
    checked = _check(git, config_file=config_file, trust=trust, only=reviewers, fail_on=fail_on,
                     min_reviewers=min_reviewers, fail_level=fail_level, extras=extras)
    args = ["question", *(["--paths", paths] if paths else []), "--", *words]
    return _run(args, checked, no_redact=no_redact, git=git, slug=_text_slug(words),
                report_dir=report_dir, extras=extras)


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
    cache: str | None = CACHE,
    no_cache: bool = NO_CACHE,
    replay: bool = REPLAY,
    budget_tokens: int | None = BUDGET_TOKENS,
    budget_usd: float | None = BUDGET_USD,
    prices: str | None = PRICES,
    min_families: int = MIN_FAMILIES,
    min_coverage: float | None = MIN_COVERAGE,
    json_out: str | None = JSON_OUT,
    job_summary: str | None = SUMMARY,
) -> int:
    """Have the council investigate a bug: the symptom, the files it cites and their recent
    history."""
    extras = Extras(cache, no_cache, replay, budget_tokens, budget_usd, prices, min_families,
                    min_coverage, json_out, job_summary)
    git = _repo()
    checked = _check(git, config_file=config_file, trust=trust, only=reviewers, fail_on=fail_on,
                     min_reviewers=min_reviewers, fail_level=fail_level, extras=extras)
    args = ["debug", *(["--paths", paths] if paths else []), "--", *words]
    return _run(args, checked, no_redact=no_redact, git=git, slug=_text_slug(words),
                report_dir=report_dir, extras=extras)


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
    cache: str | None = CACHE,
    no_cache: bool = NO_CACHE,
    replay: bool = REPLAY,
    budget_tokens: int | None = BUDGET_TOKENS,
    budget_usd: float | None = BUDGET_USD,
    prices: str | None = PRICES,
    min_families: int = MIN_FAMILIES,
    min_coverage: float | None = MIN_COVERAGE,
    json_out: str | None = JSON_OUT,
    job_summary: str | None = SUMMARY,
) -> int:
    """Have the council review a planning document."""
    extras = Extras(cache, no_cache, replay, budget_tokens, budget_usd, prices, min_families,
                    min_coverage, json_out, job_summary)
    git = _repo()
    checked = _check(git, config_file=config_file, trust=trust, only=reviewers, fail_on=fail_on,
                     min_reviewers=min_reviewers, fail_level=fail_level, extras=extras)
    given = os.path.join(_STATE["dir"] or ".", file)  # relative to -C DIR, as git -C does
    rel = os.path.relpath(os.path.realpath(given), os.path.realpath(git.root)) if (
        os.path.exists(given)
    ) else file
    return _run(["plan", "--", rel], checked, no_redact=no_redact, git=git,
                slug=paths.build_slug(paths.plan_slug_source(rel)), report_dir=report_dir,
                extras=extras)


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


# --------------------------------------------------------------------------- #
# council code-review: the six-reviewer flow (core: council_filters.codereview).
# --------------------------------------------------------------------------- #
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
app.add_typer(code_review, name="code-review")

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
    _path, table = _commands(config_file, root, trust)
    names = config.reviewer_names(table)
    origins = setup.origin_map(table, names, reviewer)
    commands = {n: table[n] for n in names}
    env = {k: v for k, v in os.environ.items() if not k.startswith("COUNCIL_CMD_")}
    for name in names:  # COUNCIL_CMD_<NAME> overrides one reviewer's command, as elsewhere
        override = os.environ.get(f"COUNCIL_CMD_{name.upper().replace('-', '_')}")
        if override:
            commands[name] = override
    caller = ask.Caller(ask.limits(os.environ, str(root), _cr_say), env)
    refs = references.load_all(references.search_path(refs_dir, os.environ))
    return review.Reviewers(origins, commands, caller, refs), setup.corrector(table)


def _cr_root(directory: str | None) -> Path:
    start = directory or _STATE["dir"] or "."
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


def _cr_pick(state_file: str) -> tuple[bool, list[str], list[str]]:
    """The interactive picker: the open findings, then one line of IDs, severities or all."""
    st = session.Session(state_file).load()
    open_ = [f for f in st["findings"] if f["status"] == "open"]
    err = kit.streams().stderr
    for f in open_:
        where = f"{f.get('file') or '-'}:{f.get('line') or '-'}"
        title = " ".join(str(f.get("subject") or f.get("summary") or "").split())[:90]
        err.write(f"  {f['id']:<9} {str(f.get('severity') or '-'):<9} {where:<30} {title}\n")
    err.write("accept which? IDs, severities/categories (critical,security), 'all' or"
              " nothing to dismiss every one: ")
    err.flush()
    answer = sys.stdin.readline().strip()
    if answer.lower() == "all":
        return True, [], []
    words = answer.replace(",", " ").split()
    ids = [w for w in words if origins.is_id_token(w) and any(
        f["id"] == w for f in st["findings"])]
    levels = [w for w in words if w not in ids]
    return False, levels, ids


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
    sess = session.Session(state)
    chosen_ids = list(ids or [])
    levels = [severity] if severity else []
    if none and (chosen_ids or levels or all_):
        raise kit.UsageError("--none cannot be combined with a selection")
    if not (chosen_ids or levels or all_ or none):
        if not sys.stdin.isatty():
            raise kit.UsageError("accept: give IDS, --severity LIST, --all or --none")
        all_, levels, chosen_ids = _cr_pick(state)
        if not (all_ or levels or chosen_ids):
            none = True
    before = {f["id"]: f["status"] for f in sess.load()["findings"]}
    if none:
        result = sess.transact(lambda st: machine.accept(st, machine.Selection(ids=()),
                                                         session.now()))
    else:
        def mutate(st: machine.State) -> machine.Result:
            sel = machine.parse_selection(st, all_=all_, severities=levels, ids=chosen_ids)
            return machine.accept(st, sel, session.now())
        result = sess.transact(mutate)
    after = {f["id"]: f["status"] for f in result.state["findings"]}
    accepted = [i for i, s in after.items() if s == "accepted" and before.get(i) == "open"]
    dismissed = [i for i, s in after.items() if s == "dismissed" and before.get(i) == "open"]
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


main = kit.main_for(app, PROG)


def entry() -> None:
    kit.entry(main)


if __name__ == "__main__":
    entry()
