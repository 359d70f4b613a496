"""council-redact properties (hypothesis) and the differential test against the reference."""

from __future__ import annotations

import os
import random
import shutil
import subprocess

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from redact_fragments import BEGINS, SECRETS, documents, lines, random_document
from redact_oracles import may_change, redact_simple, strip_decoration_reference

from council_filters.redaction.machine import (
    Redactor,
    credential_in,
    redact,
    strip_decoration,
    strip_text,
)

#: COUNCIL_FUZZ_SCALE=N runs N times as many examples (a local stress run).
SCALE = max(1, int(os.environ.get("COUNCIL_FUZZ_SCALE", "1") or "1"))
SETTINGS = settings(max_examples=150 * SCALE, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def n_lines(data: bytes) -> int:
    return data.count(b"\n") + (0 if data.endswith(b"\n") or not data else 1)


@SETTINGS
@given(documents())
def test_line_count_preserved(data: bytes) -> None:
    out = redact(data)
    assert out.count(b"\n") == n_lines(data)
    assert out == b"" or out.endswith(b"\n")


@SETTINGS
@given(documents(), st.sampled_from(SECRETS), lines(), st.integers(min_value=0))
def test_known_credential_never_survives(data: bytes, secret: bytes, around: bytes,
                                         where: int) -> None:
    body = data.split(b"\n")
    at = where % (len(body) + 1)
    body.insert(at, b"note: " + secret + b" " + around.replace(b"\n", b" "))
    out = redact(b"\n".join(body) + b"\n")
    assert secret not in out


@SETTINGS
@given(documents(max_lines=60))
def test_idempotent_on_redacted_output(data: bytes) -> None:
    # Documents shorter than the 400-line span cap (see the exception below).
    once = redact(data)
    assert redact(once) == once


def test_idempotence_exception_at_the_span_cap() -> None:
    # The reference releases a mention at its 401st line without looking at
    # that line; a BEGIN marker there is kept, and opens a block on a second pass.
    b = BEGINS[0]
    data = b"\n".join([b"text " + b] + [b"QUJDREVGR0hJSktMTU5PUFFS"] * 399 + [b, b"after"]) + b"\n"
    once = redact(data)
    assert once.split(b"\n")[400] == b
    assert redact(once) != once


@SETTINGS
@given(documents(), st.lists(st.integers(min_value=1, max_value=64), min_size=1, max_size=8))
def test_chunk_boundaries_do_not_matter(data: bytes, sizes: list[int]) -> None:
    expected = redact_simple(data)
    r = Redactor()
    out, pos, i = [], 0, 0
    while pos < len(data):
        size = sizes[i % len(sizes)]
        out.append(r.feed(data[pos : pos + size]))
        pos += size
        i += 1
    out.append(r.finish())
    assert b"".join(out) == expected
    assert redact(data) == expected


@SETTINGS
@given(lines())
def test_scan_finds_every_line_that_can_change(line: bytes) -> None:
    from council_filters.redaction.machine import _BEGIN

    if credential_in(line) or _BEGIN.search(line):
        assert may_change(line)


@SETTINGS
@given(st.lists(st.sampled_from([b" ", b"\t", b"\r", b"\v", b">", b"|", b"-", b"+", b"*", b"1",
                                 b"2", b".", b")", b"x", b"-----BEGIN", b"-----END", b"------",
                                 b"---", b"BEGIN", b"END", b"- ", b"1. ", b"12 | ", b"QUJD"]),
                max_size=30))
def test_strip_decoration_matches_the_literal_rules(parts: list[bytes]) -> None:
    line = b"".join(parts)
    expected = strip_decoration_reference(line)
    assert strip_decoration(line) == expected
    assert strip_text(line) == expected[0]  # the fast paths


# --------------------------------------------------------------------------- #
# Differential: the reference program itself, when the environment names it.
# --------------------------------------------------------------------------- #
REFERENCE = os.environ.get("COUNCIL_REFERENCE_AWK", "")
AWK = shutil.which("mawk")
needs_reference = pytest.mark.skipif(
    not (REFERENCE and os.path.isfile(REFERENCE) and AWK),
    reason="set COUNCIL_REFERENCE_AWK=/path/to/redact.awk (and install mawk) to compare "
    "against the reference program",
)


def reference(data: bytes, *files: str) -> bytes:
    assert AWK is not None
    return subprocess.run(
        [AWK, "-f", REFERENCE, *files], input=data, capture_output=True, check=False,
        env={**os.environ, "LC_ALL": "C"},
    ).stdout


@needs_reference
@pytest.mark.parametrize("seed", range(4))
def test_differential_random_documents(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(40 * SCALE):
        data = random_document(rng)
        assert redact(data) == reference(data), data


@needs_reference
def test_differential_pem_table() -> None:
    from test_redact import PEM_CASES, doc

    for name, (body, _sig) in PEM_CASES.items():
        data = doc(*body)
        assert redact(data) == reference(data), name


@needs_reference
def test_differential_several_files(tmp_path: pytest.TempPathFactory) -> None:
    rng = random.Random(99)
    docs = [random_document(rng, 30) for _ in range(4)]
    paths = []
    for i, d in enumerate(docs):
        p = tmp_path / f"in{i}.txt"  # type: ignore[operator]
        p.write_bytes(d)
        paths.append(str(p))
    r = Redactor()
    ours = b"".join(r.feed(d) + r.finish() for d in docs)
    assert ours == reference(b"", *paths)
