"""The streams of one invocation, and every diagnostic scrubbed of credentials.

Part of the shell kit (``_shell`` re-exports it): :class:`Streams` is what a shell
writes to, :func:`streams` the invocation in progress, :func:`scrub` masks anything
credential-shaped in a message, :func:`error_record` is what ``--keep-going`` writes.
"""

from __future__ import annotations

import contextvars
import functools
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import BinaryIO, TextIO

from council_filters.base import jsonl
from council_filters.base.errors import CouncilError
from council_filters.base.jsonl import Record


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
    from council_filters.redaction.patterns import CREDENTIAL_PATTERNS

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


def error_record(err: CouncilError) -> Record:
    """The record ``--keep-going`` writes in place of a bad one."""
    return {"kind": "error", "line": err.line, "error": scrub(err.message)}


def map_records(
    fn: Callable[[str, int, Record], Sequence[Record]],
    items: Iterable[tuple[str, int, Record | CouncilError]],
    write: Callable[[Record], None],
    *,
    keep_going: bool,
) -> None:
    """:func:`council_filters.base.jsonl.map_records` with the house error record."""
    jsonl.map_records(fn, items, write, keep_going=keep_going, error_record=error_record)
