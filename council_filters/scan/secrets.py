"""Credentials on added lines, found with the redaction rules (never returned, only named).

The detector is the one ``council-redact`` uses: its credential patterns and
the PEM private-key BEGIN marker, and the extended rule set when the package
provides one (:func:`rule_set_name` says which is in use).  A hit is reported
by rule name and line; the matched text is never kept.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from council_filters import redaction

_PEM_BEGIN = re.compile(rb"-----BEGIN [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----")
_PEM = "pem-private-key"

LineRule = Callable[[bytes, "str | None"], "str | None"]


@lru_cache(maxsize=1)
def _extended() -> tuple[str, LineRule] | None:
    """The extended rule set's line detector, when the package has one."""
    try:
        module: Any = importlib.import_module("council_filters.secrets")
    except ImportError:
        return None
    loader = getattr(module, "extended_rules", None) or getattr(module, "load_rules", None)
    if loader is None:
        return None
    try:
        rules = loader() if getattr(module, "extended_rules", None) else loader("extended")
    except Exception:  # noqa: BLE001 - an unusable rule set falls back to the default one
        return None
    line_rule = getattr(rules, "line_rule", None)
    if line_rule is None:
        return None
    return "extended", lambda line, path: line_rule(line, path=path)


def rule_set_name() -> str:
    return "extended" if _extended() is not None else "default"


def find(line: bytes, path: str | None = None) -> str | None:
    """The name of the credential rule that fires on ``line``, or None."""
    name = redaction.credential_in(line)
    if name is not None:
        return name
    if _PEM_BEGIN.search(line):
        return _PEM
    ext = _extended()
    if ext is not None:
        return ext[1](line, path)
    return None
