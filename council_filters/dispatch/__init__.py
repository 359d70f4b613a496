"""Running reviewer commands: delivery, bounded time, capture and classification.

A core with no argv and no stdio, in three parts:

``config``
    which command runs for a reviewer (``--command``, ``$COUNCIL_CMD_<NAME>``,
    the config file) and how ``{pack_file}`` / ``{pack_dir}`` are filled;
``process``
    one command in its own process group, in bounded time whatever it does
    with its pipes or children, cancellable by an interrupt;
``outcome``
    the exit code, stderr and ingest token turned into status, summary and
    error kind.

``runner`` ties them together for a whole run (parallel, in input order,
stoppable at once); ``usage`` reads what a CLI reported it used, ``cache``
keeps answers, ``budget`` decides who may start.
"""

from __future__ import annotations

from council_filters.dispatch.budget import Budget, Price, parse_prices
from council_filters.dispatch.cache import Cache
from council_filters.dispatch.commands_file import ADAPTERS, CommandsFileError
from council_filters.dispatch.config import (
    Command,
    parse_config,
    resolve_command,
    substitute,
)
from council_filters.dispatch.outcome import (
    ERROR,
    OK,
    STATUSES,
    TIMEOUT,
    UNAVAILABLE,
    Result,
    classify,
    read_opencode_events,
    redact_excerpt,
)
from council_filters.dispatch.process import Limits, Run, execute, private_pack
from council_filters.dispatch.runner import Reuse, Runner, Task, prepare, run_reviewer

DEFAULT_OUTPUT_CAP = Limits.output_cap
DEFAULT_STDERR_CAP = Limits.stderr_cap

__all__ = [
    "ADAPTERS",
    "DEFAULT_OUTPUT_CAP",
    "DEFAULT_STDERR_CAP",
    "ERROR",
    "OK",
    "STATUSES",
    "TIMEOUT",
    "UNAVAILABLE",
    "Budget",
    "Cache",
    "Command",
    "CommandsFileError",
    "Limits",
    "Price",
    "Result",
    "Reuse",
    "Run",
    "Runner",
    "Task",
    "classify",
    "execute",
    "parse_config",
    "parse_prices",
    "prepare",
    "private_pack",
    "read_opencode_events",
    "redact_excerpt",
    "resolve_command",
    "run_reviewer",
    "substitute",
]
