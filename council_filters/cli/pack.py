"""council-pack: build one prompt pack per reviewer from a git repository.

Thin shell: argv, streams and exit codes.  Gathering from git and the work tree
lives in ``council_filters.pack.gather``, the templates and caps in
``council_filters.pack.core``, slug / report path / path checks in
``council_filters.base.paths``.
"""

from __future__ import annotations

import dataclasses
import os
import re
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass

import typer

from council_filters.base import paths as pathrules
from council_filters.base import vocab
from council_filters.base.settings import COUNCIL_PATH_CHAR_CAP, COUNCIL_PATH_MAX_FILES
from council_filters.cli import _shell as kit
from council_filters.pack import core, gather
from council_filters.pack.git import GitRepo, check_ref

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

# --scope: what the base and the head of a review are, for the revisions header.
SCOPE_NOTES = {
    "base": ("", "the branch's last commit"),
    "worktree": ("HEAD", "a snapshot of HEAD plus every uncommitted change"),
    "staged": ("HEAD", "a snapshot of HEAD plus the staged changes"),
    "commit": ("the commit's first parent", "the commit under review"),
}

RUN_ID_RE = re.compile(r"\A[A-Za-z0-9][A-Za-z0-9._-]{0,63}\Z")


@app.callback()
def _main(
    version: bool = kit.version_option(),
) -> None:
    """Build council prompt packs."""


# --------------------------------------------------------------------------- #
# Shared options.
# --------------------------------------------------------------------------- #
REPO = typer.Option(
    None,
    "--repo",
    metavar="DIR",
    help="Repository to read (default: the one around the current directory).",
)
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


@dataclass(frozen=True)
class RunMeta:
    run: str
    reviewers: tuple[str, ...]
    file_reviewers: frozenset[str]


def _names(value: str, what: str) -> tuple[str, ...]:
    names = tuple(n.strip() for n in value.split(",") if n.strip())
    for n in names:
        if not vocab.is_name(n):
            raise kit.UsageError(
                f"{what}: names must match [a-z0-9][a-z0-9_-]*, up to 32 characters"
            )
    if len(set(names)) != len(names):
        raise kit.UsageError(f"{what}: a reviewer is named twice")
    return names


def _run_id(option: str | None) -> str:
    value = option if option is not None else os.environ.get("COUNCIL_RUN_ID", "")
    if value:
        if not RUN_ID_RE.match(value):
            raise kit.UsageError(
                "run id must match [A-Za-z0-9][A-Za-z0-9._-]*, up to 64 characters"
            )
        return value
    return time.strftime("%Y%m%dT%H%M%SZ", time.gmtime()) + "-" + secrets.token_hex(4)


def _meta(reviewers: str, file_reviewers: str, run_id: str | None) -> RunMeta:
    names = _names(reviewers, "--reviewers")
    if not names:
        raise kit.UsageError("--reviewers: at least one reviewer is needed")
    return RunMeta(_run_id(run_id), names, frozenset(_names(file_reviewers, "--file-reviewers")))


def _emit(
    meta: RunMeta, mode: str, slug: str, base_ref: str | None, context: str, omitted: core.Omitted,
    numbered: bool = False,
) -> int:
    if not vocab.is_slug(slug):  # only a --slug can fail: the slug rule always makes one
        raise kit.UsageError("--slug must be [a-z0-9] words joined by single dashes")
    writer = kit.RecordWriter(kit.streams().stdout)
    for reviewer in meta.reviewers:
        pack = core.envelope(vocab.display_name(reviewer), mode, context, numbered)
        record: kit.Record = {
            "kind": "reviewer",
            "run": meta.run,
            "mode": mode,
            "slug": slug,
            "base_ref": base_ref,
            "reviewer": reviewer,
        }
        token = None
        if reviewer in meta.file_reviewers:
            token = secrets.token_hex(8)
            pack = core.file_form(pack, token)
        record["pack"] = pack
        record["pack_bytes"] = len(pack.encode())
        if token is not None:
            record["ingest_token"] = token
        record["omitted"] = omitted.as_record()
        if omitted.coverage is not None:
            record["coverage"] = omitted.coverage
        writer.write(record)
    return kit.EXIT_OK


def _repo(repo: str | None) -> GitRepo:
    return GitRepo.discover(repo if repo is not None else ".")


def _display_names(meta: RunMeta) -> list[str]:
    return [vocab.display_name(r) for r in meta.reviewers]


def _fit(build, *args):  # type: ignore[no-untyped-def]
    try:
        return build(*args)
    except core.PackTooLarge as exc:
        raise kit.DataError(str(exc)) from None


def _text_arg(words: Sequence[str], what: str) -> bytes:
    if list(words) == ["-"]:
        data = kit.streams().stdin.read()
        return data.rstrip(b"\n")
    text = " ".join(words)
    if not text.strip():
        raise kit.DataError(f"{what} is empty")
    return text.encode("utf-8", "surrogateescape")


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
    meta = _meta(reviewers, file_reviewers, run_id)
    git = _repo(repo)
    arg = " ".join(words)
    path = git.root / arg
    if not as_text and arg != "-" and arg and os.path.lexists(path):
        doc = gather.read_work_file(git.root, arg, core.PACK_CEILING * 2)
        text, source = doc.content, pathrules.plan_slug_source(arg)
        from_file = True
    else:
        from_file = False
        text = _text_arg(words, "plan text")
        source = pathrules.text_slug_source(text.decode("utf-8", "surrogateescape"))
    numbered = not upstream and from_file
    inp = core.TextInput("plan", text, conventions=gather.conventions(git.root, conventions),
                         numbered=numbered)
    context, omitted = _fit(core.build_text, inp, _display_names(meta))
    return _emit(meta, "plan", slug or pathrules.build_slug(source), None, context, omitted,
                 numbered)


def _text_mode(
    mode: str,
    words: Sequence[str],
    paths: str | None,
    repo: str | None,
    meta: RunMeta,
    slug: str | None,
    conventions: str = "",
    upstream: bool = False,
) -> int:
    git = _repo(repo)
    text = _text_arg(words, f"{mode} text")
    warn = kit.streams().warn
    cap = COUNCIL_PATH_CHAR_CAP.from_env(os.environ, warn)
    limit = COUNCIL_PATH_MAX_FILES.from_env(os.environ, warn)
    files = gather.path_list(paths, git.root, cap, limit)
    cap = COUNCIL_PATH_CHAR_CAP.from_env(os.environ, lambda _m: None)
    history = [(f.path, git.log_oneline(f.path)) for f in files] if mode == "debug" else []
    inp = core.TextInput(
        mode,
        text,
        files=files,
        history=history,
        conventions=gather.conventions(git.root, conventions),
        file_cap=cap,
        numbered=not upstream,
    )
    context, omitted = _fit(core.build_text, inp, _display_names(meta))
    source = pathrules.text_slug_source(text.decode("utf-8", "surrogateescape"))
    return _emit(meta, mode, slug or pathrules.build_slug(source), None, context, omitted,
                 not upstream)


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
    if scope_kind not in SCOPE_NOTES:
        raise kit.UsageError("--scope must be base, worktree, staged or commit")
    if base_name is not None:
        check_ref(base_name)
    meta = _meta(reviewers, file_reviewers, run_id)
    git = _repo(repo)
    if head != "HEAD":
        check_ref(head)
        if not git.verify_commit(head):
            raise kit.DataError(f'--head "{head}" is not a commit')
        git.head = head
    sha = gather.resolve_base(git, base, kit.streams().warn)
    inp = gather.changed_excerpts(git, sha)
    if not upstream:
        named = base_name or base or git.upstream() or "origin/main"
        base_note = (f"merge base of HEAD and {named}" if scope_kind == "base"
                     else SCOPE_NOTES[scope_kind][0])
        inp = dataclasses.replace(
            inp, numbered=True, head_ref=git.commit_sha(git.head), base_note=base_note,
            head_note=SCOPE_NOTES[scope_kind][1],
        )
    if not inp.diff:
        raise kit.DataError(f"diff against {sha} is empty — refusing to fan out")
    limits = core.DiffLimits(
        trigger=max_diff_bytes,
        cap=max_diff_bytes,
        lines=max_diff_lines or core.DIFF_LINE_CAP,
        by_lines=max_diff_lines is not None,
    )
    context, omitted = _fit(core.build_review, inp, _display_names(meta), limits)
    name = slug or pathrules.build_slug(git.branch_name().encode("utf-8", "surrogateescape"))
    return _emit(meta, "review", name, sha, context, omitted, not upstream)


# --------------------------------------------------------------------------- #
# Building blocks.
# --------------------------------------------------------------------------- #
@app.command("slug")
def slug_cmd(
    text: str | None = typer.Argument(
        None, help="Text to slug (default: stdin, trailing newlines dropped)."
    ),
) -> int:
    """Print the slug of TEXT (upstream build_slug, byte for byte, with the hash fallback)."""
    s = kit.streams()
    raw = s.stdin.read().rstrip(b"\n") if text is None else text.encode("utf-8", "surrogateescape")
    s.stdout.write(pathrules.build_slug(raw).encode() + b"\n")
    return kit.EXIT_OK


@app.command("report-path")
def report_path_cmd(
    mode: str = typer.Argument(..., help="plan, review, debug or question."),
    slug: str | None = typer.Argument(None, help="The slug (default: read from stdin)."),
    date: str | None = typer.Option(
        None, "--date", metavar="YYYY-MM-DD", help="Date to use (default: today, local time)."
    ),
    root: str = typer.Option(
        ".", "--root", metavar="DIR", help="Directory the collision check is relative to."
    ),
) -> int:
    """Print the first free docs/council/<date>-<mode>-<slug>[-N].md (N = 2..10)."""
    s = kit.streams()
    if mode not in vocab.MODES:
        raise kit.UsageError(f'unknown mode "{mode}" (valid modes: plan, review, debug, question)')
    if slug is None:
        slug = s.stdin.read().decode("utf-8", "replace").strip("\n")
    if not vocab.is_slug(slug):
        raise kit.DataError("slug must match ^[a-z0-9]+(-[a-z0-9]+)*$")
    s.stdout.write(pathrules.report_path(root, mode, slug, date).encode() + b"\n")
    return kit.EXIT_OK


@app.command("validate-path")
def validate_path_cmd(
    paths: list[str] = typer.Argument(
        None, metavar="PATH...", help="Paths to check (default: one per line on stdin)."
    ),
    hardened: bool = typer.Option(
        False,
        "--hardened",
        help="Also refuse newline/NUL, symlinked parents, non-regular files and paths"
        " resolving outside --root. Default: off (the five upstream checks).",
    ),
    root: str = typer.Option(
        ".", "--root", metavar="DIR", help="Directory the paths are relative to."
    ),
) -> int:
    """Check paths with the five upstream checks; print those that pass, stop at a failure."""
    s = kit.streams()
    if paths:
        items = list(paths)
        source = None
    else:
        items = [os.fsdecode(line.removesuffix(b"\n")) for line in kit.iter_lines(s.stdin)]
        source = kit.STDIN_NAME
    for i, p in enumerate(items, start=1):
        try:
            pathrules.validate_path(p, root, hardened=hardened)
        except pathrules.PathRefused as err:
            raise err.located(source, i if source else None) from None
        s.stdout.write(os.fsencode(p) + b"\n")
    return kit.EXIT_OK


@app.command("truncate-diff")
def truncate_diff_cmd(
    base: str | None = typer.Option(
        None,
        "--base",
        metavar="REF",
        help="Diff REF...HEAD with git (default: read a diff from stdin).",
    ),
    stat_file: str | None = typer.Option(
        None,
        "--stat-file",
        metavar="FILE",
        help="With a diff on stdin: the `git diff --stat` text for the header (default: none).",
    ),
    repo: str | None = REPO,
    byte_cap: int = typer.Option(
        core.DIFF_BODY_CAP, "--byte-cap", min=1, help="Trigger and body cap in bytes."
    ),
    line_cap: int = typer.Option(core.DIFF_LINE_CAP, "--line-cap", min=1, help="Body line cap."),
    stat_cap: int = typer.Option(core.STAT_CAP, "--stat-cap", min=0, help="Stat byte cap."),
) -> int:
    """Print the review-mode diff exactly as the upstream block emits it."""
    s = kit.streams()
    limits = core.DiffLimits(byte_cap, byte_cap, line_cap, stat_cap)
    if base is None:
        # Read now, so a missing --stat-file is a usage error even when the diff fits.
        stat_text = kit.read_all([stat_file], s.stdin) if stat_file else b""
        diff = s.stdin.read()

        def stat() -> bytes:
            return stat_text

        label = "stdin"
    else:
        if base == "" or "<" in base or ">" in base:
            raise kit.DataError(f"BASE was not substituted (got: {base})")
        check_ref(base)
        git = _repo(repo)
        if not git.verify_commit(base):
            raise kit.DataError(f"BASE does not resolve to a commit: {base}")
        diff = git.diff(base)

        def stat() -> bytes:
            return git.diff_stat(base)

        label = base
    if not diff:
        raise kit.DataError(f"diff against {label} is empty — refusing to fan out")
    text, _ = core.truncate_diff(diff, stat, limits)
    s.stdout.write(text)
    return kit.EXIT_OK


main = kit.main_for(app, "council-pack")


def entry() -> None:
    kit.entry(main)


if __name__ == "__main__":
    entry()
