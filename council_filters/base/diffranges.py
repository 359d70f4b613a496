"""Anchorable line ranges of a unified diff, per file and side.

A ``line`` finding may anchor to a right-side (``new``) line that a hunk shows
(added or context) or a left-side (``old``) line (removed or context).  A
hunk's sides are contiguous, so the ranges are the hunks' spans, merged when
they touch.  Pure functions over bytes.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from council_filters.base import diffs

Range = diffs.Range


@dataclass
class FileRanges:
    path: str
    new: list[Range] = field(default_factory=list)
    old: list[Range] = field(default_factory=list)


def parse(diff: bytes) -> list[FileRanges]:
    """Per-file ranges in diff order; files with no hunk lines are left out."""
    return [FileRanges(f.path, f.new, f.old)
            for f in diffs.iter_files(diff, texts=False) if f.new or f.old]


def _fmt(ranges: list[Range]) -> str:
    return ", ".join(f"{a}-{b}" for a, b in ranges)


def format_ranges(files: list[FileRanges]) -> bytes:
    """``path: new 12-34, 50-78 | old 12-34`` lines (a side without lines is left out)."""
    out = []
    for f in files:
        parts = []
        if f.new:
            parts.append("new " + _fmt(f.new))
        if f.old:
            parts.append("old " + _fmt(f.old))
        out.append(f"{f.path}: {' | '.join(parts)}\n")
    return "".join(out).encode("utf-8", "surrogateescape")


def anchorable(
    files: list[FileRanges], path: str, start: int, end: int, side: str
) -> bool | None:
    """Whether lines ``start..end`` on ``side`` lie inside one range; None if the file is absent."""
    for f in files:
        if f.path != path:
            continue
        sides = {"new": [f.new], "old": [f.old], "both": [f.new, f.old]}.get(side, [f.new])
        return any(a <= start and end <= b for ranges in sides for a, b in ranges)
    return None
