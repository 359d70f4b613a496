"""What a row of a table is, decided by the table's columns and its section (issue: read
what real reviewers print, "a table is rows under column names"): a findings table gives
one finding a row; a count per severity, a scorecard, a status or coverage table, a list
of things described and a before/after comparison give none, except a row whose status
says it fails inside a findings section.  Fixtures written for these tests."""

from __future__ import annotations

import pytest

from council_filters.verdict import reading


def found(text: str) -> list[tuple[str | None, int | None, str | None, str]]:
    return [(f.get("file"), f.get("line"), f.get("severity"), f.get("summary", ""))
            for f in reading.read(text.encode(), "tester").findings]


def test_a_findings_table_gives_one_finding_a_row() -> None:
    text = """## Findings

| # | Problem | Severity | Where |
|---|---|---|---|
| 1 | The cache key ignores the locale | High | `web/cache.py:31` |
| 2 | Retry loop has no ceiling | Medium | `jobs/poll.py:88` |
"""
    assert found(text) == [
        ("web/cache.py", 31, "critical", "The cache key ignores the locale"),
        ("jobs/poll.py", 88, "medium", "Retry loop has no ceiling"),
    ]


@pytest.mark.parametrize("heading", ["## Findings", "## Review", "## Issues Found"])
def test_a_count_per_severity_with_its_topics_is_no_finding(heading: str) -> None:
    text = heading + """

| Severity | Count | Description |
|---|---|---|
| High | 1 | cache keys |
| Medium | 2 | retries, logging |
"""
    assert found(text) == []


@pytest.mark.parametrize("heading", ["## Findings", "## Review", "## Code Review"])
def test_a_scorecard_with_a_notes_column_is_no_finding(heading: str) -> None:
    text = heading + """

| Dimension | Score | Finding |
|---|---|---|
| Readability | 8/10 | Names say what they hold |
| Test depth | 7/10 | The retry path has a test |
"""
    assert found(text) == []


def test_status_and_coverage_rows_that_pass_are_no_findings() -> None:
    text = """## Findings

| Goal | Description | Status |
|---|---|---|
| G1 | Nightly job is scheduled | Complete |
| G2 | Archive carries a checksum | Verified |
| G3 | Upload is retried | Yes |

| Requirement | Status | Details |
|---|---|---|
| Download resumes | ✓ Satisfied | handled in the client |
| Quota respected | Met | checked per request |
"""
    assert found(text) == []


def test_a_row_whose_status_fails_in_a_findings_section_is_a_finding() -> None:
    text = """## Issues

| Check | Status | Notes |
|---|---|---|
| Formatting | ✅ PASS | nothing to report |
| Schema downgrade | ❌ FAIL | the reverse step removes the wrong index |
| Release note | Missing | the new switch is not mentioned |
| Auth refresh | Partial | the refresh token is never rotated |
"""
    assert [s for *_, s in found(text)] == [
        "Schema downgrade: the reverse step removes the wrong index",
        "Release note: the new switch is not mentioned",
        "Auth refresh: the refresh token is never rotated",
    ]


def test_a_failing_status_row_outside_a_findings_section_is_none() -> None:
    text = """## Summary

| Check | Status | Notes |
|---|---|---|
| Schema downgrade | ❌ FAIL | the reverse step removes the wrong index |
"""
    assert found(text) == []


def test_a_failing_row_under_a_status_heading_inside_findings_restates() -> None:
    table = """
| Aspect | Assessment |
|---|---|
| Parser | ✅ Good - every case covered |
| Exporter | ❌ Not ready - two specs fail to load |
"""
    assert found("## Findings\n" + table) == [
        (None, None, None, "Exporter: Not ready - two specs fail to load")]
    assert found("## Summary and recommendations\n\n### Current status\n" + table) == []
    assert found("## Findings\n\n### Status\n" + table) == []


def test_a_fix_column_saying_what_was_done_marks_the_row_fixed() -> None:
    text = """## Summary

| # | Severity | File | Issue | Fix |
|---|---|---|---|---|
| 1 | High | `svc/queue.py:12` | a failed ack locks the message | Wrapped the ack |
| 2 | Medium | `svc/clean.py:4` | zero days read as default | Replaced the `or` |
| 3 | Low | `svc/fetch.py:70` | whole body held in memory | Stream it to disk instead |
"""
    assert found(text) == [("svc/fetch.py", 70, "minor", "whole body held in memory")]


def test_a_list_of_things_described_without_place_or_severity_is_none() -> None:
    text = """## Findings

| Commit | Description |
|---|---|
| 1a2b3c | introduce the export command |
| 4d5e6f | sign the archive |

| Aspect | Before | After | Summary |
|---|---|---|---|
| Start-up | 1.4 s | 0.9 s | quicker |
"""
    assert found(text) == []


@pytest.mark.parametrize("table", [
    "| Severity | Count |\n|---|---|\n| High |\n| | | | |\n",
    "| Score |\n|---|\n| ❌ |\n",
    "| Check | Status |\n|---|---|\n| ❌ FAIL | ❌ FAIL |\n| | Missing |\n",
    "| Fix | Issue | File |\n|---|---|---|\n| | | |\n| ed | x | `a.py:1` |\n",
    "| Before | After |\n|---|---|\n",
])
def test_odd_tables_never_raise(table: str) -> None:
    for heading in ("## Findings", "## Summary", ""):
        reading.read((heading + "\n\n" + table).encode(), "tester")


FIELD_TABLES = """## Issues

### BUG-01: The export page lists private mail hosts as company hosts

| Field | Value |
|---|---|
| **Severity** | medium |
| **Area** | export page |
| **Status** | {status} |

The company-host list shows private mail hosts next to company ones.

### BUG-02: The queue page opens with the generic title

| Field | Value |
|---|---|
| **Severity** | low |
| **Status** | {status} |

The queue page shows the title of the overview.
"""


def test_a_field_table_under_a_finding_heading_gives_its_severity() -> None:
    got = found(FIELD_TABLES.format(status="Open"))
    assert [sev for _, _, sev, _ in got] == ["medium", "minor"]


def test_a_field_table_whose_status_says_fixed_settles_its_heading() -> None:
    assert found(FIELD_TABLES.format(status="Fixed")) == []


@pytest.mark.parametrize("table", [
    """\
# Review

## 4. Improvements, best return first

| Priority | Title | Why | Effort | Risk if skipped |
|---|---|---|---|---|
| 1 | Escape every exported field | report download runs script | 1h | High |
| 2 | Add a startup warning for the default secret | easy to miss | 15min | Medium |
""",
    """\
## Findings

### Order of work

| Step | Summary | Impact | Estimate |
|------|---------|--------|----------|
| A | Rotate the signing key first | high | 2 days |
| B | Then move the cron job to the queue | low | half a day |
""",
])
def test_a_table_of_work_weighed_by_effort_with_no_place_is_no_finding(table: str) -> None:
    assert found(table) == []


def test_a_findings_table_with_an_effort_column_and_places_keeps_its_rows() -> None:
    text = """\
## Findings

| Severity | File | Issue | Effort |
|---|---|---|---|
| High | `api/auth.py:40` | token compared with == | 5 min |
| Low | `api/log.py:7` | debug log left on | 1 min |
"""
    assert [(f, ln, s) for f, ln, s, _ in found(text)] == [
        ("api/auth.py", 40, "critical"), ("api/log.py", 7, "minor")]
