"""council-redact: the 11-pattern credential redaction, as a Unix filter.

The option parser (typer) is built only when options are given: the plain
``council-redact [FILE]...`` form, the one pipes use most, starts without it.
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Iterator
from functools import lru_cache
from typing import Any, BinaryIO, TextIO

from council_filters import kit
from council_filters.redaction import PATTERN_NAMES, Redactor, redact_text

PROG = "council-redact"
CHUNK = 1 << 20
DEFAULT_FIELDS = ("output", "stderr")

HELP = """\
Redact credentials in text: like `awk -f redact.awk`, byte for byte.

Each input line yields exactly one output line: the line itself, or a placeholder
naming its line number N (counted from 1 across all inputs, as awk's NR is):

\b
  --- redacted credential at line N ---
  --- redacted PEM key block at line N ---

The eleven patterns (names as --check reports them; a credential is its prefix
followed by at least the given number of bytes of its character class):

\b
  openai-project    sk-proj-      20 of [A-Za-z0-9_-]
  anthropic         sk-ant-       20 of [A-Za-z0-9_-]
  openai            sk-           20 of [A-Za-z0-9]
  google-api        AIza          35 of [0-9A-Za-z_-]
  github-token      gh[pous]_     36 of [A-Za-z0-9]
  github-pat        github_pat_   40 of [A-Za-z0-9_]
  aws-access-key    AKIA          16 of [0-9A-Z]
  bearer            "Bearer "     20 of [A-Za-z0-9._~+/-]
  authorization     "Authorization: "  20 of [A-Za-z0-9 ._~+/-]
  opencode-session  ses_          16 of [A-Za-z0-9]
  pem-private-key   -----BEGIN ... PRIVATE KEY----- blocks, quoted, listed or
                    diffed, with the reference's rules for mentions and decoys

Bytes in, bytes out: any encoding, NUL bytes and CR pass through, a final line
without a newline gets one, empty input gives empty output. Several FILEs are
one stream, as for awk: line numbers and an open PEM block run on from one file
into the next; an unreadable FILE stops with exit 2 after the files before it
are written. Streams: memory is bounded by the longest line.
"""

EPILOG = (
    """\
Examples:

\b
  codex exec "$PROMPT" 2>&1 | council-redact > review.txt
  council-dispatch < packs.jsonl | council-redact --jsonl | council-fence --jsonl
  git diff origin/main | council-redact --check || echo "the diff holds a credential"
  council-redact notes.md build.log | less

"""
    + kit.exit_code_table()
)


# --------------------------------------------------------------------------- #
# The two modes.
# --------------------------------------------------------------------------- #
def _chunks(fh: BinaryIO) -> Iterator[bytes]:
    """What is available now, up to CHUNK bytes at a time (a pipe is not waited on)."""
    read = getattr(fh, "read1", None) or fh.read
    return iter(lambda: read(CHUNK), b"")


def redact_raw(s: kit.Streams, paths: list[str], *, check: bool = False) -> Counter[str]:
    """Text mode: every input through one redactor, output written as it comes."""
    r = Redactor(count=check)
    write = s.stdout.write
    for _source, fh in kit.open_inputs(paths, s.stdin):
        for chunk in _chunks(fh):
            out = r.feed(chunk)
            if out and not check:
                write(out)
        out = r.finish()
        if out and not check:
            write(out)
    return r.counts


def redact_record(
    record: kit.Record,
    fields: tuple[str, ...],
    source: str,
    lineno: int,
    counts: Counter[str] | None = None,
) -> kit.Record:
    """Redact the named string fields of one record, each on its own.

    Sets ``redacted_lines`` to ``{field: [1-based replaced lines]}`` for every
    named field the record has (an empty list when nothing was replaced).
    """
    replaced: dict[str, list[int]] = {}
    for name in fields:
        if name not in record:
            continue
        value = record[name]
        if not isinstance(value, str):
            raise kit.DataError(
                f"field {name!r} is {kit.json_type(value)}, expected a string",
                source=source, line=lineno,
            )
        out, lines = redact_text(value.encode(), counts)
        record[name] = out.decode()
        replaced[name] = lines
    record["redacted_lines"] = replaced
    return record


def redact_jsonl(
    s: kit.Streams, paths: list[str], fields: tuple[str, ...], *, keep_going: bool,
    check: bool,
) -> Counter[str]:
    """JSON Lines mode: one record at a time."""
    writer = kit.RecordWriter(s.stdout, flush=False)
    counts: Counter[str] = Counter()
    for source, lineno, item in kit.iter_jsonl(paths, s.stdin, keep_going=keep_going):
        if not isinstance(item, kit.CouncilError):
            try:
                item = redact_record(item, fields, source, lineno, counts)
            except kit.DataError as err:
                if not keep_going:
                    raise
                item = err
        if check:
            continue
        writer.write(kit.error_record(item) if isinstance(item, kit.CouncilError) else item)
    return counts


def check_report(counts: Counter[str]) -> list[str]:
    """The --check lines: one per pattern that fired (table order), then the total."""

    def lines(n: int) -> str:
        return f"{n} line{'' if n == 1 else 's'}"

    report = [f"{name}: {lines(counts[name])}" for name in PATTERN_NAMES if counts[name]]
    report.append(f"{lines(sum(counts.values()))} would be redacted")
    return report


# --------------------------------------------------------------------------- #
# The command line.
# --------------------------------------------------------------------------- #
def command(
    files: list[str] | None,
    jsonl: bool,
    field: list[str] | None,
    keep_going: bool,
    check: bool,
) -> int:
    s = kit.streams()
    paths = list(files or [])
    if not jsonl and (field or keep_going):
        kit.fail_usage("--field and --keep-going need --jsonl")
    if jsonl:
        fields = tuple(field or DEFAULT_FIELDS)
        counts = redact_jsonl(s, paths, fields, keep_going=keep_going, check=check)
    else:
        counts = redact_raw(s, paths, check=check)
    if check and +counts:
        for line in check_report(counts):
            s.warn(line)
        return kit.EXIT_CONDITION
    return kit.EXIT_OK


@lru_cache(maxsize=1)
def build_app() -> Any:
    """The typer app (built on first use: importing typer dominates startup)."""
    import typer

    app = kit.make_app(HELP, EPILOG)

    @app.command(help=HELP, epilog=EPILOG)
    def redact(
        files: list[str] = typer.Argument(
            None, metavar="FILE", show_default=False,
            help="Inputs, read in order as one stream; `-` is stdin. Default: stdin.",
        ),
        jsonl: bool = typer.Option(
            False, "--jsonl",
            help="Read JSON Lines records and redact string fields of each, each value on "
            "its own (lines from 1, fresh state); other fields pass through in order, and "
            "`redacted_lines` ({field: [line, ...]}) is added. Default: off (plain text).",
        ),
        field: list[str] = typer.Option(
            None, "--field", metavar="NAME",
            help="With --jsonl: a field to redact; repeat for several. A record without it "
            "passes. Default: output and stderr.",
        ),
        keep_going: bool = kit.keep_going_option("--jsonl: "),
        check: bool = typer.Option(
            False, "--check",
            help="Write nothing to stdout; exit 3 when anything would be redacted, with the "
            "count of redacted lines per pattern on stderr; exit 0 when clean. Default: off.",
        ),
        version: bool = kit.version_option(),
    ) -> int:
        return command(files, jsonl, field, keep_going, check)

    return app


def __getattr__(name: str) -> Any:
    """``app`` is built lazily (see :func:`build_app`)."""
    if name == "app":
        return build_app()
    raise AttributeError(name)


# --------------------------------------------------------------------------- #
# Entry points.
# --------------------------------------------------------------------------- #
def _plain(args: list[str]) -> bool:
    """No options at all: only FILE arguments (or `-`), and no completion request."""
    import os

    if kit._completion_var(PROG) in os.environ:
        return False  # shell completion is answered by the option parser
    return all(a == "-" or not a.startswith("-") for a in args)


def main(
    argv: list[str] | None = None,
    *,
    stdin: BinaryIO | None = None,
    stdout: BinaryIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if _plain(args):

        def text_mode(s: kit.Streams) -> int:
            redact_raw(s, args)
            return kit.EXIT_OK

        return kit.run_plain(text_mode, PROG, stdin=stdin, stdout=stdout, stderr=stderr)
    return kit.run(build_app(), PROG, args, stdin=stdin, stdout=stdout, stderr=stderr)


def entry() -> None:
    kit.entry(main)


if __name__ == "__main__":
    entry()
