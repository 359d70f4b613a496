"""council-context: stack detection, spec matching, codebase docs, readiness and exit codes,
on repositories the tests build (one kind per row)."""

from __future__ import annotations

import json
import os
import re
import shutil
import stat
from pathlib import Path
from typing import Any

import pytest

from council_filters.context import specs
from council_filters.context import stack as stk

from conftest import git, make_repo, run_filter

SECRET = "sk-ant-api03-" + "B" * 30


def run(args: list[str], stdin: bytes = b"", cwd: Path | None = None
        ) -> tuple[int, dict[str, Any] | None, str]:
    code, raw, err = run_filter("context", args, stdin, cwd=cwd)
    assert raw.count(b"\n") <= 1
    return code, (json.loads(raw) if raw else None), err


def context_of(tmp: Path, base: dict[str, Any], change: dict[str, Any], *args: str,
               branch: str = "feature/change") -> dict[str, Any]:
    repo = make_repo(tmp / "repo", base, change, branch=branch)
    code, ctx, err = run(["--repo", str(repo), "--task", "t", *args])
    assert code == 0, err
    assert ctx is not None
    return ctx


PYPROJECT_UV = '[project]\nname = "a"\nversion = "1"\n[dependency-groups]\ndev = ["pytest"]\n'
# (id, base files, changed files, expected [(root, ecosystem, manager, framework, test_cmd)])
KINDS: list[tuple[str, dict[str, str], dict[str, str], list[tuple[Any, ...]]]] = [
    ("uv", {"pyproject.toml": PYPROJECT_UV, "uv.lock": "version = 1\n"}, {"a.py": "x = 1\n"},
     [(".", "python", "uv", "pytest", "uv run pytest")]),
    ("uv-lock-beats-poetry-table",
     {"pyproject.toml": '[tool.poetry]\nname = "a"\n', "uv.lock": ""}, {"a.py": "1\n"},
     [(".", "python", "uv", None, None)]),
    ("poetry-table", {"pyproject.toml": '[tool.poetry]\nname = "a"\n[tool.poetry.group.dev'
                      '.dependencies]\npytest = "*"\n'}, {"a.py": "1\n"},
     [(".", "python", "poetry", "pytest", "poetry run pytest")]),
    ("poetry-lock", {"pyproject.toml": '[project]\nname = "a"\n', "poetry.lock": "",
                     "tests/test_a.py": "def test_a():\n    pass\n"}, {"a.py": "1\n"},
     [(".", "python", "poetry", "pytest", "poetry run pytest")]),
    ("pdm-script", {"pyproject.toml": '[project]\nname = "a"\n[tool.pdm.scripts]\n'
                    'test = "pytest -x"\n', "pdm.lock": ""}, {"a.py": "1\n"},
     [(".", "python", "pdm", "pytest", "pdm run test")]),
    ("hatch-backend", {"pyproject.toml": '[build-system]\nbuild-backend = "hatchling.build"\n'},
     {"a.py": "1\n"}, [(".", "python", "hatch", "pytest", "hatch test")]),
    ("hatch-script", {"pyproject.toml": '[tool.hatch.envs.default.scripts]\ntest = "pytest"\n'},
     {"a.py": "1\n"}, [(".", "python", "hatch", "pytest", "hatch run test")]),
    ("pytest-ini-options", {"pyproject.toml": '[project]\nname = "a"\n'
                            '[tool.pytest.ini_options]\naddopts = "-q"\n'}, {"a.py": "1\n"},
     [(".", "python", "pip", "pytest", "python -m pytest")]),
    ("requirements", {"requirements.txt": "flask\n", "requirements-dev.txt": "pytest==8\n"},
     {"app.py": "1\n"}, [(".", "python", "pip", "pytest", "python -m pytest")]),
    ("requirements-dir", {"requirements/base.txt": "pytest\n"}, {"app.py": "1\n"},
     [(".", "python", "pip", "pytest", "python -m pytest")]),
    ("requirements-unittest", {"requirements.txt": "flask\n", "tests/test_x.py":
                               "import unittest\nclass T(unittest.TestCase):\n    pass\n"},
     {"app.py": "1\n"}, [(".", "python", "pip", "unittest", "python -m unittest")]),
    ("requirements-no-tests", {"requirements.txt": "flask\n"}, {"app.py": "1\n"},
     [(".", "python", "pip", None, None)]),
    ("pipenv", {"Pipfile": '[dev-packages]\npytest = "*"\n', "Pipfile.lock": "{}"},
     {"app.py": "1\n"}, [(".", "python", "pipenv", "pytest", "pipenv run pytest")]),
    ("setup-cfg-tool-config-only", {"setup.cfg": "[flake8]\nmax-line-length = 99\n",
                                    "go.mod": "module m\n"}, {"main.go": "package main\n"},
     [(".", "go", "go", "go test", "go test ./...")]),
    ("npm", {"package.json": '{"scripts":{"test":"jest"}}', "package-lock.json": "{}"},
     {"a.js": "1\n"}, [(".", "node", "npm", "jest", "npm test")]),
    ("npm-placeholder", {"package.json": '{"scripts":{"test":"echo \\"Error: no test '
                         'specified\\" && exit 1"}}', "package-lock.json": "{}"},
     {"a.js": "1\n"}, [(".", "node", "npm", None, None)]),
    ("npm-no-lock-jest-dep", {"package.json": '{"devDependencies":{"jest":"29"}}'},
     {"a.js": "1\n"}, [(".", "node", "npm", "jest", "npx jest")]),
    ("pnpm", {"package.json": '{"scripts":{"test":"vitest run"}}', "pnpm-lock.yaml": ""},
     {"a.ts": "1\n"}, [(".", "node", "pnpm", "vitest", "pnpm test")]),
    ("pnpm-lock-beats-npm-lock", {"package.json": '{"scripts":{"test":"mocha"}}',
                                  "pnpm-lock.yaml": "", "package-lock.json": "{}"},
     {"a.js": "1\n"}, [(".", "node", "pnpm", "mocha", "pnpm test")]),
    ("package-manager-field", {"package.json": '{"packageManager":"yarn@4.1.0","scripts":'
                               '{"test":"jest"}}', "package-lock.json": "{}"},
     {"a.js": "1\n"}, [(".", "node", "yarn", "jest", "yarn test")]),
    ("yarn", {"package.json": '{"scripts":{"test":"ava"}}', "yarn.lock": ""},
     {"a.js": "1\n"}, [(".", "node", "yarn", "ava", "yarn test")]),
    ("bun-script", {"package.json": '{"scripts":{"test":"bun test"}}', "bun.lock": ""},
     {"a.ts": "1\n"}, [(".", "node", "bun", "bun:test", "bun run test")]),
    ("bun-no-script", {"package.json": "{}", "bun.lockb": ""}, {"a.ts": "1\n"},
     [(".", "node", "bun", "bun:test", "bun test")]),
    ("workspace-lock-at-top", {"package.json": '{"workspaces":["packages/*"]}',
                               "pnpm-lock.yaml": "",
                               "packages/a/package.json": '{"scripts":{"test":"jest"}}'},
     {"packages/a/src/x.js": "1\n"}, [("packages/a", "node", "pnpm", "jest", "pnpm test")]),
    ("go", {"go.mod": "module m\n"}, {"x.go": "package m\n"},
     [(".", "go", "go", "go test", "go test ./...")]),
    ("rust", {"Cargo.toml": "[package]\nname='a'\n"}, {"src/lib.rs": "\n"},
     [(".", "rust", "cargo", "libtest", "cargo test")]),
    ("rust-workspace-member", {"Cargo.toml": "[workspace]\n", "Cargo.lock": "",
                               "crates/a/Cargo.toml": "[package]\n"},
     {"crates/a/src/lib.rs": "\n"}, [("crates/a", "rust", "cargo", "libtest", "cargo test")]),
    ("ruby-rspec", {"Gemfile": 'gem "rspec"\n'}, {"lib/a.rb": "1\n"},
     [(".", "ruby", "bundler", "rspec", "bundle exec rspec")]),
    ("ruby-rails-minitest", {"Gemfile": 'gem "rails"\n', "test/test_helper.rb": "\n"},
     {"app/a.rb": "1\n"}, [(".", "ruby", "bundler", "minitest", "bin/rails test")]),
    ("maven", {"pom.xml": "<project/>"}, {"src/main/java/A.java": "class A {}\n"},
     [(".", "jvm", "maven", "junit", "mvn test")]),
    ("gradle-wrapper", {"build.gradle": "", "gradlew": "#!/bin/sh\n"},
     {"src/main/java/A.java": "class A {}\n"}, [(".", "jvm", "gradle", "junit", "./gradlew test")]),
    ("composer-phpunit-xml", {"composer.json": "{}", "phpunit.xml.dist": "<phpunit/>"},
     {"src/A.php": "<?php\n"}, [(".", "php", "composer", "phpunit", "vendor/bin/phpunit")]),
    ("mix", {"mix.exs": "defmodule A do\nend\n"}, {"lib/a.ex": "1\n"},
     [(".", "elixir", "mix", "exunit", "mix test")]),
    ("monorepo", {"api/pyproject.toml": PYPROJECT_UV, "api/uv.lock": "",
                  "web/package.json": '{"scripts":{"test":"jest"}}', "web/yarn.lock": "",
                  "cli/go.mod": "module c\n"},
     {"api/a.py": "1\n", "web/a.js": "1\n"},
     [("api", "python", "uv", "pytest", "uv run pytest"),
      ("web", "node", "yarn", "jest", "yarn test")]),
    ("vendored-manifests-ignored", {"go.mod": "module m\n",
                                    "node_modules/x/package.json": "{}"},
     {"node_modules/x/index.js": "1\n", "m.go": "package m\n"},
     [(".", "go", "go", "go test", "go test ./...")]),
]


@pytest.mark.parametrize(("base", "change", "expected"), [k[1:] for k in KINDS],
                         ids=[k[0] for k in KINDS])
def test_stack_and_test_command_per_repository_kind(tmp_path, base, change, expected):
    ctx = context_of(tmp_path, base, change)
    got = [(s["root"], s["ecosystem"], s["manager"], s["framework"], s["test_cmd"])
           for s in ctx["stack"]]
    assert got == expected
    commands = [e[4] for e in expected if e[4]]
    assert [r["test_cmd"] for r in ctx["test_runs"]] == commands
    assert ctx["test_cmd"] == (commands[0] if len(commands) == 1 else None)
    assert ("test_cmd" in ctx["missing"]) == (not commands)


def test_a_change_outside_every_package_root_has_no_stack(tmp_path):
    ctx = context_of(tmp_path, {"api/go.mod": "module a\n"}, {"README.md": "x\n"})
    assert ctx["stack"] == [] and ctx["test_cmd"] is None
    assert "test_cmd" in ctx["missing"] and ctx["readiness"] == "degraded"


def test_the_diff_summary_gives_added_lines_as_ranges(tmp_path):
    base = {"a.py": "".join(f"line{i}\n" for i in range(1, 11)), "gone.txt": "x\n",
            "old.txt": "same content here\n" * 5}
    change = {"a.py": "new0\n" + "".join(f"line{i}\n" for i in range(1, 6)) + "new6\nnew7\n"
              + "".join(f"line{i}\n" for i in range(6, 11)), "gone.txt": None,
              "bin.dat": b"\x00\x01\x02", "old.txt": None, "moved.txt": "same content here\n" * 5}
    ctx = context_of(tmp_path, base, change)
    files = {f["path"]: f for f in ctx["diff"]["files"]}
    assert files["a.py"]["added_ranges"] == [[1, 1], [7, 8]]
    assert files["a.py"]["status"] == "modified" and files["a.py"]["added"] == 3
    assert files["gone.txt"]["status"] == "deleted" and files["gone.txt"]["removed"] == 1
    assert files["bin.dat"]["binary"] is True and files["bin.dat"]["added_ranges"] == []
    assert files["moved.txt"]["status"] == "renamed"
    assert files["moved.txt"]["old_path"] == "old.txt"
    assert ctx["diff"]["files_changed"] == 4


def test_metadata_branch_commits_and_base(tmp_path):
    repo = make_repo(tmp_path / "r", {"go.mod": "module m\n"}, {"a.go": "package m\n"},
                     branch="feature/x")
    (repo / "b.go").write_text("package m\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "second: add b")
    code, ctx, _ = run(["--repo", str(repo), "--base", "main", "--task", "t"])
    assert code == 0 and ctx is not None
    assert ctx["base"] == "main" and ctx["base_source"] == "supplied"
    assert ctx["head"]["branch"] == "feature/x"
    assert ctx["head"]["subject"] == "second: add b"
    assert [c["subject"] for c in ctx["commits"]] == ["change", "second: add b"]
    assert ctx["merge_base"] == git(repo, "rev-parse", "main").strip()


# --------------------------------------------------------------------------- #
# Readiness and exit codes.
# --------------------------------------------------------------------------- #
FULL = {"go.mod": "module m\n", ".specs/codebase/STACK.md": "# Stack\n",
        ".specs/features/change/spec.md": "# spec\n"}


def test_ready_when_nothing_is_missing(tmp_path):
    repo = make_repo(tmp_path / "r", FULL, {"a.go": "package m\n"})
    code, ctx, err = run(["--repo", str(repo), "--task", "Do the thing", "--strict"])
    assert (code, err) == (0, "")
    assert ctx is not None
    assert ctx["missing"] == [] and ctx["readiness"] == "ready" and ctx["gaps"] == []
    assert ctx["spec"]["path"] == ".specs/features/change"


def test_spec_and_task_missing_is_critical(tmp_path):
    repo = make_repo(tmp_path / "r", {"go.mod": "module m\n"}, {"a.go": "package m\n"})
    code, ctx, err = run(["--repo", str(repo)])
    assert code == 0 and ctx is not None
    assert ctx["missing"] == ["spec", "konecty_task", "codebase_docs"]
    assert ctx["readiness"] == "critical"
    assert {g["item"]: g["class"] for g in ctx["gaps"]} == {
        "spec": "critical", "konecty_task": "critical", "codebase_docs": "degradable"}
    assert "missing spec (critical)" in err
    assert run(["--repo", str(repo), "--strict"])[0] == 3


def test_spec_alone_missing_is_degradable(tmp_path):
    repo = make_repo(tmp_path / "r", {"go.mod": "module m\n"}, {"a.go": "package m\n"})
    code, ctx, _ = run(["--repo", str(repo), "--task", "x"])
    assert ctx is not None and ctx["readiness"] == "degraded"
    assert ctx["gaps"][0] == {"item": "spec", "class": "degradable"}


def test_no_diff_is_blocking_exit_1_and_the_context_is_still_written(tmp_path):
    repo = make_repo(tmp_path / "r", FULL, None)
    code, ctx, err = run(["--repo", str(repo), "--task", "x"])
    assert code == 1
    assert ctx is not None and ctx["missing"][0] == "diff" and ctx["readiness"] == "blocking"
    assert err.splitlines()[-1] == ("council-context: no diff: HEAD has no changes against"
                                    " main (blocking)")


def test_not_a_repository_without_a_diff_is_blocking(tmp_path):
    (tmp_path / "go.mod").write_text("module m\n")
    code, ctx, err = run(["--repo", str(tmp_path), "--task", "x"])
    assert code == 1 and ctx is not None
    assert ctx["stack"][0]["ecosystem"] == "go"
    assert "not a git work tree" in err


def test_a_supplied_diff_wins_and_works_without_git(tmp_path):
    (tmp_path / "package.json").write_text('{"scripts":{"test":"jest"}}')
    diff = b"diff --git a/x.js b/x.js\n--- a/x.js\n+++ b/x.js\n@@ -1 +1,2 @@\n a\n+b\n"
    (tmp_path / "c.diff").write_bytes(diff)
    code, ctx, _ = run(["--repo", str(tmp_path), "--diff", str(tmp_path / "c.diff"),
                        "--task", "x"])
    assert code == 0 and ctx is not None
    assert ctx["diff"]["source"] == "supplied"
    assert ctx["diff"]["files"][0]["added_ranges"] == [[2, 2]]
    assert ctx["head"] == {"branch": None, "commit": None, "subject": None}
    code, ctx2, _ = run(["--repo", str(tmp_path), "--diff", "-", "--task", "x"], diff)
    assert ctx2 is not None and ctx2["diff"] == ctx["diff"]


def test_supplied_values_win(tmp_path):
    repo = make_repo(tmp_path / "r", {**FULL, ".specs/codebase/TESTING.md":
                                      "Test command: `go test -race ./...`\n",
                                      "other/spec.md": "x\n"}, {"a.go": "package m\n"})
    code, ctx, _ = run(["--repo", str(repo), "--task", "x", "--spec", "other/spec.md",
                        "--test-cmd", "make check", "--coverage-cmd", "make cov",
                        "--threshold", "65"])
    assert ctx is not None
    assert ctx["spec"] == {"path": "other/spec.md", "kind": "supplied",
                           "matched_on": "supplied", "files": ["spec.md"]}
    assert ctx["test_cmd"] == "make check" and ctx["coverage_cmd"] == "make cov"
    assert ctx["test_runs"] == [{"root": ".", "test_cmd": "make check",
                                 "coverage_cmd": "make cov", "framework": "go test",
                                 "source": "supplied"}]
    assert (ctx["coverage_threshold"], ctx["coverage_threshold_source"]) == (65, "supplied")


def test_declared_commands_win_over_detection(tmp_path):
    testing = ("# Testing\n\n| what | command |\n|---|---|\n| Test command | `go test -race "
               "./...` |\n\nCoverage threshold: 92%\n")
    ctx = context_of(tmp_path, {**FULL, ".specs/codebase/TESTING.md": testing},
                     {"a.go": "package m\n"})
    assert ctx["test_cmd"] == "go test -race ./..."
    assert ctx["test_runs"][0]["source"] == "docs"
    assert (ctx["coverage_threshold"], ctx["coverage_threshold_source"]) == (92, "docs")
    assert ctx["codebase_docs"] == [".specs/codebase/STACK.md", ".specs/codebase/TESTING.md"]


@pytest.mark.parametrize(("config", "expected"), [
    ({"pyproject.toml": PYPROJECT_UV + "[tool.coverage.report]\nfail_under = 87.5\n"}, 87.5),
    ({"pyproject.toml": PYPROJECT_UV, ".coveragerc": "[report]\nfail_under = 70\n"}, 70),
    ({"pyproject.toml": PYPROJECT_UV, "setup.cfg": "[coverage:report]\nfail_under=60\n"}, 60),
    ({"pyproject.toml": PYPROJECT_UV}, 80),
])
def test_coverage_threshold_from_tool_config(tmp_path, config, expected):
    ctx = context_of(tmp_path, config, {"a.py": "1\n"})
    assert ctx["coverage_threshold"] == expected


def test_bad_options_are_usage_errors(tmp_path):
    for args in (["--threshold", "101"], ["--threshold", SECRET], ["--repo", "/nonexistent"],
                 ["--pr", "0"], ["--spec", "/nonexistent/" + SECRET]):
        code, ctx, err = run(args, cwd=tmp_path)
        assert code == 2, args
        assert SECRET not in err and len(err.splitlines()) == 1


def test_a_bad_base_is_bad_input_and_not_echoed(tmp_path):
    repo = make_repo(tmp_path / "r", {"go.mod": "module m\n"}, {"a.go": "package m\n"})
    for base in (SECRET, "-x" + SECRET, "no-such-branch"):
        code, ctx, err = run(["--repo", str(repo), "--base", base])
        assert code == 1 and ctx is None
        assert SECRET not in err and len(err.splitlines()) == 1


def test_pr_metadata_through_gh(tmp_path, monkeypatch):
    repo = make_repo(tmp_path / "r", {"go.mod": "module m\n"}, {"a.go": "package m\n"},
                     branch="feature/change")
    fake = tmp_path / "bin" / "gh"
    fake.parent.mkdir()
    fake.write_text('#!/bin/sh\n[ "$1 $2" = "pr view" ] && echo \'{"number":42,"title":"Add a",'
                    '"body":"Body","url":"https://x.invalid/42","headRefName":"feature/change",'
                    '"baseRefName":"main"}\'\n')
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("PATH", f"{fake.parent}{os.pathsep}{os.environ['PATH']}")
    code, ctx, _ = run(["--repo", str(repo), "--pr", "42", "--task", "t"])
    assert code == 0 and ctx is not None
    assert ctx["pr"]["title"] == "Add a" and ctx["base"] == "main"
    assert ctx["base_source"] == "pr"


def test_pr_without_gh_keeps_the_number_and_notes_it(tmp_path, monkeypatch):
    repo = make_repo(tmp_path / "r", {"go.mod": "module m\n"}, {"a.go": "package m\n"})
    only_git = tmp_path / "only-git"
    only_git.mkdir()
    (only_git / "git").symlink_to(shutil.which("git") or "/usr/bin/git")
    monkeypatch.setenv("PATH", str(only_git))
    code, ctx, _ = run(["--repo", str(repo), "--pr", "7", "--task", "t"])
    assert code == 0 and ctx is not None
    assert ctx["pr"] == {"number": 7}
    assert any("gh" in n for n in ctx["notes"])


def test_output_is_stable_across_runs(tmp_path):
    repo = make_repo(tmp_path / "r", {"a/go.mod": "module a\n", "b/Cargo.toml": "[package]\n"},
                     {"b/src/lib.rs": "\n", "a/x.go": "package a\n"})
    first = run(["--repo", str(repo), "--task", "t"])[1]
    assert first == run(["--repo", str(repo), "--task", "t"])[1]
    assert first is not None and [s["root"] for s in first["stack"]] == ["a", "b"]


# --------------------------------------------------------------------------- #
# Spec matching and codebase docs (pure).
# --------------------------------------------------------------------------- #
def _tree(paths: list[str], contents: dict[str, str] | None = None) -> stk.Tree:
    contents = contents or {}
    return stk.Tree(paths, lambda p: contents.get(p, "").encode())


@pytest.mark.parametrize(("branch", "expected"), [
    ("feature/password-reset", ".specs/features/password-reset"),
    ("feat/PROJ-123-password-reset", ".specs/features/password-reset"),
    ("alice/password_reset_flow", ".specs/features/password-reset"),
    ("fix/passwd-reset", ".specs/features/password-reset"),
    ("feature/billing", ".specs/features/billing"),
    ("fix/typo-in-footer", ".specs/quick/004-typo-in-footer"),
    ("feature/unrelated-thing", None),
    ("main", None),
])
def test_spec_folder_matching(branch, expected):
    tree = _tree([".specs/features/password-reset/spec.md", ".specs/features/billing/spec.md",
                  ".specs/quick/004-typo-in-footer/spec.md"])
    match = specs.find_spec(tree, [("branch", branch)])
    assert (match.path if match else None) == expected


def test_a_feature_name_is_tried_before_the_branch():
    tree = _tree([".specs/features/billing/spec.md", ".specs/features/search/spec.md"])
    match = specs.find_spec(tree, [("feature", "search"), ("branch", "feature/billing")])
    assert match is not None and (match.path, match.matched_on) == (
        ".specs/features/search", "feature")


@pytest.mark.parametrize(("text", "expected"), [
    ("Test command: `pytest -q`\n", {"test_cmd": "pytest -q"}),
    ("- **Test command:** npm run test:unit\n", {"test_cmd": "npm run test:unit"}),
    ("Tests: unit and integration\n", {}),
    ("Tests: `make test`\n", {"test_cmd": "make test"}),
    ("## Running the tests\n\n```bash\n$ go test ./...\n```\n", {"test_cmd": "go test ./..."}),
    ("## Coverage\n\n```\nnpm run cov\n```\n", {"coverage_cmd": "npm run cov"}),
    ("Coverage: 85%\n", {"coverage_threshold": 85.0}),
    ("| Minimum coverage | 75 % |\n", {"coverage_threshold": 75.0}),
    ("**Language**: TypeScript\n**Package manager**: pnpm\n",
     {"language": "TypeScript", "manager": "pnpm"}),
])
def test_codebase_doc_declarations(text, expected):
    assert specs.parse_docs(text) == expected


def test_a_broken_manifest_reads_as_empty_with_a_note(tmp_path):
    ctx = context_of(tmp_path, {"package.json": "{not json", "package-lock.json": "{}"},
                     {"a.js": "1\n"})
    assert ctx["stack"][0]["test_cmd"] is None
    assert "package.json: not valid JSON (read as empty)" in ctx["notes"]


def test_run_from_a_subdirectory_uses_the_whole_repository(tmp_path):
    repo = make_repo(tmp_path / "r", {"api/go.mod": "module a\n", "web/package.json":
                                      '{"scripts":{"test":"jest"}}'},
                     {"api/x.go": "package a\n"})
    code, ctx, err = run(["--task", "t"], cwd=repo / "web")
    assert code == 0, err
    assert ctx is not None and ctx["diff"]["files"][0]["path"] == "api/x.go"
    assert [s["root"] for s in ctx["stack"]] == ["api"]


def test_the_markdown_map_escapes_what_the_repository_says(tmp_path):
    hostile = "feature/a|b`c<!--x-->"
    repo = make_repo(tmp_path / "r", {
        "package.json": '{"scripts":{"test":"jest"}}',
        ".specs/features/a-b-c-x/spec.md": "x\n",
        ".specs/codebase/TESTING.md": "## Tests\n\n```\nnpm test -- --grep '|`<!--'\n```\n",
    }, {"a.js": "1\n"}, branch=hostile)
    code, raw, err = run_filter("context", ["--repo", str(repo), "--format", "markdown",
                                            "--task", "## Heading\n| x | <b>y</b> *z*"])
    assert code == 0, err
    text = raw.decode()
    table = [line for line in text.splitlines() if line.startswith("| ")]
    assert all(len(re.findall(r"(?<!\\)\|", line)) == 4 for line in table), table
    for needle in ("<!--x-->", "<b>", "\n## Heading", "| x |"):
        assert needle not in text, needle
    assert "``npm test -- --grep '\\|`&lt;!--'``" in text
    assert text.endswith("Readiness: **ready**\n")


def test_uncommitted_changes_and_new_files_are_part_of_the_diff(tmp_path):
    repo = make_repo(tmp_path / "r", {"go.mod": "module m\n", "a.go": "package m\n"},
                     {"b.go": "package m\n"})
    (repo / "a.go").write_text("package m\n\nvar X = 1\n")
    (repo / "new.go").write_text("package m\n\nvar Y = 2\n")
    (repo / "out.json").write_text("")  # what `council-context > out.json` has just created
    code, ctx, _ = run(["--repo", str(repo), "--task", "t"])
    assert code == 0 and ctx is not None
    files = {f["path"]: f for f in ctx["diff"]["files"]}
    assert sorted(files) == ["a.go", "b.go", "new.go"]
    assert files["a.go"]["added_ranges"] == [[2, 3]]
    assert files["new.go"]["status"] == "added" and files["new.go"]["added_ranges"] == [[1, 3]]
    assert ctx["diff"]["source"] == "worktree" and ctx["base"] == "main"
    code, committed, _ = run(["--repo", str(repo), "--task", "t", "--committed"])
    assert committed is not None
    assert [f["path"] for f in committed["diff"]["files"]] == ["b.go"]


def test_on_main_with_only_local_edits_the_edits_are_the_diff(tmp_path):
    repo = make_repo(tmp_path / "r", {"go.mod": "module m\n", "a.go": "package m\n"}, None,
                     branch="work")
    git(repo, "checkout", "-q", "main")
    (repo / "a.go").write_text("package m\n\nfunc F() {}\n")
    code, ctx, _ = run(["--repo", str(repo), "--task", "t"])
    assert code == 0 and ctx is not None
    assert (ctx["base"], ctx["base_source"]) == ("HEAD", "worktree")
    assert ctx["diff"]["files"][0]["added_ranges"] == [[2, 3]]
    (repo / "context.json").write_text(json.dumps(ctx) + "\n")  # files written since then
    (repo / "later.py").write_text("y = eval(x)\n")
    scan = run_filter("scan", ["--repo", str(repo), "--context", str(repo / "context.json"),
                               "--rules", "default"])
    assert scan.records()[-1]["added_lines"] == 2 and scan.records()[-1]["files"] == 1


def test_the_scope_options_council_review_takes(tmp_path):
    """--worktree, --staged and --commit name the same changes as for `council review`."""
    repo = make_repo(tmp_path / "r", {"go.mod": "module m\n", "a.go": "package m\n"},
                     {"b.go": "package m\n"})
    (repo / "a.go").write_text("package m\n\nvar X = 1\n")
    (repo / "c.go").write_text("package m\n")
    git(repo, "add", "c.go")
    (repo / "new.go").write_text("package m\n\nvar Y = 2\n")

    def paths(*args: str) -> tuple[list[str], dict[str, Any]]:
        code, ctx, err = run(["--repo", str(repo), "--task", "t", *args])
        assert code == 0 and ctx is not None, err
        return sorted(f["path"] for f in ctx["diff"]["files"]), ctx

    got, ctx = paths("--worktree")
    assert got == ["a.go", "c.go", "new.go"]  # HEAD's own commit (b.go) is not in it
    assert (ctx["scope"], ctx["diff"]["source"], ctx["base"]) == ("worktree", "worktree", "HEAD")
    assert paths("--staged")[0] == ["c.go"]
    got, ctx = paths("--commit", "HEAD")
    assert got == ["b.go"] and ctx["head"]["subject"] == "change"
    for args, files in ((("--staged",), 1), (("--commit", "HEAD"), 1), (("--worktree",), 3)):
        ctx = paths(*args)[1]
        (repo.parent / "ctx.json").write_text(json.dumps(ctx))
        scan = run_filter("scan", ["--repo", str(repo), "--context", str(repo.parent / "ctx.json"),
                                   "--rules", "default"])
        assert scan.code == 0 and scan.records()[-1]["files"] == files, (args, scan.err)
    assert paths("--commit", "HEAD~1")[0] == ["a.go", "go.mod"]  # a root commit: all of it
    assert paths("--base", "main")[0] == ["a.go", "b.go", "c.go", "new.go"]
    assert paths("--base", "main", "--committed")[0] == ["b.go"]
    code, _ctx, err = run(["--repo", str(repo), "--worktree", "--commit", "HEAD"])
    assert code == 2 and "choose one scope" in err
    code, _ctx, err = run(["--repo", str(repo), "--commit", "nope"])
    assert code == 1 and "is not a commit" in err
