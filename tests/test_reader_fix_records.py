"""Documents that record fixes, and the parts of a review that propose them, hold no
findings but what they leave open (issue: read what real reviewers print, item 5): a fix
log (the title says it lists the fixes made for a review), a heading over items it says
were done ("Improvements made", "(applied in this commit)"), a numbered remedy after the
findings ("Fix #1:", "Change 2:", "修改3："), the order to fix in ("修复优先级"), and a list
of references.  Every text here is written for these tests."""

from __future__ import annotations

import pytest

from council_filters.verdict import reading


def findings(text: str) -> list[dict[str, object]]:
    return reading.read(text.encode(), "tester").findings


def places(text: str) -> list[tuple[object, object]]:
    return [(f.get("file"), f.get("line")) for f in findings(text)]


# -- a fix log --------------------------------------------------------------------------

FIX_LOG_SECTIONS = """\
# Review Fixes Summary

All points raised in the review of the upload service are handled below.

## FIXED: retries did not back off

**Problem**: `upload/client.py:40` retried at once, forever.

**Solution**: exponential back-off, five tries at most.

## Security improvements

While not asked for in the review, the fixes also help:

1. **Clearer failures**: a failed upload now logs at error level
2. **Shorter exposure**: staged copies are deleted after 10 minutes

## Documentation

- The README now lists the retry settings.
- Error messages name the file that failed.
"""

FIX_LOG_NUMBERED = """\
# Code Review Fixes — sprint 4

### 1. `billing/invoice.py:88` — totals rounded twice

Rounded once, at the end.

### 2. `billing/tax.py:17` — the rate was read per line

Read once per invoice.

## Remaining gaps (low priority)

1. **Currency per customer** - needs a schema change in `billing/models.py`
2. **Audit trail for refunds** - waits on the ledger work
"""


def test_a_fix_log_holds_no_finding_of_what_it_fixed() -> None:
    assert findings(FIX_LOG_SECTIONS) == []


def test_a_fix_log_keeps_what_it_says_it_left_open() -> None:
    got = findings(FIX_LOG_NUMBERED)
    assert len(got) == 2
    assert not any(f.get("file") in ("billing/invoice.py", "billing/tax.py") for f in got)


@pytest.mark.parametrize("title", [
    "Review of the bug fix for the importer", "Bug fix plan", "Review fixes needed",
    "Code review fixes verification",
])
def test_a_review_of_a_fix_or_a_plan_of_fixes_is_no_fix_log(title: str) -> None:
    text = f"# {title}\n\n## Issues\n\n- `importer/csv.py:14` — the header row is parsed twice\n"
    assert places(text) == [("importer/csv.py", 14)]


# -- a heading over items it says were done -----------------------------------------------

DONE_HEADINGS = """\
# Design review of the sync plan

## {heading}

### 1. Conflict handling

**Original issue**: the plan did not say which side wins.

**Change**: the server copy now wins, and the client keeps a backup.

## Findings

- `sync/merge.py:30` — deletes are replayed after a rename
"""


@pytest.mark.parametrize("heading", [
    "Plan improvements made", "Must-fix defects (applied in this commit)", "Edits applied",
    "Review items (all fixed)",
])
def test_a_heading_saying_its_items_were_done_holds_no_finding(heading: str) -> None:
    assert places(DONE_HEADINGS.format(heading=heading)) == [("sync/merge.py", 30)]


@pytest.mark.parametrize("heading", [
    "Plan issues (partially fixed)", "Defects (not applied)", "Notes (minor, but should be fixed)",
])
def test_a_heading_saying_they_are_partly_or_not_done_keeps_them(heading: str) -> None:
    assert len(places(DONE_HEADINGS.format(heading=heading))) == 2


# -- a numbered remedy after the findings ---------------------------------------------------

REMEDY_HEADINGS = """\
# Review of the cache plan

## Problems

### 1. A second cache layer duplicates the store

`store/cache.go:20` already keeps the entries the plan wants to copy.

## Proposed design

### Implementation

#### Change 1: read from the store

**File**: `store/cache.go:44`

#### Change 2: drop the cache options

**File**: `config/options.go`
"""

REMEDY_LINES = """\
# Critical review: import pipeline

### Issue 1: the parser imports the writer

The reader crate depends on the writer crate for one helper.

**Severity**: HIGH

## Fixes required

**Fix #1: Move the helper to a shared crate**

Create `shared/helpers.rs` and import it from both.

**Fix #2: Delete the unused wrapper**

It has no callers.
"""


def test_numbered_changes_after_the_findings_are_remedies() -> None:
    assert places(REMEDY_HEADINGS) == [("store/cache.go", 20)]


def test_numbered_fixes_in_bold_after_the_findings_are_remedies() -> None:
    got = findings(REMEDY_LINES)
    assert len(got) == 1 and "imports the writer" in str(got[0].get("summary"))


def test_a_numbered_fix_before_any_finding_is_read() -> None:
    text = ("# Review\n\n## Required work\n\n"
            "### Fix 1: close the socket in `net/conn.py:52`\n\nIt leaks on timeout.\n")
    assert places(text) == [("net/conn.py", 52)]


# -- the order to fix in, and references ----------------------------------------------------

ZH_ORDER = """\
# 代码审查 Bug 修复计划

## 🔴 P0 级 Bug

### Bug-1: 签名算法错误

**位置：** `scripts/notify.sh` L40

**问题：** 换行符处理不对。

---

## 🟢 P2 级（可选）

### P2-1: 支持配置文件

---

## {heading}

1. **第一轮（本周）：** P0 级 Bug（安全）
2. **第二轮（下周）：** P1 级改进
3. **第三轮（可选）：** P2 级优化
"""


@pytest.mark.parametrize("heading", ["🚀 修复优先级顺序", "修复优先级", "修改顺序"])
def test_the_order_to_fix_in_holds_no_finding(heading: str) -> None:
    assert places(ZH_ORDER.format(heading=heading)) == [("scripts/notify.sh", 40), (None, None)]


@pytest.mark.parametrize("heading,item", [
    ("参考资源", "- 签名说明：https://example.com/docs/sign\n- 重试：https://example.com/retry"),
    ("Further reading", "- Back-off strategies: https://example.com/backoff"),
    ("Resources", "1. The HTTP retry RFC draft — https://example.com/retry"),
])
def test_a_list_of_references_holds_no_finding(heading: str, item: str) -> None:
    text = ("# Review\n\n## Findings\n\n- `api/retry.py:9` — no jitter between tries\n\n"
            f"## {heading}\n\n{item}\n")
    assert places(text) == [("api/retry.py", 9)]
