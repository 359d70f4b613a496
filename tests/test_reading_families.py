"""The tolerant reader on one fixture per family of what reviewers print (issue: read what
real reviewers print): the CLIs' machine formats, an echoed prompt, verdict words and keys,
locations, what is not a finding, severity, and review-comment envelopes.  The fixtures
under tests/data/reviews/ are written for these tests."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from council_filters.verdict import formats, reading, words

DATA = Path(__file__).parent / "data" / "reviews"


def read(name: str, root: str | None = None) -> reading.Reading:
    return reading.read((DATA / name).read_bytes(), "tester", root)


def where(got: reading.Reading) -> list[tuple]:
    return [(f.get("file"), f.get("line"), f.get("severity")) for f in got.findings]


# --------------------------------------------------------------------------- #
# 1. The CLIs' machine formats
# --------------------------------------------------------------------------- #
FORMATS = [
    ("codex-exec.jsonl", "codex-exec-json", "REJECT", [("billing/refund.py", 41, "critical")]),
    ("claude.json", "claude-json", "REVISE", [("web/forms.py", 88, "medium")]),
    ("claude-verbose.json", "claude-json", "APPROVE", []),
    ("claude-stream.jsonl", "claude-stream-json", "REVISE", [("src/cache.py", 17, "medium")]),
    ("gemini.json", "gemini-json", "REVISE", [("api/routes/upload.py", 203, "critical")]),
    ("gemini-stream.jsonl", "gemini-stream-json", "REJECT",
     [("auth/session.py", 12, "critical")]),
    ("opencode.jsonl", "opencode-json", "REVISE", [("db/migrate/004.sql", 9, "medium")]),
    ("codex-review.json", "review-json", "REVISE",
     [("net/retry.py", 30, "critical"), ("net/retry.py", 52, "minor")]),
    ("generic-review.json", "review-json", "REVISE",
     [("export/csv.py", 12, "critical"), ("export/csv.py", 40, "medium")]),
    ("review-comments.json", "review-json", "UNKNOWN",
     [("pay/refund.py", 12, "critical"), ("pay/receipt.py", 30, "minor")]),
]


@pytest.mark.parametrize("name,kind,verdict,found", FORMATS)
def test_machine_formats_are_unwrapped(name: str, kind: str, verdict: str,
                                       found: list[tuple]) -> None:
    raw = (DATA / name).read_text()
    assert formats.unwrap(raw).kind == kind
    got = read(name, root="/srv/checkout")
    assert got.verdict == verdict, got.warnings
    assert where(got) == found


def test_a_stream_cut_inside_its_last_event_is_still_read() -> None:
    # an output cap can end a JSON Lines stream mid-object: the events before it stand
    data = (DATA / "codex-exec.jsonl").read_bytes().rstrip(b"\n")
    got = reading.read(data[:-12], "tester")
    assert got.verdict == "REJECT"
    assert where(got) == [("billing/refund.py", 41, "critical")]


def test_codex_plain_review_output() -> None:
    got = read("codex-review-plain.txt", root="/srv/checkout")
    assert where(got) == [("fmt/writer.go", 118, "critical"), ("fmt/parser.go", 77, "minor")]
    assert got.findings[0]["end_line"] == 121
    assert got.findings[1]["summary"] == "Reject the trailing comma"
    assert got.verdict == "UNKNOWN"  # codex's plain review states no verdict: none invented


def test_only_the_agent_message_is_the_answer() -> None:
    """A command's output or a tool result saying "Verdict: APPROVE" is not the answer."""
    assert read("codex-exec.jsonl").verdict == "REJECT"
    assert read("claude-stream.jsonl").verdict == "REVISE"


def test_terminal_escapes_are_removed_before_reading() -> None:
    got = read("ansi.txt")
    assert got.verdict == "REJECT"
    assert where(got) == [("app/upload.py", 57, "critical")]
    assert "\x1b" not in json.dumps(got.findings) and "\x07" not in got.findings[0]["summary"]


def test_cli_error_envelopes_say_so() -> None:
    raw = json.dumps({"type": "result", "subtype": "success", "is_error": True,
                      "result": "API Error: Rate limit reached", "session_id": "s"})
    got = reading.read(raw.encode())
    assert got.verdict == "UNKNOWN"
    assert any("reported an error" in w for w in got.warnings)
    events = [{"type": "thread.started", "thread_id": "t"},
              {"type": "turn.failed", "error": {"message": "usage limit"}}]
    got = reading.read("\n".join(json.dumps(e) for e in events).encode())
    assert got.verdict == "UNKNOWN" and any("reported an error" in w for w in got.warnings)


# --------------------------------------------------------------------------- #
# 2. Echoed prompts
# --------------------------------------------------------------------------- #
def test_an_echoed_pack_is_not_the_answer() -> None:
    got = read("echoed-pack.txt")
    assert got.verdict == "REJECT"
    assert where(got) == [("jobs/worker.py", 64, "critical")]


@pytest.mark.parametrize("value", [
    "APPROVE | REVISE | REJECT", "approve / bounce / needs clarification", "LGTM or CHANGES",
    "[GO / MODIFY / BLOCK]", "<verdict>", "APPROVED | CHANGES REQUIRED",
])
def test_an_enumeration_of_choices_is_never_a_verdict(value: str) -> None:
    assert words.vote_of(value) is None
    got = reading.read(f"Verdict: {value}\n".encode())
    assert got.verdict == "UNKNOWN"


# --------------------------------------------------------------------------- #
# 3. Verdict words and keys
# --------------------------------------------------------------------------- #
WORDS = [
    ("LGTM", "APPROVE"), ("approved", "APPROVE"), ("Ship it", "APPROVE"), ("GO", "APPROVE"),
    ("PASS", "APPROVE"), ("patch is correct", "APPROVE"), ("Approved with suggestions", "APPROVE"),
    ("CONDITIONAL PASS", "REVISE"), ("request changes", "REVISE"),
    ("Changes requested", "REVISE"), ("needs work", "REVISE"), ("NO-GO", "REVISE"),
    ("NO_GO", "REVISE"), ("approve with changes", "REVISE"), ("APPROVE_WITH_CHANGES", "REVISE"),
    ("PASS-WITH-FIXES.", "REVISE"), ("patch is incorrect", "REVISE"),
    ("do-not-merge", "REJECT"), ("Blocker", "REJECT"), ("REJECTED", "REJECT"),
    ("CONDITIONAL", "REVISE"), ("Green light for deployment", "APPROVE"),
]


@pytest.mark.parametrize("value,vote", WORDS)
def test_the_verdict_word_table(value: str, vote: str) -> None:
    assert words.vote_of(value) == vote
    assert reading.read(f"**Verdict:** {value}\n".encode()).verdict == vote


@pytest.mark.parametrize("key", ["Overall assessment", "Status", "Recommendation", "Decision"])
def test_other_verdict_keys(key: str) -> None:
    assert reading.read(f"**{key}:** REQUEST_CHANGES\n".encode()).verdict == "REVISE"
    # such a key that names no verdict is not one ("Status: in progress")
    got = reading.read(f"{key}: in progress\n".encode())
    assert got.verdict == "UNKNOWN" and reading.NO_VERDICT in got.warnings


def test_prose_only_gives_no_verdict() -> None:
    got = read("prose-only.md")
    assert got.verdict == "UNKNOWN" and reading.NO_VERDICT in got.warnings


def test_verdict_heading_value_on_a_later_line() -> None:
    got = read("verdict-heading.md")
    assert got.verdict == "REVISE"
    assert where(got) == [("importer/map.py", 45, "critical"), ("importer/map.py", 70, "critical")]


def test_verdict_glued_after_other_text() -> None:
    text = "**Reviewer:** second pass, 3 May. **Verdict:** APPROVE the migration as written.\n"
    assert reading.read(text.encode()).verdict == "APPROVE"
    # inside a code span it is an example, not the reviewer's verdict
    assert reading.read(b"Write `verdict: LGTM` only when the gate passes.\n").verdict == \
        "UNKNOWN"


def test_one_line_with_literal_newline_escapes() -> None:
    got = read("one-line-escaped.txt")
    assert got.verdict == "REVISE"
    assert where(got) == [("lib/dates.py", 31, "medium")]


def test_the_last_round_is_current() -> None:
    assert read("rounds.md").verdict == "APPROVE"


def test_quoted_verdicts_are_not_the_reviewers() -> None:
    got = read("quoted-verdict.md")
    assert got.verdict == "REJECT"
    assert [f["file"] for f in got.findings] == ["docs/release.md", "ci/gate.sh"]


def test_conflicting_verdict_keys_give_unknown_with_a_warning() -> None:
    got = read("conflicting-keys.md")
    assert got.verdict == "UNKNOWN"
    assert reading.CONFLICT in got.warnings


# --------------------------------------------------------------------------- #
# 4. Locations
# --------------------------------------------------------------------------- #
def test_location_families() -> None:
    got = read("locations.md")
    assert [(f.get("file"), f.get("line")) for f in got.findings] == [
        (".github/workflows/release.yml", 14),
        ("config/defaults.toml", 22),
        ("store/db/cursor.py", 8),
        ("store/pager.py", 5),
        ("store/cache/ttl.py", 238),
        ("store/db/errors.py", 19),
        ("store/api/handlers.py", 101),
        ("store/sync/locks.py", 33),
        ("README.md", None),
        ("store/jobs/schedule.py", 339),
        ("store/jobs/queue.py", 57),
    ]
    assert got.findings[2]["end_line"] == 11
    assert got.findings[-1]["severity"] == "critical"


def test_absolute_paths_are_made_relative_to_the_root(tmp_path: Path) -> None:
    text = f"Verdict: REVISE\n\n- [P2] {tmp_path}/src/a.py:3 — an absolute path\n"
    got = reading.read(text.encode(), "x", str(tmp_path))
    assert where(got) == [("src/a.py", 3, "medium")]
    other = reading.read(text.encode(), "x", "/somewhere/else")
    assert other.findings[0]["file"] == f"{tmp_path}/src/a.py"


# --------------------------------------------------------------------------- #
# 5. What is not a finding
# --------------------------------------------------------------------------- #
def test_what_is_not_a_finding() -> None:
    got = read("not-findings.md")
    assert where(got) == [("server/limits.py", 77, "minor")]
    assert got.verdict == "APPROVE"


def test_what_was_reviewed_checked_or_ruled_out_is_not_a_finding() -> None:
    # a list of the files read (with line ranges), "None." under a severity heading, the
    # evidence, what was ruled out, what was checked clean; a Verdict heading over counts
    got = read("reviewed-inventory.md")
    assert where(got) == [("store/pager.py", 52, "critical")]
    assert got.verdict == "REVISE"  # "Review verdict: CONDITIONAL"


def test_a_form_to_fill_in_has_no_findings() -> None:
    # a verdict key offering choices makes the text a form: its example rows, placeholder
    # findings and severity guide are no one's findings
    got = read("review-form.md")
    assert got.findings == []
    assert got.verdict == "UNKNOWN"


def test_a_text_that_is_not_a_review_has_no_unplaced_findings() -> None:
    # a to-do list and a reading list keyed [P1], [P2]: nothing says they review anything
    got = read("not-a-review.md")
    assert got.findings == []


def test_definitions_of_checks_are_not_findings() -> None:
    # a catalogue of rules ("### SEC-001" + Severity + Detects) and a badge legend
    got = read("rule-catalogue.md")
    assert got.findings == []


def test_back_references_and_dispositions_are_not_new_findings() -> None:
    # "#1 - title: fix" lists and a "what I did" table restate the table's findings
    got = read("restated-findings.md")
    assert where(got) == [
        ("export/csv.py", 12, "critical"),
        ("export/csv.py", 40, "medium"),
        ("export/cli.py", 8, "minor"),
    ]


def test_tagged_paragraphs_required_changes_and_file_headers() -> None:
    got = read("tagged-paragraphs.md")
    assert where(got) == [
        ("web/page.tsx", 43, "critical"),  # [BLOCK]; its bullets are its body
        ("web/page.tsx", 90, "medium"),
        ("web/api/client.ts", 30, "critical"),  # a "Line(s):" field
        ("web/lock.ts", None, "critical"),  # under "Minimum Required Changes"
        (None, None, "minor"),  # "(not blocking, but should be addressed)"; praise skipped
        ("web/api/upload.ts", None, "critical"),  # a line naming only a file places it
    ]
    assert got.findings[0]["end_line"] == 45
    assert got.verdict == "REVISE"


def test_what_a_reviewer_is_asked_to_write_is_not_a_finding() -> None:
    # a guide: "For each finding provide:" then field names; "Provide one of:" then verdicts
    got = read("review-guide.md")
    assert got.findings == []
    assert got.verdict == "UNKNOWN"


def test_a_list_introduced_as_findings_is_still_read() -> None:
    # "List of issues found:" names what follows; it does not ask for it
    text = "Verdict: REVISE\n\nList of issues found:\n\n- [P1] a.py:3 — the cache never expires\n"
    got = reading.read(text.encode(), "x")
    assert where(got) == [("a.py", 3, "critical")]


def test_finding_ids_same_file_and_phrase_severities() -> None:
    # "### R1 — ..." is a finding's id (not round 1); "Where: Same file" is the file before;
    # "Severity: must-fix" is critical; a title naming "Fixes" is not a findings section
    got = read("finding-ids.md")
    assert where(got) == [
        ("deploy/rollout.yaml", None, "critical"),
        ("deploy/rollout.yaml", None, "minor"),
    ]
    assert got.verdict == "REVISE"


def test_a_title_and_the_parts_of_a_finding_are_not_findings() -> None:
    # the document's title with a Severity field but no place is what the text is about;
    # "#### Problem" and its ✓/✗ bullets are parts of "Issue 1"
    got = read("title-and-parts.md")
    assert where(got) == [(None, None, "critical")]
    assert got.findings[0]["summary"].startswith("Issue 1: Tokens survive")


# --------------------------------------------------------------------------- #
# 6. Severity
# --------------------------------------------------------------------------- #
def test_severity_from_headings_tags_and_badges() -> None:
    got = read("severity-sections.md")
    assert where(got) == [
        ("pay/charge.py", 10, "critical"),
        ("pay/charge.py", 44, "critical"),
        ("pay/receipt.py", 8, "medium"),
        ("pay/receipt.py", 30, "minor"),
        ("pay/README.md", 1, None),  # a heading's severity ends where its section ends
        ("pay/refund.py", 12, "critical"),
        ("pay/refund.py", 40, "minor"),
        ("pay/refund.py", 66, "critical"),
        ("pay/refund.py", 80, "medium"),
    ]


# --------------------------------------------------------------------------- #
# 7. Review-comment bodies
# --------------------------------------------------------------------------- #
def test_a_review_comment_keeps_its_envelope_location() -> None:
    got = read("review-comment.md")
    assert where(got) == [("pay/refund.py", 12, "critical")]
    assert got.findings[0]["summary"].startswith("Refunds bypass the fraud check")


# --------------------------------------------------------------------------- #
# Bad answers
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize("answer", [
    "{\"a\":" * 5000,
    "[" * 100_000,
    "> " * 5000 + "Verdict: APPROVE",
    "- " * 5000 + "a.py:1 — x",
    json.dumps({"verdict": "REJECT", "findings": [{"file": "a.py", "line": 10 ** 30,
                                                    "summary": "huge"}]}),
    "Verdict: REJECT\n- [P1] a.py:12-" + "9" * 30 + " — a huge range\n",
    "Verdict: REJECT\n- [P1] a.py:1:" + "9" * 6000 + " — a huge column\n",
])
def test_a_bad_answer_never_crashes_the_command(answer: str, tmp_path: Path) -> None:
    f = tmp_path / "answer.txt"
    f.write_text(answer)
    res = subprocess.run([sys.executable, "-m", "council_filters.cli.parse_verdict",
                          "--reviewer", "x", str(f)], capture_output=True, timeout=120)
    assert res.returncode == 0, res.stderr[-400:]
    rec = json.loads(res.stdout)
    assert rec["verdict"] in ("UNKNOWN", "REJECT", "APPROVE")
    for finding in rec["findings"]:
        for key in ("line", "end_line", "column"):
            assert finding.get(key, 1) < 2 ** 63
