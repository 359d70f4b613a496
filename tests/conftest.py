"""What every test shares: a pinned environment and one way to run a filter.

``run_filter(exe, args, stdin)`` runs ``council-<exe>`` in-process through its
``main(argv, *, stdin, stdout, stderr)``; ``run_process`` runs the installed
executable as a real process, for what only a process shows (exit status of
the interpreter, signals, file descriptors, the console-script wrapper).  Both
return the same ``Result(code, out, err)``: exit code, stdout bytes, stderr
text.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import os
import subprocess
import sys
import tomllib
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any, NamedTuple

import hypothesis
import orjson

from procenv import GIT_ENV

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(ROOT))

# Tests never depend on the machine's locale, time zone or colour settings.
os.environ["LC_ALL"] = "C.UTF-8"
os.environ["TZ"] = "UTC"
os.environ["NO_COLOR"] = "1"
os.environ.pop("COUNCIL_DEBUG", None)

# Property tests draw the same examples on every machine, CI or not (what CI's own
# profile does), and a loaded machine's slowness fails none of them: no deadline per
# example, no "too slow" health check.  HYPOTHESIS_PROFILE=explore draws fresh ones.
hypothesis.settings.register_profile(
    "repeatable", derandomize=True, deadline=None, database=None, print_blob=True,
    suppress_health_check=[hypothesis.HealthCheck.too_slow],
)
hypothesis.settings.register_profile(
    "explore", deadline=None, suppress_health_check=[hypothesis.HealthCheck.too_slow],
)
hypothesis.settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))

#: Every filter, in pyproject's [project.scripts] order (one registry: a new filter cannot be
#: forgotten here); `council`, the front command over them, is not a filter.
FILTERS = tuple(name.removeprefix("council-") for name in tomllib.loads(
    (ROOT / "pyproject.toml").read_text())["project"]["scripts"] if name.startswith("council-"))

Main = Callable[..., int]
Env = Mapping[str, str | None]


class Result(NamedTuple):
    """One run of a filter.  Unpacks as ``code, out, err``."""

    code: int
    out: bytes
    err: str

    def records(self) -> list[dict[str, Any]]:
        """stdout read as JSON Lines."""
        return [orjson.loads(line) for line in self.out.splitlines()]

    @property
    def text(self) -> str:
        return self.out.decode("utf-8")


def filter_name(exe: str) -> str:
    """``council-parse-verdict``, ``parse-verdict`` and ``parse_verdict`` name one filter."""
    name = exe.removeprefix("council-").replace("_", "-")
    if name not in FILTERS:
        raise ValueError(f"no such filter: {exe!r} (one of {', '.join(FILTERS)})")
    return name


def cli_module(exe: str) -> ModuleType:
    """The CLI module of a filter."""
    return importlib.import_module("council_filters.cli." + filter_name(exe).replace("-", "_"))


@contextlib.contextmanager
def environment(env: Env | None = None,
                cwd: str | os.PathLike[str] | None = None) -> Iterator[None]:
    """Set (a value) or unset (``None``) environment variables and the working directory
    for the duration of the block; everything is put back afterwards."""
    saved = {key: os.environ.get(key) for key in env or {}}
    here = os.getcwd() if cwd is not None else None
    try:
        for key, value in (env or {}).items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
        if cwd is not None:
            os.chdir(cwd)
        yield
    finally:
        if here is not None:
            os.chdir(here)
        for key, old in saved.items():
            if old is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = old


def _stdin_bytes(stdin: bytes | str) -> bytes:
    return stdin.encode("utf-8") if isinstance(stdin, str) else stdin


def run_filter(exe: str | Main, args: Sequence[str] = (), stdin: bytes | str = b"", *,
               env: Env | None = None, cwd: str | os.PathLike[str] | None = None) -> Result:
    """Run a filter in-process: ``exe`` is a filter name (``redact`` or ``council-redact``)
    or a ``main`` with the filters' signature.  ``env`` sets (or, with ``None``, unsets)
    variables and ``cwd`` the working directory for this run only."""
    main: Main = cli_module(exe).main if isinstance(exe, str) else exe
    out, err = io.BytesIO(), io.StringIO()
    with environment(env, cwd):
        code = main(list(args), stdin=io.BytesIO(_stdin_bytes(stdin)), stdout=out, stderr=err)
    return Result(code, out.getvalue(), err.getvalue())


def bin_dir() -> Path:
    """Where the installed council-* executables live: next to the interpreter running the
    tests (the console scripts pip installed), else the checkout's ``bin/`` launchers."""
    here = Path(sys.executable).parent
    if all((here / f"council-{name}").is_file() for name in FILTERS):
        return here
    return ROOT / "bin"


def executable(exe: str, *, launcher: bool = False) -> Path:
    """Absolute path of the installed ``council-<exe>`` (with ``launcher``: of the
    checkout's ``bin/`` launcher)."""
    return (ROOT / "bin" if launcher else bin_dir()) / f"council-{filter_name(exe)}"


def child_env(env: Env | None = None) -> dict[str, str]:
    """This process's environment with ``env`` applied (``None`` unsets), for a child."""
    full = dict(os.environ)
    for key, value in (env or {}).items():
        if value is None:
            full.pop(key, None)
        else:
            full[key] = value
    return full


def run_process(exe: str, args: Sequence[str] = (), stdin: bytes | str = b"", *,
                env: Env | None = None, cwd: str | os.PathLike[str] | None = None,
                timeout: float = 60, launcher: bool = False) -> Result:
    """Run the installed executable (with ``launcher``: the checkout's ``bin/`` launcher) as
    a real process.  The environment is this process's with ``env`` applied (``None``
    unsets); stderr is decoded as UTF-8, bad bytes escaped."""
    proc = subprocess.run([str(executable(exe, launcher=launcher)), *args],
                          input=_stdin_bytes(stdin), capture_output=True, env=child_env(env),
                          cwd=cwd, timeout=timeout, check=False)
    return Result(proc.returncode, proc.stdout, proc.stderr.decode("utf-8", "backslashreplace"))


def git(repo: str | os.PathLike[str], *args: str) -> str:
    """Run git in ``repo`` with identity, dates and configuration pinned; its stdout."""
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True,
                          text=True, env={**os.environ, **GIT_ENV}).stdout


def make_git_repo(path: Path, files: Mapping[str, str], *, branch: str = "main") -> Path:
    """A repository at ``path`` with one commit holding ``files`` (relative path: text)."""
    for rel, text in files.items():
        (path / rel).parent.mkdir(parents=True, exist_ok=True)
        (path / rel).write_text(text)
    git(path, "init", "-q", "-b", branch)
    git(path, "add", "-A")
    git(path, "commit", "-q", "-m", "init")
    return path


def make_repo(root: Path, base: Mapping[str, str | bytes | None],
              change: Mapping[str, str | bytes | None] | None = None,
              branch: str = "feature/change") -> Path:
    """``root`` with ``base`` committed on main and ``change`` (relative path: text, bytes, or
    None to delete) committed on ``branch``, which stays checked out."""

    def write(files: Mapping[str, str | bytes | None]) -> None:
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

    root.mkdir(parents=True, exist_ok=True)
    git(root, "init", "-q", "-b", "main")
    write(base)
    git(root, "add", "-A")
    git(root, "commit", "-q", "--allow-empty", "-m", "base")
    git(root, "checkout", "-q", "-b", branch)
    if change:
        write(change)
        git(root, "add", "-A")
        git(root, "commit", "-q", "-m", "change")
    return root
