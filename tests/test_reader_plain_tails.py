# ruff: noqa: E501  (a review line is as long as its writer made it)
"""The reader on plain-text reviews whose places come last (issue: read what real reviewers
print, item 4): terminal assistants print a list with no findings heading and cite the place
at the end of each item, often as a link whose text is ``name:line`` and whose target is a
Windows or absolute path, or open each item with ``In <path>,``.  Fixtures written for these
tests:

- a list item that ends with its place (``... (web/form.js:88).``, ``... — src/q.py:12``,
  ``…（[gen.py:57](D:/w/gen.py:57)）。``) is a finding at that place, with or without a
  findings heading above it;
- an item that opens with ``In <path>,`` (``In src/seq/01-intro.js, Step 1 says ...``) is a
  file-level finding there;
- a list of changes made (``Updated``, ``Added``, ``Renamed`` ... then a place) and a list
  of files with no words are not findings; a place in the middle of a sentence is not the
  item's place by itself.
"""

from __future__ import annotations

from council_filters.verdict import reading


def where(text: str) -> list[tuple]:
    return [(f.get("file"), f.get("line"))
            for f in reading.read(text.encode(), "tester").findings]


TAILS = """\
I read the slide generator without running it.

1. Too much text per slide: most pages are a title bar over a long bullet list (web/deck.py:57).
2. Boxes overflow: the text box keeps a fixed height while some pages carry twenty lines — web/deck.py:1205
3. Fonts are never set, so the look changes from one machine to the next.
"""


def test_an_item_ending_with_its_place_is_a_finding_there() -> None:
    assert where(TAILS) == [("web/deck.py", 57), ("web/deck.py", 1205)]


LINKED = """\
只读了代码，没有运行脚本，结论如下。

- 优点：整套页面使用同一个配色表（[deck.py:20](D:/work/slides/deck.py:20)）。
- 主要问题：
1. **文字过多**：每页都是标题条加长列表（[deck.py:57](D:/work/slides/deck.py:57)）。
2. **容易溢出**：文本框高度固定（如 [deck.py:1205](D:/work/slides/deck.py:1205), [deck.py:1264](D:/work/slides/deck.py:1264)）。
"""


def test_a_trailing_link_to_a_windows_path_places_the_item() -> None:
    assert where(LINKED) == [("deck.py", 57), ("deck.py", 1205)]


IN_PATH = """\
Prompt for the fixer:
"In src/seq/01-intro.js, Step 1 has a typo ('10000 ohm' for '1000 ohm'). Fix only that text."

---

Prompt for the fixer:
"In src/seq/04-loop.js, the label of Step 3 rounds the current to zero. Fix the format string."
"""


def test_an_item_opening_with_in_path_is_a_file_level_finding() -> None:
    assert where(IN_PATH) == [("src/seq/01-intro.js", None), ("src/seq/04-loop.js", None)]


CHANGES = """\
Summary of this commit:

- Updated the retry loop to back off (src/net/retry.py:40).
- Added a test for the empty queue (tests/test_queue.py:12).
- src/net/retry.py
- The handler in src/net/retry.py:40 now logs once and then carries on with the next job.
"""


def test_a_list_of_changes_or_files_is_no_finding() -> None:
    assert where(CHANGES) == []


RANGES = """\
Code review of the upload worker.

src/jobs/upload.py: L88-L94
The retry loop sleeps while it holds the queue lock, so every other worker stalls.

- src/jobs/limits.py:L12-L20 — the limit is read once at import and never refreshed.
- src/jobs/limits.py: 3 places read the limit; all of them are fine.
"""


def test_a_place_written_path_colon_l_range_is_read_with_its_range() -> None:
    found = reading.read(RANGES.encode(), "tester").findings
    assert [(f.get("file"), f.get("line"), f.get("end_line")) for f in found] == [
        ("src/jobs/upload.py", 88, 94), ("src/jobs/limits.py", 12, 20)]
