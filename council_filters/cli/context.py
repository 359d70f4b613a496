"""council-context: collect-context, one JSON context for a review (thin CLI)."""

from __future__ import annotations

import typer

from council_filters.cli import _shell as kit
from council_filters.context import collect, render
from council_filters.council.scope import choose as choose_scope

HELP = """\
Collect what a review needs: the diff, the spec, the stack and its test command.

Like the code-review flow's collect-context script: it reads the git repository (never runs
anything of it) and writes one JSON context object on stdout: the diff summary (files, added
lines as anchorable ranges; uncommitted changes and new files included unless --committed),
branch and commits, the PR (with --pr, through gh when installed),
the spec folder (.specs/features/* fuzzy-matched on --feature or the branch, else
.specs/quick/*), the .specs/codebase/ docs, the stack of every package root the diff touches
(language, package manager, test framework), the test and coverage commands and the coverage
threshold (default 80), and "missing" with a readiness class.  Values you give win over
.specs/codebase/TESTING.md and STACK.md, which win over detection.

Readiness: no diff is blocking (the context is still written, exit 1); spec and task both
missing is critical; no codebase docs or no test command is degraded.  The seed's exit 2
"degraded success" is exit 0 here with "readiness" in the JSON (2 is this suite's usage
code); --strict makes anything short of ready exit 3.
"""

EPILOG = (
    kit.exit_code_table()
    + "\n\n"
    + """Examples:

\b
  council-context --base origin/main --task "Expire idle sessions" > context.json
  council-context --pr 42 | jq '{stack, test_cmd, missing}'
  council-context --base main | council-tests > tst.jsonl
  council-context --base main | council-state init
  council-context --base main --format markdown      # the context map: found / missing
  council-context --strict --base main > context.json || echo "context incomplete"
"""
)

app = kit.make_app(HELP, EPILOG)


def _threshold(value: str | None) -> float | None:
    if value is None:
        return None
    try:
        number = float(value.rstrip("%"))
    except ValueError:
        kit.fail_usage("--threshold must be a percentage between 0 and 100")
    if not 0 <= number <= 100:
        kit.fail_usage("--threshold must be a percentage between 0 and 100")
    return number


@app.command()
def command(
    repo: str = typer.Option(".", "--repo", "-C", metavar="DIR",
                             help="The repository's top directory. Default: the current one."),
    base: str = typer.Option(None, "--base", metavar="REF", help="Base to diff against"
                             " (BASE...HEAD). Default: the PR's base, else origin/HEAD, main,"
                             " master, trunk, develop."),
    pr: int = typer.Option(None, "--pr", metavar="N", min=1,
                           help="Pull request number (metadata through gh). Default: none."),
    spec: str = typer.Option(None, "--spec", metavar="PATH",
                             help="Spec file or folder to use. Default: matched under .specs/."),
    task: str = typer.Option(None, "--task", metavar="TEXT",
                             help="The task description. Default: none (reported missing)."),
    feature: str = typer.Option(None, "--feature", metavar="NAME",
                                help="Feature name to match spec folders on. Default: the"
                                " branch name."),
    diff: str = typer.Option(None, "--diff", metavar="FILE",
                             help="Use this unified diff ('-' = stdin) instead of git's."
                             " Default: git diff BASE...HEAD."),
    test_cmd: str = typer.Option(None, "--test-cmd", metavar="CMD",
                                 help="Test command to record. Default: declared or detected."),
    coverage_cmd: str = typer.Option(None, "--coverage-cmd", metavar="CMD",
                                     help="Coverage command. Default: declared or detected."),
    threshold: str = typer.Option(None, "--threshold", metavar="PERCENT",
                                  help="Coverage threshold. Default: declared, configured"
                                  " (fail_under, coverageThreshold), else 80."),
    worktree: bool = typer.Option(False, "--worktree",
                                  help="Diff HEAD against every uncommitted change (staged,"
                                  " unstaged, untracked). Default: off."),
    staged: bool = typer.Option(False, "--staged",
                                help="Diff HEAD against the staged changes only. Default: off."),
    commit: str = typer.Option(None, "--commit", metavar="SHA",
                               help="Diff one commit against its first parent. Default: none."),
    committed: bool = typer.Option(False, "--committed",
                                   help="Only committed changes (BASE...HEAD). Default: off (the"
                                   " work tree's uncommitted and new files are included)."),
    format_: str = typer.Option("json", "--format", metavar="FORMAT",
                                help="json (the context object) or markdown (the context map"
                                " for the readiness gate, found / missing). Default: json."),
    strict: bool = typer.Option(False, "--strict",
                                help="Exit 3 unless readiness is ready. Default: off."),
    version: bool = kit.version_option(),
) -> int:
    ctx = kit.streams()
    if format_ not in ("json", "markdown"):
        kit.fail_usage("--format must be json or markdown")
    scope = choose_scope(base, worktree, staged, commit)
    if scope != "base" and (diff is not None or committed):
        kit.fail_usage(f"--{scope} cannot be combined with --diff or --committed")
    diff_bytes = None
    if diff is not None:
        diff_bytes = kit.read_all([diff], ctx.stdin)
    opts = collect.Options(
        repo=repo, base=base, pr=pr, spec=spec, task=task, feature=feature, diff=diff_bytes,
        test_cmd=test_cmd or None, coverage_cmd=coverage_cmd or None,
        threshold=_threshold(threshold), committed=committed, scope=scope, commit=commit)
    context = collect.collect(opts)
    ctx.stdout.write(kit.dumps(context) if format_ == "json"
                     else render.context_map(context).encode("utf-8"))
    ctx.stdout.flush()
    for gap in context["gaps"]:
        if gap["class"] != "blocking":
            ctx.warn(f"missing {gap['item']} ({gap['class']})")
    if context["readiness"] == "blocking":
        reason = next((n for n in context["notes"] if n.startswith("no diff")), "no diff")
        raise kit.DataError(reason + " (blocking)")
    if strict and context["readiness"] != "ready":
        return kit.EXIT_CONDITION
    return kit.EXIT_OK


main = kit.main_for(app, "council-context")


def entry() -> None:
    kit.entry(main)


if __name__ == "__main__":
    entry()
