"""One council run, from checked options to the exit code.

:func:`run` reserves the report's name, builds the :class:`~council_filters.council.chain.Plan`,
runs the chain (progress on a terminal), prints the synthesis and the consolidation's notes,
appends the job summary, records where a ``--since last`` review ended and applies the
gates.  It speaks through a :class:`~council_filters.base.console.Console` (the shell's
streams), so it runs the same in a process and in a test.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping, Sequence
from typing import BinaryIO

from council_filters.base import paths, vocab
from council_filters.base.console import Console
from council_filters.base.errors import (
    EXIT_CONDITION,
    EXIT_DATA,
    EXIT_INTERNAL,
    EXIT_OK,
    EXIT_USAGE,
)
from council_filters.consolidate import usage
from council_filters.council import chain, gates, reports, since
from council_filters.council.prepare import Checked, Options, file_reviewers, review_args
from council_filters.pack.git import GitRepo


def progress(console: Console, names: Sequence[str]) -> Callable[..., None] | None:
    """The one-line progress display on a terminal's stderr; None when it is not one."""
    err = console.stderr
    if not (hasattr(err, "isatty") and err.isatty()):
        return None

    def show(elapsed: float, done: frozenset[str] = frozenset()) -> None:
        waiting = [vocab.display_name(n) for n in names if n not in done]
        if done:
            err.write(f"\r\x1b[Kcouncil: {len(names) - len(waiting)} of {len(names)} reviewers"
                      f" done; waiting on {', '.join(waiting) or 'the report'}"
                      f" — {int(elapsed)}s")
        else:
            err.write(f"\r\x1b[Kcouncil: {', '.join(waiting)} running — {int(elapsed)}s")
        err.flush()

    return show


def run(pack_args: list[str], checked: Checked, opts: Options, *, git: GitRepo, slug: str,
        console: Console, env: Mapping[str, str], stdin: BinaryIO | None,
        reviewed: tuple[str, str] | None = None) -> int:
    """Run the chain for ``pack_args`` (the mode first) and return council's exit code;
    ``stdin`` is the text a ``-`` argument reads."""
    s = console
    root = str(git.root)
    mode = pack_args[0]
    names, fail_level = checked.names, checked.fail_level
    date = paths.today()
    reserved = reports.reserve(root, reports.report_dir(root, opts.report_dir), mode, slug,
                               date)
    pack_args = [mode, "--slug", slug, *pack_args[1:]]
    write_args = ("--write-to", reserved.shown, "--date", date, "--slug", slug)

    def absolute(path: str | None) -> str | None:
        return os.path.abspath(path) if path else None

    plan = chain.Plan(
        pack_args=tuple(pack_args),
        reviewers=tuple(names),
        commands_file=checked.commands_file,
        root=root,
        redact_pack=not opts.no_redact,
        extended_rules=chain.extended_rules_available(),
        consolidate_args=write_args + (("--fail-level", fail_level) if fail_level else ()),
        file_reviewers=file_reviewers(checked.table, names),
        sarif=absolute(opts.sarif),
        rdjsonl=absolute(opts.rdjsonl),
        codequality=absolute(opts.codequality),
        review_args=review_args(pack_args),
        json=absolute(opts.json),
        dispatch_args=checked.dispatch_args,
        report_path=reserved.shown,
    )
    if opts.no_redact:
        s.warn("--no-redact-pack: the pack goes to the reviewers unredacted")
    show = progress(console, names)
    started = time.monotonic()
    s.stdout.flush()
    try:
        outcome = chain.run(plan, stdin=stdin, progress=show)
    except BaseException:
        reports.release(reserved)
        raise
    if outcome.failed_stage is not None or outcome.consolidate_code not in (
        EXIT_OK, EXIT_CONDITION
    ):
        reports.release(reserved)
    if show is not None:
        s.stderr.write(f"\r\x1b[Kcouncil: done in {int(time.monotonic() - started)}s\n")
    if outcome.failed_stage is not None:
        s.warn(
            f"council-{outcome.failed_stage} failed (exit {outcome.stage_code});"
            " no report written"
        )
        code = outcome.stage_code
        return code if code in (EXIT_DATA, EXIT_USAGE) else EXIT_INTERNAL
    s.stdout.write(outcome.report)
    s.stdout.flush()
    # council-consolidate's notes (its warnings, the findings a gate tripped on), in order.
    s.stderr.write(outcome.notes.decode("utf-8", "replace"))
    if outcome.consolidate_code not in (EXIT_OK, EXIT_CONDITION):
        s.warn(f"council-consolidate failed (exit {outcome.consolidate_code})")
        return int(outcome.consolidate_code or EXIT_INTERNAL)
    job_summary(opts.job_summary or env.get("GITHUB_STEP_SUMMARY") or None, outcome, s.warn)
    if reviewed is not None and gates.counted(outcome.records):
        try:
            since.record(env, git, *reviewed)
        except OSError as exc:
            s.warn(f"--since last: the reviewed commit was not recorded:"
                   f" {exc.strerror or 'error'}")
    failures = gates.check(outcome.records, gates.Gates(
        checked.fail_on, checked.min_reviewers, opts.min_families, opts.min_coverage))
    if outcome.consolidate_code == EXIT_CONDITION:
        failures.append(f"--fail-level {fail_level}: the findings named above")
    for failure in failures:
        s.warn(f"gate failed: {failure}")
    return EXIT_CONDITION if failures else EXIT_OK


def job_summary(target: str | None, outcome: chain.Outcome,
                warn: Callable[[str], None]) -> None:
    """Append the synthesis and the usage table to the job summary file, when there is one."""
    if target is None:
        return
    pairs = [(str(r.get("reviewer")), r) for r in outcome.records]
    body = outcome.report.decode("utf-8", "replace").rstrip("\n")
    text = "\n".join([body, "", *usage.section(pairs)]).rstrip("\n") + "\n\n"
    try:
        with open(target, "a", encoding="utf-8") as fh:
            fh.write(text)
    except OSError as exc:
        warn(f"job summary not written: {exc.strerror or 'error'}")
