"""Coverage reports: per-file line hits and a total, from the formats test tools write.

Pure functions over bytes.  Understood: coverage.py JSON (``coverage json``,
``pytest --cov-report=json``), Cobertura XML (``coverage.xml``), LCOV
(``lcov.info``), Istanbul ``coverage-final.json`` and ``coverage-summary.json``,
Go cover profiles, JaCoCo XML.  Paths are returned as the report wrote them.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field


@dataclass
class Coverage:
    format: str
    percent: float | None = None
    lines: dict[str, dict[int, int]] = field(default_factory=dict)  # file -> line -> hits

    def total(self) -> float | None:
        if self.percent is not None:
            return self.percent
        measured = sum(len(v) for v in self.lines.values())
        if not measured:
            return None
        hit = sum(1 for v in self.lines.values() for h in v.values() if h > 0)
        return 100.0 * hit / measured


def read(name: str, data: bytes) -> Coverage | None:
    """Parse one report, choosing the reader by file name and content; None when unknown."""
    lower = name.lower()
    try:
        if lower.endswith(".json"):
            return _json(data)
        if lower.endswith(".xml"):
            return _xml(data)
        if lower.endswith((".info", ".lcov")):
            return _lcov(data)
        if lower.endswith((".out", ".cov", ".profile")) or data.startswith(b"mode: "):
            return _go(data)
    except (ValueError, ET.ParseError, KeyError, TypeError, AttributeError):
        return None
    return None


def _json(data: bytes) -> Coverage | None:
    doc = json.loads(data)
    if not isinstance(doc, dict):
        return None
    if isinstance(doc.get("files"), dict) and isinstance(doc.get("totals"), dict):  # coverage.py
        cov = Coverage("coverage.py", percent=float(doc["totals"].get("percent_covered", 0.0)))
        for path, info in doc["files"].items():
            seen = {int(n): 1 for n in info.get("executed_lines", [])}
            seen.update({int(n): 0 for n in info.get("missing_lines", [])})
            cov.lines[path] = seen
        return cov
    if isinstance(doc.get("total"), dict):  # istanbul summary
        pct = doc["total"].get("lines", {}).get("pct")
        return Coverage("istanbul-summary", percent=float(pct)) if pct is not None else None
    cov = Coverage("istanbul")
    for path, info in doc.items():
        if not isinstance(info, dict) or "statementMap" not in info:
            continue
        hits: dict[int, int] = {}
        for key, loc in info["statementMap"].items():
            line = int(loc["start"]["line"])
            hits[line] = max(hits.get(line, 0), int(info.get("s", {}).get(key, 0)))
        cov.lines[info.get("path") or path] = hits
    return cov if cov.lines else None


def _xml(data: bytes) -> Coverage | None:
    root = ET.fromstring(data)  # noqa: S314
    if root.tag == "coverage":  # Cobertura
        rate = root.get("line-rate")
        cov = Coverage("cobertura", percent=float(rate) * 100 if rate is not None else None)
        sources = [s.text.strip() for s in root.iter("source") if s.text and s.text.strip()]
        for cls in root.iter("class"):
            path = cls.get("filename") or ""
            hits = cov.lines.setdefault(path, {})
            for line in cls.iter("line"):
                n = int(line.get("number", "0"))
                hits[n] = max(hits.get(n, 0), int(line.get("hits", "0")))
        cov.sources = sources  # type: ignore[attr-defined]
        return cov
    if root.tag == "report":  # JaCoCo
        cov = Coverage("jacoco")
        for pkg in root.iter("package"):
            for src in pkg.iter("sourcefile"):
                path = f"{pkg.get('name')}/{src.get('name')}"
                cov.lines[path] = {int(ln.get("nr", "0")): int(ln.get("ci", "0"))
                                   for ln in src.iter("line")}
        for counter in root.findall("counter"):
            if counter.get("type") == "LINE":
                missed, covered = int(counter.get("missed", "0")), int(counter.get("covered", "0"))
                if missed + covered:
                    cov.percent = 100.0 * covered / (missed + covered)
        return cov
    return None


def _lcov(data: bytes) -> Coverage | None:
    cov = Coverage("lcov")
    current: dict[int, int] | None = None
    for raw in data.decode("utf-8", "replace").splitlines():
        if raw.startswith("SF:"):
            current = cov.lines.setdefault(raw[3:].strip(), {})
        elif raw.startswith("DA:") and current is not None:
            parts = raw[3:].split(",")
            n, h = int(parts[0]), int(float(parts[1]))
            current[n] = max(current.get(n, 0), h)
        elif raw.startswith("end_of_record"):
            current = None
    return cov if cov.lines else None


_GO_LINE = re.compile(r"^(.+):(\d+)\.\d+,(\d+)\.\d+ (\d+) (\d+)$")


def _go(data: bytes) -> Coverage | None:
    cov = Coverage("go")
    statements = covered = 0
    for raw in data.decode("utf-8", "replace").splitlines():
        m = _GO_LINE.match(raw.strip())
        if not m:
            continue
        start, end, stmts, count = int(m[2]), int(m[3]), int(m[4]), int(m[5])
        statements += stmts
        covered += stmts if count > 0 else 0
        hits = cov.lines.setdefault(m[1], {})
        for n in range(start, end + 1):
            hits[n] = max(hits.get(n, 0), count)
    if not statements:
        return None
    cov.percent = 100.0 * covered / statements
    return cov


# --------------------------------------------------------------------------- #
# New functions in the diff.
# --------------------------------------------------------------------------- #
FUNCTION_DEFS: dict[str, re.Pattern[str]] = {
    ".py": re.compile(r"^\s*(?:async\s+)?def\s+([A-Za-z_]\w*)\s*\("),
    ".go": re.compile(r"^func\s+(?:\([^)]*\)\s*)?([A-Za-z_]\w*)\s*[\[(]"),
    ".rs": re.compile(r"^\s*(?:pub(?:\([^)]*\))?\s+)?(?:async\s+)?fn\s+([A-Za-z_]\w*)"),
    ".rb": re.compile(r"^\s*def\s+(?:self\.)?([A-Za-z_]\w*[?!=]?)"),
    ".js": re.compile(r"^\s*(?:export\s+)?(?:default\s+)?(?:async\s+)?function\s*\*?\s*"
                      r"([A-Za-z_$][\w$]*)|^\s*(?:export\s+)?(?:const|let)\s+([A-Za-z_$][\w$]*)"
                      r"\s*=\s*(?:async\s*)?(?:\([^)]*\)|[A-Za-z_$][\w$]*)\s*=>"),
    ".java": re.compile(r"^\s*(?:public|protected|private|static|final|synchronized|\s)+"
                        r"[\w<>\[\], ]+\s+([A-Za-z_]\w*)\s*\([^;]*$"),
    ".php": re.compile(r"^\s*(?:public|protected|private|static|\s)*function\s+([A-Za-z_]\w*)"),
    ".ex": re.compile(r"^\s*defp?\s+([a-z_]\w*[?!]?)"),
}
for _ext, _same in ((".ts", ".js"), (".tsx", ".js"), (".jsx", ".js"), (".mjs", ".js"),
                    (".cjs", ".js"), (".kt", ".java"), (".exs", ".ex")):
    FUNCTION_DEFS[_ext] = FUNCTION_DEFS[_same]


def function_starts(path: str, lines: list[str]) -> list[tuple[int, str]]:
    """(1-based line, name) of every function definition in a file's lines."""
    ext = "." + path.rsplit(".", 1)[-1] if "." in path else ""
    rx = FUNCTION_DEFS.get(ext)
    if rx is None:
        return []
    out = []
    for i, line in enumerate(lines, start=1):
        m = rx.match(line)
        if m:
            out.append((i, next(g for g in m.groups() if g)))
    return out


def uncovered_new_functions(path: str, lines: list[str], added: set[int],
                            hits: dict[int, int]) -> list[tuple[int, str]]:
    """New functions (definition line added) whose measured lines all have zero hits."""
    starts = function_starts(path, lines)
    out = []
    for idx, (start, name) in enumerate(starts):
        if start not in added:
            continue
        end = starts[idx + 1][0] - 1 if idx + 1 < len(starts) else len(lines)
        measured = [hits[n] for n in range(start, end + 1) if n in hits]
        if measured and all(h == 0 for h in measured):
            out.append((start, name))
    return out
