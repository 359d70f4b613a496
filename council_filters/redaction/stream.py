"""council-redact's modes over a console: a text stream, JSON Lines, many files.

:func:`command` checks how the options combine and runs one mode: :func:`redact_raw`
(every input through one redactor, written as it comes, or only counted for ``--check``),
:func:`redact_jsonl` (record by record) or :func:`redact_batch` (``--out-dir``: each file
on its own, with a manifest).  The shell hands it its streams
(:class:`~council_filters.base.console.Console`) and its ``--keep-going`` error record.
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable
from typing import BinaryIO, TextIO

from council_filters.base import jsonl as records_io
from council_filters.base.console import Console
from council_filters.base.errors import (
    EXIT_CONDITION,
    EXIT_DATA,
    EXIT_OK,
    CouncilError,
    fail_usage,
)
from council_filters.base.jsonl import Record, RecordWriter
from council_filters.redaction.records import BatchOptions
from council_filters.redaction.secrets import RuleSet

ErrorRecord = Callable[[CouncilError], Record]


def _out_fd(stdout: BinaryIO) -> int | None:
    """The descriptor of the process's own stdout when that is where output goes."""
    if getattr(sys.stdout, "buffer", None) is not stdout:
        return None
    try:
        stdout.flush()
        return int(stdout.fileno())
    except (AttributeError, OSError, ValueError):
        return None


def redact_raw(
    s: Console, paths: list[str], *, check: bool = False, rules: RuleSet | None = None,
    hits: list[str] | None = None,
) -> Counter[str]:
    """Text mode: every input through one redactor, output written as it comes.

    With ``hits`` (a list), each redacted line is added to it as ``INPUT:LINE: RULE``,
    its line counted within its own input."""
    from council_filters.redaction.machine import run_input, writer
    from council_filters.redaction.records import hit_lines, make_redactor, name_input

    r = make_redactor(rules, count=check)
    if hits is not None:
        r.keep_hits()
    fd = _out_fd(s.stdout)
    write = None if check else writer(s.stdout if fd is None else fd)
    for source, fh in records_io.open_inputs(paths, s.stdin):
        name_input(r, rules, None if source == records_io.STDIN_NAME else source)
        start, seen = r.nr, len(r.hits)
        run_input(r, fh, write)
        if hits is not None:
            hits += hit_lines(source, [(n - start, rule) for n, rule in r.hits[seen:]])
            del r.hits[:]
    return r.counts


def redact_jsonl(
    s: Console, paths: list[str], fields: tuple[str, ...] | None, *, keep_going: bool,
    check: bool, rules: RuleSet | None = None, shape: bool = False,
    error_record: ErrorRecord,
) -> Counter[str]:
    """JSON Lines mode: one record at a time (``error_record``: what --keep-going writes)."""
    from council_filters.redaction.records import redact_record

    writer = RecordWriter(s.stdout, flush=False)
    counts: Counter[str] = Counter()
    records_io.map_records(
        lambda source, lineno, rec: [
            redact_record(rec, fields, source, lineno, counts, rules, shape)
        ],
        records_io.iter_jsonl(paths, s.stdin, keep_going=keep_going),
        (lambda _rec: None) if check else writer.write,
        keep_going=keep_going,
        error_record=error_record,
    )
    return counts


def _files_from(path: str, stdin: BinaryIO) -> list[str]:
    """One input per line (`-`: stdin); blank lines are skipped."""
    data = records_io.read_all([path], stdin)
    return [line.rstrip("\r") for line in data.decode("utf-8", "surrogateescape").split("\n")
            if line.strip()]


def redact_batch(
    s: Console, paths: list[str], opts: BatchOptions, rules: RuleSet | None = None
) -> int:
    """--out-dir: every input on its own, into DIR, with a manifest."""
    from council_filters.redaction.records import run_batch

    assert opts.out_dir is not None
    if opts.files_from is not None:
        paths = paths + _files_from(opts.files_from, s.stdin)
    if not paths:
        fail_usage("--out-dir needs FILE arguments (or --files-from)")
    if "-" in paths:
        fail_usage("stdin cannot be one of the files of --out-dir")
    if opts.jobs is not None and opts.jobs < 0 or opts.retries < 0:
        fail_usage("--jobs and --retries take a number >= 0")
    if opts.scheduler not in (None, "local") and opts.jobs is not None:
        fail_usage("--jobs sizes a local run; a running Dask cluster has its own workers")
    manifest_at, summary = run_batch(
        paths, opts, rules, warn=s.warn, progress=s.stderr if _is_tty(s.stderr) else None
    )
    for entry in summary.failed:
        tries = entry["attempts"]
        s.warn(f"{entry['input']}: {entry['error']} ({tries} attempt{'s' if tries != 1 else ''})")
    if summary.failed:
        s.warn(f"{len(summary.failed)} of {summary.files} files failed; see {manifest_at}")
        return EXIT_DATA
    return EXIT_OK


def _is_tty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def command(
    s: Console,
    error_record: ErrorRecord,
    files: list[str] | None,
    jsonl: bool,
    field: list[str] | None,
    keep_going: bool,
    check: bool,
    rules_spec: str | None = None,
    opts: BatchOptions | None = None,
    shape: bool = False,
) -> int:
    """One run of council-redact, the options as parsed."""
    from council_filters.redaction.records import check_report, load_rules

    paths = list(files or [])
    opts = opts or BatchOptions()
    if opts.out_dir is not None:
        if jsonl or check:
            fail_usage("--out-dir writes redacted files; --jsonl and --check read a stream")
        return redact_batch(s, paths, opts, load_rules(rules_spec))
    if opts.asked:
        fail_usage(f"{', '.join(opts.asked)} need{'s' if len(opts.asked) == 1 else ''} "
                       "--out-dir")
    if not jsonl and (field or keep_going):
        fail_usage("--field and --keep-going need --jsonl")
    if shape and not (jsonl and field):
        fail_usage("--keep-shape needs --jsonl and --field")
    if shape and check:
        fail_usage("--keep-shape rewrites values; --check only counts: choose one")
    rules = load_rules(rules_spec)
    hits: list[str] | None = [] if check and not jsonl else None  # plain --check names each
    if jsonl:
        fields = tuple(field) if field else None
        counts = redact_jsonl(s, paths, fields, keep_going=keep_going, check=check, rules=rules,
                              shape=shape, error_record=error_record)
    else:
        counts = redact_raw(s, paths, check=check, rules=rules, hits=hits)
    if check and +counts:
        for hit in hits or ():
            s.stderr.write(hit + "\n")
        for line in check_report(counts, rules):
            s.warn(line)
        return EXIT_CONDITION
    return EXIT_OK
