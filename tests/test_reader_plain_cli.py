# ruff: noqa: E501  (a review line is as long as its writer made it)
"""The reader on what reviewer CLIs print as plain text (issue: read what real reviewers
print, items 4 and 5).  Fixtures written for these tests:

- codex prints its progress messages and its answer with no break between them, so the
  answer's first bold title ends the last progress sentence ("… to the report.**Critical
  Findings**"): the title still covers the list under it;
- an answer printed twice in a row (a wrapper echoing the final message, then ``EXIT=0``)
  is read once;
- a summary heading before any finding ("### Review Summary & Verdict: needs-work") names
  the list under it, and an item whose bold title closes with its place in brackets
  ("**Cache key ignores the locale ([`web/cache.ts:52`](…)):** …") is a finding there;
- a label line alone naming praise ("**Positive Checks**") or what the reviewer could not
  settle ("**Open Questions / Assumptions**", "**Validation Gap**") holds no findings,
  even when its items cite places;
- counts per severity ("Critical: 1, High: 0, Medium: 2", "- :warning: 9 major") are tallies;
- a table drawn with box characters (rich's ``┃ File ┃ Line ┃``) is read by its columns,
  a cell wrapped over two lines being one cell; a framed one-column note stays text;
- a label a wrapper puts before every line ("[codex] ", "gemini> ") is dropped (never a
  severity tag), and "path:12 - what is wrong" on a line of its own opens a finding even
  inside a paragraph;
- "File: src/cache/store.py" over a comment in the reviewer's words is one finding on that
  file, file-level (a "Lines:" field under it is no comment);
- an item the reviewer marks "[IGNORE]" is set aside, and "try/catch (line 2841)" names no
  file (a pair of words joined by a slash is prose);
- "…: The main.swift switches …" names its file after the sentence's article, and
  Xcode's files ("Tests.xcconfig") are files;
- the answer's opening sentence announcing problems ("These are the bugs … I see.") right
  over a numbered list of titles makes that list the findings.
"""

from __future__ import annotations

from council_filters.verdict import formats, reading


def where(text: str) -> list[tuple]:
    return [(f.get("file"), f.get("line"), f.get("severity"))
            for f in reading.read(text.encode(), "tester").findings]


GLUED = """\
=== REVIEW ===

I will scan the queue code first.I looked at the worker and the scheduler; now writing up what I found.**Blocking Findings**
1. The worker acks a job before running it. `jobs/worker.py:41` calls `ack()` first, so a crash loses the job.
2. The scheduler reads its interval as seconds but the config gives milliseconds (`jobs/schedule.py:17`).

**Minor Findings**
1. A log line prints the whole payload (`jobs/worker.py:88`).
"""


def test_a_title_glued_to_the_last_progress_sentence_still_covers_its_list() -> None:
    assert where(GLUED) == [
        ("jobs/worker.py", 41, "critical"),
        ("jobs/schedule.py", 17, "critical"),
        ("jobs/worker.py", 88, "minor"),
    ]


def test_a_glued_title_inside_a_code_block_stays_where_it_is() -> None:
    text = "```\nprint('the end of a sentence.**not a title**')\n```\n"
    assert formats.unglue_labels(text) == text
    assert formats.unglue_labels("Two words.**Title**") == "Two words.**Title**"  # not a sentence


TWICE_BODY = """\
The review is done; the details are in the notes file.

### Review Summary & Verdict: **needs-work**

1. **Cache key ignores the locale ([`web/cache.ts:52`](file:///home/dev/shop/web/cache.ts#L52)):** users see each other's language.
2. **Retry sleeps on the event loop ([`web/retry.ts:9`](file:///home/dev/shop/web/retry.ts#L9)):** every request stalls while one retries.
"""


def test_an_answer_printed_twice_is_read_once() -> None:
    twice = TWICE_BODY + TWICE_BODY + "EXIT=0\n"
    assert where(twice) == where(TWICE_BODY) == [("web/cache.ts", 52, None), ("web/retry.ts", 9, None)]
    assert formats.printed_once(TWICE_BODY) == TWICE_BODY


ASIDES = """\
**Medium Findings**
1. The upload form trusts the client's size field (`api/upload.py:30`); enforce a limit on the server.

**Positive Checks**
1. Passwords are hashed with a slow hash (`api/auth.py:12`).
2. Every query goes through bound parameters (`api/db.py:5`).

**Open Questions / Assumptions**
1. Is the upload endpoint meant to be public?

**Validation Gap**
1. The test suite could not be run here, so the failure paths were read, not executed.
"""


def test_praise_questions_and_limits_under_their_labels_are_no_findings() -> None:
    assert where(ASIDES) == [("api/upload.py", 30, "medium")]


LEAD_SENTENCE = """\
These are the bugs and edge cases I can see from reading the export code.

1. **Pages are stretched**
   The canvas is 277 mm tall but is placed at 297 mm, so every photo is distorted.

2. **Page numbers cover the content**
   The number is drawn over the image and nothing keeps a bottom margin free.
"""


def test_an_opening_sentence_announcing_problems_makes_the_list_its_findings() -> None:
    assert where(LEAD_SENTENCE) == [(None, None, None), (None, None, None)]
    # a sentence saying nothing is wrong does not
    assert where(LEAD_SENTENCE.replace("These are the bugs and edge cases I can see",
                                       "I found no bugs or edge cases")) == []


TALLIES = """\
Verdict: REVISE

Scan totals
  Score: 91.5/100
  Critical: 1, High: 0, Medium: 2, Low: 17

Found **4** issue(s):
- :rotating_light: 1 critical
- :warning: 3 major

- `src/net/retry.py:88` the loop retries forever on a 500
"""


def test_counts_per_severity_are_tallies_not_findings() -> None:
    assert where(TALLIES) == [("src/net/retry.py", 88, None)]


DRAWN = """\
Review of the sync job

┏━━━━━━━━━━━━━━━━━━━┳━━━━━━┳━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━━━┓
┃ File              ┃ Line ┃ Severity ┃ Issue                    ┃
┡━━━━━━━━━━━━━━━━━━━╇━━━━━━╇━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━━━┩
│ sync/pull.py      │ 40   │ High     │ the cursor is never      │
│                   │      │          │ saved after a page       │
│ sync/push.py      │ 7    │ Low      │ a log line is noisy      │
└───────────────────┴──────┴──────────┴──────────────────────────┘

┌──────────────────────────────┐
│ Totals: 2 findings, 1 file   │
└──────────────────────────────┘
"""


def test_a_table_drawn_with_box_characters_is_read_by_its_columns() -> None:
    assert where(DRAWN) == [("sync/pull.py", 40, "critical"), ("sync/push.py", 7, "minor")]
    found = reading.read(DRAWN.encode(), "tester").findings
    assert "never saved after a page" in found[0]["summary"]  # a wrapped cell is one cell


def test_a_framed_note_of_one_column_stays_text() -> None:
    note = "┌────────────┐\n│ All good.  │\n└────────────┘\n"
    assert formats.box_tables(note) == note


PREFIXED = """\
[codex] I read the diff of the two handlers.
[codex] src/web/login.py:31 - the session id is not rotated after login
[codex] src/web/logout.py:9 - the cookie survives logout
[codex] Verdict: REVISE
"""


def test_a_label_before_every_line_is_the_wrapper_s_not_the_review_s() -> None:
    got = reading.read(PREFIXED.encode(), "tester")
    assert got.verdict == "REVISE"
    assert where(PREFIXED) == [("src/web/login.py", 31, None), ("src/web/logout.py", 9, None)]
    # a line that is a place, a dash and what is wrong opens a finding inside a paragraph
    assert where(PREFIXED.replace("[codex] ", "")) == where(PREFIXED)
    # a severity tag on every line is the findings' own, not a wrapper's label
    tagged = "[P1] a.py:3 - one\n[P1] b.py:4 - two\n[P1] c.py:5 - three\n"
    assert formats.unprefixed(tagged) == tagged
    assert [s for _, _, s in where(tagged)] == ["critical"] * 3


FILE_ABOVE = """\
File: src/cache/store.py
The eviction loop never stops when the queue is empty, so the worker spins at full CPU.

File: src/api/handler.go
The handler swallows the decode error and answers 200 to a broken body.

File: src/api/routes.go
Lines: 10-14
"""


def test_a_file_line_over_an_unsigned_comment_is_a_finding_on_that_file() -> None:
    assert where(FILE_ABOVE) == [("src/cache/store.py", None, None), ("src/api/handler.go", None, None)]


SET_ASIDE = """\
Codebase: board.js (3100 lines), index.html

Findings

1. UNGUARDED JSON PARSE
   Locations: Lines 412-420
   Problem: a broken save file throws and the board never loads.

2. [IGNORE] NO KEYBOARD SHORTCUTS
   Locations: Lines 90-140
   Problem: every action needs the mouse.

3. MIXED ERROR HANDLING
   Locations: Lines 2841-2866 (try/catch), 239 (none)
   Problem: some paths catch, others let the error escape.
"""


def test_an_item_the_reviewer_marks_ignore_is_set_aside_and_a_word_pair_is_no_file() -> None:
    assert where(SET_ASIDE) == [("board.js", 412, None), ("board.js", 2841, None)]


NAMED_FILES = """\
  High-Severity Issues

  1. Two Entry Modes: The main.swift switches between a CLI and a GUI, which complicates the test host.

  Medium-Severity Issues

  2. Module Name Clash: Tests.xcconfig sets PRODUCT_MODULE_NAME, which fights the project settings.
  3. Shared Helpers: the helper in util.swift is copied into both targets.
"""


def test_a_bare_file_after_the_opening_article_or_of_xcode_s_types_is_the_place() -> None:
    assert where(NAMED_FILES) == [("main.swift", None, "critical"),
                                  ("Tests.xcconfig", None, "medium"),
                                  (None, None, "medium")]
