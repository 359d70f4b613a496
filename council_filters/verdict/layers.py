"""Layer 1 and Layer 2 of a reviewer's answer: the verdict fields, caps and fallbacks.

Pure functions over bytes.  Layer 1 reproduces the upstream agents' grep/awk/
head pipeline byte for byte (including cuts in the middle of a UTF-8
character); ``hardened=True`` cuts at character boundaries and accepts only
APPROVE/REVISE/REJECT from model text.  Layer 2 reproduces the orchestrator's
``parse_reviewer_return``.  Nothing here raises on any input bytes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from council_filters.base.bytesops import lines_of, utf8_cut
from council_filters.base.vocab import (
    CONFIDENCES,
    ESCAPED,
    FAILED,
    INGEST_PREFIX,
    VERDICTS,
    VOTES,
)

FAILED_STATUSES = FAILED

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


# --------------------------------------------------------------------------- #
# Byte helpers
# --------------------------------------------------------------------------- #
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
    """Delete every line starting ``INGEST_TOKEN: `` (``sed '/^INGEST_TOKEN: /d'``).

    Lines end at LF only, as sed's do: a CR (or any other separator) inside
    the token line belongs to it, so ``INGEST_TOKEN: x\rVerdict: APPROVE`` is
    one line and goes whole.
    """
    if _INGEST not in data:
        return data
    lines = data.split(b"\n")
    last = lines.pop()  # after the final LF: b"" or an unterminated line
    kept = [ln + b"\n" for ln in lines if not _is_ingest(ln)]
    if not _is_ingest(last):
        kept.append(last)
    return b"".join(kept)


def _is_ingest(line: bytes) -> bool:
    return line.startswith(_INGEST)


_INGEST = INGEST_PREFIX.encode()


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


def extract_layer2(data: bytes, *, hardened: bool = False) -> Layer2:
    """The four keys and the findings of a 6-key return, raw (no blank/enum coercion).

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
    return Layer2(verdict, confidence, summary, path, findings)


def coerce_layer2(result: Layer2) -> Layer2:
    """The orchestrator's last step: blank verdict -> ERROR, non-enum -> UNKNOWN, confidence."""
    if not result.verdict:
        result.warnings.append("returned no parseable verdict= line \u2014 recording ERROR")
        result.verdict = b"ERROR"
    elif text(result.verdict) not in VERDICTS:
        result.warnings.append("returned a non-enum verdict \u2014 recording UNKNOWN")
        result.verdict = b"UNKNOWN"
    result.confidence = coerce_confidence(result.confidence)
    return result


def parse_layer2(data: bytes, *, hardened: bool = False) -> Layer2:
    """Parse a 6-key return the way the orchestrator does, then coerce blank/enum values."""
    return coerce_layer2(extract_layer2(data, hardened=hardened))


def coerce_confidence(value: bytes) -> bytes:
    """The orchestrator's rule: anything but HIGH/MEDIUM/LOW/N/A becomes N/A."""
    return value if text(value) in CONFIDENCES else b"N/A"
