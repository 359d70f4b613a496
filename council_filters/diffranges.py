"""Anchorable line ranges of a unified diff, per file and side.

A ``line`` finding may anchor to a right-side (``new``) line that a hunk shows
(added or context) or a left-side (``old``) line (removed or context).  A
hunk's sides are contiguous, so the ranges are the hunks' spans, merged when
they touch.  Pure functions over bytes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_HUNK = re.compile(rb"^@@ -([0-9]+)(?:,([0-9]+))? \+([0-9]+)(?:,([0-9]+))? @@")
_OCTAL = re.compile(r"\\([0-7]{3}|.)")
_SIMPLE_ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\", "a": "\a", "b": "\b",
                   "f": "\f", "r": "\r", "v": "\v"}

Range = tuple[int, int]


@dataclass
class FileRanges:
    path: str
    new: list[Range] = field(default_factory=list)
    old: list[Range] = field(default_factory=list)


def _unquote(raw: bytes) -> str:
    """A diff header path: git's C-style quoting undone, ``a/``/``b/`` prefix removed."""
    s = raw.decode("utf-8", "replace").rstrip("\r")
    if "\t" in s and not s.startswith('"'):
        s = s.split("\t", 1)[0]  # `--- a/x\t<timestamp>` (non-git diffs)
    if len(s) >= 2 and s.startswith('"') and s.endswith('"'):
        body = s[1:-1]
        out = bytearray()
        pos = 0
        for m in _OCTAL.finditer(body):
            out += body[pos:m.start()].encode("utf-8", "replace")
            esc = m[1]
            if len(esc) == 3:
                out.append(int(esc, 8))
            else:
                out += _SIMPLE_ESCAPES.get(esc, esc).encode()
            pos = m.end()
        out += body[pos:].encode("utf-8", "replace")
        s = out.decode("utf-8", "replace")
    if s.startswith(("a/", "b/")):
        s = s[2:]
    return s


def _add(ranges: list[Range], start: int, count: int) -> None:
    if count <= 0:
        return
    end = start + count - 1
    if ranges and start <= ranges[-1][1] + 1:
        ranges[-1] = (ranges[-1][0], max(ranges[-1][1], end))
    else:
        ranges.append((start, end))


def parse(diff: bytes) -> list[FileRanges]:
    """Per-file ranges in diff order; files with no hunk lines are left out."""
    files: list[FileRanges] = []
    current: FileRanges | None = None
    old_path = ""
    lines = diff.split(b"\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith(b"--- ") and i + 1 < len(lines) and lines[i + 1].startswith(b"+++ "):
            old_path = _unquote(line[4:])
            new_path = _unquote(lines[i + 1][4:])
            path = old_path if new_path == "/dev/null" else new_path
            current = FileRanges(path)
            files.append(current)
            i += 2
            continue
        m = _HUNK.match(line)
        if m and current is not None:
            old_start, new_start = int(m[1]), int(m[3])
            old_count = int(m[2]) if m[2] is not None else 1
            new_count = int(m[4]) if m[4] is not None else 1
            _add(current.old, old_start, old_count)
            _add(current.new, new_start, new_count)
            # skip the hunk body so its lines are never read as headers
            left, right = old_count, new_count
            i += 1
            while i < len(lines) and (left > 0 or right > 0):
                tag = lines[i][:1]
                if tag == b"-":
                    left -= 1
                elif tag == b"+":
                    right -= 1
                elif tag in (b" ", b""):
                    left -= 1
                    right -= 1
                elif tag != b"\\":
                    break
                i += 1
            continue
        i += 1
    return [f for f in files if f.new or f.old]


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
