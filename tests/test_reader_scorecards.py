"""What is not a finding in rubric- and gate-style reviews (issue: read what real reviewers
print): a dimension heading over checkbox items is their group, a "none" in any words or
behind a checkbox is no finding, an item that is only a place is evidence, and a title
naming the review of an issue is no findings section.  Fixtures written for these tests."""

from __future__ import annotations

import pytest

from council_filters.verdict import reading


def summaries(text: str) -> list[str]:
    return [f.get("summary", "") for f in reading.read(text.encode(), "tester").findings]


def severities(text: str) -> list[str | None]:
    return [f.get("severity") for f in reading.read(text.encode(), "tester").findings]


RUBRIC = """\
# Design Review: Nightly export job

## Pre-Flight Gate
PASSED

## Tier 1: BLOCKING Issues

### Security
- [ ] **Token scope:** the export token can read every tenant, not only the one exported.

### Cost
- [ ] No issues found.

### Legal
- [ ] No blocking issues found. The retention note covers it.

## Tier 2: HIGH PRIORITY Issues

#### Observability
- [ ] **Silent retries:** a failed upload is retried without a log line or a metric.

#### Quality
- [ ] None.

## Tier 3: SUGGESTIONS
- **Naming:** call the job `export-nightly` so it sorts with the others.
"""


def test_a_dimension_heading_over_checkbox_items_is_their_group() -> None:
    got = summaries(RUBRIC)
    assert [s.split(":")[0] for s in got] == ["Token scope", "Silent retries", "Naming"]
    assert severities(RUBRIC) == ["critical", "critical", "minor"]


@pytest.mark.parametrize("bullet", ["-", "*", "1."])
def test_rubric_in_other_bullets_and_heading_levels(bullet: str) -> None:
    text = RUBRIC.replace("- [ ]", bullet + " [ ]").replace("### ", "#### ")
    assert len(summaries(text)) == 3


def test_a_heading_whose_only_items_say_none_is_no_finding() -> None:
    text = "## Findings\n\n### Safety\n- [ ] No issues found.\n\n### Cost\n- [ ] None\n"
    assert summaries(text) == []


@pytest.mark.parametrize("none", [
    "\u65e0", "\u65e0\u3002", "\u306a\u3057", "\u7279\u306b\u306a\u3057", "\uc5c6\uc74c",
    "N/A", "None.", "[ ] None", "No issues found.", "No new findings.",
    "No high-priority issues found. The criteria are testable.",
])
def test_none_items_under_severity_headings_in_any_words(none: str) -> None:
    text = f"## Findings\n\n### P0\n- {none}\n\n### P1\n- {none}\n\n### P2\n" \
           "1. The retry loop never backs off.\n"
    assert summaries(text) == ["The retry loop never backs off."]


def test_an_item_that_is_only_a_place_is_evidence() -> None:
    text = ("## Findings\n\n- The importer drops the last row.\n\n"
            "## Consistency checks\n\n1. The download test opts in per session:\n"
            "   - `tests/e2e/test_download.py:20-31`\n   - `tests/e2e/test_download.py:40`\n"
            "2. Audit tests follow the new default:\n   - `tests/test_audit.py:7-19`\n")
    assert summaries(text) == ["The importer drops the last row."]


def test_a_place_with_words_is_still_a_finding() -> None:
    text = ("## Findings\n\n- `src/io/read.py:12` drops the last row\n"
            "  - `src/io/read.py:40`\n")
    got = reading.read(text.encode(), "tester").findings
    assert [(f.get("file"), f.get("line")) for f in got] == [("src/io/read.py", 12)]


def test_a_title_naming_the_review_of_an_issue_is_no_findings_section() -> None:
    text = ("# Issue Review: Retry policy for uploads\n\n## Identity\nI am the reviewer.\n\n"
            "## Blocking Issues\n- The retry cap is never read from the config.\n")
    assert summaries(text) == ["The retry cap is never read from the config."]


def test_a_verdict_heading_with_its_value_below_is_no_finding() -> None:
    text = ("## Findings\n\n### P0: Stale daemon\nThe running daemon predates the fix.\n\n"
            "## Go/No-Go Recommendation\n**No-Go**\n\n**Reasoning**:\n1. The fix cannot be "
            "verified.\n")
    got = reading.read(text.encode(), "tester")
    assert got.verdict == "REVISE"
    assert [f["summary"] for f in got.findings] == ["P0: Stale daemon"]


@pytest.mark.parametrize("bullets", [
    "- **Docs**: Much improved.\n- **SDK**: The client methods are correctly "
    "updated to match the API.\n- **CLI**: Help text and options are aligned.\n",
    "- Good: the retry cap is read from the config.\n- [OK] the schema is versioned.\n",
])
def test_a_severity_heading_whose_bullets_all_praise_is_no_finding(bullets: str) -> None:
    text = "## Findings\n\n### P0: Broken upload\nUploads fail with 400.\n\n" \
           "### P1: Consistency\n" + bullets
    assert summaries(text) == ["P0: Broken upload"]


def test_a_file_cited_as_evidence_is_not_the_place() -> None:
    text = ("## Findings\n\n### Issue 7: downloads need an opt-in\n* **Status:** FAILED\n"
            "* **Verification:** the test in `tests/e2e/test_downloads.py` failed.\n")
    got = reading.read(text.encode(), "tester").findings
    assert [f.get("file") for f in got] == [None]


@pytest.mark.parametrize("label", ["**Critical Failure Modes**", "__Top risks__",
                                   "**Open Problems:**"])
def test_a_bold_label_naming_problems_makes_its_list_findings(label: str) -> None:
    text = f"Verdict: REVISE\n\n{label}\n- The lock file is never removed after a crash.\n" \
           "- Two runs can copy the database at once.\n\n**Workflow tips**\n" \
           "- Keep a lock file per worktree.\n"
    got = summaries(text)
    assert len(got) == 2 and got[0].startswith("The lock file")
    if "Critical" in label:
        assert severities(text) == ["critical", "critical"]


SESSION = [
    {"role": "user", "content": "Review the rollout plan in plan.md and list its risks."},
    {"role": "assistant", "content": (
        "I read the plan.\n\n### Gaps and risks\n\n"
        "* **Risk: One region only:** every replica sits in the same region, so an outage "
        "takes the service down.\n"
        "* **Gap: No rollback drill:** the plan never rehearses the rollback it promises.\n")},
    {"role": "user", "content": "Which one first? And sketch the rollback drill."},
    {"role": "assistant", "content": (
        "Start with the drill.\n\n- Requirement: a staging copy.\n"
        "- Requirement: a script that restores yesterday's snapshot.\n")},
]


@pytest.mark.parametrize("shape", ["list", "messages", "parts"])
def test_a_saved_chat_session_is_read_from_the_reply_to_its_first_prompt(shape: str) -> None:
    import json
    msgs: object = SESSION
    if shape == "messages":
        msgs = {"sessionId": "s1", "messages": [
            {"type": "gemini" if m["role"] == "assistant" else "user",
             "content": m["content"]} for m in SESSION]}
    elif shape == "parts":
        msgs = [{"role": "model" if m["role"] == "assistant" else "user",
                 "parts": [{"text": m["content"]}]} for m in SESSION]
    got = summaries(json.dumps(msgs, indent=2))
    assert [s.split(":")[0] for s in got] == ["Risk", "Gap"]


def test_a_review_title_over_dense_critiques_makes_each_a_finding() -> None:
    text = ("**Plan Review (rollout.md)**  \n"
            "- Feasibility: the six-week schedule is aggressive for one engineer, and the "
            "migration step assumes a quiet database that production never has.\n"
            "- Testing: broad on paper but no order of gates; nothing says which suite blocks "
            "a merge or how long a run may take.\n"
            "- Scope: two services.\n\n"
            "Recommendations\n1) Stage the migration.\n2) Order the gates.\n")
    got = summaries(text)
    assert [s.split(":")[0] for s in got] == ["Feasibility", "Testing"]


@pytest.mark.parametrize("line", [
    "\u23f3 Gemini: Pending a second look", "Codex: quota reached (skipped this run)",
    "\u2705 Claude \u2014 APPROVE", "OpenCode: timed out after 600 s",
])
def test_a_line_about_a_reviewers_run_is_no_finding(line: str) -> None:
    text = f"## Findings\n\n- The cache never expires.\n\n**Council status**:\n- {line}\n"
    assert summaries(text) == ["The cache never expires."]


REVALIDATION = """\
# Re-review after fixes

**Verdict:** ACCEPT

## Bug Fix Validation

### \u2705 Bug #1 (paths): **FIXED AS ASKED**
Paths now resolve from the main checkout (`scripts/setup.ps1:126`).

### \u2705 Bug #2 (cleanup): **FIXED AS ASKED**
The cleanup removes the worktree by its path (`scripts/cleanup.ps1:96`).

## Before vs after

### Before (REJECT)
**Critical issues:**
- Environment cloning silently broken
- Cleanup hangs forever

## Should-fix items (deferred)
- Warn when tests are skipped
"""


def test_a_heading_over_fixed_items_an_earlier_state_or_deferred_work_is_none() -> None:
    assert summaries(REVALIDATION) == []


def test_a_before_heading_that_is_still_open_keeps_its_findings() -> None:
    text = REVALIDATION.replace("### Before (REJECT)", "### Before: issues still open")
    assert len(summaries(text)) == 2


@pytest.mark.parametrize("sep", ["\n   ", "\n"])
def test_an_item_written_as_fields_with_a_place_and_a_description(sep: str) -> None:
    text = ("# Spec review (round 2)\n\n"
            f"1. **Category:** Wrong claim{sep}**Location:** `guide.md` \u2192 the status "
            f"labels{sep}**Description:** The guide says blocking is not wired yet; it is.\n\n"
            f"2. **Classification:** Gap{sep}**Location:** `api.md` \u00a75{sep}**Description:** "
            "The error codes are never listed.\n")
    got = reading.read(text.encode(), "tester").findings
    assert [(f.get("file"), f["summary"][:12]) for f in got] == [
        ("guide.md", "The guide sa"), ("api.md", "The error co")]


@pytest.mark.parametrize("title,sev", [
    ("**The batch table lists no dates (minor documentation gap).**", "minor"),
    ("The cleanup step has no safety gate (High risk)", "critical"),
    ("1. Guardrails could be more concrete (nit).", "minor"),
])
def test_a_severity_in_parentheses_closing_the_title(title: str, sev: str) -> None:
    text = f"## Issues Found\n\n1. {title.lstrip('1. ')}\n   - The plan says so twice.\n"
    assert severities(text) == [sev]


def test_a_key_files_list_and_a_benefits_list_are_no_findings() -> None:
    text = ("# Turn flow fixes\n\n## Critical issues found\n\n### 1. Race in the bomb timer "
            "(CRITICAL)\n**Location:** `onExplode()` lines 20-31\n\nThe turn ends twice.\n\n"
            "### 2. No timeout for the firing phase (LOW)\n**Location:** `update()`\n\n"
            "The phase can hang.\n\n## Key files\n- `src/main.js` - the turn logic\n\n"
            "### Benefits delivered\n- **Safer turns** for every weapon\n")
    got = reading.read(text.encode(), "tester").findings
    assert [(f.get("file"), f.get("severity")) for f in got] == [
        (None, "critical"), (None, "minor")]


def test_a_chat_log_as_json_lines_is_a_saved_session() -> None:
    import json
    text = "\n".join(json.dumps(m) for m in SESSION)
    assert [s.split(":")[0] for s in summaries(text)] == ["Risk", "Gap"]


def test_the_list_under_a_findings_fix_paragraph_is_its_detail() -> None:
    text = ("## Major Issues\n\n### 5. The plan deletes files that do not exist\n\n"
            "The removal phase lists two services that were never created.\n\n"
            "**Fix**: note that the only references are:\n"
            "- `core/chat.ts:880` \u2014 a stub comment (remove)\n"
            "- `ui/stream.test.tsx:59` \u2014 a test mock (update)\n\n"
            "### 6. The export list is stale\n\nTwo exports moved.\n")
    got = summaries(text)
    assert [s[:10] for s in got] == ["The plan d", "The export"]


def test_a_scored_dimension_heading_is_a_finding_only_when_its_text_states_a_problem() -> None:
    text = ("# Code Review\n\n## Findings\n\n### Quality: 8/10\nReadable code.\n\n"
            "### Tests: 6/10\nNo test covers the retry path.\n\n### Docs (92%)\nClear.\n\n"
            "Verdict: REVISE\n")
    assert summaries(text) == ["Tests: 6/10"]


def test_titled_items_that_state_a_problem_under_a_dimension_heading() -> None:
    text = ("## Tier 1: Blocking issues\n\n### Security\n- **Path check:** the flag accepts "
            "any path without a check on `../` leaving the tree.\n\n### Cost\n"
            "- No issues found.\n")
    got = summaries(text)
    assert [s.split(":")[0] for s in got] == ["Path check"]


def test_a_coverage_audit_and_passed_assessments_hold_no_findings() -> None:
    text = ("## Critical Issues\n\n### 1. The resume flow calls the wrong API\n\nIt seeds the "
            "history directly.\n\n## Issue Coverage Audit\n\n### #12 \u2014 Core types\n"
            "**Phases**: P03, P04\n**Coverage**: [OK] Complete\n\n### #13 \u2014 Replay\n"
            "**Coverage**: WARNING: mostly complete, see issue 1\n\n## Module Assessment\n\n"
            "### `replay.md` (#13)\n**Assessment**: [OK] Sound\n\nThe streaming read is right.\n"
            "\n### `lock.md` (#14)\n**Status**: \u2705 PASS\n")
    assert summaries(text) == ["The resume flow calls the wrong API"]


def test_bare_places_listed_at_the_top_of_a_findings_section_are_findings() -> None:
    text = "## Findings\n\n- `src/a.py:3`\n- `src/b.py:7`\n"
    got = reading.read(text.encode(), "tester").findings
    assert [(f.get("file"), f.get("line")) for f in got] == [("src/a.py", 3), ("src/b.py", 7)]


def test_a_session_that_opens_with_an_acknowledgement_reads_the_next_reply() -> None:
    import json
    msgs = [{"role": "user", "content": "You will review a plan. Say ready."},
            {"role": "assistant", "content": "Ready."}] + SESSION
    assert [s.split(":")[0] for s in summaries(json.dumps(msgs))] == ["Risk", "Gap"]


@pytest.mark.parametrize("item,sev", [
    ("\u274c **Tests**: no test covers the retry path.", None),
    ("\u26a0\ufe0f Error handling: the retry loop swallows the timeout.", "medium"),
    ("**Testing** \u26a0\ufe0f needs work: the parser has no fuzz cases.", "medium"),
    ("\u2717 The rollback step is missing.", None),
])
def test_an_item_marked_failing_or_warned_is_a_finding(item: str, sev: str | None) -> None:
    text = f"## Checklist\n\n- {item}\n- \u2705 **Docs**: clear.\n\nVerdict: REVISE\n"
    assert severities(text) == [sev]


def test_marked_items_under_a_verdict_heading_restate_and_are_none() -> None:
    text = ("## Findings\n\n- The key is not rotated.\n\n## Final verdict: NO-GO\n\n"
            "- \u274c Key rotation not verified\n- \u274c No staging target\n")
    assert summaries(text) == ["The key is not rotated."]


@pytest.mark.parametrize("line", ["Gemini: pass the timeout through to the client",
                                  "Codex: error handling in the loader is missing"])
def test_a_finding_attributed_to_a_reviewer_is_still_a_finding(line: str) -> None:
    assert summaries(f"## Findings\n\n- {line}\n") == [line]


@pytest.mark.parametrize("head", ["### Deferred validation loses rows",
                                  "### Before merging, the schema check is skipped"])
def test_a_finding_titled_with_deferred_or_before_is_still_a_finding(head: str) -> None:
    text = f"## Issues\n\n{head}\nThe importer writes rows before it validates them.\n"
    assert len(summaries(text)) == 1


def test_a_review_titles_plain_statements_are_not_critiques() -> None:
    text = ("**Code review**\n- The change does not touch the public API, so no migration is "
            "needed for any caller of the module at all.\n")
    assert summaries(text) == []


def test_dense_critique_paragraphs_under_a_review_title() -> None:
    text = ("**Plan review (rollout.md)**\n\n"
            "Feasibility: the six-week schedule is aggressive for one engineer, and the "
            "migration assumes a quiet database that production never has.\n\n"
            "Testing: broad on paper but no order of gates; nothing says which suite blocks a "
            "merge or how long a run may take.\n\n"
            "Recommendations\n\n"
            "Ordering: add a gate order so that no suite runs without the smoke tests first.\n")
    got = summaries(text)
    assert [s.split(":")[0] for s in got] == ["Feasibility", "Testing"]
