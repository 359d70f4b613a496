"""Whose reviewer commands run: the one rule council and council-dispatch share.

The commands file is, in order: ``--config FILE``; ``$COUNCIL_COMMANDS``; the
reviewed repository's ``.council/commands`` but only when the caller trusts it
(``--trust-repo-config``); the user's ``${XDG_CONFIG_HOME:-~/.config}/council/commands``.
A ``.council/commands`` that is present but not trusted is never read: a pull
request could add it, and every line of it is a shell command.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from council_filters.base.errors import UsageError

ENV_COMMANDS = "COUNCIL_COMMANDS"
REPO_COMMANDS = os.path.join(".council", "commands")


def user_commands_path(env: Mapping[str, str]) -> Path:
    """``$XDG_CONFIG_HOME/council/commands``, else ``~/.config/council/commands``.

    A relative ``XDG_CONFIG_HOME`` is ignored, as the XDG base directory rules say.
    """
    xdg = env.get("XDG_CONFIG_HOME", "")
    if xdg and os.path.isabs(xdg):
        base = Path(xdg)
    else:
        home = env.get("HOME") or os.path.expanduser("~")
        base = Path(home) / ".config"
    return base / "council" / "commands"


@dataclass(frozen=True)
class Resolved:
    """The commands file to read (None: none found) and the notes to print about it."""

    path: Path | None
    origin: str  # "--config", "$COUNCIL_COMMANDS", "repository", "user", "none"
    notes: list[str] = field(default_factory=list)


def resolve(
    explicit: str | None,
    env: Mapping[str, str],
    repo_root: str | os.PathLike[str] | None,
    *,
    trust_repo: bool = False,
) -> Resolved:
    """Apply the rule; raise :class:`UsageError` for a named file that does not exist."""
    notes: list[str] = []
    repo_file = Path(repo_root) / REPO_COMMANDS if repo_root is not None else None
    repo_present = repo_file is not None and os.path.lexists(repo_file)
    from_env = env.get(ENV_COMMANDS, "")
    chosen = "--config" if explicit else f"${ENV_COMMANDS}" if from_env else None
    if chosen is not None:
        # A file named by the caller wins; the repository's file is not a candidate, so
        # it is only mentioned when the caller asked for it.
        if trust_repo and repo_present:
            notes.append(
                f"--trust-repo-config has no effect: {chosen} names the commands file"
                f" ({REPO_COMMANDS} of the repository under review is not read)"
            )
        return Resolved(_named(explicit or from_env, chosen), chosen, notes)
    if repo_present and trust_repo and repo_file is not None:
        notes.append(f"using {REPO_COMMANDS} of the repository under review (--trust-repo-config)")
        return Resolved(repo_file, "repository", notes)
    if repo_present:
        notes.append(
            f"ignoring {REPO_COMMANDS} of the repository under review: its commands would run"
            " on this machine with your credentials, and a change under review can add or edit"
            " it; pass --trust-repo-config to use it"
        )
    user = user_commands_path(env)
    if user.is_file():
        return Resolved(user, "user", notes)
    return Resolved(None, "none", notes)


def _named(path: str, what: str) -> Path:
    p = Path(path)
    if not p.is_file():
        raise UsageError(f"cannot read config ({what}): no such file", source=path)
    return p


def reviewer_names(table: Mapping[str, str]) -> list[str]:
    """The reviewers a commands table configures, in file order (adapter lines, the
    ``code-review.ORIGIN`` lines and the corrector left out)."""
    from council_filters.dispatch.commands_file import CommandsFile

    return CommandsFile("", dict(table)).reviewers()
