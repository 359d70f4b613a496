"""How much of each changed file a review pack shows: whole, cut, or not at all.

A pure core over the diff.  A file's changed lines are its added and removed
lines; the pack shows the ones inside the part of the diff it keeps (the whole
diff, or its first lines when the diff was cut).  A file is ``whole`` when
every changed line is shown, ``cut`` when some are, ``none`` when none is; a
file with no changed lines (binary, a rename, a mode change) is ``whole``
when its header is in the kept part, else ``none``.
"""

from __future__ import annotations

from council_filters.base import diffs

WHOLE, CUT, NONE = "whole", "cut", "none"


def _first_lines(diff: bytes, count: int) -> bytes:
    """The first ``count`` lines of ``diff`` as awk reads them, each ended by ``\\n`` (a
    final line without one gets it), found without splitting the whole diff."""
    pos = 0
    for _ in range(count):
        nl = diff.find(b"\n", pos)
        if nl < 0:
            return diff + b"\n" if pos < len(diff) else diff
        pos = nl + 1
    return diff[:pos]


def _counts(diff: bytes) -> list[tuple[str, int]]:
    """``(path, changed lines)`` per file; the hunks counted on their bytes, not line by line."""
    return [(f.path or f.old_path or "", f.added_lines + f.removed)
            for f in diffs.iter_files(diff, texts=False)]


def files(diff: bytes, kept_lines: int | None = None) -> list[dict[str, object]]:
    """``[{"path", "lines", "seen", "state"}]`` per changed file, in diff order.

    ``kept_lines`` is how many of the diff's lines the pack shows (None: all).
    """
    total = _counts(diff)
    shown = total if kept_lines is None else _counts(_first_lines(diff, kept_lines))
    out: list[dict[str, object]] = []
    for i, (path, lines) in enumerate(total):
        seen_entry = shown[i] if i < len(shown) and shown[i][0] == path else None
        header = seen_entry is not None
        seen = min(lines, seen_entry[1]) if seen_entry is not None else 0
        if lines:
            state = WHOLE if seen == lines else (CUT if seen else NONE)
        else:
            state = WHOLE if header else NONE
        out.append({"path": path, "lines": lines, "seen": seen, "state": state})
    return out
