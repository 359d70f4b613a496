"""What a council run cost, what each reviewer saw, and which model families voted.

A pure core over reviewer records (the fields council-pack and
council-dispatch add: ``pack_tokens``, ``usage``, ``cached``, ``family``,
``coverage``, ``status``, ``error_kind``).  The report's "Usage and coverage"
section, the JSON document's per-reviewer usage and totals, the job summary
and the ``--min-coverage`` / ``--min-families`` gates all read them here.

Totals count what this run spent: an answer from the cache, and a reviewer
skipped by the budget, cost nothing now (a cached answer's original usage is
shown beside it, marked cached).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

from council_filters.base.vocab import VOTES, display_name
from council_filters.consolidate.render.mdquote import inline

Record = dict[str, Any]
STATES = ("whole", "cut", "none")


def _int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def _cost(value: object) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if math.isfinite(value) and value >= 0 else None


def family(record: Record | None) -> str | None:
    value = (record or {}).get("family")
    return value if isinstance(value, str) and value.strip() else None


def answered_by(record: Record | None) -> str:
    """How the reviewer's answer came: ``cli``, ``cache``, ``skipped`` (budget), ``none``."""
    rec = record or {}
    if rec.get("cached") is True:
        return "cache"
    if rec.get("error_kind") == "budget":
        return "skipped"
    if rec.get("error_kind") == "not-cached":
        return "none"
    return "cli" if rec.get("status") is not None else "none"


def reviewer_usage(record: Record | None) -> Record:
    """One reviewer's usage: the pack estimate, what its CLI reported, how it answered."""
    rec = record or {}
    raw = rec.get("usage")
    u = raw if isinstance(raw, dict) else {}
    source = u.get("source")
    return {
        "answered": answered_by(rec),
        "pack_tokens": _int(rec.get("pack_tokens")),
        "input_tokens": _int(u.get("input_tokens")),
        "output_tokens": _int(u.get("output_tokens")),
        "cost_usd": _cost(u.get("cost_usd")),
        "source": source if isinstance(source, str) else None,
    }


def totals(records: Iterable[Record]) -> Record:
    """What the run spent (cached and skipped reviewers excluded), and what the cache saved."""
    out: Record = {"pack_tokens": 0, "input_tokens": 0, "output_tokens": 0, "cost_usd": 0.0,
                   "cost_known": True, "reviewers": 0, "cached": 0, "skipped": 0}
    for rec in records:
        u = reviewer_usage(rec)
        out["reviewers"] += 1
        if u["answered"] == "cache":
            out["cached"] += 1
            continue
        if u["answered"] == "skipped":
            out["skipped"] += 1
            continue
        if u["answered"] != "cli":
            continue
        out["pack_tokens"] += u["pack_tokens"] or 0
        out["input_tokens"] += u["input_tokens"] or 0
        out["output_tokens"] += u["output_tokens"] or 0
        if u["cost_usd"] is None:
            out["cost_known"] = False
        else:
            out["cost_usd"] += u["cost_usd"]
    out["cost_usd"] = round(out["cost_usd"], 6)
    return out


# --------------------------------------------------------------------------- #
# Coverage.
# --------------------------------------------------------------------------- #
def saw_pack(record: Record | None) -> bool:
    """Whether the reviewer read its pack: it was started (or cached) and ended OK."""
    rec = record or {}
    return rec.get("status") == "OK"


def coverage_files(record: Record | None) -> list[Record]:
    """The reviewer's files: the pack's coverage when it read the pack, else every file
    ``none``."""
    raw = (record or {}).get("coverage")
    if not isinstance(raw, list):
        return []
    out = []
    read = saw_pack(record)
    for entry in raw:
        if not isinstance(entry, dict) or not isinstance(entry.get("path"), str):
            continue
        lines = _int(entry.get("lines")) or 0
        seen = min(lines, _int(entry.get("seen")) or 0)
        state = entry.get("state") if entry.get("state") in STATES else "none"
        if not read:
            seen, state = 0, "none"
        out.append({"path": entry["path"], "lines": lines, "seen": seen, "state": state})
    return out


def coverage_summary(record: Record | None) -> Record:
    files = coverage_files(record)
    return {
        **{state: [f["path"] for f in files if f["state"] == state] for state in STATES},
        "lines": sum(f["lines"] for f in files),
        "seen": sum(f["seen"] for f in files),
    }


def covered_share(records: Sequence[Record], counted: Iterable[str], at_least: int) -> Record:
    """The share of changed lines that at least ``at_least`` counted reviewers saw.

    Every pack of a run shows a prefix of the same diff, so a file's first
    ``seen`` changed lines are the ones a reviewer saw, and the lines seen by
    at least N reviewers of a file are its N-th largest ``seen``.
    """
    voters = set(counted)
    per_file: dict[str, list[int]] = {}
    lines: dict[str, int] = {}
    for rec in records:
        for f in (rec.get("coverage") or []) if isinstance(rec.get("coverage"), list) else []:
            if isinstance(f, dict) and isinstance(f.get("path"), str):
                lines.setdefault(f["path"], _int(f.get("lines")) or 0)
        if str(rec.get("reviewer")) not in voters:
            continue
        for f in coverage_files(rec):
            per_file.setdefault(f["path"], []).append(f["seen"])
    total = sum(lines.values())
    seen = 0
    for path, n in lines.items():
        counts = sorted(per_file.get(path, []), reverse=True)
        seen += min(n, counts[at_least - 1]) if len(counts) >= at_least else 0
    pct = 100.0 if total == 0 else 100.0 * seen / total
    return {"lines": total, "seen": seen, "percent": round(pct, 2), "reviewers": at_least}


# --------------------------------------------------------------------------- #
# Model families.
# --------------------------------------------------------------------------- #
def families_by_verdict(pairs: Iterable[tuple[Record | None, str]]) -> dict[str, list[str]]:
    """Counted verdict -> the sorted model families that cast it (reviewers without a
    family are left out)."""
    out: dict[str, set[str]] = {}
    for rec, verdict in pairs:
        fam = family(rec)
        if verdict in VOTES and fam is not None:
            out.setdefault(verdict, set()).add(fam)
    return {v: sorted(out[v]) for v in VOTES if v in out}


def families_note(pairs: Sequence[tuple[Record | None, str]]) -> str | None:
    """The headline's families clause, when any reviewer names its model family."""
    if not any(family(rec) for rec, _ in pairs):
        return None
    by_verdict = families_by_verdict(pairs)
    voting = sorted({f for fams in by_verdict.values() for f in fams})
    if not voting:
        return None  # nobody with a family voted: the headline has said who failed
    if len(by_verdict) == 1:
        ((verdict, fams),) = by_verdict.items()
        noun = "model family" if len(fams) == 1 else "model families"
        return f"{len(fams)} {noun} agreed on {verdict} ({', '.join(inline(f) for f in fams)})"
    parts = [f"{v} {len(fams)} ({', '.join(inline(f) for f in fams)})"
             for v, fams in by_verdict.items()]
    return f"model families differ: {'; '.join(parts)}"


def counted_families(pairs: Iterable[tuple[Record | None, str]]) -> list[str]:
    """The distinct model families of reviewers with a counted verdict."""
    return sorted({f for fams in families_by_verdict(pairs).values() for f in fams})


# --------------------------------------------------------------------------- #
# The report section.
# --------------------------------------------------------------------------- #
#: File names listed per state and reviewer in the report (the rest are counted).
NAMES_SHOWN = 20


def _names(paths: Sequence[str]) -> str:
    if not paths:
        return "—"
    shown = ", ".join(inline(p) for p in paths[:NAMES_SHOWN])
    more = len(paths) - NAMES_SHOWN
    return shown + (f" and {more} more" if more > 0 else "")


def _n(value: int | None) -> str:
    return "—" if value is None else str(value)


def _usd(value: float | None) -> str:
    return "—" if value is None else f"${value:.4f}"


def section(records: Sequence[tuple[str, Record | None]]) -> list[str]:
    """The "Usage and coverage" section of the full report and the job summary.

    ``records`` are (slot, record) pairs in report order.
    """
    present = [(slot, rec) for slot, rec in records if rec is not None]
    if not any("pack_tokens" in rec or "usage" in rec or "coverage" in rec
               for _, rec in present):
        return []
    out = [
        "### Usage and coverage",
        "",
        "Pack tokens are an estimate (UTF-8 bytes / 4); input/output tokens and cost are what"
        " the reviewer's CLI reported (— where it reported nothing).",
        "",
        "| Reviewer | Family | Answered by | Pack tokens (est.) | Input tokens | Output tokens"
        " | Cost | Reported as |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for slot, rec in present:
        u = reviewer_usage(rec)
        answered = {"cli": "its CLI", "cache": "the cache (no cost this run)",
                    "skipped": "nobody: skipped by the budget", "none": "nobody"}[u["answered"]]
        out.append(
            f"| {display_name(slot)} | {inline(family(rec) or '—')} | {answered} |"
            f" {_n(u['pack_tokens'])} | {_n(u['input_tokens'])} | {_n(u['output_tokens'])} |"
            f" {_usd(u['cost_usd'])} | {inline(u['source'] or '—')} |"
        )
    t = totals(rec for _, rec in present)
    cost = _usd(t["cost_usd"]) + ("" if t["cost_known"] else " (some costs not reported)")
    out += [
        "",
        f"This run: {t['input_tokens']} input and {t['output_tokens']} output tokens reported,"
        f" {t['pack_tokens']} pack tokens sent (est.), cost {cost};"
        f" {t['cached']} answered from the cache, {t['skipped']} skipped by the budget.",
    ]
    cov = [(slot, rec) for slot, rec in present if isinstance(rec.get("coverage"), list)]
    if cov:
        out.append("")
        for slot, rec in cov:
            c = coverage_summary(rec)
            parts = [f"{label}: {_names(c[state])}" for state, label in
                     (("whole", "whole"), ("cut", "cut"), ("none", "not at all"))]
            out.append(f"- {display_name(slot)} saw {c['seen']} of {c['lines']} changed lines"
                       f" — {'; '.join(parts)}")
    return out
