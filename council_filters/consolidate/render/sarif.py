"""SARIF 2.1.0 as GitHub code scanning accepts it.

One run (one tool, one category) per file; one rule per finding category
(``council/security``, ``council/general``: stable, never a sequence number,
so alerts keep their identity when findings come and go) with the
descriptions GitHub requires; ``partialFingerprints.primaryLocationLineHash``
from the content fingerprint (it survives line shifts and reordering);
``security-severity`` on security rules; line-only regions (no column-unit
trap).  Every result has a location: findings naming no file or a file
outside the repository are left out and counted in the run's properties,
since GitHub refuses the whole upload for one result without a location.
``relatedLocations`` hold the members of a merged finding (their reviewers'
words), then the other places the finding is cited at (``related``), each
with an id the message links (``Also at: [b.py:22](3)``), as GitHub shows
them; a related place outside the repository is left out.
GitHub's limits: at most 25,000 results and rules per run (the least severe
are left out and counted), descriptions cut to 1,024 characters, at most 20
tags per rule.
"""

from __future__ import annotations

import urllib.parse
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from council_filters import __version__
from council_filters.base import severity as sev
from council_filters.base.paths import repo_path
from council_filters.consolidate.finding import (
    Consolidated,
    category_of,
    fold,
    members_text,
    status_text,
)

SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
MAX_RESULTS = 25_000
MAX_DESCRIPTION = 1024
MAX_TAGS = 20
LEVELS = {"critical": "error", "medium": "warning", "minor": "note"}
PROBLEM_SEVERITY = {"critical": "error", "medium": "warning", "minor": "recommendation"}
SECURITY_SEVERITY = {"critical": "9.0", "medium": "5.5", "minor": "2.0"}


def _cut(text: str, limit: int = MAX_DESCRIPTION) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _link_text(text: str) -> str:
    """A place as the text of a SARIF message link (``[text](id)``): brackets escaped."""
    return text.replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]")


def artifact_uri(path: str) -> str | None:
    """The relative URI of a repository path; None for a path outside the repository."""
    inside = repo_path(path)
    return None if inside is None else urllib.parse.quote(inside, safe="/-._~")


FINGERPRINT_KEY = "councilFingerprint/v2"
RULE_PREFIX = "council/"


def rule_id(c: Consolidated) -> str:
    """The stable rule of a finding: one per category (``council/security``), never a
    sequence number, so adding a finding never renames another's rule."""
    return RULE_PREFIX + category_of(c.survivor.raw, c.survivor.origin)


def _worst(items: Sequence[Consolidated]) -> str | None:
    return min((c.severity for c in items if c.severity), key=sev.rank, default=None)


def rule(ident: str, items: Sequence[Consolidated]) -> dict[str, Any]:
    """One rules entry for every finding of one category."""
    category = ident[len(RULE_PREFIX):]
    worst = _worst(items)
    groups = sorted({c.group.lower() for c in items})
    origins = sorted({o for c in items for o in c.origins})
    tags = list(dict.fromkeys([category, *groups, *origins]))[:MAX_TAGS]
    props: dict[str, Any] = {"tags": tags, "precision": "medium"}
    if category == "security" or any(c.group == "Security" for c in items):
        props["security-severity"] = SECURITY_SEVERITY.get(worst or "", "5.5")
    else:
        props["problem.severity"] = PROBLEM_SEVERITY.get(worst or "", "warning")
    return {
        "id": ident,
        "name": "".join(w.capitalize() for w in category.split("-")) or "General",
        "shortDescription": {"text": f"Review council finding: {category}"},
        "fullDescription": {"text": _cut(
            f"A problem in the {category} category that the review council's reviewers"
            " raised; each result carries the reviewers' own words.")},
        "help": {"text": "Read the finding's message and the reviewers it names; the"
                 " council report holds their full output."},
        "defaultConfiguration": {"level": "warning"},
        "properties": props,
    }


def result(c: Consolidated, index: int) -> dict[str, Any]:
    s = c.survivor
    region: dict[str, Any] = {"startLine": s.line or 1}
    end = s.raw.get("end_line")
    if s.line and isinstance(end, int) and end > s.line:
        region["endLine"] = end
    uri = artifact_uri(s.file) if s.file else None
    assert uri is not None  # findings without a place never reach SARIF
    locations = [{"physicalLocation": {
        "artifactLocation": {"uri": uri},
        "region": region,
    }}]
    text = fold(s.title)
    status = status_text(s)
    if status is not None and s.status != "verified":
        text += f" [{status}]"
    related: list[dict[str, Any]] = []
    if c.listed and len(c.members) > 1:
        text += "\n\n" + members_text(c)
        for i, m in enumerate(c.members):
            loc: dict[str, Any] = {"id": i}
            m_uri = artifact_uri(m.file) if m.file else None
            if m_uri is not None:
                loc["physicalLocation"] = {
                    "artifactLocation": {"uri": m_uri},
                    "region": {"startLine": m.line or 1},
                }
            loc["message"] = {"text": f"{m.origin}: {fold(m.title)}"}
            related.append(loc)
    links = []
    for p in c.related:
        p_uri = artifact_uri(p.file)
        if p_uri is None:
            continue
        p_region: dict[str, Any] = {"startLine": p.line or 1}
        if p.line and p.end_line and p.end_line > p.line:
            p_region["endLine"] = p.end_line
        ident = len(related)
        related.append({"id": ident, "physicalLocation": {
            "artifactLocation": {"uri": p_uri}, "region": p_region},
            "message": {"text": "also at " + p.text()}})
        links.append(f"[{_link_text(p.text())}]({ident})")
    if links:
        text += "\n\nAlso at: " + ", ".join(links) + "."
    props: dict[str, Any] = {
        "id": c.id,
        "origin": s.origin,
        "group": c.group,
        "severity": c.severity,
        "mergedOrigins": c.origins,
        "memberFingerprints": sorted({m.fingerprint for m in c.members}),
    }
    if s.evidence is not None:
        props["evidenceStatus"] = s.status
        if s.evidence.reason:
            props["evidenceReason"] = s.evidence.reason
        if s.cited_line is not None:
            props["citedLine"] = s.cited_line
    if s.change is not None:
        props["change"] = s.change
    if c.baseline is not None:
        props["baseline"] = c.baseline
    out: dict[str, Any] = {
        "ruleId": rule_id(c),
        "ruleIndex": index,
        "level": LEVELS.get(c.severity or "", "warning"),
        "message": {"text": text},
        "locations": locations,
        "partialFingerprints": {
            "primaryLocationLineHash": f"{c.fingerprint[:16]}:1",
            FINGERPRINT_KEY: c.fingerprint,
        },
        "properties": props,
    }
    if c.baseline is not None:
        out["baselineState"] = "unchanged" if c.baseline == "unchanged" else "new"
    if related:
        out["relatedLocations"] = related
    return out


@dataclass
class Left:
    """What SARIF leaves out, and why."""

    no_file: int = 0
    outside: int = 0
    filtered: int = 0
    over: int = 0

    def properties(self) -> dict[str, int]:
        return {"withoutFile": self.no_file, "outsideRepository": self.outside,
                "filteredOut": self.filtered, "overResultLimit": self.over}

    def notes(self, output: str, need: str, filter_mode: str) -> list[str]:
        """The stderr lines that say what ``output`` left out (``need``: why a place is
        required)."""
        out = []
        if self.no_file:
            out.append(_n(self.no_file, f"without a file left out of {output} ({need})"))
        if self.outside:
            out.append(_n(self.outside, f"naming a file outside the repository left out of"
                          f" {output}"))
        if self.filtered:
            out.append(_n(self.filtered, f"left out of {output} by --filter-mode {filter_mode}"))
        if self.over:
            out.append(f"{self.over} least severe findings left out (GitHub takes"
                       f" {MAX_RESULTS} results per run)")
        return out


def _n(n: int, what: str) -> str:
    return f"{n} finding{'s' if n != 1 else ''} {what}"


def split(items: Sequence[Consolidated]) -> tuple[list[Consolidated], Left]:
    """The findings a location-bound format can place, and what it leaves out: what
    ``--filter-mode`` filtered, findings naming no file or a file outside the repository."""
    left = Left()
    kept: list[Consolidated] = []
    for c in items:
        if c.filtered:
            left.filtered += 1
        elif not c.survivor.file:
            left.no_file += 1
        elif not placed(c):
            left.outside += 1
        else:
            kept.append(c)
    return kept, left


def placed(c: Consolidated) -> bool:
    """A finding SARIF can place: it names a file inside the repository."""
    return bool(c.survivor.file) and artifact_uri(c.survivor.file or "") is not None


def document(
    items: Sequence[Consolidated], *, category: str = "council/", tool_name: str = "council",
    filter_mode: str = "nofilter",
) -> tuple[dict[str, Any], Left]:
    """(SARIF log, what was left out).

    GitHub refuses a whole upload when one result has no location, so a finding
    naming no file, or a file outside the repository, is left out (and counted in
    the run's ``properties.omitted``); so is what ``--filter-mode`` leaves out, and,
    past 25,000 results, the least severe.
    """
    kept, left = split(items)
    if len(kept) > MAX_RESULTS:
        keep = sorted(kept, key=lambda c: sev.rank(c.severity or ""))[:MAX_RESULTS]
        ids = {id(c) for c in keep}
        left.over = len(kept) - MAX_RESULTS
        kept = [c for c in kept if id(c) in ids]
    by_rule: dict[str, list[Consolidated]] = {}
    for c in kept:
        by_rule.setdefault(rule_id(c), []).append(c)
    order = sorted(by_rule)
    index = {r: i for i, r in enumerate(order)}
    rules = [rule(r, by_rule[r]) for r in order]
    results = [result(c, index[rule_id(c)]) for c in kept]
    log = {
        "$schema": SCHEMA_URI,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": tool_name,
                "semanticVersion": __version__,
                "rules": rules,
            }},
            "automationDetails": {"id": category},
            "columnKind": "utf16CodeUnits",
            "results": results,
            "properties": {"filterMode": filter_mode, "omitted": left.properties()},
        }],
    }
    return log, left
