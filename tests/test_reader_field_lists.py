"""What a reader must not take for a finding (issue: read what real reviewers print):
the fields a reviewer names over a list under one finding ("**Risk**:", "**Impact**:"),
a summary table whose name has a qualifier ("Security Issues Summary"), a test plan, and
an inventory of files to change.  Fixtures written for these tests, one per family."""

from __future__ import annotations

from council_filters.verdict import reading


def found(text: str) -> list[tuple]:
    got = reading.read(text.encode(), "tester").findings
    return [(f.get("summary"), f.get("file"), f.get("severity")) for f in got]


# --------------------------------------------------------------------------- #
# A field label over a list is part of the finding it sits under
# --------------------------------------------------------------------------- #
FIELD_LISTS = """\
# Review

## Critical Issues

### 1. Session tokens are never rotated
**Severity**: HIGH

**Issue**: the token issued in `app/auth.py` stays valid across logins.

**Risk**:
- A stolen token keeps working
- Logging out does not help

**Impact**:
- Account takeover

### 2. Upload size is unbounded
**Severity**: MEDIUM

**File**: `app/upload.py`

**Risk**:
- Memory exhaustion on a large request
"""


def test_a_risk_list_is_a_field_of_the_finding_above_it() -> None:
    assert found(FIELD_LISTS) == [
        ("Session tokens are never rotated", "app/auth.py", "critical"),
        ("Upload size is unbounded", "app/upload.py", "medium"),
    ]


def test_the_risk_items_stay_in_the_findings_discussion() -> None:
    got = reading.read(FIELD_LISTS.encode(), "tester").findings
    assert "A stolen token keeps working" in got[0].get("discussion", "")


RISKS_GROUP = """\
## Findings

**Risks**:
- **High**: `src/cache.py:40` evicts live entries before stale ones
- **Low**: `src/cache.py:88` logs the key at debug level
"""


def test_a_plural_group_label_over_tagged_items_still_heads_findings() -> None:
    assert [(f, s) for _, f, s in found(RISKS_GROUP)] == [
        ("src/cache.py", "critical"), ("src/cache.py", "minor")]


# --------------------------------------------------------------------------- #
# A summary table whose name has a qualifier restates the findings above it
# --------------------------------------------------------------------------- #
QUALIFIED_SUMMARY = FIELD_LISTS + """
## Security Issues Summary

| Issue | Severity | Fix Time |
|-------|----------|----------|
| Session tokens never rotated | HIGH | 2 hours |
| Upload size unbounded | MEDIUM | 1 hour |
"""


def test_a_qualified_summary_table_adds_no_findings() -> None:
    assert found(QUALIFIED_SUMMARY) == found(FIELD_LISTS)


NAMED_AFTER_SUMMARY = FIELD_LISTS + """
### 3. Error summary is escaped twice
**Severity**: LOW

The error page in `app/errors.py` escapes the summary text twice.
"""


def test_a_finding_named_after_a_summary_is_still_a_finding() -> None:
    assert ("Error summary is escaped twice", "app/errors.py", "minor") in found(
        NAMED_AFTER_SUMMARY)


# --------------------------------------------------------------------------- #
# A test plan and an inventory of files to change hold no findings
# --------------------------------------------------------------------------- #
TEST_PLAN = """\
# Code review

## Issues Fixed

### 1. Double resume on send failure (`client.swift:85`)
**Status**: fixed; the timeout task is cancelled first.

## Testing Recommendations

1. **Test timeout cancellation**: drop the server mid-request, check nothing crashes
2. **Stress test**: send many commands at once, check no continuation leaks
"""


def test_a_test_plan_holds_no_findings() -> None:
    assert found(TEST_PLAN) == []


INVENTORY = FIELD_LISTS + """
## Files Requiring Changes

1. `app/auth.py` - rotate the token on login
2. `app/upload.py` - cap the request size
3. `app/middleware/limits.py` - create new
"""


def test_an_inventory_of_files_to_change_adds_no_findings() -> None:
    assert found(INVENTORY) == found(FIELD_LISTS)


# --------------------------------------------------------------------------- #
# A "Problems:" key under a heading with its own Severity and Location fields
# --------------------------------------------------------------------------- #
FIELDED = """\
## Critical Issues

### 2. **Decoding trusts the payload shape**
**Location**: `src/feed/decode.ts:40-44, 61-65`
**Severity**: Critical

**Problems**:
- `payload.body` may be a string, a number or null
- the error it throws names no field

### 3. **Decoding is written twice**
**Location**: `src/feed/decode.ts:61`
**Severity**: High

The same conversion appears in two functions.
"""


def test_a_problems_key_under_a_fielded_heading_is_that_findings_part() -> None:
    assert found(FIELDED) == [
        ("Decoding trusts the payload shape", "src/feed/decode.ts", "critical"),
        ("Decoding is written twice", "src/feed/decode.ts", "critical"),
    ]


# --------------------------------------------------------------------------- #
# A document addressed to a reviewer is a prompt, not an answer
# --------------------------------------------------------------------------- #
BRIEF = """\
# Review Brief for the Second Reviewer

## What changed

### Price alerts
- **Files**: `alerts/engine.py`, `alerts/bot.py`
- **CHECK**: a burst of alerts is sent as one message

## Known issues (do not fix, just confirm)
1. Feature extraction takes close to an hour on the full universe
"""


def test_a_brief_for_a_reviewer_gives_no_findings() -> None:
    assert found(BRIEF) == []


def test_a_review_titled_as_a_review_still_gives_its_findings() -> None:
    text = BRIEF.replace("# Review Brief for the Second Reviewer", "# Second Review")
    assert found(text) != []


# --------------------------------------------------------------------------- #
# Headings inside a recap, a closing note, a list of tickets
# --------------------------------------------------------------------------- #
RECAP_PARTS = FIELD_LISTS + """
## Summary of Required Changes

### Before Merging:
1. **Rotate the session token on login** (Critical)

### Can Be Done Later:
2. Cap the upload size

## Tickets for the engineer

### T-1 — Rotate tokens
- Issue a new token at each login.

## Audit quality note

Every claim above was checked against the code.
"""


def test_the_parts_of_a_recap_a_note_and_tickets_add_no_findings() -> None:
    assert found(RECAP_PARTS) == found(FIELD_LISTS)


# --------------------------------------------------------------------------- #
# A heading that ends by saying it was settled
# --------------------------------------------------------------------------- #
SETTLED_TAIL = """\
## Warnings

### W1. [reliability] The journal mode is the default — fixed in this PR

`db/engine.py:14` opened connections without WAL.

### W2. [security] Requests have no size limit — not fixed yet

`api/schemas.py:20` accepts any length.
"""


def test_a_heading_ending_in_fixed_is_settled_and_not_fixed_yet_is_open() -> None:
    assert [f for _, f, _ in found(SETTLED_TAIL)] == ["api/schemas.py"]


# --------------------------------------------------------------------------- #
# An item's own Status line is not the review's verdict
# --------------------------------------------------------------------------- #
ITEM_STATUS = """\
# Code Review

## Issues Fixed

### 1. Double resume on send failure (`client.swift:85`)
**Status**: fixed

## Items Checked

### 4. **Loose JSON wrapper** (`result.swift:17`)
**Status**: acceptable

The wrapper checks each type before it casts.
"""


def test_an_items_status_line_is_no_verdict() -> None:
    assert reading.read(ITEM_STATUS.encode(), "tester").verdict == "UNKNOWN"


def test_a_reviews_own_status_key_still_votes() -> None:
    text = "# Code Review\n\n**Status**: APPROVED\n\n## Notes\n\nNothing else.\n"
    assert reading.read(text.encode(), "tester").verdict == "APPROVE"


# --------------------------------------------------------------------------- #
# A "Files Affected" list under a heading gives that finding its place
# --------------------------------------------------------------------------- #
FILES_AFFECTED = """\
## Critical Issues

### 1. Login has no rate limit
**Severity**: HIGH

**Issue**: the limiter is set up in `main.py` but no route uses it.

**Files Affected**:
- `api/auth_routes.py` - login and register without limits
- `api/routes.py` - the search endpoint without limits

### 2. Passwords may be short
**Severity**: MEDIUM

Eight characters are accepted by `api/auth_routes.py`.
"""


def test_the_first_affected_file_is_the_findings_place() -> None:
    assert found(FILES_AFFECTED)[0] == ("Login has no rate limit", "api/auth_routes.py",
                                        "critical")
    assert len(found(FILES_AFFECTED)) == 2


# --------------------------------------------------------------------------- #
# A status table that marks an id fixed settles the finding with that id
# --------------------------------------------------------------------------- #
STATUS_BY_ID = """\
# Branch review

## Status summary

| # | Area | File | Status |
|---|------|------|--------|
| 1 | cache drops live entries | cache.py | **FIXED** |
| 2 | retry loop never stops | retry.py | open |
| 3 | log level | log.py | partially fixed |

## Findings

### #1 — The cache drops live entries before stale ones
`src/cache.py:40` evicts by insertion order.

### #2 — The retry loop never stops
`src/retry.py:12` has no upper bound.

### #3 — The log level is read once
`src/log.py:5` caches the level at import.
"""


def test_an_id_a_status_table_marks_fixed_is_settled() -> None:
    assert [f for _, f, _ in found(STATUS_BY_ID)] == ["src/retry.py", "src/log.py"]


def test_a_fixed_row_about_something_else_settles_nothing() -> None:
    text = STATUS_BY_ID.replace("| 1 | cache drops live entries |", "| 1 | old parser crash |")
    assert [f for _, f, _ in found(text)] == ["src/cache.py", "src/retry.py", "src/log.py"]
