"""Which command runs for a reviewer, and how its placeholders are filled.

``--command NAME=CMD`` first, then ``$COUNCIL_CMD_<NAME>``, then the config
file (``NAME = CMD`` and ``NAME.adapter = ADAPTER`` lines, ``#`` comments).
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
from collections.abc import Mapping
from dataclasses import dataclass

from council_filters.dispatch import commands_file
from council_filters.dispatch.commands_file import ADAPTERS

_PLACEHOLDER = re.compile(r"\{(pack_file|pack_dir)\}")
# What `command -v` finds without a PATH lookup: POSIX special and regular builtins.
_SH_BUILTINS = frozenset(
    (
        ".", ":", "[", "alias", "break", "cd", "command", "continue", "echo", "eval", "exec",
        "exit", "export", "false", "getopts", "hash", "kill", "printf", "pwd", "read",
        "readonly", "return", "set", "shift", "test", "times", "trap", "true", "type", "ulimit",
        "umask", "unalias", "unset", "wait",
    )
)
_SH_WORDS = frozenset(
    (
        "!", "{", "}", "case", "do", "done", "elif", "else", "esac", "fi", "for", "if", "in",
        "then", "until", "while",
    )
)


@dataclass(frozen=True)
class Command:
    """What to run for one reviewer."""

    reviewer: str
    shell: str
    adapter: str = "text"

    @property
    def uses_file(self) -> bool:
        return bool(_PLACEHOLDER.search(self.shell))


def env_key(reviewer: str) -> str:
    return reviewer.upper().replace("-", "_")


def parse_config(text: str, source: str) -> dict[str, str]:
    """``name = command`` and ``name.adapter = opencode-json`` lines; ``#`` comments.

    The whole file is checked first (:mod:`.commands_file`); a
    :class:`~.commands_file.CommandsFileError` names every problem with its line.
    """
    return commands_file.parse(text, source).table


def resolve_command(
    reviewer: str,
    options: Mapping[str, str],
    adapters: Mapping[str, str],
    env: Mapping[str, str],
    config: Mapping[str, str],
) -> Command | None:
    """The command for ``reviewer``: --command, then COUNCIL_CMD_<NAME>, then the config file."""
    key = env_key(reviewer)
    shell = options.get(reviewer) or env.get(f"COUNCIL_CMD_{key}") or config.get(reviewer)
    if not shell:
        return None
    adapter = (
        adapters.get(reviewer)
        or env.get(f"COUNCIL_ADAPTER_{key}")
        or config.get(f"{reviewer}.adapter")
        or ("opencode-json" if reviewer == "opencode" and "--format json" in shell else "text")
    )
    if adapter not in ADAPTERS:
        raise ValueError(f"unknown adapter for {reviewer} (known: {', '.join(ADAPTERS)})")
    return Command(reviewer, shell, adapter)


def substitute(shell: str, pack_file: str) -> str:
    """Replace ``{pack_file}`` / ``{pack_dir}`` with shell-quoted paths; nothing else."""
    paths = {"pack_file": pack_file, "pack_dir": os.path.dirname(pack_file)}
    return _PLACEHOLDER.sub(lambda m: shlex.quote(paths[m.group(1)]), shell)


def first_word(shell: str) -> str:
    """The command's first word, as the not-found reason names it (control characters
    escaped, at most 100 characters)."""
    try:
        words = shlex.split(shell)
    except ValueError:
        words = shell.split()
    word = words[0] if words else shell
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in word)[:100]


def command_missing(shell: str, cwd: str | None) -> bool:
    """True when the command's first word is clearly not runnable (like ``command -v``)."""
    try:
        lexer = shlex.shlex(shell, posix=True, punctuation_chars=True)
        lexer.whitespace_split = True
        words = list(lexer)
    except ValueError:
        return False  # let the shell report its own syntax error
    if not words or "=" in words[0] or words[0] in _SH_BUILTINS or words[0] in _SH_WORDS:
        return False
    if not words[0].strip("();|&<>"):
        return False  # a subshell or redirection first: only the shell can tell
    first = words[0]
    if "/" in first:
        path = os.path.join(cwd or os.getcwd(), first)
        return not (os.path.isfile(path) and os.access(path, os.X_OK))
    if _PLACEHOLDER.search(first) or "$" in first or "`" in first:
        return False
    return shutil.which(first) is None
