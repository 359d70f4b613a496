"""The answer read as a Markdown document (part of the tolerant reading, see ``reading``).

The answer is parsed with a CommonMark parser (markdown-it-py, tables on, nesting
bounded) and read from the tree, not line by line:

- **keys** (``Verdict``, ``Confidence``, ``Summary``; and, when no ``Verdict`` key is
  there, ``Decision``, ``Recommendation``, ``Status``, ``Overall assessment``,
  ``Overall correctness``...) come from headings, paragraphs, list items and a leading
  YAML front-matter block, never from a block quote, a code block or a table: what a
  reviewer quotes is not its own key.  The verdict word is looked up in
  :mod:`.words`.  Keys that disagree give UNKNOWN with a warning, unless each sits in
  its own round (``## Round 2``...), when the last round's counts;
- **sections**: a heading covers everything down to the next heading of its level or
  above; its severity ("## Critical Issues", "### P1 — should fix", "### NITS") is
  the severity of what it holds, and a section of strengths, verified checks or
  resolved items holds no findings;
- **findings**: a list item *with its nested children* is one finding (its ``File:``,
  ``Line:``, ``Location:``, ``Severity:``, ``Evidence:`` lines are its fields); a
  heading is a finding when it names a location, a severity tag or a finding id, or
  sits in a findings section with text of its own and no findings under it; a table
  is rows under column names; a paragraph line that starts with a severity tag or a
  location opens a finding (the line-based reading of plain text);
- **not findings**: items marked fixed/resolved/✅/[x]/✓, ``[OK]`` checks, placeholders
  of a template, "none", field and key lines, questions; in a later round, what a heading
  of settled items ("Resolved", "Previously reported", "Verification of fixes") or an
  answer to a review holds, but for the items, sub-headings and table rows that say they
  are still open;
- **restatements**: under a recap heading (a summary, a status table, a consensus;
  suggestions, required changes, next steps...) an item that names an earlier
  finding's id or repeats its words is folded into it (see ``_Reader.restates``);
- **labels**: a bold label or ``Label:`` line alone (``**Blocking**``) is a sub-heading
  whose severity covers what follows it.

Every finding gets its location from its own head, else its fields, else its body,
else the file its section names (or the record envelope's ``file``/``line``); its
severity from its fields, else a tag or badge in it, else its section.  A file named
only in the finding's prose is its place when it has a directory, or opens the title, a
sentence or a parenthesis; a bare name inside a sentence is the finding's subject, a file
said to be missing or to be created, added or read is no place, and a code name
(``self.lock``, ``emoji.name``, ``console.log``) is never a file.  Severity badges are
images too (an alt text or an address naming a severity: ``![P1 Badge](…/badge/P1-…)``,
``![high](…/high-priority.svg)``); a badge is never a title, a paragraph (or list item)
that is only a badge opens the comment that follows it, and a badge on the first line
of a fenced comment (an archive of bot comments) is the severity of the heading above.
Nothing here raises on any input; the work is linear in the answer's size.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.tree import SyntaxTreeNode

from council_filters.base import severity
from council_filters.verdict import comments, words
from council_filters.verdict.answer_lines import _unwrap, confidence_word, key_of
from council_filters.verdict.finding_items import _NONE_RE, _finding, _Item, _strip_decor
from council_filters.verdict.locations import (
    LINE_KEY_RE,
    LINE_KEYS,
    PLACE_KEY_RE,
    PLACE_KEYS,
    SEVERITY_KEY_RE,
    SEVERITY_KEYS,
    SEVERITY_WORD,
    STATUS_KEY_RE,
    STATUS_KEYS,
    TRAFFIC_LIGHT,
    Location,
    _pathlike,
    _put_location,
    _put_severity,
    clean_path,
    emoji_severity,
    find_location,
    put_related,
    severity_word,
)

SETTLED_CAP = 500  # rows of status tables read for the ids they mark fixed
BUG_SCAN = 400  # lines of a text looked through for the parts of a bug report
MAX_BODY = 80  # lines of a heading's section kept as that finding's fields and body
RECAP_PRIOR = 64  # findings before a recap section that its items may restate
RESTATE_BUDGET = 100_000  # comparisons of recap items with earlier findings, per answer
SUMMARY_CAP = 500

_MD = MarkdownIt("commonmark", {"maxNesting": 20}).enable("table")

# --------------------------------------------------------------------------- #
# Vocabulary of headings, markers and fields
# --------------------------------------------------------------------------- #
_STRONG_KEYS = frozenset(("verdict",))
_ROUND = re.compile(
    r"^(?:review\s+)?(?:round|iteration|pass|attempt|cycle|r)\s*#?\s*(?P<n>\d{1,4})\b", re.I)

_POSITIVE = re.compile(
    r"\b(?:strengths?|positive\s+\w+|positives?|what(?:'s|\s+is)\s+good|what\s+works|praise|"
    r"good\s+practices|highlights|verified|verification(?:\s+performed)?|what\s+i\s+(?:checked|"
    r"ran|verified)|checks?\s+(?:passed|performed|run)|commands?\s+(?:executed|run)|"
    r"passed\s+checks|kudos|nice\s+work|well[\s-]+done|looks\s+good|confirmed|"
    r"implemented|done\s+well|things\s+done\s+right|(?:strategic\s+)?value\s+delivered|"
    r"benefits|achievements|accomplishments)\b|"
    # no problem / strengths in Japanese and Chinese ("問題なし", "没有问题", "良い点", "优点")
    "\u554f\u984c\u306a\u3057|\u554f\u984c\u3042\u308a\u307e\u305b\u3093|"
    "\u6ca1\u6709\u95ee\u9898|\u65e0\u95ee\u9898|\u6c92\u6709\u554f\u984c|"
    "\u826f\u3044\u70b9|\u826f\u304b\u3063\u305f\u70b9|\u4f18\u70b9|\u4eae\u70b9|"
    # and in Korean, Chinese, Japanese, German, French, Spanish, Portuguese, Italian and
    # Russian ("잘된 점", "做得好的地方", "評価できる点", "Stärken", "Points forts",
    # "Puntos fuertes", "Pontos positivos", "Punti di forza", "Сильные стороны")
    "\uc7a5\uc810|\uc798\ub41c\\s?\uc810|\uc798\ud55c\\s?\uc810|\uc88b\uc740\\s?\uc810|"
    "\uae0d\uc815\uc801|\uce6d\ucc2c|\u505a\u5f97\u597d|\u503c\u5f97\u80af\u5b9a|"
    "\u4f18\u52bf|\u512a\u9ede|\u8a55\u4fa1\u3067\u304d\u308b|\u512a\u308c\u305f\u70b9|"
    "\u5f37\u307f|\u826f\u597d\u306a\u70b9|"
    r"\b(?:st\u00e4rken|positiv(?:es|e)?|was\s+gut\s+(?:ist|l\u00e4uft)|lob|"
    r"points?\s+(?:forts?|positifs?)|ce\s+qui\s+(?:est\s+bien|fonctionne)|"
    r"puntos?\s+fuertes?|aspectos?\s+positivos?|fortalezas|lo\s+que\s+est\u00e1\s+bien|"
    r"pontos?\s+(?:fortes?|positivos?)|o\s+que\s+est\u00e1\s+bom|destaques|"
    r"punti\s+di\s+forza|aspetti\s+positivi|cosa\s+va\s+bene|"
    r"\u0441\u0438\u043b\u044c\u043d\u044b\u0435\s+\u0441\u0442\u043e\u0440\u043e\u043d\u044b|"
    r"\u0447\u0442\u043e\s+(?:\u0441\u0434\u0435\u043b\u0430\u043d\u043e\s+)?\u0445\u043e\u0440"
    r"\u043e\u0448\u043e|"
    r"\u0434\u043e\u0441\u0442\u043e\u0438\u043d\u0441\u0442\u0432\u0430|"
    # ... Ukrainian ("Сильні сторони", "Що зроблено добре", "Переваги") and Vietnamese
    # ("Điểm mạnh", "Ưu điểm", "Điểm tốt")
    r"\u0441\u0438\u043b\u044c\u043d\u0456\s+\u0441\u0442\u043e\u0440\u043e\u043d\u0438|"
    r"\u0449\u043e\s+(?:\u0437\u0440\u043e\u0431\u043b\u0435\u043d\u043e\s+)?\u0434\u043e\u0431"
    r"\u0440\u0435|\u043f\u0435\u0440\u0435\u0432\u0430\u0433\u0438|"
    r"\u0111i\u1ec3m\s+(?:m\u1ea1nh|t\u1ed1t)|\u01b0u\s+\u0111i\u1ec3m)(?!\w)", re.I)
_RESOLVED = re.compile(
    r"(?<!\bpartially\s)(?<!\bpartly\s)(?<!\bbe\s)(?<!\bnot\s)(?<!\byet\s)(?<!\bget\s)\b(?:resolved|fixed|addressed|closed|completed|already\s+fixed|no\s+longer\s+applies|"
    r"clarified|withdrawn|won'?t\s+fix|accepted\s+risk|by\s+design|superseded)\b|\u2705|\u2714|\u2713|~~|\[x\]|"
    # fixed / resolved in Japanese and Chinese ("直った", "修正済み", "已修复")
    "\u76f4\u3063\u305f|\u4fee\u6b63\u6e08|\u5bfe\u5fdc\u6e08|\u89e3\u6c7a\u6e08|"
    "\u5df2\u4fee\u590d|\u5df2\u89e3\u51b3|\u5df2\u4fee\u6b63|\u5df2\u5904\u7406|"
    # and in Korean, Chinese, Japanese, German, French, Spanish, Portuguese, Italian and
    # Russian ("수정 완료", "해결됨", "已修復", "修正完了", "BEHOBEN", "Corrigé", "Resuelto",
    # "Corrigido", "Risolto", "Исправлено"), never after a negation ("미완료", "未完了",
    # "nicht behoben", "não corrigido")
    "(?<!\ubbf8)(?:\uc218\uc815|\ud574\uacb0|\ubc18\uc601|\uc870\uce58)\\s?(?:\ub428|"
    "\uc644\ub8cc)|(?<!\ubbf8)\uc644\ub8cc|\ud574\uacb0\ub428|"
    "\u5df2\u4fee\u5fa9|\u5df2\u89e3\u6c7a|\u5df2\u95dc\u9589|\u5df2\u5173\u95ed|"
    "\u4fee\u590d\u5b8c\u6210|(?<!\u672a)(?:\u4fee\u6b63|\u5bfe\u5fdc)\u5b8c\u4e86|"
    "\u89e3\u6d88\u6e08|"
    r"(?<!\bnicht\s)(?<!\bnoch\s)\b(?:behoben|erledigt|gel\u00f6st|korrigiert)\b|"
    r"(?<!\bnon\s)(?<!\bpas\s)\b(?:corrig\u00e9e?s?|r\u00e9solue?s?)(?!\w)|"
    r"(?<!\bno\s)(?<!\bn\u00e3o\s)(?<!\bsin\s)(?<!\bsem\s)\b(?:corregid[oa]s?|"
    r"resuelt[oa]s?|solucionad[oa]s?|corrigid[oa]s?|resolvid[oa]s?)\b|"
    r"(?<!\bnon\s)\b(?:risolt[oaie])\b|"
    r"(?<!\u043d\u0435\s)(?:\u0438\u0441\u043f\u0440\u0430\u0432\u043b\u0435\u043d[\u043e\u0430]?|"
    r"\u0443\u0441\u0442\u0440\u0430\u043d\u0435\u043d[\u043e\u0430]?|"
    r"\u0440\u0435\u0448\u0435\u043d[\u043e\u0430]?|"
    # ... Ukrainian ("Виправлено", "Усунуто") and Vietnamese ("Đã sửa", "Đã khắc phục")
    r"\u0432\u0438\u043f\u0440\u0430\u0432\u043b\u0435\u043d[\u043e\u0430]?|"
    r"\u0443\u0441\u0443\u043d\u0443\u0442[\u043e\u0430]?|"
    r"(?<!ch\u01b0a\s)\u0111\u00e3\s+(?:s\u1eeda|kh\u1eafc\s+ph\u1ee5c|x\u1eed\s+l\u00fd))"
    r"(?!\w)", re.I)
_OTHER = re.compile(
    r"^(?:summary|executive\s+summary|tl;?dr|overview|context|scope|background|verdict|"
    r"confidence|next\s+steps?|questions?|open\s+questions|notes?|limitations?|methodology|"
    r"test(?:ing)?\s+plan|metadata|references?|files?\s+reviewed|changes?\s+reviewed|"
    r"appendix|conclusion|decision|recommendation|single\s+next\s+action)\b", re.I)
# sections that list what was read, run or ruled out: their items are not findings
_INVENTORY = re.compile(
    r"^(?:(?:files?|changes?|paths?|code|modules?|areas?|surfaces?)\s+(?:reviewed|inspected|read|"
    r"examined|checked|audited|analy[sz]ed|modified|changed|touched|covered|in\s+scope)|"
    r"(?:reviewed|inspected|audited)\s+(?:files?|inputs?|scope|paths?)|scope\b|"
    # "Inputs", "Inputs read" (not "Input Validation": a dimension of the review)
    r"inputs?(?:\s+(?:read|reviewed|used|considered|provided|given))?(?=\s*(?:[(:\uff1a]|$))|"
    r"(?:integration\s+|supporting\s+)?evidence\b|ruled[\s-]+out|refuted|dismissed|"
    r"non[\s-]?issues|false[\s-]+positives|(?:everything\s+else\s+)?checked[\s-]+(?:and\s+)?"
    r"clean|confirmed[\s-]+clean|clean\s+(?:areas|surfaces|paths)|tests?\s+(?:run|executed|"
    r"results?)|validation(?:\s+results?)?$|gates?\s+(?:run|results?)|methodology|references?\b|"
    r"metadata|traceability|what\s+(?:changed|was\s+(?:reviewed|checked|done))|"
    # "## Review Raw Files", "## Artifacts": where the detailed outputs are kept
    r"(?:[\w-]+\s+){0,2}raw\s+(?:files?|outputs?|logs?|reports?|results?)\s*$|"
    r"(?:[\w-]+\s+)?(?:artifacts?|attachments?)\s*$|"
    r"implemented\s+fix|(?:[\w-]+\s+)?(?:changes|fixes|improvements|edits|updates|corrections)\s+"
    r"(?:made|applied|implemented)|(?:key|relevant|related|main|"
    r"important)\s+files|files?\s+(?:requiring|needing|that\s+need|to)\s+(?:changes?|"
    r"updates?|fixes|modification)|"
    # ... and the legend of a review's scale ("SEVERITY CLASSIFICATION", "Priority levels")
    r"(?:severity|priority)\s+(?:classification|levels?|legend|definitions?|scale|key)\s*$|"
    r"legend\s*$|(?:key|relevant|related|main|"
    r"important)\s+files|files?\s+(?:of\s+interest|involved|to\s+(?:read|review|touch))|"
    r"(?!(?:improve|increase|add|expand|extend|raise|low|missing|insufficient|poor|lacking|"
    r"no|weak|limited)\b)(?:[\w-]+\s+){0,2}coverage(?:\s+(?:audit|analysis|check|matrix|map|"
    r"table))?\s*$)\b",
    re.I)
# sections that say what became of findings already given (a response, a disposition)
_DISPOSITION = re.compile(
    r"^(?:what\s+i\s+did|disposition|(?:author'?s?\s+)?responses?\s+to|remediation\s+(?:log|"
    r"status|disposition)|how\s+(?:each|the)\s+\w+\s+(?:was|were)\s+(?:handled|addressed))\b",
    re.I)
_QUESTIONS = re.compile(r"\bquestions?\b", re.I)
# a severity with the kind of finding it groups: "High — Correctness", "Low / Documentation"
_CATEGORY_WORD = (r"(?:correctness|documentation|docs|performance|security|reliability|"
                  r"maintainability|style|testing|tests|usability|ux|architecture|design|"
                  r"(?:code\s+)?quality|operations|ops|observability|compatibility|"
                  r"accessibility|readability|naming|cleanup|robustness|stability)")
_SEV_CATEGORY = re.compile(
    r"^[\W_]*(?:" + SEVERITY_WORD + r")(?:\s+priority)?\s*(?:[\u2014\u2013:/|,-]\s*|\s+)"
    + _CATEGORY_WORD + r"(?:\s*(?:[/&,+]|and)\s*" + _CATEGORY_WORD + r")*\s*$", re.I)
# sections after the findings that hold none: notes, a proposed fix's parts, how to check
_AFTERWORD = re.compile(
    r"^(?:(?:proposed|suggested|recommended)\s+(?:fix|patch|solution)(?:es)?\b|"
    r"how\s+to\s+(?:verify|test|reproduce|run)\b|verification\s+steps\b|"
    r"steps\s+to\s+reproduce\b|(?:[\w-]+\s+){0,2}notes?\s*:?\s*$|"
    # "Testing Recommendations", "Test plan", "Manual test checklist": what to run, not
    # what is wrong
    r"(?:manual\s+|suggested\s+|recommended\s+)?test(?:ing)?\s+(?:plan|recommendations?|"
    r"suggestions?|checklist|scenarios|steps|strategy)\s*:?\s*$|"
    # "Option A — SQLAlchemy + Alembic": one of the alternatives weighed, its pros and cons
    r"option\s+[a-z0-9]\b(?!\s*[:.)]?\s*(?:fix|patch)\b)|"
    # "Recommendations for Future Work", "Areas for Future Enhancement": later work, whose
    # items are findings only by a priority of their own
    r"(?:[\w-]+\s+){0,3}(?:for\s+)?(?:the\s+)?future\s+(?:work|improvements?|enhancements?|"
    r"iterations?|considerations?|directions?)\b)", re.I)
# a label line of a plain-text answer that names what is no finding: its questions, its
# assumptions, the limits of what it could check ("Validation Gap", "Open Questions /
# Assumptions", "Caveats")
_ASIDE_NAME = re.compile(
    r"^(?:open\s+|unresolved\s+)?(?:questions?|assumptions?|limitations?|caveats?|"
    r"validation\s+gaps?|not\s+verified|unverified)(?:\s*(?:/|&|and)\s*(?:open\s+)?"
    r"(?:questions?|assumptions?|limitations?|caveats?))?$", re.I)
_LABEL_LINE = re.compile(r"^\s*(?:\*\*|__)(?P<a>[^*_\n]{2,50})(?:\*\*|__)\s*:?\s*$|"
                         r"^\s*(?P<b>[^\W\d_][\w /&-]{1,48}):\s*$")


def _aside_label(line: str) -> str | None:
    """The kind of section a label line alone opens when it names praise (``**Positive
    Checks**``, ``Strengths:``) or questions, assumptions and limits (``**Validation
    Gap**``): ``positive`` or ``other``; None for any other line."""
    m = _LABEL_LINE.match(line)
    if m is None:
        return None
    name = re.sub(r"^[\W\d_]+", "", (m["a"] or m["b"] or "").strip(" :"))
    if _lead_tag(name) or _FINDINGS.search(_POSITIVE.sub(" ", name)) and not _ASIDE_NAME.match(
            name):
        return None
    if _POSITIVE.match(name) or len(name.split()) <= 3 and _POSITIVE.search(name):
        return "positive"
    return "other" if _ASIDE_NAME.match(name) else None


# a heading that says its section found nothing wrong ("Areas Verified Without Issues")
_NO_ISSUES_HEAD = re.compile(
    r"\bnon-?(?:issues?|findings?|defects?|bugs?)\b|\bnot\s+(?:a\s+)?(?:bugs?|defects?|"
    r"findings?|issues?)\b|"
    r"\b(?:no|without|zero)\s+(?:[\w/-]+\s+){0,2}(?:findings?|issues?|problems?|concerns?|"
    r"defects?|bugs?)\b(?!\s+(?:with|in|for|of|on|to)\b)", re.I)
# an item's own status, in its body: "**Verdict: fixed-by-me.**", "Status: ADDRESSED (...)"
_SETTLED_LABEL = re.compile(
    r"(?:^|\s)[*_]*(?:status|verdict|resolution|disposition)[*_]*\s*[:\uff1a]\s*[*_]*\s*"
    r"(?P<v>[^\n*]{1,60})", re.I)
# ... or a mark that opens its body: "✅ **Fixed** in the follow-up commit"
_SETTLED_MARK = re.compile(
    r"^\W{0,4}(?:\u2705|\u2714\ufe0f?)\s*[*_]*\s*(?:fixed|resolved|addressed|done)\b", re.I)
# fields that define a check or rule (a catalogue entry), which a finding does not have
_DEFINING = re.compile(
    r"^\s*(?:[-*+]\s+)?[*_]*\s*(?:triggers?|triggered\s+when|what\s+(?:it|this)\s+"
    r"(?:detects|checks|catches|flags|looks\s+for)|detects|detection(?:\s+logic)?|checks?\s+for|"
    r"applies\s+to|condition|when\s+to\s+(?:flag|use|apply|raise)|flag\s+when|meaning|indicates|"
    r"example\s+violation|good\s+example|bad\s+example)\s*[*_]*\s*[:=]", re.I)
# a line that introduces what to write ("For each finding provide:", "Provide one of:")
_ASKS = re.compile(
    r"^\W*(?:for\s+each\s+\w+[\s,]+)?(?:please\s+)?(?:provide|include|list|write|describe|report|"
    r"give|state|fill\s+in|output|answer\s+with|respond\s+with|use\s+one\s+of|choose)\b"
    r"(?!\s+of\b|\s+(?:below|here)\b|ed\b)[^.!?\n]{0,60}:\s*$", re.I)
# the parts of one finding written as sub-headings of it
_BODY_PART = re.compile(
    r"^(?:problem|impact|description|evidence|details?|(?:root\s+)?cause|fix|solution|"
    r"(?:suggested|proposed|recommended)\s+(?:fix|change|solution)|recommendation|remediation|"
    r"current\s+(?:reality|state|behaviou?r|code)|context|reproduction|steps\s+to\s+reproduce|"
    r"expected(?:\s+behaviou?r)?|actual(?:\s+behaviou?r)?|rationale|why|proof|example|analysis|"
    r"before|after|symptoms?|location)\s*:?\s*$", re.I)
_FINDINGS = re.compile(
    r"\b(?:findings?|issues?|concerns?|problems?|blockers?|bugs?|defects?|risks?|comments?|"
    r"must[\s-]+fix|should[\s-]+fix|could[\s-]+fix|nits?|nitpicks?|suggestions?|"
    r"recommendations?|action\s+items|required\s+changes|improvements?|warnings?|"
    r"weaknesses|gaps?|flaws?|errors?|vulnerabilit(?:y|ies)|observations?|feedback|"
    r"remarks?|points?|fixes|what(?:'s|\s+is)\s+(?:actually\s+|really\s+)?(?:hurting|wrong|broken))\b|"
    # in Chinese and Japanese ("新しい指摘", "发现的问题", "問題点")
    "\u6307\u6458|(?<!\u6ca1\u6709)(?<!\u65e0)\u95ee\u9898|(?<!\u6c92\u6709)\u554f\u984c"
    "(?!\u306a\u3057|\u3042\u308a\u307e\u305b\u3093)|\u53d1\u73b0|\u767a\u898b|\u7f3a\u9677|"
    # ... in Korean ("발견 사항", "지적 사항", "문제점", "이슈"; not "문제 없음") and the other
    # languages of the tables ("Problemas encontrados", "Befunde", "Problèmes", "Замечания")
    "\ubc1c\uacac|\uc9c0\uc801|\ubb38\uc81c(?!\\s?\uc5c6)|\uc774\uc288|"
    # ... and the concerns a review raises ("気になる点", "懸念事項", "担忧", "우려 사항",
    # "Bedenken", "Preocupaciones", "Préoccupations", "Опасения"), as "Concerns" does
    "\u6c17\u306b\u306a\u308b\u70b9|\u61f8\u5ff5|\u62c5\u5fe7|\u64d4\u6182|\u987e\u8651|"
    "\u9867\u616e|\uc6b0\ub824|"
    r"\b(?:problemas?|achados?|hallazgos?|befunde?|probl\u00e8mes?|problemi|constats?|"
    r"bedenken|preocupa[c\u00e7](?:iones|[o\u00f5]es)|pr\u00e9occupations?|preoccupazioni|"
    r"\u043e\u043f\u0430\u0441\u0435\u043d\u0438\w*|"
    r"\u043f\u0440\u043e\u0431\u043b\u0435\u043c\w*|\u0437\u0430\u043c\u0435\u0447\u0430"
    r"\u043d\w*|"
    # ... and in Vietnamese ("Vấn đề", "Lỗi", "Phát hiện")
    r"v\u1ea5n\s+\u0111\u1ec1|l\u1ed7i|ph\u00e1t\s+hi\u1ec7n)(?!\w)",
    re.I)
_LABEL_WORDS = frozenset((
    "critical", "crit", "high", "medium", "low", "minor", "major", "moderate", "severe",
    "blocker", "blockers", "blocking", "non", "nonblocking", "nit", "nits", "nitpick",
    "nitpicks", "info", "informational", "trivial", "optional", "important", "warning",
    "warnings", "suggestion", "suggestions", "style", "p0", "p1", "p2", "p3", "p4",
    "priority", "priorities", "severity", "issue", "issues", "finding", "findings",
    "concern", "concerns", "problem", "problems", "bug", "bugs", "defect", "defects",
    "risk", "risks", "comment", "comments", "must", "should", "could", "fix", "fixes",
    "fixed", "nice", "to", "have", "found", "identified", "remaining", "open", "other",
    "additional", "and", "or", "the", "a", "of", "for", "before", "after", "merge",
    "release", "ga", "immediately", "now", "soon", "later", "required", "recommended",
    "recommendations", "improvements", "improvement", "action", "actions", "items",
    "approval", "blocks", "block", "changes", "change", "requested", "needed", "consider",
    "considerations", "notes", "detailed", "key", "main", "top", "new", "known", "gaps",
    "observations", "feedback", "points", "areas", "address", "addressed", "this", "pr",
    "in", "on", "with", "&", "v1", "follow", "up", "followups", "follow-up", "quick", "wins",
    "immediate", "short", "medium-term", "long", "term", "short-term", "long-term", "next",
    "sprint", "within", "week", "weeks", "days",
    "can", "move", "wait", "list", "summary", "by", "level", "minimum", "not", "but", "be",
    "strongly", "suggested", "essential", "mandatory", "haves", "polish", "cleanup",
    "cleanups", "merging", "shipping", "address", "resolve", "status",
    # "What's actually hurting", "What is wrong"
    "what", "s", "is", "actually", "really", "hurting", "wrong", "broken",
))
_FINDING_ID = re.compile(
    r"^(?:(?:issue|finding|bug|problem|concern|defect|blocker|comment|item|vuln(?:erability)?|"
    r"vulnerabilidade|vulnerabilidad|vuln\u00e9rabilit\u00e9|schwachstelle|"
    # the same nouns in other languages ("问题 1：", "指摘 2:", "문제 3:", "Problema 4 —")
    r"\u95ee\u9898|\u554f\u984c|\u6307\u6458|\u53d1\u73b0|\u767c\u73fe|\u7f3a\u9677|"
    r"\ubb38\uc81c|\uc774\uc288|\uc9c0\uc801|problema|probl[e\u00e8]me|befund|fehler|hallazgo|"
    r"achado|\u043f\u0440\u043e\u0431\u043b\u0435\u043c\u0430|\u0437\u0430\u043c\u0435\u0447"
    r"\u0430\u043d\u0438\u0435)\s*#?\s*\d{1,4}\b"
    r"|(?!top-\d)[A-Z][A-Z0-9]{0,6}-\d{1,4}\b|#\d{1,4}\b)", re.I)  # "Top-5 ...": no id
# a heading's or item's number: "1.", "2.3", "a)", and the numbering of Chinese, Japanese
# and Korean ("一、", "二．", "①", "第1点：", "第二条", "1）")
_NUMBERING = re.compile(
    r"^(?:(?:\d{1,3}(?:\.\d{1,3})*[.):]?|[A-Za-z][.)])\s+|\d{1,3}\uff09\s*|"
    "[\u4e00\u4e8c\u4e09\u56db\u4e94\u516d\u4e03\u516b\u4e5d\u5341]{1,3}(?:[\u3001.\uff0e]\\s*|\\s+)|"
    "[\u2460-\u2473]\\s*|\u7b2c\\s*[\\d\u4e00\u4e8c\u4e09\u56db\u4e94\u516d\u4e03\u516b\u4e5d"
    "\u5341]{1,3}\\s*[\u70b9\u9ede\u6761\u689d\u9805\u9879\u4e2a\u500b\\s]\\s*[:\uff1a]?\\s*)")
_POSITIVE_MARK = re.compile(
    r"^[\s*_`]*(?:\[(?:ok|pass|passed|x|verified|good|done)\]|\u2705|\u2714|\u2713|"
    r"\U0001f44d|\U0001f7e2\s*(?:ok|pass)|(?:ok|pass|passed)\s*(?::|\u2014|\u2013|\s-\s))",
    re.I)
# an item that praises ("Test isolation is good.", "Good: the check is now enforced")
_PRAISE = re.compile(
    r"^(?:good|great|nice|excellent|solid|well[\s-]done|kudos|positive)\s*(?:[:!\u2014]|-(?![\w-]))"
    r"|\b(?:is|are|looks?|remains?)\s+(?:good|great|fine|solid|excellent|clean|well[\s-]done)"
    r"[.!]?$"
    # "README: much improved.", "The methods are now correctly wired to match the
    # API.", "Help text and options are aligned."
    r"|(?:^|:\s*)(?:(?:significantly|much|greatly|clearly)\s+)?improved[.!]?$"
    r"|\b(?:is|are)\s+(?:now\s+)?(?:correctly|properly)\s+\w+(?:\s+to\s+match\b[^.!?]{0,80})?"
    r"[.!]?$|\b(?:is|are)\s+(?:now\s+)?(?:aligned|consistent|in\s+sync)[.!]?$", re.I)
# "**Path Normalization**: Good - uses `path.resolve()`": a label, then praise (not praise
# that goes on to a fault: "Caching: fine - but the TTL is too short")
_LABEL_PRAISE = re.compile(
    r"^[^:\n]{1,40}:\s*(?:good|great|excellent|solid|fine|correct)\s*(?:[!.\u2014]|-\s|$)", re.I)
_BUT = re.compile(r"\b(?:but|however|except|although|though|yet)\b", re.I)
_TRAILING_CHECK = re.compile(r"(?:\u2713|\u2714|\u2705)\s*[*_`]*\s*$")
_PLACEHOLDER = re.compile(
    r"<(?!/?(?:sub|sup|details|summary|br|b|i|a|img|code|p|div|span|em|strong|kbd)\b)"
    r"[A-Za-z][^<>\n]{0,40}>|(?<![$\w])\{[A-Za-z_][^{}\n]{0,40}\}"
    r"|\[(?:file(?::line)?|description|title|issue|dimension|concern|summary|details|problem"
    r"|finding|what|why|action|text|name|reason)(?:\s*[:|/]\s*\w+)?\]"
    r"|\[(?:severity|category|priority|short\s+title)\]"
    r"|\bfile:line\b|\bpath/to/", re.I)

# severity tags and badges
_BRACKET_TAG = re.compile(
    r"^[\s*_`]*[\[(][^\])\n]{0,30}?\b(?P<w>non[\s-]?blocking|block|" + SEVERITY_WORD
    + r"|must[\s_-]fix|should[\s_-]fix)\b[^\])\n]{0,30}[\])]", re.I)
_ITEM_NUMBER = re.compile(r"^\s*(?:\*\*|__)?(?:#?\d{1,3}[.)]|\d{1,3}\.\d{1,3})(?:\*\*|__)?\s+")
# a finding's id before its tag or place ("CR-01-001 P1: ...", "id: R1-1 a.md:17 - ...")
_ID_GLUED = re.compile(r"^[\s*_`]*[A-Z][A-Z0-9]{0,7}(?:-[A-Z0-9]{1,6}){1,3}(?=[(\uff08\[\uff3b])")
_FULL_BRACKETS = str.maketrans({"\uff08": "(", "\uff09": ")", "\uff3b": "[", "\uff3d": "]"})
_ID_LEAD = re.compile(
    r"^[\s*_`]*+(?:id\s*[:=]\s*)?[`*_\[]*[A-Z][A-Z0-9]{0,7}(?:-[A-Z0-9]{1,6}){1,3}[`*_\]]*"
    r"\s*[:.\u2014\u2013-]?\s+(?=\S)")
_BADGES = (
    re.compile(r"!\[(?P<w>critical|high|medium|low|security)\]\(", re.I),
    re.compile(r"\b(?P<w>P[0-4])\s+Badge\b"),
    re.compile(r"_(?:[\U0001f534\U0001f7e0\U0001f7e1\U0001f535\u26aa\U0001f7e2\U0001f9f9]\s*)?"
               r"(?P<w>Critical|Major|Minor|Trivial|Info|Nitpick)_"),
    re.compile(r"\*\*(?P<w>Critical|High|Medium|Low)\s+Severity\*\*", re.I),
    # coderabbit's kind of comment, when no level badge is beside it: "_⚠️ Potential issue_"
    # is medium, "_🛠️ Refactor suggestion_" minor
    re.compile(r"_(?:[^\w\s]{1,3}\s*)?(?P<w>Potential\s+issue|Refactor\s+suggestion)_"),
)
_PHRASES = (
    (re.compile(r"\bnon[\s-]?blocking\b|\bnot[\s-]+(?:a\s+)?blocking\b|\bnot[\s-]+blockers?\b",
                re.I), "minor"),
    (re.compile(r"\b(?:must[\s-]+fix|blocking|blockers?|show[\s-]?stoppers?|"
                r"fix\s+immediately|(?:minimum\s+)?required\s+changes|must[\s-]+change|required\s+"
                r"(?:before|for|to)\s+(?:merg\w*|release|approval|ship\w*|ga)|"
                r"must[\s-]+(?:address|resolve|have))\b", re.I),
     "critical"),
    (re.compile(r"\b(?:should[\s-]+fix|should\s+address)\b", re.I), "medium"),
    (re.compile(r"\b(?:nice[\s-]+to[\s-]+haves?|could[\s-]+fix|consider|optional|nits?|"
                r"nitpicks?|polish)\b", re.I), "minor"),
    # the same ladder in Chinese, Japanese and Korean headings ("严重问题（必须修复）",
    # "中等问题", "轻微问题", "重大な問題", "軽微", "高优先级", "🔴 필수 수정",
    # "치명적인 이슈", "🟡 권장 수정", "🟢 참고 사항")
    (re.compile("\u4e25\u91cd|\u56b4\u91cd|\u81f4\u547d|\u91cd\u5927|\u963b\u585e|"
                "\u5fc5\u987b\u4fee\u590d|\u5fc5\u9808|\u6df1\u523b|\u7d27\u6025|\u7dca\u6025|"
                # ... and "高优先级", "高優先度", Korean "심각", "치명적", "높음"
                "\u9ad8\u4f18\u5148|\u9ad8\u512a\u5148|\u9ad8\u98ce\u9669|"
                "\uce58\uba85(?:\uc801\uc778?)?|\uc2ec\uac01\ud55c?|\uae34\uae09|"
                "\ud544\uc218|\ub192\uc74c"), "critical"),
    (re.compile("\u4e2d\u7b49|\u4e2d\u5ea6|\u4e2d\u7a0b\u5ea6|\u5e94\u4fee\u590d|"
                "\u5efa\u8bae\u4fee\u590d|\u4e2d\u4f18\u5148|\u4e2d\u512a\u5148|\u5f3a\u70c8\u5efa\u8bae|"
                "\u63a8\u5968|\uad8c\uc7a5|\uc911\uac04|\ubcf4\ud1b5"), "medium"),
    (re.compile("\u8f7b\u5fae|\u8f15\u5fae|\u8efd\u5fae|\u8efd\u5ea6|\u6b21\u8981|"
                "\u53ef\u9009|\u53ef\u9078|\u6539\u5584\u63d0\u6848|\u4f4e\u4f18\u5148|"
                "\u4f4e\u512a\u5148|\uacbd\ubbf8|\uc0ac\uc18c\ud55c?|\ucc38\uace0|"
                "\uc120\ud0dd|\ub0ae\uc74c"), "minor"),
)
# Bucket sections: a review's findings grouped by how soon to act (MoSCoW and its kin)
# rather than by a severity word.  A heading, a bold line or a `Label:` line that is only
# one of these names holds findings, of the severity given here (one table, reproduced in
# docs/parse-verdict.md; ``None``: the bucket grades nothing).
BUCKETS: tuple[tuple[str, str | None], ...] = (
    (r"must(?:[\s-]+(?:haves?|do|fix(?:es)?|address))?|blocking|blockers?", "critical"),
    (r"should(?:[\s-]+(?:haves?|do|fix(?:es)?|address))?", "medium"),
    (r"could(?:[\s-]+(?:haves?|do|fix(?:es)?))?|polish|nice[\s-]+to[\s-]+haves?|consider|"
     r"non[\s-]?blocking|nits?|nitpicks?|follow[\s-]?ups?|(?:smaller|small|minor)\s+"
     r"(?:items|things|points|issues)", "minor"),
    (r"other\s+(?:notes|items|points|remarks|observations)", None),
)
_BUCKET = re.compile(
    r"^(?:" + "|".join(f"(?P<b{i}>{rx})" for i, (rx, _) in enumerate(BUCKETS))
    + r")\s*(?:\([^()\n]{0,60}\))?\s*[:\uff1a]?\s*$", re.I)


# a heading that only titles a review ("# Code review", "## PR Review", "## Review notes")
_REVIEW_HEAD = re.compile(
    r"^(?:(?:code|pr|pull\s+request|change|diff|patch|final|council|security)\s+)?review"
    r"(?:\s+(?:notes|comments|feedback))?\s*:?\s*$", re.I)

# an item of a review's plain list that praises, thanks or sums up: no finding
_REVIEW_ASIDE = re.compile(
    r"^[\W_]*(?:nice|good|great|excellent|solid|clean|well[\s-]done|thanks?|thank\s+you|"
    r"kudos|love|lgtm|overall|in\s+summary|looks\s+good)\b", re.I)


def bucket(text: str) -> tuple[bool, str | None]:
    """Whether ``text`` (a heading or a label) only names a bucket, and the severity it
    implies ("Must", "**Should have:**", "### 3. Nice-to-have", "Smaller items:")."""
    t = re.sub(r"^[\W\d_]+", "", _plain(text)).strip()
    m = _BUCKET.match(t)
    if m is None:
        return False, None
    i = next(int(k[1:]) for k, v in m.groupdict().items() if v is not None)
    return True, BUCKETS[i][1]


# a heading's words in the other languages of the severity table that only label a group
# ("Problemas Críticos", "Problèmes Haute Priorité", "Kritische Probleme", "P0 — 머지 전
# 필수 수정"): issue and fix nouns, priority, must/should, before/merge, and small words
_LABEL_WORDS_INTL = frozenset((
    "problema", "problemas", "problème", "problèmes", "probleme", "problemi", "fehler",
    "befund", "befunde", "mängel", "hallazgo", "hallazgos", "achado", "achados", "constat",
    "constats", "anomalies", "questões", "cuestiones", "punti", "pontos", "puntos", "points",
    "проблемы", "проблема", "замечания", "ошибки", "дефекты", "находки",
    "prioridade", "prioridad", "priorité", "priorità", "priorität", "приоритет",
    "приоритета", "gravidade", "gravedad", "gravité", "gravità", "severidade", "severidad",
    "sévérité", "severità", "schweregrad",
    "obrigatório", "obrigatórios", "obligatoire", "obligatoires", "obligatorio",
    "obligatorios", "obbligatorio", "obbligatori", "zwingend", "обязательно",
    "recomendado", "recomendados", "recommandé", "recommandés", "raccomandato",
    "empfohlen", "рекомендуется", "sugestões", "sugerencias", "suggerimenti", "vorschläge",
    "предложения", "melhorias", "mejoras", "améliorations", "miglioramenti",
    "verbesserungen", "улучшения", "corrigir", "corriger", "corregir", "correggere",
    "beheben", "исправить", "correções", "correcciones", "corrections", "correzioni",
    "korrekturen", "исправления",
    # found, identified, and the vulnerabilities a security review groups ("4 Vulnerabilidades
    # Críticas Identificadas", "Kritische Schwachstellen gefunden")
    "vulnerabilidade", "vulnerabilidades", "vulnérabilité", "vulnérabilités", "vulnerabilità",
    "schwachstelle", "schwachstellen", "encontrado", "encontrados", "encontrada",
    "encontradas", "identificado", "identificados", "identificada", "identificadas",
    "trouvé", "trouvés", "trouvées", "identifié", "identifiés", "identifiées", "trovati",
    "trovate", "identificati", "identificate", "gefunden", "identifiziert",
    "de", "da", "do", "la", "le", "les", "des", "di", "del",
    "della", "à", "a", "e", "y", "et", "und", "и", "con", "com", "avec", "mit", "antes",
    "avant", "prima", "vor", "до", "merge", "fusão", "fusión", "fusion",
    "\uc774\uc288", "\ubb38\uc81c", "\ubb38\uc81c\uc810", "\uacb0\ud568", "\uc9c0\uc801",
    "\uc0ac\ud56d", "\uc218\uc815", "\uba38\uc9c0", "\ubcd1\ud569", "\uc804", "\ud56d\ubaa9",
    # 발견, 발견사항, 지적사항, 상세, 세부, 주요 ("상세 발견사항": detailed findings)
    "\ubc1c\uacac", "\ubc1c\uacac\uc0ac\ud56d", "\uc9c0\uc801\uc0ac\ud56d", "\uc0c1\uc138",
    "\uc138\ubd80", "\uc8fc\uc694",
))
# severity words of other languages a heading may name that are also common words of
# another ("media", "grave"): read in fields and cells only
_HEADING_AMBIGUOUS = frozenset(("media", "medio", "grave", "importante", "menor", "opcional",
                                "hinweis", "wichtig", "moyen", "leve"))
_SEV_WORD_RE = re.compile(r"(?<![\w-])(?P<w>" + SEVERITY_WORD + r")(?![\w-])", re.I)
# a heading may name its severity in the plural ("Suggestions", "Warnings", "Blockers")
# ("High-Severity Issues" names its severity as "High Severity Issues" does)
_SEV_WORDS_RE = re.compile(r"(?<![\w-])(?P<w>" + SEVERITY_WORD
                           + r")s?(?:(?![\w-])|(?=-(?:severity|priority)\b))", re.I)
_FIELD = re.compile(
    r"^\s*(?:[-*+]\s+)?[*_]*\s*(?P<k>severity|priority|risk|impact|level|locations?|file|files|"
    r"paths?|where|area|affected\s+files?|lines?(?:\s*\(s\))?|status|state|" + PLACE_KEYS + r"|"
    + LINE_KEYS + r"|" + SEVERITY_KEYS + r"|" + STATUS_KEYS
    + r")\s*[*_]*\s*[:=\uff1a]\s*[*_]*\s*(?P<v>.*)$", re.I)
# where a record of fields on one line ("File: a.py, Line: 40, Severity: high") passes from
# one field to the next: a comma, semicolon or bar right before another known key
_RECORD_SPLIT = re.compile(
    r"\s*[,;|]\s*(?=[*_]*(?:severity|priority|locations?|file|path|lines?|status|"
    + LINE_KEYS + r"|" + SEVERITY_KEYS + r")[*_]*\s*[:=\uff1a])", re.I)
# an item that opens with only a line of the file its section or header names ("- :339 —
# ...", "- Line 12: ...", "- Lines 3-9 -", "- L40-L44 ...", "- (L12) ...")
_LINE_LEAD = re.compile(
    r"^[\s*_`(\[]*(?::|(?:lines?|ln)\s*|L\s*(?=\d))(?P<l>\d{1,7})"
    r"(?:\s*[-\u2013,]\s*L?\d{1,7})*[\s*_`)\]]*(?:[:\u2014\u2013-]|\s)", re.I)
_BODY_LINE = re.compile(r"^(?:\W{0,3}|.{0,40}?\s)(?:at\s+|on\s+)?(?::|lines?\s+|L(?=\d))"
                        r"(?P<l>\d{1,7})\b(?![.:/]\d)", re.I)
_LINE_ONLY = re.compile(r"(?:^|[\s(`])(?::|(?:lines?|ln|L)\s*)(?P<l>\d{1,7})\b(?!\s*[:/])",
                        re.I)
_BLOB = re.compile(
    r"https?://[^\s)/]+/[^\s)]*?/(?:-/)?blob/[^/\s)]+/(?P<p>[^\s)#?]+)"
    r"(?:#L(?P<l>\d{1,7})(?:-L?(?P<e>\d{1,7}))?)?")
# (not the head of a longer dotted name: "com.example" in "com.example.PrivateFork")
_FILE_TOKEN = re.compile(r"`(?P<a>[^`\n]{1,200})`|(?P<b>(?<![\w/.\-:])[\w.\-/]{1,200}\.[A-Za-z]"
                         r"[A-Za-z0-9]{0,9})(?![\w/]|\.\w)")
_WRAP_END = re.compile(r"[\w.\-/]+[-/]$")
_DANGLING = re.compile(r"(?:\s[\u2014\u2013-]|[\u2014:])\s*$")
_HEADERISH = re.compile(r"^#{7,}\s*(?P<t>.*?)\s*#*\s*$")
# a heading that names a dimension: one to three words, no number, id or sentence
_CATEGORY = re.compile(r"^\s*[^\W\d_][^\W\d_'-]*(?:(?:\s+|\s*[&/]\s*|-)[^\W\d_]+){0,2}\s*$")
# a line of counts, not a verdict ("PASS: 12, FAIL: 0", "Passed: 12 tests", "PASS (12/12)")
_TALLY_VALUE = re.compile(r"^[\W_]*[^\W\d_][\w \-]{0,30}?[*_`]*\s*(?::|[(\[]?\s*\d)")
# a bold label naming a summary, alone on its line ("**Gate Summary**")
_SUMMARY_LABEL = re.compile(r"^\s*(?:\*\*|__)[^*_\n]{0,40}\bsummary(?:\*\*|__)\s*:?\s*$", re.I)
_CHECKBOX = re.compile(r"^\s*[*_]*\[(?P<x>[ xX\u2713\u2714])\]\s*")
# a bold label alone on its line that names a part of one finding's text, not a finding
_BODY_WORDS = (
    r"(?:description|details?|problem|issue|evidence|explanation|analysis|"
    r"context|background|observations?|rationale|root\s+cause|why(?:\s+it\s+matters)?|"
    r"reproduction|repro|steps\s+to\s+reproduce|proof|impacts?|risks?|fix|suggested\s+fix|"
    r"recommendations?|recommended\s+fix|remediation|suggestions?)")
_BODY_LABEL = re.compile(
    r"^\s*(?:\*\*|__)\s*" + _BODY_WORDS + r"\s*:?\s*(?:\*\*|__)\s*:?\s*$", re.I)
# ... and such a label leading a line of that text ("**Suggestion:** move the update")
_BODY_LEAD = re.compile(r"^\s*(?:\*\*|__)\s*" + _BODY_WORDS + r"\s*:\s*(?:\*\*|__)|"
                        r"^\s*(?:\*\*|__)\s*" + _BODY_WORDS + r"\s*(?:\*\*|__)\s*:", re.I)
_TITLE = re.compile(r"^\s*(?:\*\*|__)(?P<t>[^*\n]{3,300}?)(?:\*\*|__)\s*[.:]?\s*$")


# a line a named role speaks ("Orchestrator: GO — …", "**Lead reviewer:** APPROVE"): the
# role's name (one or two capitalised words) and what it says
_SPEAKER = re.compile(r"^[*_]*(?P<k>[A-Z][\w-]{1,24}(?: [A-Za-z][\w-]{1,24})?)[*_]*\s*[:\uff1a]"
                      r"[*_]*\s*(?P<v>\S.*)$")
META_ROWS = 40  # rows of a record table, lines of a header quote read for a Verdict key
_QUOTE_MARK = re.compile(r"^\s{0,3}(?:>\s?)+")
_BOLD_FIELD = re.compile(r"^\s*(?:\*\*|__)[^*_\n:]{1,40}:?(?:\*\*|__)\s*:?\s*\S")


@dataclass
class Vote:
    vote: str | None
    strong: bool
    round: int
    order: int
    rank: int = 1  # 0: a verdict a later key replaces ("Original verdict"); 2: one that
    # replaces earlier ones ("New verdict", "Final verdict")
    remark: bool = False  # a Verdict key whose value is a sentence naming no decision
    aside: bool = False  # ... and it sits in a section of the review ("## Performance")
    scope: str | None = None  # the file a per-file section's heading names ("## 2. a.tsx")


@dataclass
class Doc:
    votes: list[Vote] = field(default_factory=list)
    confidence: str = ""
    summary: str = ""
    findings: list[dict[str, Any]] = field(default_factory=list)
    has_keys: bool = False
    findings_text: str | None = None  # the findings sections' own lines, when there are any
    template: bool = False  # a verdict key offers a choice: the text is a form, not a review
    reply: bool = False  # the author's reply to a review: the verdicts it states are quoted
    round_starts: list[int] = field(default_factory=list)  # findings read before each round


@dataclass
class _Section:
    level: int
    kind: str  # findings, positive, resolved, other, neutral
    sev: str | None
    file: Location | None
    round: int
    cand: _Cand | None = None
    prior: tuple[dict[str, Any], ...] | None = None  # a recap: the findings read before it
    summary_recap: bool = False  # a summary or status (not suggestions or changes)
    summary_head: bool = False  # headed as a summary or status, findings read before or not
    preview: bool = False  # a summary before any finding: what it lists may come again below
    review_head: bool = False  # "# Code review", "## Review": its own bullet list is findings
    reopen: bool = False  # a heading under settled items that says it is still open
    # settled by its words ("Resolved", "Previously reported"), not by a check mark alone
    # ("## ✅ Improvements"): an item under it may still say it is open
    reopenable: bool = False
    item: str | None = None  # "## 1. dialog.tsx", "### Decision 2: …": one item of many
    plan: bool = False  # "## Next steps", "## Roadmap": work to come, no findings
    action: bool = False  # named as a list of actions ("## Recommendations", "## Action Items")
    answers: tuple[str, ...] = ()  # "### 2. Authorization (unblocks B2, B5)": ids it answers
    left_open: bool = False  # in a fix log: "## Outstanding Items", what it did not fix
    remedy: bool = False  # "#### Change 1: …" after the findings: a proposed change


@dataclass
class _Cand:
    """A heading that may be a finding, with the lines of its section."""

    text: str
    sev: str | None
    in_findings: bool
    file: Location | None
    at: int  # index in the findings list where it would go
    count: int  # findings emitted before it opened
    level: int = 2
    name_only: bool = False  # the heading only names a kind of section ("Review Comment")
    title: bool = False  # the document's first heading, a level-1 title
    body: list[str] = field(default_factory=list)
    ident: str | None = None  # the heading as written, with its id or number ("3.", "N1")
    settled: bool = False  # its body gives it a status of fixed or resolved (a key line)
    numbered: bool = False  # "### 8. Title": one of a review's numbered items
    code: Location | None | bool = None  # the place its first code block gives (False: none)
    subs: list[str] = field(default_factory=list)  # the kinds of the headings under it
    prose: bool = False  # a paragraph of its own was read under it (not in a list)
    records: int = 0  # blocks of nothing but fields read under it (see ``_field_record``)
    record: list[str] = field(default_factory=list)  # the first of them
    said: bool = False  # what its section read repeats a finding read before it


@dataclass
class _Para:
    head: str
    sev: str | None
    file: Location | None
    rest: list[str] = field(default_factory=list)


def _text(node: SyntaxTreeNode) -> str:
    for child in node.children:
        if child.type == "inline":
            return child.content
    return ""


def _plain(text: str) -> str:
    """Heading or item text without emphasis, code marks, emoji and numbering."""
    t = re.sub(r"[*_`~]+", "", text)
    t = re.sub(r"[^\w\s:/().,&#'+-]", " ", t)
    t = _NUMBERING.sub("", t.strip())
    return " ".join(t.split())


# a severity heading in Chinese or Japanese: "严重问题", "中等问题", "軽微な指摘"
_CJK_LABEL = re.compile(
    "^[\\W\\d_]*(?:" + "|".join(rx.pattern for rx, _ in _PHRASES[-3:]) + ")"
    "(?:\u7ea7|\u5ea6)?(?:\u7684|\u306a|\u306e|\ud55c)?(?:\u95ee\u9898|\u554f\u984c|\u6307\u6458|"
    "\u53d1\u73b0|\u4e8b\u9879|\u4e8b\u9805|\u9879|\u70b9|\ubb38\uc81c|\uc774\uc288)?"
    "(?:[\\W\\d_]+[^\\W\\d_]{1,10})?[\\W\\d_]*$")


# a severity word of another language as the tag of a title ("1. 重大: 入力が検証されない",
# "【高】：令牌未校验"), not the name of a group ("严重问题：必须修复")
_CJK_TAGGED = re.compile("^[\\W\\d_]*(?P<w>[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]{1,6})"
                         "[\\W_]*[:\uff1a][\\W_]*(?P<t>[^\\W\\d_].*)$")


def _cjk_tagged_title(text: str) -> bool:
    """True for a heading that is a severity tag before a finding's own title."""
    m = _CJK_TAGGED.match(_NUMBERING.sub("", re.sub(r"[*_`~]+", "", text).strip()))
    if m is None or severity.INTL_ALIASES.get(m["w"]) is None:
        return False
    rest = m["t"]
    return heading_severity(rest) is None and not _FINDINGS.search(rest) \
        and len(re.findall("[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]|[^\\W\\d_]{2,}",
                           rest)) >= 5


_ASIDE = re.compile(r"\([^)]*\)")


def _drop_asides(t: str) -> str:
    """``t`` with each aside in parentheses made a blank.  An aside ends at a closing
    parenthesis, so nothing after the last one is searched: a run of opening parentheses
    with none closed reads once, not once from each."""
    end = t.rfind(")") + 1
    return _ASIDE.sub(" ", t[:end]) + t[end:]


def _is_label(text: str) -> bool:
    if bucket(text)[0]:
        return True  # "Should", "Smaller items", "Other notes": a bucket of findings
    if _FINDING_ID.match(_plain(text)) or _intl_head(text):
        return False  # an id; "建议行动计划", an action plan: no severity's group
    # an aside in full-width brackets goes before _plain turns the brackets into spaces
    t = _drop_asides(_plain(re.sub(r"\uff08[^\uff09]{0,40}\uff09", " ", text)))
    t = t.lower()
    if _CJK_LABEL.match(t):
        return not _cjk_tagged_title(text)
    # "Top-5 must-fix issues for v0.6", "Three blockers": a count or a version labels nothing
    t = re.sub(r"\bv\d{1,3}(?:\.\d{1,3}){0,2}\b|\b(?:one|two|three|four|five|six|seven|eight|"
               r"nine|ten)\b", " ", t)
    toks = [w for w in re.split(r"[\s:/,.&+()#'-]+", t) if w]
    return bool(toks) and all(w in _LABEL_WORDS or _COUNT.match(w) or _intl_label_word(w)
                              or _CJK_LABEL.match(w) is not None
                              or _CJK_LABEL_PARTS.match(w) is not None for w in toks)


# how many findings a group holds: a number, alone or with a counter word of Chinese,
# Japanese or Korean ("CRITICAL 3건", "MAJOR 12件", "轻微 2个", "3項"), which labels nothing
_COUNT = re.compile("^\\d{1,4}(?:\u4ef6|\u4e2a|\u500b|\u9879|\u9805|\u6761|\u689d|\u5904|\u8655|"
                    "\u70b9|\u9ede|\u3064|\uac74|\uac1c)?$")


# a group's name in Chinese or Japanese made only of when and how to act ("P3 - 长期优化",
# "P2 - 后续改进", "今後の検討事項"): the words of "P3 - long-term improvements"
_CJK_LABEL_PARTS = re.compile(
    "^(?:\u957f\u671f|\u77ed\u671f|\u4e2d\u671f|\u8fd1\u671f|\u4f18\u5316|\u6539\u8fdb|"
    "\u6539\u5584|\u8fed\u4ee3|\u540e\u7eed|\u4eca\u5f8c|\u5c06\u6765|\u7acb\u5373|\u5c3d\u5feb|"
    "\u8ba1\u5212|\u8a08\u753b|\u4fee\u590d|\u4fee\u6b63|\u5efa\u8bae|\u5efa\u8b70|\u5fc5\u987b|"
    "\u5fc5\u9808|\u5f3a\u70c8|\u53ef\u9009|\u63a8\u8350|\u63a8\u5968|\u8003\u8651|\u691c\u8a0e|"
    "\u4e8b\u9879|\u4e8b\u9805|\u95ee\u9898|\u554f\u984c|\u9879|\u5bfe\u5fdc|\u306e)+$")


def _intl_severity_word(w: str) -> str | None:
    """The severity a word of another language names in a heading, plurals and German
    endings included ("críticos", "kritische", "hautes")."""
    if _CJK_RUN.match(w):
        m = _INTL_CJK_LEAD.match(w)  # "치명적인", "필수": one or two words, never 高 alone
        return severity.INTL_ALIASES[m.group(0)] if m and len(m.group(0)) >= 2 else None
    if w in _HEADING_AMBIGUOUS or w in severity.TEXT_ALIASES \
            or not re.fullmatch(r"[^\W\d_]{3,20}", w):
        return None
    for stem in (w, w[:-1] if w.endswith("s") else "", w[:-1] if w.endswith("e") else "",
                 w[:-2] if w.endswith(("en", "es", "er")) else ""):
        if stem and stem not in _HEADING_AMBIGUOUS and (sev := severity.INTL_ALIASES.get(stem)):
            return sev
    return None


_INTL_CJK_LEAD = severity.CJK_LEAD


def _intl_label_word(w: str) -> bool:
    return w in _LABEL_WORDS_INTL or _intl_severity_word(w) is not None


def heading_severity(text: str) -> str | None:
    """The severity a heading gives its section, in any wording ("P0 (blocks release)",
    "### NITS — nice to have", "High priority", "Critical Issues (Must Fix)", a bucket's
    name: "Must", "Should have")."""
    is_bucket, sev0 = bucket(text)
    if is_bucket and sev0 is not None:
        return sev0
    # "MEDIUM TERM (Q2)", "Mid-term": when to act, not how severe
    t = re.sub(r"\b(?:short|medium|mid|long)[\s-]+term\b", " ", _plain(text), flags=re.I)
    m = _SEV_WORDS_RE.search(t)
    if m:
        sev = severity_word(m["w"])
        if sev:
            # "non-blocking" / "nice to have" said alongside wins over a bare word
            for rx, phrase_sev in _PHRASES[:1]:
                if rx.search(t):
                    return phrase_sev
            return sev
    for rx, sev in _PHRASES:
        if rx.search(t):
            return sev
    for w in re.split(r"[\s:/,.&+()#'-]+", t.lower()):
        if w and (sev := _intl_severity_word(w)):
            return sev  # "Problemas Críticos", "Kritische Probleme", "Haute priorité"
    return None


def badge_severity(text: str) -> str | None:
    """A severity badge or tag anywhere in ``text`` (gemini's image alt, "P1 Badge",
    coderabbit's "_🟠 Major_", "**High Severity**", an image badge: see
    :func:`image_badge`)."""
    for rx in _BADGES:
        m = rx.search(text)
        if m:
            w = m["w"].lower()
            w = " ".join(w.split())
            w = {"security": "high", "refactor suggestion": "minor",
                 "potential issue": "medium"}.get(w, w)
            return severity_word(w)
    w2 = image_badge(text)
    return severity_word(w2) if w2 else None


_IMAGE = re.compile(r"!\[(?P<alt>[^\]\n]{0,80})\]\((?P<url>[^)\s]{0,400})[^)\n]{0,80}\)")
_BADGE_WORDS = re.compile(r"(?i)\b(?:badge|priority|severity|sev|level|icon|label)\b")
_SEV_TOKEN = re.compile(r"(?<![a-z0-9])(?P<w>" + SEVERITY_WORD + r")(?![a-z0-9])", re.I)
_BADGE_URL = re.compile(r"(?i)badge|priority|severity|shields\.io|/sev")
_WRAPPERS = re.compile(r"</?(?:sub|sup|small|b|strong|span|kbd)\b[^<>\n]{0,80}>", re.I)


def image_badge(text: str) -> str | None:
    """The severity word of the first image that is a severity badge: its alt text is a
    severity ("![high](…)", "![P1 Badge](…)"), or its address is a badge's
    ("…/badge/P1-orange", "…/high-priority.svg", "…/severity-critical.png").  Any other
    image ("![screenshot](low-light.png)") is no badge."""
    for m in _IMAGE.finditer(text[:4000]):
        alt = _BADGE_WORDS.sub(" ", m["alt"]).strip(" -_:|")
        if alt and severity_word(alt):
            return alt
        url = m["url"].split("?", 1)[0].split("#", 1)[0]
        path = url.split("://", 1)[-1].partition("/")[2]
        if _BADGE_URL.search(path) or _BADGE_WORDS.search(m["alt"]):
            t = _SEV_TOKEN.search(path.rsplit("/", 1)[-1]) or _SEV_TOKEN.search(path)
            if t and severity_word(t["w"]):
                return t["w"]
    return None


def unbadge(text: str) -> tuple[str, str | None]:
    """``text`` without its severity badge images and the HTML wrappers around them
    (``<sub><sub>![P1 Badge](…)</sub></sub> Title`` → ``Title``), and the badge's
    severity word: a badge is the item's severity, never its title."""
    if "![" not in text:
        return text, None
    word = image_badge(text)
    if word is None:
        return text, None
    out = _IMAGE.sub(lambda m: " " if image_badge(m.group(0)) else m.group(0), text)
    out = _WRAPPERS.sub("", out)
    out = re.sub(r"(?:\*\*|__)\s+", lambda m: m.group(0).strip(), out)  # "** Title**"
    return " ".join(out.split()) if out.strip() else "", word


# a re-review's change of severity ("🟡 → 🔴", "Medium -> High", "ESCALATED to 🔴",
# "downgraded to minor"): the last severity it names is the item's current one
_ESCALATION = re.compile(
    r"(?:\u2192|->|\u27f6|=>|\u21d2|\b(?:escalated|upgraded|raised|bumped|downgraded|lowered|"
    r"promoted|demoted|re-?rated|reclassified|now)(?:\s+from\s+[^\s,;]{1,20})?\s+(?:to|as)\b"
    r"|\bnow(?:\s+(?:is|at))?(?=[\s*_`(]))[\s*_`~(\[]*"
    r"(?:(?:now|still|escalated\s+to|upgraded\s+to|downgraded\s+to)[\s*_`~(\[]+)?"
    r"(?:(?P<e>[\U0001f534\U0001f7e0\U0001f7e1\U0001f7e2\u2757])|(?P<w>" + SEVERITY_WORD
    + r")(?=[\s*_`)\]]*(?:$|[.,;:()|\u2014\u2013-]|\b(?:severity|priority|still|now)\b)))", re.I)


def escalated(text: str) -> str | None:
    """The current severity after a change of severity in ``text``, or None."""
    last = None
    for m in _ESCALATION.finditer(text[:600]):
        last = emoji_severity(m["e"]) if m["e"] else severity_word(m["w"])
    return last


# a finding's id made of its priority and a number or letter: "P2-A", "P1-3", "P0.2"
_PRIORITY_ID = re.compile(r"^[\s*_`\[]*(?P<w>P[0-4])[-.](?:[A-Z]{1,2}|\d{1,3})\b[\]*_`]*"
                          r"(?=\s|[:\uff1a\u2014\u2013])")


def _lead_tag(text: str) -> str | None:
    """A severity tag that opens ``text`` (``[P1]``, ``[BLOCKING:scope]``, ``**HIGH**:``,
    🔴, ``CRITICAL:``)."""
    pid = _PRIORITY_ID.match(_ITEM_NUMBER.sub("", text.lstrip()))
    if pid:  # "P2-A title", "**P1-3:** title": an id that opens with its priority
        return severity_word(pid["w"].lower())
    t = _ID_LEAD.sub("", _ITEM_NUMBER.sub("", text.lstrip()), count=1)
    # an id glued to its bracket, and brackets in full width, as Chinese and Japanese write
    # them: "V-1(LOW、新規):", "A-2（High）"
    t = _ID_GLUED.sub("", t, count=1).translate(_FULL_BRACKETS)
    m = _BRACKET_TAG.match(t) or _BRACKET_TAG.match(
        re.sub(r"^\s*\[[^\]\n]{1,40}\]\s*(?=[\[(])", "", t))  # ("[S1] (P2) …": an id first)
    if m:
        w = re.sub(r"[\s_-]+", "-", m["w"].lower())
        return severity_word("blocker" if w == "block" else w.replace("must-fix", "blocking")
                             .replace("should-fix", "warning").replace("nonblocking",
                                                                       "non-blocking"))
    m = re.match(r"^[\s*_`]*+(?:[^\w\s*_`\[]{1,3}\s*)?[*_]*(?P<w>" + SEVERITY_WORD
                 + r"|must[\s-]fix)[*_`]*(?:\s*#?\d{1,3})?(?:\s*\([\w\s/&,-]{1,30}\))?[*_]*"
                 r"\s*(?::|\u2014|\u2013|-\s|\*\*)", t, re.I)
    if m:
        w = m["w"].lower()
        return "critical" if w.startswith("must") else severity_word(w)
    m = _KEYED_TAG.match(t)  # "**严重程度**：中 —", "[심각도: 중간]": the key's value
    if m and SEVERITY_KEY_RE.match(m["k"]):
        w = m["v"].lower()
        s = severity.INTL_ALIASES.get(w) or severity_word(w)
        if s is None and _CJK_RUN.match(w):
            s = _intl_severity_word(w)
        if s:
            return s
    m = _INTL_TAG.match(t)  # "[重大]", "【高】", "(Alta)", "**Crítico:**", "높음 —"
    if m and (s := _intl_tag(m)):
        return s
    m = _DOT_FIELD.match(t)  # "R2-GPU-01 · hoch · PERFORMANCE · path": a field after the id
    if m:
        w = m["w"].strip().lower()
        s = severity_word(w) or severity.INTL_ALIASES.get(w)
        if s:
            return s
    for emoji in ("\U0001f534", "\U0001f7e0", "\U0001f7e1", "\u2757"):
        if t.startswith(emoji):
            return emoji_severity(emoji)
    return badge_severity(t[:200])


# an id's fields separated by middle dots, the first of them its severity in any language
# of the tables ("R2-PERF-01 · hoch · PERFORMANCE · `a.rs:12`", "F-3 · high · security")
_DOT_FIELD = re.compile(r"^[\s*_`]*(?:[A-Za-z][\w.-]{0,15}\s*)?\u00b7\s*"
                        r"(?P<w>[^\W\d_][^\u00b7\n]{0,30}?)\s*\u00b7")


# severity words of the table that are also the keys of a finding's fields ("**建议：**" is
# its suggestion, "**참고**:" a note, "**Hinweis:**" a remark): never a tag
_FIELD_WORDS = frozenset((
    "建议", "建議", "提示", "可选", "可選", "一般", "参考", "提案", "情報", "要修正", "필수",
    "必須",
    "중요", "권장", "참고", "선택", "정보", "제안", "sugestão", "sugestões", "sugerencia",
    "opcional", "hinweis", "vorschlag", "vorschläge", "suggerimento", "suggerimenti",
    "предложение", "предложения", "bloqueante", "bloquant", "bloquante", "bloccante"))
# a tag in another language's severity word (:data:`severity.INTL_ALIASES`) that opens a
# finding: in brackets, or before a colon or dash
_INTL_TAG = re.compile(
    r"^[\s*_`]*+(?:[\[(\u3010\uff08\uff3b]\s*(?P<a>[^\W\d_]{1,14})\s*[\])\u3011\uff09\uff3d]"
    r"|(?:[^\w\s*_`\[]{1,3}\s*)?[*_]*(?P<b>[^\W\d_]{1,14})[*_`]*\s*(?::|\uff1a|\u2014|\u2013|"
    r"-\s|\*\*))")


# a severity key and its value opening a finding, bare or in brackets ("**严重程度**：中 —",
# "[심각도: 중간]", "【重要度：高】")
_KEYED_TAG = re.compile(
    r"^[\s*_`]*+[\[(\u3010\uff08\uff3b]?\s*[*_]*(?P<k>[^\W\d_]{1,14})[*_]*\s*[:\uff1a]\s*[*_]*"
    r"(?P<v>[^\W\d_]{1,14})[*_`]*\s*(?:[\])\u3011\uff09\uff3d]|:|\uff1a|\u2014|\u2013|-\s|\*\*|\s|$)")


def _intl_tag(m: re.Match[str]) -> str | None:
    """The severity of another language's tag: a word in brackets is always a tag (``[可选]``,
    ``[提案]``, ``[Medio]``, ``【제안】``); before a colon or dash, not the words that are also
    common words or the keys of a finding's fields (``Media:``, ``**建议：**``).  A word of
    Chinese, Japanese or Korean counts by its leading severity word (``**치명적**:``,
    ``**必须修复**：``)."""
    bracketed = m["a"] is not None
    w = (m["a"] or m["b"] or "").strip().lower()
    if not bracketed and (w in _HEADING_AMBIGUOUS or w in _FIELD_WORDS
                          or SEVERITY_KEY_RE.match(w)):
        return None  # "严重级别：critical": the key of a severity field, whose value says it
    if (s := severity.INTL_ALIASES.get(w)) is not None:
        return s
    return _intl_severity_word(w) if _CJK_RUN.match(w) else None


_KNOWN_NAMES = frozenset(("makefile", "dockerfile", "jenkinsfile", "gemfile", "rakefile",
                          "procfile", "readme", "license", "vagrantfile", "justfile"))


# Code names are not files.  A dotted name without a directory is a member, not a file,
# when its receiver is an object of the code (``self.lock``, ``console.log``) or its
# "extension" is no file type (``emoji.name``, ``user.id``); a name with a directory, a
# known file name or a file type's extension is a file.
_RECEIVERS = frozenset((
    "self", "this", "cls", "super", "console", "window", "document", "process", "os", "sys",
    "math", "ctx", "req", "res", "err", "obj", "props", "state", "event", "globalthis",
    "module", "exports", "navigator", "location"))
_FILE_TYPES = frozenset((
    "py", "pyi", "pyx", "js", "mjs", "cjs", "ts", "mts", "cts", "jsx", "tsx", "go", "rs",
    "java", "kt", "kts", "rb", "php", "cs", "fs", "c", "h", "cc", "cpp", "cxx", "hpp", "hh",
    "m", "mm", "swift", "scala", "sc", "clj", "ex", "exs", "erl", "hrl", "hs", "ml", "mli",
    "dart", "lua", "pl", "pm", "r", "jl", "nim", "zig", "v", "sol", "vue", "svelte", "astro",
    "sh", "bash", "zsh", "fish", "ps1", "bat", "cmd", "sql", "prisma", "graphql", "gql",
    "proto", "thrift", "avsc", "yaml", "yml", "toml", "json", "jsonc", "json5", "jsonl",
    "ini", "cfg", "conf", "env", "properties", "xml", "plist", "gradle", "sbt", "cmake",
    "mk", "make", "bazel", "bzl", "nix", "tf", "tfvars", "hcl", "lock", "md", "mdx", "rst",
    "txt", "adoc", "tex", "html", "htm", "css", "scss", "sass", "less", "styl", "ejs", "hbs",
    "njk", "jinja", "j2", "tmpl", "tpl", "erb", "haml", "slim", "pug", "svg", "png", "jpg",
    "jpeg", "gif", "webp", "ico", "csv", "tsv", "ipynb", "dockerfile", "example", "sample",
    "template", "dist", "local", "config", "rc", "editorconfig", "gitignore", "dockerignore",
    "npmrc", "nvmrc", "mod", "sum", "cabal", "gemspec", "podspec", "csproj", "sln", "vb",
    "wasm", "wat", "el", "vim", "asm", "s", "ld", "service", "desktop", "pem", "crt", "log",
    "twig", "liquid", "mustache", "razor", "cshtml", "xaml", "groovy", "fsx", "fsi", "jsonnet",
    "libsonnet", "cue", "rego", "star", "gn", "ninja", "bicep", "psm1", "awk", "vhd", "vhdl",
    "sv", "svh", "tcl", "f90", "cob", "adb", "ads", "pas", "cr", "rkt", "scm", "lisp", "cljs",
    "cljc", "edn", "hx", "purs", "elm", "gleam", "odin", "mojo", "cu", "cuh", "metal", "glsl",
    "hlsl", "wgsl", "ino", "tsbuildinfo", "webmanifest", "map", "snap", "patch", "diff",
    "spec", "am", "in", "ac", "m4", "pyw", "pxd", "pth", "whl", "egg", "bzl", "workspace",
    # Xcode's own files ("Tests.xcconfig sets …", "project.pbxproj")
    "xcconfig", "pbxproj", "xcscheme", "entitlements", "storyboard", "xib", "xcstrings",
    "modulemap"))


def _code_name(raw: str) -> bool:
    """``raw`` (no directory) names a member of the code, not a file."""
    if "/" in raw or "\\" in raw or raw.startswith("."):
        return False
    parts = raw.split(".")
    if len(parts) < 2:
        return False
    if parts[0].lower() in _RECEIVERS:
        return True
    return parts[-1].lower() not in _FILE_TYPES and not any(
        p.lower() in _KNOWN_NAMES for p in parts)


def _file_tokens(text: str) -> list[tuple[str, int, int]]:
    """The path-like tokens in ``text`` (backticked or with an extension), in order, with
    their spans; code names (:func:`_code_name`) left out."""
    out: list[tuple[str, int, int]] = []
    for m in _FILE_TOKEN.finditer(text[:600]):
        raw = (m["a"] or m["b"] or "").strip()
        raw = raw.split()[0] if raw else ""
        if "://" in text[max(0, m.start() - 12):m.start() + 3] or raw.startswith("//"):
            continue
        loc = find_location(raw)
        if loc is not None:
            out.append((loc.file, m.start(), m.end()))
            continue
        sym = _FILE_SYMBOL.fullmatch(raw)
        if sym is not None and _pathlike(sym["p"]) and not _code_name(sym["p"]):
            out.append((clean_path(sym["p"]), m.start(), m.end()))  # "`runtime.py:_lock`"
            continue
        if raw and _pathlike(raw) and not raw.startswith(("http://", "https://")) \
                and not raw.endswith(("()", ")")) and len(raw) > 2 and not _code_name(raw) and (
                    re.search(r"\.[A-Za-z][A-Za-z0-9]{0,9}$", raw)
                    or raw.rsplit("/", 1)[-1].lower() in _KNOWN_NAMES
                    or re.fullmatch(r"[\w.\-]{2,}(?:/[\w.\-]{2,})+/?", raw, re.A)):
            out.append((clean_path(raw), m.start(), m.end()))
    return out


# a file and a name in it: "runtime.py:_hold_lock", "test_a.py::test_b", "a.ts#render"
_FILE_SYMBOL = re.compile(r"(?P<p>[\w./\-]{1,200}\.[A-Za-z][A-Za-z0-9]{0,9})(?:::?|#)"
                          r"[A-Za-z_][\w.]{0,100}(?:\(\))?")


def _first_file(text: str) -> str | None:
    """The first path-like token in ``text`` (backticked or with an extension)."""
    toks = _file_tokens(text)
    return toks[0][0] if toks else None


# A file named only in a finding's prose is its *subject*, not necessarily its place
# (see _prose_file).  Not a place either: a file the finding asks to create, add, write or
# read, or says is missing.
_NOT_PLACE_BEFORE = re.compile(
    r"(?:\b(?:missing|lacks?|create[sd]?|creating|add(?:s|ed|ing)?|write|writing|read(?:s|ing)?"
    r"|rename[sd]?\s+(?:it\s+)?to|generate[sd]?|introduce)\s+(?:(?:an?|the|new|separate|"
    r"dedicated|one|file|test)\s+){0,3}"
    r"|\u8865\u4e00\u4e2a|\u65b0\u589e|\u6dfb\u52a0|\u521b\u5efa|\u65b0\u5efa|\u7f3a\u5c11|"
    r"\u7f3a\u5931|\u8865\u5145|\u9605\u8bfb|\u8bfb\u53d6|\u8ffd\u52a0)[`*_\"'\s]*$", re.I)
_NOT_PLACE_AFTER = re.compile(
    r"^[`*_\"']*\s*(?:file\s+)?(?:is\s+|are\s+)?(?:missing|absent|not\s+found|does\s+not\s+exist"
    r"|doesn'?t\s+exist|\u4e0d\u5b58\u5728|\u7f3a\u5931)", re.I)
# what may open a clause before a file that is its subject: an id, a number, a tag, a
# severity word, an emoji (anything without letters but an id)
_CLAUSE_LEAD = re.compile(
    r"^[\W\d_]*+(?:(?:[A-Z]{1,6}+(?:[-.]?\d++)++[a-z]?|" + SEVERITY_WORD + r"|nit|note)"
    r"\b[\W\d_]*+)*+$", re.I)


# the noun "file" just before a bare name names it as the place ("测试文件 `a.py`", "파일
# `a.py`", "die Datei `a.py`", "le fichier `a.py`", "the file `a.py`")
_FILE_NOUN = re.compile(
    r"(?:\u6587\u4ef6|\u6a94\u6848|\u30d5\u30a1\u30a4\u30eb|\ud30c\uc77c|(?<![^\W\d_])(?:file|"
    r"datei|fichier|archivo|arquivo|\u0444\u0430\u0439\u043b))$", re.I)


def _prose_file(text: str, before: str = "") -> str | None:
    """The file a finding's prose line is about: a file with a directory, or a bare file
    name that opens the line, a sentence or a parenthesis ("`page.tsx` — ...",
    "S3 — `.env.example` ...", "... race (`registry.py`)"), never a file to create, read or
    that is missing.  ``before`` is the text just ahead of the line (the line above)."""
    for f, a, b in _file_tokens(text):
        ahead = (before[-80:] + " " + text[:a]) if before else text[:a]
        if _NOT_PLACE_BEFORE.search(ahead) or _NOT_PLACE_AFTER.match(text[b:b + 40]):
            continue
        base = f.rstrip("/").rsplit("/", 1)[-1]
        if "/" in f and (base.startswith(".") or base.lower() in _KNOWN_NAMES
                         or base.rsplit(".", 1)[-1].lower() in _FILE_TYPES and "." in base):
            return f  # a file with a directory ("a/b" alone may be "x.add/remove", code)
        if "/" in f:
            continue
        lead = re.sub(r"[*_`~\"']+", "", text[:a]).rstrip()
        if _CLAUSE_LEAD.match(lead) or re.search(r"(?:[.!?;(\u3002\uff01\uff1f\uff08]|[\u2014"
                                                   r"\u2013:\uff1a\u3001]|\s-)$", lead) \
                or _FILE_NOUN.search(lead) or _ARTICLE_LEAD.search(lead):
            return f
    return None


# an article opening a sentence or a clause right before a bare file name ("…: The
# main.swift implements a dual mode"): the file is what the sentence is about
_ARTICLE_LEAD = re.compile(r"(?:^|[.!?;:\u2014\u2013]\s*|\s-\s*)(?:the|this|its)$", re.I)


def _same_path(a: str, b: str) -> bool:
    """The same file, one path written shorter (``matching/ai.go`` for
    ``services/price/internal/matching/ai.go``)."""
    a, b = a.lstrip("./"), b.lstrip("./")
    return a == b or a.endswith("/" + b) or b.endswith("/" + a)


def _coded_source(text: str) -> str | None:
    """The one source file a line names in code, anywhere in it (a bare name such as
    `` `loader_test.go` ``), never one to create, read or that is missing."""
    found = None
    for f, a, b in _file_tokens(text):
        if "/" in f or not _EXT_RE.search(f) or not re.search(r"`" + re.escape(f) + r"`", text) \
                or _NOT_PLACE_BEFORE.search(text[:a]) or _NOT_PLACE_AFTER.match(text[b:b + 40]):
            continue
        if found is not None and f != found:
            return None  # two files: the line compares them, it is about neither alone
        found = f
    return found


def locate(text: str) -> Location | None:
    """A location in ``text``: a blob URL (GitHub/GitLab), else the reading's families."""
    m = _BLOB.search(text)
    if m:
        line = int(m["l"]) if m["l"] else None
        end = int(m["e"]) if m["e"] else None
        return Location(clean_path(m["p"]), line, end if end and line and end > line else None,
                        None, m.start(), m.end())
    loc = find_location(text)
    if loc is None:
        m2 = re.search(r"\(\s*lines?\s+(?P<l>\d{1,7})\s*,\s*(?P<p>[^\s,()]{2,200})\s*\)", text,
                       re.I)
        if m2 and _pathlike(m2["p"]):
            return Location(clean_path(m2["p"]), int(m2["l"]), None, None, m2.start(), m2.end())
        m3 = re.search(r"(?P<p>[\w./\-]{2,200}\.[A-Za-z][A-Za-z0-9]{0,9})`?\s*\((?P<l>\d{1,7})"
                       r"\s*[-\u2013]\s*(?P<e>\d{1,7})\)", text)
        if m3:
            line, end = int(m3["l"]), int(m3["e"])
            return Location(clean_path(m3["p"]), line, end if end > line else None, None,
                            m3.start(), m3.end())
        m4 = _AROUND_LINE.search(text)
        if m4 and _pathlike(m4["p"]):  # "In web/form.js, around line 7, the name is ..."
            return Location(clean_path(m4["p"]), int(m4["l"]), None, None, m4.start(),
                            m4.end())
    return loc


# a plain sentence's place: "In web/form.js, around line 7", "in `a.py` near line 40"
_AROUND_LINE = re.compile(
    r"\b(?:in|at)\s+`?(?P<p>[\w./\-]{1,200}\.[A-Za-z][A-Za-z0-9]{0,9})`?\s*,?\s+"
    r"(?:(?:at|on|around|near|about)\s+)?lines?\s+(?P<l>\d{1,7})\b", re.I)


def _join_head(lines: list[str]) -> tuple[str, list[str]]:
    """The first line of an item, with a dangling ``—`` continued and a path wrapped at a
    ``-`` or ``/`` joined; and the lines left over."""
    if not lines:
        return "", []
    head, i = lines[0].rstrip(), 1
    while i < len(lines) and i < 4:
        nxt = lines[i].strip()
        if _DANGLING.search(head) and nxt and locate(nxt) is not None:
            head = head.rstrip() + " " + nxt
            i += 1
            continue
        if _WRAP_END.search(head) and nxt and re.match(r"[\w.\-/]+:\d", nxt):
            head = head.rstrip() + nxt
            i += 1
            continue
        break
    return head, lines[i:]


# --------------------------------------------------------------------------- #
# The reader
# --------------------------------------------------------------------------- #
class _Reader:
    def __init__(self, origin: str, envelope: Location | None) -> None:
        self.origin = origin
        self.doc = Doc()
        self.sections: list[_Section] = []
        self.order = 0
        self.rounds = 0
        self.para: _Para | None = None
        self.envelope = envelope
        self.want_summary_para = False
        # a verdict key with no value: (strong, rank) of the value the next line may hold
        self.want_verdict_para: tuple[bool, int] | None = None
        # the value below is a Recommendation key's: a sentence recommending the merge is it
        self.want_recommendation = False
        self.pending_value: str | None = None
        self.pending_sev: str | None = None
        self.line = 0  # the source line being read
        self.src: list[str] = []
        self.span: tuple[int, int] | None = None  # an open findings section: (first line, level)
        self.spans: list[tuple[int, int]] = []
        self.head_value: dict[int, str] = {}
        self.headings = 0
        self.details = 0  # <details> blocks open around the reading
        self.blocks = 0  # blocks read other than headings and marker lines
        self.loose_file: Location | None = None  # a paragraph that only names a file
        # the file of the last finding read under the innermost heading: the file of a
        # later item there that cites only a line of it ("- Line 137: ...")
        self.block_file: Location | None = None
        self.prose_files: set[str] = set()  # the files the paragraphs named (two at most)
        self.asks = False  # the paragraph before says what to write ("For each finding provide:")
        self.badge_open = False  # the paragraph before was only a severity badge
        self.ids: dict[str, dict[str, Any]] = {}  # a finding's id or number -> the finding
        # rows of a status table that mark an id fixed ("| 3 | stale context | FIXED |"):
        # the id -> the words of its row
        self.settled_ids: dict[str, set[str]] = {}
        self.listed_ids: set[int] = set()  # rows of a table listing findings by their ids
        self.superseded: set[int] = set()  # ... whose detail came after them
        self.words_of: dict[int, set[str]] = {}  # a finding (by identity) -> its words
        self.restate_budget = RESTATE_BUDGET
        self.previews: list[dict[str, Any]] = []  # fileless findings read in a preview
        self.comment: comments.Comment | None = None  # a review comment placed around its prose
        self.last_comment: int | None = None  # the findings' count when the last one opened
        # the findings' count at the last heading, rule or folded record: what a bot's
        # "✅ Addressed in …" settles when no comment of its own is open
        self.mark_from = 0
        self.hunk_quoted = False  # a quoted diff hunk was just read: a comment on it follows
        self.bot_sender = False  # the text is a review bot's notification
        self.subject: Location | None = None  # the one file a section's first lines name
        self.list_label: str | None = None  # a paragraph that only names a severity, before a list
        self.subject_open = False  # the block after a heading is being read
        self.shapes: set[tuple[int, str]] = set()  # review headings seen, by their words
        self.key_section: _Section | None = None  # a heading that is a key with no value
        self.want_confidence = False  # a Confidence key with no value: the next line's
        self.review_list = False  # a bold review title: the list after it is its critiques
        self.review_paras = False  # ... and the paragraphs right after it
        self.fix_lead = False  # a finding's Fix/Evidence paragraph ends with ":" over a list
        self.place_lead = False  # "**Files Affected**:" over a list: the places of a finding
        self.summary_value = False  # the verdict expected below is a summary's
        # the one document the answer says it reviews ("**Reviewed plan:** docs/plan.md",
        # "# Review of `docs/plan.md`"): the file of an item citing only a line of it
        self.reviewed: Location | None = None
        self.review_title = False  # a level-1 heading names a review, audit or critique
        # the title or the lines before the first section say the document answers a review
        # ("Second-round response to the review of 736f7e1", "# Review response"): its
        # sections are the answered items, settled unless they say they are still open
        self.response = False
        self.sectioned = False  # a heading below the title was read
        # levels at which the document tells a fix as done ("## Solution" over "Removed
        # the flag from sync.md"): its problem and root-cause sections there are settled
        self.fixed_levels: set[int] = set()
        # the document's title says it is addressed to a reviewer ("# Codex Review Brief",
        # "# Review Packet", "# Code Review Request"): a prompt, whose items are no findings
        self.brief = False
        # the title says the document records the fixes made for a review ("# Review Fixes
        # Summary", "# Code Review Fixes - Implementation Summary", "# Bug Fixes: …"): what
        # it lists is done, unless a heading says its items are left open ("## Outstanding
        # Items")
        self.fix_log = False

    def open_span(self, first: int, level: int) -> None:
        self.close_span(first)
        self.span = (first, level)

    def close_span(self, end: int) -> None:
        if self.span is not None:
            if end > self.span[0] or self.span[0] in self.head_value:
                self.spans.append((self.span[0], max(end, self.span[0])))
            self.span = None

    # -- context ----------------------------------------------------------------
    def kind(self) -> str:
        for i, sec in enumerate(self.sections):
            if sec.kind in ("positive", "resolved"):
                if sec.reopenable and any(s.reopen for s in self.sections[i + 1:]):
                    break  # "### 2. Token check — UNFIXED" under "## Previously reported"
                return sec.kind
        for sec in reversed(self.sections):
            if sec.kind in ("findings", "other"):
                return sec.kind
        return "neutral"

    def reopenable(self) -> bool:
        """The items read are under a heading settled by its words (see ``_Section``)."""
        sec = next((s for s in self.sections if s.kind in ("positive", "resolved")), None)
        return sec is not None and sec.reopenable

    def under_cand(self) -> bool:
        """The innermost section is a heading that may itself be the finding."""
        c = self.sections[-1].cand if self.sections else None
        return c is not None and not c.name_only

    def in_fielded_heading(self) -> bool:
        """The innermost section is a heading that may be the finding and has given a
        severity or place field of its own ("**Severity**: High", "**Location**: …")
        already: a finding by its fields, whose labelled lists are its parts."""
        c = self.sections[-1].cand if self.sections else None
        return c is not None and not c.name_only and any(
            _OWN_FIELD.match(ln) for ln in c.body[:MAX_BODY])

    def in_finding_heading(self) -> bool:
        """The innermost section is a heading that is a finding by its look (a tag, a
        location, a finding id): what is under it is that finding's."""
        c = self.sections[-1].cand if self.sections else None
        return c is not None and not c.name_only and bool(
            _lead_tag(c.text) or locate(c.text) is not None or _FINDING_ID.match(_plain(c.text))
            or _OWN_ASIDE.search(c.text) or c.numbered)

    def titled_file(self, path: str) -> bool:
        """The finding being read (an open paragraph, or else a finding heading with
        nothing read under it) is titled with ``path`` and gives no line yet."""
        p = self.para
        if p is not None:
            if p.rest or locate(p.head) is not None:
                return False
            f = _first_file(p.head)
        else:
            c = self.sections[-1].cand if self.sections else None
            if c is None or c.name_only or len(self.doc.findings) > c.count \
                    or locate(c.text) is not None or any(locate(b) for b in c.body[:40]):
                return False
            f = _first_file(c.text)
        return f is not None and _same_path(f, path)

    def in_file_heading(self) -> bool:
        """The innermost section is a heading that only names one file ("### src/seal.py
        (176, shared primitives)") right over a list: a group of that file's findings,
        each item one (not a heading whose paragraph opens a list of its parts)."""
        c = self.sections[-1].cand if self.sections else None
        return c is not None and not c.name_only and not c.prose and _file_only(c.text)

    def in_dimension(self) -> bool:
        """The innermost section is a heading that names a dimension of a review in a few
        words ("1. Non-idiomatic Rust", "Hard to follow regions"), no finding by its look."""
        c = self.sections[-1].cand if self.sections else None
        return c is not None and not c.name_only and not self.in_finding_heading() \
            and len(_plain(_NUMBERING.sub("", c.text)).split()) <= 6

    def in_category(self) -> bool:
        """The innermost section is a heading that only names a dimension of a rubric or a
        scorecard ("### Security", "### Code quality", "#### Cost"), under findings: the
        checkbox items under it are its findings, not parts of one."""
        c = self.sections[-1].cand if self.sections else None
        return c is not None and c.in_findings and not c.name_only and bool(
            _CATEGORY.match(_plain(c.text))) and not _lead_tag(c.text) \
            and locate(c.text) is None

    def sev(self) -> str | None:
        for s in reversed(self.sections):
            if s.sev:
                return s.sev
        return None

    def file(self) -> Location | None:
        if self.loose_file is not None:  # named after the innermost heading: nearer
            c = self.comment.file if self.comment is not None else None
            return c if c is not None and c.file == self.loose_file.file else self.loose_file
        for s in reversed(self.sections):
            if s.file is not None:
                return s.file
        if self.comment is not None and self.comment.file is not None:
            return self.comment.file
        return self.loose_file or self.envelope

    def round(self) -> int:
        for s in reversed(self.sections):
            if s.round:
                return s.round
        return 0

    def feed(self, line: str) -> None:
        """A line of the current sections' text: a candidate heading's fields and body."""
        for i, s in enumerate(self.sections):
            if s.cand is not None and len(s.cand.body) < MAX_BODY and not any(
                    t.remedy for t in self.sections[i + 1:]):
                # (a remedy's lines, "#### Change 2" … "**File**: `h.go:54`", are not the
                # fields of the heading above it)
                s.cand.body.append(line)
        if self.comment is not None and len(self.comment.lines) < MAX_BODY:
            self.comment.lines.append(line)

    # -- review comments placed around their prose (see ``comments``) -------------
    def open_comment(self, file: Location | None, signed: bool = False,
                     sev: str | None = None) -> None:
        self.close_comment()
        self.comment = comments.Comment(file, len(self.doc.findings), signed, sev,
                                        cand=self.in_finding_heading(), hunk=self.hunk_quoted)
        self.last_comment = self.comment.count
        self.hunk_quoted = False

    def close_comment(self) -> None:
        self.close_para()
        c, self.comment = self.comment, None
        if c is None:
            return
        if any(_BOT_ADDRESSED.match(ln) for ln in c.lines):
            del self.doc.findings[c.count:]  # the bot marked its comment addressed
            return
        inner = self.doc.findings[c.count:]
        if inner or c.cand:
            if c.file is not None:
                for f in inner:
                    if "file" not in f:
                        _put_location(f, c.file)
                        f.update(_ordered(f))
            return
        if not c.signed or c.file is None and not c.hunk and not _badge_titled(c.lines) \
                or self.kind() in ("positive", "resolved"):
            # a placeless comment is one only under the hunk it quotes, or when it opens
            # as a review bot's comment does: a badge line, then a bold title
            return
        summary = _strip_decor(comments.summary_of(c.lines))
        if not summary or _skip_head(summary) or comments.no_finding(c.lines):
            return
        rec: dict[str, Any] = {"kind": "finding", "origin": self.origin}
        sev = c.sev or badge_severity("\n".join(c.lines[:8]))
        if sev:
            rec["severity"] = sev
        _put_location(rec, c.file)
        rec["summary"] = _cap(summary)
        self.doc.findings.append(_ordered(rec))

    def comment_line(self, ln: str) -> bool:
        """A comment's metadata line (its place, its lines, its author): True when read."""
        c = self.comment
        fresh = c is not None and len(self.doc.findings) == c.count and not any(
            re.search(r"[^\W\d_]{3,}", ln) and not _badge_only(ln) for ln in c.lines)
        floc = comments.file_line(ln)
        if floc is not None:  # "On src/app/routes.rb:" / "File src/cache.py:"
            self.open_comment(floc, self.bot_sender)
            return True
        ps = comments.patchset_line(ln)
        if ps is not None and c is not None and c.file is not None:
            path = c.file.file
            if not fresh or c.file.line is not None:  # the next comment on the same file
                self.open_comment(Location(path), self.bot_sender)
            if self.comment is not None:
                self.comment.file = Location(path, ps[0], ps[1])
            return True
        meta = comments.meta_location(ln) if comments.lines_of(ln) is None else None
        if meta is not None:
            loc, named = meta
            bot = named and comments.by_bot(ln)
            if c is not None and fresh and c.file is None:
                if loc is not None:
                    c.place(loc)
                c.signed = c.signed or bot
            else:
                self.open_comment(loc, bot)
            return True
        fm = _FIELD.match(ln) if self.para is None and not self.under_cand() else None
        if fm and c is not None and c.file is not None and c.file.line is None \
                and fm["k"].lower().startswith("line") and len(self.doc.findings) == c.count:
            lm = re.match(r"\s*[`*_]*L?(\d{1,7})\b", fm["v"])
            if lm and int(lm.group(1)) >= 1:
                c.file = Location(c.file.file, int(lm.group(1)))
            return False  # the field line is read on as ever
        if fm and fm["k"].lower() in ("file", "path", "location") and (c is None or c.file is None):
            loc = locate(fm["v"])
            f = loc.file if loc is not None else _first_file(fm["v"])
            if f and (loc is None or loc.start <= 2):
                # "**File:** `a.rb`" over a bot's comment (a comment dump's header)
                self.open_comment(loc or Location(f))
            return False
        span = comments.lines_of(ln)
        if span is not None and (c is None or c.file is None):
            for sec in reversed(self.sections):  # "### a.go" then "Comment on lines +10 to +12"
                if sec.file is not None:
                    if sec.file.line is not None:
                        break
                    sec.file = Location(sec.file.file, span[0], span[1])
                    if sec.cand is not None and sec.cand.file is not None \
                            and sec.cand.file.file == sec.file.file:
                        sec.cand.file = sec.file
                    return True
        if c is None:
            return False
        if span is not None and c.file is not None and len(self.doc.findings) == c.count:
            c.file = Location(c.file.file, span[0], span[1])
            c.signed = c.signed or comments.by_bot(ln)
            return True
        if comments.is_author(ln) and len(self.doc.findings) == c.count:
            c.signed = True
            return True
        return False

    def author_lead(self, ln: str) -> str:
        """``**cursor[bot]**: **Title**``: the comment is signed; the title is read on."""
        c = self.comment
        rest = comments.after_author(ln) if c is not None else None
        if rest is None or c is None or len(self.doc.findings) > c.count:
            return ln
        c.signed = True
        return rest

    # -- keys ------------------------------------------------------------------
    def vote(self, value: str, strong: bool, rank: int = 1) -> bool:
        if words.is_enumeration(value):
            self.doc.template = True
            return False
        v = words.vote_of(value, strong)
        # "## 2. routes.test.tsx" over "### Verdict: PASS - …", "### Decision 3: …" over
        # "**Status:** APPROVED": that item's verdict (one of several, see resolve_votes)
        scope = next((s.item for s in reversed(self.sections) if s.item is not None), None)
        if v is None and not strong:
            if scope is not None and value.strip(" *_`"):
                # "## PR #9 — …" over "### Recommendation: MERGE": one item's call, in
                # words the vocabulary does not hold; it still marks a per-item review
                self.doc.votes.append(Vote(None, False, self.round(), self.order, 1,
                                           aside=True, scope=scope))
            return False
        self.order += 1
        remark = v is None and words.is_remark(value)
        # "### P2.7 …" then "**Verdict:** Not a bug, but …": a Verdict key naming no verdict
        # under one item of a list is that item's comment, as a remark in a section is
        aside = remark and any(s.level >= 2 and s.kind != "other" for s in self.sections) \
            or v is None and scope is not None
        self.doc.votes.append(Vote(v, strong, self.round(), self.order, rank, remark=remark,
                                   aside=aside, scope=scope))
        self.doc.has_keys = True
        return True

    def keys(self, line: str, heading: int = 0) -> bool:
        """Read the keys ``line`` states; True when it is a key line (not a finding)."""
        s = line.strip()
        if not s or s.startswith(("|", ">")):
            return False
        if not heading and self.sections and (c := self.sections[-1].cand) is not None \
                and _settled_body([s]):
            c.settled = True  # "**Verdict: fixed-by-me.**" in a heading's section: settled
        if not heading and self.sections and (c := self.sections[-1].cand) is not None \
                and (m := _ITEM_VOTE.match(s)) and words.vote_of(m["v"], False) == "APPROVE" \
                and locate(c.text) is None and not _lead_tag(c.text):
            # "### #3 — Onboarding webapp" over "- **Recommendation:** **Approve after …**":
            # the review of one change among several, approved by its own verdict: no
            # finding ("**Verdict:** HOLD. Do not merge …" keeps it)
            c.settled = True
        if self.want_confidence:
            self.want_confidence = False
            word = confidence_word(s)
            if word in ("HIGH", "MEDIUM", "LOW"):
                # "**Confidence Level**" then "- Medium – ...": the value, not a finding
                if not self.doc.confidence:
                    self.doc.confidence = word
                return True
        if self.want_verdict_para and self.summary_value:
            self.summary_value = False
            if _TALLY_VALUE.match(s):
                self.want_verdict_para = None  # "PASS: 12, FAIL: 0" under a summary: a tally
        if self.want_verdict_para:
            strong, rank = self.want_verdict_para
            self.want_verdict_para = None
            # the value under a "Verdict" heading or label: only a line that names one is
            # it (prose or a list of counts there is the reviewer's reasoning); under a
            # weaker key ("## Recommendation") only a line that is the verdict phrase
            said = words.recommendation_vote(s) if self.want_recommendation else None
            self.want_recommendation = False
            if not said and words.vote_of(s, strong, strict=not strong) is None \
                    and (who := _SPEAKER.match(s)) is not None \
                    and words.vote_of(who["v"], strong, strict=not strong) is not None:
                # "## Final decision" then "Orchestrator: GO — commit allowed": the
                # decision a named role states is the value
                s = who["v"]
            if (said or words.vote_of(s, strong, strict=not strong) is not None) \
                    and self.vote(said or s, strong, rank):
                held, self.key_section = self.key_section, None
                if held is not None and self.sections and self.sections[-1] is held:
                    # "## Go/No-Go Recommendation" then "**No-Go**": a verdict's heading,
                    # neither a finding nor a findings section
                    held.cand, held.kind = None, "other"
                return True
        k = key_of(("#" * heading + " " + s) if heading else s)
        if k is not None and k.name == "findings" and not heading and not (
                not k.value and self.in_fielded_heading()):
            # ("**Problems**:" alone under a heading with its own Severity and Location
            # fields names a part of that finding: read below as its field)
            self.close_sections(7)
            self.sections.append(_Section(7, "findings", None, None, 0))
            self.open_span(self.line + 1, 7)
            if k.value and not _NONE_RE.match(k.value):
                self.pending_value = k.value
                self.head_value[self.line + 1] = k.value
            return True
        vk = words.verdict_keys(s) if k is None or k.name in ("verdict", "other") else []
        if k is not None and k.name == "verdict" and not vk:
            vk = [(k.value, True, 1)]
        if heading and not vk and (num := _NUMBERING.match(s)) is not None:
            # "## 5. Recommendation", "## 10. Final Verdict": a numbered section that is the
            # key alone (or the key and its verdict), the value below it
            vk = [(v, st, r) for v, st, r in words.verdict_keys(s[num.end():])
                  if not v or words.vote_of(v, st) in words.VOTES]
        if heading == 1 and vk and all(v and words.is_name(v) for v, _, _ in vk):
            vk = []  # "# Re-Review Verdict — Flight Control": the document's title
        cand = self.sections[-1].cand if self.sections else None
        if vk and not heading and cand is not None and not cand.name_only and not cand.title \
                and _ITEM_STATUS_KEY.match(s):
            # "### 4. Type safety" then "**Status**: ✅ Acceptable": a weaker key under a
            # heading that may be one finding is that item's status, not the review's vote
            vk = [v for v in vk if v[1]]
            if not vk:
                return False
        strong_key = bool(vk) and vk[0][1]
        if (strong_key or k is not None and k.name in ("confidence", "summary")) and not heading:
            self.close_sections(7)
            self.close_span(self.line)
        if vk:
            voted = False
            advises = words.is_recommendation_key(s)
            for value, strong, rank in vk:
                if value:
                    # "**Recommendation:** I would recommend merging this pull request."
                    said = words.recommendation_vote(value) if advises else None
                    voted = self.vote(said or value, strong, rank) or voted
                elif len(vk) == 1:
                    self.want_verdict_para = (strong, rank)
                    self.want_recommendation = advises
            if strong_key or voted:
                return True
        if k is not None and k.name == "confidence":
            if k.value and not self.doc.confidence:
                self.doc.confidence = confidence_word(k.value)
            elif not k.value:
                self.want_confidence = True
            return True
        if k is not None and k.name == "summary" and not k.value \
                or _SUMMARY_LABEL.match(s) and not heading:
            # "## Summary" / "**Gate Summary**" then "**CONDITIONAL PASS**": the
            # line below may be the verdict phrase itself (read as a weaker key's value)
            if self.want_verdict_para is None:
                self.want_verdict_para = (False, 1)
                self.want_recommendation = False
                self.summary_value = True
            if k is None:
                return True
        if k is not None and k.name == "summary":
            if k.value and not self.doc.summary:
                self.doc.summary = _cap(_unwrap(k.value) or k.value)
            elif not k.value and not self.doc.summary:
                self.want_summary_para = True
            return True
        if vk:
            return False
        g = words.glued_verdict(s)
        if g is not None and words.vote_of(g[0]) in words.VOTES:
            self.vote(g[0], True, g[1])
        return False

    # -- findings --------------------------------------------------------------
    def emit(self, head: str, rest: list[str], sev: str | None, file: Location | None,
             at: int | None = None, ident: str | None = None,
             number: str | None = None) -> None:
        """``ident``: the item's explicit id (``N1``, ``#3``, ``SEC-2``), a reference in
        a recap; ``number``: its plain numbering ("3."), by which a recap may name it."""
        ident = ident or _ident(head)
        number = number or _number(head)
        head = _ITEM_NUMBER.sub("", head, count=1)
        head, badge = unbadge(head)
        if _skip_head(head) or not _strip_decor(head) and not rest:
            return
        fields = _fields(rest)
        if "file" not in fields and "line" in fields and (hf := _fields([head]).get("file")):
            fields["file"] = hf  # "- **File**: `a.cs`" over "- **Line**: 42": one record
        status = fields.get("status")
        if status and _RESOLVED.search(status) or _settled_body(rest):
            return
        if self.fix_log and not any(sec.left_open for sec in self.sections) \
                and not _reopened(head):
            return  # a fix log's item: done, not found
        if self.doc.findings and _REMEDY_HEAD.match(_plain(head)):
            return  # "Fix #1: move the imports" after the findings: a remedy for one of them
        if any(sec.plan for sec in self.sections) and not fields.get("file") \
                and locate(head[:600]) is None:
            return  # "## Next steps" … "3. **MEDIUM**: add input validation": work to come
        rec = _finding(_Item(head, -1, None, list(rest)), self.origin)
        if rec is None:
            return
        if badge and "severity" not in rec and "priority" not in rec:
            _put_severity(rec, badge)  # the item's own badge before its section's severity
        if _ID_ONLY.match(str(rec.get("summary", ""))):
            # "### PR #12: a.py:40" over a comment's badge and bold title: the title says it
            title = next((t for ln in rest[:8] if (t := _bold_title(ln))), None)
            if title:
                rec["summary"] = title
        _finish(rec, head, rest, fields, sev, file)
        if isinstance(rec.get("summary"), str) and "( )" in rec["summary"]:
            rec["summary"] = rec["summary"].replace(" ( )", "").replace("( )", "").strip()
        if "file" not in rec and re.match(r"^\W*same\s+file\b", fields.get("file", ""), re.I) \
                and self.doc.findings and self.doc.findings[-1].get("file"):
            rec["file"] = self.doc.findings[-1]["file"]  # "Where: Same file": the one before
            rec = _ordered(rec)
        rec = _ordered(rec)
        own_sev = bool(badge or _lead_tag(head) or fields.get("severity") or fields.get("priority")
                       or _OWN_ASIDE.search(head))
        if self.said_again(rec) or self.restates(rec, ident) or self.advice(rec, own_sev):
            return
        listed = self.ids.get(ident) if ident else None
        if listed is not None and ident and id(listed) in self.listed_ids:
            # a summary table's row listed this finding by its id ahead of its detail: the
            # detail is the finding, the row only its entry (dropped when reading ends)
            self.listed_ids.discard(id(listed))
            self.superseded.add(id(listed))
            del self.ids[ident]
        if at is None:
            self.doc.findings.append(rec)
        else:
            self.doc.findings.insert(at, rec)
        if isinstance(rec.get("file"), str):
            self.block_file = Location(rec["file"])
        if "file" not in rec and any(sec.preview for sec in self.sections):
            self.previews.append(rec)
        places = _field_places(fields.get("file", ""))
        if len(places) < 2:  # "Location: `a.md` §5 vs `b.md` templates": each file compared
            places = _compared_places(fields.get("file", "")) or places
        if len(places) < 2:  # "`a_test.go:119`, `a.go:119` — the helper is dead": its head
            lead = _PLACES_LEAD.match(_ITEM_NUMBER.sub("", head.strip()))
            places = _field_places(lead["p"]) if lead else []
            if not lead:  # "… the script hangs (`a.ps1:68`, `b.ps1:95`)." / "… — `a:5`, `b:9`"
                end = _PLACES_TAIL.search(head.rstrip()[-500:])
                places = _field_places(end["a"] or end["b"]) if end else []
        if len(places) > 1 and rec.get("file") == places[0].file:
            # "File: a.py:3, b.py:9": one finding at its first place, the others related
            _relate(rec, places[1:])
        if len(places) < 2 and isinstance(rec.get("file"), str):
            self.at_lines(rec, head)
        for key in (ident, number):
            if key:
                self.ids.setdefault(key, rec)

    def drop_previews(self) -> None:
        """A summary at the head of the review (``## 总体评价`` / ``### 主要问题``, ``##
        Overview`` / ``### Main issues``) lists, without places, the findings the review
        details below it: each of its fileless items that a later finding restates (shares
        two of its words and more than half of them) is that finding again, not one of its
        own; an item the review does not detail below stays a finding."""
        if not self.previews:
            return
        ids = {id(f) for f in self.previews}
        later = [f for f in self.doc.findings if id(f) not in ids][:RECAP_PRIOR * 4]
        if not later:
            return
        words = [_words(str(f.get("summary", "")) + " " + str(f.get("discussion", ""))[:300])
                 for f in later]
        gone: set[int] = set()
        for rec in self.previews[:RECAP_PRIOR]:
            mine = _words(str(rec.get("summary", "")))
            if any(len(mine & fw) >= 2 and 2 * len(mine & fw) > len(mine) for fw in words):
                gone.add(id(rec))
        if gone:
            self.drop(lambda f: id(f) in gone)

    def drop(self, dropped: Callable[[dict[str, Any]], bool]) -> None:
        """Remove the findings ``dropped`` picks, keeping each round's start in step."""
        gone = [dropped(f) for f in self.doc.findings]
        if not any(gone):
            return
        before = [0]  # how many of the findings before each index are gone
        for g in gone:
            before.append(before[-1] + g)
        self.doc.round_starts = [n - before[min(n, len(gone))] for n in self.doc.round_starts]
        self.doc.findings = [f for f, g in zip(self.doc.findings, gone, strict=True) if not g]

    def at_lines(self, rec: dict[str, Any], head: str) -> None:
        """``a.cs violations at lines: 41, 44, 101`` / ``… (lines 8 and 34)`` in the head of
        a finding in that file (at one of those lines, or at none): one finding at the
        first line listed (or its own), the other lines its related places."""
        m = _LINE_LIST.search(head[:600])
        if m is None:
            return
        nums = [int(n) for n in re.findall(r"\d{1,7}", m["n"])][:32]
        line = rec.get("line")
        if line is not None and line not in nums or any(n < 1 for n in nums):
            return
        if line is None:
            rec["line"] = nums[0]
        _relate(rec, [Location(rec["file"], n) for n in nums])

    def restates(self, rec: dict[str, Any], ident: str | None) -> bool:
        """In a recap section (a summary, status table, suggestions, required changes...
        after findings were read), ``rec`` restates a finding read before the section when
        it names that finding's id or shares enough of its words (:func:`_same_words`):
        it is folded into that finding (giving it the place or severity it lacked) and
        is not a finding of its own.  An item that restates nothing is still read."""
        sec = next((s for s in reversed(self.sections) if s.prior), None)
        if sec is None or not sec.prior:
            return False
        prior = sec.prior
        # bounded: at most RESTATE_BUDGET comparisons in all (an answer of a thousand
        # recaps stays linear); each earlier finding's words are computed once
        if self.restate_budget <= 0:
            return False
        self.restate_budget -= len(prior) + 1
        target = self.ids.get(ident) if ident else None
        if target is None:
            # "Fix Issue #1 - the iterator mismatch", "Guard `loadWithRetry` (H3)": an
            # action that names the finding it answers by its id
            for m in _REFERENCE.finditer(_title_of(str(rec.get("summary", "")))[:300]):
                key = (m["n"] or m["h"] or m["i"] or "").lower()
                if key and (target := self.ids.get(key)) is not None:
                    break
        if target is None and not isinstance(rec.get("file"), str):
            # "### 2. Authorization (unblocks B2, B5)" over "- Add `pundit`": each of its
            # actions answers one of the findings its heading names
            for s in reversed(self.sections):
                if s is sec:
                    break
                target = next((t for i in s.answers if (t := self.ids.get(i.lstrip("#")))
                               is not None and any(t is f for f in prior)), None)
                if target is not None:
                    return True
        if target is not None and not any(target is f for f in prior):
            target = None
        if target is None:
            text = str(rec.get("summary", ""))
            title = _title_of(text)
            words = _words(text if sec.summary_recap else title)
            # "For the lock contention: …" names the concern it answers: one word will do
            addresses = bool(_ADDRESSES.match(title))
            best = 0
            for f in prior:
                fw = self.words_of.get(id(f))
                if fw is None:
                    fw = self.words_of[id(f)] = _words(str(f.get("summary", "")) + " " + str(
                        f.get("discussion", ""))[:300])
                n = len(words & fw) if addresses else _same_words(words, fw, sec.summary_recap)
                if n > best:
                    best, target = n, f
        if target is None:
            return False
        self.restate_budget -= len(self.doc.findings) // 8
        if not any(target is g for g in self.doc.findings):
            return False  # that finding was taken back (a heading's parts re-read)
        if ident is None and isinstance(rec.get("file"), str) and isinstance(
                target.get("file"), str) and (not _same_path(rec["file"], target["file"])
                                              or rec.get("line")
                                              and rec.get("line") != target.get("line")):
            return False  # a place of its own: a new finding, not the earlier one again
        if "file" not in target and isinstance(rec.get("file"), str):
            for k in ("file", "line", "end_line", "column"):
                if k in rec:
                    target[k] = rec[k]
        if "severity" not in target and "priority" not in target:
            for k in ("priority", "severity"):
                if k in rec:
                    target[k] = rec[k]
        fixed = _ordered(dict(target))
        target.clear()
        target.update(fixed)
        return True

    def said_again(self, rec: dict[str, Any]) -> bool:
        """``rec`` repeats a finding read before it: the same place (file and line) and
        the same title, its own or that of the heading it sits under (a ``Details``
        section after an issue table, per-file sections after a list of the findings).
        The earlier one gets the severity it lacked; the heading is not read again."""
        file = rec.get("file")
        if not isinstance(file, str) or rec.get("line") is None:
            return False  # (a file alone is no place to tell two findings apart by)
        cand = self.sections[-1].cand if self.under_cand() else None
        if cand is not None and cand.count != len(self.doc.findings):
            cand = None  # its section read a finding already: the heading is not this title
        titles = {t for t in (_norm_title(str(rec.get("summary", ""))),
                              _norm_title(cand.text) if cand is not None else "") if t}
        if not titles:
            return False
        for f in reversed(self.doc.findings[-RESTATE_WINDOW:]):
            if f.get("file") != file or f.get("line") != rec.get("line") \
                    or _norm_title(str(f.get("summary", ""))) not in titles:
                continue
            if "severity" not in f and "priority" not in f:
                for k in ("priority", "severity"):
                    if k in rec:
                        f[k] = rec[k]
            for sec in self.sections:
                if sec.cand is not None and sec.cand.count == len(self.doc.findings):
                    # the headings over it that read nothing else are not read again either
                    # ("## Key issues in detail" over the titles of the list above)
                    sec.cand.said = True
            return True
        return False

    def advice(self, rec: dict[str, Any], own_sev: bool) -> bool:
        """In a list of actions after the findings (suggestions, next steps, testing
        recommendations), an item that restates no finding and has neither a place nor a
        severity of its own (or its list's: "Suggestions" are minor) is advice on what to
        do next, not a finding; a timing heading inside the list ("### Immediate (P0)")
        orders the actions and gives none of them a severity, as does a graded list of
        actions inside an ungraded one ("## Recommendations by Priority" / "### Priority
        2: Medium"): its grade orders the actions, it does not make them findings."""
        recaps = [s for s in self.sections if s.prior]
        if not recaps:
            return False
        sec = recaps[-1]
        if sec.sev and any(not s.summary_recap and not s.sev for s in recaps[:-1]):
            sec = next(s for s in recaps if not s.summary_recap and not s.sev)
        return not sec.summary_recap and "file" not in rec and not own_sev and not sec.sev

    def said_there(self, rec: dict[str, Any]) -> bool:
        """A finding read before at ``rec``'s place (its file, a line within the other's
        range) whose words ``rec``'s title restates: ``rec`` is that finding again."""
        line = rec.get("line")
        if not isinstance(line, int) or self.restate_budget <= 0:
            return False
        text = str(rec.get("summary", ""))
        lead = _LINE_LEAD.match(text)
        words = _words(_title_of(text[lead.end():] if lead else text))
        for f in self.doc.findings[-RECAP_PRIOR - 1:-1]:
            self.restate_budget -= 1
            fl = f.get("line")
            if f.get("file") != rec["file"] or not isinstance(fl, int):
                continue
            end = f.get("end_line")
            if not fl <= line <= (max(end, fl) if isinstance(end, int) else fl):
                continue
            fw = self.words_of.get(id(f))
            if fw is None:
                fw = self.words_of[id(f)] = _words(str(f.get("summary", "")) + " " + str(
                    f.get("discussion", ""))[:300])
            if _same_words(words, fw, True):
                return True
        return False

    def label(self, sev: str | None) -> None:
        """A label line's group (``**Blocking**``, ``blocking:``) opens; the one before
        ends.  ``sev`` None only ends it."""
        while self.sections and self.sections[-1].level == 8:
            self.sections.pop()
        if sev is not None:
            kind = self.kind()
            self.sections.append(_Section(8, "findings" if kind in ("findings", "neutral")
                                          else kind, sev, None, 0))

    def lines_listed(self, after: int) -> Location | None:
        """The place in the file in context of the list that starts on the first line
        written after source line ``after``, when its first item cites only a line."""
        if self.block_file is None or self.file() is not None:
            return None
        for ln in self.src[after:after + 2]:
            if ln.strip():
                m = re.match(r"^\s*[-*+\u2022]\s+(?P<r>.*)$", ln)
                lead = _LINE_LEAD.match(m["r"]) if m else None
                return Location(self.block_file.file, int(lead["l"])) if lead else None
        return None

    def lines_context(self, body: list[str]) -> Location | None:
        """The file in context (the reviewed file, else the last finding's) of an item
        whose place field gives only lines of it ("Locations: Lines 385, 828")."""
        ctx = self.reviewed or self.block_file
        if ctx is None:
            return None
        for ln in body[:12]:
            m = _LINES_FIELD.match(ln)
            if m is not None:
                lm = _LINE_ONLY.search(m["v"][:80])
                if lm is None or _first_file(m["v"]) is not None or int(lm["l"]) < 1:
                    return None
                return Location(ctx.file, int(lm["l"]))
        return None

    def close_para(self) -> None:
        p, self.para = self.para, None
        if p is not None:
            self.emit(p.head, p.rest, p.sev, p.file)

    def close_sections(self, level: int) -> None:
        while self.sections and self.sections[-1].level >= level:
            sec = self.sections.pop()
            c = sec.cand
            if c is None:
                continue
            inner = self.doc.findings[c.count:]
            # the status field of a heading that is one item, not of a section of findings
            # ("## Findings"), nor one nested under an item it lists ("- Status: Fixed")
            if inner and not _is_label(c.text) and c.records < 2 and (st := _fields(
                    [ln for ln in c.body if not ln.startswith("- ")]).get("status")) \
                    and _RESOLVED.search(st) \
                    and not any(k in ("findings", "neutral") for k in c.subs):
                del self.doc.findings[c.count:]  # "Statut : CORRIGÉ": its parts are settled too
                continue
            if inner and any(_BOT_ADDRESSED.match(ln) for ln in c.body) \
                    and not any(k in ("findings", "neutral") for k in c.subs) \
                    and not c.title and len({f.get("file") for f in inner}) <= 1:
                # (not a title over a dump of comments, each marked or not on its own)
                del self.doc.findings[c.count:]  # a bot's comment it marked addressed: all of it
                continue
            if inner and not (c.name_only and len(inner) > 1) and c.records < 2 \
                    and not any(k in ("findings", "neutral") for k in c.subs) \
                    and _fields(c.body).get("file") \
                    and all(
                    f.get("file") is None or c.file is not None and f.get("file") == c.file.file
                    for f in inner):
                # the heading's fields locate one finding: what its section read as
                # findings (a bold title, a badge line) are parts of it
                sev = next((f.get("severity") for f in inner if f.get("severity")), c.sev)
                del self.doc.findings[c.count:]
                self.emit(c.text, c.body, sev, c.file, at=c.at, ident=_ident(c.ident or ""),
                          number=_number(c.ident or ""))
                continue
            if len(inner) == 1 and "severity" not in inner[0] and "priority" not in inner[0]:
                # "### Finding 3" over "- Line 40: ..." and "- Severity: Low": one finding
                said = _fields(c.body).get("severity", "")
                want = _SEV_WORD_RE.search(said)
                if want and severity_word(want["w"]):
                    _put_severity(inner[0], want["w"])
                elif s := severity.lead_severity(said):  # "Severidade: 🟧 Média", "重要度: 高"
                    inner[0]["severity"] = s
            if inner:
                tag = _lead_tag(c.text)
                if tag:  # the heading's own tag or badge is the severity of what it holds
                    for f in inner:
                        if "severity" not in f and "priority" not in f:
                            f["severity"] = tag
                if len(inner) == 1 and not c.name_only and (tag or _FINDING_ID.match(
                        _plain(c.text))) and (own := _finding(_Item(c.text, -1, None, []),
                                                              self.origin)) is not None:
                    # "### 1. `critical` — Unsafe boundary" over "`loop.ts:217` runs …":
                    # the heading titles the one finding its section holds
                    said = str(inner[0].get("summary", ""))
                    title = str(own.get("summary", ""))
                    # ... when what the section read opens mid-clause after its place
                    # ("runs the install scripts …"), not when it has a title of its own
                    if title and len(title.split()) >= 2 and said[:1].islower():
                        inner[0]["summary"] = title
                        inner[0]["discussion"] = "\n".join(
                            x for x in (said, str(inner[0].get("discussion", ""))) if x)
                continue
            if _qualifies(c) and not c.settled and not c.said:
                text = c.text
                if c.file is not None and _strip_decor(_unwrap(text)) == c.file.file:
                    # "### pkg/db/conn.go" over a bot's comment: the comment's title is its text
                    text = comments.summary_of(c.body) or text
                place = c.file or (c.code if isinstance(c.code, Location) else None)
                self.emit(text, c.body, c.sev, place, at=c.at, ident=_ident(c.ident or ""),
                          number=_number(c.ident or ""))

    # -- blocks ------------------------------------------------------------------
    def bot_addressed(self, line: str) -> None:
        """The mark a review bot appends to its comment once a commit answers it ("✅
        Addressed in commit 6ed72f8"), after the comment was read: that comment is settled."""
        if self.last_comment is not None and _BOT_ADDRESSED.match(line):
            start = self.last_comment
            self.close_comment()
            del self.doc.findings[start:]
            self.last_comment = None
        elif self.comment is None and _BOT_ADDRESSED.match(line):
            # a dump's record with no comment opened ("P1: …" then the mark): what was read
            # since the record began
            self.close_para()
            del self.doc.findings[self.mark_from:]
        self.mark_from = len(self.doc.findings)

    def heading(self, node: SyntaxTreeNode) -> None:
        self.close_para()
        self.loose_file = self.block_file = None
        level = int(node.tag[1]) if node.tag[1:].isdigit() else 1
        text = _text(node)
        self.bot_addressed(text)  # a line alone may have been read as a heading
        self.last_comment = None  # a mark after the next heading answers no earlier comment
        self.mark_from = len(self.doc.findings)
        at = node.map[0] if node.map else self.line
        self.line = at
        if node.markup in ("-", "=") and self.comment is not None:
            self.feed(text)  # a comment's last line over a rule: a setext heading, not a title
        if self.span is not None and level <= self.span[1] and not (
                _lead_tag(text) or locate(text) is not None or _FINDING_ID.match(_plain(text))
                or re.match(r"^(?:\*\*)?(?:finding\s*)?#?\d{1,3}(?:[.):]|\*\*|\s)", text.strip(),
                            re.I)):
            self.close_span(at)
        self.close_sections(level)
        self.subject, self.subject_open = None, True
        named = {f for m in _FILE_TOKEN.finditer(text[:600])
                 if (f := _first_file(m.group(0))) and "/" in f}
        if len(named) == 1:  # "## Review of `lib/parse.ts`": the section's one file
            self.subject, self.subject_open = Location(named.pop()), False
        if level <= 2 or self.comment is not None and locate(text) is not None:
            self.close_comment()  # ... or "### src/api/client.ts:22": the next comment's place
        self.want_summary_para = False
        above, self.want_verdict_para = self.want_verdict_para, None
        self.want_recommendation = False
        self.want_confidence = self.summary_value = False
        self.pending_sev = None
        plain = _plain(text)
        rnd = 0
        rm = _ROUND.match(plain)
        if rm and re.match(r"^r\s*#?\s*\d", plain, re.I) and not re.search(
                r"\b(?:re-?review|review|round|pass|verdict|response|follow[\s-]?up|recheck|after|"
                r"fix(?:es)?|update[sd]?|second|third|final|rerun|re-?run)\b",
                plain[rm.end():], re.I) and plain[rm.end():].strip(" :.()\u2014\u2013-"):
            rm = None  # "R1 — Rollup passed with failures": a finding's id, not round 1
        again = bool(level <= 3 and not rm and _REREVIEW_HEAD.match(plain))
        shape = _round_shape(text) if level <= 3 and not rm else None
        if shape is not None:
            # "## B4 final review" after "## B3 final review": the next round
            again = again or (level, shape) in self.shapes
            self.shapes.add((level, shape))
        if rm or again:
            self.rounds += 1
            rnd = self.rounds
            self.doc.round_starts.append(len(self.doc.findings))
        is_key = self.keys(text, heading=level)
        if above is not None and above[0] and not is_key and level > 1 \
                and words.vote_of(text, True, strict=True) in words.VOTES:
            # "## Final Verdict" then "### ✅ APPROVED FOR DEPLOYMENT": the heading below a
            # Verdict heading is its value when it is the verdict phrase
            is_key = self.vote(text, True, above[1])
        if level == 1 and not is_key and not self.headings and (
                tm := _REVIEW_VERDICT_TITLE.match(re.sub(r"[*_`]", "", text).strip())) is not None \
                and words.vote_of(tm["v"], False, strict=True) in words.VOTES:
            self.vote(tm["v"], False)  # "# Review: APPROVED": the title states it
        k = key_of("#" * level + " " + text)
        names_findings = k is not None and k.name == "findings"
        label = _is_label(text) or names_findings or _SEV_CATEGORY.match(plain) is not None or (
            # "Top-5 Must-Fix Issues for v0.6": a group of findings by its plural noun and
            # its severity, whatever else it says ("Critical bug in X" is one finding)
            _GROUP_NOUN.search(plain) is not None and heading_severity(text) is not None
            and locate(text) is None and not _FINDING_ID.match(plain) and not _lead_tag(text))
        kind = "neutral"
        is_bucket = bucket(text)[0]
        if is_key:
            kind = "other"
        elif is_bucket:
            kind = "findings"  # "## Should", "### Other notes": a bucket of findings
        elif _skip_head(text) and not _PLACEHOLDER.search(text) or _RESOLVED.search(text) and (
                _is_label(_RESOLVED.sub(" ", text)) or _FINDINGS.search(plain) and not (
                    # "ISSUE-001: … on a closed socket": one finding by its look, whose
                    # words only mention a closed or fixed thing
                    _FINDING_ID.match(plain) or _lead_tag(text) or locate(text) is not None)) \
                or _DISPOSITION.match(re.sub(r"^[\W\d_]+", "", plain)):
            kind = "resolved"
        elif (_is_inventory(plain, text) or _intl_head(text) == "changes") and not re.search(
                r"\((?:priority|severity)\s*:", plain, re.I) or (
                _POSITIVE.match(plain) or len(plain.split()) <= 3 and _POSITIVE.search(plain)
                and not _lead_tag(text) or re.search(r"\b(?:verified|confirmed|passed)"
                                                     r"(?:\s+in\s+\w+)?\s*$", plain, re.I)) \
                and not _FINDINGS.search(_POSITIVE.sub(" ", plain)) \
                or _NO_ISSUES_HEAD.search(plain):
            # "Points forts", "Positive observations": a findings word inside the praise is
            # the praise's; "## Verification Results (No Issues Found)": checks that passed
            kind = "positive"
        elif _QUESTIONS.search(plain) and not _FINDINGS.search(plain) and not _lead_tag(text) \
                and len(re.findall(r"[^\W\d_]{2,}", plain)) <= 5 \
                or _AFTERWORD.match(re.sub(r"^[\W\d_]+", "", plain)):
            # "## Open questions" (not "### 7. `high` — Answers keyed by question text")
            kind = "other"
        elif names_findings or _FINDINGS.search(plain) and not is_key \
                or heading_severity(text) and label:
            kind = "findings"
        elif rnd:
            kind = "neutral"
        elif is_key or _OTHER.match(plain) or _intl_head(text):
            kind = "other"
        if kind == "other" and re.match(r"^(?:summary|executive\s+summary|tl;?dr|overview)\b",
                                        plain, re.I) and not self.doc.summary:
            self.want_summary_para = True
        sev = heading_severity(text) if label else None
        loc = locate(text)
        file_ctx = loc
        if file_ctx is None:
            fm = re.match(r"^\W*(?:file|files|path)\s*[:\u2014-]\s*(?P<p>.+)$", plain, re.I)
            f = _first_file(fm["p"]) if fm else None
            if f is None and plain and len(plain.split()) <= 3 and \
                    _pathlike(plain.strip().split(" ")[0]):
                f = _first_file(text)
            file_ctx = Location(f) if f else None
        title = not self.headings and level == 1 and not _lead_tag(text) and (
            loc is None or loc.line is None)
        if (title or level == 1 and re.search(r"\b(?:review|audit|assessment|report)\b", plain,
                                              re.I)) \
                and kind == "findings" and not names_findings and not re.search(
                r"\b(?:findings?|issues?|problems?|concerns?|bugs?|defects?|blockers?)\b", plain,
                re.I):
            # "# Task: Performance Fixes", "# Project Review & Improvement Suggestions": a
            # title, not a findings section
            kind = "neutral"
        if level == 1 and kind == "findings" and not names_findings and re.match(
                r"^(?:[\w-]+\s+){0,3}(?:review|audit)\s*(?:#\s*\d+\s*)?(?::|of\b|for\b|\u2014|-\s)",
                plain, re.I):
            # "# PR Review: fix: resolve chain name issues": the reviewed change's name
            kind = "neutral"
        if title and kind == "findings" and not names_findings and not _FINDINGS.search(
                re.sub(r"\bissues?\s+(?=review|report|audit|#\s*\d)|\bissue\s+#\s*\d+", " ",
                       plain, flags=re.I)):
            kind = "neutral"  # "# Issue Review: ...": the review of an issue, a title
        if kind in ("neutral", "findings") and (_BODY_PART.match(plain)
                                                or _BODY_PART_INTL.match(plain)) and any(
                s.cand is not None and not s.cand.name_only and (
                    _lead_tag(s.cand.text) or _FINDING_ID.match(_plain(s.cand.text))
                    or locate(s.cand.text) is not None) for s in self.sections):
            kind = "positive"  # "#### Problem" under "### Issue 1: ...": a part of that finding
        if kind in ("neutral", "findings") and _SETTLED_HEAD.match(plain) \
                and not _OPEN_WORDS.search(plain):
            # "### Before (REJECT)", "## Should-Fix Items (Deferred)": findings of an
            # earlier state, or set aside: none is open
            kind = "resolved"
        if kind in ("neutral", "findings") and _SET_ASIDE_HEAD.match(plain):
            # "## Remaining Known Issues (not blocking)", "## Architecture Notes (No Action
            # Needed)", "### Items deferred (…)": what the reviewer set aside, no findings
            kind = "resolved"
        if kind in ("neutral", "findings") and _settled_tail(text.strip(" *_#")):
            # "## 1. Critical — fixed in this PR", "### S1. [CI] no test job —— 本 PR 已修复":
            # what the heading names (a section or one finding) was settled in the change
            kind = "resolved"
        if level in self.fixed_levels and kind in ("neutral", "findings") \
                and _POSTMORTEM_PART.match(plain):
            kind = "resolved"  # "## Problem" in a write-up whose "## Solution" was applied
        if level == 1 and not self.sectioned and _RESPONSE_DOC.search(plain) \
                and not any(v.vote for v in self.doc.votes):
            self.response = True  # "# Response to the review of PR #88"
        if level >= 2:
            self.sectioned = True
        if self.response and level >= 2 and kind in ("neutral", "findings") \
                and not _OPEN_LEFT.search(plain):
            kind = "resolved"  # "## R1 — handle bindings (P1)" in a response: an answered item
        if kind in ("neutral", "findings", "positive") and _settled_section(plain) and (not (
                _FINDING_ID.match(plain) or _lead_tag(text) or locate(text) is not None)
                or _ROUND_STATUS.search(plain.strip(" *_:"))):
            # "## Resolved", "### Fixed since last review", "## Verification of Fixes",
            # "## Behobene Probleme": the previous round's items, settled unless they say
            # otherwise
            kind = "resolved"
        remedy = kind in ("neutral", "findings") and bool(self.doc.findings) \
            and _REMEDY_HEAD.match(plain) is not None
        if remedy:
            # "#### Change 1: Add `lsRefsLocal()`" after the findings: a remedy, and what
            # it holds (its file, its code) is the change proposed, no finding
            kind = "resolved"
        for s_up in self.sections:
            if s_up.cand is not None:
                s_up.cand.subs.append(kind)
        self.headings += 1
        sec = _Section(level, kind, sev, file_ctx, rnd)
        sec.remedy = remedy
        if level >= 2 and not rnd and not is_key and (
                _ITEM_HEAD.match(plain) or file_ctx is not None or _heading_file(text)):
            sec.item = f"{at}:{plain[:80]}"
        sec.review_head = kind == "neutral" and _REVIEW_HEAD.match(plain) is not None
        sec.answers = tuple(i.lower() for m in _ANSWERS.finditer(plain[:300])
                            for i in re.findall(r"#?[A-Za-z]{0,3}-?\d{1,4}[a-z]?", m["ids"]))
        sec.action = _recap_kind(re.sub(r"^[\W\d_]+", "", plain), text) == "action"
        sec.plan = level >= 2 and not is_key and (_PLAN_HEAD.match(
            re.sub(r"^[\W\d_]+", "", plain)) is not None and not _FINDINGS.search(plain) or (
            # "## Recommendations" then "### Short Term", "### Long Term": work to come, when
            _TIMING_HEAD.match(re.sub(r"^[\W\d_]+", "", plain)) is not None
            and any(s_up.action for s_up in self.sections)))
        recap_name = re.sub(r"^[\W\d_]+", "", plain)
        sec.summary_head = _recap_kind(recap_name, text) == "summary"
        sec.preview = sec.summary_head and not self.doc.findings and level >= 2
        recap = _recap_kind(recap_name, text) if self.doc.findings else None
        if recap is not None:
            sec.prior = tuple(self.doc.findings[-RECAP_PRIOR:])
            sec.summary_recap = recap == "summary"
        if names_findings:
            self.open_span(at + 1, level)
            if k is not None and k.value and not _NONE_RE.match(k.value):
                self.head_value[at + 1] = k.value
        sec.reopenable = kind == "resolved" and bool(
            self.response or _settled_section(plain) or _SETTLED_HEAD.match(plain)
            or _RESOLVED.search(re.sub("[\u2705\u2714\u2713]", " ", text)))
        outer = self.kind()
        if outer == "resolved" and self.reopenable() and kind in ("neutral", "findings") \
                and _reopened(text):
            # "### 2. Username check — UNFIXED" under "## Previously reported": still open
            sec.kind = kind = "findings"
            sec.reopen, outer = True, "findings"
        if not is_key and kind not in ("positive", "resolved", "other") \
                and outer not in ("positive", "resolved") and not rnd \
                and (not label or names_findings) and not _skip_head(text):
            sec.cand = _Cand(_NUMBERING.sub("", text.strip()), self.sev() if sev is None else sev,
                             outer == "findings" or kind == "findings" and not label,
                             file_ctx or self.file(), len(self.doc.findings),
                             len(self.doc.findings), level=level,
                             name_only=names_findings or kind == "findings" and _is_section_name(
                                 plain), title=title, ident=text.strip())
            if (sec.prior or any(s.prior for s in self.sections)) and not _lead_tag(text) \
                    and locate(text) is None:
                # "Required changes": a recap's name, no finding; "### Can Be Done Later",
                # "### Phase 1: Critical Fixes" inside it: a part of that recap
                sec.cand.name_only = True
            # "### 8. No doc comments on public items" in a review: one of its numbered
            # items, whatever its section is called
            sec.cand.numbered = self.review_title and level >= 3 and bool(
                re.match(r"^\s*\d{1,3}(?:(?:\.\d{1,3})+\.?|[.)])\s+\S", text)) \
                and (len(plain.split()) >= 3 or not plain.isascii() and len(re.findall(
                    r"[^\W\d_]", plain)) >= 6)  # "### 8. …", "### 1.2 …" (CJK: no spaces)
            if sec.preview and not _lead_tag(text) and locate(text) is None \
                    and not _FINDING_ID.match(plain):
                # "### Review Summary & Verdict: needs-work" over the list of what is wrong,
                # before any finding: the answer's summary names its list, it is not one
                sec.cand.name_only = True
            if self.comment is not None:
                self.comment.cand = True
        if level == 1 and re.search(r"\b(?:review|audit|critique)\b", plain, re.I) \
                or level == 1 and _REVIEW_WORD.search(plain) and not plain.isascii():
            self.review_title = True  # "# Hibernia Codebase Review": a review's title
        if title and _BRIEF_TITLE.search(plain):
            self.brief = True
        if title and _FIX_LOG_TITLE.search(plain) and not _OPEN_WORDS.search(plain):
            self.fix_log = True
        sec.left_open = bool(self.fix_log and not title and _LEFT_OPEN.search(plain)
                             and not _SET_ASIDE_WORDS.search(plain))
        if title and self.reviewed is None and (named_one := _heading_file(text)) is not None:
            self.reviewed = named_one  # "# Review of `docs/plan.md`"
        if sec.file is None and kind not in ("positive", "resolved") and not title:
            # "## 1. Scanner review (`core/scan.py`)", "#### 2. `x.py` — notes": the one
            # file the heading names is the file of the findings read under it (the
            # heading itself, when it is one, keeps its own reading)
            sec.file = _heading_file(text)
        self.sections.append(sec)
        self.key_section = sec if self.want_verdict_para is not None else None

    def paragraph(self, node: SyntaxTreeNode, quoted: bool) -> None:
        lines = _text(node).split("\n")
        if not quoted:
            self.bot_addressed(lines[0])
        if not quoted and not self.sectioned and not self.response \
                and _RESPONSE_DOC.search(" ".join(lines[:6])) \
                and not any(v.vote for v in self.doc.votes):
            self.response = True  # "Second-round response to the independent review of …"
        if not quoted and len(self.prose_files) < 2:
            for ln in lines[:8]:
                self.prose_files.update(f for f, _, _ in _file_tokens(ln)[:2])
        if self.review_paras and (quoted or not _is_critique(" ".join(lines[:40]))):
            self.review_paras = False  # the critiques under a review title end here
        lead = 1 if len(lines) >= 3 and not _CHECKBOX.match(lines[0]) else 0
        if not quoted and len(lines) >= 2 and sum(
                1 for ln in lines[lead:12] if (b := _CHECKBOX.match(ln))
                and words.vote_of(ln[b.end():], True) in words.VOTES) >= 2:
            # "**Verdict:**" then "[ ] APPROVED - ..." / "[x] REVISE - ..." in one paragraph
            self.close_para()
            if lead:
                self.line = node.map[0] if node.map else self.line
                self.keys(lines[0])
            self.checkbox_options(lines[lead:12])
            for ln in lines:
                self.feed(ln)
            return
        if not quoted and not self.bot_sender and any(comments.bot_sender(ln) for ln in lines[:4]):
            self.bot_sender = True  # a bot's notification: every comment in it is the bot's
        if not quoted and len(lines) <= 3 and node.map and self.src and re.match(
                r"^\s*(?:```|~~~|@@\s)", next((ln for ln in self.src[node.map[1]:node.map[1] + 2]
                                               if ln.strip()), "")):
            loc = locate(lines[-1])
            if loc is not None and loc.line is not None and loc.start <= 2 \
                    and not _strip_decor(lines[-1][loc.end:]) and _location_only(lines[-1]):
                # "src/a.py:88" above the hunk a comment is on (after the thread's envelope
                # line, "bot · review thread · date"): that comment's place
                if len(lines) > 1:
                    self.para_lines(lines[:-1], node.map[0])
                c = self.sections[-1].cand if self.sections else None
                if self.para is None and len(lines) == 1 and c is not None \
                        and self.in_finding_heading() and locate(c.text) is None \
                        and not any(b.strip() for b in c.body) \
                        and len(self.doc.findings) == c.count:
                    # "### [P1] The lock leaks" then "`src/run.py:513-525`" over its code: the
                    # place of the finding the heading titles, before any line its prose cites
                    self.feed(lines[-1])
                    return
                if self.titled_file(loc.file):
                    # "**Bug 1: `x.ts` — …**" then "`src/x.ts` line 37:" over its code: the
                    # line of the file the title names, not another comment's place
                    if self.para is not None:
                        self.para.rest.append(lines[-1])
                    self.feed(lines[-1])
                    return
                self.close_para()
                self.open_comment(Location(loc.file, loc.line, loc.end_line))
                return
        if not quoted and len(lines) == 1 and re.match(r"^\s*(?:\*\*|__).+(?:\*\*|__):?\s*$|"
                                                      r"^[^:]{1,40}:\s*$", lines[0]) \
                and (label := _sev_label(lines[0])) is not None and self.kind() not in (
                    "positive", "resolved"):
            self.close_para()
            self.feed(lines[0])
            if not label and self.under_cand() and (
                    not _GROUP_NOUN.search(lines[0]) or self.in_fielded_heading()):
                # "**Risk**:" / "**Impact**:" (no severity) under a heading that may be the
                # finding: a field of it over its list, not a group of findings
                self.fix_lead = True
                return
            self.list_label = label  # the severity of the list that follows
            return
        if not quoted and len(lines) == 1 and _REVIEW_LABEL.match(lines[0]) \
                and not self.doc.findings and key_of(lines[0]) is None \
                and not any(words.vote_of(v, st) in words.VOTES
                            for v, st, _ in words.verdict_keys(lines[0])) \
                and self.kind() not in ("positive", "resolved"):
            self.close_para()
            self.feed(lines[0])
            self.review_list = True  # a review's title over its list of critiques
            self.review_paras = True  # ... or over paragraphs of them
            return
        if self.review_paras:
            # "Feasibility: the scope is aggressive ..." as a paragraph under the title
            self.close_para()
            for ln in lines:
                self.feed(ln)
            self.sections.append(_Section(8, "findings", None, None, 0))
            self.emit(" ".join(ln.strip() for ln in lines), [], None, self.file())
            self.sections.pop()
            return
        if not quoted and len(lines) == 1 and (m := _PROBLEM_LABEL.match(lines[0])) \
                and key_of(lines[0]) is None and self.kind() not in ("positive", "resolved") \
                and not ((_BODY_LABEL.match(lines[0]) or self.in_fielded_heading())
                         and self.under_cand()) \
                and not (_BODY_LABEL.match(lines[0]) and self.in_finding_heading()) \
                and not (_POSITIVE.search(m["t"]) or _RESOLVED.search(m["t"])
                         or _QUESTIONS.search(m["t"]) or re.match(r"\W*no\b", m["t"], re.I)):
            # "**Critical Failure Modes**" alone over a list: the list is its findings, of
            # the severity it names
            self.close_para()
            self.feed(lines[0])
            self.list_label = heading_severity(m["t"]) or ""
            return
        if not quoted and len(lines) == 1 and _LEAD_IN.match(lines[0]) \
                and key_of(lines[0]) is None and not _ASKS.search(lines[0]) \
                and not self.in_finding_heading() \
                and not ((_BODY_LABEL.match(lines[0]) or self.in_fielded_heading())
                         and self.under_cand()) \
                and self.kind() not in ("positive", "resolved") \
                and not (_POSITIVE.search(lines[0]) or _RESOLVED.search(lines[0])
                         or _QUESTIONS.search(lines[0]) or _NONE_RE.match(lines[0])
                         or re.match(r"^\W*no\b", lines[0], re.I)):
            self.close_para()
            self.feed(lines[0])
            self.list_label = ""  # "Current findings:" / "Top concerns:": findings follow
            return
        if not quoted and len(lines) == 1 and not self.headings and node.map and self.src \
                and not self.doc.findings and _LEAD_SENTENCE.match(lines[0]) \
                and not _NOT_FOUND.search(lines[0]) and key_of(lines[0]) is None \
                and self.kind() == "neutral" and not self.under_cand() and re.match(
                    r"^\s*(?:[-*+\u2022]|\d{1,3}[.)])\s", next(
                        (ln for ln in self.src[node.map[1]:node.map[1] + 2] if ln.strip()), "")) \
                and not (_POSITIVE.search(lines[0]) or _RESOLVED.search(lines[0])
                         or _QUESTIONS.search(lines[0])):
            # "Here are the bugs and edge cases I see." right over a list, as the answer's
            # first words: the list is its findings
            self.close_para()
            self.feed(lines[0])
            self.list_label = ""
            return
        if not quoted and len(lines) == 1 and node.map and self.src and re.match(
                r"^\s*(?:[-*+]|\d{1,3}[.)])\s", next(
                    (ln for ln in self.src[node.map[1]:node.map[1] + 2] if ln.strip()), "")):
            fm = _FIELD.match(lines[0])
            if fm and fm["k"].lower() in ("file", "path", "location") and locate(fm["v"]) is None \
                    and (f := _first_file(fm["v"])) and not _strip_decor(fm["v"].replace(
                        f, "", 1)).strip("`*_ ./"):
                # "**File:** `api/handlers.py`" over a list: the file of the items under it
                # (its "Line 7: …" items are findings there), not a field of the heading
                self.close_para()
                self.loose_file = Location(f)
                return
        after = next((ln for ln in self.src[node.map[1]:node.map[1] + 2] if ln.strip()), "") \
            if node.map and self.src else ""
        lm = re.match(r"^\s*(?:[-*+\u2022]|\d{1,3}[.)])\s+(?P<r>.*)$", after)
        f = None
        if not quoted and len(lines) == 1 and lm is not None and not self.under_cand():
            f = _lead_in_file(lines[0])
            if f is None and _LINE_LEAD.match(lm["r"]):
                f = _lead_in_file(lines[0].rstrip() + ":")  # "Findings for a.py" / "- L12: …"
        if f is not None:
            # "Looking at `src/store.py`:" over a list: the file of the items under it
            self.close_para()
            self.loose_file = Location(f)
            self.open_comment(self.loose_file)
            return
        if not quoted and self.reviewed is None:
            for ln in lines[:8]:
                rm = _REVIEWED.match(ln)
                if rm and (got := _heading_file(rm["v"])) is not None \
                        and _EXT_RE.search(got.file):
                    self.reviewed = got  # "**Reviewed Plan**: C:\docs\PLAN.md"
                    break
                cm = _COUNTED_FILE.match(ln)
                if cm and _pathlike(cm["f"]):
                    self.reviewed = Location(clean_path(cm["f"]))  # "Codebase: app.js (4846
                    break  # lines), index.html": the file whose lines the items cite
        cand = self.sections[-1].cand if self.under_cand() else None
        if not quoted and self.kind() not in ("positive", "resolved") \
                and _field_record(lines) and (cand is None or cand.records > 0):
            # "**File:** a.py" / "**Line:** 40" / "**Severity:** High" / "**Issue:** …", a
            # block of nothing but fields: one finding at that place (the first such block
            # under a heading that may be the finding is that heading's fields; a second
            # makes it a heading over records)
            self.close_para()
            for rec_lines in ([cand.record] if cand is not None and cand.records == 1
                              else []) + [lines]:
                said = next((m["v"].strip() for rx in (_TEXT_FIELD, _RECORD_TEXT)
                             for ln in rec_lines[:MAX_BODY]
                             if (m := rx.match(ln)) and m["v"].strip()), None)
                self.emit(said or rec_lines[0], rec_lines[:MAX_BODY], self.sev(), None)
            if cand is not None:
                cand.records += 1
            return
        if cand is not None and not quoted and _field_record(lines):
            cand.records += 1
            cand.record = lines[:MAX_BODY]
        self.para_lines(lines, node.map[0] if node.map else self.line, quoted)
        self.asks = not quoted and len(lines) <= 2 and bool(_ASKS.search(lines[-1]))
        # "**Fix**: Phase 27 should note ... The only references are:" under a heading that
        # is a finding: the list after it is that finding's detail, not findings
        # "**Risk**:" / "**Files Affected:**" alone over a list: a field of that finding
        # named by the reviewer, whose items (risks, affected files, examples) are its
        # detail; a severity or recap label over a list is a group (read above)
        self.fix_lead = not quoted and self.under_cand() and (bool(
            _FIX_LEAD.match(lines[0])) or len(lines) == 1 and bool(
                _FIELD_LABEL_ALONE.match(lines[0])) and _sev_label(lines[0]) is None
            and (not _GROUP_NOUN.search(lines[0]) or self.in_fielded_heading())
            and _recap_kind(_strip_decor(lines[0]).strip(" :*_")) is None) \
            and lines[-1].rstrip(" *_").endswith((":", "\uff1a"))
        if not quoted and len(lines) == 1 and _WHY_LEAD.match(lines[0]):
            self.fix_lead = True  # "**Why Low**:" over a list: the reasons, not findings
        self.place_lead = not quoted and len(lines) == 1 and self.under_cand() \
            and bool(_PLACES_LABEL.match(lines[0]))

    def para_lines(self, lines: list[str], base: int, quoted: bool = False) -> None:
        if quoted:
            for ln in lines:
                self.feed(ln)
            return
        if self.want_summary_para and not self.doc.summary:
            self.doc.summary = _cap(" ".join(ln.strip() for ln in lines if ln.strip()))
            self.want_summary_para = False
        kind = self.kind()
        first = lines[0].strip() if lines else ""
        comment = len(lines) > 1 and kind not in ("positive", "resolved", "other") \
            and not self.under_cand() and not self.in_finding_heading() \
            and _unsigned_comment(lines[1])
        keyed = _FILE_KEY.match(first) if comment else None
        if keyed is not None:
            first = keyed["v"]  # "File: src/store.py" over the comment on it
        named = _FILE_HEADER.fullmatch(first) if lines else None
        if named and _pathlike(named["f"]) and locate(named["f"]) is None:
            # a line naming only a file (a pull-request page's file header): the place of
            # the comments that follow it
            self.close_para()
            self.loose_file = Location(clean_path(named["f"]))
            self.open_comment(self.loose_file)
            lines, base = lines[1:], base + 1
            while lines and (_FILE_STATUS.match(lines[0]) or _BOX_RULE.match(lines[0])):
                # "app/page.tsx" then "Status: ⚠️ NEEDS IMPROVEMENT": that file's state in
                # a per-file review, not the review's verdict
                self.feed(lines[0])
                lines, base = lines[1:], base + 1
            if not lines:
                return
            if comment:
                # "File: src/cache/store.py" then "The eviction loop never stops …": an
                # unsigned comment on that file, one finding there
                self.para = _Para(lines[0], self.pending_sev or self.sev(), self.loose_file,
                                  list(lines[1:]))
                self.pending_sev = None
                for ln in lines:
                    self.feed(ln)
                self.close_para()
                return
        if any(_DEFINING.match(ln) for ln in lines) and self.sections \
                and self.sections[-1].file is None and self.sections[-1].kind != "positive" \
                and not (self.sections[-1].cand is not None and (
                    _lead_tag(self.sections[-1].cand.text)
                    or locate(self.sections[-1].cand.text) is not None)):
            self.sections[-1].kind = "positive"  # a legend or a rule's definition
        if lines and _skip_head(lines[0]) and not _NONE_RE.match(lines[0].strip()) \
                and not self.want_verdict_para and not self.keys(lines[0]):
            self.close_para()
            for j, ln in enumerate(lines):
                if j:
                    self.line = base + j
                    self.keys(ln)  # "Tests audited: 7 files" then "Verdict: PASS"
                self.feed(ln)
            return
        # a paragraph that is only a severity badge (a bot's comment: the badge, then its
        # text) makes the next paragraph a finding of that severity
        after_badge, self.badge_open = self.badge_open, False
        i = 0
        boundary = True  # a finding may open here (start, or after a key or another head)
        while i < len(lines):
            ln = lines[i]
            self.line = base + i
            if self.keys(ln):
                self.close_para()
                boundary = True
                if self.pending_value is None:
                    i += 1
                    continue
                ln, self.pending_value = self.pending_value, None
            if i > 0 and self.para is not None and not self.para.rest and (
                    comments.file_line(ln) is not None or comments.meta_location(ln)):
                # "🔴 **Critical: chain names collide**" then "In `vm/firewall.rs`:": the
                # place of the finding that line titles, not a new comment's
                self.para.rest.append(ln)
                self.feed(ln)
                boundary = False
                i += 1
                continue
            if self.comment_line(ln):
                boundary = True
                i += 1
                continue
            ln = self.author_lead(ln)
            hm = _HEADERISH.match(ln.strip())
            probe = hm["t"] if hm else ln
            tm = _TITLE.match(ln)
            group = _sev_label(ln) if (tm or re.match(r"^\s*[*_]{2}[^*_\n]{2,40}[*_]{2}\s*:?\s*$|"
                                                       r"^[^\W\d_][\w \-]{1,38}:\s*$", ln)) \
                and (len(lines) == 1 or i == len(lines) - 1) else None
            if group is not None and kind not in ("positive", "resolved") \
                    and not (_BODY_LABEL.match(ln) and self.in_finding_heading()):
                # "**Blocking**" / "Nice to have:" alone: a sub-heading whose severity
                # covers what follows, down to the next one or the next heading
                self.close_para()
                self.label(group)
                self.feed(ln)
                i += 1
                continue
            aside = _aside_label(ln) if group is None and (len(lines) == 1 or i == len(
                lines) - 1) and kind in ("neutral", "findings") and not self.under_cand() \
                else None
            if aside is not None:
                # "**Positive Checks**", "**Open Questions**", "Limitations:" alone: what
                # follows, down to the next label or heading, praises or asks; no findings
                self.close_para()
                self.label(None)
                self.sections.append(_Section(8, aside, None, None, 0))
                self.feed(ln)
                i += 1
                continue
            em = _EMPTY_GROUP.match(ln)
            if em and (_NONE_RE.match(em["v"]) or _NONE_MORE.match(em["v"])) \
                    and _sev_label(em["k"]) is not None \
                    and kind not in ("positive", "resolved"):
                # "CRITICAL: None" / "**High:** none found": a severity with nothing under it
                self.close_para()
                self.label(None)
                self.feed(ln)
                i += 1
                continue
            if _BODY_LABEL.match(ln) and self.in_finding_heading() \
                    and (len(lines) == 1 or i == len(lines) - 1):
                # "### ISSUE-001: …" then "**Description**" alone: a label of that finding's
                # text, never a title of its own
                self.close_para()
                self.feed(ln)
                boundary = True
                i += 1
                continue
            if _BARE_KEY.match(ln) and (len(lines) == 1 or i == len(lines) - 1) \
                    and any(s.level == 8 for s in self.sections):
                self.close_para()
                self.label(None)  # "notes:": the label above ends here
                i += 1
                continue
            title = (kind == "findings" and tm is not None
                     and not tm["t"].rstrip().endswith((":", "\uff1a"))
                     and not ln.rstrip().endswith((":", "\uff1a"))
                     and not _skip_head(ln) and not _FIELD.match(ln))
            p = self.para
            if p is not None and not p.rest and locate(p.head) is None and locate(ln) is not None \
                    and _TITLE.match(p.head):
                p.rest.append(ln)  # the location line under a bold title
                self.feed(ln)
                boundary = False
                i += 1
                continue
            if _badge_only(ln):
                if i == 0 and all(_badge_only(x) for x in lines if x.strip()):
                    self.close_para()  # a badge alone opens the next comment
                self.pending_sev = badge_severity(ln)
                c = self.comment
                if c is None or c.sev is not None or len(self.doc.findings) > c.count:
                    self.open_comment(None, True, self.pending_sev)
                else:
                    c.sev, c.signed = self.pending_sev, True
                if self.para is not None and "severity" not in self.para.rest:
                    self.para.rest.append(ln)
                self.feed(ln)
                i += 1
                if i == len(lines) and all(_badge_only(x) for x in lines if x.strip()):
                    self.badge_open = True
                continue
            numbered = _ITEM_NUMBER.match(ln) is not None
            # "Magic numbers throughout:" over "- Line 137: …" items, after a finding in
            # root.zig: one finding, at the first line listed of the file in context
            listed = self.lines_listed(base + len(lines)) if boundary and i == len(lines) - 1 \
                and kind not in ("positive", "resolved", "other") and hm is None \
                and _SHORT_TITLE.match(ln) and not _skip_head(ln) \
                and _sev_label(ln) is None and not _LEAD_IN.match(ln) else None
            # "**H1. The filter reads row 0 only …** `src/filter.js:214` takes …": a bold
            # title (wrapped over lines or not) with its place right after it
            bold = _bold_then_place(lines[i:i + 3]) if kind == "findings" and boundary \
                and hm is None else None
            opens = kind not in ("positive", "resolved") and not (
                _BODY_LEAD.match(ln) and self.in_finding_heading()) and not (
                # "**File:** `a.py`" then "**Lines 20-21**": the file's line, no finding
                i > 0 and _LINE_FIELD.match(ln) and (fm := _FIELD.match(lines[i - 1]))
                and fm["k"].lower() in ("file", "path", "location", "where")) and (
                bold is not None or title
                or _opens(probe, kind, (boundary or numbered) and kind != "other")
                or boundary and hm is None and kind != "other" and _file_lead(probe)
                or listed is not None
                or i == 0 and after_badge and self.pending_sev is not None
                and not _FIELD.match(ln) and bool(_strip_decor(ln)))
            if opens:
                self.close_para()
                head, more = _join_head([probe] + lines[i + 1:])
                if bold is not None:
                    head, more = bold[0], lines[i + bold[2]:]
                if more and _location_only(head):
                    head = head + " " + more[0]
                    more = more[1:]
                used = len(lines[i + 1:]) - len(more)
                self.para = _Para(head, self.pending_sev or self.sev(), listed or self.file())
                if bold is not None and bold[1]:
                    self.para.rest.append(bold[1])  # the words after the place
                self.pending_sev = None
                for used_line in lines[i:i + 1 + used]:
                    self.feed(used_line)
                i += 1 + used
                boundary = True
                continue
            if self.para is not None:
                self.para.rest.append(ln)
            self.feed(ln)
            boundary = False
            i += 1

    def items(self, node: SyntaxTreeNode, quoted: bool, depth: int = 0,
              sev: str | None = None) -> None:
        if not quoted and self.checkbox_verdict(node):
            for ln in _flat(node):
                self.feed(ln)
            return
        if self.place_lead and depth == 0 and not quoted and not any(
                _lead_tag(_no_code(h)) for h in (_item_head(c) for c in node.children)):
            # "**Files Affected**:" then "- `api/auth.py` - …": under a heading that may be
            # the finding, the first file listed is its place and the list its detail
            self.place_lead = False
            c = self.sections[-1].cand
            f = next((_first_file(_item_head(i)) for i in node.children
                      if i.type == "list_item"), None)
            if c is not None and c.file is None and f is not None:
                c.file = Location(f)
            for ln in _flat(node):
                self.feed(ln)
            return
        if self.fix_lead and depth == 0 and not quoted and not any(
                _lead_tag(_no_code(h)) for h in (_item_head(c) for c in node.children)):
            self.fix_lead = False
            for ln in _flat(node):
                self.feed(ln)
            return
        if self.asks and depth == 0:
            self.asks = False
            for ln in _flat(node):  # what a reviewer is asked to write, not what it found
                self.feed(ln)
            return
        label, self.list_label = self.list_label, None
        review, self.review_list = self.review_list, False
        if review and not quoted and depth == 0:
            # "**Plan Review (plan.md)**" over "- Feasibility: the scope is ...": each
            # dimension's critique is a finding; short items are notes
            self.sections.append(_Section(8, "findings", None, None, 0))
            for item in node.children:
                if item.type != "list_item":
                    continue
                head = _item_head(item)
                if _is_critique(head):
                    self.item(item, quoted, depth)
                else:
                    self.keys(head)  # "- Verdict: REVISE" among the critiques
                    for ln in _flat(item):
                        self.feed(ln)
            self.sections.pop()
            return
        if label is not None and not quoted and depth == 0:
            # "**Blocking**" then its list: a severity label over findings, not one
            self.sections.append(_Section(8, "findings", label or None, None, 0))
            for item in node.children:
                if item.type == "list_item":
                    self.item(item, quoted, depth, label or None)
            self.sections.pop()
            return
        if self.para is not None and not quoted and not any(
                _opens_item(ln) for ln in _flat(node)):
            # a list right under a paragraph that opened a finding ("**[HIGH] a.py:3** —
            # title" then its bullets) is that finding's body, not findings of its own
            if (aside := _aside_severity(self.para.head)) is not None:
                self.para.sev = aside  # "**2. 권한 누락** (심각도: 낮음)"
            for ln in _flat(node):
                self.para.rest.append(ln)
                self.feed(ln)
            return
        if self.para is not None and not quoted and depth == 0 \
                and (place := _sub_points_place(self.para, node)) is not None:
            # "**Minor 1: the toast is an error**" over "- `a.tsx:164`: reject(...)" and
            # "- the catch in `b.tsx:570` shows it": the title's one finding, at the place its
            # first sub-point opens with (or its place field gives); the rest is its body
            self.para.file = place
            if (aside := _aside_severity(self.para.head)) is not None:
                self.para.sev = aside
            for ln in _flat(node):
                self.para.rest.append(ln)
                self.feed(ln)
            return
        self.close_para()
        placed = sum(1 for item in node.children[:64]
                     if item.type == "list_item" and _own_place(item) is not None)
        # items that each carry their own place field are findings, even under a heading
        # that might itself be one: with two or more, the heading is their group
        own = placed >= 2 or placed == 1 and not self.under_cand()
        for item in node.children:
            if item.type != "list_item":
                continue
            self.item(item, quoted, depth, sev, own)
            first = item.children[0] if item.children else None
            tail = _text(first).rsplit("\n", 1)[-1] if first is not None and \
                first.type == "paragraph" and "\n" in _text(first) else ""
            if not quoted and _BARE_KEY.match(tail):
                # "notes:" / "blocking:" closing an item (a YAML-like list of lists): a key
                # over the items after it, with its severity or none
                self.label(_sev_label(tail))

    def item(self, item: SyntaxTreeNode, quoted: bool, depth: int,
             sev: str | None = None, own: bool = False) -> None:
        children = item.children
        if item.map:
            self.line = item.map[0]
        first = children[0] if children and children[0].type == "paragraph" else None
        head_lines = _text(first).split("\n") if first is not None else []
        head, rest = _join_head(head_lines)
        nested = [c for c in children if c.type in ("bullet_list", "ordered_list")]
        others = [c for c in children if c is not first and c not in nested]
        kind = self.kind()
        review_item = kind == "neutral" and depth == 0 and bool(self.sections) \
            and self.sections[-1].review_head
        if review_item and (_REVIEW_ASIDE.match(head) or head.rstrip(" *_").endswith("?")):
            for ln in _flat(item):  # "- Nice work on the errors", "- Why a thread here?"
                self.feed(ln)
            return
        if review_item:
            kind = "findings"  # "# Code review" then a plain list: the review's findings
        if kind == "resolved" and not quoted and self.reopenable() \
                and _reopened(" ".join([head, *rest])):
            kind = "findings"  # "- `a.py:12` — ❌ still failing" under "## Previously reported"
        if quoted or kind in ("positive", "resolved") or _skip_head(head) and head.strip():
            if not quoted and (_PLACEHOLDER.search(head) or kind not in ("positive", "resolved")):
                # "- Approval: `<approve|comment>`": a form's choice; "- **Overall Status**:
                # ✅ Pass": a key line, whatever mark its value carries
                self.keys(head)
            for ln in _flat(item):
                self.feed(ln)
            return
        group_file = _file_group(head, rest, nested) if not quoted else None
        if group_file is not None:
            self.file_group(group_file, nested)
            return
        if _badge_only(head) and not rest and not nested and not others:
            # "- ![medium](…)" alone, its text in the paragraph after the list
            self.pending_sev = badge_severity(head)
            self.badge_open = True
            return
        if head and self.keys(head):
            if self.pending_value is not None:
                self.pending_value = None
            for ln in rest:
                self.keys(ln)
            for sub in nested:
                self.items(sub, quoted, depth + 1)
            return
        group = _sev_label(head)
        if group is not None and (nested or rest):
            self.feed(head)
            if rest:  # "- **Critical**" then its findings as lines of the same paragraph
                self.sections.append(_Section(8, "findings", group, None, 0))
                self.para_lines(rest, self.line + 1)
                self.close_para()
                self.sections.pop()
            for sub in nested:
                self.items(sub, quoted, depth, group)
            return
        ref = re.match(r"^[\s*_`]*#(\d{1,3})\b", _ITEM_NUMBER.sub("", head.strip()))
        if ref and 1 <= int(ref.group(1)) <= len(self.doc.findings) and locate(head) is None:
            for ln in _flat(item):  # "**#3 - title**: fix": a reference to finding 3
                self.feed(ln)
            return
        box = _CHECKBOX.match(head)
        if box is not None and box["x"].isspace() and head[box.end():].strip():
            head = head[box.end():]  # "- [ ] **Budget missing:** ...": an open item
        if not rest and not nested and not others and _bare_place(head) and (
                depth > 0 or kind != "findings" or self.under_cand()):
            self.feed(head)  # "- `a.py:204-209`" alone: the place of what the text says
            return
        under = self.under_cand() and not review_item
        if under and (box is not None or _FIELD_ITEM.match(head) and _PROBLEM_WORDS.search(
                head[:400]) and not _FIELD.match(head)) and self.in_category():
            under = False  # "### Security" over "- [ ] **Path check:** ...": its findings
        if under and (kind == "neutral" and self.review_title or kind == "findings") \
                and depth == 0 and self.in_dimension() and _titled_item(head) \
                and _prose_file(head[:600]) is not None and _CRITIQUE.search(head[:600]):
            # "# Codebase Review" … "## 1. Non-idiomatic Rust" over "- **Typos:** `a` in
            # `src/mod.rs` …": a review's dimension over its titled critiques, each at a place
            under, kind = False, "findings"
        file_head = depth == 0 and kind not in ("positive", "resolved") \
            and self.in_file_heading()
        if file_head:
            under, kind = False, "findings"
        ctx = self.file()
        if ctx is None and self.reviewed is not None and _LINE_LEAD.match(head):
            ctx = self.reviewed  # "- Lines 34-38: the phase is marked done" in a plan review
        if ctx is None and self.block_file is not None and _LINE_LEAD.match(head):
            ctx = self.block_file  # "- Line 137: ..." after a finding in root.zig
        if ctx is None and len(self.prose_files) == 1 and _LINE_LEAD.match(head):
            # "I looked at `src/cache.py`." … "1) line 12 - …": the one file named so far
            ctx = Location(next(iter(self.prose_files)))
        lead = _LINE_LEAD.match(head) if ctx is not None else None
        if lead is None and ctx is not None and ctx.line is None and locate(head) is None:
            # "- The queue is never drained (line 40)", "- …, Line 88" under the file
            lead = _LINE_TAIL.search(head[-200:])
        if lead is None and file_head and ctx is not None:
            # "- [S1] (P2) default arg (`:131`); call it at `b.py:391`": the first line it
            # cites, before any other file, is a line of the heading's file
            whole = " ".join([head, *rest])[:600]
            lm, loc = _LINE_ONLY.search(whole), locate(whole)
            if lm is not None and (loc is None or lm.start() < loc.start):
                lead = lm
        finding = _is_item_finding(head, rest, kind, depth, under) or (
            lead is not None and ctx is not None and (
                self.loose_file is not None or ctx is self.reviewed
                or ctx.line is None and kind not in ("positive", "resolved"))) or (
            own and kind not in ("positive", "resolved") and _own_place(item) is not None) or (
            # "src/store.py" alone, then "1. The lock is never released …": the numbered
            # sentences under a line naming only a file are that file's findings
            kind == "neutral" and depth == 0 and not self.in_finding_heading()
            and ctx is not None and self.loose_file is not None
            and ctx.file == self.loose_file.file and item.parent is not None
            and item.parent.type == "ordered_list" and not _FIELD.match(head)
            and not _CHANGE_LEAD.match(head) and len(re.findall(r"[^\W\d_]{2,}", head)) >= 4)
        if finding:
            if sev is None and self.sev() is None and (pm := _PROBLEM_MARK.match(head)) \
                    and "\u26a0" in pm.group(0):
                sev = "medium"  # a warning sign is the middle of the scale, as in a table
            body = list(rest)
            for c in others + nested:
                body += _flat(c)
            keyed = _keyed_place(children)
            if keyed is not None and locate(head) is None:
                body.insert(0, "Location: " + keyed)  # "Location:" over "- a.kt:66-79"
            tail: list[str] = []
            for j, ln in enumerate(body):
                k = key_of(ln) if j < len(rest) else None
                if k is not None and k.name in ("verdict", "confidence", "summary") \
                        and not ln.startswith(("-", "*", " ")):
                    tail, body = body[j:], body[:j]
                    break
                if 0 < j < len(rest) and _ITEM_NUMBER.match(ln) and _opens(ln, kind):
                    tail, body = body[j:len(rest)], body[:j] + body[len(rest):]
                    break
            for ln in [head, *body]:
                self.feed(ln)
            before = len(self.doc.findings)
            self.emit(head, body[:MAX_BODY * 4], sev or self.sev(),
                      self.file() or self.lines_context(body),
                      number=item.info if item.info.isdigit() else None)
            if len(self.doc.findings) > before:
                rec = self.doc.findings[-1]
                if lead is not None and ctx is not None:
                    # "Line 52: ..." is at line 52 of the file its context names, whatever
                    # other files its prose cites
                    for place_key in ("file", "line", "end_line", "column"):
                        rec.pop(place_key, None)
                    named = locate(head[:600])
                    if named is not None and named.line == int(lead["l"]):
                        # "Line 40 (`b.go`)", "L40 of b.go": the file named with its line
                        _put_location(rec, Location(named.file, named.line, named.end_line))
                    else:
                        _put_location(rec, Location(ctx.file, int(lead["l"])))
                    self.doc.findings[-1] = rec = _ordered(rec)
                    own_head = self.sections[-1].cand if self.sections else None
                    if not (own_head is not None and _FINDING_ID.match(_plain(own_head.text))) \
                            and self.said_there(rec):
                        # "Lines 76-88: the plan lacks an impact analysis" in a per-file
                        # pass over findings given above at that place: the same again
                        self.doc.findings.pop()
                        return
                if own and (_FIELD.match(head) or _field_item(head)):
                    # "**Classification:** x" / "**Location:** y" / "**Description:** z":
                    # a record of fields, its text in the one that says what is wrong
                    said = next((m["v"].strip() for ln in body[:MAX_BODY]
                                 if (m := _TEXT_FIELD.match(ln)) and m["v"].strip()), None)
                    if said is None and not body and (
                            tm := _PLACE_THEN_WORDS.search(head[:600])):
                        said = tm["t"]  # "File: a.py | Line: 3 | the lock is never released"
                    if said:
                        rec["summary"] = _cap(_strip_decor(said))
                if "file" not in rec:
                    loc = _code_comment_place(others + nested)
                    if loc is not None:
                        _put_location(rec, loc)
                        self.doc.findings[-1] = rec = _ordered(rec)
                self.also_at(rec, [head, *rest] + [
                    ln for c in others if c.type == "paragraph" for ln in _text(c).split("\n")],
                    nested)
            if tail:
                self.para_lines(tail, self.line + 1)
                self.close_para()
            return
        self.feed(head)
        if rest and not quoted and _FIELD_ITEM.match(head) and _evidence_key(head) \
                and self.under_cand():
            # "- **Evidence:** the pin in `a.txt:69`." wrapped onto "`b.py:11` imports …":
            # the field's value goes on, a line that opens with a place starts no finding
            for ln in rest:
                self.feed(ln)
        elif rest:
            self.para_lines(rest, self.line + 1)
            self.close_para()
        for c in others:
            if c.type == "paragraph":
                self.paragraph(c, False)
                self.close_para()
            else:
                for ln in _flat(c):
                    self.feed(ln)
        fm = (_FIELD_ITEM.match(head) or _INTL_FIELD_ITEM.match(head)) \
            if nested and not quoted else None
        if fm is not None and self.in_finding_heading() and _evidence_key(head):
            # "### BUG-010 …" over "- **Trigger**: several call sites:" and its nested
            # "- `a.ts:219`: …": the field's value, the evidence of the heading's finding
            for sub in nested:
                for ln in _flat(sub):
                    self.feed(ln)
            return
        for sub in nested:
            self.items(sub, quoted, depth + 1, sev)

    def file_group(self, file: str, nested: list[SyntaxTreeNode]) -> None:
        """A list item that is only a file, over its own list of fields and labelled groups
        (a per-file review): what its severity labels (``**Critical**``, ``**Warning**``)
        hold and its tagged items are findings at that file; its verdict field
        (``**判定**: 要修正``, ``**Verdict**: OK``) is the file's status, not the answer's
        verdict; its other fields (what is good, "none") are no findings."""
        place = Location(file)
        self.feed(file)
        for sub in nested:
            for it in sub.children[:MAX_BODY]:
                first = it.children[0] if it.children and it.children[0].type == "paragraph" \
                    else None
                head, rest = _join_head(_text(first).split("\n") if first is not None else [])
                inner = [c for c in it.children if c.type in ("bullet_list", "ordered_list")]
                group = _sev_label(head)
                if words.verdict_keys(head) or _POSITIVE.search(_plain(head)[:40]):
                    continue
                if group is not None and (inner or rest):
                    for ln in rest:
                        self.emit(ln, [], group, place)
                    for sub2 in inner:
                        for it2 in sub2.children[:MAX_BODY]:
                            lines = _flat(it2)
                            if lines:
                                self.emit(lines[0], lines[1:], group, place)
                    continue
                if _lead_tag(head) and (tag := _lead_tag(head)):
                    em = _EMPTY_GROUP.match(head)
                    if not (em and not inner and (_NONE_RE.match(em["v"])
                                                  or _NONE_MORE.match(em["v"]))):
                        # ("**Suggestion**: なし（…）": a label with nothing under it)
                        self.emit(head, rest + [ln for c in inner for ln in _flat(c)], tag,
                                  place)
                    continue
                for ln in _flat(it):
                    self.feed(ln)

    def fenced_keys(self, node: SyntaxTreeNode) -> None:
        """A code block is never the reviewer's own key, but for two: a YAML/JSON/TOML
        block of metadata at the head of the answer (read as front matter is), and a
        codex review JSON (``overall_correctness``) anywhere, read as a weaker key."""
        info = (node.info or "").strip().lower()
        body = node.content[:20000]
        if info in ("yaml", "yml", "toml", "json", "jsonc") and not self.blocks \
                and self.headings <= 1:
            for name, value in words.metadata_keys(body):
                self.vote(value, name == "verdict")
        if info == "verdict":  # a block the reviewer labels as its verdict
            for name, value in words.metadata_keys(body):
                if words.vote_of(value, name == "verdict") in words.VOTES:
                    self.vote(value, name == "verdict")
        got = words.overall_correctness(body) if "overall_correctness" in body else None
        if got is not None:
            self.vote(got, False)

    def header_quote(self, node: SyntaxTreeNode) -> None:
        """The answer's first block, under its title, a quote of two or more bold fields
        (``> **Date:** …`` / ``> **Verdict:** ✅ PASS``): the review's own header, whose
        Verdict key states the verdict when its value names one.  Any other quote is
        cited text."""
        if not node.map or not self.src:
            return
        # (a line without its own ">" continues the quote's paragraph lazily: not a field)
        lines = [_QUOTE_MARK.sub("", ln) for ln in self.src[node.map[0]:node.map[1]][:META_ROWS]
                 if _QUOTE_MARK.match(ln)]
        if sum(1 for ln in lines if _BOLD_FIELD.match(ln)) < 2:
            return
        for ln in lines:
            for value, strong, rank in words.verdict_keys(ln) if _BOLD_FIELD.match(ln) else []:
                # a weaker key too (``> **Status:** Approved with conditions``): the header's
                # own status of the review, read as that key is in the text
                if words.vote_of(value, strong) in words.VOTES:
                    self.vote(value, strong, rank)

    def checkbox_verdict(self, node: SyntaxTreeNode) -> bool:
        """A list of verdict options as checkboxes (``- [ ] APPROVE`` / ``- [x] REVISE``):
        the checked one is the verdict (under a Verdict key or heading, a Verdict key's;
        else a weaker key's).  True when the list is such a list."""
        return self.checkbox_options([_item_head(c) for c in node.children
                                      if c.type == "list_item"])

    def checkbox_options(self, heads: list[str]) -> bool:
        """The checked one of verdict options written as checkboxes, list items or lines
        of one paragraph (``[ ] **APPROVED** - ...`` / ``[x] **REVISE** - ...``)."""
        boxes = [h for h in heads if _CHECKBOX.match(h)]
        pending = self.want_verdict_para
        opts = [h for h in boxes
                if words.vote_of(_CHECKBOX.sub("", h, count=1), True) in words.VOTES]
        if len(opts) < 2 and not (pending and opts):
            return False
        self.want_verdict_para = None
        ticked = [h for h in opts if not (m := _CHECKBOX.match(h)) or not m["x"].isspace()]
        strong, rank = pending or (False, 1)
        if len(ticked) == 1:
            self.vote(_CHECKBOX.sub("", ticked[0], count=1), strong, rank)
        elif not ticked:
            self.doc.template = True  # the options, none chosen: a form to fill in
        return True

    def also_at(self, rec: dict[str, Any], lead: list[str],
                nested: list[SyntaxTreeNode]) -> None:
        """One finding at several places: "Same issue at:" and a list whose items each
        open with a location are that finding's related places (an item with a severity
        tag of its own that differs from the finding's is a finding of its own)."""
        sev = rec.get("severity")
        sev = sev if isinstance(sev, str) else None
        for ln in [" ".join(x.strip() for x in lead[:8])]:  # "Same issue at `b.py:12`, `c.py:4`."
            m = _ALSO_INLINE.search(ln)
            tail = ln[m.end():m.end() + 600] if m else ""
            related = bool(rec.get("related"))
            while tail:
                loc = locate(tail)
                if loc is None or loc.line is None or re.search(r"[.;!?]\s", tail[:loc.start]):
                    break
                _relate(rec, [loc])
                tail = tail[loc.end:]
            said = rec.get("summary")
            said = said if isinstance(said, str) else ""
            cut = _ALSO_SENTENCE.search(said)
            if cut is not None and rec.get("related") and not related \
                    and _strip_decor(said[:cut.start()]):
                # "x leaks. The same issue occurs in": the places are related, not words
                rec["summary"] = said[:cut.start()].rstrip()
        if not nested or not any(_ALSO_AT.search(ln) for ln in lead[-4:]):
            return
        for sub in nested[0].children[:40]:
            if sub.type != "list_item":
                continue
            shead = _item_head(sub)
            t = re.sub(r"^[*_`]+", "", re.sub(r"^[^\w\[(`*./~]+", "", shead.strip()))
            loc = locate(t[:300])
            if loc is None or loc.start > 2:
                f = _first_file(t)  # "- `docs/usage.md`": the same finding, file-level
                if not f or _strip_decor(t.replace(f, "")).strip("`*_ "):
                    continue
                loc = Location(f)
            if "file" not in rec:  # the finding named no place: its first one is its own
                _put_location(rec, loc)
                _reorder(rec)
                continue
            own = _lead_tag(t[loc.end:].lstrip(" `*_:\u2014\u2013-"))
            if own is not None and own != sev:
                self.emit(shead, [], own, None)  # "- `c.py:31` — P1: worse here": its own
            else:
                _relate(rec, [loc])

    def table(self, node: SyntaxTreeNode) -> None:
        self.close_para()
        rows: list[list[str]] = []
        if node.map and self.src:
            src = self.src[node.map[0]:node.map[1]]
            rows = [_cells(ln) for i, ln in enumerate(src) if i != 1 and ln.strip()]
        else:
            for part in node.children:
                for tr in part.children:
                    rows.append([_text(td) for td in tr.children])
        pending, self.want_verdict_para = self.want_verdict_para, None
        if len(rows) == 2 and rows[0] and rows[1]:
            # a one-row table whose first column is the Verdict ("| Verdict | Confidence |"
            # then "| REVISE | HIGH |"): that cell is the verdict
            kc = words.is_key_cell(rows[0][0])
            if kc is not None and kc[0] and words.vote_of(rows[1][0]) in words.VOTES:
                self.vote(rows[1][0], True, kc[1])
        for row in rows:
            if pending is None:
                break
            # right under a Verdict heading, a key row ("| **Decision** | REVISE |") states
            # the verdict (elsewhere a table row is cited text, not the reviewer's key)
            cells = [c for c in row if c.strip()]
            kc = words.is_key_cell(cells[0]) if len(cells) == 2 else None
            strong = pending[0] or kc is not None and kc[0]
            if kc is not None and words.vote_of(cells[1], strong) in words.VOTES:
                self.vote(cells[1], strong, max(kc[1], pending[1]))
        cand = self.sections[-1].cand if self.sections else None
        head_key = words.is_key_cell(rows[0][0]) if rows and len(rows[0]) == 2 else None
        if pending is None and (len(rows) >= 3 or len(rows) == 2 and head_key is not None and (
                # "| Verdict | ✅ Approve |" as the header over "| Confidence | High |"
                head_key[0] and words.vote_of(rows[0][1]) in words.VOTES)) \
                and all(len(r) == 2 for r in rows) and (
                not self.sections or self.sections[-1].level <= 2) and not (
                cand is not None and not cand.title
                and (cand.in_findings or cand.sev is not None or cand.numbered)):
            # the review's own record as a two-column table of two or more fields
            # ("| Field | Value |" over "| Round | 2 |", "| **Verdict** | REWORK |"): its
            # Verdict row, when the value names a verdict, under the title or a level-2
            # heading (a Verdict row alone may be cited; under a deeper heading, or one
            # that may be one finding, the table is that item's fields)
            voted = False
            for row in rows[:META_ROWS]:
                kc = words.is_key_cell(row[0])
                if kc is not None and kc[0] and words.vote_of(row[1]) in words.VOTES:
                    voted = self.vote(row[1], True, kc[1]) or voted
            conf = next((r[1] for r in rows[:META_ROWS]
                         if _plain(r[0]).strip(" *_`:").lower() == "confidence"), None)
            if voted and conf is not None and not self.doc.confidence:
                self.doc.confidence = confidence_word(conf)  # the record's Confidence row
        self.settled_rows(rows)
        open_only = len(rows) >= 2 and (self.kind() == "resolved" and self.reopenable()
                                        or self.kind() in ("neutral", "findings")
                                        and _mixed_status(rows))
        if open_only:
            rows = _open_rows(rows)  # under settled items: the rows still open, if any
        if len(rows) < 2 or self.kind() in ("positive", "resolved") and not open_only:
            return
        if _field_table(rows):
            # "| Aspect | Details |" over "| File | a.css:101-134 |", "| Impact | … |": the
            # fields of the finding just above, not findings; its File row is that place
            last = self.doc.findings[-1] if self.doc.findings else None
            for row in rows[1:]:
                # the same fields as lines of the heading above ("| Status | Fixed |" is
                # its "Status: Fixed"): a finding heading's severity and status
                self.feed(_plain(row[0]).strip(" *_`:") + ": " + _plain(row[1]).strip())
                if last is not None and "file" not in last and _plain(row[0]).lower() in (
                        "file", "location", "where", "path"):
                    _put_location(last, locate(row[1]))
                    self.doc.findings[-1] = _ordered(last)
            return
        # a failing row of a status table is a finding in a findings section, not in a
        # summary or status section inside it (that restates what the review found)
        fails = (self.kind() == "findings" or open_only) \
            and not any(s.summary_head for s in self.sections)
        for rec in _table_findings(rows, self.kind() == "findings" or open_only, self.sev(),
                                   self.origin, fails):
            ref = rec.pop("_id", None)
            col_line = rec.pop("_line", None)
            lm = _ROW_LINE.search(rec.get("summary", "")[:200])
            line = col_line or (int(lm["l"]) if lm and int(lm["l"]) >= 1 else None)
            f = self.file() or (self.subject if line else None)
            if "file" not in rec and f is not None:
                _put_location(rec, Location(f.file))
                if line:
                    rec["line"] = line
                    rec = _ordered(rec)
            if self.restates(rec, _ident(ref) or _number(ref + ".") if ref else None):
                continue
            self.doc.findings.append(rec)
            if ref and (key := _ident(ref)) and re.search(r"[A-Za-z]", key):
                self.ids.setdefault(key, rec)
                self.listed_ids.add(id(rec))  # "| C-1 | CRITICAL | deps | … |" ahead of C-1

    def settled_by_row(self, rec: dict[str, Any]) -> bool:
        """``rec`` opens with an id a status table marked fixed, and shares two words
        with that table's row."""
        text = str(rec.get("summary", ""))
        key = _ident(text) or _number(text)
        row_words = self.settled_ids.get(key) if key else None
        return row_words is not None and len(row_words & _words(text)) >= 2

    def settled_rows(self, rows: list[list[str]]) -> None:
        """A table with an id column and a status column: the ids its rows mark fixed or
        resolved (not partly, not yet), with their rows' words."""
        if len(rows) < 2 or len(self.settled_ids) >= SETTLED_CAP:
            return
        head = [_plain(c).strip(" *_`").lower() for c in rows[0]]
        idc = next((i for i, h in enumerate(head) if h in _ID_COLUMNS), None)
        stc = next((i for i, h in enumerate(head) if h in _STATUS_COLUMNS), None)
        if idc is None or stc is None:
            return
        for row in rows[1:SETTLED_CAP]:
            if max(idc, stc) >= len(row):
                continue
            st = _plain(row[stc])
            if not _RESOLVED.search(st) or _OPEN_WORDS.search(st):
                continue
            cell = _plain(row[idc]).strip(" *_`#")
            key = _ident(cell) or _number(cell + ".")
            if key:
                self.settled_ids[key] = _words(" ".join(
                    c for i, c in enumerate(row) if i not in (idc, stc)))

    def note_subject(self, node: SyntaxTreeNode) -> None:
        """The block right after a heading that names one file (``> adds
        `src/sandbox/example.ts` (4 lines)``): the file a row citing only a line is in."""
        if not self.subject_open or node.type == "heading":
            return
        self.subject_open = False
        if node.type not in ("paragraph", "blockquote") or not node.map or not self.src:
            return
        text = " ".join(self.src[node.map[0]:min(node.map[1], node.map[0] + 4)])
        found = {f for m in _FILE_TOKEN.finditer(text[:1000])
                 if (f := _first_file(m.group(0))) and "/" in f}
        if len(found) == 1:
            self.subject = Location(found.pop())

    def walk(self, nodes: list[SyntaxTreeNode], quoted: bool = False) -> None:
        emitted = -1  # the findings the node before this one opened from
        listed = -1  # ... when that node was a list
        for node in nodes:
            t = node.type
            count = len(self.doc.findings)
            if t == "fence" and not quoted and self.para is not None and not any(
                    locate(ln) for ln in [self.para.head, *self.para.rest[:12]]):
                # "**3. The flag is read twice**" then its code, the finding still open: the
                # place the code gives is that finding's
                loc = _code_comment_place([node])
                if loc is not None:
                    self.para.rest.append(f"`{loc.file}:{loc.line}`" if loc.line else
                                          f"`{loc.file}`")
            elif t == "fence" and not quoted and 0 <= emitted < count:
                self.cite(node, emitted)
            if not quoted:
                self.note_subject(node)
            if t not in ("paragraph", "bullet_list", "ordered_list"):
                self.asks = False
            if t != "paragraph":
                self.badge_open = False
            if t not in ("bullet_list", "ordered_list") and not (
                    t == "paragraph" and self.list_label is None):
                self.list_label = None
            if t not in ("bullet_list", "ordered_list"):
                self.review_list = False
                if t != "paragraph":
                    self.fix_lead = self.place_lead = False
                    self.review_paras = False
            if t == "heading" and not quoted:
                self.heading(node)
            elif t == "paragraph":
                if not quoted and self.sections and self.sections[-1].cand is not None:
                    self.sections[-1].cand.prose = True
                if quoted or not (0 <= listed < count and self.list_place(node)):
                    self.paragraph(node, quoted)
            elif t in ("bullet_list", "ordered_list"):
                self.items(node, quoted)
            elif t == "table" and not quoted:
                self.table(node)
            elif t == "blockquote":
                self.close_para()
                hunk, hfile = comments.quoted_hunk(
                    self.src[node.map[0]:node.map[0] + 4] if node.map and self.src else [])
                carry = None
                if hunk and not quoted:
                    c = self.comment
                    if c is not None and c.file is not None and not any(
                            ln.strip() for ln in c.lines) and len(self.doc.findings) == c.count:
                        carry = (c.file, c.signed)  # "In src/a.py:" right over the hunk
                    self.close_comment()  # a notification's quoted hunk: the next comment's
                if not quoted and not self.blocks and self.headings <= 1:
                    self.header_quote(node)
                held, self.comment = self.comment, None  # a quote is no comment's own words
                self.walk(node.children, quoted=True)
                if self.comment is None:
                    self.comment = held
                if hunk and not quoted:
                    self.hunk_quoted = True
                    if hfile is not None:
                        self.open_comment(hfile)
                    elif carry is not None:
                        self.open_comment(carry[0], carry[1])
            elif t == "hr":
                self.close_para()
                if not quoted and self.details <= 0:
                    self.close_comment()  # (a rule inside a folded block is the block's)
                    self.mark_from = len(self.doc.findings)
            elif t in ("fence", "code_block", "html_block"):
                if t == "html_block":  # <details> folds: how deep the reading is in them
                    low = node.content.lower()
                    if not quoted and self.details <= 0 and "<details" in low and re.search(
                            r"<summary>\s*<strong>|\[bot\]", low):
                        # a folded record of a comment dump, its summary naming its author
                        # ("<summary><strong>cubic-dev-ai[bot]</strong> · …"): a mark in it
                        # settles its own
                        self.close_comment()
                        self.mark_from = len(self.doc.findings)
                    self.details = max(0, self.details + low.count("<details")
                                       - low.count("</details"))
                if t == "html_block" and not quoted:
                    for value, strong, rank in words.tag_verdicts(node.content):
                        self.vote(value, strong, rank)  # "<verdict>\nREJECT\n</verdict>"
                if t == "fence" and not quoted:
                    self.fenced_keys(node)
                    # a review comment kept verbatim in a fence (an archive of bot comments):
                    # the badge on its first line is the severity of the finding it is under
                    first = next((ln for ln in node.content.split("\n", 8)[:8] if ln.strip()),
                                 "")
                    if badge_severity(first) is not None:
                        self.feed(first)
                        if self.para is not None:
                            self.para.rest.append(first)
                sec = self.sections[-1] if self.sections and not quoted else None
                if sec is not None and sec.cand is not None and sec.cand.code is None \
                        and sec.file is None:
                    sec.cand.code = _code_comment_place([node]) or False
                c = self.comment
                if c is not None and c.file is None and t != "html_block" and \
                        (loc := comments.prompt_place(node.content)) is not None:
                    c.place(loc)  # the comment names its place only in its agent prompt
                    for f in self.doc.findings[c.count:]:
                        if "file" not in f:
                            _put_location(f, loc)
                            f.update(_ordered(f))
                elif c is not None and c.file is not None and c.file.line is None:
                    loc = comments.prompt_line(node.content, c.file.file)
                    if loc is not None:
                        c.file = loc
                        for f in self.doc.findings[c.count:]:
                            if f.get("file") == loc.file and "line" not in f:
                                _put_location(f, loc)
                                f.update(_ordered(f))
            if t not in ("heading", "hr") and not (t == "paragraph" and re.fullmatch(
                    r"\S{1,60}", _text(node).strip())):  # a marker line is no block of text
                self.blocks += 1
            emitted = count if t in ("paragraph", "bullet_list", "ordered_list") else -1
            listed = count if t in ("bullet_list", "ordered_list") else -1

    def list_place(self, node: SyntaxTreeNode) -> bool:
        """A paragraph that is only a place field, right under a list whose last finding
        names no place, is that finding's place: the item's continuation fell out of the
        list (``10. Low: …`` then ``Location: `a.rs:100`…`` indented as for ``9.``)."""
        lines = _text(node).split("\n")
        m = _FIELD.match(lines[0])
        rec = self.doc.findings[-1]
        if m is None or "file" in rec or not (
                m["k"].lower() in ("location", "locations", "file", "files", "path", "paths",
                                   "where")
                or PLACE_KEY_RE.match(m["k"])):
            return False
        value = " ".join([m["v"], *lines[1:4]])
        loc = locate(value)
        if loc is None and (f := _first_file(value)) is not None:
            loc = Location(f)
        if loc is None or _strip_decor(value[:loc.start]).strip("`*_ ,"):
            return False
        _put_location(rec, loc)
        self.doc.findings[-1] = _ordered(rec)
        for ln in lines:
            self.feed(ln)
        return True

    def cite(self, node: SyntaxTreeNode, first: int) -> None:
        """A code citation right after the item that opened a finding is that finding's
        place, when the item gave none (``- **title** ...`` then `` ```12:40:path ``)."""
        loc = citation_place(node)
        rec = self.doc.findings[-1]
        if loc is None or "file" in rec or len(self.doc.findings) - first != 1:
            return
        _put_location(rec, loc)
        self.doc.findings[-1] = _ordered(rec)

    def finish(self, src: list[str] | None = None) -> Doc:
        self.close_para()
        self.close_sections(0)
        self.close_comment()
        if self.superseded:  # the rows of a summary table whose findings were detailed
            self.drop(lambda f: id(f) in self.superseded)
        if self.brief:
            self.drop(lambda f: True)  # what a reviewer is asked to check, not what it found
        if self.settled_ids:
            # a finding a status table marks fixed by its id ("| 3 | stale tool_context |
            # FIXED |", "### #3 — Regen keeps stale tool_context"), wherever the table is,
            # when the row also names its subject: settled, not open
            self.drop(self.settled_by_row)
        self.drop_previews()
        if src is not None:
            self.close_span(len(src))
            if self.spans:
                out: list[str] = []
                for a, b in self.spans:
                    part = list(src[a:b])
                    if a in self.head_value:
                        part = [self.head_value[a]] + part
                    out += part
                self.doc.findings_text = "\n".join(out).strip("\n")
        return self.doc


# --------------------------------------------------------------------------- #
# Decisions
# --------------------------------------------------------------------------- #
# sections that restate what was read before them: a summary, a status table or a
# consensus (any item sharing two words with a finding read before restates it) ...
_RECAP_SUMMARY = re.compile(
    r"(?:(?:findings?|issues?|review|problems?|concerns?|items?|comments?|fix(?:es)?)\s+"
    r"(?:summary|status|overview|recap|tracker|table|at\s+a\s+glance)|at\s+a\s+glance|"
    r"quick\s+reference|scoreboard|roll-?up|"
    r"summary|executive\s+summary|tl;?dr|overview|recap|consensus|agreed\s+\w+|"
    r"risk\s+assessment|overall\s+(?:risk|assessment)|headline\s+findings?|key\s+(?:findings?|"
    r"issues|takeaways)|(?:issue\s+|finding\s+|r\d\s+)?status(?:\s+table)?|scorecard|"
    r"conclusions?|final\s+\w+|verdict|bottom\s+line|tracker|zusammenfassung|fazit|"
    r"r\u00e9sum\u00e9|resumen|resumo|conclusi\u00f3n|conclus\u00e3o|"
    r"\u6c47\u603b|\u5f59\u7e3d|\u603b\u7ed3|\u7e3d\u7d50|\u7ed3\u8bba|\u7d50\u8ad6|"
    r"\u6458\u8981|\u6982\u8981|\u5c0f\u7ed3|\u307e\u3068\u3081|\u8981\u7d04|"
    r"\uc694\uc57d|\uacb0\ub860)\b", re.I)
# ... or the answers to the concerns above (suggestions, required changes: an item
# restates a finding when its title is mostly that finding's words)
_RECAP_ACTION = re.compile(
    r"(?:top[\s-]*\d*\s+(?:issues|findings|must[\s-]?fix\w*|fixes|priorities)|"
    r"(?:implementation\s+|fix\s+)?(?:todos?|to-dos?|tasks|tickets)|(?:implementation|remediation|"
    r"fix)\s+(?:plan|steps|order|roadmap)|(?:minimum\s+)?"
    r"required\s+(?:changes?|fixes|actions)|change\s+requests?|action\s+(?:items?|plan)|"
    r"next\s+steps?|suggest(?:ions?|ed\s+\w+)|recommend(?:ations?|ed\s+\w+)|fix(?:es)?\s+"
    r"(?:list|plan|order)|what\s+to\s+(?:fix|change|do)|before\s+merg\w*|priorit\w+"
    r"(?:\s+\w+)?|remaining\s+(?:issues|items|work)|open\s+items|checklist|empfehlungen|"
    r"vorschl\u00e4ge|recommandations|recomendaciones|sugerencias|recomenda\u00e7\u00f5es|"
    # "修复优先级", "修复优先级顺序", "修复顺序": the order to fix in
    r"(?:\u4fee\u590d|\u4fee\u6539|\u6539\u8fdb)(?:\u4f18\u5148\u7ea7|\u512a\u5148\u7d1a)?"
    r"(?:\u987a\u5e8f|\u9806\u5e8f|\u6392\u5e8f)|(?:\u4fee\u590d|\u4fee\u6539|\u6539\u8fdb)"
    r"(?:\u4f18\u5148\u7ea7|\u512a\u5148\u7d1a)|"
    r"sugest\u00f5es|(?:\u4fee\u6539|\u6539\u8fdb|\u4fee\u590d|\u4f18\u5316)?"
    r"(?:\u4f18\u5148\u7ea7|\u512a\u5148\u7d1a)?(?:\u5efa\u8bae|\u5efa\u8b70)|\u884c\u52a8\u9879|\u63a8\u5968|\u63d0\u6848|"
    r"\u5bfe\u5fdc|\uad8c\uc7a5|\uc81c\uc548)\b", re.I)
# what may follow a recap's name: nothing, punctuation, or a qualifier ("Summary of change
# requests", "Recommendations for v2", "Recommended Action Plan", "Recommended Improvements
# Priority"); "Summary line is wrong" names a finding instead
_RECAP_TAIL = re.compile(
    r"^\s*(?:$|[:(\[\u2014\u2013\-|,.;!?&]|(?:of|for|table|and|or|by|before|after|from|in|to|"
    r"with|on|round|r\d+|\d+|v\d[\w.]*|summary|status|overview|recap|issues|findings|items|"
    r"points|changes|fixes|list|concerns|plan|priority|priorities|order|roadmap)\b|"
    r"(?:" + words.HEAD_QUALIFIERS_INTL + r")\s*(?:$|[^\w\s]))", re.I)


# one word ahead of an action recap's name: "Testing recommendations", "Improvement
# suggestions", "Further actions"
_RECAP_QUALIFIER = re.compile(
    r"^(?:(?:security|performance|code|quality)\s+)?(?:testing|test|further|additional|other|"
    r"general|future|improvements?|follow[\s-]?up|key|main)\s+(?=\w)", re.I)


# the parts of one finding as its sub-headings, in other languages (:mod:`.words`)
_BODY_PART_INTL = re.compile(r"^(?:" + words.BODY_PART_HEADS_INTL + r")\s*:?\s*$", re.I)


# the sections of other languages that hold no findings of their own, by kind (the
# tables of :mod:`.words`): a name that opens the heading, then its end, punctuation, a
# bracket or a connecting word ("変更概要（今回分）", "Übersicht der Änderungen"); a name
# followed by more words is a title ("요약 화면이 비어 있음")
_INTL_TAIL = (r"(?=\s*(?:" + words.HEAD_QUALIFIERS_INTL + r")?\s*(?:$|[^\w\s]|(?:der|des|do|da|dos|"
              r"das|de|del|della|di|du|of|for|f\u00fcr|para|per|pour|zur|zum|y|e|et|und|"
              r"\u0438)\s))")
_INTL_HEADS = tuple((kind, re.compile(r"(?:" + rx + r")" + _INTL_TAIL, re.I)) for kind, rx in (
    ("summary", words.SUMMARY_HEADS_INTL), ("action", words.ACTION_HEADS_INTL),
    ("changes", words.CHANGES_HEADS_INTL), ("other", words.OTHER_HEADS_INTL)))


def _intl_head(text: str) -> str | None:
    """"summary", "action", "changes" or "other" when the heading ``text`` names such a
    section in another language ("## 2. 変更概要", "### 📋 다음 단계")."""
    name = re.sub(r"^[\W\d_]+", "", re.sub(r"[*_`~]+", "", text[:200]))
    for kind, rx in _INTL_HEADS:
        if rx.match(name):
            return kind
    return None


def _recap_kind(name: str, heading: str | None = None) -> str | None:
    """"summary" or "action" when the heading ``name`` is a recap's, else None (its
    ``heading`` as written names it in another language, see :func:`_intl_head`)."""
    if (intl := _intl_head(heading or name)) in ("summary", "action"):
        return intl
    if _GRADED_SUGGESTIONS.match(name):
        return None  # "High Priority Suggestions": findings graded by their severity
    q = _RECAP_QUALIFIER.match(name)
    if q and (kind := _recap_kind(name[q.end():])) == "action":
        return kind  # "Testing recommendations", "Further suggestions"
    for kind, rx in (("summary", _RECAP_SUMMARY), ("action", _RECAP_ACTION)):
        m = rx.match(name)
        if m and (_RECAP_TAIL.match(name[m.end():]) or _CJK_RUN.search(m.group(0)[-2:])
                  and name[m.end():m.end() + 1].isspace()):
            # ("改进建议（优先级排序）": a name, then its aside)
            if kind == "action" and _GRADED_FINDINGS.match(name[m.end():]):
                return None  # "Priority 3: Medium Findings (Could Fix)": findings, graded
            return kind
    q = _SUMMARY_QUALIFIER.match(name)
    if q and _recap_kind(name[q.end():]) == "summary":
        return "summary"  # "Security Issues Summary", "Round 2 Findings Overview"
    q = _ACTION_QUALIFIER.match(name)
    if q and _recap_kind(name[q.end():]) == "action":
        return "action"  # "Hardening Recommendations", "Post-Deployment Tasks"
    return None


# up to three words ahead of a summary's name that ends the heading: "Security Issues
# Summary" (a name that goes on after it, "Error summary is wrong", is a finding's)
_SUMMARY_QUALIFIER = re.compile(
    r"^(?:[\w-]+\s+){1,3}(?=(?:(?:issues?|findings?|problems?|concerns?)\s+)?(?:summary|recap|"
    r"overview|scorecard|roll-?up|status(?:\s+table)?)\s*[:.\u2014\u2013-]?\s*$)", re.I)


# up to two words ahead of a list of actions' name that ends the heading, or its aside:
# "Hardening Recommendations", "Post-Deployment Tasks (optional)" ("Ignored suggestion
# breaks the build" goes on after the name: a finding's title)
_ACTION_QUALIFIER = re.compile(
    r"^(?:[\w-]+\s+){1,2}(?=(?:recommendations?|suggestions?|tasks|todos?|next\s+steps?|"
    r"action\s+items?)\s*(?:[:.\u2014\u2013-]\s*)?(?:\([^()\n]{0,60}\)\s*)?$)", re.I)


# suggestions graded by a severity, as a review's findings are: "High Priority
# Suggestions", "Low-priority suggestions", "Minor suggestions:"
_GRADED_SUGGESTIONS = re.compile(
    r"^(?:critical|high|medium|moderate|low|minor|major)(?:[\s-]+priority)?\s+suggestions?"
    r"\s*[:.\u2014\u2013-]?\s*(?:\([^()\n]{0,60}\)\s*)?$", re.I)


# what follows a priority that grades findings rather than recaps them
_GRADED_FINDINGS = re.compile(r"^\s*[:\u2014\u2013-]\s*(?:[\w-]+\s+){0,2}?(?:findings?|issues?|"
                              r"problems?|bugs?|defects?)\b", re.I)


_ID = re.compile(r"^[\s*_`(\[]*(?:(?:issue|finding|item|bug|concern|comment)\s*#?\s*"
                 r"(?P<n>\d{1,4})\b|#(?P<h>\d{1,4})\b|(?P<i>[A-Z]{1,6}(?:[-.]?\d{1,4}){1,3}[a-z]?)"
                 r"(?![\w-]))")
# a reference to an earlier finding inside an action's title: "Issue #3", "finding 2",
# "#4", "(H1)", "(H4 / M4)"
_REFERENCE = re.compile(
    r"\b(?:issue|finding|item|bug|concern)\s*#?\s*(?P<n>\d{1,4})\b|(?<![\w#])#(?=\d)"
    r"(?P<h>\d{1,4})\b|[(/]\s*(?P<i>[A-Z]{1,3}\d{1,3}[a-z]?)\s*(?=[)/])", re.I)
# a heading of a list of actions naming the findings it answers: "(unblocks B2, B5)",
# "— fixes #3 and #4", "(addresses C1)"
_ANSWERS = re.compile(
    r"\b(?:unblocks?|fix(?:es)?|address(?:es)?|resolves?|closes?|answers?)\s+(?P<ids>"
    r"(?:#\d{1,4}|[A-Z]{1,3}-?\d{1,4}[a-z]?)(?:\s*(?:,|/|&|and)\s*(?:#\d{1,4}|"
    r"[A-Z]{1,3}-?\d{1,4}[a-z]?)){0,11})(?![\w-])")
_TAG_LEAD = re.compile(r"^[\W_]*(?:" + SEVERITY_WORD + r")[*_]*\s*[:\u2014\u2013-]\s+", re.I)
_ID_ONLY = re.compile(r"^[\W_]*(?:(?:pr|mr|pull\s+request|comment|thread|review\s+comment|note|"
                      r"item)\s*)?#?\s*\d{1,9}[\W_]*$", re.I)


def _bold_title(line: str) -> str | None:
    """The bold title of a comment's first line (its badge taken off), or None."""
    t, _ = unbadge(line)
    m = re.match(r"^\s*(?:\*\*|__)(?P<t>[^*\n]{3,300}?)(?:\*\*|__)\s*$", t)
    return _strip_decor(m["t"]) if m and re.search(r"[^\W\d_]{3}", m["t"]) else None


_ADDRESSES = re.compile(r"^\W*(?:for|re|regarding|about|on|to\s+(?:address|fix|resolve))\b", re.I)
_GROUP_NOUN = re.compile(
    r"\b(?:issues|findings|bugs|concerns|problems|blockers|fixes|items|nits|nitpicks|"
    r"suggestions|recommendations|warnings|improvements|changes|risks|defects|gaps)\b", re.I)
_BARE_KEY = re.compile(r"^\s*[*_]{0,2}[^\W\d_][\w \-]{0,30}[*_]{0,2}\s*:\s*[*_]{0,2}\s*$")
_NUMBER = re.compile(r"^[\s*_`]*(?P<n>\d{1,3})[.):]")


def _ident(text: str) -> str | None:
    """A finding's explicit id at the start of ``text`` (``N1``, ``CR-01-001``, ``#3``,
    ``Issue 3``), normalised; None for plain numbering or none."""
    m = _ID.match(text) if text else None
    if m is None:
        return None
    if m["i"] and severity_word(m["i"]):
        return None  # "P1" is a severity, not an id
    return (m["n"] or m["h"] or m["i"] or "").lower() or None


def _number(text: str) -> str | None:
    """The plain numbering that opens ``text`` ("3." → "3")."""
    m = _NUMBER.match(text) if text else None
    return m["n"].lstrip("0") or "0" if m else None


_STOP = frozenset((
    "the", "and", "for", "with", "that", "this", "are", "not", "but", "from", "into", "its",
    "was", "were", "has", "have", "had", "can", "may", "will", "would", "should", "could",
    "must", "all", "any", "one", "two", "per", "via", "when", "then", "than", "also", "only",
    "still", "now", "use", "uses", "used", "using", "add", "adds", "added", "make", "ensure",
    "need", "needs", "issue", "issues", "finding", "fix", "fixed", "fixes", "change",
    "changes", "update", "missing", "new", "code", "file", "line", "lines", "there", "their",
    "which", "what", "where", "does", "doesn", "don", "before", "after", "under", "over",
    "each", "every", "more", "less", "same", "other", "about", "without", "explicitly",
    "critical", "high", "medium", "low", "minor", "major", "blocking", "unaddressed",
    "addressed", "partially", "partial", "escalated", "must-fix", "should-fix"))


def _words(text: str) -> set[str]:
    """The content words of ``text`` (lower case, three letters or more, a crude stem)."""
    out: set[str] = set()
    low = text[:600].lower()
    for w in re.findall(r"[^\W\d_][\w]{2,}", _CJK_RUN.sub(" ", low)):
        if w in _STOP:
            continue
        w = re.sub(r"(?:ing|ed|es|s)$", "", w) if len(w) > 4 else w
        out.add(w)
    for run in _CJK_RUN.findall(low):  # no spaces between words: its pairs of characters
        out.update(run[i:i + 2] for i in range(len(run) - 1))
    return out


# a run of Chinese, Japanese or Korean characters
_CJK_RUN = re.compile("[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]{2,}")


def _same_words(a: set[str], b: set[str], loose: bool = False) -> int:
    """How strongly ``a`` (a recap item's words) restates ``b`` (an earlier finding's):
    the words they share when at least two are, and (unless ``loose``: a summary) at
    least a third of ``a``'s; 0 otherwise."""
    if not a or not b:
        return 0
    n = len(a & b)
    return n if n >= 2 and (loose or 3 * n >= len(a)) else 0


# how many of the latest findings a finding is compared with, to see it is said again
RESTATE_WINDOW = 64


def _norm_title(text: str) -> str:
    """A title as compared: its words in lower case, without its numbering, id or tag
    ("### 2. **Cache never expires**" and "Cache never expires." are the same)."""
    t = _title_of(_ITEM_NUMBER.sub("", _plain(text[:400]).strip(), count=1))
    t = re.sub(r"^\W*(?:[A-Z]{1,6}-?\d{1,4}|#\d{1,4})\b\W*", "", t)
    return " ".join(re.findall(r"\w+", t.lower()))


def _title_of(text: str) -> str:
    """An item's title: its bold part, else its text up to the first ``:``, dash or
    sentence end (at most twelve words)."""
    m = re.match(r"^\W*(?:\*\*|__)(?P<t>[^*_\n]{3,200}?)(?:\*\*|__)", text)
    if m and not _is_label(m["t"].strip(" :")):
        return m["t"]
    if m:  # "**Minor:** the key ignores the locale": the title follows the tag
        text = text[m.end():]
    text = _TAG_LEAD.sub("", text)
    toks = _file_tokens(text[:300])
    if toks and toks[0][1] <= 2:  # "tests/x.py — add a test ...": the title follows the file
        text = re.sub(r"^[\s`*_:,\u2014\u2013-]+", "", text[toks[0][2]:])
    t = re.split(r":\s|\s[\u2014\u2013-]\s|(?<=[a-z)\]`])\.\s", text, maxsplit=1)[0]
    return " ".join(t.split()[:12])
# a paragraph that only names a file, the header of the comments or items under it:
# `src/a.py`, **src/a.py:**, __`src/a.py`__
def _unsigned_comment(line: str) -> bool:
    """A line that opens a reviewer's comment in its own words (four words or more), not a
    field, a key, a line number, a change made or a finding's own opening."""
    return not _PLACE_LINE.match(line) and not _FIELD.match(line) and key_of(line) is None \
        and not re.match(r"^[\s*_]*[^\W\d_][\w \-]{0,30}[*_]*:\s", line) \
        and not line.rstrip().endswith((":", "\uff1a")) and not comments.meta_location(line) \
        and comments.file_line(line) is None \
        and not _opens(line, "neutral") and not _CHANGE_LEAD.match(line) \
        and not _skip_head(line) and len(re.findall(r"[^\W\d_]{2,}", line)) >= 4


# a file key alone on the first line of a paragraph ("File: src/store.py", "Path: `a.go`")
_FILE_KEY = re.compile(r"^[*_]{0,2}(?:file|path)[*_]{0,2}\s*:[*_]{0,2}\s*(?P<v>\S{1,200})$", re.I)
_FILE_HEADER = re.compile(r"[*_]{0,2}`?(?P<f>[\w.][\w./\-]{0,200})`?[*_]{0,2}:?[*_]{0,2}")


# an item that opens (after its id) by saying it was fixed, in Japanese or Chinese:
# "P1-1 直った。…", "#3 修正済み", "N2 已修复", "P2-1 文書化で対応（…）"
_CJK_DONE = re.compile(
    "^[\\s\\W]*+(?:[A-Za-z]{0,3}[-.]?\\d{0,3}[-.]?[A-Za-z0-9]{0,2}[\\s:\uff1a.]+)?[^\\s\u3002]{0,12}?"
    "(?:\u76f4\u3063\u305f|\u4fee\u6b63\u6e08|\u5bfe\u5fdc\u6e08|\u89e3\u6c7a\u6e08|"
    "\u5df2\u4fee\u590d|\u5df2\u89e3\u51b3|\u5df2\u4fee\u6b63|\u5df2\u5904\u7406|"
    "[\u3067\u306b]\u5bfe\u5fdc(?=[\uff08(\u3002\u3001\\s]|$))")


# a heading that opens a later round of one review ("## Re-review after fixes", "## Second
# review", "## Follow-up review (commit abc)", "## 复核", "## 再レビュー")
_REREVIEW_HEAD = re.compile(
    r"^(?:(?:re-?review|re-?audit|re-?check|re-?verification|follow[\s-]?up\s+review|"
    r"(?:second|third|final|updated)\s+(?:review|pass|round)|review\s+(?:after|of)\s+(?:the\s+)?"
    r"fix(?:es)?)\b"
    "|\u590d\u6838|\u8907\u6838|\u518d\u5ba1|\u518d\u30ec\u30d3\u30e5\u30fc|\u518d\u691c\u8a3c)",
    re.I)
_REVIEW_WORD = re.compile(
    r"\b(?:review|re-?review|audit|re-?audit|re-?check|verification|assessment|evaluation)\b|"
    "\u8bc4\u5ba1|\u8a55\u5be9|\u5ba1\u67e5|\u5be9\u67e5|\u5be9\u67fb|\u590d\u6838|"
    "\u8907\u6838|\u30ec\u30d3\u30e5\u30fc|\uac80\ud1a0", re.I)
_SHAPE_DROP = re.compile(
    r"\([^()\n]{0,120}\)|\uff08[^\uff08\uff09\n]{0,120}\uff09|`[^`\n]{0,120}`|@\S+|"
    r"[^\W\d_]*\d[\w.-]*|[^\w\s]+")


# a heading over findings of an earlier state or set aside ("Before (REJECT)" in a before /
# after comparison, "Deferred items", "Should-fix (deferred)", "Out of scope")
_SETTLED_HEAD = re.compile(
    r"^(?:(?:previously|already|earlier)\s+(?:fixed|resolved|addressed|closed)\b"
    r"|accepted(?:\s+(?:risks?|items?|issues?|findings?))?\s*(?:\([^()\n]{0,40}\))?\s*:?\s*$"
    r"|before\b(?!\s+(?:merg|releas|ship|deploy|launch|go|shipping|production))"
    r"(?!.{0,40}\bafter\b)"
    r"|(?:deferred|postponed|out\s+of\s+scope|won'?t\s+fix|not\s+in\s+scope)(?:\s+(?:items?|"
    r"issues?|findings?|work|changes?|tasks?|follow-?ups?))?\s*:?\s*$"
    r"|.{0,60}(?:\((?:[^()\n]{0,30}\s)?|[:\u2014\u2013-]\s*)(?:deferred|postponed|out\s+of\s+scope|"
    r"won'?t\s+fix|by\s+design|superseded|no\s+longer\s+applies|not\s+a\s+bug)"
    # "(Won't Fix / Platform-Bedingt)": the set-aside reason and another beside it
    r"(?:\s*[/,;&+]\s*[^()\n]{1,40})?\s*\)?\s*$"
    # "Must-fix defects (applied in this commit)", "Review items (all fixed)": done now
    r"|.{0,60}\((?:[^()\n]{0,30}\s)?(?<!partially\s)(?<!partly\s)(?<!not\s)(?<!be\s)(?:applied|fixed|resolved|"
    r"addressed|done|implemented)(?:\s+(?:in|by|with)\s+(?:this|the)\s+(?:commit|pr|change|patch|"
    r"round|pass|revision))?\s*\)\s*:?\s*$)", re.I)
# a lead-in that gives the reasons for a rating or a call, alone over a list: "**Why
# Low**:", "Why this is safe:" (its items are the reviewer's reasons, not findings)
_WHY_LEAD = re.compile(r"^\s*(?:\*\*|__)?\s*why\b[^:*_\n]{0,40}(?:\*\*|__)?\s*[:\uff1a]\s*"
                       r"(?:\*\*|__)?\s*$", re.I)


# a section the reviewer sets aside as a whole: known issues it says do not block (or
# will not be fixed), notes it says need no action, items it defers
_SET_ASIDE_HEAD = re.compile(
    r"^(?:(?:remaining|other|open)\s+)?known\s+(?:issues?|limitations?|gaps?)\s*\([^()\n]{0,30}"
    r"\b(?:not\s+blocking|non-?blocking|won'?t\s+fix)\b[^()\n]{0,40}"
    r"\)\s*:?\s*$"
    r"|.{0,80}\(\s*no\s+action\s+(?:is\s+)?(?:needed|required)\b[^()\n]{0,40}\)\s*:?\s*$"
    r"|(?:items?|issues?|findings?|work)\s+(?:deferred|postponed)\b"
    # "### ⚠️ Pre-Existing Issues Identified (Not Security-Related)": there before the change
    r"|pre-?existing\s+(?:issues?|errors?|failures?|problems?|bugs?)\b", re.I)
# the words of a heading over the previous round's settled items ("Resolved", "Fixed since
# last review", "Previously reported", "Addressed", "Applied", "Behoben", "Resueltos",
# "해결된 이슈"): a settled word, and nothing but the names of what was settled and when
_SETTLED_WORD = re.compile(
    r"(?:resolved|fixed|addressed|closed|completed|done|applied|remediated|corrected|"
    r"behoben\w{0,2}|erledigt\w{0,2}|gel\u00f6st\w{0,2}|korrigiert\w{0,2}|umgesetzt\w{0,2}|"
    r"corrig\u00e9e?s?|r\u00e9solue?s?|trait\u00e9e?s?|appliqu\u00e9e?s?|resuelt[oa]s?|"
    r"corregid[oa]s?|solucionad[oa]s?|aplicad[oa]s?|corrigid[oa]s?|resolvid[oa]s?|"
    r"risolt[oaie]|"
    # Korean: "해결됨", "해결된", "수정됨", "수정된", "반영됨", "반영된", "조치된"
    "(?:\ud574\uacb0|\uc218\uc815|\ubc18\uc601|\uc870\uce58)(?:\ub428|\ub41c|\uc644\ub8cc))",
    re.I)
_SETTLED_FILLER = frozenset((
    "issue", "issues", "finding", "findings", "item", "items", "problem", "problems", "bug",
    "bugs", "comment", "comments", "feedback", "concern", "concerns", "point", "points",
    "blocker", "blockers", "review", "reviews", "previously", "reported", "raised", "flagged",
    "since", "last", "previous", "prior", "earlier", "first", "round", "pass", "iteration",
    "cycle", "the", "all", "and", "of", "in", "from", "this", "that", "were", "was", "have",
    "has", "been", "are", "is", "now", "already", "confirmed", "verified", "successfully",
    "what", "new", "changes", "fixes", "requested", "suggested", "probleme",
    "fehler", "punkte", "befunde", "anmerkungen", "probl\u00e8mes", "corrections",
    "remarques", "problemas", "hallazgos", "puntos", "observaciones", "cambios",
    "re", "validated", "revalidated", "rechecked", "checked", "as", "identified", "found",
    "\uc774\uc288", "\ubb38\uc81c", "\uc0ac\ud56d", "\ud56d\ubaa9", "\ubb38\uc81c\uc810"))
# "Verification of fixes", "Fix verification", "Fixes verified", "Verified fixes": the
# check of the previous round's fixes, whose items are settled unless they say otherwise
_FIX_CHECK = re.compile(
    r"^(?:verification\s+of\s+(?:the\s+)?(?:(?:previous|prior|earlier|round[\s-]*\d+|[\w-]+)\s+)?"
    r"(?:fix(?:es)?|findings?|issues?)|(?:previous\s+)?fix(?:es)?\s+verification|"
    r"fix(?:es)?\s+verified|verified\s+fix(?:es)?)"
    r"(?:\s+(?:report|results?|summary|table|notes?|log|checklist))?\s*$", re.I)
# ... or the state of the earlier round's findings ("Resolution status", "Cycle-1 findings —
# resolution status", "Status of previous findings"), whose open items say they are
_ROUND_STATUS = re.compile(
    r"(?:^|[\u2014\u2013:-]\s*|\b(?:findings?|issues?|items?)\s+)(?:resolution|fix|remediation)"
    r"\s+status$|^status\s+of\s+(?:the\s+)?"
    r"(?:previous|prior|earlier|last|round[\s-]*\d+|cycle[\s-]*\d+)\s+(?:round\s+|review\s+)?"
    r"(?:findings?|issues?|items?|comments?)$", re.I)
# the words that say something is still open: they keep a heading from settling its
# section, a status cell or an answer from settling its item, a dash clause from closing
# its heading ("— not fixed yet", "Partially fixed", "未修复"); one list for all of them
_OPEN_WORDS = re.compile(
    r"\b(?:still|open|remaining|remains?|unresolved|outstanding|pending|partial(?:ly)?|partly|"
    r"not|yet|un(?:fixed|resolved|addressed|done|finished|merged|tested|handled|verified|checked|"
    r"solved|changed|touched)|regress\w*|reopened|fail\w*)\b|\u672a|\u90e8\u5206", re.I)


# a document that answers a review: "Second-round response to the independent review",
# "in response to reviewer feedback", "# Review response", "Fix log" (not "in response to
# your review request": a reviewer's opening)
_RESPONSE_DOC = re.compile(
    r"\b(?:responses?|repl(?:y|ies)|answers?)\s+to\s+(?:the\s+|each\s+|all\s+|every\s+)?"
    r"(?:[\w-]+\s+){0,3}?(?:review(?:er'?s?)?|review\s+comments?|feedback)\b(?!\s+request)"
    r"|\breview\s+(?:response|repl(?:y|ies))\b|\bfix\s+log\b", re.I)


def _settled_section(plain: str) -> bool:
    """A heading over items the change settled: made of a settled word and the names of
    what was settled and when ("Resolved", "Fixed Since Last Review", "Applied",
    "Previously Reported — Addressed", "Behobene Probleme", "해결된 이슈"), or a check of
    the previous round's fixes ("Verification of Fixes")."""
    t = re.sub(r"^[\W\d_]+|[\s:*_.]+$", "", plain)
    if not t or len(t) > 80 or _OPEN_WORDS.search(t):
        return False
    if _FIX_CHECK.match(t) or _ROUND_STATUS.search(t):
        return True
    tokens = re.findall(r"[^\W\d_]+", t.lower())
    settled = [w for w in tokens if _SETTLED_WORD.fullmatch(w)] or re.search(
        r"\bpreviously\s+(?:reported|raised|flagged|identified|found)\b", t, re.I)
    return bool(settled) and len(tokens) <= 8 and all(
        w in _SETTLED_FILLER or _SETTLED_WORD.fullmatch(w) for w in tokens)


# what an item says of its own state when it is not settled ("❌ Still failing", "Status:
# OPEN", "not fixed", "Partially fixed", "regressed", "未解决", "nicht behoben", "pendiente")
_REOPENED = re.compile(
    r"\u274c|\u2717|\u2718|\u23f3|"
    r"\b(?:still\s+(?:open|present|failing|fails|broken|there|exists|reproduces|happens|occurs|"
    r"an?\s+issue|unfixed|unresolved|missing|applies)|not\s+(?:yet\s+)?(?:fixed|resolved|"
    r"addressed|done)|unfixed|unresolved|regress(?:ed|ion)|reopened|re-opened|"
    r"partial(?:ly)?\s+(?:fixed|resolved|addressed|done)|partly\s+(?:fixed|resolved|addressed)|"
    r"(?:status|state)\s*[*_]*\s*:\s*[*_`]*\s*(?:open|failing|fail(?:ed)?|pending|partial)\b)|"
    # Chinese, Japanese, Korean, German, French and Spanish
    "\u672a\u89e3\u51b3|\u672a\u4fee\u590d|\u672a\u4fee\u6b63|\u672a\u5bfe\u5fdc|"
    "\u90e8\u5206\u4fee\u590d|\u90e8\u5206\u89e3\u51b3|\u4ecd\u672a|\ubbf8\ud574\uacb0|"
    "\ubbf8\uc218\uc815|\ubbf8\ubc18\uc601|"
    r"\b(?:nicht\s+behoben|noch\s+offen|non\s+(?:corrig|r\u00e9solu)\w*|"
    r"no\s+resuelt[oa]|sin\s+resolver|pendiente)\b", re.I)


# a state word in capitals ("OPEN", "FAIL", "UNFIXED")
_OPEN_STATE = (r"(?-i:OPEN|FAIL(?:ED|S)?|UNFIXED|NOT\s+FIXED|PENDING|REGRESSED|PARTIAL(?:LY)?)"
               r"(?![\w-])")
# ... where a state is written: opening the text or after a dash, a colon, a bracket
_OPEN_STATE_AT = re.compile(r"(?:^|[\u2014\u2013:(\[|]|\s-)[\s*_`]*" + _OPEN_STATE)
_OPEN_CELL = re.compile(
    r"(?<![\w-])" + _OPEN_STATE + r"|^[\W_]*(?:partial(?:ly)?|teilweise|partiel(?:le)?|open|"
    r"pending|failing|failed|fail|unfixed|unresolved|not\s+(?:yet\s+)?(?:fixed|started)|"
    r"in\s+progress|to\s*do|offen|ouvert|abierto|"
    "parcial(?:mente)?|parziale|\u90e8\u5206|\ubd80\ubd84)[\\W_]*$", re.I)


def _reopened(text: str, cell: bool = False) -> bool:
    """``text`` (an item under a heading of settled items, or the status ``cell`` of a
    table row) says it is still open."""
    if re.match(r"^[\W\d_]{0,6}(?:\u2705|\u2714|\[x\]|~~)", text):
        return False  # "✅ FIXED (was FAILED)": its own mark settles it
    t = text[:600]
    return bool(_REOPENED.search(t) or (_OPEN_CELL if cell else _OPEN_STATE_AT).search(t))


# the names of a table's status column, in the languages of the reviews read
_STATUS_HEADS = frozenset((
    "status", "state", "resolution", "outcome", "result", "verification", "verified", "verdict",
    "estado",
    "statut", "stato", "zustand", "\u72b6\u6001", "\u72c0\u614b", "\u72b6\u614b",
    "\uc0c1\ud0dc"))


# a row that says where its open part is detailed ("… still trusted — see §4.5", "see
# SUGGESTION-3", "see below"): that finding's restatement, read where it is detailed
_SEE_REF = re.compile(r"\bsee\s+(?:\u00a7|section\s+\d|below\b|above\b|#\d|[A-Z][A-Z]*[-_]?\d)")


def _open_rows(rows: list[list[str]]) -> list[list[str]]:
    """The header and the rows of a table under settled items whose status cell (else the
    row) says they are still open: a status table of a re-review.  The status column is
    named ``status`` and its kept cells marked failing, as the table reader reads them."""
    head = [_plain(c).strip(" *_`").lower() for c in rows[0]]
    stc = next((i for i, h in enumerate(head) if h in _STATUS_HEADS), None)
    kept = [r for r in rows[1:] if (_reopened(
        r[stc].strip(" *_`") if stc is not None and stc < len(r) else " | ".join(r),
        cell=stc is not None) or stc is not None and stc < len(r)
        and _FAILED_ROW.search(_plain(r[stc]))) and not _SEE_REF.search(" ".join(r))]
    if stc is None:
        return [rows[0]] + kept
    return [rows[0][:stc] + ["status"] + rows[0][stc + 1:]] + [
        r[:stc] + ["\u274c " + r[stc]] + r[stc + 1:] if stc < len(r) else r for r in kept]


def _mixed_status(rows: list[list[str]]) -> bool:
    """A table whose status column marks some rows settled and some still open: the
    status of the previous round's items, in a re-review."""
    head = [_plain(c).strip(" *_`").lower() for c in rows[0]]
    stc = next((i for i, h in enumerate(head) if h in _STATUS_HEADS), None)
    if stc is None:
        return False
    cells = [_plain(r[stc]) for r in rows[1:SETTLED_CAP] if stc < len(r)]
    return any(_RESOLVED.search(c) and not _OPEN_WORDS.search(c) for c in cells) and any(
        _reopened(c, cell=True) for c in cells)


# a heading's field saying its check passed ("**Assessment**: [OK] Sound", "Status: ✅ PASS",
# "**Coverage**: Complete")
_PASSED_FIELD = re.compile(
    r"^\W*(?:assessment|coverage|status|result|verdict|outcome|check)\s*[*_]*\s*[:\uff1a]\s*[*_`]*"
    r"\s*(?:\[(?:ok|pass(?:ed)?)\]|\u2705|\u2714|\u2713|(?:ok|pass(?:ed)?|sound|complete|correct|"
    r"verified|clean|fine)\b(?![,;]?\s+(?:but|except|however|mostly|partly|with\s+(?:issues|gaps|"
    r"concerns))))", re.I)
# a score a scorecard gives a dimension ("8/10", "4.5 / 5", "92%", "✅", "Grade: B+")
_SCORE = re.compile(r"(?<![\w/.])\d{1,3}(?:\.\d)?\s*/\s*(?:5|10|20|100)\b(?![/.]\d)|"
                    r"(?<![\w.])\d{1,3}\s*%|\u2705|\u2714|\bgrade\s*[:=]?\s*[A-F][+-]?(?!\w)",
                    re.I)


_REVIEWER_NAME = re.compile(
    r"\b(?:claude|gemini|codex|opencode|copilot|chatgpt|gpt[\w.-]*|grok|deepseek|qwen|cursor|"
    r"coderabbit|sonnet|opus|haiku)\b", re.I)


def _round_shape(plain: str) -> str | None:
    """The words of a heading that names a review once its ids, numbers, dates, commits
    and asides are set aside ("R05-b3 final review (commit 5e1ac3e)" -> "final review"):
    two sibling headings of one shape are two rounds of one review.  None when the
    heading names no review."""
    if not _REVIEW_WORD.search(plain[:200]):
        return None
    shape = " ".join(_SHAPE_DROP.sub(" ", plain[:200].lower()).split())
    # "## Review (claude)" and "## Review (codex)": two reviewers, not two rounds
    who = sorted({m.group(0).lower() for m in _REVIEWER_NAME.finditer(plain[:200])})
    return " ".join([shape, *who]).strip() or None


# "none" in other words: a checkbox before it, other languages ("无", "なし", "없음"), a
# first sentence saying nothing was found ("No blocking issues found. The section ...")
_NONE_MORE = re.compile(
    r"^[\s*_`(\-]*+(?:\[[ xX]\]\s*+[*_`]*+)?(?:"
    r"(?:none|n/?a|nothing)[\s*_`]*(?:$|[.!;:,\u3002]|\s[\u2014\u2013-])"
    r"|no\s+(?:[\w-]+\s+){0,2}(?:issues?|findings?|problems?|concerns?|blockers?|regressions?)"
    r"(?:\s+(?:found|identified|noted|detected|observed|remain(?:ing)?))?[*_`]*\s*(?:$|[.!;(]))"
    "|^[\\s*_`(\\-]*(?:nenhum[a]?|ningun[oa]|aucune?|rien|keine?|nichts|nessun[oa]?|"
    "\u043d\u0435\u0442|\u043d\u0438\u0447\u0435\u0433\u043e|"
    "\u65e0|\u7121|\u6682\u65e0|\u6ca1\u6709|\u306a\u3057|"
    "\u7279\u306b\u306a\u3057|\u8a72\u5f53\u306a\u3057|\uc5c6\uc74c|\ud574\ub2f9\\s*\uc5c6\uc74c)"
    # ... and its aside ("なし（コメントも意図明確）。", "없음 (기존과 동일)")
    "[\\s*_`]*(?:\uff08[^\uff08\uff09\n]{0,80}\uff09|\\([^()\n]{0,80}\\))?"
    "[\\s*_`\u3002.\uff0e]*$", re.I)


# codex's review as its TUI prints it: a selection box before each comment, checked or
# not ("[x] [P1] title — /abs/path:30-31"): the box is a selection, not a fix
_CODEX_TUI_ITEM = re.compile(r"^\[[xX ]\]\s+\[P[0-3]\]\s[^\n]*\s\u2014\s+\S+:\d+-\d+\s*$")


# an aside in brackets, ASCII or full-width, short enough to be a status ("（対応済み）")
_SETTLED_ASIDE = re.compile(r"[(\uff08]([^()\uff08\uff09\n]{1,30})[)\uff09]")


def _skip_head(head: str) -> bool:
    """Not a finding: a none, a check that passed, a resolved item, a template line."""
    h = head.strip()
    if not h:
        return True
    if _NONE_RE.match(h) or _NONE_MORE.match(h) or re.match(
            r"^[\s*_`(]*(?:none|n/?a)\b(?:[\s*_`).]*(?:$|[\u2014:-])|[*_`]*\.\s|\s+(?:found|"
            r"identified|established|noted|observed|reported|remain(?:ing|s)?|outstanding|left|so\s+far|in\s+this|"
            r"at\s+this)\b)", h, re.I):
        return True
    if _CODEX_TUI_ITEM.match(h):
        return False
    if _POSITIVE_MARK.match(h) or _TRAILING_CHECK.search(h) or _SET_ASIDE.match(h):
        return True
    first = re.split(r"(?<=[.!])\s|\*\*\s", _plain(h), maxsplit=1)[0].strip()
    if (_PRAISE.search(first) or _LABEL_PRAISE.match(first) and not _BUT.search(first)) \
            and not _lead_tag(h):
        return True
    if re.search(r"\u2705|\[x\]|~~|\((?:fixed|resolved|addressed|done|(?i:by\s+design|won'?t\s+fix|"
                 r"superseded|no\s+longer\s+applies|not\s+a\s+bug))\)|\b(?:FIXED|RESOLVED|"
                 r"ADDRESSED|CLARIFIED)\b", h) or _CJK_DONE.match(_plain(h)):
        return True
    if any(_RESOLVED.match(a.strip(" *_`")) and not _OPEN_WORDS.search(a)
           for a in _SETTLED_ASIDE.findall(h)):
        return True  # "(対応済み)", "（已修复）", "(해결됨)", "(resuelto)": its aside says settled
    if (d := _DASH_TAIL.search(h)) and _RESOLVED.match(t := d["t"].strip(" *_`.!")) \
            and not _ENGLISH_SETTLED.match(t) and not _OPEN_WORDS.search(t):
        return True  # "— corrigido", "— 已修复", "– behoben": its dash's clause, another language
    if re.search(r"(?:\s[\u2014\u2013-]|[:\u2014])\s*[*_`]*(?:done|fixed|resolved|completed|"
                 r"shipped|merged|superseded|no\s+longer\s+applies|won'?t\s+fix)[*_`.]*\s*$",
                 h, re.I):
        return True
    if re.search(r"(?:[;,:]|\s[\u2014\u2013-])\s*(?:(?:this\s+is|it'?s|that'?s)\s+)?"
                 r"(?:fine|ok|okay|acceptable|expected|intended|by\s+design|no\s+action\s+"
                 r"(?:is\s+)?(?:needed|required))"
                 r"(?:\s+(?:for\s+now|as\s+is))?[.!]?\s*$", re.sub(r"[*_`]+", "", h), re.I):
        return True  # "… renumbers when filters change — expected.", "…; no action needed."
    if _ANSWERED.search(h) and not _reopened(h):
        return True  # "… — Fixed in a1b2c3d.", "… → Done", "… — PASS", "N/A: unreachable"
    if len(h) <= TALLY_CAP and (_TALLY.match(h) or _TALLIES.match(h)) or _TOOL_NOTE.match(h) \
            or _REVIEWER_STATUS.match(h) \
            or _INFO_CONFIRMS.match(_plain(h)) or _CONTENTS_ENTRY.match(h):
        return True
    # an element quoted as code (`` `<button>` ``) is the reviewer's subject, not a blank
    # and so is code that assigns or calls (`` `onclick={close}` ``)
    return bool(_PLACEHOLDER.search(re.sub(r"`(?:<[a-z][a-z0-9-]*(?:\s[^`<>\n]*)?/?>|"
                                           r"[^`\n]*[=(;][^`\n]*)`", " ", h)))


# an entry of a table of contents: only a link to a heading of the same document
# ("[Findings: High](#-high-priority)", "**[3. Testing](#3-testing)**")
_CONTENTS_ENTRY = re.compile(r"^[\s*_]*\[[^\[\]\n]{1,200}\]\(#[^()\s]{0,200}\)[\s*_.]*$")


# an item set aside by its mark or its lead: "[~] DEFERRED: split the module", "[-] …",
# "WONTFIX: …", "Skipped — …"
_SET_ASIDE = re.compile(
    r"^[\s*_`]*+(?:\d{1,3}[.)]\s+)?(?:\[[~\-/]\]\s*|\[(?:ignored?|deferred|postponed|skip(?:ped)?|"
    r"wont-?fix|won'?t\s*fix)\]\s*|[\s*_`]*(?:deferred|postponed|won'?t\s*fix|wontfix|skipped|"
    r"out\s+of\s+scope|noted)\b[*_`]*\s*[:\u2014\u2013-])", re.I)
# an informational item that confirms a property holds ("Info: Privacy boundaries are
# preserved", "Info: Execution is explicitly bounded"): a check that passed, no finding
_INFO_CONFIRMS = re.compile(
    r"^[\W_]*(?:info(?:rmational)?|note|fyi)\b[\W_]*\s*[:\u2014\u2013-]\s*"
    r"(?![^\n]{0,200}\b(?:not|no|never|lacks?|missing|without|unproven|but|yet)\b)"
    r"[^\n]{0,160}?(?:\b(?:correctly|properly|explicitly|fully)\b|\b(?:is|are|remains?|stays?)"
    r"\s+(?:\w+ly\s+)?(?:preserved|bounded|clear|compliant|intact|respected|enforced|"
    r"satisfied|aligned|consistent|sound|safe|valid|in\s+place)\b)", re.I)
# a line about a reviewer's run, not about the code ("Gemini: pending", "Codex: API key
# issue (skipped)", "Claude — APPROVE")
_REVIEWER_STATUS = re.compile(
    r"^[\W_]*(?:claude|gemini|codex|opencode|copilot|chatgpt|gpt[\w.-]*|grok|deepseek|qwen|"
    r"cursor|coderabbit)(?:\s++[\w.()-]++){0,2}[*_`]*+\s*+(?:[:\u2014\u2013]|\s-)\s*+[*_`]*+\s*+"
    r"(?:pending|approved?|rejected?|revise|request(?:ed)?\s+changes|skipped|not\s+run|running|"
    r"waiting|queued|timed?\s*out|timeout|errored|error|failed\s+to\s+run|unavailable|n/a|"
    r"done|complete[d]?|ok|passed|pass|go|no-?go|api\s+key|quota|rate[\s-]limit\w*)\b"
    r"(?:\s++[^\s(\[]++){0,3}\s*+(?:[(\[][^\n]{0,60})?$", re.I)


# an answer to a review item, in the item's own line: "Fixed in a1b2c3d" (or "Done in #12")
# opening a clause, a settled word after an arrow or a dash at its end ("→ Done", "— PASS",
# "— N/A", "— verified fixed"), a settled label opening a sentence ("*Addressed:* the guard
# was added"), or "N/A" as the answer ("N/A: the path is unreachable")
_ANSWERED = re.compile(
    # a run of marks holding "**" is tried once, from its start: "**" tried at each mark
    # of a long run rescanned the rest of the run each time (quadratic)
    r"(?:(?:^|[.:;!(\u2014\u2013\u2192>]\s*|\s-\s)[*_`]*"
    r"|(?<![*_`])(?=[*_`]*?\*\*)[*_`]*+|\*\*\s++[*_`]*+)(?:fixed|addressed|resolved|done|"
    r"implemented|applied)\s+(?:in|by|via|with)\s+(?:commit\s+|pr\s+)?[`\[]*(?:[0-9a-f]{7,40}|#\d+)\b"
    r"|(?:\u2192|->|=>|\s[\u2014\u2013]|\s-)\s*[*_`]*(?:done|fixed|resolved|addressed|applied|"
    r"n/a|won'?t[\s-]*fix|wontfix|pass(?:ed)?|verified\s+fixed|confirmed\s+fixed)"
    r"[*_`.!]*\s*$"
    r"|(?:^|[.!]\s+)[*_]+(?:addressed|fixed|resolved|done)[*_]*\s*:[*_]*\s"
    r"|(?:^|[.;]\s+|[\u2014\u2013]\s*)[*_]*(?-i:N/A)[*_]*\s*(?:[:.\u2014\u2013]|$)"
    r"|\((?:won'?t[\s-]*fix|wontfix|by\s+design)\b[^()\n]{0,60}\)[.\s]*$", re.I)
# a settled value of an item's answer field ("**Resolution:** Done in a1b2c3d", "Response:
# Fixed in …", "Status: ✓ confirmed fixed"; not "Done partially", "N/A yet")
_ANSWER_LABEL = re.compile(
    r"(?:^|\s)[*_]*(?:response|answer|reply|resolution|status|outcome)[*_]*\s*[:\uff1a]\s*[*_`]*"
    r"\s*(?:[\u2705\u2714\u2713]\ufe0f?\s*)?[*_`]*(?:done|fixed|resolved|addressed|applied|"
    r"n/a|not\s+applicable|won'?t[\s-]*fix|wontfix|by\s+design|verified\s+fixed|"
    r"confirmed\s+fixed)\b(?!\s+(?:yet|partially|partly))", re.I)


def _settled_body(rest: list[str]) -> bool:
    """The body of an item says the item is settled: its first line opens with a fixed
    mark, or a status or verdict label of its own names it fixed or resolved."""
    fenced = False
    text: list[str] = []
    for ln in rest[:MAX_BODY]:
        if ln.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
            continue
        if fenced or not ln.strip():
            continue
        if not text and (_SETTLED_MARK.match(ln) or _settled_intl(ln)) \
                or _BOT_ADDRESSED.match(ln) or _FIX_DONE.match(ln):
            return True
        text.append(ln.strip())
    # a label may wrap onto the next line ("… **Verdict:" / "fixed-by-me.**")
    joined = " ".join(text)
    return any(_RESOLVED.search(m["v"]) for m in _SETTLED_LABEL.finditer(joined)) or bool(
        text and _ANSWER_LABEL.search(" ".join(text[:2])) and not _reopened(joined))


# the fix of an item told as done, in the past tense or as what the code now does
# ("**Fix.** Added both kinds to the ignore-list", "- **Fix**: Changed to `verify: .all`",
# "Fix applied: the loader now checks the size"); "**Fix:** Add a guard" proposes one
_DONE_VERBS = (r"(?:added|removed|replaced|changed|updated|moved|renamed|wrapped|switched|"
               r"guarded|rewrote|reworked|dropped|deleted|corrected|extracted|refactored|"
               r"implemented|introduced|fixed|committed|merged)")
_FIX_DONE = re.compile(
    r"^[\s>*_-]*(?:fix(?:ed)?|fix\s+applied|applied\s+fix|resolution|change\s+made)[\s*_]*"
    r"[.:\u2014\u2013-][\s*_]*(?:" + _DONE_VERBS + r"\b|(?:[\w`.'-]+\s+){1,3}now\s+(?!needs?\b|"
    r"has\s+to\b|must\b|should\b)\w+)", re.I)


# the line a review bot appends to its own comment once a commit answers it, anywhere in
# the comment ("✅ Addressed in commit 6ed72f8", "✅ Addressed in commits c371cce to ec989ea")
_BOT_ADDRESSED = re.compile(
    r"^[ \t>]*\u2705\s*Addressed\s+in\s+(?:commits?\s+)?\[?`?[0-9a-f]{7,40}\b", re.I)


# the first line of a body that says, in another language, that the item was fixed: after a
# fixed mark or alone and short ("> ✅ behoben (Commit a16c5ee)", "> 已修复（提交 6933dfa）",
# "**수정 완료** — 커밋 1a2b"); an English word alone opens a sentence ("Fixed width …")
_SETTLED_LEAD = re.compile(r"^[\s>*_`]{0,8}(?P<m>(?:\u2705|\u2714\ufe0f?)\s*[*_]*\s*)?"
                           r"(?P<w>[^\W\d_][^\n]{0,80})$")
_ENGLISH_SETTLED = re.compile(r"(?:resolved|fixed|addressed|closed|completed|already|no\s+longer|"
                              r"clarified|withdrawn|won|accepted|by\s+design|superseded)\b", re.I)


def _settled_intl(line: str) -> bool:
    m = _SETTLED_LEAD.match(line.strip())
    if m is None or not _RESOLVED.match(m["w"]):
        return False
    return bool(m["m"]) or not _ENGLISH_SETTLED.match(m["w"]) and len(m["w"]) <= 60


def _says_nothing_wrong(line: str) -> bool:
    """A line that praises, passes a check or says none (no template, no tally)."""
    h = re.sub(r"^\s*(?:[-*+]|\d{1,3}[.)])\s+", "", line.strip())
    if _NONE_RE.match(h) or _NONE_MORE.match(h) or _POSITIVE_MARK.match(h) \
            or _TRAILING_CHECK.search(h):
        return True
    first = re.split(r"(?<=[.!])\s", _plain(h), maxsplit=1)[0].strip()
    return bool(_PRAISE.search(first)) and not _lead_tag(h)


# a count of findings by severity, not a finding: "Critical: 1", "**High issues** — 0",
# "3 minor", "P1: 2 (see below)", "🔴 Blockers: 0"
TALLY_CAP = 300  # characters of a line tried as a tally (its runs of spaces backtrack)
# a count of findings per severity ("Critical: 2", "2 minor", "- :warning: 9 major" behind
# an emoji shortcode): a tally, not a finding
_TALLY = re.compile(
    r"^[^\w]*(?::[a-z][a-z0-9_+-]{1,30}:\s*)?(?:(?:" + SEVERITY_WORD
    + r")s?(?:\s+(?:severity|priority|issues?|findings?|"
    r"problems?|concerns?|items?|violations?))?[*_`\s]*(?:[:=\u2014\u2013-]|\|)[*_`\s]*\d{1,5}"
    r"|\d{1,5}[*_`\s]+(?:" + SEVERITY_WORD + r")s?(?:\s+(?:issues?|findings?|problems?|"
    r"concerns?|items?|violations?))?)(?:\s+(?:issues?|findings?|problems?|concerns?|items?))?"
    r"[*_`\s.]*(?:\([^()\n]{0,80}\))?[*_`\s.]*$", re.I)


# ... several counts on one line, or a count left blank in a form: "Critical: 1, High: 0,
# Medium: 0, Low: 24", "Major: `TBD`", "High: N/A"
_TALLY_COUNT = (r"(?:" + SEVERITY_WORD + r")s?[*_`\s]*[:=][*_`\s]*(?:\d{1,5}|tbd|n/?a|\?|"
                r"[-\u2014\u2013])[*_`\s]*")
_TALLIES = re.compile(r"^[^\w]*" + _TALLY_COUNT + r"(?:[,;/|]\s*" + _TALLY_COUNT + r"){0,7}"
                      r"[.\s]*$", re.I)


# a static-analysis tool's annotation a bot quotes under its comment ("[warning] 43-43:
# path#L43"): the tool's words, not a finding of the reviewer's
_TOOL_NOTE = re.compile(r"^[\s*_`]*\[(?:warning|error|notice|failure|info)\]\s+\d{1,7}"
                        r"(?:-\d{1,7})?\s*:", re.I)


def _badge_titled(lines: list[str]) -> bool:
    """A comment that opens with a severity badge line and a bold title under it."""
    body = [ln for ln in lines[:12] if ln.strip()]
    return len(body) >= 2 and _badge_only(body[0]) and badge_severity(body[0]) is not None \
        and not re.match(r"^[\s*_]*[^\s*_:][^:\n]{0,40}?[*_]*[:\uff1a]", body[0]) \
        and any(re.match(r"^\s*\*\*[^*\n]{3,300}[^*:\uff1a\n]\*\*\s*\.?\s*$", ln)
                for ln in body[1:4])


_BOLD_LEAD = re.compile(r"^\s*(?:\*\*|__)(?P<t>[^*_\n]{3,300}?)(?:\*\*|__)\s*[:.\u2014\u2013-]?\s*")


def _bold_then_place(lines: list[str]) -> tuple[str, str, int] | None:
    """A paragraph that opens with a bold title, wrapped over up to three lines or not,
    followed at once by a place with a line: (the title with that place, the rest of
    the line the title ends on, the lines used)."""
    if not lines or not re.match(r"^\s*(?:\*\*|__)\S", lines[0]):
        return None
    joined = ""
    for n, ln in enumerate(lines[:3], 1):
        joined = (joined + " " + ln.strip()).strip()
        m = _BOLD_LEAD.match(joined)
        if m is None:
            continue
        if m["t"].rstrip().endswith((":", "\uff1a")) or _FIELD.match(joined):
            return None  # "**File:** `a.py:3`": a field, not a title
        rest = joined[m.end():]
        loc = locate(rest[:200])
        if loc is None or loc.line is None or loc.start > 2:
            return None
        return m["t"].strip() + " " + rest[:loc.end], rest[loc.end:].strip(" .,:;\u2014-"), n
    return None


def _opens(line: str, kind: str, located: bool = True) -> bool:
    """A paragraph line that opens a finding: a severity tag at its start, or (``located``:
    at the paragraph's start or after another head) a location."""
    s = line.strip()
    if not s or s.startswith(("|", ">")) or _FIELD.match(s) or _field_item(s):
        return False
    if _skip_head(s):
        return False
    if _lead_tag(_no_code(s)) and not _BADGES[0].match(s.lstrip("*_` ")):
        return True
    if kind != "findings" and (lead := _IN_PATH_LEAD.match(s)) is not None \
            and not _CHANGE_LEAD.match(s[lead.end():]):
        return True  # '"In src/seq/01-intro.js, Step 1 has a typo ..."': a plain finding
    if not located:
        # "src/a.py:12 - the loop never ends" on a line of its own inside a paragraph, as a
        # terminal prints one finding a line: its place, a dash, what is wrong
        pm = _PLACE_DASH.match(s)
        return pm is not None and (loc := locate(pm["p"])) is not None and loc.line is not None
    if kind == "findings" and _ITEM_NUMBER.match(s) and locate(s) is not None:
        return True  # "**2.** text (a.py:3)": an enumerated finding
    if kind == "findings" and _aside_severity(s) is not None:
        return True  # "**1. Session fixation** (심각도: 높음)": a numbered title, its severity
    t = re.sub(r"^[^\w\[(`*./~]+", "", _ITEM_NUMBER.sub("", s))
    t = _ID_LEAD.sub("", re.sub(r"^[*_`]+", "", t), count=1)
    loc = locate(t[:300])
    if loc is not None and loc.line is not None and loc.start <= 2:
        return True
    if _FILE_LINES.match(t[:300]):
        return True  # "**Billing.cs violations at lines:** 41, 44, 101"
    return bool(re.match(r"^[^:]{1,60}\s::\s", s)) and loc is not None


_PLACE_DASH = re.compile(r"^(?:\d{1,3}[.)]\s+)?[`*_]*(?P<p>[\w.][\w./\\-]{0,200}\.[A-Za-z]"
                         r"[A-Za-z0-9]{0,9}:\d{1,7}(?:[-\u2013]\d{1,7})?)[`*_]*\s+[\u2014\u2013-]\s+"
                         r"[^\W\d_]")


# a plain sentence that opens with the file it is about, a file with a directory ("In
# src/seq/01-intro.js, Step 1 has a typo", quoted or not)
_IN_PATH_LEAD = re.compile(
    r"^[\"'\u201c(]?\s*In\s+`?(?P<p>[\w.][\w.\\-]*[/\\][\w./\\-]*\.[A-Za-z][A-Za-z0-9]{0,9})`?"
    r"\s*,\s+(?=\S)")


# a plain line that opens with the file it faults ("store.py: several jobs in one module",
# "main.zig (lines 36-63): loading mixed with parsing"), or a title that ends with its place
# over the details listed under it ("Retries never stop (store.py:83-120):")
_FILE_LEAD = re.compile(
    r"^[*_`]*(?P<f>[\w.][\w./\\-]{0,200}\.[A-Za-z][A-Za-z0-9]{0,9})[*_`]*"
    r"(?:\s*\((?:lines?\s*)?\d{1,7}(?:\s*[-\u2013,]\s*\d{1,7})*\))?:\s+(?P<t>\S.*)$", re.I)
# a lead-in of a few words ending with a colon that names one file and no line ("Looking
# at `src/store.py`:", "Problems in store.py:")
_LEAD_IN_FILE = re.compile(r"^[\s*_>]*(?P<t>[^:\n]{3,120}?)[\s*_]*:[\s*_]*$")


def _lead_in_file(line: str) -> str | None:
    m = _LEAD_IN_FILE.match(line)
    if m is None or len(m["t"].split()) > 8 or _FIELD.match(line) or key_of(line) is not None:
        return None
    f = _first_file(m["t"])
    if f is None or not _EXT_RE.search(f) or locate(m["t"]) is not None:
        return None
    rest = _strip_decor(m["t"].replace(f, " ", 1))
    if _first_file(rest) is not None or re.search(r"\d", rest):
        return None
    return clean_path(f)


# a file's own state or mark under its name ("Status: ✅ GOOD", "Grade: 8/10")
_FILE_STATUS = re.compile(r"^\s*[*_]*(?:status|grade|score|rating)[*_]*\s*:", re.I)
# an item that says what a change did ("Added retries to the upload"), not what is wrong
_CHANGE_LEAD = re.compile(
    r"^[\s*_`]*(?:added|removed|updated|renamed|refactored|moved|created|implemented|"
    r"introduced|replaced|changed|fixed|extracted|deleted|bumped|adds|removes|updates)\b", re.I)
# a short title line ending with a colon ("Magic numbers throughout:")
_SHORT_TITLE = re.compile(r"^\s*[^\W\d_][^:\n`|]{2,60}:\s*$")
_TITLE_PLACE = re.compile(r"^[*_]*(?P<t>[^\W\d_][^()\n]{2,150}?)\s*\((?P<p>[^()\n]{3,200})\)"
                          r"[*_]*\s*:\s*$")


def _file_lead(line: str) -> bool:
    """A plain-text finding's opening line by its look: its file first, then what is
    wrong there in three words or more; or a title ending with its place and a colon."""
    s = line.strip()
    m = _FILE_LEAD.match(s)
    if m is not None:
        return _pathlike(m["f"]) and "://" not in s[:m.end("f") + 3] \
            and len(re.findall(r"[^\W\d_]{2,}", m["t"])) >= 3 and not _FIELD.match(s)
    t = _TITLE_PLACE.match(s)
    if t is None or _FIELD.match(s):
        return False
    loc = locate(t["p"])
    return loc is not None and loc.line is not None and len(re.findall(r"[^\W\d_]{2,}",
                                                                     t["t"])) >= 2


def _item_head(item: SyntaxTreeNode) -> str:
    first = item.children[0] if item.children else None
    if first is None or first.type != "paragraph":
        return ""
    return _text(first).split("\n")[0]


# a bold numbered (or id'd) title and its severity in an aside, in any language of the
# tables: "**1. Session fixation** (Severity: High)", "**2. 권한 누락** (심각도: 높음)"
_TITLE_ASIDE = re.compile(r"^\s*(?:\*\*|__)(?P<t>[^*\n]{3,200}?)(?:\*\*|__)\s*"
                          r"[(\uff08](?P<a>[^()\uff08\uff09\n]{1,40})[)\uff09][\s.\u3002]*$")


def _aside_severity(line: str) -> str | None:
    """The severity the aside of a bold numbered title names (see :data:`_TITLE_ASIDE`)."""
    m = _TITLE_ASIDE.match(line)
    if m is None or not (re.match(r"^\d{1,3}[.)]\s", m["t"].strip())
                         or _FINDING_ID.match(_plain(m["t"]))):
        return None
    a = m["a"].strip()
    f = re.match(r"^(?P<k>[^:\uff1a]{1,20})[:\uff1a]\s*(?P<v>.+)$", a)
    if f is not None:
        k = f["k"].strip().lower()
        if k not in ("severity", "priority") and not SEVERITY_KEY_RE.match(k):
            return None
        a = f["v"]
    w = _SEV_WORD_RE.search(a)
    return severity_word(w["w"]) if w else severity.lead_severity(a)


def _sub_points_place(para: _Para, node: SyntaxTreeNode) -> Location | None:
    """The place of a finding written as a bold title of its own (with a severity tag or a
    finding id, and no place: ``**Minor 1: …**``, ``**[M2] …**``, ``**1. … ** (심각도: 높음)``)
    over a list of its sub-points: the place the list's first item opens with, or gives
    in a place field (``- 파일: `a.ts:33```); None when the title has a place of its own,
    is no finding's title, or its list opens otherwise (then its items are read as before)."""
    head = para.head.strip()
    m = re.match(r"^\s*(?:\*\*|__)(?P<t>[^*\n]{3,200}?)(?:\*\*|__)(?P<rest>[^*\n]{0,60})$", head)
    if m is None or locate(head) is not None or _first_file(head) or para.rest:
        return None
    title, rest = m["t"].strip(), m["rest"].strip(" :.\u3002")
    if rest and not re.match(r"^[(\uff08][^()\uff08\uff09]{1,40}[)\uff09]$", rest):
        return None  # "**Title** — then a sentence": a paragraph of its own
    if not (_lead_tag(title) or _FINDING_ID.match(_plain(title)) or _PRIORITY_ID.match(title)
            or re.match(r"^\d{1,3}[.)]\s", title) or re.match(r"^\[[A-Z]{1,3}\d{1,3}\]", title)):
        return None
    if _sev_label(title) is not None or _is_label(title):
        return None  # "**Critical issues**": a group over findings
    items = [c for c in node.children[:MAX_BODY] if c.type == "list_item"]
    if not items:
        return None
    first = _item_head(items[0])
    fm = _FIELD.match(first)
    if fm and fm["v"].strip():
        k = fm["k"].lower()
        if k in ("location", "file", "path", "where") or PLACE_KEY_RE.match(k):
            return locate(fm["v"]) or (Location(f) if (f := _first_file(fm["v"])) else None)
        return None
    if not _opens_item(first) or _lead_tag(_no_code(first)):
        return None  # a tagged item is a finding of its own
    t = re.sub(r"^[*_`]+", "", re.sub(r"^[^\w\[(`*./~]+", "", _ITEM_NUMBER.sub("", first.strip())))
    return locate(_ID_LEAD.sub("", t, count=1)[:300])


def _opens_item(head: str) -> bool:
    """A list item that is a finding by its own look: a severity tag, or a location with a
    line at its start."""
    if not head.strip() or _skip_head(head):
        return False
    if _lead_tag(_no_code(head)):
        return True
    t = re.sub(r"^[*_`]+", "", re.sub(r"^[^\w\[(`*./~]+", "", _ITEM_NUMBER.sub("", head.strip())))
    loc = locate(_ID_LEAD.sub("", t, count=1)[:300])
    return loc is not None and loc.line is not None and loc.start <= 2


def _badge_only(line: str) -> bool:
    """A line that is only a severity badge ("_⚠️ Potential issue_ | _🟡 Minor_")."""
    if badge_severity(line) is None:
        return False
    t = re.sub(r"!\[[^\]\n]*\]\([^)\n]*\)|<[^>\n]{1,40}>|_[^_\n]{1,40}_|\b[Pp][0-4]\s+Badge\b", " ",
               line)
    t = re.sub(r"(?i)potential\s+issue|\*\*(?:critical|high|medium|low)\s+severity\*\*", " ", t)
    return not re.search(r"[A-Za-z]{3,}", t)


badge_only = _badge_only  # for the JSON reader: a comment body's badge line
lead_tag = _lead_tag  # and its leading tag ("**P1** the pool is leaked")


def _location_only(head: str) -> bool:
    loc = locate(head)
    if loc is None:
        return False
    rest = head[:loc.start] + head[loc.end:]
    rest = _ITEM_NUMBER.sub("", rest.strip())
    rest = re.sub(r"^\s*(?:[\[(][^\])\n]{1,30}[\])]\s*)+", "", rest)
    rest = re.sub(r"^[^:]{1,60}\s::\s*$|[#*_`\s:,\-\u2014\u2013]+|\[bot\]|\b(?:lines?|at|in)\b", "",
                  rest)
    return not rest.strip() or "::" in head


def _file_group(head: str, rest: list[str], nested: list[SyntaxTreeNode]) -> str | None:
    """The file of a list item that is only a file (``- `src/a.ts` ``) over a list that
    states the file's verdict or groups findings under severity labels; else None."""
    if rest or not nested:
        return None
    f = _first_file(head)
    if f is None or re.search(r"[^\W_]", _strip_decor(head.replace(f, " ", 1).replace(
            f.rsplit("/", 1)[-1], " ", 1))):
        return None
    heads = [_item_head(it) for sub in nested for it in sub.children[:MAX_BODY]]
    if any(words.verdict_keys(h) for h in heads) or sum(
            1 for h in heads if _sev_label(h) is not None) >= 1 and any(
            _lead_tag(h) is None and _sev_label(h) is None for h in heads):
        return f
    return None


def _bare_place(head: str) -> bool:
    """An item that is only a place (``- `a.py:204-209` ``), no words of its own."""
    loc = locate(head)
    if loc is None or loc.line is None:
        return False
    rest = _ITEM_NUMBER.sub("", (head[:loc.start] + " " + head[loc.end:]).strip())
    # (more lines of the same file are still only the place: "`a.py:7, 135`")
    return not re.sub(r"[\W\d_]+|\b(?:lines?|and|at|in|see|cf)\b", "", rest, flags=re.I)


_FIELD_ITEM = re.compile(
    r"^\s*(?:\*\*|__)?[A-Za-z][\w /()'-]{0,28}?(?::(?:\*\*|__)|(?:\*\*|__):)\s*")


# a field item whose bold key is in Chinese, Japanese or Korean ("**触发场景**：…")
_INTL_FIELD_ITEM = re.compile("^\\s*(?:\\*\\*|__)[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]"
                              "[^*_\\n:\uff1a]{0,15}(?:\\*\\*|__)\\s*[:\uff1a]")


def _evidence_key(head: str) -> bool:
    """The key of a field item (``**Trigger**: …``, ``**触发场景**：…``, ``**Evidência:**``)
    that is neither a place, a severity nor a findings word: what its nested list holds
    is evidence of the finding it belongs to."""
    m = re.match(r"^[\s*_`]*(?P<k>[^*_`:\uff1a\n]{1,30}?)[\s*_`]*[:\uff1a]", head)
    if m is None:
        return False
    k = m["k"].strip().lower()
    return not (k in ("location", "locations", "file", "files", "path", "paths", "where")
                or PLACE_KEY_RE.match(k) or SEVERITY_KEY_RE.match(k) or severity_word(k)
                or _FINDINGS.search(k) or _sev_label(k) is not None)


def _field_item(head: str) -> bool:
    """``**Author:** x`` / ``**Issue**: y``: a field of something, not a finding."""
    return bool(_FIELD_ITEM.match(head)) and not _lead_tag(head)


_META_KEY = re.compile(
    r"^(?:author|date|time|reviewer|reviewed\s+by|version|commit|branch|pr|url|link|id|title|"
    r"scope|files?|model|mode|owner|assignee|labels?|created|updated|total|count|score|"
    r"estimate|effort|eta|phase|target|type|category|tags?|issue|problem|impact|fix(?:\s+"
    r"required)?|required\s+fix|risk|description|details?|evidence|recommendations?|"
    r"suggestions?|cause|root\s+cause|why|solution|location|severity|effect|consequences?|"
    r"notes?|action|proposal|expected|actual|rationale|reason|concern|finding|"
    r"mitigation|remediation|test|tests|status|result|overall|bottom\s+line|takeaway|"
    r"assessment|caveats?|assumptions?|praise|positives?|strengths?|next|outcome)$", re.I)


# a record's field that says what to do, its title when none says what is wrong
_RECORD_TEXT = re.compile(r"^[\s*_]{0,8}(?:suggestion|recommendation|message|comment|note)"
                          r"[\s*_]{0,8}[:=\uff1a][\s*_]{0,8}(?P<v>.*)$", re.I)


def _field_record(lines: list[str]) -> bool:
    """Lines that are each a field (``**File:** a.py``, ``Line: 40``, ``**Issue:** …``; a
    line may hold several: ``File: a.py, Line: 40``), with a file among them and its line or
    severity: a record of one finding, with no title of its own."""
    if not 2 <= len(lines) <= MAX_BODY:
        return False
    for ln in lines:
        m = _FIELD_ITEM.match(ln) or re.match(r"^\s*[A-Za-z][\w /()'-]{0,28}?\s*:\s", ln)
        if m is None:
            return False
        key = re.sub(r"[*_:\s]+$", "", m.group(0)).strip(" *_").lower()
        if not (_FIELD.match(ln) or _META_KEY.match(key)):
            return False
    fields = _fields(lines)
    where = fields.get("file", "")
    # (a place alone, "File: a.py" / "Lines: 10-14", says nothing is wrong there)
    return bool(where) and (locate(where) is not None or _first_file(where) is not None) \
        and ("severity" in fields or "priority" in fields
             or any(_TEXT_FIELD.match(ln) for ln in lines))


def _record_line(line: str) -> bool:
    """``File: a.py, Line: 40, Severity: high``: a line of fields naming a severity."""
    if len(_RECORD_SPLIT.split(line[:2000])) < 2:
        return False
    fields = _fields([line])
    return "file" in fields and ("severity" in fields or "priority" in fields)


def _titled_item(head: str) -> bool:
    """``**Scope collision:** the plan says ...``: a finding's title and its prose, in a
    findings section (a field would be a known key, or a short value)."""
    m = _FIELD_ITEM.match(head)
    if not m:
        return False
    key = _plain(head[:m.end()]).strip(" :")
    value = head[m.end():]
    if re.match(r"^(?:for|re|about|regarding|on|to)\b", key, re.I):
        return False  # "**For the race condition:** ...": an answer to a finding above
    other = _OTHER.match(key)
    return len(re.findall(r"[^\W\d_]{2,}", value)) >= 6 and not (
        _META_KEY.match(key) or other and other.end() == len(key) or _BODY_PART.match(key + ":")
        or _FIELD.match(head) or _POSITIVE.search(key) or _QUESTIONS.search(key))


# "CRITICAL: None", "**High:** none found": a severity label and its (empty) value
_EMPTY_GROUP = re.compile(r"^[\s*_]*(?P<k>[^\W\d_][\w /-]{1,38}?)[\s*_]*:[\s*_]*(?P<v>.*)$")


# the columns of a status table: an item's id and its status
_ID_COLUMNS = frozenset(("#", "id", "no", "no.", "nr", "item", "finding", "issue", "ref"))
_STATUS_COLUMNS = frozenset(("status", "state", "resolution", "outcome", "result"))
# an item's own status line ("**Status**: ✅ Acceptable", "- Status: done")
# (or its advice: "**建议**：" then "可以接受，但……", acceptable but do this: a field of that
# finding, not the review's vote)
_ITEM_STATUS_KEY = re.compile(
    r"^[\W_]*status\b|^[\W_]*(?:\u5efa\u8bae|\u5efa\u8b70)[*_\s]*[:\uff1a]", re.I)
# "# Review: APPROVED", "# Code Review — Changes requested": a title that is the verdict
_REVIEW_VERDICT_TITLE = re.compile(
    r"^(?:[\w'-]+\s+){0,3}review\s*(?:[:\u2014\u2013]|\s-\s)\s*(?P<v>.{2,60})$", re.I)
# a heading that is one item of a list of them ("1. dialog.tsx", "Decision 2: …", "#3 …",
# "Commit 4", "P2.7 …"), whose verdict or status is that item's; not a round ("Round 2", "Pass 3")
# nor a reviewer ("Reviewer 2")
_ITEM_HEAD = re.compile(
    r"^(?:\d{1,3}[.)]\s|#\d{1,4}\b|(?-i:[A-Z]{1,3}\d{1,2}\.\d{1,3})\s|(?:decision|issue|item|finding|commit|task|step|phase|"
    r"change|pr|requirement|criterion|criteria|check|question|file|module|component|"
    r"feature|story|ticket|part|section)\s*#?\d{1,4}\b)", re.I)
# the clause after a heading's dash: "— fixed in this PR", "—— 本 PR 已修复", "– resolved"
_DASH_TAIL = re.compile(
    r"(?:\s[\u2014\u2013]{1,2}\s*|[\u2014]{2}\s*|\s--\s)(?P<t>[^\u2014\u2013]{1,40})$")


# a header line that closes every finding of the document ("> **Status: all findings
# resolved in 2aa58fb.**", "CLOSED — all findings resolved", "All issues from round 1
# addressed"), never a partial one ("all but two findings resolved", "not all issues fixed")
_CLOSED_ALL = re.compile(
    r"(?<!\bnot\s)\b(?:all|every)\s+(?:[\w-]+\s+){0,3}?(?:findings?|issues?|items?|comments?|"
    r"concerns?|problems?|bugs?|defects?|points?)\b[^.;\n]{0,40}?\b(?:(?:are|were|have\s+been|"
    r"has\s+been|is|now)\s+)?(?:resolved|addressed|fixed|closed)\b", re.I)
# ... and what says some are still open, on that line or in a heading of the document
_OPEN_LEFT = re.compile(
    r"\b(?:but|except|remaining|remains?|still|pending|partial(?:ly)?|partly|new|open|"
    r"outstanding|unresolved|regress\w*|reopened|not\s+(?:yet\s+)?(?:fixed|resolved|"
    r"addressed))\b", re.I)
# ... or the header's own status field ("**Status:** RESOLVED", "Status: CLOSED — fixed in
# 4f2a", "> Resolution: won't fix"); "Status: Complete" is a review's, not its findings'
_CLOSED_STATUS = re.compile(
    r"^[\s>*_]*(?:status|state|resolution)[\s*_]*:[\s*_]*(?:\u2705\s*)?[*_]*(?:resolved|closed|"
    r"fixed|addressed|won'?t\s+fix|superseded|no\s+longer\s+applies)\b", re.I)
CLOSED_HEAD_LINES = 30  # lines of a document's header read for a status that closes it


# the parts of a write-up of a problem that was solved ("## Problem", "## Root Cause")
_POSTMORTEM_PART = re.compile(
    r"^(?:the\s+)?(?:problems?|issues?(?:\s+in\s+detail)?|root\s+causes?|symptoms?|"
    r"investigation|what\s+happened|why\s+(?:this|it)\s+happened)\s*:?\s*$", re.I)
# ... its solution, told as applied: a heading, then a line in the past tense
_SOLUTION_HEAD = re.compile(
    r"^#{2,6}\s+[\W\d_]*(?:the\s+)?(?:solution|resolution|fix(?:es)?\s+applied|the\s+fix|"
    r"how\s+it\s+was\s+fixed)\b[^\n]{0,40}$", re.I)
_DONE_LINE = re.compile(
    r"^[\s>*_-]*(?:\d{1,2}[.)]\s*)?" + _DONE_VERBS + r"\b|\b(?:were|was)\s+(?:fixed|resolved|"
    r"removed|replaced|added|changed|rewritten)\b|\bcommitted\b|\bbatch-resolved\b", re.I)
SOLUTION_SCAN = 40  # lines under a solution heading read for a fix told as done


def _fixed_levels(src: list[str]) -> set[int]:
    """The heading levels of the document's solution sections that tell their fix as done
    (a line in the past tense within SOLUTION_SCAN lines): a write-up of solved problems."""
    levels: set[int] = set()
    fenced = False
    for i, ln in enumerate(src):
        if ln.strip().startswith(("```", "~~~")):
            fenced = not fenced
        if fenced or not _SOLUTION_HEAD.match(ln.strip()):
            continue
        level = len(ln.strip()) - len(ln.strip().lstrip("#"))
        if any(_DONE_LINE.search(x) for x in src[i + 1:i + 1 + SOLUTION_SCAN]):
            levels.add(level)
    return levels


def _closes_all(src: list[str]) -> bool:
    """The document's header (the lines before its first section heading) says every
    finding is settled, and no line of it nor any heading says some are still open."""
    closed = False
    fenced = False
    for i, ln in enumerate(src):
        s = ln.strip()
        if s.startswith(("```", "~~~")):
            fenced = not fenced
        if fenced:
            continue
        if re.match(r"#{2,6}\s", s) or i >= CLOSED_HEAD_LINES:
            break
        if _CLOSED_ALL.search(s) or _CLOSED_STATUS.match(s):
            if _OPEN_LEFT.search(s):
                return False
            closed = True
    if not closed:
        return False
    fenced = False
    for ln in src:
        if ln.strip().startswith(("```", "~~~")):
            fenced = not fenced  # "# (Note: ...)" in a shell block is a comment, no heading
        elif not fenced and re.match(r"\s{0,3}#{1,6}\s", ln) and _OPEN_LEFT.search(ln) \
                and not _settled_section(_plain(ln.strip(" #"))):  # "### New … addressed"
            return False
    return True


def _settled_tail(plain: str) -> bool:
    """The heading ends, after a dash, in a short clause that says it was settled
    (fixed, resolved, addressed) and does not say partly or not yet."""
    m = _DASH_TAIL.search(plain)
    return m is not None and bool(_RESOLVED.search(m["t"])) and not _OPEN_WORDS.search(m["t"])


def _sev_label(head: str) -> str | None:
    """The severity of an item that only names one ("- **Medium**", "- High priority:")."""
    t = _plain(head).strip(" :")
    if not t or len(t) > 40 or not _is_label(t):
        return None
    is_bucket, sev = bucket(t)
    if is_bucket:
        return sev or ""  # "Other notes:": findings follow, of no severity
    return heading_severity(t)


# an item marked as failing or warned (a checklist's cross, a warning sign), before or after
# a bold dimension: "❌ **Tests**: ...", "**Testing** ⚠️ Needs work: ...", "✗ no rollback"
_PROBLEM_MARK = re.compile(
    r"^[\s*_`]*(?:(?:\*\*|__)[^*_\n]{1,40}(?:\*\*|__)\s*)?(?:\u274c|\u26a0\ufe0f?|\U0001f6ab|"
    r"\u26d4|\u2717|\u2718)\s*")
# an item whose bold lead names a problem's kind and its title ("**Risk: Vendor lock-in:**",
# "**Gap: No rollback**:"): a finding, not a field
_KIND_TITLE = re.compile(
    r"^[\s*_]*(?:\*\*|__)(?:risk|gap|issue|concern|problem|weakness|flaw|bug|defect)\s*[:\uff1a]"
    r"\s*[^*_:\n]{3,120}?(?:[:\uff1a]\s*(?:\*\*|__)|(?:\*\*|__)\s*[:\uff1a])", re.I)


def _is_item_finding(head: str, rest: list[str], kind: str, depth: int,
                     under_cand: bool = False) -> bool:
    if _skip_head(head) or not head.strip():
        return False
    if _KIND_TITLE.match(head):
        return True  # "**Risk: Vendor lock-in:** the plan ...": a finding by its kind
    if kind != "other" and _PROBLEM_MARK.match(head) and re.search(
            r"[^\W\d_]{3,}", _PROBLEM_MARK.sub("", head, 1)):
        return True  # "- ❌ **Tests**: no test covers ...", "- ⚠️ Error handling: ...": marked
    if kind == "neutral" and depth == 0 and not under_cand and _title_place(head):
        return True  # "1. **Boot entries never rotate (`main.go:391`):** the map …"
    if (_FIELD.match(head) or _field_item(head)) and not _lead_tag(head):
        if kind == "neutral" and depth == 0 and not under_cand and not _FIELD.match(head) \
                and (loc := locate(head[:600])) is not None and _tail_place(head, loc):
            return True  # "1. **Too much text**: every page is a long list (deck.py:57)."
        return kind == "findings" and depth == 0 and not under_cand and _titled_item(head)
    if _lead_tag(_no_code(head)):
        return True
    t = re.sub(r"^[^\w\[(`*./~]+", "", _ITEM_NUMBER.sub("", head.strip()))
    t = _ID_LEAD.sub("", re.sub(r"^[*_`]+", "", t), count=1)
    loc = locate(t[:300])
    if loc is not None:
        words_left = _strip_decor(t[:loc.start] + t[loc.end:])
        if not re.search(r"[^\W_]", words_left) and loc.line is None:
            return False  # a bare path: a list of files, not a finding
        if loc.start <= 2 and (loc.line is not None or kind == "findings"):
            return True
        if loc.line is not None and kind == "findings" and not under_cand:
            return True
        if kind == "neutral" and depth == 0 and not under_cand and _tail_place(t, loc):
            return True  # "1. Boxes overflow: ... fixed height (deck.py:1205).": plain text
    if kind == "findings" and depth == 0 and not under_cand:
        if re.match(r"^[\s*_`]*[^:]{1,40}:\s*$", head) and not rest:
            return False  # "Details:" opening a nested list
        f = _first_file(head)
        return not (f and not re.search(r"\w{2,}", _strip_decor(head.replace(f, ""))))
    return False


# an item's bold title that ends with the place it faults, in brackets, before the colon
# that opens its text: "**Boot entries never rotate ([`main.go:391`](file:///…#L391)):**"
_BOLD_TITLE_PLACE = re.compile(
    r"^\s*(?:\*\*|__)(?P<t>[^*_\n]{3,150}?)\s*\((?P<p>(?:[^()\n]|\([^()\n]{0,600}\)){3,900}?)\)"
    r"\s*[:\uff1a]?\s*(?:\*\*|__)\s*[:\uff1a]?")


def _title_place(head: str) -> bool:
    """An item titled in bold by what is wrong, its place in brackets closing the title."""
    m = _BOLD_TITLE_PLACE.match(head)
    if m is None or _POSITIVE.search(m["t"]) or _CHANGE_LEAD.match(m["t"]):
        return False
    loc = locate(m["p"])
    return loc is not None and loc.line is not None and len(
        re.findall(r"[^\W\d_]{2,}", _no_code(m["t"]))) >= 2


# what may follow an item's place when the place closes the item: more places (links or
# ``path:line`` words) and closing punctuation, ASCII or full-width
_TAIL_REST = re.compile(
    r"^(?:\s*[,;\u3001\uff0c]\s*(?:\[[^\]\n]{1,400}\]\([^)\s]{1,400}\)|`?[\w./\\-]{1,300}:\d{1,7}"
    r"(?:-\d{1,7})?`?))*[\s)\]\uff09\u3011\u3002.;:,!`*_]*$")
def _tail_place(text: str, loc: Location) -> bool:
    """A plain list item that ends with the place it faults: a sentence of its own words,
    then the place (in brackets, after a dash, or as a link), then nothing but other places
    and closing punctuation ("1. Boxes overflow: the height is fixed (deck.py:1205).")."""
    if loc.line is None or _CHANGE_LEAD.match(text):
        return False
    label = re.match(r"^[^:\uff1a\n]{1,40}[:\uff1a]", _strip_decor(text))
    if label is not None and _POSITIVE.search(label.group(0)):
        return False  # "- Strengths: one palette for every page (deck.py:20)": praise
    if sum(1 for c in _strip_decor(text[:loc.start]) if c.isalpha()) < 8:
        return False  # "- a.py:3", "- see b.py:4": a place, not a finding's own words
    return bool(_TAIL_REST.match(text[loc.end:]))


def _is_inventory(plain: str, text: str) -> bool:
    """A heading over what was read, run or ruled out ("Files Reviewed", "Ruled Out")."""
    p = re.sub(r"^[\W\d_]+", "", plain)
    return bool(_INVENTORY.match(p)) and not (
        _FINDINGS.search(_INVENTORY.sub(" ", p, 1)) or _lead_tag(text) or locate(text) is not None)


def _is_section_name(plain: str) -> bool:
    """A heading made of a findings word and at most one other ("Review Comment")."""
    toks = [w for w in re.split(r"[\s:/,.&+()#'-]+", plain.lower()) if w]
    if len(toks) == 1 and _CJK_RUN.fullmatch(toks[0]) and len(toks[0]) <= 12 \
            and _FINDINGS.search(toks[0]):
        return True  # "新しい指摘", "各指摘の確認", "发现的问题": a short heading naming findings
    return len(toks) <= 2 and any(_FINDINGS.fullmatch(w) for w in toks)


# a heading that opens (after an id) with a file in code and a dash or colon before its title
_FILE_HEAD = re.compile(r"^[\s*_]*(?:[A-Za-z]{0,3}\d{1,3}[.):]?\s+)?[*_]*"
                        r"`(?P<p>[^`\s]{1,200})`[*_]*\s*(?:[\u2014\u2013:]|-\s)")


# a body that opens saying nothing is left ("No Critical or Warning findings remain in the
# final scope, and …"), not "No issues in the parser, but the retry loop leaks"
_NONE_REMAIN = re.compile(
    r"^[\s*_`]*no\s+(?:[\w-]+\s+){0,4}?(?:findings?|issues?|problems?|concerns?|blockers?)\s+"
    r"(?:remain(?:ing|s)?|(?:were\s+|was\s+)?(?:found|identified|raised))\b", re.I)
_NONE_BUT = re.compile(r"\b(?:but|however|except|although|though|yet)\b", re.I)


# a line of a tool's run that names no defect: a count ("Total lines scanned: 20,082",
# "Low severity: 26 (informational)") or what was run ("Custom rules executed", "Analysis
# completed on the contracts")
_RUN_LINE = re.compile(
    r"^[\s*_`]*(?:[^\W\d_][\w ()/.-]{0,40}?[*_`]*\s*[:=]\s*[*_`]*\s*\d[\d,.]*\s*%?[*_`]*\s*"
    r"(?:\([^()\n]{0,40}\))?[\s*_`.]*$|[^\n]{0,80}?\b(?:executed|completed|ran|run|performed|"
    r"scanned)\b[^\n]{0,80}$)", re.I)


def _clean_run(body: list[str]) -> bool:
    """The lines under a heading report a check's run and say nothing wrong: each is a
    check mark or a "none", a count, or what was run, and one at least passes or says none."""
    passed = False
    for ln in body[:MAX_BODY]:
        h = re.sub(r"^\s*(?:[-*+]|\d{1,3}[.)])\s+", "", ln.strip())
        if not h:
            continue
        if _says_nothing_wrong(h):
            passed = True
        elif not _RUN_LINE.match(h) or _PROBLEM_WORDS.search(h):
            return False
    return passed


# a section of work to come, in order or not: its items are steps, not findings
_PLAN_HEAD = re.compile(
    r"^(?:(?:recommended|suggested|proposed)\s+)?(?:next\s+steps?|"
    r"action\s+plan|roadmap|(?:work|fix|execution|implementation)\s+(?:order|steps|plan)|"
    r"order\s+of\s+work|timeline|milestones)\b", re.I)
# an item's own verdict line ("- **Recommendation:** **Approve with minor doc edits**.")
_ITEM_VOTE = re.compile(
    r"^[\s>*_-]*(?:recommendation|verdict|decision)[\s*_]*[:\uff1a][\s*_]*(?P<v>[^\n]{1,120})$",
    re.I)
# a heading that only says when: "Short Term", "Long-term", "Immediate", "This sprint"
_TIMING_HEAD = re.compile(
    r"^(?:immediate(?:ly)?|(?:short|medium|mid|long|near)[\s-]?term|later|this\s+(?:week|"
    r"sprint|month|quarter)|next\s+(?:week|sprint|month|quarter|release))\s*"
    r"(?:\([^()\n]{0,40}\))?\s*:?\s*$", re.I)
# a plan's step as a heading ("Step 3 — Fix domain validation", "Step 2:")
_STEP_HEAD = re.compile(r"^[\W_]*step\s*#?\d{1,3}[a-z]?\b(?!\s*(?:of|in)\b)", re.I)


def _qualifies(c: _Cand) -> bool:
    text = c.text
    if c.subs and all(k in ("resolved", "positive") for k in c.subs) and not (
            locate(text) is not None or _FINDING_ID.match(_plain(text))
            or _lead_tag(text) and not _is_label(re.sub(r"^[\W_]*P[0-4]\b", " ", text))
            and "resolved" not in c.subs):
        return False  # "## Bug fix validation" over "### ✅ Bug #1: fixed" ...: their group
    if _STEP_HEAD.match(_plain(text)) and locate(text) is None:
        return False  # "### Step 1 — Fix rollback safety (CRITICAL)": a step of a plan
    fields = _fields(c.body)
    badge = badge_severity(_no_code("\n".join(c.body[:8])))
    # a location field that names a file (not "Location: Section 8 - Endpoints")
    placed = bool(fields.get("file")) and (locate(fields["file"]) is not None
                                          or _first_file(fields["file"]) is not None)
    if c.name_only:
        return placed or badge is not None and c.file is not None
    if c.title:  # the document's title: a finding only when its fields place it
        return placed
    if not fields.get("file") and locate(text) is None and any(
            _DEFINING.match(ln) for ln in c.body[:MAX_BODY]):
        return False  # "### RULE-3: x" + "**Detects**: ...": a check's definition, not a finding
    if not _lead_tag(text) and not fields.get("severity") and any(
            _NONE_RE.match(_strip_decor(ln)) or _NONE_MORE.match(ln)
            for ln in c.body[:MAX_BODY] if ln.strip()):
        return False  # "### Feature flags" ... "No change request here.": a clean check
    body = [ln for ln in c.body[:MAX_BODY] if ln.strip()]
    if body and not _lead_tag(text) and not fields.get("severity") and locate(text) is None \
            and _NONE_REMAIN.match(body[0]) and not _NONE_BUT.search(body[0]):
        return False  # "## Narrative findings" over "No Critical or Warning findings remain …"
    if any(_PASSED_FIELD.match(ln) for ln in body[:6]) and not _lead_tag(text):
        return False  # "**Assessment**: [OK] Sound" under "### parser.md": a check passed
    if body and not fields.get("severity") and all(_says_nothing_wrong(ln) for ln in body):
        return False  # "### P1: Docs" over bullets that all praise or say none: no finding
    if body and not fields.get("severity") and not _lead_tag(text) and locate(text) is None \
            and _clean_run(body):
        return False  # "#### Bandit" over "High: 0 ✅", "Low: 26 (informational)": a clean run
    if _SCORE.search(text) and not _lead_tag(text) and locate(text) is None \
            and not any(_PROBLEM_WORDS.search(ln) for ln in body[:12]):
        return False  # "### Quality: 8/10" over "Readable code.": a scorecard's row
    if _lead_tag(text) or locate(text) is not None or _OWN_ASIDE.search(text):
        return True  # ... or "#### 2. Audio resampling (Priority: Low)": its own priority
    if (c.sev is not None or c.in_findings) and (m := _FILE_HEAD.match(text)) \
            and _pathlike(m["p"]):
        return True  # "### M1. `api/app.py` — the cache is never cleared": file-level
    if _FINDING_ID.match(_plain(text)) and (c.level > 1 or c.in_findings):
        return True
    if fields.get("file") or fields.get("severity") or fields.get("risk"):
        return True
    if badge and (c.file is not None or c.in_findings):
        return True
    body = [ln for ln in c.body if ln.strip()]
    return (c.in_findings or c.numbered) and bool(body)


# a line that leads in a list of findings ("Current findings:", "Top-5 concerns:")
# a finding's part that leads in its detail ("**Fix**: ...", "Evidence:", "Suggested fix -")
# a label naming the files a finding touches, alone over its list ("**Files Affected**:",
# "**Files Missing Validation**:", "**Affected files:**", "Locations:")
_PLACES_LABEL = re.compile(
    r"^\s*[*_]{0,2}(?:files?(?:\s+[^\W\d_]+){0,3}|(?:locations?|places?)(?:\s+(?:affected|"
    r"involved|concerned|touched))?|affected\s+(?:files?|locations?))\s*[:\uff1a]?\s*[*_]{0,2}"
    r"\s*[:\uff1a]\s*$",
    re.I)
# a bold label alone that ends in a colon ("**Risk**:", "**Files Affected:**",
# "**Example Failure Cases**:"): the name of a field over the list that follows
# a severity or place field of a finding ("**Severity**: High", "- **Location:** `a.py:3`")
_OWN_FIELD = re.compile(
    r"^\W*(?:severity|priority|location|file|files|path|line|lines)\s*[*_]*\s*[:\uff1a]", re.I)
_FIELD_LABEL_ALONE = re.compile(
    r"^\s*(?:\*\*|__)(?![^*_\n]*\b(?:files?|locations?|paths?|places?)\b)"
    r"[^\W\d_][^\W\d_'-]*(?:[\s'-]+[^\W\d_]+){0,5}\s*[:\uff1a]?\s*(?:\*\*|__)\s*[:\uff1a]?\s*$")
_FIX_LEAD = re.compile(
    r"^\s*[*_]*(?:fix|suggested\s+fix|proposed\s+fix|recommended\s+fix|solution|remediation|"
    r"recommendation|evidence|proof|example|examples|details?|affected|references?|where)"
    r"[*_]*\s*(?:[:\uff1a\u2014]|\s-\s)", re.I)
# a title naming the record of the fixes made for a review ("Review Fixes Summary", "Code
# Review Fixes - Phase 2", "Bug Fixes: Text Display", "post-build review fixes"), not a
# plan of fixes to make, a check of them, nor a review of a fix ("Review of the bug fix")
_FIX_LOG_TITLE = re.compile(
    r"^(?!.*\breview\s+of\b)(?:(?:[^\n]{0,60}\s)?(?:(?:code\s+)?review|bug|audit)\s+fix(?:es)?\b"
    r"(?!\s+(?:plan|needed|required|proposals?|to\s+do|roadmap|backlog|verification|verified|"
    r"check|review)\b)|"
    r"[^\n]{0,60}\bfix(?:es)?\s+(?:summary|implementation|implemented|applied|log|record)\b)",
    re.I)
# a heading in a fix log over what it left open ("Outstanding Items (Not Critical)",
# "Remaining issues", "Not implemented"); not what it set aside ("Accepted limitation
# (not fixed this pass)", "Known limitations", "Deferred")
_LEFT_OPEN = re.compile(
    r"\b(?:outstanding|remaining|still\s+open|open\s+(?:items?|issues?|findings?)|unresolved|"
    r"not\s+(?:yet\s+)?(?:implemented|fixed|addressed|done|resolved)|pending)\b", re.I)
_SET_ASIDE_WORDS = re.compile(
    r"\b(?:accepted|known|deferred|postponed|won'?t\s+fix|limitations?|by\s+design|"
    r"out\s+of\s+scope)\b", re.I)
# a numbered remedy ("Fix #1: Move the imports", "Change 2: Update the handler", "修改3：
# Stage 4 清单补充"): once findings are read, the change proposed for one of them
_REMEDY_HEAD = re.compile(
    r"^[\W_]*(?:fix|change|modification|edit|patch|\u4fee\u6539|\u4fee\u6b63|\u6539\u52a8|"
    r"\u53d8\u66f4|\u5909\u66f4)\s*#?\d{1,3}[a-z]?[*_]*\s*[:\uff1a.\u2014\u2013-]", re.I)
# the title of a document addressed to a reviewer: what to check, not what was found
_BRIEF_TITLE = re.compile(
    r"\breview\s+(?:brief(?:ing)?|packet|request|instructions?|prompt|template)\b|"
    r"\bbrief(?:ing)?\s+for\s+(?:the\s+|a\s+)?(?:\w+\s+)?reviewers?\b", re.I)
# a bold label alone that titles a review ("**Plan Review (plan.md)**", "**Design review**")
_REVIEW_LABEL = re.compile(
    r"^\s*(?:\*\*|__)[^*\n]{0,40}\b(?:review|critique)\b[^*\n]{0,80}(?:\*\*|__)\s*$", re.I)
def _is_critique(text: str) -> bool:
    """``Dimension: critique`` of twelve words or more that states a problem."""
    return bool(re.match(r"^[\s*_]*[^\W\d_][^:\n]{1,40}?[*_]*:\s", text)) \
        and len(re.findall(r"[^\W\d_]{2,}", text[:2000])) >= 12 \
        and bool(_PROBLEM_WORDS.search(text[:2000])) and not _says_nothing_wrong(text)


# what a critique of code says of it ("non-idiomatic", "hard to follow", "duplicated",
# "could be done in one pass"), which a description does not
_CRITIQUE = re.compile(
    r"\b(?:not?|non-\w+|un(?:used|needed|necessary|clear|safe|checked|bounded|conventional|"
    r"idiomatic|professional)\w*|lacks?|missing|without|instead\s+of|should|could|hard\w*|"
    r"difficult|complex|dense|massive|(?:very\s+)?large|redundant|duplicat\w*|dead|"
    r"inefficien\w*|slow\w*|expensive|bottleneck|overhead|brittle|fragile|opaque|confusing|"
    r"inconsistent|wrong|incorrect|typos?|typographical|hides?|hidden|leaks?|races?|panics?|"
    r"crash\w*|fails?|bugs?|risk\w*|too)\b", re.I)
# words that state a problem in a critique
_PROBLEM_WORDS = re.compile(
    r"\b(?:no|not|lacks?|lacking|missing|without|risks?|risky|brittle|fragile|aggressive|"
    r"unclear|unrealistic|gaps?|fails?|breaks?|blocks?|bloat|over-?reliance|unpinned|"
    r"inconsistent|incorrect|wrong|undefined|unbounded|too)\b|n't\b", re.I)
# a bold label alone that names problems ("**Critical Failure Modes**", "**Top risks**")
_PROBLEM_LABEL = re.compile(
    r"^\s*(?:\*\*|__)(?P<t>(?:[\w'/-]+\s+){0,4}?(?:findings?|issues?|concerns?|problems?|"
    r"blockers?|bugs?|defects?|risks?|gaps?|flaws?|weaknesses|vulnerabilit(?:y|ies)|"
    r"failure\s+modes?|pitfalls?)(?:\s+[\w'-]+){0,3})\s*[:\uff1a]?\s*(?:\*\*|__)\s*[:\uff1a]?\s*$",
    re.I)
_LEAD_IN = re.compile(
    r"^[\s*_]*(?:[\w'-]+\s+){0,5}?(?:findings?|issues?|concerns?|problems?|blockers?|bugs?|"
    r"defects?|risks?|gaps?|flaws?|vulnerabilit(?:y|ies)|must[\s-]?fix(?:es)?)\b"
    r"(?:\s+[\w'-]+){0,4}\s*[*_]*:[*_]*\s*$", re.I)
# a plain answer's opening sentence that announces the list below it as what is wrong
# ("These are the bugs and edge cases I see.", "정적 리뷰 기준으로 보이는 버그·… 문제입니다.")
_LEAD_SENTENCE = re.compile(
    r"^(?=[^\n]{10,240}$)[^\n]*?(?:\b(?:findings|issues|concerns|problems|bugs|defects|"
    r"risks|flaws|edge[\s-]cases)\b|\ubc84\uadf8|\ubb38\uc81c|\uc774\uc288|\u554f\u984c|\u95ee\u9898|"
    r"\u6307\u6458|\u7f3a\u9677)[^\n]*[.:\u3002\uff1a]\s*$", re.I)
# a sentence saying nothing was found
_NOT_FOUND = re.compile(r"\b(?:no|none|not|nothing|without)\b|n't\b|\uc5c6|\u306a\u3044|"
                        r"\u306a\u3057|\u6ca1\u6709|\u65e0", re.I)
# "Same issue at:", "Also in:", "The same pattern appears in:", "Other occurrences:"
_ALSO_AT = re.compile(
    r"(?:\b(?:same|similar)\s+(?:issue|problem|bug|pattern|mistake|defect|error|thing)\b"
    r"[^:\n]{0,30}|\balso\s+(?:at|in|on|occurs|appears|affects|applies|present|found|seen)\b"
    r"[^:\n]{0,30}|\bother\s+(?:occurrences|places|instances|locations|call\s*sites)\b"
    r"[^:\n]{0,20}|\b(?:repeated|duplicated|likewise)\s+(?:at|in)\b[^:\n]{0,20}|"
    r"\baffected\s+(?:locations|places|call\s*sites)\b[^:\n]{0,20})\s*[*_]*:[*_]*\s*$", re.I)
# the sentence that ends a finding's text by naming its other places (now related)
_ALSO_SENTENCE = re.compile(
    r"(?:(?<=[.;!?])|\s[\u2014\u2013-])\s+(?:the\s+)?(?:same\s+(?:issue|problem|bug|pattern|"
    r"mistake|defect|error)\b|also\s+(?:at|in|on)\b)(?:[^.;!?]|\.(?=\S))*[.;!?]?\s*$", re.I)
_ALSO_INLINE = re.compile(
    r"\b(?:(?:the\s+)?same\s+(?:issue|problem|bug|pattern|mistake|defect|error)\s+"
    r"(?:(?:also\s+)?(?:occurs|appears|exists|is\s+present)\s+)?|also\s+)(?:at|in|on)\s+", re.I)


def _file_only(text: str) -> bool:
    """A heading that names one file and says nothing else but what a bracket holds
    ("src/a.py  (176, shared primitives)", "`lib/x.ts`:")."""
    loc = _heading_file(text)
    if loc is None:
        return False
    rest = _unwrap(text).replace(loc.file, " ", 1)
    rest = re.sub(r"\([^()\n]{0,120}\)", " ", rest)
    return not re.search(r"[^\W\d_]", _strip_decor(rest))


def _heading_file(text: str) -> Location | None:
    """The one file a heading names (in code, or a name with a file type), not one it says
    is missing or to be created; none when it names several."""
    named: list[str] = []
    for f, a, b in _file_tokens(text[:600]):
        if _NOT_PLACE_BEFORE.search(text[max(0, a - 80):a]) or _NOT_PLACE_AFTER.match(
                text[b:b + 40]) or re.search(r"\(\s*(?:from|see|per|source:?|via|cf\.?)\s+[`*_]*$",
                                             text[max(0, a - 20):a], re.I):
            return None  # ... nor the source a list is copied from ("(from tasks/todo.md)")
        if f not in named:
            named.append(f)
    return Location(named[0]) if len(named) == 1 else None


_EXT_RE = re.compile(r"\.[A-Za-z][A-Za-z0-9]{0,9}$")
# an item's place field that may give only lines ("Locations: Lines 385, 828")
_LINES_FIELD = re.compile(r"^[\s*_-]*(?:locations?|lines?|where)[*_\s]*:[*_\s]*(?P<v>.{1,300})$",
                          re.I)
# the files a review read, the first with its length in lines: the file of its line numbers
_COUNTED_FILE = re.compile(
    r"^[\s*_>-]*(?:codebase|code\s*base|files?(?:\s+(?:analy[sz]ed|reviewed|read))?|"
    r"source|target)[*_\s]*[:\uff1a][*_\s]*`?(?P<f>[\w.][\w./\\-]{0,200}\.[A-Za-z]\w{0,9})`?"
    r"\s*\(\s*[\d,]{1,9}\s+lines?\s*\)", re.I)
# the line that names the document under review: "**Reviewed plan**: docs/plan.md",
# "Reviewing: spec.md", "Document under review: x.md", "Target file: a.py"
_REVIEWED = re.compile(
    r"^[\s*_>-]*(?:reviewed\s+(?:plan|document|doc|spec(?:ification)?|file|design|rfc|proposal)s?"
    r"|reviewing|(?:document|plan|spec|file)\s+under\s+review|target\s+(?:file|document)|"
    r"under\s+review)[*_\s]*[:\uff1a][*_\s]*(?P<v>.{1,400})$", re.I)


# a one-line record: its place, then a separator and the words that say what is wrong
_PLACE_THEN_WORDS = re.compile(r"(?:\s\|\s*|\s[\u2014\u2013]\s*|\s-\s+|;\s*)"
                               r"(?:[*_`]*[A-Za-z]+[*_`]*:\s*[^|\n]{0,40}\|\s*)?"
                               r"(?P<t>(?:[^\W\d_][\w'-]*\s+)+[^\W\d_].*)$")


# the field of a record of fields that says what is wrong
_TEXT_FIELD = re.compile(
    r"^\s*(?:[-*+]\s+)?[*_]*\s*(?:description|issue|problem|finding|claim|summary|details|"
    r"concern|observation|defect|bug|what)\s*[*_]*\s*[:=\uff1a]\s*[*_]*\s*(?P<v>.*)$", re.I)


_BARE_PLACE_KEY = re.compile(r"^\s*[*_]*(?:locations?|files?|where|paths?|affected\s+files?)"
                             r"[*_]*\s*:\s*[*_]*\s*$", re.I)


def _keyed_place(children: list[SyntaxTreeNode]) -> str | None:
    """The first entry of the list right under an item's bare place key ("Location:" then
    "- a.kt:66-79, 139-152"), the place its key names."""
    for a, b in zip(children[:12], children[1:13], strict=False):
        if a.type == "paragraph" and b.type in ("bullet_list", "ordered_list") and b.children \
                and _BARE_PLACE_KEY.match(_text(a).split("\n")[-1]):
            head = _item_head(b.children[0])
            return head if _first_file(head) is not None else None
    return None


def _own_place(item: SyntaxTreeNode) -> Location | None:
    """The place a list item's own location field gives (``**Location:** `a.md` → §5``,
    ``- File: a.py:12`` as a line of its paragraph or of its nested list), when the item
    is more than that field: a title or other fields beside it."""
    children = item.children
    first = children[0] if children and children[0].type == "paragraph" else None
    if first is None:
        return None
    lines = _text(first).split("\n")[:MAX_BODY]
    for c in children[1:4]:
        if c.type in ("bullet_list", "ordered_list"):
            lines += [_item_head(sub) for sub in c.children[:MAX_BODY]]
    if len(lines) < 2 and not _PLACE_THEN_WORDS.search(lines[0][:600]) \
            and not _record_line(lines[0]):
        return None  # "- **File:** a.py" alone is a field; "- File: a.py | Line: 3 | the
        # lock is never released" and "- Where: a.py — the cache is bypassed" are records
    for ln in lines:
        m = _FIELD.match(ln)
        if not m or not m["v"].strip():
            continue
        k = m["k"].lower()
        if not (k in ("location", "locations", "file", "path", "where") or PLACE_KEY_RE.match(k)):
            continue
        loc = locate(m["v"][:400])
        if loc is not None:
            return Location(loc.file, loc.line, loc.end_line)
        f = _first_file(m["v"][:400])
        return Location(f) if f else None
    return None


def _reorder(rec: dict[str, Any]) -> None:
    """``rec``'s keys in the order every reader writes them, in place."""
    keep = _ordered(rec)
    rec.clear()
    rec.update(keep)


def _relate(rec: dict[str, Any], places: list[Location]) -> None:
    """The other places one finding cites: its ``related`` list (in place)."""
    if any([put_related(rec, loc) for loc in places]):  # a list: every place is tried
        _reorder(rec)


_CODE_COMMENT = re.compile(
    r"^\s*(?://+|#+|--|/\*+|<!--|;+|%)\s*(?P<loc>[^\s].{0,300}?)\s*(?:\*+/|-->)?\s*$")


# a code citation: a fence whose info string is ``START:END:PATH`` (the form IDE
# assistants cite code in: `` ```12:40:src/app/main.py ``)
_CITATION = re.compile(r"^(?P<a>\d{1,7}):(?P<b>\d{1,7}):(?P<p>\S[^\n]{0,300})$")
# a fence's info string naming the file: ``title="a/b.js"``, ``file=a/b.py``, ``ts:src/a.ts``
_INFO_FILE = re.compile(r"(?:\b(?:title|file(?:name)?|path)\s*=\s*[\"']?|^[\w+-]{1,20}:)"
                        r"(?P<p>[\w@~+.\-/\\]{1,300})")


def citation_place(node: SyntaxTreeNode) -> Location | None:
    """The place a code citation's info string names, or None."""
    if node.type != "fence":
        return None
    m = _CITATION.match(node.info.strip())
    if not m:
        # "```js title=\"lib/walk.js\"", "```python:src/a.py": the file the block is from
        t = _INFO_FILE.search(node.info[:300])
        path = clean_path(t["p"]) if t else ""
        return Location(path) if t and "/" in path and _pathlike(path) else None
    path = clean_path(m["p"])
    if not _pathlike(path):
        return None
    a, b = int(m["a"]), int(m["b"])
    return Location(path, a if a >= 1 else None, b if b > a else None)


def _code_comment_place(nodes: list[SyntaxTreeNode]) -> Location | None:
    """The place a code block gives: a citation's info string, or as its first line a
    comment that is only a location (``// src/db/client.ts:6``)."""
    for n in nodes:
        if n.type not in ("fence", "code_block"):
            continue
        cited = citation_place(n)
        if cited is not None:
            return cited
        first = next((ln for ln in n.content.split("\n", 8)[:8] if ln.strip()), "")
        m = _CODE_COMMENT.match(first)
        if not m:
            return None
        loc = locate(m["loc"])
        if loc is not None and loc.start == 0 and not m["loc"][loc.end:].strip(" `*_:-"):
            return loc
        return None
    return None


_PLACE_GLUE = re.compile(r"[\s,;/&+*_`\[\]().\u3001\u3002\uff0c]+|\b(?:and|or|also|plus)\b", re.I)


# an item that ends with only a line of the file its section names: "(line 40)", "(L12)",
# ", line 88"
_LINE_TAIL = re.compile(r"(?:\(\s*(?:lines?\s*|L)|,\s*lines?\s+)(?P<l>\d{1,7})"
                        r"(?:\s*[-\u2013]\s*L?\d{1,7})?\s*\)?[\s.]*$", re.I)
# a list of lines ("lines 8 and 34", "at lines: 41, 44, 101"): two numbers or more
_LINE_LIST = re.compile(r"\blines?\b[*_`]*\s*[:\uff1a]?[*_`]*\s*(?P<n>\d{1,7}(?:\s*(?:,|;|\band\b|"
                        r"&|\u3001)\s*\d{1,7}(?![\d.:\-\u2013]\d))+)(?![\d\-\u2013])", re.I)
# a head that opens with a file, then its lines listed ("**a.cs violations at lines:** 41, 44")
_FILE_LINES = re.compile(r"^[*_`]*(?P<p>[\w./\\\-]{1,200}\.[A-Za-z][A-Za-z0-9]{0,9})[*_`]*\s+"
                         r"(?:[\w-]+\s+){0,3}?(?:at\s+|on\s+)?lines?\b[*_`]*\s*[:\uff1a]?[*_`]*\s*"
                         r"\d{1,7}\s*(?:,|\band\b)", re.I)
# a head that ends with its places: in a parenthesis, or after a dash
_PLACES_TAIL = re.compile(r"(?:\((?P<a>[^()\n]{1,400})\)|[\u2014\u2013]\s*(?P<b>[^\u2014\u2013\n]"
                          r"{1,400}))[\s.*_]*$")
# a head that opens with its places, then a dash or colon before its words
_PLACES_LEAD = re.compile(r"^[\s*_]*(?P<p>`[^`\n]{1,300}`(?:\s*(?:,|;|\band\b|\u3001)\s*"
                          r"`[^`\n]{1,300}`)+)[*_]*\s*(?:[\u2014\u2013:]|-\s)")
_ASIDE = re.compile(r"\((?:[^()\n]|\([^()\n]{0,20}\)){0,80}\)|"
                    r"\uff08(?:[^\uff08\uff09()\n]|\([^()\n]{0,20}\)){0,80}\uff09")
# ("…, `:16`", or a line range alone in code: "`a.py:82-91`, `111-120`")
_LINE_AGAIN = re.compile(r"(?:^|(?<=[\s,;\u3001\uff0c]))(?:`?:(?P<l>\d{1,7})(?:-\d{1,7})?`?"
                         r"|`L?(?P<m>\d{1,7})(?:\s*[-\u2013~]\s*L?\d{1,7})?`)")


MAX_LISTED = 64  # places read from one list (a finding keeps MAX_RELATED of them)


def _field_places(value: str) -> list[Location]:
    """The places a location field lists (``a.py:3, b.py:9``; links read by their text),
    when it holds nothing but places; otherwise at most the first."""
    v = re.sub(r"\]\([^)\s]{0,600}\)", "]", value[:2000])
    out: list[Location] = []
    pos, glue = 0, []
    while len(out) < MAX_LISTED:
        loc = locate(v[pos:])
        if loc is None:
            break
        glue.append(v[pos:pos + loc.start])
        out.append(Location(loc.file, loc.line, loc.end_line))
        pos += max(loc.end, 1)
    glue.append(v[pos:])
    more: list[Location] = []
    rest: list[str] = []
    for i, g in enumerate(glue[1:]):
        g = _ASIDE.sub(" ", g)  # "a.json:17（postinstall）、b.mjs:24": an aside is glue
        for m in _LINE_AGAIN.finditer(g):  # "…, `:16`": another line of the same file
            more.append(Location(out[i].file, int(m["l"] or m["m"])))
        rest.append(_LINE_AGAIN.sub(" ", g))
    if any(_PLACE_GLUE.sub("", g) for g in rest):
        return out[:1]  # prose between them: one place, named with others
    return out + more if len(out) + len(more) > 1 else out


def _compared_places(value: str) -> list[Location]:
    """A location field listing several files (`` `a.md`, `b.md` and `c.md` ``) or
    comparing three or more (`` `a.md` vs `b.md` vs `c.md` (status) ``): each part opens
    with a file; its place (with a line when it gives one).  A file with a line and
    another without one are the place and a file it touches: one place.  Two files
    compared (`` `a.tsx` (block 1) vs `b.tsx` ``) are the place and what it contradicts:
    one place; a file after a semicolon is evidence."""
    v = value[:600]
    versus = re.split(r"\s+(?:vs\.?|versus)\s+", v)
    if len(versus) == 2 or ";" in v:
        return []
    parts = re.split(r"\s+(?:vs\.?|versus|and|&)\s+|\s*[,\u3001]\s*", v)
    if not 2 <= len(parts) <= 8:
        return []
    out: list[Location] = []
    for part in parts:
        toks = _file_tokens(part)
        if not toks or toks[0][1] > 2:
            return []
        loc = locate(part)
        out.append(Location(loc.file, loc.line, loc.end_line) if loc is not None
                   and loc.file == toks[0][0] else Location(toks[0][0]))
    if any(p.line is not None for p in out) and any(p.line is None for p in out):
        return []  # "`a.py:126-157`, `cli.py`": the place, then a file it touches
    return out if len({p.file for p in out}) == len(out) else []


def _no_code(text: str) -> str:
    return re.sub(r"`[^`\n]*`", " ", text)


# a location field that gives only a line ("Line 28-31", "第12行", "12行目", "L40", "Zeile 5")
_PLACE_LINE = re.compile(r"^[\s*_`~(]*(?:(?:lines?|ln|zeilen?|lignes?|l[i\u00ed]neas?|linhas?|"
                         r"righe|riga|\u0441\u0442\u0440\u043e\u043a[\u0430\u0438]|\ub77c\uc778|"
                         r"\u884c)\s*|L(?=\d)|\u7b2c\s*)\d{1,7}|^[\s*_`~(]*\d{1,7}\s*(?:\u884c|"
                         r"\ubc88\uc9f8\s*\uc904|\ud589)", re.I)


# a line field whose key holds the number: "**Line 14:** text", "**Lines 20-21**" alone
_LINE_FIELD = re.compile(r"^\s*(?:\*\*|__)\s*lines?\s+(?P<v>\d{1,7}(?:\s*[-\u2013]\s*\d{1,7})?)"
                         r"\s*(?::\s*(?:\*\*|__)|(?:\*\*|__)\s*(?::|$))", re.I)


def _fields(lines: list[str]) -> dict[str, str]:
    """The known fields among ``lines`` (several may share a line: ``**Location:** x.
    **Issue:** y``): file, line, severity, status."""
    out: dict[str, str] = {}
    for ln in lines[:MAX_BODY]:
        if (lm := _LINE_FIELD.match(ln)) is not None:
            out.setdefault("line", lm["v"])  # "**Line 14:** only skips …", "**Lines 20-21**"
            continue
        segs = re.split(r"(?=\*\*[A-Z][\w ]{1,20}:\*\*)", ln)
        if len(segs) == 1 and _FIELD.match(ln):  # "File: a.py, Line: 40, Severity: high"
            segs = _RECORD_SPLIT.split(ln[:2000])
        for seg in segs:
            m = _FIELD.match(seg)
            if not m:
                continue
            k = m["k"].lower()
            v = re.sub(r"\s*\*\*[A-Z][\w ]{1,20}:\*\*.*$", "", m["v"]).strip()
            if not v or _PLACEHOLDER.search(v):
                continue
            if k in ("location", "locations", "file", "files", "path", "paths", "where", "area") \
                    or k.startswith("affected"):
                out.setdefault("file", v)
            elif PLACE_KEY_RE.match(k):  # another language's key: only a path is the place
                if locate(v) is not None or _first_file(v):
                    out.setdefault("file", v)
                elif _PLACE_LINE.match(v):  # "位置：Line 28-31 (…)" beside a file field
                    out.setdefault("line", v)
            elif k.startswith("line") or LINE_KEY_RE.match(k):
                out.setdefault("line", v)
            elif k in ("severity", "priority", "risk", "impact", "level") \
                    or SEVERITY_KEY_RE.match(k):
                out.setdefault(k if k in ("risk", "impact") else "severity", v)
            elif k in ("status", "state") or STATUS_KEY_RE.match(k):
                out.setdefault("status", v)
    return out


_ORDER = ("kind", "origin", "priority", "severity", "file", "line", "end_line", "column",
          "related", "summary", "discussion", "evidence")


def _ordered(rec: dict[str, Any]) -> dict[str, Any]:
    """The record's keys in the order every reader writes them."""
    out = {k: rec[k] for k in _ORDER if k in rec}
    out.update((k, v) for k, v in rec.items() if k not in out)
    return out


# a field that cites what shows the finding ("Verification: the test in `t/a.py` failed"):
# the file it names is evidence, not the finding's place
_EVIDENCE_FIELD = re.compile(
    r"^\W*(?:verification|verified\s+by|evidence|proof|tested\s+by|tests?|test\s+run|"
    r"reproduc\w*|confirmed\s+by|observed\s+in)\s*[*_]*\s*[:\uff1a]", re.I)


def _finish(rec: dict[str, Any], head: str, rest: list[str], fields: dict[str, str],
            sev: str | None, ctx: Location | None) -> None:
    """Location and severity by precedence (see the module docstring)."""
    loc = locate(head)
    if loc is not None and (loc.line is not None or "file" not in rec):
        rec.pop("file", None)
        rec.pop("line", None)
        rec.pop("end_line", None)
        rec.pop("column", None)
        _put_location(rec, loc)
    if "file" not in rec and fields.get("file"):
        fv = fields["file"]
        floc = locate(fv)
        if floc is None and (f := _first_file(fv)):
            floc = Location(f)
        if floc is not None:
            _put_location(rec, floc)
    if "file" in rec and "line" not in rec and fields.get("line"):
        lm = re.search(r"\d{1,7}", fields["line"])
        if lm and int(lm.group(0)) >= 1:
            rec["line"] = int(lm.group(0))
    if "file" not in rec:
        for ln in rest[:12]:
            bloc = locate(ln)
            if bloc is not None and bloc.line is not None:
                _put_location(rec, bloc)
                break
    if "file" not in rec and ctx is not None:
        _put_location(rec, Location(ctx.file, ctx.line, ctx.end_line))
        if ctx.line is None:
            lm = _LINE_LEAD.match(head) or _LINE_ONLY.search(head)
            if lm:
                rec["line"] = int(lm["l"])
    if "file" not in rec:
        prev = ""
        # "**Observation:**" then "The DAG `dags/x.py` does not …": the first line of text
        first = next((ln for ln in rest[:4] if ln.strip() and not _BARE_KEY.match(ln)),
                     rest[0] if rest else None)
        for ln in [head, *rest[:6]]:
            if ln is not head and (re.match(r"^\s*(?:[-*+]|\d{1,3}[.)])\s", ln)
                                   or _EVIDENCE_FIELD.match(ln)):
                continue  # a nested list names other things (deliverables, evidence)
            f = _prose_file(ln, prev if ln is not head else "")
            if f is None and ln is first:
                # "The DAG `migrate.py` does not create the keys.": its first sentence
                f = _coded_source(re.split(r"(?<=[.!?])\s+(?=[A-Z])", ln, maxsplit=1)[0])
            prev = ln
            if f and "/" in f or f and ln is head or f and ln is first and re.search(
                    r"`" + re.escape(f.rsplit("/", 1)[-1]) + r"`", ln) and re.search(
                    r"\.(?:py|[jt]sx?|go|rs|java|kt|rb|php|cs|c|cc|cpp|h|hpp|swift|scala|sh|sql|"
                    r"ya?ml|toml|json|vue|svelte|txt|md|ini|cfg|lock|xml|html|css|scss)$", f):
                rec["file"] = f  # the body's first line naming a source file in backticks
                break
    if isinstance(rec.get("file"), str) and re.search(r"\s|`", rec["file"]):
        f = _first_file(rec["file"])
        if f:
            rec["file"] = f
        else:
            rec.pop("file")
            rec.pop("line", None)
            rec.pop("end_line", None)
    if isinstance(rec.get("file"), str) and "line" not in rec:
        # "### 1) `App.tsx` is a god component" over "Evidence: `src/components/App.tsx:147`":
        # the body gives the same file its path and a line
        for ln in rest[:12]:
            bloc = locate(ln)
            if bloc is not None and bloc.line is not None and bloc.file != rec["file"] \
                    and bloc.file.endswith("/" + rec["file"].lstrip("./")):
                rec.pop("file")
                _put_location(rec, bloc)
                break
    if "file" in rec and "line" not in rec:
        lm = re.search(r"\blines?\s*+(?:[:=]\s*+)?~?\s*+(\d{1,7})(?!\d)", head, re.I)
        if lm and int(lm.group(1)) >= 1:
            rec["line"] = int(lm.group(1))
        elif rest and _first_file(head) == rec["file"] and _first_file(rest[0]) in (
                None, rec["file"]):
            # "#### Timeout in `net/client.go`" then "At :88 the context is dropped"
            bm = _BODY_LINE.search(rest[0][:300])
            if bm and int(bm["l"]) >= 1:
                rec["line"] = int(bm["l"])
    # severity: a change of severity, then fields, then the item's tags and badges, then
    # its section
    esc = escalated(" ".join((head, fields.get("severity", ""), fields.get("status", ""))))
    if esc:
        rec.pop("priority", None)
        rec["severity"] = esc
        return
    want = None
    # an "Impact:" or "Risk:" field is weaker than the item's own severity tag ("**MINOR -
    # Log rotation**:" over "- **Impact**: Medium - but not critical for v1", "### HIGH:
    # …" over "**Risk:** Medium-High. The path needs …")
    keys = ("severity",) if _lead_tag(head) else ("severity", "risk", "impact")
    for key in keys:
        if fields.get(key):
            m = _SEV_WORD_RE.search(fields[key])
            if m and (s := severity_word(m["w"])):
                want = m["w"]
                break
            if key == "severity" and (s := severity.lead_severity(fields[key])):
                want = s  # another language's word: "Alta (70%)", "高", "높음"
                break
    if want is None and fields.get("severity"):
        for rx, phrase_sev in _PHRASES:  # "Severity: must-fix"
            if rx.search(fields["severity"]):
                rec.pop("severity", None)
                rec["severity"] = phrase_sev
                return
    if want is not None:
        rec.pop("severity", None)
        _put_severity(rec, want)
        return
    if "severity" in rec or "priority" in rec:
        return
    pm = re.search(r"\((?:(?:severity|priority):\s*)?(?P<w>" + SEVERITY_WORD + r")\)", head,
                   re.I) or \
        _SEV_ASIDE.search(head[-160:])
    if pm and (s := severity_word(pm["w"] or pm.groupdict().get("w2") or "")):
        rec["severity"] = s
        return
    dm = _DASHED_SEV.search(head[:400])
    if dm and (s := severity_word(dm["w"])):
        rec["severity"] = s  # "[a.ts:324](…) — CRITICAL — the id is reused"
        return
    lead = _lead_tag(head)
    if lead:
        rec["severity"] = lead
        return
    badge = badge_severity("\n".join([head, *rest[:8]]))
    if badge:
        if m := re.search(r"\b(P[0-4])\s+Badge\b", "\n".join([head, *rest[:8]])):
            rec["priority"] = m.group(1)
        rec["severity"] = badge
        return
    if sev:
        rec["severity"] = sev


# a severity written as an aside of the item's own: "(Priority: High)", "(low)"
_OWN_ASIDE = re.compile(r"\((?:(?:severity|priority)\s*:\s*)?(?:" + SEVERITY_WORD + r")\)", re.I)
# a title ending with an aside that opens with its severity: "(minor documentation gap)",
# "(critical: data loss)", "(low priority)" — "high" and "low" only with such a noun
# a severity set between dashes after an item's place ("`a.ts:324` — HIGH — title")
_DASHED_SEV = re.compile(r"\s[\u2014\u2013]\s*[*_]*(?P<w>" + SEVERITY_WORD
                         + r")[*_]*\s*[\u2014\u2013]\s", re.I)
_SEV_ASIDE = re.compile(
    r"\((?:(?P<w>critical|blocker|blocking|major|minor|nit|trivial|medium|moderate)\b[\s:,-]*"
    r"(?:[\w-]+\s*){0,4}|(?P<w2>high|low)[\s-]+(?:priority|severity|risk|impact)\b[^()\n]{0,30})"
    r"\)[*_.\s]*$", re.I)


_COLUMNS = (
    ("file", ("file", "path", "location", "where", "file:line", "file/line", "files")),
    ("line", ("line", "lines", "line(s)", "ln")),
    ("severity", ("severity", "priority", "level", "sev", "prio", "risk", "impact")),
    ("status", ("status", "state", "result", "outcome", "resolution", "verdict")),
    ("text", ("issue", "finding", "findings", "description", "problem", "summary", "title",
              "details", "comment", "message", "concern", "blocker", "defect", "bug", "gap",
              "risk description", "observation")),
)
# a text column that names a summary, a title or the contents, in other languages ("요약",
# "概要", "内容", "Resumo", "Zusammenfassung", "Titolo"): like "Summary", a describing column
_INTL_SUMMARY_COLS = (
    "\u8981\u7d04", "\u6982\u8981", "\u6458\u8981", "\u5185\u5bb9", "\u6807\u9898",
    "\u30bf\u30a4\u30c8\u30eb", "\u4ef6\u540d", "\uc694\uc57d", "\ub0b4\uc6a9",
    "\uc81c\ubaa9", "resumo", "t\u00edtulo", "titulo", "zusammenfassung", "titel",
    "r\u00e9sum\u00e9", "titre", "resumen", "riepilogo", "sommario", "titolo",
    "\u0441\u0443\u0442\u044c", "\u0437\u0430\u0433\u043e\u043b\u043e\u0432\u043e\u043a")
# the same columns named in other languages (Chinese, Japanese, Korean, German, French,
# Spanish, Portuguese, Italian, Russian)
_COLUMNS_INTL = (
    ("file", ("\u6587\u4ef6", "\u4f4d\u7f6e", "\u8def\u5f84", "\u30d5\u30a1\u30a4\u30eb",
              "\u5834\u6240", "\u7b87\u6240", "\ud30c\uc77c", "\uc704\uce58", "datei", "ort",
              "fichier", "emplacement", "archivo", "ubicaci\u00f3n", "arquivo", "posizione",
              "\u0444\u0430\u0439\u043b",
              # a file and its line in one column ("ファイル:行", "文件:行号", "Datei:Zeile")
              "\u30d5\u30a1\u30a4\u30eb:\u884c", "\u6587\u4ef6:\u884c",
              "\u6587\u4ef6:\u884c\u53f7", "\ud30c\uc77c:\uc904", "\ud30c\uc77c:\ub77c\uc778",
              "datei:zeile", "fichier:ligne", "archivo:l\u00ednea", "arquivo:linha",
              "file:riga", "t\u1ec7p", "t\u1eadp tin", "v\u1ecb tr\u00ed")),
    ("line", ("\u884c", "\u884c\u53f7", "\u884c\u756a\u53f7", "\uc904", "\ub77c\uc778", "\ud589",
              "zeile", "ligne",
              "l\u00ednea", "linha", "riga", "\u0441\u0442\u0440\u043e\u043a\u0430", "d\u00f2ng")),
    ("severity", ("\u4e25\u91cd\u7a0b\u5ea6", "\u4e25\u91cd\u6027", "\u7ea7\u522b",
                  "\u7b49\u7ea7", "\u8bc4\u7ea7", "\u4f18\u5148\u7ea7", "\u91cd\u8981\u5ea6",
                  "\u6df1\u523b\u5ea6", "\u91cd\u5927\u5ea6", "\u512a\u5148\u5ea6",
                  "\uc2ec\uac01\ub3c4", "\uc6b0\uc120\uc21c\uc704", "schweregrad",
                  "priorit\u00e4t", "s\u00e9v\u00e9rit\u00e9", "gravit\u00e9",
                  "priorit\u00e9", "severidad", "prioridad", "gravedad", "gravidade",
                  "gravit\u00e0", "priorit\u00e0", "\u0441\u0435\u0440\u044c\u0435\u0437"
                  "\u043d\u043e\u0441\u0442\u044c", "\u043f\u0440\u0438\u043e\u0440\u0438"
                  "\u0442\u0435\u0442", "m\u1ee9c \u0111\u1ed9",
                  "m\u1ee9c \u0111\u1ed9 nghi\u00eam tr\u1ecdng",
                  "\u0111\u1ed9 \u01b0u ti\u00ean")),
    ("status", ("\u72b6\u6001", "\u72b6\u614b", "\uc0c1\ud0dc", "statut", "estado", "stato",
                "\u0441\u0442\u0430\u0442\u0443\u0441")),
    ("text", ("\u95ee\u9898", "\u53d1\u73b0", "\u63cf\u8ff0", "\u8bf4\u660e",
              "\u8be6\u60c5", "\u6307\u6458", "\u554f\u984c", "\u8a73\u7d30",
              "\u8aac\u660e", "\ubb38\uc81c", "\ubc1c\uacac", "\uc124\uba85", "problem",
              "befund", "beschreibung", "probl\u00e8me", "constat", "problema", "hallazgo",
              "descripci\u00f3n", "descri\u00e7\u00e3o", "descrizione",
              "\u043f\u0440\u043e\u0431\u043b\u0435\u043c\u0430",
              "\u043e\u043f\u0438\u0441\u0430\u043d\u0438\u0435", "m\u00f4 t\u1ea3",
              "v\u1ea5n \u0111\u1ec1", "l\u1ed7i") + _INTL_SUMMARY_COLS),
)
# a severity cell that says the row passed, or is only an emoji
_PASS_CELL = re.compile(r"^[\s*_`]*(?:\u2705|\u2714\ufe0f?|\u2713|\U0001f7e2|pass(?:ed)?|ok|"
                        r"good|n/?a|none|-|\u2014)[\s*_`.]*$", re.I)
_CELL_EMOJI = (("\U0001f534", "critical"), ("\u2757", "critical"), ("\U0001f7e0", "medium"),
               ("\u26a0", "medium"), ("\U0001f7e1", "minor"))
# a row citing a line of the file its section names ("L3: ...", "line 12", ":40")
_ROW_LINE = re.compile(
    r"^[\s*_`(\[]*(?:L|lines?\s*|ln\s*|:)(?P<l>\d{1,7})(?:\s*[-\u2013]\s*L?\d{1,7})?[*_`)\]]*"
    r"\s*(?::|\uff1a|\u2014|\u2013|-\s)", re.I)  # the row's text opens with the line, as its label


# the first column of a table of one finding's fields ("| Aspect | Details |")
_FIELD_ROW = re.compile(
    r"^(?:file|location|where|path|lines?|evidence|impact|fix|suggested\s+fix|current|reality|"
    r"expected|actual|cause|root\s+cause|risk|severity|priority|problem|issue|details?|"
    r"recommendation|why|effect|scenario|status|category)$", re.I)


def _field_table(rows: list[list[str]]) -> bool:
    """Two columns, a header naming none of the finding words, and at least two rows whose
    first cell is a finding's field name, most of them: one finding's fields."""
    if any(len(r) != 2 for r in rows) or len(rows) < 3:
        return False
    named = sum(1 for r in rows[1:] if _FIELD_ROW.match(_plain(r[0]).strip(" *_`:")))
    return named >= 2 and named * 2 >= len(rows) - 1 and not _FIELD_ROW.match(
        _plain(rows[0][0]).strip(" *_`:"))


# what a table's columns say it is, when it is not a table of findings: a count per
# severity ("| Severity | Count |"), a scorecard ("| Criterion | Score |"), a comparison
# ("| Metric | Before | After |")
_COUNT_COLS = ("count", "counts", "total", "number", "qty", "occurrences", "issues", "findings",
               "issues found", "# issues", "# findings", "no. of issues")
_SCORE_COL = re.compile(r"^(?:[\w/ -]{1,20}\s)?(?:score|rating|grade|mark|points|stars)$")
# the column of what a row of work costs ("Effort", "Estimate"): a plan's column
_EFFORT_COLS = ("effort", "estimate", "estimated effort", "effort estimate", "est.", "eta",
                "time estimate", "estimated time", "fix effort", "cost")
_COMPARED = (("before", "after"), ("old", "new"), ("baseline", "now"), ("main", "branch"))
# the column of what was done about a row, and a cell saying it was done ("Wrapped the call
# in a try/except", "Moved the lock"): a fix report's row, already fixed
_FIX_COLS = ("fix", "fix applied", "applied fix", "resolution", "action taken", "change made",
             "changes made", "remediation", "what was done")
_DONE_FIX = re.compile(r"^[\s*_`\W]*(?!(?:need|feed|seed|embed|shed|speed|proceed|exceed)\b)"
                       r"[a-z]{2,}ed\b", re.I)
# a status (or score) cell that says the row passed: a status table's row, no finding
_PASSED_ROW = re.compile(
    r"\u2705|\u2714|\u2713|\u2611|\U0001f7e2|\b(?:pass(?:ed|es)?|ok|okay|done|implemented|"
    r"confirmed|verified|satisfied|met|complete[d]?|covered|present|exists|yes|good|excellent|"
    r"clean|green|stable|wired|ready|healthy|compliant|deferred|wont-?fix|won.t\s+fix|"
    r"out\s+of\s+scope|none\s+found|no\s+issues?)\b|^[\s*_`]*(?:n/?a|none|-|\u2014)[\s*_`.]*$",
    re.I)
# a status cell that says the row fails: in a findings section, that row is a finding
_FAILED_ROW = re.compile(
    r"\u274c|\u2717|\u2718|\u26d4|\U0001f6d1|\b(?:fail(?:ed|s|ing)?|missing|broken|absent|"
    r"not\s+(?:implemented|met|covered|done|present|satisfied|found|handled|tested)|"
    r"unmet|uncovered|incomplete|partial(?:ly)?|violat(?:ed|ion)|blocked|blocker)\b|"
    r"^[\s*_`]*no[\s*_`.]*$", re.I)


def _table_shape(header: list[str], rows: list[list[str]]) -> str | None:
    """"count", "score" or "compare" when the columns say the table is one of those;
    None for any other table.  A count column is one so named whose cells are numbers."""
    body = rows[1:]
    for idx, c in enumerate(header):
        if c in _COUNT_COLS:
            cells = [_unwrap(r[idx]).strip(" *_`") for r in body if idx < len(r) and r[idx].strip()]
            if cells and sum(1 for v in cells if re.match(r"\d", v)) * 2 > len(cells):
                return "count"
    if any(_SCORE_COL.match(c) for c in header):
        return "score"
    if any(a in header and b in header for a, b in _COMPARED):
        return "compare"
    return None


def _failed_row(header: list[str], rows: list[list[str]], in_findings: bool,
                origin: str) -> list[dict[str, Any]]:
    """In a findings section, the rows of a status table or scorecard whose status or
    score cell says it fails (❌, FAIL, Missing): a finding each, titled by its first cell
    and the row's other words; every other row passed or is no finding."""
    if not in_findings:
        return []
    judged = [i for i, c in enumerate(header)
              if c in _COLUMNS[3][1] or _SCORE_COL.match(c) or c == "assessment"]
    out: list[dict[str, Any]] = []
    for vals in rows[1:]:
        failed = next((vals[i] for i in judged
                       if i < len(vals) and _FAILED_ROW.search(_unwrap(vals[i]))), None)
        if failed is None:
            continue
        words = [_strip_decor(v) for i, v in enumerate(vals) if i not in judged and v.strip()]
        if len(words) < 2:  # "| Exporter | ❌ Not ready - two specs fail |": the why is there
            words.append(re.sub(r"^[^\w(\[`]+", "", _strip_decor(failed)))
        text = ": ".join(w for w in words if w)
        if not text:
            continue
        rec: dict[str, Any] = {"kind": "finding", "origin": origin}
        _put_location(rec, _cell_place(vals))
        rec["summary"] = text
        out.append(rec)
    return out


_CJK_TEXT_COL = re.compile("[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]{1,6}\\s?(?:\u63cf\u8ff0|"
                           "\u8bf4\u660e|\u8aaa\u660e|\u5185\u5bb9|\u5167\u5bb9|\u8a73\u7d30|"
                           "\u8aac\u660e|\u8be6\u60c5|\uc124\uba85|\ub0b4\uc6a9)")
_CJK_FIX_COL = re.compile("\u4fee\u590d|\u4fee\u6539|\u5efa\u8bae|\u5efa\u8b70|\u5bfe\u5fdc|"
                          "\u4fee\u6b63|\u5bfe\u7b56|\u5bf9\u7b56|\u5c0d\u7b56|\u6539\u5584|"
                          "\uc870\uce58|\uc218\uc815|\uad8c\uc7a5|"
                          # ... or a change's ("变更内容", "変更内容", "변경 내용")
                          "\u53d8\u66f4|\u8b8a\u66f4|\u6539\u52a8|\u6539\u52d5|\u66f4\u6539|"
                          "\u5909\u66f4|\ubcc0\uacbd|\u65b0\u589e|\u8ffd\u52a0")


def _table_findings(rows: list[list[str]], in_findings: bool, sev: str | None,
                    origin: str, fails: bool = False) -> list[dict[str, Any]]:
    header = [_unwrap(c).strip().rstrip(":").lower() for c in rows[0]]
    shape = _table_shape(header, rows)
    if shape == "count" or shape == "compare":
        return []  # a count per severity, a before/after comparison: no finding in it
    cols: dict[str, int] = {}
    for name, names in _COLUMNS + _COLUMNS_INTL:
        for idx, c in enumerate(header):
            if (c in names or name == "severity" and SEVERITY_KEY_RE.match(c)) \
                    and name not in cols and idx not in cols.values():
                cols[name] = idx
    if "text" not in cols:
        # a description column named by a compound of Chinese, Japanese or Korean that ends
        # with the noun ("问题描述", "指摘内容", "문제 설명"), not a fix's ("修复说明")
        tcol = next((i for i, c in enumerate(header) if i not in cols.values()
                     and _CJK_TEXT_COL.fullmatch(c) and not _CJK_FIX_COL.search(c)), None)
        if tcol is not None:
            cols["text"] = tcol
    strong = "text" in cols and header[cols["text"]] in (
        "issue", "finding", "findings", "concern", "blocker", "defect", "bug", "problem", "gap")
    if not strong and "file" not in cols and "line" not in cols \
            and any(c in _EFFORT_COLS for c in header):
        # "| Priority | Title | Why | Effort |": work to do, weighed by its cost, with no
        # place of its own: a plan (the findings it ranks are read where they are told)
        return []
    if shape == "score" or "text" not in cols or not (
            strong or "severity" in cols or "file" in cols or "line" in cols):
        # a scorecard, a status or coverage table, a list of things described: only a row
        # whose status says it fails is a finding, and only in a findings section
        return _failed_row(header, rows, fails, origin)
    idcol = next((i for i, c in enumerate(header) if c in ("#", "id", "no", "no.", "ref", "item",
                                                          "n", "nr", "key")
                  and i not in cols.values()), None)
    fixcol = next((i for i, c in enumerate(header) if c in _FIX_COLS), None)
    described = header[cols["text"]] in ("description", "summary", "title", "details",
                                         *_INTL_SUMMARY_COLS)
    if not (in_findings or "file" in cols and not described or "severity" in cols
            or header[cols["text"]] in ("issue", "finding", "concern", "blocker", "defect",
                                         "bug", "problem")):
        # "| File | Lines | Description |" under a summary: what the change adds, not findings
        return []
    out: list[dict[str, Any]] = []
    for vals in rows[1:]:
        vals = vals + [""] * (len(header) - len(vals))
        if len(vals) > len(header):  # a '|' inside the text: the text column takes the rest
            t, extra = cols["text"], len(vals) - len(header)
            vals = vals[:t] + [" | ".join(vals[t:t + 1 + extra])] + vals[t + 1 + extra:]
        text = _strip_decor(vals[cols["text"]])
        if not text or _NONE_RE.match(text) or _skip_head(text):
            continue
        if "status" in cols and (_RESOLVED.search(vals[cols["status"]]) or (
                _PASSED_ROW.search(_unwrap(vals[cols["status"]]))
                and not _FAILED_ROW.search(_unwrap(vals[cols["status"]])))):
            continue
        if fixcol is not None and (_DONE_FIX.match(_unwrap(vals[fixcol])) or header[fixcol] in (
                "what was done", "action taken", "changes made", "change made")
                and _strip_decor(vals[fixcol]).strip(" -\u2014") and not re.match(
                    r"^[\W_]*(?:none|n/?a|not\b|no\b|tbd|todo|pending|open|nothing)",
                    _strip_decor(vals[fixcol]), re.I)):
            # "| Fix | Wrapped the call … |": what was done, a fixed row; a column that
            # names the work done ("What was done") settles every row it fills in
            continue
        if any(re.search(r"\u2705|\u2714|\b(?:fixed|resolved|done)\b", v, re.I)
               and not re.search(r"\b(?:not|un|partially|partly)\s*(?:fixed|resolved|done)\b", v,
                                 re.I)
               for i, v in enumerate(vals) if i != cols["text"]):
            continue  # a row marked fixed in any of its cells (a re-review's status column)
        rec: dict[str, Any] = {"kind": "finding", "origin": origin}
        if "severity" in cols:
            cell = vals[cols["severity"]]
            if cell.strip() and _PASS_CELL.match(cell):
                continue  # a dimension rated as passing
            w = _SEV_WORD_RE.search(cell)
            _put_severity(rec, w.group(0) if w else severity.lead_severity(cell) or next(
                (emoji_severity(e) or sv for e, sv in _CELL_EMOJI if e in cell), None))
            if "severity" not in rec and "priority" not in rec and (
                    hs := heading_severity(cell) or severity.from_text(_unwrap(cell))):
                rec["severity"] = hs  # "REQUIRED", "must fix", "nice to have"
        elif sev:
            rec["severity"] = sev
        if "file" in cols:
            fv = vals[cols["file"]]
            loc = locate(fv)
            if loc is None and (f := _first_file(fv)):
                loc = Location(f)
            _put_location(rec, loc)
            if "line" in cols and "line" not in rec and "file" in rec:
                lm = re.search(r"\d{1,7}", vals[cols["line"]])
                if lm and int(lm.group(0)) >= 1:
                    rec["line"] = int(lm.group(0))
        elif "line" in cols:  # a line column with no file column: the section's file's line
            lm = re.match(r"\s*[`*_]*L?(\d{1,7})\b", vals[cols["line"]])
            if lm and int(lm.group(1)) >= 1:
                rec["_line"] = int(lm.group(1))
        else:
            _put_location(rec, _cell_place(vals))
        rec["summary"] = text
        if idcol is not None and vals[idcol].strip():
            rec["_id"] = _unwrap(vals[idcol]).strip()
        out.append(rec)
    return out


def _cell_place(vals: list[str]) -> Location | None:
    """With no file column: the place a cell opens with (`` `a.rs:267` - reuse the
    buffer``, `` `a.rs` — keep only … ``, a cell that is only a ``path:line``), the first
    such cell.  A cell that is only a file names what the row is about or what is right
    (a "Reality" column), not where the finding is."""
    for v in vals:
        t = v.strip()[:400]
        loc = locate(t)
        if loc is not None and loc.start <= 2 and loc.line is not None:
            return Location(loc.file, loc.line, loc.end_line)
        m = _CELL_FILE.match(t)
        if m and (f := _first_file(m["p"])) and not _code_name(f):
            return Location(f)
    return None


# a cell that opens with a file in code, then a dash or colon and its words
_CELL_FILE = re.compile(r"^[*_]*(?P<p>`[^`\s]{1,200}`)[*_]*\s*(?:[\u2014\u2013:]|-\s)\s*\w")


def _cells(line: str) -> list[str]:
    s = line.strip()
    if s.startswith("|"):
        s = s[1:]
    if s.endswith("|") and not s.endswith("\\|"):
        s = s[:-1]
    return [c.strip() for c in re.split(r"(?<!\\)\|", s)]


def _flat(node: SyntaxTreeNode, limit: int = 400) -> list[str]:
    """The text lines under ``node`` (list markers as ``- ``), code left out; bounded."""
    out: list[str] = []
    stack: list[tuple[SyntaxTreeNode, int]] = [(node, 0)]
    while stack and len(out) < limit:
        n, depth = stack.pop()
        if n.type in ("fence", "code_block", "html_block"):
            continue
        if n.type in ("paragraph", "heading"):
            lines = _text(n).split("\n")
            out += lines
            continue
        if n.type == "list_item":
            kids = list(n.children)
            if kids and kids[0].type == "paragraph":
                lines = _text(kids[0]).split("\n")
                out.append("- " + lines[0])
                out += lines[1:]
                kids = kids[1:]
            stack += [(k, depth + 1) for k in reversed(kids)]
            continue
        stack += [(k, depth + 1) for k in reversed(n.children)]
    return out


def _cap(s: str) -> str:
    b = s.encode("utf-8")
    return s if len(b) <= SUMMARY_CAP else b[:SUMMARY_CAP].decode("utf-8", "ignore")


# --------------------------------------------------------------------------- #
# Front matter and entry
# --------------------------------------------------------------------------- #
_FRONT_KEY = re.compile(r"^(?P<k>[A-Za-z_][\w-]{0,40})\s*:\s*(?P<v>.*)$")


def front_matter(text: str) -> tuple[dict[str, str], str]:
    """A leading ``---`` YAML block's flat keys (lower-cased) and the text after it."""
    if not text.startswith("---\n"):
        return {}, text
    end = text.find("\n---", 3)
    if end < 0 or end > 8000:
        return {}, text
    block = text[4:end]
    after = text[end + 4:]
    if after and not after.startswith("\n"):
        return {}, text
    keys: dict[str, str] = {}
    for ln in block.split("\n"):
        m = _FRONT_KEY.match(ln.strip())
        if m:
            keys.setdefault(m["k"].lower(), m["v"].strip().strip("'\""))
    if not keys:
        return {}, text
    return keys, "\n" * (block.count("\n") + 2) + after


_REVIEWISH = re.compile(
    r"\b(?:review\w*|findings?|issues?|bugs?|problems?|concerns?|audit\w*|defects?|"
    r"vulnerabilit\w*|blockers?|critique\w*|feedback|regressions?|risks?|flaws?|nits?|"
    r"smells?|errors?|warnings?|suggestions?|recommendations?)\b|\u53d1\u73b0|\u95ee\u9898|"
    r"\u5ba1\u67e5|\u5ba1\u8ba1|\u8bc4\u5ba1|\u7f3a\u9677|"
    # Japanese and traditional Chinese: 指摘, 問題, レビュー, 監査, 審查, 評審
    r"\u6307\u6458|\u554f\u984c|\u30ec\u30d3\u30e5\u30fc|\u76e3\u67fb|\u5be9\u67e5|"
    r"\u8a55\u5be9|"
    # Korean: 리뷰, 검토, 발견, 지적, 문제, 이슈, 결함, 취약
    r"\ub9ac\ubdf0|\uac80\ud1a0|\ubc1c\uacac|\uc9c0\uc801|\ubb38\uc81c|\uc774\uc288|"
    r"\uacb0\ud568|\ucde8\uc57d|"
    # and the review's words in the other languages of the tables
    r"\b(?:revis[a\u00e3]o|revisi[o\u00f3]n|revisione|revue|pr\u00fcfung|auditoria|"
    r"auditor[\u00ed]a|problemas?|probleme?|probl\u00e8mes?|problemi|achados?|hallazgos?|"
    r"befunde?|constats?|rilievi|falhas?|fallos?|fehler|m\u00e4ngel|erros?|errores|"
    r"d[\u00e9e]bitos?|vulnerabilidade[s]?|vulnerabilidad(?:es)?|vuln\u00e9rabilit\u00e9s?|"
    r"vulnerabilit\u00e0|schwachstellen?|riscos?|riesgos?|risiken|risques?|rischi|"
    r"difetti|anomalies?|\u0440\u0435\u0432\u044c\u044e|\u043f\u0440\u043e\u0431\u043b\u0435"
    r"\u043c\w*|\u0437\u0430\u043c\u0435\u0447\u0430\u043d\w*|\u0443\u044f\u0437\u0432"
    r"\u0438\u043c\w*|\u043e\u0448\u0438\u0431\u043a\w*)(?!\w)", re.I)
_REVIEWISH_SCAN = 64 * 1024


# A plain-text answer (no Markdown heading anywhere) writes its section titles as lines
# standing alone: "Critical Issues (Prevent All Tests from Running)", "6. Security
# Analysis" under a rule, "🔴 CRITICAL/HIGH ISSUES FIXED" over its list.  Such a line is
# read as the heading it stands for, so its severity, status or name covers the lines
# under it.  (A "---" under a line is a rule here: plain text draws rules, not titles.)
_HAS_HEADING = re.compile(r"^ {0,3}(?:#{1,6}(?:\s|$)|=+\s*$)", re.M)
# a terminal assistant's rendered answer: its messages open with a bullet glyph at the
# line's start and the lines under one are indented (Claude Code's "●"/"⏺")
_TERMINAL_RENDER = re.compile(r"^[\u25cf\u23fa] \S[^\n]*\n(?:[ \t]*\n)?  +\S", re.M)
_HASH_COMMENT = re.compile(r"^ {1,3}#{1,6}\s")
_LIST_START = re.compile(r"^\s*(?:[-*+\u2022]|\d{1,3}[.)])\s")
_RULE_LINE = re.compile(r"^\s*(?:-{3,}|\*{3,}|_{3,}|\u2500{3,}|\u2550{3,}|\u2501{3,})\s*$")
# a rule drawn with box characters (which Markdown does not read as one): a title's underline
_BOX_RULE = re.compile(r"^\s*(?:[\u2500\u2501\u2550]{3,}|={3,})\s*$")
# (it opens with a letter or a glyph such as an emoji, never with Markdown's own marks)
_PLAIN_TITLE = re.compile(
    r"^ {0,3}(?:\d{1,2}\.\s+)?(?=[^\W\d_]|[^\x00-\x7f\w\s])[^:`|<>#*\[\]]{3,70}$")


# a banner: a title between two runs of the same mark ("=== VERDICT ===")
_BANNER = re.compile(r"^\s{0,3}(?P<m>={2,}|-{2,}|\*{3,}|~{2,})\s*(?P<t>[^\W\d_][^=*~\n]{1,58}?)\s*"
                     r"(?P=m)\s*$")


# An enumerator Chinese and Japanese writers open a line with ("（1）", "1）", "①"), which
# Markdown does not read as a list's: such a line is the ordered item it stands for
_CJK_ENUM = re.compile(r"^(?P<i> {0,3})(?:\uff08(?P<a>\d{1,3})\uff09|(?P<b>\d{1,3})\uff09|"
                       r"(?P<c>[\u2460-\u2473]))[ \t\u3000]*(?=\S)")


def cjk_items(body: str) -> str:
    """``body`` with each line that opens with a CJK enumerator (outside code fences)
    written as the Markdown ordered item it stands for; line count kept."""
    if "\uff09" not in body and not re.search("[\u2460-\u2473]", body):
        return body
    lines = body.split("\n")
    fenced = False
    for i, ln in enumerate(lines):
        if ln.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
            continue
        m = None if fenced else _CJK_ENUM.match(ln)
        if m is not None:
            n = m["a"] or m["b"] or str(ord(m["c"]) - 0x2460 + 1)
            lines[i] = m["i"] + n + ". " + ln[m.end():]
    return "\n".join(lines)


def plain_headings(body: str) -> str:
    """``body`` with each stand-alone title line of a plain-text answer made an ATX
    heading (line count kept); a body that has Markdown headings comes back as it is."""
    lines = body.split("\n")
    terminal = bool(_TERMINAL_RENDER.search(body))
    if terminal:
        # a terminal assistant's rendered answer ("● Summary" over lines indented under
        # it) has no Markdown heading: a "# Run the linter" line there is a comment in
        # code it printed without a fence, kept as text
        lines = [("\\" + ln.lstrip(" ")) if _HASH_COMMENT.match(ln) else ln for ln in lines]
        lines = _join_wrapped_paths(lines)
    elif _HAS_HEADING.search(body):
        return body
    fenced = False
    for i, ln in enumerate(lines):
        s = ln.strip()
        if s.startswith(("```", "~~~")):
            fenced = not fenced
            continue
        bm = _BANNER.match(ln) if not fenced else None
        if bm is not None and [v for v, _, _ in words.verdict_keys(bm["t"].strip())] == [""]:
            lines[i] = "## " + bm["t"].strip()  # "=== VERDICT ===": the key, its value below
            continue
        prev = lines[i - 1] if i else ""
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        # a title over a box-drawn rule ("🟠 HIGH PRIORITY" / "────"), or a banner between
        # two rules, centred with spaces
        boxed = bool(_BOX_RULE.match(nxt)) and (not prev.strip() or bool(_RULE_LINE.match(prev)))
        if fenced or not (_PLAIN_TITLE.match(ln) or boxed and _PLAIN_TITLE.match(s)) \
                or s.endswith((".", ",", ";", "!", "?", "\u3002", "\uff0c", "\uff1b", "\uff01",
                               "\uff1f")):
            continue  # a sentence (its full stop ASCII or full-width), not a title
        if not boxed and (prev.strip() and not _RULE_LINE.match(prev) or nxt.strip() and not (
                _LIST_START.match(nxt) and not _LIST_START.match(ln))):
            continue
        if len(s.split()) > 12 or not re.search(r"[^\W\d_]{3}", s) or _LIST_START.match(ln) \
                and not (re.match(r"^\s*\d{1,2}\.\s", ln) and _RULE_LINE.match(prev)) \
                or locate(s) is not None \
                or _first_file(s) is not None or words.vote_of(s, True) in words.VOTES:
            continue
        lines[i] = "## " + s
        if boxed:
            lines[i + 1] = ""  # its underline, read as the heading's
    if terminal:
        lines = _nest_under_items(lines)
    return "\n".join(lines)


_NUM_ITEM = re.compile(r"^(?P<i> *)\d{1,3}[.)]\s+(?=\S)")


def _nest_under_items(lines: list[str]) -> list[str]:
    """A terminal render's numbered items with what it printed under each at the item's
    own indentation (its ``Location:``, ``Impact:`` lists, its prose and code) indented
    back under the item, as the Markdown it rendered had them: up to the next item, a
    rule, a heading, a table, a severity label or tag, a message bullet or a line
    indented less."""
    out = list(lines)
    cur: int | None = None
    width = 0
    for i, ln in enumerate(lines):
        if not ln.strip():
            continue
        ind = len(ln) - len(ln.lstrip(" "))
        m = _NUM_ITEM.match(ln)
        if cur is not None and (m is not None and len(m["i"]) == cur or ind < cur
                                or ln.startswith("## ") or _RULE_LINE.match(ln)
                                or ln.lstrip().startswith("|")  # a table: read as ever
                                or _sev_label(ln) is not None  # "LOW:" over the next items
                                or _lead_tag(ln) and not _FIELD.match(ln)  # "Minor: …"
                                or ln[:1] in ("\u25cf", "\u23fa")):
            cur = None
        if cur is None:
            if m is not None:
                cur, width = len(m["i"]), m.end() - len(m["i"])
            continue
        out[i] = " " * width + ln
    return out


# a path a terminal wrapped at its width: "- android/…/PairingRep" then "ository.kt:66-79, …"
_WRAPPED_HEAD = re.compile(r"(?:^|\s)(?P<p>[\w.\-]*/[\w./\-]*[\w\-])$")
_WRAPPED_TAIL = re.compile(r"^(?P<i> *)(?P<t>[\w\-]*(?:\.[A-Za-z][A-Za-z0-9]{0,9})?:\d{1,7}\S*|"
                           r"[\w\-]*\.[A-Za-z][A-Za-z0-9]{0,9})(?=[\s,;]|$)")


def _join_wrapped_paths(lines: list[str]) -> list[str]:
    """A terminal render's paths cut at its width, joined on the first of the two lines
    (the rest of the second kept on it, so the line count holds)."""
    out = list(lines)
    for i in range(len(out) - 1):
        a, b = out[i], out[i + 1]
        if len(a) < 60 or not (h := _WRAPPED_HEAD.search(a)):
            continue
        t = _WRAPPED_TAIL.match(b)
        if t is None or not t["t"] or len(t["i"]) > len(a) - len(a.lstrip(" ")) + 2 \
                or _EXT_RE.search(h["p"]) and not t["t"].startswith(":"):
            continue
        out[i] = a + t["t"]
        out[i + 1] = t["i"] + b[t.end():].lstrip(" ,;")
    return out


def read_document(text: str, origin: str = "reviewer") -> Doc:
    """Read one answer as a Markdown document; see the module docstring."""
    token = TRAFFIC_LIGHT.set("\U0001f7e1" in text and "\U0001f7e0" not in text)
    try:
        return _read_document(text, origin)
    finally:
        TRAFFIC_LIGHT.reset(token)


# ballot boxes written as characters are the checkboxes they stand for ("☐ APPROVE",
# "☑ REVISE", "☒ REJECT")
_BALLOT = str.maketrans({"\u2610": "[ ]", "\u2611": "[x]", "\u2612": "[x]"})


# the title of an author's reply to a review: a response to the review or its feedback, a
# resolution of the reviewer's feedback, a response matrix (対応マトリクス), a reply to the
# review's comments (评审意见回复)
_REPLY_TITLE = re.compile(
    r"(?:^|\W)(?:(?:responses?|reply|replies|rebuttal|answers?)\s+to\s+(?:the\s+|a\s+)?"
    r"(?:[\w'-]+\s+){0,2}(?:review|feedback|comments)"
    r"|review(?:er)?(?:'s)?\s+(?:feedback|comments)\s*[-\u2013\u2014:]?\s*(?:resolution|response|"
    r"reply|addressed)"
    r"|(?:review\s+)?response\s+(?:matrix|table)"
    r"|\u5bfe\u5fdc(?:\u30de\u30c8\u30ea\u30af\u30b9|\u8868|\u65b9\u91dd)|\u30ec\u30d3\u30e5\u30fc"
    r"\u5bfe\u5fdc"
    r"|(?:\u8bc4\u5ba1|\u5ba1\u67e5|review)\s*\u610f\u89c1\s*(?:\u56de\u590d|\u7b54\u590d|"
    r"\u5904\u7406)"
    r"|resposta\s+(?:[\u00e0a]|ao?)\s+(?:revis[\u00e3a]o|review)|respuesta\s+a\s+la\s+"
    r"(?:revisi[\u00f3o]n|review))", re.I)


# the parts of a bug report, as a heading or a label alone on its line ("## Steps to
# reproduce", "**Expected behaviour:**", "Actual result:")
_BUG_PART = re.compile(
    r"^\s*(?:#{1,6}\s+|[-*+]\s+)?(?:[*_]{2})?\s*(?:[^\w\s]{1,4}\s*)?(?:\d{1,2}[.)]\s*)?"
    r"(?:(?P<s>steps\s+to\s+reproduce|reproduction(?:\s+steps)?|repro(?:\s+steps)?|how\s+to\s+"
    r"reproduce)|(?P<e>expected(?:\s+(?:behaviou?r|results?|outcome))?)|(?P<a>(?:actual|observed|"
    r"current)\s+(?:behaviou?r|results?|outcome)|actual))"
    r"\s*:?\s*(?:[*_]{2})?\s*:?\s*$", re.I)
_BUG_TITLE = re.compile(r"^\W{0,8}(?:bug(?:\s+report)?|issue|defect)\s*(?:[#-]?\d{1,6}\s*)?"
                        r"[:\u2014\u2013-]\s*", re.I)


_BUG_TITLE_FIELD = re.compile(r"^\W{0,8}(?:title|summary)[\s*_]{0,8}:\s*[*_]*(?P<v>\S.*)$",
                              re.I)


def _bug_report(src: list[str]) -> bool:
    """The text is one bug report: it has one section of steps to reproduce, of the
    expected and of the actual behaviour (two of the three at least, none twice)."""
    seen = {"s": 0, "e": 0, "a": 0}
    fenced = False
    for ln in src[:BUG_SCAN]:
        if ln.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
        if fenced or len(ln) > 80:
            continue
        m = _BUG_PART.match(ln)
        if m is not None:
            seen[next(k for k in "sea" if m[k])] += 1
    return max(seen.values()) == 1 and sum(seen.values()) >= 2


def _bug_finding(src: list[str], origin: str) -> dict[str, Any] | None:
    """A bug report's one finding: its title (the first heading, or a title field) at
    the place and with the severity its fields give (in a table of fields or as lines)."""
    lines: list[str] = []
    title = ""
    for ln in src[:BUG_SCAN]:
        if not title and (hm := re.match(r"^\s{0,3}#{1,6}\s+(?P<t>.+)$", ln)):
            title = _BUG_TITLE.sub("", _strip_decor(hm["t"]).strip())
        cells = _cells(ln) if ln.lstrip().startswith("|") else []
        if len(cells) == 2 and cells[0] and not set(cells[0]) <= set("-: "):
            lines.append(f"{cells[0]}: {cells[1]}")  # "| Severity | High |"
        elif _FIELD.match(ln) or _TEXT_FIELD.match(ln) or _BUG_TITLE_FIELD.match(ln):
            lines.append(ln)
    fields = _fields(lines)
    said = next((_strip_decor(m["v"]).strip() for ln in lines
                 if (m := _BUG_TITLE_FIELD.match(ln))), "")
    head = said or title or next((m["v"].strip() for ln in lines
                                  if (m := _TEXT_FIELD.match(ln)) and m["v"].strip()), "")
    if not head or fields.get("status") and _RESOLVED.search(fields["status"]):
        return None
    rec = _finding(_Item(head, -1, None, lines), origin)
    if rec is None:
        return None
    _finish(rec, head, lines, fields, None, None)
    return _ordered(rec)


def _reply_title(src: list[str]) -> bool:
    """The text's title (its first level-1 heading, within its first lines) names it the
    author's reply to a review."""
    for ln in src[:40]:
        if ln.startswith("# "):
            return _REPLY_TITLE.search(ln[2:200]) is not None
    return False


def _read_document(text: str, origin: str) -> Doc:
    if "\u2610" in text or "\u2611" in text or "\u2612" in text:
        text = text.translate(_BALLOT)
    keys, body = front_matter(text)
    body = plain_headings(cjk_items(body))
    envelope = None
    fpath = keys.get("file") or keys.get("path") or keys.get("file_path")
    if fpath and _pathlike(fpath):
        lm = re.match(r"\d{1,7}$", keys.get("line", "") or keys.get("start_line", "") or "")
        envelope = Location(clean_path(fpath), int(lm.group(0)) if lm else None)
    reader = _Reader(origin, envelope)
    for name, value in keys.items():
        # a front-matter key is read as the same key written in the text ("final_verdict:
        # ship-as-is", "result: PASS", "review_decision: approve")
        for v, strong, rank in words.verdict_keys(re.sub(r"[_-]+", " ", name) + ": " + value):
            if v:
                reader.vote(v, strong, rank)
    try:
        tree = SyntaxTreeNode(_MD.parse(body))
    except Exception:  # noqa: BLE001 - the parser is third-party code; a bad answer is data
        return reader.finish()
    reader.src = body.split("\n")
    reader.fixed_levels = _fixed_levels(reader.src)
    reader.walk(tree.children)
    doc = reader.finish(reader.src)
    if _reply_title(reader.src):
        # "# Reviewer Feedback - Resolution", "# 対応マトリクス: review round 1": the author
        # answers a review; the verdict it names ("Overall Grade: APPROVED WITH MINOR FIX",
        # "Codex 総合判定: APPROVED") is the reviewer's, quoted, not this text's
        doc.votes, doc.reply = [], True
    if doc.findings and _closes_all(reader.src):
        doc.findings = []  # "> Status: all findings resolved in 2aa58fb.": a closed review
    if _bug_report(reader.src) and len({(f.get("file"), f.get("line")) for f in doc.findings
                                         if f.get("file")}) <= 1:
        # a bug report (its fields, then Environment, Steps to reproduce, Expected,
        # Actual, Proposed fix): one finding, the bug; its sections are its parts
        bug = _bug_finding(reader.src, origin)
        doc.findings = [bug] if bug is not None else doc.findings
    if doc.template and not any(v.vote in ("APPROVE", "REVISE", "REJECT") for v in doc.votes):
        doc.findings = []  # a form to fill in: its rows and examples are no one's findings
    elif not any(v.vote for v in doc.votes) and not _REVIEWISH.search(
            re.sub(r"```.*?```", " ", body[:_REVIEWISH_SCAN], flags=re.S)):
        # nothing says this is a review (a to-do list, a bibliography, a test plan):
        # only what names a file may still be a finding
        doc.findings = [f for f in doc.findings if f.get("file")]
    if not doc.findings and envelope is not None:
        sev = badge_severity(body[:4000])
        title = next((t for m in re.finditer(r"\*\*([^*\n]{8,200})\*\*", body)
                      if len(t := unbadge(m.group(1))[0]) >= 8), "")
        if sev or title:
            rec: dict[str, Any] = {"kind": "finding", "origin": origin}
            if sev:
                rec["severity"] = sev
            _put_location(rec, envelope)
            rec["summary"] = _strip_decor(title) or "review comment"
            doc.findings.append(rec)
    return doc
