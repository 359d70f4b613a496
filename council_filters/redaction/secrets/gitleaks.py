"""Rules from a gitleaks configuration file (TOML).

What is read, with gitleaks' meaning:

* ``[[rules]]``: ``id``, ``regex`` (RE2 syntax), ``secretGroup``, ``entropy``,
  ``keywords`` (a line must hold one, case-insensitively), ``path`` (the rule
  applies only to inputs whose name matches), ``description``, ``tags``;
  ``[[rules.allowlists]]`` (and the older ``[rules.allowlist]``):
  ``regexes``, ``regexTarget`` (secret, match, line), ``stopwords``,
  ``paths``, ``condition`` (OR, AND), ``commits`` (ignored: no commits here);
* ``[allowlist]`` / ``[[allowlists]]`` (with ``targetRules``): the same,
  for every rule of the file;
* ``[extend]`` with ``path`` (another file, relative to this one) and
  ``disabledRules``.

Differences a user should know: matching is per line (a gitleaks regex
that spans lines matches only where its whole match sits on one line);
path-only rules (no ``regex``) report files and have nothing to redact, so
they are skipped; a ``gitleaks:allow`` comment does not exempt a line (text
in the stream cannot switch redaction off).

Regexes are RE2 syntax, run by RE2 itself (the google-re2 bindings), so a
rule's time on a line is linear in the line whatever its pattern.  Without the
bindings the ``regex`` module runs them with RE2's meaning (ASCII ``\\w \\d
\\s \\b``, inline flags scoped to their group) and a repeat inside a repeat
(``(a+)+``), which could backtrack super-linearly there, is refused.  Constructs RE2
does not have and that would break linear-time matching (lookaround,
back-references, atomic groups, possessive quantifiers, recursion) and RE2
constructs this reader does not support (``\\C``, ``(?U)``) are named together
in one error.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable

from council_filters.base.errors import UsageError
from council_filters.redaction.secrets.rules import Allowlist, Rule

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def _regex() -> Any:
    """The regex module (loaded only when a file is read without a cached copy)."""
    import regex

    return regex


class ConfigProblem(Exception):
    """One problem in a configuration, located by rule id where it has one."""

    def __init__(self, message: str, rule_id: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.rule_id = rule_id


# --------------------------------------------------------------------------- #
# RE2 to the regex module.
# --------------------------------------------------------------------------- #
_PERL_ONLY = (
    ("(?=", "lookahead (?=...)"),
    ("(?!", "negative lookahead (?!...)"),
    ("(?<=", "lookbehind (?<=...)"),
    ("(?<!", "negative lookbehind (?<!...)"),
    ("(?>", "atomic group (?>...)"),
    ("(?|", "branch reset (?|...)"),
    ("(?#", "comment group (?#...)"),
    ("(?R)", "recursion (?R)"),
    ("(?P=", "named back-reference (?P=name)"),
    ("(?P>", "subroutine call (?P>name)"),
    ("(?&", "subroutine call (?&name)"),
)


def translate(pattern: str) -> tuple[str, list[str]]:
    """``(pattern for the regex module, problems)`` for an RE2 pattern.

    Rewrites ``\\z`` to ``\\Z`` and ``\\Q...\\E`` to escaped text, escapes the
    characters the regex module treats as set operators inside classes, and
    lists every construct that is not RE2 or not supported.
    """
    out: list[str] = []
    problems: list[str] = []
    i = 0
    n = len(pattern)
    in_class = False
    class_start = 0
    while i < n:
        c = pattern[i]
        if c == "\\":
            if i + 1 >= n:
                problems.append("a trailing backslash")
                break
            d = pattern[i + 1]
            if d == "Q":
                j = pattern.find("\\E", i + 2)
                lit = pattern[i + 2 : n if j < 0 else j]
                out.append(
                    _regex().escape(lit)
                    if not in_class
                    else "".join("\\" + ch if not ch.isalnum() else ch for ch in lit)
                )
                i = n if j < 0 else j + 2
                continue
            if d == "z" and not in_class:
                out.append("\\Z")
            elif d == "C":
                problems.append("\\C (any byte) is not supported")
                out.append("\\C")
            elif d.isdigit() and d != "0" and not in_class:
                problems.append(f"back-reference \\{d} is not RE2 syntax")
                out.append("\\" + d)
            elif d in "gkKG" and not in_class:
                problems.append(f"\\{d} is not RE2 syntax")
                out.append("\\" + d)
            elif d == "Z" and not in_class:
                problems.append("\\Z is not RE2 syntax (RE2 writes \\z)")
                out.append("\\Z")
            else:
                out.append(c + d)
            i += 2
            continue
        if in_class:
            if c == "[" and pattern.startswith("[:", i):
                j = pattern.find(":]", i + 2)
                if j > 0:
                    out.append(pattern[i : j + 2])
                    i = j + 2
                    continue
            if c == "]" and i > class_start:
                in_class = False
                out.append(c)
            elif c in "[&|~":
                out.append("\\" + c)
            elif c == "-" and (pattern.startswith("--", i) or (out and out[-1] == "-")):
                out.append("\\-")
            else:
                out.append(c)
            i += 1
            continue
        if c == "[":
            in_class = True
            out.append(c)
            i += 1
            if i < n and pattern[i] == "^":
                out.append("^")
                i += 1
            class_start = i
            if i < n and pattern[i] == "]":
                out.append("\\]")
                i += 1
            continue
        if c == "(":
            for lead, name in _PERL_ONLY:
                if pattern.startswith(lead, i):
                    problems.append(f"{name} is not RE2 syntax")
                    break
            else:
                if pattern.startswith("(?", i):
                    j = i + 2
                    while j < n and (pattern[j].isalpha() or pattern[j] == "-"):
                        j += 1
                    flags = pattern[i + 2 : j]
                    if j < n and pattern[j] in ":)" and "U" in flags:
                        problems.append("the ungreedy flag (?U) is not supported")
                    elif j < n and pattern[j] == ")" and pattern[i + 2 : j].isdigit():
                        problems.append("recursion is not RE2 syntax")
        if c in "*+?}" and i + 1 < n and pattern[i + 1] == "+":
            problems.append(f"possessive quantifier {c}+ is not RE2 syntax")
        out.append(c)
        i += 1
    return "".join(out), problems


def _re2() -> Any:
    """The RE2 bindings (google-re2), or None when they cannot be imported."""
    try:
        import re2
    except ImportError:
        return None
    return re2


_TEXT_ANCHOR = re.compile(r"\\[Az]|\(\?[a-zA-Z]*-[a-zA-Z]*m")


def line_mode_ok(compiled: Any) -> bool:
    """An RE2 regex that :func:`multiline_variant` can serve (nothing compiled)."""
    re2 = _re2()
    pattern = getattr(compiled, "pattern", None)
    return (
        re2 is not None and isinstance(compiled, (re2._Regexp, LazyRE2))
        and isinstance(pattern, str)
        and _TEXT_ANCHOR.search(pattern) is None
    )


#: A pattern's leading element that may match nothing: flags, then one class (or
#: a class escape) repeated from zero (``(?i)[\w.-]{0,50}?``, as generated rules
#: start).  What follows matches somewhere exactly when the whole does.
_OPTIONAL_LEAD = re.compile(
    r"(\(\?[a-zA-Z]+\))?(?:\[(?:\\.|[^\]\\\[])+\]|\\[wdsWDS])(?:\{0,\d*\}|\*)\??"
)


def _without_optional_lead(pattern: str) -> str:
    """``pattern`` less a leading element that may match nothing (its flags kept).

    A line holds a match of one exactly when it holds a match of the other
    (the element matches the empty string before any match of the rest);
    RE2 runs a bounded repeat at the start of a search slowly, the rest fast.
    Used only to prove lines hold no match, never to take a secret.
    """
    m = _OPTIONAL_LEAD.match(pattern)
    if m is None or m.end() >= len(pattern) or pattern[m.end()] in "*+?{|)":
        return pattern
    return (m.group(1) or "") + pattern[m.end() :]


def multiline_variant(compiled: Any) -> Any:
    """An RE2 rule's regex with ``^``/``$`` matching at line ends (``(?m)``), over
    UTF-8 bytes, for one search over many lines joined by newlines; None without the RE2
    bindings, or when the pattern anchors to the whole text (``\\A``,
    ``\\z``) or turns line mode off."""
    if not line_mode_ok(compiled):
        return None
    re2 = _re2()
    pattern = _without_optional_lead(compiled.pattern)
    options = re2.Options()
    options.log_errors = False
    try:
        # Over bytes (the lines' UTF-8): a search from an offset converts nothing.
        return re2.compile(("(?m)" + pattern).encode("utf-8"), options)
    except Exception:  # noqa: BLE001 - not served in one pass, checked line by line
        return None


def compile_re2(pattern: str) -> Any:
    """Compile an RE2 pattern; raises ConfigProblem naming what is wrong.

    With the RE2 bindings installed (a dependency), the pattern runs on RE2
    itself: matching takes time linear in the line whatever the pattern.
    Without them the regex module runs the translation, and patterns that
    could backtrack super-linearly there (a repeat inside a repeat, such as
    ``(a+)+``) are refused.
    """
    translated, problems = translate(pattern)
    if problems:
        raise ConfigProblem("; ".join(dict.fromkeys(problems)))
    re2 = _re2()
    if re2 is not None:
        options = re2.Options()
        options.log_errors = False  # the caller reports the problem, once
        try:
            return re2.compile(pattern, options)
        except Exception as exc:  # noqa: BLE001 - the bindings raise their own error type
            detail = exc.args[0] if exc.args else exc
            if isinstance(detail, bytes):
                detail = detail.decode("utf-8", "replace")
            raise ConfigProblem(f"invalid regex: {detail}") from None
    if _nested_repeat(translated):
        raise ConfigProblem(
            "a repeat inside a repeat (such as (a+)+) can take super-linear time without "
            "the RE2 engine; install google-re2"
        )
    regex = _regex()
    try:
        return regex.compile(translated, regex.V1 | regex.ASCII)
    except regex.error as exc:
        raise ConfigProblem(f"invalid regex: {exc}") from None


def _nested_repeat(pattern: str) -> bool:
    """Whether an unbounded or wide repeat holds another repeat (star height 2)."""
    import re
    import re._constants as c
    import re._parser as sre

    try:
        parsed = sre.parse(pattern)
    except (re.error, ValueError):
        return True  # the backtracking engine's own parser disagrees: refuse

    def repeats(seq: Any, inside: bool) -> bool:
        for op, av in seq:
            if op in (c.MAX_REPEAT, c.MIN_REPEAT, getattr(c, "POSSESSIVE_REPEAT", None)):
                wide = av[1] is c.MAXREPEAT or av[1] > 16
                if inside and av[1] != 1:
                    return True
                if repeats(av[2], inside or wide):
                    return True
            elif op is c.SUBPATTERN:
                if repeats(av[3], inside):
                    return True
            elif op is c.BRANCH:
                if any(repeats(b, inside) for b in av[1]):
                    return True
            elif op in (c.ASSERT, c.ASSERT_NOT) and repeats(av[1], inside):
                return True
        return False

    return repeats(list(parsed), False)


# --------------------------------------------------------------------------- #
# Reading a file.
# --------------------------------------------------------------------------- #
_MAX_EXTEND_DEPTH = 2


def _strings(value: Any, what: str, rule_id: str | None) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigProblem(f"{what} must be a list of strings", rule_id)
    return tuple(value)


def _allowlist(
    spec: Any, rule_id: str | None, problems: list[ConfigProblem], global_list: bool = False
) -> Allowlist | None:
    if not isinstance(spec, dict):
        problems.append(ConfigProblem("an allowlist must be a table", rule_id))
        return None
    def compiled(key: str, what: str) -> list[Any]:
        out = []
        for p in _strings(spec.get(key), f"allowlist {key}", rule_id):
            try:
                out.append(compile_re2(p))
            except ConfigProblem as exc:
                problems.append(ConfigProblem(f"allowlist {what}: {exc.message}", rule_id))
        return out

    try:
        regexes = compiled("regexes", "regex")
        paths = compiled("paths", "path")
        stop = tuple(w.lower() for w in _strings(spec.get("stopwords"), "stopwords", rule_id))
        commits = _strings(spec.get("commits"), "allowlist commits", rule_id)
        target = spec.get("regexTarget", "secret") or "secret"
        if target not in ("secret", "match", "line"):
            raise ConfigProblem(
                f"regexTarget must be secret, match or line, not {target!r}", rule_id
            )
        condition = str(spec.get("condition", "OR") or "OR").upper()
        if condition not in ("OR", "AND"):
            raise ConfigProblem(f"condition must be OR or AND, not {condition!r}", rule_id)
        targets = _strings(spec.get("targetRules"), "targetRules", rule_id) if global_list else ()
    except ConfigProblem as exc:
        problems.append(exc)
        return None
    if not (regexes or paths or stop or commits):
        if not problems:
            problems.append(
                ConfigProblem(
                    "an allowlist needs at least one of regexes, paths, stopwords, commits", rule_id
                )
            )
        return None
    if commits and not (regexes or paths or stop):
        return None  # commits only: nothing applies to a stream
    return Allowlist(tuple(regexes), stop, tuple(paths), target, condition, targets)


def _rule(spec: Any, source: str, problems: list[ConfigProblem]) -> Rule | None:
    if not isinstance(spec, dict):
        problems.append(ConfigProblem("each [[rules]] entry must be a table"))
        return None
    rule_id = spec.get("id")
    if not isinstance(rule_id, str) or not rule_id:
        problems.append(ConfigProblem("a rule has no id"))
        return None
    if spec.get("required"):
        problems.append(
            ConfigProblem("composite rules ([[rules.required]]) are not supported", rule_id)
        )
        return None
    if spec.get("skipReport"):
        return None  # a rule that only feeds composite rules
    pattern = spec.get("regex")
    path = spec.get("path")
    if not pattern:
        if not path:
            problems.append(ConfigProblem("the rule has neither regex nor path", rule_id))
        return None  # a path-only rule reports files: nothing to redact
    if not isinstance(pattern, str):
        problems.append(ConfigProblem("regex must be a string", rule_id))
        return None
    try:
        compiled = compile_re2(pattern)
        path_re = compile_re2(path) if isinstance(path, str) and path else None
    except ConfigProblem as exc:
        problems.append(ConfigProblem(f"regex: {exc.message}", rule_id))
        return None
    group = spec.get("secretGroup", 0) or 0
    if not isinstance(group, int) or group < 0:
        problems.append(ConfigProblem("secretGroup must be a whole number >= 0", rule_id))
        return None
    if group > compiled.groups:
        problems.append(
            ConfigProblem(
                f"secretGroup {group} but the regex has {compiled.groups} group(s)", rule_id
            )
        )
        return None
    entropy = spec.get("entropy", 0.0) or 0.0
    if not isinstance(entropy, (int, float)):
        problems.append(ConfigProblem("entropy must be a number", rule_id))
        return None
    try:
        keywords = tuple(k.lower() for k in _strings(spec.get("keywords"), "keywords", rule_id))
    except ConfigProblem as exc:
        problems.append(exc)
        return None
    allows = []
    specs = spec.get("allowlists") or []
    if spec.get("allowlist"):
        specs = [spec["allowlist"], *specs]
    if not isinstance(specs, list):
        problems.append(ConfigProblem("allowlists must be an array of tables", rule_id))
        specs = []
    for a in specs:
        got = _allowlist(a, rule_id, problems)
        if got is not None:
            allows.append(got)
    prefilter = (
        b"(?i)" + b"|".join(_regex().escape(k).encode() for k in keywords) if keywords else b""
    )
    return Rule(
        id=rule_id,
        regex=compiled,
        text=True,
        secret_group=group,
        entropy=float(entropy),
        keywords=keywords,
        allowlists=tuple(allows),
        path=path_re,
        placeholders=False,
        prefilter=prefilter,
        description=str(spec.get("description", "")),
        source=source,
    )


def _line_of(text: str, rule_id: str | None) -> int | None:
    """The line of ``id = "rule_id"`` in the file (for error positions)."""
    if rule_id is None:
        return None
    for n, line in enumerate(text.splitlines(), 1):
        s = line.strip()
        if s.startswith("id") and (f'"{rule_id}"' in s or f"'{rule_id}'" in s):
            return n
    return None


def _read(path: str) -> bytes:
    try:
        with open(path, "rb") as fh:
            return fh.read()
    except OSError as exc:
        raise UsageError(
            f"cannot read rules: {exc.strerror or type(exc).__name__}", source=path
        ) from None


def load_file(path: str, *, _depth: int = 0) -> tuple[list[Rule], list[Allowlist]]:
    """The rules and file-wide allowlists of one gitleaks file.

    Raises :class:`UsageError` (``path:line: message``) for a file that
    cannot be read or parsed, or with every unsupported construct named.

    A file that loaded without a problem is kept in the private disk cache
    (see :mod:`council_filters.redaction.diskcache`), keyed by its name, its
    bytes, this reader's code and the RE2 bindings' version; a later load of
    the same bytes (and of the same files it extends) reads that copy and
    compiles each regex only when it is first run (:class:`LazyRE2`): every
    one compiled when the file was first read.
    """
    raw = _read(path)
    if _depth or _re2() is None:
        return _load_file(path, raw, _depth, [])
    key = _cache_key(path, raw)
    got = _cached_load(key) if key else None
    if got is not None:
        return got
    deps: list[tuple[str, str]] = []
    rules, allows = _load_file(path, raw, 0, deps)
    if key:
        _cache_store(key, rules, allows, deps)
    return rules, allows


def _load_file(
    path: str, raw: bytes, _depth: int, deps: list[tuple[str, str]]
) -> tuple[list[Rule], list[Allowlist]]:
    """:func:`load_file` without the cache (``deps`` collects the extended files)."""
    import tomllib

    try:
        text = raw.decode("utf-8")
        doc = tomllib.loads(text)
    except UnicodeDecodeError as exc:
        raise UsageError(f"rules file is not UTF-8 (byte {exc.start + 1})", source=path) from None
    except tomllib.TOMLDecodeError as exc:
        msg = str(exc)
        line = None
        if "(at line " in msg:
            head, _, where = msg.partition(" (at line ")
            try:
                line = int(where.split(",")[0])
            except ValueError:
                line = None
            msg = head
        raise UsageError(f"invalid TOML: {msg}", source=path, line=line) from None

    problems: list[ConfigProblem] = []
    rules: list[Rule] = []
    allows: list[Allowlist] = []
    extend = doc.get("extend") or {}
    if extend:
        if not isinstance(extend, dict):
            problems.append(ConfigProblem("[extend] must be a table"))
        else:
            if extend.get("useDefault"):
                problems.append(
                    ConfigProblem(
                        "extend.useDefault: gitleaks' built-in configuration is not bundled; "
                        "name its file instead (--rules gitleaks.toml,THIS-FILE)"
                    )
                )
            if extend.get("url"):
                problems.append(ConfigProblem("extend.url is not supported (no downloads)"))
            base_path = extend.get("path")
            if base_path:
                if _depth >= _MAX_EXTEND_DEPTH:
                    problems.append(ConfigProblem("extend: nested too deeply (at most 2)"))
                else:
                    full = os.path.join(os.path.dirname(path), str(base_path))
                    base_raw = _read(full)
                    deps.append((full, _digest(base_raw)))
                    base_rules, base_allows = _load_file(full, base_raw, _depth + 1, deps)
                    disabled = set(_strings(extend.get("disabledRules"), "disabledRules", None))
                    rules.extend(r for r in base_rules if r.id not in disabled)
                    allows.extend(base_allows)
    specs = doc.get("rules") or []
    if not isinstance(specs, list):
        problems.append(ConfigProblem("rules must be an array of tables ([[rules]])"))
        specs = []
    own: list[Rule] = []
    for spec in specs:
        rule = _rule(spec, path, problems)
        if rule is not None:
            own.append(rule)
    own_ids = {r.id for r in own}
    rules = [r for r in rules if r.id not in own_ids] + own
    global_specs: list[Any] = []
    if doc.get("allowlist"):
        global_specs.append(doc["allowlist"])
    extra = doc.get("allowlists") or []
    global_specs.extend(extra if isinstance(extra, list) else [extra])
    ids = tuple(r.id for r in rules)
    for spec in global_specs:
        got = _allowlist(spec, None, problems, global_list=True)
        if got is not None:
            if not got.rule_ids:  # a file's allowlists cover that file's rules only
                got = Allowlist(
                    got.regexes, got.stopwords, got.paths, got.target, got.condition, ids
                )
            allows.append(got)
    if problems:
        raise _one_error(path, text, problems)
    return rules, allows


def _one_error(path: str, text: str, problems: Iterable[ConfigProblem]) -> UsageError:
    """Every problem of a file in one located message."""
    items = list(problems)
    parts = []
    for p in items:
        where = f"rule {p.rule_id!r}: " if p.rule_id else ""
        line = _line_of(text, p.rule_id)
        if line is not None and p is not items[0]:
            where = f"rule {p.rule_id!r} (line {line}): "
        parts.append(where + p.message)
    first_line = _line_of(text, items[0].rule_id)
    more = f" ({len(items)} problems)" if len(items) > 1 else ""
    return UsageError(
        "unsupported rules" + more + ": " + "; ".join(parts), source=path, line=first_line
    )


# --------------------------------------------------------------------------- #
# The loaded file, cached.
# --------------------------------------------------------------------------- #
class LazyRE2:
    """An RE2 regex compiled on first use; duck-types the bindings' compiled regex.

    Only for patterns that compiled when their file was first loaded (the
    cache holds nothing else), so compiling later cannot fail on the pattern.
    """

    def __init__(self, pattern: str, groups: int) -> None:
        self.pattern = pattern
        self.groups = groups

    def compiled(self) -> Any:
        rx = self.__dict__.get("_rx")
        if rx is None:
            re2 = _re2()
            options = re2.Options()
            options.log_errors = False
            rx = self.__dict__["_rx"] = re2.compile(self.pattern, options)
        return rx

    def __getattr__(self, name: str) -> Any:
        # Reached only for what the instance does not hold yet (search,
        # finditer, ...): kept, so later look-ups find it directly.
        if name.startswith("__") or name == "_rx":
            raise AttributeError(name)
        value = getattr(self.compiled(), name)
        self.__dict__[name] = value
        return value

    def __repr__(self) -> str:
        return f"LazyRE2({self.pattern!r})"


_CACHE_MAGIC = b"council-filters rules cache 3\n"
#: The modules whose code decides what a loaded file becomes.
_CACHE_CODE = ("gitleaks.py", "rules.py", "window.py", "engine.py")


def _digest(data: bytes) -> str:
    from council_filters.redaction import diskcache

    return diskcache.digest(data)


def _cache_key(path: str, raw: bytes) -> str | None:
    """The cache entry's path for this file's name and bytes (None: no cache)."""
    from council_filters.redaction import diskcache, prefilter

    here = os.path.dirname(os.path.abspath(__file__))
    parts = [_CACHE_MAGIC, str(getattr(_re2(), "__version__", "")).encode()]
    try:
        for name in _CACHE_CODE:
            with open(os.path.join(here, name), "rb") as fh:
                parts.append(fh.read())
        with open(prefilter.__file__, "rb") as fh:  # the derived literals
            parts.append(fh.read())
    except OSError:
        return None
    parts += [os.fsencode(path), raw]
    key = _digest(b"\0".join(_digest(p).encode() for p in parts))[:40]
    return diskcache.entry_path(f"rules-{key}.bin")


# The entry: the magic line, the sha256 of the payload, then the payload: one
# ``marshal`` dump of tuples of plain values (str, bytes, int, float, None),
# read back field by field with each type checked.  ``marshal`` only builds
# data (nothing in an entry is run), is built into the interpreter (no module
# to load), and reads this payload several times faster than a JSON parser.
def _rx_record(rx: Any) -> tuple[str, int]:
    return (rx.pattern, rx.groups)


def _allow_record(a: Allowlist) -> tuple[Any, ...]:
    return (tuple(_rx_record(r) for r in a.regexes), tuple(a.stopwords),
            tuple(_rx_record(p) for p in a.paths), a.target, a.condition, tuple(a.rule_ids))


def derived_keywords(pattern: str) -> tuple[bytes, ...]:
    """Literals (lower case) every match of an RE2 pattern holds, if any."""
    from council_filters.redaction.prefilter import required_literals

    return required_literals(translate(pattern)[0].encode("utf-8")) or ()


def chosen_search(rule: Rule, words: tuple[bytes, ...]) -> bytes | None:
    """The window of a file rule's regex to search by, when it beats its keywords
    (RE2 rules only: the window is written for RE2's meaning)."""
    if "_search" in rule.__dict__:
        chosen: bytes | None = rule.__dict__["_search"]
        return chosen  # decided when a cached rule file was stored
    from council_filters.redaction.secrets import window

    if not rule.text or not line_mode_ok(rule.regex):
        return None
    found = rule.__dict__.get("_window", False)
    if found is False:  # not kept with a cached rule file
        found = window.search_window(translate(rule.regex.pattern)[0])
    return window.better(found, words)


def _rule_record(r: Rule) -> tuple[Any, ...]:
    derived = None if r.keywords else tuple(derived_keywords(r.regex.pattern))
    # The search a rule set without the extended set uses for it (its window,
    # or None: its keywords), decided once here rather than at every start.
    search = chosen_search(r, r.keyword_bytes or derived or ())
    return (
        r.id, _rx_record(r.regex), r.secret_group, float(r.entropy), tuple(r.keywords),
        tuple(_allow_record(a) for a in r.allowlists),
        _rx_record(r.path) if r.path is not None else None,
        r.prefilter, r.description, r.source, derived, _window_record(r.regex.pattern), search,
    )


def _window_record(pattern: str) -> tuple[bytes, float] | None:
    from council_filters.redaction.secrets.window import search_window

    found = search_window(translate(pattern)[0])
    return None if found is None else (found[0], float(found[1]))


def _cache_store(
    key: str, rules: list[Rule], allows: list[Allowlist], deps: list[tuple[str, str]]
) -> None:
    import marshal

    from council_filters.redaction import diskcache

    try:
        doc = (tuple(deps), tuple(_rule_record(r) for r in rules),
               tuple(_allow_record(a) for a in allows))
        payload = marshal.dumps(doc, 4)
        if _doc_from(marshal.loads(payload)) is None:
            return  # (a value the reader would refuse: not stored)
    except (AttributeError, TypeError, ValueError):
        return  # a rule the cache cannot describe: loaded afresh each time
    diskcache.write(key, _CACHE_MAGIC + _digest(payload).encode() + b"\n" + payload)


class _Bad(Exception):
    """An entry's value of an unexpected type or shape."""


def _of(value: Any, kind: type) -> Any:
    if type(value) is not kind:
        raise _Bad
    return value


def _items(value: Any, kind: type, n: int | None = None) -> tuple[Any, ...]:
    """A tuple of ``kind`` values (of ``n`` items when given)."""
    if type(value) is not tuple or (n is not None and len(value) != n):
        raise _Bad
    if kind is not object and not all(type(v) is kind for v in value):
        raise _Bad
    return value


def _lazy(rec: Any) -> LazyRE2:
    pattern, groups = _items(rec, object, 2)
    return LazyRE2(_of(pattern, str), _of(groups, int))


def _allow_from(rec: Any) -> Allowlist:
    regexes, stop, paths, target, condition, ids = _items(rec, object, 6)
    return Allowlist(
        tuple(_lazy(r) for r in _items(regexes, tuple)), _items(stop, str),
        tuple(_lazy(p) for p in _items(paths, tuple)), _of(target, str), _of(condition, str),
        _items(ids, str),
    )


def _rule_from(rec: Any) -> Rule:
    (rid, regex, group, entropy, keywords, allows, path, prefilter, description, source,
     derived, win, search) = _items(rec, object, 13)
    rule = Rule(
        id=_of(rid, str), regex=_lazy(regex), text=True, secret_group=_of(group, int),
        entropy=_of(entropy, float), keywords=_items(keywords, str),
        allowlists=tuple(_allow_from(a) for a in _items(allows, tuple)),
        path=_lazy(path) if path is not None else None, placeholders=False,
        prefilter=_of(prefilter, bytes), description=_of(description, str),
        source=_of(source, str),
    )
    if win is not None:
        text, bits = _items(win, object, 2)
        win = (_of(text, bytes), _of(bits, float))
    object.__setattr__(rule, "_window", win)
    object.__setattr__(rule, "_search", None if search is None else _of(search, bytes))
    if derived is not None:
        object.__setattr__(rule, "_derived", _items(derived, bytes))
    return rule


def _doc_from(doc: Any) -> tuple[list[tuple[str, str]], list[Rule], list[Allowlist]] | None:
    """An entry's dependencies, rules and allowlists (None: not of the expected shape)."""
    try:
        deps, rules, allows = _items(doc, tuple, 3)
        dep_list = [(_of(full, str), _of(digest, str))
                    for full, digest in (_items(d, object, 2) for d in deps)]
        return (dep_list, [_rule_from(r) for r in rules],
                [_allow_from(a) for a in allows])
    except (_Bad, ValueError):
        return None


def _cached_load(key: str) -> tuple[list[Rule], list[Allowlist]] | None:
    """The rules of a cache entry, or None (missing, damaged, or a dependency changed)."""
    import marshal

    from council_filters.redaction import diskcache

    data = diskcache.read(key)
    if data is None or not data.startswith(_CACHE_MAGIC):
        return None
    head, _, payload = data[len(_CACHE_MAGIC) :].partition(b"\n")
    if head != _digest(payload).encode():
        return None
    try:
        doc = _doc_from(marshal.loads(payload))
    except (EOFError, ValueError, TypeError):
        return None
    if doc is None:
        return None
    deps, rules, allows = doc
    for full, digest in deps:
        try:
            with open(full, "rb") as fh:
                if _digest(fh.read()) != digest:
                    return None
        except OSError:
            return None
    return rules, allows
