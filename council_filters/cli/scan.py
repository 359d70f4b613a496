"""council-scan: security-scan, the deterministic security reviewer (thin CLI)."""

from __future__ import annotations

from pathlib import Path

import orjson
import typer

from council_filters.base import script_findings
from council_filters.cli import _shell as kit
from council_filters.context import collect
from council_filters.context import stack as stk
from council_filters.pack.git import GitRepo, check_ref
from council_filters.scan import core, lexical, secrets

HELP = """\
Scan the lines a change adds for credentials, risky code patterns and vulnerable dependencies.

The security reviewer of the code-review flow, deterministic: it reads a unified diff and looks
at the added lines only (context and removed lines never count), writing finding records
(origin "security", source "script", confidence 1.0) sorted by file and line:

\b
  secrets    the redaction rules (council-redact's; the extended set when installed, or
             what --rules names, as council-redact --rules takes it);
             the finding names the rule and the line, never the secret
  lexical    string-built SQL and shell commands, sensitive names in log calls, eval,
             disabled TLS verification (one small table per language, see docs/scan.md)
  audit      only with --audit, when a manifest or lockfile changed: pip-audit,
             npm/pnpm/yarn audit, cargo audit, govulncheck, bundle-audit, composer audit,
             when installed; never in the repository with its package-manager config
             (a scratch copy of the manifest and lockfile, a minimal environment, the
             public registry)

The diff comes from --diff FILE, else git diff --base REF...HEAD, else the base of a --context
object, else stdin.  A layer that cannot run (auditor not installed, no repository) is listed
in "skipped_layers" of the last record (kind "scan"), never an error.  Reads the whole diff
first (not a streaming filter).
"""

EPILOG = (
    kit.exit_code_table()
    + "\n\n"
    + """Examples:

\b
  git diff main...HEAD | council-scan > sec.jsonl
  council-scan --base origin/main --fail-level critical > sec.jsonl || echo "blocking findings"
  council-context --base main > ctx.json && council-scan --context ctx.json > sec.jsonl
  council-scan --diff change.diff | jq -c 'select(.kind=="finding") | [.file,.line]'
"""
)

app = kit.make_app(HELP, EPILOG)


@app.command()
def command(
    diff: str = typer.Option(None, "--diff", metavar="FILE",
                             help="Unified diff to scan ('-' = stdin). Default: see above."),
    base: str = typer.Option(None, "--base", metavar="REF",
                             help="Scan git diff REF...HEAD of the repository. Default: none."),
    context: str = typer.Option(None, "--context", metavar="FILE",
                                help="A council-context object: its base names the diff."
                                " Default: none."),
    repo: str = typer.Option(".", "--repo", "-C", metavar="DIR",
                             help="The repository (for git and the audit). Default: the current"
                             " directory."),
    do_audit: bool = typer.Option(False, "--audit/--no-audit",
                                  help="Run the dependency audit (the stack's auditor, on a"
                                  " scratch copy of the manifest and lockfile, with no project"
                                  " config and no credentials). Default: off."),
    audit_timeout: float = typer.Option(120.0, "--audit-timeout", metavar="SECONDS", min=1,
                                        help="Stop an auditor after this long. Default: 120."),
    fail_level: str = typer.Option(None, "--fail-level", metavar="SEVERITY",
                                   help="Exit 3 when a finding is at or above this severity."
                                   " Default: never."),
    rules: str = typer.Option(None, "--rules", metavar="SPEC",
                              help="Credential rules: default (council-redact's), extended, a"
                              " gitleaks TOML file, or a comma list. Default: extended when"
                              " installed, else default."),
    summary: str = typer.Option(None, "--summary", metavar="FILE",
                                help="Write the last record (kind scan) to FILE, replacing it,"
                                " instead of stdout. Default: stdout."),
    version: bool = kit.version_option(),
) -> int:
    ctx = kit.streams()
    level = script_findings.fail_level(fail_level)
    detect = secrets.detector(rules)
    root = Path(repo)
    if not root.is_dir():
        raise kit.UsageError("not a directory", source=repo)
    git: GitRepo | None
    try:
        git = GitRepo.discover(root)
    except kit.DataError:
        git = None
    worktree: bytes | None = None
    only: set[str] | None = None  # the files the context described (files written since: no)
    if context is not None and base is None and diff is None:
        data = kit.read_all([context], ctx.stdin)
        try:
            value = orjson.loads(data) if data.strip() else {}
        except orjson.JSONDecodeError:
            raise kit.DataError("invalid JSON", source=kit.source_name(context)) from None
        if not isinstance(value, dict):
            raise kit.DataError("context must be a JSON object", source=kit.source_name(context))
        base = value.get("base") if isinstance(value.get("base"), str) else None
        if base is None:
            raise kit.DataError("the context names no base (no diff to scan)",
                                source=kit.source_name(context))
        summary_of_diff = value.get("diff") if isinstance(value.get("diff"), dict) else {}
        since = value.get("merge_base")
        scope = value.get("scope")
        head = value.get("head") if isinstance(value.get("head"), dict) else {}
        if scope in ("staged", "commit") and git:
            # the context's own scope: the index, or one commit against its parent
            diff = "-"
            worktree = collect.collect_with_diff(collect.Options(
                repo=str(git.root), scope=scope, commit=head.get("commit")))[1]
        elif summary_of_diff.get("source") == "worktree" and isinstance(since, str) and git:
            # the context took the work tree's uncommitted changes: so does the scan
            diff = "-"
            worktree = collect.worktree_diff(git, since) or b""
            only = {f["path"] for f in summary_of_diff.get("files") or []
                    if isinstance(f, dict) and isinstance(f.get("path"), str)}
    if worktree is not None:
        text = worktree
    elif diff is not None:
        text = kit.read_all([diff], ctx.stdin)
    elif base is not None:
        check_ref(base)
        if git is None:
            raise kit.DataError("--base needs a git repository", source=repo)
        if not git.verify_commit(base):
            raise kit.DataError(f'base "{base}" is not a commit in this repository')
        text = git.diff(base)
    else:
        text = kit.read_all(["-"], ctx.stdin)
    tree = None
    top = Path(git.root) if git is not None else None
    if top is not None:
        facts = collect.gather(str(top))
        tree = stk.Tree(facts.files, collect.reader(facts.root))
    result = core.scan(text, top, tree, audit_deps=do_audit, timeout=audit_timeout,
                       detect=detect, only=only)
    writer = kit.RecordWriter(ctx.stdout)
    writer.write_all(result.findings)
    script_findings.write_summary(writer, summary, {
        "kind": "scan", "origin": core.ORIGIN, "secret_rules": detect.name,
        "files": result.files, "added_lines": result.added_lines,
        "finding_count": len(result.findings),
        "layers": ["secrets", "lexical", *(["dependency-audit"] if result.audited else [])],
        "audited": result.audited,
        "skipped_layers": [s.record() for s in result.skipped],
        "lexical_rules": sorted({r.id for r in lexical.RULES}),
    })
    return kit.EXIT_CONDITION if script_findings.reaches(result.findings, level) else kit.EXIT_OK


main = kit.main_for(app, "council-scan")


def entry() -> None:
    kit.entry(main)


if __name__ == "__main__":
    entry()
