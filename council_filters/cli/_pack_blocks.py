"""council-pack's building blocks: ``slug``, ``report-path``, ``validate-path`` and
``truncate-diff``, each one step of the reference council's shell as a command of its own.

A private part of the ``council-pack`` shell: :func:`register` adds the four commands to
its app, after its modes (so ``--help`` lists them in that order).  ``REPO`` is the
``--repo`` option the modes share.
"""

from __future__ import annotations

import os
from typing import Any

import typer

from council_filters.base import paths as pathrules
from council_filters.base import vocab
from council_filters.cli import _shell as kit
from council_filters.pack import core, modes

REPO = typer.Option(
    None,
    "--repo",
    metavar="DIR",
    help="Repository to read (default: the one around the current directory).",
)


def slug_cmd(
    text: str | None = typer.Argument(
        None, help="Text to slug (default: stdin, trailing newlines dropped)."
    ),
) -> int:
    """Print the slug of TEXT (upstream build_slug, byte for byte, with the hash fallback)."""
    s = kit.streams()
    raw = s.stdin.read().rstrip(b"\n") if text is None else text.encode("utf-8", "surrogateescape")
    s.stdout.write(pathrules.build_slug(raw).encode() + b"\n")
    return kit.EXIT_OK


def report_path_cmd(
    mode: str = typer.Argument(..., help="plan, review, debug or question."),
    slug: str | None = typer.Argument(None, help="The slug (default: read from stdin)."),
    date: str | None = typer.Option(
        None, "--date", metavar="YYYY-MM-DD", help="Date to use (default: today, local time)."
    ),
    root: str = typer.Option(
        ".", "--root", metavar="DIR", help="Directory the collision check is relative to."
    ),
) -> int:
    """Print the first free docs/council/<date>-<mode>-<slug>[-N].md (N = 2..10)."""
    s = kit.streams()
    if mode not in vocab.MODES:
        raise kit.UsageError(f'unknown mode "{mode}" (valid modes: plan, review, debug, question)')
    if slug is None:
        slug = s.stdin.read().decode("utf-8", "replace").strip("\n")
    if not vocab.is_slug(slug):
        raise kit.DataError("slug must match ^[a-z0-9]+(-[a-z0-9]+)*$")
    s.stdout.write(pathrules.report_path(root, mode, slug, date).encode() + b"\n")
    return kit.EXIT_OK


def validate_path_cmd(
    paths: list[str] = typer.Argument(
        None, metavar="PATH...", help="Paths to check (default: one per line on stdin)."
    ),
    hardened: bool = typer.Option(
        False,
        "--hardened",
        help="Also refuse newline/NUL, symlinked parents, non-regular files and paths"
        " resolving outside --root. Default: off (the five upstream checks).",
    ),
    root: str = typer.Option(
        ".", "--root", metavar="DIR", help="Directory the paths are relative to."
    ),
) -> int:
    """Check paths with the five upstream checks; print those that pass, stop at a failure."""
    s = kit.streams()
    if paths:
        items = list(paths)
        source = None
    else:
        items = [os.fsdecode(line.removesuffix(b"\n")) for line in kit.iter_lines(s.stdin)]
        source = kit.STDIN_NAME
    for i, p in enumerate(items, start=1):
        try:
            pathrules.validate_path(p, root, hardened=hardened)
        except pathrules.PathRefused as err:
            raise err.located(source, i if source else None) from None
        s.stdout.write(os.fsencode(p) + b"\n")
    return kit.EXIT_OK


def truncate_diff_cmd(
    base: str | None = typer.Option(
        None,
        "--base",
        metavar="REF",
        help="Diff REF...HEAD with git (default: read a diff from stdin).",
    ),
    stat_file: str | None = typer.Option(
        None,
        "--stat-file",
        metavar="FILE",
        help="With a diff on stdin: the `git diff --stat` text for the header (default: none).",
    ),
    repo: str | None = REPO,
    byte_cap: int = typer.Option(
        core.DIFF_BODY_CAP, "--byte-cap", min=1, help="Trigger and body cap in bytes."
    ),
    line_cap: int = typer.Option(core.DIFF_LINE_CAP, "--line-cap", min=1, help="Body line cap."),
    stat_cap: int = typer.Option(core.STAT_CAP, "--stat-cap", min=0, help="Stat byte cap."),
) -> int:
    """Print the review-mode diff exactly as the upstream block emits it."""
    s = kit.streams()
    limits = core.DiffLimits(byte_cap, byte_cap, line_cap, stat_cap)
    text = modes.truncate(base, stat_file, repo, limits, s.stdin)
    s.stdout.write(text)
    return kit.EXIT_OK


def register(app: Any) -> None:
    """Add the building blocks to council-pack's app."""
    app.command("slug")(slug_cmd)
    app.command("report-path")(report_path_cmd)
    app.command("validate-path")(validate_path_cmd)
    app.command("truncate-diff")(truncate_diff_cmd)
