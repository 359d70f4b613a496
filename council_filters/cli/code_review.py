"""council code-review: the six-reviewer code-review flow (thin shell over
``council_filters.codereview``)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import typer

from council_filters.cli import _shell as kit
from council_filters.codereview import ask, correct, references, review, session, setup
from council_filters.consolidate import origins
from council_filters.state import machine

HELP = """The code-review flow with one command per step: six reviewers (security,
requirements, tests, architecture, regression, performance), your selection, one corrector
per origin, scoped re-review with a two-attempt limit.

\b
  run       collect the context, run the security and test scripts (under their opt-ins),
            send each origin its own pack, verify and re-ask, consolidate with stable IDs,
            write the report and the state file
  accept    choose what to fix; everything else open is dismissed, and said so
  fix       run the corrector for each origin with findings to fix
  rereview  re-run only the origins whose findings were fixed, on what the fixes touched
  status    the state summary; exit 0 when done, 3 while work remains

Reviewer commands come from your commands file (as for `council review`): each origin goes to
`code-review.ORIGIN = NAME` when given, else --reviewer NAME, else the first configured
reviewer; `corrector = CMD` is the correction command.  Every command runs with
COUNCIL_REVIEWER and COUNCIL_ORIGIN set; packs and answers are redacted.  The references sent
to each reviewer ship with council-filters; a file ORIGIN.md in --references DIR or in
${XDG_CONFIG_HOME:-~/.config}/council/code-review/ replaces one."""

EPILOG = (
    kit.exit_code_table()
    + """

Examples:

\b
  council code-review run --base origin/main --task "Expire idle sessions"
  council code-review run --worktree --run-tests --state review/state.json
  council code-review accept --severity critical,security
  council code-review accept SEC-001 ARQ-002
  council code-review fix && council code-review rereview
  council code-review status || echo "work remains\""""
)

app = kit.make_app(HELP, EPILOG, no_args_is_help=True)

STATE = typer.Option("review-state.json", "--state", metavar="FILE",
                     envvar="COUNCIL_STATE",
                     help="The state file (default: review-state.json; its files go to"
                     " FILE.d/).")
CONFIG = typer.Option(None, "--config", metavar="FILE",
                      help="Reviewer commands file (default: as for `council review`).")
TRUST = typer.Option(False, "--trust-repo-config",
                     help="Use the reviewed repository's .council/commands. Default: off.")
REVIEWER = typer.Option(None, "--reviewer", metavar="NAME",
                        help="The reviewer for every origin without a code-review.ORIGIN line"
                        " (default: the first configured one).")
REFS = typer.Option(None, "--references", metavar="DIR",
                    help="Directory whose ORIGIN.md, finding-contract.md or correction.md"
                    " replace the shipped ones (default: the user configuration's).")


def _say(message: str) -> None:
    s = kit.streams()
    for line in message.splitlines() or [""]:
        s.warn(line)


def _setup(root: Path, config_file: str | None, trust: bool, reviewer: str | None,
           refs_dir: str | None) -> tuple[review.Reviewers, str | None]:
    from council_filters.cli import council as shell
    from council_filters.council import config

    _path, table = shell._commands(config_file, root, trust)
    names = config.reviewer_names(table)
    origins = setup.origin_map(table, names, reviewer)
    commands = {n: table[n] for n in names}
    env = {k: v for k, v in os.environ.items() if not k.startswith("COUNCIL_CMD_")}
    for name in names:  # COUNCIL_CMD_<NAME> overrides one reviewer's command, as elsewhere
        override = os.environ.get(f"COUNCIL_CMD_{name.upper().replace('-', '_')}")
        if override:
            commands[name] = override
    caller = ask.Caller(ask.limits(os.environ, str(root), _say), env)
    refs = references.load_all(references.search_path(refs_dir, os.environ))
    return review.Reviewers(origins, commands, caller, refs), setup.corrector(table)


def _root(directory: str | None) -> Path:
    from council_filters.cli import council as shell
    from council_filters.pack.git import GitRepo

    start = directory or shell._STATE["dir"] or "."
    if not os.path.isdir(start):
        raise kit.UsageError("-C: no such directory", source=start)
    return Path(GitRepo.discover(start).root)


def _meta_root(state: str) -> Path:
    return Path(session.Session(state).meta()["root"])


@app.command("run")
def run_cmd(
    base: str | None = typer.Option(None, "--base", metavar="REF",
                                    help="Review BASE...HEAD plus uncommitted work (the default"
                                    " scope; default REF: origin/HEAD, main, master, ...)."),
    worktree: bool = typer.Option(False, "--worktree",
                                  help="Review HEAD against every uncommitted change."),
    staged: bool = typer.Option(False, "--staged", help="Review HEAD against the staged changes."),
    commit: str | None = typer.Option(None, "--commit", metavar="SHA",
                                      help="Review one commit against its first parent."),
    committed: bool = typer.Option(False, "--committed",
                                   help="With --base: leave uncommitted changes out."),
    state: str = STATE,
    task: str | None = typer.Option(None, "--task", metavar="TEXT",
                                    help="The task the change implements (default: none)."),
    spec: str | None = typer.Option(None, "--spec", metavar="DIR",
                                    help="The spec file or folder (default: matched under"
                                    " .specs/)."),
    run_tests: bool = typer.Option(False, "--run-tests",
                                   help="Run the change's tests (they execute the repository's"
                                   " code on this machine). Default: off, the tests origin is"
                                   " told they did not run."),
    run_audit: bool = typer.Option(False, "--run-audit",
                                   help="Run the dependency auditors when a manifest changed."
                                   " Default: off."),
    test_cmd: str | None = typer.Option(None, "--test-cmd", metavar="CMD",
                                        help="The test command (default: declared or"
                                        " detected)."),
    directory: str | None = typer.Option(None, "-C", metavar="DIR",
                                         help="The repository (default: here)."),
    config_file: str | None = CONFIG,
    trust: bool = TRUST,
    reviewer: str | None = REVIEWER,
    refs_dir: str | None = REFS,
) -> int:
    """Review a change with the six reviewers and start (or continue) the state file."""
    from council_filters.cli.context import scope_of

    scope = scope_of(base, worktree, staged, commit)
    if committed and scope != "base":
        raise kit.UsageError(f"--committed goes with --base, not --{scope}")
    root = _root(directory)
    who, _corrector = _setup(root, config_file, trust, reviewer, refs_dir)
    opts = review.RunOptions(repo=str(root), state=state, scope=scope, base=base, commit=commit,
                             committed=committed, task=task, spec=spec, run_tests=run_tests,
                             run_audit=run_audit, test_cmd=test_cmd)
    outcome = review.run(opts, who, _say)
    s = kit.streams()
    s.stdout.write(outcome.report.encode("utf-8"))
    s.stdout.flush()
    return outcome.code


def _pick(state_file: str) -> tuple[bool, list[str], list[str]]:
    """The interactive picker: the open findings, then one line of IDs, severities or all."""
    st = session.Session(state_file).load()
    open_ = [f for f in st["findings"] if f["status"] == "open"]
    err = kit.streams().stderr
    for f in open_:
        where = f"{f.get('file') or '-'}:{f.get('line') or '-'}"
        title = " ".join(str(f.get("subject") or f.get("summary") or "").split())[:90]
        err.write(f"  {f['id']:<9} {str(f.get('severity') or '-'):<9} {where:<30} {title}\n")
    err.write("accept which? IDs, severities/categories (critical,security), 'all' or"
              " nothing to dismiss every one: ")
    err.flush()
    answer = sys.stdin.readline().strip()
    if answer.lower() == "all":
        return True, [], []
    words = answer.replace(",", " ").split()
    ids = [w for w in words if origins.is_id_token(w) and any(
        f["id"] == w for f in st["findings"])]
    levels = [w for w in words if w not in ids]
    return False, levels, ids


@app.command("accept")
def accept_cmd(
    ids: list[str] = typer.Argument(None, metavar="[IDS]...", help="Finding IDs to accept."),
    severity: str | None = typer.Option(None, "--severity", metavar="LIST",
                                        help="Accept by severity or category, e.g."
                                        " critical,security."),
    all_: bool = typer.Option(False, "--all", help="Accept every open finding."),
    none: bool = typer.Option(False, "--none", help="Accept nothing: dismiss every open one."),
    state: str = STATE,
) -> int:
    """Accept findings to fix; every other open finding is dismissed (listed by ID).
    With no selection and a terminal on stdin, asks."""
    sess = session.Session(state)
    chosen_ids = list(ids or [])
    levels = [severity] if severity else []
    if none and (chosen_ids or levels or all_):
        raise kit.UsageError("--none cannot be combined with a selection")
    if not (chosen_ids or levels or all_ or none):
        if not sys.stdin.isatty():
            raise kit.UsageError("accept: give IDS, --severity LIST, --all or --none")
        all_, levels, chosen_ids = _pick(state)
        if not (all_ or levels or chosen_ids):
            none = True
    before = {f["id"]: f["status"] for f in sess.load()["findings"]}
    if none:
        result = sess.transact(lambda st: machine.accept(st, machine.Selection(ids=()),
                                                         session.now()))
    else:
        def mutate(st: machine.State) -> machine.Result:
            sel = machine.parse_selection(st, all_=all_, severities=levels, ids=chosen_ids)
            return machine.accept(st, sel, session.now())
        result = sess.transact(mutate)
    after = {f["id"]: f["status"] for f in result.state["findings"]}
    accepted = [i for i, s in after.items() if s == "accepted" and before.get(i) == "open"]
    dismissed = [i for i, s in after.items() if s == "dismissed" and before.get(i) == "open"]
    out = kit.streams().stdout
    out.write(f"accepted {len(accepted)}: {' '.join(accepted) or '-'}\n".encode())
    out.write(f"dismissed {len(dismissed)}: {' '.join(dismissed) or '-'}\n".encode())
    return kit.EXIT_OK


@app.command("fix")
def fix_cmd(
    state: str = STATE,
    config_file: str | None = CONFIG,
    trust: bool = TRUST,
    refs_dir: str | None = REFS,
) -> int:
    """Run one corrector per origin with accepted (or reopened) findings and record what
    each did.  Exit 3 when a corrector failed or left a finding without an outcome."""
    root = _meta_root(state)
    who, corrector = _setup(root, config_file, trust, None, refs_dir)
    if corrector is None:
        raise kit.UsageError("no corrector: add a `corrector = CMD` line to the commands file")
    code, _report = correct.fix(state, corrector, who.caller, who.refs, _say)
    return code


@app.command("rereview")
def rereview_cmd(
    state: str = STATE,
    config_file: str | None = CONFIG,
    trust: bool = TRUST,
    reviewer: str | None = REVIEWER,
    refs_dir: str | None = REFS,
) -> int:
    """Re-run the origins whose findings were fixed, on the lines the corrections touched:
    verified, reopened (one more correction while fix_attempts < 2, else frozen) or
    fix-induced (a new finding with a fresh ID)."""
    root = _meta_root(state)
    who, _corrector = _setup(root, config_file, trust, reviewer, refs_dir)
    code, _settled = review.rereview(state, who, _say)
    return code


@app.command("status")
def status_cmd(
    state: str = STATE,
    as_json: bool = typer.Option(False, "--json", help="Print the summary as JSON."),
) -> int:
    """The session's state: exit 0 when every accepted finding is verified, escalated or
    dismissed (and none is waiting to be accepted), 3 while work remains."""
    summary = machine.summarize(session.Session(state).load())
    out = kit.streams().stdout
    out.write(kit.dumps(summary) if as_json else machine.render_status(summary).encode())
    return kit.EXIT_OK if summary["complete"] else kit.EXIT_CONDITION
