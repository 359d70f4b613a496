"""Findings given in shapes a reviewer may use in any language (issue: read what real
reviewers print): a record of nothing but fields, a line named with its file, a detail
section that restates an earlier list, and a bug report.  Fixtures written for these tests,
each family in at least two layouts."""

from __future__ import annotations

import pytest

from council_filters.verdict import reading


def found(text: str) -> list[tuple]:
    got = reading.read(text.encode(), "tester").findings
    return [(f.get("file"), f.get("line"), f.get("severity")) for f in got]


def summaries(text: str) -> list[str]:
    return [str(f.get("summary")) for f in reading.read(text.encode(), "tester").findings]


# --------------------------------------------------------------------------- #
# A record of fields only is one finding at its place, with its severity
# --------------------------------------------------------------------------- #
ONE_LINE_RECORDS = """\
## Review notes

A few places need work.

- File: pkg/queue.py, Line: 71, Severity: high
- File: pkg/store.py; Line: 15; Severity: low
"""

BOLD_RECORDS = """\
# Code review

**File:** pkg/queue.py
**Line:** 71
**Severity:** High
**Issue:** The worker drops the message when the ack times out.

**File:** pkg/store.py
**Line:** 15
**Severity:** Low
**Problem:** The cursor is opened twice.
"""

PLAIN_RECORDS = """\
Location: pkg/queue.py
Line: 71
Severity: high
Description: a slow consumer blocks every producer.

Location: pkg/store.py
Line: 15
Severity: low
Description: the retry count is never reset.
"""


@pytest.mark.parametrize("text", [ONE_LINE_RECORDS, BOLD_RECORDS, PLAIN_RECORDS])
def test_a_record_of_fields_is_one_finding_at_its_place(text: str) -> None:
    assert found(text) == [("pkg/queue.py", 71, "critical"), ("pkg/store.py", 15, "minor")]


def test_a_record_takes_its_title_from_the_field_that_says_what_is_wrong() -> None:
    assert summaries(BOLD_RECORDS) == ["The worker drops the message when the ack times out.",
                                       "The cursor is opened twice."]


def test_a_record_marked_fixed_is_no_finding() -> None:
    # (under a section heading: a status in the header before any would settle the whole text)
    text = BOLD_RECORDS.replace("# Code review\n", "# Code review\n\n## Findings\n").replace(
        "**Severity:** Low\n", "**Severity:** Low\n**Status:** Fixed\n")
    assert found(text) == [("pkg/queue.py", 71, "critical")]


def test_fields_under_a_finding_heading_stay_that_heading_s_fields() -> None:
    text = """\
## Findings

### 1. Message lost on timeout
**File:** pkg/queue.py
**Line:** 71
**Severity:** High
**Issue:** the ack is never retried.

### 2. Cursor opened twice
**File:** pkg/store.py
**Line:** 15
**Severity:** Low
"""
    assert found(text) == [("pkg/queue.py", 71, "critical"), ("pkg/store.py", 15, "minor")]
    assert summaries(text) == ["Message lost on timeout", "Cursor opened twice"]


# --------------------------------------------------------------------------- #
# A line named with its file is a line of that file, not of one named earlier
# --------------------------------------------------------------------------- #
LINE_THEN_FILE = """\
## Findings

Most of the change is in `svc/main.go`; a few helpers moved too.

1. Line 40 (`svc/retry.go`): the error of the last attempt is dropped.
2. The mutex stays held across the network call, line 77 in svc/pool.go.
3. svc/conf.go, line 9: the default timeout is zero.
4. L15 of svc/flags.go: the flag is parsed before it is registered.
"""

LINE_THEN_FILE_BULLETS = """\
### Review of `svc/main.go`

- Line 40 in `svc/retry.go` - the error of the last attempt is dropped.
- line 77 of svc/pool.go: the mutex stays held across the network call.
- `svc/conf.go`, line 9 — the default timeout is zero.
- L15 of `svc/flags.go` — the flag is parsed before it is registered.
"""


@pytest.mark.parametrize("text", [LINE_THEN_FILE, LINE_THEN_FILE_BULLETS])
def test_a_line_named_with_its_file_is_at_that_file(text: str) -> None:
    assert [(f, ln) for f, ln, _ in found(text)] == [
        ("svc/retry.go", 40), ("svc/pool.go", 77), ("svc/conf.go", 9), ("svc/flags.go", 15)]


def test_a_line_alone_is_still_a_line_of_the_file_named_before() -> None:
    text = LINE_THEN_FILE_BULLETS.replace("Line 40 in `svc/retry.go` -", "Line 40 -")
    assert found(text)[0][:2] == ("svc/main.go", 40)


# --------------------------------------------------------------------------- #
# A detail section that restates the findings listed before does not double them
# --------------------------------------------------------------------------- #
TABLE_THEN_DETAILS = """\
## Summary of issues

| # | Severity | File | Line | Issue |
|---|---|---|---|---|
| 1 | High | web/session.py | 22 | Session id compared with == |
| 2 | Medium | web/cache.py | 58 | Cached pages never expire |

## Details

### 1. Session id compared with ==
`web/session.py:22` - the comparison leaks timing; use a constant-time compare.

### 2. Cached pages never expire
`web/cache.py:58` - entries stay until the process restarts.
"""

LIST_THEN_SECTIONS = """\
## Key issues

1. **Session id compared with ==** — `web/session.py:22` (High)
2. **Cached pages never expire** — `web/cache.py:58` (Medium)

## Key issues in detail

### Session id compared with ==

**Location:** `web/session.py:22`

The comparison leaks timing; use a constant-time compare.

### Cached pages never expire

**Location:** `web/cache.py:58`

Entries stay until the process restarts.
"""


@pytest.mark.parametrize("text", [TABLE_THEN_DETAILS, LIST_THEN_SECTIONS])
def test_a_finding_said_again_at_the_same_place_and_title_is_one(text: str) -> None:
    assert found(text) == [("web/session.py", 22, "critical"), ("web/cache.py", 58, "medium")]


def test_a_new_finding_at_the_same_place_is_still_read() -> None:
    text = TABLE_THEN_DETAILS + """
### 3. Session id logged at debug level
`web/session.py:22` - the id is written to the log too.
"""
    assert [(f, ln) for f, ln, _ in found(text)] == [
        ("web/session.py", 22), ("web/cache.py", 58), ("web/session.py", 22)]


# --------------------------------------------------------------------------- #
# A bug report is one finding, not one per section or bullet
# --------------------------------------------------------------------------- #
BUG_TABLE = """\
# Bug: export stalls on large archives

| Field | Value |
|---|---|
| File | tools/export.py |
| Line | 88 |
| Severity | High |

## Environment
- Python 3.12
- a laptop with 8 GB of memory

## Steps to reproduce
1. Create an archive of 4 GB.
2. Run the export.

## Expected
The export finishes.

## Actual
The process is killed for lack of memory.

## Proposed fix
- Read the archive in chunks.
- Refuse archives over a limit.
"""

BUG_FIELDS = """\
Bug report - export stalls on large archives

**File:** tools/export.py
**Line:** 88
**Severity:** Medium

**Environment:**
- Python 3.12

**Steps to reproduce:**
- Create an archive of 4 GB.
- Run the export.

**Expected behaviour:**
- The export finishes.

**Actual behaviour:**
- The process is killed for lack of memory.
"""


BUG_PLAIN = """\
Title: Export stalls on large archives
Component: tools/export.py
Severity: Low
Location: tools/export.py:88

Environment:
- Python 3.12

Steps to reproduce:
1. Create an archive of 4 GB.
2. Run the export.

Expected behavior:
- The export finishes.

Actual behavior:
- The process is killed for lack of memory.

Proposed fix:
- Read the archive in chunks.
- Refuse archives over a limit.
"""


@pytest.mark.parametrize("text, sev", [(BUG_TABLE, "critical"), (BUG_FIELDS, "medium"),
                                       (BUG_PLAIN, "minor")])
def test_a_bug_report_is_one_finding(text: str, sev: str) -> None:
    assert found(text) == [("tools/export.py", 88, sev)]


def test_a_bug_report_is_titled_by_its_heading_or_its_title_field() -> None:
    assert summaries(BUG_TABLE) == ["export stalls on large archives"]
    assert summaries(BUG_PLAIN) == ["Export stalls on large archives"]


def test_two_bug_reports_are_not_folded_into_one() -> None:
    two = BUG_TABLE + "\n" + BUG_TABLE.replace("tools/export.py", "tools/import.py")
    assert len(found(two)) != 1


# --------------------------------------------------------------------------- #
# More layouts of records: upper-case keys with a suggestion, a file over nested fields
# --------------------------------------------------------------------------- #
UPPER_RECORDS = """\
FILE: web/card.tsx
LINE: 25
SUGGESTION: guard the missing e-mail before reading it
SEVERITY: warning

FILE: web/api.ts
LINE: 42
SUGGESTION: the call needs a timeout
SEVERITY: low
"""

NESTED_RECORDS = """\
## Issues Found

### High priority

- **File**: `svc/users.cs`
  - **Line**: 42
  - **Issue**: the query is built from the name the user typed
  - **Recommendation**: bind it as a parameter

- **File**: `svc/orders.cs`
  - **Line**: 15
  - **Issue**: the total is rounded twice
"""


def test_upper_case_records_are_findings_titled_by_their_suggestion() -> None:
    assert found(UPPER_RECORDS) == [("web/card.tsx", 25, "medium"), ("web/api.ts", 42, "minor")]
    assert summaries(UPPER_RECORDS) == ["guard the missing e-mail before reading it",
                                        "the call needs a timeout"]


def test_a_file_field_over_nested_fields_takes_their_line() -> None:
    assert found(NESTED_RECORDS) == [("svc/users.cs", 42, "critical"),
                                     ("svc/orders.cs", 15, "critical")]


def test_a_line_then_its_file_in_brackets_is_not_left_in_the_title() -> None:
    assert summaries(LINE_THEN_FILE)[0] == "the error of the last attempt is dropped."


def test_a_bug_report_with_marked_headings_is_one_finding_titled_without_its_id() -> None:
    text = """\
## \U0001f41b BUG-0012: Retry loop never backs off

- Location: net/retry.go:31
- Severity: Low

### \U0001f504 Steps to Reproduce
1. Point the client at a dead host.

### \u2705 Expected Behavior
Waits grow between attempts.

### \u274c Observed behaviour
The client retries in a tight loop.
"""
    assert found(text) == [("net/retry.go", 31, "minor")]
    assert summaries(text) == ["Retry loop never backs off"]
