"""One reviewer's answer that breaks a stage after dispatch is that reviewer's problem: the
council reports it with a reason, reads the others and writes the report."""

from __future__ import annotations

import dataclasses
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from council_filters.council import chain

from conftest import bin_dir
from procenv import one_file_change

pytestmark = pytest.mark.slow

ANSWER = "Verdict: {v}\\nConfidence: HIGH\\nFindings: none\\nSummary: {s}.\\n"


def _repo(tmp: Path) -> Path:
    return one_file_change(tmp / "p")


def _commands(tmp: Path, lines: dict[str, str]) -> Path:
    path = tmp / "commands"
    path.write_text("".join(f"{k} = {v}\n" for k, v in lines.items()))
    return path


@dataclasses.dataclass(frozen=True)
class _Breaking(chain.Plan):
    """The real chain, with a stage after dispatch that dies on one reviewer's answer."""

    breaker: str = ""

    def stages(self):  # type: ignore[no-untyped-def]
        out = []
        for name, argv in super().stages():
            if name == "fence":
                argv = [sys.executable, "-c", self.breaker, *argv]
            out.append((name, argv))
        return out


BREAKER = (
    "import subprocess, sys\n"
    "data = sys.stdin.buffer.read()\n"
    "if b'POISON' in data:\n"
    "    sys.exit(70)\n"
    "sys.exit(subprocess.run(sys.argv[1:], input=data).returncode)\n"
)


def test_a_stage_that_dies_on_one_answer_costs_only_that_reviewer(tmp_path):
    repo = _repo(tmp_path)
    cfg = _commands(tmp_path, {
        "alpha": f"cat > /dev/null; printf {shlex.quote(ANSWER.format(v='APPROVE', s='ok'))}",
        "beta": f"cat > /dev/null; printf {shlex.quote(ANSWER.format(v='REJECT', s='POISON'))}",
        "gamma": f"cat > /dev/null; printf {shlex.quote(ANSWER.format(v='REVISE', s='fine'))}",
    })
    plan = _Breaking(pack_args=("review", "--base", "main"), reviewers=("alpha", "beta", "gamma"),
                     commands_file=str(cfg), root=str(repo), breaker=BREAKER)
    out = chain.run(plan)
    assert out.failed_stage is None
    by = {r["reviewer"]: r for r in out.records}
    assert by["alpha"]["verdict"] == "APPROVE" and by["gamma"]["verdict"] == "REVISE"
    assert by["beta"]["status"] == "ERROR"
    assert "exit 70" in by["beta"]["summary"]
    assert out.consolidate_code in (0, 3)
    (report,) = (repo / "docs" / "council").glob("*.md")
    text = report.read_text()
    assert "Beta: ERROR" in text
    assert "the answer could not be read (council-fence failed, exit 70)" in text


def test_council_review_survives_answers_that_break_the_reader(tmp_path):
    repo = _repo(tmp_path)
    deep = "```json\\n" + '{"verdict": ' * 1200 + "1" + "}" * 1200 + "\\n```\\n"
    big = "Verdict: REVISE\\nFindings:\\n- [high] a.py:12-99999999999999999999999 x\\n"
    xdg = tmp_path / "xdg"
    (xdg / "council").mkdir(parents=True)
    (xdg / "council" / "commands").write_text(
        f"alpha = cat > /dev/null; printf {shlex.quote(ANSWER.format(v='APPROVE', s='ok'))}\n"
        f"beta = cat > /dev/null; printf '%s' {shlex.quote(deep)}\n"
        f"gamma = cat > /dev/null; printf {shlex.quote(big)}\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith("COUNCIL_")}
    env["XDG_CONFIG_HOME"] = str(xdg)
    res = subprocess.run([str(bin_dir() / "council"), "review", "--base", "main"], cwd=repo,
                         env=env, capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr
    assert "Traceback" not in res.stderr
    (report,) = (repo / "docs" / "council").glob("*.md")
    text = report.read_text()
    assert "Alpha: APPROVE" in text or "Alpha" in text
    assert "Beta" in text and "Gamma" in text
