"""Identities that last, baselines, --filter-mode, the gates, Code Quality and the reports."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import orjson
import pytest

from conftest import git, run_filter

DATA = Path(__file__).resolve().parent / "data"


def body(n: int) -> str:
    return "".join(f"def step_{k}(ctx):\n    return ctx.run({k})\n" for k in range(n))


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    r = tmp_path / "repo"
    r.mkdir()
    git(r, "init", "-q", "-b", "main")
    (r / "svc.py").write_text(body(60))
    (r / "util.py").write_text(body(10))
    (r / "keep.py").write_text(body(10))
    git(r, "add", "-A")
    git(r, "commit", "-q", "-m", "base")
    git(r, "branch", "base")
    lines = body(60).split("\n")
    lines.insert(20, "    audit(ctx)  # added")  # line 21 is added
    (r / "svc.py").write_text("\n".join(lines))
    (r / "util.py").write_text(body(10) + "def extra():\n    return 0\n")
    git(r, "add", "-A")
    git(r, "commit", "-q", "-m", "change")
    return r


def F(file, line, quote, summary, origin="claude", severity="medium", **extra):  # noqa: N802
    rec = {"kind": "finding", "origin": origin, "file": file, "line": line,
           "summary": summary, "severity": severity, **extra}
    if quote is not None:
        rec["evidence"] = quote
    return rec


def run(repo: Path, recs: list[dict], *args: str):  # type: ignore[no-untyped-def]
    data = b"".join(orjson.dumps(r) + b"\n" for r in recs)
    return run_filter("consolidate", ["--repo", str(repo), *args], data)


BASE = [
    F("svc.py", 22, "return ctx.run(10)", "runs the wrong step", severity="critical"),
    F("svc.py", 40, "return ctx.run(19)", "missing timeout on run", origin="codex"),
    F("util.py", 5, "def step_2(ctx):", "name is vague", severity="minor"),
    F("keep.py", 7, "return ctx.run(3)", "should log", origin="gemini"),
]


def sarif_ids(out: bytes) -> dict[str, tuple[str, str]]:
    run0 = json.loads(out)["runs"][0]
    rules = [r["id"] for r in run0["tool"]["driver"]["rules"]]
    assert len(rules) == len(set(rules))
    return {r["message"]["text"].split(" [")[0]: (r["ruleId"],
            r["partialFingerprints"]["primaryLocationLineHash"]) for r in run0["results"]}


def test_sarif_identities_survive_a_finding_added_in_front(repo):
    before = sarif_ids(run(repo, BASE, "--format", "sarif").out)
    front = [F("svc.py", 3, "def step_1(ctx):", "a new first finding", origin="security",
               severity="critical"), *BASE]
    after = sarif_ids(run(repo, front, "--format", "sarif").out)
    for text, ident in before.items():
        assert after[text] == ident
    assert all(not rid.split("/")[-1].isdigit() for rid, _ in after.values())
    assert after["a new first finding"][0] == "council/security"


def test_fingerprints_ignore_line_shifts_reviewers_and_order(repo):
    a = json.loads(run(repo, BASE, "--format", "json").out)
    shifted = [dict(r, line=r["line"] + 30) for r in BASE]  # re-anchored, same claims
    b = json.loads(run(repo, list(reversed(shifted)), "--format", "json").out)
    fa = {f["summary"]: f["fingerprint"] for f in a["findings"]}
    fb = {f["summary"]: f["fingerprint"] for f in b["findings"]}
    assert fa == fb
    assert len(set(fa.values())) == len(fa)


def test_two_findings_on_one_quote_keep_distinct_fingerprints(repo):
    recs = [F("svc.py", 22, "return ctx.run(10)", "wrong step", origin="claude"),
            F("svc.py", 22, "return ctx.run(10)", "no retry budget at all", origin="claude")]
    doc = json.loads(run(repo, recs, "--format", "json").out)
    fps = [f["fingerprint"] for f in doc["findings"]]
    assert len(fps) == 2 and len(set(fps)) == 2


@pytest.mark.parametrize("kind", ["json", "sarif"])
def test_baseline_counts_new_unchanged_fixed(repo, tmp_path, kind):
    base = tmp_path / f"base.{kind}"
    base.write_bytes(run(repo, BASE, "--format", kind).out)
    now = [BASE[0], BASE[2],  # unchanged (one moved by lines: same identity)
           dict(BASE[1], line=BASE[1]["line"] + 5),
           F("util.py", 18, "def extra():", "extra has no docstring", severity="minor"),  # new
           ]
    res = run(repo, now, "--format", "json", "--baseline", str(base))
    assert res.code == 0, res.err
    doc = json.loads(res.out)
    assert doc["baseline"] == {"new": 1, "unchanged": 3, "fixed": 1}
    assert [f["text"] for f in doc["fixed"]][0].startswith("should log")
    states = {f["summary"]: f["baseline"] for f in doc["findings"]}
    assert states["extra has no docstring"] == "new"
    assert states["runs the wrong step"] == "unchanged"
    for f in doc["findings"]:
        assert all(m["baseline"] in ("new", "unchanged") for m in f["members"])
    md = run(repo, now, "--baseline", str(base)).out.decode()
    assert "1 new, 3 unchanged, 1 fixed since the baseline" in md
    assert "Fixed since the baseline (1)" in md


def test_new_only_gates_only_new_findings(repo, tmp_path):
    base = tmp_path / "base.json"
    base.write_bytes(run(repo, BASE, "--format", "json").out)
    res = run(repo, BASE, "--fail-level", "critical", "--baseline", str(base), "--new-only")
    assert res.code == 0, res.err
    res = run(repo, BASE, "--fail-level", "critical", "--baseline", str(base))
    assert res.code == 3
    new = [*BASE, F("util.py", 18, "def extra():", "extra breaks", severity="critical")]
    res = run(repo, new, "--fail-level", "critical", "--baseline", str(base), "--new-only")
    assert res.code == 3 and "UTI" not in res.err and "-0" in res.err
    assert run(repo, BASE, "--new-only").code == 2


FILTER = [
    F("svc.py", 21, "audit(ctx)", "added line"),
    F("svc.py", 23, "return ctx.run(10)", "context line"),
    F("svc.py", 100, "return ctx.run(49)", "far in the changed file"),
    F("keep.py", 7, "return ctx.run(3)", "unchanged file"),
    {"kind": "finding", "origin": "claude", "summary": "no file at all", "severity": "medium"},
]


@pytest.mark.parametrize("mode,kept", [
    ("added", {"added line"}),
    ("diff_context", {"added line", "context line"}),
    ("file", {"added line", "context line", "far in the changed file"}),
    ("nofilter", {"added line", "context line", "far in the changed file", "unchanged file",
                  "no file at all"}),
])
def test_filter_modes(repo, mode, kept):
    res = run(repo, FILTER, "--format", "json", "--base", "base", "--filter-mode", mode)
    assert res.code == 0, res.err
    doc = json.loads(res.out)
    changes = {f["summary"]: f.get("change") for f in doc["findings"]}
    assert changes == {"added line": "added", "context line": "context",
                       "far in the changed file": "file", "unchanged file": "unchanged",
                       "no file at all": None}
    left = {f["summary"] for f in doc["findings"] if f.get("filtered")}
    assert left == set(changes) - kept
    sarif = json.loads(run(repo, FILTER, "--format", "sarif", "--base", "base",
                           "--filter-mode", mode).out)["runs"][0]
    texts = {r["message"]["text"] for r in sarif["results"]}
    assert texts == kept - {"no file at all"}
    rd = run(repo, FILTER, "--format", "rdjsonl", "--base", "base", "--filter-mode", mode).out
    assert {json.loads(x)["message"] for x in rd.splitlines()} == kept
    gate = run(repo, FILTER, "--fail-level", "medium", "--base", "base", "--filter-mode", mode)
    assert gate.code == 3
    md = run(repo, FILTER, "--base", "base", "--filter-mode", mode).out.decode()
    if mode != "nofilter":
        assert f"Left out by --filter-mode {mode}" in md
        for s in set(changes) - kept:
            assert s in md.split(f"Left out by --filter-mode {mode}")[1]


def test_filter_mode_needs_a_diff(repo):
    res = run(repo, FILTER, "--filter-mode", "added")
    assert res.code == 2 and "--diff or --base" in res.err


def test_filter_mode_from_a_diff_file(repo, tmp_path):
    diff = git(repo, "diff", "base...HEAD")
    (tmp_path / "change.diff").write_text(diff)
    res = run(repo, FILTER, "--format", "json", "--diff", str(tmp_path / "change.diff"),
              "--filter-mode", "added")
    doc = json.loads(res.out)
    assert {f["summary"] for f in doc["findings"] if not f.get("filtered")} == {"added line"}


GATES = [
    F("svc.py", 22, "eval(request.body)", "fabricated critical", severity="critical"),
    F("svc.py", 40, None, "unquoted medium"),
]


def test_fail_level_ignores_unverified_unless_asked(repo):
    res = run(repo, GATES[:1], "--fail-level", "critical")
    assert res.code == 0, res.err
    res = run(repo, GATES[:1], "--fail-level", "critical", "--gate-unverified")
    assert res.code == 3 and "CLA-001" in res.err
    res = run(repo, GATES, "--fail-level", "medium")  # the no-quote one counts
    assert res.code == 3


def test_unverified_member_does_not_make_agreement(repo):
    verdicts = [
        {"kind": "reviewer", "mode": "review", "slug": "x", "reviewer": "claude",
         "verdict": "REVISE", "output": "o",
         "findings": [F("svc.py", 22, "return ctx.run(10)", "wrong step index")]},
        {"kind": "reviewer", "mode": "review", "slug": "x", "reviewer": "codex",
         "verdict": "REVISE", "output": "o",
         "findings": [F("svc.py", 22, "return ctx.run(999)", "wrong step index", origin="codex")]},
        {"kind": "reviewer", "mode": "review", "slug": "x", "reviewer": "gemini",
         "verdict": "REVISE", "output": "o",
         "findings": [F("nothere.py", 2, "x = 1", "made-up file problem", origin="gemini")]},
    ]
    res = run(repo, verdicts, "--date", "2026-01-01", "--root", str(repo))
    text = res.out.decode()
    agreement = text.split("### Agreement")[1].split("###")[0]
    assert "wrong step index" not in agreement  # codex's quote is not in the file
    unverified = text.split("### Claims that did not check out")[1].split("###")[0]
    assert "made-up file problem" in unverified
    assert "2 claims did not check out against the code" in text
    assert "[unverified: the quote is not in the file]" in text
    doc = json.loads(run(repo, verdicts, "--format", "json", "--date", "2026-01-01",
                         "--root", str(repo)).out)
    assert [g["members"][0]["text"] for g in doc["synthesis"]["unverified"]] == [
        "made-up file problem"]


# --------------------------------------------------------------------------- #
# GitLab Code Quality.
# --------------------------------------------------------------------------- #
def test_codequality_matches_gitlabs_documented_shape(repo):
    recs = [*BASE, F("svc.py", 3, "def step_1(ctx):", "secret in code", origin="security",
                     severity="critical"),
            {"kind": "finding", "origin": "claude", "summary": "no file", "severity": "minor"}]
    res = run(repo, recs, "--format", "codequality")
    assert res.code == 0, res.err
    assert "1 finding without a file left out of the Code Quality report" in res.err
    entries = json.loads(res.out)
    schema = json.loads((DATA / "codequality.schema.json").read_text())
    jsonschema.validate(entries, schema)
    assert len(entries) == len(recs) - 1
    assert len({e["fingerprint"] for e in entries}) == len(entries)
    sev = {e["description"].split(": ", 1)[1].split(" [")[0]: e["severity"] for e in entries}
    assert sev == {"runs the wrong step": "critical", "missing timeout on run": "major",
                   "name is vague": "minor", "should log": "major",
                   "secret in code": "blocker"}
    assert all(isinstance(e["location"]["lines"]["begin"], int) for e in entries)
    check = {e["check_name"] for e in entries}
    assert "council/security" in check
    again = json.loads(run(repo, list(reversed(recs)), "--format", "codequality").out)
    assert again == entries
    more = json.loads(run(repo, [F("keep.py", 3, "def step_1(ctx):", "first!"), *recs],
                          "--format", "codequality").out)
    old = {e["fingerprint"] for e in entries}
    assert old <= {e["fingerprint"] for e in more}


def test_rdjsonl_range_is_the_quotes_own(repo):
    recs = [F("svc.py", 22, "ctx.run(10)", "quoted part of a line")]
    res = run(repo, recs, "--format", "rdjsonl")
    (diag,) = [json.loads(x) for x in res.out.splitlines()]
    # line 23 of svc.py (one line was added above it) reads "    return ctx.run(10)":
    # the quote spans bytes 12..23
    assert diag["location"]["range"] == {"start": {"line": 23, "column": 12},
                                         "end": {"line": 23, "column": 23}}


def test_sarif_with_evidence_baseline_and_filter_passes_the_validator(repo, tmp_path):
    from test_consolidate_formats import tool

    multitool = tool("sarif-multitool-linux")
    if not multitool:
        pytest.skip("Sarif.Multitool not installed (npm install @microsoft/sarif-multitool-linux)")
    import subprocess

    base = tmp_path / "base.sarif"
    base.write_bytes(run(repo, BASE, "--format", "sarif").out)
    res = run(repo, [*FILTER, *GATES, *BASE], "--format", "sarif", "--base", "base",
              "--filter-mode", "file", "--baseline", str(base))
    assert res.code == 0, res.err
    log = json.loads(res.out)
    assert all(r["locations"] for r in log["runs"][0]["results"])
    assert {r.get("baselineState") for r in log["runs"][0]["results"]} <= {"new", "unchanged"}
    target = tmp_path / "council.sarif"
    target.write_bytes(res.out)
    out = tmp_path / "validation.sarif"
    done = subprocess.run([multitool, "validate", "--output", str(out), str(target)],
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stdout[-2000:]
    found = json.loads(out.read_text())["runs"][0].get("results", [])
    bad = [r for r in found if r.get("level", "warning") in ("error", "warning")
           and r.get("ruleId") != "SARIF2005"]
    assert bad == [], bad[:3]
