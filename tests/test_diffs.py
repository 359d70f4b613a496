"""The one diff parser: what the anchorable ranges and the changed-file list both read."""

from __future__ import annotations

import random

from council_filters.base import diffranges, diffs
from council_filters.base.bytesops import head_lines, line_count, lines_of
from council_filters.consolidate.gaps import changed_files_from_diff

GIT = b"""\
diff --git a/src/a.py b/src/a.py
index 1..2 100644
--- a/src/a.py
+++ b/src/a.py
@@ -1,3 +1,3 @@
 keep
--- not a header
+++ not a header either
 keep
diff --git "a/caf\\303\\251 x.md" "b/caf\\303\\251 x.md"
new file mode 100644
--- /dev/null
+++ "b/caf\\303\\251 x.md"
@@ -0,0 +1,2 @@
+one
+two
diff --git a/gone.txt b/gone.txt
deleted file mode 100644
--- a/gone.txt
+++ /dev/null
@@ -1 +0,0 @@
-bye
diff --git a/img.png b/img.png
Binary files a/img.png and b/img.png differ
diff --git a/old.py b/new.py
similarity index 100%
rename from old.py
rename to new.py
"""

PLAIN = b"""\
--- a/x.c\t2026-01-01 00:00:00
+++ b/x.c\t2026-01-02 00:00:00
@@ -5,2 +5,3 @@
 a
+b
 c
--- y.c\t2026-01-01 00:00:00
+++ y.c\t2026-01-02 00:00:00
@@ -1 +1 @@
-old
+new
"""


def test_files_statuses_and_paths():
    got = [(f.path, f.status, f.binary) for f in diffs.parse(GIT)]
    assert got == [("src/a.py", "modified", False), ("café x.md", "added", False),
                   ("gone.txt", "deleted", False), ("img.png", "modified", True),
                   ("new.py", "renamed", False)]


def test_a_hunk_body_is_never_read_as_a_header():
    first = diffs.parse(GIT)[0]
    assert (first.new, first.old, first.added, first.removed) == (
        [(1, 3)], [(1, 3)], [(2, b"++ not a header either")], 1)


def test_ranges_and_changed_files_read_the_same_parse():
    assert [(f.path, f.new, f.old) for f in diffranges.parse(GIT)] == [
        ("src/a.py", [(1, 3)], [(1, 3)]), ("café x.md", [(1, 2)], []), ("gone.txt", [], [(1, 1)])]
    assert changed_files_from_diff(GIT.decode()) == ["src/a.py", "café x.md", "img.png", "new.py"]


def test_plain_unified_diffs_drop_timestamps_and_prefixes():
    assert [(f.path, f.new) for f in diffs.parse(PLAIN)] == [("x.c", [(5, 7)]), ("y.c", [(1, 1)])]
    assert changed_files_from_diff(PLAIN.decode()) == ["x.c", "y.c"]


def test_unquote_path():
    assert diffs.unquote_path(b'"b/tab\\there"') == "tab\there"
    assert diffs.unquote_path(b"a/plain name\t2026-01-01") == "plain name"
    assert diffs.unquote_path(b'"a/\\342\\202\\254"\t2026') == "\u20ac"


# A hunk whose counts run out before the lines that look like a body do: the rest is
# read as headers again (here a second file), whichever way the hunk is read.
SHORT_HUNK = b"""\
diff --git a/a.py b/a.py
--- a/a.py
+++ b/a.py
@@ -1,2 +1,2 @@
-old
+new
 same
--- b.py
+++ b.py
@@ -3 +3,2 @@
 kept
+added\r
\\ No newline at end of file
"""

LINES = [b"diff --git a/x b/x", b"diff --git a/y b/z", b"--- a/x", b"+++ b/x", b"--- /dev/null",
         b"+++ /dev/null", b"@@ -1,2 +1,3 @@", b"@@ -0,0 +1 @@", b"@@ -1 +0,0 @@",
         b"@@ -3,4 +3,2 @@ f()", b"@@ -1 +1 @@", b"@@ -0,0 +0,0 @@", b"+a", b"-b", b" c", b"",
         b"\\ No newline at end of file", b"new file mode 100644", b"rename from a",
         b"rename to b", b"Binary files a and b differ", b"x", b"\r", b"+\r", b"-- x",
         b"++ y", b"--- q", b"+++ r", b"@@ bad", b"+", b"-", b"@@ -2,3 +2,3 @@\r", b"\\"]


def _without_texts(f: diffs.FileDiff) -> tuple[object, ...]:
    return (f.path, f.old_path, f.status, f.binary, f.new, f.old, f.removed, f.hunks)


def test_a_hunk_whose_counts_run_out_gives_the_rest_back_to_the_headers():
    for texts in (True, False):
        files = list(diffs.iter_files(SHORT_HUNK, texts=texts))
        assert [(f.path, f.added_lines, f.removed) for f in files] == [("a.py", 1, 1),
                                                                       ("b.py", 1, 0)]
    assert [f.added for f in diffs.parse(SHORT_HUNK)] == [[(1, b"new")], [(4, b"added")]]


def test_counting_the_hunks_on_their_bytes_reads_what_the_line_by_line_reading_reads():
    rnd = random.Random(23)
    for _ in range(20000):
        lines = [LINES[0]] + [rnd.choice(LINES) for _ in range(rnd.randint(0, 30))]
        diff = b"\n".join(lines) + rnd.choice([b"", b"\n", b"\n\n"])
        read = diffs.parse(diff)
        counted = list(diffs.iter_files(diff, texts=False))
        assert [_without_texts(f) for f in counted] == [_without_texts(f) for f in read], diff
        assert [f.added_lines for f in counted] == [len(f.added) for f in read], diff
        assert all(f.added_lines == len(f.added) for f in read) and not any(
            f.added for f in counted), diff
        # Within files (the diff starts with a header), the lines read as added are the same.
        walked = [(n, line[1:].rstrip(b"\r")) for kind, n, line in diffs.walk(diff)
                  if kind == diffs.ADDED]
        assert walked == [a for f in read for a in f.added], diff
        shown = [line for _kind, _n, line in diffs.walk(diff)]
        assert shown == lines_of(diff), diff


def test_first_lines_and_line_count_without_splitting_read_as_lines_of():
    rnd = random.Random(7)
    for _ in range(20000):
        data = bytes(rnd.choice(b"ab\n\r") for _ in range(rnd.randint(0, 12)))
        count = rnd.randint(-3, 14)
        assert head_lines(data, count) == lines_of(data)[:count], (data, count)
        assert line_count(data) == len(lines_of(data)), data
