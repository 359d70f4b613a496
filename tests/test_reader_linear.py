"""The tolerant reader stays linear on long runs of emphasis marks (around a verdict key, a place).

An item whose text ends in a long run of asterisks (``- *~*~…Overall verdict****…``)
once made the check for a settled item try ``**`` at every asterisk of the run and
rescan the rest of the run each time: 16 times the time at 4 times the input.  Each
line is read at n and 4n bytes; linear code takes about 4 times as long, quadratic
about 16.  The least CPU time of three readings decides, so a busy machine neither
fakes nor hides growth.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

from council_filters.verdict import reading

N = 4096
LIMIT = 8.0  # linear: about 4; quadratic: about 16
#: CPU time below which a reading at n is too short to be timed on its own
FLOOR = 0.005

SHAPES: dict[str, Callable[[int], bytes]] = {
    "verdict key, mark runs": lambda n: (b"- " + b"*~" * (n // 4) + b"Overall verdict"
                                         + b"*" * (n // 2))[:n] + b"\n",
    # a place is looked for from every mark: the wrappers read around it are bounded
    "an item ending in a run of asterisks": lambda n: (b"- the cache is stale "
                                                       + b"*" * n)[:n] + b"\n",
    "bold and underscore marks, repeated": lambda n: (b"- x " + b"**_" * (n // 3))[:n] + b"\n",
    "a path's wrappers, repeated": lambda n: (b"- see " + b"`*" * (n // 2))[:n - 8]
    + b"a.py:12\n",
    # a Verdict key's sentence cut into clauses that each name the plan
    "verdict key, clauses naming the plan": lambda n: (b"**Verdict:** x" + b"; the plan " * n)[:n]
    + b"\n",
    # a first and a last line of dashes between words (the phrase after the last dash)
    "dashes on the first and last lines": lambda n: (b"a \xe2\x80\x94 " * n)[:n // 2] + b"\n"
    + (b"b - " * n)[:n // 2] + b"\n",
    # the title of a fix log, and a heading's closing parenthesis saying it is done, are
    # looked for in a bounded prefix: a long title or a run of parentheses reads once
    "a long title before the words of a fix log": lambda n: (
        b"# " + b"review of " * (n // 10))[:n - 20] + b" review fixes\n- a.py:3 x\n",
    "a long heading closed by a done parenthesis": lambda n: (
        b"- a.py:3 x\n\n## " + b"defect " * (n // 7))[:n - 30] + b" (applied in this commit)\n"
    + b"- b.py:4 y\n",
    "numbered remedies after a finding": lambda n: b"- a.py:3 x\n\n" + (
        b"#### Change 1: move it\n**File**: `h.go:5`\n\n" * (n // 40))[:n],
    # a verdict file whose findings are a list in its summary: items looked at are bounded
    "a verdict file's summary list": lambda n: b'{"verdict": "changes", "summary": "'
    + (b"1. a.py drops the row\\n" * (n // 24))[:n] + b'"}',
    "a verdict file's item of blanks": lambda n: b'{"verdict": "FAIL", "notes": "1.'
    + b" " * n + b'\\n2. x"}',
    # a record of fields split at every separator, blocks of fields, parts of a bug report
    "a record of fields with a run of separators": lambda n: (
        b"- File: a.py" + b", ;|" * (n // 4))[:n] + b", Severity: high\n",
    "blocks of fields, one after another": lambda n: b"# Code review\n\n" + (
        b"**File:** a.py\n**Line:** 4\n**Severity:** High\n\n" * (n // 40))[:n],
    "the same finding said again": lambda n: b"## Findings\n\n" + (
        b"- **[High]** The lock leaks (`a.py:22`)\n" * (n // 40))[:n],
    "bug report parts, repeated": lambda n: b"# Bug: x\n\n" + (
        b"## Expected\n\ntext\n\n" * (n // 20))[:n],
    # an aside in parentheses is dropped from a heading up to its closing parenthesis:
    # a heading of opening ones never closed ("(fixed in this (fixed in this …") reads once
    "a heading of parentheses never closed": lambda n: b"- a.py:3 x\n\n## " + b"(" * (2 * n)
    + b"\n- b.py:4 y\n",
    # the marks that open a heading are read once before its tag, its id or a word that
    # sets it aside, not shared out anew between two runs of marks at each try
    "a heading of underscores": lambda n: b"- a.py:3 x\n\n## " + b"_" * n + b"\n- b.py:4 y\n",
    "a heading of dots": lambda n: b"- a.py:3 x\n\n## " + b"." * n + b"\n- b.py:4 y\n",
    # the clause after an item's last dash is looked for from each dash, and reads at most
    # 40 characters from it
    "an item of dashes and spaces": lambda n: b"- a.py:3 x" + " \u2014 ".encode() * (n // 5)
    + b" " * n + b"behoben\n",
}


def cpu(data: bytes) -> float:
    best = float("inf")
    for _ in range(3):
        t0 = time.process_time()
        reading.read(data, "tester")
        best = min(best, time.process_time() - t0)
    return best


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_a_long_run_of_marks_reads_in_linear_time(shape: str) -> None:
    build = SHAPES[shape]
    reading.read(b"- warm up\n", "tester")
    small, large = cpu(build(N)), cpu(build(4 * N))
    assert large < LIMIT * max(small, FLOOR), (shape, small, large)


@pytest.mark.parametrize("item", [
    "- the null check is missing ** fixed in a1b2c3d",
    "- the null check is missing ***Fixed in a1b2c3d***",
    "- the null check is missing **_Fixed via #12 and tested_**",
    "- the null check is missing _**Resolved in commit 0123abc**_",
])
def test_an_item_settled_after_bold_marks_is_still_set_aside(item: str) -> None:
    text = f"## Findings\n\n{item}\n- `b.py:4` the loop never ends\n"
    got = reading.read(text.encode(), "tester")
    assert [(f.get("file"), f.get("line")) for f in got.findings] == [("b.py", 4)]
