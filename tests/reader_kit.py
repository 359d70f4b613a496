"""What the reader's tests compare: each finding's place with the other places it cites."""

from __future__ import annotations

from typing import Any

Place = tuple[Any, Any]


def located(findings: list[dict[str, Any]]) -> list[tuple[Place, list[Place]]]:
    """``((file, line), [(file, line) of each related place])`` for every finding."""
    return [((f.get("file"), f.get("line")),
             [(r.get("file"), r.get("line")) for r in f.get("related") or []])
            for f in findings]
