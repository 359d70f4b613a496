"""Generated trees of files for the batch tests: secrets, PEM blocks, empty files, no final
newline, and unreadable entries."""

from __future__ import annotations

import os
import random
from pathlib import Path

from redact_fragments import SECRETS, random_document

from conftest import run_filter


def make_tree(root: Path, n: int, *, seed: int = 16) -> tuple[list[str], list[str]]:
    """``n`` files under ``root`` (relative paths, sorted) and the unreadable ones among them.

    Every seventh file is empty, every fifth has no final newline, every third
    carries a credential; one entry is a dangling symlink (unreadable even for
    root) and, when not running as root, one file has mode 000.
    """
    rng = random.Random(seed)
    files: list[str] = []
    for i in range(n):
        rel = f"d{i % 7}/s{i % 3}/f{i:05d}.log"
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if i % 7 == 0:
            data = b""
        else:
            data = random_document(rng, 40)
            if i % 3 == 0:
                data += b"token " + rng.choice(SECRETS) + b" end\n"
            if i % 5 == 0:
                data = data.rstrip(b"\n") or b"tail"
            elif not data.endswith(b"\n"):
                data += b"\n"
        path.write_bytes(data)
        files.append(rel)
    unreadable = ["d0/unreadable-link.log"]
    (root / unreadable[0]).symlink_to("no-such-target")
    if os.geteuid() != 0:
        locked = root / "d1" / "locked.log"
        locked.write_bytes(b"secret sk-" + b"x" * 30 + b"\n")
        locked.chmod(0)
        unreadable.append("d1/locked.log")
    return sorted(files + unreadable), sorted(unreadable)


def single(path: Path) -> bytes:
    """What `council-redact FILE` writes for one file (in-process)."""
    res = run_filter("redact", [str(path)])
    assert res.code == 0, path
    return res.out
