"""council-pack against real temporary git repositories (and the helpers the other tests use)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import orjson
import pytest

from council_filters.pack import core

from conftest import run_filter
from procenv import GIT_ENV


class Repo:
    """A throwaway repository with pinned identity and dates."""

    def __init__(self, path: Path, branch: str = "main") -> None:
        self.path = path
        path.mkdir(parents=True, exist_ok=True)
        self.git("init", "-q", "-b", branch)

    def git(self, *args: str) -> str:
        res = subprocess.run(
            ["git", "-C", str(self.path), *args],
            capture_output=True,
            env={**os.environ, **GIT_ENV},
            check=True,
        )
        return res.stdout.decode("utf-8", "replace")

    def write(self, rel: str, data: bytes | str) -> Path:
        p = self.path / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(data.encode() if isinstance(data, str) else data)
        return p

    def commit(self, message: str) -> str:
        self.git("add", "-A")
        self.git("commit", "-q", "-m", message)
        return self.git("rev-parse", "HEAD").strip()


@pytest.fixture(autouse=True)
def _pinned_git(monkeypatch: pytest.MonkeyPatch) -> None:
    for key, value in GIT_ENV.items():
        monkeypatch.setenv(key, value)
    monkeypatch.delenv("COUNCIL_RUN_ID", raising=False)
    monkeypatch.delenv("COUNCIL_PATH_CHAR_CAP", raising=False)
    monkeypatch.delenv("COUNCIL_PATH_MAX_FILES", raising=False)


def records(out: bytes) -> list[dict]:
    return [orjson.loads(line) for line in out.splitlines()]


@pytest.fixture
def feature(tmp_path: Path) -> Repo:
    """main with two files; branch feat changes one, adds one."""
    repo = Repo(tmp_path / "repo")
    repo.write("app.py", "def f():\n    return 1\n")
    repo.write("README.md", "hello\n")
    repo.commit("init")
    repo.git("checkout", "-q", "-b", "feat")
    repo.write("app.py", "def f():\n    return 2\n")
    repo.write("new.py", "x = 1\n")
    repo.commit("change")
    return repo


def review(repo: Repo, *extra: str) -> tuple[int, bytes, str]:
    return run_filter("pack", ["review", "--repo", str(repo.path), "--run-id", "r1", *extra])


# --------------------------------------------------------------------------- #
# Base resolution.
# --------------------------------------------------------------------------- #
def test_review_explicit_base_records(feature: Repo) -> None:
    code, out, err = review(feature, "--base", "main", "--upstream")
    assert code == 0, err
    recs = records(out)
    assert [r["reviewer"] for r in recs] == ["claude", "codex", "gemini", "opencode"]
    base = feature.git("merge-base", "HEAD", "main").strip()
    for r in recs:
        keys = list(r)
        expected = ["kind", "run", "mode", "slug", "base_ref", "reviewer", "pack", "pack_bytes"]
        assert keys[:8] == expected
        assert keys[-2:] == ["omitted", "coverage"]
        assert all(f["state"] == "whole" and f["seen"] == f["lines"] for f in r["coverage"])
        assert r["base_ref"] == base and r["slug"] == "feat" and r["mode"] == "review"
        assert r["pack_bytes"] == len(r["pack"].encode())
        assert f"### Diff (HEAD vs {base})" in r["pack"]
        assert "+    return 2" in r["pack"] and "#### new.py" in r["pack"]
    gem = recs[2]
    assert list(gem)[8] == "ingest_token"
    assert gem["pack"].endswith(f"\n\nINGEST_TOKEN: {gem['ingest_token']}\n")
    assert len(gem["ingest_token"]) == 16 and int(gem["ingest_token"], 16) >= 0
    assert "ingest_token" not in recs[0]
    assert recs[0]["pack"].startswith("You are Claude, a code reviewer")
    assert recs[3]["pack"].startswith("You are OpenCode, a code reviewer")


def test_review_missing_base_is_an_error_not_a_fallback(feature: Repo) -> None:
    code, out, err = review(feature, "--base", "nope")
    assert (code, out) == (1, b"")
    assert err == 'council-pack: --base ref "nope" does not exist\n'


@pytest.mark.parametrize("ref", ["--output=out.txt", "-x", "HEAD~1", "main^", "a b", "@{u}"])
def test_review_refuses_refs_outside_the_allowlist(feature: Repo, ref: str) -> None:
    code, out, err = review(feature, f"--base={ref}")
    assert code == 1 and out == b""
    assert "refused: refs must match" in err


def test_review_empty_base_argument(feature: Repo) -> None:
    code, _, err = review(feature, "--base=")
    assert code == 1 and err == "council-pack: --base requires a ref argument\n"


def test_review_upstream_tracking_default(tmp_path: Path) -> None:
    origin = Repo(tmp_path / "origin")
    origin.write("a.txt", "a\n")
    origin.commit("init")
    origin.git("checkout", "-q", "-b", "feature/x")
    origin.write("a.txt", "a\nb\n")
    origin.commit("on feature")
    clone = tmp_path / "clone"
    subprocess.run(
        ["git", "clone", "-q", str(origin.path), str(clone)],
        check=True,
        env={**os.environ, **GIT_ENV},
    )
    work = Repo.__new__(Repo)
    work.path = clone
    work.git("checkout", "-q", "-b", "mine", "--track", "origin/feature/x")
    work.write("a.txt", "a\nb\nc\n")
    work.commit("mine")
    code, out, err = review(work)
    assert code == 0, err
    # The whole upstream name is used (upstream's sed kept only "x": see docs/pack.md).
    assert records(out)[0]["base_ref"] == work.git("rev-parse", "origin/feature/x").strip()
    assert err == ""


def test_review_without_upstream_warns_and_needs_origin_main(feature: Repo) -> None:
    code, out, err = review(feature)
    assert code == 1 and out == b""
    assert err.splitlines() == [
        "council-pack: no upstream tracking branch — falling back to origin/main",
        "council-pack: cannot resolve merge-base with origin/main — fetch the remote or pass "
        "--base <ref>",
    ]


def test_review_empty_diff_refused(feature: Repo) -> None:
    code, out, err = review(feature, "--base", "feat")
    sha = feature.git("rev-parse", "HEAD").strip()
    assert (code, out) == (1, b"")
    assert err == f"council-pack: diff against {sha} is empty — refusing to fan out\n"


def test_not_a_repository(tmp_path: Path) -> None:
    code, _, err = run_filter("pack", ["review", "--repo", str(tmp_path)])
    assert code == 1 and err == "council-pack: not in a git repository\n"


# --------------------------------------------------------------------------- #
# What may enter a pack.
# --------------------------------------------------------------------------- #
def test_review_renames_binaries_symlinks_deletions_and_non_ascii(tmp_path: Path) -> None:
    repo = Repo(tmp_path / "r")
    repo.write("old_name.py", "".join(f"line {i}\n" for i in range(40)))
    repo.write("gone.txt", "bye\n")
    repo.write("secret-outside.txt", "TOP SECRET\n")
    repo.commit("init")
    repo.git("checkout", "-q", "-b", "feat")
    repo.git("mv", "old_name.py", "new_name.py")
    repo.git("rm", "-q", "gone.txt")
    repo.write("blob.bin", b"\x00\x01\x02binary\x00" * 10)
    repo.write("café/naïve.txt", "unicode path\n")
    os.symlink("/etc/passwd", repo.path / "link")
    repo.commit("changes")
    code, out, err = review(repo, "--base", "main", "--reviewers", "claude")
    assert code == 0, err
    (rec,) = records(out)
    pack = rec["pack"]
    assert "#### new_name.py" in pack and "line 39" in pack  # renamed file shown from HEAD
    assert "#### café/naïve.txt" in pack and "unicode path" in pack
    assert "root:" not in pack  # the symlink's target is never read
    assert "\x00" not in pack and "\x02binary" not in pack
    reasons = {e["path"]: e["reason"] for e in rec["omitted"]["not_shown"]}
    assert reasons == {"blob.bin": "binary", "gone.txt": "deleted", "link": "symlink"}
    assert "[not shown: blob.bin (binary)]" in pack


def test_review_large_diff_is_truncated_and_pack_within_ceiling(tmp_path: Path) -> None:
    repo = Repo(tmp_path / "r")
    repo.write("seed.txt", "seed\n")
    repo.commit("init")
    repo.git("checkout", "-q", "-b", "big")
    for i in range(50):  # ~5 MB of diff across 50 files
        repo.write(f"gen/file{i:02}.txt", ("é" * 30 + f" {i}\n") * 1600)
    repo.commit("big")
    code, out, err = review(repo, "--base", "main", "--reviewers", "opencode,gemini")
    assert code == 0, err
    for rec in records(out):
        assert rec["omitted"]["diff_truncated"] is True
        assert rec["omitted"]["diff_bytes"] > 5_000_000
        body = rec["pack"]
        assert "### git diff --stat" in body and "### Raw diff (first 200 lines of " in body
        assert "[... truncated — full diff is " in body
        pack_only = body.split("\n\nINGEST_TOKEN: ")[0] + "\n"
        assert len(pack_only.encode()) <= core.PACK_CEILING
        assert "changed files omitted to stay within the pack budget]" in body
    assert records(out)[0]["omitted"]["files"] == 50 - 7  # 7 excerpts of 4000 bytes fit 30000


def test_review_many_tiny_files_hit_the_measured_ceiling(tmp_path: Path) -> None:
    repo = Repo(tmp_path / "r")
    repo.write("seed.txt", "seed\n")
    repo.commit("init")
    repo.git("checkout", "-q", "-b", "wide")
    for i in range(1500):
        repo.write(f"d/{'x' * 60}{i:05}.txt", "y\n")
    repo.commit("wide")
    code, out, err = review(repo, "--base", "main", "--reviewers", "claude")
    assert code == 0, err
    (rec,) = records(out)
    assert rec["pack_bytes"] <= core.PACK_CEILING
    assert rec["omitted"]["files"] > 0
    assert f"[{rec['omitted']['files']} of 1500 changed files omitted" in rec["pack"]


def test_truncate_diff_subcommand_guards(feature: Repo) -> None:
    code, _, err = run_filter("pack",
                              ["truncate-diff", "--repo", str(feature.path), "--base", "<BASE>"])
    assert code == 1 and err == "council-pack: BASE was not substituted (got: <BASE>)\n"
    code, _, err = run_filter("pack",
                              ["truncate-diff", "--repo", str(feature.path), "--base", "nothere"])
    assert code == 1 and err == "council-pack: BASE does not resolve to a commit: nothere\n"
    code, out, _ = run_filter("pack",
                              ["truncate-diff", "--repo", str(feature.path), "--base", "main"])
    assert code == 0 and out == feature.git("diff", "main...HEAD").encode()


UPSTREAM_TRUNCATE = os.environ.get("COUNCIL_UPSTREAM_TRUNCATE")


@pytest.mark.skipif(not UPSTREAM_TRUNCATE, reason="set COUNCIL_UPSTREAM_TRUNCATE to the reference")
@pytest.mark.parametrize("lines", [10, 199, 201, 5000])
def test_truncate_diff_matches_the_reference_block(tmp_path: Path, lines: int) -> None:
    """Differential: the upstream block (a script taking BASE as $1, run in the repo)."""
    repo = Repo(tmp_path / "r")
    repo.write("a.txt", "a\n")
    repo.commit("init")
    repo.git("checkout", "-q", "-b", "f")
    repo.write("a.txt", "".join(f"é€ line {i} " + "x" * (i % 700) + "\n" for i in range(lines)))
    repo.write("ünï/cödé.txt", "y" * 70000 + "é\n")
    repo.commit("f")
    ref = subprocess.run(
        ["bash", str(UPSTREAM_TRUNCATE), "main"], cwd=repo.path, capture_output=True, check=True
    ).stdout
    code, out, err = run_filter("pack",
                                ["truncate-diff", "--repo", str(repo.path), "--base", "main"])
    assert code == 0, err
    assert out == ref


@pytest.mark.parametrize("kind", ["mixed", "mode_only", "empty"])
def test_diff_and_stat_equal_the_two_separate_git_runs(tmp_path: Path, kind: str) -> None:
    from council_filters.pack.git import GitRepo

    repo = Repo(tmp_path / "r")
    repo.write("a.py", "".join(f"line {i}\n" for i in range(40)))
    repo.write("run.sh", "echo hi\n")
    repo.write("gone.txt", "bye\n")
    repo.commit("init")
    repo.git("checkout", "-q", "-b", "feat")
    if kind == "mixed":
        repo.git("mv", "a.py", "b.py")
        repo.git("rm", "-q", "gone.txt")
        repo.write("blob.bin", b"\x00\x01\x02binary\x00" * 10)
        repo.write(".gitattributes", "hidden.txt -diff\n")
        repo.write("hidden.txt", "looks binary to git\n\n\nblank lines\n")
        repo.write("café/naïve.txt", "unicode path\n\n")
    if kind in ("mixed", "mode_only"):
        (repo.path / "run.sh").chmod(0o755)
    if kind != "empty":
        repo.commit("changes")
    git = GitRepo(str(repo.path))
    assert git.diff_and_stat("main") == (git.diff("main"), git.diff_stat("main"))
    if kind == "empty":
        assert git.diff_and_stat("main") == (b"", b"")
