"""Verdict files (issue: read what real reviewers print, items 1 and 3): JSON that a review
bot or agent saves with a verdict or gate key beside findings written in shapes of its
own: a verdict value naming the changes asked for, a gate such as ``ship``, findings
split into blocking and non-blocking lists, findings written as a list inside a text
value, a finding that opens with its file, a place given by a list of related files and
the line its evidence quotes.  Every document below is written for these tests; none is
a reviewer's text."""

from __future__ import annotations

import json
from typing import Any

import pytest

from council_filters.verdict import reading


def read(doc: Any) -> reading.Reading:
    raw = doc if isinstance(doc, str) else json.dumps(doc)
    return reading.read(raw.encode(), "tester")


def where(got: reading.Reading) -> list[tuple[Any, Any]]:
    return [(f.get("file"), f.get("line")) for f in got.findings]


# --------------------------------------------------------------------------- #
# Verdict values and gates
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize(("doc", "verdict"), [
    ({"schema": "bot.verdict.v2", "verdict": "changes", "summary": "See the threads."},
     "REVISE"),
    ({"review": {"verdict": "CHANGES", "notes": "two fixes wanted"}, "run": 4}, "REVISE"),
    ({"verdict": "CLEAR", "findings": []}, "APPROVE"),
    ({"result": {"decision": "cleared"}, "findings": []}, "APPROVE"),
])
def test_a_verdict_value_naming_the_changes_or_a_cleared_gate_is_read(
        doc: dict[str, Any], verdict: str) -> None:
    assert read(doc).verdict == verdict


@pytest.mark.parametrize(("doc", "verdict"), [
    ({"ship": "no", "issues": [{"file": "app/cart.py", "line": 8,
                                "message": "Totals are rounded twice."}]}, "REVISE"),
    ({"ship_it": True, "findings": []}, "APPROVE"),
    ({"can_merge": False, "problems": ["The lock file is stale."]}, "REVISE"),
    ({"safe_to_merge": "yes", "comments": []}, "APPROVE"),
])
def test_a_ship_or_merge_gate_is_the_verdict(doc: dict[str, Any], verdict: str) -> None:
    assert read(doc).verdict == verdict


@pytest.mark.parametrize("doc", [
    {"pass": 12, "fail": 0, "duration_ms": 800},
    {"ship": "maybe", "issues": []},
    {"verdict": 3, "issues": []},
])
def test_a_count_of_passes_or_a_number_is_no_verdict(doc: dict[str, Any]) -> None:
    assert read(doc).verdict == "UNKNOWN"


# --------------------------------------------------------------------------- #
# Blocking and non-blocking lists
# --------------------------------------------------------------------------- #
def test_non_blocking_findings_beside_blocking_ones_are_read_as_minor() -> None:
    got = read({
        "verdict": "changes",
        "blocking": ["web/login.ts:21 trusts the client's role claim"],
        "non_blocking": ["web/login.ts:40 could reuse the shared spinner"],
    })
    assert where(got) == [("web/login.ts", 21), ("web/login.ts", 40)]
    assert [f.get("severity") for f in got.findings] == ["critical", "minor"]


def test_non_blocking_findings_inside_a_findings_object_are_read() -> None:
    got = read({
        "decision": "approve",
        "findings": {"blocking": [],
                     "nonBlocking": [{"path": "docs/setup.md", "line": 3,
                                      "detail": "The port in the example is wrong."}]},
    })
    assert where(got) == [("docs/setup.md", 3)]
    assert got.findings[0].get("severity") == "minor"


# --------------------------------------------------------------------------- #
# Findings written as a list inside a text value
# --------------------------------------------------------------------------- #
def test_a_verdict_files_numbered_summary_holds_its_findings() -> None:
    got = read({
        "verdict": "changes",
        "summary": "Two fixes are needed before this lands:\n"
                   "1. scheduler.go drops the job when the queue is full.\n"
                   "2. The retry banner promises a retry that never happens.\n"
                   "Ask again once both are done.",
    })
    assert got.verdict == "REVISE"
    assert where(got) == [("scheduler.go", None), (None, None)]


def test_a_markdown_list_under_a_details_key_of_a_failed_review_is_read() -> None:
    got = read({
        "review_status": "FAIL",
        "details": "## What blocks\n- `api/export.py:88` streams the whole table into memory\n"
                   "- the CSV header is translated, which breaks importers\n",
    })
    assert got.verdict == "REVISE"
    assert where(got) == [("api/export.py", 88), (None, None)]


def test_a_findings_key_holding_text_is_read_whatever_the_verdict() -> None:
    got = read({"approved": True, "issues": "* cli/main.rs:12 prints the token in debug mode"})
    assert got.verdict == "APPROVE"
    assert where(got) == [("cli/main.rs", 12)]


def test_an_approving_summary_that_lists_the_changes_holds_no_findings() -> None:
    got = read({
        "verdict": "approve",
        "summary": "This change:\n1. adds a cache for the price lookups\n"
                   "2. moves the config loader to its own module\n",
    })
    assert got.verdict == "APPROVE"
    assert got.findings == []


def test_a_findings_list_is_not_read_twice_from_the_summary() -> None:
    got = read({
        "verdict": "REQUEST_CHANGES",
        "findings": [{"file": "lib/pay.rb", "line": 5, "message": "Refunds skip the audit log."}],
        "summary": "Problems:\n- lib/pay.rb:5 refunds skip the audit log\n- also see above\n",
    })
    assert where(got) == [("lib/pay.rb", 5)]


def test_settled_text_is_not_read_for_findings() -> None:
    got = read({
        "verdict": "changes",
        "resolved_issues": "1. a.py:3 fixed earlier\n2. b.py:4 fixed earlier",
        "summary": "One thing left: the changelog entry is missing.",
    })
    assert got.verdict == "REVISE"
    assert got.findings == []


# --------------------------------------------------------------------------- #
# A finding that opens with its file; a place from related files and evidence
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize(("text", "place"), [
    ("theme.css hard-codes the brand colour.", ("theme.css", None)),
    ("`deploy/values.yaml` sets no memory limit", ("deploy/values.yaml", None)),
    ("console.log calls are left in the handler", (None, None)),
    ("user.id is compared as a string", (None, None)),
    ("The parser in lexer.rs loops on a lone quote", (None, None)),
])
def test_a_text_finding_takes_the_file_it_opens_with(text: str, place: tuple[Any, Any]) -> None:
    got = read({"verdict": "FAIL", "problems": [text]})
    assert where(got) == [place]


def test_the_first_related_file_is_the_findings_place() -> None:
    got = read({"issues": [
        {"summary": "Helper is never called", "related_files": ["src/util/fmt.rs", "src/a.rs"]},
        {"summary": "Doc comment is stale", "affected_paths": ["pkg/db/conn.go"]},
    ]})
    assert where(got) == [("src/util/fmt.rs", None), ("pkg/db/conn.go", None)]


@pytest.mark.parametrize(("evidence", "line"), [
    (["Line 17: #[allow(dead_code)] fn helper()"], 17),
    ("L42: let x = y.unwrap();", 42),
    ("lines 8-9 repeat the query", 8),
    (["The helper at the top of the file"], None),
])
def test_the_line_a_findings_evidence_opens_with_places_it(evidence: Any,
                                                            line: int | None) -> None:
    got = read({"issues": [{"summary": "Dead helper", "file": "src/x.rs",
                            "evidence": evidence}]})
    assert where(got) == [("src/x.rs", line)]


def test_a_line_of_its_own_outranks_the_evidence() -> None:
    got = read({"issues": [{"summary": "Dead helper", "file": "src/x.rs", "line": 5,
                            "evidence": ["Line 17: fn helper()"]}]})
    assert where(got) == [("src/x.rs", 5)]


@pytest.mark.parametrize(("key", "found"), [
    ("reasons", [("web/auth.ts", 30), (None, None)]),
    ("notes", [("web/auth.ts", 30), (None, None)]),
    ("files_reviewed", []),
    ("next_steps", []),
    ("resolved", []),
])
def test_a_failing_verdicts_list_of_sentences_holds_its_findings(
        key: str, found: list[tuple[Any, Any]]) -> None:
    got = read({"verdict": "FAIL",
                key: ["web/auth.ts:30 keeps the session after logout",
                      "The expiry path has no test"]})
    assert got.verdict == "REVISE"
    assert where(got) == found


def test_a_list_of_paths_is_no_finding_list() -> None:
    got = read({"verdict": "FAIL", "touched": ["a/b.py", "a/c.py"], "summary": "Red build."})
    assert got.findings == []


def test_an_approving_verdicts_notes_are_no_findings() -> None:
    got = read({"verdict": "approve", "notes": ["Tidy change.", "Tests are clear."]})
    assert got.verdict == "APPROVE" and got.findings == []


# --------------------------------------------------------------------------- #
# The verdict in a wrapper, the findings beside it
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize("doc", [
    {"review": {"verdict": "FAIL", "model": "m"},
     "report": {"issues": [{"file": "q/run.py", "line": 4, "message": "Leaks the pool."}]}},
    {"result": {"decision": "changes_requested"},
     "problems": [{"loc": "q/run.py:4", "summary": "Leaks the pool."}]},
])
def test_a_verdict_in_its_wrapper_keeps_the_findings_beside_it(doc: dict[str, Any]) -> None:
    got = read(doc)
    assert got.verdict == "REVISE"
    assert where(got) == [("q/run.py", 4)]


def test_a_verdict_object_states_its_value() -> None:
    assert read({"verdict": {"value": "FAIL", "by": "gate"}, "issues": []}).verdict == "REVISE"


# --------------------------------------------------------------------------- #
# A verdict file whose review is written in Markdown in one of its values
# --------------------------------------------------------------------------- #
def test_a_markdown_review_beside_an_approving_verdict_is_read_for_its_findings() -> None:
    got = read({"verdict": "APPROVE",
                "review": "## Suggestions\n- `ui/nav.tsx:3` the menu label is hard-coded\n"
                          "- `ui/nav.tsx:19` the focus ring is removed\n"})
    assert got.verdict == "APPROVE"
    assert where(got) == [("ui/nav.tsx", 3), ("ui/nav.tsx", 19)]
    assert {f.get("severity") for f in got.findings} == {"minor"}


def test_a_markdown_body_keeps_the_severity_its_headings_give() -> None:
    got = read({"decision": "REQUEST_CHANGES",
                "body": "### Critical\n1. **Unbounded upload** in `srv/upload.go:40`\n\n"
                        "### Later\nNothing else stands out.\n"})
    assert got.verdict == "REVISE"
    assert [(f.get("file"), f.get("line"), f.get("severity")) for f in got.findings] == [
        ("srv/upload.go", 40, "critical")]


def test_a_markdown_report_of_what_changed_holds_no_findings() -> None:
    got = read({"verdict": "APPROVE",
                "report": "## What changed\n- adds a cache for prices\n- moves the loader\n\n"
                          "Looks good."})
    assert got.verdict == "APPROVE" and got.findings == []


# --------------------------------------------------------------------------- #
# Verdict files appended one a round
# --------------------------------------------------------------------------- #
ROUND_1 = {"verdict": "changes", "summary": "Still to fix:\n1. jobs/sync.py retries forever\n"
                                            "2. jobs/mail.py sends twice\n"}
ROUND_2 = {"verdict": "approve", "summary": "Both fixes are in."}
ROUND_3 = {"decision": "reject", "blocking": ["jobs/sync.py:9 deletes the queue"]}


@pytest.mark.parametrize(("rounds", "verdict", "found"), [
    ([ROUND_1, ROUND_2], "APPROVE", []),
    ([ROUND_2, ROUND_1], "REVISE", [("jobs/sync.py", None), ("jobs/mail.py", None)]),
    ([ROUND_1, ROUND_2, ROUND_3], "REJECT", [("jobs/sync.py", 9)]),
])
def test_the_last_of_verdict_files_written_one_a_line_is_current(
        rounds: list[dict[str, Any]], verdict: str, found: list[tuple[Any, Any]]) -> None:
    for sep in ("\n", "\n\n"):
        text = sep.join(json.dumps(r, indent=2 if sep == "\n\n" else None) for r in rounds)
        got = read(text)
        assert got.verdict == verdict
        assert where(got) == found


def test_findings_one_a_line_with_their_own_verdicts_stay_findings() -> None:
    text = "\n".join(json.dumps({"file": f"m/{i}.py", "line": i, "verdict": v,
                                 "message": "checked"}) for i, v in ((1, "PASS"), (2, "FAIL")))
    got = read(text)
    assert got.verdict == "UNKNOWN"
    assert where(got) == [("m/1.py", 1), ("m/2.py", 2)]


def test_an_array_of_verdict_records_gives_no_verdict() -> None:
    got = read([{"commit": "a1", "verdict": "PASS"}, {"commit": "b2", "verdict": "FAIL"}])
    assert got.verdict == "UNKNOWN"


# --------------------------------------------------------------------------- #
# A finding whose text sits under a key of its own naming
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize("key", ["note", "explanation", "observation", "rationale"])
def test_a_findings_prose_under_a_key_of_its_own_naming_is_its_text(key: str) -> None:
    got = read({"verdict": "FAIL", "issues": [
        {"file": "core/queue.c", "line": 61, "id": "Q-7", "category": "memory",
         key: "The node is freed before it is unlinked."}]})
    assert where(got) == [("core/queue.c", 61)]
    assert got.findings[0]["summary"] == "The node is freed before it is unlinked."


def test_labels_dates_and_links_are_no_findings_text() -> None:
    got = read({"verdict": "FAIL", "issues": [
        {"file": "core/queue.c", "status": "open", "category": "memory safety",
         "created_at": "2026-01-02 10:00", "url": "https://example.invalid/q 7"}]})
    assert got.findings == []


# --------------------------------------------------------------------------- #
# Located comments under a key of the verdict file's own naming
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize("key", ["annotations", "inline", "notes", "threads"])
def test_located_comments_under_a_key_of_its_own_naming_are_findings(key: str) -> None:
    got = read({"verdict": "changes", key: [
        {"path": "etl/load.sql", "line": 14, "body": "The upsert ignores the tenant column."},
        {"file": "etl/run.sh", "line": 2, "text": "set -e is missing."}]})
    assert got.verdict == "REVISE"
    assert where(got) == [("etl/load.sql", 14), ("etl/run.sh", 2)]


@pytest.mark.parametrize("key", ["files", "files_reviewed", "resolved_threads"])
def test_a_list_that_says_it_holds_no_findings_is_not_read_as_comments(key: str) -> None:
    got = read({"verdict": "approve", key: [
        {"path": "etl/load.sql", "text": "Read in full, nothing to add."}]})
    assert got.findings == []


@pytest.mark.parametrize(("line", "want"), [
    ("~40", 40), ("line ~40", 40), ("around line 9", 9), ("approx. 88", 88),
    ("\u2248 12", 12), ("near L7", 7), ("about", None),
])
def test_an_approximate_line_reads_as_that_line(line: str, want: int | None) -> None:
    got = read({"verdict": "FAIL", "issues": [{"file": "ops/cron.py", "line": line,
                                               "message": "The job runs twice."}]})
    assert where(got) == [("ops/cron.py", want)]


@pytest.mark.parametrize(("flags", "severity"), [
    ({"blocking": True}, "critical"), ({"is_blocker": "yes"}, "critical"),
    ({"blocking": False}, None), ({"blocking": True, "severity": "low"}, "minor"),
])
def test_a_findings_blocking_flag_makes_it_critical_when_no_severity_is_given(
        flags: dict[str, Any], severity: str | None) -> None:
    got = read({"verdict": "changes", "issues": [{"file": "k/a.go", "line": 3,
                                                  "message": "The retry loop never ends.",
                                                  **flags}]})
    assert got.findings[0].get("severity") == severity


# --------------------------------------------------------------------------- #
# A verdict under a run's key; a pass gate; a findings key holding one sentence
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize(("doc", "verdict", "found"), [
    ({"result": "CONCERNS", "concerns": "store/cache.go:44 holds the lock across I/O"},
     "REVISE", [("store/cache.go", 44)]),
    ({"outcome": "BLOCK", "reasons": ["store/cache.go:44 holds the lock across I/O"]},
     "REVISE", [("store/cache.go", 44)]),
    ({"pass": False, "reasons": ["store/cache.go:44 holds the lock", "The docs are stale"]},
     "REVISE", [("store/cache.go", 44), (None, None)]),
    ({"status": "PASS", "summary": "All three changes are sound and tested."}, "APPROVE", []),
])
def test_a_verdict_under_a_runs_key_with_text_beside_it_is_a_verdict_file(
        doc: dict[str, Any], verdict: str, found: list[tuple[Any, Any]]) -> None:
    got = read(doc)
    assert got.verdict == verdict
    assert where(got) == found


@pytest.mark.parametrize("doc", [
    {"status": "success", "message": "Workflow finished in three minutes"},
    {"status": "FAIL", "tests": 3},
    {"result": "CONCERNS"},
])
def test_a_run_state_or_a_bare_result_is_no_verdict_file(doc: dict[str, Any]) -> None:
    assert read(doc).verdict == "UNKNOWN"


@pytest.mark.parametrize(("text", "found"), [
    ("None found.", []), ("No issues were found", []), ("N/A", []),
    ("No test covers api/x.py:3", [("api/x.py", 3)]),
])
def test_a_findings_key_holding_one_sentence_is_one_finding_unless_it_says_none(
        text: str, found: list[tuple[Any, Any]]) -> None:
    assert where(read({"verdict": "approve", "issues": text})) == found


# --------------------------------------------------------------------------- #
# Bot comments saved keyed by file; a line written as a span
# --------------------------------------------------------------------------- #
def test_comments_saved_keyed_by_file_keep_their_files_and_lines() -> None:
    got = read({"svc/pay.go": [{"line": 12, "message": "The refund is not idempotent."}],
                "README.md": [{"line": 3, "body": "The install step names the wrong flag."},
                              {"line": 30, "text": "The badge links to a fork."}]})
    assert where(got) == [("svc/pay.go", 12), ("README.md", 3), ("README.md", 30)]


@pytest.mark.parametrize("doc", [
    {"svc": [{"line": 12, "message": "The refund is not idempotent."}]},
    {"svc/pay.go": [{"message": "The refund is not idempotent."}]},
])
def test_keys_that_are_no_files_or_comments_with_no_line_are_no_such_map(
        doc: dict[str, Any]) -> None:
    assert read(doc).findings == []


@pytest.mark.parametrize(("line", "want"), [("12-18", 12), ("L12-L18", 12), ("12..18", 12)])
def test_a_saved_comments_line_written_as_a_span_is_its_first_line(line: str, want: int) -> None:
    got = read([{"path": "svc/pay.go", "line": line, "body": "The refund is not idempotent.",
                 "user": {"login": "review-bot[bot]"}}])
    assert where(got) == [("svc/pay.go", want)]


@pytest.mark.parametrize("state", ["passed", "failed", "Failure", "OK"])
def test_a_test_runs_state_under_a_runs_key_makes_no_verdict_file(state: str) -> None:
    assert read({"status": state, "message": "All 123 tests ran in 3.2 seconds"}).verdict \
        == "UNKNOWN"
