"""More ways a reviewer states its verdict, and the look-alikes that state none (issue: read
what real reviewers print, point 3): a verdict phrase naming the change first ("this PR
remains blocked"), approval tied to fixes or constraints, readiness keys answered with a
bare "ready" or "no", the Spanish status key, a recommendation key in Chinese, a Verdict
word in a document's title, a verdict stated once per file or per decision, a Verdict
label over a remark inside one section, and a tool's run status in a JSON report.  Every
text here is written for these tests."""

from __future__ import annotations

import json

import pytest

from council_filters.verdict import reading, words


def verdict(text: str) -> str:
    return reading.read(text.encode()).verdict


# --------------------------------------------------------------------------- #
# The word table
# --------------------------------------------------------------------------- #
WORDS = [
    # approval tied to work still to do asks for it
    ("PASS WITH CONSTRAINTS", "REVISE"), ("pass_with_constraints", "REVISE"),
    ("Approved with high priority fix required", "REVISE"),
    ("\U0001f7e1 Ready for production with critical fixes", "REVISE"),
    ("Ready with critical improvements needed", "REVISE"),
    # notes that do not block
    ("Pass with concerns", "APPROVE"), ("PASS with targeted concerns", "APPROVE"),
    ("Approved with minor improvements", "APPROVE"),
    ("Aprobado con mejoras menores", "APPROVE"),
    # the change named before the verdict
    ("\u274c This PR remains blocked \u2014 request changes", "REVISE"),
    ("The PR is ready to merge.", "APPROVE"), ("Branch is not ready", "REVISE"),
    # said in a sentence that is the verdict itself
    ("Should not be approved as is", "REVISE"),
    ("La PR ne doit pas \u00eatre approuv\u00e9e en l'\u00e9tat.", "REVISE"),
    ("Ready for code review and merge.", "APPROVE"),
    # a recommendation to merge, in Chinese
    ("\u5408\u5e76\uff08Approve\uff09", "APPROVE"),
]


@pytest.mark.parametrize("value,vote", WORDS)
def test_the_word_table_reads_the_new_phrases(value: str, vote: str) -> None:
    assert words.vote_of(value) == vote
    assert verdict(f"**Verdict:** {value}\n") == vote


NOT_VERDICTS = [
    "Ready for PR review",  # asks for a review, decides nothing
    "The PR adds a cache",  # says what the change is
    "Branch protection missing on main",
    "\u5408\u5e76\u540e\u9700\u8981\u91cd\u65b0\u6d4b\u8bd5",  # "after merging, test again"
]


@pytest.mark.parametrize("value", NOT_VERDICTS)
def test_phrases_that_decide_nothing_stay_none(value: str) -> None:
    assert words.vote_of(value, False) is None
    assert verdict(f"## Findings\n\n- a.py:3 \u2014 off by one\n\n**Status:** {value}\n") \
        == "UNKNOWN"


# --------------------------------------------------------------------------- #
# Keys
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize("line,vote", [
    ("Merge readiness: Ready.", "APPROVE"),
    ("- Merge readiness: yes", "APPROVE"),
    ("**Merge readiness:** no \u2014 the migration is missing", "REVISE"),
    ("Merge readiness: `not ready`", "REVISE"),
    ("**Estado**: **Aprobado**", "APPROVE"),
    ("**\u5efa\u8bae\uff1a\u5408\u5e76**", "APPROVE"),
])
def test_readiness_and_other_keys(line: str, vote: str) -> None:
    text = f"# Review of the export job\n\n## Findings\n\n- None.\n\n## Decision\n\n{line}\n"
    assert verdict(text) == vote


# the advice field of one finding ("建议：" then "可以接受，但……", acceptable, but add this)
# is that finding's, not the review's vote; the same key alone under a decision heading is
ADVICE_IN_A_FINDING = [
    "# \u8ba1\u5212\u8bc4\u5ba1\n\n## \u53d1\u73b0\u7684\u95ee\u9898\n\n"
    "#### 2. \u7f13\u5b58\u6ca1\u6709\u8fc7\u671f\u65f6\u95f4\n"
    "**\u95ee\u9898**\uff1a\u7f13\u5b58\u6761\u76ee\u6c38\u4e0d\u5931\u6548\u3002\n\n"
    "**\u5efa\u8bae**\uff1a\n\u53ef\u4ee5\u63a5\u53d7\uff08\u6570\u636e\u91cf\u5c0f\uff09"
    "\uff0c\u4f46\u5efa\u8bae\u52a0\u4e00\u4e2a\u4e0a\u9650\u3002\n",
    "# \u4ee3\u7801\u8bc4\u5ba1\n\n"
    "### 3. \u91cd\u8bd5\u6b21\u6570\u5199\u6b7b\u5728\u4ee3\u7801\u91cc\n\n"
    "- \u4f4d\u7f6e\uff1a`jobs/retry.py`\n"
    "- \u5efa\u8bae\uff1a\u53ef\u4ee5\u63a5\u53d7\uff0c"
    "\u540e\u7eed\u518d\u6539\u6210\u914d\u7f6e\u9879\n",
]


@pytest.mark.parametrize("text", ADVICE_IN_A_FINDING)
def test_the_advice_field_of_a_finding_is_no_verdict(text: str) -> None:
    assert verdict(text) == "UNKNOWN"


def test_a_readiness_key_with_a_sentence_is_no_verdict() -> None:
    text = "## Notes\n\nMerge readiness: depends on the load test next week.\n"
    assert verdict(text) == "UNKNOWN"


def test_a_key_line_under_a_verdict_heading_gives_the_verdict() -> None:
    text = ("# Revisi\u00f3n del cambio\n\n## Problemas\n\n1. **Bajo:** falta un test\n\n"
            "## Veredicto\n\n**Estado**: **APROBADO CON MEJORAS MENORES**\n\n"
            "Las mejoras no bloquean el merge.\n")
    assert verdict(text) == "APPROVE"


def test_a_verdict_word_in_the_title_is_the_title() -> None:
    text = ("# Second-Pass Verdict \u2014 Billing Export\n\n"
            "## Verdict: \u274c Branch remains blocked \u2014 request changes\n\n"
            "Two of the blockers from the first pass are still open.\n")
    assert verdict(text) == "REVISE"


def test_a_verdict_stated_in_a_sentence_under_the_verdict_heading() -> None:
    text = ("# Revue de la PR\n\n## Verdict\n\n"
            "La PR ne devrait pas \u00eatre approuv\u00e9e en l'\u00e9tat : deux probl\u00e8mes "
            "bloquants.\n\n## Probl\u00e8mes\n\n### 1. Le cache n'expire jamais\n\n"
            "Fichier : `src/cache.py`\n")
    assert verdict(text) == "REVISE"


# --------------------------------------------------------------------------- #
# One verdict per item is not the review's
# --------------------------------------------------------------------------- #
PER_FILE = """# Frontend review of the dashboard change

## 1. `src/chart.tsx` (+20/-4)

Moves the legend into its own component.

### Verdict: PASS - a clean split

## 2. `src/chart.test.tsx`

Adds two cases for an empty series.

### Verdict: PASS - better coverage

## Issues Summary

| Severity | File | Issue |
|---|---|---|
| LOW | src/chart.test.tsx | The second case asserts on a translated label |
"""


def test_per_file_verdicts_state_no_verdict_for_the_review() -> None:
    assert verdict(PER_FILE) == "UNKNOWN"


def test_a_single_file_review_keeps_its_verdict() -> None:
    text = ("# Review\n\n## Review of `src/chart.tsx`\n\nThe split is clean.\n\n"
            "### Verdict: APPROVE\n")
    assert verdict(text) == "APPROVE"


# one change of several called in words outside the table ("merge", "ship as is") beside
# another change's verdict: both are per-item calls, the review states none
PER_CHANGE = [
    """# Review of two pull requests

## PR #31 — read the retry count from the config

The count now comes from `settings.retries`.

### Recommendation: merge

## PR #32 — drop the legacy exporter

Removes the old CSV path.

### Recommendation: request changes (one ask)

1. Keep the exporter behind a flag for one release.
""",
    """# Two changes, reviewed together

## Change 1: batch the audit writes

**Decision:** ship as is. The batching is correct.

## Change 2: cache the user lookups

**Decision:** Changes requested. The cache never expires.
""",
]


@pytest.mark.parametrize("text", PER_CHANGE)
def test_one_call_per_change_in_any_words_states_no_verdict(text: str) -> None:
    assert verdict(text) == "UNKNOWN"


PER_DECISION = """# Architecture review of the scheduler rewrite

## Summary

**Overall assessment:** approve with conditions

## Decisions

### Decision 1: One queue per tenant

**Decision:** keep one queue per tenant
**Status:** \u2705 **APPROVED**

### Decision 2: Retry with backoff

**Decision:** exponential backoff, capped at five minutes
**Status:** \u2705 **APPROVED**

## Final recommendation

### Status: \u26a0\ufe0f **APPROVE WITH CONDITIONS**
"""


def test_per_decision_statuses_leave_the_review_its_own_verdict() -> None:
    assert verdict(PER_DECISION) == "REVISE"


def test_rounds_are_not_items() -> None:
    text = ("# Review\n\n## Round 1\n\n**Verdict:** REVISE\n\n"
            "## Round 2\n\n**Verdict:** APPROVE\n")
    assert verdict(text) == "APPROVE"


# --------------------------------------------------------------------------- #
# A remark under a Verdict label in one section of the review
# --------------------------------------------------------------------------- #
SECTION_REMARK = """# Review of the import pipeline

## Executive summary

**Overall assessment:** \u26a0\ufe0f **approve with conditions**

## Critical issues

1. `importer.py:88` drops rows with an empty id.

## Performance analysis

- one read per batch

**Verdict:** \u2705 **Throughput is fine** - no regressions observed
"""


def test_a_remark_in_a_section_leaves_the_weaker_keys_to_decide() -> None:
    assert verdict(SECTION_REMARK) == "REVISE"


def test_a_remark_as_the_only_verdict_stays_unknown() -> None:
    # no other key states one: the remark is not read as a verdict of any kind
    text = SECTION_REMARK.replace("**Overall assessment:** \u26a0\ufe0f **approve with "
                                  "conditions**\n", "The pipeline is mostly sound.\n")
    assert verdict(text) == "UNKNOWN"


def test_a_verdict_key_that_names_no_verdict_still_wins_over_a_weaker_key() -> None:
    # outside a section of the review, a Verdict key naming no verdict is the reviewer's
    # own word: the weaker key does not stand in for it
    text = "**Verdict:** needs a discussion with the data team\n\n**Status:** approved\n"
    assert verdict(text) == "UNKNOWN"


# --------------------------------------------------------------------------- #
# JSON: a run's status is not a verdict
# --------------------------------------------------------------------------- #
def test_a_tools_run_status_is_no_verdict() -> None:
    doc = {"status": "ok", "changedFiles": ["a.py"],
           "findings": [{"severity": "warning", "file": "build/out.js",
                         "issue": "Generated file committed"}]}
    got = reading.read(json.dumps(doc).encode())
    assert got.verdict == "UNKNOWN"
    assert [f.get("file") for f in got.findings] == ["build/out.js"]


@pytest.mark.parametrize("doc,vote", [
    ({"status": "PASS", "findings": []}, "APPROVE"),
    ({"status": "changes_requested", "findings": []}, "REVISE"),
    ({"verdict": "OK", "findings": []}, "APPROVE"),
])
def test_a_status_that_names_a_verdict_is_still_read(doc: dict[str, object], vote: str) -> None:
    assert reading.read(json.dumps(doc).encode()).verdict == vote


# --------------------------------------------------------------------------- #
# A key item whose value carries a tick
# --------------------------------------------------------------------------- #
def test_a_key_item_marked_with_a_tick_is_still_a_key() -> None:
    text = ("# Tasks review\n\n## Summary\n\n- **Overall Status**: \u2705 Pass\n"
            "- **Quality Score**: 96/100\n- **Total Tasks**: 12\n")
    assert verdict(text) == "APPROVE"


def test_a_tick_in_a_list_of_strengths_is_no_verdict() -> None:
    text = ("# Review\n\n## Findings\n\n- `a.py:3` \u2014 the retry never stops\n\n"
            "## Strengths\n\n- **Status:** \u2705 approved design kept intact\n")
    assert verdict(text) == "UNKNOWN"


# --------------------------------------------------------------------------- #
# A verdict as the title or the last line; gate flags; questions
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize("text,vote", [
    ("# Review: APPROVED\n\nA two-line change to the retry count.\n", "APPROVE"),
    ("# Code Review \u2014 Changes requested\n\n- `a.py:3` \u2014 the lock leaks\n", "REVISE"),
    ("Two nits below.\n\n- `a.py:3` \u2014 rename `x`\n\n**LGTM** \U0001f680\n", "APPROVE"),
    ("- `a.py:3` \u2014 the lock leaks\n\nREQUEST CHANGES\n", "REVISE"),
])
def test_a_title_or_a_closing_line_that_is_the_verdict(text: str, vote: str) -> None:
    assert verdict(text) == vote


@pytest.mark.parametrize("text", [
    "# PR Review: fix: drop the stale cache\n\n- `a.py:3` \u2014 the lock leaks\n",
    "# Review: Approve button redesign\n\n- `a.py:3` \u2014 the label is cut\n",
    "- `a.py:3` \u2014 rename `x`\n\nApproved.\n",  # a plain last word: prose, not a stated key
    "## Summary\n\nReady to merge?\n",
    "**Verdict:** Approve? Not yet, the suite fails on CI.\n",
])
def test_titles_closing_prose_and_questions_state_no_verdict(text: str) -> None:
    assert verdict(text) == "UNKNOWN"


@pytest.mark.parametrize("text,vote", [
    ('{"merge_ready": true, "findings": []}', "APPROVE"),
    ('{"merge_ready": false, "findings": [{"file": "a.py", "line": 3, "title": "leak"}]}',
     "REVISE"),
    ("```yaml\nmerge_ready: true\n```\n\nNothing blocking.\n", "APPROVE"),
    ("```yaml\napproved: false\n```\n\n- `a.py:3` \u2014 the lock leaks\n", "REVISE"),
])
def test_merge_ready_and_approved_flags(text: str, vote: str) -> None:
    assert verdict(text) == vote


# --------------------------------------------------------------------------- #
# A record table whose header row is the Verdict
# --------------------------------------------------------------------------- #
def test_a_record_table_headed_by_its_verdict_row() -> None:
    text = ("# Review of the billing export\n\n| **Verdict** | \u2705 Approve |\n|---|---|\n"
            "| Confidence | High |\n")
    assert verdict(text) == "APPROVE"


def test_a_table_headed_by_a_verdict_column_cites_nothing_new() -> None:
    # the header names the columns ("Verdict" over each run's result): no verdict there
    text = ("# Runs\n\n| Verdict | Run |\n|---|---|\n| see below | nightly |\n"
            "| see below | weekly |\n")
    assert verdict(text) == "UNKNOWN"
