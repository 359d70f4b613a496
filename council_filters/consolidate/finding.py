"""Findings: validation, normalisation, fingerprints, groups, and the finding model.

Pure functions over records (dicts).  The one side effect allowed is reading
source files under a repository root (:class:`SourceReader`) to anchor
fingerprints and snippets; it never follows a path out of the root.

Every ordering here is a total order on content, so the result does not
depend on the order the findings arrived in.
"""

from __future__ import annotations

import functools
import hashlib
import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import orjson

from council_filters.base import schemas
from council_filters.base import severity as sev
from council_filters.consolidate import evidence
from council_filters.consolidate.grouping import WINDOW
from council_filters.consolidate.origins import ORIGIN_CODES, canonical_origin

Record = dict[str, Any]

# --------------------------------------------------------------------------- #
# Schema validation: finding.schema.json, by fastjsonschema and jsonschema.
# --------------------------------------------------------------------------- #
# A valid finding costs one call of the code fastjsonschema compiles from the
# schema file.  An invalid one (rare) is described by jsonschema, whose errors
# name the keyword and the place: the first by the order below becomes a
# message naming the field and the rule, never the value.  "integer" means a
# JSON integer literal (a Python int), never 1.0: the model's line numbers are
# taken as written or not at all.
_KEYWORD_ORDER = ("type", "const", "minimum", "minLength", "maxLength", "pattern", "items")


def _types(schema: Record) -> list[str]:
    t = schema.get("type", [])
    return t if isinstance(t, list) else [t]


@functools.cache
def _checkers() -> tuple[Callable[[Any], Any], tuple[str, ...], Any]:
    import fastjsonschema
    import jsonschema

    schema = schemas.load("finding")
    fast = fastjsonschema.compile(schema)
    ints = tuple(k for k, sub in schema["properties"].items() if "integer" in _types(sub))
    base = jsonschema.Draft202012Validator
    strict = jsonschema.validators.extend(
        base, type_checker=base.TYPE_CHECKER.redefine("integer", lambda _c, v: type(v) is int)
    )
    return fast, ints, strict(schema)


def finding_problem(record: object) -> str | None:
    """Why ``record`` is not a valid finding (None if it is), checked against the schema file."""
    import fastjsonschema

    fast, ints, _ = _checkers()
    try:
        fast(record)
    except fastjsonschema.JsonSchemaValueException:
        return _describe(record)
    if type(record) is dict and any(type(record.get(k)) is float for k in ints):
        return _describe(record)
    return None


def _describe(record: object) -> str:
    validator = _checkers()[2]
    schema = validator.schema
    props = list(schema.get("properties", {}))
    required = schema.get("required", [])

    def rank(err: Any) -> tuple[int, ...]:
        where = list(err.absolute_schema_path)
        head = where[0] if where else ""
        if head == "type":
            return (0,)
        if head == "required":
            missing = [k for k in required if isinstance(record, dict) and k not in record]
            return (1, required.index(missing[0]) if missing else 0)
        if head == "properties":
            key, keyword = where[1], where[2]
            return (2, props.index(key), _KEYWORD_ORDER.index(keyword) if keyword in
                    _KEYWORD_ORDER else len(_KEYWORD_ORDER), *[
                        p for p in err.absolute_path if isinstance(p, int)])
        return (3,) if head == "anyOf" else (4,)

    errors = list(validator.iter_errors(record))
    if not errors:  # cannot happen: both read the same schema
        return "record: does not match the finding schema"
    err = min(errors, key=rank)
    where = list(err.absolute_schema_path)
    if where[:1] == ["required"]:
        missing = [k for k in required if isinstance(record, dict) and k not in record]
        return f"{missing[0] if missing else required[0]}: is required"
    if where[:1] == ["anyOf"]:
        firsts = [alt.get("required", ["?"])[0] for alt in schema["anyOf"]]
        return f"needs a non-blank {' or '.join(firsts)}"
    if where[:1] == ["additionalProperties"]:
        return "record: has a field that is not allowed"
    label = "record"
    if where[:1] == ["properties"]:
        label = where[1] + ("[]" if "items" in where[2:] else "")
    return _rule_message(label, str(err.validator), err.validator_value)


def _rule_message(label: str, keyword: str, value: Any) -> str:
    if keyword == "type":
        types = value if isinstance(value, list) else [value]
        described = " or ".join("an integer" if t == "integer" else f"a {t}" for t in types)
        return f"{label}: must be {described}"
    if keyword == "const":
        return f"{label}: must be {orjson.dumps(value).decode()}"
    if keyword == "minimum":
        return f"{label}: must be >= {value}"
    if keyword == "minLength":
        return f"{label}: must not be empty" if value == 1 else f"{label}: shorter than {value}"
    if keyword == "maxLength":
        return f"{label}: longer than {value} characters"
    if keyword == "pattern":
        if value == "\\S":
            return f"{label}: must not be blank"
        return f"{label}: does not match the required pattern"
    return f"{label}: fails schema rule '{keyword}'"


# --------------------------------------------------------------------------- #
# Normalisation.
# --------------------------------------------------------------------------- #


def fold(text: str) -> str:
    return " ".join(text.split())


def normalize_path(path: str) -> str:
    """Repo-relative spelling: no leading ``./``, no ``//`` or ``/./`` segments."""
    p = path.strip().replace("\\", "/")
    if "//" not in p and "./" not in p and not p.endswith("/") and p != ".":
        return p
    parts = [seg for seg in p.split("/") if seg not in ("", ".")]
    lead = "/" if p.startswith("/") else ""
    return lead + "/".join(parts)


def severity_of(record: Record) -> tuple[str | None, bool]:
    """Canonical severity and whether a given value was unrecognised."""
    raw = record.get("severity")
    if raw not in (None, ""):
        got = sev.normalize(raw)
        if got is not None:
            return got, False
        pr = _priority(record.get("priority"))
        return pr, pr is None
    pr = _priority(record.get("priority"))
    bad = pr is None and record.get("priority") not in (None, "")
    return pr, bad


def _priority(value: object) -> str | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):  # codex JSON priority: 0 -> P1, 1 -> P2, 2-3 -> P3
        return {0: "critical", 1: "medium", 2: "minor", 3: "minor"}.get(value)
    return sev.normalize(value)


GROUPS: tuple[str, ...] = ("Security", "Critical", "Performance", "Warning", "Suggestion")
GROUP_ICONS: dict[str, str] = {
    "Security": "🔒",
    "Critical": "🚨",
    "Performance": "⚡",
    "Warning": "⚠️",
    "Suggestion": "💡",
}
GROUP_RANK: dict[str, int] = {g: i for i, g in enumerate(GROUPS)}


def group_of(origins: Iterable[str], category: str | None, severity: str | None) -> str:
    """The report group: Security, Critical, Performance, Warning, Suggestion (in that order)."""
    kinds = set(origins)
    if category:
        kinds.add(canonical_origin(category))
    elif len(kinds) == 1 and "security" not in kinds and "performance" not in kinds:
        return "Critical" if severity == "critical" else (
            "Warning" if severity == "medium" else "Suggestion"
        )
    if "security" in kinds:
        return "Security"
    if severity == "critical":
        return "Critical"
    if "performance" in kinds:
        return "Performance"
    if severity == "medium":
        return "Warning"
    return "Suggestion"


class Place(NamedTuple):
    """Another place one finding cites (its ``related`` list)."""

    file: str
    line: int | None = None
    end_line: int | None = None

    def record(self) -> Record:
        out: Record = {"file": self.file}
        if self.line:
            out["line"] = self.line
            if self.end_line and self.end_line > self.line:
                out["end_line"] = self.end_line
        return out

    def text(self) -> str:
        """``path:line`` (``path:12-14``; ``path`` alone for a file-level place)."""
        if not self.line:
            return self.file
        if self.end_line and self.end_line > self.line:
            return f"{self.file}:{self.line}-{self.end_line}"
        return f"{self.file}:{self.line}"


MAX_RELATED = 16  # the other places one finding keeps


def _count(value: object) -> int | None:
    """A line number as a record gives it: an integer of at least 1, else None."""
    if isinstance(value, int) and not isinstance(value, bool) and value >= 1:
        return value
    return None


def related_places(raw: Record, file: str | None, line: int | None) -> tuple[Place, ...]:
    """The other places a finding cites (its ``related`` field), normalised: repository
    spellings, never its own place, each once, at most :data:`MAX_RELATED`."""
    given = raw.get("related")
    if not isinstance(given, list):
        return ()
    return merge_places([], given, file, line)


def merge_places(have: Sequence[Place], more: Iterable[object], file: str | None,
                 line: int | None) -> tuple[Place, ...]:
    """``have`` and then the places of ``more`` (``Place`` or ``{file, line, end_line}``
    records) not listed yet, leaving out ``(file, line)``, at most :data:`MAX_RELATED`."""
    out = list(have)
    seen = {(p.file, p.line) for p in out} | {(file, line)}
    for item in more:
        if len(out) >= MAX_RELATED:
            break
        if isinstance(item, Place):
            p = item
        elif isinstance(item, dict) and isinstance(item.get("file"), str) and item["file"].strip():
            at = _count(item.get("line"))
            end = _count(item.get("end_line")) if at else None
            p = Place(normalize_path(item["file"]), at, end)
        else:
            continue
        if (p.file, p.line) not in seen:
            seen.add((p.file, p.line))
            out.append(p)
    return tuple(out)


def _near(p: Place, file: str | None, line: int | None) -> bool:
    """``p`` is the spot ``file:line`` names: the same file, both without a line or
    lines at most ``WINDOW`` apart."""
    if p.file != file:
        return False
    if p.line is None or line is None:
        return p.line is None and line is None
    return abs(p.line - line) <= WINDOW


def title_of(record: Record) -> str:
    for key in ("subject", "summary"):
        v = record.get(key)
        if isinstance(v, str) and v.strip():
            return v
    return ""


# --------------------------------------------------------------------------- #
# Reading source lines under a repository root.
# --------------------------------------------------------------------------- #
class SourceReader:
    """Lines of tracked files at the reviewed revision, redacted, cached.

    Only content git tracks at ``rev`` (HEAD: the revision council-pack
    reviews, or a scope's snapshot commit) is ever read, straight from the
    object store with the repository's own configuration neutralised (no
    hooks, no fsmonitor, no textconv or filters, no attributes): never the
    work tree, never an untracked or git-ignored file, nothing under
    ``.git/``, nothing a path outside the repository names, no submodule, and
    a symlink only when it points at another tracked file inside the
    repository.  What is read goes through the redaction before any line is
    used, so an anchor, snippet or evidence check can never carry a credential
    the file holds.  Outside a git repository there are no snippets at all.
    :meth:`prefetch` reads many files in one pass (one listing, one blob
    stream); every file is read at most once.
    """

    def __init__(self, root: str | None, rev: str = "HEAD") -> None:
        self.root = os.path.realpath(root) if root else None
        self.rev = rev
        self._cache: dict[str, evidence.FileText] = {}
        self._source: Any = None

    def _revision(self) -> Any:
        if self._source is None:
            from council_filters.consolidate.revision import RevisionFiles

            assert self.root is not None
            self._source = RevisionFiles(self.root, self.rev)
        return self._source

    def prefetch(self, paths: Iterable[str]) -> None:
        """Read every path not read yet, in one pass."""
        if self.root is None:
            return
        todo = sorted({p for p in paths if p not in self._cache})
        if todo:
            self._cache.update(self._revision().read(todo))

    def text(self, path: str) -> evidence.FileText:
        """The file's lines, or why there are none."""
        if self.root is None:
            return evidence.FileText(None, "no repository to check against")
        if path not in self._cache:
            self.prefetch([path])
        return self._cache[path]

    def files(self, paths: Iterable[str]) -> Callable[[str], evidence.FileText]:
        """The evidence check's file source (:func:`evidence.check_all`)."""
        self.prefetch(paths)
        return self.text

    def lines(self, path: str) -> Sequence[str] | None:
        if self.root is None:
            return None
        return self.text(path).lines

    def line(self, path: str, lineno: int | None) -> str | None:
        if not lineno or self.root is None:
            return None
        lines = self.text(path).lines
        if lines is None or lineno > len(lines):
            return None
        return lines[lineno - 1]


# --------------------------------------------------------------------------- #
# The finding model.
# --------------------------------------------------------------------------- #
OWNED = (
    "kind", "id", "origin", "severity", "group", "merged_origins", "merged_count", "fingerprint",
)


@dataclass(eq=False, slots=True)
class Finding:
    """One validated input finding, normalised, with where it came from."""

    raw: Record
    origin: str
    file: str | None
    line: int | None
    severity: str | None
    title: str
    reviewer: str | None  # the verdict record's reviewer slot, when it came from one
    source: str
    lineno: int
    ordinal: int  # position of the finding inside its record (1-based)
    key: bytes = b""  # canonical content, the final tie-break of every ordering
    fingerprint: str = ""
    evidence: evidence.Evidence | None = None  # the evidence check's outcome, when it ran
    change: str | None = None  # added | context | file | unchanged, when a diff is known
    baseline: str | None = None  # new | unchanged, when a baseline is given
    related: tuple[Place, ...] = ()  # the other places it cites

    def __post_init__(self) -> None:
        self.key = orjson.dumps(self.raw, option=orjson.OPT_SORT_KEYS)

    @property
    def status(self) -> str | None:
        """The evidence status (None when the check did not run)."""
        return self.evidence.status if self.evidence is not None else None

    @property
    def cited_line(self) -> int | None:
        return self.evidence.cited_line if self.evidence is not None else None


def category_of(raw: Record, origin: str) -> str:
    """The finding's category: its ``category`` field, else a code-review reviewer's own
    area (security, tests, ...), else ``general``; lower-case, ``[a-z0-9-]``."""
    cat = raw.get("category")
    name = canonical_origin(cat) if isinstance(cat, str) and cat.strip() else ""
    if not name and origin in ORIGIN_CODES:
        name = origin
    slug = "-".join("".join(ch if ch.isalnum() and ch.isascii() else " " for ch in name).split())
    return slug[:48] or "general"


def fingerprint(file: str | None, quote: str | None, summary: str, category: str) -> str:
    """A finding's identity from what it says about which code: the file, the normalised
    quote (the normalised summary when there is none) and the category.  Neither the
    line, nor the reviewer, nor the finding's place in the input goes in, so a claim
    keeps its identity when lines shift or other findings come and go."""
    anchor = "q:" + quote if quote else "s:" + fold(summary).lower()
    material = "\x1f".join(("v2", file or "", anchor, category))
    return hashlib.sha256(material.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def finding_fingerprint(f: Finding) -> str:
    return fingerprint(f.file, evidence.canonical_quote(f.raw.get("evidence")), f.title,
                       category_of(f.raw, f.origin))


def richness(f: Finding) -> tuple[int, int]:
    """How much a finding says: (non-empty informative fields, text length)."""
    r = f.raw
    n = 0
    length = 0
    for k in ("subject", "summary", "discussion", "evidence", "label", "category", "suggestion"):
        v = r.get(k)
        if isinstance(v, str) and v.strip():
            n += 1
            length += len(v)
    for k in ("end_line", "column", "decorations", "confidence", "side"):
        if r.get(k) not in (None, "", []):
            n += 1
    if f.severity is not None:
        n += 1
    return n, length


@dataclass(eq=False, slots=True)
class Consolidated:
    """One finding after dedup: the survivor plus what merged into it."""

    survivor: Finding
    members: list[Finding]
    severity: str | None
    origins: list[str]
    group: str
    code: str = ""
    id: str = ""
    listed: bool = False  # the record lists every member (finding-level grouping)
    filtered: bool = False  # left out of SARIF, rdjsonl, Code Quality and gates by --filter-mode
    baseline: str | None = None  # new | unchanged against --baseline
    unique_fingerprint: str = ""  # set when another finding shares the survivor's

    @property
    def checked_out(self) -> bool:
        """Some member's claim was not contradicted by the code (or nothing was checked)."""
        return any(m.status != evidence.UNVERIFIED for m in self.members)

    def counting(self, gate_unverified: bool = False) -> list[Finding]:
        """The members that count for agreement and gates."""
        if gate_unverified:
            return list(self.members)
        return [m for m in self.members if m.status != evidence.UNVERIFIED]

    @property
    def fingerprint(self) -> str:
        return self.unique_fingerprint or self.survivor.fingerprint

    @property
    def related(self) -> tuple[Place, ...]:
        """The other places the finding is cited at: the survivor's, then each other
        member's own place and those it cites, unless within ``WINDOW`` lines of the
        survivor's place or of one listed already (the same spot, cited twice); at most
        :data:`MAX_RELATED`."""
        s = self.survivor
        if len(self.members) == 1:
            return s.related
        out = list(s.related)
        for m in self.members:
            if m is s:
                continue
            own = [Place(m.file, m.line)] if m.file else []
            for p in (*own, *m.related):
                if len(out) >= MAX_RELATED:
                    return tuple(out)
                if not _near(p, s.file, s.line) and not any(
                        _near(p, q.file, q.line) for q in out):
                    out.append(p)
        return tuple(out)

    @property
    def citers(self) -> list[str]:
        """The reviewers (slots, else origins) whose findings are in this group, in order."""
        return list(dict.fromkeys(m.reviewer or m.origin for m in self.members))

    def sort_key(self) -> tuple[Any, ...]:
        s = self.survivor
        return (s.file or "\U0010ffff", s.line or 0, s.fingerprint, s.key)

    def record(self) -> Record:
        """The output record (see docs/consolidate.md, ``--format findings``)."""
        s = self.survivor
        out: Record = {
            "kind": "finding",
            "id": self.id,
            "origin": s.origin,
            "severity": self.severity,
            "group": self.group,
        }
        for k, v in s.raw.items():
            if k in OWNED:
                continue
            out[k] = s.file if k == "file" and s.file is not None else v
        related = self.related
        if related:
            out["related"] = [p.record() for p in related]
        else:
            out.pop("related", None)
        if s.evidence is not None:
            out["line"] = s.line
            out.update(s.evidence.fields())
        if s.change is not None:
            out["change"] = s.change
        if self.baseline is not None:
            out["baseline"] = self.baseline
        if self.filtered:
            out["filtered"] = True
        out["merged_origins"] = self.origins
        out["merged_count"] = len(self.members)
        out["fingerprint"] = self.fingerprint
        if self.listed:
            out["members"] = [member_record(m) for m in self.members]
        return out


def member_line(f: Finding) -> str:
    """One member as a line of plain text: ``origin (severity) file:line: text``."""
    where = f"{f.file}:{f.line}" if f.file and f.line else (f.file or "")
    return f"{f.origin} ({f.severity or 'unrated'}){' ' + where if where else ''}: {fold(f.title)}"


def related_text(c: Consolidated) -> str | None:
    """``Also at: b.py:22, c.py:31`` for a finding cited at other places (None without)."""
    related = c.related
    return "Also at: " + ", ".join(p.text() for p in related) + "." if related else None


def members_text(c: Consolidated) -> str:
    """The members of a listed group as plain text (SARIF and rdjsonl messages)."""
    n = len(c.citers)
    head = f"Raised by {n} reviewer{'s' if n != 1 else ''}:"
    return "\n".join([head, *("- " + member_line(m) for m in c.members)])


def member_record(f: Finding) -> Record:
    """One member of a consolidated finding, as the outputs list it (its own text)."""
    out: Record = {"origin": f.origin, "file": f.file, "line": f.line}
    end = f.raw.get("end_line")
    if isinstance(end, int) and not isinstance(end, bool) and f.line and end > f.line:
        out["end_line"] = end
    if f.related:
        out["related"] = [p.record() for p in f.related]
    out["severity"] = f.severity
    out["text"] = f.title
    disc = f.raw.get("discussion")
    if isinstance(disc, str) and disc.strip():
        out["discussion"] = disc
    if f.evidence is not None:
        out.update(f.evidence.fields())
    if f.change is not None:
        out["change"] = f.change
    if f.baseline is not None:
        out["baseline"] = f.baseline
    out["fingerprint"] = f.fingerprint
    return out


STATUS_WORDS = {"verified": "verified", "unverified": "unverified", "no-quote": "no quote"}


def status_text(f: Finding) -> str | None:
    """The member's evidence status as the reports show it (None when not checked)."""
    ev = f.evidence
    if ev is None:
        return None
    if ev.status == evidence.REANCHORED:
        return f"re-anchored from line {ev.cited_line}"
    if ev.status == evidence.UNVERIFIED:
        return f"unverified: {ev.reason}" if ev.reason else "unverified"
    if ev.status == evidence.NO_QUOTE:
        return "no quote, unchecked"
    return STATUS_WORDS.get(ev.status, ev.status)


@dataclass
class Checks:
    """What the reports say about the evidence check, ``--filter-mode`` and the baseline."""

    checked: bool = False
    unverified: list[Consolidated] = field(default_factory=list)  # every member contradicted
    filtered: list[Consolidated] = field(default_factory=list)
    filter_mode: str = "nofilter"
    baseline: tuple[int, int, int] | None = None  # new, unchanged, fixed
    fixed: list[Record] = field(default_factory=list)
    claims_unverified: int = 0

    def sentences(self) -> list[str]:
        """The headline's additions: claims that did not check out, the baseline."""
        out = []
        if self.checked:
            n = self.claims_unverified
            out.append(f"{n} claim{'s' if n != 1 else ''} did not check out against the code"
                       if n else "every quoted claim checked out against the code")
        if self.baseline is not None:
            new, same, fixed = self.baseline
            out.append(f"{new} new, {same} unchanged, {fixed} fixed since the baseline")
        return out
