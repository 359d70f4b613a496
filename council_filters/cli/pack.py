"""council-pack: build one prompt pack per reviewer from a git repository.

Thin shell: argv, streams and exit codes.  The modes live in
``council_filters.pack.modes``, gathering from git and the work tree in
``council_filters.pack.gather``, the templates and caps in
``council_filters.pack.core``, slug / report path / path checks in
``council_filters.base.paths``.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

import typer

from council_filters.base import vocab
from council_filters.cli import _shell as kit
from council_filters.cli._pack_blocks import REPO, register
from council_filters.pack import core, modes
from council_filters.pack.git import GitRepo

HELP = """Build the prompt packs of a council run, one JSON record per reviewer.

Like the pack-assembly step of the upstream /council command, run by a program:
the same envelope and per-mode sections, the byte-exact diff truncation (60000
bytes, 200 lines, 4000-byte stat), 4000-byte changed-file excerpts within 30000
bytes, and a measured 100000-byte ceiling per pack.  Modes: plan, review, debug,
question.  Building blocks, each a plain filter: slug, report-path,
validate-path, truncate-diff.  Run inside a git repository (or --repo DIR)."""

EPILOG = (
    """Records: {"kind":"reviewer","run","mode","slug","base_ref","reviewer","pack",
"pack_bytes",["ingest_token",]"omitted"[,"coverage"]} -- one per reviewer, in --reviewers order.

Environment: COUNCIL_RUN_ID (run id), COUNCIL_PATH_CHAR_CAP (8000),
COUNCIL_PATH_MAX_FILES (3).

"""
    + kit.exit_code_table()
    + """

Examples:

\b
  council-pack review --base origin/main | council-dispatch | council-redact --jsonl
  council-pack debug "TypeError in login" --paths src/auth.ts,src/api.ts
  council-pack plan docs/plans/cache.md --reviewers claude,gemini
  council-pack slug "What is 2+2?"                # what-is-2-2
  council-pack report-path review feat-x --date 2026-01-02
  git ls-files | council-pack validate-path --hardened
  council-pack truncate-diff --base main | head"""
)

app = kit.make_app(HELP, EPILOG, no_args_is_help=True)

@app.callback()
def _main(
    version: bool = kit.version_option(),
) -> None:
    """Build council prompt packs."""


# --------------------------------------------------------------------------- #
# Shared options.
# --------------------------------------------------------------------------- #
REVIEWERS = typer.Option(
    ",".join(vocab.SLOTS),
    "--reviewers",
    metavar="A,B",
    help="Comma-separated reviewer slots; any lower-case names are accepted.",
)
FILE_REVIEWERS = typer.Option(
    ",".join(vocab.FILE_REVIEWERS),
    "--file-reviewers",
    metavar="A,B",
    help="Reviewers that read the pack from a file: their pack ends with an INGEST_TOKEN line.",
)
RUN_ID = typer.Option(
    None,
    "--run-id",
    metavar="ID",
    help="Run id (default: $COUNCIL_RUN_ID, else <UTC time>-<8 hex>).",
)
SLUG = typer.Option(
    None, "--slug", metavar="SLUG",
    help="Use this slug (default: derived from the text, the file name or the branch).",
)
CONVENTIONS = typer.Option(
    "CLAUDE.md",
    "--conventions",
    metavar="PATH",
    help="Repo conventions file for plan/question (relative to the repo; '' for none).",
)
PATHS = typer.Option(
    None, "--paths", metavar="A,B",
    help="Comma-separated files to include (validated, capped; default: none).",
)
UPSTREAM = typer.Option(
    False, "--upstream",
    help="Upstream's exact pack: no line numbers, no anchorable ranges, no revisions"
    " header, upstream's rules. Default: off (numbered excerpts).",
)


def _repo(repo: str | None) -> GitRepo:
    return modes.repo_at(repo)


def _meta(reviewers: str, file_reviewers: str, run_id: str | None) -> modes.RunMeta:
    return modes.meta(reviewers, file_reviewers, run_id, os.environ)


def _emit(run: modes.RunMeta, built: modes.Built) -> int:
    modes.emit(run, built, kit.streams().stdout)
    return kit.EXIT_OK


# --------------------------------------------------------------------------- #
# Modes.
# --------------------------------------------------------------------------- #
@app.command("plan")
def plan_cmd(
    words: list[str] = typer.Argument(
        ...,
        metavar="PATH-OR-TEXT...",
        help="A planning document in the repo, or free text ('-' reads stdin).",
    ),
    as_text: bool = typer.Option(
        False, "--text",
        help="Treat the argument as text even if a file of that name exists. Default: off.",
    ),
    repo: str | None = REPO,
    reviewers: str = REVIEWERS,
    file_reviewers: str = FILE_REVIEWERS,
    run_id: str | None = RUN_ID,
    slug: str | None = SLUG,
    conventions: str = CONVENTIONS,
    upstream: bool = UPSTREAM,
) -> int:
    """Council on a planning document (a file in the repository) or a design proposal (text)."""
    run = _meta(reviewers, file_reviewers, run_id)
    built = modes.plan(_repo(repo), run, words, as_text=as_text, slug=slug,
                       conventions=conventions, upstream=upstream, stdin=kit.streams().stdin)
    return _emit(run, built)


def _text_mode(
    mode: str,
    words: Sequence[str],
    paths: str | None,
    repo: str | None,
    run: modes.RunMeta,
    slug: str | None,
    conventions: str = "",
    upstream: bool = False,
) -> int:
    git = _repo(repo)
    s = kit.streams()
    return _emit(run, modes.text(mode, git, run, words, paths=paths, slug=slug,
                                 conventions=conventions, upstream=upstream, stdin=s.stdin,
                                 env=os.environ, warn=s.warn))


@app.command("debug")
def debug_cmd(
    words: list[str] = typer.Argument(
        ..., metavar="SYMPTOM", help="The symptom ('-' reads stdin)."
    ),
    paths: str | None = PATHS,
    repo: str | None = REPO,
    reviewers: str = REVIEWERS,
    file_reviewers: str = FILE_REVIEWERS,
    run_id: str | None = RUN_ID,
    slug: str | None = SLUG,
    upstream: bool = UPSTREAM,
) -> int:
    """Council on a debug investigation: symptom, cited files, their recent history."""
    meta = _meta(reviewers, file_reviewers, run_id)
    return _text_mode("debug", words, paths, repo, meta, slug, upstream=upstream)


@app.command("question")
def question_cmd(
    words: list[str] = typer.Argument(..., metavar="TEXT", help="The question ('-' reads stdin)."),
    paths: str | None = PATHS,
    repo: str | None = REPO,
    reviewers: str = REVIEWERS,
    file_reviewers: str = FILE_REVIEWERS,
    run_id: str | None = RUN_ID,
    slug: str | None = SLUG,
    conventions: str = CONVENTIONS,
    upstream: bool = UPSTREAM,
) -> int:
    """Open-ended council consultation, with optional referenced files."""
    meta = _meta(reviewers, file_reviewers, run_id)
    return _text_mode("question", words, paths, repo, meta, slug, conventions, upstream)


@app.command("review")
def review_cmd(
    base: str | None = typer.Option(
        None,
        "--base",
        metavar="REF",
        help="Review HEAD against its merge base with REF (default: the upstream-tracking"
        " branch, else origin/main).",
    ),
    head: str = typer.Option(
        "HEAD",
        "--head",
        metavar="REV",
        help="The commit under review (default: HEAD); `council review --worktree/--staged`"
        " passes a snapshot commit of the uncommitted changes here.",
    ),
    max_diff_lines: int | None = typer.Option(
        None,
        "--max-diff-lines",
        min=1,
        metavar="N",
        help=f"Keep at most N diff lines, and cut any diff longer than N lines (default:"
        f" {core.DIFF_LINE_CAP} lines, applied only when the diff is over --max-diff-bytes).",
    ),
    max_diff_bytes: int = typer.Option(
        core.DIFF_BODY_CAP,
        "--max-diff-bytes",
        min=1,
        metavar="BYTES",
        help="Cut a diff over BYTES to its stat and first lines (default: 60000).",
    ),
    repo: str | None = REPO,
    reviewers: str = REVIEWERS,
    file_reviewers: str = FILE_REVIEWERS,
    run_id: str | None = RUN_ID,
    slug: str | None = SLUG,
    scope_kind: str = typer.Option(
        "base", "--scope", metavar="base|worktree|staged|commit",
        help="What --head is, for the pack's revisions header: a branch (base), a snapshot"
        " of the work tree or of the index on top of HEAD, or one commit. Default: base.",
    ),
    base_name: str | None = typer.Option(
        None, "--base-name", metavar="REF",
        help="The name the base was given (shown beside the merge base; default: --base).",
    ),
    upstream: bool = UPSTREAM,
) -> int:
    """Council on the current change: HEAD (or --head) against its merge base."""
    modes.check_review(scope_kind, base_name)
    run = _meta(reviewers, file_reviewers, run_id)
    built = modes.review(_repo(repo), run, base=base, head=head, scope_kind=scope_kind,
                         base_name=base_name, max_diff_bytes=max_diff_bytes,
                         max_diff_lines=max_diff_lines, slug=slug, upstream=upstream,
                         warn=kit.streams().warn)
    return _emit(run, built)


register(app)

main = kit.main_for(app, "council-pack")


def entry() -> None:
    kit.entry(main)


if __name__ == "__main__":
    entry()
