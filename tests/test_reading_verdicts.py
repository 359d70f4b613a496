"""The verdict a reviewer states, in the words and under the keys reviewers use (issue: read
what real reviewers print, point 3): the verdict-word table, the keys, a heading or label
with the value below it, checkbox options, several rounds, other languages, metadata
blocks and codex's review JSON wherever it sits, and what must stay a non-verdict.  Every
text here is written for these tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from council_filters.verdict import reading, words

DATA = Path(__file__).parent / "data" / "reviews"


def verdict(text: str) -> str:
    return reading.read(text.encode()).verdict


# --------------------------------------------------------------------------- #
# The word table: any case, spacing, underscores or emoji
# --------------------------------------------------------------------------- #
WORDS = [
    # asks for changes
    ("CONCERNS", "REVISE"), ("Concerns - address the two items below first", "REVISE"),
    ("conditional pass", "REVISE"), ("Conditionally approved", "REVISE"),
    ("GO with conditions", "REVISE"), ("Accept with changes", "REVISE"),
    ("approve_with_required_changes", "REVISE"), ("needs major revision", "REVISE"),
    ("REQUIRES_MAJOR_REVISION", "REVISE"), ("Requires changes", "REVISE"),
    ("needs another pass", "REVISE"), ("Major revision", "REVISE"), ("NOGO", "REVISE"),
    ("No Go", "REVISE"), ("\u274c NO-GO", "REVISE"), ("not ready to merge", "REVISE"),
    ("Not production-ready", "REVISE"), ("BLOCK", "REVISE"), ("Blocked.", "REVISE"),
    ("FAILED", "REVISE"), ("on hold", "REVISE"), ("request-for-changes", "REVISE"),
    ("Minor changes needed", "REVISE"), ("Fixes required", "REVISE"),
    ("PARTIAL PASS", "REVISE"), ("Revise and resubmit", "REVISE"),
    # will not merge
    ("DO NOT MERGE", "REJECT"), ("don't ship", "REJECT"), ("Rejected", "REJECT"),
    # approves (notes that do not block included)
    ("CLEAN", "APPROVE"), ("APPROVED_WITH_NOTES", "APPROVE"),
    ("PASS (with minor caveats)", "APPROVE"), ("pass with warnings", "APPROVE"),
    ("APPROVE with minor recommendations \u2014 nothing blocking", "APPROVE"),
    ("LGTM with nits", "APPROVE"), ("\u2705 Ship it", "APPROVE"), ("ready to merge", "APPROVE"),
    ("Production-ready", "APPROVE"), ("safe to merge", "APPROVE"), ("ACCEPT", "APPROVE"),
    ("Accept as-is", "APPROVE"), ("go.", "APPROVE"), ("No blocking issues found", "APPROVE"),
    # other languages
    ("\u901a\u8fc7", "APPROVE"), ("\u4e0d\u901a\u8fc7", "REVISE"),
    ("\u6709\u6761\u4ef6\u901a\u8fc7", "REVISE"), ("\u9700\u8981\u4fee\u6539", "REVISE"),
    ("\u62d2\u7edd", "REJECT"), ("\u627f\u8a8d", "APPROVE"), ("\u5dee\u3057\u623b\u3057", "REVISE"),
    ("\u5374\u4e0b", "REJECT"),
]


@pytest.mark.parametrize("value,vote", WORDS)
def test_the_word_table_reads_the_family(value: str, vote: str) -> None:
    assert words.vote_of(value) == vote
    assert verdict(f"**Verdict:** {value}\n") == vote


@pytest.mark.parametrize("value", ["NEEDS DISCUSSION", "see below", "in progress", "maybe"])
def test_a_verdict_key_that_names_no_verdict_gives_none(value: str) -> None:
    got = reading.read(f"Verdict: {value}\n".encode())
    assert got.verdict == "UNKNOWN"
    assert reading.NOT_A_VOTE in got.warnings


def test_words_that_are_a_verdict_only_under_a_verdict_key() -> None:
    # "clean" or "OK" under Status is a working tree's or a check's state, not a vote
    assert verdict("Status: clean\n") == "UNKNOWN"
    assert verdict("## Verdict\n\nOK\n") == "APPROVE"


# --------------------------------------------------------------------------- #
# The keys reviewers state it under
# --------------------------------------------------------------------------- #
KEYS = [
    "- **Judgment**: **NOGO**",
    "**Judgement:** NO-GO",
    "Decision: needs work",
    "## Conclusion: CHANGES REQUESTED",
    "**Gate**\uff1a`No-Go`",
    "Outcome \u2014 FAIL",
    "**Overall:** request changes",
    "Merge recommendation: not ready",
    "**Plan Status**: REQUIRES_MAJOR_REVISION",
    "### Governance Verdict: BLOCK",
    "Security review verdict: CONCERNS",
    '"verdict": "REVISE",',
    "verdict = needs-changes",
    "**\u7ed3\u8bba**\uff1a\u4e0d\u901a\u8fc7",
    "\u5224\u5b9a: \u8981\u4fee\u6b63",
    "\u7dcf\u5408\u8a55\u4fa1\uff1a\u5dee\u3057\u623b\u3057",
    "Quality gate: FAILED",
    '"overall_correctness": "patch is incorrect",',
]


@pytest.mark.parametrize("line", KEYS)
def test_verdict_keys_in_the_forms_reviewers_write(line: str) -> None:
    text = f"Two places still need work.\n\n{line}\n\n- the cache is never invalidated\n"
    assert verdict(text) == "REVISE"


def test_a_key_on_the_second_line_of_a_paragraph() -> None:
    text = "## Audit summary\nFiles audited: 4 (two primary, two sampled)\nVerdict: PASS\n"
    assert verdict(text) == "APPROVE"


def test_a_heading_or_label_with_the_value_below() -> None:
    assert verdict("# Security pass\n\n## Final Verdict\n\n**CLEAN**\n") == "APPROVE"
    assert verdict("## Recommendation\n\n**REQUEST CHANGES**\n\nThe parser drops rows.\n") \
        == "REVISE"
    assert verdict("**Verdict:**\nREJECT\n") == "REJECT"
    assert verdict("## \u7ed3\u8bba\n\n\u4e0d\u901a\u8fc7\uff0c\u9700\u8981\u4fee\u6539\n") \
        == "REVISE"
    # under a weaker key, a sentence is the reviewer's reasoning, not a value
    assert verdict("## Recommendation\n\nApprove once the flaky test is understood.\n") \
        == "UNKNOWN"


def test_a_one_row_table_whose_first_column_is_the_verdict() -> None:
    assert verdict("| Verdict | Confidence |\n|---|---|\n| **REVISE** | HIGH |\n") == "REVISE"
    # several rows are per-item verdicts or a legend, not the reviewer's one verdict
    legend = "| Verdict | Meaning |\n|---|---|\n| APPROVE | fine |\n| REVISE | fix first |\n"
    assert verdict(legend) == "UNKNOWN"
    assert verdict("| Reviewer | Verdict |\n|---|---|\n| second | APPROVE |\n") == "UNKNOWN"


def test_a_key_table_right_under_a_verdict_heading() -> None:
    text = ("## Verdict\n\n| Key | Value |\n|---|---|\n| Decision | REVISE |\n"
            "| Confidence | HIGH |\n")
    assert verdict(text) == "REVISE"


# --------------------------------------------------------------------------- #
# Checkbox options, rounds
# --------------------------------------------------------------------------- #
def test_the_checked_option_of_a_checkbox_list_is_the_verdict() -> None:
    got = reading.read((DATA / "gate-checklist.md").read_bytes())
    assert got.verdict == "REVISE", got.warnings
    inline = "Verdict: [ ] APPROVE  [x] REQUEST CHANGES  [ ] REJECT\n"
    assert verdict(inline) == "REVISE"


@pytest.mark.parametrize("text", [
    "## Verdict\n\n- [ ] APPROVE\n- [ ] REVISE\n- [ ] REJECT\n",
    "Verdict: [ ] APPROVE [ ] REVISE\n",
    "- [ ] Approve\n- [ ] Request changes\n",
    "- [x] Approve\n- [x] Request changes\n",
])
def test_options_with_none_or_several_checked_are_no_verdict(text: str) -> None:
    assert verdict(text) == "UNKNOWN"


@pytest.mark.parametrize("text,vote", [
    ("**Original verdict:** REJECT \u2192 **New verdict:** ACCEPT\n", "APPROVE"),
    ("Initial verdict: REVISE\n\nThe fix landed.\n\nUpdated verdict: APPROVE\n", "APPROVE"),
    ("Verdict: REVISE\n\n...\n\nFinal verdict: LGTM\n", "APPROVE"),
    ("Verdict: ~~REVISE~~ APPROVE\n", "APPROVE"),
    ("Verdict: REJECT -> APPROVE (after the rebase)\n", "APPROVE"),
    ("Verdict: changes requested -> `to-dev`\n", "REVISE"),
])
def test_a_later_verdict_replaces_an_earlier_one(text: str, vote: str) -> None:
    assert verdict(text) == vote


# --------------------------------------------------------------------------- #
# Metadata blocks and codex's review JSON
# --------------------------------------------------------------------------- #
def test_a_metadata_block_at_the_head_of_the_answer() -> None:
    text = ("REVIEW_BEGIN\n# Review: the importer\n\n```yaml\nduration_s: 40\n"
            "verdict: REQUEST_CHANGES\nmodel: some-model\n```\n\n## Findings\n\n"
            "- importer/map.py:12 drops the header row\n")
    assert verdict(text) == "REVISE"


def test_a_yaml_block_quoted_as_evidence_is_not_the_verdict() -> None:
    text = ("Two duplicate keys slip through.\n\n### P1 - duplicate keys are accepted\n\n"
            "This document passes the guard:\n\n```yaml\nverdict: NO-GO\nverdict: GO\n```\n")
    assert verdict(text) == "UNKNOWN"


def test_codex_review_json_between_review_markers() -> None:
    got = reading.read((DATA / "codex-review-markers.md").read_bytes(), "codex",
                       "/srv/checkout")
    assert got.verdict == "REVISE"
    # the finding annotated resolved later is not an open one
    assert [(f["file"], f["line"]) for f in got.findings] == [("net/backoff.py", 44)]


def test_codex_review_json_in_a_fence_after_a_long_preamble() -> None:
    preamble = "\n".join(f"- checked module {i} and its callers" for i in range(12))
    text = (f"# Review log\n\n{preamble}\n\n```json\n"
            '{"findings": [], "overall_correctness": "patch is correct", '
            '"overall_explanation": "Nothing found."}\n```\n')
    assert verdict(text) == "APPROVE"


@pytest.mark.parametrize("text,vote", [
    ("My notes are above.\n\n<verdict>REVISE</verdict>\n", "REVISE"),
    ("My notes are above.\n\n<verdict>\nREJECT\n</verdict>\n", "REJECT"),
    ("<final_verdict>APPROVE</final_verdict>\n", "APPROVE"),
    ("<decision>request changes</decision>\n", "REVISE"),
    # the options in a tag, a quoted or fenced tag: none
    ("Answer with <verdict>APPROVE|REVISE|REJECT</verdict>.\n", "UNKNOWN"),
    ("> <verdict>REJECT</verdict>\n", "UNKNOWN"),
    ("Seen in the log:\n\n```\n<verdict>REJECT</verdict>\n```\n\nNothing else.\n", "UNKNOWN"),
])
def test_verdicts_in_xml_style_tags(text: str, vote: str) -> None:
    assert verdict(text) == vote


@pytest.mark.parametrize("key", ["final_verdict", "overall_verdict", "review_verdict",
                                 "judgment"])
def test_json_review_verdict_keys(key: str) -> None:
    findings = '"findings": [{"file": "a/b.py", "line": 3, "title": "x"}]'
    assert verdict(f'{{"{key}": "NEEDS_CHANGES", {findings}}}\n') == "REVISE"
    assert verdict(f'{{"{key}": "CLEAN"}}\n') == "APPROVE"


# --------------------------------------------------------------------------- #
# What must stay a non-verdict
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize("text", [
    "I would approve this once the migration is split.\n",
    "Options: Accept as-is / Accept with minor tweaks / Needs major revision\n",
    "Verdict: Pass / Conditional Pass / Fail\n",
    "# Reviewer Verdict \u2014 round one\n\nNotes follow.\n",
    "Build status: PASS\n",
    "The ship it rule is in docs/release.md.\n",
    "> **Verdict:** CLEAN\n",
    "Looks fine.\n\n```\nverdict: APPROVE\n```\n\nDone.\n",
    "| Field | Value |\n|---|---|\n| Verdict | APPROVE |\n",
    "- **Recommendation**: Add a unit test for the empty case\n",
    "Conclusion: the approach is sound but the tests are thin.\n",
    "- Status: done\n- Result: 12 passed\n",
    # 通过 also means "by means of", 拒绝 begins "denial of service"
    "**\u7ed3\u8bba**\uff1a\u901a\u8fc7\u5f15\u5165\u9501\u6765\u89e3\u51b3\u7ade\u4e89\u3002\n",
    "\u7ed3\u8bba\uff1a\u62d2\u7edd\u670d\u52a1\u98ce\u9669\u5df2\u6392\u9664\n",
])
def test_no_verdict_is_invented(text: str) -> None:
    assert verdict(text) == "UNKNOWN"


# --------------------------------------------------------------------------- #
# Checkbox options as lines of one paragraph; rounds told by their headings; keys named
# by their choices; a CJK key with a qualifier that makes it a summary
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize("text,vote", [
    ("## Verdict\n[ ] **APPROVED** - ready as it is\n[x] **REVISE** - fix the gaps first\n"
     "[ ] **DISCUSS** - needs a decision\n", "REVISE"),
    ("### Decision\n\n[X] Approve\n[ ] Request changes\n", "APPROVE"),
    ("**Verdict:**\n[ ] ACCEPT\n[ ] REVISE\n[x] REJECT - the schema change is unsafe\n",
     "REJECT"),
])
def test_checkbox_options_written_as_paragraph_lines(text: str, vote: str) -> None:
    assert verdict(text) == vote


@pytest.mark.parametrize("text", [
    "## Verdict\n[ ] APPROVED - fine\n[ ] REVISE - not fine\n",
    "## Verdict\n[x] APPROVED - fine\n[x] REVISE - not fine\n",
])
def test_paragraph_checkbox_options_with_no_single_choice_are_no_verdict(text: str) -> None:
    assert verdict(text) == "UNKNOWN"


ROUNDS_BY_HEADING = """\
# Review log

## B3 final review (commit 1a2b3c4)

- **Gate**: `No-Go`

### Findings
1. The upload path returns 422 for the default session.

---

## B4 final review (target `9f8e7d6`)

### Findings
- none

### Conclusion
- **Go/No-Go**: `Go`
"""


def test_sibling_review_headings_that_differ_by_an_id_are_rounds() -> None:
    got = reading.read(ROUNDS_BY_HEADING.encode())
    assert got.verdict == "APPROVE", got.warnings
    # the last round approves: what the first round found is settled
    assert got.findings == []
    jp = ROUNDS_BY_HEADING.replace("final review", "\u6700\u7ec8\u8bc4\u5ba1")
    assert reading.read(jp.encode()).verdict == "APPROVE"


@pytest.mark.parametrize("a,b", [("Codex review", "Gemini review"),
                                 ("Review (claude)", "Review (codex)"),
                                 ("Review by `gpt-5`", "Review by `gemini-2.5`")])
def test_headings_naming_different_reviewers_are_not_rounds(a: str, b: str) -> None:
    text = f"## {a}\n\n**Status**: No-Go\n\n## {b}\n\n**Status**: Go\n"
    assert verdict(text) == "UNKNOWN"


def test_a_last_round_that_asks_for_changes_keeps_the_earlier_findings() -> None:
    text = ROUNDS_BY_HEADING.replace("`Go`", "`No-Go`")
    got = reading.read(text.encode())
    assert got.verdict == "REVISE"
    assert len(got.findings) == 1


@pytest.mark.parametrize("line,vote", [
    ("**Go/No-Go**: Go", "APPROVE"), ("Go / No-Go: NO-GO", "REVISE"),
    ("**Go-No-Go:** `No Go`", "REVISE"),
])
def test_a_key_named_by_its_choices(line: str, vote: str) -> None:
    assert verdict(line + "\n") == vote


def test_a_cjk_conclusion_key_with_an_unknown_qualifier_is_a_summary() -> None:
    # "the conclusion in one sentence: ..." is prose, and the gate key still decides
    text = ("- **Gate**: `No-Go`\n- **\u4e00\u53e5\u8bdd\u7ed3\u8bba**: "
            "`\u4fee\u590d\u5df2\u843d\u5730\uff0c\u4f46\u4ecd\u6709\u56de\u5f52`\n")
    assert verdict(text) == "REVISE"


# --------------------------------------------------------------------------- #
# A summary heading or label over the verdict phrase alone; a codex transcript
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize("text,vote", [
    ("# Plan check\n\n## Summary\n**CONDITIONAL PASS**\n\nThe plan is sound but two paths "
     "are wrong.\n", "REVISE"),
    ("**Gate Summary**  \n- Conditional Pass \u2013 close, but it needs rollback steps.\n",
     "REVISE"),
    ("## Executive summary\n\nLGTM.\n", "APPROVE"),
])
def test_a_summary_over_the_verdict_phrase_alone(text: str, vote: str) -> None:
    assert verdict(text) == vote


@pytest.mark.parametrize("text", [
    "## Summary\n\nApproved the approach in principle, but the tests are missing.\n",
    "## Summary\n\nThe change passes the linters and adds two flags.\n",
    "## Summary\n\nPASS: 12, FAIL: 0\n", "## Test summary\n\nPassed: 12 tests\n",
    "**Run Summary**\n- PASS (12/12)\n",
])
def test_a_summary_sentence_is_no_verdict(text: str) -> None:
    assert verdict(text) == "UNKNOWN"


CODEX_TRANSCRIPT = """\
OpenAI Codex v0.61.0 (research preview)
--------
workdir: /srv/checkout
model: gpt-5-codex
--------
user
Review the migration plan. Answer with one of:
- Verdict: Approve / Request changes
- Confidence: High / Medium / Low

thinking
**Weighing the rollback story**
codex
**Verdict**
- Request changes \u2013 the rollback is missing.

**Blocking risks**
- The backfill runs in one transaction and locks the table for minutes.

**Confidence**
- Medium \u2013 the plan may cover this elsewhere.
tokens used
1,204
**Verdict**
- Request changes \u2013 the rollback is missing.
"""


def test_a_codex_transcript_is_read_from_its_last_message_only() -> None:
    got = reading.read(CODEX_TRANSCRIPT.encode())
    assert got.verdict == "REVISE", got.warnings
    assert got.confidence == "MEDIUM"
    assert [f.get("severity") for f in got.findings] == ["critical"]
    assert got.findings[0]["summary"].startswith("The backfill runs")
    # the prompt's own option line is never the verdict, whatever the answer says
    approve = CODEX_TRANSCRIPT.replace("Request changes \u2013", "Approve \u2013")
    assert reading.read(approve.encode()).verdict == "APPROVE"


@pytest.mark.parametrize("head", [
    "## Re-review after fixes", "## Follow-up review (commit 9f8e7d6)", "## Second review",
    "## \u590d\u6838"])
def test_a_re_review_heading_opens_the_current_round(head: str) -> None:
    text = ("## Initial review\n\n**Decision**: REVISE\n\n### Findings\n- The retry loop "
            f"never backs off.\n\n{head}\n\n**Decision**: APPROVE\n\nThe loop backs off now.\n")
    got = reading.read(text.encode())
    assert got.verdict == "APPROVE", got.warnings
    assert got.findings == []


def test_a_codex_transcript_with_timestamped_labels() -> None:
    text = ("[2025-09-01T10:00:00] OpenAI Codex v0.30.0 (research preview)\n--------\n"
            "workdir: /srv/checkout\n--------\n[2025-09-01T10:00:01] User instructions:\n"
            "Reply with Verdict: APPROVE or Verdict: REVISE\n\n"
            "[2025-09-01T10:00:09] codex\n\nVerdict: REVISE\n\n- [P1] The lock is never "
            "released \u2014 src/lock.py:40\n[2025-09-01T10:00:10] tokens used: 900\n")
    got = reading.read(text.encode())
    assert got.verdict == "REVISE"
    assert [(f.get("file"), f.get("line")) for f in got.findings] == [("src/lock.py", 40)]


@pytest.mark.parametrize("text,vote", [
    ("## Verdict\n\u2610 APPROVE\n\u2611 REVISE\n\u2610 REJECT\n", "REVISE"),
    ("## Decision\n\n- \u2612 Approve\n- \u2610 Request changes\n", "APPROVE"),
    ("Verdict: \u2610 APPROVE \u2611 REQUEST CHANGES\n", "REVISE"),
    ("## Verdict\n\u2610 APPROVE\n\u2610 REVISE\n", "UNKNOWN"),
])
def test_ballot_box_characters_are_checkboxes(text: str, vote: str) -> None:
    assert verdict(text) == vote
