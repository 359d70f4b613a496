"""Candidate lines for redaction, found in a whole buffer with one scan.

Every rule the redactor knows starts from something a multi-pattern scan can
find: the credential shapes, the PEM BEGIN marker, and the prefilter regexes
of extra rule sets (``--rules``).  A :class:`Prefilter` compiles all of them
into one scan and reports, for a buffer of whole lines, which lines hold a
match and which patterns matched there.  The exact per-line machine in
:mod:`council_filters.redaction.machine` then runs only at those lines (and while a
PEM block or its watch window is open).

Three engines give the same answers:

``native``
    The compiled module's own scan for the eleven built-in patterns: every
    trigger holds one of seven byte pairs at a fixed offset, so one vector
    compare per 16 or 32 bytes (SSE2, AVX2 when the processor has it) finds
    the positions, and the exact shape is confirmed there.  No import, no
    set-up; about memory speed.  Built with the line machine when a C
    compiler was there at install.  It knows only the built-in patterns.
``hyperscan``
    Intel's multi-pattern automaton (the ``hyperscan`` package, an optional
    dependency; its wheels bundle the library).  One pass over the buffer at
    memory speed whatever the number of patterns, so it carries the extra
    rules of ``--rules``.  The compiled database is cached on disk (private
    directory, see :func:`cache_dir`), so a run does not pay the compile.
    A buffer whose lines repeat is scanned as its distinct lines, each once
    (see :data:`DISTINCT_MIN`): no pattern matches a newline, so a line's
    matches are its bytes' wherever they stand.
``re``
    Python's regex module for the built-in triggers, one search per literal
    family; the extra patterns run on RE2 (see :func:`linear`), only on the
    lines that hold one of their required literals.  Always available.

The engine is chosen at import from ``COUNCIL_PREFILTER``: ``auto`` (the
default) takes ``native`` for the built-in patterns when it is built, and for
scans that carry extra rules Hyperscan on every buffer when it is installed
(the rules' searches are too many for ``re`` to run fast), ``re`` otherwise;
without native, the built-in patterns alone use Hyperscan on buffers of
:data:`HS_MIN_BYTES` or more (below that its set-up costs more than it saves).
``native``, ``hyperscan`` or ``re`` insists on that
engine for every buffer it can serve (an error when it cannot be loaded);
extra rules never run on ``native``, which takes the ``auto`` choice for them.

A pattern must not be able to match a newline: matches are mapped to the line
holding their last byte.
"""

from __future__ import annotations

import os

from council_filters.base.errors import UsageError

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re
    from collections.abc import Iterable, Sequence
    from typing import Any

ENV = "COUNCIL_PREFILTER"
ENGINES = ("auto", "native", "hyperscan", "re")
#: Buffers smaller than this use the ``re`` scan under ``auto`` (start-up wins).
HS_MIN_BYTES = 1 << 21

#: Buffers of at least this many bytes may be scanned as their distinct lines,
#: each line that repeats once: when the automaton finds DISTINCT_DENSE matches
#: a KiB or more in their first DISTINCT_PROBE bytes (it costs per key word it
#: meets: text dense in near misses costs it ten times what code does, and
#: repeats its lines) and the distinct lines hold at most DISTINCT_MOST
#: thousandths of the first DISTINCT_SAMPLE bytes.
DISTINCT_MIN = 1 << 16
DISTINCT_PROBE = 1 << 14
DISTINCT_DENSE = 2
DISTINCT_SAMPLE = 1 << 16
DISTINCT_MOST = 600

#: Bit 0 of a line's mask: a built-in trigger (credential shape or BEGIN marker).
BUILTIN = 1


class PrefilterError(UsageError):
    """A pattern no engine can use, or a required engine that is missing (exit 2)."""


def _wanted() -> str:
    """The engine the environment asks for (``auto`` unless set)."""
    want = os.environ.get(ENV, "auto").strip().lower() or "auto"
    if want not in ENGINES:
        raise PrefilterError(f"{ENV} must be auto, native, hyperscan or re (got an unknown value)")
    return want


#: The engine asked for: auto, native, hyperscan or re (see the module's text).
WANT = _wanted()


def use(engine: str) -> None:
    """Set the engine for the rest of this process, as the variable would at import.

    ``"auto"``, ``"native"``, ``"hyperscan"`` (every buffer) or ``"re"``.
    Compiled prefilters are dropped, so redactors made afterwards use the new
    engine.
    """
    global WANT
    if engine not in ENGINES:
        raise PrefilterError(f"unknown prefilter engine {engine!r}")
    WANT = engine
    _cache.clear()


def whole_input() -> Any:
    """The compiled module when whole descriptors may run on it (the eleven
    patterns, the compiled machine, the native prefilter), else None."""
    from council_filters.redaction import native

    m = native.machine()
    if m is None or WANT not in ("auto", "native") or not hasattr(m, "redact_fd"):
        return None
    return m


def native_scan() -> Any:
    """The native engine's scan function, or None when the compiled module is not built."""
    from council_filters.redaction import native

    scan = getattr(native.compiled(), "scan", None)
    if scan is None and WANT == "native":
        raise PrefilterError(f"{ENV}=native but the compiled module is not built")
    return scan


def _hyperscan_installed() -> bool:
    from importlib.util import find_spec

    try:
        return find_spec("hyperscan") is not None
    except (ImportError, ValueError):
        return False


def describe() -> str:
    """The engines in use, for ``--version`` and ``--help``."""
    if WANT == "re":
        return "re (Python regex for the eleven patterns, RE2 for --rules; forced)"
    if WANT == "hyperscan":
        hs = _hyperscan()
        return f"hyperscan {getattr(hs, '__version__', '?')} (every buffer; forced)"
    parts = []
    if WANT in ("auto", "native") and native_scan() is not None:
        parts.append("native (compiled SIMD scan) for the eleven patterns")
    if _hyperscan_installed():
        hs = _hyperscan()
        version = getattr(hs, "__version__", "?") if hs is not None else "failed to import"
        extra = f"hyperscan {version} on every buffer"
    else:
        extra = "RE2 (install the 'fast' extra for hyperscan)"
    parts.append(("--rules: " if parts else "") + extra)
    return "; ".join(parts)


_hs_module: Any = None
_hs_failed = False


def _hyperscan() -> Any:
    """The hyperscan module, imported on first use (None when it cannot be)."""
    global _hs_module, _hs_failed
    if _hs_module is None and not _hs_failed:
        try:
            _hs_module = _hyperscan_alone()
            if _hs_module is None:
                import hyperscan

                _hs_module = hyperscan
        except ImportError:
            _hs_failed = True
            if WANT == "hyperscan":
                raise PrefilterError(f"{ENV}=hyperscan but hyperscan cannot be imported") from None
    return _hs_module


_HS_EXT = "hyperscan._hs_ext"


def _hyperscan_alone() -> Any:
    """hyperscan's names, from its compiled module loaded without its package
    (None: import the package).

    The package's ``__init__`` re-exports the compiled module and adds one
    record class made with ``typing``, which is not used here; importing
    ``typing`` is about 3 ms of every rules run's start, more than the rest of
    the package.  So the compiled module is loaded from the package's
    directory under its own name (an import of the package later finds it
    there and re-exports it as usual), and its names are handed out with the
    version the package reads from its ``_version.py``.  Anything unexpected
    (another layout, another finder) leaves it to the package's import.
    """
    import sys
    from types import ModuleType

    if "hyperscan" in sys.modules or _HS_EXT in sys.modules:
        return None  # imported already: the package is at hand
    try:
        # importlib.machinery's names, from the frozen modules it re-exports
        # (importing the package loads warnings too: half a millisecond)
        from _frozen_importlib import ModuleSpec
        from _frozen_importlib_external import (
            EXTENSION_SUFFIXES,
            ExtensionFileLoader,
            PathFinder,
        )
    except ImportError:  # pragma: no cover - another interpreter
        from importlib.machinery import (
            EXTENSION_SUFFIXES,
            ExtensionFileLoader,
            ModuleSpec,
            PathFinder,
        )

    spec = PathFinder.find_spec("hyperscan")
    if spec is None or not spec.submodule_search_locations:
        return None
    where = next(iter(spec.submodule_search_locations))
    path = next((p for p in (os.path.join(where, "_hs_ext" + s) for s in EXTENSION_SUFFIXES)
                 if os.path.isfile(p)), None)
    if path is None:
        return None
    loader = ExtensionFileLoader(_HS_EXT, path)
    ext_spec = ModuleSpec(_HS_EXT, loader, origin=path)
    ext = loader.create_module(ext_spec)
    if ext is None:
        return None
    ext.__spec__, ext.__loader__ = ext_spec, loader
    loader.exec_module(ext)
    sys.modules[_HS_EXT] = ext
    names = ModuleType("hyperscan", "hyperscan's compiled module, as the package exports it")
    names.__dict__.update((k, v) for k, v in vars(ext).items() if not k.startswith("_"))
    names.__version__ = _version_of(os.path.join(where, "_version.py"))  # type: ignore[attr-defined]
    return names


def _version_of(path: str) -> str:
    """The ``__version__ = "..."`` a package's ``_version.py`` states ("unknown": none)."""
    try:
        with open(path, encoding="utf-8") as fh:
            for line in fh:
                name, eq, value = line.partition("=")
                if eq and name.strip() == "__version__":
                    return value.strip().strip("\"'") or "unknown"
    except OSError:
        pass
    return "unknown"


# --------------------------------------------------------------------------- #
# The built-in triggers.
# --------------------------------------------------------------------------- #
#: The ``re`` engine's scans for the built-in triggers.  Each starts with a
#: byte or literal the regex engine can skip to quickly; the lookbehinds put
#: back the bytes before it.  They may report lines no exact pattern redacts
#: (the per-line machine decides) but never miss one that can change.
_RE_BUILTIN = (
    # sk-proj-, sk-ant-, sk-: "sk-" then 20 of the widest class covers all three.
    rb"k-(?<=sk-)[A-Za-z0-9_-]{20}",
    rb"A(?:Iza[0-9A-Za-z_-]{35}|KIA[0-9A-Z]{16}|uthorization: [A-Za-z0-9 ._~+/-]{20})",
    rb"_(?:(?<=gh[pous]_)[A-Za-z0-9]{36}|(?<=ses_)[A-Za-z0-9]{16}"
    rb"|pat_(?<=github_pat_)[A-Za-z0-9_]{40})",
    rb"B(?:earer [A-Za-z0-9._~+/-]{20}|EGIN (?<=-----BEGIN )[A-Z ]*PRIVATE KEY-----)",
)


def builtin_patterns() -> tuple[bytes, ...]:
    """The exact built-in triggers for the automaton: the credential shapes, BEGIN."""
    from council_filters.redaction.patterns import BEGIN_REGEX, CREDENTIAL_PATTERNS

    return tuple(p.regex for p in CREDENTIAL_PATTERNS) + (BEGIN_REGEX,)


# --------------------------------------------------------------------------- #
# Pattern checks for extra rules.
# --------------------------------------------------------------------------- #
#: The searches the project ships (see :func:`shipped`).
_SHIPPED: set[bytes] = set()


def shipped(patterns: Iterable[bytes]) -> None:
    """Name searches the project ships: :func:`check_pattern` passes them without
    a look (its fifty-odd searches took a millisecond of every run), as the
    tests check each one of them.  A rule file's patterns are never named here."""
    _SHIPPED.update(patterns)


#: What check_pattern refuses once escapes and classes are taken out.
_FORBIDDEN = rb"\\[1-9AZzGkn]|\\x0[aA]|\(\?[=!<>P]|[\^$]|\\[sSWD]|\.|\n"


def check_pattern(rule_id: str, pattern: bytes) -> None:
    """Reject a prefilter regex that one engine could not run like the other.

    Extra rules' prefilter regexes must be plain: no anchors, back-references
    or lookaround, and nothing that can match a newline (``.``, ``\\s``, a
    negated class must list ``\\n``).  This is a conservative syntactic check;
    the compile by each engine is the final word.  The searches the project
    ships (:func:`shipped`) pass without a look: the tests check each of them.
    """
    if pattern in _SHIPPED:
        return
    import re

    # Whether it compiles is the engine's to say, when it compiles it (the re
    # engine names the problem then, Hyperscan's compile error is reported).
    # Escaped characters are harmless except the classes named above.
    stripped = re.sub(rb"\\[\\.\^$\[\]()|*+?{}/-]", b"", pattern)
    if any(w in stripped for w in _CLASS_SUSPECTS) or b"\\x0" in stripped.lower():
        stripped = re.sub(rb"\[(?:\\.|[^\]\\])*\]", _class_check(rule_id), stripped)
    else:  # (no class can be refused: the same substitution without a look at each)
        stripped = re.sub(rb"\[(?:\\.|[^\]\\])*\]", b"x", stripped)
    if re.search(_FORBIDDEN, stripped.replace(b"(?i)", b"")):
        raise PrefilterError(
            f"rule {rule_id}: prefilter regex uses an anchor, lookaround, back-reference or "
            "a construct that can match a newline"
        )


#: What a class must hold for :func:`_class_check` to refuse it (with ``\\x0``).
_CLASS_SUSPECTS = (b"[^", b"\\n", b"\n", b"\\s")


def _class_check(rule_id: str) -> Any:
    def repl(m: re.Match[bytes]) -> bytes:
        body = m.group(0)
        newline = b"\\n" in body or b"\n" in body
        if body.startswith(b"[^"):
            if not newline or b"\\S" in body:
                raise PrefilterError(
                    f"rule {rule_id}: a negated class in the prefilter regex must exclude \\n"
                )
        elif newline or b"\\s" in body or b"\\x0" in body.lower():
            raise PrefilterError(f"rule {rule_id}: a class in the prefilter regex holds \\n")
        return b"x"

    return repl


# --------------------------------------------------------------------------- #
# Required literals (the ``re`` engine's first pass).
# --------------------------------------------------------------------------- #
_MAX_SET = 64  # literal alternatives kept for one pattern
#: Two-byte literals rare enough in text and code to gate a pattern (others are too common).
_RARE_PAIRS = frozenset({b"pw"})


def required_literals(pattern: bytes) -> tuple[bytes, ...] | None:
    """Lower-case literals one of which every match of ``pattern`` holds.

    Derived from the parsed regex: the longest run of fixed text in its
    top-level sequence (small classes and alternations expand to several
    strings, groups and repeats of at least one are looked into).  None when
    no literal of two bytes or more is certain (the pattern then runs as a
    regex over the whole buffer).
    """
    import re
    import re._constants as c
    import re._parser as sre

    def fixed(item: Any) -> set[bytes] | None:
        """The strings an element matches when it is fixed text (a small set)."""
        op, av = item
        if op is c.LITERAL:
            return {bytes([av]).lower()}
        if op is c.IN:
            chars: set[bytes] = set()
            for iop, iav in av:
                if iop is c.LITERAL:
                    chars.add(bytes([iav]).lower())
                elif iop is c.RANGE and iav[1] - iav[0] < 4:
                    chars.update(bytes([x]).lower() for x in range(iav[0], iav[1] + 1))
                else:
                    return None
            return chars if 0 < len(chars) <= 4 else None
        if op is c.SUBPATTERN:
            return seq_fixed(av[3])
        if op is c.BRANCH:
            out: set[bytes] = set()
            for branch in av[1]:
                got = seq_fixed(branch)
                if got is None:
                    return None
                out |= got
            return out if len(out) <= _MAX_SET else None
        return None

    def seq_fixed(seq: Any) -> set[bytes] | None:
        acc = {b""}
        for item in seq:
            got = fixed(item)
            if got is None or len(acc) * len(got) > _MAX_SET:
                return None
            acc = {a + b for a in acc for b in got}
        return acc

    def prefix(seq: Any) -> set[bytes]:
        """The fixed text a sequence starts with (empty set: none)."""
        acc = {b""}
        for item in seq:
            got = fixed(item)
            if got is None or len(acc) * len(got) > _MAX_SET:
                break
            acc = {a + b for a in acc for b in got}
        return set() if acc == {b""} else acc

    def best(seq: Any) -> set[bytes] | None:
        """The best factor set of a sequence: every match holds one of its strings."""
        candidates: list[set[bytes]] = []
        run = {b""}
        for item in seq:
            op, av = item
            got = fixed(item)
            if got is not None and len(run) * len(got) <= _MAX_SET:
                run = {a + b for a in run for b in got}
                continue
            if op is c.BRANCH and run != {b""}:
                # A shared prefix the parser factored out ("x" of "xox-|xapp-"):
                # joined with each branch's own leading text it is a literal.
                heads = [prefix(b) for b in av[1]]
                if all(heads) and len(run) * sum(len(h) for h in heads) <= _MAX_SET:
                    candidates.append({a + h for a in run for hs in heads for h in hs})
            if run != {b""}:
                candidates.append(run)
            run = {b""}
            if got is not None:
                run = got
                continue
            inner: set[bytes] | None = None
            if op in (c.MAX_REPEAT, c.MIN_REPEAT) and av[0] >= 1:
                inner = best(av[2])
            elif op is c.SUBPATTERN:
                inner = best(av[3])
            elif op is c.BRANCH:
                parts = [best(b) for b in av[1]]
                if all(x is not None for x in parts):
                    inner = set().union(*parts)  # type: ignore[arg-type]
                    if len(inner) > _MAX_SET:
                        inner = None
            if inner is not None:
                candidates.append(inner)
        if run != {b""}:
            candidates.append(run)
        good = [x for x in candidates if x and all(len(w) >= 3 or w in _RARE_PAIRS for w in x)]
        if not good:
            return None
        return max(good, key=lambda x: (min(map(len, x)), -len(x)))

    try:
        parsed = sre.parse(pattern)
    except re.error:
        return None
    got = best(list(parsed))
    if got is None:
        return None
    # A literal holding another is redundant: the shorter one finds its lines.
    keep = sorted(got, key=lambda w: (len(w), w))  # by bytes too: the same every run
    out: list[bytes] = []
    for lit in keep:
        if not any(o in lit for o in out):
            out.append(lit)
    return tuple(out)


# --------------------------------------------------------------------------- #
# The scan.
# --------------------------------------------------------------------------- #
class Prefilter:
    """One scan for the built-in triggers plus extra ``(rule_id, regex)`` pairs.

    :meth:`candidates` maps every match to the line that holds it.  Bit 0 of a
    line's mask is :data:`BUILTIN`; bit ``k`` (``k >= 1``) is the extra
    pattern ``k - 1``.  Build one with :func:`get` (cached by its patterns).
    """

    def __init__(self, extra: Sequence[tuple[str, bytes]] = ()) -> None:
        for rule_id, pattern in extra:
            check_pattern(rule_id, pattern)
        self.extra = tuple(extra)
        self.ids = tuple(rule_id for rule_id, _ in self.extra)
        # The re engine's compiled scans, built when it first runs: Hyperscan
        # compiles a database of its own (or loads it from the cache, where only
        # a database that compiled is kept).  Either compile names a pattern
        # that does not compile, here.
        self._re_ready = False
        self._db: Any = None
        self._scratch: dict[int, Any] = {}
        if self.extra and WANT != "re" and _hyperscan() is not None:
            self._database()
        else:
            self._prepare_re()

    def _prepare_re(self) -> None:
        """Compile the ``re`` engine's scans (once)."""
        if self._re_ready:
            return
        import re

        self._re_scans = tuple(re.compile(p) for p in _RE_BUILTIN)
        compiled = []
        for rule_id, pattern in self.extra:
            try:
                rx = re.compile(pattern)
            except re.error as exc:
                raise PrefilterError(
                    f"rule {rule_id}: prefilter regex does not compile: {exc}") from None
            compiled.append(_Linear(pattern, rx))
        self._re_extra = tuple(compiled)
        # The re engine finds the lines holding a required literal of some extra
        # pattern in one pass over the lower-cased buffer, then runs each pattern
        # only on those lines (patterns without such a literal search the buffer).
        self._lits = tuple(required_literals(p) for _, p in self.extra)
        words: dict[bytes, int] = {}  # literal -> the bits of the patterns it gates
        for k, lits in enumerate(self._lits, 1):
            for w in lits or ():
                words[w] = words.get(w, 0) | 1 << k
        self._words = tuple(sorted(words.items()))
        self._re_ready = True

    # -- engines ------------------------------------------------------------- #
    def engine_for(self, size: int) -> str:
        """Which engine a buffer of ``size`` bytes is scanned with."""
        if not self.extra and WANT in ("auto", "native") and native_scan() is not None:
            return "native"
        if WANT == "re":
            return "re"
        if (WANT == "hyperscan" or self.extra or size >= HS_MIN_BYTES) and _hyperscan() is not None:
            return "hyperscan"
        return "re"

    def _database(self) -> Any:
        # The built-in triggers ride in the automaton with the extra patterns:
        # it looks at every byte for those anyway, and adds next to nothing for
        # them, where the native scan would be a second pass over the buffer
        # (on 21 MB of code, --rules extended took 71 ms instead of 82).
        if self._db is None:
            self._db = _hs_database(
                builtin_patterns() + tuple(_WIDER.get(p, p) for _, p in self.extra))
        return self._db

    def _hs_scan(self, view: Any, on_match: Any) -> None:
        """One Hyperscan scan, with this thread's own scratch space (scans of
        several buffers may run at once: the library releases the GIL)."""
        from _thread import get_ident  # (threading itself is not needed for this)

        db = self._database()
        me = get_ident()
        scratch = self._scratch.get(me)
        if scratch is None:
            scratch = self._scratch[me] = _hyperscan().Scratch(db)
        db.scan(view, match_event_handler=on_match, scratch=scratch)

    # -- the scan ------------------------------------------------------------ #
    def candidates(
        self, buf: Any, start: int, end: int, repeats: bool = True
    ) -> list[tuple[int, int]]:
        """``(line_start, mask)`` for every line of ``buf[start:end]`` with a match.

        ``buf[start:end]`` must be whole lines (``start`` at a line start,
        ``buf[end - 1]`` a newline).  Sorted by position, one entry per line.
        ``repeats`` False: :meth:`distinct` said no already (not asked again).
        """
        if end <= start:
            return []
        engine = self.engine_for(end - start)
        if engine == "hyperscan":
            found = self._lines_hs(buf, start, end, repeats)
            if found is not None:
                return found
        if engine == "native":
            ends = [(at, BUILTIN) for at in native_scan()(buf, start, end)]
        elif engine == "hyperscan":
            ends = self._scan_hs(buf, start, end)
        else:
            ends = self._scan_re(buf, start, end)
        if not ends:
            return []
        ends.sort()
        out: list[tuple[int, int]] = []
        rfind = buf.rfind
        line_start = -1
        line_end = -1  # the newline ending the current line
        mask = 0
        for at, bit in ends:
            if at > line_end:
                if mask:
                    out.append((line_start, mask))
                line_start = rfind(b"\n", start, at) + 1 or start
                nl = buf.find(b"\n", at, end)
                line_end = nl if nl >= 0 else end
                mask = 0
            mask |= bit
        out.append((line_start, mask))
        return out

    def hits(self, buf: Any, start: int, end: int) -> list[int]:
        """Sorted positions inside the lines of ``buf[start:end]`` with a built-in match.

        The built-in triggers only (for the compiled line machine, which
        maps each position to its line).
        """
        if end <= start:
            return []
        engine = self.engine_for(end - start)
        if engine == "native":
            found: list[int] = native_scan()(buf, start, end)
            return found
        if engine == "hyperscan":
            found = []
            append = found.append
            base = start - 1

            def on_match(_ident: int, _from: int, to: int, _flags: int, _ctx: Any) -> None:
                append(base + to)

            view = memoryview(buf)[start:end] if start or end != len(buf) else buf
            self._hs_scan(view, on_match)
        else:
            self._prepare_re()
            found = [m.start() for rx in self._re_scans for m in rx.finditer(buf, start, end)]
        found.sort()
        return found

    def _scan_re(self, buf: Any, start: int, end: int) -> list[tuple[int, int]]:
        """(a position inside the match, bit) per match, from the ``re`` scans."""
        self._prepare_re()
        ends = [(m.start(), BUILTIN) for rx in self._re_scans for m in rx.finditer(buf, start, end)]
        gated = {}
        for k, (rx, lits) in enumerate(zip(self._re_extra, self._lits, strict=True), 1):
            if lits:
                gated[1 << k] = rx
            else:
                bit = 1 << k
                ends.extend((m.start(), bit) for m in rx.finditer(buf, start, end))
        if gated:
            low = bytes(buf[start:end]).lower()
            rfind = low.rfind
            find = low.find
            lines: dict[int, int] = {}  # line start -> the patterns one of its literals gates
            for w, bits in self._words:
                at = find(w)
                while at >= 0:
                    a = rfind(b"\n", 0, at) + 1
                    lines[a] = lines.get(a, 0) | bits
                    nl = find(b"\n", at)
                    if nl < 0:
                        break
                    at = find(w, nl)  # the next line holding it
            for a, mask in lines.items():
                line_end = find(b"\n", a)
                if line_end < 0:
                    line_end = len(low)
                for bit, rx in gated.items():
                    if mask & bit:
                        hit = rx.search(buf, start + a, start + line_end)
                        if hit is not None:
                            ends.append((hit.start(), bit))
        return ends

    def _lines_hs(
        self, buf: Any, start: int, end: int, repeats: bool = True
    ) -> list[tuple[int, int]] | None:
        """:meth:`candidates` from one Hyperscan scan whose matches the compiled
        module keeps and maps to lines (no Python call per match); None when
        the module is not built or the masks would not fit its 64 bits."""
        from council_filters.redaction import native

        matches = getattr(native.compiled(), "Matches", None)
        if matches is None or len(self.extra) >= 63:
            return None
        once = self.distinct(buf, start, end) if repeats else None
        if once is not None:
            expanded: list[tuple[int, int]] = once[2].expand(once[1])
            return expanded
        # A match's last byte is at `to - 1`, inside the line that holds it.
        # Hyperscan ids: builtins 0..n-1, extra pattern k-1 is id n+k-1.
        found = matches(start - 1, _N_BUILTIN)
        view = memoryview(buf)[start:end] if start or end != len(buf) else buf
        self._hs_scan(view, found)
        lines: list[tuple[int, int]] = found.lines(buf, start, end)
        return lines

    def distinct(
        self, buf: Any, start: int, end: int
    ) -> tuple[bytes, list[tuple[int, int]], Any] | None:
        """The candidates of ``buf[start:end]`` found on its distinct lines, when
        its lines repeat and the automaton scans it: ``(text, cands, lines)``,
        ``text`` each distinct line once (with its newline), ``cands`` its
        candidates as :meth:`candidates` gives them for ``text``, and
        ``lines`` the compiled module's ``Distinct``, whose ``expand(cands)``
        gives them on every line of the buffer (and ``repeats(cands)`` how many
        lines hold each).  None: scan the buffer (:meth:`candidates`).
        """
        if end - start < DISTINCT_MIN or self.engine_for(end - start) != "hyperscan":
            return None
        from council_filters.redaction import native

        module = native.compiled()
        distinct = getattr(module, "Distinct", None)
        matches = getattr(module, "Matches", None)
        if distinct is None or matches is None or len(self.extra) >= 63:
            return None
        probe = buf.find(b"\n", start + DISTINCT_PROBE, end) + 1 or end
        found = matches(-1, _N_BUILTIN)
        self._hs_scan(memoryview(buf)[start:probe], found)
        if found.count() * 1024 < DISTINCT_DENSE * (probe - start):
            return None  # (few matches: the automaton runs at memory speed)
        # Lines that repeat are scanned once (no pattern matches a newline, so
        # a line's matches are its bytes' wherever they stand).
        lines = distinct(buf, start, end, DISTINCT_SAMPLE, DISTINCT_MOST)
        text = lines.text
        if text is None:
            return None
        found = matches(-1, _N_BUILTIN)
        self._hs_scan(text, found)
        return text, found.lines(text, 0, len(text)), lines

    def _scan_hs(self, buf: Any, start: int, end: int) -> list[tuple[int, int]]:
        ends: list[tuple[int, int]] = []
        append = ends.append
        n_builtin = _N_BUILTIN
        # A match's last byte is at `to - 1`, inside the line that holds it.
        # Hyperscan ids: builtins 0..n-1, extra pattern k-1 is id n+k-1.

        def on_match(ident: int, _from: int, to: int, _flags: int, _ctx: Any) -> None:
            bit = BUILTIN if ident < n_builtin else 1 << (ident - n_builtin + 1)
            append((start + to - 1, bit))

        view = memoryview(buf)[start:end] if start or end != len(buf) else buf
        self._hs_scan(view, on_match)
        return ends


def linear(pattern: bytes) -> Any:
    """``pattern`` compiled by RE2 over bytes (one byte a character), or None
    when the RE2 bindings are missing or refuse it.

    The ``re`` engine runs the extra patterns this way: Python's ``re``
    backtracks, and a search such as ``-u[^\\n]*-p`` is tried again from every
    ``-u`` of a line that holds no ``-p`` (quadratic in the line: a hostile
    line of 500 KB took seconds), where RE2 reads each byte a bounded number
    of times whatever the pattern.  The patterns :func:`check_pattern` lets
    through mean the same to both engines (no anchors, lookaround or
    back-references; ``\\b`` and ``\\w`` are ASCII in both); under ``(?i)``
    RE2 also folds the Latin-1 letters, which only adds candidates.
    """
    try:
        import re2
    except ImportError:  # pragma: no cover - a dependency; Python's re then
        return None
    options = re2.Options()
    options.encoding = re2.Options.Encoding.LATIN1
    options.never_capture = True  # (only where a match is, never its groups)
    options.log_errors = False
    try:
        return re2.compile(pattern, options)
    except Exception:  # noqa: BLE001 - the bindings raise their own error type
        return None


class _Linear:
    """An extra pattern of the ``re`` engine: compiled by :func:`linear` when
    first searched (a run that finds none of its literals does not pay the
    compile), Python's ``re`` compile when RE2 refuses it."""

    __slots__ = ("_fallback", "_pattern", "_rx")

    def __init__(self, pattern: bytes, fallback: re.Pattern[bytes]) -> None:
        self._pattern = pattern
        self._fallback = fallback
        self._rx: Any = None

    def _compiled(self) -> Any:
        if self._rx is None:
            self._rx = linear(self._pattern) or self._fallback
        return self._rx

    def search(self, buf: Any, pos: int, endpos: int) -> Any:
        return self._compiled().search(buf, pos, endpos)

    def finditer(self, buf: Any, pos: int, endpos: int) -> Any:
        return self._compiled().finditer(buf, pos, endpos)


_N_BUILTIN = 11  # the ten credential shapes and the BEGIN marker
_cache: dict[tuple[tuple[str, bytes], ...], Prefilter] = {}

#: Wider forms of some extra patterns, for the automaton only (see :func:`widen`).
_WIDER: dict[bytes, bytes] = {}


def widen(forms: dict[bytes, bytes]) -> None:
    """Have the automaton run ``forms[p]`` in place of the extra pattern ``p``.

    A wider form matches on every line ``p`` matches on (a superset of the
    lines, so no candidate is lost; the rules decide about the others) and
    costs the automaton less: after each of a family's common key words the
    exact pattern starts a bounded repeat that dense text keeps alive, where
    the wider one waits for a rarer part and only remembers the key word
    until the line's end (``KEY[^\\n]*RUN`` for ``KEY<bytes>RUN``).  The
    ``re`` engine keeps the exact pattern, which finds fewer lines; it runs
    on RE2 there, linear either way (see :func:`linear`).  Call it before
    :func:`get` builds a prefilter for those patterns.
    """
    _WIDER.update(forms)


def unbounded(pattern: bytes, least: int = 10) -> bytes:
    """``pattern`` with its bounded repeats of a class or group, ``{0,N}`` and
    ``{1,N}`` for ``N`` of ``least`` or more, written ``*`` and ``+`` (lazy
    and possessive ones, and braces inside a class or escaped, are left as
    they are).

    Every match of ``pattern`` is a match of the result (only the upper
    bounds are raised), so as an automaton's form (:func:`widen`) it finds
    a superset of the lines: a bounded repeat after a common key word keeps
    a state per byte alive in dense text, an unbounded one does not.  Only
    the bytes that change what a brace means (backslashes, brackets, braces)
    are visited, found with ``bytes.find`` (no ``re``: every run of the
    extended set asks, and its start does not load it)."""
    if b"{0," not in pattern and b"{1," not in pattern:
        return pattern
    n = len(pattern)
    find = pattern.find
    marks = b"\\[]{"
    nxt = {m: find(bytes([m])) for m in marks}
    out = []
    done = 0  # pattern[:done] is in out
    in_class = False
    first = 0  # in a class: where its members start (a "]" there is one)
    escaped = -1  # the last byte an escape took
    while True:
        at = min((v for v in nxt.values() if v >= 0), default=-1)
        if at < 0:
            break
        c = pattern[at]
        step = at + 1
        if c == 0x5C:  # a backslash: it and the byte it escapes
            escaped = at + 1
            step = at + 2
        elif in_class:
            if c == 0x5D and at > first:
                in_class = False
        elif c == 0x5B:
            in_class = True
            first = at + 2 if pattern[at + 1 : at + 2] == b"^" else at + 1
        elif (c == 0x7B and at > 0 and pattern[at - 1] in b"])" and escaped != at - 1
              and pattern[at + 1 : at + 3] in (b"0,", b"1,")):
            end = find(b"}", at)
            digits = pattern[at + 3 : end] if end > 0 else b""
            if (digits.isdigit() and int(digits) >= least
                    and pattern[end + 1 : end + 2] not in (b"?", b"+")):
                out.append(pattern[done:at])
                out.append(b"*" if pattern[at + 1] == 0x30 else b"+")
                done = step = end + 1
        for m in marks:  # (each mark's next place, past what was read)
            if 0 <= nxt[m] < step:
                nxt[m] = find(bytes([m]), step)
        if step >= n:
            break
    out.append(pattern[done:])
    return b"".join(out)


def get(extra: Sequence[tuple[str, bytes]] = ()) -> Prefilter:
    """The prefilter for these extra patterns (compiled once per process)."""
    key = tuple(extra)
    pf = _cache.get(key)
    if pf is None:
        pf = _cache[key] = Prefilter(key)
    return pf


# --------------------------------------------------------------------------- #
# Hyperscan databases, compiled once and cached on disk.
# --------------------------------------------------------------------------- #
def cache_dir() -> str | None:
    """Where compiled databases are kept (see :mod:`council_filters.redaction.diskcache`)."""
    from council_filters.redaction import diskcache

    return diskcache.cache_dir()


def _hs_database(patterns: tuple[bytes, ...]) -> Any:
    from council_filters.redaction import diskcache

    hs = _hyperscan()
    key = diskcache.digest(b"\0".join((getattr(hs, "__version__", "").encode(), *patterns)))[:32]
    directory = cache_dir()
    path = os.path.join(directory, f"hs-{key}.db") if directory else None
    if path:
        db = _load(hs, path)
        if db is not None:
            return db
    db = hs.Database(mode=hs.HS_MODE_BLOCK)
    try:
        db.compile(
            expressions=list(patterns), ids=list(range(len(patterns))),
            elements=len(patterns), flags=[0] * len(patterns),
        )
    except hs.error as exc:
        raise PrefilterError(f"hyperscan cannot compile a prefilter regex: {exc}") from None
    if path:
        _store(hs, db, path)
    return db


def _load(hs: Any, path: str) -> Any:
    """A database from the cache, or None (missing, foreign, or not loadable)."""
    from council_filters.redaction import diskcache

    data = diskcache.read(path)
    if data is None:
        return None
    try:
        db = hs.loadb(data, hs.HS_MODE_BLOCK)
        db.scratch = hs.Scratch(db)
    except Exception:  # noqa: BLE001 - any failure means: compile instead
        return None
    return db


def _store(hs: Any, db: Any, path: str) -> None:
    """Write the database atomically, 0600 in a 0700 directory; failures are ignored."""
    from council_filters.redaction import diskcache

    try:
        data = hs.dumpb(db)
    except Exception:  # noqa: BLE001 - the cache is an optimisation only
        return
    diskcache.write(path, data)
