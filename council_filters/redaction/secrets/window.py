"""A tighter candidate search for a rule from a file: a window of its own regex.

A gitleaks rule is searched for by its keywords, and some keywords are one
or two letters (``ey``, ``sk``, ``s.``) that half the lines of code hold.
Every line a rule fires on holds a match of its regex, and a match of a
regex holds, in order, a match of any run of consecutive elements of its
top-level sequence (a *window*).  So a window is a search that finds every
line the rule can fire on; with the literals and classes after the keyword
(``ey[a-zA-Z0-9]{17}``...) it finds far fewer lines than the keyword alone.

The window is written for the combined byte scan (Hyperscan, or ``re``),
which reads the line's bytes while the rule reads it as text (UTF-8, bad
bytes as U+FFFD) with RE2's meaning, so only what reads the same way in
both is kept: ASCII literals and ASCII classes (``\\d \\w \\s`` as RE2 has
them, ASCII only; a newline never, a line holds none), word boundaries,
groups, alternations and repeats of those.  Groups are opened (their
elements join the sequence), flags set inside a pattern (``SG\\.(?i)...``)
are read with RE2's scope, and a pattern that is an alternation at the top
gets the alternation of its alternatives' windows.  Under ``(?i)`` a letter
stands for both cases; the non-ASCII letters RE2 also folds ``k`` and ``s``
with are left to a search of their own (:data:`FOLDED`).  A class that holds
a quote also takes backslashes before it (``\\"``): the rules read a line
with its escaped quotes unescaped too.  A repeat ``X{m,n}`` at the window's
edge is kept as ``X{m}`` (its first, or its last, ``m`` copies), and an
optional element at its end is dropped, so that a run of the class ends one
match, not one per byte.  Anything else (a negated class, ``.``, an anchor,
a non-ASCII literal) ends a window.
"""

from __future__ import annotations

import math
import re

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: The UTF-8 of the non-ASCII letters RE2 folds ``k`` and ``s`` with under
#: ``(?i)`` (U+212A KELVIN SIGN, U+017F LATIN SMALL LETTER LONG S).  Windows
#: are written without them (alternatives of several bytes in every letter
#: slow the scan and its compile); a line holding one is searched for by this
#: pattern and runs every rule of its file.
FOLDED = rb"\xe2\x84\xaa|\xc5\xbf"
_WORD = frozenset(b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_")
_DIGIT = frozenset(b"0123456789")
_SPACE = frozenset(b"\t\f\r ")  # RE2's \s less the newline
_QUOTES = frozenset(b"\"'")
#: A window must be at least this selective (estimated bits) to replace keywords.
_MIN_BITS = 20.0
#: How much more selective than the keywords (bits) a window must be to replace them.
_GAIN_BITS = 6.0


def _freq_table() -> list[float]:
    """A rough frequency of each byte in source code and prose (the estimate's base)."""
    table = [1e-4] * 256
    for ch in range(97, 123):
        table[ch] = 0.55 / 26
    for ch in range(65, 91):
        table[ch] = 0.08 / 26
    for ch in range(48, 58):
        table[ch] = 0.04 / 10
    table[32] = 0.15
    punct = [ch for ch in range(33, 127) if not chr(ch).isalnum()]
    for ch in punct:
        table[ch] = 0.18 / len(punct)
    return table


_FREQ = _freq_table()
#: Longer repeats are cut to this many copies at a window's edge and end a window
#: elsewhere (a window only has to be necessary; long ones scan slowly).
_MAX_REPEAT = 32
#: A window stops growing once this selective (estimated bits).
_ENOUGH_BITS = 64.0


#: Control bytes a window may hold, by the escapes every engine reads the same way
#: (the scan's pattern check refuses ``\\x0.`` escapes).
_CONTROL = {9: b"\\t", 11: b"\\v", 12: b"\\f", 13: b"\\r"}


def _byte(ch: int) -> bytes:
    return _CONTROL.get(ch) or b"\\x%02x" % ch


def scoped_flags(pattern: str) -> str:
    """``pattern`` with each flag group after its start, ``(?i)``, written as a
    scoped group ``(?i:...)`` over the rest of its alternative, as RE2 reads it
    (a flag holds to the end of the group it is set in, in every alternative
    after it); Python's parser takes flags without a scope at the start only."""
    out: list[str] = []
    stack: list[list[str]] = [[]]  # per open group: the flags opened in its alternative
    i, n = 0, len(pattern)
    in_class = False
    while i < n:
        c = pattern[i]
        if c == "\\":
            out.append(pattern[i : i + 2])
            i += 2
            continue
        if in_class:
            if c == "]" and not (out and out[-1] in ("[", "[^")):
                in_class = False
            out.append(c)
            i += 1
            continue
        if c == "[":
            in_class = True
            if pattern.startswith("[^", i):
                out.append("[^")
                i += 2
            else:
                out.append("[")
                i += 1
            if i < n and pattern[i] == "]":
                out.append("]")
                i += 1
            continue
        if c == "(" and pattern.startswith("(?", i):
            j = i + 2
            while j < n and (pattern[j].isalpha() or pattern[j] == "-"):
                j += 1
            if j < n and pattern[j] == ")" and j > i + 2:
                flags = pattern[i + 2 : j]
                if i == 0:
                    out.append(pattern[: j + 1])  # global: Python reads it so
                else:
                    out.append(f"(?{flags}:")
                    stack[-1].append(flags)
                i = j + 1
                continue
        if c == "(":
            stack.append([])
        elif c == "|":
            opened = stack[-1]
            out.append(")" * len(opened) + "|" + "".join(f"(?{f}:" for f in opened))
            i += 1
            continue
        elif c == ")" and len(stack) > 1:
            out.append(")" * len(stack.pop()))
        out.append(c)
        i += 1
    out.append(")" * len(stack[0]))
    return "".join(out)


#: A POSIX class (``[[:alpha:]]``), which Python's parser reads otherwise.
_POSIX_CLASS = re.compile(r"\[:\^?[A-Za-z]+:\]")


class _Stop(Exception):
    """The element cannot be part of a window."""


def _alternation(parts: list[tuple[bytes, float]]) -> tuple[bytes, float]:
    return (b"(?:" + b"|".join(p for p, _ in parts) + b")",
            min(b for _, b in parts) - math.log2(len(parts)))


def _copies(part: tuple[bytes, float], lo: int) -> tuple[bytes, float]:
    """The first (or last) ``lo`` copies of a repeated part, at most _MAX_REPEAT."""
    lo = min(lo, _MAX_REPEAT)
    return b"(?:" + part[0] + b"){%d}" % lo, part[1] * lo


class _Builder:
    def __init__(self) -> None:
        import re._constants as c
        import re._parser as sre

        self.sre = sre
        self.c = c

    # -- one element, exactly -------------------------------------------- #
    def charset(self, item: Any, ic: bool) -> frozenset[int]:
        """The byte set of a literal or a class (both cases under ``(?i)``)."""
        c = self.c
        op, av = item
        chars: set[int] = set()
        if op is c.LITERAL:
            chars.add(av)
        elif op is c.IN:
            for iop, iav in av:
                if iop is c.LITERAL:
                    chars.add(iav)
                elif iop is c.RANGE:
                    lo, hi = iav
                    if hi >= 128:
                        raise _Stop
                    chars.update(range(lo, hi + 1))
                elif iop is c.CATEGORY:
                    cat = {c.CATEGORY_DIGIT: _DIGIT, c.CATEGORY_WORD: _WORD,
                           c.CATEGORY_SPACE: _SPACE | {10}}.get(iav)
                    if cat is None:
                        raise _Stop
                    chars.update(cat)
                else:  # a negated class, or something else
                    raise _Stop
        else:
            raise _Stop
        chars.discard(10)  # a line holds no newline
        if any(ch >= 128 or (ch < 32 and ch not in _CONTROL) for ch in chars):
            raise _Stop
        if ic:
            # (k and s also fold with non-ASCII letters: lines holding those are
            # searched for apart, see FOLDED)
            for ch in list(chars):
                if 65 <= ch <= 90 or 97 <= ch <= 122:
                    chars.add(ch ^ 0x20)
        if not chars:
            raise _Stop
        return frozenset(chars)

    @staticmethod
    def bits(chars: frozenset[int]) -> float:
        """A rough selectivity of one byte of the set: -log2 of its frequency in
        code and prose (:data:`_FREQ`)."""
        return -math.log2(min(1.0, sum(_FREQ[ch] for ch in chars)))

    @staticmethod
    def klass(chars: frozenset[int]) -> bytes:
        text = _Builder.plain_klass(chars)
        quotes = chars & _QUOTES
        if quotes:
            # The rules also read a line with its escaped quotes unescaped
            # (``\\"`` as ``"``): there a quote may stand for backslashes and it.
            text = b"(?:" + text + b"|\\\\+" + _Builder.plain_klass(quotes) + b")"
        return text

    @staticmethod
    def plain_klass(chars: frozenset[int]) -> bytes:
        if len(chars) == 1:
            (ch,) = chars
            return bytes([ch]) if chr(ch).isalnum() else _byte(ch)
        parts = []
        run = sorted(chars)
        i = 0
        while i < len(run):
            j = i
            while j + 1 < len(run) and run[j + 1] == run[j] + 1 and run[j] >= 0x20:
                j += 1
            a, b = run[i], run[j]
            parts.append(_byte(a) if a == b else _byte(a) + b"-" + _byte(b))
            i = j + 1
        return b"[" + b"".join(parts) + b"]"

    def exact(self, item: Any, ic: bool) -> tuple[bytes, float]:
        """The element as a byte regex with its meaning, and its estimated bits."""
        c = self.c
        op, av = item
        if op in (c.LITERAL, c.IN):
            chars = self.charset(item, ic)
            return self.klass(chars), self.bits(chars)
        if op is c.AT:
            if av is c.AT_BOUNDARY:
                return b"\\b", 0.5
            raise _Stop
        if op in (c.MAX_REPEAT, c.MIN_REPEAT):
            lo, hi, sub = av
            inner, b = self.seq_exact(sub, ic)
            if hi is c.MAXREPEAT:
                rep = b"{%d,}" % lo
            elif lo == hi:
                rep = b"{%d}" % lo
            else:
                rep = b"{%d,%d}" % (lo, hi)
            if lo > _MAX_REPEAT or (hi is not c.MAXREPEAT and hi > _MAX_REPEAT):
                raise _Stop  # (at an edge, cut to _MAX_REPEAT copies by head/tail)
            return b"(?:" + inner + b")" + rep, b * lo
        if op is c.SUBPATTERN:
            _group, add, drop, sub = av
            inner, b = self.seq_exact(sub, self.flags(ic, add, drop))
            return b"(?:" + inner + b")", b
        if op is c.BRANCH:
            return _alternation([self.seq_exact(branch, ic) for branch in av[1]])
        raise _Stop

    def flags(self, ic: bool, add: int, drop: int) -> bool:
        i = self.c.SRE_FLAG_IGNORECASE
        return (ic or bool(add & i)) and not drop & i

    def seq_exact(self, seq: Any, ic: bool) -> tuple[bytes, float]:
        out = []
        total = 0.0
        for item in seq:
            text, b = self.exact(item, ic)
            out.append(text)
            total += b
        return b"".join(out), total

    # -- an element cut at a window's edge --------------------------------- #
    def head(self, item: Any, ic: bool) -> tuple[bytes, float]:
        """What every match of the element starts with (b"" when nothing)."""
        c = self.c
        op, av = item
        try:
            return self.exact(item, ic)
        except _Stop:
            pass
        if op in (c.MAX_REPEAT, c.MIN_REPEAT):
            lo, _hi, sub = av
            if lo == 0:
                return b"", 0.0
            try:
                return _copies(self.seq_exact(sub, ic), lo)
            except _Stop:
                return self.seq_head(sub, ic)
        if op is c.SUBPATTERN:
            _group, add, drop, sub = av
            text, b = self.seq_head(sub, self.flags(ic, add, drop))
            return (b"(?:" + text + b")", b) if text else (b"", 0.0)
        if op is c.BRANCH:
            parts = [self.seq_head(branch, ic) for branch in av[1]]
            if any(not p for p, _ in parts):
                return b"", 0.0
            return _alternation(parts)
        return b"", 0.0

    def seq_head(self, seq: Any, ic: bool) -> tuple[bytes, float]:
        return self.pairs_head([(item, ic) for item in seq])

    def pairs_head(self, pairs: list[tuple[Any, bool]]) -> tuple[bytes, float]:
        """What every match of a sequence (elements with their case flag) starts with."""
        out: list[tuple[bytes, Any, bool]] = []  # (text, item when exact, its flag)
        total = 0.0
        for item, ic in pairs:
            if total >= _ENOUGH_BITS:
                break
            try:
                text, b = self.exact(item, ic)
            except _Stop:
                text, b = self.head(item, ic)
                out.append((text, None, ic))
                total += b
                break
            out.append((text, item, ic))
            total += b
        # The window ends in its last exact elements: their shortest forms end
        # fewer matches (a repeat ``X{m,n}`` there is cut to ``X{m}``, an
        # optional one dropped).
        while out and out[-1][1] is not None:
            text, item, ic = out.pop()
            short = self.shortest(item, ic)
            if short:
                out.append((short, None, ic))
                break
        return b"".join(t for t, _, _ in out), total

    def shortest(self, item: Any, ic: bool) -> bytes:
        """An exact element as the shortest prefix every match of it has, when it
        ends a window: a repeat cut to its first ``m`` copies, groups and
        alternations looked into (their last element)."""
        c = self.c
        op, av = item
        if op in (c.MAX_REPEAT, c.MIN_REPEAT) and av[1] != av[0]:
            return _copies(self.seq_exact(av[2], ic), av[0])[0] if av[0] else b""
        if op is c.SUBPATTERN:
            _group, add, drop, sub = av
            sub_ic = self.flags(ic, add, drop)
            items = list(sub)
            if not items:
                return self.exact(item, ic)[0]
            head = self.seq_exact(items[:-1], sub_ic)[0]
            return b"(?:" + head + self.shortest(items[-1], sub_ic) + b")"
        if op is c.BRANCH:
            parts = []
            for branch in av[1]:
                items = list(branch)
                parts.append(self.seq_exact(items[:-1], ic)[0] + self.shortest(items[-1], ic)
                             if items else b"")
            return b"(?:" + b"|".join(parts) + b")"
        return self.exact(item, ic)[0]

    def tail(self, item: Any, ic: bool) -> tuple[bytes, float]:
        """What every match of a repeat ends with, when that is simple (b"" else)."""
        c = self.c
        op, av = item
        if op in (c.MAX_REPEAT, c.MIN_REPEAT) and av[0] > 0:
            try:
                return _copies(self.seq_exact(av[2], ic), av[0])
            except _Stop:
                return b"", 0.0
        return b"", 0.0

    # -- the best window ---------------------------------------------------- #
    def flatten(self, seq: Any, ic: bool) -> list[tuple[Any, bool]]:
        """The top-level elements with groups opened (each with its case flag): a
        match of the sequence is a match of the elements of its groups in turn."""
        out: list[tuple[Any, bool]] = []
        for item in seq:
            op, av = item
            if op is self.c.SUBPATTERN:
                _group, add, drop, sub = av
                out += self.flatten(list(sub), self.flags(ic, add, drop))
            else:
                out.append((item, ic))
        return out

    def best(self, pattern: str) -> tuple[bytes, float] | None:
        sre = self.sre
        import warnings

        if _POSIX_CLASS.search(pattern) or "{," in pattern:
            return None  # read otherwise by RE2 (a POSIX class, a literal brace)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("error")  # a nested set: read otherwise by RE2
                parsed = sre.parse(scoped_flags(pattern))
        except Exception:  # noqa: BLE001 - a pattern this parser refuses: no window
            return None
        ic = bool(parsed.state.flags & self.c.SRE_FLAG_IGNORECASE)
        return self.best_seq(self.flatten(list(parsed), ic))

    def best_seq(self, seq: list[tuple[Any, bool]]) -> tuple[bytes, float] | None:
        """The most selective window of a sequence (elements with their case flag)."""
        if len(seq) == 1 and seq[0][0][0] is self.c.BRANCH:
            # Alternatives (``A|B`` at the top): a window of each, either found.
            (_op, av), ic = seq[0]
            parts = [self.best_seq(self.flatten(list(branch), ic)) for branch in av[1]]
            if any(p is None for p in parts):
                return None
            return _alternation([p for p in parts if p is not None])
        found: tuple[bytes, float] | None = None
        for i in range(len(seq)):
            op, av = seq[i][0]
            if op in (self.c.MAX_REPEAT, self.c.MIN_REPEAT) and av[0] == 0:
                continue  # an optional element adds nothing at a window's start
            lead, lead_bits = self.tail(*seq[i - 1]) if i else (b"", 0.0)
            body, bits = self.pairs_head(seq[i:])
            text, total = lead + body, lead_bits + bits
            if text and (found is None or total > found[1]):
                found = (text, total)
        return found


def search_window(pattern: str) -> tuple[bytes, float] | None:
    """``(byte regex, estimated bits)``: a search every line that ``pattern``
    (an RE2 pattern, as :func:`~council_filters.redaction.secrets.gitleaks.translate`
    gives it) can match on matches (None: no window)."""
    return _Builder().best(pattern)


def keyword_bits(keywords: tuple[bytes, ...]) -> float:
    """The same estimate for a case-insensitive search by keywords."""
    if not keywords:
        return 0.0
    per = [
        sum(-math.log2(_FREQ[ch] + (_FREQ[ch ^ 0x20] if 97 <= ch <= 122 else 0.0)) for ch in k)
        for k in keywords
    ]
    return min(per) - math.log2(len(keywords))


def better(window: tuple[bytes, float] | None, keywords: tuple[bytes, ...]) -> bytes | None:
    """The window, when it is worth searching by instead of the keywords.

    A window with no literal of three bytes or more that every match holds
    (classes only, ``[0-9a-f]{32}``, or an alternation with such a branch)
    gives the combined scan no literal to skip to: it looks at every byte for
    it (one such window took half of the scan of a whole gitleaks file over
    code).  Such a window is kept only when the keywords are not selective
    themselves (fewer than :data:`_MIN_BITS`: ``sk``, ``s.``).
    """
    kw_bits = keyword_bits(keywords)
    if window is None or window[1] < _MIN_BITS or window[1] < kw_bits + _GAIN_BITS:
        return None
    if keywords and kw_bits >= _MIN_BITS:
        from council_filters.redaction.prefilter import required_literals

        if not required_literals(window[0]):
            return None
    return window[0]
