"""The reader on the fields of one finding (issue: read what real reviewers print): a bold
label alone on its line under a finding heading, a location field naming a file with a line
and a second file without one, a title naming a file whose next paragraph gives the line.
Fixtures written for these tests, a few variations of each shape.
"""

from __future__ import annotations

import pytest
from reader_kit import located

from council_filters.verdict import reading


def read(text: str) -> reading.Reading:
    return reading.read(text.encode(), "tester")


def places(text: str) -> list[tuple]:
    return [(f.get("file"), f.get("line")) for f in read(text).findings]


# --------------------------------------------------------------------------- #
# 1. A bold label alone on its line is a field label, not the finding's title
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize("label", ["**Description**", "**Details**", "**Problem**",
                                   "**Evidence**", "**Description:**", "__Details__",
                                   "**Root cause**"])
def test_a_bold_label_alone_under_a_finding_heading_is_no_title(label: str) -> None:
    text = f"""\
# Review

Verdict: REVISE

### ISSUE-001: Socket poller spins after the peer closes

{label}

The poller in `net/poller.py:41` re-queues the read each time the socket reports closed.

### ISSUE-002: Cache key ignores the locale

{label}

Two locales share one entry, see `web/cache.py:12`.
"""
    found = [(f.get("file"), f.get("line"), f["summary"]) for f in read(text).findings]
    assert found == [
        ("net/poller.py", 41, "ISSUE-001: Socket poller spins after the peer closes"),
        ("web/cache.py", 12, "ISSUE-002: Cache key ignores the locale"),
    ]


def test_a_bold_sentence_alone_under_a_finding_heading_is_no_label() -> None:
    text = """\
# Review

### ISSUE-002: Cache key ignores the locale

**The key is built from the path only.**

See `web/cache.py:12`: two locales share one entry.
"""
    found = read(text).findings
    assert len(found) == 1
    assert found[0]["summary"] == "The key is built from the path only."
    assert (found[0].get("file"), found[0].get("line")) == ("web/cache.py", 12)


# --------------------------------------------------------------------------- #
# 2. A file with a line, then a second file without one: one finding at the first
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize("value,want", [
    ("`store/sync.py:126-157`, `cli.py`", [("store/sync.py", 126)]),
    ("store/sync.py:126-157, cli.py", [("store/sync.py", 126)]),
    ("`store/sync.py` (lines 126-157), `cli.py`", [("store/sync.py", 126)]),
    ("`store/sync.py:126` and `cli.py`", [("store/sync.py", 126)]),
    # every file with its own line: one finding, the second place related
    ("`store/sync.py:126`, `cli.py:9`", [("store/sync.py", 126), ("cli.py", 9)]),
    # no file with a line: one finding, the second file related
    ("`store/sync.py`, `cli.py`", [("store/sync.py", None), ("cli.py", None)]),
])
def test_a_file_with_a_line_then_a_bare_file_is_one_finding(value: str, want: list) -> None:
    for field in ("File", "Location", "Files"):
        text = (f"# Review\n\n1. **Partial write on sync** (HIGH)\n   - **{field}:** {value}\n"
                "   - **Issue:** a failed batch leaves half the rows written.\n")
        assert located(read(text).findings) == [(want[0], want[1:])], field


# --------------------------------------------------------------------------- #
# 3. A title naming a file without a line; the next paragraph gives the line
# --------------------------------------------------------------------------- #
HUNK = "\n\n```ts\nstartTimer(refresh);\nstartTimer(refresh);\n```\n\nBoth timers call refresh.\n"


@pytest.mark.parametrize("title", [
    "**Bug 1 (HIGH): `session.ts` \u2014 token refreshed twice**",
    "### Bug 1 (HIGH): `session.ts` \u2014 token refreshed twice",
    "#### Bug 1 (HIGH): `auth/session.ts` - token refreshed twice",
])
@pytest.mark.parametrize("place,want", [
    ("`src/auth/session.ts` line 37\u201344:", ("src/auth/session.ts", 37)),
    ("`src/auth/session.ts:52`", ("src/auth/session.ts", 52)),
])
def test_a_title_file_takes_the_line_the_place_over_its_code_gives(title: str, place: str,
                                                                   want: tuple) -> None:
    after = title.replace("Bug 1 (HIGH)", "Bug 2 (LOW)").replace("session.ts", "config.ts")
    text = (f"# Review\n\nVerdict: REVISE\n\n## Bugs\n\n{title}\n\n{place}{HUNK}\n"
            f"{after}\n\nNothing reads the default it sets.\n")
    found = [(f.get("file"), f.get("line")) for f in read(text).findings]
    assert found[0] == want
    assert found[1][0].endswith("config.ts") and found[1][1] != want[1]


@pytest.mark.parametrize("title,para,want", [
    ("**Bug 1 (HIGH): `session.ts` \u2014 token refreshed twice**",
     "`src/auth/session.ts` line 37\u201344: both timers call refresh.",
     ("src/auth/session.ts", 37)),
    ("### Bug 2 (MEDIUM): `session.ts` \u2014 token refreshed twice",
     "`src/auth/session.ts:52`: both timers call refresh.",
     ("src/auth/session.ts", 52)),
])
def test_a_title_file_takes_the_line_its_next_paragraph_gives(title: str, para: str,
                                                              want: tuple) -> None:
    text = f"# Review\n\nVerdict: REVISE\n\n{title}\n\n{para}\n"
    assert places(text) == [want]


def test_a_place_over_code_naming_another_file_gives_the_title_no_line() -> None:
    text = ("# Review\n\nVerdict: REVISE\n\n## Bugs\n\n"
            "**Bug 1 (HIGH): `session.ts` \u2014 token refreshed twice**\n\n"
            f"`src/auth/timers.ts` line 37:{HUNK}")
    found = [(f.get("file"), f.get("line")) for f in read(text).findings]
    assert ("session.ts", None) in found
    assert ("session.ts", 37) not in found and ("src/auth/session.ts", 37) not in found


def test_a_finding_heading_that_mentions_a_closed_thing_is_still_a_finding() -> None:
    text = """## Findings

### ISSUE-001: Retry loop never gives up on a closed socket

**Severity:** High
**File:** net/poller.py:88

The loop retries forever once the peer has gone.

### BUG-2: Fixed-size buffer overflows on long names

**File:** names.c:40

## Closed Findings

### ISSUE-004: Stale lock file

**File:** lock.py:9
"""
    rec = reading.read(text.encode(), "tester")
    assert [(f.get("file"), f.get("line"), f.get("severity")) for f in rec.findings] == [
        ("net/poller.py", 88, "critical"), ("names.c", 40, None)]
