"""council-parse-verdict: Layer-1 edges, Layer 2, structured findings, properties, CLI."""
# ruff: noqa: E501 - tables of literal reviewer lines read best one case per line

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from council_filters import verdict as v
from council_filters.base import vocab

from conftest import run_filter

MB3 = "\u65e5".encode()  # 3-byte character
MB2 = "\u00e9".encode()  # 2-byte character


def l1(text: bytes, **kw):
    return v.parse_layer1(text, **kw)


# --------------------------------------------------------------------------- #
# Layer 1: field extraction and coercion
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize("text,verdict,confidence", [
    (b"Verdict: APPROVE\nConfidence: HIGH\n", b"APPROVE", b"HIGH"),
    (b"Verdict: APPROVE\r\nConfidence: HIGH\r\n", b"UNKNOWN", b"LOW"),  # \r kept -> not in enum
    (b"Verdict: REJECT\nVerdict: APPROVE\n", b"REJECT", b""),  # first line wins
    (b"Verdict:APPROVE\n", b"UNKNOWN", b"LOW"),  # needs the space -> fallback
    (b" Verdict: APPROVE\n", b"UNKNOWN", b"LOW"),  # anchored
    (b"Verdict: approve\nConfidence: HIGH\n", b"UNKNOWN", b"LOW"),  # case-sensitive
    (b"Verdict: APPROVE \n", b"UNKNOWN", b"LOW"),  # trailing space kept
    (b"Verdict: TIMEOUT\nConfidence: HIGH\n", b"TIMEOUT", b"HIGH"),  # upstream accepts it
    (b"Verdict: REVISE\nConfidence: very sure\n", b"REVISE", b"very sure"),  # agent does not check
])
def test_layer1_fields(text, verdict, confidence):
    r = l1(text)
    assert (r.verdict, r.confidence) == (verdict, confidence)


@pytest.mark.parametrize("word,hardened_verdict", [
    (b"APPROVE", b"APPROVE"), (b"REVISE", b"REVISE"), (b"REJECT", b"REJECT"),
    (b"TIMEOUT", b"UNKNOWN"), (b"ERROR", b"UNKNOWN"), (b"UNAVAILABLE", b"UNKNOWN"), (b"UNKNOWN", b"UNKNOWN"),
])
def test_hardened_accepts_only_votes(word, hardened_verdict):
    r = l1(b"Verdict: " + word + b"\nConfidence: HIGH\n", hardened=True)
    assert r.verdict == hardened_verdict
    if hardened_verdict != word:
        assert r.confidence == b"LOW" and r.warnings
    assert l1(b"Verdict: " + word + b"\n").verdict == word


@pytest.mark.parametrize("field,cap,prefix", [
    ("verdict", 50, b"Verdict: "), ("confidence", 20, b"Confidence: "), ("summary", 500, b"Summary: "),
])
@pytest.mark.parametrize("extra", [0, 1, 2])
def test_caps_cut_bytes_mid_character_by_default(field, cap, prefix, extra):
    value = b"a" * extra + MB3 * (cap // 3 + 2)
    text = (b"" if field == "verdict" else b"Verdict: APPROVE\n") + prefix + value + b"\n"
    r = l1(text)
    got = r.summary if field == "summary" else getattr(r, field)
    if field == "verdict":  # an over-long verdict is never in the enum
        assert r.verdict == b"UNKNOWN"
        return
    assert got == value[:cap]
    hard = l1(text, hardened=True)
    hgot = hard.summary if field == "summary" else getattr(hard, field)
    assert len(hgot) <= cap and hgot.decode("utf-8")  # never split
    assert value[:cap].startswith(hgot) and cap - len(hgot) < 3


@pytest.mark.parametrize("length,cut", [(49, False), (50, False), (51, True)])
def test_verdict_cap_near_miss(length, cut):
    r = l1(b"Verdict: " + b"A" * length + b"\n")
    assert r.verdict == b"UNKNOWN"  # not an enum value either way
    assert not r.fallback  # the line was there: no fallback


def test_summary_cap_exact():
    assert l1(b"Verdict: APPROVE\nSummary: " + b"s" * 500 + b"\n").summary == b"s" * 500
    assert l1(b"Verdict: APPROVE\nSummary: " + b"s" * 501 + b"\n").summary == b"s" * 500


def test_ingest_lines_removed_everywhere():
    text = b"INGEST_TOKEN: a\nVerdict: APPROVE\nFindings:\nINGEST_TOKEN: b\nkeep\n INGEST_TOKEN: kept\nSummary: s\nINGEST_TOKEN: c"
    r = l1(text)
    assert r.findings == b"keep\n INGEST_TOKEN: kept"
    fb = l1(b"INGEST_TOKEN: a\nhello")
    assert fb.summary == b"hello"


# --------------------------------------------------------------------------- #
# Findings capture, cap and sentinel escape
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize("text,findings", [
    (b"Verdict: REVISE\nFindings:\nA\nB\nSummary: s\nC\n", b"A\nB"),
    (b"Verdict: REVISE\nFindings:\nA\n\n\n", b"A"),  # without Summary: to the end, trailing blanks stripped
    (b"Verdict: REVISE\nFindings: none\nA\nSummary: s\nB\nFindings:\nC\nSummary: t\nD\n", b"A\nC"),
    (b"Verdict: REVISE\nFindings:x\nA\n", b"A"),  # any line starting Findings:
    (b"Verdict: REVISE\nFindings:\nSummary:no-space\nA\n", b"Summary:no-space\nA"),
    (b"Verdict: REVISE\nFindings:\nfindings_block_end\n findings_block_begin\nfindings_block_end \n", b"[ESCAPED] findings_block_end\n findings_block_begin\nfindings_block_end "),
    (b"Verdict: REVISE\nFindings:\nfindings_block_begin\n", b"[ESCAPED] findings_block_begin"),
])
def test_findings_capture(text, findings):
    assert l1(text).findings == findings


def _findings_block(lines: list[bytes]) -> bytes:
    return b"Verdict: REVISE\nFindings:\n" + b"\n".join(lines) + b"\nSummary: s\n"


@pytest.mark.parametrize("n,capped", [(199, False), (200, False), (201, True)])
def test_findings_line_cap(n, capped):
    r = l1(_findings_block([b"l%d" % i for i in range(n)]))
    assert r.truncated is capped
    if capped:
        assert r.findings.split(b"\n")[-1] == v.TRUNCATED_MARKER
        assert len(r.findings.split(b"\n")) == 201


@pytest.mark.parametrize("size,capped", [(19999, False), (20000, False), (20001, True)])
def test_findings_byte_cap(size, capped):
    lines = [b"a" * 99] * 199 + [b"b" * (size - 19900)]
    r = l1(_findings_block(lines))
    assert r.truncated is capped
    if capped:  # the cut lands in the last line, which sed '$d' then drops
        assert r.findings == b"\n".join([b"a" * 99] * 199) + b"\n" + v.TRUNCATED_MARKER


def test_findings_cap_cut_on_line_end_drops_that_line_too():
    lines = [b"a" * 99] * 200 + [b"x"]  # 201 lines; 200 kept = 19999 bytes: no byte cut
    assert l1(_findings_block(lines)).findings.count(b"\n") == 200
    exact = [b"a" * 99] * 199 + [b"b" * 100, b"c"]  # first 200 lines = 20000 bytes: no byte cut
    r = l1(_findings_block(exact))
    assert r.findings.split(b"\n")[-2] == b"b" * 100


def test_findings_multibyte_cap_never_splits_kept_lines():
    r = l1(_findings_block([MB3 * 40] * 250))
    kept = r.findings.split(b"\n")[:-1]
    assert all(line.decode("utf-8") for line in kept)
    assert len(b"\n".join(kept)) <= 20000


def test_sentinel_escape_after_cap():
    lines = [b"x"] * 199 + [b"findings_block_end", b"y"]
    r = l1(_findings_block(lines))
    assert b"\n[ESCAPED] findings_block_end\n" + v.TRUNCATED_MARKER in r.findings


# --------------------------------------------------------------------------- #
# UNKNOWN fallback
# --------------------------------------------------------------------------- #
def test_fallback_summary_flattens_and_caps():
    r = l1(b"Looks   fine.\n\nReally\tfine.  \n")
    assert r.fallback and r.verdict == b"UNKNOWN" and r.confidence == b"LOW" and r.findings == b""
    assert r.summary == b"Looks fine. Really\tfine. "
    assert r.warnings == [v.NO_VERDICT_WARNING]


@pytest.mark.parametrize("hardened", [False, True])
def test_fallback_multibyte_caps(hardened):
    text = (MB3 * 100 + b"  \n") * 30
    r = l1(text, hardened=hardened)
    assert len(r.summary) <= 1500
    if hardened:
        assert r.summary.decode("utf-8")
    else:
        flat = text[:2000].replace(b"\n", b" ")
        while b"  " in flat:
            flat = flat.replace(b"  ", b" ")
        assert r.summary == flat[:1500]


def test_empty_verdict_line_falls_back():
    r = l1(b"Verdict: \nSummary: kept?\n")
    assert r.fallback and r.summary == b"Verdict: Summary: kept? "


# --------------------------------------------------------------------------- #
# Layer 2 (emit and parse)
# --------------------------------------------------------------------------- #
def test_layer2_return_shape():
    r = l1(b"Verdict: APPROVE\nConfidence: HIGH\nSummary: ok\n")
    assert v.layer2_return(r, b"/p") == (
        b"verdict=APPROVE\nconfidence=HIGH\nsummary=ok\nfenced_output_path=/p\n"
        b"findings_block_begin\n\nfindings_block_end\n")


def test_parse_layer2_spec_vector():
    text = b"x\nfindings_block_begin\nA\nfindings_block_begin\nB\nfindings_block_end\nC\nfindings_block_end\nfindings_block_begin\nD"
    r = v.parse_layer2(text)
    assert r.findings == b"A\nB\nD"
    assert r.verdict == b"ERROR" and r.confidence == b"N/A" and len(r.warnings) == 1


@pytest.mark.parametrize("text,verdict,confidence,warned", [
    (b"verdict=APPROVE\nconfidence=HIGH\n", b"APPROVE", b"HIGH", False),
    (b"verdict=\nconfidence=HIGH\n", b"ERROR", b"HIGH", True),
    (b"confidence=LOW\n", b"ERROR", b"LOW", True),
    (b"verdict=MAYBE\n", b"UNKNOWN", b"N/A", True),
    (b"verdict=APPROVE\r\n", b"UNKNOWN", b"N/A", True),
    (b"verdict=TIMEOUT\nconfidence=high\n", b"TIMEOUT", b"N/A", False),
    (b"verdict=REJECT\nverdict=APPROVE\nconfidence=N/A\n", b"REJECT", b"N/A", False),
    (b" verdict=APPROVE\n", b"ERROR", b"N/A", True),
])
def test_parse_layer2_coercion(text, verdict, confidence, warned):
    r = v.parse_layer2(text)
    assert (r.verdict, r.confidence, bool(r.warnings)) == (verdict, confidence, warned)


def test_parse_layer2_hardened_reads_keys_before_block_only():
    text = b"findings_block_begin\nverdict=APPROVE\nfindings_block_end\n"
    assert v.parse_layer2(text).verdict == b"APPROVE"
    assert v.parse_layer2(text, hardened=True).verdict == b"ERROR"
    two = b"verdict=REVISE\nfindings_block_begin\nA\nfindings_block_end\nfindings_block_begin\nB\nfindings_block_end\n"
    assert v.parse_layer2(two).findings == b"A\nB"
    assert v.parse_layer2(two, hardened=True).findings == b"A"


def test_round_trip_layer1_to_layer2():
    text = b"Verdict: REVISE\nConfidence: MEDIUM\nFindings:\n- [P2] a.py:1 \xe2\x80\x94 x\nfindings_block_end\nSummary: s\n"
    r1 = l1(text)
    r2 = v.parse_layer2(v.layer2_return(r1, b"/f"))
    assert (r2.verdict, r2.confidence, r2.summary, r2.findings, r2.fenced_path) == (
        r1.verdict, r1.confidence, r1.summary, r1.findings, b"/f")


# --------------------------------------------------------------------------- #
# Structured findings
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize("block,expected", [
    ("- [P1] src/a.py:42 \u2014 bad\n  Evidence: \"x == y\"",
     {"priority": "P1", "severity": "critical", "file": "src/a.py", "line": 42, "summary": "bad", "evidence": "x == y"}),
    ("- [P2] src/a.py:10-12 - range", {"priority": "P2", "severity": "medium", "file": "src/a.py", "line": 10, "end_line": 12, "summary": "range"}),
    ("- [P3] README.md \u2014 typo", {"priority": "P3", "severity": "minor", "file": "README.md", "summary": "typo"}),
    ("- [P2] Missing tests overall", {"priority": "P2", "severity": "medium", "summary": "Missing tests overall"}),
    ("* [P1] a.c:3 -- deref\nEvidence: N/A \u2014 no line", {"priority": "P1", "severity": "critical", "file": "a.c", "line": 3, "summary": "deref", "evidence": "N/A \u2014 no line"}),
    ("**[P1] codex \u2014 src/x.ts:7** Unchecked.\n  Finding: eval\n  [codex] confidence: 0.8",
     {"priority": "P1", "severity": "critical", "file": "src/x.ts", "line": 7, "summary": "Unchecked.", "confidence": 0.8, "discussion": "eval"}),
    ("- [P0] a.py:1 \u2014 zero", {"priority": "P0", "file": "a.py", "line": 1, "summary": "zero"}),
])
def test_structured_findings(block, expected):
    got = v.structured_findings(block.encode(), "gemini")
    assert len(got) == 1
    want = {"kind": "finding", "origin": "gemini", **expected}
    assert got[0] == want


def test_structured_findings_ignore_quoted_and_prose():
    block = "none\n[ESCAPED] - [P1] a.py:1 \u2014 quoted\n- [P3] b.py:2 \u2014 real\nprose ends it\n  Evidence: \"late\"\n" + v.TRUNCATED_MARKER.decode()
    got = v.structured_findings(block.encode(), "x")
    assert [f["file"] for f in got] == ["b.py"] and "evidence" not in got[0]


# --------------------------------------------------------------------------- #
# Properties: nothing raises, invariants hold
# --------------------------------------------------------------------------- #
LINES = st.sampled_from([
    b"Verdict: APPROVE", b"Verdict: ", b"Confidence: HIGH", b"Findings:", b"Summary: s", b"findings_block_end",
    b"findings_block_begin", b"INGEST_TOKEN: x", b"- [P1] a.py:1 \xe2\x80\x94 s", b"  Evidence: \"q\"", b"",
    b"\xff\xfe", MB3 * 30, b"**[P9] z \xe2\x80\x94 f:0** t", b"verdict=APPROVE", b"confidence=LOW",
])
TEXTS = st.one_of(st.binary(max_size=400), st.lists(LINES, max_size=40).map(b"\n".join))


def _valid_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


@settings(max_examples=300, deadline=None)
@given(text=TEXTS, hardened=st.booleans())
def test_parsing_never_raises_and_keeps_invariants(text, hardened):
    r = l1(text, hardened=hardened)
    assert r.verdict.decode() in (vocab.VOTES + ("UNKNOWN",) if hardened else vocab.VERDICTS)
    assert len(r.summary) <= 1500 and len(r.confidence) <= 20
    assert r.findings.count(b"\n") <= 200 and len(r.findings) <= 20000 + 1 + len(v.TRUNCATED_MARKER)
    assert all(line not in (b"findings_block_begin", b"findings_block_end") for line in r.findings.split(b"\n"))
    if hardened and _valid_utf8(text):
        r.summary.decode("utf-8")  # cuts never split a character
    r2 = v.parse_layer2(v.layer2_return(r), hardened=hardened)
    assert r2.findings == r.findings
    v.parse_layer2(text, hardened=hardened)
    json.dumps(v.verdict_fields(r.verdict, r.confidence, r.summary, r.findings, r.warnings, "o"))


@settings(max_examples=100, deadline=None)
@given(text=st.binary(max_size=300))
def test_cli_never_tracebacks(text):
    for args in ([], ["--layer2"], ["--from-layer2"], ["--schema", "council"], ["--jsonl", "--keep-going"]):
        code, out, err = run_filter("parse-verdict", args, text)
        assert code in (0, 1) and "Traceback" not in err and "internal error" not in err


# --------------------------------------------------------------------------- #
# CLI
# --------------------------------------------------------------------------- #


def test_cli_text_record_shape():
    code, out, err = run_filter("parse-verdict", ["-r", "gemini"], b"Verdict: APPROVE\nConfidence: HIGH\nSummary: ok\n")
    rec = json.loads(out)
    assert code == 0 and err == ""
    assert list(rec) == ["kind", "reviewer", "verdict", "confidence", "summary", "findings", "findings_text", "warnings"]


def test_cli_fallback_warning_is_one_line():
    code, out, err = run_filter("parse-verdict", ["-r", "opencode"], b"no verdict")
    assert code == 0
    assert err == "council-parse-verdict: opencode: " + v.NO_VERDICT_WARNING + "\n"


@pytest.mark.parametrize("status", ["TIMEOUT", "ERROR", "UNAVAILABLE"])
def test_jsonl_failed_status_keeps_it(status):
    rec = {"kind": "reviewer", "reviewer": "codex", "output": "Verdict: APPROVE", "status": status, "exit_code": 124}
    code, out, _ = run_filter("parse-verdict", ["--jsonl"], json.dumps(rec).encode())
    got = json.loads(out)
    assert code == 0 and got["verdict"] == status and got["confidence"] == "N/A"
    assert got["summary"].startswith("codex ") and "exit 124" in got["summary"]
    assert got["findings"] == [] and got["output"] == "Verdict: APPROVE"


def test_jsonl_confidence_is_coerced_and_fields_pass_through():
    rec = {"kind": "reviewer", "reviewer": "g", "a": 1, "output": "Verdict: REVISE\nConfidence: sure\n", "z": [2]}
    got = json.loads(run_filter("parse-verdict", ["--jsonl"], json.dumps(rec).encode())[1])
    assert got["confidence"] == "N/A"
    assert list(got)[:5] == ["kind", "reviewer", "a", "output", "z"]


def test_jsonl_emit_findings():
    rec = {"kind": "reviewer", "reviewer": "g", "output": "Verdict: REVISE\nFindings:\n- [P1] a.py:1 \u2014 s\n"}
    lines = run_filter("parse-verdict", ["--jsonl", "--emit-findings"], json.dumps(rec).encode())[1].splitlines()
    assert [json.loads(x)["kind"] for x in lines] == ["reviewer", "finding"]
    assert json.loads(lines[1])["origin"] == "g"


@pytest.mark.parametrize("args,data,code,needle", [
    (["--jsonl"], b'{"kind":"reviewer","reviewer":"g","output":"x","status":"WEIRD"}', 1, "stdin:1: unknown status"),
    (["--jsonl"], b'{"kind":"reviewer","reviewer":"g","output":1}', 1, "stdin:1: field 'output' is number"),
    (["--jsonl"], b'{"kind":"reviewer","output":"sk-secret"}', 1, "no 'reviewer' name"),
    (["--schema", "council"], b"not json", 1, "does not match the council schema (1 error)"),
    (["--schema", "nope"], b"", 2, "--schema must be one of"),
    (["--layer2", "--from-layer2"], b"", 2, "--layer2"),
    (["ranges"], b"", 2, "--diff"),
    (["ranges", "--diff", "/nonexistent/x.diff"], b"", 2, "cannot open"),
])
def test_cli_errors(args, data, code, needle):
    got, _out, err = run_filter("parse-verdict", args, data)
    assert got == code and needle in err and err.count("\n") == 1
    assert "sk-secret" not in err


def test_ranges_subcommand_only_first_argument():
    code, out, _ = run_filter("parse-verdict", ["ranges", "--diff", "-"], b"--- a/x\n+++ b/x\n@@ -1,2 +1,3 @@\n a\n+b\n c\n")
    assert code == 0 and out == b"x: new 1-3 | old 1-2\n"
    code, _out, err = run_filter("parse-verdict", ["-r", "x", "ranges"], b"")
    assert code == 2 and "cannot open" in err  # a FILE named ranges, not the subcommand


def test_help_has_examples_and_exit_codes():
    for args in (["--help"], ["ranges", "--help"]):
        code, out, _err = run_filter("parse-verdict", args)
        text = out.decode() if isinstance(out, bytes) else out
        assert code == 0 and "Examples:" in text and "|" in text.split("Examples:")[1] and "Exit codes:" in text
