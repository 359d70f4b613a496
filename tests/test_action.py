"""The GitHub Action (action.yml) and the CI examples: GitHub's and GitLab's published
schemas, a static analyser for workflows at medium and above, pins, and the action's own
steps run as a runner would run them (GitHub's environment variables, the step outputs,
$GITHUB_PATH) on a repository built here, with stub reviewers and a stub reviewdog."""

from __future__ import annotations

import json
import os
import re
import shutil
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from conftest import ROOT, bin_dir

ACTION = ROOT / "action.yml"
WORKFLOW = ROOT / "examples" / "ci" / "github-actions.yml"
GITLAB = ROOT / "examples" / "ci" / "gitlab-ci.yml"
TOOLS = Path(sys.executable).parent


def tool(name: str) -> str:
    found = TOOLS / name
    if found.is_file():
        return str(found)
    other = shutil.which(name)
    if other is None:
        pytest.skip(f"{name} is not installed (the dev extra installs it: make install)")
    return other


# --------------------------------------------------------------------------- #
# Schemas, the static analyser, pins.
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize(("path", "schema"), [
    (ACTION, "vendor.github-actions"),
    (WORKFLOW, "vendor.github-workflows"),
    (GITLAB, "vendor.gitlab-ci"),
], ids=["action", "github-workflow", "gitlab-ci"])
def test_published_schemas(path, schema) -> None:
    res = subprocess.run([tool("check-jsonschema"), "--builtin-schema", schema, str(path)],
                         capture_output=True, text=True, timeout=120, check=False)
    assert res.returncode == 0, res.stdout + res.stderr


def test_the_schema_check_can_fail(tmp_path) -> None:
    bad = tmp_path / "action.yml"
    bad.write_text("name: x\nruns:\n  using: composite\n  steps:\n    - run: echo\n")
    res = subprocess.run([tool("check-jsonschema"), "--builtin-schema", "vendor.github-actions",
                          str(bad)], capture_output=True, text=True, timeout=120, check=False)
    assert res.returncode == 1  # a composite run: step needs its shell


def zizmor(*paths: Path) -> list[dict[str, Any]]:
    res = subprocess.run([tool("zizmor"), "--offline", "--no-progress", "--format", "json",
                          "--min-severity", "medium", *map(str, paths)],
                         capture_output=True, text=True, timeout=300, check=False)
    assert res.returncode in (0, 10, 11, 12, 13, 14), res.stderr[-2000:]
    return json.loads(res.stdout or "[]")


def test_static_analyser_finds_nothing_at_medium_or_above() -> None:
    found = zizmor(ACTION, WORKFLOW)
    assert found == [], [(f["ident"], f["determinations"]["severity"]) for f in found]


def test_static_analyser_does_flag_the_old_workflow_shape(tmp_path) -> None:
    old = tmp_path / "council.yml"
    old.write_text(
        "on: pull_request\npermissions:\n  contents: read\njobs:\n  c:\n    runs-on: x\n"
        "    steps:\n      - uses: actions/checkout@v4\n      - run: pip install council\n")
    idents = {f["ident"] for f in zizmor(old)}
    assert "unpinned-uses" in idents


def uses_of(doc: Any) -> list[str]:
    if isinstance(doc, dict):
        return [v for k, v in doc.items() if k == "uses" and isinstance(v, str)] + [
            u for v in doc.values() for u in uses_of(v)]
    if isinstance(doc, list):
        return [u for v in doc for u in uses_of(v)]
    return []


def test_pins_permissions_and_concurrency() -> None:
    action = yaml.safe_load(ACTION.read_text())
    workflow = yaml.safe_load(WORKFLOW.read_text())
    uses = uses_of(action) + uses_of(workflow)
    assert len(uses) >= 5
    for ref in uses:
        assert re.fullmatch(r"[\w.-]+/[\w./-]+@[0-9a-f]{40}", ref), ref
    assert workflow["permissions"] == {"contents": "read"}
    job = workflow["jobs"]["council"]
    assert job["permissions"] == {"contents": "read", "actions": "read",
                                  "security-events": "write", "pull-requests": "write"}
    assert "cancel-in-progress" in workflow["concurrency"]
    text = WORKFLOW.read_text()
    assert "npm install -g" not in text and "pip install council-filters\n" not in text
    assert re.search(r"@anthropic-ai/claude-code@\d+\.\d+\.\d+", text)  # npm at exact versions
    assert "secrets.COUNCIL_COMMANDS" in text  # commands from a secret, not the checkout
    for step in action["runs"]["steps"]:
        if "run" in step:
            assert "${{" not in step["run"], step["name"]  # inputs reach scripts as env only


# --------------------------------------------------------------------------- #
# The action's steps, run.
# --------------------------------------------------------------------------- #
_EXPR = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")


def lookup(name: str, ctx: dict[str, Any]) -> Any:
    value: Any = ctx
    for part in name.split("."):
        value = value.get(part, "") if isinstance(value, dict) else ""
    return value


def evaluate(expr: str, ctx: dict[str, Any]) -> Any:
    """The expressions action.yml uses: context lookups, '...' literals, == != && ||."""
    expr = expr.strip()
    for op, join in (("||", any), ("&&", all)):
        if op in expr:
            return join(evaluate(part, ctx) for part in expr.split(op))
    for op in ("==", "!="):
        if op in expr:
            left, right = (evaluate(part, ctx) for part in expr.split(op))
            return (str(left) == str(right)) == (op == "==")
    if expr.startswith("'") and expr.endswith("'"):
        return expr[1:-1]
    assert re.fullmatch(r"[a-z][\w.-]*", expr), expr
    return lookup(expr, ctx)


def substitute(text: str, ctx: dict[str, Any]) -> str:
    return _EXPR.sub(lambda m: str(evaluate(m.group(1), ctx)), text)


def read_outputs(path: Path) -> dict[str, str]:
    out: dict[str, str] = {}
    lines = path.read_text().splitlines() if path.exists() else []
    i = 0
    while i < len(lines):
        line = lines[i]
        if "<<" in line and ("=" not in line or line.index("<<") < line.index("=")):
            name, marker = line.split("<<", 1)
            body = []
            i += 1
            while lines[i] != marker:
                body.append(lines[i])
                i += 1
            out[name] = "\n".join(body)
        else:
            name, _, value = line.partition("=")
            out[name] = value
        i += 1
    return out


class Runner:
    """Runs action.yml's steps as a runner does: `if:` conditions, `env:` expressions,
    `shell: bash` (bash --noprofile --norc -eo pipefail), step outputs, $GITHUB_PATH."""

    def __init__(self, tmp: Path, workspace: Path, event: dict[str, Any], event_name: str,
                 env: dict[str, str]) -> None:
        self.tmp = tmp
        self.temp = tmp / "runner-temp"
        self.temp.mkdir()
        self.summary = tmp / "summary.md"
        self.summary.write_text("")
        event_path = tmp / "event.json"
        event_path.write_text(json.dumps(event))
        self.stubs = tmp / "stubs"
        self.stubs.mkdir()
        self.env = {
            "PATH": f"{self.stubs}:/usr/bin:/bin",
            "HOME": str(tmp / "home"),
            "LANG": "C.UTF-8",
            "GITHUB_ACTIONS": "true",
            "CI": "true",
            "GITHUB_WORKSPACE": str(workspace),
            "GITHUB_EVENT_PATH": str(event_path),
            "GITHUB_EVENT_NAME": event_name,
            "GITHUB_ACTION_PATH": str(ROOT),
            "GITHUB_STEP_SUMMARY": str(self.summary),
            "GITHUB_REPOSITORY": "octo/project",
            "GITHUB_BASE_REF": (event.get("pull_request") or {}).get("base", {}).get("ref", ""),
            "RUNNER_TEMP": str(self.temp),
            "XDG_CONFIG_HOME": str(tmp / "xdg"),
            **env,
        }
        self.paths: list[str] = []
        self.log: list[tuple[str, int | None, str]] = []  # (step, exit code or None, stdout)
        self.uses: list[tuple[str, dict[str, str]]] = []

    def run(self, inputs: dict[str, str]) -> dict[str, Any]:
        action = yaml.safe_load(ACTION.read_text())
        ctx: dict[str, Any] = {
            "github": {"token": "test-token", "action_path": str(ROOT)},
            "inputs": {},
            "steps": {},
        }
        for name, spec in action["inputs"].items():
            ctx["inputs"][name] = substitute(str(spec.get("default", "")), ctx)
        unknown = set(inputs) - set(ctx["inputs"])
        assert not unknown, unknown
        ctx["inputs"].update(inputs)
        for n, step in enumerate(action["runs"]["steps"]):
            if "if" in step and not evaluate(step["if"], ctx):
                self.log.append((step["name"], None, "skipped"))
                continue
            if "uses" in step:
                given = {k: substitute(str(v), ctx) for k, v in step.get("with", {}).items()}
                self.uses.append((step["uses"], given))
                self.log.append((step["name"], 0, "uses"))
                continue
            assert step["shell"] == "bash"
            outputs = self.tmp / f"output-{n}"
            outputs.write_text("")
            paths = self.tmp / f"path-{n}"
            paths.write_text("")
            env = {**self.env, "GITHUB_OUTPUT": str(outputs), "GITHUB_PATH": str(paths)}
            env["PATH"] = ":".join([*reversed(self.paths), env["PATH"]])
            env.update({k: substitute(str(v), ctx) for k, v in step.get("env", {}).items()})
            script = self.tmp / f"step-{n}.sh"
            script.write_text(step["run"])
            res = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail",
                                  str(script)], env=env, cwd=self.env["GITHUB_WORKSPACE"],
                                 capture_output=True, text=True, timeout=300, check=False)
            self.log.append((step["name"], res.returncode, res.stdout + res.stderr))
            if "id" in step:
                ctx["steps"][step["id"]] = {"outputs": read_outputs(outputs)}
            self.paths += [p for p in paths.read_text().splitlines() if p]
            if res.returncode != 0:
                break
        return ctx

    def code(self, name: str) -> int | None:
        (found,) = [c for n, c, _ in self.log if n == name]
        return found

    def text(self, name: str) -> str:
        (found,) = [t for n, _, t in self.log if n == name]
        return found


def git(repo: Path, *args: str) -> str:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t"}
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True,
                          env=env, text=True).stdout


@pytest.fixture()
def workspace(tmp_path: Path) -> Path:
    """A checkout of a pull request: trunk (as origin/trunk) and the change on top."""
    r = tmp_path / "workspace"
    r.mkdir()
    git(r, "init", "-q", "-b", "trunk")
    (r / "app.py").write_text("def total(xs):\n    return sum(xs)\n\nLIMIT = 10\n")
    git(r, "add", ".")
    git(r, "commit", "-qm", "base")
    git(r, "update-ref", "refs/remotes/origin/trunk", "trunk")
    git(r, "checkout", "-qb", "change")
    (r / "app.py").write_text("def total(xs):\n    return sum(xs) + 1\n\nLIMIT = 10\n")
    git(r, "commit", "-qam", "off by one")
    return r


def pr_event(fork: bool = False) -> dict[str, Any]:
    head = "someone/project" if fork else "octo/project"
    return {"pull_request": {"number": 7, "base": {"ref": "trunk",
                                                   "repo": {"full_name": "octo/project"}},
                             "head": {"ref": "change", "repo": {"full_name": head,
                                                                 "fork": fork}}}}


def executable(path: Path, text: str) -> Path:
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


def stub_python(runner: Runner) -> Path:
    """Stands in for the runner's python3 in the install step: `-m venv DIR` makes a venv
    holding this test install's executables, `-m pip install SRC` is recorded."""
    log = runner.tmp / "pip.log"
    links = " ".join(f"'{p}'" for p in sorted(bin_dir().glob("council*")))
    return executable(runner.stubs / "python-for-install", f"""#!/bin/bash
if [ "$1 $2" = "-m venv" ]; then
  mkdir -p "$3/bin" && ln -s "$0" "$3/bin/python" && ln -s {links} "$3/bin/"
  exit 0
fi
if [ "$1 $2" = "-m pip" ]; then printf '%s\\n' "$*" >> '{log}'; exit 0; fi
exec '{sys.executable}' "$@"
""")


def stub_reviewdog(runner: Runner) -> Path:
    log = runner.tmp / "reviewdog"
    executable(runner.stubs / "reviewdog",
               f"#!/bin/bash\nprintf '%s\\n' \"$*\" > '{log}.args'\n"
               f"printf '%s\\n' \"$REVIEWDOG_GITHUB_API_TOKEN\" > '{log}.token'\n"
               f"cat > '{log}.in'\n")
    return log


ANSWER_JSON = {
    "verdict": "REVISE", "confidence": "HIGH", "summary": "One off-by-one.",
    "findings": [{"severity": "P1", "file": "app.py", "line": 2,
                  "title": "total adds one to every sum",
                  "replacement": "    return sum(xs)\n"}],
}


def reviewer(tmp: Path, answer: str) -> str:
    """A commands-file line's command: reads the pack, prints ``answer``."""
    path = tmp / f"answer-{abs(hash(answer))}.txt"
    path.write_text(answer)
    return f"cat > /dev/null; cat '{path}'"


def run_action(tmp_path, workspace, *, inputs, env=None, fork=False, event_name="pull_request"):
    runner = Runner(tmp_path, workspace, pr_event(fork), event_name, env or {})
    py = stub_python(runner)
    ctx = runner.run({"python": str(py), **inputs})
    return runner, ctx


@pytest.mark.slow
def test_action_on_a_pull_request_summary_sarif_comments_and_gate(tmp_path, workspace) -> None:
    commands = "\n".join([
        f"claude = {reviewer(tmp_path, json.dumps(ANSWER_JSON))}",
        "codex = " + reviewer(tmp_path, "Verdict: APPROVE\nConfidence: HIGH\nFindings: none\n"
                              "Summary: fine.\n"),
    ])
    runner = Runner(tmp_path, workspace, pr_event(), "pull_request",
                    {"ANTHROPIC_API_KEY": "k-1", "OPENAI_API_KEY": "k-2"})
    dog = stub_reviewdog(runner)
    ctx = runner.run({"python": str(stub_python(runner)), "commands": commands,
                      "required-env": "ANTHROPIC_API_KEY, OPENAI_API_KEY",
                      "fail-level": "HIGH", "inline-comments": "true"})
    # Installed from the action's own checkout, put on PATH for the next steps.
    assert runner.code("Install council-filters from the action's own checkout") == 0
    assert f"-m pip install --quiet --disable-pip-version-check {ROOT}" in (
        tmp_path / "pip.log").read_text()
    out = ctx["steps"]["review"]["outputs"]
    assert runner.code("Council review") == 0, runner.text("Council review")
    assert (out["result"], out["exit-code"], out["comments"]) == ("failed", "3", "true")
    # The synthesis and the gate's reasons are in the job summary.
    summary = runner.summary.read_text()
    assert summary.startswith("## Council\n")
    assert "Split — 1 APPROVE, 1 REVISE" in summary
    assert "--fail-level critical: 1 finding at or above it: CLA-001 (critical, app.py:2)" \
        in summary
    assert "k-1" not in summary and "claude =" not in summary
    # SARIF: a valid document for code scanning, handed to upload-sarif.
    sarif = json.loads(Path(out["sarif"]).read_text())
    assert sarif["version"] == "2.1.0"
    (result,) = sarif["runs"][0]["results"]
    region = result["locations"][0]["physicalLocation"]
    assert (region["artifactLocation"]["uri"], region["region"]["startLine"]) == ("app.py", 2)
    validate_sarif(Path(out["sarif"]))
    ((uses, given),) = [(u, w) for u, w in runner.uses if "upload-sarif" in u]
    assert given == {"sarif_file": out["sarif"], "category": "council"}
    # Inline comments: reviewdog reads rdjsonl with the reviewer's replacement as a suggestion.
    assert runner.code("Inline review comments (reviewdog)") == 0
    args = (dog.parent / "reviewdog.args").read_text().split()
    assert {"-f=rdjsonl", "-reporter=github-pr-review", "-filter-mode=added"} <= set(args)
    assert (dog.parent / "reviewdog.token").read_text().strip() == "test-token"
    (diag,) = [json.loads(x) for x in (dog.parent / "reviewdog.in").read_text().splitlines()]
    assert diag["location"] == {"path": "app.py", "range": {"start": {"line": 2},
                                                            "end": {"line": 2}}}
    assert diag["suggestions"] == [{"range": {"start": {"line": 2}, "end": {"line": 2}},
                                    "text": "    return sum(xs)"}]
    # The gate comes last, with council's exit code.
    assert runner.code("Gate") == 3
    assert "::error title=council::" in runner.text("Gate")
    assert not (workspace / "docs").exists()  # the report is written outside the checkout


@pytest.mark.slow
def test_action_passes_green_when_the_council_approves(tmp_path, workspace) -> None:
    ok = reviewer(tmp_path, "Verdict: APPROVE\nConfidence: HIGH\nFindings: none\nSummary: ok.\n")
    runner, ctx = run_action(tmp_path, workspace, inputs={
        "commands": f"claude = {ok}\n", "fail-on": "revise", "fail-level": "p2"})
    assert ctx["steps"]["review"]["outputs"]["result"] == "passed"
    assert runner.code("Gate") == 0
    assert runner.code("Set up reviewdog") is None  # inline comments not asked for
    summary = runner.summary.read_text()
    assert summary.startswith("## Council\n") and "APPROVE" in summary
    assert "Why this check failed" not in summary


@pytest.mark.slow
@pytest.mark.parametrize(("inputs", "env", "why"), [
    ({"commands": ""}, {}, "No reviewer commands"),
    ({"commands": "claude = true\n", "required-env": "ANTHROPIC_API_KEY"},
     {"ANTHROPIC_API_KEY": ""}, "Not set: ANTHROPIC_API_KEY"),
], ids=["no-commands", "no-api-key"])
def test_a_fork_without_secrets_ends_neutral_with_a_notice(tmp_path, workspace, inputs, env,
                                                           why) -> None:
    runner, ctx = run_action(tmp_path, workspace, inputs={**inputs, "inline-comments": "true"},
                             env=env, fork=True)
    out = ctx["steps"]["review"]["outputs"]
    assert (out["result"], out["exit-code"], out.get("sarif")) == ("neutral", "0", None)
    notice = runner.text("Council review")
    assert f"::notice title=council did not run::{why}" in notice
    assert "comes from a fork" in notice
    summary = runner.summary.read_text()
    assert summary.startswith("### Council: not run") and why in summary
    assert runner.code("Upload SARIF to code scanning") is None
    assert runner.code("Inline review comments (reviewdog)") is None
    assert runner.code("Gate") == 0  # neither a false red ...
    assert "neither passes nor fails" in summary  # ... nor a silent green


@pytest.mark.slow
def test_a_commands_file_inside_the_checkout_is_refused(tmp_path, workspace) -> None:
    (workspace / "cmds").write_text("claude = true\n")
    runner, ctx = run_action(tmp_path, workspace,
                             inputs={"commands-file": str(workspace / "cmds")})
    assert runner.code("Council review") == 2
    assert "commands-file is inside the checkout" in runner.text("Council review")
    assert "Gate" not in [n for n, _, _ in runner.log]  # not reached: the job has failed


@pytest.mark.slow
def test_a_bad_commands_text_fails_before_any_reviewer_runs(tmp_path, workspace) -> None:
    ran = tmp_path / "RAN"
    runner, ctx = run_action(tmp_path, workspace, inputs={
        "commands": f"claude = touch {ran}\ncladue = touch {ran}\n"})
    assert ctx["steps"]["review"]["outputs"]["exit-code"] == "2"
    assert "commands:2: unknown reviewer `cladue`" in runner.summary.read_text()
    assert not ran.exists()
    assert runner.code("Gate") == 2


def validate_sarif(path: Path) -> None:
    """The SARIF multitool's validation when it is installed (make node_modules/.installed)."""
    local = ROOT / "node_modules" / ".bin" / "sarif-multitool-linux"
    multitool = str(local) if local.exists() else shutil.which("sarif-multitool-linux")
    if multitool is None:
        return  # the shape checks above still ran; the format tests say the validator is missing
    target = path.with_name("validated.sarif")
    target.write_bytes(path.read_bytes())
    report = path.with_name("validation.sarif")
    res = subprocess.run([multitool, "validate", "--output", str(report), str(target)],
                         capture_output=True, text=True, timeout=300, check=False)
    assert res.returncode == 0, res.stdout[-2000:]
    found = json.loads(report.read_text())["runs"][0].get("results", [])
    bad = [r for r in found if r.get("level", "warning") in ("error", "warning")
           and r.get("ruleId") != "SARIF2005"]
    assert bad == [], bad[:3]
