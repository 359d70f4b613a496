"""A change cannot hide itself behind git's binary detection: a ``.gitattributes`` that
marks its files ``-diff``/``binary`` or one NUL byte in a text file still shows the hunks to
the reviewers (the pack) and to council-scan; a file git would call binary but that is
mostly text is marked; a real binary file stays ``Binary files ... differ``."""

from __future__ import annotations

import orjson
import pytest

from council_filters.base import diffs

from conftest import make_repo, run_filter

PNG = bytes(range(256)) * 8  # no text at all


@pytest.fixture()
def repo(tmp_path):
    return make_repo(tmp_path / "r", {"a.py": "x = 1\n", "b.py": "y = 1\n", "c.js": "1;\n",
                                      "img.png": b"\x89PNG\r\n\x1a\n" + PNG},
                     {".gitattributes": "*.py -diff\n*.js binary\n",
                      "a.py": "x = 1\nz = eval(user_input)\n",
                      "b.py": "y = 1\n\x00\nos.system('rm -rf ' + target)\n",
                      "c.js": "1;\neval(location.hash);\n",
                      "img.png": b"\x89PNG\r\n\x1a\n" + PNG[::-1]})


def test_scan_sees_hunks_git_would_hide(repo):
    res = run_filter("scan", ["--repo", str(repo), "--base", "main", "--rules", "default"])
    assert res.code == 0, res.err
    found = {(r["file"], r["rule"]) for r in res.records() if r["kind"] == "finding"}
    assert ("a.py", "eval") in found
    assert ("c.js", "eval") in found
    assert any(f == "b.py" for f, _ in found), found


def test_the_pack_shows_them_and_marks_the_nul_file(repo):
    res = run_filter("pack", ["review", "--repo", str(repo), "--base", "main",
                              "--reviewers", "claude"])
    assert res.code == 0, res.err
    text = "".join(orjson.loads(line)["pack"] for line in res.out.splitlines())
    assert "eval(user_input)" in text and "eval(location.hash)" in text
    assert "os.system('rm -rf ' + target)" in text
    assert diffs.BINARY_MARK.decode() in text
    assert "\x00" not in text
    assert "Binary files a/img.png and b/img.png differ" in text


def test_text_diff_rules():
    real = (b"diff --git a/i.bin b/i.bin\nindex 1..2 100644\n--- a/i.bin\n+++ b/i.bin\n"
            b"@@ -1 +1 @@\n-" + PNG[:64] + b"\n+" + PNG[64:128] + b"\n")
    out = diffs.text_diff(real)
    assert out.endswith(b"Binary files a/i.bin and b/i.bin differ") and b"@@" not in out
    hidden = b"diff --git a/t b/t\n--- a/t\n+++ b/t\n@@ -1 +1,2 @@\n a\n+b\x00c\n"
    out = diffs.text_diff(hidden)
    assert diffs.BINARY_MARK in out and b"+b" + diffs.NUL_SHOWN + b"c" in out
    plain = b"diff --git a/t b/t\n--- a/t\n+++ b/t\n@@ -1 +1 @@\n-a\n+b\n"
    assert diffs.text_diff(plain) == plain
    assert diffs.mostly_text(b"text " * 50 + b"\x00") and not diffs.mostly_text(PNG)
    assert not diffs.mostly_text("utf16".encode("utf-16-le") * 20)
