"""JSON reviewers (pr-workflow stages): extract, validate, explain, normalise.

``extract`` finds the JSON object in a reply (bare, or in a fenced ```json
block); ``verify`` validates it against the stage's shipped JSON Schema and
returns the verify_output result (``{"ok": true, "count": N}`` or
``{"ok": false, "errors": [{"path", "message", "hint"}]}``); ``normalise``
turns a valid object into finding (or critique) records.  Messages and hints
never quote the reviewer's values, only property names and the allowed
vocabulary.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from council_filters.base import diffranges, schemas, severity
from council_filters.verdict.locations import find_location

STAGES: tuple[str, ...] = ("council", "judge", "critique", "stack-review", "stack-judge")
SCHEMA_BASE = "https://council-filters.invalid/schemas/"
SCHEMA_FILES: tuple[str, ...] = (*STAGES, "pr-workflow", "verdict")

# A fenced block: an opener line (its info word captured), then the text up to the
# next line that starts a closer.  Found by two searches, never one lazy pattern
# (which rescans the rest of the reply from every opener: quadratic).
_OPEN = re.compile(r"```[ \t]*+([A-Za-z0-9_-]*+)[^\n]*+\n")
_CLOSE = re.compile(r"\n[ \t]*+```")
#: How many ``{`` positions a reply is tried at for a bare JSON object.
_MAX_OBJECT_TRIES = 64


def fenced_blocks(reply: str) -> list[tuple[str, str]]:
    """``(info, body)`` of every fenced block, in order (linear time)."""
    blocks: list[tuple[str, str]] = []
    pos = 0
    while True:
        opener = _OPEN.search(reply, pos)
        if opener is None:
            return blocks
        closer = _CLOSE.search(reply, opener.end())
        if closer is None:  # no closer after this opener: none after any later one either
            return blocks
        blocks.append((opener[1], reply[opener.end() : closer.start()]))
        pos = closer.end()
_MAX_ERRORS = 20


# --------------------------------------------------------------------------- #
# Schemas, loaded from the package
# --------------------------------------------------------------------------- #
@functools.cache
def validator(stage: str) -> Any:
    """A Draft 2020-12 validator for ``stage`` with every shipped schema registered."""
    from jsonschema import Draft202012Validator
    from referencing import Registry, Resource

    registry: Registry[Any] = Registry().with_resources(
        (SCHEMA_BASE + f"{name}.schema.json", Resource.from_contents(schemas.load(name)))
        for name in SCHEMA_FILES
    )
    return Draft202012Validator(schemas.load(stage), registry=registry)


# --------------------------------------------------------------------------- #
# Extraction
# --------------------------------------------------------------------------- #
class ExtractError(ValueError):
    """No JSON object could be found in the reply."""


def extract(reply: str) -> Any:
    """The JSON value of a reply: the whole text, else a fenced block, else the first object."""
    stripped = reply.strip()
    if stripped:
        try:
            return json.loads(stripped)
        except (ValueError, RecursionError):
            pass
    blocks = fenced_blocks(reply)
    for _info, body in sorted(blocks, key=lambda b: b[0].lower() != "json"):
        try:
            return json.loads(body)
        except (ValueError, RecursionError):
            continue
    decoder = json.JSONDecoder()
    start = reply.find("{")
    for _ in range(_MAX_OBJECT_TRIES):
        if start < 0:
            break
        try:
            value, _end = decoder.raw_decode(reply, start)
        except (ValueError, RecursionError):
            start = reply.find("{", start + 1)
            continue
        return value
    if blocks:
        raise ExtractError("the fenced block does not hold valid JSON")
    raise ExtractError("no JSON object found in the reply")


# --------------------------------------------------------------------------- #
# Verification
# --------------------------------------------------------------------------- #
def pointer(path: Any) -> str:
    """A JSON-pointer-like path: ``/findings/0/location/start`` (root: ``""``)."""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in path)


def _name(value: Any) -> str:
    s = str(value)
    return s if len(s) <= 40 else s[:37] + "..."


def _allowed(schema: dict[str, Any]) -> str:
    return ", ".join(str(v) for v in schema.get("enum", []))


_FIELD_HINTS: dict[str, str] = {
    "findings": 'Emit {"findings": [...]}; use {"findings": []} when there is nothing to flag.',
    "critiques": 'Emit {"critiques": [...]} with one entry per finding you assess.',
    "perPr": 'Add "perPr": an object keyed by PR number ("12") whose values are finding arrays.',
    "crossPr": 'Add "crossPr": an array of cross-PR findings ([] when there are none).',
    "location": 'Add "location": {"kind": "line"|"file"|"global", ...}.',
    "label": "Add a Conventional Comments label, e.g. \"issue\" or \"suggestion\".",
    "subject": 'Add "subject": a short headline for the finding.',
    "discussion": 'Add "discussion": concrete prose citing the code and its impact.',
    "file": 'Add "file": the repository-relative path.',
    "start": 'Add "start": the first anchored line (integer >= 1).',
    "end": 'Add "end": the last anchored line (integer >= 1, same as start for one line).',
    "side": 'Add "side": "new" for added/context lines, "old" for removed lines, or "both".',
    "kind": 'Add "kind".',
    "threadIndex": 'Add "threadIndex": the number N of the [TN] thread this relates to.',
    "rationale": 'Add "rationale": a short non-empty explanation.',
    "homePrNumber": 'Add "homePrNumber": the PR (integer >= 1) where the finding should live.',
    "spans": 'Add "spans": the PR numbers the finding spans, e.g. [12, 13].',
    "findingId": 'Add "findingId": the numeric id (>= 1) of the finding you critique.',
    "position": 'Add "position": one of agree, disagree, qualify, amplify.',
    "confidence": 'Add "confidence".',
}


def _explain(err: Any) -> tuple[str, str]:
    """(message, hint) for one jsonschema error, without quoting the instance."""
    v = err.validator
    where = _where(list(err.path))
    schema = err.schema if isinstance(err.schema, dict) else {}
    if v == "required":
        m = re.match(r"^'(.+)' is a required property$", err.message)
        missing = m[1] if m else next(
            (p for p in err.validator_value if p not in (err.instance or {})), "")
        return (f"missing required property '{_name(missing)}'",
                _FIELD_HINTS.get(missing, f"Add the '{_name(missing)}' property."))
    if v in ("additionalProperties", "unevaluatedProperties"):
        known = set(schema.get("properties", {})) | _ref_properties(schema)
        extra = sorted(
            k for k in (err.instance or {})
            if k not in known
            and not any(re.search(p, k) for p in schema.get("patternProperties", {}))
        ) if isinstance(err.instance, dict) else []
        names = ", ".join(f"'{_name(k)}'" for k in extra[:5]) or "a property"
        if "patternProperties" in schema:
            return (f"unexpected key {names}",
                    'perPr keys must be PR numbers written as strings, e.g. "12".')
        return (f"unexpected property {names}",
                "Remove it (check its spelling); only the documented fields are allowed here.")
    if v in ("enum", "const"):
        return (f"'{where}' is not an allowed value", f"Use one of: {_allowed(schema)}."
                if schema.get("enum") else "Use the documented value.")
    if v == "type":
        want = err.validator_value
        if where in ("raisedBy", "decorations", "spans", "sourceFindingIds", "crossPr"):
            return (f"'{where}' must be an array",
                    f'Use an array, e.g. "{where}": ["claude"], not a bare value.'
                    if where in ("raisedBy", "decorations") else
                    f'Use an array, e.g. "{where}": [].' if where == "crossPr" else
                    f'Use an array of integers, e.g. "{where}": [12].')
        return (f"'{where}' must be {_article(want)}", f"Change '{where}' to {_article(want)}.")
    if v == "minLength":
        return (f"'{where}' must not be empty", f"Write a non-empty '{where}'.")
    if v == "minItems":
        return (f"'{where}' must not be empty", f"List at least one item in '{where}'.")
    if v in ("minimum", "maximum"):
        lo = schema.get("minimum")
        hi = schema.get("maximum")
        rng = f"between {lo} and {hi}" if hi is not None else f">= {lo}"
        return (f"'{where}' is out of range", f"Use a value {rng}.")
    return (f"'{where}' does not match the schema ({v})", "Follow the documented shape.")


def _where(path: list[Any]) -> str:
    """The name a message uses: ``subject``, ``raisedBy[0]``, or ``the output``."""
    if not path:
        return "the output"
    if isinstance(path[-1], int) and len(path) > 1:
        return f"{path[-2]}[{path[-1]}]"
    return str(path[-1])


def _ref_properties(schema: dict[str, Any]) -> set[str]:
    """Property names a local ``$ref`` into the shared definitions contributes."""
    ref = schema.get("$ref", "")
    if not isinstance(ref, str) or "#/$defs/" not in ref:
        return set()
    target = schemas.load("pr-workflow")["$defs"].get(ref.rsplit("/", 1)[-1], {})
    return set(target.get("properties", {}))


def _article(want: Any) -> str:
    names = want if isinstance(want, list) else [want]
    words = {"object": "an object", "array": "an array", "string": "a string",
             "integer": "an integer", "number": "a number", "boolean": "true or false"}
    return " or ".join(words.get(str(n), str(n)) for n in names)


def _leaf_errors(errors: Any) -> Iterator[Any]:
    """Flatten if/then and $ref wrappers down to the errors that name a problem."""
    for err in errors:
        if err.validator in ("allOf", "anyOf", "oneOf", "then", "$ref") and err.context:
            yield from _leaf_errors(err.context)
        else:
            yield err


def count(stage: str, obj: dict[str, Any]) -> int:
    if stage == "critique":
        return len(obj.get("critiques", []))
    if stage in ("stack-review", "stack-judge"):
        per = obj.get("perPr", {})
        return sum(len(v) for v in per.values()) + len(obj.get("crossPr", []))
    return len(obj.get("findings", []))


def verify(stage: str, value: Any) -> dict[str, Any]:
    """The verify_output result for ``value`` against ``stage``."""
    if not isinstance(value, dict):
        return {"ok": False, "errors": [{
            "path": "", "message": "the output must be a JSON object",
            "hint": _FIELD_HINTS.get("critiques" if stage == "critique" else "findings", "")
            if stage in ("council", "judge", "critique") else
            'Emit {"perPr": {...}, "crossPr": [...]}.',
        }]}
    found = sorted(validator(stage).iter_errors(value), key=lambda e: list(map(str, e.path)))
    errors = []
    seen = set()
    for err in _leaf_errors(found):
        message, hint = _explain(err)
        key = (pointer(err.path), message)
        if key in seen:
            continue
        seen.add(key)
        errors.append({"path": pointer(err.path), "message": message, "hint": hint})
        if len(errors) >= _MAX_ERRORS:
            break
    if errors:
        return {"ok": False, "errors": errors}
    return {"ok": True, "count": count(stage, value)}


def reply_error(message: str) -> dict[str, Any]:
    return {"ok": False, "errors": [{
        "path": "", "message": message,
        "hint": "Reply with a single fenced ```json block holding one JSON object, no prose.",
    }]}


# --------------------------------------------------------------------------- #
# Normalisation
# --------------------------------------------------------------------------- #
@dataclass
class Normalised:
    records: list[dict[str, Any]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def _finding_record(
    f: dict[str, Any], origin: str, stage: str, where: str, out: Normalised
) -> dict[str, Any] | None:
    rel = f.get("threadRelation") or {}
    if rel.get("kind") == "duplicates-existing":
        out.warnings.append(f"{where}: duplicates an existing thread \u2014 dropped")
        return None
    loc = f["location"]
    rec: dict[str, Any] = {"kind": "finding", "origin": origin}
    if "severity" in f:
        sev = severity.normalize(f["severity"])
        if sev is None:
            out.warnings.append(f"{where}: unknown severity \u2014 dropped, finding kept")
        else:
            rec["severity"] = sev
    if loc["kind"] != "global":
        rec["file"] = loc["file"]
    if loc["kind"] == "line":
        rec["line"] = loc["start"]
        rec["end_line"] = loc["end"]
        rec["side"] = loc["side"]
    rec["scope"] = loc["kind"]
    rec["summary"] = f["subject"]
    rec["subject"] = f["subject"]
    rec["label"] = f["label"]
    for src, dst in (("decorations", "decorations"), ("discussion", "discussion"),
                     ("confidence", "confidence"), ("threadRelation", "thread_relation"),
                     ("raisedBy", "raised_by"), ("sourceFindingIds", "source_finding_ids"),
                     ("homePrNumber", "home_pr"), ("spans", "spans")):
        if src in f:
            rec[dst] = f[src]
    rec["stage"] = stage
    return rec


def normalise(
    stage: str,
    obj: dict[str, Any],
    origin: str,
    diff: list[diffranges.FileRanges] | None = None,
) -> Normalised:
    """Finding (or critique) records from a valid object, with their warnings."""
    out = Normalised()
    if stage == "critique":
        for c in obj["critiques"]:
            out.records.append({"kind": "critique", "origin": origin, "finding_id": c["findingId"],
                                "position": c["position"], "rationale": c["rationale"]})
        return out
    items: list[tuple[str, dict[str, Any], int | None]] = []
    if stage in ("council", "judge"):
        items = [(f"/findings/{i}", f, None) for i, f in enumerate(obj["findings"])]
    else:
        for pr, findings in obj["perPr"].items():
            items += [(f"/perPr/{pr}/{i}", f, int(pr)) for i, f in enumerate(findings)]
        items += [(f"/crossPr/{i}", f, None) for i, f in enumerate(obj["crossPr"])]
    for where, f, pr in items:
        rec = _finding_record(f, origin, stage, where, out)
        if rec is None:
            continue
        if pr is not None:
            rec["pr"] = pr
        if diff is not None and rec.get("scope") == "line":
            inside = diffranges.anchorable(diff, rec["file"], rec["line"], rec["end_line"],
                                           rec["side"])
            if inside is None:
                out.warnings.append(f"{where}: file is not in the diff \u2014 kept")
            elif not inside:
                out.warnings.append(
                    f"{where}: lines {rec['line']}-{rec['end_line']} ({rec['side']}) are outside "
                    "the anchorable ranges \u2014 kept (it will degrade to a body comment)")
        out.records.append(rec)
    return out


# --------------------------------------------------------------------------- #
# Review documents of any shape, read by their keys
# --------------------------------------------------------------------------- #
# A review JSON a custom pipeline or agent prints names its parts in its own words:
# its findings under ``findings`` or ``security_issues`` or ``lint_violations``, a
# finding's place as ``file``/``line``, ``location: {path, lines: "12-18"}``,
# ``code_location: {repository_relative_path, line_range: {start, end}}``, or SARIF's
# ``physicalLocation: {artifactLocation: {uri}, region: {startLine}}``.  These helpers
# read such shapes by what their keys name, with bounded work per item.

#: the words a key's last part names a findings list with
_LIST_WORDS = frozenset(("findings", "issues", "comments", "problems", "violations", "concerns",
                         "risks", "flaws", "weaknesses", "errors", "suggestions",
                         "vulnerabilities", "bugs", "defects", "warnings", "gaps"))
#: a list key's first word that says its items are what is missing (``missing_checks``)
_MISSING = "missing"
#: keys a review groups its findings under, with the severity each names (an item's own
#: severity outranks its group's): at a document's top level, one object down
#: (``{"devils_advocate": {"CRITICAL": [...], "MINOR": [...]}}``), or as the parts of its
#: findings object (``{"findings": {"critical": [...], "minor": [...]}}``)
GROUP_SEVERITY: dict[str, str] = {
    "blockers": "critical", "blocking_issues": "critical", "blocking": "critical",
    "must_fix": "critical", "critical_issues": "critical", "required_changes": "critical",
    "critical": "critical", "high": "critical", "should_fix": "medium", "major": "medium",
    "medium": "medium", "important": "medium", "nits": "minor", "nitpicks": "minor",
    "suggestions": "minor", "minor": "minor", "low": "minor", "nice_to_have": "minor",
    "non_blocking": "minor", "nonblocking": "minor", "non_blocking_issues": "minor",
    "advisory": "minor", "optional": "minor"}
#: parts of a key that say its list is not open findings (praise, history)
_NOT_OPEN = frozenset(("resolved", "fixed", "closed", "addressed", "dismissed", "positive",
                       "praise", "previous", "prior", "past", "old", "outdated", "general"))
#: the conventional names, in the order one is chosen when a document has several
FINDINGS_KEYS = ("findings", "issues", "comments", "problems", "review_comments")
#: keys of the objects a finding nests its place in
_PLACE_KEYS = frozenset(("codelocation", "location", "locations", "position", "physicallocation",
                         "artifactlocation", "region", "range", "span", "where", "loc",
                         "source", "target", "linerange", "lines"))
#: keys naming a file (compared lower-case, without ``_`` and ``-``)
_PATH_KEYS = ("file", "path", "filepath", "filename", "absolutefilepath",
              "repositoryrelativepath", "relativepath", "uri", "fileuri", "sourcefile",
              "newpath")
#: keys naming a line or a span of lines, in order of preference
_LINE_KEYS = ("line", "newline", "startline", "linestart", "linenumber", "lineno", "begin",
              "beginline", "lines", "linerange", "range", "region", "start", "originalline",
              "originalstartline", "linenumbers", "evidencelines")
_END_KEYS = ("endline", "lineend", "end", "lastline")
#: keys holding a list of a finding's places, the first its own
_LIST_PLACE_KEYS = ("files", "paths", "locations", "places", "filepaths", "filenames")
#: other keys a finding may spell its place out under (taken when they hold a path with a
#: line: ``"source": "semgrep"`` names no place)
_STRING_PLACE_KEYS = ("where", "loc", "ref", "reference", "source", "at", "site", "filelocation",
                      "sourcelocation", "codelocation", "location", "position", "place")
#: (an approximate line reads as that line: ``"~40"``, ``"around line 9"``, ``"line ~40"``)
_SPAN = re.compile(r"\s*(?:lines?\s*)?(?:[~\u2248]\s*|(?:approx(?:\.|imately)?|around|about|"
                   r"near|circa)\s+)?(?:lines?\s*)?#?L?(\d{1,7})(?::\d{1,7})?"
                   r"(?:\s*(?:-|\u2013|\u2014|\.\.|to)\s*L?(\d{1,7}))?", re.I)
#: a line value that names its file first: ``"adx_trend.py:98-99; strong_trend.py:89"``
_NAMED_SPAN = re.compile(r"\s*[\w./-]{1,120}\.\w{1,10}:(\d{1,7})(?:\s*(?:-|\u2013)\s*(\d{1,7}))?")
_MAX_LINE = 10_000_000
_MAX_NODES = 64  # objects looked into for one finding's place


def _norm(key: Any) -> str:
    return re.sub(r"[_\-\s]", "", str(key)).lower()


def key_words(key: Any) -> list[str]:
    """A key's words, lower-case (``reviewFeedback``: [review, feedback])."""
    return _parts(key)


def _parts(key: Any) -> list[str]:
    """A key's words: ``securityIssues`` and ``security_issues`` are both [security, issues]."""
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", str(key)[:80])
    return [p for p in re.split(r"[^A-Za-z0-9]+", spaced.lower()) if p]


def names_findings(key: Any) -> bool:
    """Whether a key names a list of open findings: its last word is one of findings,
    issues, comments, problems, violations, and no word says they are closed or praise."""
    parts = _parts(key)
    return bool(parts) and (parts[-1] in _LIST_WORDS or parts[0] == _MISSING and len(parts) > 1) \
        and not _NOT_OPEN.intersection(parts)


def names_verdict(key: Any) -> bool:
    """Whether a key of its own making names a verdict: its last word is verdict or
    decision (``editorial_decision``, ``mergeVerdict``)."""
    parts = _parts(key)
    return len(parts) > 1 and parts[-1] in ("verdict", "decision")


def _group(key: Any) -> str | None:
    """The severity a findings group's key names (``CRITICAL``, ``must_fix``), or None."""
    return GROUP_SEVERITY.get(str(key).strip().lower().replace("-", "_").replace(" ", "_"))


def severity_group(key: Any, items: list[Any]) -> bool:
    """A list under a key naming a severity (``"high": [...]``) whose items are findings:
    texts, or objects with a text of their own."""
    return _group(key) is not None and bool(items) and all(
        isinstance(x, str) and x.strip() or isinstance(x, dict) and any(
            isinstance(x.get(k), str) for k in TEXT_KEYS) for x in items[:50])


def _listed(key: Any) -> bool:
    return names_findings(key) or _group(key) is not None


def finding_lists(doc: dict[str, Any]) -> list[list[Any]]:
    """The findings lists of a review document: the first conventional one (``findings``,
    ``issues``, ...) when it has one, with the lists beside it under a key naming a
    severity (``blockers``, ``nits``); else every list under a key that names findings
    (``security_issues``, ``concerns``, ``risks``, ``missing_checks``) or a severity, at its
    top level, else those of every object one down (``{"review": {"findings": [...]}}``,
    one report a reviewer: ``{"eic_report": {"weaknesses": [...]}, ...}``)."""
    return [items for _holder, items, _sev in _held_lists(doc)]


#: a findings list, the object holding it, and the severity its key names
Held = tuple[dict[str, Any], list[Any], "str | None"]


def _held_lists(doc: dict[str, Any]) -> list[Held]:
    """``finding_lists`` with the object that holds each list and its key's severity."""
    low = {str(k).lower(): v for k, v in doc.items()}
    for name in FINDINGS_KEYS:
        if isinstance(low.get(name), list) and low[name]:
            return [(doc, low[name], None), *_groups_beside(doc)]
        if isinstance(low.get(name), dict) and low[name]:
            keyed = _keyed(low[name])
            if keyed:
                return [*keyed, *_groups_beside(doc)]
    top = [(k, v) for k, v in list(doc.items())[:256] if isinstance(v, list) and _listed(k)]
    if top:  # its own lists, even empty ones ("findings": [] says there are none)
        return [(doc, v, _group(k)) for k, v in top if v]
    held: list[Held] = []
    for k, inner in list(doc.items())[:_MAX_PARTS]:
        if isinstance(inner, dict) and not _NOT_OPEN.intersection(_parts(k)):
            held += [(inner, v, _group(name)) for name, v in list(inner.items())[:64]
                     if isinstance(v, list) and v and _listed(name)]
    if not held:  # "files": {"a.py": [...]}: findings keyed by file under a files key
        held = [h for name in _FILE_MAPS if isinstance(low.get(name), dict)
                for h in _keyed(low[name])]
    if not held:  # "items": [...], "results": [...]: findings when they look like findings
        held = [(doc, low[name], None) for name in _GENERIC_LISTS
                if generic_findings(name, low.get(name))]
    return held


def generic_findings(key: Any, items: Any) -> bool:
    """A list under a key that says nothing of what it holds (``items``, ``results``) whose
    items all look like findings: a text of their own, and a severity or a place."""
    return str(key).lower() in _GENERIC_LISTS and isinstance(items, list) and bool(items) \
        and all(_finding_like(x) for x in items[:50])


#: keys of an object holding each file's findings under the file's path
_FILE_MAPS = ("files", "by_file", "per_file", "file_reviews", "file_comments", "file_findings")
#: list keys that say nothing of what they hold: read when every item looks like a finding
_GENERIC_LISTS = ("items", "results", "entries", "feedback", "remarks", "points")
#: keys a finding's severity may be written under, in order of preference
SEVERITY_KEYS = ("severity", "priority", "level", "impact", "criticality")


def _finding_like(item: Any) -> bool:
    """An object with a text of its own and a severity or a place."""
    if not isinstance(item, dict):
        return False
    low = {str(k).lower(): v for k, v in list(item.items())[:64]}
    return any(isinstance(low.get(k), str) and low[k].strip() for k in TEXT_KEYS) and (
        any(k in low for k in SEVERITY_KEYS) or place(item) != (None, None, None))


#: objects of a document looked into, one level down, for findings lists
_MAX_PARTS = 16


def _groups_beside(doc: dict[str, Any]) -> list[Held]:
    return [(doc, v, sev) for k, v in list(doc.items())[:256]
            if isinstance(v, list) and v and (sev := _group(k)) is not None]


def _keyed(value: dict[str, Any]) -> list[Held]:
    """Findings written as an object: grouped by severity (``{"critical": [...], "minor":
    [...]}``), keyed by id (``{"F1": {...}, "F2": {...}}``), or keyed by file
    (``{"src/a.py": [{"line": 3, ...}]}``, each list that file's)."""
    items = list(value.items())[:1_000]
    if all(isinstance(v, list) and _group(k) for k, v in items):
        return [(value, v, _group(k)) for k, v in items if v]
    if all(isinstance(v, dict) for _k, v in items):
        return [(value, [v for _k, v in items], None)]
    if all(isinstance(v, list) for _k, v in items):  # a category's name is no file
        return [({"file": str(k)} if _file_key(str(k)) else {}, v, None)
                for k, v in items if v]
    return []


def _file_key(key: str) -> bool:
    return path_like(key) or re.fullmatch(r"[A-Z][A-Za-z]{0,30}file", key) is not None


#: a text saying there is nothing: ``None found.``, ``No issues``, ``N/A``, ``nothing``
_SAYS_NONE = re.compile(r"\s*(?:none|nothing|n/?a|nil|empty|no\s+(?:issues?|findings?|"
                        r"problems?|concerns?|blockers?|comments?|bugs?))\b", re.I)
#: one item of a list written in a text value: ``1. ...``, ``- ...``, ``• ...``
_TEXT_ITEM = re.compile(r"^[ \t]{0,8}(?:\d{1,3}[.)]|[-*+\u2022])[ \t]+(\S[^\n]*)", re.M)
_MAX_TEXT = 64 << 10  # characters of one text value looked into for a list
_MAX_TEXT_ITEMS = 200


def text_items(doc: dict[str, Any], any_key: bool) -> list[str]:
    """The items of the list a review document writes its findings as, in a text value
    rather than a JSON list: under a key that names findings (``"issues": "1. ...\n2.
    ..."``, even one item), or, when ``any_key`` (the verdict asks for changes and no
    findings list was read), in any text value holding two items or more (``"summary":
    "Changes required:\n1. ...\n2. ..."``) or a list of texts (see :func:`_text_list`).
    The first such value of the document's first 64 keys; a key naming settled or earlier
    work is skipped."""
    for k, v in list(doc.items())[:64]:
        named = names_findings(k)
        if not (named or any_key) or closed_key(k):
            continue
        if isinstance(v, str):
            items = [m[1].strip() for m in _TEXT_ITEM.finditer(v[:_MAX_TEXT])]
            if len(items) >= (1 if named else 2):
                return items[:_MAX_TEXT_ITEMS]
            if named and v.strip() and "\n" not in v.strip()[:_MAX_TEXT] \
                    and not _SAYS_NONE.match(v):
                return [v.strip()[:_MAX_TEXT]]  # "concerns": "cache.go:44 holds the lock"
        elif any_key and _text_list(k, v):
            return [x.strip() for x in v[:_MAX_TEXT_ITEMS]]
    return []


#: last words of a key whose list of texts is no findings (what was looked at or run,
#: what to do next, what is good)
_NOT_FINDINGS = frozenset(("files", "paths", "reviewed", "tested", "checked", "commands",
                           "steps", "actions", "tasks", "strengths", "passed", "artifacts",
                           "scope", "tags", "labels", "questions"))


def holds_no_findings(key: Any) -> bool:
    """Whether a key says its list is no findings: settled or earlier work, or its last
    word names files, checks, commands, steps, actions, tasks, strengths, artifacts..."""
    parts = _parts(key)
    return not parts or parts[-1] in _NOT_FINDINGS or closed_key(key)


def _text_list(key: Any, value: Any) -> bool:
    """A list of sentences a failing verdict file gives as its reasons (``"reasons":
    [...]``, ``"notes": [...]``): texts, not all of them bare paths, under a key that
    does not say it holds no findings."""
    return not holds_no_findings(key) and isinstance(value, list) \
        and bool(value) and all(isinstance(x, str) and x.strip() for x in value[:50]) \
        and not all(path_like(x) for x in value[:50])


def finding_items(doc: dict[str, Any]) -> list[Any]:
    """The findings of a review document (see :func:`grouped_findings`), without their
    groups' severities."""
    return [item for item, _sev in grouped_findings(doc)]


def grouped_findings(doc: dict[str, Any]) -> list[tuple[Any, str | None]]:
    """The findings of a review document (see ``finding_lists``), at most 10,000 a list,
    each with the severity its group's key names (or None).  A finding that names no file
    of its own takes the file of the object holding its list: a per-file review
    (``{"file": "a.py", "issues": [{"line": 3, ...}]}``), or one entry of a list of files
    (``{"files": [{"path": "a.py", "findings": [...]}]}``, ``{"reviews": [{"plan_file":
    "docs/plan.md", "issues": [...]}]}``)."""
    held = _held_lists(doc) or per_file_findings(doc)
    out: list[tuple[Any, str | None]] = []
    for holder, items, sev in held:
        outer = _own_path(holder)
        for item in items[:10_000]:
            if outer is not None and isinstance(item, dict) and place(item)[0] is None:
                item = {**item, "file": outer}
            out.append((item, sev))
    return out


def per_file_findings(doc: dict[str, Any]) -> list[Held]:
    """The findings lists of a document that is a list of per-file entries, each naming
    its file and holding its own findings (``{"files": [{"path": "a.py", "findings":
    [...]}]}``); the first such list of the document's (at most 16) keys."""
    for k, v in list(doc.items())[:16]:
        if not isinstance(v, list) or _NOT_OPEN.intersection(_parts(k)) or not any(
                _per_file(entry) and _held_lists(entry) for entry in v[:_PROBE]):
            continue  # such entries are alike: a list whose first few are none has none
        held = [h for entry in v[:1_000] if _per_file(entry) for h in _held_lists(entry)]
        if held:
            return held
    return []


#: entries of a list looked at before the list is taken for a list of per-file entries
_PROBE = 8


def _per_file(entry: Any) -> bool:
    return isinstance(entry, dict) and any(isinstance(x, (list, dict)) for x in
                                           list(entry.values())[:64]) \
        and _own_path(entry) is not None


def _own_path(node: dict[str, Any]) -> str | None:
    """The file an object names at its own top level (``file``, ``path``, ...)."""
    low = {_norm(k): v for k, v in list(node.items())[:64]}
    return next((low[k] for k in _PATH_KEYS if isinstance(low.get(k), str) and low[k].strip()),
                None) or next((v for k, v in low.items() if _names_path(k, v)), None)


#: a file named under a key of its own making (``plan_file``, ``target_path``): a word
#: ending the key, and a value that is one path (a name with a dot or a slash, no spaces)
_OWN_PATH_KEY = re.compile(r"[a-z0-9]*(?:file|path)")
_PATH_VALUE = re.compile(r"[\w@~.-]*[/.][\w@~./-]*")


def _names_path(key: str, value: Any) -> bool:
    return _OWN_PATH_KEY.fullmatch(key) is not None and path_like(value)


def path_like(value: Any) -> bool:
    """Whether a value is one path as written (``docs/plan.md``, ``.env``): one token with
    a dot or a slash and a letter; a page (``p. 3.1``) or a word (``overall``) is not."""
    return isinstance(value, str) and len(value) <= 400 \
        and _PATH_VALUE.fullmatch(value.strip()) is not None and any(c.isalpha() for c in value)


#: the parts of a value naming several files (``"a.py + b.py"``, ``"a.py, b.py"``)
_SEVERAL = re.compile(r"\s+(?:\+|&|and)\s+|\s*;\s*|,\s+")


def first_path(value: str) -> str:
    """The first of several files one value names (``"strategies/a.py + strategies/b.py"``:
    ``strategies/a.py``); the value itself when it names one."""
    head = _SEVERAL.split(value.strip(), maxsplit=1)[0]
    return head if head != value.strip() and path_like(head) else value


#: keys holding a finding's text, in order of preference
TEXT_KEYS = ("title", "summary", "message", "description", "issue", "finding", "problem",
             "comment", "text", "body", "subject", "detail", "details", "item", "claim",
             "concern", "risk", "weakness", "flaw", "error", "reason")


#: keys whose text is a finding's place, label or bookkeeping, never its prose
_NOT_PROSE = frozenset(("id", "uid", "key", "ref", "rule", "ruleid", "code", "category",
                        "type", "kind", "status", "state", "severity", "priority", "level",
                        "impact", "confidence", "author", "user", "url", "link", "commit",
                        "sha", "created", "createdat", "updated", "updatedat", "time",
                        "timestamp", "date", "source", "tool", "reviewer", "agent", "model"))


def prose_value(item: dict[str, Any]) -> str | None:
    """A finding's text when no text key names it (``{"file": "a.py", "line": 2, "note":
    "The counter is never reset."}``): the longest of its string values that is prose (a
    sentence of 12 characters or more with a space; not a place, a label or a date),
    among its first 64 keys; None when it has none."""
    best: str | None = None
    for k, v in list(item.items())[:64]:
        n = _norm(k)
        if not isinstance(v, str) or n in _NOT_PROSE or n in _PATH_KEYS or n in _LINE_KEYS \
                or n in _STRING_PLACE_KEYS or len(v.strip()) < 12 or " " not in v.strip():
            continue
        if best is None or len(v) > len(best):
            best = v
    return best


def findings_array(value: Any) -> list[dict[str, Any]] | None:
    """A review's findings printed as a bare JSON array (``[{"file": "cmd/root.go:321",
    "priority": "HIGH", "summary": ...}, ...]``): every one of its first items an object
    with a text and a place of its own (a file or a line); None otherwise."""
    if not isinstance(value, list) or not value:
        return None
    for item in value[:50]:
        if not isinstance(item, dict):
            return None
        low = {str(k).lower(): v for k, v in list(item.items())[:64]}
        if not any(isinstance(low.get(k), str) and low[k].strip() for k in TEXT_KEYS):
            return None
        path, first, _last = place(item)
        if not isinstance(path, str) and first is None:
            return None
    return value


_MERGE = re.compile(r"(?:(?:ready|ok|okay|safe|good|fine)\s+to\s+merge|merge(?:able)?|"
                    r"merge\s+it|can\s+(?:be\s+)?merge(?:d)?)", re.I)


def value_vote(value: str) -> str | None:
    """The vote of a verdict key's value that only a review document's key makes one: a
    merge recommendation (``"recommendation": "merge"``, ``"ready to merge"``: APPROVE),
    codex's ``overall_correctness`` shortened to ``"correct"`` / ``"incorrect"``."""
    v = " ".join(re.sub(r"[_\-.!]+", " ", value[:60]).split()).lower()
    if _MERGE.fullmatch(v):
        return "APPROVE"
    return _VALUE_VOTES.get(v)


#: a verdict key's values that are votes only there: codex's ``overall_correctness``
#: shortened, the changes a verdict file asks for (``"verdict": "changes"``), a gate
#: cleared (``"verdict": "CLEAR"``)
_VALUE_VOTES = {"correct": "APPROVE", "incorrect": "REVISE", "changes": "REVISE",
                "clear": "APPROVE", "cleared": "APPROVE"}

#: a review's gate: a key whose yes/no (or true/false) value is the verdict
#: (``"approved": false``, ``"ship": "no"``)
GATES = ("approved", "passed", "passes", "pass", "lgtm", "merge_ready", "ready_to_merge",
         "mergeable", "ship", "ship_it", "shippable", "can_merge", "safe_to_merge")


# a gate's leading verb (``isApproved``, ``canMerge``, ``shouldBlock``), what it gates
# (``ready_to_ship``), and the gates whose yes says the change is held back
_GATE_VERBS = frozenset(("is", "are", "can", "should", "was", "has", "does"))
_GATE_ACTS = frozenset(("merge", "ship", "release", "deploy", "land"))
_HOLDS = frozenset(("block", "merge_blocked", "block_merge", "needs_changes",
                    "requires_changes", "changes_requested"))


def gate_sense(key: Any) -> bool | None:
    """Whether a key is a gate, in any spelling: True when its yes approves (``approved``,
    ``isApproved``, ``passesQualityGate``, ``ready_to_ship``), False when its yes holds
    the change back (``blocked``, ``shouldBlock``), None when it is no gate."""
    parts = _parts(key)[:8]
    if not parts:
        return None
    if parts[0] in _GATE_VERBS and len(parts) > 1 \
            and "_".join(parts) not in GATES:
        parts = parts[1:]
    joined = "_".join(parts)
    if joined in GATES:
        return True
    if joined in _HOLDS:
        return False
    if parts[0] in ("pass", "passes", "passed") and parts[-1] in ("gate", "gates", "check",
                                                                  "checks", "review"):
        return True  # "passesQualityGate", "passed_all_checks"
    if len(parts) == 3 and parts[0] in ("ready", "safe", "ok", "okay", "good") \
            and parts[1] == "to" and parts[2] in _GATE_ACTS:
        return True  # "ready_to_ship", "safe_to_deploy"
    return None


def gate(doc: dict[str, Any]) -> bool | None:
    """A document's gate as a yes/no on the change (True: approve), or None: the first of
    its first 64 keys that is a gate (:func:`gate_sense`) holding a yes/no."""
    for k, v in list(doc.items())[:64]:
        sense = gate_sense(k)
        b = flag(v) if sense is not None else None
        if isinstance(b, bool):
            return b if sense else not b
    return None


def flag(value: Any) -> Any:
    """A boolean written as a string (``"approved": "false"``, ``"merge_ready": "no"``) as
    the boolean."""
    if isinstance(value, str) and value.strip().lower() in ("true", "false", "yes", "no"):
        return value.strip().lower() in ("true", "yes")
    return value


def closed_key(key: Any) -> bool:
    """Whether a key says what it holds is settled or earlier (``previous_review``,
    ``resolved_issues``)."""
    return bool(_NOT_OPEN.intersection(_parts(key)))


#: a finding's state, resolution or flags saying it was settled after it was written
_SETTLED = re.compile(r"\s*(?:already[\s_-]+)?(?:resolved|fixed|closed|addressed|done|dismissed|"
                      r"won'?t[\s_-]?fix|invalid|duplicate|false[\s_-]positive|debunked|refuted|"
                      r"stale|obsolete|superseded|not[\s_-]+an?[\s_-]+issue)\b", re.I)
_SETTLED_FLAGS = ("resolved", "isresolved", "fixed", "isfixed", "addressed", "dismissed")


def settled(item: Any) -> bool:
    """A finding marked settled: its ``status``/``state`` or its ``resolution`` says
    resolved, fixed, closed, addressed, dismissed, won't fix (``"resolution": "Fixed in
    e944d96"``), or a flag such as ``resolved``/``fixed`` is true."""
    if not isinstance(item, dict):
        return False
    low = {_norm(k): v for k, v in list(item.items())[:64]}
    if any(low.get(k) is True for k in _SETTLED_FLAGS):
        return True
    return any(isinstance(low.get(k), str) and _SETTLED.match(low[k])
               for k in ("status", "state", "resolution"))


def line_span(value: Any) -> tuple[int | None, int | None]:
    """(first line, last line) of a line value in any usual spelling: ``12``, ``"12"``,
    ``"12-18"``, ``"L12-L18"``, ``"12:3"`` (line 12, column 3), ``[12, 18]``,
    ``{"start": 12, "end": 18}``, ``{"start": {"line": 12}}``, ``{"startLine": 12}``."""
    if isinstance(value, bool):
        return None, None
    if isinstance(value, (int, float)):
        n = int(value) if float(value).is_integer() else 0
        return (n, None) if 1 <= n <= _MAX_LINE else (None, None)
    if isinstance(value, str):
        m = _SPAN.match(value[:80])
        if m is None:  # "adx_trend.py:98-99; strong_trend.py:89-90": the first file's lines
            m = _NAMED_SPAN.match(value[:200])
        if m is None or not 1 <= int(m[1]) <= _MAX_LINE:
            return None, None
        end = int(m[2]) if m[2] and int(m[2]) > int(m[1]) else None
        return int(m[1]), end
    if isinstance(value, list) and value:
        first, _ = line_span(value[0])
        # [12, 18] is a span; [490, 572, 643] the lines the finding cites, the first its own
        last, _ = line_span(value[-1]) if len(value) == 2 else (None, None)
        return first, last if first and last and last > first else None
    if isinstance(value, dict):
        low = {_norm(k): v for k, v in list(value.items())[:32]}
        first = next((s for k in _LINE_KEYS if k in low
                      for s in (line_span(low[k])[0],) if s), None)
        last = next((e for k in _END_KEYS if k in low
                     for e in (line_span(low[k])[0],) if e), None)
        return first, last if first and last and last > first else None
    return None, None


def other_places(item: dict[str, Any], limit: int = 16) -> list[tuple[Any, int | None,
                                                                      int | None]]:
    """The places after the first in a finding's list of places (``"locations": ["a.py:12",
    "b.py:3"]``, ``"files": [...]``, a list of location objects), as :func:`place` gives
    each: the other places one finding cites."""
    for k, v in list(item.items())[:64]:
        low = _norm(k)
        if not (low in _LIST_PLACE_KEYS or low in _PLACE_KEYS) or not isinstance(v, list):
            continue
        out: list[tuple[Any, int | None, int | None]] = []
        for entry in v[1:limit + 1]:
            if isinstance(entry, str) and entry.strip():
                out.append((entry, None, None))
            elif isinstance(entry, dict):
                out.append(place(entry))
        return out
    return []


def place(item: dict[str, Any]) -> tuple[Any, int | None, int | None]:
    """(path value, first line, last line) of one finding: its own keys first, then the
    objects it nests its place in (``location``, ``code_location``, ``position``, SARIF's
    ``physicalLocation``...), nearest first.  The path is returned as written (a string,
    or whatever the key holds) for the caller to clean; lines are already numbers."""
    path: Any = None
    first: int | None = None
    last: int | None = None
    queue: list[dict[str, Any]] = [item]
    seen = 0
    while queue and seen < _MAX_NODES:
        node = queue.pop(0)
        seen += 1
        low = {_norm(k): v for k, v in list(node.items())[:64]}
        if path is None:
            path = next((low[k] for k in _PATH_KEYS
                         if isinstance(low.get(k), str) and low[k].strip()), None) \
                or next((v for k, v in low.items() if _names_path(k, v)), None)
        if path is None:  # "files": ["a.py"], "locations": ["a.py:12", "b.py:3"]: the first
            path = next((v[0] for k in (*_PATH_KEYS, *_LIST_PLACE_KEYS)
                         if isinstance(v := low.get(k), list) and v and isinstance(v[0], str)
                         and v[0].strip()), None) or next(  # "related_files", "affected_paths"
                (v[0] for k, v in low.items() if k.endswith(("files", "paths"))
                 and isinstance(v, list) and v and isinstance(v[0], str) and path_like(v[0])),
                None)
        if path is None:  # "where": "a.py:12", "ref": "a.py#L3": a place spelled out
            path = next((low[k] for k in _STRING_PLACE_KEYS if isinstance(low.get(k), str)
                         and find_location(low[k][:400]) is not None), None)
        if first is None:
            for k in _LINE_KEYS:
                if k in low and not (node is item and k in ("range", "start", "begin")
                                     and isinstance(low[k], str)):
                    first, last = line_span(low[k])
                    if first is not None:
                        break
            if first is not None and last is None:
                last = next((e for k in _END_KEYS if k in low
                             for e in (line_span(low[k])[0],) if e and e > first), None)
        if path is None and first is None:  # "location": ["a.py", 12]
            pair = next((v for k in _PLACE_KEYS if isinstance(v := low.get(k), list)
                         and len(v) == 2 and isinstance(v[0], str)
                         and isinstance(v[1], int) and not isinstance(v[1], bool)), None)
            if pair is not None and path_like(pair[0]):
                path, (first, last) = pair[0], line_span(pair[1])
        if path is not None and first is not None:
            break
        for k, v in low.items():
            if k in _PLACE_KEYS or k in _PATH_KEYS:
                if isinstance(v, dict):
                    queue.append(v)
                elif isinstance(v, list) and v and isinstance(v[0], dict):
                    queue.append(v[0])  # several places: the first
    if path is not None and first is None:  # "evidence": ["Line 17: fn unused(...)"]
        first = _evidence_line(item)
    return path, first, last


_EVIDENCE_LINE = re.compile(r"\s*(?:lines?\s+|L)(\d{1,7})\b", re.I)


def _evidence_line(item: dict[str, Any]) -> int | None:
    """The line a finding's evidence opens by quoting (``"evidence": ["Line 17: ..."]``,
    ``"evidence": "L42: ..."``), for a finding whose place names its file alone."""
    ev = next((v for k, v in list(item.items())[:64] if _norm(k) == "evidence"), None)
    if isinstance(ev, list) and ev:
        ev = ev[0]
    m = _EVIDENCE_LINE.match(ev[:40]) if isinstance(ev, str) else None
    return int(m[1]) if m and 1 <= int(m[1]) <= _MAX_LINE else None
