"""GitLab's Code Quality report (``artifacts:reports:codequality``): a JSON array of issues.

One entry per consolidated finding, with the fields GitLab documents:
``description``, ``check_name`` (the finding's stable rule, as in SARIF),
``fingerprint`` (the finding's content fingerprint: unique within the report,
since GitLab keeps one entry per fingerprint), ``severity`` (``info``,
``minor``, ``major``, ``critical``, ``blocker``), ``location.path`` (relative
to the repository) and ``location.lines.begin`` (an integer).  GitLab's
parser stops at the first entry it cannot read, so a finding naming no file,
or a file outside the repository, is left out (and counted) rather than
written with a made-up path; so is what ``--filter-mode`` leaves out.  The
format has one location an issue: the other places a finding is cited at are
named in its description (``(also at b.py:22, c.py:31)``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from council_filters.base.paths import repo_path
from council_filters.consolidate.finding import Consolidated, fold, status_text
from council_filters.consolidate.render.sarif import Left, rule_id, split

SEVERITY = {"critical": "critical", "medium": "major", "minor": "minor"}
MAX_DESCRIPTION = 4000


def severity(c: Consolidated) -> str:
    """critical -> ``critical`` (``blocker`` for a security finding), medium -> ``major``,
    minor -> ``minor``, unrated -> ``info``."""
    if c.severity == "critical" and c.group == "Security":
        return "blocker"
    return SEVERITY.get(c.severity or "", "info")


def entry(c: Consolidated) -> dict[str, Any]:
    s = c.survivor
    path = repo_path(s.file or "")
    assert path is not None
    text = fold(s.title)
    n = len(c.citers)
    if n > 1:
        text += f" (raised by {n} reviewers: {', '.join(c.citers)})"
    if c.related:
        text += " (also at " + ", ".join(p.text() for p in c.related) + ")"
    status = status_text(s)
    if status is not None and s.status != "verified":
        text += f" [{status}]"
    if len(text) > MAX_DESCRIPTION:
        text = text[: MAX_DESCRIPTION - 1] + "…"
    lines: dict[str, int] = {"begin": s.line or 1}
    end = s.raw.get("end_line")
    if s.line and isinstance(end, int) and not isinstance(end, bool) and end > s.line:
        lines["end"] = end
    return {
        "description": f"{c.id}: {text}" if c.id else text,
        "check_name": rule_id(c),
        "fingerprint": c.fingerprint,
        "severity": severity(c),
        "location": {"path": path, "lines": lines},
    }


def document(items: Sequence[Consolidated]) -> tuple[list[dict[str, Any]], Left]:
    kept, left = split(items)
    return [entry(c) for c in kept], left
