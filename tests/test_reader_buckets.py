"""Findings grouped in buckets by how soon to act, not by a severity word (issue: every
finding at its real place): "Must" / "Should" / "Could" / "Polish", "Blocking" /
"Non-blocking" / "Follow-ups", "Smaller items", "Other notes", as headings, bold lines or
`Label:` lines, hold findings of the severity the bucket table gives; a plain list under a
review's bare title ("# Code review", "## Review") is its findings.  Praise, questions,
summaries and settled items still hold none.  Every review below is written for these
tests; none is a reviewer's text."""

from __future__ import annotations

import pytest

from council_filters.verdict import document, reading


def read(text: str) -> list[tuple]:
    got = reading.read(text.encode(), "tester")
    return [(f.get("file"), f.get("line"), f.get("severity")) for f in got.findings]


def summaries(text: str) -> list[str]:
    return [str(f.get("summary", "")) for f in reading.read(text.encode(), "tester").findings]


MOSCOW = """Verdict: REVISE

## Must

- The retry loop never backs off, so a dead upstream is called in a tight loop.
- `store/ledger.py:88` drops the last entry when the page is full.

## Should

- The settings file is parsed twice on start-up.

## Could

- `README.md:12` still documents the removed `--fast` flag.

## Polish

- Two helpers in the same module differ only by a trailing underscore.
"""


def test_moscow_headings_hold_findings_of_their_bucket_severity() -> None:
    assert read(MOSCOW) == [
        (None, None, "critical"), ("store/ledger.py", 88, "critical"),
        (None, None, "medium"), ("README.md", 12, "minor"), (None, None, "minor")]


LABELS = """Verdict: REVISE

**Blocking:**
- The migration drops the `email` column before copying its values.

**Non-blocking**
- The log line prints the user id twice.

**Follow-ups:**
- Add a test for an empty import file.

Smaller items:
- `cli/args.py:14` the help text misspells "separator".
- `cli/args.py:40` an unused import.

Other notes:
- The changelog entry could link the issue.
"""


def test_bold_and_colon_bucket_labels_hold_findings() -> None:
    assert read(LABELS) == [
        (None, None, "critical"), (None, None, "minor"), (None, None, "minor"),
        ("cli/args.py", 14, "minor"), ("cli/args.py", 40, "minor"), (None, None, None)]


DRESSED = """## Review of the sync worker

### 1. Must fix (before merge)

- The worker acknowledges a job before it is written.

### 🟡 Should have

- Timeouts are hard-coded.

### Nice-to-have

- A progress line every thousand rows.

### Consider

- Renaming `tmp_q` to say what it queues.
"""


def test_bucket_headings_in_any_dress() -> None:
    assert read(DRESSED) == [(None, None, "critical"), (None, None, "medium"),
                             (None, None, "minor"), (None, None, "minor")]


TITLED_LIST = """# Code review

- The parser accepts a negative length and allocates a huge buffer.
- `net/conn.go:77` the read deadline is never reset after a retry.
- Nice work on the error messages.
- Why does the pool start a thread per request?
"""


def test_a_plain_list_under_a_review_title_is_its_findings() -> None:
    assert read(TITLED_LIST) == [(None, None, None), ("net/conn.go", 77, None)]
    assert summaries(TITLED_LIST)[0].startswith("The parser accepts a negative length")


def test_a_level_two_review_title_holds_its_list_too() -> None:
    text = "## Review\n\n- The cache key ignores the locale.\n- The lock is taken twice.\n"
    assert read(text) == [(None, None, None), (None, None, None)]


PRAISE_AND_SETTLED = """Verdict: APPROVE

## What works

- The retry policy is clear.

## Must

- ~~The token leaked into the log~~ fixed in the last commit.

## Resolved

- The cache is no longer shared between tenants.

## Questions

- Should the limit be configurable?

## Summary

A small, careful change.
"""


def test_praise_questions_settled_items_and_summaries_still_hold_none() -> None:
    assert read(PRAISE_AND_SETTLED) == []


def test_a_heading_that_only_starts_with_a_bucket_word_is_no_bucket() -> None:
    text = "## Should the cache be shared?\n\n- It is per process today.\n"
    assert read(text) == []
    assert document.bucket("Should the cache be shared?") == (False, None)


@pytest.mark.parametrize(("name", "sev"), [
    ("Must", "critical"), ("**Must have:**", "critical"), ("Blockers", "critical"),
    ("Blocking", "critical"), ("Should", "medium"), ("### 2. Should fix", "medium"),
    ("Could", "minor"), ("Polish", "minor"), ("Nice to have", "minor"),
    ("Non-blocking", "minor"), ("Follow-ups", "minor"), ("Smaller items", "minor"),
    ("Consider", "minor"), ("Nits (3)", "minor"), ("Other notes", None),
])
def test_the_bucket_table(name: str, sev: str | None) -> None:
    assert document.bucket(name) == (True, sev)


RECAP = """## Findings

1. `net/retry.py:40` — the retry loop never backs off after a failure, so a dead upstream
   is called in a tight loop.
2. `web/cache.py:12` — the cache keys entries by path only and ignores the locale.

## Summary

### Must
- Add backoff to the retry loop so a dead upstream is not called in a tight loop.

### Should
- Make the cache key include the locale.
"""


def test_buckets_of_a_recap_restate_the_findings_and_give_their_severity() -> None:
    assert read(RECAP) == [("net/retry.py", 40, "critical"), ("web/cache.py", 12, "medium")]
