"""council-redact against the upstream project's own redaction tests.

The cases live in ``upstream_redact_cases.py`` (inputs, what the upstream test
asserts, and the reference program's line signature).  Each is run through the
command in-process and checked three ways: the exact expected bytes, the
upstream assertion (secret gone / report line kept), and -- when
COUNCIL_REFERENCE_AWK names the reference program and mawk is installed -- that
the reference still gives the same bytes.
"""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest
from upstream_redact_cases import CASES, Case

from conftest import run_filter

PLACEHOLDER = {
    "P": b"--- redacted PEM key block at line %d ---",
    "C": b"--- redacted credential at line %d ---",
}


def expected(case: Case) -> bytes:
    lines = case.data.split(b"\n")[:-1]
    assert len(lines) == len(case.sig), "signature length must match the document"
    out = [
        line if mark == "." else PLACEHOLDER[mark] % n
        for n, (line, mark) in enumerate(zip(lines, case.sig, strict=True), start=1)
    ]
    return b"\n".join(out) + b"\n"


def redact(data: bytes) -> bytes:
    code, out, err = run_filter("redact", [], data)
    assert code == 0
    assert err == ""
    return out


IDS = [f"{c.source}-{c.name}" for c in CASES]


def test_case_names_are_unique() -> None:
    assert len(set(IDS)) == len(IDS)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_exact_output(case: Case) -> None:
    assert redact(case.data) == expected(case)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_upstream_assertion(case: Case) -> None:
    out = redact(case.data)
    for secret in case.gone:
        # Count, never print, a surviving secret.
        assert out.count(secret.encode()) == 0, f"{case.name}: a secret survived"
    for keep in case.kept:
        assert keep.encode() in out, f"{case.name}: {keep!r} was swallowed"


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_check_mode_agrees(case: Case) -> None:
    """--check exits 3 exactly when the upstream case expects a redaction."""
    code, out, _err = run_filter("redact", ["--check"], case.data)
    assert out == b""
    assert code == (3 if set(case.sig) - {"."} else 0)


REFERENCE = os.environ.get("COUNCIL_REFERENCE_AWK", "")


@pytest.mark.skipif(
    not REFERENCE or shutil.which("mawk") is None,
    reason="set COUNCIL_REFERENCE_AWK=/path/to/redact.awk (and install mawk) to re-derive",
)
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_reference_program_agrees(case: Case) -> None:
    ref = subprocess.run(
        ["mawk", "-f", REFERENCE], input=case.data, capture_output=True, check=True
    ).stdout
    assert ref == expected(case)
