"""The gates of a council run: conditions that make ``council`` exit 3.

Counted verdicts are APPROVE, REVISE and REJECT; a reviewer that timed out,
failed, was unavailable, was skipped by the budget or answered nothing
parseable (UNKNOWN) is never counted, so a gate cannot pass because reviewers
were missing.  --min-families counts the distinct ``family`` values of the
counted reviewers (none given: not counted); --min-coverage is the share of
changed lines that at least max(1, --min-reviewers) counted reviewers saw.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from council_filters.base.vocab import VOTES, display_name
from council_filters.consolidate import usage

# Severity of a verdict, for --fail-on: at or above the named one fails.
RANK = {"APPROVE": 0, "REVISE": 1, "REJECT": 2}
FAIL_ON = ("REVISE", "REJECT")


@dataclass(frozen=True)
class Gates:
    fail_on: str | None = None  # REVISE or REJECT
    min_reviewers: int = 0
    min_families: int = 0
    min_coverage: float | None = None  # percent of changed lines

    @property
    def coverage_reviewers(self) -> int:
        """How many counted reviewers must have seen a line for --min-coverage."""
        return max(1, self.min_reviewers)


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
    skipped = [display_name(str(r.get("reviewer", "?"))) for r in records
               if r.get("error_kind") == "budget"]
    if skipped and gates.min_reviewers and len(votes) < gates.min_reviewers:
        failures[-1] += f" ({', '.join(skipped)} skipped by the budget)"
    pairs = [(rec, str(rec.get("verdict"))) for rec in records]
    if gates.min_families:
        fams = usage.counted_families(pairs)
        if len(fams) < gates.min_families:
            named = f" ({', '.join(fams)})" if fams else ""
            failures.append(
                f"--min-families {gates.min_families}: {len(fams)} model"
                f" {'family' if len(fams) == 1 else 'families'}{named} cast a counted verdict"
                " (a reviewer without a `family` in the commands file is not counted)"
            )
    if gates.min_coverage is not None:
        share = usage.covered_share(records, (r for r, _ in votes), gates.coverage_reviewers)
        if share["percent"] < gates.min_coverage:
            n = gates.coverage_reviewers
            failures.append(
                f"--min-coverage {gates.min_coverage:g}: {share['seen']} of {share['lines']}"
                f" changed lines ({share['percent']:g}%) were seen by at least {n} counted"
                f" reviewer{'s' if n != 1 else ''}"
            )
    return failures
