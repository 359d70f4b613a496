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


def _fenced_blocks(reply: str) -> list[tuple[str, str]]:
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
    blocks = _fenced_blocks(reply)
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
