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
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import orjson

from council_filters import severity as sev
from council_filters.base import safefs, schemas
from council_filters.base.errors import DataError
from council_filters.consolidate.origins import (
    canonical_origin,
)

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


def title_of(record: Record) -> str:
    for key in ("subject", "summary"):
        v = record.get(key)
        if isinstance(v, str) and v.strip():
            return v
    return ""


# --------------------------------------------------------------------------- #
# Where a finding points, as a location another tool may open.
# --------------------------------------------------------------------------- #
def repo_path(path: str) -> str | None:
    """``path`` as a normalised repository-relative path, or None when it leaves the repository.

    Absolute paths (``/etc/shadow``, ``C:\\x``, ``\\\\host\\x``, ``~/x``, ``file:`` URIs)
    and paths whose ``..`` climb above the root are outside; ``./a//b`` is ``a/b``.
    """
    p = path.replace("\\", "/")
    if (not p or p.startswith(("/", "~")) or (len(p) > 1 and p[1] == ":")
            or "://" in p or p.lower().startswith("file:") or "\0" in p):
        return None
    first = p.split("/", 1)[0]
    if first.endswith(":") and first[:-1].replace("+", "").replace(".", "").replace(
            "-", "").isalnum():
        return None  # a URI scheme or a drive, whatever the slashes after it
    parts: list[str] = []
    for part in p.split("/"):
        if part in ("", "."):
            continue
        if part == "..":
            if not parts:
                return None
            parts.pop()
            continue
        parts.append(part)
    return "/".join(parts) or None


# --------------------------------------------------------------------------- #
# Reading source lines under a repository root.
# --------------------------------------------------------------------------- #
MAX_SOURCE_BYTES = 8 * 1024 * 1024


class SourceReader:
    """Lines of tracked files at the reviewed revision, redacted, cached.

    Only content git tracks at ``rev`` (HEAD: the revision council-pack
    reviews) is ever read, straight from the object store: never the work
    tree, never an untracked or git-ignored file, nothing under ``.git/``,
    nothing a path outside the repository names, no symlink or submodule.
    What is read goes through the redaction before any line is used, so an
    anchor or snippet can never carry a credential the file holds.  Outside a
    git repository there are no snippets at all.
    """

    def __init__(self, root: str | None, rev: str = "HEAD") -> None:
        self.root = os.path.realpath(root) if root else None
        self.rev = rev
        self._cache: dict[str, list[str] | None] = {}
        self._repo: Any = None
        self._prefix: str | None = None

    def lines(self, path: str) -> list[str] | None:
        if self.root is None:
            return None
        if path in self._cache:
            return self._cache[path]
        got = self._read(path)
        self._cache[path] = got
        return got

    def _git(self) -> Any:
        """The repository holding the root and the root's path inside it (once)."""
        if self._prefix is None:
            from council_filters.pack.git import GitRepo

            assert self.root is not None
            try:
                repo = GitRepo.discover(self.root)
            except DataError:
                self._prefix = ""
                return None
            top = os.path.realpath(repo.root)
            rel = os.path.relpath(self.root, top)
            self._repo = repo
            self._prefix = "" if rel == "." else rel.replace(os.sep, "/") + "/"
        return self._repo

    def _read(self, path: str) -> list[str] | None:
        rel = repo_path(path)
        if rel is None or any(part.lower() == ".git" for part in rel.split("/")):
            return None
        repo = self._git()
        if repo is None:
            return None
        full = (self._prefix or "") + rel
        try:
            entry = repo.head_entries([full], self.rev).get(full)
            if entry is None or entry.mode not in ("100644", "100755"):
                return None  # untracked, a directory, a symlink or a submodule
            if repo.ok("check-ignore", "-q", "--no-index", "--", full):
                return None  # tracked, but a file the repository says to ignore
            ((_oid, data, size),) = list(repo.read_blobs([entry.oid], MAX_SOURCE_BYTES))
        except (DataError, OSError, ValueError):
            return None
        if size > MAX_SOURCE_BYTES or safefs.is_binary(data):
            return None
        from council_filters.redaction import redact_text

        text = redact_text(data)[0].decode("utf-8", errors="replace")
        return text.replace("\r\n", "\n").split("\n")

    def line(self, path: str, lineno: int | None) -> str | None:
        if not lineno:
            return None
        lines = self.lines(path)
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

    def __post_init__(self) -> None:
        self.key = orjson.dumps(self.raw, option=orjson.OPT_SORT_KEYS)


def fingerprint(origin: str, file: str | None, anchor: str | None, title: str) -> str:
    material = "\x1f".join((origin, file or "", fold(anchor or ""), fold(title).lower()))
    return hashlib.sha256(material.encode("utf-8", "surrogatepass")).hexdigest()[:32]


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

    @property
    def fingerprint(self) -> str:
        return self.survivor.fingerprint

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
        out["merged_origins"] = self.origins
        out["merged_count"] = len(self.members)
        out["fingerprint"] = s.fingerprint
        if self.listed:
            out["members"] = [member_record(m) for m in self.members]
        return out


def member_line(f: Finding) -> str:
    """One member as a line of plain text: ``origin (severity) file:line: text``."""
    where = f"{f.file}:{f.line}" if f.file and f.line else (f.file or "")
    return f"{f.origin} ({f.severity or 'unrated'}){' ' + where if where else ''}: {fold(f.title)}"


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
    out["severity"] = f.severity
    out["text"] = f.title
    disc = f.raw.get("discussion")
    if isinstance(disc, str) and disc.strip():
        out["discussion"] = disc
    return out
