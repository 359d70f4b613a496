"""A review bot's summary body: the collapsed per-file lists a review's top comment
holds (part of the document reading, see ``reading``).

A review bot that cannot post every comment inline (the line is outside the diff, the
comment repeats an earlier one, or it is a nitpick) lists them in the review's own
body, folded in HTML ``<details>`` blocks, often inside a GitHub alert (``> [!CAUTION]``):

    <details>
    <summary>Nitpick comments (2)</summary><blockquote>
    <details>
    <summary>src/app/cache.py (2)</summary><blockquote>
    `40-44`: **Title of the comment.**
    body ...

One comment is one line-range item (`` `START-END`: **title** ``) under a summary that
names its file, itself under a summary that names the kind of comments.  Read:
outside-diff, duplicate, nitpick and actionable comments (a nitpick is minor; a badge
within the item's first lines gives its severity).  Not read: "additional comments"
(what the bot found fine), review details, learnings, code graphs and file lists, and
an item whose title says it was addressed or resolved.

Pure functions over strings; nothing here raises; every pattern is linear.
"""

from __future__ import annotations

import re
from typing import Any

from council_filters.verdict.locations import _pathlike, clean_path

_QUOTE = re.compile(r"^(?:[ \t]{0,3}>)+[ \t]?")
_SUMMARY = re.compile(r"<summary>\s*(?P<t>[^<\n]{1,400}?)\s*</summary>", re.I)
_OPEN = re.compile(r"<details\b", re.I)
_CLOSE = re.compile(r"</details\s*>", re.I)
# "⚠️ Outside diff range comments (1)", "🧹 Nitpick comments (7)"
_KIND = re.compile(r"\b(?P<k>outside\s+diff\s+range|duplicate|nitpick|actionable|additional|"
                   r"potential\s+issue|refactor\s+suggestion)\s+comments?\s*\(\d{1,5}\)", re.I)
# "src/app/cache.py (2)"
_FILE = re.compile(r"^[`*_]*(?P<p>[^\s()<>`*]{1,300})[`*_]*\s*\(\d{1,5}\)$")
# "`40-44`: **Title.**", "`7`: **Title**"
_ITEM = re.compile(r"^`(?P<a>\d{1,7})(?:\s*-\s*(?P<b>\d{1,7}))?`\s*:\s*\*\*(?P<t>.{1,400}?)\*\*")
_DONE = re.compile(r"\b(?:addressed|resolved|fixed|lgtm|looks\s+good)\b", re.I)
_READ = ("outside", "duplicate", "nitpick", "actionable", "potential", "refactor")


def read_body(text: str, origin: str, badge: Any = None) -> list[dict[str, Any]] | None:
    """The findings a bot's folded summary body lists, or None when ``text`` holds no
    such list.  ``badge``: a function giving the severity a line's badge names."""
    if _SUMMARY.search(text) is None:  # no fold at all: nothing to walk
        return None
    stack: list[str] = []  # the summary titles of the open <details> blocks
    out: list[dict[str, Any]] = []
    seen = False
    lines = text.split("\n")
    for i, raw in enumerate(lines):
        ln = _QUOTE.sub("", raw).strip()
        if not ln:
            continue
        for _ in _OPEN.finditer(ln):
            stack.append("")
        m = _SUMMARY.search(ln)
        if m and stack:
            stack[-1] = m["t"]
        item = _ITEM.match(ln)
        if item and stack:
            kind = next((k["k"].lower() for t in reversed(stack) if (k := _KIND.search(t))),
                        None)
            path = next((f["p"] for t in reversed(stack) if (f := _FILE.match(t.strip()))
                         and _pathlike(f["p"])), None)
            if kind is not None and path is not None:
                seen = True
                title = item["t"].strip()
                if kind.startswith(_READ) and not _DONE.search(title):
                    sev = "minor" if kind == "nitpick" else None
                    if badge is not None:
                        near = " ".join(_QUOTE.sub("", x) for x in lines[i:i + 4])
                        sev = badge(near) or sev
                    rec: dict[str, Any] = {"kind": "finding", "origin": origin}
                    if sev is not None:
                        rec["severity"] = sev
                    rec["file"], rec["line"] = clean_path(path), int(item["a"])
                    b = item["b"]
                    if b is not None and int(b) > int(item["a"]):
                        rec["end_line"] = int(b)
                    rec["summary"] = title.strip("*_` ").rstrip(".")[:300]
                    out.append(rec)
        for _ in _CLOSE.finditer(ln):
            if stack:
                stack.pop()
    return out if seen else None
