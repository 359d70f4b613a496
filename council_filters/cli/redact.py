"""council-redact: credential redaction as a Unix filter (the eleven, or --rules).

The option parser (typer) is built only when options are given: the plain
``council-redact [FILE]...`` form, the one pipes use most, starts without it,
and without the shared kit too until something goes wrong (start-up is most
of the time on small inputs), with ``--rules SPEC`` as well.  This module
imports nothing at the top but ``os`` and ``sys``: on the compiled path
(:mod:`council_filters.redaction.native`) the plain form loads no other module
of the package but the engine choice.  The modes
are ``council_filters.redaction.stream``; the option parser is ``_redact_app``.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any, BinaryIO, TextIO

    from council_filters.cli import _shell as kit
    from council_filters.redaction.secrets import RuleSet

#: The core's names, importable from here (loaded on first use, see __getattr__).
_CORE_NAMES = {
    "DEFAULT_FIELDS": "council_filters.redaction.records",
    "BatchOptions": "council_filters.redaction.records",
    "check_report": "council_filters.redaction.records",
    "load_rules": "council_filters.redaction.records",
    "make_redactor": "council_filters.redaction.records",
    "name_input": "council_filters.redaction.records",
    "redact_record": "council_filters.redaction.records",
    "run_batch": "council_filters.redaction.records",
    "PATTERN_NAMES": "council_filters.redaction.machine",
    "run_input": "council_filters.redaction.machine",
    "writer": "council_filters.redaction.machine",
}

PROG = "council-redact"
#: The variable click reads for shell completion (kit._completion_var(PROG)).
COMPLETE_VAR = "_COUNCIL_REDACT_COMPLETE"

# --------------------------------------------------------------------------- #
# The plain form (the modes: council_filters.redaction.stream).
# --------------------------------------------------------------------------- #
def _redact_plain_fds(paths: list[str], rules: RuleSet | None = None) -> int:
    """The plain form on the process's own descriptors, without the kit.

    On the compiled path when it applies (:mod:`council_filters.redaction.native`),
    else through the redactor.  Raises ``OSError`` with ``filename`` set for
    an input that cannot be opened (after the inputs before it are written).
    """
    if rules is None:
        from council_filters.redaction import native, prefilter

        m = prefilter.whole_input()
        if m is not None:
            _started()
            native.redact_paths(m, paths, 1)
            return 0
    from council_filters.redaction.machine import Redactor, run_input, writer
    from council_filters.redaction.native import open_input

    if rules is None:
        r = Redactor()
    else:
        from council_filters.redaction.records import make_redactor, name_input

        r = make_redactor(rules)
    _started()
    write = writer(1)
    for path in paths or ["-"]:
        if rules is not None:
            name_input(r, rules, None if path == "-" else path)
        if path == "-":
            run_input(r, 0, write)
            continue
        fd = open_input(path)
        try:
            run_input(r, fd, write)
        finally:
            os.close(fd)
    return 0


#: Whether :func:`entry` holds the garbage collector for the start-up.
_held_gc = [False]


def _hold_gc() -> None:
    """No garbage collection while the command starts (the process's own run).

    Start-up makes tens of thousands of objects that live to the end: the
    modules, the rules, their programs.  The collector would look at them
    again and again as they are made (a dozen passes, milliseconds of a run
    of ``--rules extended``) and free none; :func:`_started` freezes them
    and lets it run again for the input, whose memory stays bounded as
    before.
    """
    import gc

    if gc.isenabled():
        gc.disable()
        _held_gc[0] = True


def _started() -> None:
    """The start-up is over: what it made is kept out of later collections
    (frozen) and the collector runs again (see :func:`_hold_gc`)."""
    if _held_gc[0]:
        import gc

        _held_gc[0] = False
        gc.freeze()
        gc.enable()


# --------------------------------------------------------------------------- #
# The command line (the option parser: _redact_app).
# --------------------------------------------------------------------------- #
def build_app() -> Any:
    """The typer app (built on first use: importing typer dominates startup)."""
    from council_filters.cli import _redact_app

    return _redact_app.build_app()


def __getattr__(name: str) -> Any:
    """``app`` is built lazily (see :func:`build_app`), the core's names loaded so."""
    if name == "app":
        return build_app()
    if name in _CORE_NAMES:
        import importlib

        return getattr(importlib.import_module(_CORE_NAMES[name]), name)
    raise AttributeError(name)


# --------------------------------------------------------------------------- #
# Entry points.
# --------------------------------------------------------------------------- #
def _plain(args: list[str]) -> tuple[list[str], str | None] | None:
    """``(files, rules spec)`` when the arguments are FILEs and at most one
    ``--rules SPEC`` (the forms pipes use most); None for anything else, and
    when shell completion is asked for (the option parser answers those)."""
    if COMPLETE_VAR in os.environ:
        return None
    files: list[str] = []
    spec: str | None = None
    i = 0
    while i < len(args):
        a = args[i]
        if a.startswith("--rules=") and spec is None and len(a) > 8:
            spec = a[8:]
        elif a == "--rules" and spec is None and i + 1 < len(args):
            spec = args[i + 1]
            i += 1
        elif a == "-" or not a.startswith("-"):
            files.append(a)
        else:
            return None
        i += 1
    return files, spec


def main(
    argv: Sequence[str] | None = None,
    *,
    stdin: BinaryIO | None = None,
    stdout: BinaryIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    plain = _plain(args)
    if plain is not None:
        files, spec = plain
        if stdin is None and stdout is None and stderr is None:
            try:
                if spec is None:
                    return _redact_plain_fds(files)
                from council_filters.redaction.records import load_rules

                return _redact_plain_fds(files, load_rules(spec))
            except BaseException as exc:  # noqa: BLE001 - handed to the kit's error mapping
                return _plain_failure(exc)
        from council_filters.cli import _shell as kit

        def text_mode(s: kit.Streams) -> int:
            from council_filters.redaction.records import load_rules
            from council_filters.redaction.stream import redact_raw

            redact_raw(s, files, rules=load_rules(spec))
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
    if _plain(sys.argv[1:]) is not None:
        _hold_gc()
        # Output went straight to the descriptors: nothing is buffered to flush.
        _leave(main())
    from council_filters.cli import _shell as kit

    kit.entry(main)


def _leave(code: int) -> None:
    """End the process with ``code`` as soon as its work is done (the plain form).

    The interpreter's finalisation frees every module, rule and compiled
    program one by one and runs no code of this command: some milliseconds
    of every run, about a tenth of ``--rules extended`` over megabytes.  The
    plain form writes with ``writev`` on the descriptors and opens no file
    or thread that outlives ``main``, so only the text streams are flushed
    (a diagnostic may sit in one) and the process ends there.  A flush that
    fails leaves the end to the interpreter, which reports it as usual.
    """
    lazy = sys.modules.get("council_filters.redaction.lazy")
    if lazy is not None:
        lazy.keep_programs()  # (what the exit would do: programs compiled this run)
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BaseException:  # noqa: BLE001 - the usual exit reports it
        sys.exit(code)
    os._exit(code)


if __name__ == "__main__":
    entry()
