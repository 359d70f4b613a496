"""Where a review keeps its own record of the verdict (issue: read what real reviewers
print, point 3): a two-column record table with a Verdict row, a quoted header of bold
fields under the title, a fenced block labelled ``verdict``, the Merge readiness and
Consensus Recommendation keys, "Recommend merge"; and what stays no verdict there: a
table's verdict column, a quote further down, a test count under a weaker key, a
finding's advice that opens with "Pass".  Every text here is written for these tests."""

from __future__ import annotations

import pytest

from council_filters.verdict import reading, words


def verdict(text: str) -> str:
    return reading.read(text.encode()).verdict


# --------------------------------------------------------------------------- #
# A record table: | Field | Value | with a Verdict row
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize("row,vote", [
    ("| **Verdict** | \u274c **Fails again.** The process needs a change too. |", "REVISE"),
    ("| verdict | REWORK |", "REVISE"),
    ("| **Verdict** | **accept-with-gaps** |", "APPROVE"),
    ("| **Verdict** | **CLEAN** |", "APPROVE"),
    ("| Final verdict | Request changes |", "REVISE"),
])
def test_a_record_tables_verdict_row_is_the_verdict(row: str, vote: str) -> None:
    text = ("# Second pass over the cache layer\n\n| Field | Value |\n|---|---|\n"
            f"| Round | 2 of 3 |\n| Reviewer | panel of two |\n{row}\n\n"
            "## Notes\n\nThe eviction path was read line by line.\n")
    assert verdict(text) == vote


@pytest.mark.parametrize("text", [
    # a value that names no verdict (a budget, a stage's status)
    "| Metric | Value |\n|---|---|\n| Projected size | 12 GB |\n"
    "| **Verdict** | **WITHIN BUDGET** |\n",
    "| Field | Value |\n|---|---|\n| **Verdict** | `STAGE_FOUR_PATCH_APPLIED` |\n",
    # each checked item's record under its own heading
    "## Verification\n\n### \U0001f534 CRITICAL #1 \u2014 stale package name\n\n"
    "| Field | Detail |\n|---|---|\n| Claimed fix | renamed |\n| **Verdict** | \u2705 PASS |\n\n"
    "### 2. The lock file\n\n| Field | Detail |\n|---|---|\n| Claimed fix | regenerated |\n"
    "| **Verdict** | \u2705 PASS |\n",
    # a Verdict row alone (it may be cited)
    "| Key | Value |\n|---|---|\n| Verdict | APPROVE |\n",
    # a verdict column of a wider table: each row's own result
    "| run | serial | parallel | verdict |\n|---|---|---|---|\n| 1 | 29 s | 14 s | pass |\n",
    # a finding's own field table inside the findings
    "## Findings\n\n### F1 \u2014 the cache never evicts\n\n| Field | Value |\n|---|---|\n"
    "| File | src/cache.py:30 |\n| Verdict | PASS |\n",
])
def test_tables_that_are_not_the_reviews_record_give_no_verdict(text: str) -> None:
    assert verdict(text) == "UNKNOWN"


def test_the_last_rounds_record_table_decides() -> None:
    text = ("# Boundary review\n\n| field | value |\n|---|---|\n| reviewer | second |\n"
            "| verdict | REWORK |\n\nThe plan names a file that does not exist.\n\n"
            "## Re-review after fixes\n\n| field | value |\n|---|---|\n| reviewer | second |\n"
            "| verdict | APPROVE |\n\nThe plan is corrected.\n")
    assert verdict(text) == "APPROVE"


# --------------------------------------------------------------------------- #
# A quoted header of bold fields under the title
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize("value,vote", [
    ("\u2705 PASS", "APPROVE"),
    ("**Not production-ready yet.** Two defects block the release;\n> they are listed below.",
     "REVISE"),
    ("**DO NOT MERGE**", "REJECT"),
])
def test_a_header_quote_states_the_verdict(value: str, vote: str) -> None:
    text = (f"# Review: story 41 \u2014 slash prompts\n\n> **Story:** 41\n"
            f"> **Reviewed:** 2026-03-02\n> **Verdict:** {value}\n\n## Summary\n\n"
            "The prompts route as the spec says.\n")
    assert verdict(text) == vote


@pytest.mark.parametrize("text", [
    # a quote further down is cited text (the author's words, an echoed prompt)
    "# Review\n\nThe author wrote:\n\n> **Date:** today\n> **Verdict:** APPROVE\n\n"
    "I disagree with that summary.\n",
    # one field alone is no header
    "# Review\n\n> **Verdict:** APPROVE\n\nMore below.\n",
    # a header whose verdict field lists the choices is a form
    "# Review\n\n> **Date:** \u2014\n> **Verdict:** APPROVE | REVISE | REJECT\n",
    # a header field that names no verdict
    "# Gate before the fix\n\n> **Bug:** 48\n> **Verdict:** `ready_for_owner_gate_review`\n",
])
def test_other_quotes_give_no_verdict(text: str) -> None:
    assert verdict(text) == "UNKNOWN"


# --------------------------------------------------------------------------- #
# A fenced block labelled verdict
# --------------------------------------------------------------------------- #
def test_a_fence_labelled_verdict_states_it() -> None:
    text = ("## Review\n\n```verdict\nverdict: REWORK\nconfidence: high\n```\n\n"
            "The plan and the code disagree about the fixture's file.\n")
    assert verdict(text) == "REVISE"


def test_a_plain_fence_further_down_is_cited_text() -> None:
    text = ("## Review\n\nThe tool's sample output:\n\n```text\nverdict: REWORK\n```\n\n"
            "Nothing else to add.\n")
    assert verdict(text) == "UNKNOWN"


# --------------------------------------------------------------------------- #
# Keys and words
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize("text,vote", [
    ("Conclusion: Recommend Merge\n", "APPROVE"),
    ("**Recommendation:** merge recommended.\n", "APPROVE"),
    ("Conclusion: recommend merging once the lock is released\n", "UNKNOWN"),
    ("## Consensus Recommendation: Minor Revision\n\nThe panel agrees.\n", "REVISE"),
    ("**Merge readiness:** Request changes \u2014 two open highs.\n", "REVISE"),
    ("**Merge readiness:** **Not merge-ready** \u2014 one blocker.\n", "REVISE"),
    ("**Merge readiness:** 19/24 (79%)\n", "UNKNOWN"),
])
def test_keys_and_words_reviewers_use(text: str, vote: str) -> None:
    assert verdict(text) == vote


@pytest.mark.parametrize("text", [
    "- **Correctness:** **PASS \u2014 1,204 checks** against the reference.\n",
    "**Status:** FAIL (3 of 40 tests)\n",
])
def test_a_test_count_under_a_weaker_key_is_no_verdict(text: str) -> None:
    assert verdict(text) == "UNKNOWN"


def test_a_count_under_a_verdict_key_still_reads() -> None:
    assert words.vote_of("PASS \u2014 37 checks") == "APPROVE"


def test_a_findings_advice_opening_with_pass_is_no_approval() -> None:
    text = ("## Findings\n\n---\nHandlers read the raw query\n\nRisk Level: HIGH\n"
            "File Path: src/handlers.ts\nLines: 17-19\n\nRecommendation:\n"
            "Pass `validatedQuery` into the parse helpers.\n---\n\n"
            "**Merge readiness:** Request changes \u2014 the finding above is open.\n")
    assert verdict(text) == "REVISE"


def test_a_record_tables_confidence_row_is_read_with_its_verdict() -> None:
    got = reading.read(b"| Field | Value |\n|---|---|\n| Verdict | **REVISE** |\n"
                       b"| Confidence | medium |\n\nTwo findings below.\n")
    assert (got.verdict, got.confidence) == ("REVISE", "MEDIUM")
