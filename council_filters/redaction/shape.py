"""Redaction that keeps a pack's shape: only the credential is replaced.

The reviewers read the pack; the whole-line redaction (``--- redacted
credential at line N ---``) that suits a log breaks a pack: the diff's ``+``
goes (the hunk no longer adds up), the variable name goes (the reviewer can
no longer report the hardcoded key) and "line N" counts the pack's lines.
Here the rule engine decides *which* lines hold a credential (its public
:func:`council_filters.redaction.secrets.scan`, or the eleven patterns alone), and on
each such line only the credential's span becomes a typed placeholder,
``‹redacted:aws-access-key-id›``:

* the line's frame stays: a numbered pack's gutter (``  12 |``) and a diff
  line's ``+``/``-``/`` `` prefix;
* identifiers, quotes and the rest of the line stay;
* a private key's body lines become one placeholder line each (same line
  count); its BEGIN/END marker lines stay;
* a line where no span can be pinned down keeps its frame and what names the
  value (``password:``) and loses the rest;
* the result is scanned again, and any line still holding a credential is
  cut down to its frame and a placeholder: nothing the whole-line redaction
  would catch gets through.

Lines ``keep`` accepts (the ingest token line) are never touched.  Pure
functions over bytes; no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from council_filters.redaction.patterns import CREDENTIAL_PATTERNS, PEM_PATTERN

if TYPE_CHECKING:
    from council_filters.redaction.secrets import RuleSet

OPEN, CLOSE = "\u2039", "\u203a"  # ‹ ›
PLACEHOLDER_RE = re.compile(
    ("\u2039redacted:[a-z0-9][a-z0-9._-]*\u203a").encode()
)
# The eleven patterns' names where the extended set names the same credential.
_TYPE_NAMES = {"aws-access-key": "aws-access-key-id", PEM_PATTERN: "private-key"}
# The eleven, each matching its whole credential run (not just the minimum).
_ELEVEN = {
    p.name: re.compile(p.prefix + p.char_class + b"{%d,}" % p.tail_len)
    for p in CREDENTIAL_PATTERNS
}
_GUTTER = re.compile(rb" *[0-9]* \|")  # a numbered pack's `  12 |`
_FENCE = re.compile(rb"(`{3,})(\S*)[ \t]*\Z")
_MARKERS = re.compile(
    rb"(-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----)(.*?)(-----END [A-Z0-9 ]*PRIVATE KEY-----|\Z)"
)
_KEY_PART = re.compile(rb"""[ \t]*(?:-[ \t]+)?["']?[A-Za-z_][\w.-]*["']?[ \t]*[:=]+[ \t]*""")
_BASE64_RUN = re.compile(rb"[A-Za-z0-9+/=]{16,}")
_MAX_PASSES = 6


def placeholder(rule_id: str) -> bytes:
    """``‹redacted:TYPE›`` for a rule id (the eleven's names mapped to the extended set's)."""
    kind = _TYPE_NAMES.get(rule_id, rule_id)
    kind = re.sub(r"[^a-z0-9._-]+", "-", kind.lower()).strip("-") or "credential"
    return f"{OPEN}redacted:{kind}{CLOSE}".encode()


def _frames(lines: list[bytes]) -> list[int]:
    """How many leading bytes of each line are the pack's frame (gutter, diff prefix)."""
    out = []
    fence: bytes | None = None
    in_diff = False
    for line in lines:
        m = _FENCE.match(line)
        if m:
            if fence is None:
                fence, in_diff = m.group(1), m.group(2) == b"diff"
            elif m.group(1) == fence and not m.group(2):
                fence, in_diff = None, False
            out.append(0)
            continue
        n = 0
        g = _GUTTER.match(line)
        if g:
            n = g.end()
        if (g or in_diff) and line[n:n + 1] in (b"+", b"-", b" "):
            n += 1
        out.append(n)
    return out


def _secret_spans(rule: Any, line: bytes) -> list[tuple[int, int]]:
    """Byte spans of the secrets ``rule`` accepts on ``line`` (may over-cover)."""
    return list(rule.secret_spans(line))


class _Rules:
    """The one question the engine answers here: which rule (if any) fires on a line."""

    def __init__(self, rules: RuleSet | None) -> None:
        self.rules = rules
        self.by_id = {r.id: r for r in (rules.rules if rules is not None else ())}

    def eleven(self, line: bytes) -> str | None:
        return next((name for name, rx in _ELEVEN.items() if rx.search(line)), None)

    def line_rule(self, line: bytes) -> str | None:
        rid = self.eleven(line)
        if rid is None and self.rules is not None:
            rid = self.rules.line_rule(line)
        return rid

    def spans(self, rule_id: str, line: bytes) -> list[tuple[int, int]]:
        rx = _ELEVEN.get(rule_id)
        if rx is not None:
            return [m.span() for m in rx.finditer(line)]
        rule = self.by_id.get(rule_id)
        return _secret_spans(rule, line) if rule is not None else []


def _replace(line: bytes, spans: list[tuple[int, int]], frame: int, token: bytes) -> bytes:
    spans = sorted((max(a, frame), b) for a, b in spans if b > frame)
    out, pos = [], 0
    for a, b in spans:
        if a < pos:
            a = pos
        if b <= a:
            continue
        out += [line[pos:a], token]
        pos = b
    out.append(line[pos:])
    return b"".join(out)


def _cut_value(line: bytes, frame: int, token: bytes) -> bytes:
    """The frame, what names the value (``password =``), then the placeholder."""
    m = _KEY_PART.match(line, frame)
    keep = m.end() if m and m.end() < len(line) else frame
    return line[:keep] + token


def _pem_line(line: bytes, frame: int, token: bytes) -> bytes:
    """A private key's line: markers stay, whatever lies between them (or after BEGIN)
    becomes the placeholder; a body line becomes frame + placeholder."""
    if b"PRIVATE KEY-----" in line:
        def inner(m: re.Match[bytes]) -> bytes:
            body = m.group(2)
            shown = token if body.strip(b" \t\\n\"'") else body
            return m.group(1) + shown + m.group(3)

        out = _MARKERS.sub(inner, line)
        if out != line or not _BASE64_RUN.search(line[frame:]):
            return out
    return line[:frame] + token


def _line(engine: _Rules, line: bytes, frame: int, rule_id: str) -> bytes:
    """One flagged line with each credential span replaced (the fallback: the value cut)."""
    if rule_id == PEM_PATTERN:
        return _pem_line(line, frame, placeholder(rule_id))
    current, rid = line, rule_id
    for _ in range(_MAX_PASSES):
        spans = engine.spans(rid, current)
        if not spans:
            break
        current = _replace(current, spans, frame, placeholder(rid))
        nxt = engine.line_rule(current[frame:])
        if nxt is None:
            return current
        rid = nxt
    return _cut_value(current if current != line else line, frame, placeholder(rid))


def _flagged(data: bytes, rules: RuleSet | None) -> dict[int, str]:
    """``{line index: rule id}`` of what the engine redacts in ``data``."""
    if rules is None:
        from council_filters.redaction.machine import Redactor

        r = Redactor(record_lines=True)  # the default redaction's lines, at its speed
        r.feed(data)
        r.finish()
        if not r.redacted:
            return {}
        lines = data.split(b"\n")
        eleven = _Rules(None).eleven
        return {n - 1: eleven(lines[n - 1]) or PEM_PATTERN for n in r.redacted
                if n - 1 < len(lines)}
    from council_filters.redaction.secrets import scan

    return {f.line - 1: f.rule_id for f in scan(data, rules)}


def _pem_clean(line: bytes) -> bool:
    """A PEM-flagged line that shows no key material (markers, placeholders, blanks)."""
    rest = _MARKERS.sub(b"", PLACEHOLDER_RE.sub(b"", line))
    return _BASE64_RUN.search(rest) is None


def redact_shape(
    data: bytes, rules: RuleSet | None = None, keep: Callable[[bytes], bool] | None = None
) -> tuple[bytes, list[int]]:
    """``data`` with each credential replaced in place; the 1-based numbers of changed lines.

    ``rules`` None: the eleven patterns and the private-key blocks of the
    default redaction; else the rule set's verdicts (``--rules``).  A line
    ``keep(line)`` accepts is left as it is.
    """
    flagged = _flagged(data, rules)
    if not flagged:
        return data, []
    lines = data.split(b"\n")
    frames = _frames(lines)
    engine = _Rules(rules)
    changed: set[int] = set()
    for i, rid in sorted(flagged.items()):
        if i >= len(lines) or (keep is not None and keep(lines[i])):
            continue
        new = _line(engine, lines[i], frames[i], rid)
        if new != lines[i]:
            lines[i] = new
            changed.add(i)
    out = b"\n".join(lines)
    # The net: whatever still reads as a credential is cut to its frame.
    for _ in range(2):
        again = {
            i: rid for i, rid in _flagged(out, rules).items()
            if i < len(lines) and not (keep is not None and keep(lines[i]))
            and not (rid == PEM_PATTERN and _pem_clean(lines[i]))
        }
        if not again:
            break
        for i, rid in again.items():
            lines[i] = lines[i][: frames[i]] + placeholder(rid)
            changed.add(i)
        out = b"\n".join(lines)
    return out, sorted(n + 1 for n in changed)
