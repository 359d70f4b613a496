"""One severity ladder for every filter, with the documented aliases.

The canonical set is pr-workflow's: ``critical`` > ``medium`` > ``minor``.
Every other spelling found in the seeds maps onto it; anything else is
unknown (``normalize`` returns ``None``) and the caller decides what to do
(parse-verdict warns and keeps the finding without a severity).
Security and performance are categories, not severities.
"""

from __future__ import annotations

LADDER: tuple[str, ...] = ("critical", "medium", "minor")

RANK: dict[str, int] = {name: i for i, name in enumerate(LADDER)}  # 0 is most severe

ALIASES: dict[str, str] = {
    # canonical
    "critical": "critical",
    "medium": "medium",
    "minor": "minor",
    # yellow-council finding priorities
    "p1": "critical",
    "p2": "medium",
    "p3": "minor",
    # pr-workflow aliases
    "required": "critical",
    "blocking": "critical",
    "high": "critical",
    "non-blocking": "minor",
    "nice-to-have": "minor",
    "info": "minor",
    "low": "minor",
    # code-review groups (Critical / Warning / Suggestion)
    "warning": "medium",
    "suggestion": "minor",
}


# Spellings read only from free text (council-parse-verdict's tolerant reading of
# what models write): critical / major / minor scales, blocker, nit and friends.
TEXT_ALIASES: dict[str, str] = {
    **ALIASES,
    "p0": "critical",
    "crit": "critical",
    "blocker": "critical",
    "severe": "critical",
    "major": "medium",
    "moderate": "medium",
    "important": "medium",
    "warn": "medium",
    "nit": "minor",
    "nitpick": "minor",
    "trivial": "minor",
    "style": "minor",
    "optional": "minor",
    "informational": "minor",
}


def from_text(value: object) -> str | None:
    """Like :func:`normalize`, plus the spellings only free-text answers use (``P0``)."""
    if not isinstance(value, str):
        return None
    return TEXT_ALIASES.get(value.strip().lower())


def normalize(value: object) -> str | None:
    """The canonical severity for ``value`` (case- and space-insensitive), or None."""
    if not isinstance(value, str):
        return None
    return ALIASES.get(value.strip().lower())


def gate_level(value: str | None, option: str = "--fail-level") -> str | None:
    """A gate option's canonical severity (None when not given), read through the one
    alias table (case-insensitive: ``high``, ``CRITICAL``, ``p1`` ...); anything else
    is a usage error naming the accepted spellings (never the value given)."""
    if value is None:
        return None
    level = normalize(value)
    if level is None:
        from council_filters.base.errors import UsageError

        others = ", ".join(k for k in ALIASES if k not in LADDER)
        raise UsageError(
            f"{option} must be {', '.join(LADDER)} or an alias ({others}); case does not matter"
        )
    return level


def rank(severity: str) -> int:
    """Sort key: 0 for critical, larger for less severe; unknown sorts last."""
    return RANK.get(severity, len(LADDER))


def at_or_above(severity: str | None, level: str) -> bool:
    """True when ``severity`` is at least as severe as canonical ``level``."""
    if severity is None:
        return False
    return rank(severity) <= rank(level)
