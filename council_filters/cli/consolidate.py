"""council-consolidate: one deterministic report from many reviewers.

Thin shell over ``council_filters.consolidate.run``: the options and the streams.
"""

from __future__ import annotations

import typer

from council_filters.base import vocab
from council_filters.cli import _shell as kit
from council_filters.consolidate import run
from council_filters.consolidate.run import Dedup, FilterMode, Format, Report

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


app = kit.make_app(HELP, EPILOG)


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
    return run.run(run.Options(
        tuple(files or ()), fmt, write, root, date, mode, slug, slots, state, repo, no_source,
        diff, changed_files, fail_level, report, category, keep_going, scheduler,
        dedup, upstream, write_to, rev, base, filter_mode, baseline, new_only, gate_unverified,
    ), kit.streams())


main = kit.main_for(app, "council-consolidate")


def entry() -> None:
    kit.entry(main)


if __name__ == "__main__":
    entry()
