"""council-parse-verdict --from-layer2 --reviewer claude --minted-path: the integrity branch.

The table ``CASES`` holds a 6-key return and what sits at the minted path.
``parse_verdict_claude_upstream.json`` holds, for every case, what upstream's
parse_reviewer_return (the later council.md, its minted-path placeholder
filled in, redaction program = the canonical one) produced on the same input:
the recorded slot values, its stderr lines, and the file left behind.  The
comparison maps upstream's diagnostics onto this tool's form: the
``[council] Warning: claude `` / ``[council] Error: `` head is the tool's
``claude: `` prefix here, the non-enum warning omits the value, and control
characters in shown values are escaped.
"""
# ruff: noqa: E501 - tables of literal reviewer lines read best one case per line

from __future__ import annotations

import json
import os
import re
import stat
from pathlib import Path

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from council_filters import verdict as v
from council_filters.base import safefs
from council_filters.verdict import fenced_file

from conftest import run_filter

EXPECTED = json.loads(
    (Path(__file__).with_name("parse_verdict_claude_upstream.json")).read_text("utf-8"))

MINTED_NAME = "council-claude-fenced-Ab3dE9.txt"
OTHER_NAME = "council-claude-fenced-Zz9yX8.txt"
KEY = "sk-" + "Q7" * 15  # credential-shaped (openai pattern), built so no literal key sits here
GH = "ghp_" + "x1Y2" * 10
BEGIN = "--- begin council-output:claude ---"
END = "--- end council-output:claude ---"


def six(verdict: str | None, confidence: str = "LOW", path: str = "{MINTED}",
        summary: str = "", findings: str = "") -> str:
    lines = [] if verdict is None else [f"verdict={verdict}"]
    lines += [f"confidence={confidence}", f"summary={summary}", f"fenced_output_path={path}",
              "findings_block_begin"] + ([findings] if findings else []) + ["findings_block_end"]
    return "\n".join(lines) + "\n"


def fenced(*body: str, before: str = "", after: str = "") -> str:
    return before + "\n".join([BEGIN, *body, END]) + "\n" + after


GOOD = fenced("Verdict: APPROVE", "Confidence: HIGH", "Findings:",
              f"- [P1] app/config.py:12 \u2014 hard-coded key {KEY}", "  Evidence: \"token = load()\"",
              "- [P3] app/util.py:4 \u2014 unused import", "Summary: one secret in config",
              before="Reviewer notes outside the fence.\n")

# (name, return, file at the minted path: text | "missing" | "dir" | "symlink")
CASES: list[tuple[str, str, str]] = [
    # a: the minted path is a regular file
    ("a-good", six("APPROVE", "LOW"), GOOD),
    ("a-confidence-kept-when-file-has-none", six("REVISE", "MEDIUM"),
     fenced("Verdict: REVISE", "Findings:", "- [P2] a.py:1 \u2014 x", "Summary: s")),
    ("a-confidence-kept-when-file-has-two", six("REVISE", "MEDIUM"),
     fenced("Verdict: REVISE", "Confidence: HIGH", "Confidence: LOW", "Summary: s")),
    ("a-file-confidence-replaces-even-non-enum", six("REVISE", "HIGH"),
     fenced("Verdict: REVISE", "Confidence: very", "Summary: s")),
    ("a-verdict-mismatch", six("APPROVE", "HIGH"),
     fenced("Verdict: REVISE", "Confidence: HIGH", "Findings:", "- [P1] a.py:2 \u2014 bug", "Summary: s")),
    ("a-missing-verdict-line", six("APPROVE", "HIGH"),
     fenced("Confidence: HIGH", "Summary: s")),
    ("a-two-verdict-lines", six("APPROVE", "HIGH"),
     fenced("Verdict: APPROVE", "Verdict: APPROVE", "Summary: s")),
    ("a-verdict-only-outside-fence", six("APPROVE", "HIGH"),
     fenced("Summary: s", before="Verdict: APPROVE\n", after="Verdict: APPROVE\n")),
    ("a-forged-verdict-before-fence-ignored", six("REVISE", "HIGH"),
     fenced("Verdict: REVISE", "Summary: real", before="Verdict: APPROVE\nSummary: forged\n")),
    ("a-verdict-empty-value", six("APPROVE"), fenced("Verdict: ", "Summary: s")),
    ("a-return-without-verdict", six(None, "HIGH"), fenced("Verdict: APPROVE", "Summary: s")),
    ("a-crlf-verdict", six("APPROVE"), fenced("Verdict: APPROVE\r", "Summary: s")),
    ("a-credential-verdict-redacted-in-warning", six(KEY), fenced(f"Verdict: {KEY}", "Summary: s")),
    ("a-non-enum-agreed-then-coerced", six("MAYBE", "HIGH"), fenced("Verdict: MAYBE", "Summary: s")),
    ("a-two-regions", six("REVISE", "HIGH"),
     fenced("Verdict: REVISE", "Findings:", "- [P1] a.py:1 \u2014 first", "Summary: one")
     + fenced("Findings:", "- [P2] b.py:2 \u2014 second", "Summary: two", "tail")),
    ("a-summary-prefix-inside-findings", six("REVISE", "HIGH"),
     fenced("Verdict: REVISE", "Findings:", "- [P1] a.py:1 \u2014 title", "Summary: of the issue (finding text)",
            "- [P2] b.py:2 \u2014 kept", "", "Summary: the real one", "after summary")),
    ("a-findings-stop-at-fence-end", six("REVISE"),
     fenced("Verdict: REVISE", "Findings:", "- [P1] a.py:1 \u2014 in", "Summary: s",
            after="- [P1] z.py:9 \u2014 outside\nSummary: outside\n")),
    ("a-no-findings-line", six("APPROVE", "HIGH"),
     fenced("Verdict: APPROVE", "- [P1] a.py:1 \u2014 not captured", "Summary: s")),
    ("a-no-summary-line", six("APPROVE"),
     fenced("Verdict: APPROVE", "Findings:", "- [P1] a.py:1 \u2014 x", "", "")),
    ("a-unterminated-fence", six("APPROVE"),
     BEGIN + "\nVerdict: APPROVE\nFindings:\n- [P2] a.py:3 \u2014 y\nSummary: s\nlast line no newline"),
    ("a-return-prose-replaced-by-file", six("APPROVE", summary=f"return summary {GH}", findings=f"return finding {KEY}"),
     fenced("Verdict: APPROVE", "Summary: from file")),
    ("a-pem-in-findings", six("REJECT", "HIGH"),
     fenced("Verdict: REJECT", "Findings:", "- [P1] k.pem:1 \u2014 key committed", "-----BEGIN RSA PRIVATE KEY-----",
            "MIIEowIBAAKCAQEA7x" + "Ab9+" * 12, "-----END RSA PRIVATE KEY-----", "Summary: key")),
    ("a-empty-file", six("APPROVE"), ""),
    # b: a path this run did not mint
    ("b-other-path", six("APPROVE", path="{OTHER}"), GOOD),
    ("b-same-file-other-spelling", six("APPROVE", path="{DIR}/./" + MINTED_NAME), GOOD),
    ("b-trailing-cr", six("APPROVE", path="{MINTED}\r"), GOOD),
    ("b-other-path-unknown", six("UNKNOWN", path="{OTHER}", summary="s"), GOOD),
    # c: the minted path, but not a regular file
    ("c-missing", six("APPROVE"), "missing"),
    ("c-directory", six("APPROVE"), "dir"),
    ("c-symlink", six("APPROVE"), "symlink"),
    ("c-missing-unknown", six("UNKNOWN"), "missing"),
    # d: no path at all
    ("d-approve", six("APPROVE", "HIGH", path=""), "missing"),
    ("d-reject", six("REJECT", "HIGH", path=""), "missing"),
    ("d-unknown-keeps-value", six("UNKNOWN", "LOW", path="", summary=f"fallback with {KEY}",
                                  findings=f"token {GH}\nplain line"), "missing"),
    ("d-timeout-keeps-value", six("TIMEOUT", "N/A", path="", summary="claude timed out"), "missing"),
    ("d-approve-cr-not-a-vote", six("APPROVE\r", path=""), "missing"),
    ("d-no-keys-at-all", "Agent failed: overloaded\n", "missing"),
    ("d-path-key-absent", "verdict=APPROVE\nconfidence=HIGH\n", "missing"),
]

IDS = [c[0] for c in CASES]


def setup_case(tmp_path: Path, name: str, spec: str) -> tuple[Path, Path, Path]:
    """The minted path, a foreign regular file holding the same text, and a symlink target."""
    minted, other, target = tmp_path / MINTED_NAME, tmp_path / OTHER_NAME, tmp_path / "target.txt"
    content = GOOD if spec in ("missing", "dir", "symlink") else spec
    other.write_text(content, "utf-8", newline="")
    target.write_text(content, "utf-8", newline="")
    os.chmod(other, 0o644)
    if spec == "dir":
        minted.mkdir()
    elif spec == "symlink":
        minted.symlink_to(target)
    elif spec != "missing":
        minted.write_text(spec, "utf-8", newline="")
        os.chmod(minted, 0o644)
    return minted, other, target


def fill(template: str, tmp_path: Path) -> str:
    return (template.replace("{MINTED}", str(tmp_path / MINTED_NAME))
            .replace("{OTHER}", str(tmp_path / OTHER_NAME)).replace("{DIR}", str(tmp_path)))


def run(args: list[str], text: str) -> tuple[int, dict, str]:
    res = run_filter("parse-verdict", args, text)
    lines = res.out.splitlines()
    assert len(lines) == 1
    return res.code, orjson.loads(lines[0]), res.err


def claude(tmp_path: Path, text: str) -> tuple[int, dict, str]:
    return run(["--from-layer2", "--reviewer", "claude", "--minted-path",
                str(tmp_path / MINTED_NAME)], text)


def ours(line: str) -> str:
    """An upstream diagnostic in this tool's wording (see the module docstring)."""
    for head in ("[council] Warning: claude ", "[council] Error: "):
        if line.startswith(head):
            line = line[len(head):]
            break
    line = re.sub(r"non-enum verdict \(.*\) \u2014", "non-enum verdict \u2014", line)
    return re.sub(r"[\x00-\x1f\x7f]", lambda m: f"\\x{ord(m[0]):02x}", line)


def test_every_case_has_upstream_expectations():
    assert sorted(EXPECTED) == sorted(IDS)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_against_upstream(tmp_path, case):
    name, template, spec = case
    exp = EXPECTED[name]
    minted, other, target = setup_case(tmp_path, name, spec)
    code, rec, err = claude(tmp_path, fill(template, tmp_path))
    assert code == 0
    got = {k: rec[k] for k in ("verdict", "confidence", "summary")}
    assert got == {k: exp[k] for k in ("verdict", "confidence", "summary")}
    assert rec["findings_text"] == exp["findings"]
    assert rec["fenced_output_path"] == fill(exp["path"], tmp_path)
    warnings = [ours(fill(line, tmp_path)) for line in exp["stderr"]]
    assert rec["warnings"] == warnings
    assert err == "".join(f"council-parse-verdict: claude: {w}\n" for w in warnings)
    # the file left at the minted path
    if exp["file"] is None:
        assert not os.path.lexists(minted)
    elif spec == "symlink":
        assert minted.is_symlink() and target.read_bytes().decode("utf-8") == exp["file"]
    elif spec == "dir":
        assert minted.is_dir()
    else:
        assert minted.read_bytes() == exp["file"].encode("utf-8")
        assert f"{stat.S_IMODE(minted.lstat().st_mode):o}" == exp["mode"]
    # a path this run did not mint is never touched
    assert other.read_bytes().decode("utf-8") == (GOOD if spec in ("missing", "dir", "symlink") else spec)
    assert f"{stat.S_IMODE(other.stat().st_mode):o}" == "644"


# --------------------------------------------------------------------------- #
# Properties of the branch beyond the upstream table
# --------------------------------------------------------------------------- #
def test_good_file_is_redacted_in_place_with_mode_0600(tmp_path):
    minted, _other, _target = setup_case(tmp_path, "x", GOOD)
    inode = minted.stat().st_ino
    code, rec, err = claude(tmp_path, fill(six("APPROVE"), tmp_path))
    assert (code, err) == (0, "")
    data = minted.read_bytes()
    assert KEY.encode() not in data and b"--- redacted credential at line 6 ---" in data
    assert stat.S_IMODE(minted.stat().st_mode) == 0o600
    assert minted.stat().st_ino != inode  # replaced by rename, not rewritten
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [MINTED_NAME, OTHER_NAME, "target.txt"])  # no temp file left behind
    assert (rec["verdict"], rec["confidence"], rec["summary"]) == ("APPROVE", "HIGH", "one secret in config")
    assert [f["file"] for f in rec["findings"]] == ["app/util.py"]  # the first header line was redacted


@pytest.mark.parametrize("mask", [0o022, 0o000, 0o077])
def test_mode_is_0600_whatever_the_umask(tmp_path, mask):
    setup_case(tmp_path, "x", GOOD)
    old = os.umask(mask)
    try:
        claude(tmp_path, fill(six("APPROVE"), tmp_path))
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / MINTED_NAME).stat().st_mode) == 0o600


@pytest.mark.parametrize("template", [six(KEY), six("APPROVE", path="{DIR}/" + KEY), six(f"X {GH}", path="")],
                         ids=["verdict", "path", "non-enum"])
def test_no_diagnostic_echoes_a_credential(tmp_path, template):
    """Every reviewer-controlled value a warning shows is redacted first."""
    setup_case(tmp_path, "x", GOOD)
    _code, rec, err = claude(tmp_path, fill(template, tmp_path))
    assert rec["verdict"] in ("ERROR", "UNKNOWN") and rec["warnings"]
    dumped = json.dumps(rec)
    for secret in (KEY, GH):
        assert secret not in err and secret not in dumped


def test_foreign_path_warning_shows_the_path_redacted(tmp_path):
    _code, rec, err = claude(tmp_path, six("APPROVE", path=f"/srv/{KEY}/x.txt"))
    assert rec["warnings"] == [
        "returned an unexpected fenced path (--- redacted credential at line 1 ---) "
        "\u2014 discarding it and failing the slot"]
    assert rec["summary"] == v.CLAUDE_FOREIGN_PATH and KEY not in err


def test_control_characters_in_a_shown_path_are_escaped(tmp_path):
    _code, rec, _err = claude(tmp_path, six("APPROVE", path="/x\x1b[2J\x07.txt"))
    assert rec["warnings"][0] == ("returned an unexpected fenced path (/x\\x1b[2J\\x07.txt) "
                                  "\u2014 discarding it and failing the slot")


@pytest.mark.parametrize("where,first", [
    ("read", "redaction of {P} failed \u2014 truncating"),
    ("install", "cannot install redacted {P} \u2014 truncating"),
])
@pytest.mark.parametrize("truncates", [True, False])
def test_redaction_failure_truncates_removes_and_fails_the_slot(tmp_path, monkeypatch, where, first, truncates):
    minted, *_ = setup_case(tmp_path, "x", GOOD)

    def boom(*_a, **_k):
        raise OSError("injected")

    monkeypatch.setattr(safefs, "read_regular" if where == "read" else "replace", boom)
    seen: list[bytes] = []
    real_truncate = fenced_file._truncate

    def truncate(name):
        seen.append(Path(name).read_bytes())
        return real_truncate(name) if truncates else False

    monkeypatch.setattr(fenced_file, "_truncate", truncate)
    _code, rec, err = claude(tmp_path, fill(six("APPROVE", "HIGH"), tmp_path))
    p = str(minted)
    second = (f"{p} truncated after a redaction failure \u2014 failing the slot" if truncates
              else f"cannot truncate {p} \u2014 RAW output may remain on disk")
    assert rec["warnings"] == [first.replace("{P}", p), second]
    assert (rec["verdict"], rec["summary"], rec["findings_text"], rec["fenced_output_path"]) == (
        "ERROR", v.CLAUDE_UNSANITIZED, "", "")
    assert rec["confidence"] == "HIGH"  # the returned confidence is not touched
    assert not minted.exists() and seen  # truncation was attempted on the file, then it went
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []
    assert KEY not in err


def test_real_truncation_empties_the_file_before_removal(tmp_path):
    minted, *_ = setup_case(tmp_path, "x", GOOD)
    assert fenced_file._truncate(str(minted)) and minted.read_bytes() == b""


def test_a_symlink_swapped_in_after_the_check_is_not_followed(tmp_path, monkeypatch):
    minted, _other, target = setup_case(tmp_path, "x", GOOD)
    monkeypatch.setattr(fenced_file, "regular", lambda _p: True)
    minted.unlink()
    minted.symlink_to(target)
    _code, rec, _err = claude(tmp_path, fill(six("APPROVE"), tmp_path))
    assert rec["verdict"] == "ERROR" and rec["summary"] == v.CLAUDE_UNSANITIZED
    assert target.read_bytes().decode("utf-8") == GOOD  # neither redacted nor truncated through the link
    assert not os.path.lexists(minted)


def test_fifo_at_minted_path_does_not_block(tmp_path):
    os.mkfifo(tmp_path / MINTED_NAME)
    _code, rec, _err = claude(tmp_path, six("APPROVE", path=str(tmp_path / MINTED_NAME)))
    assert rec["summary"] == v.CLAUDE_UNREADABLE
    assert fenced_file.sanitize(str(tmp_path / MINTED_NAME).encode()).content is None


def test_without_minted_path_a_claude_return_parses_like_any_other(tmp_path):
    minted, *_ = setup_case(tmp_path, "x", GOOD)
    text = fill(six("APPROVE", "LOW", summary=f"s {KEY}"), tmp_path)
    _code, rec, err = run(["--from-layer2", "--reviewer", "claude"], text)
    _code, plain, _ = run(["--from-layer2", "--reviewer", "gemini"], text)
    assert (rec["verdict"], rec["confidence"], rec["summary"]) == ("APPROVE", "LOW", f"s {KEY}")
    assert {k: x for k, x in rec.items() if k != "reviewer"} == {k: x for k, x in plain.items() if k != "reviewer"}
    assert err == "" and minted.read_text("utf-8") == GOOD
    assert stat.S_IMODE(minted.stat().st_mode) == 0o644


@pytest.mark.parametrize("args", [
    ["--from-layer2", "--minted-path", "/tmp/x.txt"],
    ["--from-layer2", "--reviewer", "gemini", "--minted-path", "/tmp/x.txt"],
    ["--reviewer", "claude", "--minted-path", "/tmp/x.txt"],
    ["--jsonl", "--from-layer2", "--reviewer", "claude", "--minted-path", "/tmp/x.txt"],
    ["--from-layer2", "--reviewer", "claude", "--minted-path", ""],
])
def test_minted_path_usage_errors(args):
    code, out, err = run_filter("parse-verdict", args, b"verdict=APPROVE\n")
    assert code == 2 and out == b""
    assert err.startswith("council-parse-verdict: ") and "--minted-path" in err


def test_hardened_caps_file_derived_fields(tmp_path):
    body = ["Verdict: APPROVE", "Findings:"] + [f"- [P3] f{i}.py:1 \u2014 n" for i in range(250)]
    setup_case(tmp_path, "x", fenced(*body, "findings_block_end", "Summary: " + "s" * 600))
    args = ["--from-layer2", "--hardened", "--reviewer", "claude", "--minted-path", str(tmp_path / MINTED_NAME)]
    _code, rec, _err = run(args, fill(six("APPROVE"), tmp_path))
    assert len(rec["summary"]) == 500
    assert rec["findings_text"].endswith(v.TRUNCATED_MARKER.decode())
    assert rec["findings_text"].count("\n") == 200


# --------------------------------------------------------------------------- #
# The pure pieces
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize("returned,minted,regular,branch", [
    (b"/t/a.txt", b"/t/a.txt", True, "minted"),
    (b"/t/a.txt", b"/t/a.txt", False, "unusable"),
    (b"/t/a.txt", b"/t/a.tx", True, "foreign"),
    (b"/t/a.txt ", b"/t/a.txt", True, "foreign"),  # one byte more
    (b"", b"/t/a.txt", True, "empty"),
])
def test_path_branch(returned, minted, regular, branch):
    asked: list[bytes] = []

    def check(p: bytes) -> bool:
        asked.append(p)
        return regular

    assert v.claude_path_branch(returned, minted, check) == branch
    assert asked == ([returned] if branch in ("minted", "unusable") else [])


@pytest.mark.parametrize("data,verdict,confidence,summary,findings", [
    (b"--- begin council-output:claude\nVerdict: A\nConfidence: C\nSummary: S\n--- end council-output:claude\n", b"A", b"C", b"S", b""),
    (b"--- begin council-output:claude-x\nVerdict: A\n", b"A", b"", b"", b""),  # prefix match
    (b"-- begin council-output:claude\nVerdict: A\n", b"", b"", b"", b""),  # one dash short
    (b" --- begin council-output:claude\nVerdict: A\n", b"", b"", b"", b""),  # anchored
    (b"--- begin council-output:gemini\nVerdict: A\n", b"", b"", b"", b""),
    (b"--- begin council-output:claude\nFindings:\na\nFindings:\nb\nSummary: x\nc\n", b"", b"", b"x", b"a\nb"),
    (b"--- begin council-output:claude\nFindings: inline\na\n\n\n", b"", b"", b"", b"a"),
    (b"--- begin council-output:claude\nFindings:\nSummary: only\n", b"", b"", b"only", b""),
    (b"Findings:\na\n--- begin council-output:claude\nb\n", b"", b"", b"", b""),  # Findings outside the fence
])
def test_parse_claude_fenced(data, verdict, confidence, summary, findings):
    assert v.parse_claude_fenced(data) == v.ClaudeFenced(verdict, confidence, summary, findings)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from([
    "--- begin council-output:claude", "--- end council-output:claude", "Verdict: APPROVE",
    "Confidence: HIGH", "Summary: s", "Findings:", "x", "",
]), max_size=25))
def test_fenced_parse_properties(lines):
    data = "\n".join(lines).encode()
    f = v.parse_claude_fenced(data)
    got = f.findings.split(b"\n") if f.findings else []
    # findings are a subsequence of the file's lines and never contain the last Summary line
    assert all(line in lines for line in (g.decode() for g in got))
    assert not any(line.startswith(b"--- ") for line in got)
    assert f.verdict in (b"", b"APPROVE")
    # nothing outside a fence counts: strip every fence and nothing is found
    outside = v.parse_claude_fenced(data.replace(b"--- begin", b"xx begin"))
    assert outside == v.ClaudeFenced(b"", b"", b"", b"")


@settings(max_examples=100, deadline=None)
@given(st.binary(max_size=200), st.sampled_from([b"", b"/m.txt", b"/o.txt"]))
def test_integrity_never_leaves_a_vote_without_corroboration(body, path):
    """Whatever the return, the slot only keeps a vote when the file says the same."""
    ret = b"verdict=APPROVE\nfenced_output_path=" + path + b"\n" + body
    l2 = v.extract_layer2(ret)
    file_text = b"--- begin council-output:claude\nVerdict: REVISE\n"
    out = v.coerce_layer2(v.claude_integrity(
        l2, b"/m.txt", regular=lambda p: p == b"/m.txt",
        sanitize=lambda p: v.Sanitized(file_text)))
    assert out.verdict == b"ERROR" and out.fenced_path == b""
