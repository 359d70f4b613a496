"""council's reports never feed a review, are named before any reviewer runs (from names
that never run out), carry the scope in their title and file name; council debug and
council question end to end."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from test_council import council, git, reports, stub, user_config

from council_filters.base import paths
from council_filters.council import reports as reportnames

pytestmark = pytest.mark.slow  # real git repositories and the whole chain


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    r = tmp_path / "project"
    r.mkdir()
    git(r, "init", "-q", "-b", "main")
    (r / "app.py").write_text("def f():\n    return 1\n")
    git(r, "add", ".")
    git(r, "commit", "-qm", "init")
    git(r, "checkout", "-qb", "topic")
    (r / "app.py").write_text("def f():\n    return 2\n")
    git(r, "commit", "-qam", "two")
    return r


def test_a_second_worktree_review_sends_no_earlier_report(project, tmp_path):
    cap = tmp_path / "pack.txt"
    env = user_config(tmp_path, {"alpha": stub(cap, "APPROVE")})
    (project / "app.py").write_text("def f():\n    return 3\n")
    res = council(project, "review", "--worktree", env=env)
    assert res.returncode == 0, res.stderr
    (first,) = reports(project)
    assert first.name.endswith("-review-topic-worktree.md")  # the scope is in the name ...
    assert "## Council Report — review: topic-worktree — " in first.read_text()  # ... and title
    (project / "app.py").write_text("def f():\n    return 4\n")
    res = council(project, "review", "--worktree", env=env)
    assert res.returncode == 0, res.stderr
    pack = cap.read_text()
    assert "return 4" in pack
    assert "docs/council" not in pack and "Council Report" not in pack
    assert len(reports(project)) == 2
    res = council(project, "review", "--base", "main", env=env)
    assert "warning: 1 uncommitted file not reviewed" in res.stderr  # app.py, not the reports


def test_twelve_same_day_reviews_are_all_written(project, tmp_path):
    env = user_config(tmp_path, {"alpha": stub(tmp_path / "a", "APPROVE")})
    slug = "topic-vs-main"
    out = project / "docs" / "council"
    out.mkdir(parents=True)
    names = [Path(p).name for p in paths.report_candidates("review", slug, paths.today())]
    names.append(names[0].replace(".md", "-11.md"))
    for name in names:  # eleven earlier reviews of the day
        (out / name).write_text("earlier\n")
    res = council(project, "review", "--base", "main", env=env)
    assert res.returncode == 0, res.stderr
    twelfth = out / names[0].replace(".md", "-12.md")
    assert twelfth.is_file() and "## Council Report" in twelfth.read_text()
    assert len(reports(project)) == 12
    assert f"see docs/council/{twelfth.name}" in res.stdout


def test_report_names_never_run_out(tmp_path):
    got = [reportnames.reserve(str(tmp_path), str(tmp_path / "out"), "review", "x",
                               "2026-01-02") for _ in range(25)]
    assert len({r.path for r in got}) == 25
    assert got[-1].path.endswith("2026-01-02-review-x-25.md")
    reportnames.release(got[0])
    assert not Path(got[0].path).exists()


def test_the_name_is_chosen_before_any_reviewer_runs(project, tmp_path):
    seen = tmp_path / "seen.txt"
    cmd = (f"ls docs/council > {shlex.quote(str(seen))}; cat >/dev/null; "
           "printf 'Verdict: APPROVE\\nConfidence: HIGH\\nFindings: none\\nSummary: ok.\\n'")
    env = user_config(tmp_path, {"alpha": cmd})
    res = council(project, "review", "--base", "main", env=env)
    assert res.returncode == 0, res.stderr
    (report,) = reports(project)
    assert seen.read_text().split() == [report.name]


def test_a_failed_run_gives_its_name_back(project, tmp_path):
    env = user_config(tmp_path, {"alpha": stub(tmp_path / "a", "APPROVE")})
    res = council(project, "question", "--paths", "../outside", "why?", env=env)
    assert res.returncode != 0
    assert reports(project) == []


def test_report_dir_elsewhere(project, tmp_path):
    env = user_config(tmp_path, {"alpha": stub(tmp_path / "a", "APPROVE")})
    elsewhere = tmp_path / "reports"
    res = council(project, "review", "--commit", "HEAD", "--report-dir", str(elsewhere),
                  env=env)
    assert res.returncode == 0, res.stderr
    sha = git(project, "rev-parse", "HEAD").strip()
    (written,) = elsewhere.glob("*.md")
    assert written.name.endswith(f"-review-topic-commit-{sha[:7]}.md")
    assert not (project / "docs").exists()
    assert f"- Head: {sha} (the commit under review)" in (tmp_path / "a").read_text()


def test_council_debug_end_to_end(project, tmp_path):
    cap = tmp_path / "debug.txt"
    env = user_config(tmp_path, {"alpha": stub(cap, "REVISE")})
    res = council(project, "debug", "f returns 2 instead of 1", "--paths", "app.py", env=env)
    assert res.returncode == 0, res.stderr
    pack = cap.read_text()
    assert "## Task: debug" in pack
    assert "### Symptom" in pack and "f returns 2 instead of 1" in pack
    cited = pack.split("### Cited Files", 1)[1].split("### Recent History", 1)[0]
    assert "#### app.py" in cited and re.search(r"^2 \|     return 2$", cited, re.M)
    history = pack.split("### Recent History", 1)[1]
    assert " two\n" in history and " init\n" in history  # the file's commits
    (report,) = reports(project)
    assert report.name.endswith("-debug-f-returns-2-instead-of-1.md")


def test_question_synthesis_holds_the_answers_not_a_tally(project, tmp_path):
    def answer(verdict: str, summary: str) -> str:
        text = (f"Verdict: {verdict}\\nConfidence: HIGH\\nFindings:\\n"
                f"- [P2] app.py:2 — f returns a constant\\n  Evidence: \"return 2\"\\n"
                f"Summary: {summary}\\n")
        return f"cat >/dev/null; printf '{text}'"

    env = user_config(tmp_path, {
        "alpha": answer("APPROVE", "Yes: f is pure, so caching it is safe."),
        "beta": answer("APPROVE", "It is safe, but the cache buys nothing for a constant."),
    })
    res = council(project, "question", "Is caching f safe?", "--paths", "app.py", env=env)
    assert res.returncode == 0, res.stderr
    out = res.stdout
    assert "> Yes: f is pure, so caching it is safe." in out
    assert "> It is safe, but the cache buys nothing for a constant." in out
    assert "### Where they agree" in out and "app.py:2" in out
    assert "APPROVE" not in out and "reviewers approve" not in out.lower()
    assert out.count("Full reviewer outputs") == 1


def test_progress_names_the_reviewers_still_running(project, tmp_path):
    from council_filters.council import chain

    commands = tmp_path / "commands"
    answer = "printf 'Verdict: APPROVE\\nConfidence: HIGH\\nFindings: none\\nSummary: ok.\\n'"
    commands.write_text(f"alpha = cat >/dev/null; {answer}\n"
                        f"beta = cat >/dev/null; sleep 3; {answer}\n")
    plan = chain.Plan(pack_args=("review", "--base", "main"), reviewers=("alpha", "beta"),
                      commands_file=str(commands), root=str(project))
    calls: list[frozenset[str]] = []
    out = chain.run(plan, progress=lambda _t, done: calls.append(done), tick=0.1)
    assert out.failed_stage is None
    assert frozenset() in calls and frozenset({"alpha"}) in calls  # beta still running
