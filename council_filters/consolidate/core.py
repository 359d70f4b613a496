"""council-consolidate's core: records in, one consolidated result out.

:func:`collect` sorts input records into verdict records and validated
findings (invalid findings are dropped with a located, content-free
message); :func:`consolidate` deduplicates, fingerprints, numbers, groups and
detects gaps.  Renderers for each output format live in their own modules;
:func:`render` picks one.  No argv, no stdio.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import orjson

from council_filters.base import diffs, vocab
from council_filters.base import severity as sev
from council_filters.base.errors import DataError
from council_filters.base.vocab import NAME_RE, SLOTS
from council_filters.consolidate import agreement, synthesis, usage
from council_filters.consolidate import evidence as ev
from council_filters.consolidate.dedup import dedup, group_by_finding
from council_filters.consolidate.finding import (
    GROUPS,
    Checks,
    Consolidated,
    Finding,
    SourceReader,
    finding_fingerprint,
    finding_problem,
    fold,
    normalize_path,
    related_places,
    severity_of,
    title_of,
)
from council_filters.consolidate.gaps import gaps
from council_filters.consolidate.ids import assign_ids, prior_ids
from council_filters.consolidate.origins import canonical_origin
from council_filters.consolidate.render import codequality, sarif
from council_filters.consolidate.render import rdjsonl as rdjson
from council_filters.consolidate.render import review_md as review_markdown

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
    stream: Iterable[tuple[str, int, Record]], reader: SourceReader | None = None
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
    source: str, lineno: int, reader: SourceReader | None,
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
    source: str, lineno: int, ordinal: int, reader: SourceReader | None,
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
    f = Finding(raw, origin, file, line, severity, title, reviewer, source, lineno, ordinal,
                related=related_places(raw, file, line))
    f.fingerprint = finding_fingerprint(f)
    out.findings.append(f)


# --------------------------------------------------------------------------- #
# The evidence check and the change each finding points at.
# --------------------------------------------------------------------------- #
TOOL_FINDING = "found by a tool: its evidence is the tool's output, not a quote"


def check_evidence(
    findings: Sequence[Finding], files: ev.FileSource, diff: Sequence[diffs.FileDiff] = (),
) -> None:
    """Run the evidence check on every finding (in place): ``evidence`` set, ``line``
    moved to where the quote is.  ``diff`` (the reviewed change) names files the change
    deleted or renamed, so their findings say so."""
    claims: list[ev.Claim] = []
    todo: list[Finding] = []
    for f in findings:
        if f.raw.get("source") == "script":
            f.evidence = ev.Evidence(ev.NO_QUOTE, f.line, TOOL_FINDING)
            continue
        quote = f.raw.get("evidence")
        claims.append(ev.Claim(f.file, f.line, quote if isinstance(quote, str) else None))
        todo.append(f)
    gone: dict[str, str] = {}
    for fd in diff:
        if fd.deleted:
            gone[normalize_path(fd.path)] = "deleted by the change"
        elif fd.old_path and fd.status == "renamed":
            gone[normalize_path(fd.old_path)] = f"renamed by the change to {fd.path}"
    for f, e in zip(todo, ev.check_all(claims, files), strict=True):
        if e.status == ev.UNVERIFIED and e.reason == ev.MISSING.reason and f.file in gone:
            e = ev.Evidence(e.status, e.line, f"{e.reason}: {gone[f.file]}")
        f.evidence = e
        if e.line is not None:
            end = f.raw.get("end_line")
            if (e.cited_line is not None and isinstance(end, int) and not isinstance(end, bool)
                    and end >= e.cited_line):  # the range moves with its first line
                f.raw = {**f.raw, "end_line": end + e.line - e.cited_line}
            f.line = e.line


ADDED, CONTEXT, IN_FILE, UNCHANGED = "added", "context", "file", "unchanged"
FILTER_MODES = ("added", "diff_context", "file", "nofilter")
_PASSES = {"added": {ADDED}, "diff_context": {ADDED, CONTEXT},
           "file": {ADDED, CONTEXT, IN_FILE}}


def classify_changes(findings: Sequence[Finding], diff: Sequence[diffs.FileDiff]) -> None:
    """Say for each finding whether its line is an added line, hunk context, elsewhere in
    a changed file, or in an unchanged file (in place; a finding naming no file: None)."""
    index: dict[str, tuple[set[int], list[tuple[int, int]]]] = {}
    for fd in diff:
        if fd.path and not fd.deleted:
            index[normalize_path(fd.path)] = ({n for n, _ in fd.added}, list(fd.new))
    for f in findings:
        if not f.file:
            f.change = None
            continue
        got = index.get(f.file)
        if got is None:
            f.change = UNCHANGED
        elif f.line is None:
            f.change = IN_FILE
        elif f.line in got[0]:
            f.change = ADDED
        elif any(a <= f.line <= b for a, b in got[1]):
            f.change = CONTEXT
        else:
            f.change = IN_FILE


def passes(f: Finding, mode: str) -> bool:
    """Whether a finding reaches SARIF, rdjsonl, Code Quality and the gates under
    ``--filter-mode`` ``mode`` (reviewdog's meanings)."""
    return mode == "nofilter" or f.change in _PASSES[mode]


@dataclass
class Result:
    collected: Collected
    items: list[Consolidated]
    gaps: list[str] | None
    exempt: list[str]
    upstream: bool = False
    filter_mode: str = "nofilter"
    checked: bool = False  # the evidence check ran
    fixed: list[Record] | None = None  # baseline findings gone now (None: no baseline)

    @property
    def merged(self) -> int:
        return len(self.collected.findings) - len(self.items)

    def gated(self, *, gate_unverified: bool = False, new_only: bool = False
              ) -> list[tuple[Consolidated, str | None]]:
        """(finding, severity) for each finding the gates see: kept by --filter-mode, new
        under ``new_only``, with at least one member the code does not contradict (any
        member under ``gate_unverified``); the severity is the worst such member's."""
        out = []
        for c in self.items:
            if c.filtered or (new_only and c.baseline == "unchanged"):
                continue
            members = c.counting(gate_unverified)
            if not members:
                continue
            worst = min((m.severity for m in members if m.severity), key=sev.rank,
                        default=None)
            out.append((c, worst if len(members) < len(c.members) else c.severity))
        return out

    def at_or_above(self, level: str, *, gate_unverified: bool = False,
                    new_only: bool = False) -> bool:
        return any(sev.at_or_above(s, level) for _, s in
                   self.gated(gate_unverified=gate_unverified, new_only=new_only))

    def tripped(self, level: str, *, gate_unverified: bool = False,
                new_only: bool = False) -> list[Consolidated]:
        """The findings that trip ``--fail-level level``."""
        return [c for c, s in self.gated(gate_unverified=gate_unverified, new_only=new_only)
                if sev.at_or_above(s, level)]

    def members(self) -> list[Finding]:
        return [m for c in self.items for m in c.members]

    def unverified(self) -> list[Consolidated]:
        """Findings every member of which the code contradicts."""
        return [c for c in self.items if self.checked and not c.checked_out]

    def reported(self) -> list[Consolidated]:
        """What reaches SARIF, rdjsonl and Code Quality (the filter applied)."""
        return [c for c in self.items if not c.filtered]


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
    dedup_rule: str = "finding", upstream: bool = False, filter_mode: str = "nofilter",
) -> Result:
    """``dedup_rule``: ``finding`` (same file, lines within 3, same problem by text) or
    ``position`` (the seed's rule: same file, lines within 3).  Unless ``upstream``, every
    consolidated finding lists its members in every output.  ``filter_mode`` (reviewdog's
    ``added``, ``diff_context``, ``file``, ``nofilter``) marks what the change-scoped
    outputs and the gates leave out; it needs :func:`classify_changes` to have run."""
    if dedup_rule == "position" or upstream:
        items = dedup(collected.findings)
        for c in items:
            c.listed = not upstream
    else:
        items = group_by_finding(collected.findings)
    unique_fingerprints(items)
    assign_ids(items, prior_ids(state))
    for c in items:
        c.filtered = not any(passes(m, filter_mode) for m in c.members)
    missing: list[str] | None = None
    exempt: list[str] = []
    if changed is not None:
        missing, exempt = gaps(changed, collected.findings)
    checked = any(f.evidence is not None for f in collected.findings)
    return Result(collected, items, missing, exempt, upstream, filter_mode, checked)


def unique_fingerprints(items: Sequence[Consolidated]) -> None:
    """Two findings never share a fingerprint (GitLab and code scanning would fold them
    into one): when several do, the one with the smallest text keeps it and each other
    one gets a fingerprint that also covers its own text."""
    by_fp: dict[str, list[Consolidated]] = {}
    for c in items:
        by_fp.setdefault(c.survivor.fingerprint, []).append(c)
    for fp, group in by_fp.items():
        if len(group) < 2:
            continue
        group.sort(key=lambda c: (fold(c.survivor.title).lower(), c.survivor.key))
        taken = {fp}
        for c in group[1:]:
            n = 0
            while True:
                material = f"{fp}\x1f{fold(c.survivor.title).lower()}\x1f{n}"
                cand = hashlib.sha256(material.encode("utf-8", "surrogatepass")).hexdigest()[:32]
                if cand not in taken:
                    break
                n += 1
            taken.add(cand)
            c.unique_fingerprint = cand


# --------------------------------------------------------------------------- #
# Baselines.
# --------------------------------------------------------------------------- #
def baseline_entries(doc: object) -> list[Record]:
    """The findings of an earlier ``--format json`` or SARIF output: each a record with
    ``fingerprints`` (its own and its members') and what the report shows of it."""
    out: list[Record] = []
    if isinstance(doc, dict) and isinstance(doc.get("runs"), list):
        for run in doc["runs"]:
            results = run.get("results") if isinstance(run, dict) else None
            for r in results if isinstance(results, list) else []:
                if not isinstance(r, dict):
                    continue
                pf = r.get("partialFingerprints")
                raw_props = r.get("properties")
                props: Record = raw_props if isinstance(raw_props, dict) else {}
                fps = {pf.get(sarif.FINGERPRINT_KEY)} if isinstance(pf, dict) else set()
                members = props.get("memberFingerprints")
                fps |= set(members) if isinstance(members, list) else set()
                fps = {x for x in fps if isinstance(x, str) and x}
                if not fps:
                    continue
                msg = r.get("message")
                text = msg.get("text") if isinstance(msg, dict) else None
                loc = _sarif_location(r)
                out.append({"fingerprints": sorted(fps), "id": props.get("id"),
                            "file": loc[0], "line": loc[1], "severity": props.get("severity"),
                            "text": (text or "").split("\n", 1)[0]})
        return out
    findings = doc.get("findings") if isinstance(doc, dict) else None
    if not isinstance(findings, list):
        raise DataError("the baseline is neither a --format json document nor SARIF")
    for rec in findings:
        if not isinstance(rec, dict):
            continue
        fps = {rec.get("fingerprint")}
        for m in rec.get("members") or []:
            if isinstance(m, dict):
                fps.add(m.get("fingerprint"))
        fps = {x for x in fps if isinstance(x, str) and x}
        if fps:
            out.append({"fingerprints": sorted(fps), "id": rec.get("id"),
                        "file": rec.get("file"), "line": rec.get("line"),
                        "severity": rec.get("severity"),
                        "text": rec.get("subject") or rec.get("summary") or ""})
    return out


def _sarif_location(r: Record) -> tuple[str | None, int | None]:
    try:
        phys = r["locations"][0]["physicalLocation"]
        return phys["artifactLocation"]["uri"], phys.get("region", {}).get("startLine")
    except (KeyError, IndexError, TypeError):
        return None, None


def apply_baseline(result: Result, entries: Sequence[Record]) -> None:
    """Mark every finding and member ``new`` or ``unchanged``; list the baseline's
    findings that are gone (``fixed``)."""
    known = {fp for e in entries for fp in e["fingerprints"]}
    current: set[str] = set()
    for c in result.items:
        hit = c.fingerprint in known or c.survivor.fingerprint in known
        current.update((c.fingerprint, c.survivor.fingerprint))
        for m in c.members:
            m.baseline = "unchanged" if m.fingerprint in known else "new"
            hit = hit or m.baseline == "unchanged"
            current.add(m.fingerprint)
        c.baseline = "unchanged" if hit else "new"
    fixed = [e for e in entries if not set(e["fingerprints"]) & current]
    fixed.sort(key=lambda e: (str(e.get("file") or ""), e.get("line") or 0,
                              e["fingerprints"][0]))
    result.fixed = [{k: v for k, v in e.items() if k != "fingerprints"}
                    | {"fingerprint": e["fingerprints"][0]} for e in fixed]


def baseline_counts(result: Result) -> tuple[int, int, int] | None:
    """(new, unchanged, fixed), when a baseline was given."""
    if result.fixed is None:
        return None
    new = sum(1 for c in result.items if c.baseline == "new")
    return new, len(result.items) - new, len(result.fixed)


def evidence_counts(result: Result) -> dict[str, int]:
    counts = {s: 0 for s in ev.STATUSES}
    for m in result.members():
        if m.status is not None:
            counts[m.status] += 1
    return counts


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
            checks=checks_of(result),
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
    if result.checked:
        doc["counts"]["evidence"] = evidence_counts(result)
        doc["unverified"] = [c.id for c in result.unverified()]
    if result.filter_mode != "nofilter":
        doc["filter_mode"] = result.filter_mode
        doc["filtered_out"] = [c.id for c in result.items if c.filtered]
    counts = baseline_counts(result)
    if counts is not None:
        doc["baseline"] = {"new": counts[0], "unchanged": counts[1], "fixed": counts[2]}
        doc["fixed"] = result.fixed
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
            "totals": usage.totals(r.record for r in synth.reviewers if r.record),
            "report_path": report_path,
        }
    elif synth is not None:
        doc["synthesis"] = {
            "mode": synth.mode,
            "slug": synth.slug,
            "date": synth.date,
            "headline": synthesis.headline(synth.reviewers),
            "reviewers": _reviewers(synth),
            "totals": usage.totals(r.record for r in synth.reviewers if r.record),
            "agreement": [_loc(loc) for loc in synth.agreement],
            "conflicts": [_loc(loc) for loc in synth.conflicts],
            "report_path": report_path,
        }
    return orjson.dumps(doc, option=orjson.OPT_INDENT_2) + b"\n"


def _reviewers(synth: synthesis.Synthesis) -> list[Record]:
    return [
        {"reviewer": r.slot, "verdict": r.verdict,
         "confidence": (r.record or {}).get("confidence"), "findings": len(r.findings),
         "family": usage.family(r.record), "usage": usage.reviewer_usage(r.record),
         "coverage": usage.coverage_summary(r.record)}
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


def _n(n: int, what: str) -> str:
    return f"{n} finding{'s' if n != 1 else ''} {what}"


def sarif_bytes(result: Result, category: str) -> tuple[bytes, list[str]]:
    log, left = sarif.document(result.items, category=category, filter_mode=result.filter_mode)
    notes = left.notes("SARIF", "code scanning needs a location for every result",
                       result.filter_mode)
    return orjson.dumps(log, option=orjson.OPT_INDENT_2) + b"\n", notes


def _outside_note(items: Sequence[Consolidated]) -> list[str]:
    n = sum(1 for c in items if c.survivor.file and not sarif.placed(c))
    return [_n(n, "naming a file outside the repository kept without a location")] if n else []


def _unplaced_note(items: Sequence[Consolidated]) -> list[str]:
    n = sum(1 for c in items if not c.survivor.file)
    return [_n(n, "without a file kept without a location")] if n else []


def _filtered_note(result: Result, fmt: str) -> list[str]:
    n = sum(1 for c in result.items if c.filtered)
    return [_n(n, f"left out of {fmt} by --filter-mode {result.filter_mode}")] if n else []


def rdjsonl_bytes(result: Result, reader: SourceReader) -> tuple[bytes, list[str]]:
    """The reviewdog diagnostics; under ``--upstream`` findings naming no file are left out."""
    keep = not result.upstream
    reported = result.reported()
    placed = [c for c in reported if c.survivor.file or keep]
    notes = _filtered_note(result, "rdjsonl")
    notes += _unplaced_note(placed) if keep else []
    left = len(reported) - len(placed)
    if left:
        notes.append(_n(left, "without a file left out of rdjsonl"))
    notes += _outside_note(placed)
    return b"".join(rdjson.line(c, reader) for c in placed), notes


def codequality_bytes(result: Result) -> tuple[bytes, list[str]]:
    """GitLab's Code Quality report: one entry per placed finding."""
    entries, left = codequality.document(result.items)
    notes = left.notes("the Code Quality report", "GitLab needs location.path",
                       result.filter_mode)
    return orjson.dumps(entries, option=orjson.OPT_INDENT_2) + b"\n", notes


def review_markdown_bytes(result: Result, reader: SourceReader) -> bytes:
    return vocab.inert_controls(review_markdown.render(
        result.items, reader, merged=result.merged, gaps=result.gaps, exempt=result.exempt,
        checks=checks_of(result),
    )).encode("utf-8")


def checks_of(result: Result) -> Checks:
    """What the reports say about the evidence check, the filter and the baseline."""
    return Checks(
        checked=result.checked,
        unverified=result.unverified(),
        filtered=[c for c in result.items if c.filtered],
        filter_mode=result.filter_mode,
        baseline=baseline_counts(result),
        fixed=result.fixed or [],
        claims_unverified=sum(1 for m in result.members() if m.status == ev.UNVERIFIED),
    )
