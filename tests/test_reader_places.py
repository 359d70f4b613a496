"""The reader on where a finding's place sits when the item does not open with it (issue:
read what real reviewers print): records of fields, a file named by the section heading,
table cells, trailing lists of places, places above a diff hunk.  One fixture per family,
written for these tests in several variations (spacing, bullets, heading levels,
languages, paths); each family is the shape, not one reviewer's spelling of it.
"""

from __future__ import annotations

import pytest
from reader_kit import located

from council_filters.verdict import reading


def read(text: str) -> reading.Reading:
    return reading.read(text.encode(), "tester")


def where(text: str) -> list[tuple]:
    return [(f.get("file"), f.get("line"), f.get("severity")) for f in read(text).findings]


def places(text: str) -> list[tuple]:
    return [(f.get("file"), f.get("line")) for f in read(text).findings]


# --------------------------------------------------------------------------- #
# 1. A record of fields whose Location / File field gives the place
# --------------------------------------------------------------------------- #
FIELD_RECORDS = {
    "numbered-bold-fields-under-a-title": """\
# Review of the storage design notes

1. **Classification:** Factual error
   **Location:** `storage.md` → section 4, the retention table
   **Description:** The table says snapshots are kept for a year, the code keeps them a week.

2. **Classification:** Gap
   **Location:** `ops/runbook.md` (overall)
   **Description:** Nothing says what to do when the restore job times out.
""",
    "plain-keys-dashes-no-title": """\
- Category: consistency
  Location: docs/api.md
  Claim: the two pages give different default page sizes for the same endpoint.
- Category: accuracy
  Location: docs/limits.md:40
  Claim: the documented limit is ten times the configured one.
""",
    "nested-field-list-under-a-group-heading": """\
## Problems

### Structural failures

1. **No rollback step** (CRITICAL)
   - **File**: MIGRATION_PLAN.md:88-92
   - **Issue**: The plan drops the old table before the new one is verified.
2. **No baseline** (HIGH)
   - **File**: MIGRATION_PLAN.md:130
   - **Issue**: Success is measured against nothing.
""",
    "other-language-field": """\
* **Kategorie:** Fehler
  **Datei:** `src/lager/bestand.py:17`
  **Beschreibung:** Der Bestand wird vor der Sperre gelesen.
* **Kategorie:** Stil
  **Datei:** `src/lager/export.py`
  **Beschreibung:** Die Funktion ist viel zu lang.
""",
}

FIELD_RECORD_PLACES = {
    "numbered-bold-fields-under-a-title": [("storage.md", None), ("ops/runbook.md", None)],
    "plain-keys-dashes-no-title": [("docs/api.md", None), ("docs/limits.md", 40)],
    "nested-field-list-under-a-group-heading": [("MIGRATION_PLAN.md", 88),
                                                ("MIGRATION_PLAN.md", 130)],
    "other-language-field": [("src/lager/bestand.py", 17), ("src/lager/export.py", None)],
}


@pytest.mark.parametrize("name", sorted(FIELD_RECORDS))
def test_a_record_of_fields_is_a_finding_at_its_location_field(name: str) -> None:
    assert places(FIELD_RECORDS[name]) == FIELD_RECORD_PLACES[name]


def test_a_record_of_fields_takes_its_text_from_the_field_that_says_what_is_wrong() -> None:
    found = read(FIELD_RECORDS["numbered-bold-fields-under-a-title"]).findings
    assert found[0]["summary"].startswith("The table says snapshots")
    group = read(FIELD_RECORDS["nested-field-list-under-a-group-heading"]).findings
    assert [f.get("severity") for f in group] == ["critical", "critical"]


def test_one_field_record_under_a_finding_heading_stays_that_findings_field() -> None:
    text = """\
### Finding 3: the cache is never invalidated

- **File:** `cache/store.go:41`
  **Severity:** high
"""
    assert where(text) == [("cache/store.go", 41, "critical")]


# --------------------------------------------------------------------------- #
# 2. A file named by the section heading gives its file to the findings under it
# --------------------------------------------------------------------------- #
HEADING_FILES = {
    "file-in-parentheses-then-bold-labels": """\
# Security review

## 1. Token scanner (`core/scan/tokens.py`)

### Strengths

1. **Broad coverage**
   - many kinds of keys

### Areas for improvement

**MINOR - Speed**:
- Every pattern is compiled again for each text
- **Recommendation**: compile them once

## 2. Audit trail (`core/audit/trail.py`)

### Areas for improvement

**MINOR - Rotation**:
- The log file grows without a bound
""",
    "numbered-heading-file-then-dash": """\
## Findings

#### 1. `billing/invoice.rb` — rounding

- Line 40: totals are rounded before the tax is added
- Line 52: the currency is taken from the first item only

#### 2. `billing/refund.rb` — notes

- The refund path has no test at all
""",
    "file-heading-with-line-items-in-parentheses": """\
### Review notes: server/http/router.go

* (L12) the route table is rebuilt on every request
* (L30) a panic in a handler takes the server down
""",
}

HEADING_FILE_PLACES = {
    "file-in-parentheses-then-bold-labels": [
        ("core/scan/tokens.py", None, "minor"), ("core/audit/trail.py", None, "minor")],
    "numbered-heading-file-then-dash": [
        ("billing/invoice.rb", 40, None), ("billing/invoice.rb", 52, None),
        ("billing/refund.rb", None, None)],
    "file-heading-with-line-items-in-parentheses": [
        ("server/http/router.go", 12, None), ("server/http/router.go", 30, None)],
}


@pytest.mark.parametrize("name", sorted(HEADING_FILES))
def test_the_file_a_section_heading_names_is_the_file_of_its_findings(name: str) -> None:
    assert where(HEADING_FILES[name]) == HEADING_FILE_PLACES[name]


def test_a_heading_naming_several_files_or_a_missing_one_gives_none() -> None:
    text = """\
# Review

## Comparing `a/x.py` with `a/y.py`

- **[P2]** the two copies of the parser drift apart
"""
    assert where(text) == [(None, None, "medium")]
    text = """\
# Review

## Missing `docs/upgrade.md`

- **[P3]** users get no upgrade path
"""
    assert where(text) == [(None, None, "minor")]


def test_a_per_file_pass_over_findings_given_above_adds_none_at_their_place() -> None:
    text = """\
## Issues

1. **No rollback step** (CRITICAL)
   - **File**: PLAN.md:76-88
   - **Issue**: the plan drops the old table before the new one is checked

## Detailed analysis by file

### PLAN.md - all issues

- Lines 76-88: the plan drops the old table with no rollback step
- Lines 120-125: the cut-over date is not set anywhere
"""
    assert places(text) == [("PLAN.md", 76), ("PLAN.md", 120)]


# --------------------------------------------------------------------------- #
# 3. A table with no file column: the cell that opens with the place
# --------------------------------------------------------------------------- #
TABLES_WITHOUT_A_FILE_COLUMN = {
    "description-cell-opens-with-the-place": """\
## Low priority - nice to have

| Issue | Source | Description |
|-------|--------|-------------|
| List cloned each frame | lint | `ui/main_view.rs:267` - iterate by index instead |
| Cache never pruned | lint | `ui/device_cache.rs` — keep only the live ids |
| Enum forces one choice | design | Consider a repeated field instead |
""",
    "issue-cell-opens-with-a-bare-place": """\
### Findings

| # | Problem | Severity |
|---|---|---|
| 1 | src/api/users.ts:88-90 the id is never checked | high |
| 2 | retries are unbounded | low |
""",
}

TABLE_PLACES = {
    "description-cell-opens-with-the-place": [
        ("ui/main_view.rs", 267, "minor"), ("ui/device_cache.rs", None, "minor"),
        (None, None, "minor")],
    "issue-cell-opens-with-a-bare-place": [
        ("src/api/users.ts", 88, "critical"), (None, None, "minor")],
}


@pytest.mark.parametrize("name", sorted(TABLES_WITHOUT_A_FILE_COLUMN))
def test_a_row_takes_the_place_a_cell_opens_with(name: str) -> None:
    assert where(TABLES_WITHOUT_A_FILE_COLUMN[name]) == TABLE_PLACES[name]


def test_a_cell_that_is_only_a_file_or_cites_one_later_is_no_place() -> None:
    text = """\
### Wrong paths [ERROR]

| Plan reference | Reality | Issue |
|---|---|---|
| `src/types/` for the model | `src/models/user.ts` | the plan points at the wrong folder |
| the old loader | gone | removed earlier, see `src/load.ts:12` for the new one |
"""
    assert places(text) == [(None, None), (None, None)]


# --------------------------------------------------------------------------- #
# 4. An item that ends with its places: one finding a place
# --------------------------------------------------------------------------- #
TRAILING_PLACES = {
    "parenthesis-of-code-places": (
        "- 1. [Critical] The copy step resolves the path against the wrong root, so the "
        "environment is never cloned (`setup/clone.ps1:126`, `setup/clone.ps1:150`).\n",
        [("setup/clone.ps1", 126), ("setup/clone.ps1", 150)]),
    "after-a-dash-two-files": (
        "* [WARNING] the claim has no check and no fallback task \u2014 "
        "`plans/lint/tasks.md:5`, `specs/lint/spec.md:14-17`\n",
        [("plans/lint/tasks.md", 5), ("specs/lint/spec.md", 14)]),
    "bare-places-with-and": (
        "1. **[P2]** retries are never capped (net/retry.go:30 and net/pool.go:71)\n",
        [("net/retry.go", 30), ("net/pool.go", 71)]),
}


@pytest.mark.parametrize("name", sorted(TRAILING_PLACES))
def test_an_item_ending_with_its_places_is_one_finding_with_related_places(name: str) -> None:
    text, want = TRAILING_PLACES[name]
    assert located(read("## Issues\n\n" + text).findings) == [(want[0], want[1:])]


def test_places_cited_as_evidence_at_the_end_stay_one_finding() -> None:
    text = ("## Issues\n\n- [High] the token is logged in clear "
            "(see also `log/fmt.py:12`, `log/fmt.py:40` for the right way)\n")
    assert len(places(text)) == 1


# --------------------------------------------------------------------------- #
# 5. A review thread's envelope line, then the place, then the diff hunk
# --------------------------------------------------------------------------- #
THREADS = {
    "badge-title-under-the-hunk": """\
lintbot[bot] \u00b7 review thread \u00b7 2031-03-04
tools/agents/reviewer.md:7
```diff
@@ -0,0 +1,20 @@
+name: reviewer
+tools: Read, Grep
```
**lintbot[bot]**:
**![P1 Badge](https://img.shields.io/badge/P1-orange)  Give the agent the Write tool**

The agent is told to save its report but cannot write files, so the report is lost.
""",
    "plain-comment-with-author-reply": """\
Copilot | review thread | 2031-03-05
.github/workflows/release.yml:22
~~~diff
+      - run: npm publish
~~~
**Copilot**:
The publish step runs on every push, not only on tags, so each merge to main publishes.

**maintainer** (author):
fixed
""",
}


@pytest.mark.parametrize("name", sorted(THREADS))
def test_a_thread_envelope_then_the_place_above_the_hunk(name: str) -> None:
    want = {"badge-title-under-the-hunk": [("tools/agents/reviewer.md", 7, "critical")],
            "plain-comment-with-author-reply": [(".github/workflows/release.yml", 22, None)]}
    assert where(THREADS[name]) == want[name]


# --------------------------------------------------------------------------- #
# 6. A file and a list of its lines: one finding, the other lines related
# --------------------------------------------------------------------------- #
LINE_LISTS = {
    "bold-file-then-lines": (
        "## Critical style issues\n\n### Missing braces (5 violations)\n\n"
        "**Billing/Invoice.cs violations at lines:** 12, 30, 31 and 88\n",
        [("Billing/Invoice.cs", 12), ("Billing/Invoice.cs", 30), ("Billing/Invoice.cs", 31),
         ("Billing/Invoice.cs", 88)]),
    "finding-at-one-of-the-listed-lines": (
        "## Issues\n\n- [Low] `web/form.tsx:8` leftover debug probes (lines 8 and 34)\n",
        [("web/form.tsx", 8), ("web/form.tsx", 34)]),
}


@pytest.mark.parametrize("name", sorted(LINE_LISTS))
def test_a_file_and_a_list_of_its_lines_is_one_finding_the_lines_related(name: str) -> None:
    text, want = LINE_LISTS[name]
    assert located(read(text).findings) == [(want[0], want[1:])]


def test_a_list_of_lines_that_is_not_the_findings_place_adds_none() -> None:
    # the finding is at line 5; the lines listed are other code it compares with
    text = "## Issues\n\n- [Low] `web/form.tsx:5` differs from the helpers at lines 40 and 52\n"
    assert places(text) == [("web/form.tsx", 5)]
    # a range is one place, not two lines
    text = "## Issues\n\n- [Low] `web/form.tsx` lines 40-52, the loop is unbounded\n"
    assert places(text) == [("web/form.tsx", 40)]


# --------------------------------------------------------------------------- #
# 7. A file given above the items (a heading, a `File:` line), the line in the item
# --------------------------------------------------------------------------- #
FILE_ABOVE_LINE_IN_ITEM = {
    "heading-then-line-at-the-end": """\
# Review

## Issues

### worker/queue.py

- The queue is never drained on shutdown (line 40)
- Jobs are retried forever, Line 88
- the lock is held across the await (L12)
""",
    "file-field-paragraph-then-line-items": """\
## Findings

### Handlers

**File:** `api/handlers.py`

- Line 7: the handler swallows every error
- (line 19) there is no auth check on the delete route

**Path**: `api/routes.py`

* L3 - the route table is built twice
""",
}

FILE_ABOVE_PLACES = {
    "heading-then-line-at-the-end": [
        ("worker/queue.py", 40), ("worker/queue.py", 88), ("worker/queue.py", 12)],
    "file-field-paragraph-then-line-items": [
        ("api/handlers.py", 7), ("api/handlers.py", 19), ("api/routes.py", 3)],
}


@pytest.mark.parametrize("name", sorted(FILE_ABOVE_LINE_IN_ITEM))
def test_the_file_above_and_the_line_in_the_item(name: str) -> None:
    assert places(FILE_ABOVE_LINE_IN_ITEM[name]) == FILE_ABOVE_PLACES[name]


def test_a_file_field_of_a_finding_heading_stays_its_field() -> None:
    text = """\
## Findings

### Finding 2: the session never expires

**File:** `auth/session.py`
**Line:** 41

The expiry is computed but never checked.
"""
    assert places(text) == [("auth/session.py", 41)]


def test_strengths_under_a_file_heading_with_lines_are_no_findings() -> None:
    text = """\
# Review

## `core/cache.py`

### Strengths

- The eviction is correct (line 40)
"""
    assert places(text) == []


# --------------------------------------------------------------------------- #
# 8. Severity from an aside that ends the title
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize("title,want", [
    ("**No dates per batch in the plan (minor documentation gap).**", "minor"),
    ("**The guard is missing (critical: data loss on retry)**", "critical"),
    ("Retry budget is shared across tenants (low priority)", "minor"),
    ("**The cache key ignores the locale (major)**", "medium"),
    ("Slow path on big inputs (high traffic pages)", None),
])
def test_a_title_ending_with_its_severity_in_an_aside(title: str, want: str | None) -> None:
    text = f"# Review\n\n## Issues found\n\n1. {title}\n   - more words about it\n"
    assert [f.get("severity") for f in read(text).findings] == [want]


# --------------------------------------------------------------------------- #
# 9. Location spellings: a dash before the line, an approximate line
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize("item,want", [
    ("`core/h.py` \u2014 L19: the error is swallowed", ("core/h.py", 19)),
    ("core/h.py - line 19: the error is swallowed", ("core/h.py", 19)),
    ("core/m.py (~L24): the flag is ignored", ("core/m.py", 24)),
    ("`core/m.py` (~line 24) the flag is ignored", ("core/m.py", 24)),
])
def test_a_dash_or_a_tilde_before_the_line(item: str, want: tuple) -> None:
    assert places(f"## Issues\n\n- {item}\n") == [want]



# --------------------------------------------------------------------------- #
# 10. A one-line record: its place field, then what is wrong
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize("item,want", [
    ("File: core/e.py | Line: 16 | the lock is never released",
     ("core/e.py", 16, "the lock is never released")),
    ("Location: core/g.py (function load, ~line 18) \u2014 the cache is bypassed",
     ("core/g.py", 18, "the cache is bypassed")),
    ("**Where:** `core/k.py`, `parse()` around line 22 \u2014 wrong encoding",
     ("core/k.py", 22, "wrong encoding")),
])
def test_a_one_line_record_is_a_finding_at_its_place(item: str, want: tuple) -> None:
    found = read(f"# Review\n\n## Issues\n\n1. {item}\n").findings
    assert [(f.get("file"), f.get("line"), f.get("summary")) for f in found] == [want]


def test_a_place_field_alone_under_a_finding_heading_is_no_record() -> None:
    text = "## Issues\n\n### Cache race (high)\n\n- **File:** `core/cache.py`\n- stale reads\n"
    assert places(text) == [("core/cache.py", None)]


# --------------------------------------------------------------------------- #
# 11. Places in the envelope: a notification's "In path:" line, a comment's JSON
# --------------------------------------------------------------------------- #
NOTIFICATION = """\
@reviewer-bot[bot] commented on this pull request.

In lib/store/cache.rb:

> +  def flush
> +  end

![medium](https://example.invalid/icons/medium-priority.svg)

Flushing does nothing, so old entries are served for ever.

---

In `lib/store/pool.rb`:

> +POOL = Pool.new

![high](https://example.invalid/icons/high-priority.svg)

The pool is opened when the file loads and is never closed.
"""


def test_a_notification_names_the_file_above_each_quoted_hunk() -> None:
    assert where(NOTIFICATION) == [("lib/store/cache.rb", None, "medium"),
                                   ("lib/store/pool.rb", None, "critical")]


def test_an_in_line_that_is_prose_names_no_file() -> None:
    text = "# Review\n\nIn general:\n\n> +x = 1\n\nThe names are fine.\n"
    assert places(text) == []


COMMENTS_JSON = (
    '[{"path": "src/app/cache.py", "line": null, "original_line": 42, '
    '"body": "![medium](https://example.invalid/medium-priority.svg)\\n\\n'
    'The cache is never cleared.", "user": {"login": "some-bot[bot]"}},\n'
    ' {"path": "src/app/db.py", "line": 10, "original_line": 7, '
    '"body": "**P1** the pool leaks"},\n'
    ' {"path": "README.md", "body": "_\u26a0\ufe0f Potential issue_ | _\U0001f7e0 Major_'
    '\\n\\n**Typo in the install step.**\\n\\nIt says pip instal."}]\n')


def test_a_review_comment_record_keeps_its_envelope_place_and_its_badge() -> None:
    found = read(COMMENTS_JSON).findings
    assert [(f.get("file"), f.get("line"), f.get("severity")) for f in found] == [
        ("src/app/cache.py", 42, "medium"), ("src/app/db.py", 10, "critical"),
        ("README.md", None, "medium")]
    assert found[2]["summary"] == "Typo in the install step."


# --------------------------------------------------------------------------- #
# 12. The reviewed document is the file of the items that cite only its lines
# --------------------------------------------------------------------------- #
REVIEWED_DOCUMENTS = {
    "reviewed-plan-key-windows-path": """\
# Plan review

**Reviewed plan**: D:\\work\\repo\\docs\\plans\\MIGRATION_PLAN.md
**Verdict**: REVISE

## Issues

- Lines 34-38: phase one is marked done but nothing was run
- L57: the rollback has no owner
- The timeline is too short overall
""",
    "title-names-the-spec": """\
# Review of `specs/storage.md`

## Concerns

1. Line 12 \u2014 the retention rule contradicts section 4
2. The glossary is missing
""",
    "reviewing-line": """\
Reviewing: design/rfc-7.md

### Findings
* L3: the goal is stated twice with different numbers
""",
}

REVIEWED_PLACES = {
    "reviewed-plan-key-windows-path": [("MIGRATION_PLAN.md", 34), ("MIGRATION_PLAN.md", 57),
                                       (None, None)],
    "title-names-the-spec": [("specs/storage.md", 12), (None, None)],
    "reviewing-line": [("design/rfc-7.md", 3)],
}


@pytest.mark.parametrize("name", sorted(REVIEWED_DOCUMENTS))
def test_the_reviewed_document_is_the_file_of_an_item_citing_only_its_line(name: str) -> None:
    assert places(REVIEWED_DOCUMENTS[name]) == REVIEWED_PLACES[name]


def test_a_review_of_several_documents_gives_no_file() -> None:
    text = ("**Reviewed plans**: the 29 files of docs/plans\n\n## Issues\n\n"
            "- L3: the goal is vague\n")
    assert places(text) == [(None, None)]


# --------------------------------------------------------------------------- #
# 13. A location field listing several files: one finding, the other files related
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize("value,want", [
    ("`guide.md` vs `api.md` vs `faq.md` (status wording)",
     [("guide.md", None), ("api.md", None), ("faq.md", None)]),
    ("`docs/a.md`, `docs/b.md` and `docs/c.md`",
     [("docs/a.md", None), ("docs/b.md", None), ("docs/c.md", None)]),
    # two files compared: the place and what it contradicts
    ("`web/layout.tsx` (block 1) vs `web/seo.tsx` (block 6)", [("web/layout.tsx", None)]),
    # a file after a semicolon is evidence
    ("`compose.yml` (line 29); `docs/log.txt` (2024-03-01)", [("compose.yml", 29)]),
])
def test_a_location_field_listing_files_is_one_finding_the_files_related(value: str,
                                                                         want: list) -> None:
    text = (f"# Review\n\n1. **Category:** consistency\n   **Location:** {value}\n"
            "   **Description:** the pages disagree on the default size.\n")
    assert located(read(text).findings) == [(want[0], want[1:])]


def test_the_items_own_tag_outranks_its_impact_field() -> None:
    text = """\
# Security review

## Areas for improvement

**MINOR - Rotation**:
- The log grows without a bound
- **Impact**: Medium - but not critical for v1

## Other issues

- [P1] The key is logged in clear
  - **Impact**: low, only in debug builds
"""
    assert [f.get("severity") for f in read(text).findings] == ["minor", "critical"]
    # with no tag of its own, an Impact field still gives the severity
    text = "# Review\n\n## Issues\n\n1. **Slow scan**\n   - **Impact**: High on big repositories\n"
    assert [f.get("severity") for f in read(text).findings] == ["critical"]


# --------------------------------------------------------------------------- #
# A heading that only names a file groups that file's findings: each item is one,
# and a line it cites alone (":88", "line 88") is a line of that file
# --------------------------------------------------------------------------- #
FILE_GROUPS = {
    "path-with-a-note-in-brackets-and-tagged-items": """\
# Storage layer review

## Findings by file

### src/store/cache.py  (240, the read cache)
- [C1] (P1) `evict()` removes the newest entry, not the oldest (`:88`). Flip the
  comparison.
- [C2] (P2) the timeout `30` is hard-coded; read it from settings instead
  (`:41`), the way `src/store/config.py:12` does.

### src/store/journal.py  (95, append log)
- [J1] (P2) `_legacy_path` is never called (`:17`) - remove it.
""",
    "backticked-path-then-plain-items-citing-lines-mid-sentence": """\
## Notes per file

#### `web/api/routes.ts`

- The upload handler trusts the client size header (line 120) and buffers
  everything in memory.
- Errors from the session store are swallowed at :64 and the request hangs.

#### `web/api/session.ts`

- Cookies are set without `SameSite` at :9, so cross-site posts carry them.
""",
}

FILE_GROUP_PLACES = {
    "path-with-a-note-in-brackets-and-tagged-items": [
        ("src/store/cache.py", 88, "critical"), ("src/store/cache.py", 41, "medium"),
        ("src/store/journal.py", 17, "medium")],
    "backticked-path-then-plain-items-citing-lines-mid-sentence": [
        ("web/api/routes.ts", 120, None), ("web/api/routes.ts", 64, None),
        ("web/api/session.ts", 9, None)],
}


@pytest.mark.parametrize("name", sorted(FILE_GROUPS))
def test_a_heading_that_only_names_a_file_groups_its_findings(name: str) -> None:
    assert where(FILE_GROUPS[name]) == FILE_GROUP_PLACES[name]


def test_a_file_heading_over_strengths_or_over_prose_keeps_its_reading() -> None:
    text = """\
# Review

## Strengths

### `lib/parse.py`

- Clear names and small functions (`:10`).
"""
    assert where(text) == []
    text = """\
## Findings

### `lib/parse.py`

The tokenizer drops the last character of every quoted string.
"""
    assert places(text) == [("lib/parse.py", None)]
    text = """\
## Findings

### ui/Editor.tsx (1400 lines)

One component runs every stage of the editor:
- loading the draft
- the toolbar and its menus
- saving (line 900 onward)
"""
    assert places(text) == [("ui/Editor.tsx", None)]


# --------------------------------------------------------------------------- #
# A field item of a heading's finding ("- **Evidence:** …") wrapped onto lines that open
# with a place: those lines go on with the field's value, no finding of their own
# --------------------------------------------------------------------------- #
WRAPPED_FIELDS = {
    "settled-item-whose-evidence-wraps-onto-places": """\
# Second pass

## Earlier findings, checked again

### #3 — No request metrics
- **Status:** `FIXED`
- **Evidence:** `prometheus-client==0.2` is pinned in `api/requirements.txt:14`.
  `api/metrics.py:9` registers the request counters at start-up.
  `api/server.py:410` serves them on a route of its own.
- **What changed:** counters plus a scrape route.
""",
    "open-finding-whose-impact-wraps-onto-a-place": """\
## Findings

### Jobs can run twice after a restart
- **Severity:** High
- **Location:** `queue/claim.go:52`
- **Impact:** two workers may take the same job (`v2` schema only).
  `queue/retry.go:88` then retries it a third time with no lock held.
""",
}

WRAPPED_FIELD_PLACES = {
    "settled-item-whose-evidence-wraps-onto-places": [],
    "open-finding-whose-impact-wraps-onto-a-place": [("queue/claim.go", 52, "critical")],
}


@pytest.mark.parametrize("name", sorted(WRAPPED_FIELDS))
def test_a_wrapped_field_value_opens_no_finding_at_the_place_it_wraps_to(name: str) -> None:
    assert where(WRAPPED_FIELDS[name]) == WRAPPED_FIELD_PLACES[name]


# --------------------------------------------------------------------------- #
# An item that is only a place and more lines of the same file ("`b.sh:4, 88`") is a
# place the heading's finding lists, no finding of its own
# --------------------------------------------------------------------------- #
LISTED_PLACES = {
    "dashes-with-extra-lines-after-a-comma-or-and": """\
## Security

### MEDIUM: Shell command built from input (3 files)

Three scripts pass user text to the shell:

- `tools/fetch.sh:12`
- `tools/pack.sh:4, 88`
- `tools/sync.sh:9 and 40`
""",
    "numbered-with-lines-words": """\
## Findings

#### [High] Secrets written to the log

The token reaches the log in two places:

1. `api/client.py:31`
2. `api/retry.py` lines 8, 57
""",
}

LISTED_PLACE_FINDINGS = {
    "dashes-with-extra-lines-after-a-comma-or-and": [("tools/fetch.sh", 12, "medium")],
    "numbered-with-lines-words": [("api/client.py", 31, "critical")],
}


@pytest.mark.parametrize("name", sorted(LISTED_PLACES))
def test_a_list_of_bare_places_with_more_lines_is_the_headings_one_finding(name: str) -> None:
    assert where(LISTED_PLACES[name]) == LISTED_PLACE_FINDINGS[name]


def test_a_risk_field_is_weaker_than_the_items_own_severity_tag() -> None:
    text = """\
## Findings

### HIGH: Token sent in the query string

The session token is appended to every URL (`web/api.js:40`).

**Risk:** Medium-High. Someone must first read the proxy logs.
"""
    assert where(text) == [("web/api.js", 40, "critical")]
    text = """\
## Findings

- **[LOW] Log file grows without bound** (`svc/log.go:12`)
  - **Risk:** high on small disks, but the service restarts daily.
"""
    assert where(text) == [("svc/log.go", 12, "minor")]


# --------------------------------------------------------------------------- #
# Suggestions graded by a severity ("## High Priority Suggestions") after the findings
# are more findings, not a recap of them
# --------------------------------------------------------------------------- #
GRADED_SUGGESTIONS = {
    "numbered-headings-one-listing-its-places": """\
## Must fix

### 1. Upload path is not checked
**File:** `srv/upload.py:20-24`

Any absolute path is accepted.

## High Priority Suggestions

### 2. Retry loop copied four times
The same loop sits in three modules:
- `jobs/a.py:10-19`
- `jobs/b.py:30-41`
- `jobs/c.py:5-12`

### 3. Settings read on every call
**File:** `srv/settings.py:61`
""",
    "sub-headings-over-a-lower-case-grade": """\
## Blocking

#### Timeout ignored on retry
`net/dial.go:88` drops the deadline when it dials again.

## Low-priority suggestions:

#### Pool size is fixed
The size is a constant in two places:
- `net/pool.go:14`
- `net/pool.go:90`

#### Logger built twice
`net/log.go:3` and `net/main.go:12` each create one.
""",
}

GRADED_SUGGESTION_PLACES = {
    "numbered-headings-one-listing-its-places": [
        ("srv/upload.py", 20), ("jobs/a.py", 10), ("srv/settings.py", 61)],
    "sub-headings-over-a-lower-case-grade": [
        ("net/dial.go", 88), ("net/pool.go", 14), ("net/log.go", 3)],
}


@pytest.mark.parametrize("name", sorted(GRADED_SUGGESTIONS))
def test_suggestions_graded_by_severity_after_findings_are_findings(name: str) -> None:
    assert places(GRADED_SUGGESTIONS[name]) == GRADED_SUGGESTION_PLACES[name]


def test_an_id_in_brackets_then_a_tag_in_parentheses_gives_the_tags_severity() -> None:
    text = """\
## Findings

- [B2] (P1, perf) `cache/lru.py:40` evicts on every read.
- [B3] (P2) `cache/lru.py:77` never shrinks the table.
"""
    assert where(text) == [("cache/lru.py", 40, "critical"), ("cache/lru.py", 77, "medium")]
    text = """\
## Review

### [Q4] (low, style) Long lines in `ui/form.ts:12`

The line is 180 characters wide.
"""
    assert where(text) == [("ui/form.ts", 12, "minor")]


@pytest.mark.parametrize("text", [
    """\
## Security review

1. **Temp files**: written with mode 0600 in `io/tmp.py:14` only after the rename.
2. **Path handling**: Good - `io/paths.py:30` resolves every name before use.
""",
    """\
## Findings

- Temp files: written with mode 0600 in `io/tmp.py:14` only after the rename.
- Retry policy: solid. `io/retry.py:8` caps the backoff at a minute.
""",
])
def test_an_item_whose_label_is_followed_by_praise_is_no_finding(text: str) -> None:
    assert places(text) == [("io/tmp.py", 14)]


def test_a_labelled_item_whose_praise_goes_on_to_a_fault_stays_a_finding() -> None:
    text = """\
## Findings

- Caching: fine - but `io/cache.py:5` never expires an entry.
"""
    assert places(text) == [("io/cache.py", 5)]
