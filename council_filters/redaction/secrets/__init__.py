"""Credential rules beyond the eleven: the extended set, gitleaks files, PEM in every shape.

The API other filters use::

    from council_filters.redaction.secrets import load_rules, redact_stream, scan

    rules = load_rules("extended")              # or "rules.toml", "extended,rules.toml"
    stats = redact_stream(src, dst, rules=rules)  # redaction.redact_stream: one input
    for finding in scan(data, rules):           # (line, rule_id), never the secret
        ...
    for nr, spans in match_spans(data, rules):  # per redacted line: (start, end, rule_id)
        ...

``rules=None`` everywhere means the default: the eleven patterns, byte for
byte as the reference program.
"""

from __future__ import annotations

import os

from council_filters.base.errors import UsageError
from council_filters.base.memo import lru_cache
from council_filters.redaction.machine import RedactStats, redact_stream
from council_filters.redaction.secrets import builtin
from council_filters.redaction.secrets.engine import (
    Finding,
    RuleCheck,
    RuleSet,
    make_redactor,
    match_spans,
    redact_value,
    scan,
    set_input,
)
from council_filters.redaction.secrets.rules import Allowlist, Rule

__all__ = [
    "EXTENDED",
    "Allowlist",
    "Finding",
    "RedactStats",
    "Rule",
    "RuleCheck",
    "RuleSet",
    "load_rules",
    "make_redactor",
    "match_spans",
    "redact_stream",
    "redact_value",
    "rule_ids",
    "scan",
    "set_input",
]

#: The names --rules accepts besides files.
EXTENDED = "extended"
DEFAULT = "default"


def extended() -> RuleSet:
    """The built-in extended set: the eleven (placeholders exempt), PEM, the rules."""
    return RuleSet(EXTENDED, builtin.RULES, extended=True, sources=(EXTENDED,))


@lru_cache(maxsize=8)
def _cached(spec: str, stamp: tuple[tuple[str, float, int], ...]) -> RuleSet | None:
    rules: list[Rule] = []
    allows: list[Allowlist] = []
    ext = False
    sources: list[str] = []
    for part in _parts(spec):
        if part == EXTENDED:
            ext = True
            rules.extend(builtin.RULES)
        elif part == DEFAULT:
            pass
        else:
            from council_filters.redaction.secrets import (
                gitleaks,  # the regex module: only for files
            )

            got, got_allows = gitleaks.load_file(part)
            rules.extend(got)
            allows.extend(got_allows)
        sources.append(part)
    if not ext and not rules:
        return None
    name = ",".join(sources)
    return RuleSet(name, tuple(rules), tuple(allows), extended=ext, sources=tuple(sources))


def _parts(spec: str) -> list[str]:
    if os.path.exists(spec):
        return [spec]  # a file whose name holds a comma
    parts = [p.strip() for p in spec.split(",")]
    if not spec.strip() or any(not p for p in parts):
        raise UsageError(
            "--rules: give extended, default, a gitleaks TOML file, or a comma list of them"
        )
    return parts


def load_rules(spec: str) -> RuleSet | None:
    """The rule set ``--rules SPEC`` names; None for the default (``default``).

    ``spec`` is ``extended``, ``default``, a gitleaks TOML file, or a comma
    list of them (``extended,rules.toml``): the rules of each part, in order.
    Raises :class:`~council_filters.base.errors.UsageError` naming the file and line
    for a file that cannot be read or holds unsupported constructs.
    """
    stamp = []
    for part in _parts(spec):
        if part not in (EXTENDED, DEFAULT):
            try:
                st = os.stat(part)
                stamp.append((part, st.st_mtime, st.st_size))
            except OSError:
                stamp.append((part, -1.0, -1))
    return _cached(spec, tuple(stamp))


def rule_ids(rules: RuleSet | None) -> tuple[str, ...]:
    """Every id --check may name for a rule set, in the order it reports them."""
    from council_filters.redaction.patterns import PATTERN_NAMES

    return PATTERN_NAMES + (rules.ids if rules is not None else ())
