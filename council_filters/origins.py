"""Reviewer origins, their three-letter codes, and finding IDs ``<CODE>-NNN``.

The six code-review reviewers have fixed codes (security ``SEC``,
requirements ``REQ``, tests ``TST``, architecture ``ARQ``, regression
``REG``, performance ``PRF``).  Any other origin (a council slot such as
``claude``, or a user's own script) gets a derived code: the first three
ASCII letters or digits of its lower-cased name, upper-cased, padded with
``X`` to three characters (``claude`` -> ``CLA``, ``go`` -> ``GOX``); an
origin with no letters or digits at all is ``UNK``.  Derived codes may
collide with each other or with a fixed code; that is harmless, since
numbering continues over every ID that carries the code, so IDs stay
unique.

IDs are ``<CODE>-<NNN>``: the code, a dash, and a decimal number of at
least three digits (``SEC-001``, ``SEC-1000``).  Numbering is per code,
starts at 1 and continues after the highest number ever used.
"""

from __future__ import annotations

from collections.abc import Iterable

import regex

ORIGIN_CODES: dict[str, str] = {
    "security": "SEC",
    "requirements": "REQ",
    "tests": "TST",
    "architecture": "ARQ",
    "regression": "REG",
    "performance": "PRF",
}

# Other spellings of the six reviewers seen in the seeds.
ORIGIN_ALIASES: dict[str, str] = {
    "hallucination": "regression",
    "regression/hallucination": "regression",
    "regression-hallucination": "regression",
    "test": "tests",
    "requirement": "requirements",
}

FALLBACK_CODE = "UNK"

# A finding ID as this package writes and accepts it for numbering.
ID_RE = regex.compile(r"^([A-Z][A-Z0-9]{1,9})-([0-9]{3,9})$")

# Anything we accept as an ID from upstream: short, printable, no spaces,
# so it is safe to quote in an error message.
ID_TOKEN_RE = regex.compile(r"^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$")


def canonical_origin(origin: str) -> str:
    """The reviewer name for ``origin`` (aliases folded, lower-cased, trimmed)."""
    name = origin.strip().lower()
    return ORIGIN_ALIASES.get(name, name)


def origin_code(origin: str) -> str:
    """The ID prefix for an origin: a fixed code or one derived by the rule above."""
    name = canonical_origin(origin)
    fixed = ORIGIN_CODES.get(name)
    if fixed is not None:
        return fixed
    chars = [c for c in name if c.isascii() and c.isalnum()]
    if not chars:
        return FALLBACK_CODE
    code = "".join(chars[:3]).upper()
    if not code[0].isalpha():  # IDs start with a letter
        code = "X" + code[:2]
    return code.ljust(3, "X")


def format_id(code: str, number: int) -> str:
    """``SEC``, 7 -> ``SEC-007``."""
    return f"{code}-{number:03d}"


def parse_id(finding_id: str) -> tuple[str, int] | None:
    """``SEC-007`` -> (``SEC``, 7); None for an ID not in the ``CODE-NNN`` shape."""
    m = ID_RE.match(finding_id)
    if m is None:
        return None
    return m.group(1), int(m.group(2))


def is_id_token(value: object) -> bool:
    """True for a string usable as a finding ID (and safe to quote in messages)."""
    return isinstance(value, str) and ID_TOKEN_RE.match(value) is not None


def next_number(used_ids: Iterable[str], code: str) -> int:
    """The number the next ID with ``code`` gets: one past the highest ever used."""
    highest = 0
    for finding_id in used_ids:
        parsed = parse_id(finding_id)
        if parsed is not None and parsed[0] == code:
            highest = max(highest, parsed[1])
    return highest + 1
