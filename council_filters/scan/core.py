"""The security scan over a diff's added lines: secrets, lexical patterns, dependency audit.

Only ``+`` lines of the diff are looked at (never context or removed lines,
never ``+++`` headers), so every finding anchors to a line the change adds.
Findings are ``origin: "security"``, ``source: "script"``, ``confidence: 1.0``
and sorted by file, line and rule.  A secret's text never reaches a finding:
the rule name and the line say where it is.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from council_filters.base import diffs as diffparse
from council_filters.base import script_findings
from council_filters.context import stack as stk
from council_filters.scan import audit, lexical, secrets

ORIGIN = "security"
EVIDENCE_CAP = 200
_SECRET_WHY = ("A credential committed to the repository is readable by everyone with access"
               " to it and stays in its history. Revoke it, remove it, and read it from the"
               " environment or a secret store.")


@dataclass
class ScanResult:
    findings: list[dict[str, Any]] = field(default_factory=list)
    skipped: list[audit.Skipped] = field(default_factory=list)
    audited: list[dict[str, Any]] = field(default_factory=list)
    files: int = 0
    added_lines: int = 0


def _finding(rule: str, severity: str, file: str, line: int | None, summary: str,
             discussion: str, evidence: str | None = None, **extra: Any) -> dict[str, Any]:
    return script_findings.finding(ORIGIN, "security", rule, severity, summary, discussion,
                                   file=file, line=line, evidence=evidence, **extra)


def _evidence(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= EVIDENCE_CAP else text[: EVIDENCE_CAP - 1] + "\u2026"


def scan_lines(files: Sequence[diffparse.FileDiff], result: ScanResult,
               detect: secrets.Detector) -> None:
    for f in files:
        if f.binary or f.status == "deleted" or not f.added:
            continue
        result.files += 1
        lang = lexical.language(f.path)
        for number, raw in f.added:
            result.added_lines += 1
            rule = detect.find(raw, f.path)
            if rule is not None:
                result.findings.append(_finding(
                    f"secret/{rule}", "critical", f.path, number,
                    f"Credential added to the repository ({rule})", _SECRET_WHY,
                    secret_rule=rule))
            if lang is None:
                continue
            text = raw.decode("utf-8", "replace")
            for lex in lexical.match_line(lang, text):
                result.findings.append(_finding(
                    lex.id, lex.severity, f.path, number, lex.summary, lex.discussion,
                    evidence=None if rule is not None else _evidence(text)))


def audit_dependencies(files: Sequence[diffparse.FileDiff], repo: Path | None,
                       tree: stk.Tree | None, result: ScanResult, timeout: float) -> None:
    changed = [f.path for f in files if stk.is_dependency_file(f.path)]
    if not changed:
        return
    if repo is None or tree is None:
        result.skipped.append(audit.Skipped("dependency-audit", ".", None,
                                            "no repository to audit (the diff came alone)"))
        return
    added = {f.path: {n: t for n, t in f.added} for f in files}
    roots = stk.package_roots(tree)
    done: set[tuple[str, str]] = set()
    for path in changed:
        root = stk.root_of(path, roots)
        if root is None:
            continue
        for eco in stk.root_ecosystems(tree, root):
            stack = stk.DETECTORS[eco](tree, root)
            if (root, eco) in done:
                continue
            done.add((root, eco))
            auditor = audit.auditor_for(eco, stack.manager)
            if auditor is None:
                result.skipped.append(audit.Skipped("dependency-audit", root, None,
                                                    f"no auditor for {eco} ({stack.manager})"))
                continue
            outcome = audit.run(auditor, repo / root if root != "." else repo,
                                stk.split(stack.manifest)[1], root, timeout)
            if isinstance(outcome, audit.Skipped):
                result.skipped.append(outcome)
                continue
            result.audited.append({"root": root, "tool": auditor.tool,
                                   "advisories": len(outcome)})
            for adv in outcome:
                file, line = _locate(adv.package, stack.manifest, added)
                version = f"@{adv.version}" if adv.version else ""
                result.findings.append(_finding(
                    "vulnerable-dependency", adv.severity, file, line,
                    f"Vulnerable dependency {adv.package}{version}: {adv.id}",
                    "The dependency has a published advisory"
                    + (f" ({adv.title})" if adv.title else "")
                    + ". Upgrade to a fixed version or replace it.",
                    tool=auditor.tool, advisory=adv.id, package=adv.package))


def _locate(package: str, manifest: str, added: dict[str, dict[int, bytes]]
            ) -> tuple[str, Any]:
    """The added manifest line naming the package, else the manifest without a line."""
    needle = package.lower().encode()
    for path in [manifest, *sorted(added)]:
        for number, text in sorted(added.get(path, {}).items()):
            if needle in text.lower():
                return path, number
    return manifest, None


def sort_key(rec: dict[str, Any]) -> tuple[Any, ...]:
    return (rec.get("file") or "", rec.get("line") or 0, rec.get("rule") or "",
            rec.get("summary") or "")


def scan(diff: bytes, repo: Path | None, tree: stk.Tree | None, *, audit_deps: bool = False,
         timeout: float = audit.AUDIT_TIMEOUT, detect: secrets.Detector | None = None,
         only: set[str] | None = None) -> ScanResult:
    """Scan ``diff``; with ``only``, just those files (the ones a context described)."""
    files = [f for f in diffparse.parse(diff) if only is None or f.path in only]
    result = ScanResult()
    scan_lines(files, result, detect or secrets.detector(secrets.DEFAULT))
    if audit_deps:
        audit_dependencies(files, repo, tree, result, timeout)
    elif any(stk.is_dependency_file(f.path) for f in files):
        result.skipped.append(audit.Skipped(
            "dependency-audit", ".", None, "not asked: the audit runs only with --audit"))
    result.findings.sort(key=sort_key)
    return result
