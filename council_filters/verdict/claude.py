"""The claude-only integrity branch of ``parse_reviewer_return`` (opt-in, given the
path the run minted): the branch decisions and the fence-scoped parse.

The file work (stat, chmod, in-place redaction, truncation) is injected by the
caller (:mod:`council_filters.verdict.fenced_file`).  Nothing here raises on
any input bytes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from council_filters.base.bytesops import lines_of, utf8_cut
from council_filters.base.vocab import (
    CONTROL_RE,
    VOTES,
)
from council_filters.redaction import machine as redaction
from council_filters.verdict.layers import SUMMARY_CAP, Layer2, cap_findings, escape_sentinels, text

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
