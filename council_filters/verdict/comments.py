"""Review comments whose place sits outside their prose (part of the document reading,
see ``document``).

A review bot's comment, as pages, archives, dumps and notification e-mails copy it,
gives its place around the comment rather than in it:

- a line naming only the file, above the diff hunk the comment is on (``path`` then
  a fenced ``diff`` block);
- the bot's own metadata line: ``Comment #12 by bot on path:42`` (``:N/A`` for a
  file-level comment), ``_Review comment by @bot on `path`:178 on <date>_``,
  ``in `path``` with ``Comment on lines +455 to +458`` under it;
- inside the collapsed prompt it writes for a coding agent
  (``In @path around lines 58 - 70, ...``), when the file is the comment's;
- none at all in a notification e-mail: each comment follows a quoted hunk and opens
  with a severity badge.

A comment is opened by one of those (a file header, a metadata line, a quoted hunk,
a badge line) and ends at a rule (``---``), a top-level heading, or the next
comment.  It is one finding when nothing in it was read as a finding and something
says a reviewer wrote it (a severity badge, a bot's author line, a metadata line);
the findings read inside it take its place when they name none.

Pure functions over strings; nothing here raises; every pattern is linear.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from council_filters.verdict.locations import Location, _pathlike, clean_path

# "Comment #2778 by gemini-code-assist[bot] on tsconfig.json:N/A",
# "_Review comment by @bot on `src/a.rs`:178 on 2025-11-15 01:11_"
_META = re.compile(
    r"^[\s*_]*(?:review\s+)?comment\b[^\n`]{0,120}?\bon\s+[`*_]*"
    r"(?P<p>[\w.@~+\-/\\]{1,300}+)[`*_]*(?::(?P<l>\d{1,7})(?:\s*-\s*(?P<e>\d{1,7}))?|:N/?A)?"
    r"(?=[\s_*,]|$)", re.I)
# Gemini's "in `path`" line, alone
_IN_PATH = re.compile(r"^[\s*_]*in\s+`(?P<p>[^`\s]{1,300})`[\s*_]*$", re.I)
# "Comment on lines +455 to +458", "Comment on line +12", "on lines 3 to 5"
_LINES = re.compile(
    r"^[\s*_]*(?:comment(?:ed)?\s+)?on\s+lines?\s+[+-]?(?P<l>\d{1,7})"
    r"(?:\s*(?:to|-|\u2013)\s*[+-]?(?P<e>\d{1,7}))?[\s*_]*$", re.I)
# "**coderabbitai[bot]**:", "**Copilot**:", "cursor[bot] commented:"
_BOTS = (r"copilot|coderabbit(?:ai)?|cursor|gemini-code-assist|chatgpt-codex-connector|codex|"
         r"sourcery-ai|greptile(?:-apps)?|qodo-merge(?:-pro)?|sonarqubecloud|deepsource|"
         r"codeant-ai|ellipsis-dev|bugbot")
_AUTHOR = re.compile(
    r"^[\s*_]*@?(?P<n>[\w.\-]{1,60}\[bot\]|(?:" + _BOTS + r"))[\s*_]*"
    r"(?:\([^)\n]{0,40}\)\s*)?(?:commented|reviewed|wrote|said)?[\s*_]*:?[\s*_]*$", re.I)
# the agent prompt: "In @path around lines 58 - 70," / "In `path` at line 101"
_PROMPT = re.compile(
    r"\bIn\s+`?@?(?P<p>[\w.@~+\-/\\]{1,300}?)`?\s*,?\s+(?:at|around|near|on)\s+lines?\s+"
    r"(?P<l>\d{1,7})(?:\s*(?:-|to|\u2013)\s*(?P<e>\d{1,7}))?")
_HUNK_QUOTE = re.compile(r"^\s*>\s*(?:[+\-](?![+\-])|@@\s)")
_TITLE = re.compile(r"^\s*\*\*(?P<t>[^*\n]{3,300})\*\*\s*[.:]?\s*$")


@dataclass
class Comment:
    """One review comment being read."""

    file: Location | None
    count: int  # findings read before it opened
    signed: bool = False  # a metadata line, a bot's author line or a badge says it is one
    sev: str | None = None
    cand: bool = False  # a heading inside it may itself be the finding
    hunk: bool = False  # it follows the diff hunk it quotes (a notification e-mail)
    lines: list[str] = field(default_factory=list)

    def place(self, loc: Location) -> None:
        if self.file is None or (loc.file == self.file.file and self.file.line is None
                                 and loc.line is not None):
            self.file = loc


def _loc(path: str, line: str | None, end: str | None = None) -> Location | None:
    p = clean_path(path.rstrip("_*"))
    if not p or not (_pathlike(p) or re.fullmatch(r"\.\w[\w.\-]{1,60}", p)):
        return None  # a dot-file ("on .prettierignore:N/A") is named as one here
    ln = int(line) if line else None
    en = int(end) if end else None
    return Location(p, ln if ln and ln >= 1 else None, en if en and ln and en > ln else None)


def meta_location(line: str) -> tuple[Location | None, bool] | None:
    """The place a comment's metadata line gives, with whether the line names a review
    comment (``Comment #3 by x on path:9``) rather than only a file (``in `path```);
    None when the line is no such line."""
    m = _META.match(line)
    if m:
        return _loc(m["p"], m["l"], m["e"]), True
    m = _IN_PATH.match(line)
    if m:
        loc = _loc(m["p"], None)
        return (loc, False) if loc is not None else None
    return None


def lines_of(line: str) -> tuple[int, int | None] | None:
    """``Comment on lines +455 to +458``: (455, 458)."""
    m = _LINES.match(line)
    if not m:
        return None
    start = int(m["l"])
    end = int(m["e"]) if m["e"] else None
    return (start, end if end and end > start else None) if start >= 1 else None


def is_author(line: str) -> bool:
    """A review bot's author line (``**coderabbitai[bot]**:``)."""
    return bool(_AUTHOR.match(line))


def prompt_line(text: str, file: str) -> Location | None:
    """The line an agent prompt gives for ``file`` (``In @path around lines 58 - 70``)."""
    base = file.rsplit("/", 1)[-1]
    for m in _PROMPT.finditer(text[:8000]):
        p = clean_path(m["p"]).lstrip("@")
        if p in (file, base) or p.endswith("/" + file) or file.endswith("/" + p):
            return _loc(file, m["l"], m["e"])
    return None


def is_quoted_hunk(first_line: str) -> bool:
    """A block quote that copies a diff hunk (a notification e-mail's context)."""
    return bool(_HUNK_QUOTE.match(first_line))


_SEV_BOLD = re.compile(r"^(?:critical|high|medium|low|minor|major)\s+(?:severity|priority)$", re.I)
_META_FIELDS = re.compile(
    r"^[\s*_]*(?:state|created|updated|author|date|status|outdated|resolved|url|id|"
    r"comment\s+id|reviewer|commit)[\s*_]*:", re.I)


def summary_of(lines: list[str]) -> str:
    """A comment's title: its first bold line, else its first line of prose."""
    for ln in lines:
        m = _TITLE.match(ln)
        if m and not _SEV_BOLD.match(m["t"].strip()):
            return m["t"].strip()
    for ln in lines:
        s = ln.strip()
        if s and re.search(r"[^\W\d_]{3,}", s) and not is_author(s) \
                and not s.startswith(("![", "<", "_")) and not _META_FIELDS.match(s) \
                and not _TITLE.match(s):
            return s
    return ""


_BY_BOT = re.compile(r"\[bot\]|\b(?:" + _BOTS + r")\b", re.I)


def by_bot(line: str) -> bool:
    """A metadata line that names a review bot as the comment's author."""
    return bool(_BY_BOT.search(line))
