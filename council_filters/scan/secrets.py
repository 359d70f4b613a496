"""Credentials on added lines, found with the redaction rules (never returned, only named).

The detector is the one ``council-redact`` uses: its credential patterns and
the PEM private-key BEGIN marker, plus a rule set of the secrets package
(``extended``, a gitleaks TOML file, or a comma list, as ``council-redact
--rules`` takes them) when the package is installed.  Without a choice the
extended set is used when it is available, else the default patterns alone.
A hit is reported by rule name and line; the matched text is never kept.
"""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from council_filters.base.errors import UsageError
from council_filters.redaction import machine as redaction

_PEM_BEGIN = re.compile(rb"-----BEGIN [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----")
PEM = "pem-private-key"
DEFAULT = "default"
EXTENDED = "extended"


def _package() -> ModuleType | None:
    try:
        return importlib.import_module("council_filters.redaction.secrets")
    except ImportError:
        return None


@dataclass(frozen=True)
class Detector:
    """Which rules run: ``name`` for the summary, ``rules`` the package's rule set or None."""

    name: str
    rules: Any = None
    placeholders_only: Any = None  # the extended set's "the eleven fired on a placeholder"

    def find(self, line: bytes, path: str | None = None) -> str | None:
        """The name of the credential rule that fires on ``line``, or None."""
        name = redaction.credential_in(line)
        if name is not None and not (self.placeholders_only and self.placeholders_only(line)):
            return name
        if _PEM_BEGIN.search(line):
            return PEM
        if self.rules is not None:
            rule: str | None = self.rules.line_rule(line, path=path)
            return rule
        return None


def detector(spec: str | None = None) -> Detector:
    """The detector ``--rules SPEC`` names (None: extended when installed, else default)."""
    package = _package()
    if spec is None:
        spec = EXTENDED if package is not None else DEFAULT
    if spec == DEFAULT:
        return Detector(DEFAULT)
    if package is None:
        raise UsageError(f"--rules {spec}: the extended rules are not installed (use default)")
    rules = package.load_rules(spec)
    if rules is None:
        return Detector(DEFAULT)
    engine = importlib.import_module("council_filters.redaction.secrets.engine")
    placeholders = getattr(engine, "eleven_placeholders_only", None) if getattr(
        rules, "extended", False) else None
    return Detector(str(getattr(rules, "name", spec)), rules, placeholders)
