"""The answer as lines: normalisation, fenced code, keys, and the verdict and
confidence words (part of the tolerant reading, see ``reading``).

Nothing here raises on any input.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from council_filters.verdict import layers

# --------------------------------------------------------------------------- #
# Vocabulary
# --------------------------------------------------------------------------- #
_VERDICT_WORDS: tuple[tuple[str, str], ...] = (
    (r"approve[sd]?|approval|lgtm|accept(?:ed|s)?|ship\s+it", "APPROVE"),
    (r"revise[sd]?|revision|request(?:s|ed)?\s+changes|changes\s+requested|"
     r"needs?\s+(?:changes|work|revision)", "REVISE"),
    (r"reject(?:s|ed)?|rejection|do\s+not\s+merge|block(?:ed|s)?", "REJECT"),
    (r"timeout|timed\s+out|error|unavailable|unknown", "BAD"),
)
_VERDICT_RE = re.compile(
    r"(?<![A-Za-z])(?:" + "|".join(f"(?P<g{i}>{p})" for i, (p, _) in enumerate(_VERDICT_WORDS))
    + r")(?![A-Za-z])", re.I,
)

_KEYS: dict[str, str] = {}
for _name, _words in (
    ("verdict", ("verdict", "overall verdict", "final verdict", "my verdict", "review verdict",
                 "council verdict", "verdict (final)")),
    ("confidence", ("confidence", "confidence level", "overall confidence")),
    ("summary", ("summary", "overall summary", "tl;dr", "tldr", "executive summary")),
    ("findings", ("findings", "key findings", "issues", "issues found", "detailed findings",
                  "review findings", "problems", "concerns", "problems found", "comments")),
):
    for _w in _words:
        _KEYS[_w] = _name
# Section headings that end a findings section without being one of the keys.
OTHER_SECTIONS = frozenset((
    "strengths", "positives", "what's good", "what works well", "praise", "notes",
    "next steps", "recommendation", "recommendations", "conclusion", "questions",
    "overview", "context", "scope", "changes reviewed", "what i checked", "testing",
))

_KEY_RE = re.compile(
    r"^(?P<pre>[*_`~]*)\s*(?P<key>[A-Za-z][A-Za-z;'() ]{1,30}?)\s*(?P<mid>[*_`~]*)\s*"
    r"(?P<sep>:|：|\u2014|\u2013|=|-(?=\s)|$)\s*(?P<post>[*_`~]*)\s*(?P<value>.*)$"
)
_HEADING_RE = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_BULLET_MARK = re.compile(r"\A(?:[-*+\u2022]|\d{1,3}[.)])\s+")
_BULLET_RE = re.compile(r"^(\s*)(?:[-*+\u2022]|\d{1,3}[.)]|\*\*\d{1,3}[.)]\*\*)\s+(.*)$")
_FENCE_RE = re.compile(r"^\s*(`{3,}|~{3,})\s*([^`\s]*)[^`]*$")
_TEXTISH = ("", "text", "markdown", "md", "txt", "plain", "plaintext", "output", "review")
_LEAD_JUNK = re.compile(r"^[^\w*_`|#>\[(\-+]+")  # emoji and symbols before a key


def verdict_word(value: str) -> str | None:
    """APPROVE/REVISE/REJECT named first in ``value``; "BAD" for a status word; None if none."""
    m = _VERDICT_RE.search(value)
    if not m:
        return None
    for i, (_, word) in enumerate(_VERDICT_WORDS):
        if m.group(f"g{i}"):
            return word
    return None


def confidence_word(value: str) -> str:
    v = value.strip().strip("*_`").lower()
    for word in ("high", "medium", "low"):
        if re.match(rf"\W*{word}\b", v):
            return word.upper()
    m = re.match(r"\W*([01](?:\.\d+)?|\d{1,3}\s*%)", v)
    if m:
        s = m.group(1).replace(" ", "")
        x = float(s[:-1]) / 100 if s.endswith("%") else float(s)
        if 0 <= x <= 1:
            return "HIGH" if x >= 0.8 else "MEDIUM" if x >= 0.5 else "LOW"
    return ""


def _unwrap(value: str) -> str:
    v = value.strip()
    v = re.sub(r"^[*_`~\"']+|[*_`~\"']+$", "", v).strip()
    return v

# --------------------------------------------------------------------------- #
# Lines, fences, keys
# --------------------------------------------------------------------------- #
def normalise(data: bytes) -> str:
    """The answer as text: UTF-16 with its byte-order mark decoded, leading BOMs gone,
    then INGEST_TOKEN lines deleted as upstream's sed sees lines (ending at LF only, so a
    CR inside a token line cannot hide a verdict behind it), then CRLF and lone CR line
    ends as LF."""
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):  # UTF-16 (what PowerShell's ">" writes)
        data = data.decode("utf-16", "replace").encode("utf-8", "surrogatepass")
    while data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    text = layers.strip_ingest(data).decode("utf-8", "replace")
    return text.replace("\r\n", "\n").replace("\r", "\n")


def code_mask(lines: list[str]) -> list[bool]:
    """True for lines inside (or delimiting) a fenced code block."""
    mask = [False] * len(lines)
    fence: str | None = None
    indent = 0
    for i, ln in enumerate(lines):
        m = _FENCE_RE.match(ln)
        if fence is None:
            if m:
                fence = m.group(1)
                indent = len(ln) - len(ln.lstrip())
                mask[i] = True
        else:
            mask[i] = True
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence) \
                    and not m.group(2) and len(ln) - len(ln.lstrip()) <= indent + 3:
                fence = None
    return mask


def _wrapper(lines: list[str], whole: bool) -> tuple[int, int] | None:
    """(first, last) inner line indexes of a text fence holding the answer, or None.

    ``whole``: the fence must open on the first non-blank line.  Otherwise the
    first fence that opens (outside code) with a text-like info string and
    closes on the last non-blank line qualifies, when no Verdict key comes
    before it.
    """
    nonblank = [i for i, ln in enumerate(lines) if ln.strip()]
    if not nonblank:
        return None
    last = nonblank[-1]
    close = _FENCE_RE.match(lines[last])
    if not close or close.group(2):
        return None
    mask = code_mask(lines)
    for i in nonblank:
        if i >= last:
            break
        m = _FENCE_RE.match(lines[i])
        opens = m is not None and mask[i] and (i == 0 or not mask[i - 1] or
                                               _FENCE_RE.match(lines[i - 1]) is not None)
        if opens and m is not None and m.group(2).lower() in _TEXTISH \
                and m.group(1)[0] == close.group(1)[0]:
            return i + 1, last
        if whole:
            return None
        if not mask[i] and (k := key_of(lines[i])) is not None and k.name == "verdict":
            return None
        if not mask[i] and re.match(r"^ {0,3}#{1,6}\s", lines[i]):
            return None  # a heading before it: the answer is the document, not a later fence
    return None


@dataclass
class Key:
    name: str  # verdict, confidence, summary, findings, other
    value: str
    heading: int  # heading level, 0 when not a heading


def key_of(line: str) -> Key | None:
    """The key a line announces (``**Verdict:** X``, ``## Summary``, ``| Verdict | X |``...)."""
    s = line.strip()
    level = 0
    while s.startswith(">"):
        s = s[1:].lstrip()
    hm = _HEADING_RE.match(s)
    if hm:
        level = len(hm.group(1))
        s = hm.group(2)
    bm = _BULLET_RE.match(s)
    if bm and not level:
        s = bm.group(2)
    if s.startswith("|"):
        cells = [c.strip() for c in s.strip().strip("|").split("|")]
        if len(cells) >= 2:
            name = _KEYS.get(_unwrap(cells[0]).rstrip(":").strip().lower())
            if name in ("verdict", "confidence", "summary"):
                return Key(name, cells[1], 0)
        return None
    s = _LEAD_JUNK.sub("", s).strip()
    m = _KEY_RE.match(s)
    if not m:
        return None
    word = " ".join(m["key"].lower().split())
    name = _KEYS.get(word)
    if name is None:
        if level and word in OTHER_SECTIONS and not m["value"]:
            return Key("other", "", level)
        return None
    value = m["value"]
    if not m["sep"] and value:
        return None
    if m["sep"] in ("-", "=") and not value:
        return None
    value = re.sub(r"\s*[*_`~]+\s*$", "", value) if m["pre"] or m["post"] else value
    value = value.strip()
    if (m["pre"] or m["mid"]) and not m["sep"] and value:
        return None
    return Key(name, value, level)
