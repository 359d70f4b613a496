from __future__ import annotations

import pytest

from council_filters.base import severity


@pytest.mark.parametrize(
    "raw,expected",
    [
        ("critical", "critical"), ("CRITICAL", "critical"), (" medium ", "medium"),
        ("minor", "minor"), ("P1", "critical"), ("p2", "medium"), ("P3", "minor"),
        ("required", "critical"), ("blocking", "critical"), ("high", "critical"),
        ("non-blocking", "minor"), ("nice-to-have", "minor"), ("info", "minor"),
        ("low", "minor"), ("warning", "medium"), ("suggestion", "minor"),
        ("P4", None), ("severe", None), ("", None), (None, None), (1, None),
        ("security", None), ("performance", None),
    ],
)
def test_normalize(raw, expected):
    assert severity.normalize(raw) == expected


def test_ladder_order():
    assert [severity.rank(s) for s in severity.LADDER] == [0, 1, 2]
    assert severity.rank("bogus") == 3


@pytest.mark.parametrize(
    "sev,level,expected",
    [("critical", "critical", True), ("medium", "critical", False), ("critical", "minor", True),
     ("minor", "minor", True), ("minor", "medium", False), (None, "minor", False)],
)
def test_at_or_above(sev, level, expected):
    assert severity.at_or_above(sev, level) is expected


@pytest.mark.parametrize(
    "raw,expected",
    [("P0", "critical"), ("blocker", "critical"), ("Severe", "critical"), ("major", "medium"),
     ("moderate", "medium"), ("nit", "minor"), ("trivial", "minor"), ("P1", "critical"),
     ("low", "minor"), ("P4", None), ("bogus", None), (None, None)],
)
def test_from_text(raw, expected):
    assert severity.from_text(raw) == expected


@pytest.mark.parametrize(
    "raw,expected",
    [("error", "critical"), ("ERROR (build breaks)", "critical"), ("Warning", "medium"),
     ("info", "minor"), ("**Note**", "minor"), ("errors everywhere", None)],
)
def test_a_linters_scale_is_read_as_a_severity_fields_value(raw, expected):
    assert severity.lead_severity(raw) == expected


def test_a_linters_words_are_no_severity_in_free_text():
    assert severity.from_text("error") is None
    assert severity.normalize("error") is None
