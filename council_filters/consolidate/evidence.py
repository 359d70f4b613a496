"""The evidence check: does a finding's quote say what the file at the reviewed revision says?

A pure core over text.  :func:`check` takes one claim (the cited line and the
reviewer's ``Evidence:`` quote) and what the repository holds at that path
(:class:`FileText`), and says which of four things the claim is:

* ``verified``    -- the normalised quote is at the cited line, or within
  ``WINDOW`` lines of it; ``line`` is where the quote is;
* ``re-anchored`` -- the quote is elsewhere in the file: ``line`` becomes the
  quote's line (the nearest to the cited one), ``cited_line`` keeps the
  reviewer's;
* ``unverified``  -- the quote is nowhere in the file, the file is not there at
  that revision (or is binary, huge, a symlink out of the repository, a
  ``..`` path), or the cited line is past the end and nothing matches; with
  ``reason``;
* ``no-quote``    -- the reviewer gave ``N/A — <reason>`` or no quote at all
  (the claim could not be checked, so it is marked, not disbelieved).

A quote is normalised before it is looked for: surrounding quotes, backticks
and code fences go, a diff ``+``/``-``/space prefix and a line-number prefix
(``12:``, ``L12:``, ``12 |``) are tried off and on, runs of whitespace do not
count, and an ellipsis (``…`` or ``...``) stands for any text between the
parts on either side of it (a line holding only an ellipsis stands for any
lines).  A multi-line quote matches where its lines appear in order, each
within a few lines of the one before.

:func:`check_all` runs many claims against one source of files, reading each
file once; it is what ``council-consolidate`` and ``council code-review`` call.
The result of a claim depends only on the claim and the file, never on the
other claims or their order.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

VERIFIED = "verified"
REANCHORED = "re-anchored"
UNVERIFIED = "unverified"
NO_QUOTE = "no-quote"
STATUSES = (VERIFIED, REANCHORED, UNVERIFIED, NO_QUOTE)

WINDOW = 3  # lines either side of the cited line that still count as "at" it
MIN_PLACE = 6  # non-blank characters a quote needs before it may move a finding
LINE_GAP = 3  # lines a multi-line quote's next line may be below the previous one
ELLIPSIS_GAP = 200  # lines a whole-line ellipsis may stand for
REASON_CHARS = 200

_NA = re.compile(r"\A\W*(?:n/?a|none|not applicable|no quote|no evidence)\b[\s\W]*(.*)\Z",
                 re.IGNORECASE | re.DOTALL)
_FENCE = re.compile(r"\A(`{3,}|~{3,})[^\n]*\n(.*?)\n?\1\s*\Z", re.DOTALL)
_PAIRS = (('"', '"'), ("'", "'"), ("`", "`"), ("\u201c", "\u201d"), ("\u2018", "\u2019"),
          ("\u00ab", "\u00bb"), ("\u201e", "\u201c"))
_LINENO = re.compile(r"\A\s*(?:[^\s:]+:)?(?:L|line\s*)?[0-9]{1,7}\s*(?:[:|\u2502]\s?|\t|\s{2,})",
                     re.IGNORECASE)
_ELLIPSIS = re.compile(r"\u2026|\.{3,}")
_TOKEN = re.compile(r"\S+")
# Every character str.split() takes for whitespace, except the newline that separates lines.
_NO_SPACE = {c: None for c in range(0x3000 + 1) if chr(c).isspace() and c != 10}


def squeeze(text: str) -> str:
    """``text`` without any whitespace (the form quotes and lines are compared in)."""
    return "".join(text.split())


# --------------------------------------------------------------------------- #
# What a file holds.
# --------------------------------------------------------------------------- #
@dataclass(slots=True)
class FileText:
    """A file at the reviewed revision: its lines, or why there are none (``reason``).

    ``redacted`` holds the 1-based numbers of lines the redaction changed (their
    columns are not the file's, so no column is derived from them)."""

    lines: Sequence[str] | None
    reason: str | None = None
    redacted: frozenset[int] = frozenset()
    _squeezed: list[str] | None = field(default=None, repr=False)
    _joined: str | None = field(default=None, repr=False)
    _starts: list[int] | None = field(default=None, repr=False)
    _flat: str | None = field(default=None, repr=False)
    _flat_ends: list[int] | None = field(default=None, repr=False)

    def squeezed(self) -> list[str]:
        if self._squeezed is None:
            lines = self.lines or ()
            joined = "\n".join(lines).translate(_NO_SPACE)
            sq = joined.split("\n")
            if len(sq) != len(lines):  # a line held a character translate() missed
                sq = [squeeze(x) for x in lines]
            self._squeezed = sq
        return self._squeezed

    def occurrences(self, needle: str) -> list[int]:
        """0-based indexes of the lines whose squeezed text contains ``needle``."""
        if self._joined is None:
            sq = self.squeezed()
            self._joined = "\n".join(sq)
            starts, pos = [], 0
            for s in sq:
                starts.append(pos)
                pos += len(s) + 1
            self._starts = starts
        assert self._starts is not None
        out: list[int] = []
        find = self._joined.find
        i = find(needle)
        while i >= 0:
            idx = bisect.bisect_right(self._starts, i) - 1
            out.append(idx)
            nxt = self._starts[idx + 1] if idx + 1 < len(self._starts) else len(self._joined)
            i = find(needle, nxt)
        return out


    def flat(self, needle: str) -> list[tuple[int, int]]:
        """(first, last) 0-based lines of each place ``needle`` spans when the squeezed
        lines are read as one text (a quote that joins lines, or wraps one)."""
        if self._flat is None:
            sq = self.squeezed()
            self._flat = "".join(sq)
            ends, pos = [], 0
            for x in sq:
                pos += len(x)
                ends.append(pos)
            self._flat_ends = ends
        assert self._flat_ends is not None
        out: list[tuple[int, int]] = []
        i = self._flat.find(needle)
        while i >= 0 and len(out) < 10_000:
            first = bisect.bisect_right(self._flat_ends, i)
            last = bisect.bisect_left(self._flat_ends, i + len(needle))
            out.append((first, min(last, len(self._flat_ends) - 1)))
            i = self._flat.find(needle, i + 1)
        return out


MISSING = FileText(None, "no such file at the reviewed revision")


# --------------------------------------------------------------------------- #
# Quotes.
# --------------------------------------------------------------------------- #
@dataclass(frozen=True, slots=True)
class Quote:
    """A quote as it is looked for: its lines, each a tuple of parts (split at ellipses);
    an empty tuple is a whole-line ellipsis."""

    lines: tuple[tuple[str, ...], ...]

    @property
    def size(self) -> int:
        return sum(len(p) for ln in self.lines for p in ln)


_OPENERS = frozenset("\"'`~\u201c\u2018\u00ab\u201e")


def _unwrap(text: str) -> str:
    s = text.strip()
    if not s or s[0] not in _OPENERS:
        return s
    for _ in range(4):
        m = _FENCE.match(s)
        if m:
            s = m.group(2).strip("\n")
            continue
        for a, b in _PAIRS:
            if len(s) >= 2 and s.startswith(a) and s.endswith(b):
                s = s[len(a):-len(b)].strip()
                break
        else:
            return s
    return s


_NA_START = frozenset("nN\"'`*_([ \t\u201c\u2018")


_LEADING = re.compile(r"\A\s*(`+|\"|\u201c|')(.+?)(?:\1|\u201d)(?=\s*\S)", re.DOTALL)


def _leading_quoted(evidence: str) -> str | None:
    """The quoted part of ``"code" — a remark`` (None when the text is not like that)."""
    m = _LEADING.match(evidence)
    if m is None or "\n" in m.group(2):
        return None
    return m.group(2)


def na_reason(evidence: object) -> str | None:
    """The reason of an ``N/A — <reason>`` evidence (``""`` for a bare N/A), else None."""
    if not isinstance(evidence, str):
        return None
    head = evidence.lstrip()[:1]
    if head and head not in _NA_START:
        return None
    m = _NA.match(_unwrap(evidence))
    if not m:
        return None
    return " ".join(m.group(1).split()).strip("\"'`")[:REASON_CHARS]


# A pack's typed redaction placeholder: the reviewer never saw what stood there.
_PLACEHOLDER = re.compile("\u2039redacted:[a-z0-9][a-z0-9._-]*\u203a")


def _raw_lines(evidence: str) -> list[str]:
    """The quote's lines; a ``‹redacted:TYPE›`` placeholder stands for any text (an
    ellipsis), as the credential it replaced in the pack is in the file."""
    text = _PLACEHOLDER.sub("\u2026", _unwrap(evidence))
    return [ln.rstrip() for ln in text.replace("\r\n", "\n").split("\n")]


def _strip_numbers(lines: list[str]) -> list[str] | None:
    body = [ln for ln in lines if ln.strip()]
    if not body or not all(_LINENO.match(ln) for ln in body):
        return None
    return [_LINENO.sub("", ln, count=1) for ln in lines]


def _strip_diff(lines: list[str]) -> list[str] | None:
    body = [ln for ln in lines if ln.strip()]
    if not body or not all(ln[:1] in ("+", "-", " ") for ln in body):
        return None
    if not any(ln[:1] in ("+", "-") for ln in body):
        return None
    kept = [ln for ln in body if ln[:1] != "-"]  # removed lines are not in the new file
    return [ln[1:] for ln in kept] or None


def _quote(lines: list[str], ellipsis: bool) -> Quote | None:
    out: list[tuple[str, ...]] = []
    for ln in lines:
        if ellipsis:
            parts = tuple(p for p in (squeeze(x) for x in _ELLIPSIS.split(ln)) if p)
            if not parts and not _ELLIPSIS.search(ln):
                continue  # a blank line
            if out and not parts and not out[-1]:
                continue
            out.append(parts)
        else:
            s = squeeze(ln)
            if s:
                out.append((s,))
    while out and not out[0]:
        out.pop(0)
    while out and not out[-1]:
        out.pop()
    return Quote(tuple(out)) if out else None


def _plain(text: str) -> bool:
    """A one-line quote with nothing to strip (the common case, read at once)."""
    return ("\n" not in text and "\u2026" not in text and ".." not in text
            and "\u2039" not in text  # a placeholder reads as an ellipsis
            and text[:1] not in ("+", "-", " ") and text[:1] not in _OPENERS)


# A quote written as a string literal of its own: ``"x = \\"a\\""`` (backslashes as typed)
# for the line ``x = "a"``.
_ESCAPED = re.compile(r"\\([\"'`\\])")


def variants(evidence: str) -> list[Quote]:
    """The readings of a quote, the literal one first (see the module docstring); a quote
    whose quotes are backslash-escaped (a reviewer writing it as a string literal) is also
    read with them unescaped."""
    out = _variants(evidence)
    if "\\" in evidence:
        # a reader that took the literal's last quote for the closing one leaves its
        # backslash behind: that lone backslash is not part of the code either
        plain = _ESCAPED.sub(r"\1", evidence.rstrip())
        for q in _variants(plain[:-1] if plain.endswith("\\") else plain):
            if q not in out:
                out.append(q)
    return out


def _variants(evidence: str) -> list[Quote]:
    s = _unwrap(evidence)
    if _plain(s) and not _LINENO.match(s):
        sq = squeeze(s)
        return [Quote(((sq,),))] if sq else []
    base = _raw_lines(evidence)
    forms: list[list[str]] = [base]
    inner = _leading_quoted(evidence)
    if inner is not None:  # "the quote" followed by the reviewer's own words
        forms.append([inner])
    num = _strip_numbers(base)
    if num is not None:
        forms.append(num)
    for f in list(forms):
        d = _strip_diff(f)
        if d is not None:
            forms.append(d)
            n2 = _strip_numbers(d)
            if n2 is not None:
                forms.append(n2)
    out: list[Quote] = []
    for f in forms:
        for ell in (False, True):
            if ell and not any(_ELLIPSIS.search(ln) for ln in f):
                continue
            q = _quote(f, ell)
            if q is not None and q not in out:
                out.append(q)
    return out


def canonical_quote(evidence: object) -> str | None:
    """The quote in a form that does not depend on the file (fingerprints): unwrapped,
    numbers and a diff prefix off when every line has one, ellipses as ``…``, no whitespace."""
    if not isinstance(evidence, str) or not evidence.strip() or na_reason(evidence) is not None:
        return None
    lines = _raw_lines(evidence)
    lines = _strip_numbers(lines) or lines
    lines = _strip_diff(lines) or lines
    text = "\n".join(squeeze(_ELLIPSIS.sub("\u2026", ln)) for ln in lines)
    text = "\n".join(ln for ln in text.split("\n") if ln)
    return text or None


# --------------------------------------------------------------------------- #
# Matching.
# --------------------------------------------------------------------------- #
def _parts_in(line: str, parts: tuple[str, ...], start: int = 0) -> tuple[int, int] | None:
    """(first index, end index) of ``parts`` found in order in ``line``, else None."""
    pos = start
    first = -1
    for p in parts:
        i = line.find(p, pos)
        if i < 0:
            return None
        if first < 0:
            first = i
        pos = i + len(p)
    return first, pos


def _rest(sq: list[str], q: Quote, at: int) -> int | None:
    """Where the quote's lines after the first end (0-based line), matched from line ``at``."""
    cur = at
    k = 1
    while k < len(q.lines):
        parts = q.lines[k]
        gap = LINE_GAP
        if not parts:  # a whole-line ellipsis: the next line may be far below
            k += 1
            if k >= len(q.lines):
                return cur
            parts = q.lines[k]
            gap = ELLIPSIS_GAP
        for j in range(cur + 1, min(len(sq), cur + 1 + gap)):
            if _parts_in(sq[j], parts) is not None:
                cur = j
                break
        else:
            return None
        k += 1
    return cur


def _matches_at(ft: FileText, q: Quote, i: int) -> int | None:
    sq = ft.squeezed()
    if not (0 <= i < len(sq)) or _parts_in(sq[i], q.lines[0]) is None:
        return None
    return _rest(sq, q, i)


def _candidates(ft: FileText, q: Quote) -> list[int]:
    first = q.lines[0]
    longest = max(first, key=len)
    sq = ft.squeezed()
    return [i for i in dict.fromkeys(ft.occurrences(longest))
            if _parts_in(sq[i], first) is not None]


@dataclass(frozen=True, slots=True)
class Match:
    line: int  # 1-based, the quote's first line
    end_line: int
    quote: Quote
    exact: bool = True  # False: found only with the lines read as one text (no columns)


def find(ft: FileText, quotes: Sequence[Quote], cited: int | None) -> tuple[Match | None, bool]:
    """The quote's place (nearest to ``cited``; the first when no line is cited) and
    whether it is within ``WINDOW`` of ``cited``."""
    if cited is not None:
        sq = ft.squeezed()
        lo, hi = max(0, cited - 1 - WINDOW), min(len(sq), cited + WINDOW)
        for q in quotes:
            if len(q.lines) == 1 and len(q.lines[0]) == 1:
                p = q.lines[0][0]
                near = [i for i in range(lo, hi) if p in sq[i]]
            else:
                near = [i for i in range(lo, hi) if _matches_at(ft, q, i) is not None]
            if near:
                i = min(near, key=lambda x: (abs(x - (cited - 1)), x))
                end = _matches_at(ft, q, i)
                assert end is not None
                return Match(i + 1, end + 1, q), True
    best: tuple[tuple[int, int], Match] | None = None
    for q in quotes:
        if q.size < MIN_PLACE:
            continue
        for i in _candidates(ft, q):
            end = _matches_at(ft, q, i)
            if end is None:
                continue
            key = (abs(i - (cited - 1)) if cited is not None else 0, i)
            if best is None or key < best[0]:
                best = (key, Match(i + 1, end + 1, q))
        if best is not None:
            break  # an earlier (more literal) reading wins
    if best is None:
        return _flat_find(ft, quotes, cited)
    return best[1], False


def _flat_find(ft: FileText, quotes: Sequence[Quote], cited: int | None
               ) -> tuple[Match | None, bool]:
    """The last resort: a quote without ellipses read against the file as one text, so a
    quote that joins two lines (or splits one) is still found."""
    for q in quotes:
        if q.size < MIN_PLACE or any(len(ln) != 1 for ln in q.lines):
            continue
        spans = ft.flat("".join(ln[0] for ln in q.lines))
        if not spans:
            continue
        ref = (cited - 1) if cited is not None else 0
        first, last = min(spans, key=lambda sp: (abs(sp[0] - ref), sp[0]))
        near = cited is not None and abs(first - ref) <= WINDOW
        return Match(first + 1, last + 1, q, exact=False), near
    return None, False


# --------------------------------------------------------------------------- #
# One claim.
# --------------------------------------------------------------------------- #
@dataclass(frozen=True, slots=True)
class Claim:
    """What a finding says about the code: ``file`` (repository-relative), ``line`` (the
    cited one, or None), ``evidence`` (the reviewer's quote, as given)."""

    file: str | None
    line: int | None
    evidence: str | None


@dataclass(frozen=True, slots=True)
class Evidence:
    """The outcome of one claim.  ``line``: where the finding now points; ``cited_line``:
    the reviewer's line when ``line`` moved; ``columns``: 1-based character columns of
    the quote (start on ``line``, end on ``end_line``) when they are known."""

    status: str
    line: int | None
    reason: str | None = None
    cited_line: int | None = None
    end_line: int | None = None
    place: tuple[FileText, Match] | None = field(default=None, compare=False, repr=False)

    @property
    def columns(self) -> tuple[int, int] | None:
        """1-based character columns of the quote: start on ``line``, end on ``end_line``
        (None when unknown, e.g. on a line the redaction changed); computed when asked."""
        return _columns(*self.place) if self.place is not None else None

    def fields(self) -> dict[str, object]:
        """The member fields the outputs carry."""
        out: dict[str, object] = {"evidence_status": self.status,
                                  "evidence_reason": self.reason}
        if self.cited_line is not None:
            out["cited_line"] = self.cited_line
        return out


def _column(line: str, squeezed_index: int, end: bool) -> int:
    """The 1-based character column of a squeezed index (``end``: just after it)."""
    seen = 0
    for m in _TOKEN.finditer(line):
        width = m.end() - m.start()
        if end and seen < squeezed_index <= seen + width:
            return m.start() + (squeezed_index - seen) + 1
        if not end and squeezed_index < seen + width:
            return m.start() + (squeezed_index - seen) + 1
        seen += width
    return len(line) + 1


def _columns(ft: FileText, m: Match) -> tuple[int, int] | None:
    if (not m.exact or ft.lines is None or m.line in ft.redacted
            or m.end_line in ft.redacted):
        return None
    sq = ft.squeezed()
    first = _parts_in(sq[m.line - 1], m.quote.lines[0])
    last_parts = m.quote.lines[-1] if m.quote.lines[-1] else m.quote.lines[0]
    last = _parts_in(sq[m.end_line - 1], last_parts)
    if first is None or last is None:
        return None
    start = _column(ft.lines[m.line - 1], first[0], end=False)
    stop = _column(ft.lines[m.end_line - 1], last[1], end=True)
    return start, stop


def check(claim: Claim, ft: FileText) -> Evidence:
    """The evidence status of one claim against what the file holds (see the module)."""
    cited = claim.line
    if ft.lines is None:
        return Evidence(UNVERIFIED, cited, ft.reason or MISSING.reason)
    n = len(ft.lines)
    if n and ft.lines[-1] == "":
        n -= 1  # the empty string after a final newline is not a line
    past = cited is not None and cited > max(n, 1)
    ev = claim.evidence
    na = na_reason(ev)
    quotes = variants(ev) if isinstance(ev, str) and ev.strip() and na is None else []
    if not quotes:
        if past:
            return Evidence(UNVERIFIED, cited, f"line {cited} is past the end of the file"
                            f" ({n} lines)")
        if na is not None:
            return Evidence(NO_QUOTE, cited, f"N/A: {na}" if na else "N/A")
        return Evidence(NO_QUOTE, cited, "no quote given")
    m, near = find(ft, quotes, cited)
    if m is None:
        if past:
            return Evidence(UNVERIFIED, cited, f"line {cited} is past the end of the file"
                            f" ({n} lines) and the quote is not in it")
        short = all(q.size < MIN_PLACE for q in quotes)
        return Evidence(UNVERIFIED, cited, "the quote is too short to place and is not at the"
                        " cited line" if short and cited else "the quote is not in the file")
    cols = (ft, m)
    end = m.end_line if m.end_line != m.line else None
    if near and cited is not None:
        if cited == m.line:
            return Evidence(VERIFIED, m.line, None, None, end, cols)
        d = abs(m.line - cited)
        why = f"the quote is at line {m.line}, {d} line{'s' if d != 1 else ''} from the cited one"
        return Evidence(VERIFIED, m.line, why, cited, end, cols)
    if cited is None:
        return Evidence(VERIFIED, m.line, f"no line cited; the quote is at line {m.line}",
                        None, end, cols)
    return Evidence(REANCHORED, m.line, f"the quote is at line {m.line}, not {cited}",
                    cited, end, cols)


FileSource = Callable[[Iterable[str]], Callable[[str], FileText]]


def check_all(claims: Sequence[Claim], files: FileSource) -> list[Evidence]:
    """Check many claims: ``files(paths)`` is given every path at once (so a source can
    read them in one pass) and returns a lookup.  A claim naming no file is ``no-quote``
    (nothing to check it against)."""
    paths = sorted({c.file for c in claims if c.file})
    lookup = files(paths)
    out: list[Evidence] = []
    for c in claims:
        if not c.file:
            out.append(Evidence(NO_QUOTE, c.line, "names no file"))
        else:
            out.append(check(c, lookup(c.file)))
    return out


def in_memory(contents: dict[str, str]) -> FileSource:
    """A file source over a dict path -> text (tests, callers that hold the files)."""
    def files(_paths: Iterable[str]) -> Callable[[str], FileText]:
        cache: dict[str, FileText] = {}

        def lookup(path: str) -> FileText:
            if path not in contents:
                return MISSING
            if path not in cache:
                cache[path] = FileText(contents[path].replace("\r\n", "\n").split("\n"))
            return cache[path]
        return lookup
    return files
