"""The streams a core that drives a whole command speaks through.

A shell hands its streams (``cli/_shell.py``'s ``Streams``) to such a core; a test hands
anything with the same attributes.  Nothing here reads or writes by itself.
"""

from __future__ import annotations

from typing import BinaryIO, Protocol, TextIO

from council_filters.base.errors import CouncilError


class Console(Protocol):
    """Binary stdin and stdout, text stderr, and the shell's one-line diagnostics."""

    stdin: BinaryIO
    stdout: BinaryIO
    stderr: TextIO

    def warn(self, message: str) -> None:
        """One diagnostic line on stderr, prefixed with the program's name, scrubbed."""

    def error(self, err: CouncilError) -> None:
        """An error's one line on stderr, scrubbed."""
