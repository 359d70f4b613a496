"""Prompt packs: the envelope, the per-mode sections, diff truncation and the caps.

A pure core over bytes: the caller (``council_filters.cli.pack``) gathers the
inputs from git and the work tree and hands them here as values.

Byte-exact parts (the upstream review-mode diff block, run under ``LC_ALL=C``):

* :func:`truncate_diff` -- a diff over 60000 bytes becomes ``### git diff
  --stat`` (stat lines while the running total of ``len+1`` stays <= 4000),
  ``### Raw diff (first 200 lines of N total)``, the first 200 lines cut at
  60000 bytes (a line longer than what is left is cut inside, with the UTF-8
  lead-byte back-off), and the ``[... truncated — ...]`` marker.

Everything else follows the upstream templates, with the choices the spec
left open written down in ``docs/pack.md``.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from council_filters.base import diffranges, diffs
from council_filters.base.bytesops import (
    code_fence,
    head_lines,
    line_count,
    lines_of,
    utf8_backoff,
    utf8_cut,
)
from council_filters.base.vocab import INGEST_PREFIX
from council_filters.pack import coverage

# --------------------------------------------------------------------------- #
# Limits (bytes).
# --------------------------------------------------------------------------- #
DIFF_TRIGGER = 60000
DIFF_BODY_CAP = 60000
DIFF_LINE_CAP = 200
STAT_CAP = 4000
EXCERPT_CAP = 4000
EXCERPTS_TOTAL = 30000
CONVENTIONS_CAP = 4000
PACK_CEILING = 100000
RECUT_MARGIN = 1000


# --------------------------------------------------------------------------- #
# Diff truncation (awk semantics under LC_ALL=C).
# --------------------------------------------------------------------------- #
def cap_stat(stat: bytes, cap: int = STAT_CAP) -> bytes:
    """Stat lines while the running total of ``len(line)+1`` stays within ``cap``."""
    out = []
    n = 0
    for line in lines_of(stat):
        n += len(line) + 1
        if n > cap:
            break
        out.append(line + b"\n")
    return b"".join(out)


def cap_body(diff: bytes, cap: int = DIFF_BODY_CAP, max_lines: int = DIFF_LINE_CAP,
             whole_lines: bool = False) -> bytes:
    """The first ``max_lines`` lines within ``cap`` bytes; an oversized line is cut inside
    (upstream's cut), or with ``whole_lines`` left out: a line cut before the redaction
    sees it whole could carry half a credential the rules no longer recognise (a URL's
    password cut before its ``@``)."""
    out = []
    n = 0
    for line in head_lines(diff, max_lines):
        if n >= cap:
            break
        remaining = cap - n
        linelen = len(line) + 1
        if linelen > remaining:
            if whole_lines:
                break
            cut = utf8_backoff(line[:remaining])
            if cut:
                out.append(cut + b"\n")
            break
        n += linelen
        out.append(line + b"\n")
    return b"".join(out)


@dataclass(frozen=True)
class DiffLimits:
    trigger: int = DIFF_TRIGGER
    cap: int = DIFF_BODY_CAP
    lines: int = DIFF_LINE_CAP
    stat_cap: int = STAT_CAP
    by_lines: bool = False  # also cut a diff of more than `lines` lines, whatever its size
    whole_lines: bool = False  # never cut inside a line (every pack but the upstream one)


def _over(diff: bytes, limits: DiffLimits) -> bool:
    """Whether :func:`truncate_diff` cuts ``diff`` under ``limits``."""
    return len(diff) > limits.trigger or (limits.by_lines and diff.count(b"\n") > limits.lines)


def truncate_diff(
    diff: bytes, stat: Callable[[], bytes], limits: DiffLimits = DiffLimits(),
    shown: Callable[[int | None], bytes] | None = None,
) -> tuple[bytes, bool]:
    """The review-mode diff as upstream emits it, and whether it was truncated.

    ``stat`` is called only when the diff is over the trigger.  ``shown(max_lines)``
    gives the text to show in place of the diff's own lines (a numbered pack's;
    ``None``: every line); the trigger and the totals are always the diff's own.
    """
    size = len(diff)
    if not _over(diff, limits):
        return (diff if shown is None else shown(None)), False
    body = diff if shown is None else shown(limits.lines)
    text = b"".join(
        (
            b"### git diff --stat\n\n",
            cap_stat(stat(), limits.stat_cap),
            b"\n### Raw diff (first %d lines of %d total)\n\n" % (limits.lines, diff.count(b"\n")),
            cap_body(body, limits.cap, limits.lines, limits.whole_lines),
            "\n[... truncated — full diff is %d bytes; showing at most the first %d lines and %d "
            "bytes ...]\n".encode()
            % (size, limits.lines, limits.cap),
        )
    )
    return text, True


def clean_text(data: bytes) -> str:
    """Bytes as pack text: invalid UTF-8 replaced, so a pack is always valid JSON text."""
    return data.decode("utf-8", "replace")


# --------------------------------------------------------------------------- #
# Markdown building blocks.
# --------------------------------------------------------------------------- #
def show_name(path: str) -> str:
    """A path for a heading: control characters escaped so it stays one line."""
    from council_filters.base.paths import show_path

    return show_path(path)


ENVELOPE_HEAD = (
    "You are {name}, a code reviewer performing an INDEPENDENT analysis.\n"
    "Do not reference what other reviewers might say. Only report findings you can\n"
    "cite with a file:line reference. Do not write any files; analyze only.\n"
    "\n"
    "## Task: {mode}\n"
)
ENVELOPE_TAIL = (
    "\n"
    "\n"
    "## Required Output Format\n"
    "Verdict: APPROVE | REVISE | REJECT\n"
    "Confidence: HIGH | MEDIUM | LOW\n"
    "Findings:\n"
    "- [P1|P2|P3] file:line — <80-char summary>\n"
    '  Evidence: "<exact quoted line from file>"\n'
    '[repeat per finding; if none: write "Findings: none"]\n'
    "Summary: <2-3 sentences in your own words>\n"
    "\n"
    "## Rules\n"
    "- P1 = security/correctness blocker; P2 = quality issue; P3 = style/nit\n"
    "- Cite file paths relative to repository root\n"
    '- If a finding has no quotable line (e.g., "missing function"), write '
    "`Evidence: N/A — <reason>`\n"
    "- The `Verdict:` line is required and must appear exactly as shown\n"
)


# What a numbered pack adds to the rules (the upstream pack has none of it).
NUMBERED_RULES = (
    "- Every line of code is shown with its line number beside it (`  12 | code`; in the\n"
    "  diff, the number of the line in the new version, and removed lines have none):\n"
    "  cite the number shown, never a count of your own\n"
    "- Quote evidence without the number and the `|` before the code\n"
    "- `\u2039redacted:TYPE\u203a` marks where a credential of that type was removed before\n"
    "  you saw it; the rest of the line is as written. A hardcoded credential is itself a\n"
    "  finding (P1): report it at the line shown\n"
)


def envelope(name: str, mode: str, context: str, numbered: bool = False) -> str:
    """The pack: the shared envelope around one mode's context block."""
    tail = ENVELOPE_TAIL + (NUMBERED_RULES if numbered else "")
    return ENVELOPE_HEAD.format(name=name, mode=mode) + context.rstrip("\n") + tail


def file_form(pack: str, token: str) -> str:
    """The pack as a reviewer reads it from a file: a blank line, then the token line."""
    return pack.rstrip("\n") + "\n\n" + INGEST_PREFIX + token + "\n"


# --------------------------------------------------------------------------- #
# Line numbers beside the code.
# --------------------------------------------------------------------------- #
GUTTER = b" |"  # between a line's number and its text


def number_lines(lines: Sequence[bytes], first: int = 1) -> bytes:
    """``lines`` with their numbers, from ``first``: ``  12 | text`` (right-aligned)."""
    width = len(str(first + len(lines) - 1)) if lines else 1
    return b"".join(
        b"%*d%s %s\n" % (width, first + i, GUTTER, line) for i, line in enumerate(lines)
    )


def number_diff(diff: bytes, max_lines: int | None = None) -> bytes:
    """A unified diff with each hunk line's new-side number beside it.

    ``  12 |+added``, ``  13 | context``, ``     |-removed``: the diff's own
    prefix stays the first byte after the gutter; headers and ``@@`` lines are
    left as they are.  ``max_lines``: only the first lines (what a cut diff shows).
    """
    walked = list(itertools.islice(diffs.walk(diff), max_lines))
    width = max((len(str(n)) for _k, n, _l in walked if n is not None), default=1)
    blank = b" " * width + GUTTER
    out = []
    for kind, number, line in walked:
        if kind in (diffs.META, diffs.HUNK):
            out.append(line + b"\n")
        elif number is None:
            out.append(blank + line + b"\n")
        else:
            out.append(b"%*d%s%s\n" % (width, number, GUTTER, line))
    return b"".join(out)


RANGES_CAP = 6000  # bytes of the anchorable-ranges block


def anchor_ranges(diff: bytes, cap: int = RANGES_CAP) -> str:
    """``path: new 12-34, 50-78 | old 12-34`` per file, within ``cap`` bytes."""
    out: list[str] = []
    used = 0
    listed = 0
    # Lazily, and without the lines' texts: a long diff is read only as far as listed.
    for f in diffs.iter_files(diff, texts=False):
        if not (f.new or f.old):
            continue
        line = diffranges.format_ranges(
            [diffranges.FileRanges(show_name(f.path), f.new, f.old)]
        ).decode("utf-8", "replace")
        if used + len(line.encode()) > cap:
            left = max(1, diff.count(b"\ndiff --git ") + diff.startswith(b"diff --git ")
                       - listed)
            out.append(f"[... {left} more {'file' if left == 1 else 'files'} not listed]\n")
            break
        used += len(line.encode())
        listed += 1
        out.append(line)
    return "".join(out)


# --------------------------------------------------------------------------- #
# Inputs the CLI gathers.
# --------------------------------------------------------------------------- #
@dataclass(frozen=True)
class Excerpt:
    """A file shown in a pack: its path, the bytes shown and its full size."""

    path: str
    content: bytes
    size: int

    def block(self, cap: int, numbered: bool = False) -> str:
        shown = utf8_cut(self.content, cap)
        if numbered:
            return self._numbered_block(shown)
        note = "" if len(shown) >= self.size else f" (first {len(shown)} of {self.size} bytes)"
        return f"#### {show_name(self.path)}{note}\n{code_fence(clean_text(shown))}"

    def _numbered_block(self, shown: bytes) -> str:
        cut = len(shown) < self.size
        if cut and b"\n" in shown:
            shown = shown[: shown.rindex(b"\n") + 1]  # whole lines only
        lines = lines_of(shown)
        note = ""
        if cut:
            note = f" (lines 1-{len(lines)}: the first {len(shown)} of {self.size} bytes)"
        body = number_lines(lines)
        return f"#### {show_name(self.path)}{note}\n{code_fence(clean_text(body))}"

    def shown_bytes(self, cap: int) -> int:
        return len(utf8_cut(self.content, cap))


@dataclass
class Omitted:
    """What was cut from a pack (the record's ``omitted`` field)."""

    diff_truncated: bool = False
    diff_bytes: int | None = None
    files: int = 0
    conventions: bool = False
    text_truncated: bool = False
    not_shown: list[dict[str, str]] = field(default_factory=list)
    # Review mode, when something was cut: how much of the change the pack shows.
    cut: dict[str, int] | None = None
    # Review mode: per changed file, how many of its changed lines the pack shows
    # (the record's ``coverage`` field, see ``pack/coverage.py``).
    coverage: list[dict[str, object]] | None = None

    def as_record(self) -> dict[str, object]:
        record: dict[str, object] = {
            "diff_truncated": self.diff_truncated,
            "diff_bytes": self.diff_bytes,
            "files": self.files,
            "conventions": self.conventions,
            "text_truncated": self.text_truncated,
            "not_shown": self.not_shown,
        }
        if self.cut is not None:
            record["cut"] = dict(self.cut)
        return record


class PackTooLarge(Exception):
    """The pack cannot be brought under the ceiling."""


def _omitted_line(count: int, total: int) -> str:
    noun = "file" if total == 1 else "files"
    return f"[{count} of {total} changed {noun} omitted to stay within the pack budget]"


def _not_shown_lines(not_shown: Sequence[dict[str, str]]) -> list[str]:
    return [f"[not shown: {show_name(e['path'])} ({e['reason']})]" for e in not_shown]


def _fit_count(fixed: int, sizes: Sequence[int], tail: Callable[[int], int], ceiling: int) -> int:
    """The largest k such that fixed + sum(sizes[:k]) + tail(k) <= ceiling (-1 if none)."""
    total = fixed + sum(sizes)
    for k in range(len(sizes), -1, -1):
        if total + tail(k) <= ceiling:
            return k
        if k:
            total -= sizes[k - 1]
    return -1


# --------------------------------------------------------------------------- #
# Review mode.
# --------------------------------------------------------------------------- #
@dataclass(frozen=True)
class ReviewInput:
    base_ref: str
    diff: bytes
    stat: Callable[[], bytes]
    excerpts: Sequence[Excerpt]  # text files in `git diff --name-only` order
    not_shown: Sequence[dict[str, str]] = ()
    changed_total: int = 0  # every changed path, shown or not
    numbered: bool = False  # line numbers, anchorable ranges, the revisions compared
    head_ref: str = "HEAD"  # the commit under review (a SHA when known)
    base_note: str = ""  # what the base is, e.g. "merge base of HEAD and main"
    head_note: str = ""  # what the head is, e.g. "HEAD plus every uncommitted change"


def select_excerpts(
    excerpts: Sequence[Excerpt], per_file: int = EXCERPT_CAP, total: int = EXCERPTS_TOTAL
) -> int:
    """How many excerpts, in order, fit the combined budget (stop at the first that does not)."""
    used = 0
    for i, ex in enumerate(excerpts):
        used += ex.shown_bytes(per_file)
        if used > total:
            return i
    return len(excerpts)


def review_context(
    diff_text: str, base_ref: str, blocks: Sequence[str], trailer: Sequence[str],
    head: ReviewInput | None = None, ranges: str = "",
) -> str:
    """The review context; with ``head`` (a numbered pack's input) the revisions compared
    come first and the anchorable ranges follow the diff."""
    if head is None:
        parts = [f"### Diff (HEAD vs {base_ref})\n{code_fence(diff_text, 'diff')}"]
    else:
        parts = [
            _revisions(head),
            f"### Diff (base {base_ref[:12]} vs head {head.head_ref[:12]})\n"
            + code_fence(diff_text, "diff"),
            "### Anchorable Line Ranges\n"
            "A finding's line must lie in one of these (new: the new version; old: removed"
            " lines' old numbers).\n" + code_fence(ranges or "(none)\n"),
        ]
    parts.append("### Changed Files")
    body = list(blocks) + list(trailer)
    if not body:
        body = ["(no changed text files to show)"]
    return "\n\n".join(parts) + "\n\n" + "\n\n".join(body)


def _revisions(inp: ReviewInput) -> str:
    base = f"- Base: {inp.base_ref}" + (f" ({inp.base_note})" if inp.base_note else "")
    head = f"- Head: {inp.head_ref}" + (f" ({inp.head_note})" if inp.head_note else "")
    return f"### Revisions Compared\n{base}\n{head}"


def build_review(
    inp: ReviewInput,
    names: Sequence[str],
    limits: DiffLimits = DiffLimits(),
    ceiling: int = PACK_CEILING,
) -> tuple[str, Omitted]:
    """The review context (without the envelope) and what was omitted.

    ``names`` are the display names the envelope will carry; the ceiling is
    checked against the longest, so every reviewer's pack fits.
    """
    om = Omitted(diff_bytes=len(inp.diff), not_shown=list(inp.not_shown))
    numbered = inp.numbered
    frame = max(len(envelope(n, "review", "", numbered).encode()) for n in names)
    keep = select_excerpts(inp.excerpts)
    blocks = [ex.block(EXCERPT_CAP, numbered) for ex in inp.excerpts[:keep]]
    head = inp if numbered else None
    ranges = anchor_ranges(inp.diff) if numbered else ""
    numbering: dict[int | None, bytes] = {}

    def shown(max_lines: int | None) -> bytes:
        if max_lines not in numbering:
            numbering[max_lines] = number_diff(inp.diff, max_lines)
        return numbering[max_lines]

    show = shown if numbered else None
    changed_total = max(inp.changed_total, len(inp.excerpts) + len(inp.not_shown))
    text_total = changed_total - len(inp.not_shown)  # files that could have been shown
    cap = limits.cap
    first = dataclasses.replace(limits, whole_lines=limits.whole_lines or numbered)
    diff_text, om.diff_truncated = truncate_diff(inp.diff, inp.stat, first, show)
    while True:
        dtext = clean_text(diff_text)
        trailer0 = _not_shown_lines(inp.not_shown)
        fixed = len(review_context(dtext, inp.base_ref, [], trailer0, head, ranges).encode())
        fixed += frame
        sizes = [len(b.encode()) + 2 for b in blocks]

        def tail(k: int) -> int:
            dropped = text_total - k
            return len(_omitted_line(dropped, changed_total).encode()) + 2 if dropped else 0

        k = _fit_count(fixed, sizes, tail, ceiling)
        if k >= 0:
            break
        # Even with no excerpts the pack is over: re-cut the diff smaller.
        over = fixed + tail(0) - ceiling
        cap = cap - over - RECUT_MARGIN
        if cap <= 0:
            raise PackTooLarge("the pack framing alone exceeds the byte ceiling")
        recut = DiffLimits(
            trigger=min(limits.trigger, cap),
            cap=cap,
            lines=limits.lines,
            stat_cap=limits.stat_cap,
            by_lines=limits.by_lines,
            whole_lines=limits.whole_lines or numbered,
        )
        diff_text, om.diff_truncated = truncate_diff(inp.diff, inp.stat, recut, show)
    om.files = text_total - k
    total_lines = line_count(inp.diff)
    body = inp.diff if show is None else show(limits.lines)
    kept = len(lines_of(cap_body(body, cap, limits.lines, limits.whole_lines or numbered))) \
        if om.diff_truncated else (
        total_lines
    )
    # The numbered diff keeps the diff's lines one for one: kept lines count for both.
    om.coverage = coverage.files(inp.diff, kept if om.diff_truncated else None)
    if om.diff_truncated or om.files:
        om.cut = {
            "diff_lines_kept": kept,
            "diff_lines": total_lines,
            "files_shown": k,
            "files_omitted": changed_total - k,
            "files": changed_total,
        }
    trailer = _not_shown_lines(inp.not_shown)
    if om.files:
        trailer.append(_omitted_line(om.files, changed_total))
    context = review_context(clean_text(diff_text), inp.base_ref, blocks[:k], trailer, head,
                             ranges)
    return context, om


# --------------------------------------------------------------------------- #
# Plan, debug and question modes.
# --------------------------------------------------------------------------- #
@dataclass(frozen=True)
class TextInput:
    """The inputs of a plan/debug/question pack."""

    mode: str
    text: bytes  # the document, symptom or question
    files: Sequence[Excerpt] = ()
    history: Sequence[tuple[str, bytes]] = ()  # (path, `git log -10 --oneline -- path`)
    conventions: bytes | None = None  # CLAUDE.md, None when absent
    file_cap: int = 8000
    numbered: bool = False  # files (and a planning document) with their line numbers


def _text_sections(
    inp: TextInput, text: bytes, nfiles: int, conventions: bool, text_cut: bool
) -> str:
    mode = inp.mode
    total = len(inp.files)
    dropped = total - nfiles
    shown_text = number_lines(lines_of(text)) if inp.numbered and mode == "plan" else text
    text_block = code_fence(clean_text(shown_text))
    if text_cut:
        text_block += f"\n[... truncated to {len(text)} of {len(inp.text)} bytes ...]"
    file_blocks = [ex.block(inp.file_cap, inp.numbered) for ex in inp.files[:nfiles]]
    if dropped:
        noun = "file" if total == 1 else "files"
        file_blocks.append(f"[{dropped} of {total} {noun} omitted to stay within the pack budget]")
    conv = []
    if conventions and inp.conventions is not None:
        conv = [
            "### Repo Conventions",
            code_fence(clean_text(utf8_cut(inp.conventions, CONVENTIONS_CAP))),
        ]
    if mode == "plan":
        parts = ["### Planning Document", text_block, *conv]
    elif mode == "debug":
        history = []
        for path, log in inp.history[:nfiles]:
            history += [f"#### {show_name(path)}", code_fence(clean_text(log) or "(no commits)\n")]
        parts = [
            "### Symptom",
            text_block,
            "### Cited Files",
            *(file_blocks or ["(no files cited)"]),
            "### Recent History",
            *(history or ["(no files cited)"]),
        ]
    else:
        refs = ["### Referenced Files", *file_blocks] if inp.files else []
        parts = ["### Question", text_block, *refs, *conv]
    return "\n\n".join(parts)


def build_text(
    inp: TextInput, names: Sequence[str], ceiling: int = PACK_CEILING
) -> tuple[str, Omitted]:
    """A plan/debug/question context within the ceiling.

    Drop order: CLAUDE.md first, then cited files from the end, then the
    text itself is cut (UTF-8 safe) with a marker line.
    """
    om = Omitted()
    frame = max(len(envelope(n, inp.mode, "", inp.numbered).encode()) for n in names)

    def size(ctx: str) -> int:
        return len(ctx.encode()) + frame

    conventions = inp.conventions is not None
    nfiles = len(inp.files)
    ctx = _text_sections(inp, inp.text, nfiles, conventions, False)
    if size(ctx) > ceiling and conventions:
        conventions = False
        om.conventions = True
        ctx = _text_sections(inp, inp.text, nfiles, conventions, False)
    while size(ctx) > ceiling and nfiles > 0:
        nfiles -= 1
        ctx = _text_sections(inp, inp.text, nfiles, conventions, False)
    om.files = len(inp.files) - nfiles
    if size(ctx) > ceiling:
        over = size(ctx) - ceiling
        keep = len(inp.text) - over - RECUT_MARGIN
        if keep <= 0:
            raise PackTooLarge("the pack framing alone exceeds the byte ceiling")
        text = utf8_cut(inp.text, keep)
        om.text_truncated = True
        ctx = _text_sections(inp, text, nfiles, conventions, True)
        if size(ctx) > ceiling:
            raise PackTooLarge("the pack cannot be brought under the byte ceiling")
    return ctx, om
