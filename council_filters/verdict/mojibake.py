"""UTF-8 that was decoded with a single-byte code page before it reached us, repaired run
by run.

A reviewer's answer saved, piped or exported by another tool may have had its UTF-8 bytes
read as Windows-1252 (or Latin-1, which keeps bytes 0x80-0x9F as C1 controls) or as a
console's code page 850 or 437, once or twice: ``—`` arrives as ``â€”`` or ``ÔÇö``, the
badge ``🟠`` as ``ðŸŸ `` (its last byte, a no-break space, often turned into a space),
``⚠️`` as ``âš ï¸`` (the undefined byte 0x8F dropped), and read twice again as
``Ã°Å¸Å¸ ``.

The repair never re-decodes the whole text.  Each run of non-ASCII characters is mapped
back to the bytes one code page gives them, and only the spans of those bytes that are
whole UTF-8 sequences become the characters they encode; every other character stays
as it was, so good non-ASCII text next to a garbled run is kept.  A span is taken only
when what it gives is more plausible than what was there:

- a sequence of three or four bytes (dashes, arrows, quotes, badges, CJK) decoding to an
  assigned character that is not a control;
- a two-byte sequence (``Ã©`` for ``é``) only when the same run holds another repaired
  sequence or the text holds two or more repairs (one ``Ã©`` alone in French text is
  left as it is), and, for the console pages and Mac Roman, only in a text where that
  page has a longer sequence or two side by side (box drawing such as ``─┐`` is C4 BF
  in code page 437);
- a run ending one byte short of a sequence is completed only by what garbling loses: a
  space that was a no-break space (0xA0), or a byte the code page leaves undefined
  (0x9D for ``”`` after ``â€``, 0x8F for the variation selector after ``ï¸``).

Two rounds repair text that was garbled twice.  Work is linear in the text: one pass of a
regular expression over it and one pass over each run, per round.  Nothing here raises.
"""

from __future__ import annotations

import re
import unicodedata

from council_filters.base.bytesops import _need

ROUNDS = 2
# bytes Windows-1252 leaves undefined: tools drop them, or keep them as C1 controls
_UNDEFINED = (0x9D, 0x8F, 0x81, 0x8D, 0x90)
# the usual loss after these heads: "”" (E2 80 9D), the emoji variation selector (EF B8 8F)
_LOST = {b"\xe2\x80": 0x9D, b"\xef\xb8": 0x8F}
# three-byte sequences completed only under these leads (punctuation, arrows, symbols; CJK
# punctuation; presentation forms): "é—" in French text is no "\u00e9\u0097" short a byte
_LOSSY_LEADS = frozenset((0xE2, 0xE3, 0xEF))


def _page(name: str) -> dict[str, int]:
    """Character -> byte (0x80-0xFF) for a single-byte code page."""
    out: dict[str, int] = {}
    for b in range(0x80, 0x100):
        try:
            out[bytes([b]).decode(name)] = b
        except UnicodeDecodeError:
            out[chr(b)] = b  # as Latin-1 reads it
    return out


def _sloppy_1252() -> dict[str, int]:
    page = _page("cp1252")
    for b in range(0x80, 0xA0):  # Latin-1 reading: bytes 0x80-0x9F as C1 controls
        page.setdefault(chr(b), b)
    return page


_PAGES: tuple[dict[str, int], ...] = (
    _sloppy_1252(), _page("cp850"), _page("cp437"), _page("mac_roman"))
# The console pages give box drawing to lead and continuation bytes ("\u2500\u2510" reads as
# C4 BF) and Mac Roman accented letters to continuation bytes: the two-byte spans of a
# page other than Windows-1252 count only in a text where that page has a strong one, or
# two side by side (what reading twice leaves).
Span = tuple[int, int, str, bool]
# a run: non-ASCII characters, across single spaces and with one following space (each
# may be a no-break space made plain)
_RUN = re.compile(r"[^\x00-\x7f]+(?: [^\x00-\x7f]+)* ?")


def _pair(page: dict[str, int], after: str) -> re.Pattern[str]:
    """How every garbled sequence of ``page`` starts: a character read from a lead byte,
    then one read from a continuation byte (or one of ``after``)."""
    leads = "".join(re.escape(c) for c, b in page.items() if 0xC2 <= b <= 0xF4)
    conts = "".join(re.escape(c) for c, b in page.items() if 0x80 <= b <= 0xBF)
    return re.compile(f"[{leads}][{conts}{after}]")


_PAIRS = tuple(_pair(page, " " if k == 0 else "") for k, page in enumerate(_PAGES))


def _length(lead: int) -> int:
    """Bytes in the UTF-8 sequence ``lead`` starts; 0 when it starts none (C0, C1 and
    F5-FF start no valid one)."""
    return _need(lead) if 0xC2 <= lead <= 0xF4 else 0


def _char(seq: bytes) -> str | None:
    """The one character ``seq`` encodes, if it is assigned and not a C0 control (a C1
    control is what a Latin-1 reading left of a byte: a second round reads it)."""
    try:
        c = seq.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if len(c) != 1 or unicodedata.category(c) in ("Cn", "Cs", "Co") or \
            unicodedata.category(c) == "Cc" and not "\x80" <= c <= "\x9f":
        return None
    return c


def _completed(head: bytes, space: bool, inside: bool, end: int) -> tuple[str | None, int]:
    """The character ``head`` (one byte short) was, and where its span ends: a following
    ``space`` may have been its no-break space (surely so ``inside`` a garbled run), or an
    undefined byte was lost."""
    lost = _LOST.get(head)
    fills = (0xA0, *_UNDEFINED) if inside or space and not lost else \
        (lost,) if lost else _UNDEFINED
    for fill in fills:
        if (got := _char(head + bytes([fill]))) is not None:
            return got, end + (fill == 0xA0)
    return None, end


def _spans(run: str, page: dict[str, int]) -> list[Span]:
    """(start, end, character, strong) for each repairable UTF-8 sequence of ``run`` read
    back through ``page``; strong when three or more of its characters were there and it
    encodes a character of three or more bytes.  Only the Windows-1252 reading loses
    bytes: there a sequence one byte short is completed (see ``_completed``), and a lone
    ``Â`` ending a run after a repaired span is what is left of a lost C1 control."""
    codes = [page.get(c, -1) for c in run]
    out: list[Span] = []
    i, n = 0, len(run)
    while i < n:
        size = _length(codes[i])
        if not size:
            i += 1
            continue
        j = i + 1
        while j < n and j - i < size and 0x80 <= codes[j] <= 0xBF:
            j += 1
        got = None
        if j - i == size:
            got = _char(bytes(codes[i:j]))
        elif page is _PAGES[0] and j - i == size - 1 and (
                size == 4 or size == 3 and codes[i] in _LOSSY_LEADS
                or codes[i] == 0xC2 and j < n and run[j] == " "):
            space = j < n and run[j] == " "
            got, j = _completed(bytes(codes[i:j]), space, space and j + 1 < n, j)
        elif page is _PAGES[0] and codes[i] == 0xC2 and j == i + 1 and \
                (j == n or codes[j] < 0) and out and out[-1][1] == i:
            got = ""
        if got is not None:
            out.append((i, j, got, j - i >= 3 and len(got.encode("utf-8")) >= 3))
            i = j
        else:
            i += 1
    return out


def _round(text: str, before: bool) -> str:
    """One round of repair; see the module docstring for which spans are taken
    (``before``: an earlier round repaired this text)."""
    found: list[tuple[int, list[list[Span]]]] = []
    sure = [True] + [False] * (len(_PAGES) - 1)  # pages whose two-byte spans count
    pages = [k for k, pair in enumerate(_PAIRS) if pair.search(text)]
    if not pages:
        return text
    for m in _RUN.finditer(text):
        run = m.group()
        per_page = [_spans(run, _PAGES[k]) if k in pages and _PAIRS[k].search(run) else []
                    for k in range(len(_PAGES))]
        found.append((m.start(), per_page))
        for k, spans in enumerate(per_page):
            sure[k] = sure[k] or any(span[3] for span in spans) or \
                any(a[1] == b[0] for a, b in zip(spans, spans[1:], strict=False))
    runs: list[tuple[int, list[Span]]] = []
    count = 0
    for start, per_page in found:
        best: list[Span] = []
        for k, spans in enumerate(per_page):
            spans = spans if sure[k] else [span for span in spans if span[3]]
            if _cover(spans) > _cover(best):
                best = spans
        if best:
            runs.append((start, best))
            count += len(best)
    parts: list[str] = []
    at = 0
    for start, best in runs:
        for s, e, c, strong in best:
            if strong or before or len(best) >= 2 or count >= 2:
                parts.append(text[at:start + s])
                parts.append(c)
                at = start + e
    if not parts:
        return text
    parts.append(text[at:])
    return "".join(parts)


def _cover(spans: list[Span]) -> int:
    return sum(e - s for s, e, _, _ in spans)


def repair(text: str) -> str:
    """``text`` with its garbled runs decoded back; clean text is returned as it is."""
    if text.isascii():
        return text
    for n in range(ROUNDS):
        fixed = _round(text, n > 0)
        if fixed == text:
            break
        text = fixed
    return text
