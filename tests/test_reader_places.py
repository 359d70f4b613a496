"""The reader on where a finding's place sits when the item does not open with it (issue:
read what real reviewers print): records of fields, a file named by the section heading,
table cells, trailing lists of places, places above a diff hunk.  One fixture per family,
written for these tests in several variations (spacing, bullets, heading levels,
languages, paths); each family is the shape, not one reviewer's spelling of it.
"""

from __future__ import annotations

import pytest

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
