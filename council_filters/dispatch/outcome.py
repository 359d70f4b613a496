"""Classifying how a reviewer command ended, and the excerpts its summary may show.

A core over bytes: :func:`classify` turns a finished :class:`~.process.Run`
into the fields council-dispatch adds.  Exit codes per the upstream table:
0 OK (after the ingest token check), 124/137 and 128+N TIMEOUT, 125 ERROR,
126/127 UNAVAILABLE, anything else ERROR with a keyword kind from stderr
(auth, rate-limit, invalid-request, cli-error).  Every stderr excerpt that
reaches a summary is redacted first.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import orjson

from council_filters.base.bytesops import utf8_cut
from council_filters.base.vocab import INGEST_PREFIX, RUN_STATUSES, display_name
from council_filters.dispatch.config import Command
from council_filters.dispatch.process import Limits, Run
from council_filters.redaction import shown

OK, TIMEOUT, ERROR, UNAVAILABLE = STATUSES = RUN_STATUSES
PEEK_LINES = 3
PEEK_BYTES = 200
# Keyword kinds, tested in order, case-insensitively, on the stderr excerpt.
KINDS: tuple[tuple[str, re.Pattern[bytes]], ...] = (
    ("auth", re.compile(rb"auth|unauthor|api[ -]?key|credentials", re.I)),
    ("rate-limit", re.compile(rb"rate.?limit|quota|429", re.I)),
    ("invalid-request", re.compile(rb"invalid|bad.?request|400", re.I)),
)
CLI_NAMES = {"gemini": "agy"}  # how the ingest summary names a slot's CLI


@dataclass
class Result:
    output: str = ""
    stderr: str = ""
    exit_code: int | None = None
    status: str = OK
    duration_ms: int = 0
    summary: str | None = None
    error_kind: str | None = None
    timeout_s: int | None = None
    capped: list[str] = field(default_factory=list)
    abandoned: bool = False
    #: What the CLI reported it used (see :mod:`.usage`), None when it said nothing.
    usage: dict[str, Any] | None = None
    #: Answered from the response cache: no CLI was started.
    cached: bool = False

    def fields(self) -> dict[str, Any]:
        extra = {"timeout_s": self.timeout_s} if self.timeout_s is not None else {}
        return {
            "output": self.output,
            "stderr": self.stderr,
            "exit_code": self.exit_code,
            "status": self.status,
            "duration_ms": self.duration_ms,
            "summary": self.summary,
            "error_kind": self.error_kind,
            **extra,
            "usage": self.usage,
            "cached": self.cached,
        }


# --------------------------------------------------------------------------- #
# Redaction of excerpts that reach a summary.
# --------------------------------------------------------------------------- #
def redact_excerpt(data: bytes) -> bytes:
    """``data`` through the shared redaction of shown text (the extended rules when
    installed; fresh state, lines from 1)."""
    return shown.redact(data)[0]


def peek(stderr: bytes) -> bytes:
    """The first 3 lines of stderr, newlines as spaces, at most 200 bytes (unredacted)."""
    lines = stderr.split(b"\n")[:PEEK_LINES]
    return b" ".join(lines)[:PEEK_BYTES]


def safe_excerpt(stderr: bytes) -> str:
    """The summary excerpt: the first 3 lines redacted, then flattened and cut UTF-8-safely."""
    head = b"\n".join(stderr.split(b"\n")[:PEEK_LINES])
    flat = redact_excerpt(head).rstrip(b"\n").replace(b"\n", b" ")
    return _cut_text(flat, PEEK_BYTES)


def _cut_text(data: bytes, cap: int) -> str:
    """``data`` as text (invalid UTF-8 replaced) cut to at most ``cap`` UTF-8 bytes."""
    return utf8_cut(data.decode("utf-8", "replace").encode(), cap).decode()


def error_kind(text: bytes) -> str:
    for kind, pattern in KINDS:
        if pattern.search(text):
            return kind
    return "cli-error"


# --------------------------------------------------------------------------- #
# OpenCode's `--format json` event stream.
# --------------------------------------------------------------------------- #
@dataclass(frozen=True)
class Events:
    text: bytes
    error: str | None


def read_opencode_events(raw: bytes) -> Events:
    """Text events joined one per line (as ``jq -r`` prints them), the first error message.

    Reading stops at the first line that is not JSON, as jq does; NULs are
    deleted and trailing newlines dropped, as the upstream capture does.
    """
    texts: list[bytes] = []
    error: str | None = None
    for line in raw.split(b"\n"):
        if not line.strip():
            continue
        try:
            event = orjson.loads(line)
        except orjson.JSONDecodeError:
            break
        if not isinstance(event, dict):
            continue
        if event.get("type") == "text":
            part = event.get("part")
            text = part.get("text") if isinstance(part, dict) else None
            if isinstance(text, str):
                texts.append(text.encode("utf-8", "replace") + b"\n")
            elif text is None:
                texts.append(b"null\n")
        elif event.get("type") == "error" and error is None:
            error = _event_error(event.get("error"))
    joined = b"".join(texts).replace(b"\0", b"").rstrip(b"\n")
    return Events(joined, error)


def _event_error(err: object) -> str:
    if isinstance(err, dict):
        data = err.get("data")
        if isinstance(data, dict) and data.get("message") not in (None, False):
            return str(data["message"])
        if err.get("name") not in (None, False):
            return str(err["name"])
    return "unknown"


def classify(
    reviewer: str, command: Command, run: Run, token: str | None, limits: Limits
) -> Result:
    name = display_name(reviewer)
    events = read_opencode_events(run.stdout) if command.adapter == "opencode-json" else None
    output = events.text if events is not None else run.stdout
    res = Result(
        output=output.decode("utf-8", "replace"),
        stderr=run.stderr.decode("utf-8", "replace"),
        duration_ms=run.duration_ms,
        capped=run.capped,
        abandoned=run.abandoned,
    )
    code = run.returncode
    if code < 0:
        code = 128 - code  # killed by signal N -> 128+N, as a shell reports it
    if run.timed_out:
        code = 137 if run.killed else 124
    res.exit_code = code
    missed = f"Council ran without {name}'s verdict."
    if run.timed_out or code in (124, 137):
        res.status, res.error_kind = TIMEOUT, "timeout"
        res.summary = f"{name} timed out at {limits.timeout}s. {missed}"
        res.timeout_s = int(limits.timeout)
    elif code in (126, 127):
        res.status = UNAVAILABLE
        res.error_kind = "not-executable" if code == 126 else "not-found"
        res.summary = f"{name} command failed to execute (exit {code})."
    elif code > 128:
        res.status, res.error_kind = TIMEOUT, "signal"
        res.summary = f"{name} was killed by signal {code - 128} (exit {code}). {missed}"
    elif code == 125:
        res.status, res.error_kind = ERROR, "timeout-utility"
        res.summary = (
            f"{name} timeout wrapper failed (exit 125). Excerpt: {safe_excerpt(run.stderr)}"
        )
    elif code != 0:
        res.status = ERROR
        if events is not None and events.error is not None:
            res.error_kind, res.summary = _event_error_summary(name, events.error)
        else:
            res.error_kind = error_kind(peek(run.stderr))
            res.summary = (
                f"{name} CLI error ({res.error_kind}, exit {code}). "
                f"Excerpt: {safe_excerpt(run.stderr)}"
            )
    elif token is not None and (INGEST_PREFIX + token).encode() not in run.stdout:
        res.status, res.error_kind = ERROR, "ingest"
        cli = CLI_NAMES.get(reviewer, name)
        res.summary = (
            f"Pack ingestion could not be verified ({cli} output lacks the ingest token) — "
            "verdict withheld rather than risk a review of unread input."
        )
    elif events is not None and not events.text:
        res.status = ERROR
        if events.error is not None:
            res.error_kind, res.summary = _event_error_summary(name, events.error)
        else:
            res.error_kind = "no-output"
            res.summary = f"{name} produced no assistant text."
    else:
        res.status = OK
    return res


def _event_error_summary(name: str, message: str) -> tuple[str, str]:
    """The kind and summary for an OpenCode error event (message redacted, then cut)."""
    raw = message.encode("utf-8", "replace")
    shown = _cut_text(redact_excerpt(raw).replace(b"\n", b" "), PEEK_BYTES)
    return error_kind(raw), f"{name} error: {shown}"
