"""The chain a council runs, as real processes joined by pipes.

Why processes and not function calls: the chain is, by design, the same one a
shell pipe or ``make council`` runs (pack | redact | dispatch | redact | fence
| parse-verdict | consolidate), with each filter's own defaults; running the
filters as they are installed keeps the two identical, lets the stages work at
the same time, isolates a stage that dies (its exit code is reported, the rest
of the chain is not trusted), and keeps the reviewers' output and their
credentials-bearing environment out of this process.  The stages from pack to
parse-verdict are joined by OS pipes; the verdict records are collected here
(the gates need them) and handed to council-consolidate once every earlier
stage has ended well, so a broken chain never writes a report.
"""

from __future__ import annotations

import contextlib
import importlib.util
import subprocess
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import IO, Any

import orjson

from council_filters.base import gitcmd, pyproc, safefs
from council_filters.pack.git import GitRepo

# The filters, as the modules their installed executables run.
_MODULES = {
    "pack": "council_filters.cli.pack",
    "redact": "council_filters.cli.redact",
    "dispatch": "council_filters.cli.dispatch",
    "fence": "council_filters.cli.fence",
    "parse-verdict": "council_filters.cli.parse_verdict",
    "consolidate": "council_filters.cli.consolidate",
}


def filter_argv(name: str, *args: str) -> list[str]:
    """How to run ``council-<name>``: this interpreter, the filter's module, isolated
    from the working directory (the reviewed repository)."""
    return pyproc.module_argv(_MODULES[name], *args)


def extended_rules_available() -> bool:
    """Whether this install has the extended credential rules (``--rules extended``)."""
    return importlib.util.find_spec("council_filters.redaction.secrets") is not None


@dataclass(frozen=True)
class Plan:
    """One council run, decided by the shell; everything here is already validated."""

    pack_args: tuple[str, ...]  # mode and its arguments, e.g. ("review", "--base", "main")
    reviewers: tuple[str, ...]
    commands_file: str
    root: str
    redact_pack: bool = True
    extended_rules: bool = False
    consolidate_args: tuple[str, ...] = ()
    file_reviewers: tuple[str, ...] = ()
    sarif: str | None = None  # also write the findings as SARIF here
    json: str | None = None  # also write the consolidation JSON document here
    dispatch_args: tuple[str, ...] = ()  # cache and budget options for council-dispatch
    report_path: str | None = None  # the report's name, as the JSON document gives it
    # The reviewed revision and diff base for consolidate's evidence check and change
    # classification (``--rev``, ``--base``), so it reads the files the pack showed.
    review_args: tuple[str, ...] = ()
    rdjsonl: str | None = None  # ... and as reviewdog diagnostics here
    codequality: str | None = None  # ... and as a GitLab Code Quality report here

    def stages(self) -> list[tuple[str, list[str]]]:
        names = ",".join(self.reviewers)
        mode, rest = self.pack_args[0], self.pack_args[1:]
        pack = filter_argv(
            "pack",
            mode,
            "--repo",
            self.root,
            "--reviewers",
            names,
            "--file-reviewers",
            ",".join(self.file_reviewers),
            *rest,  # last: it may end with `-- WORDS...`
        )
        out = [("pack", pack)]
        rules = ("--rules", "extended") if self.extended_rules else ()
        if self.redact_pack:
            out.append(("redact", filter_argv(
                "redact", "--jsonl", "--field", "pack", "--keep-shape", *rules)))
        out += [
            (
                "dispatch",
                filter_argv("dispatch", "--config", self.commands_file, "--cwd", self.root,
                            *self.dispatch_args),
            ),
            ("redact", filter_argv("redact", "--jsonl", *rules)),
            ("fence", filter_argv("fence", "--jsonl")),
            ("parse-verdict", filter_argv("parse-verdict", "--jsonl")),
        ]
        return out

    def consolidate(self) -> list[str]:
        return filter_argv(
            "consolidate",
            "--write",
            "--root",
            self.root,
            "--repo",
            self.root,
            "--slots",
            ",".join(self.reviewers),
            *self.review_args,
            *self.consolidate_args,
        )


@dataclass
class Outcome:
    """How the chain ended."""

    failed_stage: str | None = None  # the first stage that exited non-zero
    stage_code: int = 0
    records: list[dict[str, Any]] = field(default_factory=list)  # verdict records
    consolidate_code: int | None = None
    report: bytes = b""  # what consolidate printed (the inline synthesis)
    notes: bytes = b""  # what consolidate said on stderr (warnings, the gate's findings)


def _pipe(
    stages: Sequence[tuple[str, list[str]]],
    feed: IO[bytes] | int | bytes,
    env: dict[str, str],
    cwd: str,
    on_line: Callable[[bytes], None] | None = None,
) -> tuple[bytes, str | None, int]:
    """Run ``stages`` joined by OS pipes over ``feed`` (a stream, a descriptor or bytes);
    what the last one printed and the first stage that exited non-zero (None) and its
    code.  Every process is ended (killed when still running) before this returns."""
    procs: list[tuple[str, subprocess.Popen[bytes]]] = []
    data = feed if isinstance(feed, bytes) else None
    source: IO[bytes] | int = subprocess.PIPE if data is not None else feed  # type: ignore[assignment]
    writer: threading.Thread | None = None
    try:
        for name, argv in stages:
            proc = subprocess.Popen(argv, stdin=source, stdout=subprocess.PIPE, cwd=cwd,
                                    env=env)
            if procs:
                prev = procs[-1][1].stdout
                assert prev is not None
                prev.close()  # the next stage holds its own copy of the pipe
            elif data is not None:
                assert proc.stdin is not None
                writer = threading.Thread(target=_feed, args=(proc.stdin, data), daemon=True)
                writer.start()
            procs.append((name, proc))
            assert proc.stdout is not None
            source = proc.stdout
        upstream = procs[-1][1].stdout
        assert upstream is not None
        try:
            chunks = []
            for line in upstream:  # records come through as their reviewers end
                chunks.append(line)
                if on_line is not None:
                    on_line(line)
            collected = b"".join(chunks)
        finally:
            upstream.close()
        failed: str | None = None
        code = 0
        for name, proc in procs:
            rc = proc.wait()
            if rc != 0 and failed is None:
                failed, code = name, rc
        return collected, failed, code
    finally:
        for _name, proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        if writer is not None:
            writer.join()


def _feed(stream: IO[bytes], data: bytes) -> None:
    with contextlib.suppress(OSError):
        stream.write(data)
        stream.close()


def _unreadable(rec: dict[str, Any], stage: str, code: int) -> bytes:
    """A reviewer's dispatch record whose answer broke a stage, as an ERROR with a reason
    and no answer: one reviewer's problem, not the council's."""
    out = dict(rec)
    reason = f"the answer could not be read (council-{stage} failed, exit {code})"
    out.update(output="", stderr=reason, status="ERROR", exit_code=code, summary=reason,
               error_kind="unreadable-answer")
    return orjson.dumps(out) + b"\n"


def _post_each(
    stages: Sequence[tuple[str, list[str]]], dispatched: bytes, env: dict[str, str], cwd: str,
) -> tuple[bytes, str | None, int]:
    """The post-dispatch stages once per reviewer record: a record that breaks one is
    replaced by its ERROR record, the others go on."""
    parts: list[bytes] = []
    for line in dispatched.splitlines(keepends=True):
        if not line.strip():
            continue
        out, failed, code = _pipe(stages, line, env, cwd)
        if failed is not None:
            try:
                rec = orjson.loads(line)
            except orjson.JSONDecodeError:
                return out, failed, code
            if not isinstance(rec, dict):
                return out, failed, code
            out, again, code2 = _pipe(stages, _unreadable(rec, failed, code), env, cwd)
            if again is not None:
                return out, again, code2
        parts.append(out)
    return b"".join(parts), None, 0


def run(
    plan: Plan,
    *,
    stdin: IO[bytes] | int | None = None,
    progress: Callable[[float, frozenset[str]], None] | None = None,
    tick: float = 1.0,
) -> Outcome:
    """Run the chain; ``progress(elapsed, done)`` is called every ``tick`` seconds until
    the reviewers' records arrive (``done``: the reviewers whose record came through).
    Stage diagnostics go to this process's stderr.

    The stages up to dispatch and those after it run as two pipes; when a stage after
    dispatch fails (one reviewer's answer it cannot take), they run again once per
    reviewer record, and a record that still breaks one becomes that reviewer's ERROR
    with the reason: the other reviewers and the report are not lost."""
    feed: IO[bytes] | int = stdin if stdin is not None else subprocess.DEVNULL
    # every git a stage or a reviewer runs in the checkout gets the overrides, its filter
    # drivers off too
    env = gitcmd.config_env(pyproc.child_env(), GitRepo(plan.root).filter_overrides())
    stages = plan.stages()
    cut = next(i for i, (name, _) in enumerate(stages) if name == "dispatch") + 1
    done = threading.Event()
    finished: set[str] = set()
    if progress is not None:
        start = time.monotonic()

        def ticker() -> None:
            while not done.wait(tick):
                progress(time.monotonic() - start, frozenset(finished))

        threading.Thread(target=ticker, daemon=True).start()

    def seen(line: bytes) -> None:
        if progress is not None:
            with contextlib.suppress(orjson.JSONDecodeError):
                rec = orjson.loads(line)
                if isinstance(rec, dict) and isinstance(rec.get("reviewer"), str):
                    finished.add(rec["reviewer"])

    out = Outcome()
    try:
        dispatched, failed, code = _pipe(stages[:cut], feed, env, plan.root, seen)
        if failed is not None:
            out.failed_stage, out.stage_code = failed, code
            return out
        collected, failed, code = _pipe(stages[cut:], dispatched, env, plan.root)
        if failed is not None:
            collected, failed, code = _post_each(stages[cut:], dispatched, env, plan.root)
        if failed is not None:
            out.failed_stage, out.stage_code = failed, code
            return out
    finally:
        done.set()
    out.records = [
        rec
        for line in collected.splitlines()
        if line.strip()
        for rec in [orjson.loads(line)]
        if isinstance(rec, dict) and rec.get("kind") == "reviewer"
    ]
    json_doc = _side_output(plan, plan.json, ("--format", "json", "--slots",
                                              ",".join(plan.reviewers)), collected, env)
    res = subprocess.run(plan.consolidate(), input=collected, capture_output=True,
                         cwd=plan.root, env=env)
    out.consolidate_code = res.returncode
    out.report = res.stdout
    out.notes = res.stderr
    if res.returncode not in (0, 3):
        return out
    sides = [(plan.json, json_doc)] + [
        (target, _side_output(plan, target, ("--format", fmt), collected, env))
        for fmt, target in (("sarif", plan.sarif), ("rdjsonl", plan.rdjsonl),
                            ("codequality", plan.codequality))
    ]
    for target, doc in sides:
        if target is None or doc is None:
            continue
        if doc.returncode in (0, 3):
            data = doc.stdout if target is not plan.json else _named_report(plan, doc.stdout)
            safefs.replace(target, data, mode=0o644)
        else:
            out.consolidate_code = doc.returncode
    return out


def _named_report(plan: Plan, data: bytes) -> bytes:
    """The JSON document with the report's reserved name as its ``report_path``."""
    doc = orjson.loads(data)
    synth = doc.get("synthesis") if isinstance(doc, dict) else None
    if plan.report_path is None or not isinstance(synth, dict):
        return data
    synth["report_path"] = plan.report_path
    return orjson.dumps(doc, option=orjson.OPT_INDENT_2) + b"\n"


def _side_output(
    plan: Plan, target: str | None, args: tuple[str, ...], collected: bytes,
    env: dict[str, str],
) -> subprocess.CompletedProcess[bytes] | None:
    """council-consolidate in another format over the same records (None: not asked)."""
    if target is None:
        return None
    return subprocess.run(
        filter_argv("consolidate", *args, "--repo", plan.root, *plan.review_args),
        input=collected, stdout=subprocess.PIPE, cwd=plan.root, env=env)


def stage_names(plan: Plan) -> Sequence[str]:
    return [name for name, _ in plan.stages()]
