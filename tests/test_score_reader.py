"""The reader's scorer pairs labels with findings fairly (bench/score_reader.py)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

_PATH = Path(__file__).resolve().parent.parent / "bench" / "score_reader.py"
_SPEC = importlib.util.spec_from_file_location("score_reader", _PATH)
assert _SPEC is not None and _SPEC.loader is not None
score_reader = importlib.util.module_from_spec(_SPEC)
sys.modules.setdefault("score_reader", score_reader)
_SPEC.loader.exec_module(score_reader)


def _rec(sev: str | None, file: str | None = None) -> dict[str, object]:
    rec: dict[str, object] = {"kind": "finding", "summary": "x"}
    if sev:
        rec["severity"] = sev
    if file:
        rec["file"] = file
    return rec


LABEL = {"id": "t", "verdict": None, "findings": [
    {"file": None, "line": None, "severity": "critical"},
    {"file": None, "line": None, "severity": "medium"},
    {"file": None, "line": None, "severity": "minor"},
]}
# the first fileless label was read with a file by mistake: in order, every later pair
# shifts by one and each severity looks wrong
READ = {"verdict": None, "findings": [_rec("critical", "src/a.py"), _rec("medium"),
                                      _rec("minor")]}


def test_fileless_labels_are_paired_by_severity_agreement() -> None:
    t, _ = score_reader.score_one(READ, LABEL)
    assert (t.fileless, t.fileless_right, t.invented) == (3, 2, 1)
    assert (t.severities, t.severities_right) == (2, 2)


def test_in_order_pairing_is_kept_for_comparison() -> None:
    t, why = score_reader.score_one(READ, LABEL, by_severity=False)
    assert (t.fileless_right, t.invented) == (2, 1)
    assert (t.severities, t.severities_right) == (2, 0)
    assert any("severity medium != critical" in w for w in why)


def test_match_counts_do_not_depend_on_the_pairing() -> None:
    label = {"id": "t", "verdict": None, "findings": [
        {"file": "src/a.py", "line": 10, "severity": "minor"},
        {"file": None, "line": None, "severity": None},
        {"file": None, "line": None, "severity": "minor"},
    ]}
    read = {"verdict": None, "findings": [_rec("minor"), _rec("critical"),
                                          {**_rec("minor", "src/a.py"), "line": 11}]}
    a, _ = score_reader.score_one(read, label)
    b, _ = score_reader.score_one(read, label, by_severity=False)
    assert (a.located_right, a.fileless_right, a.invented) == (1, 2, 0)
    assert (b.located_right, b.fileless_right, b.invented) == (1, 2, 0)
    assert (a.severities, a.severities_right) == (2, 2)
    assert (b.severities, b.severities_right) == (2, 1)
