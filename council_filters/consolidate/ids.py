"""Stable IDs: ``<CODE>-NNN`` numbers that continue a review-state file's."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import orjson

from council_filters.consolidate.finding import Consolidated
from council_filters.consolidate.origins import (
    ID_RE,
    ID_SCAN_RE,
    assign_codes,
    canonical_origin,
    code_sort_key,
)

Record = dict[str, Any]


# --------------------------------------------------------------------------- #
# Stable IDs from a review-state file.
# --------------------------------------------------------------------------- #
@dataclass
class PriorIds:
    """What a review-state file says about IDs already handed out."""

    by_fingerprint: dict[str, str] = field(default_factory=dict)
    highest: dict[str, int] = field(default_factory=dict)
    origin_codes: dict[str, str] = field(default_factory=dict)

    def note(self, ident: str) -> None:
        m = ID_RE.match(ident)
        if m:
            code, num = m.group(1), int(m.group(2))
            if num > self.highest.get(code, 0):
                self.highest[code] = num


def prior_ids(state: Record | None) -> PriorIds:
    """Read IDs, fingerprints and origin codes from a review-state document (liberally)."""
    prior = PriorIds()
    if not isinstance(state, dict):
        return prior
    entries = state.get("findings")
    if isinstance(entries, dict):  # a map id -> finding is accepted too
        entries = [dict(v, id=k) if isinstance(v, dict) else {"id": k} for k, v in entries.items()]
    for entry in entries if isinstance(entries, list) else []:
        if not isinstance(entry, dict):
            continue
        ident = entry.get("id")
        if not isinstance(ident, str):
            continue
        prior.note(ident)
        m = ID_RE.match(ident)
        fp = entry.get("fingerprint")
        if isinstance(fp, str) and fp and fp not in prior.by_fingerprint and m:
            prior.by_fingerprint[fp] = ident
        origin = entry.get("origin")
        if isinstance(origin, str) and m:
            prior.origin_codes.setdefault(canonical_origin(origin), m.group(1))
    # Any ID mentioned anywhere else (history, dismissed lists) is never reused either.
    rest = {k: v for k, v in state.items() if k != "findings"}
    for m in ID_SCAN_RE.finditer(orjson.dumps(rest).decode()):
        prior.note(m.group(0))
    return prior


def assign_ids(items: list[Consolidated], prior: PriorIds) -> None:
    """Give each consolidated finding its ``<CODE>-NNN`` ID (in place)."""
    codes = assign_codes((c.survivor.origin for c in items), prior.origin_codes)
    for c in items:
        c.code = codes[c.survivor.origin]
    code_keys = {code: code_sort_key(code) for code in set(codes.values())}
    items.sort(key=lambda c: (code_keys[c.code], c.sort_key()))
    used: set[str] = set()
    fresh: list[Consolidated] = []
    for c in items:
        old = prior.by_fingerprint.get(c.fingerprint)
        if old and old not in used and old.startswith(c.code + "-"):
            c.id = old
            used.add(old)
        else:
            fresh.append(c)
    counters = dict(prior.highest)
    for c in fresh:
        n = counters.get(c.code, 0) + 1
        counters[c.code] = n
        c.id = f"{c.code}-{n:03d}"
    items.sort(key=lambda c: (code_keys[c.code], len(c.id), c.id))
