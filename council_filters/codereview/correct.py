"""``fix``: one corrector per origin with findings to fix, run with write access.

Correctors whose findings point into disjoint files run at the same time; correctors that
share a file run one after the other (each batch starts from what the previous one left).
Each gets its findings (full JSON), the diff hunks they point into and the correction rules,
and answers per finding ``{"id", "outcome": "fixed" | "escalated", "files_touched",
"reason"}``.  The outcomes are recorded in the state.  What changed in the work tree is read
from snapshots before and after each batch, so a corrector that edits a file it did not
declare is reported.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from council_filters.codereview import ask, packs, references, review, session
from council_filters.council import scope as snapshots
from council_filters.dispatch import outcome as dout
from council_filters.pack.git import GitRepo
from council_filters.state import machine
from council_filters.verdict import reviewer_json

Record = dict[str, Any]
Say = Callable[[str], None]
NAME = "corrector"


@dataclass
class Plan:
    origin: str
    findings: list[Record]

    @property
    def files(self) -> set[str]:
        return {f["file"] for f in self.findings if isinstance(f.get("file"), str)}


def to_fix(state: Mapping[str, Any]) -> list[Record]:
    return [f for f in state["findings"] if not f["frozen"] and (
        f["status"] == "accepted" or (
            f["status"] == "reopened" and f["fix_attempts"] < machine.MAX_FIX_ATTEMPTS))]


def plans(findings: Sequence[Record]) -> list[Plan]:
    by_origin: dict[str, list[Record]] = {}
    for f in findings:
        by_origin.setdefault(f["origin"], []).append(f)
    order = {o: i for i, o in enumerate(references.ORIGINS)}
    return [Plan(o, by_origin[o]) for o in sorted(by_origin, key=lambda o: (order.get(o, 99), o))]


def batches(items: Sequence[Plan]) -> list[list[Plan]]:
    """Plans grouped so that no two in a batch share a file (a plan naming no file runs alone)."""
    out: list[list[Plan]] = []
    for plan in items:
        if not plan.files:
            out.append([plan])
            continue
        for batch in out:
            if all(p.files and not (p.files & plan.files) for p in batch):
                batch.append(plan)
                break
        else:
            out.append([plan])
    return out


@dataclass
class Answer:
    outcomes: list[Record] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def read_answer(text: str, ids: Sequence[str]) -> Answer:
    """The corrector's per-finding outcomes; what is wrong is said, without quoting it."""
    out = Answer()
    try:
        value = reviewer_json.extract(text)
    except reviewer_json.ExtractError as exc:
        out.problems.append(str(exc))
        return out
    if isinstance(value, dict) and isinstance(value.get("results"), list):
        value = value["results"]
    if not isinstance(value, list):
        out.problems.append("the answer is not a JSON array of outcomes")
        return out
    seen: set[str] = set()
    for i, item in enumerate(value):
        fid = item.get("id") if isinstance(item, dict) else None
        if not isinstance(item, dict) or fid not in ids:
            out.problems.append(f"/{i}: not an outcome for one of its findings")
            continue
        if fid in seen:
            out.problems.append(f"/{i}: a second outcome for {fid}")
            continue
        outcome = item.get("outcome")
        files = item.get("files_touched", [])
        reason = item.get("reason")
        if outcome not in machine.FIX_OUTCOMES:
            out.problems.append(f"/{i}: {fid}: outcome must be fixed or escalated")
            continue
        if not (isinstance(files, list) and all(isinstance(p, str) and p for p in files)):
            out.problems.append(f"/{i}: {fid}: files_touched must be an array of paths")
            continue
        inside = [p for p in files if review.repo_relative(p)]
        if len(inside) != len(files):
            out.problems.append(f"/{i}: {fid}: files_touched names a path outside the"
                                " repository (left out)")
        files = inside
        if reason is not None and not isinstance(reason, str):
            reason = None
        assert isinstance(fid, str)
        seen.add(fid)
        out.outcomes.append({"id": fid, "outcome": outcome,
                             "files_touched": [p.removeprefix("./") for p in files],
                             "reason": ask.redact(reason) if reason else reason})
    return out


@dataclass
class FixReport:
    recorded: list[Record] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    undeclared: list[Record] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)


def _changed(git: GitRepo, before: str, after: str) -> set[str]:
    raw = git.out("diff", "--name-only", "-z", "--no-renames", before, after)
    return {p.decode("utf-8", "surrogateescape") for p in raw.split(b"\0") if p}


def fix(state_path: str, shell: str, caller: ask.Caller,
        refs: Mapping[str, references.Reference], say: Say) -> tuple[int, FixReport]:
    sess = session.Session(state_path)
    meta = sess.meta()
    state = sess.load()
    report = FixReport()
    work = to_fix(state)
    if not work:
        say("nothing to fix: no accepted or reopened finding is waiting for a correction")
        return 0, report
    git = GitRepo.discover(meta["root"])
    diff = sess.read(session.DIFF) or b""
    rules = refs[references.CORRECTION].text
    first = before = snapshots.snapshot_tree(git)
    for batch in batches(plans(work)):
        names = ", ".join(p.origin for p in batch)
        say(f"correcting: {names}" + (" (at the same time)" if len(batch) > 1 else ""))

        def one(plan: Plan) -> tuple[Plan, dout.Result]:
            hunks = review.hunks_for(diff, plan.files)
            pack = packs.corrector_pack(plan.origin, rules, plan.findings, hunks)
            return plan, caller.call(NAME, shell, plan.origin, pack)

        with ThreadPoolExecutor(max_workers=len(batch)) as pool:
            results = list(pool.map(one, batch))
        after = snapshots.snapshot_tree(git)
        changed = _changed(git, before, after)
        declared: set[str] = set()
        batch_records: list[Record] = []
        for plan, res in results:
            ids = [f["id"] for f in plan.findings]
            if res.status != dout.OK:
                report.failed.append(plan.origin)
                say(f"corrector for {plan.origin} did not answer: {res.summary or res.status}")
                report.missing += ids
                continue
            answer = read_answer(ask.redact(res.output), ids)
            for problem in answer.problems:
                say(f"corrector for {plan.origin}: {problem}")
            got = {o["id"] for o in answer.outcomes}
            for o in answer.outcomes:
                if o["outcome"] == "fixed" and not o["files_touched"]:
                    o["files_touched"] = sorted(changed & plan.files)
                declared.update(o["files_touched"])
            batch_records += answer.outcomes
            lost = [i for i in ids if i not in got]
            if lost:
                say(f"corrector for {plan.origin} gave no outcome for: {' '.join(lost)}"
                    " (they wait for the next fix)")
                report.missing += lost
        for path in sorted(changed - declared):
            owners = [p.origin for p, _ in results if path in p.files] or [p.origin for p in batch]
            entry = {"file": path, "correctors": owners}
            report.undeclared.append(entry)
            say(f"undeclared edit: {path} was changed but no corrector declared it"
                f" (corrector{'s' if len(owners) > 1 else ''}: {', '.join(owners)})")
        if batch_records:
            located = [("corrector", i, r) for i, r in enumerate(batch_records, start=1)]
            sess.transact(functools.partial(_record, rows=located))
            report.recorded += batch_records
        before = after
    meta.setdefault("fix_rounds", []).append({
        "before": first, "after": before, "reviewed": False,
        "undeclared": report.undeclared,
    })
    sess.save_meta(meta)
    for o in report.recorded:
        tail = f" ({o['reason']})" if o.get("reason") else ""
        say(f"{o['id']}: {o['outcome']}" + (
            f" in {', '.join(o['files_touched'])}" if o["files_touched"] else "") + tail)
    return (3 if report.failed or report.missing else 0), report


def _record(state: machine.State, rows: list[machine.Located]) -> machine.Result:
    return machine.record_fix(state, rows, session.now())

