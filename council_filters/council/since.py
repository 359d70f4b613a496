"""``council review --since last``: where the last review of a branch ended.

The record is one JSON file in the user's state directory,
``${XDG_STATE_HOME:-~/.local/state}/council/reviewed.json`` (0600 in a 0700
directory, replaced atomically under a lock, so two councils at once keep
both their entries): per repository (its real path) and branch, the commit
the last review ended at.  ``--since last`` then reviews the commits after
it.  When that commit is no longer in the branch's history (a rebase, a
force-push, a reset) or there is no record yet, the whole branch is reviewed
and a notice says why.  Nothing of the reviewed repository is written.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from council_filters.base import safefs
from council_filters.pack.git import GitRepo

VERSION = 1
FILE = "reviewed.json"


def state_dir(env: Mapping[str, str]) -> Path:
    """``$XDG_STATE_HOME/council``, else ``~/.local/state/council`` (a relative
    ``XDG_STATE_HOME`` is ignored, as the XDG rules say)."""
    xdg = env.get("XDG_STATE_HOME", "")
    if xdg and os.path.isabs(xdg):
        return Path(xdg) / "council"
    home = env.get("HOME") or os.path.expanduser("~")
    return Path(home) / ".local" / "state" / "council"


def _load(path: Path) -> dict[str, Any]:
    try:
        raw, _size = safefs.read_regular(str(path), max_size=16 << 20)
        doc = orjson.loads(raw)
    except (OSError, orjson.JSONDecodeError):
        return {"v": VERSION, "repos": {}}
    if not isinstance(doc, dict) or doc.get("v") != VERSION or not isinstance(
        doc.get("repos"), dict
    ):
        return {"v": VERSION, "repos": {}}
    return doc


@contextlib.contextmanager
def _locked(directory: Path) -> Iterator[None]:
    directory.mkdir(parents=True, exist_ok=True, mode=0o700)
    fd = os.open(directory / (FILE + ".lock"), os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def _repo_key(git: GitRepo) -> str:
    return os.path.realpath(str(git.root))


def recorded(env: Mapping[str, str], git: GitRepo, branch: str) -> str | None:
    """The commit the last review of ``branch`` ended at, or None."""
    doc = _load(state_dir(env) / FILE)
    entry = doc["repos"].get(_repo_key(git), {}).get(branch)
    head = entry.get("head") if isinstance(entry, dict) else None
    return head if isinstance(head, str) and head else None


def record(env: Mapping[str, str], git: GitRepo, branch: str, head: str) -> None:
    """Remember that the review of ``branch`` ended at ``head``."""
    directory = state_dir(env)
    with _locked(directory):
        path = directory / FILE
        doc = _load(path)
        repo = doc["repos"].setdefault(_repo_key(git), {})
        repo[branch] = {"head": head, "at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
        safefs.replace(str(path), orjson.dumps(doc, option=orjson.OPT_SORT_KEYS) + b"\n",
                       mode=0o600)


@dataclass(frozen=True)
class Since:
    """Where the review starts: ``base`` (None: the whole branch) and the notice to print."""

    base: str | None
    notice: str | None = None


def is_ancestor(git: GitRepo, older: str, newer: str) -> bool:
    res = git.run(["merge-base", "--is-ancestor", older, newer], ok_codes=range(256))
    return res.returncode == 0


def commit_sha(git: GitRepo, rev: str) -> str | None:
    res = git.run(["rev-parse", "--verify", "--quiet", "--end-of-options", rev + "^{commit}"],
                  ok_codes=range(256))
    sha = res.stdout.decode("ascii", "replace").strip()
    return sha if res.returncode == 0 and sha else None


def last(env: Mapping[str, str], git: GitRepo, branch: str, head: str) -> Since:
    """The start of ``--since last`` for ``branch`` at ``head``."""
    prior = recorded(env, git, branch)
    short = (prior or "")[:12]
    if prior is None:
        return Since(None, f"--since last: no earlier review of {branch} recorded; reviewing"
                           " the whole branch")
    if commit_sha(git, prior) is None or not is_ancestor(git, prior, head):
        return Since(None, f"--since last: the last reviewed commit {short} is no longer in"
                           f" {branch}'s history (rebased or force-pushed?); reviewing the"
                           " whole branch")
    if prior == head:
        return Since(None, f"--since last: no commits since the last review ({short});"
                           " reviewing the whole branch")
    return Since(prior, f"--since last: reviewing the commits after {short}")
