"""A finding written as a heading keeps what is under it (issue: every finding at its real
place): a labelled list of its places, of its risks or impacts, a "Suggestion:" paragraph
are parts of that one finding, and the numbered sub-headings of a review organised by
dimension ("### 1.2 …", also in Chinese) are its findings, placed by the file their
text or code caption names.  Every review below is written for these tests; none is a
reviewer's text."""

from __future__ import annotations

from council_filters.verdict import reading


def read(text: str) -> list[tuple]:
    got = reading.read(text.encode(), "tester")
    return [(f.get("file"), f.get("line"), f.get("severity")) for f in got.findings]


TAGGED = """# Audit of the payment service

## 1. Secrets

### ⚠️ **MEDIUM**: Signing keys are readable through getters

**Severity**: MEDIUM
**Files**:
- `pay/keys/store.ts:40-44`
- `pay/keys/cache.ts:12-15`

**Issue**:
Two getters hand out the raw signing key.

**Risk**:
- A debug log may print the key
- A heap dump carries it

**Recommendation**:
1. Drop the getters

### 🔍 **LOW**: The key id is derived from a placeholder

**Severity**: LOW
**File**: `pay/keys/id.ts:7-9`
"""


def test_a_tagged_heading_with_a_list_of_places_and_a_risk_list_is_one_finding() -> None:
    assert read(TAGGED) == [("pay/keys/store.ts", 40, "medium"), ("pay/keys/id.ts", 7, "minor")]


def test_a_tagged_heading_with_no_place_keeps_its_list_of_risks() -> None:
    text = """## Findings

### 🔴 **HIGH**: Refunds can be replayed

**Risks**:
- The same refund is paid twice
- The ledger drifts from the bank statement

**Fix**: keep an idempotency key per refund.
"""
    assert read(text) == [(None, None, "critical")]


BY_DIMENSION = """# Downloader architecture and code review

The review looks at performance, security and maintainability.

## 1. Performance

### 1.1 Progress updates in `fetcher.py` hold the semaphore
Every page bumps the counter while it still holds the semaphore.

**Problem code (`app/net/fetcher.py`):**
```python
async with gate:
    done += 1
```

**Suggestion:**
Bump the counter after the semaphore is released.

### 1.2 The whole batch of images is opened at once
**Problem code (`app/pdf/build.py`, lines 40-52):**
```python
pages = [open_page(p) for p in paths]
```

## 2. Maintainability

### 2.1 `session.py` writes its retry loops out by hand
**Suggestion:** share one retry helper.

## Summary

A sound codebase with a few rough edges.
"""


def test_numbered_sub_headings_of_a_review_by_dimension_are_its_findings() -> None:
    assert read(BY_DIMENSION) == [("app/net/fetcher.py", None, None),
                                  ("app/pdf/build.py", 40, None), ("session.py", None, None)]


BY_DIMENSION_ZH = """# 下載器程式碼審查報告

本報告從效能與可維護性兩方面審查程式碼。

## 1. 效能

### 1.1 `fetcher.py` 中的進度更新佔用信號量
每下載一頁就在信號量內更新計數。

**問題程式碼 (`app/net/fetcher.py`):**
```python
async with gate:
    done += 1
```

### 1.2 一次開啟整批圖片造成記憶體壓力
**問題程式碼 (`app/pdf/build.py`):**
```python
pages = [open_page(p) for p in paths]
```

## 總結

整體品質良好。
"""


def test_numbered_sub_headings_without_spaces_in_a_chinese_review() -> None:
    assert read(BY_DIMENSION_ZH) == [("fetcher.py", None, None), ("app/pdf/build.py", None, None)]


def test_a_suggestion_line_under_a_plain_findings_section_is_still_a_finding() -> None:
    text = """## Findings

**Suggestion:** rename `tmp` in `src/io/copy.py:12` to say what it holds.

**Suggestion:** the README misses the install step.
"""
    assert read(text) == [("src/io/copy.py", 12, "minor"), (None, None, "minor")]


def test_a_plain_heading_with_a_year_is_no_numbered_finding() -> None:
    text = """# Code review of the scheduler

## Findings

- **High**: `sched/run.py:30` drops a job when the queue is full

## Roadmap

### 2024 plans for the scheduler rewrite
Nothing here is a finding.
"""
    assert read(text) == [("sched/run.py", 30, "critical")]


def test_a_dimension_named_input_validation_is_no_inventory_of_inputs() -> None:
    text = """# Security review

## 2. Input Validation & Injection Prevention

### ⚠️ **MEDIUM**: Order sizes are never checked

**File**: `orders/validate.py`

Negative sizes reach the exchange.

## Inputs

- `orders/validate.py:12` and the diff of the branch
"""
    assert read(text) == [("orders/validate.py", None, "medium")]


OUT_OF_LIST = """## Findings

9. Medium: the cache is never trimmed.

   Location: `cache/store.rs:40`.

10. Low: the helper names are confusing.

   Location: `cache/names.rs:100`,
   `cache/names.rs:139`.

   Why it matters: review cost.

11. Low: a doc comment is stale.

Nothing else stood out.

File: `README.md`
"""


def test_a_place_field_that_fell_out_of_a_numbered_item_is_that_items_place() -> None:
    # "10." needs four columns of indentation; its Location line, indented as for "9.",
    # ends the list and stands alone under it
    assert read(OUT_OF_LIST) == [("cache/store.rs", 40, "medium"),
                                 ("cache/names.rs", 100, "minor"), (None, None, "minor")]


LINE_KEYS = """## Bugs

### BUG 2: the parser keeps URL lines (Medium)

**File:** `parsers.py`, `parse_requirements()`
**Line 14:** only lines starting with `-` are skipped

### BUG 4: the timestamp is the last upload (Low)

**File:** `registries.py`, `check_maven()`
**Line 265-269**

### ISSUE 2: the walk-up escapes the root

**File:** `allowlist.py`, `_find_allowlist()`
**Lines 20-21**

Without a `.git` directory the walk reaches `/.config`.
"""


def test_a_line_field_whose_key_holds_the_number() -> None:
    assert read(LINE_KEYS) == [("parsers.py", 14, "medium"), ("registries.py", 265, "minor"),
                               ("allowlist.py", 20, None)]


def test_a_plural_locations_field_places_its_finding() -> None:
    text = """## Findings

### LOW (2 issues)

#### LOW-1: Magic numbers in the scoring

**Locations:** Throughout `play.rs`, `search.rs` and `pass.rs`

**Recommendation:** name the constants.

#### LOW-2: Stale field names

**Paths:** `serial.rs`
"""
    assert read(text) == [("play.rs", None, "minor"), ("serial.rs", None, "minor")]


GRADED = """# Consolidated review

## Priority 2: High Findings (Should Fix)

### ERR-2: Registry lock failures silently ignored
- **File:** `core/registry.rs:40-52`
- **Issue:** a failed lock is skipped and the state drifts

### PERF-2: the prompt is cloned per task
- **File:** `core/runner.rs:195`

## Priority 3: Medium Findings (Could Fix)

| ID | Area | Finding | File |
|----|------|---------|------|
| ERR-3 | Error | Metrics silently drop poisoned lock errors | metrics/mod.rs |
| PERF-16 | Performance | the prompt cache clones the String on a hit | prompt_cache.rs |

## Next steps

1. Fix the registry lock failures silently ignored (ERR-2)
"""


def test_a_priority_heading_grading_findings_is_no_recap_of_them() -> None:
    assert read(GRADED) == [("core/registry.rs", 40, "critical"),
                            ("core/runner.rs", 195, "critical"),
                            ("metrics/mod.rs", None, "medium"), ("prompt_cache.rs", None, "medium")]


ROADMAP = """# Security review

## Findings

### 🔴 **HIGH**: Error objects carry the request body

**File**: `src/errors.ts:33-42`

## Remediation Roadmap

### 🔴 **Critical (Fix Immediately)**

1. **Error sanitization**
   - Strip the request body before raising

### 📋 **Medium Priority (Fix Before Production)**

2. **Logger hygiene**

## Security Testing Recommendations

1. Penetration testing against the staging exchange
2. Fuzzing of the order submission
"""


def test_a_remediation_roadmap_and_testing_recommendations_hold_no_new_findings() -> None:
    assert read(ROADMAP) == [("src/errors.ts", 33, "critical")]


LISTED_AHEAD = """# Storage audit

## Summary

| ID  | Severity | Component | Title |
| --- | -------- | --------- | ----- |
| H-1 | HIGH     | sync      | The sync engine drops downloaded data |
| M-1 | MEDIUM   | storage   | Files are written with the default umask |
| L-1 | LOW      | cli       | The CSRF token is compared with != |

## Findings

### H-1 — The sync engine drops downloaded data

**Severity:** HIGH. **File:** `core/sync/engine.rs:520-547`.

### M-1 — Files are written with the default umask

**Severity:** MEDIUM. **File:** `core/storage/local.rs:82-116`.
"""


def test_a_summary_table_listing_findings_by_id_ahead_of_their_details() -> None:
    # each id is one finding: its detail, in its row's stead; a row with no detail stays
    assert sorted(read(LISTED_AHEAD), key=str) == [
        ("core/storage/local.rs", 82, "medium"), ("core/sync/engine.rs", 520, "critical"),
        (None, None, "minor")]
