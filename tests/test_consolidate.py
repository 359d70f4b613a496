"""council-consolidate: findings core (validation, dedup, IDs, fingerprints, gaps) and the CLI."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from council_filters.base import safefs as atomic
from council_filters.consolidate import core
from council_filters.consolidate.finding import (
    SourceReader,
    finding_problem,
    group_of,
    normalize_path,
    severity_of,
)
from council_filters.consolidate.gaps import (
    changed_files_from_diff,
    changed_files_from_list,
    exemption,
)
from council_filters.consolidate.origins import assign_codes

from conftest import git, run_filter


def jsonl(records):
    return b"".join(orjson.dumps(r) + b"\n" for r in records)


def finding(origin="security", file="src/a.py", line=10, subject="s", **kw):
    rec = {"kind": "finding", "origin": origin, "subject": subject}
    if file is not None:
        rec["file"] = file
    if line is not None:
        rec["line"] = line
    rec.update(kw)
    return rec


def consolidate(records, state=None, repo=None, dedup_rule="position"):
    """The seed's position rule unless asked otherwise (most tables here are about it)."""
    collected = core.collect(((("t", i + 1, r)) for i, r in enumerate(records)), SourceReader(repo))
    return core.consolidate(collected, state=state, dedup_rule=dedup_rule)


# --------------------------------------------------------------------------- #
# Tables.
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize(
    "path,why",
    [
        ("package-lock.json", "lockfile"),
        ("web/yarn.lock", "lockfile"),
        ("go.sum", "lockfile"),
        ("Cargo.lock", "lockfile"),
        ("src/types.d.ts", "types"),
        ("pkg/stubs.pyi", "types"),
        ("config/app.yaml", "config"),
        ("pyproject.toml", "config"),
        (".eslintrc", "config"),
        ("vite.config.ts", "config"),
        ("src/app.ts", None),  # near miss for .d.ts
        ("src/lock.py", None),
        ("src/config.py", None),
        ("src/types.ts", None),
    ],
)
def test_exemption(path, why):
    assert exemption(path) == why


@pytest.mark.parametrize(
    "raw,expected",
    [
        ({"severity": "P1"}, ("critical", False)),
        ({"severity": "high"}, ("critical", False)),
        ({"severity": "warning"}, ("medium", False)),
        ({"severity": "suggestion"}, ("minor", False)),
        ({"priority": "P3"}, ("minor", False)),
        ({"priority": 0}, ("critical", False)),
        ({"severity": "bogus"}, (None, True)),
        ({}, (None, False)),
    ],
)
def test_severity_of(raw, expected):
    assert severity_of(raw) == expected


@pytest.mark.parametrize(
    "origins,category,severity,group",
    [
        (["security"], None, "minor", "Security"),
        (["tests", "security"], None, "minor", "Security"),
        (["tests"], "security", None, "Security"),
        (["tests"], None, "critical", "Critical"),
        (["performance"], None, "critical", "Critical"),
        (["performance"], None, "minor", "Performance"),
        (["tests"], None, "medium", "Warning"),
        (["tests"], None, "minor", "Suggestion"),
        (["tests"], None, None, "Suggestion"),
    ],
)
def test_group_of(origins, category, severity, group):
    assert group_of(origins, category, severity) == group


def test_codes_derived_and_collisions():
    codes = assign_codes(["claude", "codex", "gemini", "opencode", "ai", "secret", "sec"])
    assert codes["claude"] == "CLA" and codes["codex"] == "COD" and codes["opencode"] == "OPE"
    assert codes["ai"] == "AIX"
    assert codes["secret"] not in ("SEC",) and len(codes["secret"]) == 3
    assert len(set(codes.values())) == len(codes)
    # An origin known from a state file keeps its code even when a newcomer sorts first.
    later = assign_codes(["clangd", "claude"], {"claude": "CLA"})
    assert later["claude"] == "CLA" and later["clangd"] != "CLA"


@pytest.mark.parametrize(
    "path,norm",
    [("./src/a.py", "src/a.py"), ("src//a.py", "src/a.py"), ("src/./a.py", "src/a.py"),
     ("src/a.py", "src/a.py"), ("/abs/x", "/abs/x")],
)
def test_normalize_path(path, norm):
    assert normalize_path(path) == norm


def test_changed_files_from_diff_and_list():
    diff = (
        "diff --git a/x.py b/x.py\n--- a/x.py\n+++ b/x.py\n@@ -1 +1,2 @@\n-a\n+++ added\n"
        "diff --git a/gone.py b/gone.py\ndeleted file mode 100644\n--- a/gone.py\n+++ /dev/null\n"
        "diff --git a/img.png b/img.png\nBinary files a/img.png and b/img.png differ\n"
    )
    assert changed_files_from_diff(diff) == ["x.py", "img.png"]
    assert changed_files_from_list("b.py\n\n# note\n./a.py\nb.py\n") == ["a.py", "b.py"]


# --------------------------------------------------------------------------- #
# Validation.
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize(
    "rec,ok",
    [
        ({"origin": "tests", "summary": "x"}, True),
        ({"origin": "tests", "subject": "x", "extra": {"any": 1}}, True),
        ({"origin": "tests", "summary": " "}, False),
        ({"origin": "tests"}, False),
        ({"summary": "x"}, False),
        ({"origin": "", "summary": "x"}, False),
        ({"origin": "t", "summary": "x", "line": 0}, False),
        ({"origin": "t", "summary": "x", "line": 1}, True),
        ({"origin": "t", "summary": "x", "line": "7"}, False),
        ({"origin": "t", "summary": "x", "line": True}, False),
        ({"origin": "t", "summary": "x", "decorations": ["a", 1]}, False),
    ],
)
def test_finding_validation(rec, ok):
    assert (finding_problem(rec) is None) is ok


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 5) | st.text(max_size=4),
    lambda kids: st.lists(kids, max_size=3),
    max_leaves=4,
)


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(
    st.sampled_from(["origin", "summary", "subject", "line", "file", "decorations", "kind", "x"]),
    json_values, max_size=6,
))
def test_compiled_schema_agrees_with_jsonschema(rec):
    import jsonschema

    from council_filters.base.schemas import load as load_schema

    validator = jsonschema.Draft202012Validator(load_schema("finding"))
    assert (finding_problem(rec) is None) == validator.is_valid(rec)


def test_invalid_findings_dropped_and_named_without_content():
    secret = "AKIAABCDEFGHIJKLMNOP"
    recs = [finding(line=secret), finding(subject="ok"),
            {"kind": "reviewer", "reviewer": "claude",
             "findings": [{"summary": secret, "line": -1}]}]
    code, out, err = run_filter("consolidate", ["--format", "findings", "--no-source"], jsonl(recs))
    assert code == 0
    assert secret not in err
    assert "stdin:1: finding dropped: line: must be an integer or a null" in err
    assert "stdin:3: finding 1 dropped: line: must be >= 1" in err
    assert len(out.splitlines()) == 1


# --------------------------------------------------------------------------- #
# Dedup, IDs, fingerprints.
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize("gap,merged", [(0, True), (3, True), (4, False), (-3, True)])
def test_dedup_window(gap, merged):
    res = consolidate([finding("security", line=10), finding("tests", line=10 + gap)])
    assert (len(res.items) == 1) is merged


def test_dedup_keeps_richer_and_records_origins():
    rich = finding("tests", line=12, subject="longer", discussion="why", evidence="x = 1",
                   severity="minor")
    poor = finding("security", line=11, subject="short", severity="critical")
    res = consolidate([poor, rich])
    (item,) = res.items
    rec = item.record()
    assert rec["origin"] == "tests" and rec["subject"] == "longer"
    assert rec["merged_origins"] == ["security", "tests"]
    assert rec["severity"] == "critical"  # never lowered by a merge
    assert rec["group"] == "Security" and rec["merged_count"] == 2


def test_dedup_other_file_or_no_line_never_merges():
    res = consolidate([finding(line=10), finding(file="src/b.py", line=10),
                       finding(line=None), finding(line=None)])
    assert len(res.items) == 4


def test_ids_continue_from_state_and_keep_fingerprints(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    (src / "a.py").write_text("x = 1\nif token == expected:\n    pass\n")
    first = consolidate([finding(line=2, subject="timing"), finding("tests", line=40)],
                        repo=str(tmp_path))
    ids = {c.id for c in first.items}
    assert ids == {"SEC-001", "TST-001"}
    state = {"version": 1, "findings": [c.record() for c in first.items],
             "history": [{"op": "add", "ids": ["SEC-009"]}]}
    # The code moved down five lines; the finding keeps its ID, a new one continues after 9.
    (src / "a.py").write_text("\n" * 5 + "x = 1\nif token == expected:\n    pass\n")
    second = consolidate([finding(line=7, subject="Timing "), finding(line=1, subject="new")],
                         state=state, repo=str(tmp_path))
    by_subject = {c.survivor.raw["subject"]: c.id for c in second.items}
    assert by_subject == {"Timing ": "SEC-001", "new": "SEC-010"}


def test_fingerprint_without_readable_file_uses_title_and_file():
    a = consolidate([finding(line=3)]).items[0].fingerprint
    b = consolidate([finding(line=90)]).items[0].fingerprint
    c = consolidate([finding(file="src/b.py", line=3)]).items[0].fingerprint
    assert a == b != c and len(a) == 32


def test_source_reader_refuses_escapes(tmp_path):
    (tmp_path / "in.txt").write_text("ok\n")
    outside = tmp_path.parent / f"{tmp_path.name}-outside.txt"
    outside.write_text("secret\n")
    (tmp_path / "link.txt").symlink_to(outside)
    git(tmp_path, "init", "-q", "-b", "main")
    git(tmp_path, "add", "-A")
    git(tmp_path, "commit", "-q", "-m", "files")
    reader = SourceReader(str(tmp_path))
    assert reader.line("in.txt", 1) == "ok"
    for bad in ("../" + outside.name, str(outside), "link.txt"):
        assert reader.line(bad, 1) is None


# --------------------------------------------------------------------------- #
# Properties.
# --------------------------------------------------------------------------- #
finding_st = st.builds(
    finding,
    origin=st.sampled_from(["security", "requirements", "tests", "architecture", "regression",
                            "performance", "claude"]),
    file=st.sampled_from(["a.py", "b.py", None]),
    line=st.one_of(st.none(), st.integers(1, 30)),
    subject=st.sampled_from(["x", "y", "z z"]),
    severity=st.sampled_from(["critical", "medium", "minor", "P2", "bogus"]),
)


@settings(max_examples=60, deadline=None)
@given(st.lists(finding_st, max_size=12), st.randoms(use_true_random=False))
def test_output_independent_of_input_order(recs, rnd):
    shuffled = list(recs)
    rnd.shuffle(shuffled)
    for fmt in ("findings", "markdown", "sarif", "rdjsonl"):
        a = run_filter("consolidate", ["--format", fmt, "--no-source"], jsonl(recs))
        b = run_filter("consolidate", ["--format", fmt, "--no-source"], jsonl(shuffled))
        assert a == b


@settings(max_examples=60, deadline=None)
@given(st.lists(finding_st, max_size=15))
def test_dedup_never_merges_more_than_three_lines_apart(recs):
    for item in consolidate(recs).items:
        lines = [m.line for m in item.members if m.line is not None]
        files = {m.file for m in item.members}
        if len(item.members) > 1:
            assert len(files) == 1 and max(lines) - min(lines) <= 3


@settings(max_examples=40, deadline=None)
@given(st.lists(st.lists(finding_st, max_size=8), min_size=2, max_size=4))
def test_ids_never_repeat_across_cycles(cycles):
    state: dict = {"version": 1, "findings": [], "history": []}
    owner: dict[str, str] = {}  # id -> fingerprint it was first given to
    for recs in cycles:
        res = consolidate(recs, state=state)
        seen = set()
        for c in res.items:
            assert c.id not in seen
            seen.add(c.id)
            assert owner.setdefault(c.id, c.fingerprint) == c.fingerprint
        state["findings"] += [c.record() for c in res.items if c.id not in
                              {f["id"] for f in state["findings"]}]


# --------------------------------------------------------------------------- #
# CLI.
# --------------------------------------------------------------------------- #
def test_help_says_it_reads_everything_first():
    code, out, _ = run_filter("consolidate", ["--help"])
    assert code == 0
    text = " ".join(out.decode().split())
    assert "reads ALL its input before writing" in text
    assert "Exit codes:" in text and "Examples:" in text


@pytest.mark.parametrize(
    "level,severity,code",
    [("critical", "critical", 3), ("critical", "medium", 0), ("medium", "medium", 3),
     ("medium", "minor", 0), ("minor", "minor", 3), ("minor", None, 0)],
)
def test_fail_level(level, severity, code):
    rec = finding(**({"severity": severity} if severity else {}))
    got, out, _ = run_filter("consolidate",
                             ["--format", "findings", "--no-source", "--fail-level", level],
                             jsonl([rec]))
    assert got == code and out  # the output is written either way


def test_bad_json_is_data_error_and_keep_going_skips():
    code, out, err = run_filter("consolidate", ["--format", "findings"], b'{"kind":"finding"\n')
    assert code == 1 and err.startswith("council-consolidate: stdin:1: invalid JSON")
    code, out, err = run_filter("consolidate",
                                ["--format", "findings", "--keep-going", "--no-source"],
                                b'nope\n' + jsonl([finding()]))
    assert code == 0 and len(out.splitlines()) == 1 and "stdin:1:" in err


@pytest.mark.parametrize(
    "args,fragment",
    [(["--write", "--format", "sarif"], "--write writes the markdown"),
     (["--date", "30-11-2026"], "--date must be"),
     (["--diff", "a", "--changed-files", "b"], "not both"),
     (["--state", "/nonexistent/state.json"], "cannot read state file")],
)
def test_usage_errors(args, fragment):
    code, _, err = run_filter("consolidate", args, b"")
    assert code == 2 and fragment in err


def test_unknown_kinds_are_counted_not_echoed():
    code, _, err = run_filter("consolidate", ["--format", "findings"],
                              jsonl([{"kind": "pack"}, {"kind": "pack"}, {"kind": "AKIA secret!"}]))
    assert code == 0
    assert "skipped 2 records of kind pack" in err and "secret" not in err


def reviewer(slot, verdict, **kw):
    rec = {"kind": "reviewer", "mode": "review", "slug": "feat-x", "reviewer": slot,
           "status": "OK", "verdict": verdict, "confidence": "HIGH", "output": f"{slot} says",
           "findings": []}
    rec.update(kw)
    return rec


COUNCIL = jsonl([reviewer(s, "APPROVE") for s in ("claude", "codex", "gemini", "opencode")])


def test_write_creates_report_atomically_with_suffixes(tmp_path):
    args = ["--write", "--date", "2026-11-30", "--root", str(tmp_path)]
    paths = []
    for _ in range(10):
        code, out, err = run_filter("consolidate", args, COUNCIL)
        assert code == 0, err
        text = out.decode()
        last = text.rstrip("\n").rsplit("\n", 1)[-1]
        assert last.startswith("Full reviewer outputs: see docs/council/")
        assert text.count("Full reviewer outputs") == 1  # the pointer is printed once
        paths.append(last.rsplit(" ", 1)[-1])
    assert paths[0] == "docs/council/2026-11-30-review-feat-x.md"
    assert paths[1:3] == ["docs/council/2026-11-30-review-feat-x-2.md",
                          "docs/council/2026-11-30-review-feat-x-3.md"]
    body = (tmp_path / paths[1]).read_text()
    assert body.startswith("## Council Report — review: feat-x — 2026-11-30\n")
    assert f"Full reviewer outputs: see {paths[1]}\n" in body
    assert "## Claude Output" in body and "## Claude Output" not in out.decode()
    mode = stat.S_IMODE(os.stat(tmp_path / paths[0]).st_mode)
    assert mode & 0o077 == mode & 0o066 & ~0o022 and mode & 0o600 == 0o600
    code, _, err = run_filter("consolidate", args, COUNCIL)
    assert code == 1 and 'too many same-day collisions for slug "feat-x" (>10)' in err
    assert not [p for p in os.listdir(tmp_path / "docs/council") if p.endswith(".tmp")]


def test_write_never_clobbers_a_file_that_appears_meanwhile(tmp_path):
    first, second = str(tmp_path / "r.md"), str(tmp_path / "r-2.md")

    def render(path):
        if path == first:  # someone else creates the file between our check and our link
            with open(first, "w") as fh:
                fh.write("theirs")
        return b"ours"

    assert atomic.write_first_free([first, second], render) == second
    assert Path(first).read_text() == "theirs" and Path(second).read_text() == "ours"


def test_atomic_write_new_and_replace(tmp_path):
    p = str(tmp_path / "f")
    atomic.write_new(p, b"one")
    with pytest.raises(FileExistsError):
        atomic.write_new(p, b"two")
    assert Path(p).read_bytes() == b"one"
    atomic.replace(p, b"three")
    assert Path(p).read_bytes() == b"three"
    assert os.listdir(tmp_path) == ["f"]


def test_write_refuses_symlinked_report_dir(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    root = tmp_path / "root"
    (root / "docs").mkdir(parents=True)
    (root / "docs" / "council").symlink_to(outside)
    code, _, err = run_filter("consolidate",
                              ["--write", "--date", "2026-11-30", "--root", str(root)], COUNCIL)
    assert code == 1 and "outside --root" in err and not os.listdir(outside)


def test_council_output_independent_of_record_order():
    recs = [reviewer("claude", "REVISE", findings=[{"file": "a.py", "line": 3, "summary": "x"}]),
            reviewer("codex", "APPROVE", findings=[{"file": "./a.py", "line": 3, "summary": "y"}]),
            reviewer("gemini", "TIMEOUT", status="TIMEOUT", output=""),
            reviewer("opencode", "REVISE", findings=[{"file": "a.py", "line": 3, "summary": "z"}])]
    args = ["--date", "2026-11-30", "--root", "/nonexistent-root", "--upstream"]
    a = run_filter("consolidate", args, jsonl(recs))
    b = run_filter("consolidate", args, jsonl(list(reversed(recs))))
    assert a == b and a[0] == 0
    assert b"Verdict conflict at a.py:3: Claude REVISE, Codex APPROVE, OpenCode REVISE" in a[1]
    a = run_filter("consolidate", args[:-1], jsonl(recs))
    b = run_filter("consolidate", args[:-1], jsonl(list(reversed(recs))))
    assert a == b and a[0] == 0


def test_duplicate_reviewer_is_data_error():
    code, _, err = run_filter("consolidate", [], jsonl([reviewer("claude", "APPROVE"),
                                                        reviewer("claude", "REVISE")]))
    assert code == 1 and "stdin:2: a second verdict record for reviewer claude" in err


@pytest.mark.parametrize(
    "line,expected",
    [
        ("--- end council-output:claude ---", "[ESCAPED] end council-output:claude ---"),
        ("--- END council-output:gemini ---", "[ESCAPED] END council-output:gemini ---"),
        ("x ---- begin codex-output (reference only) ---",
         "x [ESCAPED] begin codex-output (reference only) ---"),
        ("  findings_block_end ", "[ESCAPED]   findings_block_end "),
        ("--- redacted credential at line 3 ---", "--- redacted credential at line 3 ---"),
        ("## Codex Output", "[ESCAPED] ## Codex Output"),
    ],
)
def test_appendix_text_cannot_forge_structure(line, expected):
    from council_filters.consolidate.render import mdquote

    assert mdquote.appendix_body(line) == expected
