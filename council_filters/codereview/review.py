"""``run`` and ``rereview``: the six reviewers on a change, then on its corrections.

``run``: collect the context (a blocking gap stops), run the hybrid origins' scripts under
their opt-ins, send one pack per origin to its configured reviewer (all at once), verify and
re-ask, apply the universal rules, consolidate with stable IDs, write the report and add the
findings to the state (created when missing).

``rereview``: compute the scope from the state alone; re-run only the origins whose findings
were fixed, on the files and lines the correctors touched; settle each finding (verified or
reopened), add fix-induced findings with fresh IDs, and freeze what ran out of attempts.
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from council_filters.base import childenv
from council_filters.base import diffs as diffparse
from council_filters.codereview import answers, ask, packs, references, session
from council_filters.consolidate import core as consolidation
from council_filters.consolidate import grouping
from council_filters.consolidate.finding import SourceReader
from council_filters.context import collect, render
from council_filters.context import stack as stk
from council_filters.council import scope as snapshots
from council_filters.pack.git import GitRepo
from council_filters.scan import core as scan
from council_filters.scan import secrets
from council_filters.state import machine
from council_filters.testrun import run as testrun

Record = dict[str, Any]
Lines = dict[str, set[int]]
Say = Callable[[str], None]
EXIT_OK, EXIT_CONDITION = 0, 3


@dataclass(frozen=True)
class Reviewers:
    """Who answers for each origin, and how to run them."""

    origins: Mapping[str, str]  # origin -> reviewer name
    commands: Mapping[str, str]  # reviewer name -> shell command
    caller: ask.Caller
    refs: Mapping[str, references.Reference]


@dataclass(frozen=True)
class RunOptions:
    repo: str
    state: str
    scope: str = "base"
    base: str | None = None
    commit: str | None = None
    committed: bool = False
    task: str | None = None
    spec: str | None = None
    run_tests: bool = False
    run_audit: bool = False
    test_cmd: str | None = None
    test_timeout: float = 600.0
    keep_env: tuple[str, ...] = ()  # variables passed to the test command besides the trimmed set


@dataclass
class Outcome:
    code: int = EXIT_OK
    report: str = ""
    records: list[Record] = field(default_factory=list)


# --------------------------------------------------------------------------- #
# Diffs and lines.
# --------------------------------------------------------------------------- #
def added_lines(diff: bytes) -> Lines:
    out: Lines = {}
    for f in diffparse.parse(diff):
        if f.binary or f.deleted:
            continue
        out[f.path] = {n for n, _ in f.added}
    return out


def split_diff(diff: bytes) -> list[tuple[str, bytes]]:
    """The diff cut into per-file pieces, each with the path it changes."""
    pieces: list[bytes] = []
    for line in diff.splitlines(keepends=True):
        if line.startswith(b"diff --git ") or not pieces:
            pieces.append(line)
        else:
            pieces[-1] += line
    out = []
    for piece in pieces:
        files = diffparse.parse(piece)
        if files:
            out.append((files[0].path, piece))
    return out


def hunks_for(diff: bytes, paths: Iterable[str]) -> bytes:
    wanted = set(paths)
    return b"".join(piece for path, piece in split_diff(diff) if path in wanted)


def repo_relative(path: str) -> bool:
    """A path that stays inside the repository (relative, no ``..``, no NUL)."""
    return bool(path) and not (path.startswith("/") or "\0" in path or ".." in path.split("/"))


def tree_diff(git: GitRepo, before: str, after: str, paths: Sequence[str] = ()) -> bytes:
    return git.out("diff", "--no-color", "--no-ext-diff", "-M", before, after, "--", *paths)


# --------------------------------------------------------------------------- #
# Scripts.
# --------------------------------------------------------------------------- #
def security_script(diff: bytes, root: Path, run_audit: bool) -> Record:
    facts = collect.gather(str(root))
    tree = stk.Tree(facts.files, collect.reader(facts.root))
    # council-scan's own defaults: the extended credential rules when installed.
    result = scan.scan(diff, root, tree, audit_deps=run_audit, detect=secrets.detector(None))
    notes = [f"{s.layer} skipped ({s.reason})" for s in result.skipped]
    return {"findings": result.findings, "skipped_layers": notes}


def tests_script(root: Path, context: Mapping[str, Any], opts: RunOptions, say: Say) -> Record:
    if not opts.run_tests:
        return {"findings": [], "skipped": "the change's tests were not run (--run-tests runs"
                " them: they execute code from the repository under review)"}
    outcomes, _limit = testrun.run_context(
        root, context, testrun.Settings(timeout=opts.test_timeout), test_cmd=opts.test_cmd,
        warn=say, env_base=childenv.trimmed(keep=opts.keep_env))
    if not outcomes:
        return {"findings": [], "skipped": "no test command was found (give --test-cmd)"}
    findings = sorted((f for o in outcomes for f in o.findings), key=testrun.sort_key)
    return {"findings": findings, "runs": [o.record() for o in outcomes]}


# --------------------------------------------------------------------------- #
# Consolidation.
# --------------------------------------------------------------------------- #
def consolidate(records: Sequence[Record], root: str, rev: str, state: Record | None,
                changed: Sequence[str] | None, diff: bytes = b"",
                ) -> tuple[consolidation.Result, SourceReader]:
    """Consolidate with stable IDs (continuing ``state``), after the evidence check: each
    reviewer's quoted evidence is looked for in the file at ``rev`` and the finding moved to
    where the quote is (script findings carry the tool's own output, not a quote)."""
    reader = SourceReader(root, rev)
    stream = (("code-review", i, rec) for i, rec in enumerate(records, start=1))
    collected = consolidation.collect(stream, reader)
    files = diffparse.parse(diff)
    consolidation.check_evidence(collected.findings, reader.files, files)
    if files:
        consolidation.classify_changes(collected.findings, files)
    return consolidation.consolidate(collected, state=state, changed=changed), reader


# --------------------------------------------------------------------------- #
# run
# --------------------------------------------------------------------------- #
def _question(origin: str, who: Reviewers, pack: str, lines: Mapping[str, set[int]]
              ) -> ask.Question:
    name = who.origins[origin]
    return ask.Question(origin, name, who.commands[name], pack, lines)


def _readiness(context: Mapping[str, Any]) -> str | None:
    """What to supply when the context blocks the review (None: it does not)."""
    if context.get("readiness") != "blocking":
        return None
    reason = next((n for n in context.get("notes") or [] if n.startswith("no diff")), "no diff")
    return (f"{reason}: give the change to review (--base REF, --worktree, --staged or"
            " --commit SHA)")


def _header(context: Mapping[str, Any], scripts: Mapping[str, Record],
            asked: Sequence[ask.Asked], dropped: Mapping[str, answers.Filtered]) -> str:
    rows = ["# Code review", "", render.context_map(dict(context)).rstrip(), "",
            "## Reviewers", "", "| origin | reviewer | attempts | result |", "|---|---|---|---|"]
    for a in asked:
        if a.failed:
            result = f"did not answer: {render.text(a.failed)}"
        else:
            f = dropped[a.origin]
            result = f"{len(f.kept)} finding(s)" + (
                f"; {f.low_confidence} below confidence 0.8 left out" if f.low_confidence else ""
            ) + (f"; {f.outside} not on an added line left out" if f.outside else "") + (
                "" if a.valid else "; answer did not validate, last attempt kept")
        rows.append(f"| {a.origin} | {a.reviewer} | {a.attempts} | {result} |")
    rows += ["", "## Scripts", ""]
    for origin, rec in scripts.items():
        if rec.get("skipped"):
            rows.append(f"- {origin}: skipped: {rec['skipped']}")
        else:
            rows.append(f"- {origin}: {len(rec.get('findings') or [])} finding(s)")
        for note in rec.get("skipped_layers") or []:
            rows.append(f"- {origin}: {note}")
    return "\n".join(rows) + "\n\n"


def _collect(root: Path, opts: RunOptions, task: str | None) -> tuple[dict[str, Any], bytes]:
    return collect.collect_with_diff(collect.Options(
        repo=str(root), base=opts.base, spec=opts.spec, task=task,
        committed=opts.committed, scope=opts.scope, commit=opts.commit,
        test_cmd=opts.test_cmd))


def run(opts: RunOptions, who: Reviewers, say: Say,
        ask_task: Callable[[], str | None] | None = None) -> Outcome:
    """``ask_task``: how to ask the user for the task when neither a spec nor a task was
    found (the readiness gate asks only for what is missing); None: go on without."""
    git = GitRepo.discover(opts.repo)
    root = Path(git.root)
    context, diff = _collect(root, opts, opts.task)
    say(render.context_map(context).rstrip())
    blocked = _readiness(context)
    if blocked:
        say(f"stopped: {blocked}")
        return Outcome(EXIT_CONDITION)
    if context.get("readiness") == "critical":
        task = ask_task() if ask_task is not None else None
        if task:
            context, diff = _collect(root, opts, task)
        else:
            say("warning: no spec and no task: the requirements reviewer sees only the diff"
                " (give --task TEXT or --spec DIR)")
    rev = context["head"]["commit"] if opts.scope == "commit" else snapshots.snapshot_tree(
        git, add_all=opts.scope != "staged")
    lines = added_lines(diff)
    scripts = {
        "security": security_script(diff, root, opts.run_audit),
        "tests": tests_script(root, context, opts, say),
    }
    for origin, rec in scripts.items():
        if rec.get("skipped"):
            say(f"{origin} script skipped: {rec['skipped']}")
        for note in rec.get("skipped_layers") or []:
            say(f"{origin} script: {note}")
    questions = []
    for origin in references.ORIGINS:
        part = packs.context_slice(origin, context, root, scripts)
        pack = packs.review_pack(origin, who.refs[origin].text,
                                 who.refs[references.CONTRACT].text, part, diff, lines)
        questions.append(_question(origin, who, pack, lines))
    asked = ask.ask_all(who.caller, questions)
    records: list[Record] = []
    dropped: dict[str, answers.Filtered] = {}
    for rec in scripts.values():
        records.extend(rec.get("findings") or [])
    for a in asked:
        for warning in a.warnings:
            say(f"{a.origin} ({a.reviewer}): {warning}")
        if a.failed:
            say(f"{a.origin} ({a.reviewer}) did not answer: {a.failed}")
        filtered = answers.universal_rules(a.findings, lines)
        dropped[a.origin] = filtered
        records.extend(filtered.kept)
    sess = session.Session(opts.state)
    prior = _existing(sess)
    changed = [f["path"] for f in context["diff"]["files"]]
    result, reader = consolidate(records, str(root), rev, prior, changed, diff)
    for note in result.collected.warnings:
        say(note)
    found = [c.record() for c in result.items]
    sess.ensure()
    sess.write(session.DIFF, diff)
    added = sess.create_or_add(context, [("code-review", i, r) for i, r in
                                         enumerate(found, start=1)])
    del added
    report = _header(context, scripts, asked, dropped) + consolidation.review_markdown_bytes(
        result, reader).decode("utf-8")
    report_path = sess.write(session.REPORT, report.encode("utf-8"))
    meta = _meta_or_new(sess)
    meta.update({
        "root": str(root), "scope": opts.scope, "base": context.get("base"),
        "merge_base": context.get("merge_base"), "rev": rev,
        "origins": dict(who.origins), "run_tests": opts.run_tests,
        "run_audit": opts.run_audit, "test_cmd": opts.test_cmd, "report": report_path,
    })
    sess.save_meta(meta)
    say(f"{len(found)} finding(s); report: {report_path}; state: {opts.state}")
    return Outcome(EXIT_OK, report, found)


def _existing(sess: session.Session) -> Record | None:
    return sess.load() if os.path.exists(sess.path) else None


def _meta_or_new(sess: session.Session) -> dict[str, Any]:
    if sess.read(session.META) is None:
        return {"fix_rounds": []}
    return sess.meta()


# --------------------------------------------------------------------------- #
# rereview
# --------------------------------------------------------------------------- #
MATCH_WINDOW = 3


def _same_problem(new: Mapping[str, Any], old: Mapping[str, Any]) -> bool:
    if new.get("file") != old.get("file"):
        return False
    a, b = new.get("line"), old.get("line")
    if not (isinstance(a, int) and isinstance(b, int) and abs(a - b) <= MATCH_WINDOW):
        return False
    text_a = " ".join(str(new.get(k) or "") for k in ("subject", "summary"))
    text_b = " ".join(str(old.get(k) or "") for k in ("subject", "summary"))
    return grouping.similarity(text_a, text_b) >= grouping.THRESHOLD


def _covers(finding: Mapping[str, Any], origin: str) -> bool:
    return origin == finding.get("origin") or origin in (finding.get("merged_origins") or [])


def _script_still_present(finding: Mapping[str, Any], current: Sequence[Record]) -> bool:
    """The same script problem in a new run: a failing test by its identifier, anything
    else by rule and file."""
    if finding.get("rule") == "test-failure" and finding.get("test"):
        return any(f.get("rule") == "test-failure" and f.get("test") == finding["test"]
                   for f in current)
    return any(f.get("rule") == finding.get("rule") and f.get("file") == finding.get("file")
               for f in current)


def rerun_tests(root: Path, context: Mapping[str, Any], findings: Sequence[Record],
                timeout: float, say: Say, keep_env: Sequence[str] = ()) -> list[Record]:
    """Run the tests again for the test script's findings under re-review: with pytest and
    only failing tests in scope, exactly those tests (by node ID); else the whole suite."""
    runs = testrun.runs_of(context)
    nodes = [f["test"] for f in findings if f.get("rule") == "test-failure"
             and isinstance(f.get("test"), str)]
    command = None
    if len(runs) == 1 and len(nodes) == len(findings) and runs[0].get("root") in (None, "."):
        first = str(runs[0]["test_cmd"])
        framework = runs[0].get("framework")
        if testrun.is_pytest(first, framework if isinstance(framework, str) else None):
            command = first + " " + " ".join(shlex.quote(n) for n in nodes)
    outcomes, _limit = testrun.run_context(root, context, testrun.Settings(timeout=timeout),
                                           test_cmd=command, warn=say,
                                           env_base=childenv.trimmed(keep=keep_env))
    return [f for o in outcomes for f in o.findings]


@dataclass
class Settled:
    verified: list[str] = field(default_factory=list)
    reopened: list[str] = field(default_factory=list)
    waiting: list[str] = field(default_factory=list)
    induced: list[Record] = field(default_factory=list)
    frozen: list[str] = field(default_factory=list)


def rereview(state_path: str, who: Reviewers, say: Say, *, run_audit: bool | None = None,
             run_tests: bool = False, test_timeout: float = 600.0,
             keep_env: Sequence[str] = ()) -> tuple[int, Settled]:
    sess = session.Session(state_path)
    meta = sess.meta()
    scoped = sess.transact(lambda st: machine.scope(st, session.now()))
    record = scoped.output[0]
    for fid in record["escalated"]:
        say(f"{fid}: out of attempts: escalated (frozen)")
    settled = Settled(frozen=list(record["escalated"]))
    if not record["findings_in_scope"]:
        say("nothing to re-review: no fixed finding is waiting")
        return EXIT_OK, settled
    git = GitRepo.discover(meta["root"])
    root = Path(git.root)
    rounds = [r for r in meta.get("fix_rounds") or [] if not r.get("reviewed")]
    # Fixes recorded by other means than `fix`: the correction is all since the review.
    before = rounds[0]["before"] if rounds else meta["rev"]
    now_tree = snapshots.snapshot_tree(git)
    files = [p for p in record["files_to_inspect"] if repo_relative(p)]
    correction = tree_diff(git, before, now_tree, files)
    touched = added_lines(correction)
    state = sess.load()
    in_scope = [f for f in state["findings"] if f["id"] in set(record["findings_in_scope"])]
    # Findings under re-review may be reported again at their own line.
    lines: Lines = {p: set(n) for p, n in touched.items()}
    for f in in_scope:
        if isinstance(f.get("file"), str) and isinstance(f.get("line"), int):
            lines.setdefault(f["file"], set()).add(f["line"])
    origins = [o for o in references.ORIGINS if o in record["reviewers_to_rerun"]]
    questions = []
    for origin in origins:
        mine = [f for f in in_scope if _covers(f, origin)]
        pack = packs.rereview_pack(origin, who.refs[origin].text,
                                   who.refs[references.CONTRACT].text, mine, correction, lines)
        questions.append(_question(origin, who, pack, lines))
    asked = {a.origin: a for a in ask.ask_all(who.caller, questions)}
    present: set[str] = set()
    unsettled: set[str] = set()
    new: list[Record] = []
    base = meta.get("merge_base") or meta.get("base")
    audit = meta.get("run_audit", False) if run_audit is None else run_audit
    current_scan: list[Record] | None = None
    if any(f.get("source") == "script" and f.get("origin") == "security" for f in in_scope):
        full = tree_diff(git, base, now_tree, files) if isinstance(base, str) else correction
        current_scan = security_script(full, root, bool(audit))["findings"]
        for f in security_script(correction, root, bool(audit))["findings"]:
            if not any(_script_still_present(f, [g]) for g in in_scope):
                new.append(f)
    test_findings = [f for f in in_scope if f.get("source") == "script"
                     and f.get("origin") == "tests"]
    current_tests: list[Record] | None = None
    if test_findings and run_tests:
        current_tests = rerun_tests(root, state.get("context") or {}, test_findings,
                                    test_timeout, say, keep_env)
        known = [f for f in state["findings"] if f.get("origin") == "tests"]
        new += [f for f in current_tests if f.get("rule") == "test-failure"
                and not _script_still_present(f, known)]  # a test the fix broke
    for f in in_scope:
        if f.get("source") == "script":
            current = current_scan if f.get("origin") == "security" else current_tests
            if current is not None:
                if _script_still_present(f, current):
                    present.add(f["id"])
            else:
                unsettled.add(f["id"])
                say(f"{f['id']}: a test script finding: settled only by running the tests"
                    " again (--run-tests); left in re-review")
            continue
        for origin in [o for o in origins if _covers(f, o)]:
            a = asked.get(origin)
            if a is None or a.failed:
                unsettled.add(f["id"])
    for origin, a in asked.items():
        for warning in a.warnings:
            say(f"{origin} ({a.reviewer}): {warning}")
        if a.failed:
            say(f"{origin} ({a.reviewer}) did not answer: {a.failed}; its findings stay in"
                " re-review")
            continue
        covered = {f["id"]: f for f in in_scope if _covers(f, origin)}
        kept = answers.universal_rules(a.findings, lines).kept
        for rec in kept:
            fid = rec.get("id")
            match = fid if isinstance(fid, str) and fid in covered else next(
                (i for i, f in covered.items() if _same_problem(rec, f)), None)
            if match is not None:
                if covered[match].get("source") != "script":  # the script settles its own
                    present.add(match)
            elif rec.get("line") in touched.get(str(rec.get("file")), set()):
                new.append({k: v for k, v in rec.items() if k != "id"})
            else:
                say(f"{origin}: a finding outside the corrected lines was left out")
    outcomes: list[Record] = []
    for f in in_scope:
        if f["id"] in unsettled and f["id"] not in present:
            settled.waiting.append(f["id"])
            continue
        outcome = "reopened" if f["id"] in present else "verified"
        (settled.reopened if outcome == "reopened" else settled.verified).append(f["id"])
        outcomes.append({"id": f["id"], "outcome": outcome})
    induced_records = [_induced(rec) for rec in _merged(new, str(root), now_tree)]
    located = [("rereview", i, r) for i, r in enumerate(outcomes + induced_records, start=1)]
    result = sess.transact(lambda st: machine.verify(st, located, session.now()))
    settled.induced = result.output
    frozen = sess.transact(lambda st: machine.scope(st, session.now())).output[0]["escalated"]
    settled.frozen += frozen
    if not settled.waiting:
        for r in rounds:
            r["reviewed"] = True
        sess.save_meta(meta)
    for fid in settled.verified:
        say(f"{fid}: verified (the fix is confirmed)")
    for fid in settled.reopened:
        say(f"{fid}: reopened (still present)")
    for fid in frozen:
        say(f"{fid}: failed verification twice: escalated (frozen, no third attempt)")
    for rec in settled.induced:
        where = f"{rec.get('file')}:{rec.get('line')}"
        say(f"FIX-INDUCED {rec['id']} at {where}: {rec.get('subject') or rec.get('summary')}"
            " (introduced by a correction; open, accept it to have it fixed)")
    if settled.waiting:
        say(f"still in re-review: {' '.join(settled.waiting)}")
    return (EXIT_CONDITION if settled.waiting else EXIT_OK), settled


def _merged(new: Sequence[Record], root: str, rev: str) -> list[Record]:
    """New findings consolidated among themselves (a script's and a reviewer's finding of
    one problem become one)."""
    if not new:
        return []
    result, _reader = consolidate(new, root, rev, None, None)
    drop = ("id", "group", "merged_count", "fingerprint", "members")
    return [{k: v for k, v in c.record().items() if k not in drop} for c in result.items]


def _induced(rec: Mapping[str, Any]) -> Record:
    keep = {k: v for k, v in rec.items() if k not in ("id", "kind")}
    return {"kind": "finding", **keep, "fix_induced": True}
