"""Merging findings: the seed's position dedup and the finding-level grouping (the default)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from council_filters.base import severity as sev
from council_filters.consolidate import grouping
from council_filters.consolidate.finding import Consolidated, Finding, group_of, richness
from council_filters.consolidate.origins import (
    origin_sort_key,
)

Record = dict[str, Any]


def _survivor_key(f: Finding) -> tuple[Any, ...]:
    n, length = richness(f)
    return (-n, -length, sev.rank(f.severity or ""), origin_sort_key(f.origin), f.key)


def dedup(findings: Sequence[Finding], window: int = 3) -> list[Consolidated]:
    """Merge findings at the same file and a line within ``window`` of a cluster's first line.

    Clusters are built over each file's findings in (line, content) order: a
    cluster starts at its lowest line and takes every later finding whose line
    is at most ``window`` above that start, so no two merged findings are
    more than ``window`` lines apart.  Findings without a file or line are
    never merged.
    """
    by_file: dict[str, list[Finding]] = {}
    alone: list[list[Finding]] = []
    for f in findings:
        if f.file and f.line:
            by_file.setdefault(f.file, []).append(f)
        else:
            alone.append([f])
    clusters: list[list[Finding]] = alone
    for items in by_file.values():
        items.sort(key=lambda f: (f.line, f.key))
        current: list[Finding] = []
        start = 0
        for f in items:
            assert f.line is not None
            if current and f.line - start <= window:
                current.append(f)
            else:
                if current:
                    clusters.append(current)
                current = [f]
                start = f.line
        if current:
            clusters.append(current)
    return [_consolidated(members) for members in clusters]


def group_by_finding(findings: Sequence[Finding]) -> list[Consolidated]:
    """Merge findings that name the same problem (:mod:`.grouping`): same file, lines
    within the window (any place a finding cites: its own or a related one), similar
    texts.  Every consolidated finding lists its members.

    A reviewer's finding that repeats a script finding of its own origin (same file, lines
    within the window, the same problem by the script's title and explanation) joins the
    script finding's group: the script settled it, the reviewer saw it too."""
    ordered = sorted(findings, key=lambda f: f.key)
    joins = _script_joins(ordered)
    rest = [i for i in range(len(ordered)) if i not in joins]
    items = [grouping.Item(ordered[i].file, ordered[i].line, _who(ordered[i]), ordered[i].title,
                           tuple((p.file, p.line) for p in ordered[i].related if p.line))
             for i in rest]
    groups = [[rest[k] for k in idx] for idx in grouping.group(items)]
    where = {i: g for g, idx in enumerate(groups) for i in idx}
    for joined, script in sorted(joins.items()):
        groups[where[script]].append(joined)
    out = []
    for idx in groups:
        c = _consolidated([ordered[i] for i in sorted(idx)])
        c.listed = True
        out.append(c)
    return out


def _is_script(f: Finding) -> bool:
    return f.raw.get("source") == "script"


def _who(f: Finding) -> str:
    """Whose finding it is, for the rule that one reviewer does not name a problem twice
    (a script and the reviewer of the same origin are two sources)."""
    who = f.reviewer or f.origin
    return f"{who}:script" if _is_script(f) else who


def _script_joins(ordered: Sequence[Finding], window: int = grouping.WINDOW) -> dict[int, int]:
    """Index of a reviewer finding -> index of the script finding it repeats."""
    scripts = [i for i, f in enumerate(ordered) if _is_script(f) and f.file and f.line]
    if not scripts:
        return {}
    out: dict[int, int] = {}
    for j, f in enumerate(ordered):
        if _is_script(f) or not (f.file and f.line):
            continue
        best: tuple[float, int] | None = None
        for i in scripts:
            s = ordered[i]
            if s.origin != f.origin or s.file != f.file or abs((s.line or 0) - f.line) > window:
                continue
            discussion = s.raw.get("discussion")
            text = s.title + (" " + discussion if isinstance(discussion, str) else "")
            score = grouping.similarity(text, f.title)
            if score >= grouping.THRESHOLD and (best is None or score > best[0]):
                best = (score, i)
        if best is not None:
            out[j] = best[1]
    return out


def _consolidated(members: list[Finding]) -> Consolidated:
    """One cluster as a consolidated finding: the richest member survives, the most
    severe severity wins, origins in their canonical order."""
    if len(members) == 1:
        survivor = members[0]
        severity = survivor.severity
        origins = [survivor.origin]
    else:
        survivor = min(members, key=_survivor_key)
        severity = min((m.severity for m in members if m.severity), key=sev.rank, default=None)
        origins = sorted({m.origin for m in members}, key=origin_sort_key)
        members.sort(key=lambda m: m.key)
    category = survivor.raw.get("category")
    group = group_of(origins, category if isinstance(category, str) else None, severity)
    return Consolidated(survivor, members, severity, origins, group)
