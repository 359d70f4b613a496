"""Values written on the lines after their key (``--rules extended``).

A few shapes put a secret on the line after the one that names it:

* a YAML block scalar: ``password: |`` (or ``>``, ``|-``, ``>-``, ...) and
  the value on the next, more indented line(s);
* a line continued by a backslash: ``aws_session_token = \\`` and the value
  on the next line;
* an HCL variable block whose name names a secret: ``variable "db_password" {``
  and ``default = "..."`` inside it;
* a long token cut at a fixed width (64 or 76 columns): the line that starts
  it is redacted by a rule, the continuation lines hold no key at all.

:class:`Follow` carries what such a line opens to the lines after it: the
key, the opener's indentation, the width of a wrapped token, and how many
lines it may still look at.  The state is a few integers and the key (80
bytes at most), and each line is looked at once with linear work, so the
carry is bounded and the stream stays linear.  Whether a value is a secret
is not decided here: the caller's ``confirm`` reads ``key: value`` as one
line with the rules (the same validators as a value on the key's line).
"""

from __future__ import annotations

from council_filters.redaction.lazy import LazyRegex

#: How many lines after its opener a block may hold values.
BLOCK_LINES = 8
#: How many continuation lines a wrapped token may run over (a 1,500-byte
#: token at 64 columns takes 24).
WRAP_LINES = 32
#: A line read as the start of a wrapped token: a run of token bytes of this
#: length at least at its end ...
WRAP_RUN = 32
#: ... on a line this wide at least (tokens are cut at 64 or 76 columns; a
#: shorter line ends where its value does).
WRAP_WIDTH = 60

_ALNUM = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
_B64 = _ALNUM + b"+/_-"  # base64 and URL-safe base64
_STD, _URL = _ALNUM + b"+/", _ALNUM + b"_-"
_BLANKS = b" \t\r"

# ``key: |`` / ``key: >-`` (a YAML block scalar), ``key = \`` / ``key: \``
# (a value continued on the next line); a list dash may lead.
_BLOCK_OPEN = LazyRegex(
    rb"""(?P<lead>[ \t]*(?:-[ \t]+)?)["']?(?P<key>[A-Za-z0-9_.$@-]{1,80})["']?[ \t]*"""
    rb"""(?:(?P<block>:)[ \t]*[|>][-+1-9]{0,2}|[:=][ \t]*(?:\\|<<-?[A-Za-z_][A-Za-z0-9_]{0,30}))"""
    rb"""[ \t\r]*"""
)
_HCL_OPEN = LazyRegex(rb"""[ \t]*variable[ \t]+"(?P<key>[A-Za-z0-9_.-]{1,80})"[ \t]*\{[ \t\r]*""")
_HCL_DEFAULT = LazyRegex(rb"""[ \t]*default[ \t]*=[ \t]*(?P<v>\S.*)""")

_NONE, _BLOCK, _NEXT, _HCL, _WRAP = range(5)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    Confirm = Callable[[bytes, bytes], "str | None"]


def token_run(text: bytes, alphabet: bytes = _B64) -> bytes:
    """The run of token bytes (``alphabet``: base64 or URL-safe base64, and
    ``=`` padding) that ends ``text`` (blanks after it aside); empty when none does."""
    body = text.rstrip(_BLANKS)
    core = body.rstrip(b"=")
    if len(body) - len(core) > 2:
        return b""
    return body[len(core.rstrip(alphabet)):]


def _alphabet(run: bytes) -> bytes:
    """The alphabet of a token's first piece: URL-safe base64 when it holds
    ``-`` or ``_``, else base64."""
    return _URL if b"-" in run or b"_" in run else _STD


def _chunk(tok: bytes, alphabet: bytes = _B64) -> bool:
    """A piece of a random token: bytes of ``alphabet`` only, a letter and a digit."""
    return (
        len(tok) >= 8
        and token_run(tok, alphabet) == tok
        and any(48 <= c <= 57 for c in tok)
        and any(65 <= c <= 90 or 97 <= c <= 122 for c in tok)
    )


class Follow:
    """What a line opens for the lines after it (see the module's text)."""

    __slots__ = ("kind", "key", "indent", "width", "widths", "alphabet", "left", "rule")

    def __init__(self) -> None:
        self.clear()

    def clear(self) -> None:
        self.kind = _NONE
        self.key = b""
        self.indent = 0
        self.width = 0  # a wrapped token's width (0: none open)
        self.widths: tuple[int, ...] = ()
        self.alphabet = _B64
        self.left = 0
        self.rule = ""

    @property
    def open(self) -> bool:
        """A line opened a block, a value or a wrapped token: the next line must be shown."""
        return self.kind != _NONE

    def opens(self, line: bytes) -> bool:
        """Take ``line`` as an opener when it is one (a key and no value yet)."""
        m = _BLOCK_OPEN.fullmatch(line)
        if m is not None:
            self.clear()
            self.key = m.group("key")
            if m.group("block"):
                self.kind, self.indent, self.left = _BLOCK, len(m.group("lead")), BLOCK_LINES
            else:
                self.kind, self.left = _NEXT, 1
            return True
        m = _HCL_OPEN.fullmatch(line)
        if m is not None:
            self.clear()
            self.kind, self.key, self.left = _HCL, m.group("key"), BLOCK_LINES
            return True
        return False

    def wraps(self, line: bytes, rule_id: str) -> None:
        """A line a rule redacted: when a long token runs to its end, the lines
        after it of the token's width continue it."""
        run = token_run(line)
        if len(run) >= WRAP_RUN and len(line.strip(_BLANKS)) >= WRAP_WIDTH and _chunk(run):
            self.clear()
            self.kind, self.left, self.rule = _WRAP, WRAP_LINES, rule_id
            self._wrap(run, line)

    def _wrap(self, run: bytes, line: bytes) -> None:
        self.width = len(run)
        self.widths = (len(run), len(line.strip(_BLANKS)))
        self.alphabet = _alphabet(run)

    def step(self, line: bytes, confirm: Confirm) -> str | None:
        """The rule id that redacts ``line`` as a value of the open block, or
        None (the block may end here; the caller then reads the line as usual)."""
        if self.left <= 0:
            self.clear()
            return None
        self.left -= 1
        tok = line.strip(_BLANKS)
        if self.width:
            if _chunk(tok, self.alphabet) and len(tok) <= max(self.widths):
                if len(tok) not in self.widths:  # a shorter piece: the token's last
                    self.width = 0
                    if self.kind == _WRAP:
                        self.clear()
                return self.rule
            self.width = 0
            if self.kind == _WRAP:
                self.clear()
                return None
        kind, key = self.kind, self.key
        if kind == _HCL:
            if tok.startswith(b"}"):
                self.clear()
                return None
            m = _HCL_DEFAULT.match(tok)
            return confirm(self.key + b" = ", m.group("v")) if m is not None else None
        if kind == _BLOCK:
            if not tok:
                return None  # a blank line inside the block
            if len(line) - len(line.lstrip(b" \t")) <= self.indent:
                self.clear()
                return None
        elif kind == _NEXT:
            self.clear()
            if not tok:
                return None
        else:
            return None
        rid = confirm(key + b": ", tok)
        if rid is not None and len(tok) >= WRAP_WIDTH and _chunk(tok):
            if kind == _NEXT:
                self.kind = _WRAP
            self.left, self.rule = WRAP_LINES, rid
            self._wrap(tok, line)
        return rid
