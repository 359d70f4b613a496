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
import re
from dataclasses import dataclass, field
from typing import Any

from council_filters import severity
from council_filters.verdict import layers

VOTES = ("APPROVE", "REVISE", "REJECT")
SUMMARY_CAP = 500
NO_VERDICT = layers.NO_VERDICT_WARNING
NOT_A_VOTE = "verdict is not APPROVE, REVISE or REJECT \u2014 marked UNKNOWN"

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

SEVERITY_WORD = (
    r"p[0-4]|critical|crit|blocker|blocking|high|severe|major|medium|moderate|warning|warn|"
    r"minor|low|nit|nitpick|trivial|info|informational|suggestion|optional|style|important"
)
_SEV_ONLY = re.compile(
    r"^[^\w]*(?:severity\s*[:\-]?\s*)?(?P<w>" + SEVERITY_WORD + r")"
    r"(?:\s+(?:severity|priority|issues?|findings?|problems?|concerns?))?[^\w]*$", re.I,
)
_SEV_TAG = re.compile(
    r"(?:\*\*|__)?[\[(]\s*(?:severity\s*[:=]\s*)?(?P<a>" + SEVERITY_WORD + r")\s*[\])](?:\*\*|__)?"
    r"|(?:\*\*|__)(?P<b>" + SEVERITY_WORD + r")(?:\*\*|__)"
    r"|(?:severity|priority)\s*[:=]\s*\**(?P<c>" + SEVERITY_WORD + r")\**", re.I,
)
_SEV_LEAD = re.compile(r"^(?P<w>" + SEVERITY_WORD + r")\s*(?::|\u2014|\u2013|-)\s+", re.I)
_SEV_EMOJI = {"\U0001f534": "critical", "\U0001f7e0": "medium", "\U0001f7e1": "minor",
              "\U0001f7e2": "minor", "\u26aa": "minor", "\u2757": "critical"}
_FIELD_RE = re.compile(
    r"^\s*(?:[-*+]\s+)?[*_]*(?P<k>severity|priority|level|location|file|path|where|lines?|"
    r"evidence|finding|issue|problem|description|details?|title)[*_]*\s*[:=][*_]*\s*(?P<v>.*)$",
    re.I,
)
_NONE_RE = re.compile(
    r"^[\s*_`\-]*(?:none|n/?a|nothing(?:\s+\w+)*|no\s+(?:issues?|findings?|problems?|concerns?)"
    r"(?:\s+\w+)*)[.!]?[\s*_`]*$", re.I,
)

# --------------------------------------------------------------------------- #
# Locations
# --------------------------------------------------------------------------- #
# A path starts where no path character precedes it, and its runs never give characters
# back (possessive), so a scan over a long unbroken word stays linear.
_P = (r"(?<![\w@~+.\-\\/:])(?:[A-Za-z]:[\\/]|\.{1,2}[\\/])*+[\w@~+\-][\w@~+.\-]*+"
      r"(?:[\\/][\w@~+.\-]++)*+")
_W = r"[`*_'\"]*"  # wrappers that may surround a path or a line number
_DASH = r"\s*(?:-|\u2013|\u2014|to|\.\.)\s*"
_LOC_PATTERNS = (
    re.compile(_W + r"(?P<p>" + _P + r")#L(?P<l>\d+)(?:" + r"-L?(?P<e>\d+))?" + _W),
    re.compile(_W + r"(?P<p>" + _P + r"):L?(?P<l>\d+)(?:" + _DASH + r"(?P<e>\d+))?"
               r"(?::(?P<c>\d+))?" + _W),
    re.compile(_W + r"(?P<p>" + _P + r")" + _W + r"\s*,?\s*\(?\s*(?:at\s+)?"
               r"(?:lines?|ln|l\.)\s*(?P<l>\d+)(?:" + _DASH + r"(?P<e>\d+))?\s*\)?", re.I),
    re.compile(_W + r"(?P<p>" + _P + r")" + _W + r"\s+L(?P<l>\d+)(?:" + r"-L?(?P<e>\d+))?\b"),
    re.compile(_W + r"(?P<p>" + _P + r")" + _W + r"\s*@\s*(?P<l>\d+)\b"),
    re.compile(r"\blines?\s+(?P<l>\d+)(?:" + _DASH + r"(?P<e>\d+))?\s+(?:of|in)\s+"
               + _W + r"(?P<p>" + _P + r")" + _W, re.I),
)
_FILE_ONLY = re.compile(r"^[`*_'\"]+(?P<p>" + _P + r")[`*_'\"]+")
_EXT = re.compile(r"\.[A-Za-z][A-Za-z0-9]{0,9}$")
_NAMES = frozenset(("makefile", "dockerfile", "jenkinsfile", "gemfile", "rakefile", "procfile",
                    "readme", "license", "vagrantfile", "justfile"))
_LINK = re.compile(r"\[(?P<t>[^\]\n]{1,400})\]\((?P<u>[^)\s]{1,400})\)")


def clean_path(raw: str) -> str:
    """A cited path in its repository spelling: slashes, no ``./``, no ``a/``/``b/`` prefix."""
    p = raw.strip().strip("`*_'\"").replace("\\", "/")
    while p.startswith("./"):
        p = p[2:]
    if (p.startswith("a/") or p.startswith("b/")) and len(p) > 2:
        p = p[2:]
    return p


def _pathlike(p: str) -> bool:
    base = p.replace("\\", "/").rsplit("/", 1)[-1]
    if not base or base.startswith(".") and len(base) == 1:
        return False
    if "/" in p.replace("\\", "/") and any(c.isalpha() for c in base):
        return True
    return bool(_EXT.search(base)) or base.lower() in _NAMES


@dataclass
class Location:
    file: str
    line: int | None = None
    end_line: int | None = None
    column: int | None = None
    start: int = 0
    end: int = 0


def find_location(text: str) -> Location | None:
    """The first cited location in ``text`` (a markdown link counts by its text or URL)."""
    best: Location | None = None
    for m in _LINK.finditer(text):
        inner = find_location(m["t"]) or find_location(m["u"].replace("#L", ":"))
        if inner is not None:
            best = Location(inner.file, inner.line, inner.end_line, inner.column,
                            m.start(), m.end())
            break
    for rx in _LOC_PATTERNS:
        for m in rx.finditer(text):
            if not _pathlike(m["p"]):
                continue
            if best is not None and m.start() >= best.start:
                break
            line = int(m["l"])
            if line < 1 or line > 10_000_000:
                continue
            end = int(m["e"]) if m.groupdict().get("e") else None
            col = int(m["c"]) if m.groupdict().get("c") else None
            best = Location(clean_path(m["p"]), line,
                            end if end and end > line else None,
                            col if col and col >= 1 else None, m.start(), m.end())
            break
    return best


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


def severity_word(word: str) -> str | None:
    return severity.from_text(word)


def _put_severity(rec: dict[str, Any], word: str | None) -> None:
    """``priority`` for a ``Pn`` tag, ``severity`` (canonical) when the word is known."""
    if word is None:
        return
    word = word.strip()
    if re.fullmatch(r"p[0-9]", word, re.I):
        rec["priority"] = word.upper()
    canon = severity_word(word)
    if canon is not None:
        rec["severity"] = canon


def _put_location(rec: dict[str, Any], loc: Location | None) -> None:
    if loc is None:
        return
    rec["file"] = loc.file
    for key in ("line", "end_line", "column"):
        value = getattr(loc, key)
        if value:
            rec[key] = value


# --------------------------------------------------------------------------- #
# Lines, fences, keys
# --------------------------------------------------------------------------- #
def normalise(data: bytes) -> str:
    """The answer as text: leading BOMs gone, then INGEST_TOKEN lines deleted as upstream's
    sed sees lines (ending at LF only, so a CR inside a token line cannot hide a verdict
    behind it), then CRLF and lone CR line ends as LF."""
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


# --------------------------------------------------------------------------- #
# The reader
# --------------------------------------------------------------------------- #
def read(data: bytes, origin: str = "reviewer") -> Reading:
    """Read one answer; see the module docstring for the rules."""
    text = normalise(data)
    doc = _json_answer(text)
    if doc is not None:
        return _from_json(doc, origin)
    lines = text.split("\n")
    span = _wrapper(lines, whole=True) or _wrapper(lines, whole=False)
    if span is not None:
        lines = lines[span[0]:span[1]]
    return _read_lines(lines, origin)


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
# Findings
# --------------------------------------------------------------------------- #
@dataclass
class _Item:
    head: str
    indent: int
    sev: str | None  # from a group label above it
    rest: list[str] = field(default_factory=list)


def _sev_only(text: str) -> str | None:
    t = text.strip()
    if not t or len(t) > 60:
        return None
    for emoji, sev in _SEV_EMOJI.items():
        if t.replace("*", "").strip() == emoji:
            return sev
    m = _SEV_ONLY.match(t)
    return severity_word(m["w"]) if m else None


def parse_findings(
    lines: list[str], mask: list[bool] | None = None, origin: str = "reviewer",
    *, located_only: bool = False,
) -> list[dict[str, Any]]:
    """Findings records from the lines of a findings section."""
    if mask is None:
        mask = code_mask(lines)
    items: list[_Item] = []
    table: list[dict[str, Any]] = []
    current: _Item | None = None
    group_sev: str | None = None
    group_indent = -2
    i = 0
    while i < len(lines):
        raw = lines[i]
        if mask[i]:
            i += 1
            continue
        s = raw.strip()
        if not s:
            i += 1
            continue
        if s.startswith("|") and i + 1 < len(lines) and re.match(r"^\s*\|?[\s:|-]+\|[\s:|-]*$",
                                                                  lines[i + 1]):
            j = i + 2
            rows: list[str] = []
            while j < len(lines) and lines[j].strip().startswith("|"):
                rows.append(lines[j])
                j += 1
            table += _table(s, rows, origin)
            current = None
            i = j
            continue
        indent = len(raw) - len(raw.lstrip())
        hm = _HEADING_RE.match(s)
        bm = _BULLET_RE.match(raw)
        if hm:
            text = hm.group(2)
            sev = _sev_only(text)
            if sev:
                group_sev, group_indent, current = sev, -1, None
            else:
                bh = _BULLET_RE.match(text)
                current = _Item(bh.group(2) if bh else text, -1, group_sev)
                items.append(current)
            i += 1
            continue
        if bm:
            text = bm.group(2)
            sev = _sev_only(text)
            if sev and (current is None or indent <= current.indent or current.indent < 0
                        and not current.rest):
                group_sev, group_indent, current = sev, indent, None
                i += 1
                continue
            starts = current is None or indent <= current.indent or (
                current.indent < 0 and indent == 0 and _starts_finding(text)
            )
            if group_indent >= 0 and indent <= group_indent and not sev:
                group_sev, group_indent = None, -2
            if starts:
                current = _Item(text, indent, group_sev)
                items.append(current)
            else:
                assert current is not None
                current.rest.append(s)
            i += 1
            continue
        if current is not None and (indent > 0 or not _starts_finding(s, located=True)):
            current.rest.append(s)
        elif _starts_finding(s):
            current = _Item(s, indent, group_sev)
            items.append(current)
        i += 1
    out = [r for it in items if (r := _finding(it, origin)) is not None]
    out += table
    if located_only:
        out = [r for r in out if r.get("file") and r.get("line")]
    return out


def _finding_heading(text: str) -> bool:
    """A heading that is a finding (or a severity group), not the next section."""
    t = text.strip()
    if re.match(r"^(?:\*\*)?(?:finding\s*)?#?\d{1,3}(?:[.):]|\*\*|\s)", t, re.I):
        return True
    return _starts_finding(t) or _sev_only(t) is not None or find_location(t) is not None


def _starts_finding(text: str, located: bool = False) -> bool:
    """A plain line that opens a finding: a location (or, unless ``located``, a severity
    tag) at its start."""
    if _FIELD_RE.match(text):
        return False
    t = _LEAD_JUNK.sub("", text).strip()
    t2 = _SEV_TAG.sub("", t, count=1).strip() if _SEV_TAG.match(t) else t
    lm = _SEV_LEAD.match(t2)
    if lm:
        t2 = t2[lm.end():]
    loc = find_location(t2[:300])
    if loc is not None and loc.start <= 3:
        return True
    return not located and bool(_SEV_TAG.match(t) or _SEV_LEAD.match(t))


def _strip_decor(text: str) -> str:
    t = text.replace("**", "").replace("__", " ").strip() if "**" in text else text.strip()
    t = re.sub(r"^[\s:\-\u2013\u2014|,;.]+", "", t)
    t = re.sub(r"[\s:\-\u2013\u2014|,;]+$", "", t)
    return t.strip()


def _finding(it: _Item, origin: str) -> dict[str, Any] | None:
    head = it.head.strip()
    if _NONE_RE.match(head) and not it.rest:
        return None
    sev_raw: str | None = None
    # severity: an emoji, a tag anywhere near the start, or a leading word
    junk = _LEAD_JUNK.match(head)
    if junk:
        for emoji, sev in _SEV_EMOJI.items():
            if emoji in junk.group(0):
                sev_raw = sev
        head = head[junk.end():]
    m = _SEV_TAG.search(head)
    if m and m.start() <= max(40, len(head) // 2) or m and m.end() >= len(head.rstrip()) - 1:
        sev_raw = m["a"] or m["b"] or m["c"]
        head = (head[: m.start()] + " " + head[m.end():]).strip()
    lead = 0
    if sev_raw is None or not m:
        lm = _SEV_LEAD.match(head)
        if lm:  # a leading "Nit:" is read; it stays part of the text unless a location follows
            sev_raw = lm["w"]
            lead = lm.end()
    head = head.strip()
    loc = find_location(head)
    body = head
    if loc is not None:
        before, after = head[: loc.start], head[loc.end:]
        if lead and loc.start >= lead and not before[lead:].strip(" `*_"):
            before = ""
        if re.search(r"[(\[]\s*$", before) and (re.match(r"\s*[)\]]", after)
                                                   or head[loc.end - 1: loc.end] == ")"):
            before = re.sub(r"[(\[]\s*$", "", before)
            after = re.sub(r"^\s*[)\]]", "", after)
        b = _strip_decor(before)
        a = _strip_decor(after)
        sw = re.fullmatch(r"[\W_]*(" + SEVERITY_WORD + r")[\W_]*", b, re.I) if b else None
        if sw:
            sev_raw = sev_raw or sw.group(1)
            b = ""
        if not b or re.fullmatch(r"[\W_]*(?:in|at|see)?[\W_]*", b, re.I):
            body = a
        elif not a or re.fullmatch(r"[\W_]*", a):
            body = re.sub(r"\s+(?:in|at|see)\s*$", "", b, flags=re.I)
        else:
            body = head  # the location sits mid-sentence: keep the sentence whole
    rest: list[str] = []
    evidence: str | None = None
    for ln in it.rest:
        fm = _FIELD_RE.match(ln)
        if fm:
            k, v = fm["k"].lower(), fm["v"].strip()
            if k in ("severity", "priority", "level"):
                sv = re.search(SEVERITY_WORD, v, re.I)
                if sv and sev_raw is None:
                    sev_raw = sv.group(0)
                    continue
            elif k in ("location", "file", "path", "where", "line", "lines") and loc is None:
                loc = find_location(v) or (
                    Location(clean_path(v)) if k in ("file", "path") and _pathlike(_unwrap(v))
                    else None)
                if loc is not None:
                    continue
            elif k == "evidence" and evidence is None:
                evidence = v.strip().strip('"')
                continue
            elif k in ("finding", "issue", "problem", "description", "details", "detail",
                       "title") and not _strip_decor(body):
                body = v
                continue
        if loc is None:
            loc = find_location(ln) if not rest and not body.strip() else None
            if loc is not None and not _strip_decor(ln[: loc.start] + ln[loc.end:]):
                continue
            loc = None if loc is None or loc.start > 3 else loc
        rest.append(ln)
    if loc is None and it.head:
        fm = _FILE_ONLY.match(it.head.strip())
        if fm and _pathlike(fm["p"]):
            loc = Location(clean_path(fm["p"]))
    summary = _strip_decor(body)
    if not summary and rest:
        summary = _strip_decor(rest.pop(0))
    if not summary:
        summary = _strip_decor(it.head) or it.head.strip()
    if not summary or (_NONE_RE.match(summary) and loc is None):
        return None
    rec: dict[str, Any] = {"kind": "finding", "origin": origin}
    _put_severity(rec, sev_raw if sev_raw is not None else it.sev)
    _put_location(rec, loc)
    rec["summary"] = summary
    if rest:
        rec["discussion"] = "\n".join(_BULLET_MARK.sub("", r).strip() for r in rest)
    if evidence:
        rec["evidence"] = evidence
    return rec


_COLUMNS = (
    ("file", ("file", "path", "location", "where", "file:line", "file/line")),
    ("line", ("line", "lines", "line(s)", "ln")),
    ("severity", ("severity", "priority", "level", "sev", "prio")),
    ("text", ("issue", "finding", "description", "problem", "summary", "title", "details",
              "comment", "message", "concern")),
)


def _table(header: str, rows: list[str], origin: str) -> list[dict[str, Any]]:
    cells = [_unwrap(c).lower() for c in header.strip().strip("|").split("|")]
    cols: dict[str, int] = {}
    for name, words in _COLUMNS:
        for idx, c in enumerate(cells):
            if c in words and name not in cols and idx not in cols.values():
                cols[name] = idx
    if "text" not in cols:
        cols["text"] = len(cells) - 1
    out: list[dict[str, Any]] = []
    for row in rows:
        vals = [c.strip() for c in row.strip().strip("|").split("|")]
        if len(vals) < len(cells):
            vals += [""] * (len(cells) - len(vals))
        if len(vals) > len(cells):  # a '|' inside the text: the text column takes the rest
            t = cols["text"]
            vals = vals[:t] + [" | ".join(vals[t: t + 1 + len(vals) - len(cells)])] + \
                vals[t + 1 + len(vals) - len(cells):]
        text = _strip_decor(vals[cols["text"]])
        if not text or _NONE_RE.match(text):
            continue
        rec: dict[str, Any] = {"kind": "finding", "origin": origin}
        if "severity" in cols:
            w = re.search(SEVERITY_WORD, vals[cols["severity"]], re.I)
            _put_severity(rec, w.group(0) if w else None)
        if "file" in cols:
            fv = vals[cols["file"]]
            loc = find_location(fv)
            if loc is None and _pathlike(_unwrap(fv)):
                loc = Location(clean_path(fv))
            _put_location(rec, loc)
            if "line" in cols and "line" not in rec:
                lm = re.search(r"\d+", vals[cols["line"]])
                if lm and int(lm.group(0)) >= 1:
                    rec["line"] = int(lm.group(0))
        rec["summary"] = text
        out.append(rec)
    return out


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
    out = Reading(found_verdict=True)
    v = _get(doc, "verdict", "decision")
    word = verdict_word(str(v)) if isinstance(v, str) else None
    if word in VOTES:
        out.verdict = word
    else:
        out.warnings.append(NOT_A_VOTE)
    c = _get(doc, "confidence")
    if isinstance(c, (str, int, float)) and not isinstance(c, bool):
        out.confidence = confidence_word(str(c))
    s = _get(doc, "summary", "overview")
    if isinstance(s, str):
        out.summary = _cap(" ".join(s.split()))
    items = _get(doc, "findings", "issues", "comments", "problems")
    for item in items if isinstance(items, list) else []:
        rec = _json_finding(item, origin)
        if rec is not None:
            out.findings.append(rec)
    out.findings_text = "\n".join(_item_text(f) for f in out.findings)
    return out


def _json_finding(item: Any, origin: str) -> dict[str, Any] | None:
    if isinstance(item, str):
        found = parse_findings([f"- {item}"], None, origin)
        return found[0] if found else None
    if not isinstance(item, dict):
        return None
    text = _get(item, "title", "summary", "message", "description", "issue", "finding",
                "problem", "comment", "text", "body", "subject")
    if not isinstance(text, str) or not text.strip():
        return None
    rec: dict[str, Any] = {"kind": "finding", "origin": origin}
    sev = _get(item, "severity", "priority", "level")
    if isinstance(sev, str):
        _put_severity(rec, sev)
    path = _get(item, "file", "path", "filename", "location")
    line = _get(item, "line", "start_line", "line_number", "linenumber", "lines", "startline")
    loc = find_location(path) if isinstance(path, str) else None
    if loc is not None:
        rec["file"], rec["line"] = loc.file, loc.line
        if loc.end_line:
            rec["end_line"] = loc.end_line
    elif isinstance(path, str) and path.strip():
        rec["file"] = clean_path(path)
    if "line" not in rec or rec.get("line") is None:
        rec.pop("line", None)
        if isinstance(line, int) and not isinstance(line, bool) and line >= 1:
            rec["line"] = line
        elif isinstance(line, str) and (lm := re.match(r"\s*L?(\d+)(?:\s*[-\u2013]\s*L?(\d+))?",
                                                     line)):
            rec["line"] = int(lm.group(1))
            if lm.group(2) and int(lm.group(2)) > rec["line"]:
                rec["end_line"] = int(lm.group(2))
    end = _get(item, "end_line", "endline")
    if isinstance(end, int) and not isinstance(end, bool) and end > rec.get("line", end):
        rec["end_line"] = end
    if rec.get("line") is not None and rec["line"] < 1:
        rec.pop("line")
    rec["summary"] = " ".join(text.split())
    disc = _get(item, "details", "explanation", "rationale", "suggestion", "recommendation",
                "fix", "discussion")
    if isinstance(disc, str) and disc.strip():
        rec["discussion"] = disc.strip()
    return rec


# --------------------------------------------------------------------------- #
# As council-parse-verdict's Layer 1 result
# --------------------------------------------------------------------------- #
def layer1(data: bytes, origin: str = "reviewer") -> tuple[layers.Layer1, list[dict[str, Any]]]:
    """The tolerant reading as a Layer-1 result (for the 6-key return and the record
    fields) and the structured findings.

    The findings text keeps upstream's cap and sentinel escaping; the summary is cut
    at a character boundary.  An answer with no verdict keeps its findings (nothing
    is lost), and its summary is the reading's, else upstream's flattened head.
    """
    got = read(data, origin)
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
