"""Slow, literal readings of the redaction rules, for tests to check the fast paths against."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from council_filters.redaction.machine import Redactor

_WS = rb"[ \t\n\v\f\r]"

#: Broad searches: every line that can change while no PEM block or window is
#: open holds a match of one of these (checked against the exact machine).
_SCANS = tuple(
    re.compile(p)
    for p in (
        rb"sk-[A-Za-z0-9_-]{20}",
        rb"AIza[0-9A-Za-z_-]{35}|AKIA[0-9A-Z]{16}|Authorization: [A-Za-z0-9 ._~+/-]{20}",
        rb"gh[pous]_[A-Za-z0-9]{36}|ses_[A-Za-z0-9]{16}|github_pat_[A-Za-z0-9_]{40}",
        rb"Bearer [A-Za-z0-9._~+/-]{20}|-----BEGIN [A-Z ]*PRIVATE KEY-----",
    )
)


def may_change(line: bytes) -> bool:
    """Whether a line could be redacted while no PEM block or window is open."""
    return any(rx.search(line) for rx in _SCANS)


def strip_decoration_reference(line: bytes) -> tuple[bytes, bool]:
    """Decoration stripping written the slow, copying way, round by round.

    Quadratic on long marker runs; a literal reading of the reference's loop.
    """
    s = line
    limit = len(s) + 2
    guard = 0
    ws = _WS
    while True:
        prev = s
        s = re.sub(rb"\A" + ws + rb"*(?:[>|]" + ws + rb"*)*", b"", s, count=1)
        s = re.sub(rb"\A(?:[-*+]|[0-9]+[.)])" + ws + rb"+", b"", s, count=1)
        s = re.sub(rb"\A[0-9]+" + ws + rb"*\|" + ws + rb"*", b"", s, count=1)
        s = re.sub(rb"\A\++", b"", s, count=1)
        if s.startswith(b"------"):
            s = re.sub(rb"\A-+", b"-----", s, count=1)
        if not (s.startswith(b"-----BEGIN") or s.startswith(b"-----END")):
            s = re.sub(rb"\A[-+]", b"", s, count=1)
        s = re.sub(rb"\A" + ws + rb"+", b"", s, count=1)
        guard += 1
        if s == prev or guard >= limit:
            break
    exhausted = s != prev
    s = re.sub(ws + rb"+\Z", b"", s, count=1)
    return s, exhausted


def redact_lines(lines: Iterable[bytes], redactor: Redactor | None = None) -> Iterator[bytes]:
    """One line at a time through :meth:`Redactor.line` (lines without terminators)."""
    r = redactor if redactor is not None else Redactor()
    for line in lines:
        yield r.line(line)


def redact_simple(data: bytes) -> bytes:
    """Whole-document redaction through the per-line path only (no prefilter, no skipping)."""
    if not data:
        return b""
    lines = data.split(b"\n")
    if data.endswith(b"\n"):
        lines.pop()
    return b"".join(line + b"\n" for line in redact_lines(lines))
