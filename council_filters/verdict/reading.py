"""Tolerant reading of a reviewer's answer: what models actually write.

A pure function over the (redacted) answer bytes.  It finds the verdict,
confidence, summary and findings whatever the formatting habit: keys in any
letter case, wrapped in emphasis or backticks, as ATX headings, as table
rows, behind a quote marker, a list bullet or an emoji; a BOM; CRLF and lone
CR line ends; a preamble; the whole answer inside one fenced block; an answer
that is one JSON object.  Findings are read as list items (``-``, ``*``,
``+``, ``1.``, ``1)``), headings, table rows or plain lines that start with a
location; severity tags and locations are recognised in the spellings listed
in docs/parse-verdict.md; each finding keeps its own text.

The rules, in the order they decide:

1. A leading BOM goes, line ends become ``\\n``, ``INGEST_TOKEN:`` lines go.
2. An answer that is one JSON object (bare or in one ```` ```json ```` block)
   is read as JSON.
3. If the whole answer is one fenced block, its inside is the answer.  Else
   the first ``Verdict`` key outside any code block wins; if there is none,
   a preamble followed by one text/markdown fenced block reads that block.
4. A reviewer cannot declare itself TIMEOUT, ERROR or UNAVAILABLE: those
   words, or a value naming no verdict, give UNKNOWN with a warning.

Nothing here raises on any input.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from typing import Any

from council_filters.base import severity
from council_filters.verdict import (
    comments,
    document,
    formats,
    layers,
    mojibake,
    pr_records,
    review_body,
    reviewer_json,
    words,
)
from council_filters.verdict.answer_lines import (
    _FENCE_RE,
    _HEADING_RE,
    OTHER_SECTIONS,
    Key,
    _unwrap,
    _wrapper,
    code_mask,
    confidence_word,
    key_of,
    normalise,
    verdict_word,
)
from council_filters.verdict.finding_items import (
    _NONE_RE,
    _finding_heading,
    parse_findings,
)
from council_filters.verdict.locations import (
    SEVERITY_WORD,
    Location,
    _put_location,
    _put_severity,
    checkout_relative,
    clean_path,
    find_location,
    put_related,
    severity_word,
)

__all__ = [
    "NOT_A_VOTE",
    "NO_VERDICT",
    "OTHER_SECTIONS",
    "SEVERITY_WORD",
    "SUMMARY_CAP",
    "VOTES",
    "Key",
    "Location",
    "Reading",
    "clean_path",
    "code_mask",
    "confidence_word",
    "find_location",
    "key_of",
    "layer1",
    "normalise",
    "parse_findings",
    "read",
    "severity_word",
    "verdict_word",
]

VOTES = ("APPROVE", "REVISE", "REJECT")
SUMMARY_CAP = 500
NO_VERDICT = layers.NO_VERDICT_WARNING
TEMPLATE_ONLY = "the answer is an output template with placeholders, not a review"
NOT_A_VOTE = "verdict is not APPROVE, REVISE or REJECT \u2014 marked UNKNOWN"


# --------------------------------------------------------------------------- #
# Results
# --------------------------------------------------------------------------- #
@dataclass
class Reading:
    verdict: str = "UNKNOWN"
    confidence: str = ""
    summary: str = ""
    findings_text: str = ""
    findings: list[dict[str, Any]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    found_verdict: bool = False



# --------------------------------------------------------------------------- #
# The reader
# --------------------------------------------------------------------------- #
def read(data: bytes, origin: str = "reviewer", root: str | None = None) -> Reading:
    """Read one answer; see the module docstring for the rules.

    ``root``: the reviewed repository's root; an absolute path under it is made
    relative to it.
    """
    text = mojibake.repair(normalise(data))
    got = formats.unwrap(text)
    warnings: list[str] = []
    if got.meta.get("error"):
        warnings.append(f"the reviewer CLI reported an error ({got.kind}: "
                        f"{_safe_word(str(got.meta['error']))})")
    doc = got.meta.get("doc")
    if isinstance(doc, dict) and _template(doc):
        # an echoed output template (placeholders such as path/to/, <title>): no review,
        # and its example verdict is no vote
        out = _from_json({}, origin)
        warnings.append(TEMPLATE_ONLY)
    else:
        out = _from_json(doc, origin) if isinstance(doc, dict) \
            else _from_document(got.text, origin)
    structured = got.meta.get("structured")
    if not out.found_verdict and isinstance(structured, dict) and doc is not structured:
        _take_structured(out, _from_json(structured, origin))
    if not isinstance(doc, dict):
        embedded = formats.embedded_review(got.text)
        if embedded is not None and not _template(embedded):
            _take_embedded(out, _from_json(embedded, origin))
    out.warnings[:0] = warnings
    if root:  # the structured findings; the findings text keeps the reviewer's words
        for f in out.findings:
            if isinstance(f.get("file"), str):
                f["file"] = checkout_relative(relative_to(f["file"], root))
            for r in f.get("related") or ():
                r["file"] = checkout_relative(relative_to(r["file"], root))
    return out


def _template(doc: dict[str, Any]) -> bool:
    """A review document that is a template shown in the answer, not a review: two or more
    of its values are placeholders whole (``"<path>"``, ``"path/to/file.py"``,
    ``"[file:line]"``, ``"{title}"``).  A placeholder-like word inside a real finding's
    prose (``the <form> element``) does not count."""
    seen, found = 0, 0
    stack: list[Any] = [doc]
    while stack and seen < 2_000:
        v = stack.pop()
        seen += 1
        if isinstance(v, dict):
            stack.extend(list(v.values())[:200])
        elif isinstance(v, list):
            stack.extend(v[:200])
        elif isinstance(v, str):
            t = v.strip()
            if len(t) <= 80 and (document._PLACEHOLDER.fullmatch(t) or t.startswith("path/to/")):
                found += 1
                if found >= 2:
                    return True
    return False


def _take_structured(out: Reading, schema: Reading) -> None:
    """A CLI's structured answer (claude's ``structured_output``) beside a result text that
    names no verdict: its verdict field is the verdict, and its findings stand when the
    text gave none."""
    if schema.found_verdict:
        out.found_verdict = True
        out.verdict = schema.verdict
        out.warnings = [w for w in out.warnings if w != NO_VERDICT] + [
            w for w in schema.warnings if w == NOT_A_VOTE]
    if not out.findings and schema.findings:
        out.findings, out.findings_text = schema.findings, schema.findings_text


def _take_embedded(out: Reading, block: Reading) -> None:
    """A review JSON fenced inside a Markdown answer: the reviewer's own structured copy
    of its review.  Its verdict stands when the prose states none; its findings stand
    when the prose gave none, when every one of them names its file (the prose's
    sections, quotes and evidence lines are then the same findings retold), or when it
    holds at least as many as the prose (a summary after the block retells a few)."""
    if not out.found_verdict and block.found_verdict:
        out.found_verdict, out.verdict = True, block.verdict
        out.warnings = [w for w in out.warnings if w != NO_VERDICT] + [
            w for w in block.warnings if w == NOT_A_VOTE]
    if block.findings and (not out.findings or all(f.get("file") for f in block.findings)
                           or len(block.findings) >= len(out.findings)):
        out.findings, out.findings_text = block.findings, block.findings_text


def _safe_word(s: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]", "", s)[:40] or "error"


def relative_to(path: str, root: str) -> str:
    """``path`` relative to ``root`` when it is an absolute path under it (as given or
    with its symbolic links resolved)."""
    for r in dict.fromkeys((root.rstrip("/"), os.path.realpath(root).rstrip("/"))):
        if r and path.startswith(r + "/"):
            return path[len(r) + 1:]
    return path


TREE_CAP = 256 << 10  # characters of one answer read as a document (answers are far shorter)
CUT = "the answer is longer than 256 KiB: only its first 256 KiB were read"


def _from_document(text: str, origin: str) -> Reading:
    cut = len(text) > TREE_CAP
    if cut:
        nl = text.rfind("\n", 0, TREE_CAP)
        text = text[: nl if nl > 0 else TREE_CAP]
    lines = text.split("\n")
    parts = _markdown_fences(lines)
    span = None if parts else _wrapper(lines, whole=True) or _wrapper(lines, whole=False)
    if parts:
        text = "\n\n---\n\n".join(parts)  # comments pasted one fence each
    elif span is not None:
        inner = "\n".join(lines[span[0]:span[1]])
        # a fenced template (placeholders such as {unit name}) is not an answer
        if len(document._PLACEHOLDER.findall(inner)) < 2:
            text = inner
    doc = document.read_document(text, origin)
    body = review_body.read_body(text, origin, document.badge_severity)
    if body is None and pr_records.overview(text, opening=True):
        body = _overview_findings(text, origin)  # a bot's overview: its tables are changes
    if body is None and not doc.findings:
        body = _lone_comment(text, origin)  # one bot comment's body, saved alone
    if body is not None:  # a bot's folded summary body: its lists are the findings
        doc.findings, doc.findings_text = body, None
    if len(doc.findings) == 1 and not doc.findings[0].get("file") and pr_records.bot_body(text):
        _prompt_place(doc.findings[0], text)  # one bot comment, its place in its prompt
    out = Reading()
    if cut:
        out.warnings.append(CUT)
    if not doc.votes and not doc.template and not doc.reply \
            and (closing := _closing_verdict(text)):
        doc.votes.append(document.Vote(closing, False, 0, 1))  # "**LGTM** 🚀" to close
    if not doc.votes and not doc.template and not doc.reply \
            and (opening := _opening_verdict(text)):
        doc.votes.append(document.Vote(opening, False, 0, 1))  # "BLOCKING: yes." to open
    vote, warn, found = resolve_votes(doc.votes)
    last = max((v.round for v in doc.votes), default=0)
    if vote == "APPROVE" and last and len(doc.round_starts) >= last and any(
            v.round == last and v.vote == "APPROVE" for v in doc.votes):
        # the last round approves: what earlier rounds found is settled by it
        doc.findings = doc.findings[doc.round_starts[last - 1]:]
    out.found_verdict = found
    if vote is not None:
        out.verdict = vote
    if warn:
        out.warnings.append(warn)
    if not found:
        out.warnings.append(NO_VERDICT)
    out.confidence = doc.confidence
    out.summary = doc.summary
    out.findings = doc.findings
    out.findings_text = doc.findings_text if doc.findings_text is not None else \
        "\n".join(_item_text(f) for f in doc.findings)
    return out


_CLOSING = re.compile(r"^\s*(?:\*\*|__)?(?P<p>[^*_\n]{2,40}?)(?:\*\*|__)?[\s\W]*$")


def _closing_verdict(text: str) -> str | None:
    """A review that states its verdict only as its last line, the phrase alone in bold or
    in capitals (``**LGTM** 🚀``, ``**Request changes.**``, ``APPROVED``), or ending the
    line after a dash (``All issues resolved — LGTM``): that verdict."""
    tail = text[-400:].rstrip().rsplit("\n", 1)[-1]
    got = _edge_phrase(tail)
    if got is None and not re.search(r"[\d:=|]", tail):
        # "All issues resolved — LGTM": the phrase after the line's last dash
        cut = list(_DASH.finditer(tail))
        if cut:
            got = _edge_phrase(tail[cut[-1].end():])
    return got


# a dash between words: " — ", " – ", " - "
_DASH = re.compile(r"\s[\u2014\u2013-]\s")
# "BLOCKING: yes." / "Blocking: no": a gate the answer opens with, saying whether the
# change is blocked
_GATE = re.compile(r"^[*_`\s]*blocking[*_`\s]*[:=][*_`\s]*(?P<a>yes|no|true|false)\b", re.I)


def _opening_verdict(text: str) -> str | None:
    """A review that opens with its verdict: the first line a blocking gate answered yes or
    no (``BLOCKING: yes.`` blocks the merge: REJECT; ``no``: APPROVE), or the verdict phrase
    alone in bold or in capitals (``**REQUEST CHANGES**``, ``NO-GO``)."""
    head = text.lstrip()[:400].split("\n", 1)[0]
    m = _GATE.match(head)
    if m is not None:
        return "REJECT" if m["a"].lower() in ("yes", "true") else "APPROVE"
    return _edge_phrase(head)


def _edge_phrase(tail: str) -> str | None:
    """The verdict of a line that is the verdict phrase alone, in bold or in capitals."""
    m = _CLOSING.match(tail)
    if m is None or tail.lstrip().startswith(("#", "|", ">", "-", "*  ", "`")) \
            and not tail.lstrip().startswith("**"):
        return None
    phrase = m["p"].strip()
    if re.search(r"[\d:=]", phrase):
        return None  # "PASS: 12, FAIL: 0": a tally of checks, not the verdict phrase
    if len(phrase.split()) > 5 or not (tail.lstrip().startswith(("**", "__"))
                                        or phrase.isupper()):
        return None
    v = words.vote_of(phrase, False, strict=True)
    return v if v in VOTES else None


def _markdown_fences(lines: list[str]) -> list[str] | None:
    """The insides of the ``md``/``markdown`` fences a text is made of, when it holds two
    or more and nothing else but headings, rules and blank lines (review comments pasted
    into a file one fence each); None otherwise."""
    parts: list[str] = []
    i, n = 0, len(lines)
    while i < n:
        ln = lines[i]
        m = _FENCE_RE.match(ln)
        if m is None or m.group(2).lower() not in ("md", "markdown"):
            s = ln.strip()
            if s and not s.startswith(("#", "---", "***", "<!--")):
                return None
            i += 1
            continue
        fence = m.group(1)
        j = i + 1
        while j < n and lines[j].rstrip() != fence:
            j += 1
        if j >= n:
            return None
        parts.append("\n".join(lines[i + 1:j]))
        i = j + 1
    return parts if len(parts) >= 2 else None


CONFLICT = "the answer states conflicting verdicts \u2014 marked UNKNOWN"


def resolve_votes(votes: list[document.Vote]) -> tuple[str | None, str | None, bool]:
    """(verdict or None, warning or None, whether a verdict key was found).

    The ``Verdict`` keys decide; the weaker keys (Decision, Status...) only when there
    is none.  Among them, a key that replaces others ("New verdict", "Final verdict")
    decides over plain ones, and those over a key a later one replaces ("Original
    verdict").  Keys that agree give their vote; keys that disagree give UNKNOWN with a
    warning, unless they sit in successive rounds, when the last round's vote counts.
    """
    # (a weaker key whose value the word table does not hold, "### Recommendation: MERGE"
    # under "## PR #9 — …", is one item's call too; a Verdict key naming none is a remark)
    scopes = {v.scope for v in votes
              if v.scope is not None and (v.vote is not None or not v.strong)}
    if len(scopes) >= 2:
        # a per-file review ("## 1. dialog.tsx" … "### Verdict: PASS", "## 2. routes.tsx" …):
        # each file's verdict, not the review's
        votes = [v for v in votes if v.scope is None]
    # "**Verdict:** ✅ Performance is excellent" under "## Performance analysis": a remark
    # on one part of the review, not its verdict
    strong = [v for v in votes if v.strong and not v.aside]
    pool = strong or [v for v in votes if not v.strong and v.vote in VOTES]
    if not pool:
        return None, None, False
    # "Original verdict: REJECT" then "New verdict: ACCEPT": the replacing key decides
    top = max(v.rank for v in pool)
    if top == 0:
        # only a verdict the text calls superseded ("Initial verdict: not ready to merge
        # until …", "Previous verdict: REVISE" in a re-review that states no new one): the
        # current verdict is not stated
        return None, None, False
    pool = [v for v in pool if v.rank == top]
    voted = [v for v in pool if v.vote in VOTES]
    if voted:  # a remark under a Verdict label after a stated verdict is not a vote
        first = min(v.order for v in voted)
        pool = [v for v in pool if not (v.remark and v.order > first)]
    if not voted or len(voted) < len(pool):
        # a Verdict key naming no verdict (or a status such as TIMEOUT): the reviewer's
        # own word is not a vote, whatever another key says
        return None, NOT_A_VOTE, True
    distinct = {v.vote for v in voted}
    if len(distinct) == 1:
        return voted[0].vote, None, True
    last = max(v.round for v in voted)
    if last:
        start = min(v.order for v in voted if v.round == last)
        latest = {v.vote for v in voted if v.round == last or v.round == 0 and v.order > start}
        if len(latest) == 1:
            return latest.pop(), None, True
    return None, CONFLICT, True


def _read_lines(lines: list[str], origin: str) -> Reading:
    out = Reading()
    mask = code_mask(lines)
    keys: list[Key | None] = [None if mask[i] else key_of(ln) for i, ln in enumerate(lines)]
    # verdict and confidence: first key line with a value (or a value on the next line)
    for name in ("verdict", "confidence"):
        for i, k in enumerate(keys):
            if k is None or k.name != name:
                continue
            value = k.value or _next_value(lines, mask, keys, i)
            if not value:
                continue
            if name == "verdict":
                word = verdict_word(value)
                out.found_verdict = True
                if word in VOTES:
                    out.verdict = word
                else:
                    out.warnings.append(NOT_A_VOTE)
            else:
                out.confidence = confidence_word(value)
            break
    if not out.found_verdict:
        out.warnings.append(NO_VERDICT)
    out.summary = _summary(lines, mask, keys)
    sections = _findings_sections(lines, mask, keys)
    if sections is None:  # no findings section: take located items from anywhere
        body = [i for i, k in enumerate(keys) if k is None]
        items = parse_findings([lines[i] for i in body], [mask[i] for i in body], origin,
                               located_only=True)
        out.findings = items
        out.findings_text = "\n".join(_item_text(f) for f in items)
    else:
        flat = [i for sec in sections for i in sec]
        text_lines = [lines[i] for i in flat]
        out.findings = parse_findings(text_lines, [mask[i] for i in flat], origin)
        out.findings_text = "\n".join(text_lines).strip("\n")
    return out


def _item_text(f: dict[str, Any]) -> str:
    where = f.get("file", "")
    if where and f.get("line"):
        where += f":{f['line']}"
    return f"- {where} \u2014 {f['summary']}" if where else f"- {f['summary']}"


def _next_value(lines: list[str], mask: list[bool], keys: list[Key | None], i: int) -> str:
    for j in range(i + 1, min(len(lines), i + 6)):
        if mask[j] or not lines[j].strip():
            continue
        if keys[j] is not None:
            return ""
        return lines[j].strip()
    return ""


def _summary(lines: list[str], mask: list[bool], keys: list[Key | None]) -> str:
    for i, k in enumerate(keys):
        if k is None or k.name != "summary":
            continue
        if k.value:
            return _cap(_unwrap(k.value) or k.value)
        para: list[str] = []
        for j in range(i + 1, len(lines)):
            if mask[j] or keys[j] is not None or _HEADING_RE.match(lines[j].strip()):
                break
            if not lines[j].strip():
                if para:
                    break
                continue
            para.append(lines[j].strip())
        if para:
            return _cap(" ".join(para))
    return ""


def _cap(s: str) -> str:
    b = s.encode("utf-8")
    if len(b) <= SUMMARY_CAP:
        return s
    return b[:SUMMARY_CAP].decode("utf-8", "ignore")


def _findings_sections(
    lines: list[str], mask: list[bool], keys: list[Key | None]
) -> list[list[int]] | None:
    sections: list[list[int]] = []
    i = 0
    while i < len(lines):
        k = keys[i]
        if k is None or k.name != "findings":
            i += 1
            continue
        sec: list[int] = []
        if k.value and not _NONE_RE.match(k.value):
            lines[i] = k.value
            sec.append(i)
        j = i + 1
        while j < len(lines):
            kj = keys[j]
            if kj is not None and kj.name != "findings":
                break
            if kj is not None and kj.name == "findings":
                break
            if not mask[j] and k.heading:
                hm = _HEADING_RE.match(lines[j].strip())
                if hm and len(hm.group(1)) <= k.heading and not _finding_heading(hm.group(2)):
                    break
            sec.append(j)
            j += 1
        sections.append(sec)
        i = j
    return sections or None


# --------------------------------------------------------------------------- #
# JSON answers
# --------------------------------------------------------------------------- #
def _json_answer(text: str) -> dict[str, Any] | None:
    s = text.strip()
    m = re.fullmatch(r"(`{3,}|~{3,})\s*(?:json|jsonc)?\s*\n(.*)\n\s*\1\s*", s, re.S | re.I)
    if m:
        s = m.group(2).strip()
    if not (s.startswith("{") and s.endswith("}")):
        return None
    try:
        doc = json.loads(s)
    except ValueError:
        return None
    if not isinstance(doc, dict):
        return None
    if not any(str(k).lower() in ("verdict", "decision") for k in doc):
        return None
    return doc


def _get(d: dict[str, Any], *names: str) -> Any:
    low = {str(k).lower(): v for k, v in d.items()}
    for n in names:
        if n in low and low[n] not in (None, ""):
            return low[n]
    return None


def _from_json(doc: dict[str, Any], origin: str) -> Reading:
    """A review document: a verdict (or codex's ``overall_correctness``, a quality gate's
    ``status``/``passed``), a summary, and findings under their usual names."""
    out = Reading()
    v = _get(doc, *_VERDICT_NAMES)
    if v is None:  # "editorial_decision": "Major Revision", "merge_verdict": "GO"
        v = next((d for k, d in list(doc.items())[:64]
                  if isinstance(d, str) and reviewer_json.names_verdict(k)), None)
    if v is None:  # "merge_recommendation": "do not merge" (the phrase itself, not advice)
        v = next((d for k, d in list(doc.items())[:64]
                  if isinstance(d, str) and _MERGE_ADVICE.fullmatch(str(k))
                  and words.vote_of(d, False, True) in VOTES), None)
    if v is None:  # {"summary": {"verdict": "APPROVE", "issues": 0}}
        v = next((w for d in _holders(doc) if (w := _get(d, *_VERDICT_NAMES)) is not None),
                 None)
    word: str | None = None
    if isinstance(v, dict):
        v = _get(v, "verdict", "decision", "status", "value")
    if isinstance(v, str):
        out.found_verdict = True
        # a run's "status": "ok" (a tool's report) is no verdict; a verdict or a gate's
        # status is ("verdict": "OK", "gate_status": "OK")
        word = words.vote_of(v, not _run_status(doc)) or reviewer_json.value_vote(v)
    else:
        b = reviewer_json.flag(_get(doc, *_GATES))
        if not isinstance(b, bool):  # "isApproved", "passesQualityGate", "shouldBlock"
            b = reviewer_json.gate(doc)
        if isinstance(b, bool):
            out.found_verdict = True
            word = "APPROVE" if b else "REVISE"
    if not out.found_verdict and (said := _assessment_vote(doc)) is not None:
        out.found_verdict = True  # "overall_assessment": "approve_with_nits"
        word = said
    if not out.found_verdict and (part := _verdict_part(doc)) is not None:
        sub = _from_json(part, origin)  # {"analysis": {"decision": "reject", ...}}
        if sub.verdict in VOTES:  # a part's run state ("status": "ok") is no verdict
            out.found_verdict, word = True, sub.verdict
    if word not in VOTES and isinstance(v, str) and _weak_top(doc):
        # "status": "complete" (the run's) beside {"summary": {"verdict": "NEEDS_CHANGES"}}:
        # the verdict the review's own block states
        inner = next((w for d in _holders(doc) if isinstance(w := _get(d, *_VERDICT_NAMES), str)
                      and words.vote_of(w) in VOTES), None)
        if inner is not None:
            word = words.vote_of(inner)
    if word in VOTES:
        out.verdict = word
    elif out.found_verdict:
        out.warnings.append(NOT_A_VOTE)
    else:
        out.warnings.append(NO_VERDICT)
    c = _get(doc, "confidence", "overall_confidence", "overall_confidence_score")
    if isinstance(c, (str, int, float)) and not isinstance(c, bool):
        out.confidence = confidence_word(str(c))
    s = _get(doc, "summary", "overview", "overall_explanation", "explanation", "review_notes")
    if isinstance(s, str):
        out.summary = _cap(" ".join(s.split()))
    for item, sev in reviewer_json.grouped_findings(doc):
        _add_json_item(out, item, origin, sev)
    if not out.findings:  # located comments under a key of its own naming ("threads": [...])
        for rec in _located_comments(doc):
            _add_json_item(out, rec, origin, None)
    if not out.findings and (md := formats.markdown_value(doc)) is not None:
        out.findings = _from_document(md, origin).findings  # {"verdict": .., "review": "## .."}
    if not out.findings:  # its findings written as a list in its text
        for text in reviewer_json.text_items(doc, word in ("REVISE", "REJECT")):
            _add_json_item(out, text, origin, None)
    out.findings_text = "\n".join(_item_text(f) for f in out.findings)
    return out


# a review document's verdict keys, in order of preference; and the objects one may sit
# in (a summary block, the review part of a larger document)
_VERDICT_NAMES = ("final_verdict", "verdict", "overall_verdict", "review_verdict", "judgment",
                  "judgement", "decision", "review_decision", "final_decision",
                  "recommendation", "overall_correctness", "review_status", "gate_status",
                  "overall_status", "conclusion", "outcome", "status", "result")
_VERDICT_HOLDERS = frozenset(("summary", "review", "result", "assessment", "overall",
                              "review_summary", "metadata", "gate", "quality_gate"))


# a merge recommendation of the review's own naming ("merge_recommendation",
# "final_recommendation"), read when its value is the verdict phrase itself
_MERGE_ADVICE = re.compile(r"(?:merge|final|overall|review|ship|release)[_\s-]?recommendation",
                           re.I)
# the weaker top-level names a run's report may use for its own state
_WEAK_TOP = ("status", "result", "outcome", "conclusion", "review_status", "overall_status")


def _weak_top(doc: dict[str, Any]) -> bool:
    """The document's top-level verdict name is a weaker one (``status``, ``result``…): no
    stronger name stands beside it."""
    low = {str(k).lower() for k in list(doc)[:64]}
    strong = [n for n in _VERDICT_NAMES if n not in _WEAK_TOP]
    return not any(n in low for n in strong) and any(n in low for n in _WEAK_TOP)


# keys an overall assessment sits under: read as a verdict only when the value is the
# verdict phrase alone (a summary in prose there names none), and only when the document
# has no verdict key or gate
_ASSESSMENTS = ("overall_assessment", "assessment", "overall")


def _located_comments(doc: dict[str, Any]) -> list[dict[str, Any]]:
    """The review comments a review document holds under keys of its own naming (``"threads":
    [...]``, ``"annotations": [{"path", "line", "body"}]``): the records of its review data,
    else those of each list of its first 64 keys whose items all carry a text and a place
    (not under a key saying it holds none: ``files_reviewed``, ``resolved_threads``)."""
    got = pr_records.comment_records(doc)
    if got:
        return got
    return [rec for k, v in list(doc.items())[:64] if isinstance(v, list) and v
            and not reviewer_json.holds_no_findings(k)
            for rec in pr_records.comment_records(v) or ()]


def _assessment_vote(doc: dict[str, Any]) -> str | None:
    """The verdict an overall assessment states as its whole value (``"overall_assessment":
    "approve_with_nits"``, also in a summary block); None for prose or none."""
    for d in (doc, *_holders(doc)):
        v = _get(d, *_ASSESSMENTS)
        if isinstance(v, str) and len(v) <= 64:
            vote = words.vote_of(v, False, True)
            if vote is not None:
                return vote
    return None


def _holders(doc: dict[str, Any]) -> list[dict[str, Any]]:
    """The objects among a document's first 32 keys that may hold its verdict (a
    summary block, the review part of a larger document)."""
    return [d for k, d in list(doc.items())[:32]
            if isinstance(d, dict) and str(k).lower() in _VERDICT_HOLDERS]


_GATES = reviewer_json.GATES


def _verdict_part(doc: dict[str, Any]) -> dict[str, Any] | None:
    """The one part of a document (an object one down, of its first 16 keys, not an earlier
    or settled one) that states a verdict under its own key or gate; None when none does,
    or when several do (one report a reviewer: no one of them is the document's)."""
    parts = [d for k, d in list(doc.items())[:16] if isinstance(d, dict)
             and not reviewer_json.closed_key(k)
             and (isinstance(_get(d, *_VERDICT_NAMES), str)
                  or isinstance(reviewer_json.flag(_get(d, *_GATES)), bool)
                  or reviewer_json.gate(d) is not None)]
    return parts[0] if len(parts) == 1 else None


def _run_status(doc: dict[str, Any]) -> bool:
    """True when the document's verdict is its plain ``status``/``result``/``outcome``
    (no verdict, decision or gate key above it): a run's state, which says ``ok`` when
    the run worked, whatever it found."""
    names = [n for n in _VERDICT_NAMES if _get(doc, n) is not None]
    if not names:
        names = [n for k, d in list(doc.items())[:32] if isinstance(d, dict)
                 and str(k).lower() in _VERDICT_HOLDERS and "gate" not in str(k).lower()
                 for n in _VERDICT_NAMES if _get(d, n) is not None]
    return bool(names) and names[0] in ("status", "result", "outcome")


def _add_json_item(out: Reading, item: Any, origin: str, group_severity: str | None) -> None:
    if reviewer_json.settled(item):
        return  # a finding annotated resolved later is not an open one
    if isinstance(item, dict) and item.get("in_reply_to_id") not in (None, "", 0):
        return  # a reply in a review comment's thread answers it: no new finding
    if _posted_review(item):
        # a review or comment posted on a pull request, with no place of its own: its
        # body is a review in Markdown, read for the findings it states (none for a
        # notice or a thank-you)
        out.findings.extend(_posted_findings(item["body"], origin))
        return
    rec = _json_finding(item, origin)
    if rec is not None:
        if group_severity is not None and "severity" not in rec:
            rec["severity"] = group_severity
        out.findings.append(rec)


def _posted_findings(body: str, origin: str) -> list[dict[str, Any]]:
    """The findings of a review or comment posted on a pull request: those its Markdown
    states; for a review bot's summary of the pull request (a walkthrough, an overview),
    only the located comments it folds in (its digest, its suppressed comments)."""
    if not pr_records.overview(body):
        return _from_document(body, origin).findings
    return _overview_findings(body, origin)


def _lone_comment(text: str, origin: str) -> list[dict[str, Any]] | None:
    """A text that is one review bot comment's body, saved without its envelope: it opens
    with the comment's severity badge (a line of badges, then its title and prose; or a
    bold title holding the badge), and is one finding, at the place its prompt for an
    agent names (CodeRabbit's ``In `@a.sql` around lines 53 - 58``), else with no file.
    None otherwise."""
    lines = [ln.strip() for ln in text[:20_000].split("\n") if ln.strip()]
    if len(lines) < 2 or (sev := document.badge_severity(lines[0])) is None:
        return None
    if document.badge_only(lines[0]):
        title = comments.summary_of(lines[1:6])
    else:  # "**<sub>![P1 Badge](…)</sub>  Keep the lock while flushing**"
        title = re.sub(r"!\[[^\]\n]{0,60}\]\([^)\s]{0,400}\)|</?sub>|[*_`]", " ", lines[0])
        if not lines[0].startswith("**") or not re.search(r"[^\W\d_]{3,}", title):
            return None
    title = " ".join(title.split()).strip(" .")
    if not title:
        return None
    rec: dict[str, Any] = {"kind": "finding", "origin": origin, "severity": sev,
                           "summary": title[:300]}
    _prompt_place(rec, text)
    return [rec]


def _prompt_place(rec: dict[str, Any], text: str) -> None:
    """Give one bot comment's finding the place its prompt for an agent names."""
    path, line = pr_records.meta_place(text)
    if path is not None:
        _put_location(rec, Location(clean_path(path), line))


def _overview_findings(body: str, origin: str) -> list[dict[str, Any]]:
    """The comments a review bot's overview folds in: its digest, its suppressed ones."""
    digest = review_body.read_body(body, origin, document.badge_severity) or []
    return digest + [f for r in pr_records.folded_comments(body)
                     if (f := _json_finding(r, origin)) is not None]


def _posted_review(item: Any) -> bool:
    """A pull request's posted comment or review (an ``author``/``user`` and a ``body``)
    with no place in its envelope."""
    return isinstance(item, dict) and isinstance(item.get("body"), str) \
        and isinstance(item.get("author", item.get("user")), dict) \
        and not any(item.get(k) for k in ("path", "file", "file_path", "filename",
                                          "location", "code_location"))


_MAX_LINE = 10_000_000
# a linter's scale in a JSON severity field (reviewdog's ERROR / WARNING / INFO, SARIF's
# error / warning / note): only there, since "error" in prose is no severity
_LINT_SEVERITY = severity.LINT_ALIASES


def _json_place(path: Any, first: int | None, last: int | None) -> Location | None:
    """A JSON finding's place from :func:`reviewer_json.place`'s parts: a path with its line
    (``"src/a.py:12"``), else the path and the line keys' numbers."""
    if not isinstance(path, str) or not path.strip():
        return None
    path = reviewer_json.first_path(path)
    loc = find_location(path)
    if loc is not None:
        line, end = loc.line, loc.end_line
        out = Location(loc.file, line or first)
    else:
        line, end = None, None
        out = Location(clean_path(path), first)
    if out.line is not None:
        top = end if line is not None and end else last
        if top is not None and top > out.line:
            out.end_line = top
    return out


def _text_finding(item: str, origin: str) -> dict[str, Any] | None:
    """A finding written as text in a JSON review; one that opens with a file name
    (``render.rs returns no Details when ...``) is at that file."""
    found = parse_findings([f"- {item}"], None, origin)
    rec = found[0] if found else None
    if rec is not None and not rec.get("file"):
        toks = document._file_tokens(item.lstrip()[:300])
        if toks and toks[0][1] <= 2:
            _put_location(rec, Location(toks[0][0]))
    return rec


def _json_finding(item: Any, origin: str) -> dict[str, Any] | None:
    if isinstance(item, str):
        return _text_finding(item, origin)
    if not isinstance(item, dict):
        return None
    text = _get(item, *reviewer_json.TEXT_KEYS)
    if not isinstance(text, str) or not text.strip():
        text = reviewer_json.prose_value(item)  # {"file": .., "note": "The counter ..."}
    if not isinstance(text, str) or not text.strip():
        return None
    rec: dict[str, Any] = {"kind": "finding", "origin": origin}
    tag = re.match(r"\s*\[(P[0-4])\]\s*", text, re.I)
    if tag:
        text = text[tag.end():]
    sev = _get(item, *reviewer_json.SEVERITY_KEYS)
    if isinstance(sev, str) and len(sev) > 24:
        sev = _get(item, "severity", "priority", "level")  # "impact": a sentence, no scale
    if isinstance(sev, int) and not isinstance(sev, bool) and 0 <= sev <= 4:
        sev = f"P{sev}"
    if isinstance(sev, str):
        _put_severity(rec, sev)
        if "severity" not in rec and sev.strip().lower() in _LINT_SEVERITY:
            rec["severity"] = _LINT_SEVERITY[sev.strip().lower()]
    elif tag:
        _put_severity(rec, tag.group(1))
    path, first, last = reviewer_json.place(item)
    where = _get(item, "code_location", "location", "position")
    if path is None and isinstance(where, str) and (
            find_location(where[:400]) is not None or reviewer_json.path_like(where)):
        path = where  # "location": "src/a.py:12" (not "p. 3.1", a page of a paper)
    own = _json_place(path, first, last)
    if own is not None:
        _put_location(rec, Location(own.file, own.line, own.end_line))
        for other in reviewer_json.other_places(item):  # "locations": ["a.py:3", "b.py:9"]
            loc = _json_place(*other)
            if loc is not None:
                put_related(rec, loc)
    if "severity" not in rec and "priority" not in rec:
        b = document.badge_severity(text) or document.lead_tag(text.lstrip()[:200])
        if b:
            rec["severity"] = b
        elif reviewer_json.flag(_get(item, "blocking", "is_blocking", "blocker",
                                     "is_blocker")) is True:
            rec["severity"] = "critical"  # {"blocking": true}: it must be fixed first
    head = text.lstrip().split("\n", 1)
    if len(head) == 2 and document.badge_only(head[0]):
        # a bot's comment body: its badge line, then its (bold) title and prose
        text = comments.summary_of(head[1].split("\n")) or head[1]
    text = re.sub(r"!\[[^\]\n]{0,40}\]\([^)\s]{0,400}\)|</?sub>", " ", text)
    rec["summary"] = " ".join(text.split())
    disc = _get(item, "body", "details", "explanation", "rationale", "suggestion",
                "recommendation", "fix", "discussion")
    if isinstance(disc, str) and disc.strip() and disc.strip() != text.strip():
        rec["discussion"] = disc.strip()
    code = _get(item, "replacement", "suggested_code", "replacement_code", "fixed_code")
    if isinstance(code, str):
        rec["replacement"] = code  # the lines' new text (rdjsonl suggestions)
    return rec


# --------------------------------------------------------------------------- #
# As council-parse-verdict's Layer 1 result
# --------------------------------------------------------------------------- #
def layer1(data: bytes, origin: str = "reviewer",
           root: str | None = None) -> tuple[layers.Layer1, list[dict[str, Any]]]:
    """The tolerant reading as a Layer-1 result (for the 6-key return and the record
    fields) and the structured findings.

    The findings text keeps upstream's cap and sentinel escaping; the summary is cut
    at a character boundary.  An answer with no verdict keeps its findings (nothing
    is lost), and its summary is the reading's, else upstream's flattened head.  An
    answer the reader cannot read (a bug here, never the answer's fault) is that
    reviewer's UNKNOWN with the reason, not the council's crash.
    """
    try:
        got = read(data, origin, root)
    except Exception as err:  # noqa: BLE001 - one bad answer must not stop the council
        got = Reading(warnings=[f"the answer could not be read ({type(err).__name__}) "
                                "\u2014 marked UNKNOWN"])
    findings, truncated = layers.cap_findings(got.findings_text.encode("utf-8"))
    findings = layers.escape_sentinels(findings)
    summary = got.summary.encode("utf-8")
    if got.verdict == "UNKNOWN":
        confidence = "LOW"  # as upstream: an unread verdict carries low confidence
        if not summary:
            summary = layers.fallback_summary(layers.strip_ingest(data), True)
    else:
        confidence = got.confidence or "N/A"
    result = layers.Layer1(got.verdict.encode(), confidence.encode(), summary, findings,
                            warnings=list(got.warnings), fallback=not got.found_verdict,
                            truncated=truncated)
    return result, got.findings
