"""JSON reviewers: shipped schemas, extraction, verify results with hints, normalisation, diff ranges."""
# ruff: noqa: E501 - tables of reviewer objects read best one case per line

from __future__ import annotations

import json

import pytest
from jsonschema import Draft202012Validator

from council_filters.base import diffranges, schemas
from council_filters.verdict import reviewer_json as rj

LINE = {"kind": "line", "file": "src/a.ts", "start": 3, "end": 4, "side": "new"}


def finding(**kw):
    base = {"location": LINE, "label": "issue", "subject": "s", "discussion": "d"}
    base.update(kw)
    return base


VALID = {
    "council": [
        {"findings": []},
        {"findings": [finding(severity="high", confidence=0.5, decorations=["non-blocking"])]},
        {"findings": [finding(location={"kind": "file", "file": "x"}), finding(location={"kind": "global"})]},
        {"findings": [finding(threadRelation={"kind": "new"}),
                      finding(threadRelation={"kind": "amplifies-existing", "threadIndex": 3, "rationale": "r"})]},
        {"findings": [finding(label=label) for label in ("praise", "nitpick", "typo", "polish", "quibble")]},
    ],
    "judge": [
        {"findings": []},
        {"selfSignal": {"confidence": "medium", "rationale": "r"},
         "findings": [finding(raisedBy=["claude"], sourceFindingIds=[1, 2])]},
    ],
    "critique": [
        {"critiques": []},
        {"critiques": [{"findingId": 1, "position": p, "rationale": "r"}
                       for p in ("agree", "disagree", "qualify", "amplify")]},
    ],
    "stack-review": [
        {"perPr": {}, "crossPr": []},
        {"perPr": {"1": [finding()], "42": []}, "crossPr": [finding(homePrNumber=1, spans=[1, 42])]},
    ],
    "stack-judge": [
        {"perPr": {"9": [finding(raisedBy=["a"])]}, "crossPr": [],
         "selfSignal": {"confidence": "low", "rationale": "r"}},
    ],
}

# (stage, object, path, words in the message, words in the hint)
INVALID = [
    ("council", {}, "", "'findings'", '{"findings": []}'),
    ("council", {"findings": {}}, "/findings", "must be an array", "array"),
    ("council", {"findings": [finding(label="bug")]}, "/findings/0/label", "not an allowed value", "praise"),
    ("council", {"findings": [finding(subject="")]}, "/findings/0/subject", "must not be empty", "non-empty"),
    ("council", {"findings": [finding(confidence=1.5)]}, "/findings/0/confidence", "out of range", "between 0 and 1"),
    ("council", {"findings": [finding(location={"kind": "line", "file": "a", "start": 1, "end": 1})]},
     "/findings/0/location", "'side'", '"new"'),
    ("council", {"findings": [finding(location={"kind": "line", "file": "a", "start": 0, "end": 1, "side": "new"})]},
     "/findings/0/location/start", "out of range", ">= 1"),
    ("council", {"findings": [finding(location={"kind": "file"})]}, "/findings/0/location", "'file'", "path"),
    ("council", {"findings": [finding(location={"kind": "global", "file": "x"})]}, "/findings/0/location",
     "unexpected property 'file'", "Remove"),
    ("council", {"findings": [finding(threadRelation={"kind": "supports-existing", "rationale": "r"})]},
     "/findings/0/threadRelation", "'threadIndex'", "[TN]"),
    ("council", {"findings": [finding(raisedBy=["x"])]}, "/findings/0", "unexpected property 'raisedBy'", "Remove"),
    ("council", {"findings": [finding(decorations=[""])]}, "/findings/0/decorations/0", "must not be empty", "non-empty"),
    ("judge", {"findings": [finding(raisedBy="claude")]}, "/findings/0/raisedBy", "must be an array", '["claude"]'),
    ("judge", {"findings": [finding(sourceFindingIds=[0])]}, "/findings/0/sourceFindingIds/0", "out of range", ">= 1"),
    ("judge", {"findings": [], "selfSignal": {"confidence": "sure", "rationale": "r"}}, "/selfSignal/confidence",
     "not an allowed value", "low, medium, high"),
    ("judge", {"findings": [], "selfSignal": {"confidence": "low", "rationale": ""}}, "/selfSignal/rationale",
     "must not be empty", "non-empty"),
    ("critique", {"critiques": [{"findingId": 0, "position": "agree", "rationale": "r"}]},
     "/critiques/0/findingId", "out of range", ">= 1"),
    ("critique", {"critiques": [{"findingId": 1, "position": "meh", "rationale": "r"}]},
     "/critiques/0/position", "not an allowed value", "agree, disagree, qualify, amplify"),
    ("critique", {"findings": []}, "", "'critiques'", "critiques"),
    ("stack-review", {"perPr": {"PR1": []}, "crossPr": []}, "/perPr", "unexpected key", "PR numbers"),
    ("stack-review", {"perPr": {"01": []}, "crossPr": []}, "/perPr", "unexpected key", "PR numbers"),
    ("stack-review", {"perPr": {}, "crossPr": [finding(spans=[1])]}, "/crossPr/0", "'homePrNumber'", "homePrNumber"),
    ("stack-review", {"perPr": {}, "crossPr": [finding(homePrNumber=1, spans=[])]}, "/crossPr/0/spans",
     "must not be empty", "at least one"),
    ("stack-review", {"perPr": {}}, "", "'crossPr'", "crossPr"),
    ("stack-judge", {"perPr": {"2": [finding(raisedBy=[""])]}, "crossPr": []}, "/perPr/2/0/raisedBy/0",
     "must not be empty", "non-empty"),
    ("stack-judge", {"perPr": {}, "crossPr": [], "extra": True}, "", "unexpected property 'extra'", "Remove"),
]


@pytest.mark.parametrize("name", rj.SCHEMA_FILES)
def test_shipped_schemas_are_valid_draft_2020_12(name):
    Draft202012Validator.check_schema(schemas.load(name))


@pytest.mark.parametrize("stage,obj", [(s, o) for s, objs in VALID.items() for o in objs])
def test_valid_objects(stage, obj):
    result = rj.verify(stage, obj)
    assert result == {"ok": True, "count": rj.count(stage, obj)}


@pytest.mark.parametrize("stage,obj,path,message,hint", INVALID)
def test_invalid_objects_get_a_located_error_and_a_hint(stage, obj, path, message, hint):
    result = rj.verify(stage, obj)
    assert result["ok"] is False
    assert set(result) == {"ok", "errors"}
    matching = [e for e in result["errors"] if e["path"] == path and message in e["message"]]
    assert matching, result["errors"]
    assert hint in matching[0]["hint"]
    assert all(set(e) == {"path", "message", "hint"} and e["hint"] for e in result["errors"])


def test_every_stage_rejects_a_non_object():
    for stage in rj.STAGES:
        assert rj.verify(stage, [])["ok"] is False


def test_messages_never_quote_values():
    secret = "sk-proj-THIS-IS-NOT-TO-BE-ECHOED"
    obj = {"findings": [finding(label=secret, subject=12, severity=secret,
                                location={"kind": secret})]}
    assert secret not in json.dumps(rj.verify("council", obj))


@pytest.mark.parametrize("reply,expected", [
    ('{"findings": []}', {"findings": []}),
    ('  \n{"findings": []}\n', {"findings": []}),
    ('Sure:\n```json\n{"findings": []}\n```\nDone.', {"findings": []}),
    ('```\n{"a": 1}\n```\n```json\n{"findings": []}\n```', {"findings": []}),
    ('prose {"findings": [1]} more', {"findings": [1]}),
    ('[1, 2]', [1, 2]),
])
def test_extract(reply, expected):
    assert rj.extract(reply) == expected


@pytest.mark.parametrize("reply", ["", "no json here", "```json\n{bad}\n```"])
def test_extract_errors(reply):
    with pytest.raises(rj.ExtractError):
        rj.extract(reply)


def test_normalise_maps_severity_drops_duplicates_and_checks_ranges():
    obj = {"findings": [
        finding(severity="blocking"), finding(severity="nice-to-have"), finding(severity="bogus"),
        finding(threadRelation={"kind": "duplicates-existing", "threadIndex": 1, "rationale": "r"}),
        finding(location={"kind": "line", "file": "src/a.ts", "start": 50, "end": 50, "side": "new"}),
        finding(location={"kind": "line", "file": "src/a.ts", "start": 3, "end": 3, "side": "old"}),
    ]}
    diff = diffranges.parse(b"--- a/src/a.ts\n+++ b/src/a.ts\n@@ -1,3 +1,5 @@\n a\n+b\n+c\n d\n e\n")
    out = rj.normalise("council", obj, "gemini", diff)
    assert [r.get("severity") for r in out.records] == ["critical", "minor", None, None, None]
    assert all(r["origin"] == "gemini" and r["kind"] == "finding" for r in out.records)
    assert len(out.records) == 5
    joined = "\n".join(out.warnings)
    assert "/findings/2: unknown severity" in joined
    assert "/findings/3: duplicates an existing thread" in joined
    assert "/findings/4: lines 50-50 (new) are outside" in joined
    assert "/findings/0" not in joined and "/findings/5" not in joined  # old 1-3 holds line 3


def test_normalise_stack_and_critique():
    obj = VALID["stack-review"][1]
    recs = rj.normalise("stack-review", obj, "codex").records
    assert [(r.get("pr"), r.get("home_pr")) for r in recs] == [(1, None), (None, 1)]
    crit = rj.normalise("critique", VALID["critique"][1], "claude").records
    assert crit[0] == {"kind": "critique", "origin": "claude", "finding_id": 1, "position": "agree",
                       "rationale": "r"}


def test_normalised_records_match_the_verdict_schema():
    finding_schema = schemas.load("verdict")["$defs"]["finding"]
    for stage in ("council", "judge", "stack-review", "stack-judge"):
        for obj in VALID[stage]:
            for rec in rj.normalise(stage, obj, "x").records:
                assert not list(Draft202012Validator(finding_schema).iter_errors(rec))


# --------------------------------------------------------------------------- #
# Diff ranges
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize("diff,expected", [
    (b"--- a/x\n+++ b/x\n@@ -1,2 +1,3 @@\n a\n+b\n c\n", b"x: new 1-3 | old 1-2\n"),
    (b"--- a/x\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-a\n-b\n", b"x: old 1-2\n"),
    (b"--- /dev/null\n+++ b/y\n@@ -0,0 +1 @@\n+a\n", b"y: new 1-1\n"),
    (b"--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n a\n b\n@@ -3,2 +3,2 @@\n c\n d\n", b"x: new 1-4 | old 1-4\n"),
    (b"--- a/x\n+++ b/x\n@@ -1 +1 @@\n--- a/fake\n+++ b/fake\n", b"x: new 1-1 | old 1-1\n"),
    (b"Binary files a/p and b/p differ\n", b""),
    (b"", b""),
])
def test_ranges(diff, expected):
    assert diffranges.format_ranges(diffranges.parse(diff)) == expected


@pytest.mark.parametrize("start,end,side,expected", [
    (1, 3, "new", True), (3, 4, "new", False), (2, 2, "old", True), (3, 3, "old", False),
    (3, 3, "both", True), (9, 9, "both", False),
])
def test_anchorable(start, end, side, expected):
    files = diffranges.parse(b"--- a/x\n+++ b/x\n@@ -1,2 +1,3 @@\n a\n+b\n c\n")
    assert diffranges.anchorable(files, "x", start, end, side) is expected
    assert diffranges.anchorable(files, "nope", 1, 1, "new") is None
