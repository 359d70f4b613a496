"""Reviewer verdicts: Layer-1 text parsing, the Layer-2 6-key return, structured findings.

Pure functions over bytes.  Layer 1 reproduces the upstream agents' grep/awk/
head pipeline byte for byte (including cuts in the middle of a UTF-8
character); ``hardened=True`` cuts at character boundaries and accepts only
APPROVE/REVISE/REJECT from model text.  Layer 2 reproduces the orchestrator's
``parse_reviewer_return``.  Nothing here raises on any input bytes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from council_filters import severity

VERDICTS: tuple[str, ...] = (
    "APPROVE", "REVISE", "REJECT", "UNKNOWN", "TIMEOUT", "ERROR", "UNAVAILABLE",
)
VOTES: tuple[str, ...] = ("APPROVE", "REVISE", "REJECT")
CONFIDENCES: tuple[str, ...] = ("HIGH", "MEDIUM", "LOW", "N/A")
FAILED_STATUSES: tuple[str, ...] = ("TIMEOUT", "ERROR", "UNAVAILABLE")

VERDICT_CAP = 50
CONFIDENCE_CAP = 20
SUMMARY_CAP = 500
FALLBACK_HEAD = 2000
FALLBACK_CAP = 1500
FINDINGS_MAX_LINES = 200
FINDINGS_MAX_BYTES = 20000
TRUNCATED_MARKER = b"[truncated: findings exceeded 200 lines / 20000 bytes]"
NO_VERDICT_WARNING = "no Verdict: line found in output \u2014 marked UNKNOWN"

BEGIN = b"findings_block_begin"
END = b"findings_block_end"
ESCAPED = b"[ESCAPED] "


# --------------------------------------------------------------------------- #
# Byte helpers
# --------------------------------------------------------------------------- #
def lines_of(data: bytes) -> list[bytes]:
    """Lines without terminators; a final unterminated line counts, no phantom last line."""
    if not data:
        return []
    parts = data.split(b"\n")
    if parts[-1] == b"":
        parts.pop()
    return parts


def utf8_cut(data: bytes, limit: int) -> bytes:
    """The first ``limit`` bytes, backed off so no multi-byte character is split."""
    if len(data) <= limit:
        return data
    i = limit
    back = 0
    while i > 0 and back < 3 and (data[i] & 0xC0) == 0x80:
        i -= 1
        back += 1
    if back and (data[i] & 0xC0) == 0xC0:  # a lead byte whose sequence was cut
        return data[:i]
    return data[:limit]


def head(data: bytes, limit: int, hardened: bool) -> bytes:
    """``head -c limit`` (or its UTF-8-safe form)."""
    return utf8_cut(data, limit) if hardened else data[:limit]


def first_field(lines: list[bytes], prefix: bytes) -> bytes | None:
    """The rest of the first line starting with ``prefix`` (``grep -m1 | sed``), or None."""
    for line in lines:
        if line.startswith(prefix):
            return line[len(prefix):]
    return None


def text(data: bytes) -> str:
    """Bytes as JSON-safe text; bytes cut mid-character become U+FFFD."""
    return data.decode("utf-8", "replace")


# --------------------------------------------------------------------------- #
# Layer 1
# --------------------------------------------------------------------------- #
@dataclass
class Layer1:
    verdict: bytes
    confidence: bytes
    summary: bytes
    findings: bytes
    warnings: list[str] = field(default_factory=list)
    fallback: bool = False
    truncated: bool = False


def strip_ingest(data: bytes) -> bytes:
    """Delete every line starting ``INGEST_TOKEN: `` (``sed '/^INGEST_TOKEN: /d'``)."""
    if b"INGEST_TOKEN: " not in data:
        return data
    kept = [ln for ln in data.splitlines(keepends=True) if not _is_ingest(ln)]
    return b"".join(kept)


def _is_ingest(line: bytes) -> bool:
    return line.startswith(b"INGEST_TOKEN: ")


def capture_findings(lines: list[bytes]) -> bytes:
    """Every line after a ``^Findings:`` line up to the next ``^Summary: `` (all regions)."""
    out: list[bytes] = []
    capture = False
    for line in lines:
        if line.startswith(b"Findings:"):
            capture = True
            continue
        if line.startswith(b"Summary: "):
            capture = False
        if capture:
            out.append(line)
    return b"\n".join(out).rstrip(b"\n")


def cap_findings(findings: bytes) -> tuple[bytes, bool]:
    """The 200-line / 20000-byte cap and its marker, as the agents apply it."""
    nlines = findings.count(b"\n") + 1 if findings else 0
    if len(findings) <= FINDINGS_MAX_BYTES and nlines <= FINDINGS_MAX_LINES:
        return findings, False
    kept = b"\n".join(findings.split(b"\n")[:FINDINGS_MAX_LINES]).rstrip(b"\n")
    if len(kept) > FINDINGS_MAX_BYTES:
        cut = kept[:FINDINGS_MAX_BYTES]
        # sed '$d' drops the last line, complete or not; $(...) strips newlines
        body = cut[:-1] if cut.endswith(b"\n") else cut
        nl = body.rfind(b"\n")
        kept = body[:nl].rstrip(b"\n") if nl >= 0 else b""
    return kept + b"\n" + TRUNCATED_MARKER, True


def escape_sentinels(findings: bytes) -> bytes:
    """Whole-line ``findings_block_begin``/``_end`` get the ``[ESCAPED] `` prefix."""
    if BEGIN not in findings and END not in findings:
        return findings
    return b"\n".join(
        ESCAPED + ln if ln in (BEGIN, END) else ln for ln in findings.split(b"\n")
    )


def fallback_summary(data: bytes, hardened: bool) -> bytes:
    """First 2000 bytes, newlines to spaces, space runs collapsed, first 1500 bytes."""
    flat = re.sub(rb" {2,}", b" ", head(data, FALLBACK_HEAD, hardened).replace(b"\n", b" "))
    return head(flat, FALLBACK_CAP, hardened)


def parse_layer1(data: bytes, *, hardened: bool = False) -> Layer1:
    """A reviewer's redacted text answer -> the agent's parsed fields."""
    data = strip_ingest(data)
    lines = lines_of(data)
    verdict = head(first_field(lines, b"Verdict: ") or b"", VERDICT_CAP, hardened)
    confidence = head(first_field(lines, b"Confidence: ") or b"", CONFIDENCE_CAP, hardened)
    summary = head(first_field(lines, b"Summary: ") or b"", SUMMARY_CAP, hardened)
    findings, truncated = cap_findings(capture_findings(lines))
    findings = escape_sentinels(findings)
    result = Layer1(verdict, confidence, summary, findings, truncated=truncated)
    if not verdict:
        result.warnings.append(NO_VERDICT_WARNING)
        result.verdict, result.confidence, result.findings = b"UNKNOWN", b"LOW", b""
        result.summary = fallback_summary(data, hardened)
        result.fallback = True
        result.truncated = False
    allowed = VOTES if hardened else VERDICTS
    if text(result.verdict) not in allowed:
        if hardened and result.verdict != b"UNKNOWN" and not result.fallback:
            result.warnings.append("verdict is not APPROVE, REVISE or REJECT \u2014 marked UNKNOWN")
        result.verdict, result.confidence = b"UNKNOWN", b"LOW"
    return result


def layer2_return(result: Layer1, fenced_path: bytes = b"") -> bytes:
    """The agent's 6-key return, exactly as its printf lines write it."""
    return (
        b"verdict=" + result.verdict + b"\n"
        + b"confidence=" + result.confidence + b"\n"
        + b"summary=" + result.summary + b"\n"
        + b"fenced_output_path=" + fenced_path + b"\n"
        + BEGIN + b"\n" + result.findings + b"\n" + END + b"\n"
    )


# --------------------------------------------------------------------------- #
# Layer 2: parse_reviewer_return
# --------------------------------------------------------------------------- #
@dataclass
class Layer2:
    verdict: bytes
    confidence: bytes
    summary: bytes
    fenced_path: bytes
    findings: bytes
    warnings: list[str] = field(default_factory=list)


def _regions(lines: list[bytes]) -> list[bytes]:
    out: list[bytes] = []
    flag = False
    for line in lines:
        if line == BEGIN:
            flag = True
            continue
        if line == END:
            flag = False
        if flag:
            out.append(line)
    return out


def parse_layer2(data: bytes, *, hardened: bool = False) -> Layer2:
    """Parse a 6-key return the way the orchestrator does, then coerce blank/enum values.

    ``hardened`` reads keys only before the first ``findings_block_begin``, takes
    only the first findings region, and re-applies the summary and findings caps.
    """
    lines = lines_of(data)
    key_lines = lines
    if hardened and BEGIN in lines:
        key_lines = lines[: lines.index(BEGIN)]

    def key(name: bytes) -> bytes:
        return first_field(key_lines, name + b"=") or b""

    verdict, confidence = key(b"verdict"), key(b"confidence")
    summary, path = key(b"summary"), key(b"fenced_output_path")
    if hardened:
        start = lines.index(BEGIN) + 1 if BEGIN in lines else len(lines)
        stop = lines.index(END, start) if END in lines[start:] else len(lines)
        body = lines[start:stop]
        summary = utf8_cut(summary, SUMMARY_CAP)
        findings = escape_sentinels(cap_findings(b"\n".join(body).rstrip(b"\n"))[0])
    else:
        findings = b"\n".join(_regions(lines)).rstrip(b"\n")
    result = Layer2(verdict, confidence, summary, path, findings)
    if not verdict:
        result.warnings.append("returned no parseable verdict= line \u2014 recording ERROR")
        result.verdict = b"ERROR"
    elif text(verdict) not in VERDICTS:
        result.warnings.append("returned a non-enum verdict \u2014 recording UNKNOWN")
        result.verdict = b"UNKNOWN"
    if text(result.confidence) not in CONFIDENCES:
        result.confidence = b"N/A"
    return result


def coerce_confidence(value: bytes) -> bytes:
    """The orchestrator's rule: anything but HIGH/MEDIUM/LOW/N/A becomes N/A."""
    return value if text(value) in CONFIDENCES else b"N/A"


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
    warnings: list[str], origin: str,
) -> dict[str, Any]:
    """The parse-verdict fields, in their documented order."""
    return {
        "verdict": text(verdict),
        "confidence": text(confidence),
        "summary": text(summary),
        "findings": structured_findings(findings, origin),
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
