"""Dependency audit through the stack's own auditor, when it is installed.

One auditor per ecosystem (:data:`AUDITORS`); each runs in the package root
with a timeout and a private TMPDIR, and its JSON is read into
:class:`Advisory` records.  An auditor that is not installed, that times out
or whose output cannot be read is a skipped layer, never a crash.  Auditors
read manifests and lockfiles; none of them runs the project's code.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from council_filters.dispatch import Limits, execute

AUDIT_TIMEOUT = 120.0
CAP = 16 << 20


@dataclass
class Advisory:
    package: str
    version: str | None
    id: str
    title: str
    severity: str  # critical | medium | minor


@dataclass
class Skipped:
    layer: str
    root: str
    tool: str | None
    reason: str

    def record(self) -> dict[str, Any]:
        return {"layer": self.layer, "root": self.root, "tool": self.tool, "reason": self.reason}


def _sev(value: Any) -> str:
    text = str(value or "").lower()
    if text in ("critical", "high"):
        return "critical"
    if text in ("low", "info", "none"):
        return "minor"
    return "medium"


def _docs(raw: bytes) -> Iterator[Any]:
    """Every JSON value in ``raw`` (one document, JSON Lines, or concatenated documents)."""
    text = raw.decode("utf-8", "replace")
    decoder = json.JSONDecoder()
    i = 0
    while i < len(text):
        while i < len(text) and text[i] in " \t\r\n":
            i += 1
        if i >= len(text):
            break
        try:
            value, i = decoder.raw_decode(text, i)
        except ValueError:
            nl = text.find("\n", i)
            if nl < 0:
                break
            i = nl + 1
            continue
        yield value


def parse_pip_audit(raw: bytes) -> list[Advisory]:
    out = []
    for doc in _docs(raw):
        deps = doc.get("dependencies") if isinstance(doc, dict) else doc
        for dep in deps if isinstance(deps, list) else []:
            for v in dep.get("vulns") or []:
                out.append(Advisory(dep.get("name", "?"), dep.get("version"), v.get("id", "?"),
                                    (v.get("description") or "").split("\n", 1)[0][:200],
                                    "critical" if v.get("fix_versions") is not None else "medium"))
    return out


def parse_npm_audit(raw: bytes) -> list[Advisory]:
    out = []
    for doc in _docs(raw):
        if not isinstance(doc, dict):
            continue
        if isinstance(doc.get("vulnerabilities"), dict):  # npm 7+
            for name, v in doc["vulnerabilities"].items():
                via = [x for x in v.get("via") or [] if isinstance(x, dict)]
                ident = ",".join(sorted({str(x.get("url") or x.get("source") or "") for x in via}
                                        - {""})) or v.get("range", "")
                title = via[0].get("title", "") if via else f"vulnerable through {v.get('via')}"
                out.append(Advisory(name, None, ident or "?", str(title)[:200],
                                    _sev(v.get("severity"))))
        if isinstance(doc.get("advisories"), dict):  # npm 6, pnpm
            for adv in doc["advisories"].values():
                out.append(Advisory(adv.get("module_name", "?"), None,
                                    str(adv.get("github_advisory_id") or adv.get("id") or "?"),
                                    str(adv.get("title", ""))[:200], _sev(adv.get("severity"))))
        if doc.get("type") == "auditAdvisory":  # yarn 1
            adv = (doc.get("data") or {}).get("advisory") or {}
            out.append(Advisory(adv.get("module_name", "?"), None,
                                str(adv.get("github_advisory_id") or adv.get("id") or "?"),
                                str(adv.get("title", ""))[:200], _sev(adv.get("severity"))))
    return out


def parse_cargo_audit(raw: bytes) -> list[Advisory]:
    out = []
    for doc in _docs(raw):
        vulns = (doc.get("vulnerabilities") or {}).get("list") if isinstance(doc, dict) else None
        for v in vulns or []:
            adv, pkg = v.get("advisory") or {}, v.get("package") or {}
            out.append(Advisory(pkg.get("name", "?"), pkg.get("version"), adv.get("id", "?"),
                                str(adv.get("title", ""))[:200], "critical"))
    return out


def parse_govulncheck(raw: bytes) -> list[Advisory]:
    osv: dict[str, str] = {}
    found: dict[tuple[str, str], Advisory] = {}
    for doc in _docs(raw):
        if not isinstance(doc, dict):
            continue
        if isinstance(doc.get("osv"), dict):
            osv[doc["osv"].get("id", "")] = str(doc["osv"].get("summary", ""))[:200]
        f = doc.get("finding")
        if isinstance(f, dict):
            trace = f.get("trace") or [{}]
            module = trace[0].get("module", "?")
            key = (module, f.get("osv", "?"))
            called = any(t.get("function") for t in trace)
            found[key] = Advisory(module, trace[0].get("version"), key[1], "",
                                  "critical" if called else "medium")
    for adv in found.values():
        adv.title = osv.get(adv.id, "")
    return list(found.values())


def parse_bundle_audit(raw: bytes) -> list[Advisory]:
    out = []
    for doc in _docs(raw):
        for r in (doc.get("results") or []) if isinstance(doc, dict) else []:
            gem, adv = r.get("gem") or {}, r.get("advisory") or {}
            out.append(Advisory(gem.get("name", "?"), gem.get("version"),
                                str(adv.get("id") or adv.get("cve") or "?"),
                                str(adv.get("title", ""))[:200], _sev(adv.get("criticality"))))
    return out


def parse_composer_audit(raw: bytes) -> list[Advisory]:
    out = []
    for doc in _docs(raw):
        advisories = doc.get("advisories") if isinstance(doc, dict) else None
        for name, items in (advisories or {}).items() if isinstance(advisories, dict) else []:
            for adv in items if isinstance(items, list) else list(items.values()):
                out.append(Advisory(name, None, str(adv.get("cve") or adv.get("advisoryId") or "?"),
                                    str(adv.get("title", ""))[:200], _sev(adv.get("severity"))))
    return out


@dataclass(frozen=True)
class Auditor:
    tool: str  # the executable that must be on PATH
    argv: Callable[[Path, str], list[str] | None]  # (root dir, manifest name) -> argv or None
    parse: Callable[[bytes], list[Advisory]]
    needs: str = ""  # why argv may be None


def _requirements(root: Path, manifest: str) -> list[str] | None:
    reqs = sorted(p.name for p in root.glob("*requirements*.txt"))
    if not reqs:
        return None
    argv = ["pip-audit", "--format", "json", "--progress-spinner", "off", "--no-deps",
            "--disable-pip"]
    for name in reqs:
        argv += ["-r", name]
    return argv


AUDITORS: dict[tuple[str, str], Auditor] = {
    ("python", "*"): Auditor("pip-audit", _requirements, parse_pip_audit,
                             "pip-audit reads requirements files; this root has none"),
    ("node", "npm"): Auditor("npm", lambda r, m: ["npm", "audit", "--json",
                                                 "--package-lock-only"], parse_npm_audit),
    ("node", "pnpm"): Auditor("pnpm", lambda r, m: ["pnpm", "audit", "--json"], parse_npm_audit),
    ("node", "yarn"): Auditor("yarn", lambda r, m: ["yarn", "audit", "--json"], parse_npm_audit),
    ("rust", "*"): Auditor("cargo-audit", lambda r, m: ["cargo-audit", "audit", "--json"],
                           parse_cargo_audit),
    ("go", "*"): Auditor("govulncheck", lambda r, m: ["govulncheck", "-json", "./..."],
                         parse_govulncheck),
    ("ruby", "*"): Auditor("bundle-audit", lambda r, m: ["bundle-audit", "check", "--format",
                                                         "json"], parse_bundle_audit),
    ("php", "*"): Auditor("composer", lambda r, m: ["composer", "audit", "--format=json",
                                                    "--locked"], parse_composer_audit),
}


def auditor_for(ecosystem: str, manager: str) -> Auditor | None:
    return AUDITORS.get((ecosystem, manager)) or AUDITORS.get((ecosystem, "*"))


def run(auditor: Auditor, root: Path, manifest: str, rel_root: str, timeout: float
        ) -> list[Advisory] | Skipped:
    layer = "dependency-audit"
    exe = shutil.which(auditor.tool)
    if exe is None:
        return Skipped(layer, rel_root, auditor.tool, f"{auditor.tool} is not installed")
    argv = auditor.argv(root, manifest)
    if argv is None:
        return Skipped(layer, rel_root, auditor.tool, auditor.needs or "nothing to audit")
    private = tempfile.mkdtemp(prefix="council-audit-")
    try:
        env = dict(os.environ, TMPDIR=private, TMP=private, TEMP=private, NO_COLOR="1")
        line = " ".join(_quote(a) for a in [exe, *argv[1:]])
        res = execute(line, None, Limits(timeout=timeout, kill_grace=2.0,  # type: ignore[arg-type]
                                         output_cap=CAP, stderr_cap=1 << 16, cwd=str(root)), env)
    finally:
        shutil.rmtree(private, ignore_errors=True)
    if res.timed_out:
        return Skipped(layer, rel_root, auditor.tool, f"timed out after {timeout:g} s")
    advisories = auditor.parse(res.stdout)
    if not advisories and res.returncode not in (0, 1):
        return Skipped(layer, rel_root, auditor.tool, f"exited {res.returncode} with no report")
    if not advisories and res.returncode == 1 and not res.stdout.strip():
        return Skipped(layer, rel_root, auditor.tool, "failed with no report")
    return advisories


def _quote(arg: str) -> str:
    import shlex

    return shlex.quote(arg)
