"""Proving built-in rules silent on many lines at once (``--rules extended`` in bulk).

On text dense in near misses nearly every line is a candidate of some rule,
and running each rule and its validator in Python per line is the cost.  A
*proof pattern* stands for a rule: a ``re`` bytes pattern that matches every
line on which the rule fires (a superset), run once over a rule's candidate
lines joined by newlines.  Only the lines where it matches go to the rule
itself (and its validator); every other line is proven silent for that rule,
with no Python per line.

A proof pattern is the rule's own regex, made safe for the newline join, and
for the rules whose validators refuse common near misses, with lookaheads
that say what every accepted match holds (a digit in a Stripe key, a value
that does not start with ``$``, ``<`` or ``{``, ...): each such condition is
implied by the validator accepting that match, so adding it never loses a
line the rule fires on.

Why a match inside one line is still a match of the joined text at the same
place (:func:`newline_safe` checks the conditions on the parsed pattern, and
a rule that fails them is not served in bulk):

* ``^`` and ``$`` run in multi-line mode (line starts and ends); the rules'
  ``\\Z`` ("end of the line") is written ``$``; ``\\A`` is refused;
* ``\\b``/``\\B``: a newline is no word character, as the line's edge is not;
* every lookaround's body cannot match a newline, so at a line's edge it sees
  what it saw at the edge of the line alone (nothing it can match);
* every possessive repeat and atomic group cannot match a newline, so it
  takes the same bytes as on the line alone;
* the rest of the pattern may match a newline: that only adds matches across
  lines (lines sent to the exact check for nothing), never removes one, as a
  backtracking search explores every path at a position.

So the leftmost match of the joined text from a line's start starts at or
before any match of that line; the line where it starts is sent on, and the
search goes on from the next line.
"""

from __future__ import annotations

from council_filters.base.memo import lru_cache
from council_filters.redaction.lazy import (
    DOTALL,
    MULTILINE,
    compile_kept,
    escape,
)
from council_filters.redaction.secrets import builtin, validators
from council_filters.redaction.secrets.rules import Rule, joined_hits

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re
    import re._constants as _c  # the parser of the re module (Python 3.11+)
    from collections.abc import Iterable, Sequence
    from typing import Any

_NL = 10
# Categories that hold a newline (filled with re's parser, see _parse).
_NL_CATEGORIES: set[Any] = set()


def _parse(pattern: bytes) -> Any:
    """``pattern`` parsed by ``re``'s parser (with ``re.M``).  The parser is loaded
    here, on first use (the tests check the proofs with it; a run needs it not)."""
    global _c
    import re._constants as _c
    from re import _parser

    if not _NL_CATEGORIES:
        _NL_CATEGORIES.update((
            _c.CATEGORY_SPACE, _c.CATEGORY_NOT_DIGIT, _c.CATEGORY_NOT_WORD,
            _c.CATEGORY_LINEBREAK, _c.CATEGORY_UNI_SPACE, _c.CATEGORY_UNI_NOT_DIGIT,
            _c.CATEGORY_UNI_NOT_WORD, _c.CATEGORY_UNI_LINEBREAK))
    return _parser.parse(pattern, MULTILINE)


def _set_has_newline(items: Any) -> bool:
    negate = False
    found = False
    for op, av in items:
        if op is _c.NEGATE:
            negate = True
        elif op is _c.LITERAL:
            found = found or av == _NL
        elif op is _c.RANGE:
            found = found or av[0] <= _NL <= av[1]
        elif op is _c.CATEGORY:
            found = found or av in _NL_CATEGORIES
        else:  # anything unknown: assume it may
            found = True
    return found != negate


def _may_match_newline(items: Any) -> bool:
    """Whether a parsed (sub)pattern can consume a newline (conservative: unknown is yes)."""
    for op, av in items:
        if op is _c.LITERAL:
            if av == _NL:
                return True
        elif op is _c.NOT_LITERAL:
            if av != _NL:
                return True
        elif op is _c.ANY:
            continue  # "." without DOTALL (refused below when DOTALL is on)
        elif op is _c.IN:
            if _set_has_newline(av):
                return True
        elif op is _c.CATEGORY:
            if av in _NL_CATEGORIES:
                return True
        elif op in (_c.MAX_REPEAT, _c.MIN_REPEAT, _c.POSSESSIVE_REPEAT):
            if _may_match_newline(av[2]):
                return True
        elif op is _c.SUBPATTERN:
            if _may_match_newline(av[-1]):
                return True
        elif op is _c.ATOMIC_GROUP:
            if _may_match_newline(av):
                return True
        elif op is _c.BRANCH:
            if any(_may_match_newline(b) for b in av[1]):
                return True
        elif op is _c.GROUPREF_EXISTS:
            if _may_match_newline(av[1]) or (av[2] is not None and _may_match_newline(av[2])):
                return True
        elif op in (_c.ASSERT, _c.ASSERT_NOT, _c.AT):
            continue  # consumes nothing
        else:  # back-references and anything else: may
            return True
    return False


def _safe(items: Any) -> bool:
    for op, av in items:
        if op is _c.AT:
            if av in (_c.AT_BEGINNING_STRING, _c.AT_END_STRING):
                return False
        elif op in (_c.ASSERT, _c.ASSERT_NOT):
            if _may_match_newline(av[1]):
                return False
        elif op is _c.POSSESSIVE_REPEAT:
            if _may_match_newline(av[2]):
                return False
        elif op is _c.ATOMIC_GROUP:
            if _may_match_newline(av) or not _safe(av):
                return False
            continue
        if op in (_c.MAX_REPEAT, _c.MIN_REPEAT, _c.POSSESSIVE_REPEAT):
            if not _safe(av[2]):
                return False
        elif op is _c.SUBPATTERN:
            if not _safe(av[-1]):
                return False
        elif op is _c.BRANCH:
            if not all(_safe(b) for b in av[1]):
                return False
        elif op is _c.GROUPREF_EXISTS:
            if not _safe(av[1]) or (av[2] is not None and not _safe(av[2])):
                return False
        elif op in (_c.ASSERT, _c.ASSERT_NOT) and not _safe(av[1]):
            return False
    return True


def newline_safe(pattern: bytes) -> bool:
    """Whether ``pattern`` (compiled with ``re.M``) finds, over lines joined by
    newlines, a match at every place it finds one in a line alone (see above)."""
    parsed = _parse(pattern)
    if parsed.state.flags & DOTALL:
        return False
    return _safe(parsed)


def joinable(pattern: bytes) -> bytes:
    """A line pattern written for the join: ``\\Z`` (the line's end) as ``$``."""
    if b"\\Z" not in pattern:
        return pattern
    # Escapes are read in pairs: "\\Z" is one when its backslash is no escaped one.
    out = []
    pieces = iter(pattern.split(b"\\"))
    out.append(next(pieces))
    for piece in pieces:
        if not piece:  # "\\\\": an escaped backslash, the next piece is plain text
            after = next(pieces, None)
            out.append(b"\\" if after is None else b"\\\\" + after)
        elif piece.startswith(b"Z"):
            out.append(b"$" + piece[1:])
        else:
            out.append(b"\\" + piece)
    return b"".join(out)


# --------------------------------------------------------------------------- #
# Proof patterns: a rule's regex plus what its validator needs of an accepted match.
# --------------------------------------------------------------------------- #
# Each condition below holds of every match the rule accepts (the comments say
# why, from the validator); a match that fails one is refused by the validator
# anyway, so the proof pattern still matches every line the rule fires on.
# Negative lookaheads only refuse what lies inside the secret as the rule
# takes it (the bounds below); positive ones may look further (weaker).
def _words(words: tuple[str, ...]) -> bytes:
    # (then by the words: the same pattern, and cached program, whatever the set's order)
    longest_first = sorted(words, key=lambda w: (-len(w), w))
    # (any case: the validator compares the value lower-cased)
    return b"(?i:" + b"|".join(escape(w.encode()) for w in longest_first) + b")"


_RUN = rb"""[^\s"'`,;|]"""  # a byte of an unquoted value (the rules' class)
_QCH = rb"""[^"'`\n]"""  # a byte of a quoted value (it ends at the first quote)
_NAME_LETTERS = "abcdefghijklmnopqrstuvwxyz_"
#: Words of at least four letters whose presence in a value that is a bare
#: identifier (no digit) makes it a name, not a secret (validators.assignment_ok).
_NAME_WORD_LIST = tuple(
    w for w in validators.PASSWORD_WORDS + validators.SECRET_WORDS
    if len(w) >= 4 and not w.strip(_NAME_LETTERS)
)
_NAME_WORDS = _words(_NAME_WORD_LIST)
#: Values that are code words (``None``, ``str``, ``required``, ...).
_CODE = _words(tuple(validators.CODE_WORDS))
_INNER = rb"""[^\s"'`,;|<>{}()\[\]]"""  # a byte inside a reference, in every value's class
#: A subset of what rules.is_placeholder finds in a value (case as it reads it:
#: the words in any case, also where the proof's own pattern minds case).
_PLACEHOLDER = (
    rb"(?:(?-i:xxxx|XXXX|x{6}|X{6}|\*{6}|\#{6}|\.{6}|_{6}|-{6}|0{8}|\$[A-Z_]{3,}\b)"
    rb"|(?i:example|placeholder|redacted|changeme|change_me|dummy|replace[_-]?me|insert[_-]"
    rb"|your[_-]?(?:own[_-]?)?(?:api[_-]?)?(?:key|token|secret|pass|password))"
    # a whole reference (rules.REFERENCE_WHOLE), of bytes every value here may
    # hold (so it lies inside the value): an opener alone is a drawn sign
    rb"|\$\{[#!]?[A-Za-z0-9_.]++(?:[:/%#^@?+=-]" + _INNER + rb"{0,200}+)?\}"
    rb"|\{\{" + _INNER + rb"{0,200}+\}\})"
)
#: The bytes a placeholder or a template's ``#{`` can start with (and with the
#: brackets of code): the lazy scans below look for one only where such a byte
#: is, so the words are not tried at every byte (the same matches; a test
#: derives these classes from the patterns they gate).
_PLACEHOLDER_FIRST = rb"(?=[xX*#._\-0$eEpPrRcCdDiIyY{])"
_CODE_FIRST = rb"(?=[()\[\]{}xX*#._\-0$eEpPrRcCdDiIyY])"
_PLACEHOLDER_OR_TEMPLATE = _PLACEHOLDER_FIRST + rb"(?:#\{|" + _PLACEHOLDER + rb")"
_CODE_OR_PLACEHOLDER = _CODE_FIRST + rb"(?:[()\[\]{}]|#\{|" + _PLACEHOLDER + rb")"
#: An ASCII dotted name none of whose parts reads as random (validators._DOTTED
#: reads \w, which holds these; the validator takes a dotted value only for a
#: random part, which needs a digit, both cases and six bytes: a part with no
#: digit, of one case, or shorter is none).  Each part is taken whole
#: (possessive) and looked ahead at once, so the search stays linear.
_PART = (
    rb"(?=(?-i:[A-Za-z_$]++|[a-z0-9_$]++|[A-Z0-9_$]++|[A-Za-z0-9_$]{1,5}+)(?![A-Za-z0-9_$]))"
    rb"[A-Za-z_$][A-Za-z0-9_$]*+"
)
_DOTTED = _PART + rb"(?:(?:\.|::|->)" + _PART + rb")+(?:\(\)?)?"
#: An ASCII path with no digit and no capital (validators._PATH, which a
#: password's value must not be; a value for any other key needs a digit or
#: capitals).
_PLAIN_PATH = rb"(?-i:(?:~|[a-z]:)?[/\\][a-z_.-]++(?:[/\\][a-z_.-]*+)+)"
_CAMEL = rb"(?-i:[a-z]+(?:[A-Z][a-z]+)+)"  # validators._CAMEL without digits
# What str.isdigit, str.isupper and str.islower accept in a value read as latin-1.
_DIGIT = rb"[0-9\xb2\xb3\xb9]"
_CAPITAL = rb"(?-i:[A-Z\xc0-\xd6\xd8-\xde])"
_SMALL = rb"(?-i:[a-z\xaa\xb5\xba\xdf-\xf6\xf8-\xff])"
_WIN_VAR = rb"(?-i:%[A-Z_][A-Z0-9_]*%)"  # validators._WIN_VAR
# A scheme word the validator strips from a quoted value (it then reads a password).
_SCHEME = rb"(?=(?:basic|bearer|token|digest|apikey|key)[ \t\r\f\v]+[^\s\"'`])"
#: A key's end that names a secret (the validator's word and suffix lists);
#: ``pw`` is set when it ends in a password word, so the value needs less.
_KEY_KIND = (
    rb"(?:(?P<pw>)" + builtin.alternation(validators.PASSWORD_WORDS) + rb"[_.-]*"
    + builtin.alternation(validators.KEY_SUFFIXES) + rb"?|" + builtin.KEY_END + rb")"
)

# The value of a key/value pair (builtin._VALUE), with what assignment_ok needs:
# - quoted: not led by $ < { (no scheme word starts so), at least six bytes
#   (both kinds need six; a scheme word only shortens what is looked at), no
#   template or placeholder inside, not a code word, not a bare identifier
#   naming a secret;
# - unquoted (the value is the run, at most 300 bytes): the same, and no
#   brackets (code), no dotted name, no trailing "." or ":", no bare camelCase
#   word; for a key of the secret kind, eight bytes and a digit or two capitals.
def _secret_kind(ch: bytes) -> bytes:
    """A value of the secret kind: eight bytes, a digit or two capitals (under
    twelve, the validator asks every class of character, so a digit too)."""
    return (rb"(?=" + ch + rb"{8})(?=" + ch + rb"{0,300}?(?:" + _DIGIT + rb"|" + _CAPITAL + ch
            + rb"{0,300}?" + _CAPITAL + rb"))")


def _drawn(ch: bytes) -> bytes:
    """What validators.drawn_value needs of a value of ``ch`` bytes (at its first
    byte), which assignment_ok takes before its other gates: ten bytes, and a
    whole hex digest, a whole run of words and a number (two digits, or a
    sign after), or all four classes with three signs, or with a letter after
    a digit and two changes of case.  ``ch`` is a negated class; every look
    is one pass (each run taken whole), so the search stays linear."""
    assert ch.startswith(b"[^"), ch
    rest = ch[2:]
    sign = b"[^A-Za-z0-9\\s" + rest
    no_small, no_capital = b"[^a-z" + rest, b"[^A-Z" + rest
    no_digit, no_letter = b"[^0-9" + rest, b"[^A-Za-z" + rest
    alnum = rb"[A-Za-z0-9]{0,300}+"
    four = (rb"(?=" + no_digit + rb"{0,300}+[0-9])(?=" + no_capital + rb"{0,300}+[A-Z])(?="
            + no_small + rb"{0,300}+[a-z])(?=" + alnum + sign + rb")")
    three_signs = rb"(?=" + (alnum + sign) * 3 + rb")"
    mixed = (
        rb"(?=" + no_digit + rb"{0,300}+[0-9]" + no_letter + rb"{0,300}+[A-Za-z])"
        rb"(?:(?=" + no_small + rb"{0,300}+[a-z]" + no_capital + rb"{0,300}+[A-Z]" + no_small
        + rb"{0,300}+[a-z])|(?=" + no_capital + rb"{0,300}+[A-Z]" + no_small + rb"{0,300}+[a-z]"
        + no_capital + rb"{0,300}+[A-Z]))"
    )
    # (case matters: the patterns that hold it read the rest in any case)
    return (
        rb"(?-i:(?=" + ch + rb"{10})(?:(?=[0-9a-fA-F]{32}|[0-9a-f]{8}-[0-9a-f]{4}-)"
        # words and a number: the whole value (a closer that closes nothing may follow)
        rb"|(?=[A-Za-z][A-Za-z_.-]{3,99}+(?:[0-9]{2,6}+[!#$%&*?@^~+=]?|[0-9]{1,6}+"
        rb"[!#$%&*?@^~+=])[)\]}]?(?!" + ch + rb"))"
        rb"|" + four + rb"(?:" + three_signs + rb"|" + mixed + rb")))"
    )


def _quoted_ok(kind: bool) -> bytes:
    """What assignment_ok needs of a quoted value (at its first byte)."""
    quoted = (
        rb"(?![$<{])(?=" + _QCH + rb"{6})"
        rb"(?!" + _QCH + rb"{0,300}?" + _PLACEHOLDER_OR_TEMPLATE + rb")"
        rb"(?!" + _CODE + rb"""[,;]*["'`])(?!""" + _WIN_VAR + rb"""["'`])"""
        rb"""(?!(?=[A-Za-z_]{1,301}["'`])[A-Za-z_]*?""" + _NAME_WORDS + rb")"
    )
    if kind:
        quoted += rb"(?(pw)|(?:" + _SCHEME + rb"|" + _secret_kind(_QCH) + _NO_INNER_SPACE + rb"))"
    return rb"(?:" + quoted + rb"|" + _drawn(_QCH) + rb")"


# What str.isspace accepts in a value read as latin-1 (the newline aside), and
# a byte of a quoted value that is none of it.
_BLANK = rb"[ \t\r\f\v\x1c-\x1f\x85\xa0]"
_NOT_BLANK = rb"[^\s\"'`\x1c-\x1f\x85\xa0]"
#: A key of the secret kind: no space inside the value as the validator strips
#: it (``" " in value.strip()``): its first byte that is no blank, then, past
#: the bytes up to a space and the blanks after it, another such byte.  Each
#: run is taken whole (possessive), so the look is one pass; a value longer
#: than the rule takes does not match here at all.
_NO_INNER_SPACE = (
    rb"(?!" + _BLANK + rb"{0,300}+" + _NOT_BLANK + rb"""[^ "'`\n]{0,300}+ """ + _BLANK
    + rb"{0,300}+" + _NOT_BLANK + rb")"
)


def _unquoted_ok(kind: bool, run: bytes = _RUN) -> bytes:
    """What assignment_ok needs of an unquoted value (at its first byte), the
    value being the whole run of ``run`` bytes there.  A run that holds no
    bracket (an enclosed pair's) is not searched for one: the closer after it
    is one."""
    inside = _CODE_OR_PLACEHOLDER if run == _RUN else _PLACEHOLDER_OR_TEMPLATE
    unquoted = (
        rb"(?![$<{])(?=" + run + rb"{6})"
        rb"(?!(?=" + run + rb"{1,300}(?!" + run + rb"))(?:" + _DOTTED + rb"(?!" + run + rb")|"
        + _CODE + rb"(?!" + run + rb")|" + run + rb"*?" + inside
        + rb"|" + run + rb"*[.:](?!" + run + rb")))"
        rb"(?!(?=[A-Za-z_]{1,300}(?!" + run + rb"))(?:[A-Za-z_]*?" + _NAME_WORDS + rb"|"
        + _CAMEL + rb"(?!" + run + rb")))"
        rb"(?!" + _WIN_VAR + rb"(?!" + run + rb"))"
        rb"(?!" + _PLAIN_PATH + rb"(?!" + run + rb"))"
    )
    if kind:
        unquoted += rb"(?(pw)|" + _secret_kind(run) + rb")"
    return rb"(?:" + unquoted + rb"|" + _drawn(run) + rb")"


def _proof_value(kind: bool) -> bytes:
    """builtin._VALUE with what assignment_ok needs of it; ``kind``: the pattern
    has set group ``pw`` when the key ends in a password word."""
    return (
        rb"""(?P<q>["'`])?(?P<v>(?(q)""" + _quoted_ok(kind) + rb"""[^"'`\s][^"'`]{0,300}?|"""
        + _unquoted_ok(kind) + rb"""[^\s"'`,;|]{1,300}))(?(q)(?P=q))"""
    )


_PROOF_VALUE = _proof_value(True)
assert builtin.VALUE.startswith(b"(?P<q>")


def _key_ahead(name: bytes, tail: bytes = rb"[$@]*") -> bytes:
    """A lookahead at a key's name run: it ends in a secret word and suffix."""
    return rb"(?=" + name + rb"{0,80}?(?i:" + _KEY_KIND + rb")" + tail + rb"(?!" + name + rb"))"


_NAME = rb"[A-Za-z0-9_.$@-]"
_ENCLOSED = rb"[^\s\"'`,;|\[\](){}]"  # a byte of an enclosed pair's unquoted value
_XML_NAME = rb"[A-Za-z0-9_.:-]"
_XMLV = rb"[^<>\n]"
# secret-xml: the value is the text up to the first "<" (at most 300 bytes),
# read unquoted: the same gates as an unquoted value.
_XML_OK = (
    rb"(?![$<{])(?=" + _XMLV + rb"{6})"
    # (a "]" that opens CDATA's closing "]]>" is no bracket of code)
    rb"(?!" + _XMLV + rb"{0,300}?" + _CODE_FIRST + rb"(?:[()\[{}]|\](?!\]?>)|#\{|"
    + _PLACEHOLDER + rb"))"
    rb"(?!" + _XMLV + rb"{0,299}[.:]<)"
    rb"(?!" + _CODE + rb"[,;]*<)(?!" + _DOTTED + rb"<)"
    rb"(?!(?=[A-Za-z_]{1,300}<)(?:[A-Za-z_]*?" + _NAME_WORDS + rb"|" + _CAMEL + rb"<))"
    rb"(?!" + _WIN_VAR + rb"<)(?(pw)|" + _secret_kind(_XMLV) + rb")"
)
# (a raw "<" or ">" inside the value, before its end tag: the rule reads it)
_XML_OK = rb"(?:" + _XML_OK + rb"|" + _drawn(_XMLV) + rb"|(?=" + _XMLV + rb"{0,300}(?:>|<(?!/))))"
# flag_ok: not led by - $ < { or @ and a name, and not a bare word (a byte that is no letter
# or "_": the first such byte of the secret's class lies inside it).
_FLAG_OK = rb"(?![-$<{]|@[A-Za-z0-9_./~-])"
# redis_ok where the password's place is fixed (AUTH, sentinel auth-pass): a
# lead of - or $ is allowed there (a variable written whole goes on to it)
# (a value led by "<" is refused when a ">" closes it: <password>)
_PLACED_OK = rb"(?![{]|<[^\s\"'>]*>)"
_REDIS_OK = rb"(?![-${]|<[^\s\"'>]*>)"  # (and no file: redis_ok reads no @file)
_DIGIT_AHEAD = rb"(?=[A-Za-z_]*[0-9])"  # stripe_ok: the key holds a digit (keys are
# runs of [A-Za-z0-9_], so the first byte that is no letter or "_" is a digit)

_ATTRV = rb"[^\"'<>\n]"
# secret-xml-attribute: a quoted value up to the first quote or bracket.
_ATTR_OK = (
    rb"(?![$<{])(?=" + _ATTRV + rb"{6})"
    rb"(?!" + _ATTRV + rb"{0,300}?" + _PLACEHOLDER_OR_TEMPLATE + rb")"
    rb"(?!" + _CODE + rb"[,;]*[\"'])(?!" + _WIN_VAR + rb"[\"'])"
    rb"(?(pw)|(?:" + _SCHEME + rb"|" + _secret_kind(_ATTRV) + rb"))"
)
# (a raw "<" or ">" inside the quoted value: the rule reads it)
_ATTR_OK = rb"(?:" + _ATTR_OK + rb"|" + _drawn(_ATTRV) + rb"|(?=" + _ATTRV + rb"{0,300}[<>]))"


def _no_placeholder(least: int) -> bytes:
    """Not a placeholder (rules.is_placeholder) within the first ``least`` bytes of a
    secret that holds at least that many (so what is found lies inside it)."""
    fixed = (b"XXXX", b"xxxx", b"x" * 6, b"X" * 6, b"*" * 6, b"0" * 8, b"EXAMPLE", b"example",
             b"Example", b"PLACEHOLDER", b"placeholder", b"REDACTED", b"redacted", b"CHANGEME",
             b"changeme", b"dummy", b"DUMMY")
    alts = [rb"[^\n]{0,%d}" % (least - len(w)) + escape(w) for w in fixed if len(w) <= least]
    return b"(?!" + b"|".join(alts) + b")"


#: Per rule: (what to find in the rule's pattern, what to put in its place), each
#: found exactly once.
_CONDITIONS: dict[str, tuple[tuple[bytes, bytes], ...]] = {
    "stripe-key": ((rb"\b((?:sk|rk|pk)_", rb"\b(" + _DIGIT_AHEAD + rb"(?:sk|rk|pk)_"),),

    "secret-xml": (
        (rb"<(?P<key>", rb"<(?P<key>" + _key_ahead(_XML_NAME, b":*")),
        (rb"(?P<v>", rb"(?P<v>" + _XML_OK),
    ),
    # flag_ok's first checks, on each secret group
    "redis-credentials": (
        (rb"sentinel-pass))[ \t]+[\"']?([^\s\"']{4,256})",
         rb"sentinel-pass))[ \t]+[\"']?(" + _PLACED_OK + rb"(?=[A-Za-z_]*[^A-Za-z_\s\"'])"
         rb"[^\s\"']{4,256})"),
        (rb"([^\s\"']{6,256})", rb"(" + _PLACED_OK + rb"(?=[A-Za-z_]*[^A-Za-z_\s\"'])"
         rb"[^\s\"']{6,256})"),
        (rb"([^\s\"']{4,256})", rb"(" + _REDIS_OK + rb"(?=[A-Za-z_]*[^A-Za-z_\s\"'])"
         rb"[^\s\"']{4,256})"),
    ),
    "flag-credentials": (
        (rb"([^\s\"'`;|&]{6,256})",
         rb"(" + _FLAG_OK + rb"(?=[A-Za-z_]*[^A-Za-z_\s\"'`;|&])[^\s\"'`;|&]{6,256})"),
    ),
    # key: ends in a secret word and suffix; value: as an assignment's, an
    # unquoted one being the whole run up to the closer (no bracket is in it)
    "secret-enclosed-pair": (
        (rb"(?P<key>[\"'`]?[A-Za-z0-9_.$@-]{1,80}+",
         rb"(?P<key>[\"'`]?" + _key_ahead(_NAME) + rb"[A-Za-z0-9_.$@-]{1,80}+"),
        (rb"(?P<v>(?(q)[^\"'`\s]", rb"(?P<v>(?(q)" + _quoted_ok(True) + rb"[^\"'`\s]"),
        (rb"|[^\s\"'`,;|\[\](){}]{1,300}))",
         rb"|" + _unquoted_ok(True, _ENCLOSED) + rb"[^\s\"'`,;|\[\](){}]{1,300}))"),
    ),
    "secret-xml-attribute": (
        (rb"(?P<key>[A-Za-z0-9_.:$@-]{1,80})",
         rb"(?P<key>" + _key_ahead(rb"[A-Za-z0-9_.:$@-]", rb"[$@:]*")
         + rb"[A-Za-z0-9_.:$@-]{1,80})"),
        (rb"(?P<v>", rb"(?P<v>" + _ATTR_OK),
    ),
    "database-credentials": (
        (rb"'([^'\s]{6,256})'", rb"'(" + _FLAG_OK + rb"(?=[A-Za-z_]*[^A-Za-z_'\s])[^'\s]{6,256})'"),
        (rb"-p([^\s\"'-]", rb"-p(" + _FLAG_OK + rb"(?=[A-Za-z_]*[^A-Za-z_\s\"'])[^\s\"'-]"),
        (rb"password[ \t]+([^\s]{4,256})",
         rb"password[ \t]+(" + _FLAG_OK + rb"(?=[A-Za-z_]*[^A-Za-z_\s])[^\s]{4,256})"),
    ),
    # digit_in / token_shape: a digit (the secrets are runs of their class, so the
    # first byte that is no letter or "-" lies inside one that holds a digit)
    "slack-token": ((rb"\b(xox[abposre]-", rb"\b((?=[A-Za-z-]*[0-9])xox[abposre]-"),),
    # the same places, led by the literal the search skips to (a pattern led by
    # "(?:^|[...])" is tried at every byte): "-D" where a blank, a quote or
    # the line's start is before it
    "secret-system-property": ((rb"(?:^|[\s\"'])-D", rb"-D(?<=(?<![^\s\"'])-D)"),),
    "login-credentials": ((rb"(?:^|[\s;|&(`])-[uU]", rb"-(?<=(?<![^\s;|&(`])-)[uU]"),),
    # led by the "_" (a blank, a line's start or ":" before it: a superset of
    # a line's start and blanks, or "/:")
    "npmrc-auth": ((rb"(?:^[ \t]*|/:)_", rb"_(?<=(?<![^ \t\n:])_)"),),
    # placeholders: within the shortest secret each rule takes
    "aws-access-key-id": ((rb"\b((?:A3T", rb"\b(" + _no_placeholder(20) + rb"(?:A3T"),),
    "google-oauth-token": ((rb"\b(ya29", rb"\b(" + _no_placeholder(25) + rb"ya29"),),
    "gitlab-token": ((rb"\b(gl(?:pat", rb"\b(" + _no_placeholder(23) + rb"gl(?:pat"),),
    "sendgrid-api-key": ((rb"\b(SG\.", rb"\b(" + _no_placeholder(36) + rb"SG\."),),
    "github-token": ((rb"\b(gh[rsuop]_", rb"\b(" + _no_placeholder(40) + rb"gh[rsuop]_"),),
    # cut_value_ok: a separator inside the value (one with a byte after it
    # that is no separator), and a digit, a capital and a small letter (all
    # four classes; the separator is the sign), within the 300 bytes it reads
    "secret-cut-value": (
        (rb"(?P<v>[^\s\"'`]{10,300}+)",
         rb"(?P<v>(?=[^\s\"'`]{0,300}?[,;|][^\s\"'`,;|])(?=[^\s\"'`]{0,300}?" + _DIGIT
         + rb")(?=[^\s\"'`]{0,300}?" + _CAPITAL + rb")(?=[^\s\"'`]{0,300}?" + _SMALL
         + rb")[^\s\"'`]{10,300}+)"),
    ),
    # redis_userinfo_ok: the password (the user part, or what follows its
    # first ":") has eight bytes and a digit, so the user part, which an "@"
    # ends, has both before some "@"
    # and a sign a URL encodes, or a capital and a small letter, or a run of
    # 24 hex digits (url_token_ok and the drawn value's three classes)
    "redis-url-userinfo": (
        (rb"://([^\s\"'`]{1,256})@",
         rb"://((?=[^\s\"'`]{8}[^\s\"'`]{0,248}?@)(?=[^\s\"'`]{0,255}?" + _DIGIT
         + rb"[^\s\"'`]{0,255}?@)(?:(?=[^\s\"'`]{0,255}?[!#$%&()*+,/;<=>?@\[\]^{|}~]"
         rb"[^\s\"'`]{0,255}?@)|(?=[^\s\"'`]{0,255}?" + _CAPITAL + rb"[^\s\"'`]{0,255}?@)"
         rb"(?=[^\s\"'`]{0,255}?" + _SMALL + rb"[^\s\"'`]{0,255}?@)"
         rb"|(?=[^\s\"'`]{0,232}?[0-9a-fA-F]{24}))[^\s\"'`]{1,256})@"),
    ),
    # url_token_ok: a run of 24 hex digits, or three changes of case (a
    # capital and a small letter) within the user part
    "url-token-userinfo": (
        (rb"://([^\s:/?#@\"'<>\[\]`]{8,256}+)@",
         rb"://((?:(?=[^\s:/?#@\"'<>\[\]`]{0,255}?" + _CAPITAL
         + rb")(?=[^\s:/?#@\"'<>\[\]`]{0,255}?" + _SMALL + rb")|(?=[0-9a-fA-F]{24}))"
         rb"[^\s:/?#@\"'<>\[\]`]{8,256}+)@"),
    ),
    "bearer-token": (
        (rb"([A-Za-z0-9._~+/-]{12,}=*)", rb"((?=[A-Za-z._~+/-]*[0-9])[A-Za-z0-9._~+/-]{12,}=*)"),
    ),
    "authorization-header": (
        (rb"([A-Za-z0-9._~+/=:-]{16,})", rb"((?=[A-Za-z._~+/=:-]*[0-9])[A-Za-z0-9._~+/=:-]{16,})"),
    ),
}


# Key/value rules whose proof starts at the key's end, not its start: the
# secret word and suffix that end the key, then what follows the key in the
# rule.  A match of the rule whose key names a secret holds one of these at
# the key's end, on the same line (so the line is found all the same), and
# the search no longer tries the key's possible starts at every word.
def _key_end(name: bytes, tail: bytes) -> bytes:
    return rb"(?i:" + _KEY_KIND + rb")" + tail + rb"(?!" + name + rb")"


_WHOLE: dict[str, bytes] = {
    # (?<!NAME)(?P<key>["'`]?NAME{1,80}+["'`]?\]?) OP VALUE
    "secret-assignment": rb"(?i)" + _key_end(_NAME, rb"[$@]*") + rb"""["'`]?\]?\*{0,2}"""
    + builtin.OP + _PROOF_VALUE,
    "secret-scrambled-value": rb"(?i)" + _key_end(_NAME, rb"[$@]*") + rb"""["'`]?\]?\*{0,2}"""
    + builtin.OP + builtin.SCRAMBLED,
    # \|[ \t]*(?P<key>`?NAME{1,80}`?)[ \t]*(?P<op>\|)[ \t]* VALUE
    "secret-table-cell": rb"(?i)" + _key_end(_NAME, rb"[$@]*") + rb"`?[ \t]*(?P<op>\|)[ \t]*"
    + _PROOF_VALUE,
    # \bname ... (?P<key>[A-Za-z0-9_.-]{1,80})["']?[ \t]*,[ \t]*["']?value ... VALUE
    "secret-name-value": rb"(?i)" + _key_end(rb"[A-Za-z0-9_.-]", b"")
    + rb"""["']?[ \t]*,[ \t]*["']?[A-Za-z]{0,20}value["']?[ \t]*(?P<op>[:=])[ \t]*"""
    + _PROOF_VALUE,
}


# A first, cheaper stage for them: from the operator on (a byte the search can
# skip to), without the key; only the lines it finds go through the whole proof.
_OPS_FIRST = rb"(?P<op>:=|=>|\?=|\|\|=|:|=(?!=)|<-|\xef\xbc[\x9a\x9d])"
assert builtin.OP == rb"[ \t]*" + _OPS_FIRST + rb"[ \t]*"
_SIGNED_RUN = rb"[^\s\"'`]{0,298}"  # (a sign-led value: 300 bytes of one run at most)
_RUN_HOLDS = b"".join(rb"(?=" + _SIGNED_RUN + c + rb")"
                      for c in (rb"[0-9\x80-\xff]", rb"[a-z\x80-\xff]", rb"[A-Z\x80-\xff]"))
_FIRST: dict[str, bytes] = {
    "secret-assignment": rb"(?i)" + _OPS_FIRST + rb"[ \t]*" + _proof_value(False),
    "secret-scrambled-value": rb"(?i)" + _OPS_FIRST + rb"[ \t]*" + builtin.SCRAMBLED,
    "secret-table-cell": rb"(?i)(?P<op>\|)[ \t]*" + _proof_value(False),
    "secret-name-value": rb"(?i)(?-i:[Vv])alue[\"']?[ \t]*(?P<op>[:=])[ \t]*" + _proof_value(False),
    # sign_led_drawn's first asks, without the key: a sign, then nine bytes
    # and more of the value's run holding a digit and letters of both cases
    # (a byte past ASCII may be either, as latin-1 reads it); most values led
    # by a sign under a secret key are variables in one case ($DB_PASS_2).
    "secret-sign-led-value": rb"[\x24=(\[-]" + _RUN_HOLDS + rb"[^\s\"'`]{9}",
    # the start of a passphrase, without the key: three words joined by dots
    # or dashes, or by blanks after a quote (unquoted, blanks make prose)
    "secret-passphrase": rb"[a-z]{3,10}+(?:(?:\.[a-z]{3,10}+){2}|(?:-[a-z]{3,10}+){2})"
    rb"|[\"'`][a-z]{3,10}+(?: [a-z]{3,10}+){2}",
}


def proof_sources(rule: Rule) -> tuple[bytes, ...]:
    """The proof patterns of a built-in rule, run one after the other (each on the
    lines the one before found): every one matches every line the rule fires on."""
    whole = _proof_source(rule)
    first = _FIRST.get(rule.id) if builtin.BY_ID.get(rule.id) == rule else None
    return (first, whole) if first is not None else (whole,)


def _proof_source(rule: Rule) -> bytes:
    pattern = rule.regex.pattern
    if rule.id in _WHOLE and builtin.BY_ID.get(rule.id) == rule:
        return _WHOLE[rule.id]
    if builtin.BY_ID.get(rule.id) == rule:
        for old, new in _CONDITIONS.get(rule.id, ()):
            assert pattern.count(old) >= 1, (rule.id, old)
            pattern = pattern.replace(old, new)
        if rule.id == "redis-credentials":
            pattern = _redis_led(pattern)
    return joinable(pattern)


# The Redis rule's three forms start with what may stand before a word
# ("(?:^|[...])", "\b"), which the search tries at every byte.  Its proof is
# led by the class of the words' first letters, which the search skips to;
# each form then looks behind at the letter taken and at the byte before it
# (no such byte: the line's start): the same places, the same lines.
_REDIS_HEADS = (
    rb"""(?i:(?:^|[\s;|&(`'\"]|--)(?:requirepass|masterauth))""",
    rb"""|(?:^|[>\s])AUTH""",
    rb"""|\bredis-cli\b""",
)


# Its two later forms: an ACL user's password (after "ACL SETUSER", or in an
# ACL file's "user" line) and a sentinel's.
_REDIS_MORE = (
    rb"""|(?i:\bACL[ \t]+SETUSER|^[ \t]*user)""",
    rb"""|(?i:\bsentinel[ \t]+""",
)


def _redis_led(pattern: bytes) -> bytes:
    a, b, c = _REDIS_HEADS
    d, e = _REDIS_MORE
    assert pattern.startswith(a) and all(pattern.count(h) == 1 for h in (b, c, d, e)), pattern
    a_tail, rest = pattern[len(a):].split(b)
    b_tail, rest = rest.split(c)
    c_tail, rest = rest.split(d)
    d_tail, e_tail = rest.split(e)
    # (what may not stand before the word's first letter; "--" may lead
    # requirepass and masterauth, so a dash may)
    dashed = rb"""[^\s;|&(`'\"-]"""
    return (
        rb"[rRmMAaSs](?:(?<=[rR])(?<!" + dashed + rb"[rR])(?i:equirepass)" + a_tail
        + rb"|(?<=[mM])(?<!" + dashed + rb"[mM])(?i:asterauth)" + a_tail
        + rb"|(?<=A)(?<![^>\s]A)UTH" + b_tail
        + rb"|(?<=r)(?<![A-Za-z0-9_]r)edis-cli\b" + c_tail
        + rb"|(?<=[aA])(?<![A-Za-z0-9_][aA])(?i:cl[ \t]+setuser)" + d_tail
        + rb"|(?<=[sS])(?<![A-Za-z0-9_][sS])(?i:entinel[ \t]+" + e_tail + rb")"
        + rb"|(?im:^[ \t]*user)" + d_tail
    )


@lru_cache(maxsize=64)
def proof_regexes(rule: Rule) -> tuple[re.Pattern[bytes], ...] | None:
    """The compiled proof patterns of a built-in rule (None: not served in bulk)."""
    if rule.text or builtin.BY_ID.get(rule.id) != rule:
        return None
    # (every proof is newline-safe and takes a byte of its line: the tests
    # check both with newline_safe and takes_a_byte; parsing them again here
    # would cost each run as much as compiling them)
    return tuple(compile_kept(src, MULTILINE) for src in proof_sources(rule))


def takes_a_byte(pattern: bytes) -> bool:
    """Every match of ``pattern`` is at least one byte long (see maybe_lines)."""
    return bool(_parse(pattern).getwidth()[0] > 0)


def servable(rule: Rule) -> bool:
    """Whether a built-in rule can be proven silent in bulk (without compiling it)."""
    return not rule.text and builtin.BY_ID.get(rule.id) == rule


def maybe_lines(rule: Rule, lines: Sequence[bytes]) -> set[bytes] | None:
    """The lines among ``lines`` on which the rule may fire (a superset), in one
    pass of its proof pattern over them joined by newlines; None when the rule
    cannot be served so."""
    if compiled(rule):
        least, most = builtin.B64_LEAST, builtin.B64_MAX
        return {lines[i] for i in _base64_words()(lines, builtin.B64_WORDS, least, most)}
    stages = proof_regexes(rule)
    if stages is None:
        return None
    gate = _value_gate(rule)
    if gate is not None:
        # (the compiled look at the values: a superset of the first stage's lines)
        lines = [lines[i] for i in gate(lines, _VALUE_GATED[rule.id], *_gate_words())]
        if not lines:
            return set()
    found: set[bytes] | None = None
    for rx in stages:
        if found is not None:
            lines = [ln for ln in lines if ln in found]
            if not lines:
                break
        found = lines_matching(rx, lines)
    return found


def compiled(rule: Rule) -> bool:
    """Whether the rule's proof runs compiled (a pass over a few lines costs next
    to nothing then): secret-base64-assignment's, when the module is built."""
    return (rule.id == "secret-base64-assignment" and servable(rule)
            and _base64_words() is not None)


def _base64_words() -> Any:
    """The compiled proof of secret-base64-assignment (``_machine.base64_words``),
    or None when the module is not built.

    It reads what the rule's own pattern asks, byte by byte: a whole run of
    the base64 alphabet of :data:`builtin.B64_LEAST` to :data:`builtin.B64_MAX`
    bytes, at most two ``=`` and then no byte of the alphabet or ``=``, with a
    key word's base64 in the run; and what the validator asks first, that the
    run decode to text (tabs, line ends, printable ASCII).  At memory speed,
    where ``re`` tried every word at every byte of a run (8 MB/s); and a run
    of letters that happens to hold a word's base64 (``BXR``) decodes to
    bytes that are no text, so its line no longer goes to the validator.  The
    rule and its validator still decide on the lines it finds."""
    from council_filters.redaction import native

    return getattr(native.compiled(), "base64_words", None)


#: The built-in rules whose first proof stage is an operator, blanks and a
#: value with what assignment_ok needs of it (``_proof_value(False)``), or
#: a scrambled value (builtin.SCRAMBLED), and how the compiled module's
#: ``value_gate`` reads them: 0 after an assignment's operator, 1 after a
#: table cell's ``|``, 2 a scrambled value after an assignment's operator;
#: plus 4 where the rule's whole proof has a key naming a secret end before
#: that operator (read loosely: the words and suffixes of ``_KEY_KIND``).
#: It reads those values byte by byte and sets aside only lines whose every
#: value surely fails (each condition it reads is one of those patterns',
#: read as they read it; a test holds it to a superset of the lines the
#: stages find), so the stages, and the rule, see the same lines as without
#: it.  Text dense in near misses (placeholders, code, variables after a
#: secret's key) is mostly set aside there, at about ten times the speed of
#: the stages' patterns.
_VALUE_GATED = {"secret-assignment": 0 | 4, "secret-name-value": 0, "secret-table-cell": 1 | 4,
                "secret-scrambled-value": 2 | 4}


def _value_gate(rule: Rule) -> Any:
    """The compiled value gate for a rule of :data:`_VALUE_GATED` (its own,
    built-in), or None (another rule, or the module is not built)."""
    if rule.id not in _VALUE_GATED or not servable(rule):
        return None
    from council_filters.redaction import native

    return getattr(native.compiled(), "value_gate", None)


@lru_cache(maxsize=1)
def _gate_words() -> tuple[tuple[bytes, ...], ...]:
    """The words the value gate reads, in lower case: the code words and name
    words of the proof patterns' ``_CODE`` and ``_NAME_WORDS``, the key words
    and suffixes of ``_KEY_KIND`` (all of them read in any case there)."""
    def lower(words: Iterable[str]) -> tuple[bytes, ...]:
        return tuple(sorted({w.lower().encode() for w in words}))

    return (lower(validators.CODE_WORDS), lower(_NAME_WORD_LIST),
            lower(validators.PASSWORD_WORDS + validators.SECRET_WORDS),
            lower(validators.KEY_SUFFIXES))


def lines_matching(rx: re.Pattern[bytes], lines: Sequence[bytes]) -> set[bytes]:
    """The lines among ``lines`` where ``rx`` (newline-safe, a byte long at
    least) may match, from one search of them joined by newlines (a match from
    the newline after a line, ``[\\s;]AUTH``, belongs to neither)."""
    return {lines[i] for i in joined_hits(rx, lines, byte_long=True)}
