"""rdjsonl ``suggestions``: a reviewer's replacement code becomes a line-based reviewdog
suggestion over the finding's lines, and the comment's range is those same lines."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import orjson
import pytest

from conftest import ROOT, git, run_filter

SOURCE = "def f(xs):\n    total = 0\n    for x in xs:\n        total += x\n    return total\n"


@pytest.fixture()
def repo(tmp_path: Path) -> Path:
    r = tmp_path / "repo"
    r.mkdir()
    (r / "f.py").write_text(SOURCE)
    git(r, "init", "-q", "-b", "main")
    git(r, "add", "-A")
    git(r, "commit", "-q", "-m", "f")
    return r


def diagnostics(repo: Path, *findings: dict) -> list[dict]:
    data = b"".join(orjson.dumps({"kind": "finding", "origin": "claude", "file": "f.py",
                                  "severity": "medium", **f}) + b"\n" for f in findings)
    res = run_filter("consolidate", ["--format", "rdjsonl", "--repo", str(repo)], data)
    assert res.code == 0, res.err
    return [json.loads(x) for x in res.out.splitlines()]


def test_a_suggestion_block_in_the_discussion_over_a_line_range(repo) -> None:
    (d,) = diagnostics(repo, {
        "line": 2, "end_line": 4, "summary": "use sum",
        "discussion": "A loop is not needed.\n\n````suggestion\n    total = sum(xs)\n````\n"
                      "Then return it."})
    lines = {"start": {"line": 2}, "end": {"line": 4}}
    assert d["suggestions"] == [{"range": lines, "text": "    total = sum(xs)"}]
    assert d["location"]["range"] == lines
    assert "suggestion" not in d["message"] and "Then return it." in d["message"]


def test_a_replacement_field_a_deletion_and_findings_without_code(repo) -> None:
    got = diagnostics(
        repo,
        {"line": 5, "summary": "return early", "replacement": "    return total  # done\n"},
        {"line": 1, "summary": "drop the blank", "replacement": ""},
        {"line": 3, "summary": "just a remark", "discussion": "```python\nx = 1\n```"},
        {"summary": "file-level, with code but no line", "replacement": "x"},
    )
    by = {d["message"].split("\n")[0]: d for d in got}
    assert by["return early"]["suggestions"][0]["text"] == "    return total  # done"
    assert by["drop the blank"]["suggestions"] == [
        {"range": {"start": {"line": 1}, "end": {"line": 1}}, "text": ""}]
    assert "suggestions" not in by["just a remark"]  # a code block that is not a suggestion
    assert "suggestions" not in by["file-level, with code but no line"]


def test_a_json_answer_replacement_reaches_the_finding() -> None:
    answer = {"verdict": "REVISE", "confidence": "HIGH", "summary": "s",
              "findings": [{"severity": "P2", "file": "f.py", "line": 2, "title": "t",
                            "suggested_code": "    total = sum(xs)\n"}]}
    rec = {"kind": "reviewer", "reviewer": "claude", "status": "OK",
           "output": json.dumps(answer)}
    res = run_filter("parse-verdict", ["--jsonl"], orjson.dumps(rec) + b"\n")
    assert res.code == 0, res.err
    (out,) = [json.loads(x) for x in res.out.splitlines()]
    (finding,) = out["findings"]
    assert finding["replacement"] == "    total = sum(xs)\n"


def test_suggestions_pass_the_rdformat_validator(repo, tmp_path) -> None:
    local = ROOT / "node_modules" / ".bin" / "rdformat-validator"
    validator = str(local) if local.exists() else shutil.which("rdformat-validator")
    if validator is None:
        pytest.skip("rdformat-validator not installed (make node_modules/.installed)")
    got = diagnostics(repo, {"line": 2, "end_line": 4, "summary": "use sum",
                             "replacement": "    total = sum(xs)\n"})
    path = tmp_path / "d.json"
    path.write_text(json.dumps(got[0]) + "\n")
    res = subprocess.run([validator, "--strict", "--format", "json", str(path)],
                         capture_output=True, text=True, timeout=120, check=False)
    assert res.returncode == 0 and json.loads(res.stdout)["invalidFiles"] == 0, res.stdout
