"""SARIF 2.1.0 as GitHub code scanning accepts it.

One run (one tool, one category) per file; one rule per finding ID (IDs are
stable across cycles, so alerts keep their identity) with the descriptions
GitHub requires; ``partialFingerprints.primaryLocationLineHash`` from the
content fingerprint (it survives line shifts); ``security-severity`` on
security rules; line-only regions (no column-unit trap).  GitHub's limits:
at most 25,000 results and rules per run (the least severe are left out and
counted), descriptions cut to 1,024 characters, at most 20 tags per rule.
"""

from __future__ import annotations

import urllib.parse
from collections.abc import Sequence
from typing import Any

from council_filters import __version__
from council_filters import severity as sev
from council_filters.consolidate.finding import Consolidated, fold, members_text, repo_path

SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
MAX_RESULTS = 25_000
MAX_DESCRIPTION = 1024
MAX_TAGS = 20
LEVELS = {"critical": "error", "medium": "warning", "minor": "note"}
PROBLEM_SEVERITY = {"critical": "error", "medium": "warning", "minor": "recommendation"}
SECURITY_SEVERITY = {"critical": "9.0", "medium": "5.5", "minor": "2.0"}


def _cut(text: str, limit: int = MAX_DESCRIPTION) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def artifact_uri(path: str) -> str | None:
    """The relative URI of a repository path; None for a path outside the repository."""
    inside = repo_path(path)
    return None if inside is None else urllib.parse.quote(inside, safe="/-._~")


def _text(c: Consolidated, key: str) -> str:
    v = c.survivor.raw.get(key)
    return v.strip() if isinstance(v, str) else ""


def _precision(c: Consolidated) -> str:
    conf = c.survivor.raw.get("confidence")
    if c.survivor.raw.get("source") == "script":
        return "very-high"
    if isinstance(conf, (int, float)) and not isinstance(conf, bool):
        return "very-high" if conf >= 1 else "high" if conf >= 0.9 else "medium"
    if isinstance(conf, str):
        word = conf.strip().lower()
        return word if word in ("high", "medium", "low") else "medium"
    return "medium"


def rule(c: Consolidated) -> dict[str, Any]:
    title = fold(c.survivor.title)
    full = fold(_text(c, "discussion")) or title
    origins = ", ".join(c.origins)
    help_text = f"{_text(c, 'discussion') or title}\n\nRaised by: {origins}."
    tags = [c.group.lower(), *c.origins]
    props: dict[str, Any] = {
        "tags": list(dict.fromkeys(tags))[:MAX_TAGS],
        "precision": _precision(c),
    }
    if c.group == "Security":
        props["security-severity"] = SECURITY_SEVERITY.get(c.severity or "", "5.5")
    else:
        props["problem.severity"] = PROBLEM_SEVERITY.get(c.severity or "", "warning")
    return {
        "id": c.id,
        "shortDescription": {"text": _cut(title)},
        "fullDescription": {"text": _cut(full)},
        "help": {"text": help_text},
        "defaultConfiguration": {"level": LEVELS.get(c.severity or "", "warning")},
        "properties": props,
    }


def result(c: Consolidated, index: int) -> dict[str, Any]:
    s = c.survivor
    region: dict[str, Any] = {"startLine": s.line or 1}
    end = s.raw.get("end_line")
    if s.line and isinstance(end, int) and end > s.line:
        region["endLine"] = end
    uri = artifact_uri(s.file) if s.file else None
    locations = [] if uri is None else [{"physicalLocation": {
        "artifactLocation": {"uri": uri},
        "region": region,
    }}]
    text = fold(s.title)
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
    out: dict[str, Any] = {
        "ruleId": c.id,
        "ruleIndex": index,
        "level": LEVELS.get(c.severity or "", "warning"),
        "message": {"text": text},
        "locations": locations,
        "partialFingerprints": {
            "primaryLocationLineHash": f"{c.fingerprint[:16]}:1",
            "councilFingerprint/v1": c.fingerprint,
        },
        "properties": {
            "origin": s.origin,
            "group": c.group,
            "severity": c.severity,
            "mergedOrigins": c.origins,
        },
    }
    if related:
        out["relatedLocations"] = related
    return out


def document(
    items: Sequence[Consolidated], *, category: str = "council/", tool_name: str = "council",
    keep_unplaced: bool = False,
) -> tuple[dict[str, Any], int, int]:
    """(SARIF log, findings left out for having no file, left out over the result limit).

    A finding whose file is outside the repository stays, without a location
    (see :func:`outside_count`); so does one naming no file when ``keep_unplaced``
    (the default reading: every finding reaches every format).
    """
    placed = [c for c in items if c.survivor.file or keep_unplaced]
    no_file = len(items) - len(placed)
    over = 0
    if len(placed) > MAX_RESULTS:
        keep = sorted(placed, key=lambda c: sev.rank(c.severity or ""))[:MAX_RESULTS]
        kept = {id(c) for c in keep}
        over = len(placed) - MAX_RESULTS
        placed = [c for c in placed if id(c) in kept]
    rules = [rule(c) for c in placed]
    results = [result(c, i) for i, c in enumerate(placed)]
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
        }],
    }
    return log, no_file, over


def outside_count(items: Sequence[Consolidated]) -> int:
    """Findings naming a file outside the repository (kept without a location)."""
    return sum(1 for c in items if c.survivor.file and repo_path(c.survivor.file) is None)
