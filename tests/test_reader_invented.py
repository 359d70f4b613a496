"""The tolerant reader invents nothing and reads each severity where reviewers put it
(issue: read what real reviewers print).  One fixture per family, written for these
tests: image badges, a badge alone before its comment, code names and files named in
prose, restatements, keys that are not findings, a heading's severity over its section,
and items escalated in a re-review."""

from __future__ import annotations

from council_filters.verdict import reading


def read(text: str) -> list[tuple]:
    got = reading.read(text.encode(), "tester")
    return [(f.get("file"), f.get("line"), f.get("severity")) for f in got.findings]


def summaries(text: str) -> list[str]:
    return [f.get("summary", "") for f in reading.read(text.encode(), "tester").findings]


# --------------------------------------------------------------------------- #
# Severity from image badges; the badge never becomes the title
# --------------------------------------------------------------------------- #
SHIELDS = """\
### Automated review comments

**<sub><sub>![P2 Badge](https://img.shields.io/badge/P2-yellow?style=flat)</sub></sub>  Drop stale \
entries before the size check**

The eviction loop counts entries that have already expired, so the cache evicts live ones first.
"""


def test_a_shields_badge_gives_the_severity_and_is_not_the_title() -> None:
    got = reading.read(SHIELDS.encode(), "tester").findings
    assert [(f.get("severity"), f.get("priority")) for f in got] == [("medium", "P2")]
    assert got[0]["summary"] == "Drop stale entries before the size check"


BADGE_URLS = """\
## Review

![sev](https://example.org/assets/critical-priority.svg)

The retry loop never sleeps between attempts, so a down service is hammered at full speed.

![icon](https://example.org/assets/badges/severity-low.png)

The log line repeats the request id twice.

![screenshot](https://example.org/shots/low-light-mode.png)
"""


def test_an_image_is_a_badge_by_its_alt_or_its_address_and_opens_the_comment_after_it() -> None:
    got = reading.read(BADGE_URLS.encode(), "tester").findings
    assert [(f.get("file"), f.get("severity")) for f in got] == [(None, "critical"),
                                                                (None, "minor")]
    assert got[0]["summary"].startswith("The retry loop never sleeps")


FENCED_ARCHIVE = """\
# Saved review comments

### Comment 1: pkg/queue/worker.go:41

Resolved: no

```
**<sub><sub>![P1 Badge](https://img.shields.io/badge/P1-orange?style=flat)</sub></sub>  Close the \
channel once**

Two workers can both reach the close call.
```

### Comment 2: pkg/queue/worker.go:97

```
**<sub><sub>![P3 Badge](https://img.shields.io/badge/P3-blue?style=flat)</sub></sub>  Typo in log**
```

[open the thread](https://example.org/pull/12)
"""


def test_a_badge_in_a_fenced_comment_is_the_severity_of_the_heading_above() -> None:
    assert read(FENCED_ARCHIVE) == [("pkg/queue/worker.go", 41, "critical"),
                                    ("pkg/queue/worker.go", 97, "minor")]
    # the heading names only the comment's number: the fenced comment's bold title is its
    # title, without the badge
    assert summaries(FENCED_ARCHIVE) == ["Close the channel once", "Typo in log"]


def test_a_severity_tag_with_a_category_in_parentheses() -> None:
    text = ("- **suggestion (testing):** nothing covers the empty-input path\n"
            "- **nitpick (typo):** the flag is spelled two ways in the help\n"
            "- **blocker (data loss):** the migration drops the column before copying it\n")
    assert read(text) == [(None, None, "minor"), (None, None, "minor"),
                          (None, None, "critical")]


# --------------------------------------------------------------------------- #
# Code names are not files; a file named in prose is the subject, not the place
# --------------------------------------------------------------------------- #
CODE_NAMES = """\
## Findings

1. **High:** The handler waits on `self.mutex` while holding the pool, which can deadlock.
2. **Medium:** The list key uses `item.label`, and two items may share a label.
3. **Low:** `console.warn` is called on every keystroke.
"""


def test_members_of_the_code_are_not_files() -> None:
    assert read(CODE_NAMES) == [(None, None, "critical"), (None, None, "medium"),
                                (None, None, "minor")]


PROSE_SUBJECT = """\
## Issues

- **Major:** The guide says the retry helper in `backoff.go` doubles the delay; it triples it.
- **Minor:** Missing `CONTRIBUTING.md` file for new plugin authors.
- **Minor:** Add a `tests/test_limits.py` that checks the zero limit.
- **Minor:** The plan should first read `docs/runbooks/deploy.md` before the rollout.
- **Major:** `scheduler.py` — the lock is released before the write completes.
- **Minor:** Timer drift when the host sleeps (`clock.rs`).
"""


def test_a_file_named_inside_a_sentence_or_to_be_created_is_not_the_place() -> None:
    assert read(PROSE_SUBJECT) == [
        (None, None, "medium"),  # "in `backoff.go`": the subject of a sentence
        (None, None, "minor"),  # a file that is missing
        (None, None, "minor"),  # a file to add
        (None, None, "minor"),  # a file to read
        ("scheduler.py", None, "medium"),  # the item opens with the file: its place
        ("clock.rs", None, "minor"),  # the item closes with it in parentheses
    ]


# --------------------------------------------------------------------------- #
# Coloured circles on the answer's own scale; re-reviews take the current severity
# --------------------------------------------------------------------------- #
TRAFFIC = """\
## Findings

### 🔴 The upload handler trusts the client's content length
A forged header lets a request allocate the whole heap.
### 🟡 Retries have no jitter
All clients retry in lockstep after an outage.
### 🟢 A comment still names the old flag
The flag was renamed two releases ago.
"""


def test_yellow_is_the_middle_of_a_traffic_light_and_the_lowest_of_four_colours() -> None:
    assert read(TRAFFIC) == [(None, None, "critical"), (None, None, "medium"),
                             (None, None, "minor")]
    four = TRAFFIC.replace("### 🟢", "### 🟠").replace("Retries", "Retry")
    assert read(four) == [(None, None, "critical"), (None, None, "minor"),
                          (None, None, "medium")]


REREVIEW = """\
# Second-round review

**Verdict:** REVISE

## Earlier items

### Should fix

#### 1. Config reload races the worker pool — ✅ Fixed
The reload now takes the pool lock.

#### 2. Cursor pagination missing on the export endpoint — ❌ Not fixed → now 🔴
Every export still loads the whole table.

#### 3. Error text leaks the SQL — ❌ Partially addressed
Two of the three handlers still echo the statement.

## New findings

- **Stale cache key after rename** — Severity: Low -> High (the cache now serves other tenants)
"""


def test_an_escalated_item_takes_its_current_severity_and_partly_fixed_is_open() -> None:
    assert read(REREVIEW) == [(None, None, "critical"), (None, None, "medium"),
                              (None, None, "critical")]


# --------------------------------------------------------------------------- #
# Restatements are not new findings
# --------------------------------------------------------------------------- #
STATUS_TABLE = """\
# Review, round two

## Open findings

### 1. Webhook signature compared with `==` — ❌ Not fixed
`hooks/verify.py` still compares the digests with a plain equality.

### 2. Export job ignores the tenant filter — ❌ Not fixed
Every export includes all tenants' rows.

### Q7. Progress bar jumps backwards on resume
The counter restarts from the last checkpoint.

## Status table

| # | Issue | Round 1 | Now |
|---|------|---------|-----|
| 1 | Digest comparison timing | 🔴 | 🔴 |
| 2 | Tenant filter on export | 🔴 | 🔴 |
| Q7 | Progress counter | — | 🟡 |
| 4 | Stale lock file cleanup | 🟡 | ✅ Fixed |
"""


def test_a_status_table_that_restates_earlier_items_adds_none() -> None:
    assert [s[:20] for s in summaries(STATUS_TABLE)] == [
        "Webhook signature co", "Export job ignores t", "Q7. Progress bar jum"]


PLAN_REVIEW = """\
# Plan review

## Concerns
- **HIGH: Token budget overrun under parallel workers**
  - Every worker checks the budget before any has spent, so all of them start.
- **MEDIUM: Cache warm-up blocks the main thread**
  - The first request waits for the whole warm-up.

## Suggestions
- For the token budget overrun, reserve the estimate under the lock before calling out.
- Cache warm-up: warm the cache in a background task.
- Rotate the signing key yearly; the plan never says how keys are replaced.

## Summary
**HIGH:** the parallel token budget check will overrun the budget.
"""


def test_suggestions_and_a_summary_that_restate_the_concerns_add_none() -> None:
    got = reading.read(PLAN_REVIEW.encode(), "tester").findings
    assert [(f.get("severity"), f["summary"][:26]) for f in got] == [
        ("critical", "HIGH: Token budget overrun"),
        ("medium", "MEDIUM: Cache warm-up bloc"),
        ("minor", "Rotate the signing key yea"),  # a suggestion that restates nothing is read
    ]


FOLD = """\
## Headline findings

- **critical** — the retry path is untested: nothing checks what happens when the first \
mirror answers empty and the second one answers.

## Required changes

**Blocking**

- tests/test_mirrors.py — add a test where the first mirror answers empty and the second \
answers, and check the second one's answer is used
"""


def test_a_required_change_restating_a_finding_gives_it_its_file() -> None:
    assert read(FOLD) == [("tests/test_mirrors.py", None, "critical")]


# --------------------------------------------------------------------------- #
# A heading's (or a bold label's) severity covers its section
# --------------------------------------------------------------------------- #
LABELS = """\
## Findings

**Blocking**

- `api/login.py:40` — the lockout counter resets on every success

**Nice to have**

- `api/login.py:77` — the error text could name the field
"""


def test_a_bold_label_alone_gives_its_severity_to_what_follows() -> None:
    assert read(LABELS) == [("api/login.py", 40, "critical"), ("api/login.py", 77, "minor")]


def test_a_plural_heading_names_its_severity() -> None:
    text = ("## Warnings\n\n- `net/dial.go:12` — the timeout is never reset\n\n"
            "## Suggestions\n\n- `net/dial.go:30` — name the magic number\n")
    assert read(text) == [("net/dial.go", 12, "medium"), ("net/dial.go", 30, "minor")]


# --------------------------------------------------------------------------- #
# Keys are not findings
# --------------------------------------------------------------------------- #
YAML_LISTS = """\
```text
verdict: NO-GO
blocking:
  - lib/parse.rb:14 - the parser accepts a trailing comma the spec forbids
notes:
  - lib/parse.rb:40 - the error message names the wrong token
  - Otherwise the change matches the spec and its tests are complete.
```
"""


def test_yaml_like_keys_are_groups_not_findings() -> None:
    got = reading.read(YAML_LISTS.encode(), "tester")
    assert got.verdict == "REVISE"
    assert where(got) == [("lib/parse.rb", 14, "critical"), ("lib/parse.rb", 40, None)]


def where(got: reading.Reading) -> list[tuple]:
    return [(f.get("file"), f.get("line"), f.get("severity")) for f in got.findings]


NO_CHANGE = """\
# Design review

**Verdict:** REQUEST CHANGES

### Retry policy — acceptable
The backoff doubles up to a cap (`net/retry.go:20`), as the design says.

**No change request on the retry policy.**

### Summary of change requests

| ID | Severity | Description |
|----|----------|-------------|
| CR1 | REQUIRED | Split the loader from the cache warm-up |
| CR2 | NICE TO HAVE | Name the cap in the config |
"""


def test_a_clean_check_and_a_severity_in_words_in_a_table() -> None:
    got = reading.read(NO_CHANGE.encode(), "tester")
    assert where(got) == [(None, None, "critical"), (None, None, "minor")]


RECAP_HEADING = """\
### Findings

1. **The cache key ignores the locale.** Two languages share one cached page.

### Required changes before approval

Append a corrected plan containing:

1. A cache key that includes the locale.
"""


def test_a_recap_heading_is_not_a_finding_and_its_restatement_adds_none() -> None:
    assert [s[:24] for s in summaries(RECAP_HEADING)] == ["The cache key ignores th"]


# --------------------------------------------------------------------------- #
# Bounded and crash-free
# --------------------------------------------------------------------------- #
def test_restatement_work_is_bounded(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from council_filters.verdict import document

    calls = 0
    real = document._same_words

    def counting(a: set[str], b: set[str], loose: bool = False) -> int:
        nonlocal calls
        calls += 1
        return real(a, b, loose)

    monkeypatch.setattr(document, "_same_words", counting)
    unit = ("### Finding {i}: a.py:{i} the parser drops field {i}\nIt drops it.\n\n"
            "## Summary\n- **HIGH:** parser drops another field {i}\n\n")
    text = "".join(unit.format(i=i) for i in range(1, 400))
    reading.read(text.encode(), "tester")
    assert 0 < calls <= document.RESTATE_BUDGET


def test_odd_badges_keys_and_recaps_never_raise() -> None:
    for data in ("![" * 5000, "![high](" * 3000, "<sub>" * 4000 + "![P1 Badge](x)",
                 "blocking:\n" * 3000, "- a:\n  notes:\n" * 2000, "## Summary\n| # | Issue |\n"
                 "|---|---|\n" + "| 1 | x |\n" * 3000, "→ 🔴 " * 5000, "`a.b` " * 20000,
                 "```\n![high](x)\n```\n" * 2000):
        reading.read(data.encode(), "tester")


TOP_FIXES = """\
Here is my review of the rollout plan.

### 1. Timeline
The plan has no slack for the migration week.

### 2. Top-3 Must-Fix Issues for v2.1
1. **Migration Ordering:** the schema change must land before the backfill job starts.
2. **Rollback Story:** the plan never says how a failed backfill is undone.
3. **Quota Limits:** the import runs into the provider's daily quota on day two.

**Verdict:** request changes
"""


def test_a_numbered_heading_naming_a_severity_group_covers_its_titled_items() -> None:
    got = reading.read(TOP_FIXES.encode(), "tester")
    assert [(f.get("severity"), f["summary"][:16]) for f in got.findings] == [
        ("critical", "Migration Orderi"), ("critical", "Rollback Story: "),
        ("critical", "Quota Limits: th")]


def test_a_suggestion_for_a_named_concern_restates_it() -> None:
    text = ("## Concerns\n- **LOW: Log writes are not atomic**\n"
            "  - Two threads append to the same journal file.\n\n"
            "## Suggestions\n- **For the journal:** take a lock around each append.\n"
            "- For the journal, take a lock around each append.\n")
    assert [s[:14] for s in summaries(text)] == ["LOW: Log write"]


def test_recap_headings_in_other_languages() -> None:
    zh = ("## 问题\n\n- `web/cache.py:12` — `cache_key` 没有包含 `locale`，两种语言共用一个页面\n\n"
          "## 建议\n\n1. 🟡 在 `cache_key` 里加上 `locale`\n")
    de = ("## Findings\n\n- `web/cache.py:12` — the `cache_key` ignores the `locale`\n\n"
          "## Empfehlungen\n\n- **Minor:** `cache_key` um `locale` ergänzen\n")
    assert read(zh) == [("web/cache.py", 12, "medium")]  # the suggestion's 🟡 fills it in
    assert read(de) == [("web/cache.py", 12, "minor")]


def test_a_deferred_row_is_not_an_open_finding() -> None:
    text = ("## Findings\n\n| Severity | Finding | Status |\n|---|---|---|\n"
            "| NOTE | Timing signoff is out of this change's reach. | DEFERRED |\n"
            "| HIGH | The reset line floats at power-up. | OPEN |\n")
    assert [s[:9] for s in summaries(text)] == ["The reset"]


def test_section_severities_in_other_wordings() -> None:
    text = ("## Required before merge\n\n- `cli/main.go:8` — the exit code is always zero\n\n"
            "## Nice-to-haves\n\n- `cli/main.go:30` — the help text wraps badly\n\n"
            "## Low-priority polish\n\n- `cli/flags.go:4` — two flags share a short name\n")
    assert read(text) == [("cli/main.go", 8, "critical"), ("cli/main.go", 30, "minor"),
                          ("cli/flags.go", 4, "minor")]


def test_a_change_of_severity_in_other_words() -> None:
    text = ("## Open findings\n\n"
            "- `jobs/sync.py:14` — retries never stop — ❌ still open (was 🟡, now 🔴)\n"
            "- `jobs/sync.py:60` — the batch size is hard-coded; upgraded from low to medium.\n"
            "- **Minor:** `jobs/sync.py:90` — we now use a lock here, but its name is vague\n")
    assert read(text) == [("jobs/sync.py", 14, "critical"), ("jobs/sync.py", 60, "medium"),
                          ("jobs/sync.py", 90, "minor")]


def test_file_names_with_uncommon_types_are_still_files() -> None:
    text = ("## Findings\n\n- **High:** `Makefile.am` drops the install target\n"
            "- **Low:** `user.email` is logged in full\n"
            "- **Low:** `deploy.bicep` pins no version\n")
    assert read(text) == [("Makefile.am", None, "critical"), (None, None, "minor"),
                          ("deploy.bicep", None, "minor")]


def test_a_finding_that_starts_with_a_recap_word_is_still_a_finding() -> None:
    text = ("## Findings\n\n### 1. Retry loop never sleeps\nThe loop spins at full speed.\n\n"
            "### 2. Summary line is cut at 50 bytes\nLong titles lose their end.\n\n"
            "## Findings summary\n\n| # | Issue |\n|---|---|\n| 1 | Retry loop spins |\n"
            "| 2 | Summary line cut |\n")
    assert [s[:12] for s in summaries(text)] == ["Retry loop n", "Summary line"]


# --------------------------------------------------------------------------- #
# A scan report's tools that all came back clean are not findings
# --------------------------------------------------------------------------- #
CLEAN_SCAN = """\
# Nightly scan of the billing service

## Scan findings

#### Linter
- **Errors:** 0 \u2705
- **Style warnings:** 3 (informational)
- **Files checked:** 140

#### Dependency audit
- Audit completed against the lock file
- No known vulnerabilities \u2705

#### Type checker
- **Errors:** 4
- `billing/models.py` returns an untyped dict from `total()`
"""


def test_a_tool_that_came_back_clean_is_no_finding_but_one_with_errors_is() -> None:
    assert summaries(CLEAN_SCAN) == ["Type checker"]


# --------------------------------------------------------------------------- #
# A plan's steps and a list of work to come are not findings
# --------------------------------------------------------------------------- #
PLAN = """\
# Fixing the importer after the review

## Execution steps

### Step 1 \u2014 Stop deleting rows on update (CRITICAL)
- In `importer/sync.py`: only delete rows the run created
- Add a test for the update path

### Step 2 \u2014 Reject unknown states (MEDIUM)
- Raise on an unknown transition
"""

AUDIT_WITH_NEXT_STEPS = """\
# Audit of the tile renderer

## Remaining gaps

### 1. No cache eviction
**Severity**: HIGH
**Location**: `render/cache.ts`
**Issue**: the tile cache grows without bound.

## Next steps
1. **HIGH PRIORITY**: add eviction to the tile cache
2. **MEDIUM**: write tests for the shader factory
3. **LOW**: publish a benchmark page

## Roadmap
- Publish the renderer as its own package once the cache work lands.
"""


def test_the_steps_of_a_plan_are_not_findings() -> None:
    assert summaries(PLAN) == []


def test_next_steps_and_a_roadmap_hold_no_findings() -> None:
    assert read(AUDIT_WITH_NEXT_STEPS) == [("render/cache.ts", None, "critical")]


# --------------------------------------------------------------------------- #
# A re-review's status table by severity, then the actions that answer its rows
# --------------------------------------------------------------------------- #
STATUS_THEN_ACTIONS = """\
# Re-review of the upload service

## Critical status (2/2 still open)

| # | Finding | Status | Evidence |
|---|---------|--------|----------|
| C1 | Uploads skip the size limit | \u274c OPEN | `upload/limits.py:40` reads the header |
| C2 | Tokens never expire | \u274c OPEN | no expiry check in the session store |

## Required changes before merge

### 1. Size limit (unblocks C1)
- Count the bytes as they stream in
- Reject the request once the limit is passed

### 2. Token expiry (unblocks C2)
- Store an expiry with each token
"""


def test_actions_under_a_heading_that_names_the_findings_they_answer_restate_them() -> None:
    # the severity a status table's heading gives covers its rows; the actions grouped
    # under "(unblocks C1)" answer C1 and are not findings of their own
    assert read(STATUS_THEN_ACTIONS) == [("upload/limits.py", 40, "critical"),
                                         (None, None, "critical")]


# --------------------------------------------------------------------------- #
# Counts by severity on one line, and counts a form left blank, are tallies
# --------------------------------------------------------------------------- #
TALLIES = """\
## Findings

- Critical: 1, High: 0, Medium: 2, Low: 17
- **Major:** `TBD`
- High: N/A
- **High**: `cache/store.go:88` evicts entries that are still pinned
"""


def test_counts_on_one_line_and_blank_counts_are_no_findings() -> None:
    assert read(TALLIES) == [("cache/store.go", 88, "critical")]


# --------------------------------------------------------------------------- #
# Sections a report sets aside: a non-defect, issues that were there before, raw files
# --------------------------------------------------------------------------- #
SET_ASIDE = """\
# Smoke test of the export adapter

## Findings / fixes

### Non-defect: the live suite needs the real runtime
The hermetic tests fake the driver; the live suite must run under the runtime itself.

### \u26a0\ufe0f Pre-existing issues (not related to this change)
- The nightly build fails on a missing font package
- Two type errors in `ui/chart.tsx`

### Exporter drops the last row
`export/csv.py:41` stops one row short when the page size divides the total.

## Review raw files
Detailed findings of each check:
- `review/unit-tests.md` - Unit test results and coverage gaps
- `review/lint.md` - Lint and type-check output
"""


def test_non_defects_pre_existing_issues_and_raw_files_are_not_findings() -> None:
    assert read(SET_ASIDE) == [("export/csv.py", 41, None)]


NO_ACTION = """\
## Review

No issues found. The change is small and well tested.

Notes:
- The new helper in `web/util.ts` could move to the shared package; no action needed.
- `web/form.ts:40` trims input after validation, so padded names pass the length check.
"""


def test_a_note_that_says_no_action_is_needed_is_not_a_finding() -> None:
    assert read(NO_ACTION) == [("web/form.ts", 40, None)]


FIXED_IN_PLACE = """\
## Findings / fixes

### Defect: the poller logs an error on every start
Each run printed two `unknown_event` errors right after connecting.

**Fix.** Added both event kinds to the ignore list in `poller/events.py`.

### Defect: the retry budget resets on reconnect
`poller/retry.py:31` sets the budget back to its maximum on each reconnect.

**Fix:** Keep the budget across reconnects and reset it only after a success.
"""


def test_a_defect_whose_fix_is_told_as_done_is_settled() -> None:
    # a fix in the past tense is what was done; an imperative one is what to do
    assert read(FIXED_IN_PLACE) == [("poller/retry.py", 31, None)]


# --------------------------------------------------------------------------- #
# A write-up of a problem that was solved: its problem sections are settled
# --------------------------------------------------------------------------- #
WRITE_UP = """\
# Importer review threads: resolution

## Problem
- `importer/sync.py` and `importer/plan.py` still skipped the dry-run flag
- `manifest.json` lacked the permissions block

## Root Cause
The first round fixed three commands and missed the other two.

## Solution
Removed the stale flag from `importer/sync.py` and `importer/plan.py`, added the
permissions block, and committed the edits in one change.
"""

PROPOSAL = """\
## Problem
`importer/sync.py:40` takes the lock and never releases it when the write fails.

## Solution
Take the lock in a `with` block so every exit path releases it.
"""


def test_the_problem_of_a_write_up_whose_solution_was_applied_is_settled() -> None:
    assert read(WRITE_UP) == []


def test_a_problem_with_a_proposed_solution_stays_a_finding() -> None:
    assert read(PROPOSAL) == [("importer/sync.py", 40, None)]


STATUS_RECAP = """\
# Renderer audit

## Remaining gaps

### 1. Wind animation props are ignored
**Location**: `src/components/Foliage.tsx`
**Issue**: `windStrength` is accepted and never read.

### 2. No seeded random
**Location**: `core/scatter.ts`
**Issue**: instance layouts cannot be reproduced.

## Architecture Status

### Needs improvement
- Wind animation props
- Seeded random layouts
"""


def test_a_status_section_restates_the_gaps_above_it() -> None:
    assert read(STATUS_RECAP) == [("src/components/Foliage.tsx", None, None),
                                  ("core/scatter.ts", None, None)]


PER_CHANGE_NOTES = """\
# Review of the open pull requests

## Notes by pull request

### #4 \u2014 Add the config loader
- **Assessment:** Small and self-contained.
- **Risks:** The defaults may drift from the docs.
- **Recommendation:** **Approve with minor doc edits**.

### #5 \u2014 Rewrite the scheduler
- **Assessment:** Large; touches every job.
- **Verdict:** HOLD. Do not merge until the retry path has tests.
"""


def test_a_change_approved_by_its_own_verdict_line_is_no_finding() -> None:
    assert summaries(PER_CHANGE_NOTES) == ["#5 \u2014 Rewrite the scheduler"]


TIMED_ACTIONS = """\
# Deployment readiness review

## Critical issues fixed

### 1. `eval()` on model output
**Fix:** Replaced with a literal parser.
**Status:** \u2705 FIXED

## Recommendations

### Short Term
1. Add input validation to the webhook endpoint
2. Add security headers to the dashboard

### Long Term
1. Sign release artifacts
"""


def test_actions_ordered_by_when_under_recommendations_are_not_findings() -> None:
    assert summaries(TIMED_ACTIONS) == []


CHECKED_NOT_FINDINGS = """\
# Scorer review

## Findings

- `scorer.py:88` divides by the batch size before checking it is non-zero.

## Checked and not findings

- `scorer.py:40` looked like an off-by-one; the range is half-open on purpose.
"""


def test_a_section_of_what_was_checked_and_is_not_a_finding_holds_none() -> None:
    assert read(CHECKED_NOT_FINDINGS) == [("scorer.py", 88, None)]
