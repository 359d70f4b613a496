"""The council report's name and file: ``docs/council/<date>-<mode>-<slug>[-N].md``.

The mode and slug come from the options or the verdict records, checked by
the one slug rule; the file is written through ``safefs`` (atomically, never
over anything that exists, suffixes ``-2`` .. ``-10``).  No argv, no stdio:
a warning goes to the ``warn`` callback the caller passes.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence

from council_filters.base import paths, safefs, vocab
from council_filters.base.errors import DataError, UsageError
from council_filters.base.jsonl import Record
from council_filters.consolidate import synthesis
from council_filters.consolidate.core import ReportInfo


def _pick(
    option: str | None, values: Sequence[object], what: str, warn: Callable[[str], None]
) -> str | None:
    if option:
        return option
    found = sorted({v for v in values if isinstance(v, str) and v})
    if len(found) > 1:
        warn(f"verdict records disagree on {what}; using the first in sorted order")
    return found[0] if found else None


def report_info(
    verdicts: Sequence[Record], mode: str | None, slug: str | None, date: str,
    slots: tuple[str, ...], warn: Callable[[str], None],
) -> ReportInfo:
    """Title and path facts: the options win, else the verdict records (which must agree)."""
    m = _pick(mode, [v.get("mode") for v in verdicts], "mode", warn)
    g = _pick(slug, [v.get("slug") for v in verdicts], "slug", warn)
    if not m:
        raise UsageError("no mode in the verdict records: pass --mode")
    if not g:
        raise UsageError("no slug in the verdict records: pass --slug")
    if not vocab.is_slug(m):
        raise DataError("mode is not a plain lower-case word")
    if not vocab.is_slug(g):
        raise DataError("slug is not a valid slug ([a-z0-9]+ joined by single dashes)")
    return ReportInfo(m, g, date, slots)


def first_free(info: ReportInfo, root: str) -> str:
    """The path ``--write`` would take now (nothing is written)."""
    for rel in paths.report_candidates(info.mode, info.slug, info.date):
        if not os.path.lexists(os.path.join(root, rel)):
            return rel
    raise DataError(paths.collision_message(info.slug))


def report_dir(root: str) -> str:
    """``root``/docs/council, each part checked on disk *before* anything is created.

    An existing part must be a directory whose real path stays inside the
    real root (a symlink elsewhere in the root is fine); a missing part is
    created only under a parent that passed that check, so a link leading
    outside never gets a directory made at its far end.
    """
    outside = f"{paths.REPORT_DIR} leads outside --root (a symlink?); not writing"
    real_root = os.path.realpath(root)
    current = root
    for part in paths.REPORT_DIR.split("/"):
        current = os.path.join(current, part)
        if os.path.lexists(current):
            real = os.path.realpath(current)
            if not real.startswith(real_root + os.sep):
                raise DataError(outside)
            if not os.path.isdir(real):
                raise DataError(f"{paths.REPORT_DIR} is not a directory; not writing")
            continue
        try:
            os.mkdir(current)
        except FileExistsError:
            pass
        except OSError as exc:
            raise DataError(f"cannot create {paths.REPORT_DIR}: {exc.strerror}") from None
        if not os.path.realpath(current).startswith(real_root + os.sep):  # raced in
            raise DataError(outside)
    return current


def write(synth: synthesis.Synthesis, info: ReportInfo, root: str) -> str:
    """Write the full report under ``root``; return its repository-relative path."""
    report_dir(root)
    rels = paths.report_candidates(info.mode, info.slug, info.date)
    by_abs = {os.path.join(root, rel): rel for rel in rels}
    try:
        written = safefs.write_first_free(
            list(by_abs), lambda p: synthesis.report(synth, by_abs[p]).encode("utf-8")
        )
    except OSError as exc:
        raise DataError(f"cannot write the report: {exc.strerror}") from None
    if written is None:
        raise DataError(paths.collision_message(info.slug))
    return by_abs[written]


def write_to(synth: synthesis.Synthesis, path: str) -> str:
    """Write the full report to ``path`` (atomically replacing a reserved name); return it."""
    try:
        safefs.replace(path, synthesis.report(synth, path).encode("utf-8"))
    except OSError as exc:
        raise DataError(f"cannot write the report: {exc.strerror}") from None
    return path
