"""Rule objects: one credential detector each, with an id, a regex and its gates.

A :class:`Rule` decides about one line at a time (a line has no terminator).
It matches its regex, takes the secret (a capture group, or the whole match),
and drops the match when a gate says it is not a credential: too little
entropy, a documentation placeholder, an allowlist hit, or the rule's own
validator (the built-in assignment rules use one to tell ``password=hunter2``
from ``password=password``).

Two flavours share the class: the built-in rules are ``re`` patterns over
bytes; rules loaded from a gitleaks file are RE2 patterns over text,
run by RE2 (the google-re2 bindings; the ``regex`` module with RE2's meaning
when they are missing), over the line decoded from UTF-8 with invalid bytes
read as U+FFFD, as RE2 reads them.  :meth:`Rule.fires` hides the
difference.
"""

from __future__ import annotations

import math

from council_filters.base.memo import lru_cache
from council_filters.base.tuples import NamedTuple
from council_filters.redaction.lazy import LazyRegex

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Any

    #: A validator sees the secret and the whole match (both text) and says
    #: whether they still look like a credential.
    Validator = Callable[[str, Any], bool]


@lru_cache(maxsize=4)
def _latin1(data: bytes) -> str:
    return data.decode("latin-1")


def shannon_entropy(text: str) -> float:
    """Bits per character of ``text`` (0 for the empty string)."""
    if not text:
        return 0.0
    n = len(text)
    # (each character's count, in the order of first occurrence: the sum of
    # ``collections.Counter(text).values()``'s terms, added in its order)
    count = text.count
    return -sum(c / n * math.log2(c / n) for c in map(count, dict.fromkeys(text)))


#: Terminal escapes (colours, cursor moves, titles), removed before rules look.
_ANSI = LazyRegex(
    rb"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[@-Z\\-_])|\x9b[0-?]*[ -/]*[@-~]"
)

#: A quote escaped once or more (``\\"``, ``\\\\\\"``), as JSON inside a string writes it.
_ESCAPED_QUOTE = LazyRegex(rb"\\+([\"'])")

# --------------------------------------------------------------------------- #
# Placeholders: what documentation writes where a credential would go.
# --------------------------------------------------------------------------- #
_PLACEHOLDER_RUN = LazyRegex(r"([Xx*#.\u2022\u2026_-])\1{5,}|0{8,}")
_PLACEHOLDER_WORDS = LazyRegex(
    r"(?i:example|placeholder|redacted|changeme|change_me|your[_-]?(?:own[_-]?)?"
    r"(?:api[_-]?)?(?:key|token|secret|pass|password)|insert[_-]|replace[_-]?me|dummy|"
    # (<words> in angle brackets; a drawn password's <T^Lf)5LL~*=U&> is none)
    r"\bfake|fake[_-]|sample[_-])|xxxx|XXXX|<[A-Za-z0-9 _.,:/@#'-]{1,80}>|"
    r"\$[A-Z_]{3,}\b"
)
#: A reference written whole where the value would go: ``${NAME}``,
#: ``${NAME:-default}``, ``{{ .Values.x }}``, ``%(name)s``.  An opener alone
#: (``BhizEHt${u2Jvn``, ``vsHV{{eAs1``) or one that a drawn sign closes
#: (``cO${R)[YE}``) is part of a drawn value, not a reference.
REFERENCE_WHOLE = (
    r"\$\{[#!]?[A-Za-z0-9_.]+(?:[:/%#^@?+=,-][^{}\s]{0,200})?\}|\{\{.{0,200}?\}\}"
    r"|%\([A-Za-z_]\w{0,80}\)[sdr]"
)
_REFERENCE_WHOLE = LazyRegex(REFERENCE_WHOLE)


def is_placeholder(secret: str) -> bool:
    """Whether ``secret`` is a documentation placeholder rather than a credential.

    One or two distinct characters (``XXXXXXXX``, ``xxxx0000``), a run of six
    or more mask characters, or a word people write in examples
    (``EXAMPLE``, ``your_api_key``, ``<token>``), or a whole reference
    (``${TOKEN}``, ``{{ .Values.token }}``); a drawn value holding ``${`` or
    ``{{`` among its signs is none.
    """
    if len(set(secret)) <= 2:
        return True
    return bool(
        _PLACEHOLDER_RUN.search(secret)
        or _PLACEHOLDER_WORDS.search(secret)
        or _REFERENCE_WHOLE.search(secret)
    )


# --------------------------------------------------------------------------- #
# Allowlists (gitleaks' shape: regexes, stopwords, paths, AND/OR).
# --------------------------------------------------------------------------- #
class Allowlist(NamedTuple):
    """Matches that are not credentials, as a gitleaks allowlist describes them.

    ``target`` is what the regexes test: ``"secret"`` (default), ``"match"``
    or ``"line"``.  Stopwords are tested against the secret, lower-cased.
    With ``condition="AND"`` every kind of check given must hold; with
    ``"OR"`` any regex or stopword hit allows (paths are then checked per
    input, see :meth:`path_allows`).
    """

    regexes: tuple[Any, ...] = ()  # compiled patterns (text)
    stopwords: tuple[str, ...] = ()
    paths: tuple[Any, ...] = ()
    target: str = "secret"
    condition: str = "OR"
    rule_ids: tuple[str, ...] = ()  # a global allowlist limited to these rules

    def path_allows(self, path: str | None) -> bool:
        """The whole input is allowed (OR condition, a path pattern matches)."""
        if self.condition == "AND" or not path or not self.paths:
            return False
        return any(p.search(path) for p in self.paths)

    def allows(self, secret: str, match: str, line: str, path: str | None) -> bool:
        target = {"match": match, "line": line}.get(self.target, secret)
        regex_hit = bool(target) and any(p.search(target) for p in self.regexes)
        low = secret.lower()
        stop_hit = any(w in low for w in self.stopwords)
        if self.condition == "AND":
            checks = []
            if self.paths:
                checks.append(bool(path) and any(p.search(path) for p in self.paths))
            if self.regexes:
                checks.append(regex_hit)
            if self.stopwords:
                checks.append(stop_hit)
            return bool(checks) and all(checks)
        return regex_hit or stop_hit

    def applies_to(self, rule_id: str) -> bool:
        return not self.rule_ids or rule_id in self.rule_ids


# --------------------------------------------------------------------------- #
# Rules.
# --------------------------------------------------------------------------- #
class _RuleFields(NamedTuple):
    """The fields of a :class:`Rule` (a record: equal fields, equal rules)."""

    id: str
    regex: Any
    text: bool = False
    secret_group: int = 0
    entropy: float = 0.0
    keywords: tuple[str, ...] = ()
    allowlists: tuple[Allowlist, ...] = ()
    path: Any = None  # compiled text pattern: the rule applies only to inputs it matches
    placeholders: bool = True  # drop documentation placeholders
    validator: Validator | None = None
    prefilter: bytes = b""
    description: str = ""
    source: str = "extended"


class Rule(_RuleFields):
    """One detector.

    ``regex`` is a compiled ``re`` bytes pattern (``text=False``) or a
    compiled ``regex`` text pattern (``text=True``).  ``secret_group`` 0
    means "the first non-empty group, else the whole match" (gitleaks'
    rule).  ``entropy`` > 0 drops secrets whose Shannon entropy is not above
    it.  ``keywords`` (lower case) must occur in the lower-cased line when
    given.  ``prefilter`` is a bytes regex without lookaround or
    back-references that every line the rule can fire on matches (what a
    combined scan such as Hyperscan needs).
    """

    def fires(
        self,
        line: bytes,
        *,
        path: str | None = None,
        text: str | None = None,
        low: bytes | None = None,
        global_allow: Sequence[Allowlist] = (),
    ) -> bool:
        """Whether the rule finds a credential on ``line``."""
        if self.path is not None and not (path and self.path.search(path)):
            return False
        if self.keywords:
            low = line.lower() if low is None else low
            if not any(k in low for k in self.keyword_bytes):
                return False
        if self.text:
            if text is None:
                text = line.decode("utf-8", "replace")
            subject: Any = text
        else:
            subject = line
        if self.text:  # gitleaks' reading: non-overlapping matches
            return any(
                self._accept(m, subject, path, global_allow) for m in self.regex.finditer(subject)
            )
        # Built-in rules: a rejected match does not hide one starting inside it
        # ("file.py:12:PASSWORD = ..." is first read as the pair "file.py: 12...").
        # Each retry costs about its match's length, so the rejected matches
        # may span RETRY_BUDGET times the line: a line of rejected matches each
        # running to its end ("authorization=" repeated) would cost its square.
        # Past that the line counts as fired (a redactor fails closed).
        search = self.regex.search
        budget = RETRY_BUDGET * len(subject) + RETRY_FLOOR
        m = search(subject)
        while m is not None:
            if self._accept(m, subject, path, global_allow):
                return True
            budget -= m.end() - m.start() + 1
            if budget < 0:
                return True
            m = search(subject, m.start() + 1)
        return False

    def secret_spans(
        self, line: bytes, *, path: str | None = None, global_allow: Sequence[Allowlist] = ()
    ) -> list[tuple[int, int]]:
        """Byte spans ``[start, end)`` in ``line`` of every secret the rule accepts there.

        The secret is the capture group the rule names (or its first non-empty
        group, else the whole match), each gate applied as :meth:`fires` does.
        For a rule over text on a line that is not valid UTF-8 the whole line
        is the span (it may over-cover, never under-cover).
        """
        if self.path is not None and not (path and self.path.search(path)):
            return []
        if self.keywords:
            low = line.lower()
            if not any(k in low for k in self.keyword_bytes):
                return []
        subject: Any = line
        if self.text:
            try:
                subject = line.decode("utf-8")
            except UnicodeDecodeError:
                fired = self.fires(line, path=path, global_allow=global_allow)
                return [(0, len(line))] if fired else []
        spans = []
        for m in self.regex.finditer(subject):
            if not self._accept(m, subject, path, global_allow):
                continue
            group = 0
            if self.secret_group and self.secret_group <= len(m.groups()):
                group = self.secret_group
            elif not self.secret_group:
                group = next((i for i, g in enumerate(m.groups(), 1) if g), 0)
            a, b = m.span(group)
            if self.text:
                a, b = len(subject[:a].encode("utf-8")), len(subject[:b].encode("utf-8"))
            if b > a:
                spans.append((a, b))
        return spans

    @property
    def keyword_bytes(self) -> tuple[bytes, ...]:
        kw = self.__dict__.get("_kw")
        if kw is None:
            kw = tuple(k.encode("utf-8") for k in self.keywords)
            object.__setattr__(self, "_kw", kw)
        return kw

    def _accept(
        self, m: Any, subject: Any, path: str | None, global_allow: Sequence[Allowlist]
    ) -> bool:
        whole = m.group(0)
        secret = whole
        if self.secret_group:
            if self.secret_group <= len(m.groups()):
                secret = m.group(self.secret_group) or whole[:0]
        else:
            for g in m.groups():
                if g:
                    secret = g
                    break
        if not secret:
            return False
        s = secret if self.text else secret.decode("latin-1")
        w = whole if self.text else whole.decode("latin-1")
        if self.entropy and shannon_entropy(s) <= self.entropy:
            return False
        if self.placeholders and is_placeholder(s):
            return False
        if self.validator is not None and not self.validator(s, m):
            return False
        allows = self.allowlists + tuple(a for a in global_allow if a.applies_to(self.id))
        if allows:
            # Only a "line" target needs the line (decoded once per line, not per match).
            line = ""
            if any(a.target == "line" for a in allows):
                line = subject if self.text else _latin1(subject)
            if any(a.allows(s, w, line, path) for a in allows):
                return False
        return True

    def canonical(self) -> str:
        """A stable description of the rule's definition (for fingerprints)."""
        pat = self.regex.pattern
        if isinstance(pat, bytes):
            pat = pat.decode("latin-1")
        return repr(
            (
                self.id,
                pat,
                self.secret_group,
                self.entropy,
                self.keywords,
                self.source,
                self.path.pattern if self.path is not None else None,
                [
                    (
                        a.target,
                        a.condition,
                        a.stopwords,
                        a.rule_ids,
                        [r.pattern for r in a.regexes],
                        [p.pattern for p in a.paths],
                    )
                    for a in self.allowlists
                ],
            )
        )


#: What the retries of :meth:`Rule.fires` may read: the rejected matches of a
#: built-in rule on one line span at most this many times the line, plus
#: :data:`RETRY_FLOOR` bytes; a line that needs more is redacted.
RETRY_BUDGET = 16
RETRY_FLOOR = 1 << 16


def joined_hits(rx: Any, lines: Sequence[bytes], *, byte_long: bool = False) -> set[int]:
    """The indices of the lines where ``rx`` may match, from searching them
    joined by newlines: the line each leftmost match starts in, the search
    going on from the next line's start (a later line's own match starts at
    or after it).  With ``byte_long`` (every match of ``rx`` takes a byte of
    its line), a match that starts at the newline after a line counts for
    neither line, and the next one is searched from its start.  A match's
    line is told by counting the newlines before it (no table of line starts),
    unless some of ``lines`` hold a newline themselves."""
    if not lines:
        return set()
    joined = b"\n".join(lines)
    if joined.count(b"\n") != len(lines) - 1:
        return _hits_by_starts(rx, joined, lines, byte_long)
    hits: set[int] = set()
    search = rx.search
    count = joined.count
    find = joined.find
    i = 0  # the line that starts at `at`
    at = 0
    m = search(joined)
    while m is not None:
        pos = m.start()
        i += count(b"\n", at, pos)
        nl = find(b"\n", pos)  # the newline ending line i (pos itself: a match from it)
        if nl < 0:
            hits.add(i)  # the last line
            break
        if not (byte_long and nl == pos):
            hits.add(i)
        i += 1
        at = nl + 1
        m = search(joined, at)
    return hits


def _hits_by_starts(rx: Any, joined: bytes, lines: Sequence[bytes], byte_long: bool) -> set[int]:
    """:func:`joined_hits` with each match's line found in a table of line starts
    (for lines that hold newlines of their own)."""
    from bisect import bisect_right
    from itertools import accumulate

    starts = list(accumulate([len(ln) + 1 for ln in lines], initial=0))
    hits: set[int] = set()
    n = len(lines)
    m = rx.search(joined)
    while m is not None:
        i = bisect_right(starts, m.start()) - 1
        if not (byte_long and i + 1 < n and m.start() == starts[i + 1] - 1):
            hits.add(i)
        if i + 1 >= n:
            break
        m = rx.search(joined, starts[i + 1])
    return hits
