"""A rule set and its per-stream state, run by the one redactor (``machine.Redactor``).

:class:`RuleSet` is what ``--rules`` selects (rules in order, global
allowlists, whether the extended set's PEM machine and placeholder
exemption are on); :meth:`RuleSet.fresh` gives the per-stream state.
:class:`RuleCheck` is what ``Redactor(rules=...)`` and ``redact_stream(...,
rules=...)`` drive through the redaction's extra-rules hook:

1. ``prefilter``: a few literal-led searches (:data:`builtin.SCANS`, the PEM
   triggers, one keyword search for loaded rules) join the redactor's one
   combined scan and find the candidate lines;
2. ``check``: on a candidate line the default machine keeps, the PEM machine
   steps (and on every line while a block or a watch after an END is open),
   then the rules attached to the searches that hit the line decide;
3. ``observe``: a candidate line the default machine redacts still moves the
   PEM machine (a marker must be seen even when the eleven redact it);
4. ``keep_credential``: under the extended set, a line the eleven would
   redact only for a documentation placeholder (``AKIAXXXXXXXXXXXXXXXX``) is
   kept.

Every line still yields one line: itself or a placeholder with its number.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from functools import lru_cache

from council_filters.base.tuples import NamedTuple
from council_filters.redaction.lazy import LazyRegex, escape
from council_filters.redaction.machine import Redactor
from council_filters.redaction.patterns import CREDENTIAL_PATTERNS, PEM_PATTERN
from council_filters.redaction.secrets import builtin
from council_filters.redaction.secrets.follow import Follow
from council_filters.redaction.secrets.pem import PemMachine
from council_filters.redaction.secrets.rules import (
    _ANSI,
    _ESCAPED_QUOTE,
    Allowlist,
    Rule,
    is_placeholder,
    joined_hits,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_NAME_LINE = LazyRegex(
    rb"""[ \t]*(?:-[ \t]+)?["']?(?:name|Name|key|Key|NAME|KEY)["']?[ \t]*:[ \t]*"""
    rb"""["']?([A-Za-z0-9_.-]{1,80})["']?[ \t]*,?[ \t\r]*\Z"""
)
_VALUE_LINE = LazyRegex(rb"""[ \t]*["']?(?:value|Value|VALUE)["']?[ \t]*:[ \t]*(\S.*)""")

# The eleven's credential shapes with their whole tail, for the placeholder test.
_ELEVEN_NAMES = tuple(p.name for p in CREDENTIAL_PATTERNS)
_ELEVEN_TAILS = tuple(
    (p.prefix_len, LazyRegex(p.prefix + p.char_class + b"{%d,}" % p.tail_len))
    for p in CREDENTIAL_PATTERNS
)


def _first_group(m: Any) -> bytes:
    """A match's first group: ``sub``'s template ``\\1`` as a function (a template
    with a backslash loads ``re`` to read it)."""
    return m.group(1)  # type: ignore[no-any-return]


def eleven_placeholders_only(line: bytes) -> bool:
    """Every credential shape of the eleven on ``line`` is a documentation placeholder."""
    found = False
    for prefix_len, rx in _ELEVEN_TAILS:
        for m in rx.finditer(line):
            tail = m.group()[prefix_len:].decode("latin-1").strip()
            if not is_placeholder(tail):
                return False
            found = True
    return found


# --------------------------------------------------------------------------- #
# The compiled searches of a rule set.
# --------------------------------------------------------------------------- #
class Scan(NamedTuple):
    """One search for candidate lines and the rules it stands for."""

    regex: LazyRegex | None  # a regex search ...
    literal: bytes  # ... or a substring search confirmed by ``verify``
    verify: LazyRegex | None
    lower: bool  # search the lower-cased buffer
    rules: tuple[Rule, ...]
    pem: bool  # the PEM machine looks at its lines too
    opens: bool = False  # its lines may open a value on the lines after (follow.py)


class Plan(NamedTuple):
    """Which searches find candidates, and which rules each stands for."""

    scans: tuple[Scan, ...]
    pem_non_ascii: LazyRegex | None
    every_line: tuple[Rule, ...]  # rules with no keywords: tried on every line


def _keyword_scan(rules: Sequence[Rule], words: Sequence[bytes] = ()) -> bytes:
    found = {k for r in rules for k in r.keyword_bytes if k} | set(words)
    # Longest first, then by bytes: the same pattern (and cached database) every run.
    return b"|".join(escape(w) for w in sorted(found, key=lambda w: (-len(w), w)))


def _derived_keywords(rule: Rule) -> tuple[bytes, ...]:
    """Literals (lower case) every match of a rule without keywords holds, if any."""
    known: tuple[bytes, ...] | None = rule.__dict__.get("_derived")
    if known is not None:
        return known  # kept with a cached rule file
    pattern = rule.regex.pattern
    if isinstance(pattern, str):
        from council_filters.redaction.secrets.gitleaks import derived_keywords

        return derived_keywords(pattern)
    from council_filters.redaction.prefilter import required_literals

    return required_literals(pattern) or ()


#: Lines every rule of a file searched for by windows runs on: terminal escape
#: bytes (CSI and ESC: the rules also read the line without them), and the
#: non-ASCII letters RE2 folds ``k`` and ``s`` with (windows are ASCII).
_ESCAPES = rb"[\x1b\x9b]|\xe2\x84\xaa|\xc5\xbf"


def _chosen_search(rule: Rule, words: tuple[bytes, ...]) -> bytes | None:
    from council_filters.redaction.secrets import gitleaks  # only for rules from a file

    return gitleaks.chosen_search(rule, words)


@lru_cache(maxsize=16)
def plan_for(rules: tuple[Rule, ...], extended: bool) -> Plan:
    ids = {r.id: r for r in rules}
    scans: list[Scan] = []
    covered: set[str] = set()
    for kind, pattern, verify, rule_ids in builtin.SCANS:
        attached = tuple(ids[i] for i in rule_ids if i in ids and ids[i] == builtin.BY_ID.get(i))
        pem = extended and builtin.PEM in rule_ids
        opens = extended and builtin.OPENS in rule_ids
        if attached or pem or opens:
            scans.append(
                Scan(
                    LazyRegex(pattern) if kind == "re" else None,
                    pattern if kind == "lit" else b"",
                    LazyRegex(verify) if verify else None,
                    False,
                    attached,
                    pem,
                    opens,
                )
            )
            covered.update(r.id for r in attached)
    loaded = [r for r in rules if r.id not in covered]
    # Each loaded rule is searched for by its own keywords (or, without any, by
    # the literals its regex cannot match without), so a line runs only the
    # rules whose keyword it holds; rules with the same words share a search.
    by_words: dict[bytes, list[Rule]] = {}
    by_window: dict[bytes, list[Rule]] = {}
    every: list[Rule] = []
    # Without the extended set (its name/value pairs look at every candidate
    # line), a rule from a file is searched for by a window of its own regex
    # when that is more selective than its keywords (see window.py).
    windows = not extended and builtin.BY_ID["secret-assignment"] not in rules
    for r in loaded:
        words = r.keyword_bytes or _derived_keywords(r)
        win = _chosen_search(r, words) if windows else None
        if win is not None:
            by_window.setdefault(win, []).append(r)
        elif words:
            by_words.setdefault(_keyword_scan([r], words), []).append(r)
        else:
            every.append(r)
    for pattern, group in by_words.items():
        scans.append(Scan(LazyRegex(pattern), b"", None, True, tuple(group), False))
    for pattern, group in by_window.items():
        scans.append(Scan(LazyRegex(pattern), b"", None, False, tuple(group), False))
    if by_window:
        # A line with terminal escapes is also read without them, where a match
        # (or a keyword) may sit that the escapes split; a line with a letter
        # RE2 folds k or s with may match where no ASCII window does: such a
        # line runs every rule of the file.
        scans.append(Scan(LazyRegex(_ESCAPES), b"", None, False, tuple(loaded), False))
    pem_non_ascii = None
    if extended:
        from council_filters.redaction.secrets import pemscan

        pem_non_ascii = LazyRegex(pemscan.SEARCH)
    return Plan(tuple(scans), pem_non_ascii, tuple(every))


#: A rule's candidate lines in one buffer from which one pass over them all pays.
_BULK_MIN = 16
#: The same for a built-in rule's proof pattern: on 21 MB of code, buffers of
#: 1 MB give most rules two or three lines each, which then ran one by one
#: (from 4 on, a third fewer lines reached the rules, 1.3 ms less of 17).
_PROOF_MIN = 4
#: Lines the rules also read another way (escaped quotes, terminal escapes).
_REREAD = LazyRegex(rb"[\\\x1b\x9b]")
#: Candidate lines that stay whatever the proofs say: read another way by the
#: rules (an escaped quote, terminal escapes: see ``RuleSet.line_rule``), or a
#: ``value:`` line (``_VALUE_LINE``, read over lines joined by newlines).
#: The search is led by one class of first bytes, which the regex engine skips
#: to (an anchored ``^`` would be tried at every byte); what follows the
#: ``value`` word is looked ahead at, not taken, so no match hides an escape
#: after it, and a ``value:`` found is held only when blanks and a quote at
#: most lead its line (``_VALUE_LEAD``).
_HOLD = LazyRegex(
    rb"[\\\x1b\x9bvV](?:(?<=\\)[\"']|(?<=[\x1b\x9b])|(?:(?<=v)alue|(?<=V)(?:alue|ALUE))"
    rb"(?=[\"']?[ \t]*:[ \t]*\S))"
)
_VALUE_LEAD = LazyRegex(rb"[ \t]*[\"']?")


def held_lines(joined: bytes) -> set[int]:
    """The indices of the lines joined by newlines in ``joined`` that stay
    candidates whatever the proofs say (see ``_HOLD``)."""
    held = set()
    lead = _VALUE_LEAD.fullmatch
    count = joined.count
    i = at = 0  # the line `at` is in
    for m in _HOLD.finditer(joined):
        pos = m.start()
        i += count(b"\n", at, pos)
        at = pos
        if i not in held and (
            joined[pos] not in b"vV" or lead(joined, joined.rfind(b"\n", 0, pos) + 1, pos)
        ):
            held.add(i)
    return held


def candidate_lines(buf: bytes, cands: Sequence[tuple[int, int]]) -> list[bytes]:
    """The line at each candidate's start (``(start, mask)``), without its newline.

    The compiled module makes one object of the lines of the same bytes (text
    dense in near misses repeats them), so the sets and dicts keyed by lines
    hash each once; without it, one slice per candidate."""
    from council_filters.redaction import native

    slices = getattr(native.compiled(), "line_slices", None)
    if slices is not None:
        return slices(buf, cands)  # type: ignore[no-any-return]
    index = buf.index
    return [buf[start : index(b"\n", start)] for start, _ in cands]


def _pem_idle_on(line: bytes) -> bool:
    """A line the PEM machine, when idle, steps over without a change: plain
    ASCII (no escapes) whose markers, read as the machine reads them, name no
    private key (see ``PemMachine._markers``).  While a block or watch is open
    every line is shown to the machine anyway."""
    if not line.isascii() or b"\x1b" in line:
        return False
    low = line.lower()
    if b"k" not in low or b"y" not in low:
        return True  # (markers only drop bytes from the line: no "privatekey" without them)
    from council_filters.redaction.secrets.pem import marker_text

    return "privatekey" not in marker_text(line)


def _may_bulk(rule: Rule) -> bool:
    """Whether a pass over joined lines may serve the rule (without compiling it)."""
    if not rule.text:
        return False  # a built-in rule (and its module is not even loaded)
    from council_filters.redaction.secrets.gitleaks import line_mode_ok

    return line_mode_ok(rule.regex)


@lru_cache(maxsize=1024)
def _bulk_regex(rule: Rule) -> Any:
    """The rule's regex with ``^``/``$`` at line ends, for a pass over joined lines
    (None: the rule cannot be served so)."""
    if not rule.text:
        return None
    from council_filters.redaction.secrets.gitleaks import multiline_variant

    return multiline_variant(rule.regex)


def clean_lines(rule: Rule, lines: Sequence[bytes]) -> set[bytes]:
    """The lines on which the rule's regex surely finds nothing, in one pass.

    The lines are read as the rule reads one (UTF-8, bad bytes replaced),
    encoded again and joined by newlines; the regex runs with ``^``/``$`` at line ends.  A match
    inside one line is a match of the joined text at the same place, with the
    same neighbours for ``\\b`` (a newline is no word character), so the
    leftmost match of the joined text from a line's start starts at or before
    any match of the lines after; the line where it starts is left to the
    per-line check, and the search goes on from the next line.  Every line
    before the next match's start is clean.
    """
    rx = _bulk_regex(rule)
    if rx is None:
        return set()
    # Each line as the rule reads it (bad bytes replaced), back in UTF-8.
    texts = [ln if ln.isascii() else ln.decode("utf-8", "replace").encode("utf-8")
             for ln in lines]
    seen = {lines[i] for i in joined_hits(rx, texts)}
    return {ln for ln in lines if ln not in seen}


def _shipped_searches() -> list[bytes]:
    """The combined scan's patterns of the built-in searches (builtin.SCANS, the
    PEM machine's non-ASCII one), as :func:`_prefilter_pairs` writes them."""
    from council_filters.redaction.secrets import pemscan

    return [pattern if kind == "re" else verify or escape(pattern)
            for kind, pattern, verify, _ in builtin.SCANS] + [pemscan.SEARCH]


def _unbounded_forms(used: Iterable[bytes] | None = None) -> dict[bytes, bytes]:
    """The automaton's forms of the built-in searches (those of ``used``, when
    given: a plan's patterns) with their long bounded
    repeats unbounded (:func:`prefilter.unbounded`): a superset of each
    search's lines, at less cost in text dense in key words.  Not for the
    searches the PEM machine or a value on the lines after looks at (a line
    they find moves that state); on any other line only the search's own
    rules run, and each fires only where its exact search hits (the tests
    hold every search to the lines its rules fire on), so the extra lines
    are kept as they are."""
    from council_filters.redaction import prefilter

    wanted = None if used is None else set(used)
    forms = {}
    for kind, pattern, _, ids in builtin.SCANS:
        if kind != "re" or builtin.PEM in ids or builtin.OPENS in ids:
            continue
        if wanted is not None and pattern not in wanted:
            continue
        form = builtin.AUTOMATON_FORMS.get(pattern, pattern)
        wide = prefilter.unbounded(form)
        if wide != form:
            forms[pattern] = wide
    return forms


@lru_cache(maxsize=16)
def _prefilter_pairs(plan: Plan) -> tuple[tuple[str, bytes], ...]:
    """The ``(id, regex)`` pairs of a plan's searches, for the combined scan."""
    from council_filters.redaction import prefilter

    prefilter.widen(builtin.AUTOMATON_FORMS)
    prefilter.widen(_unbounded_forms({sc.regex.pattern for sc in plan.scans if sc.regex}))
    prefilter.shipped(_shipped_searches())
    pairs = []
    for i, sc in enumerate(plan.scans):
        pattern = sc.regex.pattern if sc.regex is not None else (
            sc.verify.pattern if sc.verify is not None else escape(sc.literal))
        pairs.append((f"@{i}", b"(?i)" + pattern if sc.lower else pattern))
    if plan.pem_non_ascii is not None:
        pairs.append(("@pem", plan.pem_non_ascii.pattern))
    return tuple(pairs)


# --------------------------------------------------------------------------- #
# The rule set.
# --------------------------------------------------------------------------- #
class RuleSet(NamedTuple):
    """What ``--rules`` selects: the eleven, the PEM machine, rules, allowlists.

    ``extended`` turns on the eleven patterns' placeholder exemption and the
    PEM-in-every-shape machine (the built-in set); ``rules`` are checked in
    order and the first that fires names the line.
    """

    name: str
    rules: tuple[Rule, ...] = ()
    allowlists: tuple[Allowlist, ...] = ()
    extended: bool = False
    sources: tuple[str, ...] = ()

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(r.id for r in self.rules)

    @property
    def fingerprint(self) -> str:
        """sha256 over the canonical definitions: equal sets, equal fingerprints."""
        import hashlib

        h = hashlib.sha256()
        h.update(repr((self.extended, [r.canonical() for r in self.rules])).encode())
        for a in self.allowlists:
            h.update(
                repr(
                    (
                        a.target,
                        a.condition,
                        a.stopwords,
                        a.rule_ids,
                        [r.pattern for r in a.regexes],
                        [p.pattern for p in a.paths],
                    )
                ).encode()
            )
        return h.hexdigest()

    def fresh(self, path: str | None = None) -> Any:
        """The per-stream state (:class:`~council_filters.redaction.secrets.engine.RuleCheck`):
        what the redaction's extra-rules hook runs."""
        return RuleCheck(self, path)

    @property
    def prefilter(self) -> tuple[tuple[str, bytes], ...]:
        """``(id, regex)`` pairs finding every line a rule can fire on (see RuleCheck)."""
        return self.fresh().prefilter  # type: ignore[no-any-return]

    def input_allowed(
        self, rule: Rule, path: str | None, global_hits: Sequence[bool] | None = None
    ) -> bool:
        """The rule is switched off for this input by a path allowlist.

        ``global_hits`` (one per allowlist of the set, in order) are the set's
        own allowlists' answers for ``path`` when known (:meth:`global_path_hits`).
        """
        if not path:
            return False
        if any(a.path_allows(path) for a in rule.allowlists):
            return True
        if global_hits is None:
            global_hits = self.global_path_hits(path)
        return any(hit and a.applies_to(rule.id)
                   for a, hit in zip(self.allowlists, global_hits, strict=True))

    def global_path_hits(self, path: str | None) -> tuple[bool, ...]:
        """Per allowlist of the set: whether its paths allow ``path`` (asked once
        per input, not once per rule)."""
        return tuple(bool(path) and a.path_allows(path) for a in self.allowlists)

    def line_rule(
        self, line: bytes, rules: Sequence[Rule] | None = None, path: str | None = None
    ) -> str | None:
        """The id of the first rule (of ``rules``, default all) that fires on ``line``."""
        rid = self._line_rule(line, rules, path)
        if rid is None and (b"\x1b" in line or b"\x9b" in line):
            plain = _ANSI.sub(b"", line)  # colours split what they paint
            if plain != line:
                rid = self._line_rule(plain, rules, path)
                line = plain
        if rid is None and (b'\\"' in line or b"\\'" in line):
            # JSON inside a string ("{\\"password\\": \\"...\\"}"): read it unescaped.
            rid = self._line_rule(_ESCAPED_QUOTE.sub(_first_group, line), rules, path)
        return rid

    def line_spans(
        self, line: bytes, rules: Sequence[Rule] | None = None, path: str | None = None
    ) -> list[tuple[int, int, str]]:
        """``(start, end, rule id)`` byte spans of every secret the rules accept on ``line``.

        The rules of this set (or ``rules``), each span the secret a rule
        takes, sorted by position; the same gates as :meth:`line_rule`.  Terminal
        escapes and escaped quotes are looked through as there: a secret found
        only in the line read that way is reported as the whole line.
        """
        out = [
            (a, b, rule.id)
            for rule in (self.rules if rules is None else rules)
            for a, b in rule.secret_spans(line, path=path, global_allow=self.allowlists)
        ]
        if not out:
            rid = self.line_rule(line, rules, path)
            if rid is not None:
                out.append((0, len(line), rid))
        return sorted(out)

    def _line_rule(self, line: bytes, rules: Sequence[Rule] | None, path: str | None) -> str | None:
        low = None
        text = None
        for rule in self.rules if rules is None else rules:
            if rule.keywords and low is None:
                low = line.lower()
            if rule.text and text is None:
                text = line.decode("utf-8", "replace")
            if rule.fires(line, path=path, text=text, low=low, global_allow=self.allowlists):
                return rule.id
        return None


# --------------------------------------------------------------------------- #
# The redactor.
# --------------------------------------------------------------------------- #
class RuleCheck:
    """One stream's rule state, with the surface of the redaction's extra-rules hook.

    ``prefilter`` lists ``(id, regex)`` pairs (ids ``@0``, ``@1``, ... for the
    searches of :class:`Plan`, ``@pem`` for the non-ASCII key-marker bytes);
    :meth:`check` decides about a line the default machine keeps, given the
    ids whose search hit it; :meth:`observe` shows the PEM machine a line the
    default machine redacted; :meth:`keep_credential` says whether a line the
    eleven redact holds only documentation placeholders; ``active`` is true
    while a key block or a watch after an END is open (every line must then
    be shown); :meth:`fresh` starts another stream.
    """

    def __init__(self, rules: RuleSet, path: str | None = None) -> None:
        self.rules = rules
        self.pem = PemMachine() if rules.extended else None
        self._prev = b""
        # The searches cover every rule (the combined scan is built once); the
        # rules a path switches off are dropped per line.
        self.plan = plan_for(rules.rules, rules.extended)
        self._pf: Any = None  # the combined scan, for a line on its own
        self.set_path(path)

    def set_path(self, path: str | None) -> None:
        """Name the input that follows (rules and allowlists may look at paths)."""
        self.path = path
        rules = self.rules
        hits = rules.global_path_hits(path) if path else ()
        active = tuple(r for r in rules.rules if not rules.input_allowed(r, path, hits))
        self.active_rules = active
        self._order = {(r.source, r.id): i for i, r in enumerate(active)}
        self._by_hits: dict[frozenset[str], list[Rule]] = {}  # searches hit -> rules to run
        self._pem_hits: dict[frozenset[str], bool] = {}
        self._clean: dict[int, set[bytes]] = {}  # per rule (by id()): lines proven clean
        self._maybe: dict[int, set[bytes]] = {}  # per built-in rule proven: lines it may fire on
        self._bulk: int | None = None
        self._proven: int | None = None
        self._droppable: dict[int, tuple[tuple[Rule, ...], bool, bool] | None] = {}
        self._repeats: dict[int, int] | None = None  # per candidate start: lines it stands for
        self._wants: dict[int, bool] = {}
        # per line of the buffer being checked with a built-in trigger: its hit mask
        # (the lines the eleven would redact are asked about by keep_credential)
        self._masks: dict[bytes, int] = {}
        self._ids: tuple[str, ...] | None = None
        pairs = builtin.BY_ID["secret-assignment"]
        self._pairs = pairs if pairs in active else None
        # What a line opens for the lines after it (a value on the next lines).
        self.follow = Follow()
        self._open_ids = frozenset(
            f"@{k}" for k, sc in enumerate(self.plan.scans) if sc.opens)

    def fresh(self) -> RuleCheck:
        """The same rules for another stream (fresh state)."""
        return RuleCheck(self.rules, self.path)

    @property
    def active(self) -> bool:
        """Every line must be shown: a key block or watch is open, or a loaded rule
        has no keywords to be searched for."""
        return (bool(self.plan.every_line) or (self.pem is not None and self.pem.active)
                or self.follow.open)

    @property
    def prefilter(self) -> tuple[tuple[str, bytes], ...]:
        return _prefilter_pairs(self.plan)

    def line_rule(self, line: bytes) -> str | None:
        """The first rule (active for this input) that fires on ``line``, searches aside."""
        return self.rules.line_rule(line, self.active_rules, self.path)

    def keep_credential(self, line: bytes) -> bool:
        """Under the extended set: the eleven fired only on placeholders, and no rule fires."""
        if self.pem is None or not eleven_placeholders_only(line):
            return False
        mask = self._masks.get(line)
        if mask is None:  # (a line on its own)
            rules = self._rules_for(self._line_hits(line))
        else:  # a line of the buffer prepared: proven silent for some rules maybe
            rules = self._unproven(line, self._rules_for(self._hit_ids(mask)))
        return not rules or self.rules.line_rule(line, rules, self.path) is None

    def _hit_ids(self, mask: int) -> frozenset[str]:
        """The ids of the searches a candidate's hit ``mask`` names (bit ``k + 1``
        for search ``@k``)."""
        ids = self._ids
        if ids is None:
            ids = self._ids = tuple(i for i, _ in self.prefilter)
        bits = mask >> 1
        return frozenset(ids[k] for k in range(len(ids)) if bits >> k & 1)

    def _line_hits(self, line: bytes) -> frozenset[str]:
        """The ids of the searches that hit ``line`` (one scan of that line alone):
        only their rules can fire on it."""
        pf = self._pf
        if pf is None:
            from council_filters.redaction import prefilter

            pf = self._pf = prefilter.get(self.prefilter)
        found = pf.candidates(line + b"\n", 0, len(line) + 1)
        return self._hit_ids(found[0][1] if found else 0)

    def _pem_hit(self, hits: Iterable[str]) -> bool:
        key = hits if isinstance(hits, frozenset) else frozenset(hits)
        memo = self._pem_hits
        found = memo.get(key)
        if found is None:
            scans = self.plan.scans
            found = memo[key] = any(h == "@pem" or scans[int(h[1:])].pem for h in key)
        return found

    def wants(self, mask: int) -> bool:
        """Whether a line whose searches hit as ``mask`` says (bit ``k + 1`` for
        search ``@k``, the last for ``@pem``) needs :meth:`check` or
        :meth:`observe` while no block or watch is open (every search stands
        for rules or the PEM machine: a mask with any bit)."""
        memo = self._wants
        found = memo.get(mask)
        if found is None:
            found = memo[mask] = bool(mask & self._need_bits())
        return found

    def _need_bits(self) -> int:
        """The searches that need a look, as a mask (every one of the plan's)."""
        need = 0
        for i, sc in enumerate(self.plan.scans):
            if sc.rules or sc.pem or sc.opens:
                need |= 1 << (i + 1)
        if self.plan.pem_non_ascii is not None:
            need |= 1 << (len(self.plan.scans) + 1)
        return need

    def observe(self, line: bytes, hits: frozenset[str]) -> None:
        """A line the default machine redacted: only the PEM machine's state moves."""
        pem = self.pem
        if pem is not None and (pem.active or self._pem_hit(hits)):
            pem.step(line)
        if self.follow.open:
            self.follow.step(line, self._confirm)
        self._prev = line

    def absorb(self, run: bytes) -> None:
        """Body lines of a key block the default machine redacted in bulk."""
        if self.pem is not None:
            self.pem.absorb(run)
        self.follow.clear()

    def check(self, line: bytes, hits: Iterable[str], prev: bytes | None = None) -> str | None:
        """The rule id that redacts ``line`` (the PEM machine's first), or None.

        ``prev`` is the line before (for ``name:``/``value:`` pairs); by default
        the last line this object was shown.
        """
        if prev is None:
            prev = self._prev
        self._prev = line
        pem = self.pem
        follow = self.follow
        if pem is not None and (pem.active or self._pem_hit(hits)) and pem.step(line):
            if follow.open:
                follow.step(line, self._confirm)
            return PEM_PATTERN
        if follow.open:
            rid = follow.step(line, self._confirm)
            if rid is not None:
                return rid  # a value of the block the line before opened
        key = hits if isinstance(hits, frozenset) else frozenset(hits)
        rules = self._by_hits.get(key)
        if rules is None:
            rules = self._by_hits[key] = self._rules_for(key)
        rules = self._unproven(line, rules)
        rid = self.rules.line_rule(line, rules, self.path) if rules else None
        if rid is None and self._pairs is not None and _VALUE_LINE.match(line):
            rid = self._pair(prev, line)
        if self._open_ids:
            if rid is not None:
                follow.wraps(line, rid)
            elif key & self._open_ids:
                follow.opens(line)
        return rid

    def _confirm(self, key: bytes, value: bytes) -> str | None:
        """The rule that redacts ``value`` written after ``key`` on one line
        (only the rules whose searches hit that line run)."""
        line = key + value
        rules = self._rules_for(self._line_hits(line))
        return self.rules.line_rule(line, rules, self.path) if rules else None

    def _unproven(self, line: bytes, rules: list[Rule]) -> list[Rule]:
        """``rules`` without those the passes over this buffer proved silent on ``line``."""
        if not rules or not (self._clean or self._maybe) or _REREAD.search(line):
            # (a line read another way, escapes or colours out, is not the line proven)
            return rules
        clean = self._clean
        if clean:
            rules = [r for r in rules if line not in clean.get(id(r), ())]
        maybe = self._maybe
        if maybe:
            # built-in rules proven in bulk (see proof.py): only where their proof matched
            rules = [r for r in rules if id(r) not in maybe or line in maybe[id(r)]]
        return rules

    def prepare(
        self, buf: bytes, cands: list[tuple[int, int]], repeats: Sequence[int] | None = None
    ) -> list[tuple[int, int]] | None:
        """Before the lines of a buffer are checked: one pass per rule over its lines.

        ``cands`` are the buffer's candidate lines (start, hit mask); when
        ``buf`` holds a buffer's distinct lines, ``repeats`` says per candidate
        how many lines of that buffer hold it (a rule is served in bulk by the
        number of lines it would be checked on).  For a
        rule from a file whose searches hit many of them, its regex runs once
        over those lines joined (see :func:`clean_lines`) instead of once per
        line; :meth:`check` then skips the rule on the lines proven clean.
        Returns the candidates still to be checked when that drops some (a
        line every rule of its hits is proven clean on, under a set without
        the PEM machine or the name/value pairs, or a line found only by the
        PEM machine's non-ASCII search that holds no dash run), else None.
        Under the extended set the hit masks of the lines with a built-in
        trigger are kept for :meth:`keep_credential`.
        """
        self._clean = {}
        self._maybe = {}
        self._repeats = (None if repeats is None
                         else {at: n for (at, _), n in zip(cands, repeats, strict=True)})
        if self.pem is not None:  # (only the extended set keeps placeholder lines)
            index = buf.index
            self._masks = {buf[start : index(b"\n", start)]: mask
                           for start, mask in cands if mask & 1}
        kept = self._pem_candidates(buf, cands) if self.plan.pem_non_ascii is not None else None
        if kept is not None:
            cands = kept
        bulk = self._bulk_scans()
        proven = self._proof_scans()
        if proven:
            # the built-in rules (--rules extended): proof patterns, see _prove_builtin
            fewer = self._prove_builtin(buf, cands, proven, bulk)
            return kept if fewer is None else fewer
        if not bulk:
            return kept
        groups: dict[int, list[bytes]] = {}
        counted: dict[int, int] = {}  # per search: the lines of its group, repeats counted
        index = buf.index
        weight = self._weight
        for start, mask in cands:
            m = (mask >> 1) & bulk
            if m:
                line = buf[start : index(b"\n", start)]
                while m:
                    low = m & -m
                    k = low.bit_length() - 1
                    groups.setdefault(k, []).append(line)
                    counted[k] = counted.get(k, 0) + weight(start)
                    m ^= low
        scans = self.plan.scans
        for k, lines in groups.items():
            if counted[k] < _BULK_MIN:
                continue
            for rule in scans[k].rules:
                clean = clean_lines(rule, lines)
                if clean:
                    self._clean[id(rule)] = clean
        if not self._clean or self.pem is not None or self._pairs is not None:
            return kept
        fewer = self._still_to_check(buf, cands, bulk)
        return kept if fewer is None else fewer

    def _weight(self, start: int) -> int:
        """How many lines of the buffer the candidate at ``start`` stands for."""
        repeats = self._repeats
        return 1 if repeats is None else repeats[start]

    def _pem_candidates(
        self, buf: bytes, cands: list[tuple[int, int]]
    ) -> list[tuple[int, int]] | None:
        """``cands`` without the lines found only by the PEM machine's non-ASCII
        search on which no marker's dash run can be (see :mod:`.pemscan`);
        None when none is dropped.  While a block or watch is open every line
        is looked at whatever the candidates, so dropping them is safe then too."""
        from council_filters.redaction.secrets.pemscan import may_hold_marker

        only = 1 << (len(self.plan.scans) + 1)  # the @pem search's bit, alone
        index = buf.index
        keep = [c for c in cands
                if c[1] != only or may_hold_marker(buf[c[0] : index(b"\n", c[0])])]
        return keep if len(keep) < len(cands) else None

    def _still_to_check(
        self, buf: bytes, cands: list[tuple[int, int]], bulk: int
    ) -> list[tuple[int, int]] | None:
        """``cands`` without the lines that every rule of their hits is proven clean on."""
        scans = self.plan.scans
        clean = self._clean
        index = buf.index
        keep = []
        dropped = 0
        for start, mask in cands:
            m = mask >> 1
            if mask & 1 or m & ~bulk:
                keep.append((start, mask))
                continue
            line = buf[start : index(b"\n", start)]
            needed = _REREAD.search(line) is not None
            while m and not needed:
                low = m & -m
                m ^= low
                rules = scans[low.bit_length() - 1].rules
                needed = any(line not in clean.get(id(r), ()) for r in rules)
            if needed:
                keep.append((start, mask))
            else:
                dropped += 1
        return keep if dropped else None

    # -- the built-in rules in bulk (proof patterns) ------------------------ #
    def _proof_scans(self) -> int:
        """The searches (bit ``k`` for ``@k``) whose rules are all built-in rules
        a proof pattern serves, and whose lines the PEM machine does not need."""
        found = self._proven
        if found is None:
            from council_filters.redaction.secrets import proof

            found = 0
            for k, sc in enumerate(self.plan.scans):
                if sc.rules and not sc.pem and all(proof.servable(r) for r in sc.rules):
                    found |= 1 << k
            self._proven = found
        return found

    def _prove_builtin(
        self, buf: bytes, cands: list[tuple[int, int]], proven: int, bulk: int
    ) -> list[tuple[int, int]] | None:
        """Prove the built-in rules silent on most candidate lines at once.

        Each built-in rule with at least ``_PROOF_MIN`` candidate lines here
        (any number, when its proof is compiled: :func:`proof.compiled`)
        runs its proof pattern once over them joined (:func:`proof.maybe_lines`);
        :attr:`_maybe` keeps the lines it may fire on, and :meth:`check` runs
        it on those only.  Rules from a file are proven as :meth:`prepare`
        does.  A candidate line leaves the list when every rule its searches
        stand for is proven silent on it, it holds no built-in trigger, no
        search the PEM machine looks at hit it, and it is not read another way
        (escapes, colours) nor a ``value:`` line (a name/value pair with the
        line before).  Returns the candidates still to check, or None (all).
        """
        from council_filters.redaction.secrets import proof

        lines = candidate_lines(buf, cands)
        scans = self.plan.scans
        served = proven | bulk
        by_mask: dict[int, list[bytes]] = {}
        weighed: dict[int, int] = {}  # per mask: its lines, repeats counted
        repeats = self._repeats
        for line, (at, mask) in zip(lines, cands, strict=True):
            m = (mask >> 1) & served
            if m:
                group = by_mask.get(m)
                if group is None:
                    by_mask[m] = [line]
                else:
                    group.append(line)
                if repeats is not None:
                    weighed[m] = weighed.get(m, 0) + repeats[at]
        # A proof or pass reads each distinct line once (its verdict is the
        # line's bytes'; text dense in near misses repeats its lines), and a
        # rule is served in bulk by the number of its candidate lines.
        per_rule: dict[int, tuple[Rule, list[bytes], list[int]]] = {}
        for m, group in by_mask.items():
            distinct = list(dict.fromkeys(group))
            n = len(group) if repeats is None else weighed[m]
            while m:
                low = m & -m
                m ^= low
                for r in scans[low.bit_length() - 1].rules:
                    entry = per_rule.get(id(r))
                    if entry is None:
                        per_rule[id(r)] = (r, list(distinct), [n])
                    else:
                        entry[1].extend(distinct)
                        entry[2][0] += n
        maybe = self._maybe
        clean = self._clean
        for key, (rule, group, counted) in per_rule.items():
            if counted[0] < _PROOF_MIN and not proof.compiled(rule):
                continue
            if proof.servable(rule):
                found = proof.maybe_lines(rule, group)
                if found is not None:
                    maybe[key] = found
            elif _may_bulk(rule):
                cleaned = clean_lines(rule, group)
                if cleaned:
                    clean[key] = cleaned
        pem_only = self._pem_only_scans()
        if not maybe and not clean and not pem_only:
            return None
        # (a line is held for its bytes: each distinct line is looked at once)
        distinct = list(dict.fromkeys(lines))
        held = {distinct[i] for i in held_lines(b"\n".join(distinct))}
        union: set[bytes] = set().union(*maybe.values())
        keep = []
        memo = self._droppable
        memo.clear()
        idle_on: dict[bytes, bool] = {}
        for i, cand in enumerate(cands):
            mask = cand[1]
            if mask in memo:
                drop = memo[mask]
            else:
                drop = memo[mask] = self._drop_rules(mask, served, pem_only)
            line = lines[i]
            if drop is None or line in held:
                keep.append(cand)
                continue
            rules, pem, one_look = drop
            if pem:
                idle = idle_on.get(line)  # (marker lines repeat: one look at each)
                if idle is None:
                    idle = idle_on[line] = _pem_idle_on(line)
                if not idle:
                    keep.append(cand)
                    continue
            if one_look:  # built-in rules only, all proven
                if line in union:
                    keep.append(cand)
            elif any(
                line in union if key in maybe else line not in clean.get(key, ())
                for key in map(id, rules)
            ):
                keep.append(cand)
        return keep if len(keep) < len(cands) else None

    def _drop_rules(
        self, mask: int, served: int, pem_only: int
    ) -> tuple[tuple[Rule, ...], bool, bool] | None:
        """The rules a candidate with hit ``mask`` must be proven silent for to
        leave the list, whether the PEM machine's search hit it, and whether
        all those rules are built-in ones with proofs (one look at the lines
        any proof matched will do); None: it stays, whatever the proofs say."""
        m = mask >> 1
        if mask & 1 or not m or m & ~(served | pem_only):
            return None
        pem = bool(m & pem_only)
        m &= ~pem_only
        rules: list[Rule] = []
        while m:
            low = m & -m
            m ^= low
            rules.extend(self.plan.scans[low.bit_length() - 1].rules)
        keys = self._maybe.keys() | self._clean.keys()
        if self.plan.every_line or any(id(r) not in keys for r in rules):
            return None
        return tuple(rules), pem, all(id(r) in self._maybe for r in rules)

    def _pem_only_scans(self) -> int:
        """The searches that stand for the PEM machine alone (its dash runs)."""
        found = 0
        if self.pem is not None:
            for k, sc in enumerate(self.plan.scans):
                if sc.pem and not sc.rules:
                    found |= 1 << k
        return found

    def _bulk_scans(self) -> int:
        """The searches (bit ``k`` for ``@k``) that stand for a rule a pass can serve."""
        found = self._bulk
        if found is None:
            found = 0
            for k, sc in enumerate(self.plan.scans):
                escapes = sc.regex is not None and sc.regex.pattern == _ESCAPES
                if not escapes and any(_may_bulk(r) for r in sc.rules):
                    # (lines with escapes are always checked one by one)
                    found |= 1 << k
            self._bulk = found
        return found

    def _rules_for(self, hits: frozenset[str]) -> list[Rule]:
        """The rules the searches ``hits`` stand for, active here, in the set's order."""
        scans = self.plan.scans
        rules: list[Rule] = []
        seen: set[str] = set()
        for h in sorted(hits):
            if h != "@pem":
                for r in scans[int(h[1:])].rules:
                    if r.id not in seen:
                        seen.add(r.id)
                        rules.append(r)
        rules.extend(self.plan.every_line)
        order = self._order
        rules = [r for r in rules if (r.source, r.id) in order]
        rules.sort(key=lambda r: order[(r.source, r.id)])
        return rules

    def _pair(self, prev: bytes, line: bytes) -> str | None:
        """A value line under a line naming a secret (``- name: DB_PASSWORD`` then
        ``value: ...``, as in Kubernetes and ECS environments)."""
        m = _NAME_LINE.match(prev)
        v = _VALUE_LINE.match(line)
        if m is None or v is None or self._pairs is None:
            return None
        synth = m.group(1) + b": " + v.group(1)
        return self._pairs.id if self.rules.line_rule(synth, [self._pairs], self.path) else None


# --------------------------------------------------------------------------- #
# Conveniences: the API other filters use.
# --------------------------------------------------------------------------- #
class Finding(NamedTuple):
    """A line that a rule redacts: its 1-based number and the rule id, never the text."""

    line: int
    rule_id: str


class _Recorder(Redactor):
    """The redactor, keeping which rule named each redacted line (for :func:`scan`)."""

    def __init__(self, rules: Any) -> None:
        super().__init__(count=True, record_lines=True, rules=rules)
        self.named: dict[int, str] = {}

    def _note(self, pattern: str | None) -> None:
        super()._note(pattern)
        if pattern is not None:
            self.named[self.nr] = pattern


def make_redactor(
    rules: RuleSet | None, *, count: bool = False, record_lines: bool = False,
    path: str | None = None,
) -> Redactor:
    """The redactor for a rule set (None: the byte-identical default)."""
    r = Redactor(count=count, record_lines=record_lines, rules=rules)  # type: ignore[arg-type]
    set_input(r, path)
    return r


def set_input(redactor: Redactor, path: str | None) -> None:
    """Name the input a redactor reads next (rules and allowlists may look at paths)."""
    rules = redactor.rules
    if isinstance(rules, RuleCheck):
        rules.set_path(path)


def redact_value(
    text: bytes, rules: RuleSet | None = None, counts: Counter[str] | None = None,
    path: str | None = None,
) -> tuple[bytes, list[int]]:
    """Redact one value on its own (fresh state, lines from 1).

    Returns the redacted bytes and the replaced line numbers; adds per-rule
    counts to ``counts`` when given.  A value without a final newline comes
    back without one.
    """
    r = make_redactor(rules, count=counts is not None, record_lines=True, path=path)
    out = r.feed(text) + r.finish()
    if text and not text.endswith(b"\n"):
        out = out[:-1]
    if counts is not None:
        counts.update(r.counts)
    return out, list(r.redacted)


def match_spans(
    data: bytes, rules: RuleSet | None = None, path: str | None = None
) -> Iterator[tuple[int, list[tuple[int, int, str]]]]:
    """Per line the rule set redacts: ``(line number, [(start, end, rule id), ...])``.

    Byte offsets within the line (no terminator).  The eleven patterns give
    the span of their credential run; a rule of the set the span of the
    secret it takes; a line of a private-key block (or one whose secret only
    shows once escapes are read) the whole line.  The lines are exactly those
    :func:`scan` reports, in order.
    """
    lines = data.split(b"\n")
    for finding in scan(data, rules, path):
        line = lines[finding.line - 1] if finding.line <= len(lines) else b""
        spans: list[tuple[int, int, str]] = []
        for name, (_, rx) in zip(_ELEVEN_NAMES, _ELEVEN_TAILS, strict=True):
            spans += [(m.start(), m.end(), name) for m in rx.finditer(line)]
        if rules is not None and finding.rule_id != PEM_PATTERN:
            spans += rules.line_spans(line, path=path)
        if not spans:
            spans = [(0, len(line), finding.rule_id)]
        yield finding.line, sorted(spans)


def scan(data: bytes, rules: RuleSet | None = None, path: str | None = None
         ) -> Iterator[Finding]:
    """The lines a rule set redacts in ``data``, as (line, rule id); no secret text.

    ``rules`` None scans with the eleven patterns alone (the default).
    """
    r = _Recorder(rules)
    set_input(r, path)
    r.feed(data)
    r.finish()
    for n in r.redacted:
        yield Finding(n, r.named.get(n, PEM_PATTERN))
