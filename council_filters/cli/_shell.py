"""The shell every executable uses: streams, diagnostics, running a typer app, one main.

Nothing here knows about a particular filter.  A CLI module builds a typer app
(``_typer``), hands it to :func:`run`, and reads its streams through :func:`streams`
(``_streams``); both parts are re-exported here, so a shell imports this one module.  Cores
never import this module: errors and JSON Lines live in ``council_filters.base``
(re-exported here under their old names for the shells).
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
import traceback
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import IO, Any, BinaryIO, NoReturn, Protocol, TextIO

from council_filters.base.errors import (  # noqa: F401 - the kit's names, re-exported
    EXIT_CODES,
    EXIT_CONDITION,
    EXIT_DATA,
    EXIT_INTERNAL,
    EXIT_OK,
    EXIT_USAGE,
    CouncilError,
    DataError,
    UsageError,
    exit_code_table,
    fail_usage,
)
from council_filters.base.jsonl import (  # noqa: F401 - the kit's names, re-exported
    MAX_DEPTH,
    STDIN_NAME,
    Record,
    RecordWriter,
    decode_record,
    dumps,
    iter_jsonl,
    iter_lines,
    json_type,
    open_inputs,
    read_all,
    shape_problem,
    source_name,
)
from council_filters.cli._streams import (  # noqa: F401 - the kit's names, re-exported
    Streams,
    _current,
    error_record,
    map_records,
    scrub,
    streams,
)
from council_filters.cli._typer import (  # noqa: F401 - the kit's names, re-exported
    HELP_WIDTH,
    _add_version_options,
    _click_module,
    _completion_var,
    keep_going_option,
    make_app,
    version_callback,
    version_option,
)


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

        from council_filters.cli import _coerce

        click = _click_module()
        no_args_help = getattr(click.exceptions, "NoArgsIsHelpError", ())
        try:
            if _completion_var(prog) in os.environ:
                from typer.completion import completion_init

                completion_init()
            command = typer.main.get_command(app)
            _coerce.install(command)  # plain option values without a pydantic model
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
    except MemoryError:
        # Whatever held it is gone by now: say so in one line, as bad input.
        _flush_quietly(ctx.stdout)
        ctx.warn("input too large: out of memory")
        return EXIT_DATA
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


def _flush_quietly(stream: IO[bytes]) -> None:
    with contextlib.suppress(BrokenPipeError, OSError, ValueError):
        stream.flush()


class Main(Protocol):
    """Every executable's ``main``: argv in, injectable streams, the exit code out."""

    def __call__(
        self,
        argv: Sequence[str] | None = None,
        *,
        stdin: BinaryIO | None = None,
        stdout: BinaryIO | None = None,
        stderr: TextIO | None = None,
    ) -> int: ...


def main_for(app: Any, prog: str, subapps: Mapping[str, Any] | None = None) -> Main:
    """The ``main`` of the executable ``prog`` running the typer ``app``.

    ``subapps`` maps a first argument to an app of its own (a subcommand with
    its own options and help, dispatched by hand: ``council-parse-verdict ranges``).
    """
    extra = dict(subapps or {})

    def main(
        argv: Sequence[str] | None = None,
        *,
        stdin: BinaryIO | None = None,
        stdout: BinaryIO | None = None,
        stderr: TextIO | None = None,
    ) -> int:
        args = list(sys.argv[1:] if argv is None else argv)
        if args[:1] and args[0] in extra:
            return run(extra[args[0]], prog, args[1:], stdin=stdin, stdout=stdout,
                       stderr=stderr, name=f"{prog} {args[0]}")
        return run(app, prog, args, stdin=stdin, stdout=stdout, stderr=stderr)

    return main


def entry(main: Main) -> NoReturn:
    """Console-script shim: exit with ``main()``'s code."""
    code = main()
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        _silence_stdout()
    sys.exit(code)


