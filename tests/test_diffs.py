"""The one diff parser: what the anchorable ranges and the changed-file list both read."""

from __future__ import annotations

from council_filters.base import diffranges, diffs
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
