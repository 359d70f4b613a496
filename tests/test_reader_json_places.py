"""Review JSON whose findings sit at their place in the shapes custom pipelines print
(issue: every finding at its real place): a bare array of findings, a place written
``path:line`` in one field, a per-file review whose findings carry only their lines,
and findings marked settled after they were written.  Every document below is written
for these tests; none is a reviewer's text."""

from __future__ import annotations

import json
import time

import pytest

from council_filters.verdict import formats, reading, reviewer_json


def read(value: object) -> reading.Reading:
    return reading.read(json.dumps(value, indent=2).encode(), "tester")


def places(got: reading.Reading) -> list[tuple]:
    return [(f.get("file"), f.get("line"), f.get("severity")) for f in got.findings]


# --------------------------------------------------------------------------- #
# A bare array of findings
# --------------------------------------------------------------------------- #
def test_a_bare_array_of_findings_with_file_and_line_in_one_field() -> None:
    got = read([
        {"file": "pkg/loader.go:88", "priority": "HIGH",
         "summary": "a stray newline ends the config early"},
        {"file": "pkg/loader.go:120-131", "priority": "LOW",
         "summary": "the error names the wrong format"},
        {"file": "docs/usage.md", "priority": "MEDIUM", "summary": "the flag is undocumented"},
    ])
    assert places(got) == [("pkg/loader.go", 88, "critical"), ("pkg/loader.go", 120, "minor"),
                           ("docs/usage.md", None, "medium")]
    assert got.findings[1]["end_line"] == 131
    assert got.verdict == "UNKNOWN"  # an array states no verdict


def test_a_bare_array_with_nested_places_and_lines_only() -> None:
    got = read([
        {"title": "unbounded retry", "severity": "warning",
         "location": {"path": "net/retry.py", "line": 14}},
        {"message": "the lock is taken twice", "line": 40, "path": "core/lock.py"},
    ])
    assert places(got) == [("net/retry.py", 14, "medium"), ("core/lock.py", 40, None)]


@pytest.mark.parametrize("value", [
    [{"name": "alpha", "version": "1.0"}, {"name": "beta", "version": "2.0"}],  # no text
    [{"summary": "a note with no place"}],  # no place
    ["src/a.py:3 the loop never ends"],  # not objects
    [{"file": "src/a.py:3", "summary": "fine"}, 7],
    [],
])
def test_an_array_that_is_no_findings_list(value: object) -> None:
    assert reviewer_json.findings_array(value) is None
    assert formats.review_json(json.dumps(value)) is None


# --------------------------------------------------------------------------- #
# A per-file review: the file at the object holding the list
# --------------------------------------------------------------------------- #
def test_a_per_file_review_gives_its_file_to_findings_with_only_a_line() -> None:
    got = read({
        "file": "web/forms/signup.tsx",
        "summary": "one file reviewed",
        "issues": [
            {"severity": "warning", "line": 63, "title": "the email field is never trimmed"},
            {"severity": "info", "title": "the component could be split"},
            {"severity": "error", "file": "web/forms/shared.ts", "line": 9,
             "title": "its own file wins"},
        ],
    })
    assert places(got) == [("web/forms/signup.tsx", 63, "medium"),
                           ("web/forms/signup.tsx", None, "minor"),
                           ("web/forms/shared.ts", 9, "critical")]


def test_a_list_of_files_each_holding_its_findings() -> None:
    got = read({"verdict": "changes requested", "files": [
        {"path": "api/auth.py", "findings": [
            {"line": 17, "severity": "high", "message": "the token is compared with =="},
            {"line": 40, "severity": "low", "message": "a log line repeats the user id"}]},
        {"path": "api/rate.py", "findings": [
            {"lines": "5-9", "severity": "medium", "message": "the window never resets"}]},
        {"path": "api/clean.py", "findings": []},
    ]})
    assert got.verdict == "REVISE"
    assert places(got) == [("api/auth.py", 17, "critical"), ("api/auth.py", 40, "minor"),
                           ("api/rate.py", 5, "medium")]


def test_a_document_with_its_own_findings_list_takes_no_file_from_a_files_list() -> None:
    got = read({"files": [{"path": "a.py", "findings": [{"line": 1, "message": "x"}]}],
                "findings": [{"line": 3, "message": "the only finding, with no file"}]})
    assert places(got) == [(None, None, None)]


# --------------------------------------------------------------------------- #
# Findings settled after they were written
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize("marks", [
    {"resolution": "Fixed in 3f2a9c1: the check was added"},
    {"resolution": "won't fix"},
    {"resolved": True},
    {"is_resolved": True},
    {"fixed": True},
    {"status": "addressed"},
    {"state": "dismissed"},
])
def test_a_settled_finding_is_not_open(marks: dict) -> None:
    got = read({"verdict": "approved", "findings": [
        {"file": "jobs/sync.py", "line": 12, "severity": "major",
         "description": "the job runs twice", **marks},
        {"file": "jobs/sync.py", "line": 30, "severity": "minor",
         "description": "the batch size is hard-coded", "resolved": False,
         "resolution": None, "status": "open"},
    ]})
    assert got.verdict == "APPROVE"
    assert places(got) == [("jobs/sync.py", 30, "minor")]


# --------------------------------------------------------------------------- #
# Bounded
# --------------------------------------------------------------------------- #
def test_a_long_array_reads_in_linear_time() -> None:
    def timed(n: int) -> float:
        value = [{"file": f"src/m{i}.py:{i + 1}", "priority": "LOW", "summary": "unused import"}
                 for i in range(n)]
        raw = json.dumps(value).encode()
        start = time.process_time()
        got = reading.read(raw, "tester")
        took = time.process_time() - start
        assert len(got.findings) == n
        return took

    small, large = timed(500), timed(2_000)
    assert large < max(small, 0.02) * 12


# --------------------------------------------------------------------------- #
# More spellings of a place, findings keyed by id or file, nested wrappers
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize("finding", [
    {"title": "the queue is never drained", "where": "jobs/queue.py:12"},
    {"title": "the queue is never drained", "ref": "jobs/queue.py#L12-L14"},
    {"title": "the queue is never drained", "source": "jobs/queue.py:12"},
    {"title": "the queue is never drained", "locations": ["jobs/queue.py:12", "jobs/pool.py:3"]},
    {"title": "the queue is never drained", "files": ["jobs/queue.py"], "lines": [12, 14]},
])
def test_a_place_spelled_under_other_keys(finding: dict) -> None:
    got = read({"verdict": "needs changes", "findings": [finding]})
    assert places(got) == [("jobs/queue.py", 12, None)]


def test_a_tool_name_under_source_is_no_place() -> None:
    got = read({"verdict": "needs changes", "findings": [
        {"title": "a secret in the history", "source": "gitleaks", "severity": "high"}]})
    assert places(got) == [(None, None, "critical")]


def test_findings_keyed_by_id_and_by_file() -> None:
    by_id = read({"decision": "request changes", "findings": {
        "F1": {"title": "the cursor leaks", "file": "db/cursor.py", "line": 31},
        "F2": {"title": "no index on the join", "file": "db/schema.sql"}}})
    assert places(by_id) == [("db/cursor.py", 31, None), ("db/schema.sql", None, None)]
    by_file = read({"decision": "request changes", "issues": {
        "db/cursor.py": [{"line": 31, "message": "the cursor leaks"}],
        "db/pool.py": [{"line": 8, "message": "the pool never shrinks"}]}})
    assert places(by_file) == [("db/cursor.py", 31, None), ("db/pool.py", 8, None)]


def test_a_review_wrapped_twice() -> None:
    got = read({"result": {"review": {"verdict": "REJECT", "findings": [
        {"title": "the migration drops a column", "file": "migrations/0042.sql", "line": 3}]}}})
    assert got.verdict == "REJECT"
    assert places(got) == [("migrations/0042.sql", 3, None)]


@pytest.mark.parametrize(("doc", "want"), [
    ({"recommendation": "merge"}, "APPROVE"),
    ({"decision": "Ready to merge"}, "APPROVE"),
    ({"overall_correctness": "correct"}, "APPROVE"),
    ({"overall_correctness": "incorrect"}, "REVISE"),
    ({"approved": "false"}, "REVISE"),
    ({"approved": "true"}, "APPROVE"),
    ({"recommendation": "merge after the lock is fixed"}, "UNKNOWN"),  # a condition: no vote
    ({"verdict": "do not merge"}, "REJECT"),
])
def test_verdict_values_a_review_documents_key_makes_clear(doc: dict, want: str) -> None:
    assert read({**doc, "findings": []}).verdict == want
