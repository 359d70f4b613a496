"""Where a council run's report goes, decided before any reviewer runs.

The report directory is ``docs/council`` in the repository unless the user
names another; when it lies inside the repository it is left out of every
snapshot a scope takes and of the uncommitted-file count, so a council never
reviews its own earlier reports.  The report's name is reserved (an empty
placeholder file, created exclusively) before the chain starts, from an
endless run of candidates (``-2`` .. ``-10`` as upstream, then ``-11``, ...),
so a run never ends "out of names" after its reviewers have worked; a run
that fails gives the name back.
"""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass

from council_filters.base import paths, safefs
from council_filters.base.errors import DataError

PLACEHOLDER = b"<!-- council: this report is being written -->\n"


@dataclass(frozen=True)
class Reserved:
    """A reserved report file: its path on disk and the path the report names."""

    path: str
    shown: str


def report_dir(root: str, chosen: str | None) -> str:
    """The absolute report directory: ``chosen`` (relative to the current directory),
    else ``root``/docs/council."""
    return os.path.abspath(chosen) if chosen else os.path.join(root, paths.REPORT_DIR)


def inside(root: str, directory: str) -> str | None:
    """``directory`` relative to ``root`` when it lies inside it, else None."""
    real_root = os.path.realpath(root)
    real = os.path.realpath(directory)
    if real == real_root or not real.startswith(real_root + os.sep):
        return None
    return os.path.relpath(real, real_root).replace(os.sep, "/")


def reserve(root: str, directory: str, mode: str, slug: str, date: str) -> Reserved:
    """Create the first free report name in ``directory`` (never runs out)."""
    rel = inside(root, directory)
    if rel is not None:
        from council_filters.consolidate.report_file import report_dir as checked_dir

        if rel == paths.REPORT_DIR:
            checked_dir(root)  # the checks --write makes: no link leading outside
    os.makedirs(directory, mode=0o755, exist_ok=True)
    for name in paths.report_names(mode, slug, date):
        target = os.path.join(directory, os.path.basename(name))
        if os.path.lexists(target):
            continue
        try:
            safefs.write_new(target, PLACEHOLDER)
        except FileExistsError:
            continue
        except OSError as exc:
            raise DataError(f"cannot reserve the report name: {exc.strerror}") from None
        shown = f"{rel}/{os.path.basename(name)}" if rel is not None else target
        return Reserved(target, shown)
    raise DataError("no free report name")  # pragma: no cover - the names never end


def release(reserved: Reserved) -> None:
    """Give a reserved name back, if it still holds only the placeholder."""
    with contextlib.suppress(OSError):
        with open(reserved.path, "rb") as fh:
            if fh.read(len(PLACEHOLDER) + 1) != PLACEHOLDER:
                return
        os.unlink(reserved.path)
