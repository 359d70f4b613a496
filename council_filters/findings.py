"""Findings: validation, normalisation, fingerprints, position dedup, stable IDs, groups, gaps.

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
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import orjson

from council_filters import severity as sev
from council_filters.base import safefs, schemas
from council_filters.origins import (
    ID_RE,
    ID_SCAN_RE,
    assign_codes,
    canonical_origin,
    code_sort_key,
    origin_sort_key,
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


def _survivor_key(f: Finding) -> tuple[Any, ...]:
    n, length = richness(f)
    return (-n, -length, sev.rank(f.severity or ""), origin_sort_key(f.origin), f.key)


def dedup(findings: Sequence[Finding], window: int = 3) -> list[Consolidated]:
    """Merge findings at the same file and a line within ``window`` of a cluster's first line.

    Clusters are built over each file's findings in (line, content) order: a
    cluster starts at its lowest line and takes every later finding whose line
    is at most ``window`` above that start, so no two merged findings are
    more than ``window`` lines apart.  Findings without a file or line are
    never merged.
    """
    by_file: dict[str, list[Finding]] = {}
    alone: list[list[Finding]] = []
    for f in findings:
        if f.file and f.line:
            by_file.setdefault(f.file, []).append(f)
        else:
            alone.append([f])
    clusters: list[list[Finding]] = alone
    for items in by_file.values():
        items.sort(key=lambda f: (f.line, f.key))
        current: list[Finding] = []
        start = 0
        for f in items:
            assert f.line is not None
            if current and f.line - start <= window:
                current.append(f)
            else:
                if current:
                    clusters.append(current)
                current = [f]
                start = f.line
        if current:
            clusters.append(current)
    out = []
    for members in clusters:
        if len(members) == 1:
            survivor = members[0]
            severity = survivor.severity
            origins = [survivor.origin]
        else:
            survivor = min(members, key=_survivor_key)
            severity = min(
                (m.severity for m in members if m.severity), key=sev.rank, default=None
            )
            origins = sorted({m.origin for m in members}, key=origin_sort_key)
            members.sort(key=lambda m: m.key)
        category = survivor.raw.get("category")
        group = group_of(origins, category if isinstance(category, str) else None, severity)
        out.append(Consolidated(survivor, members, severity, origins, group))
    return out


# --------------------------------------------------------------------------- #
# Stable IDs from a review-state file.
# --------------------------------------------------------------------------- #
@dataclass
class PriorIds:
    """What a review-state file says about IDs already handed out."""

    by_fingerprint: dict[str, str] = field(default_factory=dict)
    highest: dict[str, int] = field(default_factory=dict)
    origin_codes: dict[str, str] = field(default_factory=dict)

    def note(self, ident: str) -> None:
        m = ID_RE.match(ident)
        if m:
            code, num = m.group(1), int(m.group(2))
            if num > self.highest.get(code, 0):
                self.highest[code] = num


def prior_ids(state: Record | None) -> PriorIds:
    """Read IDs, fingerprints and origin codes from a review-state document (liberally)."""
    prior = PriorIds()
    if not isinstance(state, dict):
        return prior
    entries = state.get("findings")
    if isinstance(entries, dict):  # a map id -> finding is accepted too
        entries = [dict(v, id=k) if isinstance(v, dict) else {"id": k} for k, v in entries.items()]
    for entry in entries if isinstance(entries, list) else []:
        if not isinstance(entry, dict):
            continue
        ident = entry.get("id")
        if not isinstance(ident, str):
            continue
        prior.note(ident)
        m = ID_RE.match(ident)
        fp = entry.get("fingerprint")
        if isinstance(fp, str) and fp and fp not in prior.by_fingerprint and m:
            prior.by_fingerprint[fp] = ident
        origin = entry.get("origin")
        if isinstance(origin, str) and m:
            prior.origin_codes.setdefault(canonical_origin(origin), m.group(1))
    # Any ID mentioned anywhere else (history, dismissed lists) is never reused either.
    rest = {k: v for k, v in state.items() if k != "findings"}
    for m in ID_SCAN_RE.finditer(orjson.dumps(rest).decode()):
        prior.note(m.group(0))
    return prior


def assign_ids(items: list[Consolidated], prior: PriorIds) -> None:
    """Give each consolidated finding its ``<CODE>-NNN`` ID (in place)."""
    codes = assign_codes((c.survivor.origin for c in items), prior.origin_codes)
    for c in items:
        c.code = codes[c.survivor.origin]
    code_keys = {code: code_sort_key(code) for code in set(codes.values())}
    items.sort(key=lambda c: (code_keys[c.code], c.sort_key()))
    used: set[str] = set()
    fresh: list[Consolidated] = []
    for c in items:
        old = prior.by_fingerprint.get(c.fingerprint)
        if old and old not in used and old.startswith(c.code + "-"):
            c.id = old
            used.add(old)
        else:
            fresh.append(c)
    counters = dict(prior.highest)
    for c in fresh:
        n = counters.get(c.code, 0) + 1
        counters[c.code] = n
        c.id = f"{c.code}-{n:03d}"
    items.sort(key=lambda c: (code_keys[c.code], len(c.id), c.id))


# --------------------------------------------------------------------------- #
# Gap detection.
# --------------------------------------------------------------------------- #
LOCKFILES = {
    "package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml", "bun.lockb",
    "bun.lock", "poetry.lock", "uv.lock", "pipfile.lock", "pdm.lock", "gemfile.lock", "go.sum",
    "cargo.lock", "composer.lock", "mix.lock", "pubspec.lock", "podfile.lock", "flake.lock",
    "packages.lock.json", "gradle.lockfile",
}
CONFIG_EXTENSIONS = (
    ".json", ".yaml", ".yml", ".toml", ".ini", ".cfg", ".conf", ".properties", ".env",
    ".editorconfig", ".lock",
)
CONFIG_NAMES = {
    "dockerfile", "makefile", "procfile", "codeowners", "license", "setup.cfg", "tox.ini",
    ".gitignore", ".gitattributes", ".dockerignore", ".npmrc", ".nvmrc", ".prettierrc",
    ".eslintrc", ".babelrc",
}
_CONFIG_SCRIPT = re.compile(r"(^|[.\-_])(config|conf|rc)\.(js|cjs|mjs|ts|cts|mts)\Z")
TYPE_SUFFIXES = (".d.ts", ".d.mts", ".d.cts", ".pyi")


def exemption(path: str) -> str | None:
    """Why a changed file needs no finding: ``lockfile``, ``config`` or ``types`` (else None)."""
    base = path.rsplit("/", 1)[-1].lower()
    if base in LOCKFILES or base.endswith(".lock") or base.endswith("-lock.json"):
        return "lockfile"
    if base.endswith(TYPE_SUFFIXES):
        return "types"
    if (
        base in CONFIG_NAMES
        or base.endswith(CONFIG_EXTENSIONS)
        or _CONFIG_SCRIPT.search(base)
        or (base.startswith(".") and base.endswith("rc"))
    ):
        return "config"
    return None


_GIT_QUOTED = re.compile(r'^"((?:[^"\\]|\\.)*)"')


def _unquote_git(path: str) -> str:
    m = _GIT_QUOTED.match(path)
    if not m:
        return path.split("\t", 1)[0]
    raw = m.group(1).encode("latin-1", "backslashreplace").decode("unicode_escape")
    return raw.encode("latin-1", "replace").decode("utf-8", "replace")


def changed_files_from_diff(diff: str) -> list[str]:
    """Paths a unified (git) diff adds or changes; deleted files are left out.

    A ``+++`` line counts only right after a ``---`` line (so an added line
    that happens to start with ``++`` is not taken for a header); a git header
    without ``---``/``+++`` (binary or mode-only change) names the file itself.
    """
    files: list[str] = []
    seen: set[str] = set()
    current: str | None = None
    deleted = False
    in_git_header = False
    prev = ""

    def flush() -> None:
        if current and not deleted and current not in seen:
            seen.add(current)
            files.append(current)

    for line in diff.split("\n"):
        line = line.rstrip("\r")
        if line.startswith("diff --git "):
            flush()
            rest = line[len("diff --git "):]
            idx = rest.rfind(" b/")
            current = normalize_path(_unquote_git(rest[idx + 3:])) if idx >= 0 else None
            deleted = False
            in_git_header = True
        elif line.startswith("deleted file mode"):
            deleted = True
        elif line.startswith("+++ ") and prev.startswith("--- "):
            if not in_git_header:  # a plain unified diff: each header pair is a new file
                flush()
                current, deleted = None, False
            in_git_header = False
            target = _unquote_git(line[4:])
            if target == "/dev/null":
                deleted = True
            else:
                current = normalize_path(target[2:] if target.startswith("b/") else target)
        prev = line
    flush()
    return files


def changed_files_from_list(text: str) -> list[str]:
    out: list[str] = []
    for line in text.split("\n"):
        p = line.strip()
        if p and not p.startswith("#"):
            out.append(normalize_path(p))
    return sorted(set(out))


def gaps(changed: Iterable[str], findings: Iterable[Finding]) -> tuple[list[str], list[str]]:
    """(changed files with no finding, exempt changed files with no finding), both sorted."""
    covered = {f.file for f in findings if f.file}
    missing: list[str] = []
    exempt: list[str] = []
    for path in sorted(set(changed)):
        if path in covered:
            continue
        (exempt if exemption(path) else missing).append(path)
    return missing, exempt
