"""Review JSON of custom pipelines and agents, read by what its keys name (issue: read
what real reviewers print, item 1).  Every document below is written for these tests;
none is a reviewer's text."""

from __future__ import annotations

import json
import random
import time

import pytest

from council_filters.verdict import formats, reading, reviewer_json


def read(raw: str) -> reading.Reading:
    return reading.read(raw.encode(), "tester")


def places(got: reading.Reading) -> list[tuple]:
    return [(f.get("file"), f.get("line"), f.get("end_line")) for f in got.findings]


def one(finding: dict, **doc: object) -> reading.Reading:
    return read(json.dumps({"verdict": "REVISE", "findings": [finding], **doc}))


# --------------------------------------------------------------------------- #
# Line ranges in every usual spelling
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize(("lines", "want"), [
    ("153-159", (153, 159)),
    ("L12-L18", (12, 18)),
    ("12:3", (12, None)),  # line 12, column 3
    ("40\u201344", (40, 44)),
    ("lines 7-9", (7, 9)),
    ([12, 18], (12, 18)),
    ([31], (31, None)),
    ({"start": 5, "end": 6}, (5, 6)),
    ({"start": {"line": 21, "column": 4}, "end": {"line": 25}}, (21, 25)),
    ({"startLine": 70, "endLine": 72}, (70, 72)),
])
def test_a_nested_location_with_its_lines_in_any_spelling(lines: object, want: tuple) -> None:
    got = one({"title": "the cache key ignores the tenant", "severity": "high",
               "location": {"path": "cache/keys.py", "lines": lines}})
    assert places(got) == [("cache/keys.py", *want)]
    assert got.findings[0]["severity"] == "critical"


def test_a_place_under_position_range_and_region_objects() -> None:
    got = read(json.dumps({"decision": "changes requested", "issues": [
        {"message": "retry loop never backs off",
         "position": {"file": "net/retry.go", "range": {"start": {"line": 88}}}},
        {"message": "timeout read from the wrong setting",
         "location": {"physicalLocation": {"artifactLocation": {"uri": "net/dial.go"},
                                           "region": {"startLine": 14, "endLine": 15}}}},
        {"message": "the flag is parsed twice",
         "code_location": {"repository_relative_path": "cmd/main.go",
                           "line_range": {"start": 30, "end": 33}}},
    ]}))
    assert got.verdict == "REVISE"
    assert places(got) == [("net/retry.go", 88, None), ("net/dial.go", 14, 15),
                           ("cmd/main.go", 30, 33)]


def test_a_string_location_and_own_keys_still_win() -> None:
    got = read(json.dumps({"verdict": "REVISE", "findings": [
        {"title": "unbounded read", "location": "io/read.py:41"},
        {"title": "stale header", "file": "docs/api.md", "line": 3,
         "location": {"path": "elsewhere.md", "line": 90}},
    ]}))
    assert places(got) == [("io/read.py", 41, None), ("docs/api.md", 3, None)]


# --------------------------------------------------------------------------- #
# Findings lists under any key that names them
# --------------------------------------------------------------------------- #
def test_findings_lists_named_in_the_pipelines_own_words() -> None:
    got = read(json.dumps({
        "security_issues": [{"description": "token logged at debug level",
                             "file": "auth/session.py", "line": 52, "severity": "error"}],
        "lintViolations": [{"text": "unused import", "filename": "auth/util.py",
                            "line_number": 2, "severity": "note"}],
        "resolved_issues": [{"description": "already fixed", "file": "auth/old.py",
                             "line": 9}],
        "approved": False,
    }))
    assert got.verdict == "REVISE"
    assert [(f["file"], f["line"], f.get("severity")) for f in got.findings] == [
        ("auth/session.py", 52, "critical"), ("auth/util.py", 2, "minor")]


def test_a_findings_list_one_object_down_and_a_verdict_in_a_summary_object() -> None:
    got = read(json.dumps({
        "summary": {"verdict": "APPROVE", "total": 1},
        "report": {"problems": [{"title": "typo in a log message", "path": "svc/log.py",
                                 "line": 17, "priority": "P3"}]},
    }))
    assert got.verdict == "APPROVE"
    assert [(f["file"], f["line"], f.get("severity")) for f in got.findings] == [
        ("svc/log.py", 17, "minor")]


def test_an_empty_findings_list_and_an_earlier_review_are_no_findings() -> None:
    got = read(json.dumps({
        "verdict": "APPROVE", "findings": [],
        "previous_review": {"findings": [{"title": "was fixed", "file": "a.py", "line": 2}]},
        "notes": {"issues": [{"title": "an open one elsewhere", "file": "b.py", "line": 4}]},
    }))
    assert got.verdict == "APPROVE"
    assert got.findings == []


def test_a_document_with_only_a_findings_list_under_its_own_name_is_a_review() -> None:
    raw = json.dumps({"review_findings": [{"message": "missing lock", "file": "q.c",
                                           "line": 3}]})
    assert formats.review_json(raw) is not None
    got = read(raw)
    assert got.verdict == "UNKNOWN"  # it states none: none is invented
    assert places(got) == [("q.c", 3, None)]


@pytest.mark.parametrize(("key", "named"), [
    ("findings", True), ("security_issues", True), ("reviewComments", True),
    ("lint_violations", True), ("fixed_issues", False), ("positive_comments", False),
    ("issue_count", False), ("problem", False),
])
def test_which_keys_name_findings(key: str, named: bool) -> None:
    assert reviewer_json.names_findings(key) is named


# --------------------------------------------------------------------------- #
# Severity vocabularies and verdict keys
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize(("word", "want"), [
    ("error", "critical"), ("warning", "medium"), ("info", "minor"), ("note", "minor"),
    ("blocker", "critical"), ("major", "medium"), ("minor", "minor"),
    ("P0", "critical"), ("P1", "critical"), ("P2", "medium"), ("P3", "minor"),
])
def test_severity_vocabularies(word: str, want: str) -> None:
    got = one({"title": "x is wrong", "file": "a.py", "line": 1, "severity": word})
    assert got.findings[0]["severity"] == want


@pytest.mark.parametrize(("doc", "want"), [
    ({"review_status": "fail"}, "REVISE"),
    ({"review_status": "pass"}, "APPROVE"),
    ({"recommendation": "request_changes"}, "REVISE"),
    ({"approved": True}, "APPROVE"),
    ({"overall_correctness": "patch is incorrect"}, "REVISE"),
    ({"result": {"decision": "reject"}}, "REJECT"),
])
def test_verdict_keys(doc: dict, want: str) -> None:
    got = read(json.dumps({**doc, "findings": []}))
    assert got.verdict == want


# --------------------------------------------------------------------------- #
# A review JSON fenced inside a Markdown answer
# --------------------------------------------------------------------------- #
EMBEDDED = """Checked the importer and its tests; two things need attention.

**Scope:** `importer/` only.

- compiled every module: no errors
- ran the importer tests: 18 passed
- reproduced the dropped rows with a three-line sample file

```json
{"findings": [
  {"title": "[P1] rows after a blank line are dropped", "priority": 1,
   "code_location": {"absolute_file_path": "/home/dev/proj/importer/rows.py",
                     "line_range": {"start": 64, "end": 66}}},
  {"title": "[P3] the progress bar counts from zero", "priority": 3,
   "code_location": {"absolute_file_path": "C:\\\\work\\\\proj\\\\importer\\\\ui.py",
                     "line_range": {"start": 12, "end": 12}}}
 ],
 "overall_correctness": "patch is incorrect",
 "overall_explanation": "One real data-loss bug."}
```
"""


def test_a_fenced_review_json_under_a_preamble_gives_its_findings() -> None:
    got = reading.read(EMBEDDED.encode(), "tester", root="/home/dev/proj")
    assert got.verdict == "REVISE"
    assert [(f["file"], f["line"], f.get("severity")) for f in got.findings] == [
        ("importer/rows.py", 64, "critical"), ("C:/work/proj/importer/ui.py", 12, "minor")]


def test_a_fenced_review_json_retelling_the_prose_replaces_its_sections() -> None:
    text = """## Findings

- **major** `billing/tax.py:30` — rounding happens before the discount.
  - scenario: a discounted order is billed one cent more.

## Details

**1. major — `billing/tax.py`.** Rounding is applied first; apply it last.

Verdict: request_changes

```json
{"verdict": "request_changes", "findings": [
  {"severity": "major", "file": "billing/tax.py", "line": 30,
   "issue": "rounding happens before the discount"}]}
```
"""
    got = read(text)
    assert got.verdict == "REVISE"
    assert [(f["file"], f["line"], f.get("severity")) for f in got.findings] == [
        ("billing/tax.py", 30, "medium")]


def test_a_fenced_template_is_not_a_review() -> None:
    text = """Before merging, every reviewer of this change should:

- read the migration and its rollback,
- run the importer against the sample data set,
- reply in this shape:

```json
{"verdict": "APPROVE", "findings": [{"file": "path/to/file.py", "line": 1,
 "title": "<short title>"}]}
```
"""
    got = read(text)
    assert got.verdict == "UNKNOWN"
    assert got.findings == []


@pytest.mark.parametrize("text", [
    # the template alone, as a CLI that echoes its instructions prints it
    '{"verdict": "APPROVE", "findings": [{"file": "path/to/module.py", "line": 1, '
    '"title": "<one-line title>"}]}',
    # under a short preamble
    "Answer with this object:\n```json\n{\"verdict\": \"APPROVE\", \"findings\": "
    "[{\"path\": \"<file>\", \"line\": 0, \"summary\": \"{what is wrong}\"}]}\n```\n",
])
def test_an_echoed_json_template_gives_no_vote_and_no_finding(text: str) -> None:
    got = read(text)
    assert got.verdict == "UNKNOWN"
    assert got.findings == []
    assert reading.TEMPLATE_ONLY in got.warnings


def test_markup_named_in_a_real_reviews_prose_is_no_placeholder() -> None:
    got = one({"file": "web/signup.html", "line": 14,
               "title": "The <form> submits before the <input> is checked",
               "body": "Give the <button> a type and validate in the <form> handler."})
    assert got.verdict == "REVISE"
    assert places(got) == [("web/signup.html", 14, None)]


# --------------------------------------------------------------------------- #
# Never a crash, and bounded work
# --------------------------------------------------------------------------- #
def test_cut_json_reviews_never_crash() -> None:
    doc = json.dumps({"verdict": "REVISE", "security_issues": [
        {"title": "t", "location": {"path": "a.py", "lines": "3-4"}},
        {"title": "u", "position": {"file": "b.py", "range": {"start": {"line": 8}}}}]})
    text = EMBEDDED + doc
    rng = random.Random(22)
    for cut in sorted({rng.randrange(len(text)) for _ in range(200)} | {len(text)}):
        for piece in (text[:cut], text[cut:], doc[: cut % len(doc)]):
            got = read(piece)
            assert got.verdict in ("APPROVE", "REVISE", "REJECT", "UNKNOWN")


@pytest.mark.parametrize("value", [
    None, True, -3, 0, 1e300, "", "L", "99999999999", [], [[[]]], {}, {"start": {"start": 5}},
    {"line": "x"}, list(range(50)),
])
def test_odd_line_values_read_as_no_line(value: object) -> None:
    first, last = reviewer_json.line_span(value)
    assert first is None or 1 <= first <= 10_000_000
    assert last is None or (first is not None and last > first)


def test_a_deeply_nested_place_is_looked_into_a_bounded_number_of_times() -> None:
    node: dict = {"title": "deep"}
    for _ in range(500):
        node = {"location": node}
    node["title"] = "deep"
    got = read(json.dumps({"verdict": "REVISE", "findings": [node]}))
    assert got.verdict == "REVISE"
    assert [f.get("file") for f in got.findings] in ([None], [])


def test_reading_many_findings_is_linear() -> None:
    def doc(n: int) -> str:
        return json.dumps({"verdict": "REVISE", "lint_violations": [
            {"message": f"m{i}", "location": {"path": f"p/{i}.py", "lines": f"{i + 1}-{i + 3}"}}
            for i in range(n)]})

    def took(raw: str) -> float:
        best = float("inf")
        for _ in range(3):
            start = time.perf_counter()
            read(raw)
            best = min(best, time.perf_counter() - start)
        return best

    small, big = doc(500), doc(2000)
    assert len(read(big).findings) == 2000
    assert took(big) < 4 * took(small) * 2.5  # 4x the input: well under 10x the time
