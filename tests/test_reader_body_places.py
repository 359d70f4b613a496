"""Where a heading's finding is when its heading says less than its body (issue: read what
real reviewers print): a heading naming a file without a line takes that file's path and
line from its evidence, a body that opens with a bare label names the file on its first
line of text, a heading asking for more coverage is a finding, and a priority written as
an aside is the finding's severity.  Fixtures written for these tests."""

from __future__ import annotations

import pytest

from council_filters.verdict import reading


def findings(text: str) -> list[dict[str, object]]:
    return reading.read(text.encode(), "tester").findings


def test_a_heading_file_takes_its_path_and_line_from_the_evidence() -> None:
    text = """\
## Findings

### 1) `Cart.tsx` keeps three copies of the same state

Evidence:
- The totals are recomputed in three handlers: `web/src/Cart.tsx:212`, `web/src/Cart.tsx:260`.

Impact:
- A change to one copy leaves the others stale.
"""
    got = findings(text)
    assert [(f.get("file"), f.get("line")) for f in got] == [("web/src/Cart.tsx", 212)]


def test_evidence_in_another_file_does_not_move_the_heading_file() -> None:
    text = """\
## Findings

### 1) `Cart.tsx` keeps three copies of the same state

Evidence:
- The same pattern was fixed before in `web/src/Basket.tsx:40`.
"""
    assert [(f.get("file"), f.get("line")) for f in findings(text)] == [("Cart.tsx", None)]


@pytest.mark.parametrize("label", ["**Observation:**", "Observation:", "**Problem**:"])
def test_a_body_opening_with_a_bare_label_names_the_file_on_its_first_line_of_text(
        label: str) -> None:
    text = f"""\
# Review of the export job

## Recommendations

### 1. Add retries to the upload step

{label}

The upload in `upload_step.py` gives up after the first timeout. The helper `net_retry.py` exists.

### 2. Log the batch size

{label}

Nothing records how large a batch was when it failed.
"""
    assert [f.get("file") for f in findings(text)] == ["upload_step.py", None]


def test_a_heading_asking_for_more_coverage_is_a_finding_with_its_priority() -> None:
    text = """\
## Recommendations

### 1. Watch the cache size (Priority: Low)
The cache has no upper bound on its entries.

### 2. Improve Test Coverage (Priority: High)
Ensure `loader_test.go` covers the retry path and the timeout.
"""
    got = findings(text)
    assert [(f.get("file"), f.get("severity")) for f in got] == [
        (None, "minor"), ("loader_test.go", "critical")]


def test_a_coverage_section_still_lists_no_findings() -> None:
    text = """\
## Findings

- `api/routes.py:12` — the handler swallows the error.

## Test coverage

- `api/routes.py` — covered by `tests/test_routes.py`
- `api/models.py` — covered by `tests/test_models.py`
"""
    assert [(f.get("file"), f.get("line")) for f in findings(text)] == [("api/routes.py", 12)]


BOLD_TITLES = """\
## Findings

**H1. The filter reads the column type from the first row only, so a null first
row makes it throw.** `src/filter.js:214` takes `typeof` of row 0.

**H2. The status of an empty series is row 0's.** `src/status.js:33` maps invalid
values to index 0.

**H3. The retry helper can return nothing.**
`src/load.js:90` returns inside the loop.
"""


def test_a_bold_title_followed_at_once_by_its_place_is_a_finding_there() -> None:
    got = findings(BOLD_TITLES)
    assert [(f.get("file"), f.get("line")) for f in got] == [
        ("src/filter.js", 214), ("src/status.js", 33), ("src/load.js", 90)]
    assert str(got[0].get("summary")).startswith("H1. The filter reads")
    assert "takes `typeof`" in str(got[0].get("discussion"))


def test_a_bold_lead_without_a_place_opens_nothing_new() -> None:
    text = """\
## Findings

- `src/a.py:3` — the lock is never released.

**Note.** The tests pass on this branch.
"""
    assert [(f.get("file"), f.get("line")) for f in findings(text)] == [("src/a.py", 3)]


SEVERITY_GROUPS = """\
# Project Review & Improvement Suggestions

## 1. Project Review

### Design Summary

**Purpose.** The library loads CSV files and hands back tables.

### Findings by Priority

#### 🔴 High — Correctness

**H1. The filter throws on a null first row.** `src/filter.js:214` reads row 0.

#### 🟠 Medium

- **M1. Loader duplication.** Three loaders repeat the same block.

#### 🟡 Low / Documentation

- **L1.** The README omits the date filter.
- **L2.** The clamping of negatives is undocumented.
"""


def test_a_severity_with_its_category_is_the_group_of_the_findings_under_it() -> None:
    got = findings(SEVERITY_GROUPS)
    assert [(f.get("file"), f.get("severity")) for f in got] == [
        ("src/filter.js", "critical"), (None, "medium"), (None, "minor"), (None, "minor")]


def test_a_top_heading_naming_a_review_and_suggestions_is_a_title() -> None:
    got = findings(SEVERITY_GROUPS)
    assert not any("Design Summary" in str(f.get("summary")) for f in got)


FIELDS_UNDER_A_HEADING = """\
## Critical Issues

### 4. ⚠️ **High: Overlap detection loses precision**

**File:** `src/sampler/Loop.cpp:105-124`
**Severity:** MEDIUM - samples can be attributed wrongly
**Impact:** short intervals read as zero

**Problem:**

The difference is cast to milliseconds after a microsecond is taken off.

Issues:
1. Casting to milliseconds drops the remainder
2. The microsecond taken off is not explained

**Fix Required:**
- Keep the arithmetic in nanoseconds
- Check a minimum before taking the margin off
"""


def test_a_heading_finding_keeps_its_field_lines_and_lists_as_its_parts() -> None:
    got = findings(FIELDS_UNDER_A_HEADING)
    assert [(f.get("file"), f.get("line"), f.get("severity")) for f in got] == [
        ("src/sampler/Loop.cpp", 105, "medium")]
    assert "Overlap detection" in str(got[0].get("summary"))


DIMENSIONS = """\
# {title}

This document sums up what was looked at.

## 1. Non-idiomatic code

*   **Odd error name:** `ParseError::Oops` in `src/parse/errors.rs` does not say what failed.
*   **Lint switched off:** the allow list in `src/lib.rs` hides unused variables everywhere.

## 2. Hard to follow

*   **Dense predictor:** `predict` in `src/parse/motion.rs` is one long function with many cases.
"""


def test_a_reviews_dimension_sections_hold_its_titled_critiques_at_their_places() -> None:
    got = findings(DIMENSIONS.format(title="Decoder Codebase Review"))
    assert [f.get("file") for f in got] == [
        "src/parse/errors.rs", "src/lib.rs", "src/parse/motion.rs"]


def test_the_same_sections_outside_a_review_are_not_read_as_findings() -> None:
    assert findings(DIMENSIONS.format(title="Decoder Architecture")) == []


def test_a_titled_item_that_only_describes_is_no_finding_in_a_dimension() -> None:
    text = """\
# Service Code Review

## 4. Backlog and roadmap

*   **Current blocker:** the startup issue in `docs/PRIORITY.md` is rightly the top priority.
*   **Stale retries:** `src/net/retry.go` retries forever instead of backing off.
"""
    assert [f.get("file") for f in findings(text)] == ["src/net/retry.go"]


def test_a_heading_with_its_own_priority_aside_is_a_finding_of_that_severity() -> None:
    text = """\
## Technical Review

### Areas for future enhancement

#### 1. Embedded script (Priority: Medium)
**Issue:** a Python script is kept in Go strings.

#### 2. Audio resampling (Priority: Low)
**Issue:** the rate is cut by dropping samples.
"""
    got = findings(text)
    assert [(f.get("summary"), f.get("severity")) for f in got] == [
        ("Embedded script", "medium"), ("Audio resampling", "minor")]


TAGGED_PARAGRAPHS = """\
# PR Review: fix: resolve chain name and memory issues

**Summary of Changes**
- Truncates chain names to 19 characters.
- Caps the audit log at 10,000 entries.

**Feedback**

🔴 **Critical: chain names can collide**
In `orchestrator/vm/firewall.rs`:
```rust
let id: String = vm_id.chars().take(19).collect();
```
Two machines with the same prefix get the same chain.

🟡 **Warning: coverage fell from 68% to 50%**
Modules were left out of the build on some platforms.

**Decision**
**Request Changes**
"""


def test_a_place_line_under_a_tagged_title_is_that_findings_place_only() -> None:
    got = findings(TAGGED_PARAGRAPHS)
    assert [(f.get("file"), f.get("severity")) for f in got] == [
        ("orchestrator/vm/firewall.rs", "critical"), (None, "medium")]


def test_a_top_heading_naming_the_reviewed_change_is_a_title() -> None:
    got = findings(TAGGED_PARAGRAPHS)
    assert not any(str(f.get("summary")) in ("Summary of Changes", "Feedback", "Decision")
                   for f in got)


def test_a_named_group_of_issues_holds_its_titled_critiques_at_their_places() -> None:
    text = """\
# Decoder notes

## 4. Obvious performance issues

*   **Table lookups:** `src/parse/tables.rs` searches large tables linearly for every token.
*   **Repeated interpolation:** `src/parse/inter.rs` recomputes half steps instead of reusing them.
"""
    assert [f.get("file") for f in findings(text)] == ["src/parse/tables.rs", "src/parse/inter.rs"]


def test_a_review_ending_with_two_code_blocks_is_read_whole() -> None:
    text = """\
## Issues

1. **React keys use card titles** in `src/Board.tsx:199` — duplicates collide.

## Note on the tool

```
npm i -g some-cli  -> fails
```

When the package is published again, rerun:

```bash
some-cli review --write REVIEW.md
```
"""
    assert [(f.get("file"), f.get("line")) for f in findings(text)] == [("src/Board.tsx", 199)]


def test_a_severity_in_code_opens_a_heading_that_titles_its_one_finding() -> None:
    text = """\
## Findings

### 1. `critical` — Unsafe execution boundary
`pkg/loop.ts:217` runs the target's install scripts with the full environment.

### 2. `medium` — Transcripts are stored unredacted
`pkg/callers.ts:22` records whole prompts.
"""
    got = findings(text)
    assert [(f.get("file"), f.get("line"), f.get("severity")) for f in got] == [
        ("pkg/loop.ts", 217, "critical"), ("pkg/callers.ts", 22, "medium")]
    assert "Unsafe execution boundary" in str(got[0].get("summary"))
    assert "install scripts" in str(got[0].get("discussion"))


def test_a_file_a_heading_names_as_its_source_is_not_its_sections_place() -> None:
    text = """\
## Open issues (from tasks/todo.md)

**C-03 — Evidence chain is not enforced**
The validator exists but nothing calls it at runtime.
Files to check: agents/partner/agent.py, tools/evidence/classifier.py

**C-05 — Pricing gap**
The fee section is generated with blank rates when no profile exists.
"""
    assert [f.get("file") for f in findings(text)] == ["agents/partner/agent.py", None]


def test_a_config_file_opening_the_body_is_the_place() -> None:
    text = """\
## Remaining findings

### P2 — Pin release inputs

`requirements.txt` and `requirements-dev.txt` use lower bounds only.
"""
    assert [(f.get("file"), f.get("severity")) for f in findings(text)] == [
        ("requirements.txt", "medium")]


def test_a_finding_heading_that_mentions_a_question_is_still_a_finding() -> None:
    text = """\
## Findings

### 7. `high` — Answers are keyed only by the normalized question text
`src/domain/questions.ts:75` hashes the text alone, so two files share one answer.

## Open questions

- Should the cache survive a restart?
"""
    assert [(f.get("file"), f.get("line")) for f in findings(text)] == [
        ("src/domain/questions.ts", 75)]


def test_a_reviews_numbered_headings_are_its_findings_whatever_their_section() -> None:
    text = """\
# Code Review Notes

## Missing documentation

### 8. No doc comments on most public items

The following have no doc comments:
- All algorithm structs
- All config structs and their fields

**Fix:** Add `///` comments to every public item.

### 9. `Rng` missing `Debug` and `Clone`

`Rng` wraps a generator that implements both.

## Overview

### The crate at a glance
It generates grids.
"""
    assert [str(f.get("summary")) for f in findings(text)] == [
        "No doc comments on most public items", "`Rng` missing `Debug` and `Clone`"]


@pytest.mark.parametrize(("heading", "want"), [
    ("## 高优先级问题", "critical"), ("### 심각한 문제", "critical"), ("### 높음", "critical"),
    ("### 중간", "medium"), ("### 中优先级", "medium"), ("### 낮음", "minor"),
    ("## 低优先级", "minor")])
def test_severity_headings_in_chinese_and_korean(heading: str, want: str) -> None:
    text = f"{heading}\n\n- `src/a.py:3` the lock is never released.\n"
    assert [f.get("severity") for f in findings(text)] == [want]
