"""What each reviewer and corrector is sent: plain text, one pack per origin.

A review pack holds, and nothing more: the origin's own reference, the diff, the slice of
context the flow gives that origin (the task and spec for requirements; the codebase
documents for architecture and performance; the script's findings for security and tests),
the lines a finding may point at, and the finding contract.  A retry pack is the same pack
followed by the verifier's errors.  A re-review pack replaces the diff by the correction's
own diff and lists the findings under re-review.  Packs are redacted before they leave (see
:mod:`.ask`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import orjson

from council_filters.base import safefs
from council_filters.base.bytesops import code_fence
from council_filters.codereview.answers import ranges_text

Record = dict[str, Any]
DOC_CAP = 32 << 10
DOCS_TOTAL = 128 << 10
DIFF_CAP = 512 << 10
SPEC_NAMES = ("spec.md", "design.md", "tasks.md", "context.md")
#: Which slice of the context each origin gets besides the diff.
SLICES: dict[str, tuple[str, ...]] = {
    "security": ("scripts",),
    "requirements": ("task", "spec"),
    "tests": ("scripts", "test_cmd"),
    "architecture": ("docs",),
    "regression": (),
    "performance": ("docs",),
}


def fenced(text: str, info: str = "") -> str:
    return code_fence(text, info) + "\n"


def lines_section(lines: Mapping[str, set[int]]) -> str:
    rows = [f"{path}: {ranges_text(nums)}" for path, nums in sorted(lines.items()) if nums]
    body = "\n".join(rows) if rows else "(no added lines: report nothing)"
    return "## Lines you may point at\n\n" + fenced(body)


def _read(root: Path, rel: str, cap: int) -> str | None:
    full = safefs.contained(os.path.realpath(root), rel)
    if full is None:
        return None
    path = Path(full)
    try:
        if path.is_symlink() or not path.is_file():
            return None
        with open(path, "rb") as fh:
            data = fh.read(cap + 1)
    except OSError:
        return None
    if safefs.is_binary(data[:8192]):
        return None
    text = data[:cap].decode("utf-8", "replace")
    return text + ("\n[... cut ...]\n" if len(data) > cap else "")


def _documents(root: Path, paths: Sequence[str], title: str) -> str:
    parts = [f"## {title}\n"]
    total = 0
    for rel in paths:
        if total >= DOCS_TOTAL:
            parts.append(f"[{rel}: left out, the documents are over their size limit]\n")
            continue
        text = _read(root, rel, DOC_CAP)
        if text is None:
            continue
        total += len(text)
        parts.append(f"### {rel}\n\n" + fenced(text, "markdown"))
    return "\n".join(parts) if len(parts) > 1 else f"## {title}\n\n(none in this repository)\n"


def spec_paths(context: Mapping[str, Any]) -> list[str]:
    spec = context.get("spec")
    if not isinstance(spec, dict) or not isinstance(spec.get("path"), str):
        return []
    base = spec["path"]
    files = [f for f in spec.get("files") or [] if isinstance(f, str)]
    if spec.get("kind") == "supplied" and files == [Path(base).name]:
        return [base]
    ordered = sorted(files, key=lambda f: (f not in SPEC_NAMES, f))
    return [f"{base}/{f}" for f in ordered]


def context_slice(origin: str, context: Mapping[str, Any], root: Path,
                  scripts: Mapping[str, Any]) -> str:
    parts: list[str] = []
    for piece in SLICES.get(origin, ()):
        if piece == "task":
            task = context.get("task")
            parts.append("## The task\n\n" + (fenced(task) if isinstance(task, str) and task
                                               else "(no task description was given)\n"))
        elif piece == "spec":
            paths = spec_paths(context)
            parts.append(_documents(root, paths, "The spec") if paths
                         else "## The spec\n\n(no spec was found)\n")
        elif piece == "docs":
            docs = [d for d in context.get("codebase_docs") or [] if isinstance(d, str)]
            parts.append(_documents(root, docs, "Codebase documents"))
        elif piece == "test_cmd":
            cmd = context.get("test_cmd")
            parts.append("## The project's test command\n\n" + (
                fenced(cmd) if isinstance(cmd, str) and cmd else "(none found)\n"))
        elif piece == "scripts":
            parts.append(scripts_section(scripts.get(origin)))
    return "\n".join(parts)


def scripts_section(script: Any) -> str:
    head = "## Script findings (settled: do not report these again)\n\n"
    if script is None:
        return head + "(no script for this origin)\n"
    if script.get("skipped"):
        return head + f"The script did not run: {script['skipped']}. Do not guess its results.\n"
    findings = script.get("findings") or []
    if not findings:
        return head + "The script ran and found nothing.\n"
    body = "\n".join(orjson.dumps(_brief(f)).decode() for f in findings)
    return head + fenced(body, "json")


def _brief(f: Mapping[str, Any]) -> Record:
    keys = ("id", "rule", "severity", "file", "line", "summary", "subject", "test")
    return {k: f[k] for k in keys if f.get(k) is not None}


def diff_section(diff: bytes, title: str = "The diff") -> str:
    text = diff[:DIFF_CAP].decode("utf-8", "replace")
    cut = "\n[... the diff is cut here: it is over the pack's limit ...]\n" \
        if len(diff) > DIFF_CAP else ""
    return f"## {title}\n\n" + fenced(text + cut, "diff")


def contract(text: str, origin: str) -> str:
    return text.replace("ORIGIN", origin)


def review_pack(origin: str, reference: str, contract_text: str, context_part: str,
                diff: bytes, lines: Mapping[str, set[int]]) -> str:
    return "\n".join([
        reference.rstrip() + "\n",
        context_part,
        diff_section(diff),
        lines_section(lines),
        contract(contract_text, origin),
    ])


def retry_pack(pack: str, verify_output: Mapping[str, Any], attempt: int, limit: int) -> str:
    errors = orjson.dumps(verify_output, option=orjson.OPT_INDENT_2).decode()
    return pack + "\n" + "\n".join([
        f"## Your previous answer did not validate (attempt {attempt} of {limit})",
        "",
        "The verifier said (path, message, hint for each problem):",
        "",
        fenced(errors, "json"),
        "Answer again with the whole corrected JSON array, and nothing else.",
        "",
    ])


def rereview_pack(origin: str, reference: str, contract_text: str, in_scope: Sequence[Record],
                  correction: bytes, lines: Mapping[str, set[int]]) -> str:
    listed = "\n".join(orjson.dumps(_listed(f)).decode() for f in in_scope)
    return "\n".join([
        reference.rstrip() + "\n",
        "## Re-review of a correction",
        "",
        "The findings below were corrected. Look only at the files and lines the correction",
        "touched (its diff follows). For each listed finding that is still present, report it",
        'again with its "id". Report a finding without an "id" only when the correction itself',
        "introduced it. A listed finding you do not report again counts as fixed.",
        "",
        "### Findings under re-review",
        "",
        fenced(listed, "json"),
        diff_section(correction, "The correction's diff"),
        lines_section(lines),
        contract(contract_text, origin),
    ])


def _listed(f: Mapping[str, Any]) -> Record:
    keys = ("id", "origin", "severity", "file", "line", "subject", "summary", "discussion",
            "rule")
    return {k: f[k] for k in keys if f.get(k) is not None}


def corrector_pack(origin: str, rules: str, findings: Sequence[Record], hunks: bytes) -> str:
    body = "\n".join(orjson.dumps(_full(f)).decode() for f in findings)
    return "\n".join([
        rules.rstrip() + "\n",
        f"## The accepted {origin} findings",
        "",
        fenced(body, "json"),
        diff_section(hunks, "The diff hunks these findings point into"),
    ])


def _full(f: Mapping[str, Any]) -> Record:
    drop = ("status", "in_scope", "frozen", "members", "fingerprint")
    return {k: v for k, v in f.items() if k not in drop}
