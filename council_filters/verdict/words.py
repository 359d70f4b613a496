"""The verdict-word table: reviewers' vocabulary to APPROVE / REVISE / REJECT.

One table, read by the tolerant reader for every key value (``Verdict: LGTM``,
``**Decision:** REQUEST CHANGES``, ``## Verdict`` then ``**APPROVE_WITH_CHANGES**``,
JSON ``overall_correctness``...).  Only the *leading* phrase of a value counts
(after emphasis, backticks, quotes and emoji), so a sentence that merely mentions a
word ("approve once the tests pass") is not a verdict; the rows are tried in order
and the first that matches wins.  The table is reproduced in docs/parse-verdict.md.

A value that enumerates choices (``APPROVE | REVISE | REJECT``, ``approve / bounce``,
``LGTM or CHANGES``) or is a placeholder (``<verdict>``, ``[GO / MODIFY / BLOCK]``)
is never a verdict.
"""

from __future__ import annotations

import re

# A short word counts only when the value ends there or punctuation follows ("GO.",
# "PASS — 37 checks"), not when a sentence goes on ("go with option A").
_END = r"(?=\s*(?:$|[.!,;:()\[\]\-\u2013\u2014/|*_`]))"

# (pattern on the leading phrase, vote).  "BAD" marks a status a reviewer cannot give
# itself (TIMEOUT, ERROR...): the value is read but gives UNKNOWN with a warning.
VERDICT_TABLE: tuple[tuple[str, str], ...] = (
    # asks for changes, whatever it starts with
    (r"approved?[\s_-]+with[\s_-]+(?:changes|modifications|conditions|fixes|required\s+changes)",
     "REVISE"),
    (r"conditional(?:ly)?[\s_-]+(?:pass(?:ed)?|approved?|approval|go|accept(?:ed)?)", "REVISE"),
    (r"conditional" + _END, "REVISE"),
    (r"pass(?:ed)?[\s_-]+with[\s_-]+(?:fixes|changes|conditions|comments\s+to\s+address)",
     "REVISE"),
    (r"request(?:s|ed|ing)?[\s_-]+changes?|changes?[\s_-]+(?:requested|required|needed)",
     "REVISE"),
    (r"needs?[\s_-]+(?:changes?|work|revision|fix(?:es)?|rework|attention)", "REVISE"),
    (r"no[\s_-]?go|not[\s_-]+ready|not[\s_-]+approved|fix[\s_-]+(?:required|needed)", "REVISE"),
    (r"revise[sd]?|revision(?:s)?(?:[\s_-]+(?:required|needed|requested))?|rework|iterate",
     "REVISE"),
    (r"patch[\s_-]+is[\s_-]+incorrect", "REVISE"),
    (r"fail(?:ed|s)?" + _END, "REVISE"),
    # does not merge
    (r"do[\s_-]+not[\s_-]+merge|don'?t[\s_-]+merge|dnm|reject(?:s|ed)?|rejection"
     r"|(?:block(?:ed|s)?|blocker|blocking)" + _END, "REJECT"),
    # approves
    (r"approved?[\s_-]+with[\s_-]+(?:suggestions|comments|nits?|minor(?:\s+\w+)?|notes)",
     "APPROVE"),
    (r"approve[sd]?|approval|lgtm|looks[\s_-]+good(?:[\s_-]+to[\s_-]+me)?|accept(?:ed|s)?"
     r"|ship[\s_-]+it|ready[\s_-]+to[\s_-]+(?:merge|ship)|patch[\s_-]+is[\s_-]+correct"
     r"|green[\s_-]+light"
     r"|(?:go|pass(?:ed|es)?)" + _END, "APPROVE"),
    # a reviewer cannot declare itself failed
    (r"timeout|timed[\s_-]+out|error|unavailable|unknown", "BAD"),
)

_LEAD = re.compile(r"^[\W_]+", re.U)
_TABLE = tuple((re.compile(r"(?:" + p + r")(?![A-Za-z])", re.I), v) for p, v in VERDICT_TABLE)
_ANY_WORD = re.compile(
    r"(?<![A-Za-z])(?:approve[sd]?|approval|lgtm|revise[sd]?|reject(?:ed)?|request[\s_-]+changes|"
    r"changes[\s_-]+(?:requested|required)|needs?[\s_-]+\w+|no[\s_-]?go|go|block|pass|fail|"
    r"accept(?:ed)?|bounce|modify|improve|reconsider|solid|iterate|changes|reflect|nits?)"
    r"(?![A-Za-z])", re.I)
_CHOICE_SEP = re.compile(r"\s*(?:\||/|\bor\b|,)\s*", re.I)
_PLACEHOLDER = re.compile(r"^\s*(?:<[^>\n]{1,80}>|\[[^\]\n]{1,80}\]|\{[^}\n]{1,80}\})\s*$")


def is_enumeration(value: str) -> bool:
    """True for a list of choices or a placeholder, not a verdict."""
    v = value.strip().strip("*_`\"'")
    if _PLACEHOLDER.match(v):
        return True
    head = v[:160]
    words = _ANY_WORD.findall(head)
    if len(words) >= 2 and _CHOICE_SEP.search(head):
        # two verdict words joined by a choice separator
        parts = [p for p in re.split(r"\s*(?:\||/|\bor\b)\s*", head, flags=re.I) if p.strip()]
        voted = [p for p in parts if _ANY_WORD.search(p)]
        return len(voted) >= 2
    return False


def vote_of(value: str) -> str | None:
    """APPROVE, REVISE or REJECT for the value's leading phrase; "BAD" for a status word;
    None when the value does not start with a verdict (or enumerates choices)."""
    if is_enumeration(value):
        return None
    v = _LEAD.sub("", value.strip())
    v = v.replace("**", "").replace("__", "").replace("`", "")
    v = _LEAD.sub("", v)[:120]
    for rx, vote in _TABLE:
        if rx.match(v):
            return vote
    return None
