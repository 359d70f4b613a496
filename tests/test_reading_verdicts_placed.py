"""Verdicts stated in places the reader did not look, and their look-alikes (issue: read
what real reviewers print, point 3): a key under a numbered heading ("## 5.
Recommendation"), a Verdict heading whose value is the heading below it, a CJK key glued
after a sentence on its line, a CJK key with an English qualifier ("Critic 最终判定"),
a CJK remark under a Verdict key, approval tied to work still to do ("Merge after
cleaning up …"), a German overall judgement, and per-item Verdict labels that name no
verdict.  Every text here is written for these tests."""

from __future__ import annotations

import pytest

from council_filters.verdict import reading, words


def verdict(text: str) -> str:
    return reading.read(text.encode()).verdict


# --------------------------------------------------------------------------- #
# The word table
# --------------------------------------------------------------------------- #
WORDS = [
    # approval after work on the change asks for that work
    ("Merge after cleaning up the unused helpers", "REVISE"),
    ("Merge after addressing the two findings above.", "REVISE"),
    ("Approve after the lint fix", "REVISE"),
    ("Merge after the retry fixes", "REVISE"),
    ("Approved with 2 blocking fixes required", "REVISE"),
    # a German acceptance, with or without conditions, and its refusal
    ("\u2705 Annahme empfohlen", "APPROVE"),
    ("Annahme ohne Auflagen (beide Fassungen)", "APPROVE"),
    ("Annahme mit Auflagen", "REVISE"),
    ("Ablehnung empfohlen", "REJECT"),
    # a refusal to approve, in so many words
    ("Cannot approve in its current state", "REVISE"), ("Can not merge yet", "REVISE"),
    # "not recommended to merge (for now)"
    ("\u4e0d\u5efa\u8bae\u5408\u5e76", "REVISE"),
    ("\u6682\u4e0d\u5efa\u8bae\u5408\u5e76\u3002", "REVISE"),
    # Russian: "may merge", "ready to merge", "may not merge", "merge after the fix"
    ("\u041c\u043e\u0436\u043d\u043e \u043c\u0435\u0440\u0436\u0438\u0442\u044c",
     "APPROVE"),
    ("\u0413\u043e\u0442\u043e\u0432\u043e \u043a \u043c\u0435\u0440\u0436\u0443",
     "APPROVE"),
    ("\u041d\u0435\u043b\u044c\u0437\u044f \u043c\u0435\u0440\u0436\u0438\u0442\u044c",
     "REVISE"),
    ("\u041c\u043e\u0436\u043d\u043e \u043c\u0435\u0440\u0436\u0438\u0442\u044c "
     "\u043f\u043e\u0441\u043b\u0435 \u0444\u0438\u043a\u0441\u0430", "REVISE"),
    # "it needs fixing"
    ("\u041d\u0443\u0436\u043d\u043e \u0438\u0441\u043f\u0440\u0430\u0432\u0438\u0442"
     "\u044c", "REVISE"),
    # German: merge-ready; released only after the points are fixed
    ("Merge-bereit", "APPROVE"), ("Bereit zum Merge.", "APPROVE"),
    ("Freigabe nach Behebung der Punkte", "REVISE"), ("Mergen erst nach dem Fix", "REVISE"),
    # "already passed", "merge as it is", Korean "change needed"
    ("\u5df2\u901a\u8fc7", "APPROVE"),
    ("\u3053\u306e\u307e\u307e\u30de\u30fc\u30b8\u3057\u3066\u554f\u984c\u3042\u308a"
     "\u307e\u305b\u3093", "APPROVE"),
    ("\ubcc0\uacbd \ud544\uc694", "REVISE"),
    # "cannot be merged for now", "needs rework", "approved with conditions", "merge on
    # hold", "review again after the fixes"
    ("\u6682\u4e0d\u80fd\u5408\u5e76", "REVISE"), ("\u9700\u8981\u8fd4\u5de5", "REVISE"),
    ("\u6761\u4ef6\u4ed8\u304d\u3067\u627f\u8a8d", "REVISE"),
    ("\uba38\uc9c0 \ubcf4\ub958", "REVISE"),
    ("\uc218\uc815 \ud6c4 \uc7ac\uac80\ud1a0", "REVISE"),
    # "do not approve" in Spanish and Portuguese; "do not merge" in Russian
    ("NO APROBAR", "REVISE"), ("N\u00e3o aprovar", "REVISE"),
    ("\u041d\u0435 \u043c\u0435\u0440\u0436\u0438\u0442\u044c", "REJECT"),
    # ready to merge in French, Italian and German
    ("Pr\u00eat \u00e0 fusionner", "APPROVE"), ("Pronto per il merge", "APPROVE"),
    ("Bereit f\u00fcr Merge", "APPROVE"),
]


@pytest.mark.parametrize("value,vote", WORDS)
def test_the_word_table_reads_the_phrases(value: str, vote: str) -> None:
    assert words.vote_of(value) == vote
    assert verdict(f"**Verdict:** {value}\n") == vote


NOT_VERDICTS = [
    # a check of the change before merging asks for no change to it
    "Merge after manual testing confirms it works",
    "Merge after the release freeze ends",
    "Annahme: der Cache ist warm",  # "assumption: …", not an acceptance
    "cannot reproduce the crash",  # a finding's words, no refusal to approve
    # "the reasons it cannot be merged are:": a sentence's start
    "\u4e0d\u80fd\u5408\u5e76\u7684\u539f\u56e0\u5982\u4e0b",
]


@pytest.mark.parametrize("value", NOT_VERDICTS)
def test_look_alikes_name_no_verdict(value: str) -> None:
    assert words.vote_of(value) is None


def test_a_condition_that_is_only_a_check_still_approves() -> None:
    # "approve if CI passes" asks for no change: the reviewer approves, the gate checks CI
    assert verdict("Checked the diff.\n\n**Verdict:** approve if CI passes\n") == "APPROVE"
    text = ("**Recommendation:** Merge after a manual run confirms the fix.\n\n"
            "**Review status:** \u2705 APPROVED\n")
    assert verdict(text) == "APPROVE"


def test_merge_after_work_in_a_json_review() -> None:
    assert verdict('{"summary": "ok", "recommendation": "merge after fixing the race", '
                   '"findings": []}') == "REVISE"
    # a condition that is no work on the change stays no vote
    assert verdict('{"summary": "ok", "recommendation": "merge after CI", "findings": []}') \
        == "UNKNOWN"


def test_merge_after_the_fixes_under_a_recommendation_key() -> None:
    text = ("# Review of the exporter\n\nThe pipeline is sound.\n\n"
            "**Recommendation:** Merge after removing the dead branch in `export.py`.\n")
    assert verdict(text) == "REVISE"


# --------------------------------------------------------------------------- #
# Keys under numbered headings, and a value that is the heading below
# --------------------------------------------------------------------------- #
def test_a_numbered_recommendation_heading_takes_its_value_below() -> None:
    text = ("# Audit of the sync service\n\n## 1. Scope\n\nThe queue and its retries.\n\n"
            "## 4. Recommendation\n\n**Hold**.\n\nThe two race conditions come first.\n")
    assert verdict(text) == "REVISE"


def test_a_numbered_key_heading_with_its_value_on_the_line() -> None:
    assert verdict("# Review\n\n## 6. Decision: REQUEST CHANGES\n\nTwo races.\n") == "REVISE"


def test_a_numbered_heading_naming_no_key_states_nothing() -> None:
    text = "# Review\n\n## 2. Decision 3: keep the old cache\n\n**Hold** that thought.\n"
    assert verdict(text) == "UNKNOWN"


def test_a_verdict_heading_whose_value_is_the_next_heading() -> None:
    text = ("# Release check\n\n## 9. Final Verdict\n<!-- kept for the translators -->\n\n"
            "### \u2705 APPROVED FOR RELEASE\n\n**Strengths**:\n1. Small diff\n")
    assert verdict(text) == "APPROVE"


def test_a_verdict_heading_over_an_ordinary_heading_states_nothing() -> None:
    text = "# Review\n\n## Verdict\n\n### How the change was read\n\nFile by file.\n"
    assert verdict(text) == "UNKNOWN"


# --------------------------------------------------------------------------- #
# Chinese, Japanese and Korean keys in other places
# --------------------------------------------------------------------------- #
def test_a_cjk_key_glued_after_a_sentence() -> None:
    # "Scope: second draft. Conclusion: needs changes (one small issue). The rest is fine."
    assert verdict("\u8303\u56f4\uff1a\u7b2c\u4e8c\u7248\u8bbe\u8ba1\u3002\u7ed3\u8bba\uff1a"
                   "\u9700\u8981\u4fee\u6539\uff08\u5c0f\u95ee\u9898 1 \u4e2a\uff09\u3002"
                   "\u5176\u4f59\u90e8\u5206\u6ca1\u6709\u95ee\u9898\u3002\n") == "REVISE"
    # "Target: third draft. Verdict: fix needed."
    assert verdict("\u5bfe\u8c61: \u7b2c3\u7a3f\u3002\u5224\u5b9a: \u8981\u4fee\u6b63\u3002\n") \
        == "REVISE"


@pytest.mark.parametrize("text", [
    # "when the verdict becomes 'publishable', publish": no key, a plan
    "\u5224\u5b9a\u304c\u300c\u516c\u958b\u53ef\u300d\u306b\u306a\u3063\u305f\u3089\u516c\u958b"
    "\u3059\u308b\u3002\n",
    # "Note: compared line by line. Judging method: by hand."
    "\u8bf4\u660e\uff1a\u9010\u884c\u5bf9\u6bd4\u3002\u5224\u5b9a\u65b9\u6cd5\uff1a\u4eba\u5de5"
    "\u3002\n",
    # a question: "Verdict: fix needed?"
    "# Review\n\n- \u5224\u5b9a: \u8981\u4fee\u6b63\u304b\uff1f\n",
])
def test_cjk_look_alikes_state_nothing(text: str) -> None:
    assert verdict(text) == "UNKNOWN"


def test_a_cjk_key_with_an_english_qualifier() -> None:
    # "Reviewer final verdict: needs changes — see below"
    text = ("# Plan review\n\n- **Reviewer \u6700\u7ec8\u5224\u5b9a\uff1a\u9700\u8981\u4fee\u6539"
            "** \u2014 \u89c1\u4e0b\u6587\n- \u65e5\u671f\uff1a2026-03-02\n")
    assert verdict(text) == "REVISE"
    # the Korean form, with the English verdict word ITERATE
    assert verdict("- **Critic \ucd5c\uc885 \ud310\uc815: ITERATE** \u2014 \uc544\ub798 "
                   "\uc138 \uac00\uc9c0\ub97c \uace0\uce58\uba74 \ub41c\ub2e4.\n") == "REVISE"
    # a qualified key whose value names no verdict is no key ("Codex conclusion: see the
    # three points below")
    assert verdict("Codex \u7ed3\u8bba\uff1a\u89c1\u4e0b\u6587\u4e09\u70b9\n") == "UNKNOWN"


def test_a_cjk_remark_under_a_key_inside_one_finding() -> None:
    # "## Review conclusion: needs changes" … "### 2. Wording of case 7" / "- **Conclusion**:
    # the description is mostly fine, but the wording is imprecise" … "**Final conclusion**:
    # needs changes."
    text = ("# \u7528\u4f8b\u5ba1\u6838\n\n## \u5ba1\u6838\u7ed3\u8bba\uff1a\u9700\u8981\u4fee"
            "\u6539\n\n## \u4e00\u3001\u51c6\u786e\u6027\n\n### 2. \u7528\u4f8b 7 \u7684\u63aa"
            "\u8f9e\n\n- \u95ee\u9898\uff1a\u9884\u671f\u5199\u6210\u4e86\u9010\u5b57\u663e\u793a"
            "\n- **\u7ed3\u8bba**\uff1a\u63cf\u8ff0\u5927\u4f53\u53ef\u4ee5\uff0c\u4f46\u63aa\u8f9e"
            "\u4e0d\u591f\u51c6\u786e\n\n**\u6700\u7ec8\u7ed3\u8bba**\uff1a**\u9700\u8981\u4fee"
            "\u6539**\u3002\n")
    assert verdict(text) == "REVISE"


def test_a_cjk_value_naming_a_decision_is_not_a_remark() -> None:
    # "needs changes before merging": a decision, though it is a sentence
    assert not words.is_remark("\u9700\u8981\u4fee\u6539\u4e4b\u540e\u518d\u5408\u5e76\u8fdb"
                               "\u4e3b\u5e72")
    assert words.is_remark("\u63cf\u8ff0\u5927\u4f53\u53ef\u4ee5\uff0c\u4f46\u63aa\u8f9e\u4e0d"
                           "\u591f\u51c6\u786e")


def test_a_merge_verdict_template_in_japanese_is_no_verdict() -> None:
    # the choices a prompt lists ("mergeable / mergeable with conditions / not mergeable")
    text = ("## \u7dcf\u5408\u8a55\u4fa1\n\n**\u30de\u30fc\u30b8\u53ef\u5426**: \u2705 \u30de"
            "\u30fc\u30b8\u53ef / \u26a0\ufe0f \u6761\u4ef6\u4ed8\u304d\u30de\u30fc\u30b8\u53ef / "
            "\u274c \u30de\u30fc\u30b8\u4e0d\u53ef\n\n\u7dcf\u5408\u30b3\u30e1\u30f3\u30c8\u3002\n")
    assert verdict(text) == "UNKNOWN"


def test_a_german_overall_judgement() -> None:
    text = ("# Gutachten\n\n**Gutachter:** automatisch\n**Gesamturteil:** \u2705 Annahme "
            "empfohlen\n\n## 7. Empfehlung\n\n**Annahme ohne Auflagen** (beide Fassungen).\n")
    assert verdict(text) == "APPROVE"


# --------------------------------------------------------------------------- #
# Verdict labels of one item each
# --------------------------------------------------------------------------- #
PER_ITEM = ("# Code review: exporter (pass 3)\n\n## P1 \u2014 dead code\n\n"
            "### P1.2 `retry_all` is never called\n**File:** `export.py` ~L80\n"
            "**Fix:** delete it.\n\n## P2 \u2014 simplifications\n\n"
            "### P2.4 the two sort keys are computed alike\n"
            "**Verdict:** Not a bug, but the second pass is wasted.\n\n"
            "### P2.5 the deploy notes describe a later design\n"
            "**Verdict:** Not drift \u2014 they are marked as a design.\n\n")


def test_item_verdict_labels_naming_no_verdict_leave_the_review_key_to_decide() -> None:
    assert verdict(PER_ITEM + "**Recommendation:** Merge after deleting `retry_all`.\n") \
        == "REVISE"


def test_item_verdict_labels_alone_state_no_verdict() -> None:
    assert verdict(PER_ITEM) == "UNKNOWN"



# --------------------------------------------------------------------------- #
# A merge recommendation said in a sentence under a Recommendation key
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize("text,vote", [
    ("# Review\n\nThe parser is sound.\n\n## Recommendation\n\n"
     "I would recommend merging this pull request.\n", "APPROVE"),
    ("# Review\n\n## 6. Recommendation\n\nWe do not recommend merging this PR yet.\n", "REVISE"),
    ("# Review\n\n**Recommendation:** I recommend approving the change.\n", "APPROVE"),
    # the same sentence in a conclusion is prose
    ("# Review\n\n## Conclusion\n\nI would recommend merging this pull request.\n", "UNKNOWN"),
    # a list of suggestions is no Recommendation key
    ("# Review\n\n## Recommendations\n\nI recommend merging this PR.\n", "UNKNOWN"),
    # a condition after it makes it a sentence of its own
    ("# Review\n\n## Recommendation\n\nI recommend merging this PR once the flaky test is "
     "understood.\n", "UNKNOWN"),
    # a Recommendation key left without its value does not lend itself to a later summary
    ("# Review\n\n**Recommendation:**\n\n## Summary\n\nI recommend merging this PR.\n",
     "UNKNOWN"),
])
def test_a_recommendation_sentence_under_its_key(text: str, vote: str) -> None:
    assert verdict(text) == vote


@pytest.mark.parametrize("value,vote", [
    ("READY", "APPROVE"), ("\u2705 READY FOR A3", "APPROVE"), ("Ready for QA.", "APPROVE"),
    # readiness for a review asks for one and decides nothing
    ("Ready for review", None), ("ready_for_owner_code_gate_review", None),
    ("Ready for PR Review", None),
])
def test_ready_for_the_next_stage_under_a_verdict_key(value: str, vote: str | None) -> None:
    assert words.vote_of(value) == vote
    assert words.vote_of(value, False) is None  # under a weaker key (Status: Ready) none


def test_a_japanese_merge_key_answered_with_a_condition_of_work() -> None:
    # "Mergeable?: merge OK once the migration (item 1) is taken care of."
    text = ("**\u30de\u30fc\u30b8\u53ef\u5426**: \u91cd\u5927-1\uff08\u79fb\u884c\uff09\u306b"
            "\u624b\u5f53\u3066\u3092\u5165\u308c\u308c\u3070 **merge \u53ef**\u3002\n")
    assert verdict(text) == "REVISE"
    # "Mergeable?: ✅ merge OK" approves; "merge OK if CI passes" is a check, no vote
    assert verdict("**\u30de\u30fc\u30b8\u53ef\u5426**: \u2705 \u30de\u30fc\u30b8\u53ef\n") \
        == "APPROVE"
    assert verdict("**\u30de\u30fc\u30b8\u53ef\u5426**: CI \u304c\u901a\u308c\u3070 merge "
                   "\u53ef\n") == "UNKNOWN"


# --------------------------------------------------------------------------- #
# A command's result is no verdict
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize("result", [
    "⚠️ **FAILED** - Exit code: 1 (known before this change)",
    "**PASSED** (exit status 0)",
    "FAIL, exited with code 2",
    "Failed: return code 127",
])
def test_a_result_told_by_its_exit_status_is_a_command_s_not_the_review_s(result: str) -> None:
    text = ("# Verification log\n\n## Type check\n\n### Command\n\n```bash\nnpm run check\n```\n\n"
            f"### Result\n{result}\n")
    assert verdict(text) == "UNKNOWN"


def test_a_result_with_no_exit_status_still_gives_the_verdict() -> None:
    text = "# Review\n\n### Result\n**FAILED** - two blocking defects remain\n"
    assert verdict(text) == "REVISE"
