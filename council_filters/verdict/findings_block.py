"""Structured findings from a findings block, and the verdict record's fields."""

from __future__ import annotations

import re
from typing import Any

from council_filters.base import severity
from council_filters.verdict.layers import TRUNCATED_MARKER, text

# --------------------------------------------------------------------------- #
# Structured findings from a findings block
# --------------------------------------------------------------------------- #
_DASH_HEADER = re.compile(rb"^[ \t]*[-*+][ \t]+\[(P[0-9])\][ \t]*(.*)$")
_BOLD_HEADER = re.compile(
    rb"^\*\*\[(P[0-9])\][ \t]+(\S+)[ \t]+\xe2\x80\x94[ \t]+(.*?)\*\*[ \t]*(.*)$"
)
_LOCATION = re.compile(rb"^(?P<file>[^\s:]+?)(?::(?P<line>[0-9]+)(?:-(?P<end>[0-9]+))?)?$")
_SEPARATOR = re.compile(rb"^(\S+)[ \t]+(?:\xe2\x80\x94|\xe2\x80\x93|--|-|:)[ \t]+(.*)$")
_EVIDENCE = re.compile(rb"^[ \t]*Evidence:[ \t]*(.*)$")
_DETAIL = re.compile(rb"^[ \t]*Finding:[ \t]*(.*)$")
_CODEX_CONF = re.compile(rb"^[ \t]*\[[A-Za-z0-9_-]+\] confidence:[ \t]*([0-9]*\.?[0-9]+)[ \t]*$")


def _looks_like_path(token: bytes) -> bool:
    return b"/" in token or b"." in token or b":" in token


def _location(token: bytes) -> dict[str, Any]:
    m = _LOCATION.match(token)
    if not m or not _looks_like_path(token):
        return {}
    loc: dict[str, Any] = {"file": text(m["file"])}
    if m["line"] and int(m["line"]) >= 1:
        loc["line"] = int(m["line"])
        if m["end"] and int(m["end"]) > loc["line"]:
            loc["end_line"] = int(m["end"])
    return loc


def _strip_quotes(value: bytes) -> bytes:
    value = value.strip()
    if len(value) >= 2 and value[:1] == b'"' and value[-1:] == b'"':
        return value[1:-1]
    return value


def _new_finding(origin: str, priority: bytes) -> dict[str, Any]:
    rec: dict[str, Any] = {"kind": "finding", "origin": origin, "priority": text(priority)}
    sev = severity.normalize(text(priority))
    if sev is not None:
        rec["severity"] = sev
    return rec


def _header(line: bytes, origin: str) -> dict[str, Any] | None:
    m = _BOLD_HEADER.match(line)
    if m:
        rec = _new_finding(origin, m[1])
        loc = m[3]
        rec.update(_location(loc) or ({"file": text(loc)} if loc else {}))
        rec["summary"] = text(m[4].strip())
        return rec
    m = _DASH_HEADER.match(line)
    if not m:
        return None
    rec = _new_finding(origin, m[1])
    rest = m[2].strip()
    sep = _SEPARATOR.match(rest)
    loc = _location(sep[1]) if sep else {}
    if sep and loc:
        rec.update(loc)
        rest = sep[2].strip()
    rec["summary"] = text(rest)
    return rec


def structured_findings(findings: bytes, origin: str) -> list[dict[str, Any]]:
    """Findings records from a findings block (``- [P1] file:42 — summary`` shape).

    Recognises the pack's dash form and codex's bold ``**[P1] codex — file:42** title``
    form; ``Evidence:``, ``Finding:`` and codex confidence lines attach to the
    finding above them; any other indented line is added to its discussion.
    Escaped (quoted) headers and prose outside a finding are ignored.
    """
    out: list[dict[str, Any]] = []
    current: dict[str, Any] | None = None
    discussion: list[str] = []

    def close() -> None:
        if current is not None:
            if discussion:
                current["discussion"] = "\n".join(discussion)
            out.append(current)

    for line in findings.split(b"\n"):
        rec = _header(line, origin)
        if rec is not None:
            close()
            current, discussion = rec, []
            continue
        if current is None or not line.strip() or line == TRUNCATED_MARKER:
            continue
        if (m := _EVIDENCE.match(line)) and "evidence" not in current:
            current["evidence"] = text(_strip_quotes(m[1]))
        elif (m := _CODEX_CONF.match(line)) and "confidence" not in current:
            value = float(m[1])
            if 0.0 <= value <= 1.0:
                current["confidence"] = value
        elif m := _DETAIL.match(line):
            discussion.append(text(m[1].strip()))
        elif line[:1].isspace():
            discussion.append(text(line.strip()))
        else:  # unindented prose ends the finding
            close()
            current, discussion = None, []
    close()
    return out


# --------------------------------------------------------------------------- #
# Records
# --------------------------------------------------------------------------- #
def verdict_fields(
    verdict: bytes, confidence: bytes, summary: bytes, findings: bytes,
    warnings: list[str], origin: str, structured: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """The parse-verdict fields, in their documented order.

    ``structured``: findings already read (the tolerant reader); default: parsed
    from ``findings`` in the upstream-era shapes.
    """
    return {
        "verdict": text(verdict),
        "confidence": text(confidence),
        "summary": text(summary),
        "findings": structured if structured is not None
        else structured_findings(findings, origin),
        "findings_text": text(findings),
        "warnings": list(warnings),
    }


def failed_fields(status: str, reviewer: str, exit_code: Any) -> dict[str, Any]:
    """The fields for a reviewer that never produced a verdict (TIMEOUT/ERROR/UNAVAILABLE)."""
    code = f" (exit {exit_code})" if isinstance(exit_code, int) else ""
    why = {
        "TIMEOUT": f"{reviewer} timed out{code}; the council ran without its verdict.",
        "ERROR": f"{reviewer} failed{code}; the council ran without its verdict.",
        "UNAVAILABLE": f"{reviewer} was unavailable{code}; the council ran without its verdict.",
    }[status]
    return {
        "verdict": status, "confidence": "N/A", "summary": why,
        "findings": [], "findings_text": "", "warnings": [],
    }
