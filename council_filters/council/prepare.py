"""Everything a council run needs that can be wrong, checked before the first pack.

The options every mode takes (:class:`Options`), the reviewer commands file (found by
:mod:`council_filters.council.config`, read and checked in full), the reviewers to run,
the gates (one severity table, any case) and the dispatch options (cache, replay,
budgets, prices): each problem is a :class:`UsageError` (exit 2) before anything runs.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from council_filters.base import severity, vocab
from council_filters.base.errors import UsageError
from council_filters.council import config, gates
from council_filters.dispatch import parse_config


@dataclass(frozen=True)
class Options:
    """The options every council mode takes: whose commands, which reviewers, the gates,
    where the report and the extra outputs go, the cache and the budgets."""

    config_file: str | None = None
    trust: bool = False
    reviewers: str | None = None
    fail_on: str | None = None
    min_reviewers: int = 0
    fail_level: str | None = None
    no_redact: bool = False
    report_dir: str | None = None
    sarif: str | None = None
    rdjsonl: str | None = None
    codequality: str | None = None
    cache: str | None = None
    no_cache: bool = False
    replay: bool = False
    budget_tokens: int | None = None
    budget_usd: float | None = None
    prices: str | None = None
    min_families: int = 0
    min_coverage: float | None = None
    json: str | None = None
    job_summary: str | None = None


@dataclass(frozen=True)
class Checked:
    """What :func:`check` found: the commands file, its table, the reviewers to run, the
    gates in canonical form and the dispatch options."""

    commands_file: str
    table: dict[str, str]
    names: list[str]
    fail_on: str | None
    min_reviewers: int
    fail_level: str | None  # canonical severity
    dispatch_args: tuple[str, ...] = ()


def commands(explicit: str | None, env: Mapping[str, str], root: Path, trust: bool,
             warn: Callable[[str], None]) -> tuple[str, dict[str, str]]:
    """The reviewer commands file (its resolved path) and its checked table."""
    found = config.resolve(explicit, env, root, trust_repo=trust)
    for note in found.notes:
        warn(note)
    if found.path is None:
        where = config.user_commands_path(env)
        raise UsageError(
            f"no reviewer commands: run `council init` to write an example to {where}, or"
            " pass --config FILE"
        )
    try:
        text = found.path.read_text(encoding="utf-8")
        table = parse_config(text, str(found.path))
    except (OSError, UnicodeDecodeError) as exc:
        reason = getattr(exc, "strerror", None) or type(exc).__name__
        raise UsageError(f"cannot read: {reason}", source=str(found.path)) from None
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    return str(found.path.resolve()), table


def reviewers(table: dict[str, str], only: str | None) -> list[str]:
    """The configured reviewers, or the ``--reviewers`` subset of them."""
    names = config.reviewer_names(table)
    if only:
        wanted = [n.strip() for n in only.split(",") if n.strip()]
        unknown = [n for n in wanted if n not in names]
        if unknown:
            raise UsageError(f"--reviewers: not in the commands file: {', '.join(unknown)}")
        names = wanted
    bad = [n for n in names if not vocab.is_name(n)]
    if bad:
        raise UsageError(
            "reviewer names must match [a-z0-9][a-z0-9_-]*, up to 32 characters"
        )
    if not names:
        raise UsageError("the commands file names no reviewer")
    return names


def file_reviewers(table: dict[str, str], names: Sequence[str]) -> tuple[str, ...]:
    """Pack-as-file reviewers that get an ingest token: the reference council's, when their
    command really reads the pack from a file."""
    return tuple(
        n for n in names
        if n in vocab.FILE_REVIEWERS and ("{pack_file}" in table[n] or "{pack_dir}" in table[n])
    )


def review_args(pack_args: Sequence[str]) -> tuple[str, ...]:
    """consolidate's ``--rev``/``--base``: the commit the pack read (a scope's snapshot
    for uncommitted work) and the diff base, so evidence is checked against them."""
    out: list[str] = []
    for flag, name in (("--head", "--rev"), ("--base", "--base")):
        if flag in pack_args:
            i = list(pack_args).index(flag)
            if i + 1 < len(pack_args):
                out += [name, pack_args[i + 1]]
    return tuple(out)


def check(root: Path, opts: Options, env: Mapping[str, str],
          warn: Callable[[str], None]) -> Checked:
    """The gate options (one severity table, any case), then the commands file (every
    line, with file:line), then the reviewers and the dispatch options: a usage error
    (exit 2) before anything runs."""
    fail_on = opts.fail_on
    if fail_on is not None:
        fail_on = fail_on.upper()
        if fail_on not in gates.FAIL_ON:
            raise UsageError("--fail-on must be REVISE or REJECT (any case)")
    level = severity.gate_level(opts.fail_level)
    commands_file, table = commands(opts.config_file, env, root, opts.trust, warn)
    names = reviewers(table, opts.reviewers)
    if opts.min_reviewers > len(names):
        raise UsageError(
            f"--min-reviewers {opts.min_reviewers}: only {len(names)} reviewer"
            f"{'s are' if len(names) != 1 else ' is'} configured, so the gate could never pass"
        )
    args = dispatch_args(opts, table, env)
    return Checked(commands_file, table, names, fail_on, opts.min_reviewers, level, args)


def cache_dir(opts: Options, table: Mapping[str, str], env: Mapping[str, str]) -> str | None:
    """--cache, else $COUNCIL_CACHE, else the commands file's ``council.cache`` (a relative
    path there is relative to the home directory); --no-cache: none."""
    if opts.no_cache:
        if opts.replay:
            raise UsageError("--replay answers from the cache: drop --no-cache")
        return None
    chosen = opts.cache or env.get("COUNCIL_CACHE") or table.get("council.cache")
    if not chosen:
        if opts.replay:
            raise UsageError("--replay needs a cache: --cache DIR, $COUNCIL_CACHE or"
                             " `council.cache = DIR` in the commands file")
        return None
    return os.path.abspath(os.path.expanduser(chosen))


def dispatch_args(opts: Options, table: Mapping[str, str],
                  env: Mapping[str, str]) -> tuple[str, ...]:
    """council-dispatch's cache, replay and budget options."""
    args: list[str] = []
    cache = cache_dir(opts, table, env)
    if cache is not None:
        args += ["--cache", cache]
    if opts.replay:
        args.append("--replay")
    if opts.budget_tokens is not None:
        args += ["--budget-tokens", str(opts.budget_tokens)]
    if opts.budget_usd is not None:
        if opts.prices is None:
            raise UsageError("--budget-usd needs --prices FILE (what a token costs)")
        args += ["--budget-usd", repr(opts.budget_usd)]
    if opts.prices is not None:
        if not os.path.isfile(opts.prices):
            raise UsageError("--prices: no such file", source=opts.prices)
        args += ["--prices", os.path.abspath(opts.prices)]
    return tuple(args)
