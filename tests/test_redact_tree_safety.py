"""council-redact --out-dir reads the input tree, not what its symlinks point at, and never
widens an output's permissions: a symlink leaving the input root is skipped and reported,
each output keeps its input's mode bits."""

from __future__ import annotations

import os
import stat

import pytest

from conftest import run_filter

MARK = "COUNCIL_T_ENV_MARK_" + "q" * 8


def _tree(tmp_path):
    src = tmp_path / "in"
    (src / "sub").mkdir(parents=True)
    (src / "app.log").write_text("plain line\n")
    (src / "private.log").write_text("private line\n")
    os.chmod(src / "private.log", 0o600)
    (src / "sub" / "group.log").write_text("g\n")
    os.chmod(src / "sub" / "group.log", 0o640)
    outside = tmp_path / "outside.txt"
    outside.write_text("outside secret\n")
    (src / "env.log").symlink_to("/proc/self/environ")
    (src / "sub" / "up.log").symlink_to(outside)
    (src / "sub" / "rel.log").symlink_to("../../outside.txt")
    (src / "dangling.log").symlink_to(tmp_path / "nowhere")
    (src / "inside.log").symlink_to(src / "app.log")  # inside the root: read as the file
    (src / "dirlink").symlink_to(tmp_path)  # a directory link: not walked
    return src


@pytest.mark.parametrize("how", ["dir", "glob"])
def test_symlinks_leaving_the_root_are_skipped_and_reported(tmp_path, how):
    src = _tree(tmp_path)
    out = tmp_path / "out"
    arg = str(src) if how == "dir" else str(src / "*.log")
    res = run_filter("redact", ["--out-dir", str(out), "--base", str(src), arg],
                     env={MARK: "leaked-value"})
    assert res.code == 0, res.err
    written = sorted(str(p.relative_to(out)) for p in out.rglob("*")
                     if p.is_file() and not p.name.startswith("."))
    written = [w for w in written if "manifest" not in w]
    expected = {"dir": ["app.log", "inside.log", "private.log", "sub/group.log"],
                "glob": ["app.log", "inside.log", "private.log"]}[how]
    assert written == expected
    for p in out.rglob("*"):
        if p.is_file():
            text = p.read_text(errors="replace")
            assert MARK not in text and "leaked-value" not in text
            assert "outside secret" not in text
    skipped = {"dir": ["env.log", "sub/up.log", "sub/rel.log", "dangling.log"],
               "glob": ["env.log", "dangling.log"]}[how]
    for name in skipped:
        assert f"{src / name}: a symlink that leaves the input directory: skipped" in res.err


def test_outputs_keep_the_inputs_mode_bits(tmp_path):
    src = _tree(tmp_path)
    out = tmp_path / "out"
    os.chmod(src / "app.log", 0o644)
    res = run_filter("redact", ["--out-dir", str(out), "--base", str(src), str(src)])
    assert res.code == 0, res.err
    mode = {p.name: stat.S_IMODE(p.stat().st_mode) for p in out.rglob("*.log")}
    assert mode["private.log"] == 0o600
    assert mode["group.log"] == 0o640 & ~_umask()
    assert mode["app.log"] == 0o644 & ~_umask()


def _umask() -> int:
    old = os.umask(0o022)
    os.umask(old)
    return old
