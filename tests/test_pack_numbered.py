"""Numbered packs: each line's real number beside it, diff lines with their new-side
numbers, anchorable ranges per file, the revisions compared; --upstream keeps upstream's."""

from __future__ import annotations

import difflib
import json
import random
import re

from council_filters.base import diffs
from council_filters.pack import core

from conftest import git, make_repo, run_filter

_GUTTER = re.compile(r"^ *(\d*) \|(.*)$")


def _pack(repo, *args: str) -> dict:
    code, out, err = run_filter(
        "pack", ["review", "--base", "main", "--repo", str(repo), "--run-id", "t",
                 "--reviewers", "claude", "--file-reviewers", "", *args])
    assert code == 0, err
    return json.loads(out.splitlines()[0])


def _numbered(block: str) -> dict[int, str]:
    """``{number: text}`` of a numbered block's lines."""
    out = {}
    for line in block.split("\n"):
        m = _GUTTER.match(line)
        if m and m.group(1):
            out[int(m.group(1))] = m.group(2)
    return out


def test_changed_line_shows_its_real_number_in_the_diff_and_the_excerpt(tmp_path):
    old = "".join(f"line {i}\n" for i in range(1, 41))
    new = old.replace("line 27\n", "changed = 27\n").replace("line 3\n", "")
    repo = make_repo(tmp_path / "r", {"src/m.py": old}, {"src/m.py": new})
    pack = _pack(repo)["pack"]
    number = new.split("\n").index("changed = 27") + 1  # 26: a line above was removed
    assert number == 26
    diff_part = pack.split("```diff\n", 1)[1].split("\n```", 1)[0]
    assert f"{number} |+changed = 27" in diff_part  # the diff's own + is kept
    assert re.search(r"^ +\|-line 27$", diff_part, re.M)  # a removed line has no number
    excerpt = pack.split("#### src/m.py\n", 1)[1].split("\n```\n", 1)[0]
    assert _numbered(excerpt)[number] == " changed = 27"
    assert "cite the number shown" in pack


def test_ranges_and_revisions_header(tmp_path):
    old = "".join(f"v{i}\n" for i in range(1, 61))
    new = old.replace("v10\n", "v10x\n").replace("v50\n", "v50x\n")
    repo = make_repo(tmp_path / "r", {"a.txt": old, "gone.txt": "x\n"},
                     {"a.txt": new, "gone.txt": None, "b.txt": "new\n"})
    rec = _pack(repo)
    pack = rec["pack"]
    head = git(repo, "rev-parse", "HEAD").strip()
    assert f"- Base: {rec['base_ref']} (merge base of HEAD and main)" in pack
    assert f"- Head: {head}" in pack
    ranges = pack.split("### Anchorable Line Ranges", 1)[1].split("### Changed Files")[0]
    assert "a.txt: new 7-13, 47-53 | old 7-13, 47-53" in ranges
    assert "b.txt: new 1-1\n" in ranges  # no old side: the segment is left out
    assert "gone.txt: old 1-1\n" in ranges


def test_upstream_keeps_the_exact_upstream_pack(tmp_path):
    repo = make_repo(tmp_path / "r", {"a.txt": "one\n"}, {"a.txt": "two\n"})
    pack = _pack(repo, "--upstream")["pack"]
    assert "### Diff (HEAD vs " in pack and "+two\n" in pack
    assert "1 |" not in pack and "Anchorable" not in pack and "Revisions" not in pack
    assert pack.endswith("must appear exactly as shown\n")


def test_number_diff_gives_every_shown_line_its_new_file_number():
    """Any edit script: the number beside a + or context line is that line's number in the
    new file, and removed lines carry none."""
    rng = random.Random(23)
    for _ in range(200):
        old = [f"l{rng.randrange(30)}" for _ in range(rng.randrange(0, 40))]
        new = list(old)
        for _ in range(rng.randrange(1, 8)):
            op = rng.randrange(3)
            at = rng.randrange(len(new) + 1)
            if op == 0:
                new.insert(at, f"new{rng.randrange(99)}")
            elif op == 1 and new:
                del new[min(at, len(new) - 1)]
            elif new:
                new[min(at, len(new) - 1)] = "edit"
        ctx = rng.randrange(0, 4)
        text = "".join(line + "\n" for line in difflib.unified_diff(
            old, new, "a/f", "b/f", n=ctx, lineterm=""))
        numbered = core.number_diff(text.encode()).decode()
        seen_removed = 0
        for line in numbered.split("\n"):
            m = _GUTTER.match(line)
            if not m:
                continue
            number, body = m.group(1), m.group(2)
            if body.startswith("-"):
                assert number == ""
                seen_removed += 1
            else:
                assert new[int(number) - 1] == body[1:]
        removed = sum(1 for k, _n, _l in diffs.walk(text.encode()) if k == diffs.REMOVED)
        assert seen_removed == removed


def test_numbered_excerpt_cut_keeps_whole_lines():
    content = b"".join(b"row %d\n" % i for i in range(1, 2000))
    block = core.Excerpt("big.txt", content[:4000], len(content)).block(4000, numbered=True)
    body = _numbered(block)
    last = max(body)
    assert body[last] == f" row {last}"
    assert f"(lines 1-{last}:" in block.split("\n")[0]


def test_a_large_numbered_diff_stays_under_the_ceiling():
    files = b"".join(
        b"diff --git a/f%d b/f%d\n--- a/f%d\n+++ b/f%d\n@@ -1 +1 @@\n-a\n+%s\n"
        % (i, i, i, i, b"x" * 40) for i in range(3000)
    )
    inp = core.ReviewInput("b" * 40, files, lambda: b"", [], numbered=True, head_ref="h" * 40)
    ctx, om = core.build_review(inp, ["Claude"])
    assert len(core.envelope("Claude", "review", ctx, True).encode()) <= core.PACK_CEILING
    assert om.diff_truncated and "more files not listed" in ctx
