"""The reviewer CLIs' output shapes as their current sources write them, and the verdict
keys and words met in reviewers' own texts this round (issue: read what real reviewers
print).  Every answer below is written for these tests; none is a reviewer's text."""

from __future__ import annotations

import json

import pytest

from council_filters.verdict import formats, reading, words


def read(raw: str) -> reading.Reading:
    return reading.read(raw.encode(), "tester")


def where(got: reading.Reading) -> list[tuple]:
    return [(f.get("file"), f.get("line"), f.get("severity")) for f in got.findings]


# --------------------------------------------------------------------------- #
# claude -p --json-schema: the structured answer is in structured_output
# --------------------------------------------------------------------------- #
def _claude(result: str, structured: object, **extra: object) -> str:
    obj = {"type": "result", "subtype": "success", "is_error": False, "duration_ms": 812,
           "num_turns": 3, "result": result, "session_id": "0b1c", "total_cost_usd": 0.04,
           "usage": {"input_tokens": 9, "output_tokens": 120}, "structured_output": structured,
           **extra}
    return json.dumps(obj, ensure_ascii=False)


SCHEMA_ANSWER = {"verdict": "FAIL", "issues": [
    {"severity": "P1", "file": "ledger/post.py", "line": 58,
     "description": "a posting is written twice when the retry fires after the commit"}]}


def test_an_empty_result_reads_the_structured_output() -> None:
    # with --json-schema the text result may be empty: the object is the answer
    raw = _claude("", SCHEMA_ANSWER)
    got = read(raw)
    assert formats.unwrap(raw).kind == "claude-json"
    assert got.verdict == "REVISE", got.warnings
    assert where(got) == [("ledger/post.py", 58, "critical")]


def test_a_result_without_a_verdict_takes_the_structured_verdict() -> None:
    # the prose result says what was checked but names no verdict; the schema's field does
    raw = _claude("Checked the posting path and the retry wrapper; see the issue list.",
                  SCHEMA_ANSWER)
    got = read(raw)
    assert got.verdict == "REVISE", got.warnings
    assert where(got) == [("ledger/post.py", 58, "critical")]
    assert not any("no verdict" in w.lower() for w in got.warnings)


def test_a_result_with_its_own_verdict_is_read_as_written() -> None:
    # the text states the verdict and a finding at its line: the text is the answer
    raw = _claude("**Verdict: APPROVE**\n\n- [P3] ledger/post.py:12 — a log line repeats "
                  "the amount", {"verdict": "PASS", "issues": []})
    got = read(raw)
    assert got.verdict == "APPROVE"
    assert where(got) == [("ledger/post.py", 12, "minor")]


def test_structured_output_that_is_not_a_review_is_not_read() -> None:
    raw = _claude("", {"title": "standup", "notes": ["shipped the parser"]})
    got = read(raw)
    assert got.verdict == "UNKNOWN" and got.findings == []


# --------------------------------------------------------------------------- #
# gemini --output-format json: an error object has no response and no stats
# --------------------------------------------------------------------------- #
def test_a_gemini_error_object_is_an_error_not_a_review() -> None:
    raw = json.dumps({"session_id": "9f2e", "error": {
        "type": "FatalAuthenticationError", "code": 41,
        "message": "No auth method set; src/settings.json:3 names none"}}, indent=2)
    got = read(raw)
    assert formats.unwrap(raw).kind == "gemini-json"
    assert got.verdict == "UNKNOWN"
    assert got.findings == []
    assert any("reported an error" in w for w in got.warnings)


def test_a_gemini_answer_with_a_warning_list_is_unwrapped() -> None:
    raw = json.dumps({"session_id": "9f2e", "response": "Verdict: REJECT\n\n- [P1] "
                      "cli/main.ts:4 — the token is logged", "warnings": ["slow disk"],
                      "stats": {"models": {}}})
    got = read(raw)
    assert got.verdict == "REJECT"
    assert where(got) == [("cli/main.ts", 4, "critical")]


# --------------------------------------------------------------------------- #
# codex exec --json as current builds print it
# --------------------------------------------------------------------------- #
def test_a_codex_stream_after_a_stdin_notice_with_the_newer_usage_keys() -> None:
    # a prompt given as an argument and on stdin makes codex print a notice first;
    # items may come without ids and usage now carries reasoning tokens
    lines = [
        "Reading additional input from stdin...",
        json.dumps({"type": "thread.started", "thread_id": "0198"}),
        json.dumps({"type": "turn.started"}),
        json.dumps({"type": "item.completed", "item": {"type": "reasoning", "text": "diff"}}),
        json.dumps({"type": "item.completed", "item": {
            "type": "agent_message", "text": "## Verdict\nREQUEST CHANGES\n\n- [P2] "
            "jobs/sweep.py:77 — the lock is never released on the error path"}}),
        json.dumps({"type": "turn.completed", "usage": {
            "input_tokens": 4000, "cached_input_tokens": 100, "output_tokens": 60,
            "reasoning_output_tokens": 20}}),
    ]
    raw = "\n".join(lines) + "\n"
    got_kind = formats.unwrap(raw)
    assert got_kind.kind == "codex-exec-json"
    assert got_kind.meta["usage"]["reasoning_output_tokens"] == 20
    got = read(raw)
    assert got.verdict == "REVISE"
    assert where(got) == [("jobs/sweep.py", 77, "medium")]


# --------------------------------------------------------------------------- #
# Verdict keys and words
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize("answer,vote", [
    ("**裁决：PASS**\n\n全部检查项通过。\n", "APPROVE"),
    ("## 裁决：FAIL\n\n### 阻塞原因\n\n- 缺少回滚测试\n", "REVISE"),
    ("**总裁决：PASS（8/8）**\n", "APPROVE"),
    ("## 最终裁决：**PASS**\n", "APPROVE"),
    ("裁決: 却下\n", "REJECT"),
])
def test_the_ruling_key_in_chinese(answer: str, vote: str) -> None:
    # 裁决 ("ruling") is how a judge-style reviewer states its verdict
    assert read(answer).verdict == vote


def test_a_sentence_about_a_ruling_is_not_a_key() -> None:
    got = read("本次裁决参考了上一轮的意见，结论见下文讨论。\n")
    assert got.verdict == "UNKNOWN"


@pytest.mark.parametrize("answer", [
    "Verdict: VERIFIED\n\nThe report matches the repository state.\n",
    "VERIFIED\n\n# Verification of the migration inventory\n\n**Verdict:** VERIFIED\n",
    "## Verdict\n\nVERIFIED.\n\nThe inventory matches the repository.\n",
])
def test_verified_under_a_verdict_key_approves(answer: str) -> None:
    assert read(answer).verdict == "APPROVE"


@pytest.mark.parametrize("answer", [
    "Status: VERIFIED\n",
    "All claims verified against the code.\n",
    "Verdict: UNVERIFIED\n",
])
def test_verified_elsewhere_is_no_verdict(answer: str) -> None:
    assert read(answer).verdict == "UNKNOWN"


def test_verified_is_a_verdict_key_word_only() -> None:
    assert words.vote_of("VERIFIED", strong=True) == "APPROVE"
    assert words.vote_of("VERIFIED", strong=False) is None


# --------------------------------------------------------------------------- #
# Review-comment records (the pull-request review comments API)
# --------------------------------------------------------------------------- #
def test_a_reply_in_a_comment_thread_is_not_a_finding() -> None:
    records = [
        {"id": 501, "path": "sync/pull.go", "line": 90, "original_line": 90, "side": "RIGHT",
         "user": {"login": "review-bot[bot]", "type": "Bot"},
         "body": "![high](https://example.invalid/badges/high-priority.svg)\n\n"
                 "The cursor is saved before the page is applied, so a crash skips a page."},
        {"id": 502, "path": "sync/pull.go", "line": 90, "in_reply_to_id": 501,
         "user": {"login": "maintainer", "type": "User"}, "body": "Good catch, fixed in a1b2c3."},
        {"id": 503, "path": ".github/workflows/nightly.yml", "line": None, "original_line": 7,
         "user": {"login": "review-bot[bot]", "type": "Bot"},
         "body": "**<sub><sub>![P2 Badge](https://img.shields.io/badge/P2-yellow)</sub></sub>"
                 "  Cache key ignores the lock file**\n\nEvery run restores a stale cache."},
    ]
    got = read(json.dumps(records, indent=1))
    assert where(got) == [("sync/pull.go", 90, "critical"),
                          (".github/workflows/nightly.yml", 7, "medium")]


# --------------------------------------------------------------------------- #
# Do not deploy / release until fixed; a Verdict key used for a remark
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize("answer", [
    "Recommendation: **Do not deploy to production until the two high issues are fixed.**\n",
    "**Verdict:** do not release before the migration is reversible\n",
    "Decision: Don't land this until the lock order is settled.\n",
])
def test_do_not_deploy_until_fixed_rejects(answer: str) -> None:
    # "do not merge" is a reject in the table; deploying, releasing, landing likewise
    assert read(answer).verdict == "REJECT"


def test_deploy_words_in_a_sentence_are_not_a_verdict() -> None:
    assert read("Recommendation: deploy behind a flag first.\n").verdict == "UNKNOWN"


def test_a_verdict_key_used_for_a_remark_does_not_cancel_the_verdict() -> None:
    answer = ("# Review of the importer\n\n**Verdict:** CONDITIONAL PASS (two items open)\n\n"
              "## What holds up\n\n- Parsing is covered by its tests.\n\n"
              "**Verdict:** The storage layer is well covered by its own tests.\n\n"
              "## Open items\n\n1. The retry loop has no ceiling.\n")
    assert read(answer).verdict == "REVISE"


@pytest.mark.parametrize("second", [
    "**Verdict:** TIMEOUT\n",
    "**Verdict:** We still need to discuss the migration before deciding.\n",
    "**Verdict:** see below\n",
])
def test_a_verdict_key_naming_no_verdict_still_makes_it_unknown(second: str) -> None:
    answer = "**Verdict:** APPROVE\n\n## Notes\n\n" + second
    got = read(answer)
    assert got.verdict == "UNKNOWN"


def test_a_remark_before_the_verdict_still_makes_it_unknown() -> None:
    # only a remark after the stated verdict is set aside
    answer = ("**Verdict:** The storage layer is well covered by its tests.\n\n"
              "**Verdict:** APPROVE\n")
    assert read(answer).verdict == "UNKNOWN"


# --------------------------------------------------------------------------- #
# Saved pull-request data: minified JSON, review threads, a PR's reviews and comments
# --------------------------------------------------------------------------- #
def test_a_minified_json_review_keeps_its_escapes() -> None:
    # one line of JSON whose strings hold \n escapes is JSON, not an answer to unescape
    doc = {"findings": [{"title": "[P1] The quota is checked after the write",
                         "body": "First line.\nSecond line.\nThird line.", "priority": 1,
                         "code_location": {"absolute_file_path": "/w/quota/check.py",
                                           "line_range": {"start": 19, "end": 22}}}],
           "overall_correctness": "patch is incorrect", "overall_explanation": "One bug."}
    raw = json.dumps(doc)
    assert "\n" not in raw and raw.count("\\n") >= 2
    got = reading.read(raw.encode(), "tester", "/w")
    assert got.verdict == "REVISE"
    assert where(got) == [("quota/check.py", 19, "critical")]


def _thread(path: str, line: object, resolved: bool, *bodies: str, **extra: object) -> dict:
    return {"isResolved": resolved, "isOutdated": False, "path": path, "line": line, **extra,
            "comments": {"nodes": [{"author": {"login": f"who{i}"}, "body": b}
                                   for i, b in enumerate(bodies)]}}


THREADS = [
    _thread("api/upload.py", 41, False,
            "![critical](https://example.invalid/critical.svg)\n\nThe size check runs after "
            "the whole body is read into memory."),
    _thread("api/auth.py", 12, True,
            "![medium](https://example.invalid/medium-priority.svg)\n\nThe token compare "
            "is not constant time."),
    _thread("web/form.tsx", None, False,
            "**<sub><sub>![P3 Badge](https://img.shields.io/badge/P3-blue)</sub></sub>  "
            "The label is not tied to its input**\n\nScreen readers cannot name the field.",
            "Will do.", originalLine=88),
]


@pytest.mark.parametrize("shape", ["graphql", "nodes", "minified"])
def test_review_threads_are_read_one_finding_each(shape: str) -> None:
    # `gh api graphql` over reviewThreads: a thread's place is its envelope's, its first
    # comment is the finding, a resolved thread is none, replies are discussion
    if shape == "nodes":
        raw = json.dumps(THREADS, indent=1)
    else:
        data = {"data": {"repository": {"pullRequest": {"reviewThreads": {"nodes": THREADS}}}}}
        raw = json.dumps(data, indent=None if shape == "minified" else 2)
    got = read(raw)
    assert where(got) == [("api/upload.py", 41, "critical"), ("web/form.tsx", 88, "minor")]
    assert "Will do" not in got.findings_text


def test_a_pull_requests_reviews_and_comments_are_read_as_reviews() -> None:
    # `gh pr view --json reviews,comments`: each body is a review in Markdown; a
    # bot's notice and a thank-you are no findings
    view = {"number": 7, "state": "OPEN",
            "reviews": [{"author": {"login": "review-bot"}, "state": "CHANGES_REQUESTED",
                         "body": "Two problems block this.\n\n- [P1] `sync/pull.go:90` — "
                                 "the cursor is saved before the page is applied.\n- [P2] "
                                 "`sync/push.go:14` — retries ignore Retry-After."}],
            "comments": [{"author": {"login": "notice-bot"},
                          "body": "> [!IMPORTANT]\n> Review skipped: the pull request is a "
                                  "draft.\n\nThanks for trying the bot!"},
                         {"author": {"login": "dev"}, "body": "Thanks, on it."}]}
    got = read(json.dumps(view, indent=2))
    assert where(got) == [("sync/pull.go", 90, "critical"), ("sync/push.go", 14, "medium")]
    # the review's state is GitHub's, not a verdict the reviewer wrote
    assert got.verdict == "UNKNOWN"


# --------------------------------------------------------------------------- #
# codex's review as its TUI prints it; the Cursor agent's stream
# --------------------------------------------------------------------------- #
def test_codex_tui_review_checkboxes_are_selections_not_fixes() -> None:
    # the TUI puts a selection box before each comment: checked or not, each is a finding
    answer = ("The pager drops a row.\n\nFull review comments:\n\n"
              "- [x] [P1] Cursor skips the first row of a page — /srv/co/api/page.py:30-31\n"
              "  The offset is added twice.\n\n"
              "- [ ] [P3] Docstring names the wrong unit — /srv/co/api/page.py:2-2\n"
              "  Says seconds, means ms.\n")
    got = reading.read(answer.encode(), "tester", "/srv/co")
    assert where(got) == [("api/page.py", 30, "critical"), ("api/page.py", 2, "minor")]


def test_a_checked_item_without_a_codex_place_is_still_a_done_item() -> None:
    answer = "## Findings\n\n- [x] [P1] Cursor skips the first row (fixed in 4d2e1a)\n"
    assert read(answer).findings == []


def test_the_cursor_agent_stream_with_tool_calls_is_unwrapped() -> None:
    # cursor-agent -p --output-format stream-json: claude's shapes plus tool_call events
    events = [
        {"type": "system", "subtype": "init", "session_id": "c1", "model": "m"},
        {"type": "user", "message": {"role": "user", "content": [
            {"type": "text", "text": "Verdict: APPROVE | REVISE | REJECT"}]}},
        {"type": "tool_call", "subtype": "started", "call_id": "t1",
         "tool_call": {"readToolCall": {"args": {"path": "ui/menu.ts"}}}},
        {"type": "tool_call", "subtype": "completed", "call_id": "t1",
         "tool_call": {"readToolCall": {"result": {"success": {}}}}},
        {"type": "assistant", "message": {"role": "assistant", "content": [
            {"type": "text", "text": "Verdict: REVISE\n\n- [P2] ui/menu.ts:31 — the menu "
                                     "closes before the click lands"}]}},
        {"type": "result", "subtype": "success", "is_error": False, "duration_ms": 9,
         "result": "Verdict: REVISE\n\n- [P2] ui/menu.ts:31 — the menu closes before the "
                   "click lands", "session_id": "c1"},
    ]
    raw = "\n".join(json.dumps(e) for e in events) + "\n"
    assert formats.unwrap(raw).kind == "claude-stream-json"
    got = read(raw)
    assert got.verdict == "REVISE"
    assert where(got) == [("ui/menu.ts", 31, "medium")]


# --------------------------------------------------------------------------- #
# Other JSON review shapes: groups named by severity, a wrapper key, a lone boolean,
# a linter's severity scale
# --------------------------------------------------------------------------- #
def test_findings_grouped_under_severity_keys() -> None:
    doc = {"verdict": "revise",
           "must_fix": [{"file": "ledger/post.py", "line": 4, "issue": "double posting"}],
           "should_fix": [{"file": "ledger/fees.py", "line": 5, "issue": "rounding"}],
           "nits": ["ledger/fees.py:9 rename the helper"]}
    got = read(json.dumps(doc, indent=2))
    assert got.verdict == "REVISE"
    assert where(got) == [("ledger/post.py", 4, "critical"), ("ledger/fees.py", 5, "medium"),
                          ("ledger/fees.py", 9, "minor")]


def test_blockers_alone_make_a_review_document() -> None:
    doc = {"blockers": [{"path": "auth/jwt.py", "line": 30, "description": "expiry unchecked",
                         "severity": "medium"}],
           "suggestions": [{"path": "auth/jwt.py", "line": 2, "description": "sort imports"}]}
    got = read(json.dumps(doc))
    # an item's own severity outranks its group's
    assert where(got) == [("auth/jwt.py", 30, "medium"), ("auth/jwt.py", 2, "minor")]
    assert got.verdict == "UNKNOWN"


def test_a_review_wrapped_in_one_key_is_read() -> None:
    doc = {"review": {"verdict": "approve_with_comments", "findings": [
        {"file": "cli/main.go", "line": 12, "severity": "low", "title": "flag help typo"}]}}
    got = read(json.dumps(doc))
    assert got.verdict == "APPROVE"
    assert where(got) == [("cli/main.go", 12, "minor")]


@pytest.mark.parametrize("doc,vote", [({"lgtm": True}, "APPROVE"), ({"approved": False},
                                                                      "REVISE")])
def test_a_lone_approval_boolean_is_a_verdict(doc: dict, vote: str) -> None:
    assert read(json.dumps(doc)).verdict == vote


def test_a_count_of_passed_checks_is_no_verdict() -> None:
    assert read(json.dumps({"passed": 12, "failed": 0})).verdict == "UNKNOWN"


def test_a_linters_severity_scale_in_json() -> None:
    doc = {"findings": [{"path": "src/a.ts", "line": 1, "severity": "error", "message": "m"},
                        {"path": "src/b.ts", "line": 2, "severity": "warning", "message": "m"},
                        {"path": "src/c.ts", "line": 3, "severity": "note", "message": "m"}]}
    assert where(read(json.dumps(doc))) == [("src/a.ts", 1, "critical"),
                                            ("src/b.ts", 2, "medium"), ("src/c.ts", 3, "minor")]
