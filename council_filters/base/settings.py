"""Validation of the numeric environment settings (``COUNCIL_TIMEOUT`` and friends).

``COUNCIL_TIMEOUT`` follows the upstream guard exactly: unset or empty means
the default, silently; a value with any non-digit is "not a plain integer";
a digit string longer than 5 characters or outside 1-86400 (read as decimal,
so ``0600`` is 600) is "out of range".  Either warning falls back to the
default.  One deliberate deviation: a valid leading-zero value is normalised
(``0600`` -> ``600``) before use, where upstream kept the string and then
printed it as octal in its timeout summary.

``COUNCIL_PATH_CHAR_CAP`` / ``COUNCIL_PATH_MAX_FILES`` had no validation
upstream; they get the same shape (digits only, at most 6 of them, at least 1).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class IntSetting:
    """One integer environment setting and the bounds the guard applies."""

    name: str
    default: int
    max_len: int
    minimum: int
    maximum: int
    range_text: str

    def resolve(self, raw: str | None, warn: Callable[[str], None]) -> int:
        """The value to use for ``raw`` (the variable's text, None when unset)."""
        if raw is None or raw == "":
            return self.default
        if not raw.isascii() or not raw.isdigit():
            warn(f"{self.name}={raw} is not a plain integer; falling back to {self.default}")
            return self.default
        if len(raw) > self.max_len or not self.minimum <= int(raw, 10) <= self.maximum:
            warn(
                f"{self.name}={raw} out of range ({self.range_text}); "
                f"falling back to {self.default}"
            )
            return self.default
        return int(raw, 10)

    def from_env(self, env: Mapping[str, str], warn: Callable[[str], None]) -> int:
        return self.resolve(env.get(self.name), warn)


COUNCIL_TIMEOUT = IntSetting("COUNCIL_TIMEOUT", 600, 5, 1, 86400, "1-86400 seconds")
COUNCIL_PATH_CHAR_CAP = IntSetting("COUNCIL_PATH_CHAR_CAP", 8000, 6, 1, 999999, "1-999999 bytes")
COUNCIL_PATH_MAX_FILES = IntSetting("COUNCIL_PATH_MAX_FILES", 3, 6, 1, 999999, "1-999999 files")


def parse_seconds(raw: str, name: str) -> float:
    """A non-negative number of seconds (``10``, ``0.25``) for grace periods; ValueError if not."""
    head, dot, tail = raw.partition(".")
    if not head.isascii() or not head.isdigit() or len(head) > 5 or (dot and not tail.isdigit()):
        raise ValueError(f"{name} must be a number of seconds such as 10 or 0.5")
    return float(raw)
