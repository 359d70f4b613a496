"""Sending packs to the configured commands, all at once, and the verify-and-re-ask loop.

Every pack is redacted before it leaves and every answer is redacted when it arrives, as
in the council chain.  A command runs as every reviewer does (``sh -c``, its own process
group, the pack on stdin or in a private file, COUNCIL_TIMEOUT), with ``COUNCIL_REVIEWER``
and ``COUNCIL_ORIGIN`` set.  An answer that does not validate is sent back with the
verifier's errors in a new pack, up to :data:`ATTEMPTS` attempts in all; then the last
attempt is kept with its warnings (the verify_output protocol).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from council_filters.base.settings import COUNCIL_TIMEOUT, parse_seconds
from council_filters.codereview import answers, packs
from council_filters.dispatch import config as dconfig
from council_filters.dispatch import outcome as dout
from council_filters.dispatch import process, runner
from council_filters.redaction import machine as redaction

ATTEMPTS = 3
DEFAULT_GRACE = 10.0
Record = dict[str, Any]


def limits(env: Mapping[str, str], cwd: str, warn: Callable[[str], None]) -> process.Limits:
    grace = DEFAULT_GRACE
    raw = env.get("COUNCIL_KILL_GRACE", "")
    if raw:
        try:
            grace = parse_seconds(raw, "COUNCIL_KILL_GRACE")
        except ValueError as exc:
            warn(f"{exc}; using {DEFAULT_GRACE:g}")
    return process.Limits(timeout=COUNCIL_TIMEOUT.from_env(env, warn), kill_grace=grace,
                          cwd=cwd)


def redact(text: str) -> str:
    """``text`` with credentials replaced (line structure kept, no newline added)."""
    out = redaction.redact(text.encode("utf-8", "replace")).decode("utf-8", "replace")
    return out if text.endswith("\n") or not out.endswith("\n") else out[:-1]


@dataclass(frozen=True)
class Caller:
    """How to run commands: the limits and the environment they start from."""

    limits: process.Limits
    env: Mapping[str, str]

    def call(self, name: str, shell: str, origin: str, pack: str) -> dout.Result:
        env = dict(self.env)
        env["COUNCIL_ORIGIN"] = origin
        command = dconfig.Command(name, shell)
        return runner.run_reviewer(name, redact(pack), None, command, self.limits, env)


@dataclass
class Asked:
    """One origin's answer after the verify-and-re-ask loop."""

    origin: str
    reviewer: str
    findings: list[Record] = field(default_factory=list)
    attempts: int = 0
    valid: bool = False
    failed: str | None = None  # the run's summary when the command did not answer
    warnings: list[str] = field(default_factory=list)

    @property
    def answered(self) -> bool:
        return self.failed is None


@dataclass(frozen=True)
class Question:
    origin: str
    reviewer: str
    shell: str
    pack: str
    lines: Mapping[str, set[int]]


def ask(caller: Caller, q: Question) -> Asked:
    out = Asked(q.origin, q.reviewer)
    pack = q.pack
    last = ""
    for attempt in range(1, ATTEMPTS + 1):
        out.attempts = attempt
        res = caller.call(q.reviewer, q.shell, q.origin, pack)
        if res.status != dout.OK:
            out.failed = res.summary or res.status
            return out
        last = redact(res.output)
        reading = answers.read(last, q.origin, q.lines)
        if reading.ok:
            out.findings, out.valid = reading.findings, True
            return out
        verdict = reading.verify_output()
        out.warnings = [f"{e['path'] or '(answer)'}: {e['message']}" for e in verdict["errors"]]
        if attempt < ATTEMPTS:
            pack = packs.retry_pack(q.pack, verdict, attempt, ATTEMPTS)
    kept, bad = answers.lenient(last, q.origin)
    out.findings = kept
    out.warnings.insert(0, f"the answer did not validate after {ATTEMPTS} attempts; kept"
                        f" {len(kept)} finding(s) of the last one"
                        + (f", {bad} unreadable left out" if bad else ""))
    return out


def ask_all(caller: Caller, questions: Sequence[Question]) -> list[Asked]:
    """Every question at once (one thread per command), answers in question order."""
    if not questions:
        return []
    with ThreadPoolExecutor(max_workers=len(questions)) as pool:
        return list(pool.map(lambda q: ask(caller, q), questions))


def base_env() -> dict[str, str]:
    return dict(os.environ)
