"""Findings: validation, normalisation, fingerprints, groups, and the finding model.

Pure functions over records (dicts).  The one side effect allowed is reading
source files under a repository root (:class:`SourceReader`) to anchor
fingerprints and snippets; it never follows a path out of the root.

Every ordering here is a total order on content, so the result does not
depend on the order the findings arrived in.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import orjson

from council_filters import severity as sev
from council_filters.base import safefs, schemas
from council_filters.consolidate.origins import (
    canonical_origin,
)

Record = dict[str, Any]

# --------------------------------------------------------------------------- #
# Schema validation: the finding schema compiled into plain checks.
# --------------------------------------------------------------------------- #
_PY_TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "null": (type(None),),
    "array": (list,),
    "object": (dict,),
}
_SUPPORTED = {
    "type", "minimum", "minLength", "maxLength", "pattern", "const", "items", "required",
    "properties", "anyOf", "additionalProperties", "$schema", "$id", "title", "description",
}

Check = Callable[[Any], "str | None"]


def _describe_type(types: list[str]) -> str:
    return " or ".join("an integer" if t == "integer" else f"a {t}" for t in types)


class _Compiler:
    """Compile the subset of JSON Schema the finding schema uses into one Python function.

    The generated check returns None when a value is valid, else a description
    naming the field and the rule (never the value).  Generating source keeps
    validation of 100,000 findings well under a second; a property test checks
    it against the jsonschema library on random records.
    """

    def __init__(self) -> None:
        self.consts: dict[str, Any] = {"_M": object()}
        self.funcs: list[str] = []

    def const(self, value: Any) -> str:
        name = f"_c{len(self.consts)}"
        self.consts[name] = value
        return name

    def function(self, schema: Record, label: str) -> str:
        name = f"_f{len(self.funcs)}"
        self.funcs.append("")  # reserve the slot (nested schemas compile first)
        body: list[str] = []
        self.emit(schema, "v", label, body, "    ")
        src = f"def {name}(v):\n" + "".join(body) + "    return None\n"
        self.funcs[int(name[2:])] = src
        return name

    def emit(self, schema: Record, var: str, label: str, out: list[str], ind: str) -> None:
        unsupported = set(schema) - _SUPPORTED
        if unsupported:
            raise ValueError(f"schema keyword not supported: {sorted(unsupported)[0]}")
        lab = label or "record"

        def fail(cond: str, msg: str) -> None:
            out.append(f"{ind}if {cond}:\n{ind}    return {msg!r}\n")

        if "type" in schema:
            types = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
            py = self.const(frozenset(t for n in types for t in _PY_TYPES[n]))
            fail(f"type({var}) not in {py}", f"{lab}: must be {_describe_type(types)}")
        if "const" in schema:
            fail(f"{var} != {self.const(schema['const'])}",
                 f"{lab}: must be {orjson.dumps(schema['const']).decode()}")
        num = f"type({var}) in (int, float)"
        text = f"type({var}) is str"
        if "minimum" in schema:
            lo = schema["minimum"]
            fail(f"{num} and {var} < {lo!r}", f"{lab}: must be >= {lo}")
        if "minLength" in schema:
            n = schema["minLength"]
            fail(f"{text} and len({var}) < {n!r}",
                 f"{lab}: must not be empty" if n == 1 else f"{lab}: shorter than {n}")
        if "maxLength" in schema:
            fail(f"{text} and len({var}) > {schema['maxLength']!r}",
                 f"{lab}: longer than {schema['maxLength']} characters")
        if "pattern" in schema:
            rx = self.const(re.compile(schema["pattern"]))
            msg = (f"{lab}: must not be blank" if schema["pattern"] == "\\S"
                   else f"{lab}: does not match the required pattern")
            fail(f"{text} and not {rx}.search({var})", msg)
        if "items" in schema:
            item = self.function(schema["items"], f"{lab}[]")
            out.append(f"{ind}if type({var}) is list:\n{ind}    for _i in {var}:\n"
                       f"{ind}        _m = {item}(_i)\n{ind}        if _m:\n"
                       f"{ind}            return _m\n")
        is_obj = f"type({var}) is dict"
        for key in schema.get("required", []):
            fail(f"{is_obj} and {key!r} not in {var}", f"{key}: is required")
        if "properties" in schema:
            out.append(f"{ind}if {is_obj}:\n")
            for key, sub in schema["properties"].items():
                child = f"_p{len(self.consts)}"
                self.consts[child] = None  # reserve a unique local name
                out.append(f"{ind}    {child} = {var}.get({key!r}, _M)\n")
                out.append(f"{ind}    if {child} is not _M:\n")
                self.emit(sub, child, key if not label else f"{label}.{key}", out, ind + "        ")
                out.append(f"{ind}        pass\n")
        if "anyOf" in schema:
            alts = [self.function(sub, label) for sub in schema["anyOf"]]
            firsts = [sub.get("required", ["?"])[0] for sub in schema["anyOf"]]
            fail(" and ".join(f"{a}({var}) is not None" for a in alts),
                 f"needs a non-blank {' or '.join(firsts)}")
        if schema.get("additionalProperties") is False and "properties" in schema:
            allowed = self.const(frozenset(schema["properties"]))
            out.append(f"{ind}if {is_obj}:\n{ind}    for _k in {var}:\n"
                       f"{ind}        if _k not in {allowed}:\n"
                       f"{ind}            return _k + ': is not allowed'\n")


def _compile(schema: Record, where: str) -> Check:
    comp = _Compiler()
    entry = comp.function(schema, where)
    namespace: dict[str, Any] = dict(comp.consts)
    exec("".join(comp.funcs), namespace)  # noqa: S102 - source generated above from the schema
    check: Check = namespace[entry]
    return check


_FINDING_CHECK: Check | None = None


def finding_problem(record: object) -> str | None:
    """Why ``record`` is not a valid finding (None if it is), checked against the schema file."""
    global _FINDING_CHECK
    if _FINDING_CHECK is None:
        _FINDING_CHECK = _compile(schemas.load("finding"), "")
    return _FINDING_CHECK(record)


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
# Reading source lines under a repository root.
# --------------------------------------------------------------------------- #
MAX_SOURCE_BYTES = 8 * 1024 * 1024


class SourceReader:
    """Lines of repository files, cached; refuses paths that leave the root."""

    def __init__(self, root: str | None) -> None:
        self.root = os.path.realpath(root) if root else None
        self._cache: dict[str, list[str] | None] = {}

    def lines(self, path: str) -> list[str] | None:
        if self.root is None:
            return None
        if path in self._cache:
            return self._cache[path]
        got = self._read(path)
        self._cache[path] = got
        return got

    def _read(self, path: str) -> list[str] | None:
        assert self.root is not None
        full = safefs.contained(self.root, path)
        if full is None:
            return None
        try:
            data, _size = safefs.read_regular(full, max_size=MAX_SOURCE_BYTES)
        except (OSError, ValueError):
            return None
        if safefs.is_binary(data):
            return None
        text = data.decode("utf-8", errors="replace")
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

    @property
    def fingerprint(self) -> str:
        return self.survivor.fingerprint

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
        return out
