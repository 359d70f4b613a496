"""The reviewer commands file and the gate options are checked in full before anything
runs: every problem with FILE:LINE, exit 2, no pack built, no reviewer started; one
severity table for every gate; gate messages name what tripped them."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import orjson
import pytest

from council_filters.base import severity
from council_filters.base.errors import UsageError
from council_filters.cli import council as council_cli
from council_filters.dispatch import commands_file as cf

from conftest import ROOT, run_filter

EXAMPLE = ROOT / "council_filters" / "data" / "commands.example"


def problems(text: str) -> list[str]:
    with pytest.raises(cf.CommandsFileError) as info:
        cf.parse(text, "cmds")
    return str(info.value).splitlines()


# --------------------------------------------------------------------------- #
# The file, line by line.
# --------------------------------------------------------------------------- #
def test_the_shipped_example_and_plain_files_parse() -> None:
    parsed = cf.parse(EXAMPLE.read_text(), str(EXAMPLE))
    assert parsed.reviewers() == ["claude", "codex", "gemini", "opencode"]
    assert parsed.table["opencode.adapter"] == "opencode-json"
    own = cf.parse("# mine\nclaude2 = x\nclaude-fast = y\nreviewer-a = z\nmy.adapter = text\n"
                   "my = cat\nquiet =\n", "f")
    assert own.reviewers() == ["claude2", "claude-fast", "reviewer-a", "my"]  # quiet: off
    assert own.lines["my"] == 6


@pytest.mark.parametrize(("typo", "meant"), [
    ("cladue", "claude"), ("caude", "claude"), ("claud", "claude"), ("codx", "codex"),
    ("codec", "codex"), ("gemni", "gemini"), ("gemnii", "gemini"), ("opencod", "opencode"),
    ("open-code", "opencode"), ("opnecode", "opencode"),
])
def test_a_near_miss_of_a_built_in_reviewer_is_refused_with_its_line(typo, meant) -> None:
    text = f"claude = claude -p\n\n# note\n{typo} = some-cli --flag\n"
    (line,) = problems(text)
    assert line.startswith("cmds:4: ") and f"`{meant}`" in line
    assert "some-cli" not in line  # the command is never shown


def test_a_name_set_twice_names_both_lines() -> None:
    (line,) = problems("claude = a\ncodex = b\n  claude   =  c\n")
    assert line == "cmds:3: `claude` is set again (first set on line 1); keep one line"


def test_unknown_keys_bad_adapters_and_orphans_each_with_their_line() -> None:
    text = (
        "claude = a\n"
        "claude.adaptor = text\n"          # 2: unknown key, with the near name
        "opencode = b\n"
        "opencode.adapter = opencode-jsn\n"  # 4: unknown adapter
        "gemini.adapter = text\n"          # 5: no gemini line
        "just words\n"                     # 6: no `=`
        "Claude = c\n"                     # 7: not a name
        "codex.colour = x\n"               # 8: unknown key, listed
    )
    got = problems(text)
    assert [g.split(":")[1] for g in got] == ["2", "4", "5", "6", "7", "8"]
    assert "did you mean `claude.adapter`?" in got[0]
    assert "unknown adapter (known: text, opencode-json)" in got[1]
    assert "opencode-jsn" not in got[1]
    assert "no `gemini = COMMAND` line" in got[2]
    assert got[3] == "cmds:6: expected NAME = COMMAND"
    assert "reviewer names must match" in got[4]
    assert "known: NAME.adapter" in got[5]


def test_a_key_that_holds_a_secret_is_never_echoed() -> None:
    token = "ghp_" + "x" * 36
    got = problems(f"{token}.adapter = text\nclaude = a\n")
    assert token not in "\n".join(got)


def test_the_tables_take_new_kinds_of_lines(monkeypatch) -> None:
    """A new reviewer key, top-level key or key family is one row of a table."""
    monkeypatch.setitem(cf.REVIEWER_KEYS, "family", lambda v: None if v else "empty")
    monkeypatch.setitem(cf.GLOBAL_KEYS, "corrector", lambda v: None)
    monkeypatch.setitem(cf.PREFIX_KEYS, "code-review",
                        lambda rest, v: None if rest in ("sec", "arq") else "unknown origin")
    parsed = cf.parse("claude = a\nclaude.family = anthropic\ncorrector = fix\n"
                      "code-review.sec = claude\n", "f")
    assert parsed.reviewers() == ["claude"]  # corrector is not a reviewer
    (line,) = problems("claude = a\ncode-review.zzz = claude\n")
    assert line == "cmds:2: `code-review.zzz`: unknown origin"
    (line,) = problems("claude = a\ncorector = fix\n")
    assert "did you mean `corrector`?" in line


def test_near_miss_rule() -> None:
    assert cf.distance("cladue", "claude") == 1
    assert cf.near_miss("claude2", cf.KNOWN_REVIEWERS) is None
    assert cf.near_miss("alpha", cf.KNOWN_REVIEWERS) is None
    assert cf.near_miss("gamma", cf.KNOWN_REVIEWERS) is None
    assert cf.near_miss("cdx", cf.KNOWN_REVIEWERS) == "codex"


# --------------------------------------------------------------------------- #
# One severity table for the gates.
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize(("given", "level"), [
    ("critical", "critical"), ("CRITICAL", "critical"), ("High", "critical"),
    ("p1", "critical"), ("P2", "medium"), ("warning", "medium"), (" low ", "minor"),
    ("blocking", "critical"), ("nice-to-have", "minor"),
])
def test_gate_levels_take_every_alias_in_any_case(given, level) -> None:
    assert severity.gate_level(given) == level


def test_an_unknown_gate_level_lists_the_table_without_echoing() -> None:
    with pytest.raises(UsageError) as info:
        severity.gate_level("sk-ant-notalevel")
    msg = info.value.message
    assert "sk-ant" not in msg and "critical, medium, minor" in msg and "high" in msg


def finding(fid: str, sev: str, line: int) -> bytes:
    return orjson.dumps({"kind": "finding", "origin": "sec", "severity": sev,
                         "file": "app.py", "line": line, "summary": f"thing {fid}",
                         "category": "security"}) + b"\n"


def test_consolidate_fail_level_takes_aliases_and_names_the_findings() -> None:
    data = finding("a", "P1", 3) + finding("b", "minor", 40) + finding("c", "high", 90)
    for level in ("high", "CRITICAL", "p1"):
        res = run_filter("consolidate", ["--format", "findings", "--no-source",
                                         "--fail-level", level], data)
        assert res.code == 3, res.err
        (gate,) = [ln for ln in res.err.splitlines() if "gate failed" in ln]
        assert "--fail-level critical: 2 findings at or above it:" in gate
        assert "(critical, app.py:3)" in gate and "(critical, app.py:90)" in gate
        assert "app.py:40" not in gate and "thing" not in gate  # no finding text
        ids = [orjson.loads(x)["id"] for x in res.out.splitlines()]
        assert sum(i in gate for i in ids) == 2
    res = run_filter("consolidate", ["--format", "findings", "--fail-level", "medium"],
                     finding("b", "minor", 40))
    assert (res.code, "gate failed" in res.err) == (0, False)
    res = run_filter("consolidate", ["--format", "findings", "--fail-level", "severe!"], data)
    assert res.code == 2 and res.out == b""


# --------------------------------------------------------------------------- #
# council: all of it before the first pack.
# --------------------------------------------------------------------------- #
def _git(repo: Path, *args: str) -> None:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t"}
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, env=env)


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    r = tmp_path / "project"
    r.mkdir()
    _git(r, "init", "-q", "-b", "trunk")
    (r / "a.py").write_text("x = 1\n")
    _git(r, "add", ".")
    _git(r, "commit", "-qm", "one")
    _git(r, "checkout", "-qb", "feature")
    (r / "a.py").write_text("x = 2\n")
    _git(r, "commit", "-qam", "two")
    return r


def council_run(project: Path, tmp_path: Path, commands: str, *args: str):
    cfg = tmp_path / "commands"
    cfg.write_text(commands)
    env = {"COUNCIL_COMMANDS": str(cfg), "XDG_CONFIG_HOME": str(tmp_path / "xdg")}
    return run_filter(council_cli.main, ["review", "--base", "trunk", *args], env=env, cwd=project)


@pytest.mark.parametrize(("commands", "args", "expect"), [
    ("claude = {ran}\ncladue = {ran}\n", (), "commands:2: unknown reviewer `cladue`"),
    ("claude = {ran}\nclaude = {ran}\n", (), "commands:2: `claude` is set again"),
    ("claude = {ran}\nclaude.adapter = json\n", (), "commands:2: `claude.adapter`: unknown"),
    ("claude = {ran}\n", ("--fail-level", "urgent"), "--fail-level must be critical"),
    ("claude = {ran}\n", ("--fail-on", "maybe"), "--fail-on must be REVISE or REJECT"),
    ("claude = {ran}\n", ("--min-reviewers", "2"), "--min-reviewers 2: only 1 reviewer"),
    ("claude = {ran}\n", ("--reviewers", "codex"), "--reviewers: not in the commands file"),
])
@pytest.mark.slow
def test_council_refuses_bad_config_and_options_before_anything_runs(
    project, tmp_path, commands, args, expect
) -> None:
    ran = tmp_path / "RAN"
    res = council_run(project, tmp_path, commands.format(ran=f"touch {ran}; cat"), *args)
    assert res.code == 2, res.err
    assert expect in res.err
    assert not ran.exists() and not (project / "docs").exists()


@pytest.mark.slow
def test_council_fail_level_alias_runs_and_names_the_gate(project, tmp_path) -> None:
    answer = ("Verdict: REVISE\\nConfidence: HIGH\\nFindings:\\n"
              "- [P1] a.py:1 -- x is wrong. Fix: keep it.\\nSummary: one.\\n")
    res = council_run(project, tmp_path, f"claude = cat > /dev/null; printf '{answer}'\n",
                      "--fail-level", "HIGH")
    assert res.code == 3, res.err
    assert "council-consolidate: gate failed: --fail-level critical: 1 finding at or above" \
        " it: CLA-001 (critical, a.py:1)" in res.err
    assert "council: gate failed: --fail-level critical: the findings named above" in res.err


# --------------------------------------------------------------------------- #
# The notices about the repository's own commands file agree with what is used.
# --------------------------------------------------------------------------- #
def test_trust_notices_agree_with_the_file_used(tmp_path) -> None:
    from council_filters.council import config

    repo = tmp_path / "repo"
    (repo / ".council").mkdir(parents=True)
    (repo / ".council" / "commands").write_text("claude = x\n")
    mine = tmp_path / "mine"
    mine.write_text("claude = y\n")
    env = {"HOME": str(tmp_path / "home")}
    # A named file wins: the repository's file is not a candidate, so no "ignoring" note ...
    found = config.resolve(str(mine), env, repo)
    assert (found.path, found.notes) == (mine, [])
    # ... and --trust-repo-config beside it says it has no effect (never "using" and
    # "ignoring" together).
    found = config.resolve(str(mine), env, repo, trust_repo=True)
    assert found.path == mine and len(found.notes) == 1
    assert "--trust-repo-config has no effect: --config names the commands file" in found.notes[0]
    found = config.resolve(None, {**env, "COUNCIL_COMMANDS": str(mine)}, repo, trust_repo=True)
    assert "$COUNCIL_COMMANDS names the commands file" in found.notes[0]
    found = config.resolve(None, env, repo, trust_repo=True)
    assert found.origin == "repository" and found.notes == [
        "using .council/commands of the repository under review (--trust-repo-config)"]
    found = config.resolve(None, env, repo)
    assert found.path is None and len(found.notes) == 1
    assert found.notes[0].startswith("ignoring .council/commands") and "--trust-repo-config" \
        in found.notes[0]


def test_the_init_template_says_where_it_lives_and_what_to_run() -> None:
    text = EXAMPLE.read_text()
    head = text.split("# Format:")[0]
    assert "council init" in head and "~/.config}/council/commands" in head
    assert "council review --base origin/main" in head
    assert "make council" not in text and "cp council.commands.example" not in text
    assert "--trust-repo-config" in head
