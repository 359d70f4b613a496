"""Git repositories the tests build: a base commit on main, then a change on a branch."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Mapping
from pathlib import Path

from procenv import GIT_ENV


def git(root: Path, *args: str) -> str:
    res = subprocess.run(["git", "-C", str(root), *args], env={**os.environ, **GIT_ENV},
                         capture_output=True, text=True, check=True)
    return res.stdout


def write(root: Path, files: Mapping[str, str | bytes | None]) -> None:
    for rel, content in files.items():
        path = root / rel
        if content is None:
            path.unlink()
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content)


def make_repo(root: Path, base: Mapping[str, str | bytes | None],
              change: Mapping[str, str | bytes | None] | None = None,
              branch: str = "feature/change") -> Path:
    """``root`` with ``base`` committed on main and ``change`` committed on ``branch``."""
    root.mkdir(parents=True, exist_ok=True)
    git(root, "init", "-q", "-b", "main")
    write(root, base)
    git(root, "add", "-A")
    git(root, "commit", "-q", "--allow-empty", "-m", "base")
    git(root, "checkout", "-q", "-b", branch)
    if change:
        write(root, change)
        git(root, "add", "-A")
        git(root, "commit", "-q", "-m", "change")
    return root
