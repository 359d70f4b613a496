"""The gates of a council run: conditions that make ``council`` exit 3.

Counted verdicts are APPROVE, REVISE and REJECT; a reviewer that timed out,
failed, was unavailable or answered nothing parseable (UNKNOWN) is never
counted, so a gate cannot pass because reviewers were missing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from council_filters.base.vocab import VOTES, display_name

# Severity of a verdict, for --fail-on: at or above the named one fails.
RANK = {"APPROVE": 0, "REVISE": 1, "REJECT": 2}
FAIL_ON = ("REVISE", "REJECT")


@dataclass(frozen=True)
class Gates:
    fail_on: str | None = None  # REVISE or REJECT
    min_reviewers: int = 0


def counted(records: Sequence[dict[str, Any]]) -> list[tuple[str, str]]:
    """(reviewer, verdict) for every record with a counted verdict."""
    out = []
    for rec in records:
        verdict = rec.get("verdict")
        if isinstance(verdict, str) and verdict in VOTES:
            out.append((str(rec.get("reviewer", "?")), verdict))
    return out


def check(records: Sequence[dict[str, Any]], gates: Gates) -> list[str]:
    """One sentence per gate that failed (empty: every gate passed)."""
    votes = counted(records)
    failures: list[str] = []
    if gates.fail_on is not None:
        bar = RANK[gates.fail_on]
        hit = [(r, v) for r, v in votes if RANK[v] >= bar]
        if hit:
            who = ", ".join(f"{display_name(r)} {v}" for r, v in hit)
            failures.append(f"--fail-on {gates.fail_on}: {who}")
    if len(votes) < gates.min_reviewers:
        failures.append(
            f"--min-reviewers {gates.min_reviewers}: {len(votes)} of {len(records)} reviewers"
            " cast a counted verdict"
        )
    return failures
