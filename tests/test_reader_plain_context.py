# ruff: noqa: E501  (a review line is as long as its writer made it)
"""The reader on plain-text reviews whose places are given by context (issue: read what
real reviewers print).  A plain review often names a file once (a line, a lead-in, a
preamble) and then lists items that give only a line or only a description; a terminal
transcript prints tool calls and their output before the answer.  Fixtures written for
these tests, one per family:

- a line that opens with the file it faults ("store.py: three jobs in one module"), or a
  title ending with its place and a colon ("Retries never stop (store.py:83-120):"), is
  a finding there, its bullets its details;
- a short title over bullets that cite only lines ("Magic numbers throughout:" then
  "- Line 137: …"), after a finding in a file: one finding at the first line of that file;
- a lead-in naming one file over a list ("Looking at `src/store.py`:"): the file of the
  items under it, those that give only a description included;
- a line naming one file over items that cite only lines ("Findings for src/cache.py"
  then "- L12: …"), or the one file the prose named so far ("I looked at
  `src/cache.py`." … "1) line 12 - …"): the file of those items;
- numbered sentences under a line naming only a file ("src/store.py" then "1. The lock
  is never released …") are that file's findings (not "1. Added retries …": a change);
- a preamble naming the file the line numbers count ("Codebase: app.js (900 lines), …")
  and items with a place field of lines only ("Locations: Lines 120, 340"): at that file;
  the legend of the review's scale ("SEVERITY CLASSIFICATION") holds no findings;
- titles drawn over a box rule ("🟠 HIGH PRIORITY" / "────") are headings: their severity
  covers the items under them, and they are no findings themselves;
- a status or grade under a line naming only a file ("app/form.tsx" / "Status: ⚠️ NEEDS
  IMPROVEMENT") is that file's state in a per-file review, not the review's verdict;
- a severity set between dashes after an item's place ("— HIGH —") is its severity;
- a sentence's own place ("In web/form.js, around line 7, …") is the item's place;
- a file and a name in it in code ("`worker.py:_drain`", "`test_a.py::test_b`") names
  that file: a file-level finding there;
- a codex transcript whose prompt names the verdict choices is still a transcript: only
  the last agent message is read, not the command output before it.
"""

from __future__ import annotations

from council_filters.verdict import reading


def where(text: str | bytes) -> list[tuple]:
    data = text.encode() if isinstance(text, str) else text
    return [(f.get("file"), f.get("line"), f.get("severity"))
            for f in reading.read(data, "tester").findings]


FILE_LEADS = """\
Review of the queue worker

  1. Structure

  Issues:

  store.py: three jobs (queueing, caching, retrying) share one module
  - the cache and the retry state are both module globals

  Retries never stop (store.py:83-120):
  - a dead disk makes the loop spin forever
  - the sleep between tries is constant

  Thresholds written inline:
  - Line 137: the retry limit 5 is a bare number
  - Line 61: the batch size 50 is a bare number
"""


def test_a_line_opening_with_its_file_is_a_finding_there_and_line_items_take_that_file() -> None:
    assert where(FILE_LEADS) == [
        ("store.py", None, None),
        ("store.py", 83, None),
        ("store.py", 137, None),
    ]


LEAD_IN_FILE = """\
Findings

Looking at `src/store.py`:

1. The lock is never released when the write fails.
2. The retry loop has no upper bound and spins forever on a dead disk.
"""


def test_a_lead_in_naming_one_file_places_the_items_under_it() -> None:
    assert where(LEAD_IN_FILE) == [("src/store.py", None, None), ("src/store.py", None, None)]


LEAD_IN_UNDER_FINDING = """\
## Follow-ups

### 3. Test coverage (Priority: High)
Make sure `worker_test.go` covers:
- the timeout path under load
- two writers racing for the same row
"""


def test_a_lead_in_inside_a_finding_heading_stays_that_findings_text() -> None:
    assert where(LEAD_IN_UNDER_FINDING) == [("worker_test.go", None, "critical")]


COUNTED_FILE = """\
================================================================================
TECHNICAL REVIEW
================================================================================
Codebase: app.js (900 lines), index.html, style.css

================================================================================
SEVERITY CLASSIFICATION
================================================================================
CRITICAL:  crashes, data loss, security holes
MEDIUM:    maintainability problems, minor bugs

================================================================================
CRITICAL SEVERITY
================================================================================

1. UNESCAPED HTML IN THE SIDEBAR
   Locations: Lines 120, 340
   The tag names are written into the page with innerHTML.

2. [DONE] PARSE ERRORS NOT CAUGHT
   Locations: Lines 55, 81
   JSON.parse had no try/catch; it has one now.

================================================================================
MEDIUM SEVERITY
================================================================================

3. DRAG THRESHOLD IS A BARE NUMBER
   Locations: Lines 300-310
   The threshold 15 appears three times.
"""


def test_a_preamble_naming_the_counted_file_places_items_that_give_only_lines() -> None:
    assert where(COUNTED_FILE) == [("app.js", 120, "critical"), ("app.js", 300, "medium")]


BOXED = """\
══════════════════════════════════════════════
                 ISSUES FOUND
══════════════════════════════════════════════

🔴 CRITICAL ISSUES
──────────────────────────────────────────────
None identified.


🟠 HIGH PRIORITY
──────────────────────────────────────────────

1. SECURITY: the mail action trusts its sender field
   File: app/actions/mail.ts
   The sender address is taken from the form as given.

🟡 MEDIUM PRIORITY
──────────────────────────────────────────────

1. RENDERING: the menu stays open after navigating
   File: components/Menu.tsx
   Nothing closes it when the route changes.
"""


def test_titles_over_box_rules_are_headings_whose_severity_covers_their_items() -> None:
    assert where(BOXED) == [("app/actions/mail.ts", None, "critical"),
                            ("components/Menu.tsx", None, "medium")]


DASHED = """\
Findings

- [src/api.ts:324](/home/dev/proj/src/api.ts:324) — HIGH — the same token can be redeemed twice.
  Fix: record redeemed tokens before awarding.

- [src/ui.ts:88](/home/dev/proj/src/ui.ts:88) — LOW — the button label is cut on narrow screens.
"""


def test_a_severity_between_dashes_after_the_place_is_the_items_severity() -> None:
    assert where(DASHED) == [("src/api.ts", 324, "critical"), ("src/ui.ts", 88, "minor")]


CODEX_PROMPT_WITH_CHOICES = """\
user
Review src/cache.py. List problems as path:line: message, then Verdict: APPROVE | REVISE | REJECT.
codex
I'll read the file first.
exec
bash -lc "sed -n 1,120p src/cache.py" in /home/dev/proj
 succeeded in 12ms:
    40  def get(self, key):
    41      # the old version lives in src/legacy.py:3
thinking
**Checking eviction**
codex
src/cache.py:42: an expired entry is still returned.
src/cache.py:77: eviction runs without holding the lock.

Verdict: REVISE
tokens used
1,234
"""


def test_a_codex_transcript_whose_prompt_names_the_choices_reads_only_the_last_message() -> None:
    got = reading.read(CODEX_PROMPT_WITH_CHOICES.encode(), "tester")
    assert got.verdict == "REVISE"
    assert where(CODEX_PROMPT_WITH_CHOICES) == [("src/cache.py", 42, None), ("src/cache.py", 77, None)]


POWERSHELL_WRAPPED = (
    "node.exe : Reading additional input from stdin...\r\n"
    "At C:\\Users\\dev\\AppData\\Roaming\\npm\\codex.ps1:24 char:5\r\n"
    "    + FullyQualifiedErrorId : NativeCommandError\r\n"
    "OpenAI Codex v0.137.0\r\n--------\r\nworkdir: C:\\Users\\dev\\proj\r\n--------\r\n"
    "user\r\nReview src/cache.py. End with Verdict: APPROVE | REVISE | REJECT\r\n"
    "codex\r\nsrc/cache.py:42: an expired entry is still returned.\r\n\r\nVerdict: REVISE\r\n"
    "tokens used\r\n2,000\r\n")


def test_a_powershell_prelude_before_a_codex_transcript_is_no_finding() -> None:
    data = POWERSHELL_WRAPPED.encode("utf-16")
    got = reading.read(data, "tester")
    assert got.verdict == "REVISE"
    assert where(data) == [("src/cache.py", 42, None)]


SENTENCE_PLACE = """\
Here is what I found.

1) src/store.py (line 12): the lock is never released when the write fails.
2) In web/form.js, around line 7, the user's name is written into the page without escaping.
3) The retry loop in src/retry.py never gives up.
"""


def test_a_sentence_naming_its_file_and_line_places_the_item() -> None:
    assert where(SENTENCE_PLACE)[:2] == [("src/store.py", 12, None), ("web/form.js", 7, None)]


FILE_AND_NAME = """\
## Findings

### [P2] `worker.py:88` — the pings are dropped when the send fails
The fallback send is not inside the finally block.

### [P3] `worker.py:_drain` docstring promises too much
It says the lock is always released, which is not so for a generator never started.

### [P3] `tests/test_worker.py::test_retry` sleeps for real
The test waits two seconds on a wall clock.
"""


def test_a_file_and_a_name_in_it_is_a_file_level_place() -> None:
    assert where(FILE_AND_NAME) == [("worker.py", 88, "medium"), ("worker.py", None, "minor"),
                                    ("tests/test_worker.py", None, "minor")]


CODERABBIT_PLAIN = """\
Starting CodeRabbit review in plain text mode...

Connecting to review service
Reviewing

============================================================================
File: src/billing/invoice.py
Line: 40 to 44
Type: potential_issue

Comment:
Rounding happens before the tax is added.

The total is rounded to cents and the tax computed on the rounded figure, so
invoices drift by a cent on large orders.

-    total = round(subtotal, 2) * (1 + rate)
+    total = round(subtotal * (1 + rate), 2)

Prompt for AI Agent:
In src/billing/invoice.py around lines 40-44, compute the tax on the unrounded subtotal.



============================================================================
File: docs/billing.md
Line: 12
Type: nitpick

Comment:
The example uses a rate of 0.2 but the text says 20 %.

Review completed \u2714
"""

CODERABBIT_PROMPT_ONLY = """\
============================================================================
File: src/billing/invoice.py
Line: 40 to 44
Type: potential_issue

Prompt for AI Agent:
In src/billing/invoice.py around lines 40-44, compute the tax on the unrounded subtotal.
"""


def test_coderabbit_plain_records_are_findings_at_their_file_and_first_line() -> None:
    got = reading.read(CODERABBIT_PLAIN.encode(), "tester")
    assert got.verdict == "UNKNOWN"
    assert [(f["file"], f["line"], f.get("end_line"), f.get("severity"), f["summary"])
            for f in got.findings] == [
        ("src/billing/invoice.py", 40, 44, "medium", "Rounding happens before the tax is added."),
        ("docs/billing.md", 12, None, "minor", "The example uses a rate of 0.2 but the text says 20 %."),
    ]
    assert where(CODERABBIT_PROMPT_ONLY) == [("src/billing/invoice.py", 40, "medium")]


HEADING_THEN_PLACE = """\
## Review of merge `a21a387`

### [P1] The lock leaks when close raises
`src/run.py:513-525`

```python
finally:
    await inner.aclose()
    lock.release()
```

The close can raise when the wipe (`run.py:473`) fails, and then the release never runs.
"""


def test_a_place_right_under_a_finding_heading_is_its_place_not_a_line_cited_later() -> None:
    assert where(HEADING_THEN_PLACE) == [("src/run.py", 513, "critical")]


TERMINAL_RENDER = """\
● Now the report.

  Code Review Report

  ---
  🔴 CRITICAL ISSUES (Immediate Action Required)

  1. SECURITY: Certificate checks switched off

  Location:
  - android/app/src/main/java/org/example/remote/data/repository/Pairing
  Repository.kt:66-79, 139-152
  - android/app/src/main/java/org/example/remote/net/SocketClient.kt:251

  Issue: every certificate is trusted, so anyone on the network can read the traffic.

  Impact:
  - Man-in-the-middle attacks succeed silently
  - The pairing secret travels in clear

  Recommendation:
  # pin the server certificate
  val pinned = loadPinnedCertificate()

  Priority: P0 - fix before any release

  ---
  2. SECURITY: Database files checked in

  Location:
  - agent/src/agent.db

  Priority: P0

  ---
  🟡 MEDIUM PRIORITY ISSUES

  3. CONCURRENCY: Two connects can race
  Location: SocketClient.kt:44-47

  LOW:

  4. STYLE: Magic numbers in the audio buffer
  Location: Multiple files

  Minor: the log tags are spelled three different ways.

● Summary

  Two critical problems, one medium, two small ones.
"""


def test_a_terminal_render_keeps_what_it_printed_under_each_item_as_that_items() -> None:
    assert where(TERMINAL_RENDER) == [
        ("android/app/src/main/java/org/example/remote/data/repository/PairingRepository.kt", 66, "critical"),
        ("agent/src/agent.db", None, "critical"),
        ("SocketClient.kt", 44, "medium"),
        (None, None, "minor"),
        (None, None, "minor"),
    ]


PER_FILE_STATUS = """\
══════════════════════════════════════════════
               DETAILED FILE REVIEW
══════════════════════════════════════════════

app/page.tsx
──────────────────────────────────────────────
Status: ✅ GOOD
Grade: 8/10

app/form.tsx
──────────────────────────────────────────────
Status: ⚠️  NEEDS IMPROVEMENT
Grade: 6/10
"""


def test_a_status_under_a_file_name_is_that_files_state_not_the_verdict() -> None:
    got = reading.read(PER_FILE_STATUS.encode(), "tester")
    assert (got.verdict, got.found_verdict) == ("UNKNOWN", False)


TITLE_NAMING_A_FILE = """\
Findings for src/cache.py

- L12: an expired entry is still returned
- L40: eviction runs without holding the lock
"""

ONE_FILE_IN_PROSE = """\
I looked at `src/cache.py` and its tests.

Problems:
1) line 12 - an expired entry is still returned
2) line 40 - eviction runs without holding the lock
"""


def test_line_items_take_the_one_file_their_context_names() -> None:
    assert where(TITLE_NAMING_A_FILE) == [("src/cache.py", 12, None), ("src/cache.py", 40, None)]
    assert where(ONE_FILE_IN_PROSE) == [("src/cache.py", 12, None), ("src/cache.py", 40, None)]


def test_utf8_read_as_a_console_code_page_gets_its_characters_back() -> None:
    console = DASHED.encode("utf-8").decode("cp850").encode("utf-8")
    assert "\u00d4\u00c7\u00f6".encode() in console
    assert where(console) == where(DASHED) == [("src/api.ts", 324, "critical"), ("src/ui.ts", 88, "minor")]
    cp1252 = DASHED.encode("utf-8").decode("cp1252", "replace").encode("utf-8")
    assert where(cp1252) == where(DASHED)


FILE_THEN_NUMBERED = """\
Review

src/store.py

1. The lock is never released when a write fails.
2. Retries never stop on a dead disk.

web/form.js

1. The name is written into the page without escaping.
"""

FILE_THEN_CHANGES = """\
Summary of the change

src/store.py

1. Added retries to the write path with a cap of five.
2. Renamed the lock helper for clarity.
"""


def test_numbered_sentences_under_a_file_name_are_its_findings_but_changes_are_not() -> None:
    assert where(FILE_THEN_NUMBERED) == [("src/store.py", None, None), ("src/store.py", None, None),
                                         ("web/form.js", None, None)]
    assert where(FILE_THEN_CHANGES) == []
