"""The context map: one markdown table of what was found and what is missing.

What the readiness gate shows before the reviewers run (found / missing and
the action taken).  Every string that comes from the repository (branch,
paths, commands, the task, the PR title) is escaped: code spans that their
own backticks cannot close, text with markdown punctuation backslashed, both
with table pipes escaped and review delimiters neutralised.
"""

from __future__ import annotations

import re
from typing import Any

from council_filters.consolidate.render import mdquote

FOUND, GAP = "\u2705", "\u26a0\ufe0f"
_PUNCT = re.compile(r"([\\`*_\[\]<>#|~!])")
ACTIONS = {
    "blocking": "stop: nothing to review (give --base, or commit the change)",
    "critical": "ask for structured criteria (a spec or the task) before reviewing",
    "degradable": "go on, and say so in the report",
}


def code(text: str) -> str:
    return mdquote.code_span(text).replace("|", "\\|")


def text(value: str, cap: int = 200) -> str:
    flat = mdquote.inline(value)
    if len(flat) > cap:
        flat = flat[: cap - 1] + "\u2026"
    return _PUNCT.sub(r"\\\1", flat)


def _row(ok: bool, item: str, value: str) -> str:
    return f"| {FOUND if ok else GAP} | {item} | {value} |"


def _gap(ctx: dict[str, Any], item: str) -> str:
    cls = next((g["class"] for g in ctx.get("gaps", []) if g.get("item") == item), "degradable")
    return f"missing ({cls}): {ACTIONS.get(cls, '')}"


def context_map(ctx: dict[str, Any]) -> str:
    """The markdown context map of a context object."""
    missing = set(ctx.get("missing") or [])
    head = ctx.get("head") or {}
    diff = ctx.get("diff") or {}
    title = head.get("branch") or head.get("commit") or "(no branch)"
    lines = [f"## Review context: {text(str(title))}", "",
             "| | item | value |", "|---|---|---|"]
    if "diff" in missing:
        lines.append(_row(False, "diff", _gap(ctx, "diff")))
    else:
        base = ctx.get("base")
        against = f" against {code(base)}" if base else ""
        lines.append(_row(True, "diff", f"{diff.get('files_changed', 0)} files{against} "
                          f"(+{diff.get('added', 0)} \u2212{diff.get('removed', 0)})"))
    pr = ctx.get("pr")
    if isinstance(pr, dict):
        title_text = f": {text(str(pr['title']))}" if pr.get("title") else ""
        lines.append(_row(True, "pull request", f"#{int(pr.get('number') or 0)}{title_text}"))
    spec = ctx.get("spec")
    lines.append(_row(True, "spec", f"{code(spec['path'])} ({spec.get('matched_on')})")
                 if isinstance(spec, dict) else _row(False, "spec", _gap(ctx, "spec")))
    task = ctx.get("task")
    lines.append(_row(True, "task", text(task)) if isinstance(task, str)
                 else _row(False, "task", _gap(ctx, "konecty_task")))
    docs = ctx.get("codebase_docs") or []
    lines.append(_row(True, "codebase docs", ", ".join(code(d) for d in docs)) if docs
                 else _row(False, "codebase docs", _gap(ctx, "codebase_docs")))
    stacks = ctx.get("stack") or []
    if stacks:
        shown = "; ".join(
            f"{text(str(s.get('language')))} ({text(str(s.get('manager')))}) at "
            f"{code(str(s.get('root')))}" for s in stacks)
        lines.append(_row(True, "stack", shown))
    else:
        lines.append(_row(False, "stack", "no package root among the changed files"))
    runs = ctx.get("test_runs") or []
    if runs:
        shown = "; ".join(
            code(str(r.get("test_cmd"))) + ("" if r.get("root") in (None, ".")
                                            else f" in {code(str(r['root']))}")
            for r in runs)
        lines.append(_row(True, "test command", shown))
    else:
        lines.append(_row(False, "test command", _gap(ctx, "test_cmd")))
    cov = ctx.get("coverage_cmd")
    threshold = ctx.get("coverage_threshold")
    source = ctx.get("coverage_threshold_source")
    lines.append(_row(True, "coverage", f"threshold {threshold}% ({text(str(source))})"
                      + (f"; {code(cov)}" if isinstance(cov, str) else "")))
    lines += ["", f"Readiness: **{text(str(ctx.get('readiness')))}**"]
    return "\n".join(lines) + "\n"
