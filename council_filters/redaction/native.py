"""The compiled redaction path: the C line machine and the native prefilter.

The compiled module (``council_filters.redaction._machine``, built at install when a C
compiler is there) holds the line machine of :mod:`council_filters.redaction.machine`
and the native prefilter (see :mod:`council_filters.redaction.prefilter`).  This module
loads it and runs the whole of a plain redaction on it: each input
descriptor is read, scanned, redacted and written with ``writev`` in C,
without the interpreter lock and without a Python object per line.  It
imports nothing but ``os`` (the prefilter decides, in
:func:`~council_filters.redaction.prefilter.whole_input`, whether the whole
descriptor may run here), so the plain ``council-redact [FILE]...`` starts in
the interpreter's own start-up time.

``COUNCIL_LINE_MACHINE=python`` turns the compiled machine off (the Python
machine runs; same bytes); ``COUNCIL_PREFILTER=hyperscan`` or ``re`` keeps
the whole-descriptor path off too, so the engine asked for does the scan.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

MACHINE_ENV = "COUNCIL_LINE_MACHINE"
#: The read buffer of the whole-descriptor path (reads are topped up to it; a
#: long line grows it).  Small enough to stay in the processor's cache between
#: the read and the scan, and for a short run to touch few fresh pages: a
#: 4 MiB buffer cost 2,000 page faults, a third of a 24 MB run.
CHUNK = 512 << 10
#: "python" keeps the compiled machine off (read at import, see use_machine).
_mode = [os.environ.get(MACHINE_ENV, "auto")]
_loaded: list[Any] = []


#: The compiled module's interface version this code calls (MACHINE_ABI there).
ABI = 2


def compiled() -> Any:
    """The compiled module, or None when it is not built, or is a build of
    another version of ``_machine.c`` (an install not redone after an update:
    its functions take other arguments, so the Python path runs instead)."""
    if not _loaded:
        try:
            from council_filters.redaction import _machine  # type: ignore[attr-defined]
        except ImportError:
            _machine = None
        if getattr(_machine, "ABI", None) != ABI:
            _machine = None
        _loaded.append(_machine)
    return _loaded[0]


def machine() -> Any:
    """The compiled module when its line machine is to run, else None."""
    return None if _mode[0] == "python" else compiled()


def use_machine(name: str) -> None:
    """From now on run the ``"c"`` machine (when built) or the ``"python"`` one."""
    _mode[0] = "python" if name == "python" else "auto"


def fresh_state() -> list[int]:
    """The machine's state at the start of a stream (see ``_machine.c``)."""
    return [0] * 9


def redact_paths(m: Any, paths: list[str], out_fd: int) -> None:
    """``council-redact [FILE]...`` on descriptors: the inputs (``-`` is
    stdin, none means stdin) as one stream, line numbers and PEM state running
    on from one into the next, written to ``out_fd``.

    Raises ``OSError`` (with ``filename`` for an input that cannot be opened)
    after the inputs before it are written.
    """
    state = fresh_state()
    for path in paths or ["-"]:
        if path == "-":
            m.redact_fd(0, out_fd, state, CHUNK)
            continue
        fd = open_input(path)
        try:
            m.redact_fd(fd, out_fd, state, CHUNK)
        finally:
            os.close(fd)


def open_input(path: str) -> int:
    """A descriptor open for reading ``path``; ``OSError`` with ``filename`` set when it
    cannot be read, a directory included (opening one succeeds, reading it would not)."""
    fd = os.open(path, os.O_RDONLY)
    try:
        is_dir = (os.fstat(fd).st_mode & 0o170000) == 0o040000
    except OSError:
        os.close(fd)
        raise
    if is_dir:
        os.close(fd)
        raise IsADirectoryError(21, "Is a directory", path)
    return fd
