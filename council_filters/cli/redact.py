"""council-redact: the 11-pattern credential redaction, as a Unix filter.

The option parser (typer) is built only when options are given: the plain
``council-redact [FILE]...`` form, the one pipes use most, starts without it,
and without the shared kit too until something goes wrong (start-up is most
of the time on small inputs).
"""

from __future__ import annotations

import os
import sys
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any, BinaryIO, TextIO

from council_filters.redaction import PATTERN_NAMES, Redactor, redact_text, run_input, writer

if TYPE_CHECKING:
    from council_filters.cli import _shell as kit

PROG = "council-redact"
DEFAULT_FIELDS = ("output", "stderr")
#: The variable click reads for shell completion (kit._completion_var(PROG)).
COMPLETE_VAR = "_COUNCIL_REDACT_COMPLETE"

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
are written. Streams: memory is bounded by the longest line plus a 4 MiB read.

Speed: one combined scan finds the lines that can change (Hyperscan when the
'fast' extra is installed, Python's re otherwise; --version names the engine,
COUNCIL_PREFILTER=re forces the fallback); the exact line machine (compiled
when a C compiler was there at install, Python otherwise) runs only there and
inside open PEM blocks. Output is the same bytes either way.
"""

EPILOG_EXAMPLES = """\
Examples:

\b
  codex exec "$PROMPT" 2>&1 | council-redact > review.txt
  council-dispatch < packs.jsonl | council-redact --jsonl | council-fence --jsonl
  git diff origin/main | council-redact --check || echo "the diff holds a credential"
  council-redact notes.md build.log | less

"""


def epilog() -> str:
    from council_filters.cli import _shell as kit

    return EPILOG_EXAMPLES + kit.exit_code_table()


# --------------------------------------------------------------------------- #
# The two modes.
# --------------------------------------------------------------------------- #
def _out_fd(stdout: BinaryIO) -> int | None:
    """The descriptor of the process's own stdout when that is where output goes."""
    if getattr(sys.stdout, "buffer", None) is not stdout:
        return None
    try:
        stdout.flush()
        return stdout.fileno()
    except (AttributeError, OSError, ValueError):
        return None


def redact_raw(s: kit.Streams, paths: list[str], *, check: bool = False) -> Counter[str]:
    """Text mode: every input through one redactor, output written as it comes."""
    from council_filters.cli import _shell as kit

    r = Redactor(count=check)
    fd = _out_fd(s.stdout)
    write = None if check else writer(s.stdout if fd is None else fd)
    for _source, fh in kit.open_inputs(paths, s.stdin):
        run_input(r, fh, write)
    return r.counts


def _redact_plain_fds(paths: list[str]) -> int:
    """The plain form on the process's own descriptors, without the kit.

    Raises ``OSError`` with ``filename`` set for an input that cannot be
    opened (after the inputs before it are written).
    """
    r = Redactor()
    write = writer(1)
    for path in paths or ["-"]:
        if path == "-":
            run_input(r, 0, write)
            continue
        fd = os.open(path, os.O_RDONLY)
        try:
            run_input(r, fd, write)
        finally:
            os.close(fd)
    return 0


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
    from council_filters.cli import _shell as kit

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
    from council_filters.cli import _shell as kit

    writer = kit.RecordWriter(s.stdout, flush=False)
    counts: Counter[str] = Counter()
    kit.map_records(
        lambda source, lineno, rec: [redact_record(rec, fields, source, lineno, counts)],
        kit.iter_jsonl(paths, s.stdin, keep_going=keep_going),
        (lambda _rec: None) if check else writer.write,
        keep_going=keep_going,
    )
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
    from council_filters.cli import _shell as kit

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

    from council_filters.cli import _shell as kit

    EPILOG = epilog()
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
        version: bool = typer.Option(
            False, "--version", callback=_version, is_eager=True,
            help="Print the version and the prefilter engine, and exit.",
        ),
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
def _version(value: bool) -> None:
    """``--version``: the version, then the prefilter engine on a second line."""
    if value:
        import typer

        from council_filters import __version__, kit, prefilter, redaction

        machine = "compiled" if redaction.machine_name() == "c" else "Python"
        out = kit.streams().stdout
        out.write(
            f"{PROG} {__version__}\nprefilter: {prefilter.describe()}; "
            f"line machine: {machine}\n".encode()
        )
        raise typer.Exit(0)


def _plain(args: list[str]) -> bool:
    """No options at all: only FILE arguments (or `-`), and no completion request."""
    if COMPLETE_VAR in os.environ:
        return False  # shell completion is answered by the option parser
    return all(a == "-" or not a.startswith("-") for a in args)


def main(
    argv: Sequence[str] | None = None,
    *,
    stdin: BinaryIO | None = None,
    stdout: BinaryIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if _plain(args):
        if stdin is None and stdout is None and stderr is None:
            try:
                return _redact_plain_fds(args)
            except BaseException as exc:  # noqa: BLE001 - handed to the kit's error mapping
                return _plain_failure(exc)
        from council_filters.cli import _shell as kit

        def text_mode(s: kit.Streams) -> int:
            redact_raw(s, args)
            return kit.EXIT_OK

        return kit.run_plain(text_mode, PROG, stdin=stdin, stdout=stdout, stderr=stderr)
    from council_filters.cli import _shell as kit

    return kit.run(build_app(), PROG, args, stdin=stdin, stdout=stdout, stderr=stderr)


def _plain_failure(exc: BaseException) -> int:
    """Report a failure of the kit-less plain form exactly as the kit would."""
    from council_filters.cli import _shell as kit

    if isinstance(exc, OSError) and exc.filename is not None and not isinstance(
        exc, BrokenPipeError
    ):
        path = os.fsdecode(exc.filename)

        def reopen(_s: kit.Streams) -> int:
            # The kit names an unreadable input; a second attempt fails the same way.
            for _ in kit.open_inputs([path], sys.stdin.buffer):
                pass  # pragma: no cover - it opened this time (a race): nothing to do
            return kit.EXIT_OK

        return kit.run_plain(reopen, PROG)

    def fail(_s: kit.Streams) -> int:
        raise exc

    return kit.run_plain(fail, PROG)


def entry() -> None:
    if _plain(sys.argv[1:]):
        # Output went straight to the descriptors: nothing is buffered to flush.
        sys.exit(main())
    from council_filters.cli import _shell as kit

    kit.entry(main)


if __name__ == "__main__":
    entry()
