"""One finding cited at several places is one finding with related places, end to end.

The reader gives such an item once, at the first place it cites, with the other places
in ``related``; council-consolidate keeps them through merging, groups the finding with
another reviewer's finding at one of them, and every output names them (the council
report, the code-review report, findings/json, SARIF ``relatedLocations``, rdjsonl
``related_locations``, Code Quality).  The texts are written for these tests; the SARIF
and rdjsonl validators see related places in tests/test_consolidate_formats.py.
"""

from __future__ import annotations

import json

import orjson
import pytest
from jsonschema import Draft202012Validator
from reader_kit import located

from council_filters.base import schemas
from council_filters.verdict import reading

from conftest import run_filter


def read(text: str, root: str | None = None) -> list[dict]:
    return reading.read(text.encode(), "tester", root).findings


# --------------------------------------------------------------------------- #
# 1. Each form: one finding at its first place, the others related
# --------------------------------------------------------------------------- #
FORMS = {
    "also-in-list": ("""\
## Issues

- **`store/flush.py:31` — the flush result is thrown away.** Also in:
  - `store/sync.py:57` — the same call, same discard
  - `store/batch.py:12`
""", ("store/flush.py", 31), [("store/sync.py", 57), ("store/batch.py", 12)]),
    "other-occurrences-of-files": ("""\
## Findings

- **The retired `--fast` switch is still described.** Other occurrences:
  - `manual/setup.md`
  - `manual/tuning.md`
""", ("manual/setup.md", None), [("manual/tuning.md", None)]),
    "location-field-listing-places": ("""\
## Findings

### Medium — the timeout is read in two units

**Location:** `net/dial.go:18`, `net/dial.go:64` and `net/pool.go:9`

One call treats it as seconds, the other as milliseconds.
""", ("net/dial.go", 18), [("net/dial.go", 64), ("net/pool.go", 9)]),
    "places-before-the-dash": ("""\
## Findings

- `pay/refund_test.go:70`, `pay/refund.go:70` — the rounding helper is copied, not shared.
""", ("pay/refund_test.go", 70), [("pay/refund.go", 70)]),
    "places-closing-the-head": ("""\
## Issues

- [High] The shell step quotes the path twice, so a space in it breaks the build \
(`ci/pack.sh:14`, `ci/ship.sh:22`).
""", ("ci/pack.sh", 14), [("ci/ship.sh", 22)]),
    "sentence": ("""\
## Issues

- `ui/table.tsx:88` — the key is the row index, so edits jump rows. The same problem
  appears in `ui/list.tsx:40` and `ui/grid.tsx:115`.
""", ("ui/table.tsx", 88), [("ui/list.tsx", 40), ("ui/grid.tsx", 115)]),
    "chinese-list-with-asides": ("""\
## 问题

### 1. 缓存没有过期时间
- **位置**：`cache/mem.ts:21`（写入）、`cache/disk.ts:8-14`（读取）、`:30`（清理）
- **严重程度**：中
""", ("cache/mem.ts", 21), [("cache/disk.ts", 8), ("cache/disk.ts", 30)]),
    "a-files-list-of-lines": ("""\
## Style

### Unbraced conditionals (3 places)

**Ledger/Entry.cs violations at lines:** 15, 48 and 102
""", ("Ledger/Entry.cs", 15), [("Ledger/Entry.cs", 48), ("Ledger/Entry.cs", 102)]),
    "three-files-compared": ("""\
# Review

1. **Category:** consistency
   **Location:** `howto/a.md` vs `howto/b.md` vs `howto/c.md`
   **Description:** the three pages give three different defaults.
""", ("howto/a.md", None), [("howto/b.md", None), ("howto/c.md", None)]),
}


@pytest.mark.parametrize("name", sorted(FORMS))
def test_each_form_is_one_finding_with_its_other_places_related(name: str) -> None:
    text, own, others = FORMS[name]
    assert located(read(text)) == [(own, others)]


def test_a_json_findings_list_of_places_gives_the_others_as_related() -> None:
    doc = {"verdict": "REVISE", "findings": [
        {"title": "the handle is never closed", "severity": "high",
         "locations": ["io/read.py:12", "io/write.py:30-34", {"path": "io/tee.py", "line": 7}]},
        {"title": "the two guides disagree", "files": ["guide/a.md", "guide/b.md"]},
        {"title": "one place only", "file": "io/one.py", "line": 4, "end_line": 9}]}
    got = read(json.dumps(doc))
    assert located(got) == [
        (("io/read.py", 12), [("io/write.py", 30), ("io/tee.py", 7)]),
        (("guide/a.md", None), [("guide/b.md", None)]),
        (("io/one.py", 4), [])]
    assert got[0]["related"][0]["end_line"] == 34 and got[2]["end_line"] == 9


def test_a_related_place_keeps_its_range() -> None:
    got = read(FORMS["chinese-list-with-asides"][0])[0]
    assert got["related"][0] == {"file": "cache/disk.ts", "line": 8, "end_line": 14}
    assert got["severity"] == "medium"


# --------------------------------------------------------------------------- #
# 2. What stays separate, and what is no related place
# --------------------------------------------------------------------------- #
def test_a_listed_place_rated_apart_is_a_finding_of_its_own() -> None:
    text = """\
## Issues

- [Medium] `jobs/run.py:12` — a failed job is retried forever. Same issue at:
  - `jobs/cron.py:30` — the scheduler loops the same way
  - `jobs/queue.py:77` — Critical: here each retry also re-sends the e-mail
"""
    got = read(text)
    assert located(got) == [(("jobs/run.py", 12), [("jobs/cron.py", 30)]),
                            (("jobs/queue.py", 77), [])]
    assert [f.get("severity") for f in got] == ["medium", "critical"]


def test_items_of_their_own_stay_separate_findings() -> None:
    text = """\
## Issues

- `auth/login.py:14` — the password is compared with ==.
- `auth/login.py:52` — a failed login is not rate limited.
- `auth/reset.py:9` — the reset token never expires.
"""
    assert located(read(text)) == [(("auth/login.py", 14), []), (("auth/login.py", 52), []),
                                   (("auth/reset.py", 9), [])]


@pytest.mark.parametrize("text", [
    "## Issues\n\n- `mail/send.py:4` \u2014 calls `mail/tpl.py:60` with the wrong encoding.\n",
    "## Issues\n\n- [Low] the log line leaks the address (compare `log/a.py:3`, `log/b.py:5` "
    "for the masked form)\n",
    "# Review\n\n1. **Category:** layout\n   **Location:** `web/head.tsx` vs `web/meta.tsx`\n"
    "   **Description:** the titles disagree.\n",
])
def test_a_place_named_in_prose_or_compared_is_no_related_place(text: str) -> None:
    got = read(text)
    assert len(got) == 1 and "related" not in got[0]


def test_the_related_list_is_bounded() -> None:
    places = ", ".join(f"`gen/part{i}.py:{i + 1}`" for i in range(24))
    got = read(f"## Findings\n\n### Medium \u2014 generated code is checked in\n\n"
               f"**Location:** {places}\n")
    assert len(got) == 1
    assert got[0]["file"] == "gen/part0.py"
    assert len(got[0]["related"]) == 16


def test_absolute_related_places_are_made_relative_to_the_root() -> None:
    text = ("## Issues\n\n- `/srv/app/db/pool.py:9` \u2014 connections leak on error. The same"
            " issue occurs in `/srv/app/db/tx.py:41`.\n")
    got = read(text, root="/srv/app")
    assert located(got) == [(("db/pool.py", 9), [("db/tx.py", 41)])]


def test_verdict_records_with_related_places_match_the_schema() -> None:
    schema = schemas.load("verdict")
    for text, _, _ in FORMS.values():
        res = run_filter("parse-verdict", ["--reviewer", "tester"],
                         "Verdict: REVISE\n\n" + text)
        rec = orjson.loads(res.out)
        assert rec["findings"] and not list(Draft202012Validator(schema).iter_errors(rec))


def test_upstream_reading_has_no_related_field() -> None:
    text = b"Verdict: REVISE\nFindings:\n- [P2] a/b.py:3 \xe2\x80\x94 x, also in a/c.py:4\n"
    res = run_filter("parse-verdict", ["--upstream"], text)
    assert b'"related"' not in res.out
    assert orjson.loads(res.out)["findings"][0]["file"] == "a/b.py"


# --------------------------------------------------------------------------- #
# 3. Through council-consolidate
# --------------------------------------------------------------------------- #
CLAUDE = """\
Verdict: REVISE
Confidence: HIGH

## Findings

- [P2] `store/flush.py:31` — the write result is never checked, so a failed write is lost.
  The same issue occurs in `store/sync.py:57` and `store/batch.py:12`.
"""
CODEX = """\
Verdict: REVISE

## Issues

- [P2] `store/sync.py:58` — the write result is never checked, so a failed write goes unseen.
- [P3] `store/batch.py:12` — the batch size is a magic number.
"""


def verdicts(*answers: tuple[str, str]) -> bytes:
    out = b""
    for reviewer, text in answers:
        res = run_filter("parse-verdict", ["--reviewer", reviewer], text)
        assert res.code == 0
        out += res.out
    return out


def consolidate(fmt: str, records: bytes, *extra: str) -> bytes:
    res = run_filter("consolidate", ["--format", fmt, *extra], records)
    assert res.code == 0, res.err
    return res.out


def test_a_finding_at_another_reviewers_related_place_is_the_same_finding() -> None:
    rows = [orjson.loads(ln) for ln in
            consolidate("findings", verdicts(("claude", CLAUDE), ("codex", CODEX))).splitlines()]
    merged = [r for r in rows if r["merged_count"] == 2]
    assert len(rows) == 2 and len(merged) == 1
    (m,) = merged
    assert (m["file"], m["line"]) == ("store/flush.py", 31)
    assert m["merged_origins"] == ["claude", "codex"]
    # codex's own place is the spot claude listed (within three lines): not listed twice
    assert m["related"] == [{"file": "store/sync.py", "line": 57},
                            {"file": "store/batch.py", "line": 12}]
    # a different problem at a related place stays its own finding
    other = next(r for r in rows if r["merged_count"] == 1)
    assert (other["file"], other["line"]) == ("store/batch.py", 12)
    assert "related" not in other


def test_one_reviewers_two_findings_never_merge_through_a_related_place() -> None:
    text = CLAUDE + "- [P2] `store/sync.py:57` — the write result is never checked here either.\n"
    rows = consolidate("findings", verdicts(("claude", text))).splitlines()
    assert len(rows) == 2


def test_position_dedup_looks_at_the_own_place_only() -> None:
    rows = consolidate("findings", verdicts(("claude", CLAUDE), ("codex", CODEX)),
                       "--dedup", "position").splitlines()
    assert len(rows) == 3


def test_the_council_report_lists_the_other_places() -> None:
    md = consolidate("markdown", verdicts(("claude", CLAUDE), ("codex", CODEX)),
                     "--date", "2030-01-02", "--mode", "review", "--slug", "s").decode()
    agreed = md.split("### Agreement", 1)[1].split("###", 1)[0]
    lines = agreed.strip().splitlines()
    assert lines[1].startswith("- [medium] store/flush.py:31 \u2014 ")
    assert lines[2] == "  - Also at: store/sync.py:57, store/batch.py:12"


def test_the_code_review_report_lists_the_other_places() -> None:
    rec = {"kind": "finding", "origin": "tests", "file": "t/a_test.py", "line": 5,
           "severity": "medium", "subject": "the fixture is shared between tests",
           "related": [{"file": "t/b_test.py", "line": 9}, {"file": "t/c_test.py"}]}
    md = consolidate("markdown", orjson.dumps(rec) + b"\n").decode()
    assert "Also at: `t/b_test.py:9`, `t/c_test.py`" in md


def test_user_related_places_are_normalised_and_their_errors_named() -> None:
    rec = {"kind": "finding", "origin": "x", "file": "a.py", "line": 3, "subject": "s",
           "related": [{"file": "./b//c.py", "line": 4}, {"file": "a.py", "line": 3},
                       {"file": "b/c.py", "line": 4}, {"file": "d.py", "line": None}]}
    (row,) = [orjson.loads(ln) for ln in
              consolidate("findings", orjson.dumps(rec) + b"\n").splitlines()]
    assert row["related"] == [{"file": "b/c.py", "line": 4}, {"file": "d.py"}]
    bad = dict(rec, related=[{"line": 4}])
    res = run_filter("consolidate", ["--format", "findings"], orjson.dumps(bad) + b"\n")
    assert res.out == b"" and "finding dropped: related[]" in res.err


def test_sarif_gives_related_locations_the_message_links() -> None:
    log = json.loads(consolidate("sarif", verdicts(("claude", CLAUDE), ("codex", CODEX))))
    result = next(r for r in log["runs"][0]["results"]
                  if r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                  == "store/flush.py")
    rel = result["relatedLocations"]
    ids = [r["id"] for r in rel]
    assert ids == list(range(len(rel)))  # unique, members first
    places = [(r["physicalLocation"]["artifactLocation"]["uri"],
               r["physicalLocation"]["region"]["startLine"]) for r in rel[2:]]
    assert places == [("store/sync.py", 57), ("store/batch.py", 12)]
    assert result["message"]["text"].endswith(
        "Also at: [store/sync.py:57](2), [store/batch.py:12](3).")


def test_sarif_leaves_out_a_related_place_outside_the_repository() -> None:
    rec = {"kind": "finding", "origin": "x", "file": "a.py", "line": 3, "subject": "s",
           "related": [{"file": "/etc/hosts", "line": 1}, {"file": "b.py", "line": 2}]}
    log = json.loads(consolidate("sarif", orjson.dumps(rec) + b"\n"))
    (result,) = log["runs"][0]["results"]
    assert [r["physicalLocation"]["artifactLocation"]["uri"]
            for r in result["relatedLocations"]] == ["b.py"]
    assert result["message"]["text"].endswith("Also at: [b.py:2](0).")


def test_rdjsonl_and_code_quality_name_the_other_places() -> None:
    records = verdicts(("claude", CLAUDE))
    (diag,) = [orjson.loads(ln) for ln in consolidate("rdjsonl", records).splitlines()]
    assert diag["related_locations"] == [
        {"message": "also at store/sync.py:57",
         "location": {"path": "store/sync.py", "range": {"start": {"line": 57}}}},
        {"message": "also at store/batch.py:12",
         "location": {"path": "store/batch.py", "range": {"start": {"line": 12}}}}]
    assert "Also at: store/sync.py:57, store/batch.py:12." in diag["message"]
    (issue,) = json.loads(consolidate("codequality", records))
    assert issue["description"].endswith("(also at store/sync.py:57, store/batch.py:12)")
