"""council-pack's modes: the packs of one run, from the repository to the records.

:func:`meta` checks the run's reviewers and id; :func:`plan`, :func:`text` (``question``
and ``debug``) and :func:`review` gather what a mode shows and build its context under
the caps (:class:`Built`); :func:`emit` writes one ``kind:"reviewer"`` record per
reviewer, the pack in its file form for a pack-as-file reviewer.
"""

from __future__ import annotations

import dataclasses
import os
import re
import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, BinaryIO

from council_filters.base import paths as pathrules
from council_filters.base import vocab
from council_filters.base.errors import DataError, UsageError
from council_filters.base.jsonl import Record, RecordWriter, read_all
from council_filters.base.settings import COUNCIL_PATH_CHAR_CAP, COUNCIL_PATH_MAX_FILES
from council_filters.pack import core, gather
from council_filters.pack.git import GitRepo, check_ref

# --scope: what the base and the head of a review are, for the revisions header.
SCOPE_NOTES = {
    "base": ("", "the branch's last commit"),
    "worktree": ("HEAD", "a snapshot of HEAD plus every uncommitted change"),
    "staged": ("HEAD", "a snapshot of HEAD plus the staged changes"),
    "commit": ("the commit's first parent", "the commit under review"),
}

RUN_ID_RE = re.compile(r"\A[A-Za-z0-9][A-Za-z0-9._-]{0,63}\Z")


@dataclass(frozen=True)
class RunMeta:
    run: str
    reviewers: tuple[str, ...]
    file_reviewers: frozenset[str]


def _names(value: str, what: str) -> tuple[str, ...]:
    names = tuple(n.strip() for n in value.split(",") if n.strip())
    for n in names:
        if not vocab.is_name(n):
            raise UsageError(
                f"{what}: names must match [a-z0-9][a-z0-9_-]*, up to 32 characters"
            )
    if len(set(names)) != len(names):
        raise UsageError(f"{what}: a reviewer is named twice")
    return names


def _run_id(option: str | None, env: Mapping[str, str]) -> str:
    value = option if option is not None else env.get("COUNCIL_RUN_ID", "")
    if value:
        if not RUN_ID_RE.match(value):
            raise UsageError(
                "run id must match [A-Za-z0-9][A-Za-z0-9._-]*, up to 64 characters"
            )
        return value
    return time.strftime("%Y%m%dT%H%M%SZ", time.gmtime()) + "-" + secrets.token_hex(4)


def meta(reviewers: str, file_reviewers: str, run_id: str | None,
         env: Mapping[str, str]) -> RunMeta:
    """The run's id (``--run-id``, else $COUNCIL_RUN_ID, else a fresh one) and reviewers."""
    names = _names(reviewers, "--reviewers")
    if not names:
        raise UsageError("--reviewers: at least one reviewer is needed")
    return RunMeta(_run_id(run_id, env), names,
                   frozenset(_names(file_reviewers, "--file-reviewers")))


@dataclass(frozen=True)
class Built:
    """One mode's context under the caps, what was cut, and what names the run."""

    mode: str
    slug: str
    base_ref: str | None
    context: str
    omitted: core.Omitted
    numbered: bool = False


def emit(run: RunMeta, built: Built, stdout: BinaryIO) -> None:
    """One ``kind:"reviewer"`` record per reviewer, in order."""
    if not vocab.is_slug(built.slug):  # only a --slug can fail: the slug rule always makes one
        raise UsageError("--slug must be [a-z0-9] words joined by single dashes")
    writer = RecordWriter(stdout)
    omitted = built.omitted
    for reviewer in run.reviewers:
        pack = core.envelope(vocab.display_name(reviewer), built.mode, built.context,
                             built.numbered)
        record: Record = {
            "kind": "reviewer",
            "run": run.run,
            "mode": built.mode,
            "slug": built.slug,
            "base_ref": built.base_ref,
            "reviewer": reviewer,
        }
        token = None
        if reviewer in run.file_reviewers:
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


def _display_names(run: RunMeta) -> list[str]:
    return [vocab.display_name(r) for r in run.reviewers]


def _fit(build: Callable[..., tuple[str, core.Omitted]], *args: Any) -> tuple[str, core.Omitted]:
    try:
        return build(*args)
    except core.PackTooLarge as exc:
        raise DataError(str(exc)) from None


def text_arg(words: Sequence[str], what: str, stdin: BinaryIO) -> bytes:
    """The mode's text: the words joined, or stdin for ``-``."""
    if list(words) == ["-"]:
        data = stdin.read()
        return data.rstrip(b"\n")
    text = " ".join(words)
    if not text.strip():
        raise DataError(f"{what} is empty")
    return text.encode("utf-8", "surrogateescape")


def plan(git: GitRepo, run: RunMeta, words: Sequence[str], *, as_text: bool, slug: str | None,
         conventions: str, upstream: bool, stdin: BinaryIO) -> Built:
    """A planning document in the repository (shown numbered), or free text."""
    arg = " ".join(words)
    path = git.root / arg
    if not as_text and arg != "-" and arg and os.path.lexists(path):
        doc = gather.read_work_file(git.root, arg, core.PACK_CEILING * 2)
        text, source = doc.content, pathrules.plan_slug_source(arg)
        from_file = True
    else:
        from_file = False
        text = text_arg(words, "plan text", stdin)
        source = pathrules.text_slug_source(text.decode("utf-8", "surrogateescape"))
    numbered = not upstream and from_file
    inp = core.TextInput("plan", text, conventions=gather.conventions(git.root, conventions),
                         numbered=numbered)
    context, omitted = _fit(core.build_text, inp, _display_names(run))
    return Built("plan", slug or pathrules.build_slug(source), None, context, omitted, numbered)


def text(mode: str, git: GitRepo, run: RunMeta, words: Sequence[str], *, paths: str | None,
         slug: str | None, conventions: str, upstream: bool, stdin: BinaryIO,
         env: Mapping[str, str], warn: Callable[[str], None]) -> Built:
    """``question`` or ``debug``: the text, the files it cites (``debug``: and their history)."""
    body = text_arg(words, f"{mode} text", stdin)
    cap = COUNCIL_PATH_CHAR_CAP.from_env(env, warn)
    limit = COUNCIL_PATH_MAX_FILES.from_env(env, warn)
    files = gather.path_list(paths, git.root, cap, limit)
    cap = COUNCIL_PATH_CHAR_CAP.from_env(env, lambda _m: None)
    history = [(f.path, git.log_oneline(f.path)) for f in files] if mode == "debug" else []
    inp = core.TextInput(
        mode,
        body,
        files=files,
        history=history,
        conventions=gather.conventions(git.root, conventions),
        file_cap=cap,
        numbered=not upstream,
    )
    context, omitted = _fit(core.build_text, inp, _display_names(run))
    source = pathrules.text_slug_source(body.decode("utf-8", "surrogateescape"))
    return Built(mode, slug or pathrules.build_slug(source), None, context, omitted,
                 not upstream)


def check_review(scope_kind: str, base_name: str | None) -> None:
    """The review options checked before the run's reviewers."""
    if scope_kind not in SCOPE_NOTES:
        raise UsageError("--scope must be base, worktree, staged or commit")
    if base_name is not None:
        check_ref(base_name)


def review(git: GitRepo, run: RunMeta, *, base: str | None, head: str, scope_kind: str,
           base_name: str | None, max_diff_bytes: int, max_diff_lines: int | None,
           slug: str | None, upstream: bool, warn: Callable[[str], None]) -> Built:
    """HEAD (or ``head``) against its merge base with ``base``, under the diff caps."""
    if head != "HEAD":
        check_ref(head)
        if not git.verify_commit(head):
            raise DataError(f'--head "{head}" is not a commit')
        git.head = head
    sha = gather.resolve_base(git, base, warn)
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
        raise DataError(f"diff against {sha} is empty — refusing to fan out")
    limits = core.DiffLimits(
        trigger=max_diff_bytes,
        cap=max_diff_bytes,
        lines=max_diff_lines or core.DIFF_LINE_CAP,
        by_lines=max_diff_lines is not None,
    )
    context, omitted = _fit(core.build_review, inp, _display_names(run), limits)
    name = slug or pathrules.build_slug(git.branch_name().encode("utf-8", "surrogateescape"))
    return Built("review", name, sha, context, omitted, not upstream)


def repo_at(repo: str | None) -> GitRepo:
    """The repository ``--repo`` names, else the one around the current directory."""
    return GitRepo.discover(repo if repo is not None else ".")


def truncate(base: str | None, stat_file: str | None, repo: str | None,
             limits: core.DiffLimits, stdin: BinaryIO) -> bytes:
    """``truncate-diff``: the diff of BASE...HEAD, or the one on stdin (with the stat text
    of ``stat_file``), cut as the reference council's review block cuts it."""
    if base is None:
        # Read now, so a missing --stat-file is a usage error even when the diff fits.
        stat_text = read_all([stat_file], stdin) if stat_file else b""
        diff = stdin.read()

        def stat() -> bytes:
            return stat_text

        label = "stdin"
    else:
        if base == "" or "<" in base or ">" in base:
            raise DataError(f"BASE was not substituted (got: {base})")
        check_ref(base)
        git = repo_at(repo)
        if not git.verify_commit(base):
            raise DataError(f"BASE does not resolve to a commit: {base}")
        diff = git.diff(base)

        def stat() -> bytes:
            return git.diff_stat(base)

        label = base
    if not diff:
        raise DataError(f"diff against {label} is empty — refusing to fan out")
    text, _ = core.truncate_diff(diff, stat, limits)
    return text
