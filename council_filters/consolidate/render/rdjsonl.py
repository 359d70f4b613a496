"""reviewdog's diagnostic format, one ``Diagnostic`` per line (``-f=rdjsonl``).

``source.name`` is set (``council/<origin>``), the finding ID goes in
``code.value``, severities map critical -> ERROR, medium -> WARNING, minor ->
INFO (none -> WARNING).  Ranges are line-wise unless the finding carries a
``column`` (counted in characters, 1-based) and the anchored line is
readable, in which case it is converted to reviewdog's UTF-8 byte column.
Every line stays under 64 KiB: an over-long message is cut (on a character
boundary) and marked.  The other places a finding is cited at (``related``)
are named in the message (``Also at: b.py:22, c.py:31.``) and given as
``related_locations`` (places inside the repository).

A finding that carries replacement code -- a ``replacement`` field, or a
```` ```suggestion ```` block in its discussion (GitHub's convention) -- gets
one line-based ``suggestions`` entry: the text replaces its lines ``line`` to
``end_line`` (the location then covers exactly those lines, as reviewdog's
github-pr-review requires of a suggestion).
"""

from __future__ import annotations

import re
from typing import Any

import orjson

from council_filters.base.paths import repo_path
from council_filters.consolidate import evidence
from council_filters.consolidate.finding import (
    Consolidated,
    SourceReader,
    members_text,
    related_text,
)
from council_filters.consolidate.render import mdquote

SEVERITY = {"critical": "ERROR", "medium": "WARNING", "minor": "INFO"}
MAX_LINE_BYTES = 60_000  # reviewdog reads lines with a 64 KiB scanner
TRUNCATED = "\n\n[... message truncated ...]"


def byte_column(text: str | None, column: object) -> int | None:
    """A 1-based character column as a 1-based UTF-8 byte column (None if unknown)."""
    if text is None or not isinstance(column, int) or isinstance(column, bool) or column < 1:
        return None
    if column - 1 > len(text):
        return None
    return len(text[: column - 1].encode("utf-8")) + 1


def _inert(text: str) -> str:
    """Reviewer text as reviewdog posts it (markdown in a pull-request comment): no raw
    HTML, no live link, image or @mention."""
    return mdquote.inert_markup(text.replace("<", "&lt;"))


def message(c: Consolidated) -> str:
    s = c.survivor
    parts = [_inert(" ".join(s.title.split()))]
    disc = s.raw.get("discussion")
    if isinstance(disc, str) and disc.strip():
        parts.append(_inert(disc.strip()))
    also = related_text(c)
    if also is not None:
        parts.append(_inert(also))
    if c.listed:
        if len(c.members) > 1:
            parts.append(members_text(c))
        return "\n\n".join(parts)
    others = [o for o in c.origins if o != s.origin]
    if others:
        parts.append("Also raised by: " + ", ".join(others) + ".")
    return "\n\n".join(parts)


# A ```suggestion (or ~~~suggestion) block: the body is every line up to a closing fence
# of the same character, at least as long.
_SUGGESTION = re.compile(
    r"^[ \t]*(?P<fence>`{3,}|~{3,})[ \t]*suggestion[ \t]*\r?\n(?P<body>.*?)"
    r"^[ \t]*(?P=fence)[`~]*[ \t]*$",
    re.M | re.S,
)


def replacement(c: Consolidated) -> str | None:
    """The code a reviewer gave to replace the finding's lines, when it gave any."""
    raw = c.survivor.raw
    given = raw.get("replacement")
    if isinstance(given, str):
        return given
    disc = raw.get("discussion")
    if isinstance(disc, str):
        m = _SUGGESTION.search(disc)
        if m is not None:
            return m.group("body")
    return None


def suggestion_range(c: Consolidated) -> dict[str, Any] | None:
    """The lines a suggestion replaces: ``line`` to ``end_line`` (None without a line)."""
    s = c.survivor
    if not s.file or not s.line:
        return None
    end = s.raw.get("end_line")
    last = end if isinstance(end, int) and not isinstance(end, bool) and end >= s.line else s.line
    return {"start": {"line": s.line}, "end": {"line": last}}


REPOSITORY = "."  # the location of a finding that names no file inside the repository


def related_locations(c: Consolidated) -> list[dict[str, Any]]:
    """The other places the finding is cited at, as reviewdog's ``related_locations``."""
    out = []
    for p in c.related:
        inside = repo_path(p.file)
        if inside is None:
            continue
        location: dict[str, Any] = {"path": inside}
        if p.line:
            rng: dict[str, Any] = {"start": {"line": p.line}}
            if p.end_line and p.end_line > p.line:
                rng["end"] = {"line": p.end_line}
            location["range"] = rng
        out.append({"message": "also at " + p.text(), "location": location})
    return out


def diagnostic(c: Consolidated, reader: SourceReader) -> dict[str, Any]:
    s = c.survivor
    inside = repo_path(s.file) if s.file else None
    location: dict[str, Any] = {"path": inside}
    if inside is None:
        # No file, or one outside the repository: the finding stays, placed on the
        # repository itself (".", no line) -- reviewdog's format requires a location.
        return {
            "message": message(c),
            "location": {"path": REPOSITORY},
            "severity": SEVERITY.get(c.severity or "", "WARNING"),
            "source": {"name": f"council/{s.origin}"},
            "code": {"value": c.id},
        }
    assert s.file is not None  # a path inside the repository was named
    quoted = _quote_range(c, reader)
    if quoted is not None:
        location["range"] = quoted
    elif s.line:
        text = reader.line(s.file, s.line)
        start: dict[str, Any] = {"line": s.line}
        col = byte_column(text, s.raw.get("column"))
        if col is not None:
            start["column"] = col
        rng: dict[str, Any] = {"start": start}
        end_line = s.raw.get("end_line")
        end_col = s.raw.get("end_column")
        if isinstance(end_line, int) and not isinstance(end_line, bool) and end_line >= s.line:
            end: dict[str, Any] = {"line": end_line}
            ecol = byte_column(reader.line(s.file, end_line), end_col)
            if ecol is not None and col is not None:
                end["column"] = ecol
            rng["end"] = end
        location["range"] = rng
    out: dict[str, Any] = {
        "message": message(c),
        "location": location,
        "severity": SEVERITY.get(c.severity or "", "WARNING"),
        "source": {"name": f"council/{s.origin}"},
        "code": {"value": c.id},
    }
    related = related_locations(c)
    if related:
        out["related_locations"] = related
    text = replacement(c)
    lines = suggestion_range(c) if text is not None else None
    if text is not None and lines is not None:
        location["range"] = lines
        body = text[:-1] if text.endswith("\n") else text
        out["suggestions"] = [{"range": lines, "text": body.replace("\r\n", "\n")}]
        # The block is the suggestion now: left in the message, GitHub would show it twice.
        out["message"] = _SUGGESTION.sub("", out["message"]).rstrip() or out["message"]
    return out


def _quote_range(c: Consolidated, reader: SourceReader) -> dict[str, Any] | None:
    """The range of the quote itself, in reviewdog's UTF-8 byte columns, when the
    evidence check placed it (verified or re-anchored) and its columns are known."""
    s = c.survivor
    ev = s.evidence
    if ev is None or ev.columns is None or ev.line is None or s.file is None:
        return None
    if ev.status not in (evidence.VERIFIED, evidence.REANCHORED):
        return None
    last = ev.end_line or ev.line
    start = byte_column(reader.line(s.file, ev.line), ev.columns[0])
    end = byte_column(reader.line(s.file, last), ev.columns[1])
    if start is None or end is None:
        return None
    return {"start": {"line": ev.line, "column": start}, "end": {"line": last, "column": end}}


def line(c: Consolidated, reader: SourceReader) -> bytes:
    """One rdjsonl line (``\\n``-terminated), always under 64 KiB."""
    diag = diagnostic(c, reader)
    raw = orjson.dumps(diag)
    if len(raw) < MAX_LINE_BYTES:
        return raw + b"\n"
    msg = diag["message"]
    overflow = len(raw) - MAX_LINE_BYTES + len(TRUNCATED.encode()) + 16
    cut = msg.encode("utf-8")[: max(0, len(msg.encode("utf-8")) - overflow)]
    diag["message"] = cut.decode("utf-8", "ignore") + TRUNCATED
    raw = orjson.dumps(diag)
    if len(raw) >= MAX_LINE_BYTES:  # a huge path: nothing sensible left to send
        diag["message"] = TRUNCATED.strip()
        raw = orjson.dumps(diag)
    return raw + b"\n"
