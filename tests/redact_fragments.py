"""Tricky pieces of text for the council-redact property and differential tests."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from hypothesis import strategies as st

BEGINS = [
    b"-----BEGIN RSA PRIVATE KEY-----",
    b"-----BEGIN PRIVATE KEY-----",
    b"-----BEGIN OPENSSH PRIVATE KEY-----",
    b"-----BEGIN EC PRIVATE KEY----- ",
    b"-----BEGIN ENCRYPTED PRIVATE KEY-----\r",
]
ENDS = [
    b"-----END RSA PRIVATE KEY-----",
    b"-----END PRIVATE KEY-----",
    b"-----END PRIVATE KEY----- \t",
    b"-----END PRIVATE KEY----- trailing",
]
DECORATIONS = [
    b"", b"", b"> ", b"> > ", b"| ", b"- ", b"* ", b"+ ", b"1. ", b"12) ", b"12 | ", b"+",
    b"-", b"++", b"------", b"--", b"  ", b"\t", b"\v", b">|", b"1. 2. ", b"+-", b"-+",
]
BODIES = [
    b"MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun",
    b"QUJDREVGR0hJSktMTU5PUFFS",
    b"Zm9vYmFyYmF6cXV4",
    b"Zm9vYmFyYmF6",
    b"AbcdefGhijklmnOp",
    b"Abcdefghijklmnop",
    b"abcdefABCDEF0123456789ab",
    b"0123456789abcdef0123456789abcdef01234567",
    b"abc+/=",
    b"Zm9vYmFy==",
    b"Proc-Type: 4,ENCRYPTED",
    b"DEK-Info: AES-128-CBC,0011",
]
SECRETS = [
    b"sk-proj-" + b"a" * 20,
    b"sk-ant-" + b"B" * 20,
    b"sk-" + b"c" * 20,
    b"AIza" + b"d" * 35,
    b"ghp_" + b"e" * 36,
    b"gho_" + b"E" * 36,
    b"github_pat_" + b"f" * 40,
    b"AKIA" + b"G" * 16,
    b"Bearer " + b"h" * 20,
    b"Authorization: " + b"i j " * 5,
    b"ses_" + b"J" * 16,
]
NEAR_MISSES = [s[:-1] for s in SECRETS] + [b"sk-sk-", b"AKIA", b"Bearer ", b"ghx_" + b"k" * 40]
PROSE = [
    b"the change looks fine", b"see line 12", b"", b"", b"Verdict: REVISE", b"\x00\xff\xfe",
    b"caf\xc3\xa9", b"\xe2\x80\x83indented", b"x\r", b"- [P1] src/a.py:3 risk",
    b"--- redacted credential at line 4 ---", b"1. 1. 1. 1. 1.", b"-----", b"BEGIN", b"a|b",
]


def _piece(draw_choice: Callable[[list[Any]], Any]) -> bytes:
    kind = draw_choice(["begin", "end", "body", "secret", "miss", "prose", "pair", "mention"])
    deco = draw_choice(DECORATIONS)
    if kind == "begin":
        return deco + draw_choice(BEGINS)
    if kind == "end":
        return deco + draw_choice(ENDS)
    if kind == "body":
        return deco + draw_choice(BODIES)
    if kind == "secret":
        return draw_choice(PROSE) + b" " + draw_choice(SECRETS) + b" " + draw_choice(PROSE)
    if kind == "miss":
        return draw_choice(PROSE) + draw_choice(NEAR_MISSES) + draw_choice(PROSE)
    if kind == "pair":
        return deco + draw_choice(BEGINS) + b" " + draw_choice(ENDS)
    if kind == "mention":
        return draw_choice(PROSE) + b" " + draw_choice(BEGINS)
    return deco + draw_choice(PROSE)


@st.composite
def lines(draw: st.DrawFn) -> bytes:
    return _piece(lambda xs: draw(st.sampled_from(xs)))


@st.composite
def documents(draw: st.DrawFn, max_lines: int = 60) -> bytes:
    body = draw(st.lists(lines(), max_size=max_lines))
    if not body:
        return b""
    data = b"\n".join(body)
    return data if draw(st.booleans()) else data + b"\n"


def random_document(rng: random.Random, max_lines: int = 80) -> bytes:
    """The same mix, from a seeded generator (for the differential test)."""
    n = rng.randrange(max_lines)
    data = b"\n".join(_piece(rng.choice) for _ in range(n))
    return data if rng.random() < 0.2 else data + b"\n"
