"""Exit codes and errors: one table and one error shape for every executable.

Messages never carry input text: raisers pass descriptions only.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:  # not imported at run time: council-redact's start-up loads this module
    from typing import NoReturn

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
