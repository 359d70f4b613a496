"""Who reviews each origin and who corrects: the commands file's code-review lines.

``code-review.ORIGIN = NAME`` maps an origin to one of the configured reviewers; the
default is ``--reviewer NAME`` for every origin, else the first configured reviewer.  One
``corrector = CMD`` line names the command that corrects accepted findings.  Every command
runs with ``COUNCIL_REVIEWER`` and ``COUNCIL_ORIGIN`` set.  :func:`reviewers` puts it
together for one run of the flow.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from council_filters.base.errors import UsageError
from council_filters.codereview import ask, references
from council_filters.codereview.references import ORIGINS
from council_filters.codereview.review import Reviewers
from council_filters.consolidate.origins import canonical_origin
from council_filters.council import config

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


def reviewers(root: str, table: Mapping[str, str], reviewer: str | None,
              refs_dir: str | None, env: Mapping[str, str],
              say: Callable[[str], None]) -> tuple[Reviewers, str | None]:
    """Who reviews each origin (their commands, ``COUNCIL_CMD_<NAME>`` overriding one), the
    caller that runs them, the references they get; and the corrector command."""
    names = config.reviewer_names(table)
    origins = origin_map(table, names, reviewer)
    commands = {n: table[n] for n in names}
    child_env = {k: v for k, v in env.items() if not k.startswith("COUNCIL_CMD_")}
    for name in names:  # COUNCIL_CMD_<NAME> overrides one reviewer's command, as elsewhere
        override = env.get(f"COUNCIL_CMD_{name.upper().replace('-', '_')}")
        if override:
            commands[name] = override
    caller = ask.Caller(ask.limits(env, root, say), child_env)
    refs = references.load_all(references.search_path(refs_dir, env))
    return Reviewers(origins, commands, caller, refs), corrector(table)
