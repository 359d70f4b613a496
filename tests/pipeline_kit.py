"""Helpers for the tests that run the installed executables through real pipes.

The executables are taken from the bin directory of the interpreter running
the tests (the console scripts pip installed next to it), else from the
checkout's ``bin/`` launchers, always by absolute path.
"""

from __future__ import annotations

import importlib.util
import os
import shlex
import subprocess
from collections.abc import Iterable, Mapping
from pathlib import Path

from conftest import bin_dir

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
def exe(name: str) -> str:
    """Shell-quoted absolute path of ``council-<name>``."""
    return shlex.quote(str(bin_dir() / f"council-{name}"))


def clean_env(**extra: str) -> dict[str, str]:
    """The caller's environment without council settings or make's flags."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("COUNCIL_") and k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}
    env.update(LC_ALL="C.UTF-8", TZ="UTC", NO_COLOR="1")
    env.update(extra)
    return env


def shell(script: str, *, env: Mapping[str, str], cwd: Path | None = None,
          timeout: float = 60) -> subprocess.CompletedProcess[bytes]:
    """Run ``script`` under ``bash -o pipefail -c`` (real pipes between processes)."""
    return subprocess.run(["bash", "-o", "pipefail", "-c", script], env=dict(env), cwd=cwd,
                          capture_output=True, timeout=timeout, check=False)


def build_example_repo(dest: Path) -> Path:
    subprocess.run(["sh", str(EXAMPLES / "build-repo.sh"), str(dest)], check=True,
                   env=clean_env(), capture_output=True)
    return dest


def example_secrets() -> list[str]:
    """The credential and key material the recorded claude reviewer leaks."""
    spec = importlib.util.spec_from_file_location("check_demo", EXAMPLES / "check-demo.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    needles: list[str] = module.secrets()
    text = (EXAMPLES / "reviewers" / "claude.txt").read_text()
    needles += [line.split("=", 1)[1] for line in text.splitlines() if "sk-ant-" in line]
    assert len(needles) >= 5
    return needles


def leaks(needles: Iterable[str], blobs: Mapping[str, bytes]) -> list[str]:
    """``where: secret-prefix`` for each needle found in a blob (empty: no leak)."""
    found = []
    for where, data in blobs.items():
        for needle in needles:
            if needle.encode() in data:
                found.append(f"{where}: {needle[:8]}...")
    return found


def tree_files(root: Path) -> dict[str, bytes]:
    """Every regular file under ``root`` (outside .git), by relative path."""
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and not p.is_symlink() and ".git" not in p.relative_to(root).parts}


def section(report: str, heading: str) -> str:
    """The text of a ``## heading`` section, up to the next level-2 heading."""
    start = report.index(f"\n## {heading}\n") + len(heading) + 5
    end = report.find("\n## ", start)
    return report[start:] if end < 0 else report[start:end]
