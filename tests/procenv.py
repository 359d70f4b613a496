"""The environment for running this checkout's executables as subprocesses."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def state_cli_env() -> dict[str, str]:
    """This checkout first on PYTHONPATH, a fixed clock, no inherited state file."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH")
                                     else "")
    env["COUNCIL_NOW"] = "2025-01-02T03:04:05Z"
    env.pop("COUNCIL_STATE", None)
    return env


# Pinned identity, dates and config for the git repositories tests build.
GIT_ENV = {
    "GIT_AUTHOR_NAME": "Test Author",
    "GIT_AUTHOR_EMAIL": "author@example.invalid",
    "GIT_COMMITTER_NAME": "Test Author",
    "GIT_COMMITTER_EMAIL": "author@example.invalid",
    "GIT_AUTHOR_DATE": "2026-01-01T00:00:00Z",
    "GIT_COMMITTER_DATE": "2026-01-01T00:00:00Z",
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": os.devnull,
}


def one_file_change(repo: Path) -> Path:
    """A repository at ``repo``: an empty commit on ``main``, then branch ``c`` adding
    ``a.py`` (``x = 1``): the smallest change a council can review."""
    repo.mkdir()
    env = {**os.environ, **GIT_ENV}
    for args in (["init", "-q", "-b", "main"], ["commit", "-q", "--allow-empty", "-m", "b"],
                 ["checkout", "-qb", "c"]):
        subprocess.run(["git", "-C", str(repo), *args], check=True, env=env)
    (repo / "a.py").write_text("x = 1\n")
    subprocess.run(["git", "-C", str(repo), "add", "."], check=True, env=env)
    subprocess.run(["git", "-C", str(repo), "commit", "-qm", "c"], check=True, env=env)
    return repo
