"""Who reviews each origin and who corrects: the commands file's code-review lines.

``code-review.ORIGIN = NAME`` maps an origin to one of the configured reviewers; the
default is ``--reviewer NAME`` for every origin, else the first configured reviewer.  One
``corrector = CMD`` line names the command that corrects accepted findings.  Every command
runs with ``COUNCIL_REVIEWER`` and ``COUNCIL_ORIGIN`` set.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from council_filters.base.errors import UsageError
from council_filters.codereview.references import ORIGINS
from council_filters.consolidate.origins import canonical_origin

PREFIX = "code-review."
CORRECTOR = "corrector"


def origin_map(table: Mapping[str, str], reviewers: Sequence[str],
               default: str | None = None) -> dict[str, str]:
    """origin -> reviewer name, for the six origins."""
    if default is not None and default not in reviewers:
        raise UsageError(f"--reviewer: {default} is not in the commands file")
    if not reviewers:
        raise UsageError("the commands file names no reviewer")
    fallback = default or reviewers[0]
    out = {origin: fallback for origin in ORIGINS}
    for key, value in table.items():
        if not key.startswith(PREFIX):
            continue
        origin = canonical_origin(key[len(PREFIX):].strip())
        if origin not in ORIGINS:
            raise UsageError(f"{key}: not one of the six origins ({', '.join(ORIGINS)})")
        name = value.strip()
        if name not in reviewers:
            raise UsageError(f"{key}: {name or '(empty)'} is not a configured reviewer")
        out[origin] = name
    return out


def corrector(table: Mapping[str, str]) -> str | None:
    value = table.get(CORRECTOR, "").strip()
    return value or None
