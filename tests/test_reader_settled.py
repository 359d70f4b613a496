"""What a review says is settled or is only advice is not a finding (issue: read what real
reviewers print): an item whose own body marks it fixed, a section whose heading says no
issues were found, a count of issues by severity, and advice listed after the findings
that neither cites a place nor carries a severity.  Fixtures written for these tests."""

from __future__ import annotations

import pytest

from council_filters.verdict import reading


def findings(text: str) -> list[dict[str, object]]:
    return reading.read(text.encode(), "tester").findings


def places(text: str) -> list[tuple[object, object]]:
    return [(f.get("file"), f.get("line")) for f in findings(text)]


# -- an item settled in its own body ------------------------------------------------

SETTLED_HEADINGS = """\
# Cross-check of the cache layer

## Findings

### P1 — Stale entries survive a reload — `cache/store.py:88`

The reload path keeps the old index when the file is unchanged on disk,
so evicted keys come back. The index is now rebuilt on every reload.
**Verdict: fixed-by-me.**

### P2 — Eviction ignores the size cap — `cache/evict.py:40`

Only the count cap is checked. **Verdict: question (resolved; no change).**

### P2 — Warm-up reads every shard twice — `cache/warm.py:7`

Status: ADDRESSED (the second pass was dropped).

### P2 — Metrics name the wrong unit — `cache/metrics.py:12`

Bytes are reported as kilobytes.
"""


def test_an_item_whose_body_says_it_was_fixed_is_not_a_finding() -> None:
    assert places(SETTLED_HEADINGS) == [("cache/metrics.py", 12)]


SETTLED_ITEMS = """\
## Findings

1. **(Medium) Two reads per toggle.**
   ✅ **Fixed** in the follow-up commit.
   `toggle()` loads the same row twice on every call.

2. **(Low) The new branch has no test.** Add one with a stub handler.
"""


def test_a_list_item_opening_its_body_with_a_fixed_mark_is_not_a_finding() -> None:
    got = findings(SETTLED_ITEMS)
    assert [f.get("severity") for f in got] == ["minor"]
    assert "no test" in str(got[0].get("summary"))


@pytest.mark.parametrize("status", ["Status: open", "**Verdict:** not fixed yet",
                                    "Status: partially fixed", "Resolution: pending"])
def test_a_status_that_is_not_settled_keeps_the_finding(status: str) -> None:
    text = SETTLED_HEADINGS.replace("**Verdict: fixed-by-me.**", status)
    assert places(text) == [("cache/store.py", 88), ("cache/metrics.py", 12)]


# -- a section that says no issues were found -----------------------------------------

NO_ISSUES = """\
## Issues

### I1. The retry loop never backs off
- **File:** `net/retry.go` (line 31)
- **Issue:** a failed call is retried at once, a hundred times.

## {heading}

### Dependency pins (criterion 2)
- Every pin exists on the registry. Confirmed.

### Task order (criterion 5)
- Tasks are ordered by what they depend on.
"""


@pytest.mark.parametrize("heading", ["Verification Results (No Issues Found)",
                                     "Areas Checked Without Issues",
                                     "Criteria with no findings"])
def test_a_section_whose_heading_says_no_issues_holds_no_finding(heading: str) -> None:
    assert places(NO_ISSUES.format(heading=heading)) == [("net/retry.go", 31)]


def test_a_heading_naming_issues_is_still_a_findings_section() -> None:
    text = NO_ISSUES.format(heading="Other issues")
    assert len(findings(text)) == 3


# -- a count of issues by severity ------------------------------------------------------

TALLY = """\
## Findings

- `web/form.ts:14` — the submit button stays enabled while a request is in flight.

## Summary

- **Critical**: 0 issues (all fixed)
- **Medium**: 3 issues (error handling, a leaked timer, a typo in a log line)
- **Low**: 1 issue
"""


def test_a_count_of_issues_by_severity_is_not_a_finding() -> None:
    assert places(TALLY) == [("web/form.ts", 14)]


# -- advice after the findings --------------------------------------------------------

ADVICE = """\
## Findings

1. `api/handler.py:52` — the request body is parsed twice.
2. `api/auth.py:17` — tokens are compared with `==`, which leaks timing.

## {heading}

1. Add a test that posts a body larger than the limit
2. Run the suite with the race detector on
3. `api/cache.py:9` — the TTL setting is never read.
4. **(High)** Rate-limit the login route before release.
"""


@pytest.mark.parametrize("heading", ["Testing Recommendations", "Recommendations",
                                     "Further Actions"])
def test_advice_after_the_findings_without_place_or_severity_is_not_a_finding(
        heading: str) -> None:
    got = findings(ADVICE.format(heading=heading))
    assert [(f.get("file"), f.get("line")) for f in got] == [
        ("api/handler.py", 52), ("api/auth.py", 17), ("api/cache.py", 9), (None, None)]
    assert got[-1].get("severity") == "critical"


@pytest.mark.parametrize("heading", ["Recommended Next Steps", "Roadmap", "Action Plan"])
def test_work_to_come_after_the_findings_keeps_only_what_names_a_place(heading: str) -> None:
    # the steps of a plan are no findings, tagged or not; a step naming a place of its
    # own still reports something at that place
    got = findings(ADVICE.format(heading=heading))
    assert [(f.get("file"), f.get("line")) for f in got] == [
        ("api/handler.py", 52), ("api/auth.py", 17), ("api/cache.py", 9)]


def test_suggestions_after_the_findings_keep_the_severity_their_heading_gives() -> None:
    got = findings(ADVICE.format(heading="Suggestions"))
    assert len(got) == 6
    assert [f.get("severity") for f in got[2:4]] == ["minor", "minor"]


def test_recommendations_that_open_a_review_are_its_findings() -> None:
    text = """\
# Review

## Recommendations

### 1. Add foreign keys
The migration creates tables without their foreign keys.

### 2. Move the partition logic out of the DAG
It is hard to test where it is.
"""
    assert len(findings(text)) == 2


# -- sections that hold no findings: notes, a proposed fix, how to verify ----------------

AFTERWORD = """\
## Findings

1. `db/pool.py:40` — connections are never returned to the pool on error.

## Risk Notes

- No correctness defects beyond the one above were seen.
- The main risk is in the pool's error path.

## Proposed Fix for 1

**1. Root cause.** The `except` branch returns before the connection is released.

**2. Files to modify.** `db/pool.py` and its test.

## How to Verify

### On Linux

Run the pool test under load.
"""


def test_notes_a_proposed_fix_and_how_to_verify_hold_no_findings() -> None:
    assert places(AFTERWORD) == [("db/pool.py", 40)]


# -- actions that name the finding they answer, under timing headings --------------------

ACTIONS = """\
## Findings

### 1. The iterator skips a thread — `src/list.cpp:70`

The stored position is one past the returned one.

### 2. A data race on the counters — `src/info.h:12`

Two sampling threads write the same fields without a lock.

## Recommended Actions

### Immediate (P0)

1. **Fix Issue #1** - the skipped thread
2. **Run the list tests** - after the fix

### Later (P2)

3. **Fix Issue #2** - add a lock or atomics
"""


def test_actions_naming_a_finding_or_ordered_by_timing_are_not_findings() -> None:
    got = findings(ACTIONS)
    assert [(f.get("file"), f.get("line")) for f in got] == [
        ("src/list.cpp", 70), ("src/info.h", 12)]


def test_an_action_naming_a_finding_by_its_id_in_parentheses_restates_it() -> None:
    text = """\
## Findings

**H1. The filter reads the column type from the first row.** `src/filter.js:214`
takes `typeof` of row 0, which is `null` for optional columns.

## Improvement Suggestions

1. Fix the first-row type check (H1)
2. Add a regression test for a null first row (H1)
"""
    assert places(text) == [("src/filter.js", 214)]


# -- a table of what the change adds ---------------------------------------------------

INVENTORY = """\
## Summary

This change adds a stats page.

**New files:**
| File | Lines | Description |
|------|-------|-------------|
| `src/app/stats.py` | 274 | The stats client |
| `tests/test_stats.py` | 365 | Its tests |

## Issues Found

### 1. Dead code: the streaming endpoint

`routes.py:232-295` holds an endpoint no page calls.
"""


def test_a_table_of_files_and_their_descriptions_outside_findings_is_an_inventory() -> None:
    assert places(INVENTORY) == [("routes.py", 232)]


def test_the_same_table_under_findings_is_read() -> None:
    text = INVENTORY.replace("## Summary", "## Findings").replace(
        "| File | Lines | Description |", "| File | Line | Description |")
    assert ("src/app/stats.py", 274) in places(text)


# -- informational items that confirm a property holds ---------------------------------

CONFIRMS = """\
## Findings

### High: the nightly job has no timeout

A hung export blocks every later run.

### Info: the export stays explicitly bounded

It reads at most 500 rows a batch.

### Info: retention rules are preserved

No raw rows are written to the report.

### Info: the retry count is not bounded

A failing upload is retried forever.
"""


def test_an_informational_item_confirming_a_property_is_not_a_finding() -> None:
    got = findings(CONFIRMS)
    assert [str(f.get("summary")) for f in got] == [
        "High: the nightly job has no timeout", "Info: the retry count is not bounded"]


def test_a_recap_naming_a_finding_by_a_shorter_path_restates_it() -> None:
    text = """\
## Findings

### ⚠️ Potential issue: no timeout in the matcher

**Location**: `services/price/internal/matching/ai.go`

The run has retries but no overall deadline.

## Summary of Findings

### High Priority Issues: **1**

1. **Missing timeout in the matcher** (`matching/ai.go`)
   - Fix: add a deadline to the run
"""
    got = findings(text)
    assert [(f.get("file"), f.get("severity")) for f in got] == [
        ("services/price/internal/matching/ai.go", "critical")]


@pytest.mark.parametrize("ending", ["— expected.", "; fine for now.", ", acceptable as is."])
def test_an_item_that_ends_by_accepting_what_it_describes_is_not_a_finding(ending: str) -> None:
    text = f"""\
## Issues

### Low

- **Hover motion** on many cards can feel jittery on long lists.
- **Numbering** restarts when filters change counts {ending}
"""
    got = findings(text)
    assert [str(f.get("summary")).split()[0] for f in got] == ["Hover"]


def test_items_set_aside_by_their_mark_or_lead_are_not_findings() -> None:
    text = """\
## Code review

### Major
- [x] `as any` cast in `src/dispatch.ts:163`
- [~] DEFERRED: split `orchestrator.rs` into modules for v1.1
- WONTFIX: the plugin list stays hard-coded
- [ ] `src/store.ts:62` casts blindly to `string`
"""
    assert places(text) == [("src/store.ts", 62)]


def test_a_title_over_a_location_field_naming_no_file_is_not_a_finding() -> None:
    text = """\
# Design Document Review - Mismatches Found and Fixed

## Summary
Found and fixed **5 critical mismatches** between the interface and the examples.

---

## Issues Found and Fixed

### ✅ Issue 1: Wrong callback signature (Line 637)
**Location:** Section 8 - Authorization endpoints

**Why:** the backend receives the gateway id, not the URL.

## Verification Checklist

- [x] The record has its team field
"""
    assert findings(text) == []


def test_future_work_holds_only_items_with_a_priority_of_their_own() -> None:
    text = """\
# Second review

**Verdict: APPROVE**

## Review of fixes

### Critical issues (all fixed)

1. **Wildcard injection**
   - ✅ Fixed: search terms are escaped before the pattern is built.

---

## Verification Results

### Tests
```bash
19 tests, 0 failures
```

---

## Recommendations for Future Work

1. **Integration tests**
   - Add tests for the admin actions.
   - Test the like/dislike edge cases.

2. **UI improvements**
   - Show soft-deleted comments greyed out.

---

## Conclusion

All issues are resolved.

### Areas for future enhancement

#### 1. Embedded script (Priority: Medium)
**Issue:** a script is kept in string literals.
"""
    got = findings(text)
    assert [(f.get("summary"), f.get("severity")) for f in got] == [("Embedded script", "medium")]


# -- a review closed as a whole, and items settled by design or superseded -------------

CLOSED_REVIEW = """\
# Audit of the upload queue

> **Status: all findings resolved in `9c1e4d0`.** The notes below are kept for the record.

## Summary

| # | Finding | Severity | Fixed |
|---|---|---|---|
| A | Retries re-send the whole batch | **High** | only failed parts are re-sent |
| B | `queue/flush.py` drops the last item | Medium | loop bound corrected |

## Finding A — retries re-send the whole batch

`queue/retry.py:52` loops over the batch, not over the failed parts.

## Finding B — the last item is dropped

`queue/flush.py:17` stops one short of the end.
"""


def test_a_header_that_closes_every_finding_leaves_none_open() -> None:
    assert findings(CLOSED_REVIEW) == []


def test_a_closed_header_in_other_words_also_closes_the_review() -> None:
    for header in ("CLOSED \u2014 all findings resolved.",
                   "All issues from round 1 addressed.",
                   "**Status:** RESOLVED",
                   "Resolution: won't fix"):
        text = CLOSED_REVIEW.replace(
            "> **Status: all findings resolved in `9c1e4d0`.** The notes below are kept for "
            "the record.", header)
        assert findings(text) == [], header


@pytest.mark.parametrize("header", [
    "> Status: all but one finding resolved in `9c1e4d0`.",
    "> Not all findings are resolved yet.",
    "> All round-1 issues addressed; two new findings below.",
    "> Status: partially resolved.",
])
def test_a_header_that_leaves_some_open_closes_nothing(header: str) -> None:
    text = CLOSED_REVIEW.replace(
        "> **Status: all findings resolved in `9c1e4d0`.** The notes below are kept for "
        "the record.", header)
    assert ("queue/retry.py", 52) in places(text)


def test_a_heading_naming_open_findings_keeps_them_despite_a_closed_header() -> None:
    text = CLOSED_REVIEW + "\n## Still open\n\n- `queue/peek.py:9` returns a copy, not a view.\n"
    assert ("queue/peek.py", 9) in places(text)


def test_a_shell_comment_in_a_fenced_block_does_not_reopen_a_closed_review() -> None:
    # "# ... still failing" inside a fenced block is a comment of the shell, not a heading
    text = CLOSED_REVIEW.replace(
        "> **Status: all findings resolved in `9c1e4d0`.** The notes below are kept for "
        "the record.", "**Status:** RESOLVED") + (
        "\n## Check\n\n```sh\n$ make test\n# two unrelated tests still failing on main\n```\n")
    assert findings(text) == []


def test_a_closing_line_inside_a_section_is_not_the_header() -> None:
    # a status sentence under a section heading is not the document's header
    text = ("# Review\n\n## Notes\n\nAll findings resolved in the previous round.\n\n"
            "## Findings\n\n- `queue/peek.py:9` returns a copy, not a view.\n")
    assert places(text) == [("queue/peek.py", 9)]


BY_DESIGN = """\
## Known issues

### 1. Slow cold start (By Design)
**Affected:** `boot/loader.py`
**Impact:** the first call waits on the index build.

### 2. Stale thumbnails (Superseded)
**Affected:** `media/thumbs.py`

### 3. Lost focus after save
**Affected:** `ui/editor.py`
**Impact:** the cursor jumps to the top.
"""


def test_an_item_headed_by_design_or_superseded_is_not_a_finding() -> None:
    assert [f.get("file") for f in findings(BY_DESIGN)] == ["ui/editor.py"]


def test_none_outstanding_is_not_a_finding() -> None:
    for none in ("None outstanding.", "None left."):
        text = f"## Findings\n\n- `queue/peek.py:9` returns a copy, not a view.\n- {none}\n"
        assert places(text) == [("queue/peek.py", 9)], none


BOT_THREAD = """\
## Inline review comments

### reviewbot[bot] — 2026-03-02T10:00:00Z

Location: `src/sync/push.py:41`

_⚠️ Potential issue_ | _🟠 Major_

**The lock is checked after the upload.** A lost lock leaves the archive replaced.

✅ Addressed in commit 1f3e9a2

### reviewbot[bot] — 2026-03-02T10:00:01Z

Location: `src/sync/pull.py:88`

_⚠️ Potential issue_ | _🟡 Minor_

**Extracted files are not checked against the manifest hash.**

### reviewbot[bot] — 2026-03-02T10:00:02Z

Location: `src/sync/lock.py:12`

_🛠️ Refactor suggestion_ | _🟡 Minor_

**The expiry constant is duplicated.**

✅ Addressed in commits 2b4c6d8 to 3c5d7e9
"""


def test_a_bot_comment_marked_addressed_in_a_commit_is_not_a_finding() -> None:
    assert places(BOT_THREAD) == [("src/sync/pull.py", 88)]


def test_a_comment_record_marked_addressed_is_not_a_finding() -> None:
    text = ("Comment #7 by reviewbot[bot] on src/sync/push.py:41\n\n"
            "_⚠️ Potential issue_ | _🟠 Major_\n\n"
            "**The lock is checked after the upload.**\n\n"
            "✅ Addressed in commit 1f3e9a2\n\n---\n\n"
            "Comment #8 by reviewbot[bot] on src/sync/pull.py:88\n\n"
            "_⚠️ Potential issue_ | _🟡 Minor_\n\n"
            "**Extracted files are not checked against the manifest hash.**\n")
    assert places(text) == [("src/sync/pull.py", 88)]


SETTLED_SECTIONS = """\
## Issues

### Open — High
1. **Uploads skip the size check** — `api/upload.ts:30` reads the whole body first

### Previously Fixed (round 2 — cleanup)
1. ~~**Unused import**~~ — removed from `ui/list.tsx`
2. **Session id reused after logout** — `auth/session.ts:14` now rotates it

### Accepted (Low Priority)
- **Random ids for toasts** — `ui/toast.ts:9` uses Math.random; not a security use
"""


def test_previously_fixed_and_accepted_sections_hold_no_findings() -> None:
    assert places(SETTLED_SECTIONS) == [("api/upload.ts", 30)]


def test_a_status_nested_under_one_item_settles_that_item_only() -> None:
    # the status child belongs to the first item, not to the section that lists both
    for status in ("Fixed", "By design", "Superseded by the pool rewrite", "Won't fix"):
        text = ("## Findings\n\n- **Leak** `pool/conn.py:3` the handle is never closed.\n"
                f"  - **Status:** {status}\n- **Race** `pool/queue.py:9` two writers.\n")
        assert places(text) == [("pool/queue.py", 9)], status
    text = ("## Findings\n\n- **Leak** `pool/conn.py:3` the handle is never closed.\n"
            "  - **Status:** Open\n- **Race** `pool/queue.py:9` two writers.\n")
    assert places(text) == [("pool/conn.py", 3), ("pool/queue.py", 9)]


def test_a_table_row_marked_by_design_is_not_a_finding() -> None:
    text = ("## Findings\n\n| File | Line | Issue | Status |\n|---|---|---|---|\n"
            "| pool/conn.py | 3 | handle never closed | By design |\n"
            "| pool/queue.py | 9 | two writers | Open |\n")
    assert places(text) == [("pool/queue.py", 9)]


def test_an_item_ending_no_longer_applies_is_settled_but_regressed_is_not() -> None:
    text = ("## Findings\n\n1. Leak in `pool/conn.py:3` — no longer applies\n"
            "2. Race in `pool/queue.py:9` — regressed after the fix\n")
    assert places(text) == [("pool/queue.py", 9)]
