"""Every golden case under golden/<filter>/ (see tests/golden.py)."""

from __future__ import annotations

import pytest

from golden import Case, discover, run_case

CASES = discover()


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_golden(case: Case) -> None:
    code, out, err = run_case(case)
    expected = case.path("out").read_bytes()
    assert out == expected, f"{case.id}: stdout differs"
    assert code == case.expected_code(), f"{case.id}: exit {code}, stderr: {err}"
    if case.path("err").exists():
        assert err == case.path("err").read_text()
