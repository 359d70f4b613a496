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
                   r"potential\s+issue|refactor\s+suggestion|critical|major|minor|trivial)"
                   r"\s+comments?\s*\(\d{1,5}\)", re.I)
# "src/app/cache.py (2)"
_FILE = re.compile(r"^[`*_]*(?P<p>[^\s()<>`*]{1,300})[`*_]*\s*\(\d{1,5}\)$")
# "`40-44`: **Title.**", "`7`: **Title**", "`70-71`: _⚠️ Potential issue_ | _🟡 Minor_"
# (the title then on a line of its own below)
_ITEM = re.compile(r"^`(?P<a>\d{1,7})(?:\s*-\s*(?P<b>\d{1,7}))?`\s*:\s*(?:\*\*(?P<t>.{1,400}?)\*\*"
                   r"|(?=_[^_\n]{1,60}_))")
_BOLD = re.compile(r"^\*\*(?P<t>.{1,400}?)\*\*")
# the range a newer layout appends to the file's name: "src/a.ts-70-71 (1)"
_RANGE_TAIL = re.compile(r"(\.[A-Za-z0-9]{1,10})-\d{1,7}(?:-\d{1,7})?$")
_DONE = re.compile(r"\b(?:addressed|resolved|fixed|lgtm|looks\s+good)\b", re.I)
_READ = ("outside", "duplicate", "nitpick", "actionable", "potential", "refactor", "critical",
         "major", "minor", "trivial")
# the severity a kind of comments names, when the item's own badge names none
_KIND_SEVERITY = {"nitpick": "minor", "trivial": "minor", "minor": "minor", "major": "medium",
                  "critical": "critical"}


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
            path = next((p for t in reversed(stack) if (f := _FILE.match(t.strip()))
                         and _file_name(p := _RANGE_TAIL.sub(r"\1", f["p"]))), None)
            if kind is not None and path is not None:
                seen = True
                title = (item["t"] or _title_below(lines, i)).strip()
                if kind.startswith(_READ) and not _DONE.search(title):
                    sev = _KIND_SEVERITY.get(kind)
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


def _title_below(lines: list[str], i: int) -> str:
    """The bold title under an item whose line holds only its badges."""
    for raw in lines[i + 1:i + 6]:
        m = _BOLD.match(_QUOTE.sub("", raw).strip())
        if m:
            return m["t"]
    return ""


def _file_name(p: str) -> bool:
    """A file's name in a per-file summary: a path, or a bare name such as ``Caddyfile``
    (the summary's count says it names a file)."""
    return _pathlike(p) or re.fullmatch(r"[A-Za-z][\w.\-]{1,60}", p) is not None
