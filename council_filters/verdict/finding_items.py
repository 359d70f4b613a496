"""Findings as list items, headings, table rows or located plain lines (part of
the tolerant reading, see ``reading``); each finding keeps its own text.

Nothing here raises on any input.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from council_filters.base import severity
from council_filters.verdict.answer_lines import (
    _BULLET_MARK,
    _BULLET_RE,
    _HEADING_RE,
    _LEAD_JUNK,
    _unwrap,
    code_mask,
)
from council_filters.verdict.locations import (
    _FILE_ONLY,
    _SEV_EMOJI,
    _SEV_LEAD,
    _SEV_TAG,
    LINE_KEY_RE,
    LINE_KEYS,
    PLACE_KEY_RE,
    PLACE_KEYS,
    SEVERITY_KEY_RE,
    SEVERITY_KEYS,
    SEVERITY_WORD,
    Location,
    _pathlike,
    _put_location,
    _put_severity,
    _sev_only,
    clean_path,
    emoji_severity,
    find_location,
)

_FIELD_RE = re.compile(
    r"^\s*(?:[-*+]\s+)?[*_]*(?P<k>severity|priority|level|location|file|path|where|lines?|"
    r"evidence|finding|issue|problem|description|details?|title|" + PLACE_KEYS + r"|" + LINE_KEYS
    + r"|" + SEVERITY_KEYS + r")[*_]*\s*[:=\uff1a][*_]*\s*(?P<v>.*)$",
    re.I,
)
_NONE_RE = re.compile(
    r"^[\s*_`\-]*(?:none|n/?a|nothing(?:\s+\w+){0,4}|no\s+(?:issues?|findings?|problems?|concerns?|"
    r"blockers?|(?:further\s+)?change\s+requests?|changes?\s+(?:needed|required|requested))"
    r"(?:\s+[\w-]+)*)[.!]?[\s*_`]*$", re.I,
)


# --------------------------------------------------------------------------- #
# Findings
# --------------------------------------------------------------------------- #
@dataclass
class _Item:
    head: str
    indent: int
    sev: str | None  # from a group label above it
    rest: list[str] = field(default_factory=list)


def parse_findings(
    lines: list[str], mask: list[bool] | None = None, origin: str = "reviewer",
    *, located_only: bool = False,
) -> list[dict[str, Any]]:
    """Findings records from the lines of a findings section."""
    if mask is None:
        mask = code_mask(lines)
    items: list[_Item] = []
    table: list[dict[str, Any]] = []
    current: _Item | None = None
    group_sev: str | None = None
    group_indent = -2
    i = 0
    while i < len(lines):
        raw = lines[i]
        if mask[i]:
            i += 1
            continue
        s = raw.strip()
        if not s:
            i += 1
            continue
        if s.startswith("|") and i + 1 < len(lines) and re.match(r"^\s*\|?[\s:|-]+\|[\s:|-]*$",
                                                                  lines[i + 1]):
            j = i + 2
            rows: list[str] = []
            while j < len(lines) and lines[j].strip().startswith("|"):
                rows.append(lines[j])
                j += 1
            table += _table(s, rows, origin)
            current = None
            i = j
            continue
        indent = len(raw) - len(raw.lstrip())
        hm = _HEADING_RE.match(s)
        bm = _BULLET_RE.match(raw)
        if hm:
            text = hm.group(2)
            sev = _sev_only(text)
            if sev:
                group_sev, group_indent, current = sev, -1, None
            else:
                bh = _BULLET_RE.match(text)
                current = _Item(bh.group(2) if bh else text, -1, group_sev)
                items.append(current)
            i += 1
            continue
        if bm:
            text = bm.group(2)
            sev = _sev_only(text)
            if sev and (current is None or indent <= current.indent or current.indent < 0
                        and not current.rest):
                group_sev, group_indent, current = sev, indent, None
                i += 1
                continue
            starts = current is None or indent <= current.indent or (
                current.indent < 0 and indent == 0 and _starts_finding(text)
            )
            if group_indent >= 0 and indent <= group_indent and not sev:
                group_sev, group_indent = None, -2
            if starts:
                current = _Item(text, indent, group_sev)
                items.append(current)
            else:
                assert current is not None
                current.rest.append(s)
            i += 1
            continue
        if current is not None and (indent > 0 or not _starts_finding(s, located=True)):
            current.rest.append(s)
        elif _starts_finding(s):
            current = _Item(s, indent, group_sev)
            items.append(current)
        i += 1
    out = [r for it in items if (r := _finding(it, origin)) is not None]
    out += table
    if located_only:
        out = [r for r in out if r.get("file") and r.get("line")]
    return out


def _finding_heading(text: str) -> bool:
    """A heading that is a finding (or a severity group), not the next section."""
    t = text.strip()
    if re.match(r"^(?:\*\*)?(?:finding\s*)?#?\d{1,3}(?:[.):]|\*\*|\s)", t, re.I):
        return True
    return _starts_finding(t) or _sev_only(t) is not None or find_location(t) is not None


def _starts_finding(text: str, located: bool = False) -> bool:
    """A plain line that opens a finding: a location (or, unless ``located``, a severity
    tag) at its start."""
    if _FIELD_RE.match(text):
        return False
    t = _LEAD_JUNK.sub("", text).strip()
    t2 = _SEV_TAG.sub("", t, count=1).strip() if _SEV_TAG.match(t) else t
    lm = _SEV_LEAD.match(t2)
    if lm:
        t2 = t2[lm.end():]
    loc = find_location(t2[:300])
    if loc is not None and loc.start <= 3:
        return True
    return not located and bool(_SEV_TAG.match(t) or _SEV_LEAD.match(t))


def _strip_decor(text: str) -> str:
    t = text.replace("**", "").replace("__", " ").strip() if "**" in text else text.strip()
    t = re.sub(r"^[\s:\-\u2013\u2014|,;.]+", "", t)
    t = re.sub(r"[\s:\-\u2013\u2014|,;]+$", "", t)
    return t.strip()


def _finding(it: _Item, origin: str) -> dict[str, Any] | None:
    head = it.head.strip()
    if _NONE_RE.match(head) and not it.rest:
        return None
    sev_raw: str | None = None
    # severity: an emoji, a tag anywhere near the start, or a leading word
    junk = _LEAD_JUNK.match(head)
    if junk:
        for emoji in _SEV_EMOJI:
            if emoji in junk.group(0):
                sev_raw = emoji_severity(emoji)
        head = head[junk.end():]
    m = _SEV_TAG.search(head)
    if m and m.start() <= max(40, len(head) // 2) or m and m.end() >= len(head.rstrip()) - 1:
        sev_raw = m["a"] or m["b"] or m["c"] or m["d"]
        head = (head[: m.start()] + " " + head[m.end():]).strip()
    lead = 0
    if sev_raw is None or not m:
        lm = _SEV_LEAD.match(head)
        if lm:  # a leading "Nit:" is read; it stays part of the text unless a location follows
            sev_raw = lm["w"]
            lead = lm.end()
    head = head.strip()
    loc = find_location(head)
    body = head
    if loc is not None:
        before, after = head[: loc.start], head[loc.end:]
        if lead and loc.start >= lead and not before[lead:].strip(" `*_"):
            before = ""
        if re.search(r"[(\[]\s*$", before) and (re.match(r"\s*[)\]]", after)
                                                   or head[loc.end - 1: loc.end] == ")"):
            before = re.sub(r"[(\[]\s*$", "", before)
            after = re.sub(r"^\s*[)\]]", "", after)
        b = _strip_decor(before)
        a = _strip_decor(after)
        sw = re.fullmatch(r"[\W_]*(" + SEVERITY_WORD + r")[\W_]*", b, re.I) if b else None
        if sw:
            sev_raw = sev_raw or sw.group(1)
            b = ""
        if not b or re.fullmatch(r"[\W_]*(?:in|at|see)?[\W_]*", b, re.I):
            body = a
        elif not a or re.fullmatch(r"[\W_]*", a):
            body = re.sub(r"\s+(?:in|at|see)\s*$", "", b, flags=re.I)
        else:
            body = head  # the location sits mid-sentence: keep the sentence whole
    rest: list[str] = []
    evidence: str | None = None
    for ln in it.rest:
        fm = _FIELD_RE.match(ln)
        if fm:
            k, v = fm["k"].lower(), fm["v"].strip()
            k = "location" if PLACE_KEY_RE.match(k) else "line" if LINE_KEY_RE.match(k) else \
                "severity" if SEVERITY_KEY_RE.match(k) else k
            if k in ("severity", "priority", "level"):
                sv = re.search(SEVERITY_WORD, v, re.I)
                word = sv.group(0) if sv else severity.lead_severity(v)
                if word and sev_raw is None:
                    sev_raw = word
                    continue
            elif k in ("location", "file", "path", "where", "line", "lines") and loc is None:
                loc = find_location(v) or (
                    Location(clean_path(v)) if k in ("file", "path") and _pathlike(_unwrap(v))
                    else None)
                if loc is not None:
                    continue
            elif k == "evidence" and evidence is None:
                evidence = v.strip().strip('"')
                continue
            elif k in ("finding", "issue", "problem", "description", "details", "detail",
                       "title") and not _strip_decor(body):
                body = v
                continue
        if loc is None:
            loc = find_location(ln) if not rest and not body.strip() else None
            if loc is not None and not _strip_decor(ln[: loc.start] + ln[loc.end:]):
                continue
            loc = None if loc is None or loc.start > 3 else loc
        rest.append(ln)
    if loc is None and it.head:
        fm = _FILE_ONLY.match(it.head.strip())
        if fm and _pathlike(fm["p"]):
            loc = Location(clean_path(fm["p"]))
    summary = _strip_decor(body)
    if not summary and rest:
        summary = _strip_decor(rest.pop(0))
    if not summary:
        summary = _strip_decor(it.head) or it.head.strip()
    if not summary or (_NONE_RE.match(summary) and loc is None):
        return None
    rec: dict[str, Any] = {"kind": "finding", "origin": origin}
    _put_severity(rec, sev_raw if sev_raw is not None else it.sev)
    _put_location(rec, loc)
    rec["summary"] = summary
    if rest:
        rec["discussion"] = "\n".join(_BULLET_MARK.sub("", r).strip() for r in rest)
    if evidence:
        rec["evidence"] = evidence
    return rec


_COLUMNS = (
    ("file", ("file", "path", "location", "where", "file:line", "file/line")),
    ("line", ("line", "lines", "line(s)", "ln")),
    ("severity", ("severity", "priority", "level", "sev", "prio")),
    ("text", ("issue", "finding", "description", "problem", "summary", "title", "details",
              "comment", "message", "concern")),
)


def _table(header: str, rows: list[str], origin: str) -> list[dict[str, Any]]:
    cells = [_unwrap(c).lower() for c in header.strip().strip("|").split("|")]
    cols: dict[str, int] = {}
    for name, words in _COLUMNS:
        for idx, c in enumerate(cells):
            if c in words and name not in cols and idx not in cols.values():
                cols[name] = idx
    if "text" not in cols:
        cols["text"] = len(cells) - 1
    out: list[dict[str, Any]] = []
    for row in rows:
        vals = [c.strip() for c in row.strip().strip("|").split("|")]
        if len(vals) < len(cells):
            vals += [""] * (len(cells) - len(vals))
        if len(vals) > len(cells):  # a '|' inside the text: the text column takes the rest
            t = cols["text"]
            vals = vals[:t] + [" | ".join(vals[t: t + 1 + len(vals) - len(cells)])] + \
                vals[t + 1 + len(vals) - len(cells):]
        text = _strip_decor(vals[cols["text"]])
        if not text or _NONE_RE.match(text):
            continue
        rec: dict[str, Any] = {"kind": "finding", "origin": origin}
        if "severity" in cols:
            w = re.search(SEVERITY_WORD, vals[cols["severity"]], re.I)
            _put_severity(rec, w.group(0) if w else None)
        if "file" in cols:
            fv = vals[cols["file"]]
            loc = find_location(fv)
            if loc is None and _pathlike(_unwrap(fv)):
                loc = Location(clean_path(fv))
            _put_location(rec, loc)
            if "line" in cols and "line" not in rec:
                lm = re.search(r"\d+", vals[cols["line"]])
                if lm and int(lm.group(0)) >= 1:
                    rec["line"] = int(lm.group(0))
        rec["summary"] = text
        out.append(rec)
    return out
