# ruff: noqa: E501  (a review line is as long as its writer made it)
"""The reader on plain-text reviews (issue: read what real reviewers print): answers with
no Markdown heading at all, as terminal assistants print them, indented under a bullet
glyph, their section titles written as lines standing alone.  Fixtures written for these
tests:

- a stand-alone title line ("Blocking Problems (the build is broken)", "5. Security
  Review" after a rule) is the heading it stands for: its severity covers the numbered
  paragraphs under it, and the title itself is no finding;
- "High-Severity Problems" names its severity as "High Severity Problems" does;
- "CRITICAL: None" says that severity has nothing: no finding;
- a title saying its items are fixed ("🟢 PROBLEMS FIXED") over a list: no findings;
- "Option A — ..." over pros and cons (⚠️ marks a con): an alternative weighed, not findings.
"""

from __future__ import annotations

from council_filters.verdict import document, reading


def where(text: str) -> list[tuple]:
    return [(f.get("file"), f.get("line"), f.get("severity"))
            for f in reading.read(text.encode(), "tester").findings]


SECTIONED = """\
● Review of the export job

  I went through the whole export pipeline and found problems that stop it from running.

  Blocking Problems (the build is broken)

  1. Unresolved import: the job imports a writer module that was renamed last week, so the
  worker exits at start.
  2. Wrong queue name: the scheduler posts to a queue nobody consumes.

  High-Severity Problems

  3. Silent truncation: rows past the first thousand are dropped without a warning.

  Medium-Severity Problems

  4. Log noise: every row logs at info level.

  Things that work

  - The retry policy is sound and well tested.

  Overall the design holds; the wiring does not.
"""


def test_standing_titles_give_their_severity_to_the_paragraphs_under_them() -> None:
    assert where(SECTIONED) == [
        (None, None, "critical"),
        (None, None, "critical"),
        (None, None, "critical"),
        (None, None, "medium"),
    ]


EMPTY_GROUPS = """\
⏺ Code review of the upload service

  Problems Found

  CRITICAL: None

  HIGH: none

  MEDIUM:

  1. Stale cache key - the key omits the tenant, so two tenants can read each other's
  cached page (web/cache.py:41)

  LOW:

  1. Typo in a log message - "recieved" in the upload handler
"""


def test_a_severity_with_none_under_it_is_no_finding() -> None:
    assert where(EMPTY_GROUPS) == [("web/cache.py", 41, "medium"), (None, None, "minor")]


NUMBERED_SECTIONS = """\
  4. Problems

  1. The nightly job never rotates its log file, so the disk fills in a month.

  ---
  5. Security Review

  No secret reaches a log line; tokens are masked before formatting.

  ---
  6. Closing Thoughts

  Good work overall.
"""


def test_a_numbered_title_standing_alone_is_a_section_not_a_finding() -> None:
    summaries = [f.get("summary", "") for f in reading.read(NUMBERED_SECTIONS.encode(), "t").findings]
    assert len(summaries) == 1 and summaries[0].startswith("The nightly job")


FIXED_GROUPS = """\
✦ Review done, all problems fixed.

  Problems found: 1 High, 2 Low (all fixed)

  🔴 HIGH PROBLEMS FIXED
   - Unbounded read: the upload handler now caps the body at 10 MB.

  🟢 LOW PROBLEMS FIXED
   - Naming: renamed the helper to say what it returns.
   - Docs: the README states the new flag.

  Status: done
"""


def test_items_under_a_title_that_says_they_are_fixed_are_no_findings() -> None:
    assert where(FIXED_GROUPS) == []


OPTIONS = """\
  What hurts today

  Minor: the pool size is read twice (db/pool.py:12), harmless but confusing.

  Option A — a query builder with migrations

  - ✅ Removes the hand-written SQL.
  - ⚠️ A second set of models to keep in step with the API types.

  Option B — keep raw SQL, add a migration tool

  - ✅ Smallest change.
  - ⚠️ The N+1 loops stay.

  My read: Option A.
"""


def test_the_cons_of_an_option_weighed_are_not_findings() -> None:
    assert where(OPTIONS) == [("db/pool.py", 12, "minor")]


def test_a_markdown_answer_keeps_its_own_headings() -> None:
    text = "## Findings\n\nPlain words standing alone\n\n- a\n"
    assert document.plain_headings(text) == text
    plain = "Intro line.\n\nPlain words standing alone\n\n- a\n"
    assert document.plain_headings(plain).split("\n")[2] == "## Plain words standing alone"
    # a sentence, a bold line, a located line and a bullet are never titles
    for line in ("It reads well.", "**Bold title**", "Parser (src/p.py:3)", "- an item"):
        text = "x\n\n" + line + "\n\ny\n"
        assert document.plain_headings(text) == text, line


# a codex exec transcript saved from its last commands on (no banner, no trailer): the
# answer is the last "codex" message, which the CLI printed twice
CODEX_TAIL = """\
exec
bash -lc 'sed -n 1,40p src/sync/clock.ts' in /home/dev/app
 succeeded in 3ms:
export function stale(a: number, b: number) {
  return a > b;
}

codex
The staleness check trusts file times, which copies and checkouts reset.

Review comment:

- [P2] Compare content hashes, not file times — /home/dev/app/src/sync/clock.ts:12-15
  A checkout gives every file a fresh time, so a stale export passes as current.
The staleness check trusts file times, which copies and checkouts reset.

Review comment:

- [P2] Compare content hashes, not file times — /home/dev/app/src/sync/clock.ts:12-15
  A checkout gives every file a fresh time, so a stale export passes as current.
"""


def test_a_codex_transcript_saved_without_its_banner_is_read_once() -> None:
    assert where(CODEX_TAIL) == [("/home/dev/app/src/sync/clock.ts", 12, "medium")]


BUNDLE_ID = """\
  Problems Found

  1. Shared identifier: every test target uses the bundle ID (org.sample.WidgetGallery) of the app.
"""


def test_a_reverse_domain_name_is_not_a_file() -> None:
    assert [f for f, _, _ in where(BUNDLE_ID)] == [None]


HURTING = """\
⏺ Code review of the billing service

  It is a small, readable service; the trouble is all in how it talks to the database.

  What's actually hurting

  1. Per-row lookups. list_invoices asks for each customer in its own query, so a page
  of fifty invoices costs fifty-one round trips.

  2. refund has three branches (billing/refund.py:40–58) that each build their own SQL.

  What is wrong with the tests

  1. The clock is real: two tests fail after midnight (tests/test_due.py:12).
"""


def test_a_section_saying_what_hurts_or_what_is_wrong_lists_findings() -> None:
    assert where(HURTING) == [
        (None, None, None),
        ("billing/refund.py", 40, None),
        ("tests/test_due.py", 12, None),
    ]


FIELD_TABLES = """\
  🔴 BLOCKING PROBLEMS

  1. Two stylesheets both define the page colours

  | Aspect   | Details                                           |
  |----------|---------------------------------------------------|
  | File     | web/styles/preview.css:40-52                      |
  | Evidence | both files set the same root colour variables     |
  | Impact   | whichever loads last repaints every page          |
  | Fix      | scope the preview variables under its own class   |

  2. The dark theme is keyed to a class nobody sets

  | Aspect | Details                                  |
  |--------|------------------------------------------|
  | File   | web/styles/preview.css:7                 |
  | Impact | every dark-mode rule stays inactive      |
"""


def test_a_two_column_table_of_fields_belongs_to_the_finding_above_it() -> None:
    assert where(FIELD_TABLES) == [
        ("web/styles/preview.css", 40, "critical"),
        ("web/styles/preview.css", 7, "critical"),
    ]
