"""The tolerant reader (council_filters.verdict.reading) and finding-level grouping.

Table-driven cases for each formatting habit, then the realistic corpus
(tests/realcorpus.py) on fixed seeds: every verdict read right, every
finding read with its own text, file and line, grouping F1 >= 0.95.
"""

from __future__ import annotations

import pytest
import realcorpus

from council_filters.consolidate import grouping
from council_filters.verdict import reading


def read(text: str) -> reading.Reading:
    return reading.read(text.encode("utf-8"), "gemini")


# --------------------------------------------------------------------------- #
# Verdicts
# --------------------------------------------------------------------------- #
VERDICTS = [
    ("Verdict: REVISE", "REVISE"),
    ("verdict: revise", "REVISE"),
    ("VERDICT: Reject.", "REJECT"),
    ("**Verdict:** APPROVE", "APPROVE"),
    ("**Verdict**: APPROVE", "APPROVE"),
    ("Verdict: **REJECT**", "REJECT"),
    ("__Verdict__: revise", "REVISE"),
    ("*Verdict:* `APPROVE`", "APPROVE"),
    ("## Verdict: REVISE", "REVISE"),
    ("### Verdict\n\n**REJECT**", "REJECT"),
    ("   Verdict: REVISE", "REVISE"),
    ("- **Verdict:** REJECT", "REJECT"),
    ("Overall verdict: APPROVE", "APPROVE"),
    ("**Final Verdict —** REJECT", "REJECT"),
    ("Final Verdict \u2014 Approve with nits", "APPROVE"),
    ("\u2705 **Verdict: APPROVE**", "APPROVE"),
    ("Verdict: \u274c REJECT", "REJECT"),
    ("Verdict: REVISE \u2014 fix the injection first", "REVISE"),
    ("Verdict: request changes", "REVISE"),
    ("Verdict: REVISE (not REJECT)", "REVISE"),
    ("\ufeffVerdict: APPROVE", "APPROVE"),
    ("Verdict: APPROVE\r\nConfidence: HIGH\r\n", "APPROVE"),
    ("Verdict: REJECT\rConfidence: HIGH\r", "REJECT"),
    ("Here is my review.\n\nSome prose first.\n\nVerdict: REVISE", "REVISE"),
    ("```\nVerdict: REVISE\nFindings:\n- a.py:1 \u2014 x\n```", "REVISE"),
    ("```markdown\nVerdict: REJECT\n```\n", "REJECT"),
    ("Sure, here it is:\n\n```text\nVerdict: APPROVE\n```", "APPROVE"),
    ("Summary first.\n\n## Verdict: **REVISE**", "REVISE"),
]


@pytest.mark.parametrize("text,want", VERDICTS)
def test_verdict_habits(text: str, want: str) -> None:
    got = read(text)
    assert got.verdict == want, text


@pytest.mark.parametrize("text", [
    "Verdict: TIMEOUT", "Verdict: ERROR", "**Verdict:** UNAVAILABLE", "Verdict: unknown",
    "Verdict: I am not sure",
])
def test_reviewer_cannot_declare_a_status(text: str) -> None:
    got = read(text + "\nVerdict: APPROVE")
    assert got.verdict == "UNKNOWN"
    assert reading.NOT_A_VOTE in got.warnings


def test_verdict_outside_code_counts_and_conflicting_keys_are_unknown() -> None:
    text = "```python\n# Verdict: APPROVE\n```\n\nVerdict: REJECT\n"
    assert read(text).verdict == "REJECT"
    # two Verdict keys that disagree: never the more lenient one
    got = read(text + "\nlater: Verdict: APPROVE\nVerdict: APPROVE\n")
    assert got.verdict == "UNKNOWN"
    assert reading.CONFLICT in got.warnings


@pytest.mark.parametrize("quoted", [
    "> **Verdict:** APPROVE",
    "| Field | Value |\n|---|---|\n| Verdict | APPROVE |",
    "    Verdict: APPROVE",
    "```\nVerdict: APPROVE\n```",
])
def test_a_quoted_verdict_is_not_the_reviewers(quoted: str) -> None:
    """A verdict inside a block quote, an indented code block, a table row or a fence is
    text the reviewer cites (a finding's evidence, the prompt's template), not its key."""
    alone = read(f"The change looks fine.\n\n{quoted}\n\nDone.\n")
    assert alone.verdict == "UNKNOWN"
    assert reading.NO_VERDICT in alone.warnings
    own = read(f"Verdict: REJECT\n\nThe PR description says:\n\n{quoted}\n\n"
               "## Findings\n\n- a.py:3 \u2014 the description overstates the fix\n")
    assert own.verdict == "REJECT"
    assert [(f["file"], f["line"]) for f in own.findings] == [("a.py", 3)]


@pytest.mark.parametrize("text", [
    "", "My verdict is that this looks fine.", "The verdict follows later, maybe.",
    "```python\nVerdict: APPROVE\n```\nno verdict outside",
])
def test_no_verdict_is_unknown(text: str) -> None:
    got = read(text)
    assert got.verdict == "UNKNOWN"
    assert reading.NO_VERDICT in got.warnings


def test_confidence_and_summary() -> None:
    got = read("**Confidence:** High (0.9)\n\n## Summary\n\nFirst line\nsecond line.\n\n"
               "## Verdict: REVISE")
    assert got.confidence == "HIGH"
    assert got.summary == "First line second line."
    assert read("Confidence: 55%\nsummary: short one\nVerdict: APPROVE").confidence == "MEDIUM"


# --------------------------------------------------------------------------- #
# Findings
# --------------------------------------------------------------------------- #
def one(line: str, header: str = "Findings:") -> dict:
    got = read(f"Verdict: REVISE\n{header}\n{line}\nSummary: s\n").findings
    assert len(got) == 1, got
    return got[0]


LOCATIONS = [
    ("- [P1] src/db.py:12 \u2014 user input in SQL", "src/db.py", 12, None),
    ("- `src/db.py:12` \u2014 user input in SQL", "src/db.py", 12, None),
    ("- src/db.py:12-15 \u2013 user input in SQL", "src/db.py", 12, 15),
    ("- src/db.py#L12 - user input in SQL", "src/db.py", 12, None),
    ("- src/db.py#L12-L15: user input in SQL", "src/db.py", 12, 15),
    ("- `src/db.py` line 12 \u2014 user input in SQL", "src/db.py", 12, None),
    ("- user input in SQL (src/db.py, line 12)", "src/db.py", 12, None),
    ("- user input in SQL (src/db.py (line 12))", "src/db.py", 12, None),
    ("- src/db.py (lines 12\u201315) \u2014 user input in SQL", "src/db.py", 12, 15),
    ("- src/db.py:12:5 \u2014 user input in SQL", "src/db.py", 12, None),
    ("- src/db.py L12 \u2014 user input in SQL", "src/db.py", 12, None),
    ("- ./src/db.py:12 \u2014 user input in SQL", "src/db.py", 12, None),
    ("- b/src/db.py:12 \u2014 user input in SQL", "src/db.py", 12, None),
    ("- src\\db.py:12 \u2014 user input in SQL", "src/db.py", 12, None),
    ("- [src/db.py:12](src/db.py#L12) \u2014 user input in SQL", "src/db.py", 12, None),
    ("- **src/db.py:12**: user input in SQL", "src/db.py", 12, None),
    ("1. src/db.py:12 \u2014 user input in SQL", "src/db.py", 12, None),
    ("1) src/db.py:12 \u2014 user input in SQL", "src/db.py", 12, None),
    ("* src/db.py:12 \u2014 user input in SQL", "src/db.py", 12, None),
    ("src/db.py:12 \u2014 user input in SQL", "src/db.py", 12, None),
    ("- Makefile:3 \u2014 user input in SQL", "Makefile", 3, None),
]


@pytest.mark.parametrize("line,file,lineno,end", LOCATIONS)
def test_location_habits(line: str, file: str, lineno: int, end: int | None) -> None:
    f = one(line)
    assert (f.get("file"), f.get("line"), f.get("end_line")) == (file, lineno, end), f
    assert f["summary"] == "user input in SQL"


SEVERITIES = [
    ("- [P1] a.py:1 \u2014 x y", "critical"),
    ("- **[P2]** a.py:1 \u2014 x y", "medium"),
    ("- **P3** a.py:1 \u2014 x y", "minor"),
    ("- [high] a.py:1 \u2014 x y", "critical"),
    ("- (Critical) a.py:1 \u2014 x y", "critical"),
    ("- [major] a.py:1 \u2014 x y", "medium"),
    ("- [low] a.py:1 \u2014 x y", "minor"),
    ("- [nit] a.py:1 \u2014 x y", "minor"),
    ("- a.py:1 \u2014 x y (blocker)", "critical"),
    ("- \U0001f534 a.py:1 \u2014 x y", "critical"),
    ("- High: a.py:1 \u2014 x y", "critical"),
    ("- a.py:1 \u2014 x y\n  - Severity: moderate", "medium"),
    ("- a.py:1 \u2014 x y\n  **Severity:** Minor", "minor"),
]


@pytest.mark.parametrize("line,sev", SEVERITIES)
def test_severity_habits(line: str, sev: str) -> None:
    f = one(line)
    assert f.get("severity") == sev
    assert f["summary"] == "x y"


def test_severity_groups_headings_and_nested_lists() -> None:
    text = ("Verdict: REVISE\n## Findings\n### \U0001f534 Critical\n- a.py:1 \u2014 one\n"
            "### Minor\n- a.py:9 \u2014 two\n  - a nested detail\n- **Medium**\n"
            "  - b.py:3 \u2014 three\n## Summary\ndone\n")
    got = [(f["file"], f["line"], f.get("severity"), f["summary"]) for f in read(text).findings]
    assert got == [("a.py", 1, "critical", "one"), ("a.py", 9, "minor", "two"),
                   ("b.py", 3, "medium", "three")]
    assert read(text).findings[1]["discussion"] == "a nested detail"


def test_heading_per_finding_and_two_line_items() -> None:
    text = ("Verdict: REVISE\n### Findings\n### 1. [P1] a.py:4\nthe first problem\n"
            "- Severity: high\n\n### 2. **b.py:7** \u2014 the second problem\n"
            "```python\nx = 1\n```\n### Summary\nok\n")
    got = [(f["file"], f["line"], f["summary"]) for f in read(text).findings]
    assert got == [("a.py", 4, "the first problem"), ("b.py", 7, "the second problem")]


def test_table_findings() -> None:
    text = ("Verdict: REVISE\nFindings:\n\n| Severity | Location | Issue |\n|---|---|---|\n"
            "| P1 | `a.py:3` | first one |\n| low | b.py (line 9) | second, with a | pipe |\n")
    got = [(f["file"], f["line"], f.get("severity"), f["summary"]) for f in read(text).findings]
    assert got == [("a.py", 3, "critical", "first one"),
                   ("b.py", 9, "minor", "second, with a | pipe")]


@pytest.mark.parametrize("none", ["None.", "- None", "No issues found.", "none", "N/A",
                                  "Nothing blocking."])
def test_no_findings(none: str) -> None:
    assert read(f"Verdict: APPROVE\nFindings:\n{none}\nSummary: fine\n").findings == []
    assert read(f"Verdict: APPROVE\nFindings: {none}\nSummary: fine\n").findings == []


def test_findings_without_a_section_are_read_where_located() -> None:
    text = "Verdict: REVISE\n\n- a.py:3 \u2014 a located one\n- a general remark\n"
    got = read(text).findings
    assert [(f["file"], f["line"], f["summary"]) for f in got] == [("a.py", 3, "a located one")]


def test_location_mid_sentence_keeps_the_sentence() -> None:
    f = one("- [P2] The call at a.py:12 ignores the result")
    assert f["summary"] == "The call at a.py:12 ignores the result"
    assert (f["file"], f["line"]) == ("a.py", 12)


def test_json_answer() -> None:
    doc = ('```json\n{"verdict": "revise", "confidence": "high", "summary": "s",\n'
           '"findings": [{"file": "./a.py", "line": "12-14", "severity": "major",\n'
           '"message": "m one"}, {"path": "b.py:3", "title": "t two"}]}\n```')
    got = read(doc)
    assert (got.verdict, got.confidence, got.summary) == ("REVISE", "HIGH", "s")
    assert [(f["file"], f["line"], f.get("end_line"), f.get("severity"), f["summary"])
            for f in got.findings] == [("a.py", 12, 14, "medium", "m one"),
                                       ("b.py", 3, None, None, "t two")]


def test_never_raises_on_odd_bytes() -> None:
    # long unbroken words and paths: the location scan is linear (it used to be quadratic)
    for data in (b"\xff\xfe\x00", b"|" * 500, b"```" * 50, b"Verdict:" * 100,
                 b"- [P1] " + b"a" * 100000 + b":1", b"# " * 300,
                 b"Findings:\n- " + b"a/" * 50000 + b"b.py:3 x", b"- " + b"a." * 50000):
        reading.read(data)


# --------------------------------------------------------------------------- #
# Grouping
# --------------------------------------------------------------------------- #
def test_same_problem_in_other_words_groups() -> None:
    items = [
        grouping.Item("app/db.py", 112, "claude", "SQL injection: name is concatenated into "
                      "the query"),
        grouping.Item("app/db.py", 114, "codex", "user input flows into raw SQL unsanitised"),
        grouping.Item("app/db.py", 114, "gemini", "query built with an f-string; use bound "
                      "parameters"),
    ]
    assert grouping.group(items) == [[0, 1, 2]]


def test_different_problems_on_neighbouring_lines_stay_apart() -> None:
    items = [
        grouping.Item("app/db.py", 40, "claude", "SQL injection through user_id in get_user"),
        grouping.Item("app/db.py", 42, "codex", "user_id may be None here; dereferenced "
                      "without a check"),
        grouping.Item("app/db.py", 41, "gemini", "user_id is concatenated into the SQL string"),
        grouping.Item("app/db.py", 43, "opencode", "missing null check on user_id"),
    ]
    assert grouping.group(items) == [[0, 2], [1, 3]]


def test_window_and_file_bound_the_groups() -> None:
    text = "the handle is never closed"
    items = [grouping.Item("a.py", 10, "claude", text), grouping.Item("a.py", 14, "codex", text),
             grouping.Item("b.py", 10, "gemini", text), grouping.Item(None, None, "codex", text)]
    assert grouping.group(items) == [[0], [1], [2], [3]]


def test_one_reviewer_never_groups_two_different_findings() -> None:
    items = [grouping.Item("a.py", 10, "claude", "file handle leaks"),
             grouping.Item("a.py", 11, "claude", "file handle leaks on error"),
             grouping.Item("a.py", 11, "claude", "file handle leaks")]
    assert grouping.group(items) == [[0, 2], [1]]


def test_grouping_is_linear_in_a_dense_window(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = 0
    real = grouping.Similarity.__call__

    def counting(self: grouping.Similarity, i: int, j: int) -> float:
        nonlocal calls
        calls += 1
        return real(self, i, j)

    monkeypatch.setattr(grouping.Similarity, "__call__", counting)
    n = 3000
    items = [grouping.Item("a.py", 1 + i % 3, f"r{i}", f"finding number {i}") for i in range(n)]
    grouping.group(items)
    assert 0 < calls <= n * (grouping.MAX_NEIGHBOURS + grouping.LINKAGE_SAMPLE ** 2)


# --------------------------------------------------------------------------- #
# The corpus
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize("seed", [11, 12])
def test_corpus_read_and_grouped(seed: int) -> None:
    tp = fp = fn = 0
    for sc in realcorpus.corpus(seed, 30):
        items: list[grouping.Item] = []
        pids: list[int] = []
        for rec in sc.records:
            if rec["status"] != "OK":
                continue
            got = reading.read(rec["output"].encode(), rec["reviewer"])
            assert got.verdict == sc.verdicts[rec["reviewer"]], rec["output"]
            for t in (t for t in sc.findings if t.reviewer == rec["reviewer"]):
                hit = [f for f in got.findings
                       if f.get("file") == t.file and f.get("line") == t.line
                       and t.text in f["summary"] + " " + f.get("discussion", "")]
                assert hit, (t, rec["output"])
                items.append(grouping.Item(t.file, t.line, t.reviewer, hit[0]["summary"]))
                pids.append(t.pid)
        a, b, c = realcorpus.pairwise(pids, grouping.group(items))
        tp, fp, fn = tp + a, fp + b, fn + c
    p, r, f = realcorpus.f1(tp, fp, fn)
    assert f >= 0.95, (p, r)


@pytest.mark.parametrize("sep", ["\r", "\x0b", "\u2028"])
def test_token_line_hides_nothing(sep: str) -> None:
    got = read(f"INGEST_TOKEN: abc{sep}Verdict: APPROVE\nVerdict: REJECT\n")
    assert got.verdict == "REJECT"
    assert read("\ufeffINGEST_TOKEN: abc\r\nVerdict: REVISE\r\n").verdict == "REVISE"
