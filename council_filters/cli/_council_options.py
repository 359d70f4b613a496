"""The options every mode of ``council`` takes, declared once.

A mode's command lists its own options and marks where each shared group goes with a
:class:`Group` default; :func:`with_options` puts the group's options there (so every
mode's ``--help`` lists them in the same place) and hands the command one
:class:`~council_filters.council.prepare.Options` built from them.  ``STATE`` holds the
front command's ``-C DIR``.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import typer

from council_filters.council.prepare import Options

STATE: dict[str, str | None] = {"dir": None}

CONFIG = typer.Option(
    None, "--config", metavar="FILE",
    help="Reviewer commands file (default: $COUNCIL_COMMANDS, else"
    " ${XDG_CONFIG_HOME:-~/.config}/council/commands).",
)
TRUST = typer.Option(
    False, "--trust-repo-config",
    help="Use the reviewed repository's .council/commands (it runs shell commands on this"
    " machine: only for repositories whose every change you trust). Default: off.",
)
REVIEWERS = typer.Option(
    None, "--reviewers", metavar="A,B",
    help="Run only these of the configured reviewers (default: every configured one).",
)
FAIL_ON = typer.Option(
    None, "--fail-on", metavar="REVISE|REJECT", case_sensitive=False,
    help="Exit 3 when a counted verdict is at or above this (default: never).",
)
MIN_REVIEWERS = typer.Option(
    0, "--min-reviewers", min=0, metavar="N",
    help="Exit 3 when fewer than N reviewers cast a counted verdict (default: 0).",
)
FAIL_LEVEL = typer.Option(
    None, "--fail-level", metavar="SEVERITY",
    help="Exit 3 when a finding is at or above this severity: critical, medium, minor or an"
    " alias (high, p1, blocking, ...), any case; the findings are named (council-consolidate's"
    " gate; default: none).",
)
SARIF = typer.Option(
    None, "--sarif", metavar="FILE",
    help="Also write the findings as SARIF 2.1.0 to FILE, for code scanning (default: none).",
)
CODEQUALITY = typer.Option(
    None, "--codequality", metavar="FILE",
    help="Also write the findings as a GitLab Code Quality report (one entry per finding,"
    " stable fingerprints) to FILE, for merge requests (default: none).",
)
RDJSONL = typer.Option(
    None, "--rdjsonl", metavar="FILE",
    help="Also write the findings as reviewdog diagnostics (rdjsonl, with suggestions where a"
    " reviewer gave replacement code) to FILE, for inline review comments (default: none).",
)
NO_REDACT = typer.Option(
    False, "--no-redact-pack",
    help="Send the pack to the reviewers unredacted. Default: off (each credential in the"
    " diff or files becomes a typed placeholder such as \u2039redacted:aws-access-key-id\u203a;"
    " the line, its diff prefix and its identifiers stay).",
)
PATHS = typer.Option(
    None, "--paths", metavar="A,B", help="Comma-separated files to include (default: none)."
)
REPORT_DIR = typer.Option(
    None, "--report-dir", metavar="DIR",
    help="Write the report into DIR (default: docs/council in the repository, which every"
    " review leaves out of its snapshot and of the uncommitted-file count).",
)


CACHE = typer.Option(
    None, "--cache", metavar="DIR",
    help="Response cache: an identical later run (same command line, adapter and pack) is"
    " answered from DIR without starting the CLI; answers are kept redacted, 0600 in a 0700"
    " DIR (default: $COUNCIL_CACHE, else `council.cache = DIR` in the commands file, else"
    " none).",
)
NO_CACHE = typer.Option(False, "--no-cache", help="Use no response cache. Default: off.")
REPLAY = typer.Option(
    False, "--replay",
    help="Parse, gate and report from cached answers only: no CLI is started (new rules over"
    " old answers, offline); a reviewer with no cached answer is UNAVAILABLE. Default: off.",
)
BUDGET_TOKENS = typer.Option(
    None, "--budget-tokens", min=0, metavar="N",
    help="Skip, before it starts, a reviewer whose pack (estimated: UTF-8 bytes / 4) would take"
    " the run over N tokens; the skip is reported and --min-reviewers still gates (default:"
    " none).",
)
BUDGET_USD = typer.Option(
    None, "--budget-usd", min=0.0, metavar="USD",
    help="The same for the pack's estimated price from --prices (default: none).",
)
PRICES = typer.Option(
    None, "--prices", metavar="FILE",
    help="Price table: `NAME = INPUT_USD_PER_MTOK [OUTPUT_USD_PER_MTOK]` lines, NAME a"
    " reviewer or a family (default: none).",
)
MIN_FAMILIES = typer.Option(
    0, "--min-families", min=0, metavar="N",
    help="Exit 3 when the counted verdicts come from fewer than N model families (`NAME.family"
    " = F` in the commands file; default: 0).",
)
MIN_COVERAGE = typer.Option(
    None, "--min-coverage", min=0.0, max=100.0, metavar="PCT",
    help="Exit 3 when less than PCT percent of the changed lines were seen by at least"
    " max(1, --min-reviewers) counted reviewers (default: none).",
)
JSON_OUT = typer.Option(
    None, "--json", metavar="FILE",
    help="Also write the consolidation JSON (verdicts, findings, usage, coverage, totals) to"
    " FILE (default: none).",
)
SUMMARY = typer.Option(
    None, "--job-summary", metavar="FILE",
    help="Append the synthesis and the usage table to FILE, markdown (default:"
    " $GITHUB_STEP_SUMMARY when set, else none).",
)


@dataclass(frozen=True)
class Group:
    """A run of shared options: (field of Options, type, typer option) in --help order."""

    members: tuple[tuple[str, Any, Any], ...]


GATES = Group((
    ("config_file", str | None, CONFIG), ("trust", bool, TRUST),
    ("reviewers", str | None, REVIEWERS), ("fail_on", str | None, FAIL_ON),
    ("min_reviewers", int, MIN_REVIEWERS), ("fail_level", str | None, FAIL_LEVEL),
    ("no_redact", bool, NO_REDACT),
))
OUTPUTS = Group((
    ("sarif", str | None, SARIF), ("rdjsonl", str | None, RDJSONL),
    ("codequality", str | None, CODEQUALITY),
))
REPORT = Group((("report_dir", str | None, REPORT_DIR),))
EXTRAS = Group((
    ("cache", str | None, CACHE), ("no_cache", bool, NO_CACHE), ("replay", bool, REPLAY),
    ("budget_tokens", int | None, BUDGET_TOKENS), ("budget_usd", float | None, BUDGET_USD),
    ("prices", str | None, PRICES), ("min_families", int, MIN_FAMILIES),
    ("min_coverage", float | None, MIN_COVERAGE), ("json", str | None, JSON_OUT),
    ("job_summary", str | None, SUMMARY),
))


def with_options(func: Callable[..., int]) -> Callable[..., int]:
    """``func``'s parameters whose default is a :class:`Group` become that group's options;
    ``func`` is called with its own options and ``opts``, the :class:`Options` they make."""
    sig = inspect.signature(func, eval_str=True)
    params: list[inspect.Parameter] = []
    shared: list[str] = []
    for p in sig.parameters.values():
        if p.name == "opts":
            continue
        if isinstance(p.default, Group):
            for name, annotation, option in p.default.members:
                params.append(inspect.Parameter(name, p.kind, default=option,
                                                annotation=annotation))
                shared.append(name)
        else:
            params.append(p)

    @functools.wraps(func)
    def command(**kwargs: Any) -> int:
        opts = Options(**{name: kwargs.pop(name) for name in shared})
        return func(**kwargs, opts=opts)

    command.__signature__ = sig.replace(parameters=params)  # type: ignore[attr-defined]
    command.__annotations__ = {p.name: p.annotation for p in params}
    del command.__wrapped__  # type: ignore[attr-defined]
    return command
