"""Private-key blocks in every shape people paste them in.

The default machine recognises ``-----BEGIN ... PRIVATE KEY-----`` as the
reference program does.  This one reads markers and body lines the way a
person would:

* **markers** in any case, with any run of three or more dash-likes (ASCII
  ``-``, the Unicode dashes, minus signs, full-width forms), with format
  characters (zero-width spaces, joiners, soft hyphens, BOMs) and every kind
  of space ignored, after NFKC (full-width letters);
* **body lines** inside table cells, after line-number prefixes (``  12\\t``,
  ``12:``, ``12: ``, ``file:12:``), after ANSI escapes, with trailing comments,
  quoted, listed, diffed, indented, with JSON string escapes, rewrapped at any
  width: a line is body-shaped when, once ANSI escapes, comments and
  decoration are set aside, its main content is base64;
* **decoys**: an END marker does not end the watch: while only separator
  lines (blank, punctuation, bare numbers, code fences) follow, a
  body-shaped line reopens the block, however many separators came first.

A line holding a BEGIN marker is always redacted (a key on one line, as in
JSON, is caught there).  Inside a block every body line and marker is
redacted; separator lines pass unchanged; the first line that is neither ends
the block (a BEGIN marker mentioned in prose swallows nothing after it).
"""

from __future__ import annotations

from council_filters.redaction.lazy import IGNORECASE, LazyRegex

#: Dash-likes: Unicode's dash punctuation, minus signs, the hyphen bullet,
#: full-width and small forms, and box-drawing horizontals.
DASHES = (
    "\u058a\u05be\u1400\u1806\u2010\u2011\u2012\u2013\u2014\u2015\u2043\u207b\u208b"
    "\u2212\u2796\u23af\u2500\u2501\u2e17\u2e1a\u2e3a\u2e3b\u2e40\u2e5d\u301c\u3030"
    "\u30a0\ufe31\ufe32\ufe58\ufe63\uff0d\u02d7\U00010ead"
)


#: Format characters (Unicode category Cf) and every kind of space, as ranges
#: (Unicode 14; the table is fixed so that startup does not walk the code space).
_INVISIBLE_RANGES = (
    (0x9, 0xD),
    (0x1C, 0x20),
    (0x85, 0x85),
    (0xA0, 0xA0),
    (0xAD, 0xAD),
    (0x600, 0x605),
    (0x61C, 0x61C),
    (0x6DD, 0x6DD),
    (0x70F, 0x70F),
    (0x890, 0x891),
    (0x8E2, 0x8E2),
    (0x1680, 0x1680),
    (0x180E, 0x180E),
    (0x2000, 0x200F),
    (0x2028, 0x202F),
    (0x205F, 0x2064),
    (0x2066, 0x206F),
    (0x3000, 0x3000),
    (0xFEFF, 0xFEFF),
    (0xFFF9, 0xFFFB),
    (0x110BD, 0x110BD),
    (0x110CD, 0x110CD),
    (0x13430, 0x13438),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0001, 0xE0001),
    (0xE0020, 0xE007F),
)
#: Invisible letters and marks people use as spaces (Hangul fillers, braille blank, ...).
_INVISIBLE_EXTRA = "\u115f\u1160\u3164\uffa0\u2800\u034f\u17b4\u17b5\u180b\u180c\u180d"


def _invisible() -> str:
    chars = (chr(c) for a, b in _INVISIBLE_RANGES for c in range(a, b + 1))
    return "".join(chars) + _INVISIBLE_EXTRA


_TABLE: dict[int, str | None] | None = None


def _table() -> dict[int, str | None]:
    global _TABLE
    if _TABLE is None:
        table: dict[int, str | None] = {ord(c): None for c in _invisible()}
        table.update({ord(c): "-" for c in DASHES})
        _TABLE = table
    return _TABLE


_ANSI = LazyRegex(
    r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[PX^_][^\x1b]*(?:\x1b\\)?"
    r"|[@-Z\\-_])|\x9b[0-?]*[ -/]*[@-~]|\x1b"
)
_BEGIN = LazyRegex(r"-{3,}begin[a-z0-9]{0,40}?privatekey")
_END = LazyRegex(r"-{3,}end[a-z0-9]{0,40}?privatekey")
_HEADER = LazyRegex(
    r"(?:proc-type|dek-info|comment|version|hash|subject|putty-user-key-file-\d|encryption|"
    r"public-lines|private-lines|private-mac|key-derivation|argon2-[a-z]+)\s*:",
    IGNORECASE,
)


_ASCII_WS = b" \t\n\v\f\r\x1c\x1d\x1e\x1f"


def marker_text(line: bytes) -> str:
    """The line as markers are read: no escapes, no invisibles, dashes unified, lower case."""
    if line.isascii() and b"\x1b" not in line:
        # The common case, without NFKC: spaces out, lower case.
        low = line.translate(None, _ASCII_WS).lower()
        if b"\\" in low:
            low = low.replace(b"\\n", b"").replace(b"\\r", b"").replace(b"\\t", b"")
        return low.decode("ascii")
    s = line.decode("utf-8", "replace")
    if "\x1b" in s or "\x9b" in s:
        s = _ANSI.sub("", s)
    import unicodedata  # (loaded for the first line that is not ASCII, not at every start)

    s = unicodedata.normalize("NFKC", s).translate(_table())
    return s.casefold().replace("\\n", "").replace("\\r", "").replace("\\t", "")


def begin_marker(line: bytes) -> bool:
    return _BEGIN.search(marker_text(line)) is not None


# --------------------------------------------------------------------------- #
# Body lines.
# --------------------------------------------------------------------------- #
_TOKEN = LazyRegex(r"[A-Za-z0-9+/]+=*")
_COMMENT = LazyRegex(r"\s(?:#|//|/\*|<!--|--|;|%|<-|←)(?:\s|$)")
_PLAIN_WORD = LazyRegex(r"[A-Z]?[a-z]+\Z|[A-Z]+\Z|[0-9]+\Z")
_PADDING = LazyRegex(r"[\s>|+*\"'`,-]*={1,2}[\s|\"'`,]*")
_TAG = LazyRegex(r"</?[A-Za-z][A-Za-z0-9]{0,10}(?:\s[^<>]{0,80})?/?>")
_GREP_PREFIX = LazyRegex(r"\A\s*(?:[\w.@~+/-]*[/.][\w.@~+/-]*[:-])?\d{1,9}[:-]")
_TITLE_WORD = LazyRegex(r"[A-Z]?[a-z]+\Z")
_DIGIT = LazyRegex(r"[0-9]")
_B64_RUN = LazyRegex(rb"[A-Za-z0-9+/]{4,}=*")


def _openssh_padding(token: str) -> bool:
    """The token decodes, at some alignment, to the start of OpenSSH's padding (01 02)."""
    import binascii

    core = token.rstrip("=")
    for shift in range(4):
        part = core[shift:]
        part = part[: len(part) - len(part) % 4]
        if len(part) < 4:
            break
        try:
            if b"\x01\x02" in binascii.a2b_base64(part):
                return True
        except binascii.Error:
            continue
    return False


_FENCE = LazyRegex(r"\s*(?:```|~~~)[\w+-]*\s*\Z")


def _lone_token(s: str, toks: list[str], big: str) -> bool:
    """The line is one base64 token and decoration (quote marks, bars, line numbers)."""
    if big.isdigit() or any(t != big and not t.isdigit() for t in toks):
        return False
    return not _TOKEN.sub("", s).strip(_DECORATION)


_DECORATION = " \t>|+*-\"'`"


def der_body_length(token: str | bytes) -> int:
    """The base64 length of a DER body from its first token's SEQUENCE header (0: not DER)."""
    import binascii

    head = token[:8]
    if len(head) < 8:
        return 0
    try:
        b = binascii.a2b_base64(head)
    except binascii.Error:
        return 0
    if b[0] != 0x30:
        return 0
    if b[1] < 0x80:
        total = 2 + b[1]
    elif b[1] in (0x81, 0x82, 0x83):
        n = b[1] - 0x80
        total = 2 + n + int.from_bytes(b[2 : 2 + n], "big")
    else:
        return 0
    return 4 * -(-total // 3)


def _clean(line: bytes) -> str:
    s: str = line.decode("utf-8", "replace")
    if "\x1b" in s or "\x9b" in s:
        s = _ANSI.sub("", s)
    if not s.isascii():
        import unicodedata

        s = unicodedata.normalize("NFKC", s).translate(_table())
    # HTML tags and grep's "path:line:" prefix are decoration.
    if "<" in s:
        s = _TAG.sub(" ", s)
    s = _GREP_PREFIX.sub(" ", s, count=1)
    # JSON / C string escapes split base64 runs, never join them.
    if "\\" in s:
        s = s.replace("\\n", " ").replace("\\r", " ").replace("\\t", " ").replace("\\", " ")
    return s


def _classes(t: str) -> int:
    """How many of upper case, lower case, digits and ``+/=`` a token holds."""
    return (
        (t.lower() != t)
        + (t.upper() != t)
        + (_DIGIT.search(t) is not None)
        + ("+" in t or "/" in t or "=" in t)
    )


#: What :func:`classify` says about a line.
OTHER, SEPARATOR, BODY = 0, 1, 2


def classify(line: bytes, *, strict: bool, width: int, remaining: int = 0) -> tuple[int, int]:
    """``(kind, width)``: OTHER, SEPARATOR or BODY, and the body's main token width.

    ``strict`` is the reading after an END marker: a body line must be wide
    (16+) and random-looking, or exactly as wide as the last body line.
    ``remaining`` is how many base64 characters the interrupted body still
    owes by its own DER length (0: unknown): a lone token no longer than that
    is the rest of the body, however word-like it reads ("Spdw").
    """
    s = _clean(line)
    toks = _TOKEN.findall(s)
    if not toks:
        if not strict and _PADDING.fullmatch(s):
            return BODY, 0  # the padding of a body rewrapped at a narrow width
        return (SEPARATOR if not any(c.isalpha() for c in s) else OTHER), 0

    def main(ts: list[str]) -> str:
        return max(ts, key=lambda t: (not t.isdigit(), len(t)))

    # A trailing comment after the first token is decoration.
    first = _TOKEN.search(s)
    cm = _COMMENT.search(s, first.end()) if first is not None else None
    if cm:
        toks = _TOKEN.findall(s[: cm.start()])
    big = main(toks)
    payload = 0
    other = 0
    seen_big = False
    for t in toks:
        n = len(t)
        if (t == big and not seen_big) or (n >= 8 and _classes(t) >= 3):
            seen_big = seen_big or t == big
            payload += n
        elif t.isdigit() and n <= 9 or n <= 2:
            continue  # line numbers, list markers, diff signs
        else:
            other += n
    nb = len(big)
    if big.isdigit() and nb <= 9 and other == 0:
        if not strict and nb == width:
            return BODY, nb  # a digits-only piece of a narrow rewrap
        return SEPARATOR, 0
    if other > max(8, payload // 2):
        if _FENCE.match(s):
            return SEPARATOR, 0
        return OTHER, 0
    cls = _classes(big)
    word = _PLAIN_WORD.match(big) is not None
    if strict:
        wide = nb >= 16 and cls >= 3 and max(big) >= "A" and any(c.islower() for c in big)
        chained = width > 0 and nb == width and cls >= 2 and not word
        # The short last line of a body that a decoy END interrupted ("AgM="),
        # or the end of an OpenSSH key (its padding 01 02 03 ... reads AQID,
        # AwQF or AgME whatever the alignment).
        tail = (
            width > 0 and other == 0 and 2 <= nb < width
            and ((not word and cls >= 2) or big.endswith("=") or _openssh_padding(big))
        ) or (2 <= nb <= remaining and _lone_token(s, toks, big))
        if wide or chained or tail:
            return BODY, nb
        if _FENCE.match(s) or not any(c.isalpha() for c in s):
            return SEPARATOR, 0
        return OTHER, 0
    if not word and cls >= 2:
        return BODY, nb
    if other == 0 and not big.isdigit() and (width > 0 or nb < 4 or _TITLE_WORD.match(big) is None):
        # One token alone on its line: a narrow rewrap ("MIIE", "Bgkq") or the
        # tail of a body ("xQ", "A"); a lone word counts only inside a chain.
        return BODY, nb
    if _FENCE.match(s) or not any(c.isalpha() for c in s):
        return SEPARATOR, 0
    return OTHER, 0


# --------------------------------------------------------------------------- #
# The machine.
# --------------------------------------------------------------------------- #
IDLE, BLOCK, WATCH = 0, 1, 2


class PemMachine:
    """Per-stream state: IDLE, inside a BLOCK, or WATCHing after an END."""

    __slots__ = ("expect", "head", "mode", "seen", "width")

    def __init__(self) -> None:
        self.mode = IDLE
        self.width = 0
        self.seen = 0  # base64 characters of the current body read so far
        self.expect = 0  # its length by the DER header of its first line (0: unknown)
        self.head = False  # the next body line is the first after a BEGIN marker

    @property
    def active(self) -> bool:
        return self.mode != IDLE

    def step(self, line: bytes) -> bool:
        """Advance by one line; True when the line is to be redacted."""
        mode = self.mode
        if mode == IDLE:
            return self._markers(line)
        if self._markers(line):
            return True
        if _HEADER.match(_clean(line).strip(" >|+-*\"'`")) and mode == BLOCK:
            return True
        remaining = self.expect - self.seen if self.expect > self.seen else 0
        kind, width = classify(line, strict=mode == WATCH, width=self.width, remaining=remaining)
        if kind == BODY:
            if self.head:
                self.head = False
                toks = _TOKEN.findall(_clean(line))
                self.expect = der_body_length(max(toks, key=len)) if toks else 0
            self.seen += width
            self.mode = BLOCK
            self.width = width
            return True
        if kind == SEPARATOR:
            return False
        self._reset(IDLE)
        return False

    def absorb(self, run: bytes) -> None:
        """Body lines another machine redacted in bulk: count their base64.

        (Counted by their runs of four or more base64 characters: decoration
        such as line numbers is not counted, so the count never runs ahead
        of the body's own length by much, and a short count only means a
        word after the END is read as prose.)
        """
        if self.mode != BLOCK:
            return
        toks = _B64_RUN.findall(run)
        if not toks:
            return
        if self.head:
            self.head = False
            self.expect = der_body_length(toks[0])
        self.seen += sum(map(len, toks))

    def _reset(self, mode: int) -> None:
        self.mode = mode
        self.width = 0
        self.seen = 0
        self.expect = 0
        self.head = mode == BLOCK

    def _markers(self, line: bytes) -> bool:
        """A line holding a marker: redacted (BEGIN) and the state it leaves."""
        if line.isascii() and b"\x1b" not in line and (
            b"-" not in line or b"---" not in line.translate(None, _ASCII_WS)
        ):
            return False  # no run of three dashes: no marker (the common case)
        low = marker_text(line)
        if "-" not in low or "privatekey" not in low:
            return False
        b = [m.start() for m in _BEGIN.finditer(low)]
        e = [m.start() for m in _END.finditer(low)]
        if not b and not e:
            return False
        if e and (not b or e[-1] > b[-1]):
            if self.mode == IDLE and not b:
                self._reset(WATCH)  # a lone END: watch for a body after it, keep the line
                return False
            self.mode = WATCH
            return True
        self._reset(BLOCK)
        return True
