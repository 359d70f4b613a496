"""Review JSON read by family (issue: read what real reviewers print, items 1 and 7):
findings under keys of a pipeline's own naming, grouped by severity at any level,
findings that name no file, per-file entries, verdict keys of its own making, a Markdown
review held in one string, and a review bot's overview beside its located comments.
Every document below is written for these tests; none is a reviewer's text."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from council_filters.verdict import formats, reading, reviewer_json


def read(doc: Any) -> reading.Reading:
    raw = doc if isinstance(doc, str) else json.dumps(doc)
    return reading.read(raw.encode(), "tester")


def where(got: reading.Reading) -> list[tuple[Any, Any, Any]]:
    return [(f.get("file"), f.get("line"), f.get("severity")) for f in got.findings]


# --------------------------------------------------------------------------- #
# Findings under keys of the pipeline's own naming, most of them with no file
# --------------------------------------------------------------------------- #
def test_concerns_and_risks_that_name_no_file_are_findings() -> None:
    got = read({
        "summary": "The migration is risky.",
        "concerns": ["The rollback drops the audit column.",
                     "The retry loop has no bound."],
        "risks": [{"description": "Tokens are logged at debug level.", "severity": "high"}],
        "strengths": ["Clear commit history."],
    })
    assert where(got) == [(None, None, None), (None, None, None), (None, None, "critical")]
    assert got.verdict == "UNKNOWN"  # it states none: none is invented


@pytest.mark.parametrize("key", ["security_flaws", "weaknesses", "missing_checks",
                                 "code_suggestions", "build_errors", "vulnerabilities"])
def test_a_list_under_a_key_naming_findings_of_another_word_is_read(key: str) -> None:
    got = read({key: [{"message": "The cache key ignores the tenant."}]})
    assert len(got.findings) == 1 and got.findings[0].get("file") is None


@pytest.mark.parametrize(("key", "named"), [
    ("concerns", True), ("missing_tests", True), ("securityFlaws", True),
    ("suggested_tasks", False), ("recommended_next_steps", False), ("strengths", False),
    ("missing", False), ("resolved_risks", False),
])
def test_which_further_keys_name_findings(key: str, named: bool) -> None:
    assert reviewer_json.names_findings(key) is named


def test_each_reviewers_report_one_object_down_is_read_with_its_severity_groups() -> None:
    got = read({
        "paper_title": "On caching",
        "editorial_decision": "Major Revision",
        "first_report": {"recommendation": "Minor Revision",
                         "weaknesses": [{"title": "The baseline is weak.", "severity": "Minor"}],
                         "questions_for_author": ["Why this dataset?"]},
        "second_report": {"weaknesses": ["The sample is small."]},
        "devils_advocate": {"CRITICAL": [{"description": "The claim does not follow.",
                                          "location": "p. 4"}],
                            "MINOR": [{"description": "A typo in the abstract.",
                                       "location": "abstract"}]},
    })
    assert got.verdict == "REVISE"  # "editorial_decision": a verdict key of its own making
    assert where(got) == [(None, None, "minor"), (None, None, None),
                          (None, None, "critical"), (None, None, "minor")]


def test_a_findings_object_grouped_by_severity_is_not_keyed_by_file() -> None:
    got = read({"verdict": "request changes", "findings": {
        "critical": [{"file": "auth/session.py", "line": 40, "title": "Session never expires"}],
        "minor": [{"title": "Rename the helper"}]}})
    assert got.verdict == "REVISE"
    assert where(got) == [("auth/session.py", 40, "critical"), (None, None, "minor")]


def test_a_group_beside_the_findings_list_is_read_once() -> None:
    got = read({"verdict": "REVISE", "findings": [{"title": "Off by one", "file": "a.c",
                                                   "line": 3}],
                "suggestions": ["Name the magic number."]})
    assert where(got) == [("a.c", 3, None), (None, None, "minor")]


@pytest.mark.parametrize(("doc", "want"), [
    ({"analysis": {"decision": "reject", "problems": ["The query is built from input."]}},
     "REJECT"),
    ({"code_review": {"approved": False, "concerns": ["The loop never ends."]}}, "REVISE"),
    ({"response": {"verdict": "LGTM", "issues": []}}, "APPROVE"),
    ({"gate": {"merge_ready": "no"}, "issues": []}, "REVISE"),
])
def test_the_one_part_that_states_a_verdict_gives_it(doc: dict[str, Any], want: str) -> None:
    assert read(doc).verdict == want


def test_several_parts_each_with_a_verdict_give_none_and_a_run_state_is_none() -> None:
    two = {"first_report": {"recommendation": "Accept", "weaknesses": ["Thin tests."]},
           "second_report": {"recommendation": "Reject", "weaknesses": ["Wrong model."]}}
    assert read(two).verdict == "UNKNOWN"
    assert read({"run": {"status": "ok"}, "issues": [{"title": "Slow"}]}).verdict == "UNKNOWN"


def test_findings_keyed_by_category_name_no_file_and_a_files_map_does() -> None:
    got = read({"verdict": "REVISE", "findings": {
        "security": [{"title": "Secrets in the log"}], "Dockerfile": [{"title": "Root user"}]}})
    assert where(got) == [(None, None, None), ("Dockerfile", None, None)]
    got = read({"verdict": "approve", "files": {"lib/a.py": [{"line": 3, "comment": "nit: name"}]}})
    assert where(got) == [("lib/a.py", 3, "minor")]


# --------------------------------------------------------------------------- #
# Places of other spellings
# --------------------------------------------------------------------------- #
def test_per_file_entries_under_a_key_of_their_own_naming_give_their_file() -> None:
    doc = {"reviews": [
        {"plan_file": "docs/plans/cache.md", "score": 8,
         "issues": [{"severity": "High", "issue": "No eviction policy is named."}]},
        {"plan_file": "docs/plans/queue.md", "score": 10, "issues": []},
        {"plan_file": "docs/plans/auth.md",
         "issues": [{"severity": "Low", "issue": "The diagram is stale."}]}]}
    assert formats.review_json(json.dumps(doc)) is not None
    assert where(read(doc)) == [("docs/plans/cache.md", None, "critical"),
                                ("docs/plans/auth.md", None, "minor")]


def test_a_profile_or_a_word_under_a_file_like_key_is_no_path() -> None:
    assert reviewer_json.path_like("docs/plan.md") and reviewer_json.path_like(".env")
    assert not reviewer_json.path_like("p. 3.1") and not reviewer_json.path_like("overall")


def test_the_first_of_the_cited_evidence_lines_is_the_place() -> None:
    got = read({"findings": [{"file": "src/cli.py", "summary": "Three copies of one block",
                              "evidence_lines": [120, 188, 240]}]})
    assert [(f["file"], f["line"], f.get("end_line")) for f in got.findings] == [
        ("src/cli.py", 120, None)]


def test_a_finding_naming_several_files_takes_the_first_and_its_line() -> None:
    got = read([{"severity": "MEDIUM", "file": "lib/a.py + lib/b.py",
                 "line": "a.py:30-31; b.py:12", "issue": "Both read the key unchecked."},
                {"severity": "LOW", "file": "lib/c.py", "line": "7 (parse)",
                 "issue": "The docstring is wrong."}])
    assert where(got) == [("lib/a.py", 30, "medium"), ("lib/c.py", 7, "minor")]


def test_a_page_of_a_paper_in_a_location_field_is_no_file() -> None:
    got = read({"weaknesses": [{"description": "The method is unclear.", "location": "p. 3.1"},
                               {"description": "Bad default.", "location": "src/a.py:9"}]})
    assert where(got) == [(None, None, None), ("src/a.py", 9, None)]


# --------------------------------------------------------------------------- #
# Settled items, gates, a review held as one Markdown string
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize("state", [
    {"status": "stale", "resolution": "Already addressed by the last commit."},
    {"status": "debunked"}, {"resolution": "Refuted: the call happens once."},
    {"status": "not an issue"},
])
def test_findings_marked_stale_debunked_or_already_addressed_are_settled(
        state: dict[str, str]) -> None:
    got = read([{"file": "srv/zip.rs", "line": 40, "summary": "Zip built twice", **state}])
    assert got.findings == []


def test_a_gate_with_missing_files_lists_reads_each_missing_file_at_file_level() -> None:
    got = read({"approved": False,
                "backend_errors": [{"file": ".env", "line": 3, "severity": "warning",
                                    "error": "A weak secret is committed."}],
                "missing_backend_files": [{"path": "api/package.json",
                                           "reason": "npm install needs it."}],
                "build_errors": ["the image build stopped at its second step"]})
    assert got.verdict == "REVISE"
    assert where(got) == [(".env", 3, "medium"), ("api/package.json", None, None),
                          (None, None, None)]


MARKDOWN = ("### Review of `engine.py`\n\n#### 1. Bugs\n\n"
            "* **Leaky forget**: `forget` keeps the key in the second map, so a later "
            "lookup fails.\n\n#### 2. Suggestions\n\n"
            "* **Split respond**: move each branch to its own method.\n")


def test_a_review_held_as_one_markdown_string_is_read_as_markdown() -> None:
    raw = json.dumps({"metrics": {"timeMs": 12}, "reviewFeedback": MARKDOWN})
    got = formats.unwrap(raw)
    assert got.kind == "json-markdown" and got.text == MARKDOWN
    assert len(read(raw).findings) == 2


def test_a_json_object_whose_strings_are_no_markdown_review_stays_json() -> None:
    assert formats.markdown_answer(json.dumps({"result": "ok", "text": "one line"})) is None
    assert formats.markdown_answer("[1, 2]") is None


def test_a_fenced_review_json_with_more_findings_than_its_recap_stands() -> None:
    block = {"summary": "Scripts lack checks.",
             "risks": [{"severity": "HIGH", "location": "run.ps1:11", "description": "Push"},
                       {"severity": "LOW", "location": "out.json", "description": "Artifact"}],
             "missing_checks": [{"item": "Version pin", "details": "No minimum version."}]}
    answer = ("Here is my review:\n\n```json\n" + json.dumps(block, indent=2) + "\n```\n\n"
              "**Summary:**\n\n1. **HIGH**: the push is unchecked\n")
    assert where(read(answer)) == [("run.ps1", 11, "critical"), ("out.json", None, "minor"),
                                   (None, None, None)]


# --------------------------------------------------------------------------- #
# A review bot's overview beside its located comments (item 7)
# --------------------------------------------------------------------------- #
def test_copilots_review_overview_is_no_finding_its_comments_without_author_are() -> None:
    overview = ("## Copilot review overview\n\n### Changes recommended\n\n"
                "| Severity | Finding |\n|:--:|:--|\n| Low | `src/cost.swift` \u2014 The doc "
                "claims unknown keys fail |\n\n**Changes:**\n- Adds typed snapshot decoding.\n"
                "\n| File | Description |\n| ---- | ----------- |\n| src/pin.swift | Bumps "
                "the pin. |\n")
    doc = {"data": {"repository": {"pullRequest": {"reviews": {"nodes": [{
        "author": {"login": "copilot-pull-request-reviewer"}, "state": "COMMENTED",
        "body": overview, "comments": {"nodes": [
            {"path": "src/cost.swift", "line": 11, "body": "The doc says unknown keys fail."},
            {"path": "tests/cost_tests.swift", "line": 126, "body": "Rename this test."}]}}]}}}}}
    got = read(doc)
    assert [(f.get("file"), f.get("line")) for f in got.findings] == [
        ("src/cost.swift", 11), ("tests/cost_tests.swift", 126)]


def test_one_review_comment_saved_alone_without_author_keeps_its_line() -> None:
    body = "![high](https://example.invalid/high-priority.svg)\n\nThe lock leaks on error."
    got = read({"path": "svc/lock.go", "line": 44, "body": body})
    assert where(got) == [("svc/lock.go", 44, "critical")]


@pytest.mark.parametrize("key", ["items", "results"])
def test_a_list_under_a_word_that_says_nothing_is_read_when_its_items_look_like_findings(
        key: str) -> None:
    got = read({key: [{"message": "The client has no timeout.", "level": "warning"},
                      {"text": "Cache key ignores the locale.", "file": "i18n.py", "line": 8}]})
    assert where(got) == [(None, None, "medium"), ("i18n.py", 8, None)]
    assert read({"items": [{"name": "apples", "count": 3}]}).findings == []


def test_impact_gives_the_severity_when_it_is_a_word_not_a_sentence() -> None:
    got = read({"issues": [{"title": "No timeout", "impact": "High"},
                           {"title": "Slow path", "impact": "Every request waits ten seconds"
                                                            " for the lock to clear."}]})
    assert where(got) == [(None, None, "critical"), (None, None, None)]


def test_a_location_written_as_a_path_and_a_line_pair() -> None:
    got = read({"issues": [{"title": "Unchecked cast", "location": ["core/cast.ts", 27]}]})
    assert where(got) == [("core/cast.ts", 27, None)]


def test_severity_groups_inside_categories_make_a_review() -> None:
    doc = {"security": {"high": [{"description": "Tokens reach the log."}]},
           "style": {"low": ["Trailing spaces in the template."]}}
    assert formats.review_json(json.dumps(doc)) is not None
    assert where(read(doc)) == [(None, None, "critical"), (None, None, "minor")]
    assert formats.review_json(json.dumps({"range": {"low": 1, "high": 9}})) is None


RABBIT = ("_\u26a0\ufe0f Potential issue_ | _\U0001f7e0 Major_\n\n"
          "**Close the file on the error path.**\n\nThe handle leaks when parsing fails.\n\n"
          "<details>\n<summary>\U0001f916 Prompt for AI Agents</summary>\n\n```\n"
          "Check the finding against the current code and fix it only if it still holds.\n\n"
          "In `@src/io/reader.py` around lines 30 - 34, the handle opened by load() is not\n"
          "closed when parse() raises; wrap it in a with block.\n```\n\n</details>\n\n"
          "<!-- This is an auto-generated comment by CodeRabbit -->")
GEMINI = ("![medium](https://example.invalid/medium-priority.svg)\n\n"
          "The retry count is read from the environment without a default.")


def test_bot_comments_saved_with_no_author_and_no_place_are_each_a_finding() -> None:
    got = read([{"id": 1, "body": RABBIT}, {"id": 2, "created_at": "2026-01-02", "body": GEMINI}])
    # the place CodeRabbit's prompt names (a range anchors at its last line), else none
    assert where(got) == [("src/io/reader.py", 34, "medium"), (None, None, "medium")]


def test_bot_comments_as_json_lines_of_bodies() -> None:
    raw = json.dumps({"body": GEMINI}) + "\n" + json.dumps({"body": RABBIT})
    assert where(read(raw)) == [(None, None, "medium"), ("src/io/reader.py", 34, "medium")]


def test_one_bot_comment_saved_as_text_takes_the_place_its_prompt_names() -> None:
    assert where(read(RABBIT)) == [("src/io/reader.py", 34, "medium")]


def test_bodies_that_are_no_bots_comments_are_no_review_data() -> None:
    assert formats.review_json(json.dumps([{"body": "Thanks, merged."},
                                           {"body": "See you tomorrow."}])) is None


def test_a_review_body_folding_several_prompts_takes_no_one_place() -> None:
    two = RABBIT + "\n\n" + RABBIT.replace("src/io/reader.py", "src/io/writer.py")
    got = read([{"user": {"login": "a-bot"}, "state": "COMMENTED", "body": two}])
    # the body is read as Markdown (code blocks are quotes): two findings, neither given
    # the place of one prompt
    assert [f.get("file") for f in got.findings] == [None, None]


# --------------------------------------------------------------------------- #
# Bounded, and never a crash
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize("doc", [
    {"concerns": "not a list"}, {"risks": [None, 3, [], {}]}, {"CRITICAL": [{"x": 1}]},
    {"findings": {"critical": "text", "minor": None}}, {"reviews": [{"plan_file": 7}]},
    {"a_decision": {"nested": True}}, {"reviewFeedback": 12},
    {"reviews": [{"plan_file": "a.md", "issues": "none"}]},
])
def test_odd_shapes_never_crash(doc: dict[str, Any]) -> None:
    read(doc)
    reviewer_json.grouped_findings(doc)


def test_many_reports_and_groups_are_read_in_bounded_time() -> None:
    doc = {f"report_{i}": {"weaknesses": [f"w{j}" for j in range(200)],
                           "CRITICAL": [{"description": "c"}] * 200} for i in range(40)}
    start = time.process_time()
    got = read(doc)
    assert time.process_time() - start < 20
    # one object down, the first 16 parts are looked into
    assert len(got.findings) == 16 * 400


# --------------------------------------------------------------------------- #
# An overall assessment that is the verdict phrase alone
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize(("doc", "verdict"), [
    ({"summary": {"overall_assessment": "approve_with_nits"}, "findings": []}, "APPROVE"),
    ({"overall_assessment": "request_changes", "findings": [{"title": "t", "file": "a.py"}]},
     "REVISE"),
    ({"assessment": "REJECT", "issues": []}, "REJECT"),
    # prose is a summary, and a verdict key or a gate comes first
    ({"overall_assessment": "The change looks good overall and can be merged",
      "findings": []}, "UNKNOWN"),
    ({"approved": True, "overall_assessment": "needs_work", "findings": []}, "APPROVE"),
    ({"verdict": "REVISE", "summary": {"overall_assessment": "approve"}, "findings": []},
     "REVISE"),
])
def test_an_overall_assessment_alone_is_the_verdict(doc: dict[str, Any], verdict: str) -> None:
    assert read(doc).verdict == verdict


@pytest.mark.parametrize(("doc", "want"), [
    ({"passesQualityGate": False, "summary": "Two checks fail.",
      "issues": ["The retry count is never reset."]}, "REVISE"),
    ({"review": {"isApproved": "yes", "notes": "Reads well."}}, "APPROVE"),
    ({"canMerge": False, "comments": [{"file": "db.py", "line": 4, "body": "Leaks."}]},
     "REVISE"),
    ({"shouldBlock": True, "reason": "The migration drops a column."}, "REVISE"),
    ({"should_block": "no", "reason": "Only comments changed."}, "APPROVE"),
    ({"ready_to_ship": True, "summary": "Small and tested."}, "APPROVE"),
])
def test_a_gate_in_camel_case_or_with_a_verb_is_read_as_a_gate(doc: dict[str, Any],
                                                                want: str) -> None:
    assert read(doc).verdict == want


def test_a_key_that_only_starts_like_a_gate_is_none() -> None:
    assert reviewer_json.gate_sense("is_draft") is None
    assert reviewer_json.gate_sense("passes") is True
    assert reviewer_json.gate_sense("") is None
    assert read({"isDraft": False, "summary": "Early look."}).verdict == "UNKNOWN"


# --------------------------------------------------------------------------- #
# A chat or agent answer whose message string is a plain-text review
# --------------------------------------------------------------------------- #
def test_key_lines_in_an_answer_message_are_read_as_the_plain_review() -> None:
    text = ("Looked at the two changed files.\n\n"
            "SEVERITY: high\nFILE: billing/charge.py:57\n"
            "ISSUE: The amount is rounded before the tax is added.\n"
            "ACTION: Round once, at the end.\n\n"
            "SEVERITY: low\nFILE: billing/notes.md:3\nISSUE: A typo in the heading.\n"
            "ACTION: Fix the spelling.")
    got = read({"agent": "reviewer", "message": text, "tokens": 812})
    assert [(f, n) for f, n, _ in where(got)] == [("billing/charge.py", 57),
                                                   ("billing/notes.md", 3)]
    assert where(got) == where(read(text))


def test_a_findings_list_in_a_nested_chat_message_is_read() -> None:
    text = ("FINDINGS:\n1. queue/worker.rs:210 drops the job when the send fails.\n"
            "2. queue/worker.rs:288 retries without a back-off.\n\nVerdict: REVISE")
    for doc in ({"model": "m", "message": {"role": "assistant", "content": text},
                 "done": True},
                {"choices": [{"index": 0, "message": {"role": "assistant", "content": text}}]}):
        got = read(doc)
        assert got.verdict == "REVISE"
        assert [(f, n) for f, n, _ in where(got)] == [("queue/worker.rs", 210),
                                                       ("queue/worker.rs", 288)]


def test_a_message_of_prose_alone_is_no_review() -> None:
    got = read({"message": "Thanks.\nI will look tomorrow.\nBye.", "id": 3})
    assert got.findings == []


# --------------------------------------------------------------------------- #
# A linter's scale as the value of an item's severity key
# --------------------------------------------------------------------------- #
def test_a_linters_word_under_a_severity_key_of_a_numbered_item_is_its_severity() -> None:
    text = ("## Findings\n\n"
            "1. `cli/args.go:23` The flag default is parsed twice.\n   Severity: error\n"
            "2. `cli/args.go:61` The help text is out of date.\n   Severity: Info\n"
            "3. `cli/args.go:90` Error handling of the parse is missing.\n")
    got = read(text)
    assert where(got) == [("cli/args.go", 23, "critical"), ("cli/args.go", 61, "minor"),
                          ("cli/args.go", 90, None)]


def test_a_linters_word_in_key_lines_is_the_severity() -> None:
    text = ("FILE: lib/pool.ex:40\nSEVERITY: ERROR\nISSUE: The pool never shrinks.\n\n"
            "FILE: lib/pool.ex:77\nSEVERITY: warning\nISSUE: The timeout is hard-coded.\n")
    assert where(read(text)) == [("lib/pool.ex", 40, "critical"), ("lib/pool.ex", 77, "medium")]
