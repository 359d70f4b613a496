"""Reading a reviewer's answer as the finding contract, with verify_output errors.

An answer is a JSON array of findings (the code-review shape: ``origin``, ``severity``,
``file``, ``line``, ``subject``, ``discussion``, ``evidence``, ``confidence``), or the
pr-workflow object ``{"findings": [...]}`` (location, label, subject, discussion).  Either
may stand alone or sit in a fenced block.  :func:`read` returns the findings as finding
records and, when something does not validate, the errors as verify_output gives them
(``path``, ``message``, ``hint``): those go back to the reviewer in the next pack.  Messages
name fields and allowed values, never the reviewer's text.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from council_filters.base import severity as sev
from council_filters.consolidate.finding import finding_problem
from council_filters.consolidate.origins import canonical_origin
from council_filters.verdict import reviewer_json

MIN_CONFIDENCE = 0.8
MAX_ERRORS = 20
Record = dict[str, Any]
#: path -> the right-side line numbers a finding may point at.
Lines = Mapping[str, set[int]]


@dataclass
class Reading:
    findings: list[Record] = field(default_factory=list)
    errors: list[Record] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors

    def verify_output(self) -> Record:
        if self.errors:
            return {"ok": False, "errors": self.errors[:MAX_ERRORS]}
        return {"ok": True, "count": len(self.findings)}


def _error(path: str, message: str, hint: str) -> Record:
    return {"path": path, "message": message, "hint": hint}


def ranges_text(lines: set[int]) -> str:
    """``{1, 2, 3, 7}`` as ``1-3, 7`` (``none`` when empty)."""
    out: list[list[int]] = []
    for n in sorted(lines):
        if out and n == out[-1][1] + 1:
            out[-1][1] = n
        else:
            out.append([n, n])
    return ", ".join(f"{a}" if a == b else f"{a}-{b}" for a, b in out) or "none"


#: Confidence said in words (the pr-workflow judges' vocabulary): only "high" passes 0.8.
WORDS = {"very high": 0.95, "high": 0.9, "medium": 0.6, "low": 0.3}


def confidence_of(value: object) -> float | None:
    """A confidence as a number 0..1 (``0.9``, ``"90%"``, ``"0.9"``), else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        number = float(value)
    elif isinstance(value, str):
        text = value.strip()
        if text.lower() in WORDS:
            return WORDS[text.lower()]
        try:
            number = float(text.rstrip("%")) / (100 if text.endswith("%") else 1)
        except ValueError:
            return None
    else:
        return None
    if number > 1 and number <= 100:
        number /= 100
    return number if 0 <= number <= 1 else None


#: Field names other finding shapes use, read as the contract's own (first found wins).
ALIASES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("subject", ("title", "message", "issue", "headline")),
    ("discussion", ("description", "problem", "details", "body")),
    ("file", ("path", "filename", "file_path")),
    ("line", ("start_line", "startLine", "line_start", "lineno")),
    ("end_line", ("endLine", "line_end")),
)
_LOCATION: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("file", ("file", "path")), ("line", ("line", "start", "startLine")),
    ("end_line", ("end", "endLine")),
)
_RECOMMENDATION = ("recommendation", "fix", "suggested_fix", "remediation")


def with_aliases(item: Record) -> Record:
    """A finding in another common shape, in the contract's field names: ``title`` as
    ``subject``, ``description`` as ``discussion`` (a ``recommendation`` appended),
    ``path`` as ``file``, a ``location`` object's path and lines."""
    rec = dict(item)
    loc = rec.get("location")
    if isinstance(loc, dict):
        for key, spots in _LOCATION:
            for spot in spots:
                if key not in rec and loc.get(spot) is not None:
                    rec[key] = loc[spot]
    for key, names in ALIASES:
        if rec.get(key) is None:
            for name in names:
                if rec.get(name) is not None:
                    rec[key] = rec[name]
                    break
    advice = next((rec[k] for k in _RECOMMENDATION if isinstance(rec.get(k), str)), None)
    if advice and isinstance(rec.get("discussion"), str) and advice not in rec["discussion"]:
        rec["discussion"] = rec["discussion"].rstrip() + "\n\n" + advice
    elif advice and rec.get("discussion") is None:
        rec["discussion"] = advice
    if isinstance(rec.get("line"), str) and rec["line"].strip().isdigit():
        rec["line"] = int(rec["line"])
    return rec


def check(rec: Record, path: str, origin: str, lines: Lines, errors: list[Record]) -> None:
    """The contract's per-finding rules, beyond the shared finding schema."""
    given = rec.get("origin")
    if given is not None and (not isinstance(given, str) or canonical_origin(given) != origin):
        errors.append(_error(f"{path}/origin", f"'origin' must be {origin}",
                             f'Use "origin": "{origin}"; another reviewer covers other lanes.'))
    if rec.get("severity") is not None and sev.normalize(rec.get("severity")) is None:
        errors.append(_error(f"{path}/severity", "'severity' is not an allowed value",
                             f"Use one of: {', '.join(sev.LADDER)}."))
    if confidence_of(rec.get("confidence")) is None:
        errors.append(_error(f"{path}/confidence", "'confidence' must be a number from 0 to 1",
                             'Add "confidence": e.g. 0.9 (findings below 0.8 are discarded).'))
    file, line = rec.get("file"), rec.get("line")
    if not isinstance(file, str) or not file.strip():
        errors.append(_error(f"{path}/file", "missing required property 'file'",
                             'Add "file": the repository-relative path of the changed file.'))
        return
    if not isinstance(line, int) or isinstance(line, bool) or line < 1:
        errors.append(_error(f"{path}/line", "'line' must be an integer >= 1",
                             'Add "line": the number of an added line of that file.'))
        return
    allowed = lines.get(file.removeprefix("./"))
    if allowed is None:
        errors.append(_error(f"{path}/file", "'file' is not a file this review covers",
                             "Point at one of the files under \"Lines you may point at\"."))
    elif line not in allowed:
        errors.append(_error(f"{path}/line", "'line' is not a line the change adds",
                             f"Point at an added line of {file}: {ranges_text(allowed)}."))


_MAX_ARRAY_TRIES = 64


def extract(text: str) -> Any:
    """The answer's JSON: the whole text or a fenced block (reviewer_json's reading), else
    the first JSON array in the prose (a bare array of findings after a sentence)."""
    try:
        value = reviewer_json.extract(text)
    except reviewer_json.ExtractError:
        value = None
    if isinstance(value, list) or (isinstance(value, dict) and "findings" in value):
        return value
    decoder = json.JSONDecoder()
    start = text.find("[")
    for _ in range(_MAX_ARRAY_TRIES):
        if start < 0:
            break
        try:
            found, _end = decoder.raw_decode(text, start)
        except (ValueError, RecursionError):
            start = text.find("[", start + 1)
            continue
        if isinstance(found, list) and all(isinstance(x, dict) for x in found):
            return found
        start = text.find("[", start + 1)
    if value is None:
        return reviewer_json.extract(text)  # raises, saying why
    return value


def read(text: str, origin: str, lines: Lines) -> Reading:
    """The findings of one answer and what is wrong with it (nothing: ``ok``)."""
    out = Reading()
    try:
        value = extract(text)
    except reviewer_json.ExtractError as exc:
        out.errors.append(_error("", str(exc), "Reply with one JSON array of findings ([] when"
                                 " there is nothing to report), no prose."))
        return out
    items: list[tuple[str, Any]]
    if isinstance(value, list):
        items = [(f"/{i}", item) for i, item in enumerate(value)]
    elif isinstance(value, dict) and "findings" in value:
        result = reviewer_json.verify("council", value)
        if not result["ok"]:
            out.errors.extend(result["errors"])
            return out
        records = reviewer_json.normalise("council", value, origin).records
        items = [(f"/findings/{i}", rec) for i, rec in enumerate(records)]
    else:
        out.errors.append(_error("", "the answer must be a JSON array of findings",
                                 "Reply with [ {finding}, ... ], or [] when there is nothing."))
        return out
    for path, item in items:
        if not isinstance(item, dict):
            out.errors.append(_error(path, "a finding must be a JSON object",
                                     "Write each finding as an object with the fields shown."))
            continue
        rec: Record = {"kind": "finding",
                       **{k: v for k, v in with_aliases(item).items() if k != "kind"}}
        rec.setdefault("origin", origin)
        problem = finding_problem(rec)
        before = len(out.errors)
        if problem:
            field_name = problem.split(":", 1)[0]
            where = f"{path}/{field_name}" if field_name.isidentifier() else path
            out.errors.append(_error(where, problem, "Follow the finding shape shown in the"
                                     " contract (subject, file, line, severity, confidence)."))
        check(rec, path, origin, lines, out.errors)
        if len(out.errors) == before:
            rec["origin"] = origin
            rec["source"] = "llm"
            out.findings.append(rec)
    return out


@dataclass
class Filtered:
    kept: list[Record] = field(default_factory=list)
    low_confidence: int = 0
    outside: int = 0
    invalid: int = 0


def universal_rules(findings: list[Record], lines: Lines) -> Filtered:
    """The rules every reviewer's findings meet after the last attempt: LLM findings need a
    confidence of at least 0.8; findings point at added lines; script findings count 1.0."""
    out = Filtered()
    for rec in findings:
        if rec.get("source") == "script":
            out.kept.append({**rec, "confidence": 1.0})
            continue
        conf = confidence_of(rec.get("confidence"))
        file, line = rec.get("file"), rec.get("line")
        if conf is None or conf < MIN_CONFIDENCE:
            out.low_confidence += 1
        elif not isinstance(file, str) or not isinstance(line, int) or line not in lines.get(
                file.removeprefix("./"), set()):
            out.outside += 1
        else:
            out.kept.append({**rec, "confidence": conf})
    return out


def lenient(text: str, origin: str) -> tuple[list[Record], int]:
    """What the last attempt holds, even when it did not validate: every finding that is a
    valid finding record (the universal rules then apply), and how many were not."""
    try:
        value = extract(text)
    except reviewer_json.ExtractError:
        return [], 0
    if isinstance(value, dict) and isinstance(value.get("findings"), list):
        raw = value["findings"]
        if reviewer_json.verify("council", value)["ok"]:
            raw = reviewer_json.normalise("council", value, origin).records
    elif isinstance(value, list):
        raw = value
    else:
        return [], 1
    kept: list[Record] = []
    bad = 0
    for item in raw:
        if not isinstance(item, dict):
            bad += 1
            continue
        rec: Record = {"kind": "finding",
                       **{k: v for k, v in with_aliases(item).items() if k != "kind"},
                       "origin": origin, "source": "llm"}
        if finding_problem(rec):
            bad += 1
        else:
            kept.append(rec)
    return kept, bad
