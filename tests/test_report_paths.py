"""Where consolidate writes and what its locations may name, when the repository is hostile.

``--write`` checks every part of ``docs/council`` on disk before it creates
anything; SARIF and rdjsonl never carry a location outside the repository.
"""

from __future__ import annotations

import os
from pathlib import Path

import orjson
import pytest

from conftest import run_filter


def _council() -> bytes:
    recs = [{"kind": "reviewer", "run": "r", "mode": "review", "slug": "feat-x",
             "reviewer": slot, "status": "OK", "verdict": "APPROVE", "confidence": "HIGH",
             "summary": "ok", "findings": []} for slot in ("claude", "codex")]
    return b"".join(orjson.dumps(r) + b"\n" for r in recs)


def _write(root: Path) -> tuple[int, str]:
    res = run_filter("consolidate", ["--write", "--date", "2026-11-30", "--root", str(root)],
                     _council())
    return res.code, res.err


@pytest.mark.parametrize("link", ["docs", "docs/council"])
def test_write_creates_nothing_beyond_a_link_that_leaves_the_root(tmp_path: Path,
                                                                   link: str) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    root = tmp_path / "root"
    root.mkdir()
    (root / link).parent.mkdir(parents=True, exist_ok=True)
    (root / link).symlink_to(outside)
    code, err = _write(root)
    assert code == 1 and "outside --root" in err
    assert os.listdir(outside) == []  # no <outside>/council, no report


def test_write_follows_a_link_that_stays_inside(tmp_path: Path) -> None:
    (tmp_path / "real-docs").mkdir()
    (tmp_path / "docs").symlink_to(tmp_path / "real-docs")
    code, err = _write(tmp_path)
    assert code == 0, err
    assert [p.name for p in (tmp_path / "real-docs" / "council").iterdir()] == [
        "2026-11-30-review-feat-x.md"
    ]


def test_write_refuses_a_file_where_a_directory_belongs(tmp_path: Path) -> None:
    (tmp_path / "docs").write_text("not a directory")
    code, err = _write(tmp_path)
    assert code == 1 and "not a directory" in err


# --------------------------------------------------------------------------- #
# SARIF and rdjsonl locations.
# --------------------------------------------------------------------------- #
OUTSIDE = ["../../etc/passwd", "/etc/shadow", "a/../../x.py", "..", "~/.ssh/id_rsa",
           "C:\\Windows\\win.ini", "\\\\host\\share\\x", "file:///etc/passwd",
           "https://example.invalid/x"]
INSIDE = [("src/app.py", "src/app.py"), ("./src//app.py", "src/app.py"),
          ("src/../lib/x.py", "lib/x.py"), ("dir with space/é.py", "dir%20with%20space/%C3%A9.py")]


def _findings(paths: list[str]) -> bytes:
    return b"".join(
        orjson.dumps({"kind": "finding", "origin": "security", "severity": "minor",
                      "summary": f"finding {i}", "file": p, "line": 1}) + b"\n"
        for i, p in enumerate(paths)
    )


@pytest.mark.parametrize("path", OUTSIDE)
def test_sarif_leaves_out_an_outside_finding_and_says_so(path: str) -> None:
    # Every SARIF result needs a location inside the repository, or code scanning refuses
    # the upload: the outside one is left out, counted in the run and named on stderr.
    res = run_filter("consolidate", ["--format", "sarif", "--no-source"],
                     _findings([path, "src/ok.py"]))
    assert res.code == 0, res.err
    run0 = orjson.loads(res.out)["runs"][0]
    results = run0["results"]
    uris = [loc["physicalLocation"]["artifactLocation"]["uri"]
            for r in results for loc in r["locations"]]
    assert uris == ["src/ok.py"] and all(r["locations"] for r in results)
    assert run0["properties"]["omitted"]["outsideRepository"] == 1
    assert "1 finding naming a file outside the repository left out of SARIF" in res.err


@pytest.mark.parametrize("path", OUTSIDE)
def test_rdjsonl_keeps_an_outside_finding_without_a_location(path: str) -> None:
    res = run_filter("consolidate", ["--format", "rdjsonl", "--no-source"],
                     _findings([path, "src/ok.py"]))
    assert res.code == 0, res.err
    diags = [orjson.loads(x) for x in res.out.splitlines()]
    assert len(diags) == 2
    # "." = the repository itself: reviewdog's format requires a location, never an outside one
    assert sorted(d["location"]["path"] for d in diags) == [".", "src/ok.py"]
    assert all("range" not in d["location"] for d in diags if d["location"]["path"] == ".")
    assert "outside the repository kept without a location" in res.err


@pytest.mark.parametrize(("path", "uri"), INSIDE)
def test_inside_paths_are_normalised_relative_uris(path: str, uri: str) -> None:
    res = run_filter("consolidate", ["--format", "sarif", "--no-source"], _findings([path]))
    (result,) = orjson.loads(res.out)["runs"][0]["results"]
    assert result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == uri
    assert "outside" not in res.err


# --------------------------------------------------------------------------- #
# Snippets and anchors: tracked content at HEAD only, redacted.
# --------------------------------------------------------------------------- #
GHP = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8S9t0"
AWS = "AKIA" + "QWERTYUIOPASDFGH"


def _hostile_repo(root: Path) -> Path:
    from conftest import git

    root.mkdir()
    (root / ".gitignore").write_text(".env\nsecrets/\n")
    (root / "app.py").write_text(f"import os\nKEY = '{AWS}'\nprint(KEY)\n")
    (root / "secrets").mkdir()
    (root / "secrets" / "forced.txt").write_text(f"token {GHP}\n")
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "add", "-f", "secrets/forced.txt")  # tracked, yet a path the repo ignores
    git(root, "commit", "-q", "-m", "base")
    git(root, "config", "http.extraheader", f"AUTHORIZATION: basic {GHP}")
    git(root, "remote", "add", "origin", f"https://x:{GHP}@example.invalid/r.git")
    (root / ".env").write_text(f"OPENAI_API_KEY=sk-{'a' * 40}\nGITHUB={GHP}\n")
    (root / "untracked.py").write_text(f"T = '{GHP}'\n")
    (root / "app.py").write_text(f"WORK_TREE = '{GHP}'\nKEY = '{AWS}'\n")  # not committed
    return root


@pytest.mark.parametrize(
    "file", [".env", ".git/config", "./.git/config", ".GIT/config", "untracked.py",
             "secrets/forced.txt", "../outside.txt", "app.py"],
)
@pytest.mark.parametrize("fmt", ["markdown", "json", "rdjsonl", "findings"])
def test_snippets_come_only_from_tracked_redacted_content(tmp_path: Path, file: str,
                                                          fmt: str) -> None:
    root = _hostile_repo(tmp_path / "repo")
    (tmp_path / "outside.txt").write_text(f"outside {GHP}\n")
    rec = {"kind": "finding", "origin": "security", "severity": "minor", "summary": "look",
           "file": file, "line": 1, "end_line": 3}
    res = run_filter("consolidate", ["--format", fmt, "--repo", str(root)],
                     orjson.dumps(rec) + b"\n")
    assert res.code == 0, res.err
    out = res.out.decode()
    for secret in (GHP, AWS, "sk-aaaa", "AUTHORIZATION", "WORK_TREE"):
        assert secret not in out, (file, secret)


def test_tracked_snippet_is_shown_redacted(tmp_path: Path) -> None:
    root = _hostile_repo(tmp_path / "repo")
    rec = {"kind": "finding", "origin": "security", "severity": "minor", "summary": "key",
           "file": "app.py", "line": 2}
    res = run_filter("consolidate", ["--repo", str(root)], orjson.dumps(rec) + b"\n")
    out = res.out.decode()
    # HEAD's line 2 (not the work tree's), its value replaced in place: the shape stays
    assert res.code == 0 and "KEY = '\u2039redacted:aws-access-key-id\u203a'" in out
    assert AWS not in out and GHP not in out and "WORK_TREE" not in out
