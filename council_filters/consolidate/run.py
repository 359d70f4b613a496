"""One council-consolidate run, from its parsed options to the exit code.

:class:`Options` is the command line as parsed; :func:`run` checks the combinations,
reads the state, baseline and diff (or asks git for the change), collects and
consolidates the records, writes the chosen format (the council report written to its
file when asked) and applies the ``--fail-level`` gate.  It speaks through a
:class:`~council_filters.base.console.Console`.
"""

from __future__ import annotations

import dataclasses
import datetime
import gc
from collections.abc import Iterator
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any

import orjson

from council_filters.base import diffs, vocab
from council_filters.base import severity as sev
from council_filters.base.console import Console
from council_filters.base.errors import (
    EXIT_CONDITION,
    EXIT_DATA,
    EXIT_OK,
    CouncilError,
    DataError,
    UsageError,
)
from council_filters.base.jsonl import Record, iter_jsonl
from council_filters.consolidate import core, report_file, revision, shards, synthesis
from council_filters.consolidate.finding import SourceReader
from council_filters.consolidate.gaps import changed_files_from_diff, changed_files_from_list


class Format(StrEnum):
    markdown = "markdown"
    json = "json"
    findings = "findings"
    sarif = "sarif"
    rdjsonl = "rdjsonl"
    codequality = "codequality"


class FilterMode(StrEnum):
    added = "added"
    diff_context = "diff_context"
    file = "file"
    nofilter = "nofilter"


class Dedup(StrEnum):
    finding = "finding"
    position = "position"


class Report(StrEnum):
    auto = "auto"
    council = "council"
    review = "review"


@dataclass(frozen=True)
class Options:
    """The command line of one run, as parsed."""

    files: tuple[str, ...]
    fmt: Format
    write: bool
    root: str
    date: str | None
    mode: str | None
    slug: str | None
    slots: str
    state: str | None
    repo: str | None
    no_source: bool
    diff: str | None
    changed_files: str | None
    fail_level: str | None
    report: Report
    category: str
    keep_going: bool
    scheduler: str | None = None
    dedup: Dedup = Dedup.finding
    upstream: bool = False
    write_to: str | None = None
    rev: str = "HEAD"
    base: str | None = None
    filter_mode: FilterMode = FilterMode.nofilter
    baseline: str | None = None
    new_only: bool = False
    gate_unverified: bool = False


def run(o: Options, s: Console) -> int:
    """The whole run; ``s`` is where it reads records and writes and warns."""
    level = sev.gate_level(o.fail_level)
    if o.diff and o.changed_files:
        raise UsageError("give --diff or --changed-files, not both")
    if o.write_to is not None:
        o = dataclasses.replace(o, write=True)
    if o.write and o.fmt is not Format.markdown:
        raise UsageError("--write writes the markdown report; drop --format")
    when = o.date or datetime.date.today().isoformat()
    if not vocab.is_date(when):
        raise UsageError("--date must be YYYY-MM-DD")
    slot_list = tuple(x.strip().lower() for x in o.slots.split(",") if x.strip())
    if not all(vocab.is_name(x) for x in slot_list):
        raise UsageError("--slots takes comma-separated slot names [a-z0-9_-]")
    if o.base and o.diff:
        raise UsageError("give --diff or --base, not both")
    if o.base and o.changed_files:
        raise UsageError("give --changed-files or --base, not both")
    if o.base and not o.repo:
        raise UsageError("--base needs --repo")
    if o.new_only and not o.baseline:
        raise UsageError("--new-only needs --baseline")
    if o.filter_mode is not FilterMode.nofilter and not (o.diff or o.base):
        raise UsageError(f"--filter-mode {o.filter_mode.value} needs --diff or --base")
    prior = _read_state(o.state)
    base_doc = _read_baseline(o.baseline)
    changed = None
    diff_files: list[diffs.FileDiff] = []
    if o.diff:
        text = _read_text(o.diff, "diff")
        changed = changed_files_from_diff(text)
        diff_files = diffs.parse(text.encode("utf-8", "surrogateescape"))
    elif o.changed_files:
        changed = changed_files_from_list(_read_text(o.changed_files, "changed-files list"))
    check = o.repo is not None and not o.no_source
    reader = SourceReader(None if o.no_source else (o.repo or "."), o.rev)
    if check or o.base:
        _check_rev(o.repo or ".", o.rev, "--rev")
    if o.base:
        _check_rev(o.repo or ".", o.base, "--base")
        raw = revision.change(o.repo or ".", o.base, o.rev)
        diff_files = diffs.parse(raw)
        changed = changed_files_from_diff(raw.decode("utf-8", "surrogateescape"))

    def records() -> Iterator[tuple[str, int, Record]]:
        if o.scheduler:
            items = shards.iter_jsonl(list(o.files), s.stdin, keep_going=o.keep_going,
                                      scheduler=o.scheduler)
        else:
            items = iter_jsonl(list(o.files), s.stdin, keep_going=o.keep_going)
        for source, lineno, rec in items:
            if isinstance(rec, CouncilError):
                s.error(rec)
                continue
            if vocab.ACTIVE_JSON_RE.search(orjson.dumps(rec)):  # reviewer text stays inert
                rec = vocab.inert_strings(rec)  # type: ignore[assignment]
            yield source, lineno, rec

    gc.disable()  # hundreds of thousands of acyclic containers: the cycle collector only costs
    try:
        collected = core.collect(records(), reader)
        if check:
            core.check_evidence(collected.findings, reader.files, diff_files)
        if diff_files or o.diff or o.base:
            core.classify_changes(collected.findings, diff_files)
        result = core.consolidate(collected, state=prior, changed=changed,
                                  dedup_rule=o.dedup.value, upstream=o.upstream,
                                  filter_mode=o.filter_mode.value)
        if base_doc is not None:
            core.apply_baseline(result, base_doc)
    finally:
        gc.enable()
    for w in collected.warnings:
        s.warn(w)

    fmt = o.fmt
    council = o.report is Report.council or (
        o.report is Report.auto and bool(collected.verdicts))
    out = s.stdout
    if fmt is Format.findings:
        out.write(core.findings_jsonl(result))
    elif fmt is Format.sarif:
        data, notes = core.sarif_bytes(result, o.category)
        for n in notes:
            s.warn(n)
        out.write(data)
    elif fmt is Format.rdjsonl:
        data, notes = core.rdjsonl_bytes(result, reader)
        for n in notes:
            s.warn(n)
        out.write(data)
    elif fmt is Format.codequality:
        data, notes = core.codequality_bytes(result)
        for n in notes:
            s.warn(n)
        out.write(data)
    elif fmt is Format.json or council:
        synth = None
        path = None
        if council:
            info = report_file.report_info(
                collected.verdicts, o.mode, o.slug, when, slot_list, s.warn)
            synth = core.build_synthesis(result, info)
            if o.write_to is not None:
                path = report_file.write_to(synth, o.write_to)
                out.write(synthesis.inline_form(synth, path).encode("utf-8"))
            elif o.write:
                path = report_file.write(synth, info, o.root)
                if fmt is Format.markdown:
                    out.write(synthesis.inline_form(synth, path).encode("utf-8"))
            else:
                path = report_file.first_free(info, o.root)
                if fmt is Format.markdown:
                    out.write(synthesis.report(synth, path).encode("utf-8"))
        if fmt is Format.json:
            out.write(core.json_document(result, synth, path))
    else:
        if o.write:
            raise UsageError("--write needs verdict records (the council report)")
        out.write(core.review_markdown_bytes(result, reader))
    if level is not None and collected.dropped:
        # A finding the gate could not read may be the one at the level: fail closed.
        dropped = collected.dropped
        s.warn(
            f"--fail-level {level}: {dropped} finding{'s' if dropped != 1 else ''}"
            " could not be read (named above), so the gate cannot pass"
        )
        return EXIT_DATA
    if level is not None:
        tripped = result.tripped(level, gate_unverified=o.gate_unverified,
                                 new_only=o.new_only)
        if tripped:
            s.warn(f"gate failed: {core.gate_message(level, tripped)}")
            return EXIT_CONDITION
    return EXIT_OK


def _check_rev(repo: str, rev: str, what: str) -> None:
    """A revision that git can read as a commit in ``repo`` (else a usage error)."""
    try:
        revision.check_revision(repo, rev)
    except DataError as exc:
        raise UsageError(f"{what}: {exc.message}") from None


def _read_json(path: str, what: str, named: str) -> Any:
    """A user's JSON file (``what`` in the read error, ``named`` in the JSON error)."""
    raw = _read_text(path, what)
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        raise DataError(f"invalid JSON in {named} at line {exc.lineno}", source=path) from None


def _read_baseline(path: str | None) -> list[dict[str, Any]] | None:
    if path is None:
        return None
    doc = _read_json(path, "baseline", "the baseline")
    try:
        return core.baseline_entries(doc)
    except DataError as exc:
        raise DataError(exc.message, source=path) from None


def _read_text(path: str, what: str) -> str:
    try:
        return Path(path).read_bytes().decode("utf-8", "replace")
    except OSError as exc:
        reason = exc.strerror or "error"
        raise UsageError(f"cannot read {what}: {reason}", source=path) from None


def _read_state(path: str | None) -> dict[str, Any] | None:
    if path is None:
        return None
    state = _read_json(path, "state file", "state file")
    if not isinstance(state, dict):
        raise DataError("state file is not a JSON object", source=path)
    return state
