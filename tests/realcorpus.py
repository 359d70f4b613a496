"""A realistic reviewer-answer corpus with ground truth.

Each *scenario* is one council run over one change: a handful of problems
planted in a few files (some pairs of different problems on neighbouring
lines, often about the same identifier), and four reviewers that each cite a
subset of them, at lines a little apart, in their own words, with their own
formatting habits: key spellings and emphasis, headings, tables, fences,
preambles, BOMs and CR/LF line ends, list markers, severity spellings and
positions, location spellings and path prefixes, JSON answers, and now and
then a failed reviewer.  The truth says what every reviewer's verdict is,
which findings each wrote (its own text), and which findings name the same
problem.

Used by ``tests/test_realworld.py`` (fixed seeds) and ``bench/bench_realworld.py``
(fresh seeds, the whole chain through the executables).
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field

REVIEWERS = ("claude", "codex", "gemini", "opencode")

# kind -> (severity, phrasings).  {v} is an identifier, {f} a function name.
PROBLEMS: dict[str, tuple[str, tuple[str, ...]]] = {
    "sqli": ("critical", (
        "SQL injection: `{v}` is interpolated straight into the query string",
        "user-controlled {v} is concatenated into raw SQL in {f}(), so the query is injectable",
        "{f} builds its SQL with an f-string around {v}; bind it as a parameter instead",
        "Unparameterised query: `{v}` reaches the WHERE clause without sanitisation",
        "Possible SQLi through {v} in {f}",
    )),
    "nullref": ("medium", (
        "`{v}` can be None here and is dereferenced without a check",
        "Missing null check: {f} assumes {v} is always set",
        "{v} may be undefined when the lookup misses; guard before using it",
        "Potential None dereference of {v} in {f}()",
    )),
    "leak": ("medium", (
        "The handle opened for {v} is never closed (use a context manager)",
        "Resource leak: {f} opens {v} but does not close it on the error path",
        "{v} leaks a file descriptor when {f} returns early",
        "File object {v} is not released; wrap it in `with`",
    )),
    "race": ("critical", (
        "Race condition: {v} is read and updated without holding the lock",
        "{f} mutates shared {v} from several threads with no synchronisation",
        "Check-then-act on {v} is not atomic; two requests can both pass the check",
        "Concurrent calls to {f} race on {v}",
    )),
    "secret": ("critical", (
        "Hard-coded credential in {v}; load it from the environment",
        "{v} embeds a password literal in source",
        "Secret committed in code: {v} should come from the secret store",
    )),
    "traversal": ("critical", (
        "Path traversal: {v} is joined to the upload dir without rejecting `..`",
        "{f} lets a caller escape the base directory through {v}",
        "User-supplied {v} is used as a file path unchecked (directory traversal)",
    )),
    "offbyone": ("medium", (
        "Off-by-one: the loop over {v} stops one element early",
        "`range(len({v}) - 1)` skips the last item of {v}",
        "{f} drops the final element of {v} (boundary is exclusive twice)",
    )),
    "swallow": ("medium", (
        "Bare `except:` in {f} swallows every error, including KeyboardInterrupt",
        "{f} catches all exceptions around {v} and silently ignores them",
        "Errors from {v} are swallowed; at least log them",
    )),
    "nplus1": ("medium", (
        "N+1 queries: {f} issues one query per item of {v}",
        "{f} hits the database inside the loop over {v}; batch it",
        "Querying per element of {v} makes {f} quadratic in round trips",
    )),
    "timeout": ("minor", (
        "The timeout passed to {f} is in milliseconds but the client expects seconds",
        "{v} is given in ms while {f} takes seconds, so it waits 1000x too long",
        "Timeout units mismatch for {v}",
    )),
    "mutable": ("minor", (
        "Mutable default argument {v}=[] in {f} is shared between calls",
        "{f} uses a list literal as the default for {v}; it persists across calls",
        "Default value of {v} is a shared mutable list",
    )),
    "naming": ("minor", (
        "Nit: `{v}` is a vague name; something like `{v}_count` says more",
        "Rename {v}; the name does not say what it holds",
        "Naming: {v} is unclear",
    )),
    "tests": ("minor", (
        "No test covers the error branch of {f}",
        "{f} has no unit test for an empty {v}",
        "Missing test coverage for {f} when {v} is empty",
    )),
    "xss": ("critical", (
        "XSS: {v} is rendered into the page without escaping",
        "{f} writes unescaped {v} into HTML (cross-site scripting)",
        "Untrusted {v} is inserted into the template as raw markup",
    )),
}

FILES = (
    "src/app/db/query.py", "src/app/api/users.py", "lib/storage/upload.py", "src/app/cache.py",
    "services/billing/invoice.py", "src/app/views/profile.py", "pkg/worker/jobs.py",
    "src/app/config.py", "tools/sync/remote.py", "src/app/auth/session.py",
)
IDENTS = ("user_id", "order", "fname", "rows", "session", "payload", "retries", "items",
          "account", "query", "token_ttl", "conn", "path", "limit", "cursor", "result")
FUNCS = ("get_user", "load_rows", "save_upload", "refresh", "build_invoice", "render_profile",
         "run_job", "read_config", "sync_remote", "open_session", "fetch_all", "handle")

SEV_WORDS = {
    "critical": ("P1", "high", "critical", "blocker", "High", "Critical", "CRITICAL"),
    "medium": ("P2", "medium", "major", "moderate", "Medium", "warning", "Major"),
    "minor": ("P3", "low", "minor", "nit", "Low", "Minor", "suggestion"),
}
SEV_EMOJI = {"critical": "🔴", "medium": "🟠", "minor": "🟡"}
PRIORITY = {"critical": "P1", "medium": "P2", "minor": "P3"}

PREAMBLES = (
    "I reviewed the change carefully. Here is my assessment.",
    "Sure! Below is my review of the diff.",
    "Thanks for the context. My review follows; the verdict is at the end.",
    "Overall the change is reasonable but a few things stand out.",
    "Here's the council review you asked for:",
)
SUMMARIES = (
    "The change mostly works but has issues that should be fixed before merging.",
    "Solid refactor; a few correctness and safety problems remain.",
    "Looks fine overall apart from the points above.",
    "Several risky patterns in the data layer need attention.",
    "Good direction, but the error handling and input checks are incomplete.",
)


@dataclass
class Problem:
    pid: int
    kind: str
    file: str
    line: int
    var: str
    func: str
    severity: str


@dataclass
class TruthFinding:
    reviewer: str
    pid: int
    file: str
    line: int
    text: str
    severity: str


@dataclass
class Scenario:
    seed: int
    records: list[dict]
    verdicts: dict[str, str]
    findings: list[TruthFinding] = field(default_factory=list)

    def jsonl(self) -> bytes:
        return b"".join(json.dumps(r, ensure_ascii=False).encode() + b"\n" for r in self.records)


# --------------------------------------------------------------------------- #
def _problems(rnd: random.Random) -> list[Problem]:
    files = rnd.sample(FILES, rnd.randint(2, 4))
    out: list[Problem] = []
    taken: dict[str, list[int]] = {}
    n = rnd.randint(4, 9)
    while len(out) < n:
        file = rnd.choice(files)
        kind = rnd.choice(sorted(PROBLEMS))
        sev = PROBLEMS[kind][0]
        lines = taken.setdefault(file, [])
        if lines and rnd.random() < 0.45:
            # a different problem on a neighbouring line, often about the same identifier
            near = rnd.choice(out if out else [None])
            if near is not None and near.file == file and near.kind != kind:
                line = near.line + rnd.choice((1, 2, 3, 4, -2, -3))
                var = near.var if rnd.random() < 0.6 else rnd.choice(IDENTS)
                if line > 0 and all(abs(line - x) >= 1 for x in lines):
                    p = Problem(len(out), kind, file, line, var, rnd.choice(FUNCS), sev)
                    out.append(p)
                    lines.append(line)
                continue
        line = rnd.randint(5, 400)
        if any(abs(line - x) <= 12 for x in lines):
            continue
        p = Problem(len(out), kind, file, line, rnd.choice(IDENTS), rnd.choice(FUNCS), sev)
        out.append(p)
        lines.append(line)
    return out


def _path(rnd: random.Random, path: str, h: dict) -> str:
    style = h["path"]
    if style == "dot":
        return "./" + path
    if style == "diff":
        return rnd.choice(("a/", "b/")) + path
    if style == "win":
        return path.replace("/", "\\")
    return path


def _location(rnd: random.Random, p: str, line: int, end: int | None, h: dict) -> str:
    style = h["loc"]
    if end is not None and style in ("colon", "tick", "hash", "paren", "word", "bold"):
        return {
            "colon": f"{p}:{line}-{end}",
            "tick": f"`{p}:{line}-{end}`",
            "hash": f"{p}#L{line}-L{end}",
            "paren": f"{p} (lines {line}–{end})",
            "word": f"`{p}` lines {line}-{end}",
            "bold": f"**{p}:{line}-{end}**",
        }[style]
    return {
        "colon": f"{p}:{line}",
        "tick": f"`{p}:{line}`",
        "hash": f"{p}#L{line}",
        "paren": f"{p} (line {line})",
        "word": f"`{p}` line {line}",
        "bold": f"**{p}:{line}**",
        "col": f"{p}:{line}:{rnd.randint(1, 40)}",
        "L": f"{p} L{line}",
        "comma": f"{p}, line {line}",
        "link": f"[{p}:{line}]({p}#L{line})",
    }[style]


def _sev_tag(rnd: random.Random, sev: str, h: dict) -> str:
    style = h["sev"]
    word = h["sevwords"][sev]
    return {
        "bracket": f"[{word}]",
        "boldbracket": f"**[{word}]**",
        "bold": f"**{word}**",
        "paren": f"({word})",
        "colon": f"{word}:",
        "emoji": f"{SEV_EMOJI[sev]} {word}",
        "upper": f"[{word.upper()}]",
        "none": "",
        "field": "",
        "group": "",
    }[style]


def _finding_lines(rnd: random.Random, tf: TruthFinding, end: int | None, h: dict,
                   n: int) -> list[str]:
    loc = _location(rnd, _path(rnd, tf.file, h), tf.line, end, h)
    tag = _sev_tag(rnd, tf.severity, h)
    sep = h["sep"]
    marker = h["marker"]
    if marker == "num.":
        bullet = f"{n}. "
    elif marker == "num)":
        bullet = f"{n}) "
    elif marker == "heading":
        bullet = f"### {n}. "
    elif marker == "boldnum":
        bullet = f"**{n}.** "
    else:
        bullet = marker + " "
    order = h["order"]
    if order == "loc-first":
        head = f"{loc}{sep}{tag + ' ' if tag else ''}{tf.text}"
    elif order == "text-first":
        head = f"{tag + ' ' if tag else ''}{tf.text} ({loc})"
    elif order == "two-line":
        head = f"{tag + ' ' if tag else ''}{loc}"
    else:
        head = f"{tag + ' ' if tag else ''}{loc}{sep}{tf.text}"
    lines = [bullet + head]
    indent = "   " if marker in ("num.", "num)") else "  "
    if marker == "heading":
        indent = ""
    if order == "two-line":
        lines.append(f"{indent}{tf.text}")
    if h["sev"] == "field":
        lines.append(f"{indent}- Severity: {h['sevwords'][tf.severity]}")
    if rnd.random() < 0.3:
        lines.append(f"{indent}{rnd.choice(DETAILS)}")
    if rnd.random() < 0.1:
        lines += [f"{indent}```python", f"{indent}# Verdict: APPROVE", f"{indent}x = 1",
                  f"{indent}```"]
    return lines


DETAILS = (
    "Evidence: the value comes straight from the request.",
    "Suggested fix: validate the input before use.",
    "This was introduced by this change.",
    "- Impact: wrong results under load",
    "Why: callers rely on the old behaviour.",
)


def _verdict_line(rnd: random.Random, v: str, h: dict) -> list[str]:
    word = {"upper": v, "title": v.title(), "lower": v.lower()}[h["vcase"]]
    value = {
        "plain": word, "bold": f"**{word}**", "tick": f"`{word}`", "dot": word + ".",
        "emoji": {"APPROVE": "✅ ", "REVISE": "⚠️ ", "REJECT": "❌ "}[v] + word,
        "reason": f"{word} — see the findings below",
        "paren": f"{word} (with the changes listed)",
    }[h["vval"]]
    style = h["vkey"]
    return {
        "plain": [f"Verdict: {value}"],
        "bold": [f"**Verdict:** {value}"],
        "boldout": [f"**Verdict**: {value}"],
        "under": [f"__Verdict__: {value}"],
        "h2": [f"## Verdict: {value}"],
        "h3next": ["### Verdict", "", value],
        "lower": [f"verdict: {value}"],
        "upperkey": [f"VERDICT: {value}"],
        "overall": [f"Overall verdict: {value}"],
        "final": [f"**Final Verdict —** {value}"],
        "finaldash": [f"Final Verdict — {value}"],
        "quote": [f"> **Verdict:** {value}"],
        "item": [f"- **Verdict:** {value}"],
        "italic": [f"*Verdict:* {value}"],
        "emojikey": [f"🧑‍⚖️ **Verdict: {value}**"],
        "table": ["| Field | Value |", "|---|---|", f"| Verdict | {value} |"],
        "indent": [f"   Verdict: {value}"],
    }[style]


def _habits(rnd: random.Random) -> dict:
    sevstyle = rnd.choice(("bracket", "boldbracket", "bold", "paren", "colon", "emoji", "upper",
                           "none", "field", "group"))
    return {
        "nl": rnd.choice(("\n",) * 5 + ("\r\n",) * 2 + ("\r",)),
        "bom": rnd.random() < 0.15,
        "preamble": rnd.random() < 0.4,
        "wrap": rnd.choice((None,) * 6 + ("```", "```text", "```markdown", "~~~")),
        "vkey": rnd.choice(("plain", "bold", "boldout", "under", "h2", "h3next", "lower",
                            "upperkey", "overall", "final", "finaldash", "quote", "item",
                            "italic", "emojikey", "table", "indent")),
        "vcase": rnd.choice(("upper", "upper", "title", "lower")),
        "vval": rnd.choice(("plain", "plain", "bold", "tick", "dot", "emoji", "reason", "paren")),
        "vpos": rnd.choice(("top", "top", "end")),
        "fhead": rnd.choice(("Findings:", "## Findings", "### Findings", "**Findings:**",
                             "**Findings**", "# Findings", "findings:", "## Key findings",
                             "### Issues")),
        "marker": rnd.choice(("-", "-", "*", "+", "num.", "num)", "heading", "boldnum")),
        "sev": sevstyle,
        "sevwords": {s: rnd.choice(w) for s, w in SEV_WORDS.items()},
        "loc": rnd.choice(("colon", "tick", "hash", "paren", "word", "bold", "col", "L",
                           "comma", "link")),
        "path": rnd.choice(("plain", "plain", "dot", "diff", "win")),
        "sep": rnd.choice((" — ", " – ", " - ", ": ")),
        "order": rnd.choice(("tag-first", "tag-first", "loc-first", "text-first", "two-line")),
        "summary": rnd.choice(("plain", "bold", "h2", "h2para", "lower")),
        "confidence": rnd.choice(("plain", "bold", "lower", "paren", None)),
        "json": rnd.random() < 0.08,
        "table": rnd.random() < 0.1,
    }


def _render(rnd: random.Random, verdict: str, found: list[TruthFinding], h: dict) -> str:
    if h["json"]:
        return _render_json(rnd, verdict, found, h)
    body: list[str] = []
    vlines = _verdict_line(rnd, verdict, h)
    conf = rnd.choice(("HIGH", "MEDIUM", "LOW"))
    clines = {
        "plain": [f"Confidence: {conf}"], "bold": [f"**Confidence:** {conf.title()}"],
        "lower": [f"confidence: {conf.lower()}"], "paren": [f"Confidence: {conf} (0.8)"],
        None: [],
    }[h["confidence"]]
    if h["vkey"] == "table" and clines:
        clines = [f"| Confidence | {conf} |"]
    top = h["vpos"] == "top"
    if top:
        body += vlines + clines + [""]
    body.append(h["fhead"])
    if not found:
        body.append(rnd.choice(("None.", "- None", "No issues found.", "Nothing blocking.")))
    elif h["table"]:
        body += ["", "| Severity | Location | Issue |", "|---|---|---|"]
        for tf in found:
            loc = f"`{_path(rnd, tf.file, h)}:{tf.line}`"
            body.append(f"| {h['sevwords'][tf.severity]} | {loc} | {tf.text} |")
    elif h["sev"] == "group":
        for sev in ("critical", "medium", "minor"):
            mine = [tf for tf in found if tf.severity == sev]
            if not mine:
                continue
            word = h["sevwords"][sev]
            nested = rnd.random() < 0.5
            body.append(f"- **{word.title()}**" if nested else f"#### {SEV_EMOJI[sev]} {word}")
            for n, tf in enumerate(mine, 1):
                h2 = dict(h, sev="none", marker="-" if h["marker"] == "heading" else h["marker"])
                lines = _finding_lines(rnd, tf, None, h2, n)
                body += ["  " + ln if nested else ln for ln in lines]
    else:
        for n, tf in enumerate(found, 1):
            end = tf.line + rnd.randint(1, 3) if rnd.random() < 0.2 else None
            body += _finding_lines(rnd, tf, end, h, n)
            if h["marker"] == "heading" or rnd.random() < 0.2:
                body.append("")
    body.append("")
    summ = rnd.choice(SUMMARIES)
    body += {
        "plain": [f"Summary: {summ}"], "bold": [f"**Summary:** {summ}"],
        "h2": ["## Summary", "", summ], "h2para": ["## Summary", summ, "More detail follows."],
        "lower": [f"summary: {summ}"],
    }[h["summary"]]
    if not top:
        body += [""] + clines + vlines
    text_lines = body
    if h["preamble"] and not h["wrap"]:
        text_lines = [rnd.choice(PREAMBLES), ""] + text_lines
    if h["wrap"]:
        text_lines = [h["wrap"]] + text_lines + [h["wrap"][:3]]
        if h["preamble"]:
            text_lines = [rnd.choice(PREAMBLES), ""] + text_lines
    out = h["nl"].join(text_lines) + h["nl"]
    return ("\ufeff" if h["bom"] else "") + out


def _render_json(rnd: random.Random, verdict: str, found: list[TruthFinding], h: dict) -> str:
    doc = {
        "verdict": verdict if rnd.random() < 0.7 else verdict.lower(),
        "confidence": rnd.choice(("high", "MEDIUM", "low")),
        "summary": rnd.choice(SUMMARIES),
        "findings": [
            {"file": _path(rnd, tf.file, h), "line": tf.line,
             "severity": h["sevwords"][tf.severity],
             rnd.choice(("title", "message", "description", "summary", "issue")): tf.text}
            for tf in found
        ],
    }
    text = json.dumps(doc, indent=2, ensure_ascii=False)
    if rnd.random() < 0.5:
        text = "```json\n" + text + "\n```"
    return text + "\n"


def scenario(seed: int, failures: bool = True) -> Scenario:
    """One council run: four reviewer records (``kind: reviewer``) and the truth."""
    rnd = random.Random(seed)
    problems = _problems(rnd)
    records: list[dict] = []
    verdicts: dict[str, str] = {}
    truth: list[TruthFinding] = []
    cited: dict[int, int] = {}
    plan: dict[str, list[Problem]] = {}
    for r in REVIEWERS:
        plan[r] = [p for p in problems if rnd.random() < 0.6]
        for p in plan[r]:
            cited[p.pid] = cited.get(p.pid, 0) + 1
    for p in problems:  # every problem is cited by someone
        if not cited.get(p.pid):
            plan[rnd.choice(REVIEWERS)].append(p)
    base_offset = {p.pid: rnd.randint(0, 1) for p in problems}
    for r in REVIEWERS:
        if failures and rnd.random() < 0.04:
            status = rnd.choice(("TIMEOUT", "ERROR", "UNAVAILABLE"))
            records.append({"kind": "reviewer", "run": f"r{seed}", "mode": "review",
                            "slug": f"change-{seed}", "reviewer": r, "status": status,
                            "exit_code": {"TIMEOUT": 124, "ERROR": 1, "UNAVAILABLE": 127}[status],
                            "output": ""})
            verdicts[r] = status
            continue
        h = _habits(rnd)
        mine = sorted(plan[r], key=lambda p: (p.file, p.line))
        found = []
        for p in mine:
            line = max(1, p.line - base_offset[p.pid] + rnd.randint(0, 2))
            text = rnd.choice(PROBLEMS[p.kind][1]).format(v=p.var, f=p.func)
            sev = p.severity if rnd.random() < 0.8 else rnd.choice(("critical", "medium", "minor"))
            found.append(TruthFinding(r, p.pid, p.file, line, text, sev))
        worst = min((("critical", "medium", "minor").index(t.severity) for t in found),
                    default=3)
        if worst == 0:
            verdict = rnd.choice(("REJECT", "REVISE", "REVISE"))
        elif worst == 1:
            verdict = rnd.choice(("REVISE", "REVISE", "APPROVE"))
        else:
            verdict = rnd.choice(("APPROVE", "APPROVE", "REVISE"))
        text = _render(rnd, verdict, found, h)
        records.append({"kind": "reviewer", "run": f"r{seed}", "mode": "review",
                        "slug": f"change-{seed}", "reviewer": r, "status": "OK",
                        "exit_code": 0, "output": text})
        # A verdict written only behind a quote marker or in a lone table row is not the
        # reviewer's own key (what a reviewer quotes is not its verdict): it reads UNKNOWN.
        # A table of two fields (Verdict, then Confidence) is the review's own record.
        record = h["vkey"] == "table" and h["confidence"] is not None and h["vpos"] == "top"
        quoted = h["vkey"] in ("quote", "table") and not h["json"] and not record
        verdicts[r] = "UNKNOWN" if quoted else verdict
        truth += found
    return Scenario(seed, records, verdicts, truth)


def corpus(seed: int, runs: int = 30) -> list[Scenario]:
    """``runs`` scenarios (four reviewers each) from one seed."""
    return [scenario(seed * 1000 + i) for i in range(runs)]


def pairwise(truth: list[int], groups: list[list[int]]) -> tuple[int, int, int]:
    """(true positive, false positive, false negative) pairs of a grouping of items whose
    true problems are ``truth`` (one id per item); items in no group are alone."""
    gid = {i: k for k, g in enumerate(groups) for i in g}
    tp = fp = fn = 0
    for i in range(len(truth)):
        for j in range(i + 1, len(truth)):
            same_t = truth[i] == truth[j]
            same_g = i in gid and gid.get(i) == gid.get(j)
            tp += same_t and same_g
            fp += same_g and not same_t
            fn += same_t and not same_g
    return tp, fp, fn


def f1(tp: int, fp: int, fn: int) -> tuple[float, float, float]:
    """(precision, recall, F1)."""
    p, r = tp / max(1, tp + fp), tp / max(1, tp + fn)
    return p, r, 2 * p * r / max(1e-9, p + r)


def fold(text: str) -> str:
    """Whitespace runs folded to one space (how presence in an output is compared)."""
    return " ".join(text.split())


def strings(node: object) -> list[str]:
    """Every string inside a JSON value, in document order."""
    if isinstance(node, str):
        return [node]
    if isinstance(node, list):
        return [s for x in node for s in strings(x)]
    if isinstance(node, dict):
        return [s for x in node.values() for s in strings(x)]
    return []
