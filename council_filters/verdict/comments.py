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
    r"^[\s*_]*(?:@?[\w.\-]{1,60}(?:\[bot\])?[\s*_]+)?(?:review\s+)?comment(?:ed)?\b[^\n`]{0,120}?"
    r"\bon\s+[`*_]*(?P<p>[\w.@~+\-/\\]{1,300}+)[`*_]*(?::(?P<l>\d{1,7})(?:\s*-\s*(?P<e>\d{1,7}))?"
    r"|:N/?A|\s*,?\s*\(?(?:line|L)\s*(?P<l2>\d{1,7})(?:\s*(?:-|to|\u2013)\s*L?(?P<e2>\d{1,7}))?"
    r"\)?)?(?=[\s_*,:]|$)", re.I)
# a notification's file line: "On src/app/routes.rb:", "File src/cache.py:", "In src/a.py:",
# "On `lib/parse.ts`, line 12:"
_ON_FILE = re.compile(
    r"^[\s*_]*(?:on|file|in(?:\s+file)?)\s+[`*_]*(?P<p>[\w.@~+\-/\\]{1,300}+)[`*_]*"
    r"(?:\s*,?\s*lines?\s+(?P<l>\d{1,7})(?:\s*(?:-|to|\u2013)\s*(?P<e>\d{1,7}))?)?\s*:[\s*_]*$",
    re.I)
# Gerrit's line of a patch set: "PS1, Line 40: <the code line>"
_PATCHSET_LINE = re.compile(r"^\s*PS\d{1,4},\s*Lines?\s+(?P<l>\d{1,7})(?:-(?P<e>\d{1,7}))?:", re.I)
# a notification's sender or opener naming a review bot
_BOT_SENDER = re.compile(
    r"^\s*(?:from:\s*\"?[^\n]{0,80}?\[bot\]|@?[\w.\-]{1,60}\[bot\]\s+(?:commented|reviewed)\b)",
    re.I)
# Gemini's "in `path`" line, alone
_IN_PATH = re.compile(r"^[\s*_]*in\s+`?(?P<p>[^`\s]{1,300})`?[\s*_]*$", re.I)
# "Comment on lines +455 to +458", "Comment on line +12", "on lines 3 to 5", "Line 17",
# "**Copilot** commented on lines +30 to +31:"
_LINES = re.compile(
    r"^[\s*_]*(?:@?[\w.\-]{1,60}(?:\[bot\])?[\s*_]+(?=comment))?(?:(?:comment(?:ed)?\s+)?on\s+)?"
    r"(?:lines?\s+|L)[+-]?(?P<l>\d{1,7})(?:\s*(?:to|-|\u2013)\s*[+-]?L?(?P<e>\d{1,7}))?[\s*_:]*$",
    re.I)
# "**coderabbitai[bot]**:", "**Copilot**:", "cursor[bot] commented:"
_BOTS = (r"copilot|coderabbit(?:ai)?|cursor|gemini-code-assist|chatgpt-codex-connector|codex|"
         r"sourcery-ai|greptile(?:-apps)?|qodo-merge(?:-pro)?|sonarqubecloud|deepsource|"
         r"codeant-ai|ellipsis-dev|bugbot")
_AUTHOR = re.compile(
    r"^[\s*_]*@?(?P<n>[\w.\-]{1,60}\[bot\]|(?:" + _BOTS + r"))[\s*_]*"
    r"(?:\([^)\n]{0,40}\)\s*)?(?:commented|reviewed|wrote|said)?[\s*_]*:?[\s*_]*$", re.I)
# the agent prompt: "In @path around lines 58 - 70," / "In `path` at line 101"
_PROMPT_PLACE = (
    r"`?@?(?P<p>[\w.@~+\-/\\]{1,300}?)`?\s*,?\s+(?:at|around|near|on)\s+lines?\s+"
    r"(?P<l>\d{1,7})(?:\s*(?:-|to|\u2013)\s*(?P<e>\d{1,7}))?")
_PROMPT = re.compile(r"\bIn\s+" + _PROMPT_PLACE)
_HUNK_QUOTE = re.compile(r"^\s*>\s*(?:[+\-](?![+\-])|@@\s|```\s*diff\b)")
_AUTHOR_LEAD = re.compile(
    r"^[\s*_]*@?(?P<n>[\w.\-]{1,60}\[bot\]|(?:" + _BOTS + r"))[\s*_]*"
    r"(?:commented|wrote|said)?[\s*_]*:[\s*_]*(?=\S)", re.I)
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
        return _loc(m["p"], m["l"] or m["l2"], m["e"] or m["e2"]), True
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


def after_author(line: str) -> str | None:
    """What follows a review bot's name on its line (``**cursor[bot]**: **Title**``)."""
    m = _AUTHOR_LEAD.match(line)
    return line[m.end():] if m else None


def prompt_line(text: str, file: str) -> Location | None:
    """The line an agent prompt gives for ``file`` (``In @path around lines 58 - 70``)."""
    base = file.rsplit("/", 1)[-1]
    for m in _PROMPT.finditer(text[:8000]):
        p = clean_path(m["p"]).lstrip("@")
        if p in (file, base) or p.endswith("/" + file) or file.endswith("/" + p):
            return _loc(file, m["l"], m["e"])
    return None


def quoted_hunk(lines: list[str]) -> tuple[bool, Location | None]:
    """Whether a block quote copies a diff hunk (a notification e-mail's context), and the
    file its first line names when it is only a path (``> **src/app.ts**``)."""
    if not any(_HUNK_QUOTE.match(ln) for ln in lines[:4]):
        return False, None
    first = re.sub(r"^\s*>\s*", "", lines[0]).strip().strip("*_`")
    if re.fullmatch(r"[\w.@~+\-/\\]{1,300}", first):
        return True, _loc(first, None)
    return True, None


# the prompt's opening when the comment names no file of its own: "In path around lines
# 41 to 46:", or the path alone at the start of the prompt's first line
_PROMPT_OPEN = re.compile(r"^\s*(?:In\s+)?" + _PROMPT_PLACE)


def prompt_place(text: str) -> Location | None:
    """The place an agent prompt opens with (``In src/a.py around lines 41 to 46: ...``),
    for a comment that names no file of its own."""
    first = next((ln for ln in text[:2000].split("\n") if ln.strip()), "")
    m = _PROMPT_OPEN.match(first)
    if m is None or not _pathlike(clean_path(m["p"]).lstrip("@")):
        return None
    return _loc(clean_path(m["p"]).lstrip("@"), m["l"], m["e"])




_URL_ONLY = re.compile(r"^\s*<?https?://\S+>?\s*$")
_SEV_BOLD = re.compile(r"^(?:critical|high|medium|low|minor|major)\s+(?:severity|priority)$", re.I)
_META_FIELDS = re.compile(
    r"^[\s*_]*(?:state|created|updated|author|date|status|outdated|resolved|url|id|"
    r"comment\s+id|reviewer|commit|file|path|location|lines?)[\s*_]*:", re.I)


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
                and not _TITLE.match(s) and lines_of(s) is None and not _META.match(s) \
                and not _URL_ONLY.match(s):
            return s
    return ""


_BY_BOT = re.compile(r"\[bot\]|\b(?:" + _BOTS + r")\b", re.I)


def by_bot(line: str) -> bool:
    """A metadata line that names a review bot as the comment's author."""
    return bool(_BY_BOT.search(line))


_APPROVING = re.compile(
    r"^\W*(?:lgtm|looks\s+good|looks\s+fine|no\s+(?:further\s+)?(?:issues|problems|concerns|"
    r"comments|findings)|nothing\s+to\s+(?:add|report|flag)|ship\s+it|\U0001f44d)", re.I)


def no_finding(lines: list[str]) -> bool:
    """A comment that approves (``LGTM``, ``Looks good to me``) or only asks a question."""
    prose = [ln.strip() for ln in lines
             if ln.strip() and re.search(r"[^\W\d_]{2,}", ln) and not is_author(ln.strip())
             and not ln.lstrip().startswith(("![", "<", "_")) and not _URL_ONLY.match(ln)]
    if not prose:
        return True
    if _APPROVING.match(prose[0].strip("*_ ")):
        return True
    return len(prose) == 1 and prose[0].rstrip("*_ ").endswith("?")


def file_line(line: str) -> Location | None:
    """A notification's line naming the file (and line) of the comments under it."""
    m = _ON_FILE.match(line)
    return _loc(m["p"], m["l"], m["e"]) if m else None


def patchset_line(line: str) -> tuple[int, int | None] | None:
    """Gerrit's ``PS1, Line 40: ...``: (40, None)."""
    m = _PATCHSET_LINE.match(line)
    if not m or int(m["l"]) < 1:
        return None
    end = int(m["e"]) if m["e"] else None
    return int(m["l"]), end if end and end > int(m["l"]) else None


def bot_sender(line: str) -> bool:
    """``From: "reviewer[bot]" <...>`` or ``@reviewer[bot] commented on this pull request.``"""
    return bool(_BOT_SENDER.match(line))
