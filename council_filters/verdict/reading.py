"""Tolerant reading of a reviewer's answer: what models actually write.

A pure function over the (redacted) answer bytes.  It finds the verdict,
confidence, summary and findings whatever the formatting habit: keys in any
letter case, wrapped in emphasis or backticks, as ATX headings, as table
rows, behind a quote marker, a list bullet or an emoji; a BOM; CRLF and lone
CR line ends; a preamble; the whole answer inside one fenced block; an answer
that is one JSON object.  Findings are read as list items (``-``, ``*``,
``+``, ``1.``, ``1)``), headings, table rows or plain lines that start with a
location; severity tags and locations are recognised in the spellings listed
in docs/parse-verdict.md; each finding keeps its own text.

The rules, in the order they decide:

1. A leading BOM goes, line ends become ``\\n``, ``INGEST_TOKEN:`` lines go.
2. An answer that is one JSON object (bare or in one ```` ```json ```` block)
   is read as JSON.
3. If the whole answer is one fenced block, its inside is the answer.  Else
   the first ``Verdict`` key outside any code block wins; if there is none,
   a preamble followed by one text/markdown fenced block reads that block.
4. A reviewer cannot declare itself TIMEOUT, ERROR or UNAVAILABLE: those
   words, or a value naming no verdict, give UNKNOWN with a warning.

Nothing here raises on any input.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from council_filters.verdict import layers
from council_filters.verdict.answer_lines import (
    _HEADING_RE,
    OTHER_SECTIONS,
    Key,
    _unwrap,
    _wrapper,
    code_mask,
    confidence_word,
    key_of,
    normalise,
    verdict_word,
)
from council_filters.verdict.finding_items import (
    _NONE_RE,
    _finding_heading,
    parse_findings,
)
from council_filters.verdict.locations import (
    SEVERITY_WORD,
    Location,
    _put_severity,
    clean_path,
    find_location,
    severity_word,
)

__all__ = [
    "NOT_A_VOTE",
    "NO_VERDICT",
    "OTHER_SECTIONS",
    "SEVERITY_WORD",
    "SUMMARY_CAP",
    "VOTES",
    "Key",
    "Location",
    "Reading",
    "clean_path",
    "code_mask",
    "confidence_word",
    "find_location",
    "key_of",
    "layer1",
    "normalise",
    "parse_findings",
    "read",
    "severity_word",
    "verdict_word",
]

VOTES = ("APPROVE", "REVISE", "REJECT")
SUMMARY_CAP = 500
NO_VERDICT = layers.NO_VERDICT_WARNING
NOT_A_VOTE = "verdict is not APPROVE, REVISE or REJECT \u2014 marked UNKNOWN"


# --------------------------------------------------------------------------- #
# Results
# --------------------------------------------------------------------------- #
@dataclass
class Reading:
    verdict: str = "UNKNOWN"
    confidence: str = ""
    summary: str = ""
    findings_text: str = ""
    findings: list[dict[str, Any]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    found_verdict: bool = False



# --------------------------------------------------------------------------- #
# The reader
# --------------------------------------------------------------------------- #
def read(data: bytes, origin: str = "reviewer") -> Reading:
    """Read one answer; see the module docstring for the rules."""
    text = normalise(data)
    doc = _json_answer(text)
    if doc is not None:
        return _from_json(doc, origin)
    lines = text.split("\n")
    span = _wrapper(lines, whole=True) or _wrapper(lines, whole=False)
    if span is not None:
        lines = lines[span[0]:span[1]]
    return _read_lines(lines, origin)


def _read_lines(lines: list[str], origin: str) -> Reading:
    out = Reading()
    mask = code_mask(lines)
    keys: list[Key | None] = [None if mask[i] else key_of(ln) for i, ln in enumerate(lines)]
    # verdict and confidence: first key line with a value (or a value on the next line)
    for name in ("verdict", "confidence"):
        for i, k in enumerate(keys):
            if k is None or k.name != name:
                continue
            value = k.value or _next_value(lines, mask, keys, i)
            if not value:
                continue
            if name == "verdict":
                word = verdict_word(value)
                out.found_verdict = True
                if word in VOTES:
                    out.verdict = word
                else:
                    out.warnings.append(NOT_A_VOTE)
            else:
                out.confidence = confidence_word(value)
            break
    if not out.found_verdict:
        out.warnings.append(NO_VERDICT)
    out.summary = _summary(lines, mask, keys)
    sections = _findings_sections(lines, mask, keys)
    if sections is None:  # no findings section: take located items from anywhere
        body = [i for i, k in enumerate(keys) if k is None]
        items = parse_findings([lines[i] for i in body], [mask[i] for i in body], origin,
                               located_only=True)
        out.findings = items
        out.findings_text = "\n".join(_item_text(f) for f in items)
    else:
        flat = [i for sec in sections for i in sec]
        text_lines = [lines[i] for i in flat]
        out.findings = parse_findings(text_lines, [mask[i] for i in flat], origin)
        out.findings_text = "\n".join(text_lines).strip("\n")
    return out


def _item_text(f: dict[str, Any]) -> str:
    where = f.get("file", "")
    if where and f.get("line"):
        where += f":{f['line']}"
    return f"- {where} \u2014 {f['summary']}" if where else f"- {f['summary']}"


def _next_value(lines: list[str], mask: list[bool], keys: list[Key | None], i: int) -> str:
    for j in range(i + 1, min(len(lines), i + 6)):
        if mask[j] or not lines[j].strip():
            continue
        if keys[j] is not None:
            return ""
        return lines[j].strip()
    return ""


def _summary(lines: list[str], mask: list[bool], keys: list[Key | None]) -> str:
    for i, k in enumerate(keys):
        if k is None or k.name != "summary":
            continue
        if k.value:
            return _cap(_unwrap(k.value) or k.value)
        para: list[str] = []
        for j in range(i + 1, len(lines)):
            if mask[j] or keys[j] is not None or _HEADING_RE.match(lines[j].strip()):
                break
            if not lines[j].strip():
                if para:
                    break
                continue
            para.append(lines[j].strip())
        if para:
            return _cap(" ".join(para))
    return ""


def _cap(s: str) -> str:
    b = s.encode("utf-8")
    if len(b) <= SUMMARY_CAP:
        return s
    return b[:SUMMARY_CAP].decode("utf-8", "ignore")


def _findings_sections(
    lines: list[str], mask: list[bool], keys: list[Key | None]
) -> list[list[int]] | None:
    sections: list[list[int]] = []
    i = 0
    while i < len(lines):
        k = keys[i]
        if k is None or k.name != "findings":
            i += 1
            continue
        sec: list[int] = []
        if k.value and not _NONE_RE.match(k.value):
            lines[i] = k.value
            sec.append(i)
        j = i + 1
        while j < len(lines):
            kj = keys[j]
            if kj is not None and kj.name != "findings":
                break
            if kj is not None and kj.name == "findings":
                break
            if not mask[j] and k.heading:
                hm = _HEADING_RE.match(lines[j].strip())
                if hm and len(hm.group(1)) <= k.heading and not _finding_heading(hm.group(2)):
                    break
            sec.append(j)
            j += 1
        sections.append(sec)
        i = j
    return sections or None


# --------------------------------------------------------------------------- #
# JSON answers
# --------------------------------------------------------------------------- #
def _json_answer(text: str) -> dict[str, Any] | None:
    s = text.strip()
    m = re.fullmatch(r"(`{3,}|~{3,})\s*(?:json|jsonc)?\s*\n(.*)\n\s*\1\s*", s, re.S | re.I)
    if m:
        s = m.group(2).strip()
    if not (s.startswith("{") and s.endswith("}")):
        return None
    try:
        doc = json.loads(s)
    except ValueError:
        return None
    if not isinstance(doc, dict):
        return None
    if not any(str(k).lower() in ("verdict", "decision") for k in doc):
        return None
    return doc


def _get(d: dict[str, Any], *names: str) -> Any:
    low = {str(k).lower(): v for k, v in d.items()}
    for n in names:
        if n in low and low[n] not in (None, ""):
            return low[n]
    return None


def _from_json(doc: dict[str, Any], origin: str) -> Reading:
    out = Reading(found_verdict=True)
    v = _get(doc, "verdict", "decision")
    word = verdict_word(str(v)) if isinstance(v, str) else None
    if word in VOTES:
        out.verdict = word
    else:
        out.warnings.append(NOT_A_VOTE)
    c = _get(doc, "confidence")
    if isinstance(c, (str, int, float)) and not isinstance(c, bool):
        out.confidence = confidence_word(str(c))
    s = _get(doc, "summary", "overview")
    if isinstance(s, str):
        out.summary = _cap(" ".join(s.split()))
    items = _get(doc, "findings", "issues", "comments", "problems")
    for item in items if isinstance(items, list) else []:
        rec = _json_finding(item, origin)
        if rec is not None:
            out.findings.append(rec)
    out.findings_text = "\n".join(_item_text(f) for f in out.findings)
    return out


def _json_finding(item: Any, origin: str) -> dict[str, Any] | None:
    if isinstance(item, str):
        found = parse_findings([f"- {item}"], None, origin)
        return found[0] if found else None
    if not isinstance(item, dict):
        return None
    text = _get(item, "title", "summary", "message", "description", "issue", "finding",
                "problem", "comment", "text", "body", "subject")
    if not isinstance(text, str) or not text.strip():
        return None
    rec: dict[str, Any] = {"kind": "finding", "origin": origin}
    sev = _get(item, "severity", "priority", "level")
    if isinstance(sev, str):
        _put_severity(rec, sev)
    path = _get(item, "file", "path", "filename", "location")
    line = _get(item, "line", "start_line", "line_number", "linenumber", "lines", "startline")
    loc = find_location(path) if isinstance(path, str) else None
    if loc is not None:
        rec["file"], rec["line"] = loc.file, loc.line
        if loc.end_line:
            rec["end_line"] = loc.end_line
    elif isinstance(path, str) and path.strip():
        rec["file"] = clean_path(path)
    if "line" not in rec or rec.get("line") is None:
        rec.pop("line", None)
        if isinstance(line, int) and not isinstance(line, bool) and line >= 1:
            rec["line"] = line
        elif isinstance(line, str) and (lm := re.match(r"\s*L?(\d+)(?:\s*[-\u2013]\s*L?(\d+))?",
                                                     line)):
            rec["line"] = int(lm.group(1))
            if lm.group(2) and int(lm.group(2)) > rec["line"]:
                rec["end_line"] = int(lm.group(2))
    end = _get(item, "end_line", "endline")
    if isinstance(end, int) and not isinstance(end, bool) and end > rec.get("line", end):
        rec["end_line"] = end
    if rec.get("line") is not None and rec["line"] < 1:
        rec.pop("line")
    rec["summary"] = " ".join(text.split())
    disc = _get(item, "details", "explanation", "rationale", "suggestion", "recommendation",
                "fix", "discussion")
    if isinstance(disc, str) and disc.strip():
        rec["discussion"] = disc.strip()
    code = _get(item, "replacement", "suggested_code", "replacement_code", "fixed_code")
    if isinstance(code, str):
        rec["replacement"] = code  # the lines' new text (rdjsonl suggestions)
    return rec


# --------------------------------------------------------------------------- #
# As council-parse-verdict's Layer 1 result
# --------------------------------------------------------------------------- #
def layer1(data: bytes, origin: str = "reviewer") -> tuple[layers.Layer1, list[dict[str, Any]]]:
    """The tolerant reading as a Layer-1 result (for the 6-key return and the record
    fields) and the structured findings.

    The findings text keeps upstream's cap and sentinel escaping; the summary is cut
    at a character boundary.  An answer with no verdict keeps its findings (nothing
    is lost), and its summary is the reading's, else upstream's flattened head.
    """
    got = read(data, origin)
    findings, truncated = layers.cap_findings(got.findings_text.encode("utf-8"))
    findings = layers.escape_sentinels(findings)
    summary = got.summary.encode("utf-8")
    if got.verdict == "UNKNOWN":
        confidence = "LOW"  # as upstream: an unread verdict carries low confidence
        if not summary:
            summary = layers.fallback_summary(layers.strip_ingest(data), True)
    else:
        confidence = got.confidence or "N/A"
    result = layers.Layer1(got.verdict.encode(), confidence.encode(), summary, findings,
                            warnings=list(got.warnings), fallback=not got.found_verdict,
                            truncated=truncated)
    return result, got.findings
