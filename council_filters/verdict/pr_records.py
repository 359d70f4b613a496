"""Saved pull-request review data in any JSON nesting (part of the tolerant reading, see
``formats.review_json`` and ``reading``).

Review comments reach a reader wrapped in whatever a tool saved: GitHub's REST arrays
(``pulls/N/comments``, ``pulls/N/reviews``, ``issues/N/comments``), GraphQL dumps
(``reviewThreads.nodes[].comments.nodes[]``), ``gh pr view --json comments,reviews``,
an MCP server's ``review_threads``, objects keyed by pull request, JSON Lines, GitLab's
discussions and notes, Gerrit's comments keyed by file, Bitbucket's and Azure DevOps'
comments and threads, a tool's own ``{path, threads: [...]}`` digest.  Rather than
knowing each envelope, :func:`comment_records` walks the JSON tree and recognises a
review comment by its keys:

- its text: ``body`` (also ``comment``, ``note``, ``preview``; ``text``, ``message`` and
  ``content`` only beside a place);
- its place: a path key (``path``, ``file``, ``file_path``, ``filename``, ``filePath``),
  or one in the object holding its place (GitLab's ``position``, Bitbucket's ``inline``,
  Azure DevOps' ``threadContext``), else the path of the record that holds it (a
  thread, a per-file group) or the file-path key its list sits under; its line:
  ``line``, else ``original_line`` / ``originalLine`` (the line it was written on, once
  the diff moved on), else GitLab's ``new_line`` / ``old_line``, else ``line_number``,
  else the line its ``diff_hunk`` ends on; ``start_line`` only when nothing else gives
  one; ``position`` as a number (a place in the diff, not in the file) never;
- what it is part of: a *thread* (a record holding its comments under ``comments``,
  ``notes`` or ``comments.nodes``, with a place or a resolution state of its own) is one
  comment: its first, at the thread's place; the others answer it;
- its state: a resolved, closed or deleted thread or comment (``isResolved``,
  ``is_resolved``, ``resolved``, ``unresolved: false``, a settled ``status``, a ``state``
  of resolved, closed or fixed; an outdated one still counts, at its original line), a system
  note, a reply (``in_reply_to_id``, ``replyTo``, ``parent``...), and a comment whose
  text opens by saying it was fixed or addressed are no findings;
- its author (``user.login``, ``author.login``, ``author``) is kept for the reading.

A record with no place is a comment or review posted on the pull request (its body is
Markdown); it counts only when it has an author or a review state, so the pull
request's own description beside the comments is not read as one.

The walk visits each value once, goes no deeper than the JSON reader allows, and stops
after :data:`MAX_NODES` values.  Pure functions; nothing here raises.
"""

from __future__ import annotations

import json
import re
from typing import Any

MAX_NODES = 200_000  # JSON values walked at most (a saved review holds far fewer)
MAX_RECORDS = 10_000

_TEXT = ("body", "comment", "note", "preview", "bodyText")
_TEXT_LOCATED = ("text", "message", "content")  # only beside a place: commits have messages
_PATHS = ("path", "file", "file_path", "filePath", "filename", "new_path", "newPath")
_LINES = ("line", "original_line", "originalLine", "new_line", "newLine", "old_line",
          "oldLine", "line_number", "lineNumber")
_STARTS = ("start_line", "startLine", "original_start_line", "originalStartLine")
_RESOLVED = ("isResolved", "is_resolved", "resolved")
_REPLY = ("in_reply_to_id", "in_reply_to", "inReplyTo", "inReplyToId", "replyTo", "reply_to")
_CONVERSATION = ("comments", "notes")
# keys that say a record is review data rather than any object with a body
_PR_KEYS = frozenset(("diff_hunk", "diffHunk", "pull_request_review_id", "in_reply_to_id",
                      "original_line", "originalLine", "original_position", "subject_type",
                      "subjectType", "isResolved", "is_resolved", "isOutdated", "is_outdated",
                      "author_association", "authorAssociation", "submitted_at",
                      "submittedAt", "reviewThreads", "review_threads", "discussion_id",
                      "noteable_type", "resolvable", "commit_id", "html_url", "user",
                      "author", "comment_id", "thread_id", "patch_set", "unresolved",
                      "inline", "threadContext"))
# GitHub's review states (a review record carries one)
_STATES = frozenset(("APPROVED", "CHANGES_REQUESTED", "COMMENTED", "DISMISSED", "PENDING"))
# "Fixed in 1a2b3c.", "Addressed: ...", "✅ Done", "Resolved by the rename"
_SETTLED = re.compile(
    r"^[\W_]{0,6}(?:fixed|addressed|done|resolved)\b(?=\s+(?:in|by|via|with|per|now|as|on)\b"
    r"|\s*[.!:,;]|\s+[\u2014\u2013-]\s|\s*$)", re.I)
# the mark a review bot adds to a comment of its own once the change answers it
_ADDRESSED = re.compile(r"^[ \t>]*\u2705\s*(?:Addressed|Confirmed as addressed)\b", re.I | re.M)


def _s(v: Any) -> str | None:
    return v if isinstance(v, str) and v.strip() else None


def _line(v: Any) -> int | None:
    if isinstance(v, bool):
        return None
    if isinstance(v, int) and 1 <= v <= 10_000_000:
        return v
    if isinstance(v, str) and v.isascii() and v.isdigit() and 0 < len(v) <= 8 and int(v) >= 1:
        return int(v)
    if isinstance(v, str) and (m := _LINE_SPAN.fullmatch(v.strip()[:40])):
        return int(m[1]) if 1 <= int(m[1]) <= 10_000_000 else None  # "5-9": its first line
    return None


#: a line written as a span in a tool's export: ``"5-9"``, ``"L5-L9"``, ``"5..9"``
_LINE_SPAN = re.compile(r"L?(\d{1,8})\s*(?:-|\u2013|\.\.)\s*L?\d{1,8}")


def _first_line(d: dict[str, Any], keys: tuple[str, ...]) -> int | None:
    for k in keys:
        n = _line(d.get(k))
        if n is not None:
            return n
    return None


def place(d: dict[str, Any]) -> tuple[str | None, int | None]:
    """The path and line a record's own keys give, or the object holding its place
    (GitLab's ``position``, Bitbucket's ``inline``, Azure DevOps' ``threadContext``)."""
    subs = [d] + [v for k in _PLACE_OBJECTS if isinstance(v := d.get(k), dict)]
    path = next((p for sub in subs for k in _PATHS if (p := _s(sub.get(k)))), None)
    if path is None:
        path = next((p for sub in subs[1:] if (p := _s(sub.get("old_path")))), None)
    line = next((n for sub in subs if (n := _first_line(sub, _LINES)) is not None), None)
    if line is None:
        line = next((n for sub in subs[1:] if (n := _sub_line(sub)) is not None), None)
    if line is None and d.get("subject_type", d.get("subjectType")) not in ("file", "FILE"):
        line = hunk_line(d.get("diff_hunk", d.get("diffHunk")))
    if line is None:
        line = next((n for sub in subs if (n := _first_line(sub, _STARTS)) is not None), None)
    return path, line


_HUNK_HEAD = re.compile(r"@@ -(\d{1,9})(?:,\d{1,9})? \+(\d{1,9})(?:,\d{1,9})? @@")


def hunk_line(hunk: Any) -> int | None:
    """The line a review comment's ``diff_hunk`` ends on (GitHub saves the hunk up to the
    commented line): its new-side number, or its old-side one when that last line was
    removed.  For comments saved before the API gave ``line`` (only ``position``)."""
    if not isinstance(hunk, str):
        return None
    lines = hunk[-200_000:].split("\n")
    start = max((i for i, ln in enumerate(lines) if ln.startswith("@@")), default=None)
    if start is None or (m := _HUNK_HEAD.match(lines[start])) is None:
        return None
    old, new = int(m.group(1)) - 1, int(m.group(2)) - 1
    body = [ln for ln in lines[start + 1:] if not ln.startswith("\\")]
    while body and body[-1] == "":
        body.pop()
    if not body:
        return None
    for ln in body:
        if ln.startswith("-"):
            old += 1
        elif ln.startswith("+"):
            new += 1
        else:
            old, new = old + 1, new + 1
    last = body[-1]
    n = old if last.startswith("-") else new
    return n if n >= 1 else None


_PLACE_OBJECTS = ("position", "inline", "threadContext", "location")


def _sub_line(sub: dict[str, Any]) -> int | None:
    """A place object's own line: Bitbucket's ``to`` (else ``from``), Azure DevOps'
    ``rightFileStart.line`` (else ``leftFileStart``)."""
    for k in ("rightFileStart", "leftFileStart"):
        v = sub.get(k)
        if isinstance(v, dict) and (n := _line(v.get("line"))) is not None:
            return n
    return _line(sub.get("to")) or _line(sub.get("from"))


def _text(d: dict[str, Any], located: bool) -> str | None:
    for k in _TEXT + (_TEXT_LOCATED if located else ()):
        t = d.get(k)
        if isinstance(t, dict):  # Bitbucket's {"raw": ..., "markup": ...}
            t = t.get("raw")
        if isinstance(t, str):
            return t
    return None


def _state(d: dict[str, Any]) -> str | None:
    st = d.get("state")
    return st if isinstance(st, str) else None


def _login(d: dict[str, Any]) -> str | None:
    for k in ("user", "author"):
        v = d.get(k)
        if isinstance(v, dict):
            name = _s(v.get("login")) or _s(v.get("username")) or _s(v.get("name"))
            if name:
                return name
        elif _s(v):
            return str(v)
    return None


def _conversation(d: dict[str, Any]) -> tuple[str, list[dict[str, Any]]] | None:
    """The comments a thread holds (``comments``, ``notes``, or ``comments.nodes``), with
    the key holding them."""
    for k in _CONVERSATION:
        v = d.get(k)
        if isinstance(v, dict):
            v = v.get("nodes", v.get("edges"))
        if isinstance(v, list) and v and all(isinstance(c, dict) for c in v[:50]):
            return k, [c["node"] if isinstance(c.get("node"), dict) else c for c in v]
    return None


def _is_thread(d: dict[str, Any], key: str, convo: list[dict[str, Any]],
               parent: str | None) -> bool:
    """A record holding one conversation: GitLab's discussion (its ``notes``), a record
    with a resolution state, one under a key naming threads or discussions, or one with a
    place of its own whose comments cite no other file (a review's comments, each at a
    place of its own, are no conversation)."""
    if key == "notes" or any(k in d for k in _RESOLVED + ("isOutdated", "is_outdated")):
        return True
    if parent is not None and re.search(r"thread|discussion", parent, re.I):
        return True
    own = place(d)[0]
    return own is not None and all(place(c)[0] in (None, own) for c in convo)


def settled(d: dict[str, Any], body: str) -> bool:
    """A resolved, closed or deleted record (Gerrit's ``unresolved: false``, a thread
    ``status`` of fixed or closed), a reply (Bitbucket's ``parent`` too), a system note,
    or a text saying the point was fixed or addressed."""
    if any(d.get(k) is True for k in _RESOLVED + ("deleted", "system")):
        return True
    if d.get("unresolved") is False or _CLOSED.match(str(d.get("status", ""))) \
            or _GONE_STATE.match(str(d.get("state", ""))):
        return True
    if any(d.get(k) not in (None, "", 0, False) for k in _REPLY):
        return True
    if isinstance(d.get("parent"), dict) and d["parent"].get("id") is not None:
        return True
    return bool(_SETTLED.match(body.lstrip()[:80]) or _ADDRESSED.search(body))


# a record's state naming it settled ("state": "resolved"); an outdated one (the diff moved
# under it) is not: it still reads at its original line
_GONE_STATE = re.compile(r"(?:resolved|closed|fixed)$", re.I)
# a thread's or comment's status naming it settled (Azure DevOps: fixed, closed, wontFix,
# byDesign)
_CLOSED = re.compile(r"(?:fixed|closed|resolved|wont[\s_-]?fix|by[\s_-]?design)$", re.I)


# HTML comments a bot opens its body with (its own bookkeeping, not the comment)
_LEADING_NOTES = re.compile(r"\A(?:\s*<!--[^\n]{0,4000}?-->)+\s*")


def _record(d: dict[str, Any], body: str, path: str | None, line: int | None) -> dict[str, Any]:
    """The comment as a review comment for the reader: its own keys, its place put in
    ``path``/``line`` (the envelope's place decides over any its body cites), its text in
    ``body``, its author as ``author.login``."""
    rec = {k: v for k, v in d.items() if not isinstance(v, (dict, list))
           or k in ("replacement",)}
    for k in _LINES + _STARTS + ("position",):
        rec.pop(k, None)
    # a located comment's opening HTML notes go (its title follows them); a posted body
    # keeps them: they tell a bot's walkthrough
    rec["body"] = _LEADING_NOTES.sub("", body, count=1) if path is not None else body
    rec["author"] = {"login": _login(d) or ""}
    if path is not None:
        rec["path"] = path
        rec["line"] = line
    else:
        rec.pop("path", None)
    return rec


def _is_review_data(value: Any) -> bool:
    """True when some record in the first few thousand values carries review-data keys
    beside a comment's text or a conversation, or holds review threads."""
    stack: list[Any] = [value]
    seen = 0
    while stack and seen < 2000:
        v = stack.pop()
        seen += 1
        if isinstance(v, dict):
            if any(isinstance(v.get(k), (dict, list)) for k in _THREAD_KEYS):
                return True
            located = place(v)[0] is not None or "patch_set" in v or "unresolved" in v
            if _PR_KEYS.intersection(v) and (_text(v, located) is not None
                                             or _conversation(v) is not None):
                return True
            stack.extend(x for x in v.values() if isinstance(x, (dict, list)))
        elif isinstance(v, list):
            stack.extend(x for x in v[:200] if isinstance(x, (dict, list)))
    return False


_THREAD_KEYS = ("reviewThreads", "review_threads", "threads", "discussions")


def _by_file(value: Any) -> bool:
    """Comments saved keyed by file: every key (of the first 64) a file's path, each holding
    a list of comments with a text and a line (``{"a.go": [{"line": 5, "message": ...}]}``,
    Gerrit's shape without its markers)."""
    if not isinstance(value, dict) or not value:
        return False
    items = list(value.items())[:64]
    return all(_file_key(str(k)) and isinstance(v, list) and v and all(
        isinstance(r, dict) and _text(r, True) is not None and _first_line(r, _LINES)
        is not None for r in v[:50]) for k, v in items)


def _lone_comment(value: Any) -> bool:
    """One review comment saved alone, with no author: its ``path`` and its text, and no
    list of anything (a review document holds its findings in lists)."""
    return isinstance(value, dict) and _text(value, True) is not None \
        and place(value)[0] is not None \
        and not any(isinstance(v, list) for v in list(value.values())[:64])


def _bot_bodies(value: Any) -> bool:
    """Review bots' comments saved with no author and no place (``[{"body": "_⚠️ Potential
    issue_ ..."}, ...]``): a list of objects each with a comment's text and nothing
    nested, at least one of them a review bot's (:func:`bot_body`)."""
    if isinstance(value, dict):
        value = [value]
    if not isinstance(value, list) or not value:
        return False
    head = value[:50]
    return all(isinstance(r, dict) and _text(r, False) is not None
               and not any(isinstance(x, (dict, list)) for x in list(r.values())[:64])
               for r in head) and any(bot_body(_text(r, False) or "") for r in head)


#: a review bot's mark in a comment's body (CodeRabbit's closing note)
_BOT_NOTE = re.compile(r"<!--\s*This is an auto-generated (?:comment|reply) by CodeRabbit\s*-->")


def bot_body(body: str) -> bool:
    """A review bot's comment: its first line is a line of severity badges (gemini's
    ``![high](…)``, CodeRabbit's ``_⚠️ Potential issue_ | _🟠 Major_``, ``P1 Badge``), or it
    carries CodeRabbit's closing note or its prompt for an agent."""
    from council_filters.verdict import document  # noqa: PLC0415 - document imports a lot

    first = next((ln.strip() for ln in body[:2000].split("\n") if ln.strip()), "")
    return bool(first) and (document.badge_only(first) or document.badge_severity(
        first[:300]) is not None and len(first) < 300) or _BOT_NOTE.search(body) is not None \
        or _PROMPT_PLACE.search(body) is not None


def comment_records(value: Any) -> list[dict[str, Any]] | None:
    """The review comments in a saved JSON value, in document order, each as a record the
    reader takes (``path``, ``line``, ``body``, ``author``); None when the value holds no
    review data (it is then some other JSON, read as such)."""
    if not isinstance(value, (dict, list)):
        return None
    flat = isinstance(value, list) and value and all(
        isinstance(r, dict) and _text(r, True) is not None and place(r)[0] is not None
        for r in value[:50]) or _lone_comment(value) or _bot_bodies(value) or _by_file(value)
    if not flat and not _is_review_data(value):
        return None
    out: list[dict[str, Any]] = []
    # (value, the nearest key naming it, the path of the record holding it)
    stack: list[tuple[Any, str | None, str | None]] = [(value, None, None)]
    nodes = 0
    while stack and nodes < MAX_NODES and len(out) < MAX_RECORDS:
        v, key, inherited = stack.pop()
        nodes += 1
        if isinstance(v, list):
            stack.extend((x, key, inherited) for x in reversed(v) if isinstance(x, (dict, list)))
            continue
        if not isinstance(v, dict):
            continue
        own_path, own_line = place(v)
        path = own_path or inherited
        held = _conversation(v)
        if held is not None and _is_thread(v, held[0], held[1], key):
            if not any(v.get(k) is True for k in _RESOLVED) \
                    and v.get("unresolved") is not False \
                    and not _CLOSED.match(str(v.get("status", ""))) \
                    and not _GONE_STATE.match(str(v.get("state", ""))):  # else settled
                _add_thread(out, v, held[1], own_path, own_line, inherited)
            continue
        body = _text(v, path is not None)
        if body is not None and key not in _NOT_COMMENTS and not settled(v, body) and (
                path is not None or _login(v) is not None or _state(v) in _STATES
                or bot_body(body)):
            if path is None:
                path, own_line = meta_place(body)
            out.append(_record(v, body, path, own_line))
        # records nested deeper (a review's comments, a group's threads) keep this path;
        # a list under a key that is a file's path (Gerrit's comments) takes that path
        stack.extend((x, key if k in _GENERIC else k,
                      k if isinstance(x, list) and _file_key(k) else path)
                     for k, x in reversed(list(v.items()))
                     if isinstance(x, (dict, list)) and k not in _SKIP)
    return out


def _file_key(key: str) -> bool:
    """A key that names a file: a path with a directory or an extension (Gerrit keys its
    comments by file; ``/PATCHSET_LEVEL`` and ``/COMMIT_MSG`` are no files)."""
    return not key.startswith("/") and re.fullmatch(
        r"[\w.@~+\-]+(?:/[\w.@~+\-]+)*\.[A-Za-z0-9]{1,10}|[\w.@~+\-]+(?:/[\w.@~+\-]+)+",
        key) is not None


_GENERIC = frozenset(("nodes", "edges", "node", "data", "items", "values"))
_SKIP = frozenset(("user", "author", "_links", "reactions", "reactionGroups", "labels",
                   "assignees", "requested_reviewers", "head", "base", "files"))
_NOT_COMMENTS = frozenset(("commit", "commits", "head", "base", "pull_request"))


def _add_thread(out: list[dict[str, Any]], thread: dict[str, Any],
                convo: list[dict[str, Any]], own_path: str | None, own_line: int | None,
                inherited: str | None) -> None:
    """A thread is its first comment, at the thread's place (else the comment's own, else
    the place of the record holding the thread); the other comments answer it."""
    first = convo[0]
    body = _text(first, True)
    if body is None or settled(first, body):
        return
    f_path, f_line = place(first)
    path: str | None
    if own_path is not None:
        path, line = own_path, own_line or (f_line if f_path in (None, own_path) else None)
    elif f_path is not None:
        path, line = f_path, f_line or own_line
    else:
        path, line = inherited, own_line or f_line
    if path is None:
        path, line = meta_place(body)
    out.append(_record(first, body, path, line))


# a bot's own record of the comment's place, in an HTML comment opening its body:
# <!-- devin-review-comment {"file_path": "a.sql", "start_line": 17, "end_line": 17} -->
_META = re.compile(r"\A\s*<!--\s*[\w.:-]{0,60}\s*(\{[^{}]{0,2000}\})\s*-->")


#: the place CodeRabbit's "Prompt for AI Agents" names: "In `@src/a.sql` around lines
#: 53 - 58" (GitHub anchors a range at its last line)
_PROMPT_PLACE = re.compile(
    r"Prompt for AI Agents?\b[\s\S]{0,400}?\bIn\s+`?@?(?P<p>[^`\s]{1,300}?)`?\s+"
    r"(?:around|at|near)\s+lines?\s+(?P<a>\d{1,7})(?:\s*(?:-|to|\u2013)\s*(?P<b>\d{1,7}))?")


def meta_place(body: str) -> tuple[str | None, int | None]:
    """The place an HTML comment opening a body records (a file path and its lines), or
    that a bot's prompt for an agent names (``In `@a.sql` around lines 53 - 58``: line 58);
    (None, None) when there is none."""
    m = _META.match(body)
    if m is None:
        # one comment's prompt; a review's body folding several comments is no one place
        found = list(_PROMPT_PLACE.finditer(body[:20_000]))
        if len(found) != 1 or overview(body):
            return None, None
        return found[0]["p"], int(found[0]["b"] or found[0]["a"])
    try:
        meta = json.loads(m.group(1))
    except ValueError:
        return None, None
    if not isinstance(meta, dict):
        return None, None
    path, line = place(meta)
    end = _line(meta.get("end_line"))
    return path, end or line


# --------------------------------------------------------------------------- #
# Bodies posted with no place: overviews, summaries, walkthroughs
# --------------------------------------------------------------------------- #
# the marks of a review bot's summary of the pull request (its walkthrough, overview or
# review envelope): what it lists are changes, not problems
_OVERVIEW = re.compile(
    r"<!--\s*(?:walkthrough_start|This is an auto-generated comment: (?:summarize|release notes)"
    r" by coderabbit)"
    r"|^#{1,3}\s*(?:Summary by CodeRabbit|Pull request overview|Copilot review overview"
    r"|Greptile (?:Summary|Overview))"
    r"\s*$"
    r"|^#{1,3}\s*Summary of Changes\s*\n+\s*Hello\b"
    r"|^\s*\**Actionable comments posted:\s*\d+"
    r"|^\s*\**Devin Review\** found \d+"
    r"|^\s*<sub>\d+ files? reviewed"
    r"|Codex Review\W*\n+\s*(?:Here are some automated review suggestions|Didn't find any major)"
    r"|^\s*Cursor Bugbot has reviewed"
    r"|^#{1,3}\s*\[?Codecov\b",
    re.I | re.M)


def overview(body: str, opening: bool = False) -> bool:
    """A review bot's summary of the pull request (a walkthrough, an overview, the envelope
    of its review), whose own lists are no findings; the comments it folds in (a digest
    of located comments) are read apart.  ``opening``: only when the text opens with it
    (a whole answer that is one such body, not a page that quotes one among others)."""
    if opening:  # its first two lines
        body = "\n".join([ln for ln in body[:4000].split("\n") if ln.strip()][:2])
    return bool(_OVERVIEW.search(body[:20_000]))


# Copilot's review: "<summary>Comments suppressed due to low confidence (2)</summary>",
# then "**src/a.ts:32**" (or "**src/a.ts** (line 32)") over the comment's text
_SUPPRESSED = re.compile(r"<summary>\s*Comments suppressed due to low confidence\s*\(\d{1,4}\)"
                         r"\s*</summary>", re.I)
_HEAD = re.compile(r"^\s*\*\*(?P<p>[^*\s:][^*\n:]{0,300}?)(?::(?P<l>\d{1,7})(?:-\d{1,7})?)?\*\*"
                   r"(?:\s*\(lines?\s+(?P<l2>\d{1,7})(?:\s*-\s*\d{1,7})?\))?\s*$", re.I)


def folded_comments(body: str) -> list[dict[str, Any]]:
    """The located comments a review folds under "Comments suppressed due to low
    confidence" (one a ``**path:line**`` head with its text under it), as records."""
    m = _SUPPRESSED.search(body)
    if m is None:
        return []
    end = body.find("</details>", m.end())
    lines = body[m.end(): end if end >= 0 else len(body)].split("\n")[:5000]
    out: list[dict[str, Any]] = []
    for ln in lines:
        h = _HEAD.match(ln)
        if h and "/" in h["p"] or h and "." in h["p"]:
            n = h["l"] or h["l2"]
            out.append({"path": h["p"].strip(), "line": int(n) if n else None, "body": ""})
        elif out and ln.strip():
            text = re.sub(r"^\s*[*-]\s+", "", ln).strip()
            out[-1]["body"] = (out[-1]["body"] + " " + text).strip()
    return [r for r in out if r["body"]]
