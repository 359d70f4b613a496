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

import importlib.util
import subprocess
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import IO, Any

import orjson

from council_filters.base import pyproc, safefs

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
    return importlib.util.find_spec("council_filters.secrets") is not None


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
                filter_argv("dispatch", "--config", self.commands_file, "--cwd", self.root),
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


def run(
    plan: Plan,
    *,
    stdin: IO[bytes] | int | None = None,
    progress: Callable[[float], None] | None = None,
    tick: float = 1.0,
) -> Outcome:
    """Run the chain; ``progress(elapsed)`` is called every ``tick`` seconds until the
    reviewers' records arrive.  Stage diagnostics go to this process's stderr."""
    procs: list[tuple[str, subprocess.Popen[bytes]]] = []
    feed: IO[bytes] | int = stdin if stdin is not None else subprocess.DEVNULL
    env = pyproc.child_env()
    try:
        for name, argv in plan.stages():
            proc = subprocess.Popen(argv, stdin=feed, stdout=subprocess.PIPE, cwd=plan.root,
                                    env=env)
            if procs:
                prev = procs[-1][1].stdout
                assert prev is not None
                prev.close()  # the next stage holds its own copy of the pipe
            procs.append((name, proc))
            assert proc.stdout is not None
            feed = proc.stdout
        upstream = procs[-1][1].stdout
        assert upstream is not None
        done = threading.Event()
        if progress is not None:
            start = time.monotonic()

            def ticker() -> None:
                while not done.wait(tick):
                    progress(time.monotonic() - start)

            threading.Thread(target=ticker, daemon=True).start()
        try:
            collected = upstream.read()
        finally:
            done.set()
            upstream.close()
        out = Outcome()
        for name, proc in procs:
            code = proc.wait()
            if code != 0 and out.failed_stage is None:
                out.failed_stage, out.stage_code = name, code
    finally:
        for _name, proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    if out.failed_stage is not None:
        return out
    out.records = [
        rec
        for line in collected.splitlines()
        if line.strip()
        for rec in [orjson.loads(line)]
        if isinstance(rec, dict) and rec.get("kind") == "reviewer"
    ]
    res = subprocess.run(plan.consolidate(), input=collected, capture_output=True,
                         cwd=plan.root, env=env)
    out.consolidate_code = res.returncode
    out.report = res.stdout
    out.notes = res.stderr
    extras = (("sarif", plan.sarif), ("rdjsonl", plan.rdjsonl),
              ("codequality", plan.codequality))
    for fmt, target in extras:
        if target is None or out.consolidate_code not in (0, 3):
            continue
        extra = subprocess.run(
            filter_argv("consolidate", "--format", fmt, "--repo", plan.root),
            input=collected, stdout=subprocess.PIPE, cwd=plan.root, env=env,
        )
        if extra.returncode in (0, 3):
            safefs.replace(target, extra.stdout, mode=0o644)
        else:
            out.consolidate_code = extra.returncode
    return out


def stage_names(plan: Plan) -> Sequence[str]:
    return [name for name, _ in plan.stages()]
