"""Reviewer verdicts: Layer-1 text parsing, the Layer-2 6-key return, structured findings.

Pure functions over bytes.  Layer 1 reproduces the upstream agents' grep/awk/
head pipeline byte for byte (including cuts in the middle of a UTF-8
character); ``hardened=True`` cuts at character boundaries and accepts only
APPROVE/REVISE/REJECT from model text.  Layer 2 reproduces the orchestrator's
``parse_reviewer_return``, and (opt-in, given the path the run minted) its
claude-only integrity branch: the branch decisions and the fence-scoped parse
are here, the file work (stat, chmod, in-place redaction, truncation) is
injected by the caller (``council_filters.fenced_file``).  Nothing here raises
on any input bytes.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from council_filters import redaction, severity
from council_filters.base.bytesops import lines_of, utf8_cut
from council_filters.base.vocab import (
    CONFIDENCES,
    CONTROL_RE,
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
    """Delete every line starting ``INGEST_TOKEN: `` (``sed '/^INGEST_TOKEN: /d'``)."""
    if _INGEST not in data:
        return data
    kept = [ln for ln in data.splitlines(keepends=True) if not _is_ingest(ln)]
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


# --------------------------------------------------------------------------- #
# Layer 2, claude slot: the integrity branch (opt-in, needs the minted path)
# --------------------------------------------------------------------------- #
CLAUDE_FENCE_BEGIN = b"--- begin council-output:claude"
CLAUDE_FENCE_END = b"--- end council-output:claude"

CLAUDE_UNSANITIZED = "claude-reviewer output could not be sanitized; slot recorded as ERROR."
CLAUDE_FOREIGN_PATH = (
    "claude-reviewer returned a fenced path this run did not mint; output discarded."
)
CLAUDE_UNREADABLE = "claude-reviewer produced no readable fenced output; slot recorded as ERROR."
CLAUDE_NO_PATH = "claude-reviewer returned no fenced output path; slot recorded as ERROR."
CLAUDE_UNCORROBORATED = (
    "claude-reviewer returned a verdict its own output does not corroborate; "
    "slot recorded as ERROR."
)



@dataclass
class Sanitized:
    """What redacting the fenced file in place produced.

    ``content`` is the redacted file as installed, or None when it could not
    be installed (the file was then truncated and removed); ``messages`` are
    the failure diagnostics, in order.
    """

    content: bytes | None
    messages: list[str] = field(default_factory=list)


@dataclass
class ClaudeFenced:
    """The fields read from inside the claude fence of the (redacted) file.

    ``verdict``, ``confidence`` and ``summary`` are empty unless exactly one
    in-fence line carries them.
    """

    verdict: bytes
    confidence: bytes
    summary: bytes
    findings: bytes


def shown(value: bytes) -> str:
    """A reviewer-controlled value as a diagnostic may show it: redacted, controls escaped."""
    redacted, _ = redaction.redact_text(value)
    return CONTROL_RE.sub(lambda m: f"\\x{ord(m[0]):02x}", text(redacted))


def _redacted(value: bytes) -> bytes:
    """``printf '%s\\n' "$v" | awk "$redact_awk"`` captured by ``$(...)``."""
    return redaction.redact_text(value)[0].rstrip(b"\n")


def parse_claude_fenced(data: bytes) -> ClaudeFenced:
    """The fence-scoped reading of claude's file.

    In fence = after a line starting ``--- begin council-output:claude`` and
    before one starting ``--- end council-output:claude``; regions accumulate.
    Findings are the in-fence lines after a ``Findings:`` line, up to the fence
    end, cut before the LAST ``Summary: `` line; the buffer and that index run
    on across regions.
    """
    verdicts: list[bytes] = []
    confidences: list[bytes] = []
    summaries: list[bytes] = []
    buf: list[bytes] = []
    last = 0
    inside = capture = False
    for line in lines_of(data):
        if line.startswith(CLAUDE_FENCE_BEGIN):
            inside = True
            continue
        if inside and line.startswith(b"Findings:"):
            capture = True
            continue
        if line.startswith(CLAUDE_FENCE_END):
            inside = capture = False
        if inside:
            for prefix, found in ((b"Verdict: ", verdicts), (b"Confidence: ", confidences),
                                  (b"Summary: ", summaries)):
                if line.startswith(prefix):
                    found.append(line[len(prefix):])
        if capture:
            buf.append(line)
            if line.startswith(b"Summary: "):
                last = len(buf)

    def only(found: list[bytes]) -> bytes:
        return found[0] if len(found) == 1 else b""

    kept = buf[: last - 1] if last else buf
    return ClaudeFenced(only(verdicts), only(confidences), only(summaries),
                        b"\n".join(kept).rstrip(b"\n"))


def _fail_slot(result: Layer2, summary: str) -> Layer2:
    result.verdict, result.summary = b"ERROR", summary.encode()
    result.fenced_path, result.findings = b"", b""
    return result


def claude_path_branch(returned: bytes, minted: bytes, regular: Callable[[bytes], bool]) -> str:
    """Which arm the returned path takes: ``minted``, ``foreign``, ``unusable`` or ``empty``.

    ``regular(path)`` (a regular file, not a symlink) is asked only about the
    minted path.
    """
    if not returned:
        return "empty"
    if returned != minted:
        return "foreign"
    return "minted" if regular(returned) else "unusable"


def corroborate(result: Layer2, content: bytes, *, hardened: bool = False) -> Layer2:
    """Check the returned verdict against the file's and take the prose from the file."""
    fenced = parse_claude_fenced(content)
    if not fenced.verdict or fenced.verdict != result.verdict:
        result.warnings.append(
            f"returned verdict={shown(result.verdict)} but its fenced file says "
            f"{shown(fenced.verdict or b'<none>')} \u2014 failing the slot")
        return _fail_slot(result, CLAUDE_UNCORROBORATED)
    if fenced.confidence:
        result.confidence = fenced.confidence
    result.summary, result.findings = fenced.summary, fenced.findings
    if hardened:
        result.summary = utf8_cut(result.summary, SUMMARY_CAP)
        result.findings = escape_sentinels(cap_findings(result.findings)[0])
    return result


def claude_integrity(
    result: Layer2, minted: bytes, *, regular: Callable[[bytes], bool],
    sanitize: Callable[[bytes], Sanitized], hardened: bool = False,
) -> Layer2:
    """The claude-only branch of ``parse_reviewer_return`` on a raw (uncoerced) return.

    ``minted`` is the path this run minted for claude's fenced file.  The file
    work is injected: ``regular(path)`` tests for a regular non-symlink file,
    ``sanitize(path)`` restricts and redacts it in place.  Run
    :func:`coerce_layer2` afterwards.
    """
    result.summary, result.findings = _redacted(result.summary), _redacted(result.findings)
    path = result.fenced_path
    branch = claude_path_branch(path, minted, regular)
    if branch == "minted":
        done = sanitize(path)
        result.warnings.extend(done.messages)
        if done.content is None:
            return _fail_slot(result, CLAUDE_UNSANITIZED)
        return corroborate(result, done.content, hardened=hardened)
    if branch == "foreign":
        result.warnings.append(f"returned an unexpected fenced path ({shown(path)}) "
                               "\u2014 discarding it and failing the slot")
        return _fail_slot(result, CLAUDE_FOREIGN_PATH)
    if branch == "unusable":
        result.warnings.append(f"fenced path {shown(path)} is missing or not a regular file "
                               "\u2014 failing the slot")
        return _fail_slot(result, CLAUDE_UNREADABLE)
    if text(result.verdict) in VOTES:
        result.warnings.append(
            f"returned {text(result.verdict)} with no fenced output path \u2014 failing the slot")
        return _fail_slot(result, CLAUDE_NO_PATH)
    return result


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
