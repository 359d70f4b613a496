"""What a reviewer CLI printed, unwrapped to the answer text (part of the tolerant reading).

:func:`unwrap` is the one entry: raw output in, ``(kind, text, meta)`` out, where
``kind`` names the shape that was recognised, ``text`` is the reviewer's answer as
text and ``meta`` what the envelope said besides (errors, the JSON review document).
The shapes, with what each CLI's sources say of them, are listed in
docs/parse-verdict.md ("Machine formats"):

- ``codex-exec-json``: ``codex exec --json`` events, one JSON object a line; the answer
  is the last completed ``agent_message`` item (``item_type`` in early builds);
- ``claude-json``: ``claude -p --output-format json`` (one ``result`` object, or with
  ``--verbose`` an array of messages ending with it; Qwen Code and the Cursor agent
  print the same shape); the answer is ``result``, else the last assistant text, else
  (a ``--json-schema`` run) the review object in ``structured_output``, which
  ``meta["structured"]`` also holds when the result names no verdict;
- ``claude-stream-json``: the same messages as JSON Lines;
- ``gemini-json``: ``gemini --output-format json``; the answer is ``response`` (an
  error object with no response is an error with no answer);
- ``gemini-stream-json``: ``init``/``message``/``result`` lines; the answer is the
  concatenated assistant ``message`` content;
- ``opencode-json``: ``opencode run --format json``; the answer is the text parts of
  the last step that did not end in tool calls;
- ``review-json``: a review document (codex's ``findings[]`` + ``overall_correctness``,
  or any object with a verdict or a findings list), whole, in one ``json`` fence, or
  between the first ``{`` and the last ``}``; ``meta["doc"]`` holds it;
- ``session-json``: a saved chat session (a list of ``role``/``content`` or ``parts``
  messages, or an object with a ``messages`` list of ``type``/``content``); the answer
  is the last reply to the first prompt;
- ``json-markdown``: a JSON object that is no review document and carries the review as
  one Markdown string (``{"reviewFeedback": "### Review of a.py ..."}``); the answer is
  that string;
- ``coderabbit-plain``: ``coderabbit review --plain`` (or ``--prompt-only``): records
  under a rule of ``=``, each with ``File:``, ``Line: N to M``, ``Type:`` and its
  ``Comment:`` (or only its ``Prompt for AI Agent:``); ``meta["doc"]`` holds them as a
  review document's findings;
- ``text``: anything else (a codex CLI transcript is cut to its last ``codex`` message).

Before any of that, terminal escape sequences (CSI, OSC, other ``ESC`` pairs) and the
other C0/C1 control characters except newline and tab are removed.  After it, an
answer written as one line with literal ``\\n`` escapes gets its line ends back (unless
the line is JSON), and an echoed prompt is cut: only what follows the pack's template
is the answer.  Saved pull-request review data, whatever its nesting (REST arrays,
GraphQL dumps, ``gh pr view --json``, GitLab discussions, JSON Lines of records), is
turned into review comments by ``pr_records`` (``review_json``).

Nothing here raises on any input; every scan is linear and every JSON value is read
to a bounded depth.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from council_filters.pack.core import ENVELOPE_TAIL
from council_filters.verdict import pr_records, reviewer_json, words
from council_filters.verdict.locations import SEVERITY_WORD

MAX_DEPTH = 64  # JSON deeper than this is not a reviewer's envelope or review

_ESCAPES = re.compile(
    r"\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)"  # OSC ... BEL / ST
    r"|\x1b[P^_X][^\x1b]*\x1b\\"  # DCS, PM, APC, SOS ... ST
    r"|\x1b\[[0-?]*[ -/]*[@-~]"  # CSI
    r"|\x9b[0-?]*[ -/]*[@-~]"  # 8-bit CSI
    r"|\x1b[ -/]*[0-~]"  # other ESC sequences (charset, keypad, ...)
    r"|[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]"  # every other control but \t \n \r
)


def strip_controls(text: str) -> str:
    """``text`` without terminal escape sequences and control characters (but \\t, \\n, \\r)."""
    return _ESCAPES.sub("", text) if _HAS_CONTROL.search(text) else text


_HAS_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


@dataclass
class Unwrapped:
    kind: str
    text: str
    meta: dict[str, Any] = field(default_factory=dict)


def unwrap(raw: str) -> Unwrapped:
    """The answer inside what a reviewer CLI printed; see the module docstring."""
    text = strip_controls(raw)
    got = _cli_envelope(text)
    if got is None:
        got = Unwrapped("text", text)
    else:
        got.text = strip_controls(got.text)
    got.text = _unescape_one_line(got.text)
    cut = cut_echo(got.text)
    if cut != got.text:
        got.meta["echo_cut"] = True
        got.text = cut
    if got.kind == "text":
        got.text = box_tables(unglue_labels(printed_once(unprefixed(got.text))))
    doc = review_json(got.text)
    if doc is None and got.kind == "text" and (md := markdown_answer(got.text)) is not None:
        got.kind, got.text = "json-markdown", md  # {"reviewFeedback": "### Review of ..."}
    if doc is None and got.kind == "text" and (cr := coderabbit_plain(got.text)) is not None:
        got.kind, doc = "coderabbit-plain", cr
    if doc is None and not got.text.strip() and "structured" in got.meta:
        doc = got.meta["structured"]  # an empty result: the schema's object is the answer
    if doc is not None:
        got.meta["doc"] = doc
        if got.kind == "text":
            got.kind = "review-json"
    return got


# --------------------------------------------------------------------------- #
# JSON, bounded
# --------------------------------------------------------------------------- #
def _depth_ok(s: str) -> bool:
    """False when brackets nest deeper than MAX_DEPTH (counted outside strings)."""
    depth = 0
    in_str = esc = False
    for ch in s:
        if in_str:
            if esc:
                esc = False
            elif ch == "\\":
                esc = True
            elif ch == '"':
                in_str = False
        elif ch == '"':
            in_str = True
        elif ch in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return False
        elif ch in "]}":
            depth -= 1
    return True


def loads(s: str) -> Any:
    """``json.loads`` or None: never raises, never recurses past MAX_DEPTH."""
    s = s.strip()
    if not s or s[0] not in "[{" or not _depth_ok(s):
        return None
    try:
        return json.loads(s)
    except (ValueError, RecursionError):
        return None


def _s(v: Any) -> str:
    return v if isinstance(v, str) else ""


# --------------------------------------------------------------------------- #
# CLI envelopes
# --------------------------------------------------------------------------- #
_CODEX_TYPES = frozenset(("thread.started", "turn.started", "turn.completed", "turn.failed",
                          "item.started", "item.updated", "item.completed", "item.plan.delta",
                          "item/completed", "turn/completed"))
_CLAUDE_TYPES = frozenset(("system", "assistant", "user", "result", "stream_event",
                           "rate_limit_event"))
_GEMINI_TYPES = frozenset(("init", "message", "tool_use", "tool_result", "result", "error"))
_OPENCODE_TYPES = frozenset(("step_start", "text", "tool_use", "step_finish", "reasoning",
                             "done", "error"))


def _json_lines(text: str) -> list[dict[str, Any]] | None:
    """The JSON objects of a JSON Lines stream (leading non-JSON lines tolerated), or None."""
    events: list[dict[str, Any]] = []
    seen_json = False
    lines = text.rstrip().split("\n")
    for i, line in enumerate(lines):
        s = line.strip()
        if not s:
            continue
        if not s.startswith("{"):
            if seen_json:
                return None  # prose after events: not a stream
            continue
        value = loads(s)
        if value is None and i == len(lines) - 1 and len(events) >= 2:
            break  # the stream was cut inside its last event (an output cap): the rest stands
        if not isinstance(value, dict) or not isinstance(value.get("type"), str):
            return None
        events.append(value)
        seen_json = True
    return events if len(events) >= 1 else None


def _cli_envelope(text: str) -> Unwrapped | None:
    s = text.strip()
    if not s:
        return None
    if s[0] not in "[{":  # tolerate banner lines ahead of the JSON (older gemini builds)
        m = re.search(r"^[\[{]", s, re.M)
        if m is None:
            return None
        s = s[m.start():]
    events = _json_lines(s)
    if events is None and s[0] == "{" and "\n" in s.strip():
        rows = [loads(ln) for ln in s.split("\n") if ln.strip()]
        if len(rows) >= 2 and all(isinstance(r, dict) for r in rows):
            return _session(rows)  # a chat log as JSON Lines, one message a line
    if events:
        types = {e["type"] for e in events}
        if types & _CODEX_TYPES:
            return _codex(events)
        claude_result = any(e["type"] == "result" and ("subtype" in e or "is_error" in e)
                            for e in events)
        claude_message = any(e["type"] in ("assistant", "user") and isinstance(
            e.get("message"), dict) for e in events)
        # other types are ignored: the Cursor agent adds tool_call, newer builds add more
        if claude_result or claude_message or (
                types <= _CLAUDE_TYPES and types & {"system", "assistant", "user"}):
            return _claude_messages(events, "claude-json" if len(events) == 1
                                    else "claude-stream-json")
        if types <= _GEMINI_TYPES and types & {"init", "message"}:
            return _gemini_stream(events)
        if types <= _OPENCODE_TYPES and types & {"step_start", "step_finish", "text"}:
            return _opencode(events)
        return None
    value = loads(s)
    if isinstance(value, list):
        msgs = [m for m in value if isinstance(m, dict) and isinstance(m.get("type"), str)]
        if msgs and any(m["type"] == "result" for m in msgs):
            return _claude_messages(msgs, "claude-json")
        return _session(value)
    if isinstance(value, dict):
        return _single(value) or (_session(value["messages"]) if isinstance(
            value.get("messages"), list) else None)
    return None


SESSION_ACK = 160  # a first reply shorter than this is an acknowledgement; the next counts
_USER_ROLES = frozenset(("user", "human"))
_ANSWER_ROLES = frozenset(("assistant", "model", "gemini", "ai", "bot", "agent"))


def _part_text(msg: dict[str, Any]) -> str:
    content = msg.get("content", msg.get("parts"))
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(p["text"] for p in content
                         if isinstance(p, dict) and isinstance(p.get("text"), str)
                         and not p.get("thought"))
    return ""


def _session(msgs: list[Any]) -> Unwrapped | None:
    """A chat session saved as a list of messages (``role``/``type`` with ``content`` or
    ``parts``: a gemini session file or checkpoint, a chat log): the answer is the last
    reply to the first prompt, up to the next prompt (or, when that reply is only an
    acknowledgement of fewer than SESSION_ACK characters, to the next prompt); later
    turns are a conversation about the review, not the review.  None unless every item
    is such a message and the list has a reply."""
    if not msgs or not all(isinstance(m, dict) for m in msgs):
        return None
    roles = [str(m.get("role", m.get("type", ""))).lower() for m in msgs]
    if not all(r in _USER_ROLES or r in _ANSWER_ROLES or r in ("system", "info", "tool",
                                                              "error", "function")
               for r in roles) or not any(r in _ANSWER_ROLES for r in roles):
        return None
    answer = ""
    prompts = 0
    for m, r in zip(msgs, roles, strict=True):
        text = _part_text(m)
        if r in _USER_ROLES and text.strip():
            prompts += 1
            if prompts > 1 and len(answer.strip()) >= SESSION_ACK:
                break  # a follow-up question: the review was the reply before it
        elif r in _ANSWER_ROLES and text.strip():
            answer = text
    meta: dict[str, Any] = {}
    if "error" in roles:
        meta["error"] = "error"
    return Unwrapped("session-json", answer, meta)


_GEMINI_KEYS = frozenset(("session_id", "response", "stats", "error", "warnings"))


def _single(obj: dict[str, Any]) -> Unwrapped | None:
    if obj.get("type") == "result" and ("result" in obj or "subtype" in obj):
        return _claude_messages([obj], "claude-json")
    err = obj.get("error")
    gemini_error = isinstance(err, dict) and isinstance(err.get("message"), str) \
        and isinstance(err.get("type"), str) and set(obj) <= _GEMINI_KEYS
    if (isinstance(obj.get("response"), str) and ("stats" in obj or "session_id" in obj)) \
            or gemini_error:
        # gemini's error object (its formatError) has no response and no stats
        meta: dict[str, Any] = {}
        if isinstance(err, dict):
            meta["error"] = _s(err.get("type")) or "error"
        return Unwrapped("gemini-json", _s(obj.get("response")), meta)
    return None


def _codex(events: list[dict[str, Any]]) -> Unwrapped:
    answer = plan = ""
    meta: dict[str, Any] = {}
    final = False
    for e in events:
        t = e["type"]
        item = e.get("item")
        if item is None and isinstance(e.get("params"), dict):
            item = e["params"].get("item")  # the app-server protocol's notification form
        if t in ("item.completed", "item/completed") and isinstance(item, dict):
            kind = item.get("type", item.get("item_type"))
            text = item.get("text")
            if kind in ("agent_message", "agentMessage", "assistant_message") \
                    and isinstance(text, str) and not (final and item.get("phase") == "commentary"):
                answer = text
                final = final or item.get("phase") == "final_answer"
            elif kind == "plan" and isinstance(item.get("text"), str):
                plan = item["text"]
        elif t == "turn.completed" and isinstance(e.get("usage"), dict):
            meta["usage"] = e["usage"]
        elif t in ("turn.failed", "error"):
            meta["error"] = t
    return Unwrapped("codex-exec-json", answer or plan, meta)


def _text_blocks(message: Any) -> str:
    if not isinstance(message, dict):
        return ""
    content = message.get("content")
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        return ""
    return "\n".join(b["text"] for b in content
                     if isinstance(b, dict) and b.get("type") == "text"
                     and isinstance(b.get("text"), str))


def _claude_messages(msgs: list[dict[str, Any]], kind: str) -> Unwrapped:
    result: dict[str, Any] | None = None
    last_text = ""
    for m in msgs:
        if m.get("type") == "result":
            result = m
        elif m.get("type") == "assistant":
            t = _text_blocks(m.get("message"))
            if t.strip():
                last_text = t
    meta: dict[str, Any] = {}
    answer = last_text
    if result is not None:
        if isinstance(result.get("result"), str) and result["result"].strip():
            answer = result["result"]
        if result.get("is_error") is True or str(result.get("subtype", "")).startswith("error"):
            meta["error"] = _s(result.get("subtype")) or "error"
        for key in ("usage", "total_cost_usd"):
            if key in result:
                meta[key] = result[key]
        structured = result.get("structured_output")  # a --json-schema run's object
        if isinstance(structured, dict) and {str(k).lower() for k in structured} & _REVIEW_KEYS:
            meta["structured"] = structured
    return Unwrapped(kind, answer, meta)


def _gemini_stream(events: list[dict[str, Any]]) -> Unwrapped:
    parts: list[str] = []
    meta: dict[str, Any] = {}
    for e in events:
        if e["type"] == "message" and e.get("role") == "assistant":
            parts.append(_s(e.get("content")))
        elif e["type"] == "result":
            if e.get("status") == "error":
                meta["error"] = "result"
            if isinstance(e.get("stats"), dict):
                meta["stats"] = e["stats"]
    return Unwrapped("gemini-stream-json", "".join(parts), meta)


def _opencode(events: list[dict[str, Any]]) -> Unwrapped:
    steps: list[tuple[list[str], str]] = []
    current: list[str] = []
    meta: dict[str, Any] = {}
    for e in events:
        raw_part = e.get("part")
        part: dict[str, Any] = raw_part if isinstance(raw_part, dict) else {}
        t = e["type"]
        if t == "step_start":
            current = []
        elif t == "text":
            current.append(_s(part.get("text")))
        elif t == "step_finish":
            steps.append((current, _s(part.get("reason"))))
            current = []
        elif t == "error":
            meta["error"] = "error"
    if current:
        steps.append((current, ""))
    final = [s for s in steps if s[1] != "tool-calls"]
    chosen = final[-1][0] if final else steps[-1][0] if steps else []
    return Unwrapped("opencode-json", "\n".join(chosen), meta)


# --------------------------------------------------------------------------- #
# Review JSON documents
# --------------------------------------------------------------------------- #
_REVIEW_KEYS = frozenset({"findings", "issues", "comments", "problems", "overall_correctness",
                          "verdict", "decision", "recommendation", "review_decision",
                          "final_verdict", "overall_verdict", "review_verdict", "judgment",
                          "judgement",
                          "review_status",
                          # findings grouped by severity
                          "blockers", "blocking_issues", "must_fix", "should_fix", "nits",
                          "critical_issues", "required_changes", "non_blocking"}) | (
    # a gate's boolean ("approved": false, "pass": false)
    frozenset(reviewer_json.GATES))
# keys a tool wraps its review object in ({"review": {...}})
_WRAPPERS = ("review", "result", "output", "data")


_MARKER_LINES = re.compile(
    r"^[ \t]*(?:#{1,6}[ \t][^\n]{0,200}|-{3,}[ \t]*[\w .:-]{0,40}?[ \t]*-{3,}|={3,}[^\n]{0,40}"
    r"|</?[A-Za-z][\w-]{0,30}>|(?:BEGIN|END)[ _-]?[A-Z_ -]{0,30}|`{3,}[\w-]*|~{3,}[\w-]*)[ \t]*$",
    re.M)


def review_json(text: str) -> dict[str, Any] | None:
    """A review document: the whole text, one ``json`` fence, or the outermost braces; or
    saved pull-request review data (a JSON value or JSON Lines of objects holding review
    comments, and no verdict key of its own), as ``{"comments": [...]}``."""
    s = text.strip()
    m = re.fullmatch(r"(`{3,}|~{3,})[ \t]*(?:json|jsonc)?[ \t]*\n(.*)\n[ \t]*\1[ \t]*", s,
                     re.S | re.I)
    if m:
        s = m.group(2).strip()
    value = loads(s) if s[:1] in ("{", "[") else None
    if value is None and s[:1] in ("{", "["):
        value = _json_values(s)
        if isinstance(value, list) and (current := _last_round(value)) is not None:
            value = current  # verdict files one a round (JSON Lines): the last is current
    if value is not None:
        verdict_doc = isinstance(value, dict) and {str(k).lower() for k in value} & _VERDICT_KEYS
        records = None if verdict_doc else pr_records.comment_records(value)
        if records is not None:
            return {"comments": records}  # saved pull-request review data, in any nesting
        if reviewer_json.findings_array(value) is not None:
            return {"findings": value}  # a review's findings printed as a bare array
    doc = value if isinstance(value, dict) else None
    if doc is None and "{" in s and not s.startswith("{"):
        first, last = s.find("{"), s.rfind("}")
        if last > first:
            inner = loads(s[first:last + 1])
            # the outer text is a short preamble (a title, review markers such as
            # "---review-start---" or "<review>", a fence), not a document of its own
            outside = _MARKER_LINES.sub("", s[:first] + "\n" + s[last + 1:], count=8)
            if isinstance(inner, dict) and len(outside) < 300 and not re.search(
                    r"^\s*(?:#|\||[-*+]\s|\d+[.)]\s)", outside, re.M):
                doc = inner
    if not isinstance(doc, dict):
        return None
    if _is_review(doc):
        return doc
    for _depth in range(3):  # {"result": {"review": {"verdict": ...}}}: wrapped, at most thrice
        wrapped: dict[str, Any] | None = next(
            (doc[k] for k in _WRAPPERS if isinstance(doc.get(k), dict)), None)
        if wrapped is None:
            break
        if _is_review(wrapped):
            # the verdict in its wrapper, the findings in a part beside it ({"review":
            # {"verdict": ...}, "report": {"issues": [...]}}): the whole is the review
            beside = any(v is not wrapped and (isinstance(v, dict) and _is_review(v) or
                                               isinstance(v, list) and v and
                                               reviewer_json.names_findings(k))
                         for k, v in list(doc.items())[:16])
            return doc if beside else wrapped
        doc = wrapped
    else:
        return None
    # its parts one object down: {"summary": {"verdict": ...}, "report": {"problems": [...]}}
    return doc if any(isinstance(v, dict) and _is_review(v)
                      for v in list(doc.values())[:16]) else None


def _last_round(values: list[Any]) -> dict[str, Any] | None:
    """The last of several review documents written one after another, not in one array
    (a verdict file appended to each round: ``{"verdict": "changes", ...}`` then ``{"verdict":
    "approve", ...}``), when every value is an object and the last states a verdict and
    is no finding of its own (a record with a place is a finding, such records are
    findings one a line); None otherwise."""
    if len(values) < 2 or not all(isinstance(v, dict) for v in values[:MAX_VALUES]):
        return None
    last = values[-1]
    keys = {str(k).lower() for k in last}
    if not (keys & _VERDICT_KEYS or any(reviewer_json.names_verdict(k) for k in keys)):
        return None
    return last if reviewer_json.place(last) == (None, None, None) else None


#: the words of a key whose string value may be a whole review written in Markdown
_MARKDOWN_WORDS = frozenset(("review", "feedback", "report", "markdown", "md", "content",
                             "body", "analysis", "text", "output", "response", "result",
                             "comment", "critique", "assessment", "message", "answer",
                             "reply", "completion"))
# a review's shape in one string: a heading, a list item, or a plain-text finding's key line
# (``SEVERITY: high``, ``FILE: a.py:12``, ``FINDINGS:``)
_MARKDOWN_SHAPE = re.compile(
    r"^[ \t]*(?:#{1,6}[ \t]|[-*+][ \t]|\d{1,3}[.)][ \t]|\**(?:severity|file|location|issue|"
    r"problem|findings?|priority|verdict)\**[ \t]*:)", re.M | re.I)
# what a chat or agent answer nests its message in (``{"message": {"content": ...}}``,
# ``{"choices": [{"message": ...}]}``, ``{"content": [{"type": "text", "text": ...}]}``)
_ANSWER_HOLDERS = _MARKDOWN_WORDS | {"choices", "candidates", "messages", "parts", "delta"}
_MAX_ANSWER_NODES = 32


MAX_MARKDOWN_JSON = 1 << 20  # characters of a JSON object looked into for a Markdown review


def markdown_answer(text: str) -> str | None:
    """The review a JSON object carries as one Markdown string (``{"performanceMetrics":
    {...}, "reviewFeedback": "### Review of a.py\\n\\n#### 1. Bugs\\n* ..."}``): the longest
    string of its top level (at most 64 keys) under a key naming a review, feedback, a
    report, content..., of three lines or more with a heading or a list item; None when
    the text is no such object."""
    s = text.strip()
    if not s.startswith("{") or len(s) > MAX_MARKDOWN_JSON or "\\n" not in s:
        return None  # a review held in one string is not megabytes long, and has lines
    value = loads(s)
    return _answer_value(value) if isinstance(value, dict) else None


def _answer_value(doc: dict[str, Any]) -> str | None:
    """The review a chat or agent answer holds as one string: :func:`markdown_value` of
    its top level, else of the objects it nests its message in (at most 32, three down)."""
    queue: list[tuple[Any, int]] = [(doc, 0)]
    seen = 0
    while queue and seen < _MAX_ANSWER_NODES:
        node, depth = queue.pop(0)
        seen += 1
        if isinstance(node, list):
            queue.extend((v, depth) for v in node[:8] if isinstance(v, (dict, list)))
            continue
        if (md := markdown_value(node)) is not None:
            return md
        if depth < 3:
            queue.extend((v, depth + 1) for k, v in list(node.items())[:64]
                         if isinstance(v, (dict, list))
                         and _ANSWER_HOLDERS.intersection(reviewer_json.key_words(k)))
    return None


def markdown_value(doc: dict[str, Any]) -> str | None:
    """The Markdown review a JSON object holds as one string: the longest string of its
    top level (at most 64 keys) under a key naming a review, feedback, a report,
    content..., of three lines or more with a heading or a list item."""
    found = [v for k, v in list(doc.items())[:64] if isinstance(v, str) and v.count("\n") >= 2
             and len(v) <= MAX_MARKDOWN_JSON
             and _MARKDOWN_WORDS.intersection(reviewer_json.key_words(k))
             and _MARKDOWN_SHAPE.search(v)]
    return max(found, key=len) if found else None


#: fenced blocks of one answer looked at for a review document, from its last
_MAX_EMBEDDED = 16


def embedded_review(text: str) -> dict[str, Any] | None:
    """The review document a Markdown answer carries in a fenced ``json`` block (a
    pipeline's machine-readable copy of its review, or the final message a CLI saved
    under a preamble): the last such block that holds one."""
    blocks = reviewer_json.fenced_blocks(text)
    for info, body in reversed(blocks[-_MAX_EMBEDDED:]):
        if info.lower() not in ("json", "jsonc", "") or not body.lstrip().startswith("{"):
            continue
        value = loads(body)
        if isinstance(value, dict) and _is_review(value):
            return value
    return None


def _is_review(doc: dict[str, Any]) -> bool:
    """A review document: a verdict key (``verdict``, or one of its own making such as
    ``editorial_decision``), a findings list under its usual name, a list under a key that
    names findings (``security_issues``, ``lint_violations``, ``concerns``), or a list of
    per-file entries each holding its findings (``{"reviews": [{"plan_file": ...,
    "issues": [...]}]}``)."""
    return bool({str(k).lower() for k in doc} & _REVIEW_KEYS) or _stated_result(doc) or any(
        isinstance(v, list) and reviewer_json.names_findings(k)
        or isinstance(v, str) and reviewer_json.names_verdict(k)
        or isinstance(reviewer_json.flag(v), bool) and reviewer_json.gate_sense(k) is not None
        or isinstance(v, list) and (reviewer_json.severity_group(k, v)
                                    or reviewer_json.generic_findings(k, v))
        for k, v in list(doc.items())[:64]) or bool(reviewer_json.per_file_findings(doc))


#: keys that hold a run's state as often as a review's verdict
_RESULT_KEYS = ("result", "status", "outcome", "conclusion")
#: a run's state, however it reads as a vote: a test run passed or failed
_RUN_STATE = re.compile(r"(?:passed|failed|failure|failing|succeeded|success(?:ful)?|"
                        r"errored|error|completed|done|ok|okay)[.!]?", re.I)


def _stated_result(doc: dict[str, Any]) -> bool:
    """A verdict file under a run's key: ``"result": "CONCERNS"`` (a short value that is a
    verdict word, not a run state such as ``success``) beside something to read (a text
    of 20 characters or more, or a list)."""
    low = {str(k).lower(): v for k, v in list(doc.items())[:64]}
    said = any(isinstance(v := low.get(k), str) and len(v) <= 40
               and not _RUN_STATE.fullmatch(v.strip())
               and words.vote_of(v, False, True) in ("APPROVE", "REVISE", "REJECT")
               for k in _RESULT_KEYS)
    return said and any(isinstance(v, list) and v or isinstance(v, str) and len(v) >= 20
                        and " " in v for v in low.values())


# a review document's own verdict keys: such a document is read as one, not as review data
_VERDICT_KEYS = _REVIEW_KEYS - {"findings", "issues", "comments", "problems"}


MAX_VALUES = 100_000  # JSON values one after another read at most


def _json_values(s: str) -> list[Any] | None:
    """Two or more JSON values one after another: JSON Lines of records, ``jq``'s stream of
    objects, or the arrays ``gh api --paginate`` prints one a page (the arrays' items
    are joined); None when the text is not made of them alone."""
    if not _depth_ok(s):
        return None
    decoder = json.JSONDecoder()
    values: list[Any] = []
    i, n = 0, len(s)
    while i < n and len(values) < MAX_VALUES:
        while i < n and s[i] in " \t\r\n":
            i += 1
        if i >= n:
            break
        if s[i] not in "[{":
            return None
        try:
            value, i = decoder.raw_decode(s, i)
        except (ValueError, RecursionError):
            return None
        values.append(value)
    if len(values) < 2:
        return None
    if all(isinstance(v, list) for v in values):
        return [x for v in values for x in v]
    return values if all(isinstance(v, dict) for v in values) else None


# --------------------------------------------------------------------------- #
# One line with literal \n escapes; an echoed prompt
# --------------------------------------------------------------------------- #
def _unescape_one_line(text: str) -> str:
    if text.count("\n") > 1 or text.count("\\n") < 2:
        return text
    if text.lstrip()[:1] in ("{", "[") and (loads(text) is not None
                                          or _json_values(text.strip()) is not None):
        return text  # minified JSON (`gh api`'s pages): its escapes are JSON's
    return (text.replace("\\r\\n", "\n").replace("\\n", "\n").replace("\\t", "\t")
            .replace('\\"', '"'))


# the template's own lines: the choices, the placeholders and the rules (a bare "Findings:"
# or "Summary:" is also what an answer writes, so it is no sign of an echo)
_TEMPLATE = frozenset(
    ln.strip() for ln in ENVELOPE_TAIL.split("\n")
    if len(ln.strip()) > 12 and re.search(r"[|<\[]|^##|^- ", ln.strip()))


def cut_echo(text: str) -> str:
    """What follows the last echo of the pack's output template (the whole text when the
    template is not there).  An echo is three or more of the template's lines; the
    answer starts after the last of them (and, in a codex transcript, after the last
    ``codex`` label, up to its ``tokens used`` trailer)."""
    if "Verdict: APPROVE | REVISE | REJECT" not in text and "## Required Output Format" \
            not in text:
        return _codex_transcript(text)
    lines = text.split("\n")
    hits = [i for i, ln in enumerate(lines) if ln.strip() in _TEMPLATE]
    if len({lines[i].strip() for i in hits}) < 3:
        return _codex_transcript(text)  # a prompt naming the choices is no echoed template
    rest = lines[hits[-1] + 1:]
    labels = [i for i, ln in enumerate(rest) if ln.strip() == "codex"]
    if labels:
        rest = rest[labels[-1] + 1:]
        for i, ln in enumerate(rest):
            if ln.strip() == "tokens used" or ln.strip().startswith("tokens used:"):
                rest = rest[:i]
                break
    return "\n".join(rest)


# a wrapper's closing status line ("EXIT=0", "exit code: 1") after what the CLI printed
_EXIT_LINE = re.compile(
    r"\n[ \t]*(?:exit(?:[ _]?code)?|rc)[ \t]*[=:][ \t]*-?\d{1,3}[ \t]*\n*\Z", re.I)


def printed_once(text: str) -> str:
    """An answer the CLI printed twice in a row (gemini's final message written out again,
    a wrapper's ``EXIT=0`` after it): the answer, once.  Anything else as it is."""
    body = _EXIT_LINE.sub("\n", text[-200:])
    body = text[:-200] + body if len(text) > 200 else body
    a = body.strip("\n")
    n = len(a)
    if n < 80:
        return text
    for half in (a[: n // 2], a[: (n - 1) // 2]):
        if half.strip() and a in (half + half, half + "\n" + half, half + "\n\n" + half):
            return half
    return text


# the label a CLI wrapper puts before every line of a reviewer's output ("[codex] ",
# "gemini> ", "[claude-review] ")
_LINE_PREFIX = re.compile(r"^(?:\[(?P<a>[A-Za-z][\w.-]{1,24})\]|(?P<b>[A-Za-z][\w.-]{1,24})>)"
                          r"(?: |$)")
_NOT_PREFIX = re.compile(r"(?i)^(?:" + SEVERITY_WORD + r"|x|done|todo|fixed|ok|pass|fail"
                         r"|error|warning|notice|debug|trace)$")


def unprefixed(text: str) -> str:
    """``text`` without the one label a wrapper put before its lines (``[codex] …``,
    ``gemini> …``), when at least three lines and four in five of its non-blank lines
    carry it; a severity tag or a check mark is never such a label."""
    lines = text.split("\n")
    seen: dict[str, int] = {}
    nonblank = 0
    for ln in lines:
        if ln.strip():
            nonblank += 1
            m = _LINE_PREFIX.match(ln)
            if m is not None:
                seen[m.group(0).rstrip()] = seen.get(m.group(0).rstrip(), 0) + 1
    if not seen:
        return text
    label, count = max(seen.items(), key=lambda kv: kv[1])
    name = label.strip("[]>")
    if count < 3 or count * 5 < nonblank * 4 or _NOT_PREFIX.match(name):
        return text
    return "\n".join(ln[len(label):].removeprefix(" ") if ln.startswith(label) else ln
                     for ln in lines)


# a bold title glued to the end of a sentence (codex prints its progress messages and its
# answer without a break between them: "… concrete fixes.**Critical Findings**")
_GLUED_LABEL = re.compile(r"[.!?\u3002](?P<b>(?:\*\*|__)[^\W\d_][^*_\n]{1,60}(?:\*\*|__)"
                          r"[ \t]*:?)[ \t]*$")


def unglue_labels(text: str) -> str:
    """``text`` with a bold title that is glued to the sentence before it, at the end of
    its line, moved to a paragraph of its own: the title of what follows.  Lines inside
    fenced code are left alone."""
    if "**" not in text and "__" not in text:
        return text
    out: list[str] = []
    fence = None
    for ln in text.split("\n"):
        m = _FENCE_LINE.match(ln)
        if m is not None:
            if fence is None:
                fence = m.group(1)[0]
            elif m.group(1)[0] == fence:
                fence = None
        elif fence is None and (g := _GLUED_LABEL.search(ln)) is not None \
                and len(ln[:g.start("b")].split()) >= 3 and not ln.lstrip().startswith("|"):
            out += [ln[:g.start("b")], "", g["b"]]
            continue
        out.append(ln)
    return "\n".join(out)


_FENCE_LINE = re.compile(r"^\s{0,3}(`{3,}|~{3,})")


# a terminal table drawn with box characters (rich's, a CLI's): its cell lines, between
# vertical bars, and its rules, made of box characters alone
_BOX_BARS = "\u2502\u2503\u2551"
_BOX_CELLS = re.compile(r"^\s*[" + _BOX_BARS + r"](?:[^" + _BOX_BARS + r"\n]*[" + _BOX_BARS
                        + r"]){2,}\s*$")
_BOX_RULE = re.compile(r"^\s*[\u2500-\u257f]{3,}\s*$")
MAX_BOX_ROWS = 2_000  # rows of one drawn table turned into a Markdown table


def box_tables(text: str) -> str:
    """``text`` with each table drawn with box characters (two columns or more: a header
    row, then rows, each row perhaps over several lines whose first cell is blank) turned
    into a Markdown table of the same cells, so that its columns say what a row is.  A box
    of one column (a framed note) is left as it is."""
    if "\u2502" not in text and "\u2503" not in text and "\u2551" not in text:
        return text
    lines = text.split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        if not (_BOX_CELLS.match(lines[i]) or _BOX_RULE.match(lines[i])):
            out.append(lines[i])
            i += 1
            continue
        j = i
        while j < len(lines) and (_BOX_CELLS.match(lines[j]) or _BOX_RULE.match(lines[j])):
            j += 1
        table = _box_rows(lines[i:j])
        if table is None:
            out += lines[i:j]
        else:
            out += ["", *table, ""]
        i = j
    return "\n".join(out)


def _box_rows(block: list[str]) -> list[str] | None:
    """The Markdown lines of one drawn table, or None when it is no table of columns."""
    rows: list[list[str]] = []
    ruled = False  # the row above ended at a rule: the next cell line opens a row
    width = 0
    for ln in block:
        if _BOX_RULE.match(ln):
            ruled = True
            continue
        cells = [c.strip() for c in re.split("[" + _BOX_BARS + "]", ln.strip())[1:-1]]
        if len(cells) < 2 or width and len(cells) != width:
            return None
        width = len(cells)
        if rows and not ruled and not cells[0]:
            # a cell wrapped onto the next line: the same row
            rows[-1] = [f"{a} {b}".strip() for a, b in zip(rows[-1], cells, strict=True)]
        else:
            rows.append(cells)
        ruled = False
        if len(rows) > MAX_BOX_ROWS:
            return None
    if len(rows) < 2:
        return None
    md = ["| " + " | ".join(c.replace("|", "\\|") for c in r) + " |" for r in rows]
    return [md[0], "|" + " --- |" * width, *md[1:]]


# the banner a codex CLI run prints before the session's messages
_CODEX_BANNER = re.compile(r"\A\s*(?:\[[^\]\n]{0,40}\]\s*)?OpenAI Codex v\d[^\n]{0,60}\n")


def _codex_transcript(text: str) -> str:
    """A codex CLI transcript (its banner, the ``user`` prompt, ``thinking`` and ``exec``
    blocks, ``codex`` messages, ``tokens used``): the answer is the last ``codex``
    message, up to the ``tokens used`` trailer; the prompt it echoes and the final
    message printed again after the trailer are not read.  A transcript saved without
    its banner is known by an ``exec`` block's outcome line (``succeeded in 0ms:``).  Any
    other text is returned as it is."""
    if not _CODEX_BANNER.match(text[:200]) and not _CODEX_EXEC.search(text) \
            and not _LATE_BANNER.search(text[:4000]):
        return text
    lines = text.split("\n")
    labels = [i for i, ln in enumerate(lines) if _STAMP.sub("", ln.strip(), 1) == "codex"]
    if not labels:
        return text
    rest = lines[labels[-1] + 1:]
    for i, ln in enumerate(rest):
        t = _STAMP.sub("", ln.strip(), 1)
        if t == "tokens used" or t.startswith("tokens used:"):
            rest = rest[:i]
            break
    answer = "\n".join(rest).strip("\n")
    half = answer[:(len(answer) - 1) // 2]
    if half.strip() and answer == half + "\n" + half:
        return half  # a saved tail without the trailer: the final message printed twice
    return "\n".join(rest)


# the banner on a line of its own after a shell's prelude (PowerShell's NativeCommandError
# lines for what the CLI wrote on its error stream), then its rule
_LATE_BANNER = re.compile(r"^OpenAI Codex v\d[^\n]{0,60}\n-{4,}\s*$", re.M)


# a transcript saved without its banner: an ``exec`` block, its command, then its outcome
_CODEX_EXEC = re.compile(
    r"^(?:\[[^\]\n]{1,40}\]\s*)?exec\n[^\n]{1,2000}\n"
    r"\s*(?:succeeded|exited -?\d+) in \d+(?:\.\d+)?m?s", re.M)


_STAMP = re.compile(r"^\[[^\]\n]{1,40}\]\s*")  # "[2025-09-01T12:00:00] codex"


# --------------------------------------------------------------------------- #
# coderabbit's plain review
# --------------------------------------------------------------------------- #
_CR_RULE = re.compile(r"^={20,}[ \t]*$", re.M)
_CR_FIELD = re.compile(r"^(?P<k>File|Line|Type):[ \t]*(?P<v>\S.{0,500})$")
_CR_LINES = re.compile(r"^(?P<a>\d{1,7})(?:\s*(?:to|-|\u2013)\s*(?P<b>\d{1,7}))?\b")
# its comment types: a potential issue is the middle of the scale, as its badge is
_CR_TYPES = {"potential_issue": "medium", "refactor_suggestion": "minor", "nitpick": "minor",
             "nit": "minor", "suggestion": "minor"}
_CR_PROMPT = "Prompt for AI Agent:"
MAX_CR_RECORDS = 10_000


def coderabbit_plain(text: str) -> dict[str, Any] | None:
    """``coderabbit review --plain`` output as a review document (``{"findings": [...]}``),
    or None when the text is not made of its records.  A record: ``File: path``, ``Line:
    12 to 14``, ``Type: potential_issue``, then ``Comment:`` (its first line the title,
    the rest up to ``Prompt for AI Agent:`` the body); a ``--prompt-only`` record has only
    the prompt, which is then its text."""
    if "\nFile: " not in text or not _CR_RULE.search(text):
        return None
    findings: list[dict[str, Any]] = []
    for part in _CR_RULE.split(text)[1:MAX_CR_RECORDS + 1]:
        lines = part.strip("\n").split("\n")
        fields: dict[str, str] = {}
        i = 0
        while i < len(lines) and (m := _CR_FIELD.match(lines[i].strip())):
            fields[m["k"].lower()] = m["v"].strip()
            i += 1
        if "file" not in fields or not ("line" in fields or "type" in fields):
            continue
        body = [ln.rstrip() for ln in lines[i:]]
        cut = next((j for j, ln in enumerate(body) if ln.strip() == _CR_PROMPT), len(body))
        comment, prompt = body[:cut], body[cut + 1:]
        while comment and not comment[0].strip():
            comment = comment[1:]
        if comment and comment[0].strip() == "Comment:":
            comment = comment[1:]
        words = [ln for ln in comment if ln.strip()] or [ln for ln in prompt if ln.strip()]
        if not words:
            continue
        rec: dict[str, Any] = {"file": fields["file"], "title": words[0].strip()}
        rest = "\n".join(comment).strip().split("\n", 1)
        if len(rest) == 2 and rest[1].strip():
            rec["body"] = rest[1].strip()
        lm = _CR_LINES.match(fields.get("line", ""))
        if lm:
            rec["line"] = int(lm["a"])
            if lm["b"] and int(lm["b"]) > int(lm["a"]):
                rec["end_line"] = int(lm["b"])
        sev = _CR_TYPES.get(fields.get("type", "").strip().lower())
        if sev:
            rec["severity"] = sev
        findings.append(rec)
    return {"findings": findings} if findings else None
