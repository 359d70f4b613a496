"""The typer side of the shell kit: the house app, the shared options, ``--version``.

Part of the shell kit (``_shell`` re-exports it), so every ``--help`` has the same shape
and every command and subcommand carries the one version.
"""

from __future__ import annotations

import copy
from typing import Any

from council_filters import __version__
from council_filters.cli._streams import streams


def _add_version_options(command: Any) -> None:
    """Give every subcommand of a group the group's own ``--version``."""
    own = next((p for p in command.params if p.name == "version"), None)
    for sub in getattr(command, "commands", {}).values():
        if own is not None and not any(p.name == "version" for p in sub.params):
            clone = copy.copy(own)
            clone.expose_value = False  # the subcommand's function takes no such argument
            sub.params.append(clone)
        _add_version_options(sub)


def _completion_var(prog: str) -> str:
    """The variable click reads for shell completion: ``_COUNCIL_REDACT_COMPLETE``."""
    return "_" + prog.replace("-", "_").upper() + "_COMPLETE"


def _click_module() -> Any:
    """The click that typer runs on: recent typer vendors it as ``typer._click``."""
    import importlib

    try:
        return importlib.import_module("typer._click")
    except ImportError:
        return importlib.import_module("click")


# --------------------------------------------------------------------------- #
# Shared typer app construction, so every --help has the same shape.
# --------------------------------------------------------------------------- #
HELP_WIDTH = 100


def make_app(help_text: str, epilog: str, **kwargs: Any) -> Any:
    """A typer app with the house settings: plain help, fixed width, no completion install."""
    import typer

    settings = {
        "help_option_names": ["-h", "--help"],
        "max_content_width": HELP_WIDTH,
        "terminal_width": HELP_WIDTH,
    }
    settings.update(kwargs.pop("context_settings", {}))
    return typer.Typer(
        help=help_text,
        epilog=epilog,
        add_completion=False,
        pretty_exceptions_enable=False,
        pretty_exceptions_show_locals=False,
        rich_markup_mode=None,
        context_settings=settings,
        **kwargs,
    )


def keep_going_option(scope: str = "") -> Any:
    """The ``--keep-going`` option of the record filters (``scope``: e.g. ``"--jsonl: "``)."""
    import typer

    return typer.Option(
        False, "--keep-going",
        help=f"{scope}write an error record for a bad line and go on (default: stop, exit 1).",
    )


def version_option() -> Any:
    """The ``--version`` option every executable carries (one version source)."""
    import typer

    return typer.Option(
        False, "--version", callback=version_callback, is_eager=True,
        help="Print the version and exit.",
    )


def version_callback(value: bool) -> None:
    if value:
        import typer

        streams().stdout.write(f"{streams().prog} {__version__}\n".encode())
        raise typer.Exit(0)
