"""council-redact: the bulk paths for real PEM blocks, stressed.

Inside a real block the chunked path replaces whole runs of lines at once and
finds the width of the last base64 body line by walking back from the END
line.  These tests build documents dense with what can go wrong there (decoy
END lines, END lines with trailing text, nested BEGIN lines, CRLF, very long
blocks, blocks still open at the end of the input or of one of several files)
and check the chunked path against the per-line path and, when
COUNCIL_REFERENCE_AWK names it, against the reference program.

COUNCIL_FUZZ_SCALE=N runs N times as many random documents (default 1).
"""

from __future__ import annotations

import os
import random
from collections import Counter
from pathlib import Path

import pytest
from redact_fragments import BEGINS, BODIES, DECORATIONS, ENDS, PROSE, SECRETS
from redact_oracles import redact_simple
from test_redact_props import needs_reference, reference

from council_filters.redaction.machine import Redactor, redact, redact_text

SCALE = max(1, int(os.environ.get("COUNCIL_FUZZ_SCALE", "1") or "1"))

#: Lines that look like an END but do not close a block (not at the tail, or
#: not the marker), and ones that do (spaces, CR, decoration before it).
DECOY_ENDS = [
    b"-----END RSA PRIVATE KEY----- trailing",
    b"-----END RSA PRIVATE KEY-----x",
    b"see -----END PRIVATE KEY----- here",
    b"-----END RSA PUBLIC KEY-----",
    b"-----END private key-----",
    b"-----END PRIVATE KEY----",
    b"-----END PRIVATE KEY-----\x00",
    b"----END PRIVATE KEY-----",
    b"END PRIVATE KEY",
]
REAL_ENDS = ENDS[:3] + [
    b"-----END PRIVATE KEY-----\r",
    b"-----END EC PRIVATE KEY-----\t\v\f ",
    b"text before -----END RSA PRIVATE KEY-----",
    b"-----END PRIVATE KEY----- x -----END PRIVATE KEY-----",
    b"-----END  PRIVATE KEY-----",
]
WIDTHS = (0, 4, 11, 12, 13, 16, 19, 20, 21, 40, 64, 76)


def _b64(rng: random.Random, n: int) -> bytes:
    alphabet = rng.choice(
        (b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=",
         b"ABCDEFabcdef0123456789", b"abcdefghij", b"0123456789")
    )
    return bytes(rng.choice(alphabet) for _ in range(n))


def _line(rng: random.Random) -> bytes:
    """One line for inside or around a block."""
    deco = rng.choice(DECORATIONS)
    kind = rng.randrange(16)
    if kind < 6:
        return deco + _b64(rng, rng.choice(WIDTHS)) + rng.choice((b"", b"", b" ", b"\r"))
    if kind == 6:
        return deco + rng.choice(BODIES)
    if kind == 7:
        return deco + rng.choice(DECOY_ENDS)
    if kind == 8:
        return deco + rng.choice(REAL_ENDS)
    if kind == 9:
        return deco + rng.choice(BEGINS)  # nested BEGIN, or a new real block
    if kind == 10:
        return rng.choice(PROSE) + b" " + rng.choice(BEGINS)  # a mention
    if kind == 11:
        return rng.choice(PROSE) + b" " + rng.choice(SECRETS)
    return deco + rng.choice(PROSE)


def block_document(rng: random.Random, max_pieces: int = 12) -> bytes:
    """Real blocks (some very long, some never closed) among other lines."""
    out: list[bytes] = []
    for _ in range(rng.randrange(1, max_pieces)):
        r = rng.randrange(6)
        if r < 3:
            out.append(rng.choice(DECORATIONS[:12]) + rng.choice(BEGINS))
            length = rng.choice((0, 1, 2, 5, 30, 420)) if rng.random() < 0.9 else 3000
            out += [_line(rng) if rng.random() < 0.3 else _b64(rng, 64) for _ in range(length)]
            if rng.random() < 0.85:
                out.append(rng.choice(DECORATIONS) + rng.choice(REAL_ENDS))
        else:
            out += [_line(rng) for _ in range(rng.randrange(1, 12))]
    if rng.random() < 0.3:
        out = [line + b"\r" for line in out]  # a CRLF document
    data = b"\n".join(out)
    return data if rng.random() < 0.25 else data + b"\n"


def chunked(data: bytes, rng: random.Random, redactor: Redactor | None = None) -> bytes:
    """Feed ``data`` in random chunk sizes (tiny to larger than the document)."""
    r = redactor if redactor is not None else Redactor()
    out, pos = [], 0
    while pos < len(data):
        size = rng.choice((1, 2, 7, 64, 1000, 1 << 20))
        out.append(r.feed(data[pos : pos + size]))
        pos += size
    out.append(r.finish())
    return b"".join(out)


def line_by_line(data: bytes, redactor: Redactor) -> bytes:
    lines = data.split(b"\n")
    if data.endswith(b"\n"):
        lines.pop()
    return b"".join(redactor.line(line) + b"\n" for line in lines) if data else b""


@pytest.mark.parametrize("seed", range(6))
def test_bulk_path_equals_the_per_line_path(seed: int) -> None:
    rng = random.Random(1000 + seed)
    for _ in range(15 * SCALE):
        data = block_document(rng)
        expected = redact_simple(data)
        assert redact(data) == expected
        assert chunked(data, rng) == expected


@pytest.mark.parametrize("seed", range(3))
def test_bulk_path_keeps_counts_and_line_numbers(seed: int) -> None:
    rng = random.Random(2000 + seed)
    for _ in range(10 * SCALE):
        data = block_document(rng)
        slow = Redactor(count=True, record_lines=True)
        line_by_line(data, slow)
        fast = Redactor(count=True, record_lines=True)
        chunked(data, rng, fast)
        assert fast.counts == slow.counts
        assert fast.redacted == slow.redacted
        counts: Counter[str] = Counter()
        _, lines = redact_text(data, counts)
        assert lines == slow.redacted
        assert counts == slow.counts


def test_width_comes_from_the_last_base64_line_before_the_end() -> None:
    # After the END, a line exactly as wide as the block's last base64 body
    # line reopens the block; prose after that body line does not reset it.
    body = b"QUJDREVGR0hJSktMTU5PUFFS"  # 24 wide
    data = b"\n".join(
        [BEGINS[1], b"A" * 64, body, b"just words here", b"> more words", ENDS[1],
         b"AbcdefghijklmnopqrstuvWX", b"after"]
    ) + b"\n"
    out = redact(data).split(b"\n")
    assert out[6] == b"--- redacted PEM key block at line 7 ---"
    assert out == redact_simple(data).split(b"\n")
    # With no base64 line in the block, the width stays what it was before.
    data2 = b"\n".join([BEGINS[1], b"words only", ENDS[1], b"AbcdefghijklmnopqrstuvWX"]) + b"\n"
    assert redact(data2) == redact_simple(data2)
    assert redact(data2).split(b"\n")[3] == b"AbcdefghijklmnopqrstuvWX"


def test_a_block_open_across_many_chunks() -> None:
    lines = [BEGINS[0]] + [b"QUJDREVGR0hJSktMTU5PUFFS" * 2] * 50_000 + [b"> " + ENDS[0], b"x"]
    data = b"\n".join(lines) + b"\n"
    out = chunked(data, random.Random(5))
    assert out == redact_simple(data)
    assert out.count(b"--- redacted PEM key block at line") == 50_002


# --------------------------------------------------------------------------- #
# Against the reference program.
# --------------------------------------------------------------------------- #
@needs_reference
@pytest.mark.parametrize("seed", range(4))
def test_differential_real_blocks(seed: int) -> None:
    rng = random.Random(3000 + seed)
    for _ in range(10 * SCALE):
        data = block_document(rng)
        expected = reference(data)
        assert redact(data) == expected, data
        assert chunked(data, rng) == expected, data


@needs_reference
@pytest.mark.parametrize("seed", range(2))
def test_differential_real_blocks_across_files(seed: int, tmp_path: Path) -> None:
    # Cut a document into files anywhere, mid-line too: an open block runs on
    # into the next file, and each file's unterminated last line is a line.
    rng = random.Random(4000 + seed)
    for n in range(6 * SCALE):
        data = block_document(rng)
        cuts = sorted(rng.randrange(len(data) + 1) for _ in range(rng.randrange(1, 4)))
        parts = [data[a:b] for a, b in zip([0, *cuts], [*cuts, len(data)], strict=True)]
        paths = []
        for i, part in enumerate(parts):
            p = tmp_path / f"doc{n}-{i}.txt"
            p.write_bytes(part)
            paths.append(str(p))
        r = Redactor()
        ours = b"".join(chunked(part, rng, r) for part in parts)
        assert ours == reference(b"", *paths), parts


@needs_reference
def test_differential_long_blocks_at_eof() -> None:
    rng = random.Random(5000)
    for end in (b"", b"\n", b"\r\n"):
        body = b"\n".join(_b64(rng, rng.choice((12, 20, 64))) for _ in range(5000))
        data = BEGINS[0] + b"\n" + body + end
        assert redact(data) == reference(data)
        assert chunked(data, rng) == reference(data)
