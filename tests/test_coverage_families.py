"""Pack coverage per file, the coverage share and model families counted from records,
totals that leave cached and skipped reviewers out, and the gates that read them."""

from __future__ import annotations

import pytest

from council_filters.consolidate import usage
from council_filters.council import gates
from council_filters.pack import coverage

DIFF = (
    b"diff --git a/a.py b/a.py\n"
    b"--- a/a.py\n+++ b/a.py\n"
    b"@@ -1,2 +1,3 @@\n x = 1\n-y = 2\n+y = 3\n+z = 4\n"
    b"diff --git a/img.png b/img.png\n"
    b"Binary files a/img.png and b/img.png differ\n"
    b"diff --git a/old.txt b/new.txt\n"
    b"similarity index 100%\nrename from old.txt\nrename to new.txt\n"
    b"diff --git a/b.py b/b.py\n"
    b"--- a/b.py\n+++ b/b.py\n"
    b"@@ -1 +1,4 @@\n-a\n+b\n+c\n+d\n+e\n"
)


def states(kept: int | None) -> list[tuple[str, int, int, str]]:
    return [(f["path"], f["lines"], f["seen"], f["state"]) for f in coverage.files(DIFF, kept)]


def test_the_whole_diff_shows_every_file_whole() -> None:
    assert states(None) == [("a.py", 3, 3, "whole"), ("img.png", 0, 0, "whole"),
                            ("new.txt", 0, 0, "whole"), ("b.py", 5, 5, "whole")]


@pytest.mark.parametrize(("kept", "expected"), [
    # 23 lines: everything
    (23, ["whole", "whole", "whole", "whole"]),
    # b.py's header and hunk line and its first two body lines
    (20, ["whole", "whole", "whole", "cut"]),
    # up to b.py's hunk line, none of its changed lines: b.py is not seen at all
    (18, ["whole", "whole", "whole", "none"]),
    (14, ["whole", "whole", "whole", "none"]),
    # a.py cut after its removed line: 1 of 3; the binary file's header not reached
    (6, ["cut", "none", "none", "none"]),
    (0, ["none", "none", "none", "none"]),
])
def test_a_cut_diff_counts_what_it_keeps(kept: int, expected: list[str]) -> None:
    assert [s[3] for s in states(kept)] == expected


def test_seen_lines_are_the_changed_lines_kept() -> None:
    assert states(20)[3] == ("b.py", 5, 2, "cut")
    assert states(6)[0] == ("a.py", 3, 1, "cut")


def rec(name: str, verdict: str, seen: dict[str, int], *, status: str = "OK",
        family: str | None = None, **extra: object) -> dict:
    lines = {"a.py": 10, "b.py": 30}
    cov = [{"path": p, "lines": n, "seen": seen.get(p, 0),
            "state": "whole" if seen.get(p, 0) == n else ("cut" if seen.get(p) else "none")}
           for p, n in lines.items()]
    r = {"kind": "reviewer", "reviewer": name, "verdict": verdict, "status": status,
         "coverage": cov, **extra}
    if family:
        r["family"] = family
    return r


def test_coverage_share_is_lines_seen_by_at_least_n_counted_reviewers() -> None:
    recs = [rec("a", "APPROVE", {"a.py": 10, "b.py": 30}),
            rec("b", "REVISE", {"a.py": 10, "b.py": 12}),
            rec("c", "UNKNOWN", {"a.py": 10, "b.py": 30}),  # not counted
            rec("d", "ERROR", {}, status="ERROR")]
    voters = [r for r, _ in gates.counted(recs)]
    assert usage.covered_share(recs, voters, 1) == {"lines": 40, "seen": 40, "percent": 100.0,
                                                    "reviewers": 1}
    assert usage.covered_share(recs, voters, 2)["seen"] == 10 + 12
    assert usage.covered_share(recs, voters, 3)["seen"] == 0
    # A reviewer that did not end OK saw nothing, whatever its pack showed.
    failed = [rec("a", "APPROVE", {"a.py": 10, "b.py": 30}, status="TIMEOUT")]
    assert usage.covered_share(failed, ["a"], 1)["seen"] == 0


def test_min_coverage_gate_one_under_and_at_the_line() -> None:
    recs = [rec("a", "APPROVE", {"a.py": 10, "b.py": 20})]  # 30 of 40: 75 %
    assert gates.check(recs, gates.Gates(min_coverage=75)) == []
    (failure,) = gates.check(recs, gates.Gates(min_coverage=75.01))
    assert failure.startswith("--min-coverage 75.01: 30 of 40 changed lines (75%)")
    # --min-reviewers 2 asks two counted reviewers per line.
    failures = gates.check(recs, gates.Gates(min_reviewers=2, min_coverage=1))
    assert any("seen by at least 2 counted reviewers" in f for f in failures)


def test_families_counted_from_counted_verdicts_only() -> None:
    recs = [rec("a", "APPROVE", {}, family="anthropic"), rec("b", "APPROVE", {}, family="openai"),
            rec("c", "APPROVE", {}, family="anthropic"), rec("d", "UNKNOWN", {}, family="google"),
            rec("e", "APPROVE", {})]
    pairs = [(r, r["verdict"]) for r in recs]
    assert usage.counted_families(pairs) == ["anthropic", "openai"]
    assert usage.families_note(pairs) == "2 model families agreed on APPROVE (anthropic, openai)"
    assert gates.check(recs, gates.Gates(min_families=2)) == []
    (failure,) = gates.check(recs, gates.Gates(min_families=3))
    assert failure.startswith("--min-families 3: 2 model families (anthropic, openai)")
    split = pairs[:2] + [(rec("f", "REJECT", {}, family="google"), "REJECT")]
    assert usage.families_note(split) == (
        "model families differ: APPROVE 2 (anthropic, openai); REJECT 1 (google)")
    assert usage.families_note([(rec("x", "APPROVE", {}), "APPROVE")]) is None
    assert usage.families_note([(rec("x", "ERROR", {}, family="f"), "ERROR")]) is None


def test_totals_leave_cached_and_skipped_reviewers_out() -> None:
    u = {"input_tokens": 100, "output_tokens": 10, "cost_usd": 0.5, "source": "claude-json"}
    recs = [
        {"reviewer": "a", "status": "OK", "pack_tokens": 50, "usage": u},
        {"reviewer": "b", "status": "OK", "pack_tokens": 50, "usage": u, "cached": True},
        {"reviewer": "c", "status": "UNAVAILABLE", "pack_tokens": 50, "error_kind": "budget"},
        {"reviewer": "d", "status": "OK", "pack_tokens": 7,
         "usage": {"input_tokens": 3, "output_tokens": None, "cost_usd": None,
                   "source": "codex-json"}},
    ]
    t = usage.totals(recs)
    assert (t["input_tokens"], t["output_tokens"], t["pack_tokens"]) == (103, 10, 57)
    assert t["cost_usd"] == 0.5 and t["cost_known"] is False
    assert (t["cached"], t["skipped"], t["reviewers"]) == (1, 1, 4)


def test_the_report_section_names_files_and_caps_long_lists() -> None:
    many = [{"path": f"f{i}.py", "lines": 1, "seen": 1, "state": "whole"} for i in range(25)]
    r = {"reviewer": "a", "status": "OK", "pack_tokens": 5, "coverage": many}
    lines = usage.section([("a", r)])
    (cov,) = [line for line in lines if line.startswith("- A saw")]
    assert "f0.py" in cov and "f19.py" in cov and "f20.py" not in cov and "and 5 more" in cov
    assert usage.section([("a", {"reviewer": "a", "verdict": "APPROVE"})]) == []
