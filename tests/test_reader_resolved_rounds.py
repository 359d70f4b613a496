"""A later round of a review lists the earlier round's items with their state; what it
says is settled is not a finding, what it says is still open is (issue: read what real
reviewers print, item 5).  Follow-up reviews, fix logs and answers to a review,
verification reports, status tables, bot comments marked addressed.  Fixtures written
for these tests."""

from __future__ import annotations

import pytest

from council_filters.verdict import reading


def findings(text: str) -> list[dict[str, object]]:
    return reading.read(text.encode(), "tester").findings


def places(text: str) -> list[tuple[object, object]]:
    return [(f.get("file"), f.get("line")) for f in findings(text)]


# -- a heading over the earlier round's settled items --------------------------------

ROUND_TWO = """\
# Second review of the queue worker

## {heading}

- `lib/queue.rb:20` — the worker swallowed exceptions.
- `lib/queue.rb:64` — jobs were enqueued twice on retry.

## Still open

- `lib/mailer.rb:11` — the sender address is hard-coded.
"""


@pytest.mark.parametrize("heading", [
    "Resolved", "Addressed", "Applied", "Done", "Fixed since last review",
    "Previously reported", "Previously reported issues re-validated as fixed",
    "Verification of fixes", "Fixes verified", "Behoben", "Behobene Probleme", "Resueltos",
    "Problèmes corrigés", "해결된 이슈", "Erledigt", "Limits (won't fix / upstream)",
])
def test_a_heading_over_settled_items_holds_no_finding(heading: str) -> None:
    assert places(ROUND_TWO.format(heading=heading)) == [("lib/mailer.rb", 11)]


@pytest.mark.parametrize("heading", [
    "Remaining issues", "New in this round", "Fixes needed", "Required fixes", "Not fixed",
    "Partially fixed",
])
def test_a_heading_that_says_items_are_open_keeps_them(heading: str) -> None:
    assert len(places(ROUND_TWO.format(heading=heading))) == 3


PREVIOUS_ITEMS = """\
# Review round 2

## Previously reported

- `src/cache.py:12` — stale entries were served after eviction. ✅ Verified fixed.
- `src/cache.py:57` — the lock is taken twice. ❌ Still failing: the second acquire remains.
- `src/api.py:30` — pagination was off by one. Partially fixed: the last page is cut short.
- `src/api.py:41` — the cursor was not signed. Status: OPEN
- `src/api.py:90` — the retry header was ignored; it now regressed to a fixed delay.

### 4. Token refresh is not persisted — UNFIXED

The new token is kept in memory only (`src/auth.py:77`).

### 5. Session id in the log

Removed from the log line.
"""


def test_an_item_under_settled_items_that_says_it_is_open_stays_a_finding() -> None:
    assert places(PREVIOUS_ITEMS) == [("src/cache.py", 57), ("src/api.py", 30),
                                      ("src/api.py", 41), ("src/api.py", 90),
                                      ("src/auth.py", 77)]


CHECK_MARK_HEADING = """\
# Second pass

## ✅ Improvements since the first pass

- `build.sh:10` — the build now runs from source.
- ❌ `runner.py:137` still ignores the device flag; listed under remaining issues.

## Remaining issues

- `runner.py:137` — the device flag is ignored.
"""


def test_a_check_mark_heading_keeps_its_items_settled() -> None:
    # the heading is settled by its mark alone: its items restate what follows
    assert places(CHECK_MARK_HEADING) == [("runner.py", 137)]


# -- tables of the earlier round's items -----------------------------------------------

VERIFICATION_TABLE = """\
# Fix verification report

## Verification of fixes

| Item | Location | Result |
|---|---|---|
| Token compare is not constant time | `auth/token.go:33` | PASS |
| Session id logged | `auth/session.go:90` | PASS |
| Missing rate limit | `api/router.go:14` | FAIL — the limiter is registered after the routes |
"""


def test_a_verification_table_keeps_only_its_failing_rows() -> None:
    assert places(VERIFICATION_TABLE) == [("api/router.go", 14)]


MIXED_STATUS = """\
# Recheck of the ten findings

## Table

| ID | Sev | Status | Note |
|---|---|---|---|
| F-1 | High | ✅ Resolved | The route order is fixed. |
| F-2 | Medium | ⚠️ Deferred | Agreed for the next cycle. |
| F-3 | Medium | ⏳ Pending | The config change is not committed yet. |
| F-4 | Low | Partial | Two of three callers checked — see F-9 below. |
| F-5 | Low | Resueltos | The whitelist was added. |
"""


def test_a_status_table_of_the_earlier_round_keeps_its_open_rows() -> None:
    got = findings(MIXED_STATUS)
    assert len(got) == 1  # the pending row; the partial row says where it is detailed
    assert "config change" in str(got[0].get("summary"))


# -- answers to a review ----------------------------------------------------------------

RESPONSE = """\
# Round two

Second-round answer to the review of commit `4c1d2e9`: each item, its cause and its fix.

## A1 — the parser drops the last token (P1)

**Cause.** The loop stopped one short. **Fix.** `src/lex.py:40` now reads to the end.

## A2 — errors lose their line number (P2)

**Fix.** `src/errors.py:12` keeps the position.

## Still open

- `src/lex.py:88` — unicode identifiers are still rejected.
"""


def test_the_items_a_response_answers_are_not_findings() -> None:
    assert places(RESPONSE) == [("src/lex.py", 88)]


def test_a_review_that_mentions_a_review_request_is_no_response() -> None:
    text = RESPONSE.replace(
        "Second-round answer to the review of commit `4c1d2e9`: each item, its cause and "
        "its fix.", "In response to your review request, here is what I found.")
    assert len(places(text)) == 3


# -- a closed review --------------------------------------------------------------------

CLOSED = """\
# Audit follow-up

**Status:** all findings from the audit are resolved.

## Earlier findings

- `api/auth.py:5` — tokens never expired.
- `api/auth.py:31` — the reset link was reusable.

### New findings addressed

- `api/upload.py:19` — the size limit was missing.
"""


def test_a_heading_naming_new_findings_as_addressed_leaves_the_review_closed() -> None:
    assert places(CLOSED) == []


# -- review bots' comments marked addressed ----------------------------------------------

LINKED_MARK = """\
# PR 41 review comments

### src/jobs/sync.ts:140

_🛠️ Refactor suggestion_ | _🟡 Minor_

**Extract the backoff constants.**

They are repeated in three places.

### src/api/client.ts:22

![P1 Badge](https://img.shields.io/badge/P1-orange) **The timeout covers the connect phase only**

A slow response body hangs the request.

✅ Addressed in [`9d01aa7`](https://example.invalid/commit/9d01aa7)
"""


def test_a_mark_with_a_linked_commit_settles_its_comment_only() -> None:
    assert places(LINKED_MARK) == [("src/jobs/sync.ts", 140)]


DUMP = """\
# PR 41 review comments

---

**coderabbitai[bot]** commented on `src/jobs/sync.ts`

_⚠️ Potential issue_ | _🟠 Major_

**The retry counter is never reset after a success.**

✅ Addressed in commit 3c9e1f2

---

**coderabbitai[bot]** commented on `src/jobs/backoff.ts`

_🛠️ Refactor suggestion_ | _🟡 Minor_

**Extract the backoff constants.**

---

**chatgpt-codex-connector[bot]** commented on `src/api/client.ts`

**The timeout covers the connect phase only**

✅ Addressed in [`9d01aa7`](https://example.invalid/commit/9d01aa7)
"""


def test_under_a_title_each_marked_comment_settles_itself_not_its_neighbours() -> None:
    got = findings(DUMP)
    assert [(f.get("file"), f.get("severity")) for f in got] == [
        ("src/jobs/backoff.ts", "minor")]


RULED = """\
# Bot findings on PR 9

---

P1: `src/a.py:12` — the handler returns before the lock is released.

✅ Addressed in [`1a2b3c4`](https://example.invalid/commit/1a2b3c4)

---

P2: `src/b.py:30` — the cache key ignores the user id.
"""


def test_a_mark_after_a_finding_no_comment_holds_settles_what_its_part_read() -> None:
    # the parts of the dump are set off by rules; the mark answers only its own part
    assert places(RULED) == [("src/b.py", 30)]


ROUND_STATUS = """\
## Re-review, cycle 2

### Cycle-1 findings — resolution status

| ID | Finding | Status |
|----|---------|--------|
| B-1 | `docs/auth.md` still says the command has no JSON output | RESOLVED |
| M-1 | the exclusion registry misses two patterns | PARTIALLY RESOLVED — see S-3 |
| M-2 | `docs/e2e.md:83` says the command emits no JSON | OPEN |

### Remaining findings

#### S-3 — `docs/policy.md:51` still counts 22 globs

The file now lists 25.
"""


def test_a_resolution_status_heading_keeps_only_its_open_rows() -> None:
    assert places(ROUND_STATUS) == [("docs/e2e.md", 83), ("docs/policy.md", 51)]


NOTHING_LEFT = """\
# Final re-review

## Re-review status

| Finding | Status | Verification |
|---|---|---|
| W-1 | **CLOSED** | The filter now keeps the target only. |

## Narrative findings (second reviewer)

No Critical or Warning findings remain in this narrow scope, and no regression was seen.
"""


def test_a_findings_heading_over_a_line_saying_none_remain_is_no_finding() -> None:
    assert places(NOTHING_LEFT) == []
    text = NOTHING_LEFT.replace("and no regression was seen.",
                                "but `src/filter.py:40` drops the last target.")
    assert places(text) == [("src/filter.py", 40)]


# -- an item's own answer ------------------------------------------------------------------

ANSWERED = """\
# Review round 2

## Findings

{item}
- `src/b.py:3` — the retry loop never stops.
"""


@pytest.mark.parametrize("item", [
    "- `src/a.py:12` — the null check is missing. **Fixed in a1b2c3d.**",
    "- `src/a.py:12` — the null check is missing. Fixed in #41.",
    "- `src/a.py:12` — the null check is missing → Done",
    "- `src/a.py:12` — the null check is missing — PASS",
    "- `src/a.py:12` — the null check is missing — verified fixed",
    "- `src/a.py:12` — the null check is missing (won't fix — the caller validates)",
    "- `src/a.py:12` — the null check is missing. N/A: the path is unreachable.",
    "- `src/a.py:12` — the null check is missing. *Addressed:* the guard was added.",
    "- **The null check is missing** (`src/a.py:12`)\n  - Response: Fixed in a1b2c3d.",
    "- **The null check is missing** (`src/a.py:12`)\n  - Status: ✓ confirmed fixed",
    "1. `src/a.py:12` the null check is missing\n   **Resolution:** Done in a1b2c3d",
])
def test_an_item_answered_as_fixed_done_or_not_applicable_is_not_a_finding(item: str) -> None:
    assert places(ANSWERED.format(item=item)) == [("src/b.py", 3)]


@pytest.mark.parametrize("item", [
    "- `src/a.py:12` — the guard fixed in a1b2c3d regressed: the null check is missing again.",
    "- `src/a.py:12` — the null check is missing. Status: Verified",
    "- **The null check is missing** (`src/a.py:12`)\n  - Resolution: done partially",
    "- `src/a.py:12` — the cache is done before the write lands.",
])
def test_an_answer_that_is_not_settled_keeps_the_finding(item: str) -> None:
    assert places(ANSWERED.format(item=item)) == [("src/a.py", 12), ("src/b.py", 3)]


VERIFIED_COLUMN = """\
# Verification of the audit fixes

| # | Finding | Location | Verified |
|---|---|---|---|
| 1 | Weak hash | `auth/hash.py:10` | ✓ |
| 2 | Open redirect | `web/redirect.py:33` | ✗ still redirects to any host |
| 3 | Debug on in prod | `settings.py:5` | ✓ |
"""


def test_a_verification_report_keeps_the_row_its_check_mark_fails() -> None:
    assert places(VERIFIED_COLUMN) == [("web/redirect.py", 33)]


def test_a_first_round_item_that_says_the_problem_was_verified_stays_a_finding() -> None:
    item = "- `src/a.py:12` — the lock is released twice — verified"
    assert places(ANSWERED.format(item=item)) == [("src/a.py", 12), ("src/b.py", 3)]
