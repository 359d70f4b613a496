"""The shared rules in ``council_filters.base``: one UTF-8 cut, anchored name rules,
and every input a name rule guards refused when it ends in a newline."""

from __future__ import annotations

import codecs
import subprocess
from pathlib import Path

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from council_filters.base import bytesops, vocab

from conftest import run_filter


# --------------------------------------------------------------------------- #
# One UTF-8 cut.
# --------------------------------------------------------------------------- #
def pending_tail(data: bytes) -> int:
    """How many trailing bytes Python's own incremental UTF-8 decoder holds back."""
    decoder = codecs.getincrementaldecoder("utf-8")("surrogateescape")
    decoder.decode(data, final=False)
    return len(decoder.getstate()[0])


@settings(max_examples=400, deadline=None)
@given(st.text(), st.integers(min_value=0, max_value=64))
def test_utf8_cut_of_text_is_the_longest_whole_prefix(text: str, limit: int) -> None:
    data = text.encode("utf-8", "surrogatepass")
    cut = bytesops.utf8_cut(data, limit)
    head = data[:limit]
    assert cut == head[: len(head) - pending_tail(head)]


@settings(max_examples=400, deadline=None)
@given(st.binary(max_size=24), st.integers(min_value=0, max_value=24))
def test_utf8_cut_of_any_bytes_drops_only_a_split_character(data: bytes, limit: int) -> None:
    cut = bytesops.utf8_cut(data, limit)
    head = data[:limit]
    dropped = head[len(cut):]
    assert head.startswith(cut) and len(dropped) <= 3
    if dropped:  # a lead byte, then only continuation bytes, fewer than it declares
        lead, rest = dropped[0], dropped[1:]
        assert lead >= 0xC0 and all(0x80 <= b <= 0xBF for b in rest)
        need = 2 if lead <= 0xDF else 3 if lead <= 0xEF else 4
        assert len(dropped) < need


@pytest.mark.parametrize(("data", "limit", "expected"), [
    (b"\xc3\xa9\x80", 2, b"\xc3\xa9"),      # a whole character before a stray byte stays
    (b"a\xc3\xa9", 2, b"a"),                 # a split character goes
    (b"\xe2\x82\xac", 2, b""),
    (b"\xe2\x82\xac", 3, b"\xe2\x82\xac"),
    (b"\xf0\x9f\x98\x80x", 3, b""),
    (b"\x80\x80\x80", 2, b"\x80\x80"),       # no lead byte: nothing to back off to
    (b"abc", 0, b""),
])
def test_utf8_cut_cases(data: bytes, limit: int, expected: bytes) -> None:
    assert bytesops.utf8_cut(data, limit) == expected


# --------------------------------------------------------------------------- #
# Anchored name rules.
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize(("check", "good"), [
    (vocab.is_slug, "abc-def"),
    (vocab.is_name, "claude"),
    (vocab.is_date, "2026-01-31"),
])
def test_rules_refuse_a_trailing_newline(check, good) -> None:
    assert check(good)
    for bad in (good + "\n", good + "\r\n", "\n" + good, good + "\n\n", good + " "):
        assert not check(bad), repr(bad)


def test_slug_rule_refuses_non_ascii_and_empty() -> None:
    assert not vocab.is_slug("") and not vocab.is_slug("é") and not vocab.is_slug("a--b")
    assert vocab.is_slug(b"a-1") and not vocab.is_slug(b"a-1\n")


# --------------------------------------------------------------------------- #
# Every input a name rule guards: a trailing newline is refused, nothing written.
# --------------------------------------------------------------------------- #
def verdict_record(**over):
    rec = {"kind": "reviewer", "reviewer": "claude", "mode": "review", "slug": "abc",
           "verdict": "APPROVE", "confidence": "HIGH", "summary": "ok", "findings": []}
    rec.update(over)
    return orjson.dumps(rec) + b"\n"


def files_under(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*"))


@pytest.mark.parametrize("field", ["slug", "mode"])
@pytest.mark.parametrize("tail", ["\n", "\r", "\n\n", "/x", "\u00e9"])
def test_consolidate_write_refuses_a_record_name_with_a_tail(tmp_path, field, tail):
    rec = verdict_record(**{field: ("abc" if field == "slug" else "review") + tail})
    code, out, err = run_filter("consolidate", ["--write", "--root", str(tmp_path),
                                       "--date", "2026-01-31"], rec)
    assert code == 1, err
    assert out == b"" and files_under(tmp_path) == []
    assert err.count("\n") == 1 and err.startswith("council-consolidate: ")


def test_consolidate_write_takes_the_same_record_without_the_newline(tmp_path):
    code, out, err = run_filter("consolidate", ["--write", "--root", str(tmp_path),
                                       "--date", "2026-01-31"], verdict_record())
    assert code == 0, err
    assert files_under(tmp_path) == ["docs", "docs/council",
                                     "docs/council/2026-01-31-review-abc.md"]


@pytest.mark.parametrize("args", [
    ["--slug", "abc\n"],
    ["--mode", "review\n"],
    ["--date", "2026-01-31\n"],
])
def test_consolidate_options_with_a_trailing_newline_are_refused(tmp_path, args):
    argv = ["--write", "--root", str(tmp_path), *args]
    if "--date" not in args:
        argv += ["--date", "2026-01-31"]
    code, out, err = run_filter("consolidate", argv, verdict_record())
    assert code in (1, 2), err
    assert out == b"" and files_under(tmp_path) == []


def test_pack_report_path_refuses_a_slug_argument_with_a_newline(tmp_path):
    code, out, _ = run_filter("pack", ["report-path", "review", "abc\n", "--root", str(tmp_path),
                              "--date", "2026-01-31"])
    assert code == 1 and out == b""
    code, out, _ = run_filter("pack", ["report-path", "review\n", "abc", "--root", str(tmp_path)])
    assert code == 2 and out == b""
    code, out, _ = run_filter("pack", ["report-path", "review", "abc", "--root", str(tmp_path),
                              "--date", "2026-01-31\n"])
    assert code == 1 and out == b""


@pytest.mark.parametrize("args", [
    ["question", "why?", "--slug", "abc\n"],
    ["question", "why?", "--run-id", "run-1\n"],
])
def test_pack_names_with_a_trailing_newline_are_refused(tmp_path, monkeypatch, args):
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    monkeypatch.chdir(tmp_path)
    code, out, err = run_filter("pack", args)
    assert code in (1, 2), err
    assert out == b""


def test_pack_reviewer_lists_are_trimmed_so_no_name_keeps_a_newline(tmp_path, monkeypatch):
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    monkeypatch.chdir(tmp_path)
    code, out, err = run_filter("pack", ["question", "why?", "--reviewers", "claude\n,codex"])
    assert code == 0, err
    assert [orjson.loads(x)["reviewer"] for x in out.splitlines()] == ["claude", "codex"]


def test_parse_verdict_record_reviewer_with_a_trailing_newline_is_refused():
    rec = orjson.dumps({"kind": "reviewer", "reviewer": "claude\n", "output": "Verdict: APPROVE"})
    code, out, err = run_filter("parse-verdict", ["--jsonl"], rec + b"\n")
    assert code == 1 and out == b"" and "stdin:1: " in err


def test_fence_label_with_a_trailing_newline_is_refused():
    code, out, _ = run_filter("fence", ["--label", "claude\n"], b"text\n")
    assert code == 2 and out == b""


def test_parse_verdict_reviewer_with_a_trailing_newline_is_refused():
    code, out, _ = run_filter("parse-verdict", ["--reviewer", "claude\n"], b"Verdict: APPROVE\n")
    assert code == 2 and out == b""


def test_state_ids_with_a_trailing_newline_are_refused(tmp_path):
    path = str(tmp_path / "s.json")
    assert run_filter("state", ["--file", path, "init"])[0] == 0
    finding = {"kind": "finding", "id": "SEC-001\n", "origin": "security", "subject": "x",
               "severity": "critical", "fingerprint": "f" * 32}
    before = Path(path).read_bytes()
    code, _, _ = run_filter("state", ["--file", path, "add"], orjson.dumps(finding) + b"\n")
    assert code == 1 and Path(path).read_bytes() == before
