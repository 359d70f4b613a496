"""Linear time where reviewer text goes: every pattern family at n and 4n on adversarial lines.

Each family runs one core over a single line built to make a backtracking
pattern blow up (long runs of what a pattern starts with, repeated near
misses), at 8 MiB and at 32 MiB (both beyond the processor's caches, so the
ratio measures the algorithm, not the memory hierarchy).  Linear code takes
about 4 times as long on the longer line; the run fails when any family's
ratio exceeds 5 (the best of three timings each, so a busy machine does not
fake a blow-up; ``--strict`` makes that an exit status of 1).  The old
hardened fence pattern took 27 s on one 80,000-dash line; every family here
handles 32 MiB in seconds.

    python bench/bench_linear.py            # every family, 8 MiB and 32 MiB
    python bench/bench_linear.py --quick    # 1 MiB and 4 MiB
    python bench/bench_linear.py PEM fence  # only families whose name has a word
    python bench/bench_linear.py --calls "tolerant reader"   # also count the work

``--calls`` also counts the Python function calls each core makes at n and 4n (one
profiled run each): a count that grows 4 times with the input is linear work whatever
the machine's load, while the timings still catch what happens inside one call (a
regular expression backtracking).  On a shared machine the timings of one run vary by
2x; compare the call ratio, and the median timing ratio of several runs.
"""

from __future__ import annotations

import cProfile
import pstats
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from council_filters import dispatch, fence  # noqa: E402
from council_filters.consolidate.render import mdquote  # noqa: E402
from council_filters.dispatch import outcome  # noqa: E402
from council_filters.redaction import machine as redaction  # noqa: E402
from council_filters.verdict import (  # noqa: E402
    findings_block,
    layers,
    mojibake,
    reading,
    reviewer_json,
)

LIMIT = 5.0


def rep(unit: bytes, n: int) -> bytes:
    return unit * (n // len(unit) + 1)


def extended(data: bytes) -> object:
    """``council-redact --rules extended`` over ``data`` (the rule set loaded once)."""
    from council_filters.redaction.secrets import load_rules, redact_value

    return redact_value(data + b"\n", load_rules("extended"))


def nested_fences(char: bytes, n: int) -> bytes:
    """Fence lines of ever shorter length down to 3, none closed: about n bytes."""
    longest = 3
    while longest * (longest + 1) // 2 < n:
        longest += 1
    return b"".join(char * k + b"\n" for k in range(longest, 2, -1))


def records(size: int, unit: bytes, head: bytes = b"[", tail: bytes = b"]",
            sep: bytes = b",") -> bytes:
    """Whole JSON of at most ``size`` bytes: ``unit`` repeated between ``head`` and ``tail``
    (the reader rows cut their input, so a row that must stay valid JSON builds it
    smaller than the cut)."""
    count = max(1, (size - len(head) - len(tail)) // (len(unit) + len(sep)))
    return head + sep.join([unit] * count) + tail


# a review thread: resolved or not, a reply; a per-pull-request group around threads
_THREAD = (b'{"isResolved":false,"isOutdated":true,"path":"svc/a.py","line":null,'
           b'"originalLine":7,"comments":{"nodes":[{"author":{"login":"bot"},"body":'
           b'"_\u26a0\ufe0f Potential issue_\\n\\n**x**"},{"author":{"login":"dev"},'
           b'"body":"Fixed in 1a2b."}]}}')
_DIGEST = (b'{"user":{"login":"bot"},"state":"COMMENTED","body":"**Actionable comments posted:'
           b' 1**\\n<details>\\n<summary>Nitpick comments (1)</summary><blockquote>\\n<details>'
           b'\\n<summary>svc/b.py (1)</summary><blockquote>\\n`3-4`: **y**\\n</blockquote>'
           b'</details>\\n</blockquote></details>"}')


def text(data: bytes) -> str:
    return data.decode("utf-8", "replace")


# (family, line builder, core under test)
FAMILIES: list[tuple[str, Callable[[int], bytes], Callable[[bytes], object]]] = [
    ("fence hardened: dash run", lambda n: b"-" * n, fence.escape_hardened),
    ("fence hardened: dash-space run", lambda n: rep(b"- ", n), fence.escape_hardened),
    ("fence hardened: blank run after dashes", lambda n: b"--- " + b" " * n + b"x",
     fence.escape_hardened),
    ("fence hardened: repeated near misses", lambda n: rep(b"-- end council-outpu ", n),
     fence.escape_hardened),
    ("fence hardened: repeated delimiters", lambda n: rep(b"--- end codex-output ---", n),
     fence.escape_hardened),
    ("fence hardened: look-alike dashes", lambda n: rep("\u2014\u200b".encode(), n),
     fence.escape_hardened),
    ("fence hardened: character references", lambda n: rep(b"&#45;", n),
     fence.escape_hardened),
    ("fence hardened: sentinel words", lambda n: rep(b"findings_block_", n),
     fence.escape_hardened),
    ("fence report: dash run", lambda n: b"-" * n, fence.escape_report),
    ("fence agent: near misses", lambda n: rep(b"--- end council-output:gemin", n),
     lambda b: fence.escape_agent(b, "gemini")),
    ("report markdown: appendix body", lambda n: rep(b"--- code end `` ## ", n),
     lambda b: mdquote.appendix_body(text(b))),
    ("report markdown: nested unclosed ``` fences", lambda n: nested_fences(b"`", n),
     lambda b: mdquote.appendix_body(text(b))),
    ("report markdown: nested unclosed ~~~ fences", lambda n: nested_fences(b"~", n),
     lambda b: mdquote.appendix_body(text(b))),
    ("report markdown: unclosed fences with info", lambda n: rep(b"```x\n~~~x\n", n),
     lambda b: mdquote.appendix_body(text(b))),
    ("report markdown: inline quote", lambda n: rep(b"<!-- - -- ", n),
     lambda b: mdquote.inline(text(b))),
    ("verdict layer 1: key-like line", lambda n: b"Verdict: " + rep(b"Verdict: ", n),
     layers.parse_layer1),
    ("verdict findings: header-like line", lambda n: b"- [P1] " + rep(b"a:1 -- ", n),
     lambda b: findings_block.structured_findings(b, "x")),
    ("verdict findings: bold header", lambda n: b"**[P1] a \xe2\x80\x94 " + rep(b"**x", n),
     lambda b: findings_block.structured_findings(b, "x")),
    ("reviewer JSON: openers without closers", lambda n: rep(b"x```\n", n),
     lambda b: _safe(reviewer_json.extract, text(b))),
    ("reviewer JSON: braces", lambda n: rep(b'{"a":', n),
     lambda b: _safe(reviewer_json.extract, text(b))),
    ("redaction: prefixes", lambda n: rep(b"sk-AKIAghp_Bearer ", n), redaction.redact_text),
    ("redaction: PEM begin near misses", lambda n: rep(b"-----BEGIN AAAA AAAA PRIVATE KE ", n),
     redaction.redact_text),
    ("redaction: one long PEM begin", lambda n: b"-----BEGIN " + b"A " * (n // 2) + b"x\n" * 64,
     redaction.redact_text),
    ("redaction: decoration run", lambda n: rep(b"> | - 1. ", n), redaction.redact_text),
    ("dispatch: stderr kinds", lambda n: rep(b"rate limi", n), outcome.error_kind),
    # The tolerant reader parses each answer as a Markdown document (at most its first
    # 256 KiB): these run at n/128 and 4n/128 (64 and 256 KiB by default).
    ("tolerant reader: list findings", lambda n: rep(b"- [P1] a.py:1 \xe2\x80\x94 x\n", n // 128),
     reading.read),
    ("tolerant reader: nested quotes and lists", lambda n: rep(b"> - > - 1. ", n // 128),
     reading.read),
    ("tolerant reader: emphasis run", lambda n: rep(b"**_`[", n // 128), reading.read),
    ("tolerant reader: severity headings", lambda n: rep(b"## P1 issues\n", n // 128),
     reading.read),
    ("tolerant reader: table rows",
     lambda n: b"| File | Line | Issue |\n|---|---|---|\n" + rep(b"| a.py | 1 | x |\n", n // 128),
     reading.read),
    ("tolerant reader: status table rows, failing and passing",
     lambda n: b"## Findings\n\n| Check | Status | Notes |\n|---|---|---|\n"
     + rep(b"| a | \xe2\x9d\x8c FAIL | x |\n| b | Done | y |\n", n // 256), reading.read),
    ("tolerant reader: key lines", lambda n: rep(b"Verdict: x\n", n // 128), reading.read),
    ("tolerant reader: recaps restating findings",
     lambda n: rep(b"- [P1] a.py:1 the parser drops a field\n\n## Summary\n- parser drops field\n",
                   n // 128), reading.read),
    ("tolerant reader: bot comment dump",
     lambda n: rep(b"Comment #1 by x[bot] on a.py:1\n\n![high](b)\n\nThe text.\n\n---\n",
                   n // 128), reading.read),
    ("tolerant reader: JSON braces", lambda n: rep(b'{"a":', n // 128), reading.read),
    ("tolerant reader: verdict key, blank run",
     lambda n: b"Verdict:" + rep(b" ", n // 128) + b"x\n", reading.read),
    ("tolerant reader: verdict key, mark runs",
     lambda n: b"- " + rep(b"*~", n // 256) + b"Overall verdict" + rep(b"*", n // 256) + b"\n",
     reading.read),
    ("tolerant reader: glued verdict keys and arrows",
     lambda n: rep(b"**Verdict:** REJECT \xe2\x86\x92 ", n // 128) + b"\n", reading.read),
    # UTF-8 read as a code page: one run of garbled badges as long as the input, lone
    # leads across single spaces (a run that never completes), and the reader over both
    ("mojibake repair: one garbled run",
     lambda n: rep("\u00f0\u0178\u0178 \u00e2\u0161 \u00ef\u00b8\u00c3\u00a9".encode(), n),
     lambda d: mojibake.repair(d.decode("utf-8", "replace"))),
    ("mojibake repair: lone leads and spaces", lambda n: rep("\u00e2 \u00c3 ".encode(), n),
     lambda d: mojibake.repair(d.decode("utf-8", "replace"))),
    ("tolerant reader: garbled badges",
     lambda n: rep("- \u00f0\u0178\u0178  **Major** `a.py:1` \u00e2\u20ac\u201d x\n".encode(),
                   n // 128), reading.read),
    ("tolerant reader: escape sequences", lambda n: rep(b"\x1b[31m\x1b]52;c;", n // 128),
     reading.read),
    ("tolerant reader: codex events",
     lambda n: rep(b'{"type":"item.completed","item":{"type":"agent_message","text":"x"}}\n',
                   n // 128), reading.read),
    # a location's spelling after a path: no run of blanks may split several ways
    ("tolerant reader: paths before blank runs",
     lambda n: (b"- a.py" + b" " * (n // 2048) + b"x ") * 2 + b"\n", reading.read),
    ("tolerant reader: verdict keys holding remarks",
     lambda n: rep(b"**Verdict:** the store is covered by tests\n\n", n // 128), reading.read),
    ("tolerant reader: verdict key clauses naming the plan",
     lambda n: b"**Verdict:** x" + rep(b"; the plan ", n // 16) + b"\n", reading.read),
    ("tolerant reader: dashes on the first and last lines",
     lambda n: rep(b"a \xe2\x80\x94 ", n // 8) + b"\n" + rep(b"b - ", n // 8) + b"\n",
     reading.read),
    # saved pull-request data on one minified line: threads, and posted comments
    ("tolerant reader: minified review threads",
     lambda n: b'{"data":{"repository":{"pullRequest":{"reviewThreads":{"nodes":['
     + rep(b'{"path":"a.py","line":1,"isResolved":false,"comments":{"nodes":[{"body":"x\\ny"}]}},',
           n // 128) + b'{"path":"a.py","line":2,"comments":{"nodes":[]}}]}}}}}', reading.read),
    ("tolerant reader: posted comments",
     lambda n: b'{"comments":[' + rep(b'{"author":{"login":"b"},"body":"- [P1] a.py:1 x"},',
                                      n // 128) + b'{"author":{},"body":""}]}', reading.read),
    # saved pull-request review data in other nestings (valid JSON at both sizes)
    ("tolerant reader: review threads in groups",
     lambda n: records(n // 160, b'{"pull":1,"threads":[' + _THREAD + b"," + _THREAD + b"]}",
                       b'{"pulls":[', b"]}"), reading.read),
    # a verdict file: findings as sentences in a text value and a list, places in evidence
    ("tolerant reader: verdict file lists",
     lambda n: b'{"verdict":"changes","summary":"' + records(n // 2, b"1. a.rs drops it\\n",
                                                              b"", b"", b"")
     + b'","reasons":[' + records(n // 2, b'"b.py:3 x"', b"", b"") + b"]}", reading.read),
    ("tolerant reader: related files and evidence",
     lambda n: records(n // 160, b'{"summary":"x","related_files":["src/a.rs"],'
                       b'"evidence":["Line 17: y"]}', b'{"issues":[', b"]}"), reading.read),
    ("tolerant reader: review records a line",
     lambda n: records(n // 160, b'{"path":"svc/a.py","line":3,"author":"bot","body":"x y"}',
                       b"", b"\n", b"\n"), reading.read),
    ("tolerant reader: review bodies with digests",
     lambda n: records(n // 160, _DIGEST), reading.read),
    # reviews in other languages: severity and status fields, labels, per-file groups
    ("tolerant reader: other-language fields",
     lambda n: "## Problemas Críticos\n\n### 1. x\n".encode() + rep(
         "**Gravedad:** Alta **심각도**：높음 **Statut :** non corrigé ".encode(), n // 128)
     + b"\n", reading.read),
    ("tolerant reader: per-file groups",
     lambda n: rep("- `a.py`\n  - **判定**: 要修正\n  - **Critical**\n    - x `<b>`\n".encode(),
                   n // 128), reading.read),
    # bold titles over their places, and findings settled in their bodies
    ("tolerant reader: bold leads and places",
     lambda n: b"## Findings\n\n" + rep(b"**H1. a title** `a.py:3` x\n**b ", n // 128),
     reading.read),
    ("tolerant reader: settled labels in a body",
     lambda n: b"## Findings\n\n### a.py:1 x\n\n" + rep(b"Status: Verdict: **", n // 128),
     reading.read),
    ("tolerant reader: actions naming findings",
     lambda n: b"## Findings\n\n- a.py:1 x (H1)\n\n## Suggestions\n\n" + rep(
         b"- Fix issue #1 (H1 / H2 / ", n // 128) + b"\n", reading.read),
    # write-ups of solved problems, work to come, actions answering ids, clean tool runs
    ("tolerant reader: solutions, plans and clean runs",
     lambda n: b"| C1 | x | OPEN |\n\n## Recommendations\n\n" + rep(
         b"## Problem\n- `a.py` skips x\n## Solution\nRemoved x.\n### Short Term\n- y\n"
         b"### 2. Auth (unblocks C1, C2)\n- z\n#### Bandit\n- High: 0 \xe2\x9c\x85\n", n // 160),
     reading.read),
    # plain-text answers: title lines standing alone, tables of one finding's fields, a
    # codex transcript saved without its banner
    ("tolerant reader: plain-text title lines",
     lambda n: rep(b"  Critical Issues Found\n\n  1. a thing\n\n", n // 128), reading.read),
    ("tolerant reader: field tables",
     lambda n: b"1. a title\n\n| Aspect | Details |\n|---|---|\n"
     + rep(b"| File | a.css:1 |\n", n // 128), reading.read),
    ("tolerant reader: bannerless codex tail",
     lambda n: rep(b"exec\nls in /r\n succeeded in 1ms:\n", n // 128) + b"codex\n"
     + rep(b"- [P2] t \xe2\x80\x94 /r/a.py:1-2\n", n // 256), reading.read),
    # places: blob URLs written out with no line, titles over code blocks, a bare array
    ("tolerant reader: blob URL near misses",
     lambda n: b"- [P1] x " + rep(b"https://h/o/r/blob/m/a.py#x ", n // 128) + b"\n",
     reading.read),
    ("tolerant reader: titles over code blocks",
     lambda n: b"## Issues\n\n" + rep(b"**1. a title**\n```js title=\"a/b.js\"\nx\n```\n\n",
                                      n // 128), reading.read),
    ("tolerant reader: bare findings array",
     lambda n: b"[" + rep(b'{"file":"a/b.go:3","priority":"LOW","summary":"x"},', n // 128)
     + b'{"file":"a/b.go:4","summary":"y"}]', reading.read),
    # places given by context in plain text: a file-led line, then items citing lines of it
    ("tolerant reader: file leads and line items",
     lambda n: rep(b"a.py: three jobs in one module\n- Line 12: x\n\nTitle here:\n- Line 9: y\n\n",
                   n // 128), reading.read),
    ("tolerant reader: lead-ins naming a file and counted files",
     lambda n: b"Codebase: a.js (9 lines), b.css\n\n" + rep(
         b"Looking at `a.py`:\n\n1. X\n   Locations: Lines 3, 4\n\n", n // 128), reading.read),
    ("tolerant reader: titles over box rules",
     lambda n: rep(b"\xf0\x9f\x9f\xa0 HIGH PRIORITY\n" + b"\xe2\x94\x80" * 12
                   + b"\n\n1. X: a \xe2\x80\x94 HIGH \xe2\x80\x94 b\n\n", n // 128), reading.read),
    ("tolerant reader: terminal render, items and wrapped paths",
     lambda n: b"\xe2\x97\x8f Review\n\n" + rep(
         b"  1. X: y\n\n  Location:\n  - " + b"a/" * 40 + b"\n  b.kt:1\n\n  # c\n", n // 128),
     reading.read),
    ("tolerant reader: console code-page marks",
     lambda n: rep("a \u00d4\u00c7\u00f6 b\n".encode(), n // 128), reading.read),
    ("tolerant reader: coderabbit plain records",
     lambda n: rep(b"=" * 30 + b"\nFile: a.py\nLine: 1 to 2\nType: nitpick\n\nComment:\nx\n\n",
                   n // 128), reading.read),
    # terminal shapes: box-drawn table rows (wrapped cells), a wrapper's label on every line,
    # bold titles glued to sentences, tallies and blank runs after a severity count
    ("tolerant reader: box-drawn table rows",
     lambda n: "\u2503 File \u2503 Line \u2503 Issue \u2503\n".encode() + rep(
         "\u2502 a.py \u2502 1 \u2502 x \u2502\n\u2502 \u2502 \u2502 y \u2502\n".encode(),
         n // 128), reading.read),
    ("tolerant reader: labelled lines",
     lambda n: rep(b"[codex] a.py:1 - the loop never ends\n", n // 128), reading.read),
    ("tolerant reader: titles glued to sentences",
     lambda n: rep(b"I read the code and the tests.**High Findings**\n1. x `a.py:1`\n\n", n // 128),
     reading.read),
    ("tolerant reader: tallies and blank runs",
     lambda n: rep(b"Critical: 1, High: 0, Medium: 2\n", n // 256)
     + b"- Critical: 1" + b" " * (n // 256) + b"x\n", reading.read),
    ("dispatch: opencode events", lambda n: rep(b'{"type":"text","part":{"text":"x"}}\n', n),
     dispatch.read_opencode_events),
    # the extended rules' shapes of wrapped values: a key before each unit
    ("extended rules: long values after keys", lambda n: rep(b"Token ::&a Ab3+", n), extended),
    ("extended rules: encoded URLs", lambda n: rep(b"redis%3A%2F%2F%3Ax", n), extended),
    ("extended rules: argument pairs", lambda n: rep(b"'password', '", n), extended),
    ("extended rules: scrambled values", lambda n: rep(b"password=Ab1<", n), extended),
    ("extended rules: tokens as users", lambda n: rep(b"x://Ab3d", n), extended),
]


def _safe(fn: Callable[[str], object], arg: str) -> object:
    try:
        return fn(arg)
    except reviewer_json.ExtractError:
        return None


def best(fn: Callable[[bytes], object], data: bytes, runs: int = 3) -> float:
    """Seconds per call: the best of ``runs`` timings, each of enough calls to last 50 ms."""
    t = time.perf_counter()
    fn(data)
    first = time.perf_counter() - t
    if first > 1.0:  # slow enough that one more timing is steady
        runs = 1
    calls = max(1, int(0.05 / max(first, 1e-6)))
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        for _ in range(calls):
            fn(data)
        times.append((time.perf_counter() - t) / calls)
    return min(times)


def calls(fn: Callable[[bytes], object], data: bytes) -> int:
    """Python function calls made by one ``fn(data)``."""
    prof = cProfile.Profile()
    prof.enable()
    fn(data)
    prof.disable()
    return int(pstats.Stats(prof).total_calls)  # type: ignore[attr-defined]


def main(argv: list[str]) -> int:
    if "--help" in argv or "-h" in argv:
        print(__doc__)
        return 0
    n = (1 << 20) if "--quick" in argv else (8 << 20)
    only = [a for a in argv if not a.startswith("--")]
    print(f"bench_linear: each family at {n >> 10} KiB and {4 * n >> 10} KiB "
          f"(best of 3, each at least 50 ms); a ratio over {LIMIT:g} fails")
    failed = 0
    for name, build, core in FAMILIES:
        if only and not any(o in name for o in only):
            continue
        small, large = build(n)[:n], build(4 * n)[: 4 * n]
        if "tolerant reader" in name:
            small, large = small[: n // 128], large[: n // 32]
        t1, t4 = best(core, small), best(core, large)
        ratio = t4 / t1 if t1 > 0 else 0.0
        flag = "ok" if ratio <= LIMIT else "FAIL"
        failed += flag == "FAIL"
        extra = ""
        if "--calls" in argv:
            c1, c4 = calls(core, small), calls(core, large)
            extra = f"  calls {c1} -> {c4} ({c4 / max(c1, 1):.2f}x)"
        print(f"  {name:42s} {t1 * 1000:9.1f} ms {t4 * 1000:9.1f} ms  ratio {ratio:5.2f}  {flag}"
              + extra)
    if failed:
        print(f"  {failed} famil{'y' if failed == 1 else 'ies'} over {LIMIT:g}: rerun those alone "
              "on an idle machine (python bench/bench_linear.py NAME) before calling it growth")
    return 1 if failed and "--strict" in argv else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
