"""council-consolidate: one deterministic report from many reviewers."""

from __future__ import annotations

import dataclasses
import datetime
import gc
from collections.abc import Iterator
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

import orjson
import typer

from council_filters.base import diffs, vocab
from council_filters.base import severity as sev
from council_filters.cli import _shell as kit
from council_filters.consolidate import core, report_file, revision, shards, synthesis
from council_filters.consolidate.finding import SourceReader
from council_filters.consolidate.gaps import changed_files_from_diff, changed_files_from_list

HELP = """\
Merge reviewers' verdicts and findings into one report, like a linter's
summary but for a review council: the yellow-council synthesis (headline,
agreement, disagreement, reviewer status, appendices) when verdict records come
in, and the code-review consolidation (validation, position dedup, stable IDs,
groups, gaps) for finding records.

It reads ALL its input before writing anything (dedup, IDs and agreement need
every finding), then writes one output: markdown (default), json, findings
(JSON Lines for council-state add), sarif (GitHub code scanning), rdjsonl
(reviewdog -f=rdjsonl) or codequality (GitLab Code Quality). The same input
gives the same bytes in any order.

With --repo it checks every finding's quoted evidence against the files at the
reviewed revision (--rev): verified, re-anchored (the line moves to the quote),
unverified (the code contradicts the claim: not counted as agreement, not
gated unless --gate-unverified) or no-quote (unchecked, still gated).
"""

EPILOG = (
    "Examples:\n\n\b\n"
    "  council-parse-verdict --jsonl < verdicts.jsonl | council-consolidate --write\n"
    "  cat sec.jsonl tst.jsonl prf.jsonl | council-consolidate --state review-state.json \\\n"
    "      --format findings | council-state --file review-state.json add\n"
    "  council-consolidate --format sarif findings.jsonl > council.sarif\n"
    "  council-consolidate --format rdjsonl findings.jsonl | reviewdog -f=rdjsonl\n"
    "  council-consolidate --repo . --base origin/main --filter-mode added \\\n"
    "      --baseline main.sarif --new-only --fail-level medium --format sarif f.jsonl\n"
    "  council-consolidate --format codequality findings.jsonl > gl-code-quality.json\n"
    "  council-consolidate --fail-level critical findings.jsonl > /dev/null || echo blocked\n"
    "  council-consolidate --scheduler local --format findings 'shards/*.jsonl'\n\n"
    + kit.exit_code_table()
)


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


app = kit.make_app(HELP, EPILOG)


def _read_text(path: str, what: str) -> str:
    try:
        return Path(path).read_bytes().decode("utf-8", "replace")
    except OSError as exc:
        reason = exc.strerror or "error"
        raise kit.UsageError(f"cannot read {what}: {reason}", source=path) from None


def _read_state(path: str | None) -> dict | None:
    if path is None:
        return None
    raw = _read_text(path, "state file")
    try:
        state = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        msg = f"invalid JSON in state file at line {exc.lineno}"
        raise kit.DataError(msg, source=path) from None
    if not isinstance(state, dict):
        raise kit.DataError("state file is not a JSON object", source=path)
    return state


@app.command(help=HELP, epilog=EPILOG)
def command(
    files: list[str] = typer.Argument(
        None, metavar="FILE", help="JSON Lines inputs ('-' or none: stdin)."
    ),
    fmt: Format = typer.Option(Format.markdown, "--format", "-f", help="Output format."),
    write: bool = typer.Option(
        False, "--write",
        help="Write the council report to docs/council/<date>-<mode>-<slug>.md under --root "
        "(atomically, never over an existing file; suffixes -2..-10) and print the inline "
        "form (synthesis and path line). Markdown council reports only. Default: off.",
    ),
    write_to: str = typer.Option(
        None, "--write-to", metavar="FILE",
        help="Write the council report to FILE (atomically replacing it: a name the caller "
        "reserved) instead of a docs/council/ name, and print the inline form; the report "
        "names FILE as given. Default: off.",
    ),
    root: str = typer.Option(".", "--root", metavar="DIR",
                             help="Directory holding docs/council/ (default: .)."),
    date: str = typer.Option(None, "--date", metavar="YYYY-MM-DD",
                             help="Report date YYYY-MM-DD (default: today, local)."),
    mode: str = typer.Option(None, "--mode", metavar="MODE",
                             help="Council mode for the title/path (default: "
                             "from the verdict records)."),
    slug: str = typer.Option(None, "--slug", metavar="SLUG",
                             help="Slug for the title/path (default: from the "
                             "verdict records)."),
    slots: str = typer.Option(
        ",".join(vocab.SLOTS), "--slots", metavar="A,B",
        help="Reviewer slots the council expected, in appendix order; a slot with no record "
        "is reported missing.",
    ),
    state: str = typer.Option(None, "--state", metavar="FILE",
                              help="review-state.json: continue its IDs, keep IDs of "
                              "same-fingerprint findings (default: none)."),
    repo: str = typer.Option(None, "--repo", metavar="DIR",
                             help="Repository root: snippets come from it, and giving it turns "
                             "on the evidence check of every finding's quote. Read from what "
                             "git tracks at --rev, redacted; never the work tree, untracked, "
                             "ignored or .git/ files (default: . for snippets, no check)."),
    rev: str = typer.Option("HEAD", "--rev", metavar="REV",
                            help="The reviewed revision the files are read at (a scope's "
                            "snapshot commit for uncommitted work). Default: HEAD."),
    base: str = typer.Option(None, "--base", metavar="REV",
                             help="Diff base: the change is `git diff BASE...REV` in --repo; "
                             "it says which findings are on added lines (default: none)."),
    filter_mode: FilterMode = typer.Option(
        FilterMode.nofilter, "--filter-mode",
        help="What reaches sarif, rdjsonl, codequality and the gates, reviewdog's names: "
        "added (added lines), diff_context (lines the diff hunks show), file (changed "
        "files), nofilter. Needs --diff or --base unless nofilter. The report lists what "
        "was left out. Default: nofilter.",
    ),
    baseline: str = typer.Option(None, "--baseline", metavar="FILE",
                                 help="An earlier --format json or sarif output: each finding "
                                 "is new or unchanged, and the ones gone are listed as fixed "
                                 "(default: none)."),
    new_only: bool = typer.Option(False, "--new-only", help="Gates look only at findings new "
                                  "since --baseline. Default: off."),
    gate_unverified: bool = typer.Option(False, "--gate-unverified",
                                         help="--fail-level also counts findings whose quote "
                                         "did not check out. Default: off."),
    no_source: bool = typer.Option(False, "--no-source",
                                   help="Never read source files. Default: off."),
    diff: str = typer.Option(None, "--diff", metavar="FILE", help="Unified diff whose changed "
                             "files feed gap detection (default: none)."),
    changed_files: str = typer.Option(None, "--changed-files", metavar="FILE", help="File with "
                                      "one changed path per line, for gap detection "
                                      "(default: none)."),
    fail_level: str = typer.Option(None, "--fail-level", metavar="SEVERITY",
                                   help="Exit 3 when a finding at or above this severity"
                                   " exists (critical, medium, minor or an alias: high, p1,"
                                   " ...; any case), naming each on stderr; exit 1 when a"
                                   " finding was dropped as invalid, since it could be that"
                                   " one (default: none)."),
    report: Report = typer.Option(Report.auto, "--report", help="Markdown report: council "
                                  "(verdicts), review (findings) or auto (council when any "
                                  "verdict record came in)."),
    category: str = typer.Option("council/", "--category", metavar="ID",
                                 help="SARIF automationDetails.id."),
    keep_going: bool = typer.Option(False, "--keep-going", help="Skip undecodable lines "
                                    "(each named on stderr) instead of stopping with exit 1. "
                                    "Default: off."),
    scheduler: str = typer.Option(
        None, "--scheduler", metavar="ADDRESS",
        help="Read and decode the FILEs on a dask.distributed cluster (`local`: a "
        "LocalCluster here; else a scheduler address or scheduler file); FILEs may then be "
        "fsspec URLs and globs (matches in sorted order). The output is the one a "
        "single-process run gives. Needs pip install 'council-filters[dask]'. Default: off.",
    ),
    dedup: Dedup = typer.Option(
        Dedup.finding, "--dedup",
        help="Which findings merge: finding (same file, lines within 3, and the same problem "
        "by their words; every member listed in every format) or position (the seed's rule: "
        "same file, lines within 3). Default: finding.",
    ),
    upstream: bool = typer.Option(
        False, "--upstream",
        help="Upstream-exact: position dedup, agreement by exact location and equal verdicts, "
        "one survivor's text per merged finding (today's report and formats, byte for byte). "
        "Default: off.",
    ),
    version: bool = kit.version_option(),
) -> int:
    return _run(Options(
        tuple(files or ()), fmt, write, root, date, mode, slug, slots, state, repo, no_source,
        diff, changed_files, fail_level, report, category, keep_going, scheduler,
        dedup, upstream, write_to, rev, base, filter_mode, baseline, new_only, gate_unverified,
    ))


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


def _run(o: Options) -> int:
    s = kit.streams()
    level = sev.gate_level(o.fail_level)
    if o.diff and o.changed_files:
        raise kit.UsageError("give --diff or --changed-files, not both")
    if o.write_to is not None:
        o = dataclasses.replace(o, write=True)
    if o.write and o.fmt is not Format.markdown:
        raise kit.UsageError("--write writes the markdown report; drop --format")
    when = o.date or datetime.date.today().isoformat()
    if not vocab.is_date(when):
        raise kit.UsageError("--date must be YYYY-MM-DD")
    slot_list = tuple(x.strip().lower() for x in o.slots.split(",") if x.strip())
    if not all(vocab.is_name(x) for x in slot_list):
        raise kit.UsageError("--slots takes comma-separated slot names [a-z0-9_-]")
    if o.base and o.diff:
        raise kit.UsageError("give --diff or --base, not both")
    if o.base and o.changed_files:
        raise kit.UsageError("give --changed-files or --base, not both")
    if o.base and not o.repo:
        raise kit.UsageError("--base needs --repo")
    if o.new_only and not o.baseline:
        raise kit.UsageError("--new-only needs --baseline")
    if o.filter_mode is not FilterMode.nofilter and not (o.diff or o.base):
        raise kit.UsageError(f"--filter-mode {o.filter_mode.value} needs --diff or --base")
    prior = _read_state(o.state)
    base_doc = _read_baseline(o.baseline)
    changed = None
    diff_files: list = []
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

    def records() -> Iterator[tuple[str, int, kit.Record]]:
        if o.scheduler:
            items = shards.iter_jsonl(list(o.files), s.stdin, keep_going=o.keep_going,
                                      scheduler=o.scheduler)
        else:
            items = kit.iter_jsonl(list(o.files), s.stdin, keep_going=o.keep_going)
        for source, lineno, rec in items:
            if isinstance(rec, kit.CouncilError):
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
            raise kit.UsageError("--write needs verdict records (the council report)")
        out.write(core.review_markdown_bytes(result, reader))
    if level is not None and collected.dropped:
        # A finding the gate could not read may be the one at the level: fail closed.
        dropped = collected.dropped
        s.warn(
            f"--fail-level {level}: {dropped} finding{'s' if dropped != 1 else ''}"
            " could not be read (named above), so the gate cannot pass"
        )
        return kit.EXIT_DATA
    if level is not None:
        tripped = result.tripped(level, gate_unverified=o.gate_unverified,
                                 new_only=o.new_only)
        if tripped:
            s.warn(f"gate failed: {core.gate_message(level, tripped)}")
            return kit.EXIT_CONDITION
    return kit.EXIT_OK


def _check_rev(repo: str, rev: str, what: str) -> None:
    """A revision that git can read as a commit in ``repo`` (else a usage error)."""
    try:
        revision.check_revision(repo, rev)
    except kit.DataError as exc:
        raise kit.UsageError(f"{what}: {exc.message}") from None


def _read_baseline(path: str | None) -> list[dict] | None:
    if path is None:
        return None
    raw = _read_text(path, "baseline")
    try:
        doc = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        raise kit.DataError(f"invalid JSON in the baseline at line {exc.lineno}",
                            source=path) from None
    try:
        return core.baseline_entries(doc)
    except kit.DataError as exc:
        raise kit.DataError(exc.message, source=path) from None


main = kit.main_for(app, "council-consolidate")


def entry() -> None:
    kit.entry(main)


if __name__ == "__main__":
    entry()
