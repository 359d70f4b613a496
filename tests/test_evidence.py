"""The evidence check: quotes verified, lines re-anchored, claims that do not check out.

Repositories and answers are built here: quotes exact, within ±3, shifted by 5-200
lines, repeated, decorated (diff prefix, backticks, ellipsis, line numbers, fences),
fabricated, in missing, deleted or renamed files, past the end, and N/A.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import orjson
import pytest

from council_filters.consolidate import evidence as ev
from council_filters.consolidate.finding import SourceReader

from conftest import git, run_filter


def numbered(n: int, offset: int = 0) -> str:
    """A Python file of ``n`` small functions; function k sits at lines 2k+1..2k+2."""
    return "".join(f"def handler_{k + offset}(request):\n    return lookup({k + offset}, request)\n"
                   for k in range(n))


def claim(text: str, line: int | None, quote: str | None, path: str = "app.py") -> ev.Evidence:
    files = ev.in_memory({path: text})
    return ev.check_all([ev.Claim(path, line, quote)], files)[0]


# --------------------------------------------------------------------------- #
# The pure core.
# --------------------------------------------------------------------------- #
def test_exact_quote_at_the_cited_line_is_verified():
    e = claim(numbered(20), 9, "return lookup(4, request)")
    assert (e.status, e.line, e.cited_line) == ("verified", 10, 9)
    e = claim(numbered(20), 10, "return lookup(4, request)")
    assert (e.status, e.line, e.cited_line, e.reason) == ("verified", 10, None, None)


@pytest.mark.parametrize("delta", [-3, -2, -1, 1, 2, 3])
def test_quote_within_three_lines_is_verified_and_the_line_moves(delta):
    e = claim(numbered(30), 20 + delta, "return lookup(9, request)")
    assert e.status == "verified" and e.line == 20 and e.cited_line == 20 + delta


@pytest.mark.parametrize("shift", [5, 6, 17, 64, 123, 200])
@pytest.mark.parametrize("direction", [1, -1])
def test_shifted_quote_is_re_anchored(shift, direction):
    text = numbered(200)
    true_line = 202  # "return lookup(100, request)"
    cited = true_line + direction * shift
    e = claim(text, cited, "return lookup(100, request)")
    assert e.status == "re-anchored" and e.line == true_line and e.cited_line == cited


def test_repeated_quote_takes_the_occurrence_nearest_the_cited_line():
    clear = "    cache.clear()\n"
    body = "x = 1\n" * 3 + clear + "y = 2\n" * 40 + clear + "z\n" * 40
    # occurrences at lines 4 and 45
    assert claim(body, 30, "cache.clear()").line == 45
    assert claim(body, 20, "cache.clear()").line == 4
    assert claim(body, 20, "cache.clear()").status == "re-anchored"
    near = claim(body, 47, "cache.clear()")
    assert near.status == "verified" and near.line == 45


@pytest.mark.parametrize("quote", [
    "`return lookup(7, request)`",
    '"return lookup(7, request)"',
    "\u201creturn lookup(7, request)\u201d",
    "+    return lookup(7, request)",
    " +return lookup(7, request)".strip(),
    "16:     return lookup(7, request)",
    "L16: return lookup(7, request)",
    "16 | return lookup(7, request)",
    "return   lookup( 7,request )",
    "return lookup(…, request)",
    "return lookup(7...",
    "```python\nreturn lookup(7, request)\n```",
    "def handler_7(request):\n    return lookup(7, request)",
    "+def handler_7(request):\n+    return lookup(7, request)",
    "-def handler_old(request):\n+def handler_7(request):\n+    return lookup(7, request)",
    "def handler_7(request):\n...\n    return lookup(8, request)",
])
def test_decorated_quotes_are_found(quote):
    e = claim(numbered(40), 15, quote)
    assert e.status == "verified", (quote, e)
    assert e.line in (14, 15, 16)


@pytest.mark.parametrize("quote", [
    r'"query = \"SELECT * FROM t WHERE name = \'\" + name + \"\'\""',
    r"'query = \"SELECT * FROM t WHERE name = \'\" + name + \"\'\"'",
    r'query = \"SELECT * FROM t WHERE name = \'\" + name + \"\'\"',
    "query = \\\"SELECT * FROM t WHERE name = '\\\" + name + \\\"'\\",  # last quote taken off
])
def test_a_quote_written_as_a_string_literal_is_found(quote):
    text = numbered(10) + "query = \"SELECT * FROM t WHERE name = '\" + name + \"'\"\n"
    e = claim(text, 21, quote)
    assert e.status == "verified" and e.line == 21, (quote, e)
    e = claim(text, 21, quote.replace("name = ", "id = "))  # escaped, but not in the file
    assert e.status == "unverified"


def test_a_yaml_list_item_is_not_taken_for_a_removed_line():
    text = "steps:\n  - run: make test\n  - run: make lint\n"
    e = claim(text, 3, "- run: make lint", path="ci.yml")
    assert e.status == "verified" and e.line == 3


@pytest.mark.parametrize("quote", ["eval(request.body)", "return lookup(7, response)",
                                   "def handler_7(request, extra):"])
def test_fabricated_quote_is_unverified(quote):
    e = claim(numbered(40), 15, quote)
    assert e.status == "unverified" and e.reason == "the quote is not in the file"
    assert e.line == 15 and e.cited_line is None


def test_line_past_the_end():
    e = claim(numbered(10), 500, "eval(x)")
    assert e.status == "unverified" and "past the end" in (e.reason or "")
    e = claim(numbered(10), 500, None)
    assert e.status == "unverified" and "past the end" in (e.reason or "")
    e = claim(numbered(10), 500, "return lookup(3, request)")  # the quote saves it
    assert e.status == "re-anchored" and e.line == 8 and e.cited_line == 500


@pytest.mark.parametrize("quote,reason", [
    ("N/A — the problem is the missing test file", "N/A: the problem is the missing test file"),
    ("N/A", "N/A"), ("n/a: design-level", "N/A: design-level"), ('"N/A"', "N/A"),
    (None, "no quote given"), ("   ", "no quote given"),
])
def test_no_quote(quote, reason):
    e = claim(numbered(10), 3, quote)
    assert e.status == "no-quote" and e.reason == reason


def test_missing_file_and_no_file():
    files = ev.in_memory({"a.py": "x = 1\n"})
    out = ev.check_all([ev.Claim("b.py", 1, "x = 1"), ev.Claim(None, None, "x = 1")], files)
    assert out[0].status == "unverified" and "no such file" in (out[0].reason or "")
    assert out[1].status == "no-quote" and out[1].reason == "names no file"


def test_a_short_quote_does_not_move_a_finding():
    e = claim(numbered(40), 70, "x)")
    assert e.status == "unverified"


def test_no_cited_line_places_the_finding_at_the_quote():
    e = claim(numbered(40), None, "return lookup(12, request)")
    assert e.status == "verified" and e.line == 26


def test_columns_of_a_verified_quote():
    e = claim("    value = compute(a, b)  # note\n", 1, "compute(a, b)")
    assert e.columns == (13, 26)


def test_canonical_quote_ignores_decoration():
    forms = ["`return lookup(7, request)`", "+    return lookup(7, request)",
             "16: return lookup(7, request)", "return  lookup(7,request)"]
    assert len({ev.canonical_quote(q) for q in forms}) == 1
    assert ev.canonical_quote("N/A — none") is None


# --------------------------------------------------------------------------- #
# Against a repository, through council-consolidate.
# --------------------------------------------------------------------------- #
def commit(repo: Path, message: str = "c") -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    r = tmp_path / "repo"
    r.mkdir()
    git(r, "init", "-q", "-b", "main")
    (r / "app.py").write_text(numbered(150))
    (r / "old.py").write_text("def gone():\n    return 1\n")
    (r / "moved.py").write_text("def moving():\n    return 2\n")
    (r / "data.bin").write_bytes(b"\x00\x01binary\x00")
    (r / "big.txt").write_text("word " * (2 * 1024 * 1024))  # 10 MiB
    os.symlink("/etc/hostname", r / "escape")
    os.symlink("app.py", r / "alias.py")
    commit(r, "base")
    git(r, "branch", "base")
    (r / "old.py").unlink()
    git(r, "mv", "moved.py", "renamed.py")
    text = numbered(150)
    (r / "app.py").write_text("import os\n" * 40 + text + "def added():\n    return 99\n")
    commit(r, "change")
    return r


def F(file, line, quote, summary, origin="claude", **extra):  # noqa: N802 - table constructor
    rec = {"kind": "finding", "origin": origin, "file": file, "line": line,
           "summary": summary, "severity": "medium", **extra}
    if quote is not None:
        rec["evidence"] = quote
    return rec


CASES = [
    # (finding, status, line, cited_line)
    (F("app.py", 41 + 20, "return lookup(10, request)", "exact"), "verified", 62, 61),
    (F("app.py", 62, "return lookup(10, request)", "exact2"), "verified", 62, None),
    (F("app.py", 22, "return lookup(10, request)", "shifted 40"), "re-anchored", 62, 22),
    (F("app.py", 262, "return lookup(10, request)", "shifted 200"), "re-anchored", 62, 262),
    (F("app.py", 62, "`+    return lookup(11, request)`", "decorated"), "verified", 64, 62),
    (F("app.py", 60, "sql = 'SELECT ' + user", "fabricated"), "unverified", 60, None),
    (F("app.py", 9000, "eval(x)", "past end"), "unverified", 9000, None),
    (F("nothere.py", 3, "x = 1", "missing"), "unverified", 3, None),
    (F("old.py", 1, "def gone():", "deleted"), "unverified", 1, None),
    (F("moved.py", 1, "def moving():", "renamed"), "unverified", 1, None),
    (F("renamed.py", 1, "def moving():", "at the new name"), "verified", 1, None),
    (F("app.py", 70, "N/A — about the module as a whole", "na"), "no-quote", 70, None),
    (F("app.py", 70, None, "no evidence"), "no-quote", 70, None),
    (F("data.bin", 1, "binary", "binary"), "unverified", 1, None),
    (F("big.txt", 1, "word", "huge"), "unverified", 1, None),
    (F("escape", 1, "localhost", "symlink out"), "unverified", 1, None),
    (F("alias.py", 62, "return lookup(10, request)", "symlink in"), "verified", 62, None),
    (F("../repo/app.py", 62, "return lookup(10, request)", "dotdot"), "unverified", 62, None),
    (F("/etc/passwd", 1, "root", "absolute"), "unverified", 1, None),
]


def members_of(doc: dict) -> dict[str, dict]:
    return {m["text"]: m for f in doc["findings"] for m in f["members"]}


def run_json(repo: Path, recs: list[dict], *extra: str) -> tuple[int, dict, str]:
    data = b"".join(orjson.dumps(r) + b"\n" for r in recs)
    res = run_filter("consolidate", ["--repo", str(repo), "--format", "json", *extra], data)
    return res.code, json.loads(res.out) if res.out else {}, res.err


def test_each_claim_lands_in_its_status(repo):
    code, doc, err = run_json(repo, [c[0] for c in CASES], "--base", "base")
    assert code == 0, err
    got = members_of(doc)
    for rec, status, line, cited in CASES:
        m = got[rec["summary"]]
        assert (m["evidence_status"], m["line"], m.get("cited_line")) == (status, line, cited), \
            (rec["summary"], m)
        assert "evidence_reason" in m
    assert "deleted by the change" in got["deleted"]["evidence_reason"]
    assert "renamed by the change to renamed.py" in got["renamed"]["evidence_reason"]
    assert "binary" in got["binary"]["evidence_reason"]
    assert "MiB" in got["huge"]["evidence_reason"]
    assert "symlink" in got["symlink out"]["evidence_reason"]
    assert "'..'" in got["dotdot"]["evidence_reason"]
    assert doc["counts"]["evidence"] == {"verified": 5, "re-anchored": 2, "unverified": 10,
                                         "no-quote": 2}


def test_findings_format_carries_the_fields(repo):
    data = b"".join(orjson.dumps(c[0]) + b"\n" for c in CASES[:3])
    res = run_filter("consolidate", ["--repo", str(repo), "--format", "findings"], data)
    recs = [json.loads(x) for x in res.out.splitlines()]
    for r in recs:
        for m in r["members"]:
            assert m["evidence_status"] in ev.STATUSES and "evidence_reason" in m
        assert r["evidence_status"] in ev.STATUSES
    moved = next(r for r in recs if r["summary"] == "shifted 40")
    assert moved["line"] == 62 and moved["cited_line"] == 22


def test_without_repo_no_check_runs(repo):
    data = orjson.dumps(CASES[0][0]) + b"\n"
    res = run_filter("consolidate", ["--format", "json"], data, cwd=repo)
    doc = json.loads(res.out)
    assert "evidence_status" not in doc["findings"][0]["members"][0]


@pytest.mark.parametrize("fmt", ["json", "sarif", "codequality", "rdjsonl", "markdown"])
def test_results_are_the_same_for_any_input_order(repo, fmt):
    recs = [c[0] for c in CASES]
    outs = set()
    for seed in range(3):
        random.Random(seed).shuffle(recs)
        data = b"".join(orjson.dumps(r) + b"\n" for r in recs)
        res = run_filter("consolidate", ["--repo", str(repo), "--format", fmt, "--base", "base",
                                         "--date", "2026-01-01"], data)
        assert res.code == 0, res.err
        outs.add(res.out)
    assert len(outs) == 1


def test_worktree_snapshot_is_read_at_the_given_revision(repo):
    (repo / "app.py").write_text("changed in the work tree only\n")
    data = orjson.dumps(CASES[1][0]) + b"\n"
    code, doc, err = run_json(repo, [CASES[1][0]], "--rev", "HEAD")
    assert members_of(doc)["exact2"]["evidence_status"] == "verified"
    code, doc, err = run_json(repo, [CASES[1][0]], "--rev", "base")
    assert members_of(doc)["exact2"]["evidence_status"] == "re-anchored"  # 40 lines earlier
    res = run_filter("consolidate", ["--repo", str(repo), "--rev", "--exec=x"], data)
    assert res.code == 2
    res = run_filter("consolidate", ["--repo", str(repo), "--rev", "nosuchrev"], data)
    assert res.code == 2 and "nosuchrev" in res.err


def test_repository_config_cannot_run_anything(repo, tmp_path):
    marker = tmp_path / "ran"
    hook = tmp_path / "hook.sh"
    hook.write_text(f"#!/bin/sh\ntouch {marker}\ncat \"$@\"\n")
    hook.chmod(0o755)
    git(repo, "config", "core.fsmonitor", str(hook))
    git(repo, "config", "diff.evil.textconv", str(hook))
    git(repo, "config", "filter.evil.smudge", str(hook))
    git(repo, "config", "core.pager", str(hook))
    (repo / ".git" / "info" / "attributes").write_text("* diff=evil filter=evil\n")
    hooks = repo / ".git" / "hooks"
    hooks.mkdir(exist_ok=True)
    for name in ("post-checkout", "reference-transaction", "pre-auto-gc"):
        (hooks / name).write_text(hook.read_text())
        (hooks / name).chmod(0o755)
    code, doc, err = run_json(repo, [c[0] for c in CASES], "--base", "base")
    assert code == 0, err
    assert not marker.exists()
    assert members_of(doc)["exact2"]["evidence_status"] == "verified"


def test_each_file_is_read_once(repo, monkeypatch):
    from council_filters.consolidate import revision

    calls: list[list[str]] = []
    real = revision.RevisionFiles.read

    def spy(self, paths):  # type: ignore[no-untyped-def]
        calls.append(list(paths))
        return real(self, paths)

    monkeypatch.setattr(revision.RevisionFiles, "read", spy)
    recs = [F("app.py", k, f"return lookup({k}, request)", f"s{k}") for k in range(1, 60)]
    recs += [F("renamed.py", 1, "def moving():", "r")]
    data = b"".join(orjson.dumps(r) + b"\n" for r in recs)
    res = run_filter("consolidate", ["--repo", str(repo), "--format", "rdjsonl"], data)
    assert res.code == 0 and len(res.out.splitlines()) == len(recs)
    read = [p for call in calls for p in call]
    assert sorted(read) == sorted(set(read)) and set(read) == {"app.py", "renamed.py"}


def test_source_reader_reasons(repo):
    reader = SourceReader(str(repo))
    reader.prefetch(["app.py", "data.bin", "nothere.py", "escape", ".git/config"])
    assert reader.text("app.py").lines is not None
    assert reader.text("data.bin").reason == "a binary file"
    assert "no such file" in (reader.text("nothere.py").reason or "")
    assert "symlink" in (reader.text("escape").reason or "")
    assert ".git" in (reader.text(".git/config").reason or "")


def test_a_secret_in_the_file_is_redacted_before_matching(tmp_path):
    r = tmp_path / "r"
    r.mkdir()
    git(r, "init", "-q", "-b", "main")
    key = "AKIA" + "Q" * 16
    (r / "cfg.py").write_text(f"ACCESS = '{key}'\n")
    commit(r)
    reader = SourceReader(str(r))
    assert key not in "\n".join(reader.text("cfg.py").lines or [])


@pytest.mark.parametrize("quote", [
    "app.py:16: return lookup(7, request)",   # a path:line prefix
    "def handler_7(request): return lookup(7, request)",  # two lines joined into one
])
def test_more_decorations_reviewers_use(quote):
    e = claim(numbered(40), 15, quote)
    assert e.status == "verified" and e.line in (15, 16), e


def test_a_quote_joining_lines_far_away_is_re_anchored():
    e = claim(numbered(40), 70, "def handler_2(request): return lookup(2, request)")
    assert e.status == "re-anchored" and e.line == 5 and e.cited_line == 70


def test_a_moved_range_moves_whole(repo):
    rec = F("app.py", 22, "return lookup(10, request)", "range", end_line=25)
    code, doc, err = run_json(repo, [rec])
    f = doc["findings"][0]
    assert (f["line"], f["end_line"], f["cited_line"]) == (62, 65, 22)


def test_a_quote_followed_by_a_remark():
    e = claim(numbered(40), 16, '"return lookup(7, request)" (the lookup key is unchecked)')
    assert e.status == "verified" and e.line == 16
    e = claim(numbered(40), 16, "`return lookup(7, request)` — see the caller")
    assert e.status == "verified" and e.line == 16
