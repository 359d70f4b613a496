"""Where a reviewer states its verdict and on what scale (issue: read what real reviewers
print, point 3): the first line (a blocking gate, the phrase alone), the last line after a
dash, a front-matter key of any verdict name, a header quote's weaker key, a Verdict key
glued after other keys in another language, a later clause of a Verdict key's sentence that
names the change, a decision a named role states under a decision heading, and words of
more languages and scales (block the merge, no approval, passed, Vietnamese).  And where a
verdict is not the text's: an author's reply quoting the reviewer's verdict, a verdict the
text itself calls initial or previous, a short list of options.  Every text here is
written for these tests."""

from __future__ import annotations

import pytest

from council_filters.verdict import reading, words


def verdict(text: str) -> str:
    return reading.read(text.encode()).verdict


# --------------------------------------------------------------------------- #
# Words and scales
# --------------------------------------------------------------------------- #
WORDS = [
    ("BLOCK MERGE", "REJECT"), ("Block the release", "REJECT"),
    ("keine Freigabe", "REVISE"), ("\u2705 PAS\u00d3", "APPROVE"), ("no pas\u00f3", "REVISE"),
    ("Ch\u1ea5p thu\u1eadn", "APPROVE"), ("\u0110\u1ea1t", "APPROVE"),
    ("Kh\u00f4ng \u0111\u1ea1t", "REVISE"), ("C\u1ea7n s\u1eeda", "REVISE"),
    ("T\u1eeb ch\u1ed1i", "REJECT"), ("NG", "REVISE"),
    ("NG \u2014 \u30c6\u30b9\u30c8\u4e0d\u8db3", "REVISE"),
]


@pytest.mark.parametrize("value,vote", WORDS)
def test_words_of_more_scales_and_languages(value: str, vote: str) -> None:
    assert words.vote_of(value) == vote
    assert verdict(f"**Verdict:** {value}\n") == vote


def test_a_merge_recommendation_that_blocks_the_merge_rejects() -> None:
    assert verdict("## Merge Recommendation\n\n**BLOCK MERGE**\n\nThe secret is logged at "
                   "`app/log.py:7`.\n") == "REJECT"
    assert verdict("Recommendation: Block the merge.\n") == "REJECT"
    # a blocked state alone is a gate asking for changes, as before
    assert verdict("**Status:** BLOCKED\n") == "REVISE"


def test_keys_in_vietnamese_and_a_japanese_recommendation_key() -> None:
    assert verdict("**K\u1ebft lu\u1eadn:** Ch\u1ea5p thu\u1eadn\n") == "APPROVE"
    assert verdict("## \u0110\u00e1nh gi\u00e1\n\nKh\u00f4ng \u0111\u1ea1t \u2014 thi\u1ebfu "
                   "ki\u1ec3m th\u1eed.\n") == "REVISE"
    assert verdict("\u63a8\u5968: \u2705 \u627f\u8a8d\n") == "APPROVE"
    assert verdict("- **\u63a8\u5968**\uff1a\u8981\u4fee\u6b63\n") == "REVISE"
    # a heading that lists recommendations is no key
    assert verdict("## \u63a8\u5968\u4e8b\u9805\n\n- \u30ed\u30b0\u3092\u6e1b\u3089\u3059\n") \
        == "UNKNOWN"


def test_a_traffic_light_or_a_blocking_scale_under_a_verdict_key() -> None:
    assert verdict("- **\uc885\ud569 \ud310\uc815**: \U0001f534 **Red** \u2014 \ube4c\ub4dc "
                   "\uc2e4\ud328\n") == "REVISE"
    assert verdict("## Verdict\n\nGreen\n") == "APPROVE"
    assert verdict("**Verdict:** NON-BLOCKING\n") == "APPROVE"
    # under a weaker key a colour or a blocking word is an item's state, not a verdict
    assert verdict("**Status:** Green\n") == "UNKNOWN"
    assert verdict("**Verdict:** Reduce the cache size first.\n") == "UNKNOWN"


def test_a_japanese_overall_judgement_of_ng_asks_for_changes() -> None:
    assert verdict("## \u7dcf\u5408\u5224\u5b9a\nNG\n\n## \u6982\u8981\n- lint: done\n") \
        == "REVISE"
    assert verdict("\u5224\u5b9a: OK\n") == "APPROVE"


def test_a_bold_line_naming_the_review_that_states_a_verdict_key() -> None:
    # a whole-bold line with the word "review" is a title over critiques, unless it is a
    # key stating a verdict
    assert verdict("# PR 119\n\n**Review Status: \U0001f534 Request Changes**\n\n## Summary\n"
                   "The module does not build.\n") == "REVISE"
    assert verdict("**Code review outcome: approved**\n") == "APPROVE"
    assert verdict("**Review of the storage layer**\n\nCaching: the TTL is never read.\n") \
        == "UNKNOWN"


# --------------------------------------------------------------------------- #
# A Verdict key glued after other keys on one line, in any language
# --------------------------------------------------------------------------- #
def test_a_verdict_key_in_another_language_after_other_keys_on_its_line() -> None:
    assert verdict("**Sprint:** s-14 \u00b7 **Veredicto:** \u2705 PAS\u00d3\n") == "APPROVE"
    assert verdict("Lauf 3 | **Urteil:** keine Freigabe | Dauer 4 min\n") == "REVISE"
    assert verdict("Ticket 88; Veredito: APROVADO\n") == "APPROVE"


# --------------------------------------------------------------------------- #
# A later clause of a Verdict key's sentence that names the change or the plan
# --------------------------------------------------------------------------- #
def test_a_clause_naming_the_plan_or_the_change_states_the_verdict() -> None:
    assert verdict("**Verdict:** the diagnosis holds; the plan needs corrections before it "
                   "is built.\n") == "REVISE"
    assert verdict("**Veredicto:** la causa est\u00e1 bien identificada; el plan requiere "
                   "correcciones antes de implementarlo.\n") == "REVISE"
    assert verdict("Verdict: two nits remain. The PR is ready to merge.\n") == "APPROVE"


def test_clauses_that_name_no_change_or_disagree_state_none() -> None:
    # a remark: no clause names the change
    assert verdict("**Verdict:** caching is well placed; tests cover the edge cases.\n") \
        == "UNKNOWN"
    # two clauses that disagree
    assert verdict("**Verdict:** unclear. The patch is ready to merge; the plan needs "
                   "changes.\n") == "UNKNOWN"
    # under a weaker key a sentence stays prose
    assert verdict("**Summary:** the cache works; the PR is ready to merge.\n") == "UNKNOWN"


# --------------------------------------------------------------------------- #
# Front matter, header quotes
# --------------------------------------------------------------------------- #
def test_front_matter_keys_of_any_verdict_name() -> None:
    assert verdict("---\nrounds: 2\nfinal_verdict: ship-as-is\n---\n\n# Audit of #90\n\n"
                   "The clipping is gone.\n") == "APPROVE"
    assert verdict("---\ntags: [evaluation]\nresult: FAIL\n---\n\n# Sprint 9 check\n") \
        == "REVISE"
    assert verdict("---\ngate-decision: NO_GO\n---\n\nNotes below.\n") == "REVISE"


def test_front_matter_that_names_no_verdict() -> None:
    assert verdict("---\ntitle: Final verdict on the cache\nstatus: draft\n---\n\n"
                   "Some notes.\n") == "UNKNOWN"


def test_a_header_quote_states_the_review_status_under_a_weaker_key() -> None:
    assert verdict("# Architecture review: task panel\n\n> **Type:** review\n"
                   "> **Status:** Approved with conditions (carry on)\n> **Version:** 1.2\n"
                   "\n## Notes\n\nText.\n") == "REVISE"
    assert verdict("# Auditor\u00eda F3\n\n> **Fecha:** 2026-01-02\n> **Estado:** Aprobado\n"
                   "\n## Evidencia\n\n- ok\n") == "APPROVE"


def test_a_quote_further_down_is_cited_text() -> None:
    assert verdict("# Notes\n\nSome text first.\n\n> **Date:** 2026-01-02\n"
                   "> **Status:** Approved\n") == "UNKNOWN"


# --------------------------------------------------------------------------- #
# The first line, the last line
# --------------------------------------------------------------------------- #
def test_a_blocking_gate_on_the_first_line() -> None:
    assert verdict("BLOCKING: yes.\n\nThe writer drops rows when the queue is full "
                   "(`src/q.py:40`).\n") == "REJECT"
    assert verdict("**Blocking:** no\n\nOne naming nit in `src/q.py:12`.\n") == "APPROVE"


def test_a_blocking_field_further_down_is_one_item_s() -> None:
    text = ("# Review\n\n## Findings\n\n1. **Log noise** in `a.py:3`\n   - Blocking: no\n"
            "2. **Race** in `b.py:9`\n   - Blocking: yes\n")
    assert verdict(text) == "UNKNOWN"


def test_the_verdict_phrase_alone_on_the_first_line() -> None:
    assert verdict("**REQUEST CHANGES**\n\n- `api/auth.py:31`: the token is logged.\n") \
        == "REVISE"
    assert verdict("NO-GO\n\nThe rollback step is missing.\n") == "REVISE"
    # a tool's line is no phrase
    assert verdict("PASS src/a.test.ts\n\nall good\n") == "UNKNOWN"


def test_the_verdict_phrase_after_a_dash_on_the_last_line() -> None:
    assert verdict("## Round 2\n\n- [x] null check added\n- [x] test added\n\n"
                   "All issues resolved \u2014 LGTM\n") == "APPROVE"
    assert verdict("Second pass done.\n\nTwo of three fixed - **REQUEST CHANGES**\n") \
        == "REVISE"
    # a count is a tally, not the phrase
    assert verdict("Checks: 3 passed \u2014 OK\n") == "UNKNOWN"


# --------------------------------------------------------------------------- #
# A decision a named role states
# --------------------------------------------------------------------------- #
def test_a_role_states_the_decision_under_a_decision_heading() -> None:
    assert verdict("Reviewer A: GO_WITH_CONDITIONS (two conditions)\n\n## Final decision\n\n"
                   "Orchestrator: GO \u2014 commit allowed, both conditions met.\n") == "APPROVE"
    assert verdict("### Verdict\n\n**Lead reviewer:** REQUEST CHANGES\n") == "REVISE"
    assert verdict("## Final decision\n\nNote: see the table below.\n") == "UNKNOWN"


# --------------------------------------------------------------------------- #
# A tick or a cross, an arrow for a separator, a merge question answered, a banner
# --------------------------------------------------------------------------- #
def test_a_tick_or_a_cross_alone_under_a_verdict_key() -> None:
    assert verdict("**Verdict:** \u2705\n") == "APPROVE"
    assert verdict("## Final verdict\n\n\u274c\n\nThe cache is never cleared.\n") == "REVISE"
    assert verdict("Verdict: \U0001f44d\n") == "APPROVE"
    # under a weaker key a tick is an item's check
    assert verdict("**Status:** \u2705\n") == "UNKNOWN"


def test_an_arrow_separates_a_key_from_its_value() -> None:
    assert verdict("Decision \u2192 REQUEST CHANGES\n") == "REVISE"
    assert verdict("**Verdict** \u2192 approve\n") == "APPROVE"


def test_a_merge_question_answered_yes_or_no() -> None:
    assert verdict("Ready to merge: \u2705 Yes\n") == "APPROVE"
    assert verdict("**Safe to merge?** No \u2014 the migration drops a column.\n") == "REVISE"
    assert verdict("- Mergeable: no\n") == "REVISE"
    assert verdict("Can this be merged? Yes.\n") == "APPROVE"
    # other yes/no fields are not the question
    assert verdict("Merge conflicts: no\n") == "UNKNOWN"
    assert verdict("Breaking change: yes\n") == "UNKNOWN"


def test_a_banner_over_the_verdict_in_plain_text() -> None:
    assert verdict("=== VERDICT ===\nREQUEST CHANGES\n\n1. a.py:3 the lock leaks\n") \
        == "REVISE"
    assert verdict("----- Review verdict -----\nAPPROVE\n\nNo findings.\n") == "APPROVE"
    # a banner over other text names no verdict
    assert verdict("=== Notes ===\nApprove the budget later.\n") == "UNKNOWN"


# --------------------------------------------------------------------------- #
# JSON: a merge recommendation of the review's own naming, a run state beside a summary
# --------------------------------------------------------------------------- #
def test_json_merge_recommendation_and_a_summary_block_beside_a_run_state() -> None:
    assert verdict('{"merge_recommendation": "do not merge", "issues": []}') == "REJECT"
    assert verdict('{"final_recommendation": "Approve", "issues": []}') == "APPROVE"
    assert verdict('{"merge_recommendation": "Add tests before merging", "issues": []}') \
        == "UNKNOWN"
    assert verdict('{"status": "complete", "summary": {"verdict": "NEEDS_CHANGES", '
                   '"critical_issues": ["blocking read in a.py:45"]}}') == "REVISE"
    assert verdict('{"result": "done", "review": {"decision": "approve"}}') == "APPROVE"
    # a Verdict key naming no verdict is not overruled by a block's run state
    assert verdict('{"verdict": "NEEDS DISCUSSION", "summary": {"status": "ok"}}') == "UNKNOWN"
    assert verdict('{"status": "ok", "summary": {"issues": 0}}') == "UNKNOWN"


# --------------------------------------------------------------------------- #
# Verdicts that are not the text's
# --------------------------------------------------------------------------- #
def test_an_author_s_reply_quotes_the_reviewer_s_verdict() -> None:
    assert verdict("# Phase 2 Reviewer Feedback - Resolution\n\n**Status**: resolved\n\n"
                   "## Reviewer's Assessment\n\n### Overall Grade: APPROVED WITH ONE FIX\n\n"
                   "The fix is in.\n") == "UNKNOWN"
    assert verdict("# \u5bfe\u5fdc\u30de\u30c8\u30ea\u30af\u30b9: review round 1\n\n"
                   "**Codex \u7dcf\u5408\u5224\u5b9a: APPROVED**\n\n## Suggestion\n\n"
                   "- \u5224\u65ad: \u5bfe\u5fdc\u3059\u308b\n") == "UNKNOWN"
    assert verdict("# Response to the review comments\n\n**Verdict:** REVISE (theirs)\n\n"
                   "All three points are fixed.\nLGTM\n") == "UNKNOWN"


def test_a_review_whose_title_names_a_response_handler_keeps_its_verdict() -> None:
    assert verdict("# Review of the response handler\n\n**Verdict:** APPROVE\n") == "APPROVE"


def test_a_verdict_the_text_calls_initial_is_not_its_current_one() -> None:
    assert verdict("## Re-review\n\nInitial verdict: not ready to merge until the lock is "
                   "fixed.\n\n## Correction round\n\n- lock fixed\n") == "UNKNOWN"
    assert verdict("**Previous verdict:** REVISE\n\nAll three items addressed.\n") == "UNKNOWN"
    # a later verdict replaces it
    assert verdict("Initial verdict: REVISE\n\nFinal verdict: APPROVE\n") == "APPROVE"


def test_a_short_list_of_options_is_a_form() -> None:
    assert verdict("\u7dcf\u5408\u5224\u5b9a: OK | \u8abf\u6574\u63a8\u5968 | "
                   "\u5927\u5e45\u4fee\u6b63\u63a8\u5968\n") == "UNKNOWN"
    assert verdict("```\nVERDICT: ship | fix | rethink\n```\n") == "UNKNOWN"
    # a verdict followed by other fields is no list of options
    assert verdict("**Verdict:** APPROVE | confidence: high\n") == "APPROVE"
