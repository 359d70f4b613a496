"""council over repositories the tests build, with stub reviewer CLIs printing each vendor's
shape: repeat runs from the cache, --replay, --since, usage and cost in the report, the JSON
and the job summary, budget skips, coverage and model families."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import orjson
import pytest

import cli_stubs as cs
from conftest import bin_dir, git, make_repo

pytestmark = pytest.mark.slow  # real git repositories and the whole chain


def env_for(tmp_path: Path, lines: list[str]) -> dict[str, str]:
    xdg = tmp_path / "xdg"
    (xdg / "council").mkdir(parents=True, exist_ok=True)
    (xdg / "council" / "commands").write_text("".join(line + "\n" for line in lines))
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("COUNCIL_") and k != "GITHUB_STEP_SUMMARY"}
    env["XDG_CONFIG_HOME"] = str(xdg)
    env["XDG_STATE_HOME"] = str(tmp_path / "state")
    return env


def council(repo: Path, *args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(bin_dir() / "council"), *args], cwd=repo, env=env,
                          capture_output=True, text=True, timeout=180)


def synthesis(stdout: str) -> str:
    """The printed synthesis without its report-path lines (a new report, a new name)."""
    return "\n".join(line for line in stdout.splitlines() if "docs/council/" not in line)


def reports(repo: Path) -> list[Path]:
    return sorted((repo / "docs" / "council").glob("*.md"), key=lambda p: p.stat().st_mtime_ns)


@pytest.fixture()
def repo(tmp_path: Path) -> Path:
    r = make_repo(tmp_path / "project", {"app.py": "def f():\n    return 1\n"},
                  {"app.py": "def f():\n    return 2\n", "lib.py": "X = 1\nY = 2\n"})
    (r / ".git" / "info" / "exclude").write_text("docs/\n")  # reports stay out of the scope
    return r


def stubs(tmp_path: Path) -> dict[str, tuple[Path, Path]]:
    """alpha prints aider's text (a counted verdict), beta claude's JSON, gamma codex's
    events; each counts its starts and keeps the pack it read."""
    outputs = {
        "alpha": cs.aider_text(cs.answer("APPROVE"), turns=[("2.5k", "120")], session="0.0125"),
        "beta": cs.claude_json(cs.answer("REVISE"), fresh=8, made=1000, read=4000, out=90,
                               cost=0.0375),
        "gamma": cs.codex_json(cs.answer("REVISE"), inp=3000, cached=1000, out=70),
    }
    return {n: (cs.write_stub(tmp_path / "bin", n, out, capture=tmp_path / f"{n}.pack",
                              counter=tmp_path / f"{n}.count"), tmp_path / f"{n}.count")
            for n, out in outputs.items()}


def test_a_second_identical_run_starts_no_cli_and_prints_the_same_synthesis(
    repo: Path, tmp_path: Path
) -> None:
    s = stubs(tmp_path)
    env = env_for(tmp_path, [f"{n} = {p}" for n, (p, _) in s.items()]
                  + ["alpha.family = aider-model", "beta.family = anthropic",
                     "gamma.family = openai", f"council.cache = {tmp_path / 'cache'}"])
    first = council(repo, "review", "--base", "main", "--json", str(tmp_path / "one.json"),
                    env=env)
    assert first.returncode == 0, first.stderr
    assert [cs.starts(c) for _, c in s.values()] == [1, 1, 1]
    summary = tmp_path / "summary.md"
    second = council(repo, "review", "--base", "main", "--json", str(tmp_path / "two.json"),
                     "--job-summary", str(summary), env=env)
    assert second.returncode == 0, second.stderr
    assert [cs.starts(c) for _, c in s.values()] == [1, 1, 1]  # no CLI started
    assert synthesis(second.stdout) == synthesis(first.stdout)
    old, new = reports(repo)
    assert "| Alpha | aider-model | its CLI | " in old.read_text()
    text = new.read_text()
    for name in ("Alpha", "Beta", "Gamma"):
        assert f"| {name} | " in text and "the cache (no cost this run)" in text
    assert "3 answered from the cache" in text
    # The usage each CLI reported, in the report, the JSON and the job summary.
    assert re.search(r"\| Beta \| anthropic \| [^|]+ \| \d+ \| 5008 \| 90 \| \$0\.0375 \|", text)
    assert re.search(r"\| Gamma \| openai \| [^|]+ \| \d+ \| 3000 \| 70 \| — \|", text)
    assert re.search(r"\| Alpha \| aider-model \| [^|]+ \| \d+ \| 2500 \| 120 \| \$0\.0125 \|",
                     text)
    one = orjson.loads((tmp_path / "one.json").read_bytes())["synthesis"]
    by = {r["reviewer"]: r for r in one["reviewers"]}
    assert by["beta"]["usage"]["cost_usd"] == 0.0375 and by["beta"]["family"] == "anthropic"
    assert by["gamma"]["usage"]["input_tokens"] == 3000
    assert by["alpha"]["usage"]["answered"] == "cli"
    assert all(r["usage"]["pack_tokens"] > 0 for r in one["reviewers"])
    assert one["totals"]["cost_usd"] == pytest.approx(0.05)
    assert one["totals"]["cost_known"] is False  # codex reports no cost
    assert one["totals"]["input_tokens"] == 2500 + 5008 + 3000
    two = orjson.loads((tmp_path / "two.json").read_bytes())["synthesis"]
    assert two["totals"]["cached"] == 3 and two["totals"]["cost_usd"] == 0
    assert two["report_path"] == str(new.relative_to(repo))
    job = summary.read_text()
    assert "### Headline" in job and "### Usage and coverage" in job and "$0.0375" in job
    # --no-cache runs them again; --replay never does, whatever the commands.
    council(repo, "review", "--base", "main", "--no-cache", env=env)
    assert [cs.starts(c) for _, c in s.values()] == [2, 2, 2]
    env_gone = env_for(tmp_path, [f"{n} = {p}" for n, (p, _) in s.items()]
                       + ["delta = false", f"council.cache = {tmp_path / 'cache'}"])
    replay = council(repo, "review", "--base", "main", "--replay", env=env_gone)
    assert [cs.starts(c) for _, c in s.values()] == [2, 2, 2]
    assert "Delta" in replay.stdout and "not in the cache" in replay.stdout


def test_since_last_sends_only_the_new_commits(repo: Path, tmp_path: Path) -> None:
    cap = tmp_path / "alpha.pack"
    script = cs.write_stub(tmp_path / "bin", "alpha", cs.answer().encode(), capture=cap)
    env = env_for(tmp_path, [f"alpha = {script}"])
    res = council(repo, "review", "--base", "main", "--since", "last", env=env)
    assert res.returncode == 0, res.stderr
    assert "no earlier review of feature/change recorded" in res.stderr
    assert "return 2" in cap.read_text()  # the whole branch
    (repo / "new.py").write_text("NEW_WORK = True\n")
    git(repo, "add", "new.py")
    git(repo, "commit", "-q", "-m", "more")
    res = council(repo, "review", "--base", "main", "--since", "last", env=env)
    assert res.returncode == 0, res.stderr
    pack = cap.read_text()
    assert "NEW_WORK" in pack and "return 2" not in pack and "lib.py" not in pack
    assert "reviewing the commits after" in res.stderr
    # A rewritten history: the recorded commit is gone from the branch.
    git(repo, "reset", "-q", "--hard", "HEAD~2")
    (repo / "other.py").write_text("REWRITTEN = 1\n")
    git(repo, "add", "other.py")
    git(repo, "commit", "-q", "-m", "rewritten")
    res = council(repo, "review", "--base", "main", "--since", "last", env=env)
    assert res.returncode == 0, res.stderr
    assert "no longer in feature/change's history" in res.stderr
    assert "REWRITTEN" in cap.read_text()
    # --since REF: an explicit start.
    first = git(repo, "rev-list", "--max-parents=0", "HEAD").strip()
    res = council(repo, "review", "--since", first, env=env)
    assert res.returncode == 0, res.stderr
    assert "REWRITTEN" in cap.read_text()
    state = tmp_path / "state" / "council"
    assert oct(state.stat().st_mode & 0o777) == "0o700"
    assert oct((state / "reviewed.json").stat().st_mode & 0o777) == "0o600"


def test_a_budget_skip_is_reported_and_gated(repo: Path, tmp_path: Path) -> None:
    s = stubs(tmp_path)
    env = env_for(tmp_path, [f"{n} = {p}" for n, (p, _) in s.items()])
    probe = council(repo, "review", "--base", "main", "--json", str(tmp_path / "p.json"),
                    env=env)
    assert probe.returncode == 0, probe.stderr
    tokens = orjson.loads((tmp_path / "p.json").read_bytes())["synthesis"]["reviewers"][0][
        "usage"]["pack_tokens"]
    res = council(repo, "review", "--base", "main", "--budget-tokens", str(tokens),
                  "--min-reviewers", "2", env=env)
    assert res.returncode == 3, res.stderr
    assert [cs.starts(c) for _, c in s.values()] == [2, 1, 1]  # only alpha fit
    assert "Beta skipped by the budget" in res.stdout
    assert "Gamma skipped by the budget" in res.stdout
    assert "gate failed: --min-reviewers 2: 1 of 3" in res.stderr
    assert "skipped by the budget" in res.stderr
    # Without the reviewer gate the run passes, and still says who was skipped.
    res = council(repo, "review", "--base", "main", "--budget-tokens", str(tokens), env=env)
    assert res.returncode == 0 and "skipped by the budget" in res.stdout
    text = reports(repo)[-1].read_text()
    assert "not started, the run's budget would not cover its pack" in text


def test_coverage_is_counted_per_file_and_gated(tmp_path: Path) -> None:
    big = "".join(f"line {i}\n" for i in range(40))
    r = make_repo(tmp_path / "p", {"a.txt": "a\n", "b.txt": "b\n", "c.txt": "c\n"},
                  {"a.txt": "a\nA2\n", "b.txt": big, "c.txt": "c\nC2\nC3\n"})
    (r / ".git" / "info" / "exclude").write_text("docs/\n")
    script = cs.write_stub(tmp_path / "bin", "alpha", cs.answer().encode())
    broken = cs.write_stub(tmp_path / "bin", "beta", b"", exit_code=1)
    env = env_for(tmp_path, [f"alpha = {script}", f"beta = {broken}"])
    # 20 diff lines: a.txt whole, b.txt cut, c.txt not at all (after b's 41 changed lines).
    res = council(r, "review", "--base", "main", "--max-diff-lines", "20",
                  "--json", str(tmp_path / "c.json"), "--min-coverage", "50", env=env)
    assert res.returncode == 3, res.stderr
    doc = orjson.loads((tmp_path / "c.json").read_bytes())["synthesis"]
    alpha, beta = doc["reviewers"]
    assert alpha["coverage"]["whole"] == ["a.txt"]
    assert alpha["coverage"]["cut"] == ["b.txt"]
    assert alpha["coverage"]["none"] == ["c.txt"]
    assert alpha["coverage"]["lines"] == 1 + 41 + 2
    assert 0 < alpha["coverage"]["seen"] < 42
    assert beta["coverage"]["seen"] == 0 and beta["coverage"]["none"] == ["a.txt", "b.txt",
                                                                          "c.txt"]
    pct = 100 * alpha["coverage"]["seen"] / alpha["coverage"]["lines"]
    assert f"--min-coverage 50: {alpha['coverage']['seen']} of 44 changed lines" in res.stderr
    text = reports(r)[-1].read_text()
    assert "- Alpha saw" in text and "whole: a.txt; cut: b.txt; not at all: c.txt" in text
    res = council(r, "review", "--base", "main", "--max-diff-lines", "20",
                  "--min-coverage", f"{pct - 1:.2f}", env=env)
    assert res.returncode == 0, res.stderr
    # Seen by at least 2 counted reviewers (--min-reviewers 2): beta saw nothing.
    res = council(r, "review", "--base", "main", "--min-coverage", "1", env=env)
    assert res.returncode == 0, res.stderr
    res = council(r, "review", "--base", "main", "--min-coverage", "1", "--min-reviewers", "2",
                  env=env)
    assert res.returncode == 3
    assert "--min-coverage 1: 0 of 44 changed lines (0%) were seen by at least 2 counted" \
        " reviewers" in res.stderr


def test_model_families_in_the_headline_and_the_gate(repo: Path, tmp_path: Path) -> None:
    names = {"alpha": ("APPROVE", "anthropic"), "beta": ("APPROVE", "openai"),
             "gamma": ("APPROVE", "anthropic"), "delta": ("APPROVE", None)}
    lines = []
    for n, (verdict, fam) in names.items():
        lines.append(f"{n} = {cs.write_stub(tmp_path / 'bin', n, cs.answer(verdict).encode())}")
        if fam:
            lines.append(f"{n}.family = {fam}")
    env = env_for(tmp_path, lines)
    res = council(repo, "review", "--base", "main", "--min-families", "2", env=env)
    assert res.returncode == 0, res.stderr
    assert "2 model families agreed on APPROVE (anthropic, openai)" in res.stdout
    res = council(repo, "review", "--base", "main", "--min-families", "3", env=env)
    assert res.returncode == 3
    assert "--min-families 3: 2 model families (anthropic, openai)" in res.stderr
    # A split: families per verdict.
    lines[2] = f"beta = {cs.write_stub(tmp_path / 'bin', 'beta2', cs.answer('REVISE').encode())}"
    env = env_for(tmp_path, lines)
    res = council(repo, "review", "--base", "main", env=env)
    assert "model families differ: APPROVE 1 (anthropic); REVISE 1 (openai)" in res.stdout


def test_two_councils_at_once_share_one_cache(tmp_path: Path) -> None:
    repos = []
    for i in range(2):
        r = make_repo(tmp_path / f"p{i}", {"a.py": "A = 0\n"}, {"a.py": "A = 1\n"})
        repos.append(r)
    s = stubs(tmp_path)
    env = env_for(tmp_path, [f"{n} = {p}" for n, (p, _) in s.items()])
    argv = [str(bin_dir() / "council"), "review", "--base", "main", "--cache",
            str(tmp_path / "cache")]
    procs = [subprocess.Popen(argv, cwd=r, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for r in repos]
    outs = [p.communicate(timeout=180) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], outs
    entries = list((tmp_path / "cache").iterdir())
    assert len(entries) == 3  # the two packs are identical: one entry per reviewer
    assert all(orjson.loads(e.read_bytes())["v"] == 1 for e in entries)
    again = subprocess.run(argv, cwd=repos[0], env=env, capture_output=True, text=True,
                           timeout=180)
    assert again.returncode == 0
    assert all(cs.starts(c) <= 2 for _, c in s.values())
    assert synthesis(again.stdout) == synthesis(outs[0][0])
