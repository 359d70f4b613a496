"""council-consolidate's core: records in, one consolidated result out.

:func:`collect` sorts input records into verdict records and validated
findings (invalid findings are dropped with a located, content-free
message); :func:`consolidate` deduplicates, fingerprints, numbers, groups and
detects gaps.  Renderers for each output format live in their own modules;
:func:`render` picks one.  No argv, no stdio.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import orjson

from council_filters import severity as sev
from council_filters.base.errors import DataError
from council_filters.base.vocab import NAME_RE, SLOTS
from council_filters.consolidate import agreement, synthesis
from council_filters.consolidate.dedup import dedup, group_by_finding
from council_filters.consolidate.finding import (
    GROUPS,
    Consolidated,
    Finding,
    SourceReader,
    finding_problem,
    fingerprint,
    normalize_path,
    severity_of,
    title_of,
)
from council_filters.consolidate.gaps import gaps
from council_filters.consolidate.ids import assign_ids, prior_ids
from council_filters.consolidate.origins import canonical_origin
from council_filters.consolidate.render import rdjsonl as rdjson
from council_filters.consolidate.render import review_md as review_markdown
from council_filters.consolidate.render import sarif

Record = dict[str, Any]
VERDICT_KINDS = ("reviewer", "verdict")
_KIND_RE = re.compile(r"\A[a-z][a-z0-9_.-]{0,31}\Z")


@dataclass
class Collected:
    verdicts: list[Record] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    dropped: int = 0
    unknown_severity: int = 0
    skipped_kinds: dict[str, int] = field(default_factory=dict)


def collect(
    stream: Iterable[tuple[str, int, Record]], reader: SourceReader
) -> Collected:
    """Read every record: verdicts kept, findings validated and normalised."""
    out = Collected()
    slots: set[str] = set()
    for source, lineno, rec in stream:
        kind = rec.get("kind")
        if kind in VERDICT_KINDS:
            slot = rec.get("reviewer")
            slot = slot.strip().lower() if isinstance(slot, str) else ""
            if not NAME_RE.match(slot):
                raise DataError(
                    "verdict record without a valid reviewer slot name", source=source, line=lineno
                )
            if slot in slots:
                raise DataError(
                    f"a second verdict record for reviewer {slot}", source=source, line=lineno
                )
            slots.add(slot)
            out.verdicts.append(dict(rec, reviewer=slot))
            _add_list(out, rec.get("findings"), slot, slot, source, lineno, reader)
        elif kind == "finding":
            _add(out, rec, None, source, lineno, 0, reader)
        elif isinstance(rec.get("findings"), list):
            default = rec.get("origin") or rec.get("reviewer")
            _add_list(out, rec["findings"], default if isinstance(default, str) else None,
                      None, source, lineno, reader)
        else:
            name = kind if isinstance(kind, str) and _KIND_RE.match(kind) else "(unnamed)"
            out.skipped_kinds[name] = out.skipped_kinds.get(name, 0) + 1
    for name, n in sorted(out.skipped_kinds.items()):
        out.warnings.append(f"skipped {n} record{'s' if n != 1 else ''} of kind {name}")
    if out.unknown_severity:
        n = out.unknown_severity
        out.warnings.append(
            f"{n} finding{'s' if n != 1 else ''} had an unrecognised severity (kept, unrated)"
        )
    return out


def _add_list(
    out: Collected, items: object, origin: str | None, reviewer: str | None,
    source: str, lineno: int, reader: SourceReader,
) -> None:
    if items is None:
        return
    if not isinstance(items, list):
        out.dropped += 1
        out.warnings.append(f"{source}:{lineno}: findings dropped: findings: must be an array")
        return
    for ordinal, item in enumerate(items, start=1):
        if isinstance(item, dict) and origin and "origin" not in item:
            item = {"origin": origin, **item}
        _add(out, item, reviewer, source, lineno, ordinal, reader)


def _add(
    out: Collected, raw: object, reviewer: str | None,
    source: str, lineno: int, ordinal: int, reader: SourceReader,
) -> None:
    which = f"finding {ordinal}" if ordinal else "finding"
    problem = finding_problem(raw) if isinstance(raw, dict) else "must be an object"
    if problem or not isinstance(raw, dict):
        out.dropped += 1
        out.warnings.append(f"{source}:{lineno}: {which} dropped: {problem}")
        return
    origin = canonical_origin(raw["origin"])
    f_raw = raw.get("file")
    file = normalize_path(f_raw) if isinstance(f_raw, str) and f_raw.strip() else None
    line = raw.get("line") if isinstance(raw.get("line"), int) else None
    severity, unrecognised = severity_of(raw)
    if unrecognised:
        out.unknown_severity += 1
    title = title_of(raw)
    f = Finding(raw, origin, file, line, severity, title, reviewer, source, lineno, ordinal)
    anchor = reader.line(file, line) if file and line else None
    f.fingerprint = fingerprint(origin, file, anchor, title)
    out.findings.append(f)


@dataclass
class Result:
    collected: Collected
    items: list[Consolidated]
    gaps: list[str] | None
    exempt: list[str]
    upstream: bool = False

    @property
    def merged(self) -> int:
        return len(self.collected.findings) - len(self.items)

    def at_or_above(self, level: str) -> bool:
        return any(sev.at_or_above(c.severity, level) for c in self.items)

    def gate_hits(self, level: str) -> list[Consolidated]:
        """The findings at or above ``level``, in report order."""
        return [c for c in self.items if sev.at_or_above(c.severity, level)]


def gate_message(level: str, hits: Sequence[Consolidated], *, shown: int = 10) -> str:
    """The --fail-level gate's sentence, naming the findings that tripped it by ID,
    severity and place (never their text: it is reviewer output)."""
    def name(c: Consolidated) -> str:
        s = c.survivor
        where = (f"{s.file}:{s.line}" if s.line else s.file) if s.file else "no location"
        return f"{c.id} ({c.severity}, {where})"

    listed = "; ".join(name(c) for c in hits[:shown])
    more = f"; and {len(hits) - shown} more" if len(hits) > shown else ""
    n = len(hits)
    noun = "finding" if n == 1 else "findings"
    return f"--fail-level {level}: {n} {noun} at or above it: {listed}{more}"


DEDUPS = ("finding", "position")


def consolidate(
    collected: Collected, *, state: Record | None = None, changed: Sequence[str] | None = None,
    dedup_rule: str = "finding", upstream: bool = False,
) -> Result:
    """``dedup_rule``: ``finding`` (same file, lines within 3, same problem by text) or
    ``position`` (the seed's rule: same file, lines within 3).  Unless ``upstream``, every
    consolidated finding lists its members in every output."""
    if dedup_rule == "position" or upstream:
        items = dedup(collected.findings)
        for c in items:
            c.listed = not upstream
    else:
        items = group_by_finding(collected.findings)
    assign_ids(items, prior_ids(state))
    missing: list[str] | None = None
    exempt: list[str] = []
    if changed is not None:
        missing, exempt = gaps(changed, collected.findings)
    return Result(collected, items, missing, exempt, upstream)


# --------------------------------------------------------------------------- #
# Rendering.
# --------------------------------------------------------------------------- #
@dataclass(frozen=True)
class ReportInfo:
    """What the council report's title and path need."""

    mode: str
    slug: str
    date: str
    slots: tuple[str, ...] = SLOTS


def build_synthesis(result: Result, info: ReportInfo) -> synthesis.Synthesis:
    """The council synthesis: by finding (default) or by location (``--upstream``)."""
    if not result.upstream:
        return agreement.build(
            result.collected.verdicts, result.items,
            mode=info.mode, slug=info.slug, date=info.date, slots=info.slots,
        )
    return synthesis.build(
        result.collected.verdicts, result.collected.findings,
        mode=info.mode, slug=info.slug, date=info.date, slots=info.slots,
    )


def findings_jsonl(result: Result) -> bytes:
    return b"".join(orjson.dumps(c.record()) + b"\n" for c in result.items)


def json_document(
    result: Result, synth: synthesis.Synthesis | None, report_path: str | None
) -> bytes:
    groups = {g: 0 for g in GROUPS}
    for c in result.items:
        groups[c.group] += 1
    doc: Record = {
        "kind": "consolidation",
        "version": 1,
        "counts": {
            "input": len(result.collected.findings) + result.collected.dropped,
            "dropped": result.collected.dropped,
            "findings": len(result.items),
            "merged": result.merged,
        },
        "groups": groups,
        "findings": [c.record() for c in result.items],
    }
    if result.gaps is not None:
        doc["gaps"] = result.gaps
        doc["exempt"] = result.exempt
    if isinstance(synth, agreement.GroupedSynthesis):
        doc["synthesis"] = {
            "mode": synth.mode,
            "slug": synth.slug,
            "date": synth.date,
            **synth.json_section(),
            "reviewers": _reviewers(synth),
            "report_path": report_path,
        }
    elif synth is not None:
        doc["synthesis"] = {
            "mode": synth.mode,
            "slug": synth.slug,
            "date": synth.date,
            "headline": synthesis.headline(synth.reviewers),
            "reviewers": _reviewers(synth),
            "agreement": [_loc(loc) for loc in synth.agreement],
            "conflicts": [_loc(loc) for loc in synth.conflicts],
            "report_path": report_path,
        }
    return orjson.dumps(doc, option=orjson.OPT_INDENT_2) + b"\n"


def _reviewers(synth: synthesis.Synthesis) -> list[Record]:
    return [
        {"reviewer": r.slot, "verdict": r.verdict,
         "confidence": (r.record or {}).get("confidence"), "findings": len(r.findings)}
        for r in synth.reviewers
    ]


def _loc(loc: synthesis.Location) -> Record:
    return {
        "file": loc.path,
        "line": loc.line,
        "severity": loc.severity,
        "reviewers": [r.slot for r in loc.citers],
        "verdicts": {r.slot: r.verdict for r in loc.citers},
    }


def sarif_bytes(result: Result, category: str) -> tuple[bytes, list[str]]:
    keep = not result.upstream
    log, no_file, over = sarif.document(result.items, category=category, keep_unplaced=keep)
    notes = []
    if no_file:
        plural = "s" if no_file != 1 else ""
        notes.append(f"{no_file} finding{plural} without a file left out of SARIF")
    notes += _unplaced_note(result) if keep else []
    if over:
        notes.append(f"{over} least severe findings left out (GitHub takes 25000 results per run)")
    notes += _outside_note(result)
    return orjson.dumps(log, option=orjson.OPT_INDENT_2) + b"\n", notes


def _outside_note(result: Result) -> list[str]:
    n = sarif.outside_count(result.items)
    if not n:
        return []
    return [f"{n} finding{'s' if n != 1 else ''} naming a file outside the repository"
            " kept without a location"]


def _unplaced_note(result: Result) -> list[str]:
    n = sum(1 for c in result.items if not c.survivor.file)
    if not n:
        return []
    return [f"{n} finding{'s' if n != 1 else ''} without a file kept without a location"]


def rdjsonl_bytes(result: Result, reader: SourceReader) -> tuple[bytes, list[str]]:
    """The reviewdog diagnostics; under ``--upstream`` findings naming no file are left out."""
    keep = not result.upstream
    placed = [c for c in result.items if c.survivor.file or keep]
    notes = _unplaced_note(result) if keep else []
    left = len(result.items) - len(placed)
    if left:
        notes.append(f"{left} finding{'s' if left != 1 else ''} without a file left out of rdjsonl")
    notes += _outside_note(result)
    return b"".join(rdjson.line(c, reader) for c in placed), notes


def review_markdown_bytes(result: Result, reader: SourceReader) -> bytes:
    return review_markdown.render(
        result.items, reader, merged=result.merged, gaps=result.gaps, exempt=result.exempt
    ).encode("utf-8")

