"""The default chain on realistic answers: redact | fence | parse-verdict | consolidate.

Every verdict read right, every finding's own text present in json, the
markdown synthesis (before the appendices), SARIF and rdjsonl, one grouping
everywhere, and the SARIF with grouped results valid for Sarif.Multitool.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import realcorpus

from conftest import run_filter

fold, strings = realcorpus.fold, realcorpus.strings

ROOT = Path(__file__).resolve().parent.parent



def chain(data: bytes) -> bytes:
    for exe in ("redact", "fence", "parse-verdict"):
        res = run_filter(exe, ["--jsonl"], data)
        assert res.code == 0, res.err
        data = res.out
    return data


def consolidate(data: bytes, fmt: str) -> bytes:
    res = run_filter("consolidate", ["--format", fmt, "--no-source", "--date", "2026-01-01",
                                     "--root", "/nonexistent-root"], data)
    assert res.code == 0, res.err
    return res.out



@pytest.mark.parametrize("seed", [1002, 2000, 3021])
def test_default_chain_loses_nothing(seed: int) -> None:
    sc = realcorpus.scenario(seed)
    parsed = chain(sc.jsonl())
    got = {r["reviewer"]: r["verdict"] for r in map(json.loads, parsed.splitlines())}
    assert got == sc.verdicts
    md = consolidate(parsed, "markdown").decode()
    synthesis = md[: re.search(r"^## \S+ Output$", md, re.M).start()]
    doc = json.loads(consolidate(parsed, "json"))
    sarif = json.loads(consolidate(parsed, "sarif"))
    results = sarif["runs"][0]["results"]
    rd = [json.loads(x) for x in consolidate(parsed, "rdjsonl").splitlines()]
    hay = {
        "markdown": fold(re.sub(r"\\(.)", r"\1", synthesis)),
        "json": fold(" ".join(strings(doc["findings"]))),
        "sarif": fold(" ".join(strings([r["message"] for r in results]))),
        "rdjsonl": fold(" ".join(d["message"] for d in rd)),
    }
    for t in sc.findings:
        for fmt, text in hay.items():
            assert fold(t.text) in text, (fmt, t.text)
    # one grouping everywhere: as many SARIF results and diagnostics as json findings
    assert len(results) == len(rd) == len(doc["findings"])
    truth = {(t.reviewer, fold(t.text)): t.pid for t in sc.findings}
    groups = [[truth[(m["origin"], fold(m["text"]))] for m in f["members"]
               if (m["origin"], fold(m["text"])) in truth] for f in doc["findings"]]
    assert all(len(set(g)) == 1 for g in groups if g)  # no group mixes two problems
    per_problem = {}
    for i, g in enumerate(groups):
        for pid in g:
            per_problem.setdefault(pid, set()).add(i)
    assert all(len(v) == 1 for v in per_problem.values())  # no problem split in two


def test_grouped_sarif_passes_multitool(tmp_path: Path) -> None:
    local = ROOT / "node_modules" / ".bin" / "sarif-multitool-linux"
    multitool = str(local) if local.exists() else shutil.which("sarif-multitool-linux")
    if not multitool:
        pytest.skip("Sarif.Multitool not installed (npm install @microsoft/sarif-multitool-linux)")
    out = consolidate(chain(realcorpus.scenario(1002).jsonl()), "sarif")
    assert any("relatedLocations" in r for r in json.loads(out)["runs"][0]["results"])
    target = tmp_path / "council.sarif"
    target.write_bytes(out)
    report = tmp_path / "validation.sarif"
    res = subprocess.run([multitool, "validate", "--output", str(report), str(target)],
                         capture_output=True, text=True, timeout=300, check=False)
    assert res.returncode == 0, res.stdout[-2000:]
    problems = [r for run in json.loads(report.read_text())["runs"]
                for r in run.get("results", []) if r.get("level") in ("error", "warning")]
    assert problems == []
