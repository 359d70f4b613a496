"""Reviewer origins, their three-letter codes, and finding IDs ``<CODE>-NNN``.

One module for every filter that names findings (council-consolidate assigns
IDs, council-state continues them for fix-induced findings), so the two can
never derive different codes for one origin.

The six code-review reviewers have fixed codes (security ``SEC``,
requirements ``REQ``, tests ``TST``, architecture ``ARQ``, regression
``REG``, performance ``PRF``); the codes themselves and a few spellings from
the seeds are accepted as origins too.  Any other origin gets a derived code:
its ASCII letters upper-cased, the first three (``claude`` -> ``CLA``),
padded with ``X`` (``ai`` -> ``AIX``).  When that code is taken (a fixed code,
or one another origin already holds), the next candidate is tried: first two
letters + each later letter, then first letter + each later pair, then first
two letters + a digit 2-9, then the first free three-letter code counting
from a hash of the origin.  An origin that already has IDs keeps their code.

IDs are ``<CODE>-<NNN>``: the code, a dash, and a decimal number of at
least three digits (``SEC-001``, ``SEC-1000``).  Numbering is per code,
starts at 1 and continues after the highest number ever used.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Iterator, Mapping

ORIGIN_CODES: dict[str, str] = {
    "security": "SEC",
    "requirements": "REQ",
    "tests": "TST",
    "architecture": "ARQ",
    "regression": "REG",
    "performance": "PRF",
}
CODE_ORIGINS: dict[str, str] = {code: name for name, code in ORIGIN_CODES.items()}

# The codes as origins, and other spellings of the six reviewers in the seeds.
ORIGIN_ALIASES: dict[str, str] = {
    **{code.lower(): name for code, name in CODE_ORIGINS.items()},
    "requirement": "requirements",
    "test": "tests",
    "testing": "tests",
    "arch": "architecture",
    "hallucination": "regression",
    "regression/hallucination": "regression",
    "regression-hallucination": "regression",
    "perf": "performance",
}

# Report and ID order: the six in the seed's order, then the rest alphabetically.
RESERVED_ORDER: dict[str, int] = {code: i for i, code in enumerate(ORIGIN_CODES.values())}

# A finding ID as this package writes and accepts it for numbering.
ID_RE = re.compile(r"\A([A-Z][A-Z0-9]{1,9})-([0-9]{3,9})\Z")
# The same shape inside free text (IDs mentioned in a state file's other fields).
ID_SCAN_RE = re.compile(r"\b([A-Z][A-Z0-9]{1,9})-([0-9]{3,9})\b")

# Anything we accept as an ID from upstream: short, printable, no spaces,
# so it is safe to quote in an error message.
ID_TOKEN_RE = re.compile(r"\A[A-Za-z0-9][A-Za-z0-9._:-]{0,63}\Z")


def canonical_origin(origin: str) -> str:
    """The reviewer name for ``origin``: space trimmed and folded, lower-cased, aliases folded."""
    name = " ".join(origin.split()).lower()
    return ORIGIN_ALIASES.get(name, name)


def code_candidates(origin: str) -> Iterator[str]:
    """The codes ``origin`` may take, most preferred first (see the module docstring)."""
    letters = [c for c in origin.upper() if "A" <= c <= "Z"]
    while len(letters) < 3:
        letters.append("X")
    yield "".join(letters[:3])
    for k in range(3, len(letters)):
        yield letters[0] + letters[1] + letters[k]
    for j in range(2, len(letters)):
        for k in range(j + 1, len(letters)):
            yield letters[0] + letters[j] + letters[k]
    for digit in "23456789":
        yield letters[0] + letters[1] + digit
    start = int(hashlib.sha256(origin.encode()).hexdigest()[:8], 16) % (26**3)
    for n in range(26**3):
        v = (start + n) % (26**3)
        yield chr(65 + v // 676) + chr(65 + (v // 26) % 26) + chr(65 + v % 26)


def assign_codes(origins: Iterable[str], known: Mapping[str, str] | None = None) -> dict[str, str]:
    """Map every (canonical) origin to its ID code.

    ``known`` holds origin -> code pairs already in use (from a state file);
    they are kept.  The others are derived in sorted order, skipping codes
    already taken, so the result does not depend on the order of ``origins``.
    """
    codes: dict[str, str] = dict(ORIGIN_CODES)
    taken: set[str] = set(ORIGIN_CODES.values())
    for origin, code in sorted((known or {}).items()):
        if origin not in codes and code not in taken:
            codes[origin] = code
            taken.add(code)
    for origin in sorted(set(origins)):
        if origin in codes:
            continue
        for cand in code_candidates(origin):
            if cand not in taken:
                codes[origin] = cand
                taken.add(cand)
                break
    return codes


def origin_code(origin: str, known: Mapping[str, str] | None = None) -> str:
    """The ID code of one origin, given the origin -> code pairs already in use."""
    name = canonical_origin(origin)
    return assign_codes([name], known)[name]


def known_codes(findings: Iterable[Mapping[str, object]]) -> dict[str, str]:
    """origin -> code pairs carried by findings that already have IDs."""
    known: dict[str, str] = {}
    for finding in findings:
        origin, fid = finding.get("origin"), finding.get("id")
        if isinstance(origin, str) and isinstance(fid, str):
            parsed = parse_id(fid)
            if parsed is not None:
                known.setdefault(canonical_origin(origin), parsed[0])
    return known


def code_sort_key(code: str) -> tuple[int, str]:
    return (RESERVED_ORDER.get(code, len(RESERVED_ORDER)), code)


def origin_sort_key(origin: str) -> tuple[int, str]:
    return (RESERVED_ORDER.get(ORIGIN_CODES.get(origin, ""), len(RESERVED_ORDER)), origin)


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
