"""What the deterministic reviewers (council-scan, council-tests) share: the finding they
write, the ``--fail-level`` check, and where their summary record goes."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from council_filters.base import safefs
from council_filters.base import severity as sev
from council_filters.base.errors import UsageError
from council_filters.base.jsonl import RecordWriter, dumps


def finding(origin: str, category: str, rule: str, severity: str, summary: str,
            discussion: str, *, file: str | None = None, line: int | None = None,
            evidence: str | None = None, **extra: Any) -> dict[str, Any]:
    """A script finding: ``source: "script"``, ``confidence: 1.0``, fields in one order."""
    rec: dict[str, Any] = {
        "kind": "finding", "origin": origin, "source": "script", "confidence": 1.0,
        "severity": severity, "category": category, "rule": rule, "file": file, "line": line,
        "summary": summary,
    }
    if evidence:
        rec["evidence"] = evidence
    rec["discussion"] = discussion
    rec.update(extra)
    return rec


def fail_level(value: str | None) -> str | None:
    """``--fail-level``'s canonical severity (None when not given); a usage error if unknown."""
    return sev.gate_level(value, "--fail-level")


def reaches(findings: Iterable[dict[str, Any]], level: str | None) -> bool:
    """Some finding is at or above ``level``."""
    return level is not None and any(
        sev.at_or_above(sev.normalize(f.get("severity")), level) for f in findings)


def write_summary(writer: RecordWriter, path: str | None, record: dict[str, Any]) -> None:
    """The summary as the stream's last record, or atomically replacing ``path``."""
    if path is None:
        writer.write(record)
        return
    try:
        safefs.replace(path, dumps(record))
    except OSError as exc:
        raise UsageError(f"cannot write: {exc.strerror or type(exc).__name__}",
                         source=path) from None
