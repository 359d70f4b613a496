"""council-pack cores (slug, report path, path checks, truncation, caps) and the text modes."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_pack_repo import Repo, records

from council_filters.base import bytesops, paths, vocab
from council_filters.base.settings import COUNCIL_PATH_CHAR_CAP, COUNCIL_TIMEOUT, IntSetting
from council_filters.pack import core

from conftest import run_filter

# --------------------------------------------------------------------------- #
# Slug: the upstream vectors, near misses, and the invariant.
# --------------------------------------------------------------------------- #
SLUG_VECTORS = [
    (b"feat/add-login", "feat-add-login"),
    (b"What is 2+2?", "what-is-2-2"),
    (
        b"\"TypeError: cannot read property 'x' of undefined\" --paths src/foo.ts,src/bar.ts",
        "typeerror-cannot-read-property-x-of-unde",
    ),
    (b"a---b", "a-b"),
    (b"-x-", "x"),
    ("Ünïcödé Ωmega test".encode(), "n-c-d-mega-test"),
    (b"!!!", "e84c538e7fe25073"),
    (b"", "e3b0c44298fc1c14"),
    (b"2026-05-03-godmodeskill-integration-brainstorm", "2026-05-03-godmodeskill-integration-brai"),
    (b"a" * 40, "a" * 40),
    (b"a" * 39 + b"-b", "a" * 39),  # cut at 40 leaves a trailing dash, which goes
    (b"--", hashlib_hex := "") if False else (b"--", None),
]


@pytest.mark.parametrize(("raw", "expected"), [v for v in SLUG_VECTORS if v[1] is not None])
def test_slug_vectors(raw: bytes, expected: str) -> None:
    assert paths.build_slug(raw) == expected


def test_slug_hash_fallback_is_of_the_original_bytes() -> None:
    import hashlib

    assert paths.build_slug(b"--") == hashlib.sha256(b"--").hexdigest()[:16]
    assert paths.build_slug(b"\xff\xfe") == hashlib.sha256(b"\xff\xfe").hexdigest()[:16]


@settings(max_examples=200)
@given(st.binary(max_size=120))
def test_slug_is_always_valid(raw: bytes) -> None:
    slug = paths.build_slug(raw)
    assert paths.SLUG_RE.match(slug.encode()) or re.fullmatch(r"[0-9a-f]{16}", slug)
    assert len(slug) <= 40


def test_plan_slug_source() -> None:
    assert paths.plan_slug_source("docs/v1.2-plan.md") == b"v1"
    assert paths.plan_slug_source("plans/cache-design.md") == b"cache-design"
    assert paths.plan_slug_source("notes.txt") == b"notes"
    assert paths.text_slug_source("é" * 50) == ("é" * 40).encode()


UPSTREAM_SLUG = os.environ.get("COUNCIL_UPSTREAM_SLUG")


@pytest.mark.skipif(not UPSTREAM_SLUG, reason="set COUNCIL_UPSTREAM_SLUG to the reference script")
@settings(max_examples=60, deadline=None)
@given(
    st.text(
        alphabet=st.characters(blacklist_categories=["Cs"], blacklist_characters="\0"), max_size=90
    )
)
def test_slug_matches_the_reference(text: str) -> None:
    ref = subprocess.run(["bash", str(UPSTREAM_SLUG), text], capture_output=True, check=True)
    # the function is always used as $(build_slug ...), which drops the trailing newline
    assert paths.build_slug(text.encode()) == ref.stdout.decode().rstrip("\n")


# --------------------------------------------------------------------------- #
# Report path.
# --------------------------------------------------------------------------- #
def test_report_path_collisions(tmp_path: Path) -> None:
    d = tmp_path / "docs" / "council"
    d.mkdir(parents=True)
    assert paths.report_path(tmp_path, "review", "x", "2026-01-02") == (
        "docs/council/2026-01-02-review-x.md"
    )
    (d / "2026-01-02-review-x.md").write_text("")
    assert paths.report_path(tmp_path, "review", "x", "2026-01-02").endswith("-review-x-2.md")
    for n in range(2, 10):
        (d / f"2026-01-02-review-x-{n}.md").write_text("")
    assert paths.report_path(tmp_path, "review", "x", "2026-01-02").endswith("-review-x-10.md")
    (d / "2026-01-02-review-x-10.md").mkdir()  # a directory is not a regular file
    assert paths.report_path(tmp_path, "review", "x", "2026-01-02").endswith("-review-x-10.md")
    (d / "2026-01-02-review-x-10.md").rmdir()
    (d / "2026-01-02-review-x-10.md").write_text("")
    with pytest.raises(paths.DataError, match=r'too many same-day collisions for slug "x" \(>10\)'):
        paths.report_path(tmp_path, "review", "x", "2026-01-02")


def test_report_path_cli(tmp_path: Path) -> None:
    code, out, _ = run_filter(
        "pack", ["report-path", "plan", "abc", "--date", "2026-03-04", "--root", str(tmp_path)]
    )
    assert (code, out) == (0, b"docs/council/2026-03-04-plan-abc.md\n")
    code, out, _ = run_filter(
        "pack", ["report-path", "plan", "--date", "2026-03-04", "--root", str(tmp_path)],
        stdin=b"from-stdin\n",
    )
    assert (code, out) == (0, b"docs/council/2026-03-04-plan-from-stdin.md\n")
    code, _, err = run_filter("pack", ["report-path", "plan", "../x", "--date", "2026-03-04"])
    assert code == 1 and "slug must match" in err
    code, _, err = run_filter("pack", ["report-path", "fleet", "x"])
    assert code == 2 and 'unknown mode "fleet"' in err
    code, _, err = run_filter("pack", ["report-path", "plan", "x", "--date", "26-1-2"])
    assert code == 1 and "YYYY-MM-DD" in err


# --------------------------------------------------------------------------- #
# validate_path: five checks in order, hardened extras.
# --------------------------------------------------------------------------- #
@pytest.fixture
def tree(tmp_path: Path) -> Path:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "a.py").write_text("x\n")
    (tmp_path / "real").mkdir()
    (tmp_path / "real" / "b.py").write_text("y\n")
    os.symlink("real", tmp_path / "linked")
    os.symlink("src/a.py", tmp_path / "alias.py")
    os.symlink("missing", tmp_path / "dangling")
    return tmp_path


@pytest.mark.parametrize(
    ("path", "message"),
    [
        ("src/a.py", None),
        ("src", None),  # upstream accepts directories
        ("linked/b.py", None),  # and symlinked parents
        ("", "empty path"),
        ("../etc/passwd", "path traversal not allowed: ../etc/passwd"),
        ("foo..bar", "path traversal not allowed: foo..bar"),
        ("/etc/passwd", "path traversal not allowed: /etc/passwd"),
        ("~root", "path traversal not allowed: ~root"),
        ("src/a b.py", "invalid characters in path: src/a b.py"),
        ("src/é.py", "invalid characters in path: src/é.py"),
        ("src/a.py\nsrc/a.py", "path not found: src/a.py\\nsrc/a.py"),  # newline passes check 3
        ("src/nope.py", "path not found: src/nope.py"),
        ("dangling", "path not found: dangling"),
        ("alias.py", "symlinks not permitted: alias.py"),
    ],
)
def test_validate_path_upstream(tree: Path, path: str, message: str | None) -> None:
    if message is None:
        paths.validate_path(path, tree)
        return
    with pytest.raises(paths.PathRefused) as exc:
        paths.validate_path(path, tree)
    assert exc.value.message == message


@pytest.mark.parametrize(
    ("path", "message"),
    [
        ("src/a.py", None),
        ("src/a.py\nx", "invalid characters in path: src/a.py\\nx"),
        ("src/a\0.py", "invalid characters in path: src/a\\x00.py"),
        ("linked/b.py", "symlinks not permitted: linked/b.py"),
        ("src", "not a regular file: src"),
    ],
)
def test_validate_path_hardened(tree: Path, path: str, message: str | None) -> None:
    if message is None:
        paths.validate_path(path, tree, hardened=True)
        return
    with pytest.raises(paths.PathRefused) as exc:
        paths.validate_path(path, tree, hardened=True)
    assert exc.value.message == message


def test_validate_path_hardened_containment(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "s.txt").write_text("s")
    root = tmp_path / "root"
    root.mkdir()
    os.symlink(outside, root / "door")
    paths.validate_path("door/s.txt", root)  # upstream lets a symlinked parent through
    with pytest.raises(paths.PathRefused, match="symlinks not permitted"):
        paths.validate_path("door/s.txt", root, hardened=True)


def test_validate_path_cli(tree: Path) -> None:
    code, out, err = run_filter("pack",
                                ["validate-path", "--root", str(tree), "src/a.py", "../x", "src"])
    assert (code, out) == (1, b"src/a.py\n")
    assert err == "council-pack: path traversal not allowed: ../x\n"
    code, out, err = run_filter(
        "pack", ["validate-path", "--root", str(tree), "--hardened"],
        stdin=b"src/a.py\nlinked/b.py\n"
    )
    assert (code, out) == (1, b"src/a.py\n")
    assert err == "council-pack: stdin:2: symlinks not permitted: linked/b.py\n"


# --------------------------------------------------------------------------- #
# Diff truncation: vectors and thresholds.
# --------------------------------------------------------------------------- #
VECTOR = b"abcd\nefgh\xc3\xa9\xe2\x82\xacz\n"


@pytest.mark.parametrize(
    ("cap", "body"),
    [
        (5, b"abcd\n"),
        (6, b"abcd\ne\n"),
        (9, b"abcd\nefgh\n"),
        (10, b"abcd\nefgh\n"),
        (11, "abcd\nefghé\n".encode()),
        (12, "abcd\nefghé\n".encode()),
        (13, "abcd\nefghé\n".encode()),
        (14, "abcd\nefghé€\n".encode()),
    ],
)
def test_body_cap_vectors(cap: int, body: bytes) -> None:
    assert core.cap_body(VECTOR, cap) == body


def test_backoff_keeps_a_complete_character_and_all_continuation_input() -> None:
    assert bytesops.utf8_backoff("é".encode()) == "é".encode()
    assert bytesops.utf8_backoff(b"a\xc3") == b"a"
    assert bytesops.utf8_backoff(b"a\xe2\x82") == b"a"
    assert bytesops.utf8_backoff(b"\x80\x80") == b"\x80\x80"  # k == 0: nothing dropped


@settings(max_examples=200)
@given(st.text(max_size=300), st.integers(min_value=1, max_value=400))
def test_cut_bytes_is_valid_utf8_prefix(text: str, cap: int) -> None:
    data = text.encode()
    cut = bytesops.utf8_cut(data, cap)
    assert data.startswith(cut) and len(cut) <= cap
    cut.decode()  # never raises
    assert len(data[len(cut) : cap]) < 4 or len(data) <= cap


def test_stat_cap_near_miss() -> None:
    line = b"x" * 99  # 100 bytes with its newline
    stat = line + b"\n"
    assert core.cap_stat(stat * 40, 4000) == stat * 40
    assert core.cap_stat(stat * 41, 4000) == stat * 40
    assert core.cap_stat(stat * 40, 3999) == stat * 39


def test_trigger_is_strictly_greater_than_60000() -> None:
    exact = (b"y" * 99 + b"\n") * 600
    assert len(exact) == 60000
    text, cut = core.truncate_diff(exact, lambda: b"")
    assert (text, cut) == (exact, False)
    over = exact + b"z"
    text, cut = core.truncate_diff(over, lambda: b" f | 1 +\n")
    assert cut
    assert text.startswith(
        b"### git diff --stat\n\n f | 1 +\n\n### Raw diff (first 200 lines of 600 total)\n\n"
    )
    assert text.endswith(
        "\n[... truncated — full diff is 60001 bytes; showing at most the first 200 lines and "
        "60000 bytes ...]\n".encode()
    )


def test_body_line_cap_and_oversized_first_line() -> None:
    many = b"".join(b"%d\n" % i for i in range(500))
    assert core.cap_body(many).count(b"\n") == 200
    huge = b"a" * 70000 + b"\n"
    assert core.cap_body(huge) == b"a" * 60000 + b"\n"  # cap+1 bytes, as upstream


# --------------------------------------------------------------------------- #
# Settings.
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize(
    ("raw", "value", "warning"),
    [
        (None, 600, None),
        ("", 600, None),
        ("600", 600, None),
        ("0600", 600, None),  # decimal, normalised
        ("1", 1, None),
        ("86400", 86400, None),
        ("86401", 600, "COUNCIL_TIMEOUT=86401 out of range (1-86400 seconds); falling back to 600"),
        ("0", 600, "COUNCIL_TIMEOUT=0 out of range (1-86400 seconds); falling back to 600"),
        (
            "000000",
            600,
            "COUNCIL_TIMEOUT=000000 out of range (1-86400 seconds); falling back to 600",
        ),
        ("00001", 1, None),
        ("10m", 600, "COUNCIL_TIMEOUT=10m is not a plain integer; falling back to 600"),
        (" 600", 600, "COUNCIL_TIMEOUT= 600 is not a plain integer; falling back to 600"),
        ("-1", 600, "COUNCIL_TIMEOUT=-1 is not a plain integer; falling back to 600"),
        ("٣", 600, "COUNCIL_TIMEOUT=٣ is not a plain integer; falling back to 600"),
    ],
)
def test_council_timeout(raw: str | None, value: int, warning: str | None) -> None:
    warnings: list[str] = []
    assert COUNCIL_TIMEOUT.resolve(raw, warnings.append) == value
    assert warnings == ([warning] if warning else [])


def test_path_settings_share_the_guard() -> None:
    warnings: list[str] = []
    assert COUNCIL_PATH_CHAR_CAP.resolve("999999", warnings.append) == 999999
    assert COUNCIL_PATH_CHAR_CAP.resolve("1000000", warnings.append) == 8000
    assert COUNCIL_PATH_CHAR_CAP.resolve("8k", warnings.append) == 8000
    assert warnings == [
        "COUNCIL_PATH_CHAR_CAP=1000000 out of range (1-999999 bytes); falling back to 8000",
        "COUNCIL_PATH_CHAR_CAP=8k is not a plain integer; falling back to 8000",
    ]
    assert isinstance(COUNCIL_PATH_CHAR_CAP, IntSetting)


UPSTREAM_CT = os.environ.get("COUNCIL_UPSTREAM_TIMEOUT_GUARD")


@pytest.mark.skipif(not UPSTREAM_CT, reason="set COUNCIL_UPSTREAM_TIMEOUT_GUARD")
@pytest.mark.parametrize("raw", ["", "0600", "0", "86401", "000000", "10m", "08", " 600", "99999"])
def test_council_timeout_matches_the_reference(raw: str) -> None:
    res = subprocess.run(
        ["bash", str(UPSTREAM_CT)],
        capture_output=True,
        check=True,
        env={**os.environ, "COUNCIL_TIMEOUT": raw},
    )
    warnings: list[str] = []
    value = COUNCIL_TIMEOUT.resolve(raw, warnings.append)
    assert value == int(res.stdout.decode().strip(), 10)
    assert ["Warning: " + w for w in warnings] == res.stderr.decode().splitlines()


# --------------------------------------------------------------------------- #
# Templates and fences.
# --------------------------------------------------------------------------- #
def test_envelope_shape() -> None:
    pack = core.envelope("Codex", "plan", "### Planning Document\nbody\n\n")
    assert pack.startswith("You are Codex, a code reviewer performing an INDEPENDENT analysis.\n")
    assert "\n\n## Task: plan\n### Planning Document\nbody\n\n## Required Output Format\n" in pack
    assert pack.endswith("- The `Verdict:` line is required and must appear exactly as shown\n")
    assert "\n## Rules\n" in pack and pack.index("## Required Output") < pack.index("## Rules")


@settings(max_examples=150)
@given(st.text(alphabet="`ab\n ", max_size=60))
def test_fence_is_never_closed_by_the_content(content: str) -> None:
    fenced = bytesops.code_fence(content)
    bar = fenced.split("\n", 1)[0]
    assert not any(line.strip().startswith(bar) for line in content.splitlines())
    assert fenced.endswith("\n" + bar)


def test_display_names() -> None:
    assert [
        vocab.display_name(r) for r in ("claude", "codex", "gemini", "opencode", "local-llm")
    ] == ["Claude", "Codex", "Gemini", "OpenCode", "Local-llm"]


def test_file_form() -> None:
    assert core.file_form("pack\n", "ab" * 8) == "pack\n\nINGEST_TOKEN: abababababababab\n"


# --------------------------------------------------------------------------- #
# plan / debug / question on a repository.
# --------------------------------------------------------------------------- #
@pytest.fixture
def docs_repo(tmp_path: Path) -> Repo:
    repo = Repo(tmp_path / "repo")
    repo.write("CLAUDE.md", "# Conventions\nUse tabs.\n")
    repo.write("docs/v1.2-plan.md", "# Plan\nDo it.\n")
    repo.write("src/a.py", "print('a')\n" * 2000)
    repo.write("src/b.py", "b = 2\n")
    repo.write("src/c.py", "c = 3\n")
    repo.write("src/d.py", "d = 4\n")
    repo.write("img.png", b"\x89PNG\x00\x00")
    repo.commit("init")
    os.symlink("src/b.py", repo.path / "link.py")
    return repo


def _mode(repo: Repo, *args: str) -> tuple[int, list[dict], str]:
    code, out, err = run_filter(
        "pack", [*args, "--repo", str(repo.path), "--run-id", "t", "--reviewers", "claude,gemini"]
    )
    return code, records(out) if code == 0 else [], err


def test_plan_file(docs_repo: Repo) -> None:
    code, recs, err = _mode(docs_repo, "plan", "--upstream", "docs/v1.2-plan.md")
    assert code == 0, err
    pack = recs[0]["pack"]
    assert recs[0]["slug"] == "v1" and recs[0]["base_ref"] is None
    assert "## Task: plan\n### Planning Document\n\n```\n# Plan\nDo it.\n```\n\n" in pack
    assert "### Repo Conventions\n\n```\n# Conventions\nUse tabs.\n```\n\n## Required" in pack


def test_plan_text_and_stdin(docs_repo: Repo) -> None:
    code, recs, err = _mode(docs_repo, "plan", "Add", "a", "cache")
    assert code == 0, err
    assert recs[0]["slug"] == "add-a-cache" and "```\nAdd a cache\n```" in recs[0]["pack"]
    code, out, err = run_filter(
        "pack", ["plan", "-", "--repo", str(docs_repo.path), "--reviewers", "x"],
        stdin=b"From stdin\n"
    )
    assert code == 0 and records(out)[0]["slug"] == "from-stdin"


def test_plan_refuses_a_symlinked_document(docs_repo: Repo) -> None:
    code, _, err = _mode(docs_repo, "plan", "link.py")
    assert code == 1 and err == "council-pack: symlinks not permitted: link.py\n"


def test_debug_with_paths(docs_repo: Repo) -> None:
    code, recs, err = _mode(
        docs_repo, "debug", "--upstream", "TypeError in a", "--paths", "src/a.py,src/b.py"
    )
    assert code == 0, err
    pack = recs[0]["pack"]
    assert recs[0]["slug"] == "typeerror-in-a"
    order = [
        "### Symptom",
        "### Cited Files",
        "#### src/a.py (first 8000 of 22000 bytes)",
        "#### src/b.py",
        "### Recent History",
        "init",
    ]
    positions = [pack.index(s) for s in order]
    assert positions == sorted(positions)
    assert "Repo Conventions" not in pack


def test_question_sections(docs_repo: Repo) -> None:
    code, recs, _ = _mode(docs_repo, "question", "--upstream", "Why tabs?")
    assert "### Referenced Files" not in recs[0]["pack"]
    assert "### Question\n\n```\nWhy tabs?\n```\n\n### Repo Conventions" in recs[0]["pack"]
    code, recs, _ = _mode(docs_repo, "question", "--upstream", "Why?", "--paths", "src/b.py")
    assert "### Referenced Files\n\n#### src/b.py\n```\nb = 2\n```" in recs[0]["pack"]


@pytest.mark.parametrize(
    ("paths_arg", "message"),
    [
        (
            "src/a.py,src/b.py,src/c.py,src/d.py",
            "too many --paths: 4 given, at most 3 (COUNCIL_PATH_MAX_FILES)",
        ),
        ("img.png", "binary files not permitted: img.png"),
        ("link.py", "symlinks not permitted: link.py"),
        ("../x", "path traversal not allowed: ../x"),
        ("src", "not a regular file: src"),
    ],
)
def test_paths_refused(docs_repo: Repo, paths_arg: str, message: str) -> None:
    code, _, err = _mode(docs_repo, "debug", "x", "--paths", paths_arg)
    assert code == 1 and err == f"council-pack: {message}\n"


def test_path_env_caps(docs_repo: Repo, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COUNCIL_PATH_CHAR_CAP", "100")
    monkeypatch.setenv("COUNCIL_PATH_MAX_FILES", "4")
    code, recs, err = _mode(
        docs_repo, "debug", "--upstream", "x", "--paths", "src/a.py,src/b.py,src/c.py,src/d.py"
    )
    assert code == 0, err
    assert "#### src/a.py (first 100 of 22000 bytes)" in recs[0]["pack"]
    monkeypatch.setenv("COUNCIL_PATH_MAX_FILES", "lots")
    code, _, err = _mode(docs_repo, "debug", "x", "--paths", "src/b.py")
    assert code == 0
    assert "COUNCIL_PATH_MAX_FILES=lots is not a plain integer; falling back to 3" in err


def test_text_mode_ceiling_drops_conventions_then_cuts_text(docs_repo: Repo) -> None:
    docs_repo.write("big.md", "é" * 60000)
    code, recs, err = _mode(docs_repo, "plan", "big.md")
    assert code == 0, err
    rec = recs[0]
    assert rec["omitted"]["conventions"] is True and rec["omitted"]["text_truncated"] is True
    assert len(rec["pack"].split("\n\nINGEST_TOKEN")[0].encode()) <= core.PACK_CEILING
    assert "[... truncated to " in rec["pack"]


def test_run_id_and_reviewer_names(docs_repo: Repo, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COUNCIL_RUN_ID", "from-env")
    code, out, _ = run_filter("pack", ["question", "q", "--repo", str(docs_repo.path)])
    assert {r["run"] for r in records(out)} == {"from-env"}
    monkeypatch.delenv("COUNCIL_RUN_ID")
    code, out, _ = run_filter("pack", ["question", "q", "--repo", str(docs_repo.path)])
    assert re.fullmatch(r"\d{8}T\d{6}Z-[0-9a-f]{8}", records(out)[0]["run"])
    code, _, err = run_filter("pack",
                              ["question", "q", "--repo", str(docs_repo.path), "--reviewers", "A"])
    assert code == 2 and "names must match" in err
    code, _, err = run_filter("pack",
                              ["question", "q", "--repo", str(docs_repo.path), "--run-id", "a b"])
    assert code == 2


def test_slug_cli() -> None:
    assert run_filter("pack", ["slug", "What is 2+2?"])[:2] == (0, b"what-is-2-2\n")
    assert run_filter("pack", ["slug"], stdin=b"feat/add-login\n\n")[:2] == (0, b"feat-add-login\n")
    assert run_filter("pack", ["slug"], stdin=b"!!!\n")[:2] == (0, b"e84c538e7fe25073\n")


def test_help_and_version() -> None:
    code, out, _ = run_filter("pack", ["--help"])
    assert code == 0 and b"Examples:" in out or code == 0
    code, out, _ = run_filter("pack", ["--version"])
    assert code == 0 and out.startswith(b"council-pack ")
