"""Findings with no file are read only where the reviewer made them findings (issue 22,
item 5): the lists of actions that follow the findings (an action plan in phases, a
list of recommendations graded by priority) are advice, not new findings, and a table
of contents is navigation.  Every review below is written for these tests; none is a
reviewer's text."""

from __future__ import annotations

from council_filters.verdict import reading


def read(text: str) -> list[tuple]:
    got = reading.read(text.encode(), "tester")
    return [(f.get("file"), f.get("line"), f.get("severity"), f.get("summary"))
            for f in got.findings]


FINDINGS = """# Review of the export job

## Findings

### 1. The export retries forever
`jobs/export.py:88` loops on any error with no limit.

### 2. No metrics for failed exports
Nothing counts the exports that fail, so an outage goes unseen.

"""


def test_a_recommended_action_plan_in_phases_adds_no_findings() -> None:
    text = FINDINGS + """## Recommended Action Plan

### Phase 1: Critical Fixes (Block Merge)
1. Cap the retries of the export loop
2. Write the tenant id into every audit line

### Phase 2: Fix High-Priority Issues
1. Move the export settings into one place
2. Time out the upload after a minute
"""
    got = read(text)
    assert [(f, ln) for f, ln, _, _ in got] == [("jobs/export.py", 88), (None, None)]


def test_a_list_of_recommendations_graded_by_priority_is_advice() -> None:
    text = FINDINGS + """## Recommendations by Priority

### Priority 1: Critical
- Rotate the signing key every quarter

### Priority 2: Medium
- Split the export job into smaller steps

### Priority 3: Low
- Log the duration of each export
"""
    got = read(text)
    assert len(got) == 2
    assert not any("signing key" in str(s) or "smaller steps" in str(s) for *_, s in got)


def test_recommended_improvements_priority_with_graded_sub_lists_is_advice() -> None:
    text = FINDINGS + """## Recommended Improvements Priority

### High Priority (Do First)
1. **Add a dead-letter queue** - Keeps failed exports
2. **Add load tests** - Confidence before launch

### Low Priority (Nice to Have)
3. **Add a dashboard** - Easier operations
"""
    assert len(read(text)) == 2


def test_an_action_restating_a_finding_still_gives_it_its_severity() -> None:
    text = FINDINGS + """## Recommendations by Priority

### Priority 1: Critical
- Add metrics for failed exports so an outage is seen
"""
    got = read(text)
    assert len(got) == 2
    assert got[1][0] is None and got[1][2] == "critical"


def test_a_graded_list_of_must_fix_items_on_its_own_keeps_its_new_findings() -> None:
    text = FINDINGS + """## Must Fix Before Merge
- The archive step deletes the source before the upload is confirmed
"""
    got = read(text)
    assert len(got) == 3
    assert got[2][2] == "critical"


def test_a_table_of_contents_is_no_list_of_findings() -> None:
    text = """# Audit of the billing service

## Table of Contents
1. [Summary](#summary)
2. [Findings: Critical](#findings-critical)
3. [Findings: Medium](#findings-medium)
4. [Recommended Roadmap](#recommended-roadmap)

## Summary
Two problems stand out.

## Findings: Critical

### C1. Invoices are rounded twice
**File:** `billing/round.go`

## Findings: Medium

### M1. No test covers refunds
Refunds have no test at all.
"""
    got = read(text)
    assert [(f, sev) for f, _, sev, _ in got] == [("billing/round.go", "critical"),
                                                  (None, "medium")]


def test_an_action_list_named_with_a_qualifier_is_advice() -> None:
    text = FINDINGS + """## Hardening Recommendations
- Send a strict transport security header
- Pin the base image by digest

## Post-Deployment Tasks
1. Watch the export error rate for a week
"""
    assert len(read(text)) == 2


def test_a_title_that_goes_on_after_an_action_word_is_still_a_finding() -> None:
    text = FINDINGS + """### 3. Hardening recommendations are never applied
The deploy script skips the hardening step when the flag file is missing.
"""
    assert len(read(text)) == 3


def test_sections_the_reviewer_sets_aside_hold_no_findings() -> None:
    text = FINDINGS + """## Remaining Known Issues (not blocking)

| # | Severity | File | Issue |
|---|----------|------|-------|
| 1 | Major | `jobs/upload.py` | The whole environment is inherited |
| 2 | Minor | Cross-platform | The home folder is read from one variable |

## Architecture Notes (No Action Needed)
- The queue and the scheduler share one connection pool

### Items deferred (after launch)
- A second region for the archive bucket
"""
    assert len(read(text)) == 2


def test_known_issues_without_an_aside_still_hold_findings() -> None:
    text = """# Status of the sync tool

## Known Issues & Failures

### 1. Parse errors in the helper commands
**Impact:** the raw data comes back but is never structured
"""
    assert len(read(text)) == 1


def test_the_reasons_for_a_risk_rating_are_no_findings() -> None:
    text = """# Review of the fallback rename

## Findings
- `src/names.ts:27` — the parse fallback still returns the old name.

## Risks

**Risk Level**: Low

**Why Low**:
1. Only a string changes, no logic
2. The same value is already used two lines below
3. The tests already expect the new name
"""
    assert [(f, ln) for f, ln, _, _ in read(text)] == [("src/names.ts", 27)]


def test_a_heading_explaining_why_there_are_no_issues_holds_none() -> None:
    text = """# Second round

## Why No Critical/Important Issues
1. **Data flow checked**: the new command reuses the existing runner.
2. **Criteria traced**: every criterion maps to a test.

## Verdict: APPROVE
"""
    assert read(text) == []


def test_rows_whose_what_was_done_column_is_filled_in_are_settled() -> None:
    text = FINDINGS + """## Folded into the contributor guide

| Finding | What was done |
|---------|---------------|
| **No package manager chosen.** | The guide picks one for every language. |
| **No runbook for the demo.** | The guide ends with a one-page runbook. |
| **No owner for the nightly job.** | Not yet — waiting on the team lead. |
"""
    got = read(text)
    assert len(got) == 3
    assert "owner for the nightly job" in str(got[2][3])


def test_a_section_of_non_issue_checks_holds_no_findings() -> None:
    text = FINDINGS + """## Non-Issue Checks
- The retry counter resets on success: confirmed
- Upload timeouts are configurable: confirmed
"""
    assert len(read(text)) == 2


def test_a_medium_term_heading_in_an_action_plan_is_no_severity() -> None:
    text = FINDINGS + """## Action Plan (Priority)

## Short term (this month)
1. Add a unit test for the retry cap

## MEDIUM TERM (Q2)
1. Set up a nightly end-to-end run
2. Add error monitoring
"""
    assert len(read(text)) == 2
