"""The one way this package runs git on a repository nobody has vetted.

A checkout's own configuration and attributes can make git run programs:
``core.fsmonitor``, hooks (``post-index-change``, ``reference-transaction``,
``post-checkout``...), ``diff.<driver>.textconv`` and ``diff.<driver>.command``
named by ``.gitattributes``, ``diff.external``, ``filter.<driver>.clean`` /
``smudge`` / ``process``, ``gpg.program`` under ``log.showSignature``, a
lazy fetch's transport (``core.sshCommand``, ``remote.*.uploadpack``), the
auto-maintenance.  :func:`argv` puts a command-line override before every
subcommand (``-c`` beats every config file, includes too), and
:data:`DIFF_SWITCHES` go after every subcommand that can print a diff
(``--no-textconv --no-ext-diff``: an empty ``textconv`` would still be run).
Filter drivers are turned off by name: :func:`filter_overrides` empties the
clean, smudge and process commands of every ``filter.<name>`` the
configuration defines (git then reads and writes the bytes as they are).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence

# Overrides that hold for every git call.
OVERRIDES: tuple[tuple[str, str], ...] = (
    ("core.fsmonitor", "false"),
    ("core.hooksPath", os.devnull),
    ("core.untrackedCache", "false"),
    ("diff.external", ""),  # with --no-ext-diff below: never run
    ("diff.submodule", "short"),
    ("status.submoduleSummary", "false"),
    ("submodule.recurse", "false"),
    ("log.showSignature", "false"),
    ("protocol.allow", "never"),  # no transport: no lazy fetch, no ssh command, no helper
    ("credential.helper", ""),
    ("core.askPass", ""),
    ("gc.auto", "0"),
    ("maintenance.auto", "false"),
    ("core.pager", "cat"),
)
# After a subcommand that may print a diff.
DIFF_SWITCHES = ("--no-textconv", "--no-ext-diff")
DIFF_COMMANDS = frozenset({"diff", "log", "show", "whatchanged", "format-patch"})
# The environment git gets on top of the caller's.
ENV = {
    "GIT_TERMINAL_PROMPT": "0",
    "GIT_OPTIONAL_LOCKS": "0",
    "GIT_PAGER": "cat",
    "PAGER": "cat",
    "GIT_NO_LAZY_FETCH": "1",
    "GIT_ASKPASS": "",
    "SSH_ASKPASS": "",
}
# Variables of the caller that would point git at a program or another repository's parts.
UNSET = ("GIT_EXTERNAL_DIFF", "GIT_SSH", "GIT_SSH_COMMAND", "GIT_PROXY_COMMAND",
         "GIT_EDITOR", "GIT_SEQUENCE_EDITOR")


def config_args(extra: Iterable[tuple[str, str]] = ()) -> list[str]:
    out: list[str] = []
    for key, value in (*OVERRIDES, *extra):
        out += ["-c", f"{key}={value}"]
    return out


def filter_overrides(config_keys: Iterable[str]) -> list[tuple[str, str]]:
    """Overrides for every driver named in ``config_keys`` (``filter.lfs.clean``,
    ``diff.a.b.textconv``, ...): a filter's clean, smudge and process commands emptied
    (the bytes pass as they are) and ``required`` off; a diff driver's ``textconv`` made
    ``cat`` and its ``command`` a no-op, for the git a child runs without
    :data:`DIFF_SWITCHES` (a reviewer's own ``git diff``)."""
    filters, diffs = set(), set()
    for key in config_keys:
        head, _, last = key.rpartition(".")
        section, _, name = head.partition(".")
        if not name:
            continue
        if section.lower() == "filter" and last.lower() in (
                "clean", "smudge", "process", "required"):
            filters.add(name)
        elif section.lower() == "diff" and last.lower() in ("textconv", "command"):
            diffs.add(name)
    out: list[tuple[str, str]] = []
    for name in sorted(filters):
        out += [(f"filter.{name}.clean", ""), (f"filter.{name}.smudge", ""),
                (f"filter.{name}.process", ""), (f"filter.{name}.required", "false")]
    for name in sorted(diffs):
        out += [(f"diff.{name}.textconv", "cat"), (f"diff.{name}.command", "exit 0")]
    return out


def argv(root: str, args: Sequence[str], extra: Iterable[tuple[str, str]] = ()) -> list[str]:
    """``git -C ROOT -c ...overrides... SUBCOMMAND [diff switches] ARGS``."""
    rest = list(args)
    if rest and rest[0] in DIFF_COMMANDS:
        rest[1:1] = list(DIFF_SWITCHES)
    return ["git", "--no-pager", "-C", root, *config_args(extra), *rest]


def env(base: Mapping[str, str] | None = None) -> dict[str, str]:
    """The caller's environment (or ``base``) with :data:`ENV` set and :data:`UNSET` removed."""
    out = {k: v for k, v in (os.environ if base is None else base).items() if k not in UNSET}
    out.update(ENV)
    return out


def config_env(base: Mapping[str, str] | None = None,
               extra: Iterable[tuple[str, str]] = ()) -> dict[str, str]:
    """``base`` (default: this process's environment) with :data:`OVERRIDES` added as
    ``GIT_CONFIG_COUNT``/``GIT_CONFIG_KEY_n``/``GIT_CONFIG_VALUE_n``, after any the caller
    set: every git a child runs (a reviewer CLI's, ``gh``'s) gets them too."""
    out = dict(os.environ if base is None else base)
    try:
        n = int(out.get("GIT_CONFIG_COUNT", "0"))
    except ValueError:
        n = 0
    for key, value in (*OVERRIDES, *extra):
        out[f"GIT_CONFIG_KEY_{n}"] = key
        out[f"GIT_CONFIG_VALUE_{n}"] = value
        n += 1
    out["GIT_CONFIG_COUNT"] = str(n)
    for name in ("GIT_NO_LAZY_FETCH", "GIT_TERMINAL_PROMPT"):
        out[name] = ENV[name]
    return out
