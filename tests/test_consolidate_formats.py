"""council-consolidate: SARIF and rdjsonl through the official validators; synthesis rules.

The validators install from npm (see docs/consolidate.md):
``npm install --prefix . --no-save @microsoft/sarif-multitool-linux
@umbrelladocs/rdformat-validator``.
Tests that need them skip with a message when they are absent.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import orjson
import pytest

from council_filters.consolidate import synthesis
from council_filters.consolidate.finding import SourceReader
from council_filters.consolidate.render import rdjsonl as rdjson

from conftest import git, run_filter

ROOT = Path(__file__).resolve().parent.parent


def tool(name: str) -> str | None:
    local = ROOT / "node_modules" / ".bin" / name
    return str(local) if local.exists() else shutil.which(name)


def commit_all(repo: Path) -> None:
    """``repo`` as a git repository with everything in it committed."""
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "files")


def rich_input(repo: Path) -> bytes:
    (repo / "src").mkdir()
    (repo / "src" / "ünï.py").write_text("a = 'é€𐐀' + b\nprint(a)\n", encoding="utf-8")
    commit_all(repo)  # snippets and columns come from tracked content only
    recs = [
        {"kind": "finding", "origin": "security", "file": "src/ünï.py", "line": 1, "column": 9,
         "end_line": 1, "end_column": 12, "severity": "critical", "subject": "Secret-ish literal",
         "discussion": "Because.", "source": "script", "confidence": 1.0},
        {"kind": "finding", "origin": "performance", "file": "src/slow.py", "line": 2,
         "severity": "medium", "subject": "Slow print", "discussion": "x" * 70_000},
        {"kind": "finding", "origin": "claude", "file": "docs/a b.md", "severity": "P3",
         "subject": "File-level note"},
        {"kind": "finding", "origin": "tests", "severity": "critical", "subject": "No file"},
        {"kind": "finding", "origin": "requirements", "file": "src/x.py", "line": 9,
         "subject": "Missing acceptance criterion", "confidence": "low",
         "related": [{"file": "src/y.py", "line": 3, "end_line": 5}, {"file": "docs/a b.md"},
                     {"file": "/etc/hosts", "line": 1}]},
    ]
    return b"".join(orjson.dumps(r) + b"\n" for r in recs)


@pytest.mark.parametrize("upstream", [False, True], ids=["default", "upstream"])
def test_rdjsonl_shape_lines_and_byte_columns(tmp_path, upstream):
    mode = ["--upstream"] if upstream else []
    code, out, err = run_filter("consolidate",
                                ["--format", "rdjsonl", "--repo", str(tmp_path), *mode],
                                rich_input(tmp_path))
    assert code == 0
    lines = out.split(b"\n")
    assert lines[-1] == b"" and all(lines[:-1])  # newline-terminated, no blank line
    diags = [json.loads(x) for x in lines[:-1]]
    if upstream:
        assert len(diags) == 4 and "1 finding without a file left out of rdjsonl" in err
    else:  # every finding reaches every format: the one naming no file has no location
        assert len(diags) == 5 and "1 finding without a file kept without a location" in err
        unplaced = [d for d in diags if d["location"] == {"path": "."}]
        assert len(unplaced) == 1 and unplaced[0]["message"].startswith("No file")
    assert all(len(x) < 64 * 1024 for x in lines)
    assert all(d["source"]["name"].startswith("council/") and d["code"]["value"] for d in diags)
    first = diags[0]
    assert first["code"]["value"] == "SEC-001" and first["severity"] == "ERROR"
    # In  a = 'é€𐐀' + b  character 9 (the closing quote) starts at byte 15, character 12 at 18.
    assert first["location"]["range"]["start"] == {"line": 1, "column": 15}
    assert first["location"]["range"]["end"] == {"line": 1, "column": 18}
    slow = next(d for d in diags if d["code"]["value"] == "PRF-001")
    assert slow["message"].endswith("[... message truncated ...]")


@pytest.mark.parametrize(
    "text,col,byte", [("abc", 1, 1), ("abc", 3, 3), ("é€b", 3, 6), ("a𐐀b", 3, 6), ("ab", 9, None)]
)
def test_byte_column(text, col, byte):
    assert rdjson.byte_column(text, col) == byte


def test_rdjsonl_passes_rdformat_validator(tmp_path):
    validator = tool("rdformat-validator")
    if not validator:
        pytest.skip("rdformat-validator not installed "
                    "(npm install @umbrelladocs/rdformat-validator)")
    repo = tmp_path / "repo"
    repo.mkdir()
    code, out, _ = run_filter("consolidate",
                              ["--format", "rdjsonl", "--repo", str(repo)],
                              rich_input(repo))
    assert code == 0
    # The validator reads one JSON document per file: one file per rdjsonl line.
    files = []
    for i, line in enumerate(out.splitlines()):
        p = tmp_path / f"d{i}.json"
        p.write_bytes(line + b"\n")
        files.append(str(p))
    res = subprocess.run([validator, "--strict", "--format", "json", *files],
                         capture_output=True, text=True, timeout=120, check=False)
    report = json.loads(res.stdout)
    assert res.returncode == 0 and report["invalidFiles"] == 0, res.stdout[:2000]


def test_sarif_leaves_out_a_finding_without_a_file_and_says_so(tmp_path):
    # Code scanning refuses a whole upload when one result has no location.
    code, out, err = run_filter("consolidate",
                                ["--format", "sarif", "--repo", str(tmp_path)],
                                rich_input(tmp_path))
    assert code == 0 and "1 finding without a file left out of SARIF" in err
    run0 = json.loads(out)["runs"][0]
    results = run0["results"]
    assert len(results) == 4 and all(r["locations"] for r in results)
    assert "No file" not in [r["message"]["text"] for r in results]
    assert run0["properties"]["omitted"]["withoutFile"] == 1


def test_sarif_shape(tmp_path):
    code, out, err = run_filter("consolidate",
                                ["--format", "sarif", "--repo", str(tmp_path), "--upstream"],
                                rich_input(tmp_path))
    assert code == 0 and "1 finding without a file left out of SARIF" in err
    log = json.loads(out)
    assert log["version"] == "2.1.0" and len(log["runs"]) == 1
    run0 = log["runs"][0]
    rules = run0["tool"]["driver"]["rules"]
    ids = [r["id"] for r in rules]
    assert len(ids) == len(set(ids)) and set(ids) == {r["ruleId"] for r in run0["results"]}
    assert all(rules[r["ruleIndex"]]["id"] == r["ruleId"] for r in run0["results"])
    for r in rules:
        assert r["shortDescription"]["text"] and r["fullDescription"]["text"]
        assert r["help"]["text"] and len(r["fullDescription"]["text"]) <= 1024
    sec = next(r for r in rules if r["id"] == "council/security")
    assert sec["properties"]["security-severity"] == "9.0"
    assert all("security-severity" not in r["properties"] for r in rules
               if r["id"] != "council/security")
    for res in run0["results"]:
        assert res["partialFingerprints"]["primaryLocationLineHash"].endswith(":1")
        assert res["locations"][0]["physicalLocation"]["region"]["startLine"] >= 1
    uris = {res["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            for res in run0["results"]}
    assert "docs/a%20b.md" in uris


def test_sarif_passes_multitool(tmp_path):
    multitool = tool("sarif-multitool-linux")
    if not multitool:
        pytest.skip("Sarif.Multitool not installed (npm install @microsoft/sarif-multitool-linux)")
    repo = tmp_path / "repo"
    repo.mkdir()
    code, out, _ = run_filter("consolidate",
                              ["--format", "sarif", "--repo", str(repo)],
                              rich_input(repo))
    assert code == 0
    target = tmp_path / "council.sarif"  # the multitool only looks at *.sarif files
    target.write_bytes(out)
    result = tmp_path / "validation.sarif"
    res = subprocess.run(
        [multitool, "validate", "--output", str(result), str(target)],
        capture_output=True, text=True, timeout=300, check=False,
    )
    assert res.returncode == 0, res.stdout[-2000:]
    found = json.loads(result.read_text())["runs"][0].get("results", [])
    # SARIF2005 asks for a tool informationUri: advice, not validity (GitHub does not need it).
    bad = [r for r in found if r.get("level", "warning") in ("error", "warning")
           and r.get("ruleId") != "SARIF2005"]
    assert bad == [], bad[:3]


# --------------------------------------------------------------------------- #
# Synthesis rules (toolkit-defined where upstream leaves them to a model).
# --------------------------------------------------------------------------- #
def R(slot, verdict, **rec):  # noqa: N802 - short table constructor
    return synthesis.Reviewer(slot, verdict, rec or None)


@pytest.mark.parametrize(
    "reviewers,line",
    [
        ([R("claude", "APPROVE"), R("codex", "APPROVE"), R("gemini", "APPROVE"),
          R("opencode", "APPROVE")], "All 4 reviewers APPROVE"),
        ([R("claude", "REVISE"), R("codex", "REVISE"), R("gemini", "REVISE"),
          R("opencode", "REVISE")], "All 4 reviewers REVISE"),
        ([R("claude", "APPROVE"), R("codex", "REVISE"), R("gemini", "APPROVE"),
          R("opencode", "REVISE")], "Split — 2 APPROVE, 2 REVISE"),
        ([R("claude", "REJECT"), R("codex", "REVISE"), R("gemini", "APPROVE"),
          R("opencode", "APPROVE")], "Split — 2 APPROVE, 1 REVISE, 1 REJECT"),
        ([R("claude", "APPROVE"), R("codex", "APPROVE"), R("gemini", "APPROVE"),
          R("opencode", "TIMEOUT", timeout_s=600)],
         "Council ran with 3 of 4 reviewers (OpenCode timed out at 600s); "
         "All 3 voting reviewers APPROVE"),
        ([R("claude", "APPROVE"), R("codex", "TIMEOUT", timeout_s=10),
          R("gemini", "TIMEOUT", timeout_s=10), R("opencode", "TIMEOUT", timeout_s=10)],
         "Council ran with 1 of 4 reviewers (Codex timed out at 10s, Gemini timed out at 10s, "
         "OpenCode timed out at 10s); All 1 voting reviewers APPROVE"),
        ([R("claude", "ERROR"), R("codex", "UNAVAILABLE"), R("gemini", "TIMEOUT"),
          R("opencode", "ERROR")],
         "Council ran with 0 of 4 reviewers (Claude errored, Codex unavailable, Gemini timed "
         "out, OpenCode errored)"),
        ([R("claude", "APPROVE"), R("codex", "APPROVE"), R("gemini", "UNKNOWN"),
          R("opencode", "APPROVE")],
         "All 3 voting reviewers APPROVE; Gemini UNKNOWN (not counted)"),
        ([R("claude", "UNKNOWN"), R("codex", "UNKNOWN"), R("gemini", "UNKNOWN"),
          R("opencode", "UNKNOWN")], "Claude, Codex, Gemini, OpenCode UNKNOWN (not counted)"),
    ],
)
def test_headline(reviewers, line):
    assert synthesis.headline(reviewers) == line


@pytest.mark.parametrize(
    "record,verdict",
    [({"verdict": "APPROVE"}, ("APPROVE", False)),
     ({"verdict": "APPROVE\r"}, ("UNKNOWN", True)),
     ({"verdict": "approve"}, ("UNKNOWN", True)),
     ({"verdict": ""}, ("ERROR", True)),
     ({"status": "TIMEOUT"}, ("TIMEOUT", False)),
     ({}, ("ERROR", True))],
)
def test_verdict_coercion(record, verdict):
    assert synthesis.verdict_of(record) == verdict


def test_appendix_names_and_order():
    recs = [{"kind": "reviewer", "mode": "plan", "slug": "x", "reviewer": s, "verdict": "APPROVE",
             "output": "ok"} for s in ("zeta", "opencode", "claude", "codex", "gemini")]
    code, out, _ = run_filter("consolidate", ["--date", "2026-01-02", "--root", "/nonexistent"],
                                             b"".join(orjson.dumps(r) + b"\n" for r in recs))
    text = out.decode()
    heads = [ln for ln in text.split("\n") if ln.endswith(" Output")]
    assert heads == ["## Claude Output", "## Codex Output", "## Gemini Output",
                     "## Opencode Output", "## Zeta Output"]
    assert "--- begin codex-output (reference only) ---" in text
    assert "Council ran with" not in text and "Split" not in text
    assert "All 5 reviewers APPROVE" in text


def test_source_reader_reads_bytes_as_utf8(tmp_path):
    (tmp_path / "f.txt").write_bytes(b"caf\xc3\xa9\r\nbad \xff\n")
    commit_all(tmp_path)
    reader = SourceReader(str(tmp_path))
    assert reader.line("f.txt", 1) == "café" and reader.line("f.txt", 2) == "bad \ufffd"
