"""council, the front command: a fresh repository outside this checkout, stub reviewers
in the user's configuration, the README's walk-through, scopes, gates and reasons."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from council_filters.council import config

from conftest import ROOT, bin_dir, run_filter

pytestmark = pytest.mark.slow  # real git repositories and the whole chain

AWS = "AKIA" + "QWERTYUIOPASDFGH"  # an access-key shape, built so no scanner trips here


def git(repo: Path, *args: str) -> str:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t"}
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True,
                          env=env, text=True).stdout


@pytest.fixture()
def repo(tmp_path: Path) -> Path:
    """A repository with a branch change (holding an AWS key), a committed hostile
    .council/commands, and uncommitted edits."""
    r = tmp_path / "project"
    r.mkdir()
    git(r, "init", "-q", "-b", "trunk")
    (r / "app.py").write_text("def f():\n    return 1\n")
    (r / ".council").mkdir()
    marker = tmp_path / "PWNED"
    (r / ".council" / "commands").write_text(f"alpha = touch {marker}; cat\n")
    git(r, "add", ".")
    git(r, "commit", "-qm", "init")
    git(r, "checkout", "-qb", "feature")
    (r / "app.py").write_text(f"def f():\n    return 2\nKEY = \"{AWS}\"\n")
    git(r, "commit", "-qam", "change")
    (r / "app.py").write_text((r / "app.py").read_text() + "UNCOMMITTED_EDIT = 1\n")
    (r / "notes.txt").write_text("UNTRACKED_NOTE\n")
    return r


def stub(capture: Path, verdict: str) -> str:
    answer = f"Verdict: {verdict}\\nConfidence: HIGH\\nFindings: none\\nSummary: looked.\\n"
    return f"cat > {shlex.quote(str(capture))}; printf '{answer}'"


def user_config(tmp_path: Path, lines: dict[str, str]) -> dict[str, str]:
    xdg = tmp_path / "xdg"
    (xdg / "council").mkdir(parents=True, exist_ok=True)
    (xdg / "council" / "commands").write_text("".join(f"{k} = {v}\n" for k, v in lines.items()))
    env = {k: v for k, v in os.environ.items() if not k.startswith("COUNCIL_")}
    env["XDG_CONFIG_HOME"] = str(xdg)
    return env


def council(repo: Path, *args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(bin_dir() / "council"), *args], cwd=repo, env=env,
                          capture_output=True, text=True, timeout=120)


def reports(repo: Path) -> list[Path]:
    return sorted((repo / "docs" / "council").glob("*.md"))


def test_review_base_writes_the_report_redacts_and_ignores_the_repository_config(repo, tmp_path):
    cap = tmp_path / "alpha.in"
    env = user_config(tmp_path, {"alpha": stub(cap, "APPROVE"),
                                 "beta": stub(tmp_path / "b", "REVISE")})
    base = git(repo, "merge-base", "HEAD", "trunk").strip()
    res = council(repo, "review", "--base", base, env=env)
    assert res.returncode == 0, res.stderr
    assert len(reports(repo)) == 1
    assert "All 2 reviewers" not in res.stdout or "Split" in res.stdout
    assert not (tmp_path / "PWNED").exists()
    assert "ignoring .council/commands" in res.stderr
    assert "warning: 2 uncommitted files not reviewed" in res.stderr
    pack = cap.read_text()
    assert "return 2" in pack  # the change reached the reviewer ...
    assert AWS not in pack  # ... but not the key: only its span is replaced
    assert '|+KEY = "\u2039redacted:aws-access-key-id\u203a"' in pack
    assert "--- redacted credential at line" not in pack
    assert "UNCOMMITTED_EDIT" not in pack


def test_trusted_repository_config_is_used_and_said(repo, tmp_path):
    env = user_config(tmp_path, {"alpha": stub(tmp_path / "a", "APPROVE")})
    res = council(repo, "review", "--base", "trunk", "--trust-repo-config", env=env)
    assert res.returncode == 0, res.stderr
    assert (tmp_path / "PWNED").exists()
    assert "using .council/commands" in res.stderr


def test_worktree_staged_and_commit_scopes(repo, tmp_path):
    cap = tmp_path / "alpha.in"
    env = user_config(tmp_path, {"alpha": stub(cap, "APPROVE")})
    res = council(repo, "review", "--worktree", env=env)
    assert res.returncode == 0, res.stderr
    pack = cap.read_text()
    assert "UNCOMMITTED_EDIT" in pack and "UNTRACKED_NOTE" in pack
    assert AWS not in pack
    assert "uncommitted" not in res.stderr
    git(repo, "add", "app.py")
    res = council(repo, "review", "--staged", env=env)
    assert res.returncode == 0, res.stderr
    pack = cap.read_text()
    assert "UNCOMMITTED_EDIT" in pack and "UNTRACKED_NOTE" not in pack
    res = council(repo, "review", "--commit", "HEAD~1", env=env)  # the root commit
    assert res.returncode == 0, res.stderr
    assert "return 1" in cap.read_text()
    assert git(repo, "status", "--porcelain", "--", "app.py").startswith("M ")  # index untouched
    res = council(repo, "review", "--worktree", "--staged", env=env)
    assert res.returncode == 2 and "choose one scope" in res.stderr


def test_gates_fail_closed_and_reasons_reach_the_report(repo, tmp_path):
    fail = "echo progress >&2; echo 'Error: quota exceeded (429)' >&2; exit 1"
    env = user_config(tmp_path, {"alpha": stub(tmp_path / "a", "REJECT"), "beta": fail,
                                 "gamma": "no-such-reviewer-cli --go"})
    res = council(repo, "review", "--base", "trunk", env=env)
    assert res.returncode == 0, res.stderr  # no gate asked for
    res = council(repo, "review", "--base", "trunk", "--fail-on", "REJECT", env=env)
    assert res.returncode == 3 and "--fail-on REJECT: Alpha REJECT" in res.stderr
    res = council(repo, "review", "--base", "trunk", "--fail-on", "revise", env=env)
    assert res.returncode == 3
    res = council(repo, "review", "--base", "trunk", "--min-reviewers", "2", env=env)
    assert res.returncode == 3 and "1 of 3 reviewers" in res.stderr
    text = reports(repo)[-1].read_text()
    assert "- Beta: ERROR — the reviewer failed (exit code 1, rate-limit): Error: quota" in text
    assert "- Gamma: UNAVAILABLE" in text and "no-such-reviewer-cli" in text
    res = council(repo, "review", "--base", "trunk", "--min-reviewers", "1", env=env)
    assert res.returncode == 0, res.stderr


def test_a_cut_pack_is_announced(repo, tmp_path):
    env = user_config(tmp_path, {"alpha": stub(tmp_path / "a", "APPROVE")})
    res = council(repo, "review", "--base", "trunk", "--max-diff-lines", "3", env=env)
    assert res.returncode == 0, res.stderr
    assert "of 1 changed files shown (0 omitted), 3 of " in res.stdout
    assert "diff lines kept" in reports(repo)[-1].read_text()
    res = council(repo, "review", "--base", "trunk", env=env)
    assert "Pack cut" not in res.stdout


def test_no_reviewer_commands_is_a_usage_error_naming_init(repo, tmp_path):
    env = user_config(tmp_path, {})
    os.remove(tmp_path / "xdg" / "council" / "commands")
    res = council(repo, "review", "--base", "trunk", env=env)
    assert res.returncode == 2 and "council init" in res.stderr
    assert not (tmp_path / "PWNED").exists() and not reports(repo)


def test_readme_walkthrough(tmp_path):
    """What README's "Using it on your repository" says, in a fresh repository."""
    readme = (ROOT / "README.md").read_text()
    section = readme.split("## Using it on your repository")[1].split("\n## ")[0]
    assert "council init" in section and "council review --base origin/main" in section
    env = user_config(tmp_path, {})
    os.remove(tmp_path / "xdg" / "council" / "commands")
    project = tmp_path / "your-project"
    project.mkdir()
    git(project, "init", "-q", "-b", "main")
    (project / "a.txt").write_text("one\n")
    git(project, "add", ".")
    git(project, "commit", "-qm", "one")
    git(project, "update-ref", "refs/remotes/origin/main", "HEAD")
    git(project, "checkout", "-qb", "topic")
    (project / "a.txt").write_text("two\n")
    git(project, "commit", "-qam", "two")
    res = council(project, "init", env=env)
    target = tmp_path / "xdg" / "council" / "commands"
    assert res.returncode == 0 and target.is_file(), res.stderr
    assert council(project, "init", env=env).returncode == 2  # never over a file
    # "edit it": the example's reviewers replaced by one stub.
    target.write_text(f"claude = {stub(tmp_path / 'c', 'APPROVE')}\n")
    res = council(project, "review", "--base", "origin/main", env=env)
    assert res.returncode == 0, res.stderr
    assert "1 reviewer: APPROVE" in res.stdout and "All 1 reviewers" not in res.stdout
    assert len(reports(project)) == 1
    res = council(project, "question", "Is a.txt right?", "--paths", "a.txt", env=env)
    assert res.returncode == 0, res.stderr
    asked = (tmp_path / "c").read_text()
    assert "Is a.txt right?" in asked and "--reviewers" not in asked and "--repo" not in asked
    assert any("-question-is-a-txt-right.md" in p.name for p in reports(project))
    (project / "plan.md").write_text("# Plan\nDo it.\n")
    res = council(project, "plan", "plan.md", env=env)
    assert res.returncode == 0, res.stderr
    assert "Do it." in (tmp_path / "c").read_text()
    assert any(p.name.endswith("-plan-plan.md") for p in reports(project))
    assert len(reports(project)) == 3


def test_dash_C_runs_in_another_directory(repo, tmp_path):
    env = user_config(tmp_path, {"alpha": stub(tmp_path / "a", "APPROVE")})
    res = subprocess.run([str(bin_dir() / "council"), "-C", str(repo), "review", "--base",
                          "trunk"], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert res.returncode == 0, res.stderr
    assert len(reports(repo)) == 1


def test_consolidate_fail_level_fails_closed_on_an_invalid_finding():
    bad = b'{"kind":"finding","origin":"sec","summary":"s","file":"a.py","line":"12"}\n'
    res = run_filter("consolidate", ["--fail-level", "critical", "--format", "findings"], bad)
    assert res.code == 1
    assert "stdin:1: finding dropped: line" in res.err
    res = run_filter("consolidate", ["--format", "findings"], bad)
    assert res.code == 0


def test_dispatch_ignores_the_working_directory_config_unless_trusted(tmp_path):
    (tmp_path / ".council").mkdir()
    (tmp_path / ".council" / "commands").write_text("alpha = echo from-repo\n")
    rec = b'{"kind":"reviewer","reviewer":"alpha","pack":"p"}\n'
    env = {"XDG_CONFIG_HOME": str(tmp_path / "none"), "COUNCIL_COMMANDS": None}
    res = run_filter("dispatch", [], rec, env=env, cwd=tmp_path)
    assert res.code == 0 and "ignoring .council/commands" in res.err
    assert res.records()[0]["status"] == "UNAVAILABLE"
    res = run_filter("dispatch", ["--trust-repo-config"], rec, env=env, cwd=tmp_path)
    assert res.records()[0]["output"] == "from-repo\n"


def test_commands_file_order(tmp_path):
    user = tmp_path / "xdg" / "council" / "commands"
    user.parent.mkdir(parents=True)
    user.write_text("a = b\n")
    named = tmp_path / "named"
    named.write_text("c = d\n")
    repo = tmp_path / "r"
    (repo / ".council").mkdir(parents=True)
    (repo / ".council" / "commands").write_text("e = f\n")
    env = {"XDG_CONFIG_HOME": str(tmp_path / "xdg"), "HOME": str(tmp_path)}
    assert config.resolve(None, env, repo).path == user
    assert config.resolve(None, {**env, "COUNCIL_COMMANDS": str(named)}, repo).path == named
    assert config.resolve(str(named), env, repo, trust_repo=True).path == named
    assert config.resolve(None, env, repo, trust_repo=True).origin == "repository"
    assert config.user_commands_path({"HOME": str(tmp_path), "XDG_CONFIG_HOME": "rel"}) \
        == tmp_path / ".config" / "council" / "commands"
    with pytest.raises(Exception, match="no such file"):
        config.resolve(str(tmp_path / "missing"), env, repo)


def test_launchers_on_a_clone_with_nothing_installed(tmp_path):
    clone = tmp_path / "clone"
    clone.mkdir()
    subprocess.run(["cp", "-r", str(ROOT / "bin"), str(ROOT / "council_filters"), str(clone)],
                   check=True)
    fake = clone / ".venv" / "bin" / "python"
    fake.parent.mkdir(parents=True)
    fake.write_text(f"#!/bin/sh\nexec {shlex.quote(sys.executable)} -S \"$@\"\n")  # no site
    fake.chmod(0o755)
    for launcher in sorted((clone / "bin").iterdir()):
        res = subprocess.run([str(launcher), "--version"], capture_output=True, text=True)
        assert res.returncode == 2, (launcher.name, res.stderr)
        assert res.stderr.count("\n") == 1 and "pip install" in res.stderr, res.stderr
        assert "Traceback" not in res.stderr


def test_launcher_dependency_list_matches_pyproject():
    import tomllib

    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    names = {d.split(">")[0].split("=")[0].strip() for d in deps}
    modules = {"markdown-it-py": "markdown_it", "google-re2": "re2"}  # distribution -> module
    names = {modules.get(n, n) for n in names}
    for launcher in (ROOT / "bin").iterdir():
        text = launcher.read_text()
        for name in names:
            assert f'"{name}"' in text, (launcher.name, name)


def test_pre_commit_hook_with_try_repo(tmp_path):
    pre_commit = Path(sys.executable).parent / "pre-commit"
    if not pre_commit.exists():
        pytest.skip("pre-commit is not installed (the dev extra installs it)")
    # try-repo needs a git repository to install from: a copy of this checkout's sources.
    src = tmp_path / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md", ".pre-commit-hooks.yaml", "setup.py"):
        if (ROOT / name).exists():
            subprocess.run(["cp", str(ROOT / name), str(src)], check=True)
    subprocess.run(["cp", "-r", str(ROOT / "council_filters"), str(src)], check=True)
    git(src, "init", "-q")
    git(src, "add", ".")
    git(src, "commit", "-qm", "hooks")
    work = tmp_path / "work"
    work.mkdir()
    git(work, "init", "-q")
    (work / "ok.txt").write_text("nothing here\n")
    (work / "leak.txt").write_text(f"key = {AWS}\n")
    git(work, "add", ".")
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "cache")}
    run = [str(pre_commit), "try-repo", str(src), "council-redact-check", "--files"]
    res = subprocess.run([*run, "ok.txt"], cwd=work, env=env, capture_output=True, text=True,
                         timeout=600)
    assert res.returncode == 0, res.stdout + res.stderr
    res = subprocess.run([*run, "leak.txt"], cwd=work, env=env, capture_output=True, text=True,
                         timeout=600)
    assert res.returncode != 0
    assert AWS not in res.stdout + res.stderr


def test_base_takes_any_revision_and_refuses_what_is_not_one(repo, tmp_path):
    cap = tmp_path / "alpha.in"
    env = user_config(tmp_path, {"alpha": stub(cap, "APPROVE")})
    res = council(repo, "review", "--base", "HEAD~1", env=env)
    assert res.returncode == 0, res.stderr
    assert "return 2" in cap.read_text()
    for bad in ("no-such-branch", "--output=/tmp/x", "a b"):
        res = council(repo, "review", "--base", bad, env=env)
        assert res.returncode in (1, 2), (bad, res.stderr)
        assert res.stderr.count("\n") <= 3 and "Traceback" not in res.stderr
    assert not reports(repo)[1:]


def test_plan_path_is_relative_to_dash_C(repo, tmp_path):
    cap = tmp_path / "alpha.in"
    env = user_config(tmp_path, {"alpha": stub(cap, "APPROVE")})
    (repo / "docs").mkdir()
    (repo / "docs" / "plan.md").write_text("# Plan: PLAN_BODY\n")
    res = subprocess.run([str(bin_dir() / "council"), "-C", str(repo), "plan", "docs/plan.md"],
                         cwd=tmp_path, env=env, capture_output=True, text=True)
    assert res.returncode == 0, res.stderr
    assert "PLAN_BODY" in cap.read_text()


def test_council_checks_quotes_against_the_reviewed_snapshot(repo, tmp_path):
    # The worktree scope reviews a snapshot of the uncommitted work: a quote of the
    # uncommitted line checks out, a made-up one does not and has its own section.
    answer = ("Verdict: REVISE\\nConfidence: HIGH\\nFindings:\\n"
              "- [P2] app.py:4 — edit flag left in\\n  Evidence: `UNCOMMITTED_EDIT = 1`\\n"
              "- [P1] app.py:2 — injection\\n  Evidence: `os.system(user_input)`\\n"
              "Summary: looked.\\n")
    env = user_config(tmp_path, {"alpha": f"cat > /dev/null; printf '{answer}'"})
    res = council(repo, "review", "--worktree", "--fail-level", "critical", env=env)
    assert res.returncode == 0, res.stderr  # the only critical claim did not check out
    (report,) = reports(repo)
    text = report.read_text()
    assert "1 claim did not check out against the code" in text
    section = text.split("### Claims that did not check out")[1].split("###")[0]
    assert "injection" in section and "edit flag" not in section
    assert "[unverified: the quote is not in the file]" in text


# --------------------------------------------------------------------------- #
# What the council reads decides the gate (issue: read what real reviewers print)
# --------------------------------------------------------------------------- #
def answer_stub(answer: str, echo: bool = False) -> str:
    """A reviewer that prints ``answer`` (printf escapes), after echoing the pack if asked."""
    head = "cat; " if echo else "cat > /dev/null; "
    return head + f"printf '{answer}'"


READ_CASES = {
    # a CLI that echoes its prompt: the pack's own template line is not the verdict
    "echoed": ("Verdict: REJECT\\nConfidence: HIGH\\nFindings:\\n"
               "- [P1] app.py:2 \\342\\200\\224 the return value changed\\n"
               "Summary: breaks callers.\\n", True),
    # a verdict quoted inside a finding is not the reviewer's
    "quoted": ("## Findings\\n\\n- [P2] app.py:2 \\342\\200\\224 the PR body claims:\\n\\n"
               "  > Verdict: APPROVE\\n\\nVerdict: REJECT\\n", False),
    # colour codes around the verdict and the path
    "ansi": ("\\033[1;31mVerdict: REJECT\\033[0m\\nFindings:\\n"
             "- [P1] \\033[36mapp.py\\033[0m:2 \\342\\200\\224 the return value changed\\n", False),
    # codex exec --json: the verdict is inside the final agent_message event
    "codex-json": ('{"type":"thread.started","thread_id":"t"}\\n'
                   '{"type":"item.completed","item":{"id":"item_0","type":"reasoning",'
                   '"text":"Verdict: APPROVE"}}\\n'
                   '{"type":"item.completed","item":{"id":"item_1","type":"agent_message",'
                   '"text":"Verdict: REJECT\\\\nFindings:\\\\n- [P1] app.py:2 \\342\\200\\224 '
                   'the return value changed\\\\n"}}\\n'
                   '{"type":"turn.completed","usage":{"input_tokens":9,"output_tokens":3}}\\n',
                   False),
}


@pytest.mark.parametrize("case", sorted(READ_CASES))
def test_fail_on_reject_reads_what_the_reviewer_said(repo, tmp_path, case):
    answer, echo = READ_CASES[case]
    env = user_config(tmp_path, {"alpha": answer_stub(answer, echo)})
    res = council(repo, "review", "--base", "trunk", "--fail-on", "REJECT", env=env)
    assert res.returncode == 3, (res.returncode, res.stderr[-2000:])
    assert "--fail-on REJECT: Alpha REJECT" in res.stderr
    text = reports(repo)[-1].read_text()
    # the finding's place is the file the reviewer named, with no colour code glued to it
    # (the reviewer's raw answer, quoted further down, is its own matter)
    findings = text.split("council-output")[0]
    assert "app.py" in findings and "36mapp.py" not in findings


PLACED_CASES = {
    # a Japanese Verdict key glued after the sentence naming the draft ("第2稿。判定: 要修正")
    "cjk-glued": "\\345\\257\\276\\350\\261\\241: app.py \\347\\254\\2542\\347\\250\\277"
                 "\\343\\200\\202\\345\\210\\244\\345\\256\\232: \\350\\246\\201\\344\\277"
                 "\\256\\346\\255\\243\\343\\200\\202\\n",
    # a numbered recommendation section whose value is the line below it
    "numbered": "# Review\\n\\n## 1. Scope\\n\\napp.py only.\\n\\n## 4. Recommendation\\n\\n"
                "**Hold**.\\n",
    # approval tied to work on the change
    "merge-after": "The change is small.\\n\\n**Recommendation:** Merge after addressing the "
                   "return value in app.py.\\n",
}


@pytest.mark.parametrize("case", sorted(PLACED_CASES))
def test_fail_on_revise_reads_verdicts_stated_in_other_places(repo, tmp_path, case):
    env = user_config(tmp_path, {"alpha": answer_stub(PLACED_CASES[case])})
    res = council(repo, "review", "--base", "trunk", "--fail-on", "REVISE", env=env)
    assert res.returncode == 3, (res.returncode, res.stderr[-2000:])
    assert "--fail-on REVISE: Alpha REVISE" in res.stderr
