"""The shared kit every filter uses: streams, JSON Lines I/O, errors, exit codes.

Nothing here knows about a particular filter.  A CLI module builds a typer app,
hands it to :func:`run`, and reads its streams through :func:`streams`.  Cores
never import this module's CLI half (``run``/``streams``); they may raise the
error classes.
"""

from __future__ import annotations

import contextlib
import contextvars
import copy
import functools
import io
import json
import os
import re
import sys
import traceback
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import IO, Any, BinaryIO, NoReturn, TextIO

import orjson

from council_filters import __version__

# --------------------------------------------------------------------------- #
# Exit codes: one table for every executable.
# --------------------------------------------------------------------------- #
EXIT_OK = 0
EXIT_DATA = 1
EXIT_USAGE = 2
EXIT_CONDITION = 3
EXIT_INTERNAL = 70

EXIT_CODES: tuple[tuple[int, str], ...] = (
    (EXIT_OK, "ok"),
    (EXIT_DATA, "bad input (data): the message names the source and line"),
    (EXIT_USAGE, "usage: bad option, missing argument, unreadable file"),
    (EXIT_CONDITION, "the condition you asked about holds (see the filter's options)"),
    (EXIT_INTERNAL, "internal error (a bug: rerun with COUNCIL_DEBUG=1 and report it)"),
)


def exit_code_table() -> str:
    """The exit-code table as it appears in every ``--help`` epilog."""
    rows = "\n".join(f"  {code:<3} {text}" for code, text in EXIT_CODES)
    return "Exit codes:\n\n\b\n" + rows


# --------------------------------------------------------------------------- #
# Errors.  Messages never carry input text: callers pass descriptions only.
# --------------------------------------------------------------------------- #
class CouncilError(Exception):
    """An error with an exit code and an optional position (source, line)."""

    code = EXIT_DATA

    def __init__(
        self,
        message: str,
        *,
        source: str | None = None,
        line: int | None = None,
        code: int | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.source = source
        self.line = line
        if code is not None:
            self.code = code

    def located(self, source: str | None = None, line: int | None = None) -> CouncilError:
        """Fill in a position the raiser did not know; returns self."""
        if self.source is None:
            self.source = source
        if self.line is None:
            self.line = line
        return self

    def render(self, prog: str) -> str:
        where = ""
        if self.source is not None:
            where = f"{self.source}:" if self.line is None else f"{self.source}:{self.line}:"
            where += " "
        return f"{prog}: {where}{self.message}"


class DataError(CouncilError):
    """Bad input data: exit 1."""

    code = EXIT_DATA


class UsageError(CouncilError):
    """Bad invocation: exit 2."""

    code = EXIT_USAGE


def fail_usage(message: str) -> NoReturn:
    raise UsageError(message)


# --------------------------------------------------------------------------- #
# Streams, injectable for in-process tests.
# --------------------------------------------------------------------------- #
@dataclass
class Streams:
    """The three standard streams of one invocation (stdout is binary)."""

    stdin: BinaryIO
    stdout: BinaryIO
    stderr: TextIO
    prog: str

    def warn(self, message: str) -> None:
        """One diagnostic line on stderr, prefixed with the program name."""
        self.stderr.write(scrub(f"{self.prog}: {message}") + "\n")
        self.stderr.flush()

    def error(self, err: CouncilError) -> None:
        self.stderr.write(scrub(err.render(self.prog)) + "\n")
        self.stderr.flush()


_SCRUB_MASK = "[redacted]"


@functools.lru_cache(maxsize=1)
def _credential_re() -> re.Pattern[str]:
    from council_filters.redaction import CREDENTIAL_PATTERNS

    return re.compile("|".join(p.regex.decode() for p in CREDENTIAL_PATTERNS))


def scrub(text: str) -> str:
    """``text`` with anything credential-shaped masked (every diagnostic goes through this).

    Messages describe input rather than quote it, but some name what the user
    typed (a ref, a path, an ID, an unknown option): a credential pasted there
    must not reach a terminal or a CI log either.  The shapes are the
    redaction patterns'.  A line break in a name is escaped: one message, one line.
    """
    text = _credential_re().sub(_SCRUB_MASK, text)
    if "\n" in text or "\r" in text:
        text = text.replace("\r", "\\r").replace("\n", "\\n")
    return text


_current: contextvars.ContextVar[Streams] = contextvars.ContextVar("council_streams")


def streams() -> Streams:
    """The streams of the invocation in progress (set by :func:`run`)."""
    return _current.get()


# --------------------------------------------------------------------------- #
# Inputs: "-" or nothing means stdin; files are opened binary, lazily.
# --------------------------------------------------------------------------- #
STDIN_NAME = "stdin"


def source_name(path: str) -> str:
    return STDIN_NAME if path == "-" else path


def open_inputs(paths: Sequence[str], stdin: BinaryIO) -> Iterator[tuple[str, BinaryIO]]:
    """Yield ``(source, binary stream)`` for each path, in order.

    An unreadable file is a usage error (exit 2), raised when its turn comes,
    so earlier inputs are fully processed first, as awk and cat do.
    """
    for path in paths or ["-"]:
        if path == "-":
            yield STDIN_NAME, stdin
            continue
        try:
            fh = open(path, "rb")  # noqa: SIM115 - closed below
        except OSError as exc:
            reason = exc.strerror or type(exc).__name__
            raise UsageError(f"cannot open: {reason}", source=path) from None
        with fh:
            yield path, fh


def read_all(paths: Sequence[str], stdin: BinaryIO) -> bytes:
    """The concatenated bytes of every input (for filters that must buffer)."""
    return b"".join(fh.read() for _, fh in open_inputs(paths, stdin))


# --------------------------------------------------------------------------- #
# JSON Lines.
# --------------------------------------------------------------------------- #
Record = dict[str, Any]


def decode_record(raw: bytes, source: str, lineno: int) -> Record:
    """Decode one JSON Lines line into an object, or raise a located DataError.

    The message carries orjson's reason and the column, never the text.
    Duplicate keys: the last one wins.  Refused as bad input, so nothing is
    silently changed or fails later on output: an integer beyond 64 bits
    (orjson would round it to a float) and nesting deeper than
    :data:`MAX_DEPTH` (orjson writes at most 254 levels).
    """
    try:
        value = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        raise DataError(_decode_reason(raw, exc), source=source, line=lineno) from None
    if not isinstance(value, dict):
        raise DataError(
            f"expected a JSON object, got {json_type(value)}", source=source, line=lineno
        )
    problem = shape_problem(value, raw)
    if problem:
        raise DataError(problem, source=source, line=lineno)
    return value


#: The deepest nesting a record may have (the record itself is level 1); it
#: leaves room under orjson's output limit for the documents that wrap records.
MAX_DEPTH = 128


def _decode_reason(raw: bytes, exc: orjson.JSONDecodeError) -> str:
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError as bad:
        return f"invalid UTF-8 at byte {bad.start + 1}"
    # orjson's wording grows between releases ("invalid literal, expected
    # 'null'"); keep its stable head so messages do not depend on the version.
    reason = exc.msg.split(",", 1)[0]
    return f"invalid JSON: {reason} at column {exc.colno}"


def shape_problem(value: Record, raw: bytes) -> str | None:
    """Why a decoded record cannot pass through unchanged (None when it can).

    One walk over the containers only (strings are not looked into), so the
    common record of a few long strings costs next to nothing.
    """
    floats = False
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            return f"nested deeper than {MAX_DEPTH} levels"
        for item in node.values() if type(node) is dict else node:
            kind = type(item)
            if kind is dict or kind is list:
                stack.append((item, depth + 1))
            elif kind is float:
                floats = True
    if floats and _LONG_DIGITS.search(raw):
        # orjson reads an integer literal beyond 64 bits as a float: look again exactly.
        try:
            json.loads(raw, parse_int=_int64)
        except ValueError:
            return "integer beyond 64 bits (write it as a string)"
    return None


_LONG_DIGITS = re.compile(rb"[0-9]{19}")  # 2**64 and -(2**63) have 20 and 19
_INT64_MIN, _UINT64_MAX = -(2**63), 2**64 - 1


def _int64(text: str) -> int:
    number = int(text)
    if not _INT64_MIN <= number <= _UINT64_MAX:
        raise ValueError(text)
    return number


def json_type(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


def iter_lines(stream: BinaryIO) -> Iterator[bytes]:
    """Lines of a binary stream, terminators kept, memory bounded by the longest line."""
    return iter(stream.readline, b"")


def iter_jsonl(
    paths: Sequence[str], stdin: BinaryIO, *, keep_going: bool = False
) -> Iterator[tuple[str, int, Record | CouncilError]]:
    """Yield ``(source, lineno, record)`` for every non-blank line of every input.

    Line numbers are 1-based and count blank lines.  Decoding happens inside
    the loop, one record at a time.  With ``keep_going`` a bad line yields its
    located :class:`DataError` in place of the record; otherwise it is raised.
    """
    for source, fh in open_inputs(paths, stdin):
        for lineno, raw in enumerate(iter_lines(fh), start=1):
            if not raw.strip():
                continue
            try:
                yield source, lineno, decode_record(raw, source, lineno)
            except DataError as err:
                if not keep_going:
                    raise
                yield source, lineno, err


def dumps(record: Record) -> bytes:
    """Compact UTF-8 JSON, key order kept, ``\\n``-terminated."""
    return orjson.dumps(record) + b"\n"


def error_record(err: CouncilError) -> Record:
    """The record ``--keep-going`` writes in place of a bad one."""
    return {"kind": "error", "line": err.line, "error": scrub(err.message)}


class RecordWriter:
    """Writes records to a binary stream, one compact line each, flushed per record."""

    def __init__(self, out: BinaryIO, *, flush: bool = True) -> None:
        self.out = out
        self.flush_each = flush
        self.count = 0

    def write(self, record: Record) -> None:
        self.out.write(dumps(record))
        self.count += 1
        if self.flush_each:
            self.out.flush()

    def write_all(self, records: Iterable[Record]) -> None:
        for record in records:
            self.write(record)


# --------------------------------------------------------------------------- #
# Running an app: errors, exit codes, broken pipes, no tracebacks.
# --------------------------------------------------------------------------- #
def debug_enabled() -> bool:
    return os.environ.get("COUNCIL_DEBUG", "") == "1"


def _silence_stdout() -> None:
    """After EPIPE: point fd 1 at /dev/null so the interpreter's final flush is quiet."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, io.UnsupportedOperation):
        pass


def run(
    app: Any,
    prog: str,
    argv: Sequence[str] | None = None,
    *,
    stdin: BinaryIO | None = None,
    stdout: BinaryIO | None = None,
    stderr: TextIO | None = None,
    name: str | None = None,
) -> int:
    """Run a typer app as ``prog`` and return its exit code; never raises.

    Streams default to the process's own; tests inject ``io.BytesIO`` /
    ``io.StringIO``.  Typer's exception hook and pretty tracebacks (which print
    local variables) are bypassed: the click command is invoked directly.
    ``name`` is what usage lines call the command (``council-x sub`` for a
    subcommand dispatched by hand); diagnostics always start with ``prog``.
    """
    args = list(sys.argv[1:] if argv is None else argv)

    def invoke(ctx: Streams) -> int:
        import typer
        import typer.main

        click = _click_module()
        no_args_help = getattr(click.exceptions, "NoArgsIsHelpError", ())
        try:
            if _completion_var(prog) in os.environ:
                from typer.completion import completion_init

                completion_init()
            command = typer.main.get_command(app)
            # A one-command app collapses to that command: keep the app's help.
            if not command.help and app.info.help:
                command.help = app.info.help
            if not command.epilog and app.info.epilog:
                command.epilog = app.info.epilog
            _add_version_options(command)
            saved = sys.stdout, sys.stderr
            try:
                with _text_stdout(ctx.stdout if stdout is not None else None):
                    result = command.main(args=args, prog_name=name or prog,
                                          standalone_mode=False)
            except SystemExit as exc:
                # click answers a closed pipe with sys.exit(1) after swapping the
                # process's streams: put them back and stop quietly, as everywhere.
                sys.stdout, sys.stderr = saved
                if isinstance(exc.__context__, BrokenPipeError):
                    raise exc.__context__ from None
                raise
            return result if isinstance(result, int) else EXIT_OK
        except typer.Exit as exc:
            return int(exc.exit_code or 0)
        except no_args_help as exc:
            # A command that needs arguments was run bare: its help, on stderr.
            ctx.stderr.write(exc.ctx.get_help() + "\n" if exc.ctx else f"{prog}: usage error\n")
            return EXIT_USAGE
        except click.exceptions.UsageError as exc:
            ctx.warn(f"usage: {exc.format_message()} (try '{name or prog} --help')")
            return EXIT_USAGE
        except click.exceptions.ClickException as exc:
            ctx.warn(exc.format_message())
            return EXIT_USAGE
        except typer.Abort:
            raise KeyboardInterrupt from None

    return run_plain(invoke, prog, stdin=stdin, stdout=stdout, stderr=stderr)


def run_plain(
    func: Callable[[Streams], int],
    prog: str,
    *,
    stdin: BinaryIO | None = None,
    stdout: BinaryIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Run ``func(streams)`` as ``prog`` with the house error handling; never raises.

    What :func:`run` uses under typer, and what a filter may call directly on
    a path that needs no option parser (``council-redact FILE...`` starts
    faster without importing typer).  Maps :class:`CouncilError` to its code
    and one located line, a closed pipe to a quiet 0, an interrupt to 130 and
    anything else to 70 without a traceback (unless ``COUNCIL_DEBUG=1``).
    """
    ctx = Streams(
        stdin=stdin if stdin is not None else sys.stdin.buffer,
        stdout=stdout if stdout is not None else sys.stdout.buffer,
        stderr=stderr if stderr is not None else sys.stderr,
        prog=prog,
    )
    token = _current.set(ctx)
    try:
        code = func(ctx)
        ctx.stdout.flush()
        return code
    except CouncilError as err:
        _flush_quietly(ctx.stdout)
        ctx.error(err)
        return err.code
    except KeyboardInterrupt:
        ctx.warn("interrupted")
        return 130
    except BrokenPipeError:
        # The reader went away (`| head`): stop quietly.
        if stdout is None:
            _silence_stdout()
        return EXIT_OK
    except Exception as exc:  # noqa: BLE001 - the last line of defence
        if debug_enabled():
            traceback.print_exc(file=ctx.stderr)
        name = type(exc).__name__
        ctx.warn(f"internal error: {name} (rerun with COUNCIL_DEBUG=1 for a traceback)")
        return EXIT_INTERNAL
    finally:
        _current.reset(token)


@contextlib.contextmanager
def _text_stdout(binary: BinaryIO | None) -> Iterator[None]:
    """Point ``sys.stdout`` (where click prints --help and --version) at an injected stream."""
    if binary is None:
        yield
        return
    text = io.TextIOWrapper(binary, encoding="utf-8", write_through=True)  # type: ignore[arg-type]
    try:
        with contextlib.redirect_stdout(text):
            yield
    finally:
        text.flush()
        text.detach()


def _add_version_options(command: Any) -> None:
    """Give every subcommand of a group the group's own ``--version``."""
    own = next((p for p in command.params if p.name == "version"), None)
    for sub in getattr(command, "commands", {}).values():
        if own is not None and not any(p.name == "version" for p in sub.params):
            clone = copy.copy(own)
            clone.expose_value = False  # the subcommand's function takes no such argument
            sub.params.append(clone)
        _add_version_options(sub)


def _completion_var(prog: str) -> str:
    """The variable click reads for shell completion: ``_COUNCIL_REDACT_COMPLETE``."""
    return "_" + prog.replace("-", "_").upper() + "_COMPLETE"


def _click_module() -> Any:
    """The click that typer runs on: recent typer vendors it as ``typer._click``."""
    import importlib

    try:
        return importlib.import_module("typer._click")
    except ImportError:
        return importlib.import_module("click")


def _flush_quietly(stream: IO[bytes]) -> None:
    with contextlib.suppress(BrokenPipeError, OSError, ValueError):
        stream.flush()


def entry(main: Any) -> NoReturn:
    """Console-script shim: exit with ``main()``'s code."""
    code = main()
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        _silence_stdout()
    sys.exit(code)


# --------------------------------------------------------------------------- #
# Shared typer app construction, so every --help has the same shape.
# --------------------------------------------------------------------------- #
HELP_WIDTH = 100


def make_app(help_text: str, epilog: str, **kwargs: Any) -> Any:
    """A typer app with the house settings: plain help, fixed width, no completion install."""
    import typer

    settings = {
        "help_option_names": ["-h", "--help"],
        "max_content_width": HELP_WIDTH,
        "terminal_width": HELP_WIDTH,
    }
    settings.update(kwargs.pop("context_settings", {}))
    return typer.Typer(
        help=help_text,
        epilog=epilog,
        add_completion=False,
        pretty_exceptions_enable=False,
        pretty_exceptions_show_locals=False,
        rich_markup_mode=None,
        context_settings=settings,
        **kwargs,
    )


def keep_going_option(scope: str = "") -> Any:
    """The ``--keep-going`` option of the record filters (``scope``: e.g. ``"--jsonl: "``)."""
    import typer

    return typer.Option(
        False, "--keep-going",
        help=f"{scope}write an error record for a bad line and go on (default: stop, exit 1).",
    )


def version_option() -> Any:
    """The ``--version`` option every executable carries (one version source)."""
    import typer

    return typer.Option(
        False, "--version", callback=version_callback, is_eager=True,
        help="Print the version and exit.",
    )


def version_callback(value: bool) -> None:
    if value:
        import typer

        streams().stdout.write(f"{streams().prog} {__version__}\n".encode())
        raise typer.Exit(0)
