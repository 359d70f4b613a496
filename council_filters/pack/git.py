"""Running git safely: argument vectors only, no shell, refs checked before use.

Every call is ``git -C <root> ...`` through :mod:`council_filters.base.gitcmd`:
the user's environment (so output matches what the same git prints for
them), with prompts, optional locks, pagers and colour off, and everything
of the checkout's configuration or attributes that could run a program
(fsmonitor, hooks, textconv and external diff drivers, filters, signature
programs, transports) overridden on the command line.  Refs from
the command line must match the allowlist ``^[A-Za-z0-9_][A-Za-z0-9/_.-]*$``
(so nothing starting with ``-`` ever reaches git as an option) and are passed
after ``--end-of-options`` where git accepts it.
"""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from council_filters.base import diffs, gitcmd
from council_filters.base.errors import DataError

REF_RE = re.compile(r"\A[A-Za-z0-9_][A-Za-z0-9/_.-]*\Z")
SAFE_ENV = gitcmd.ENV
# Modes in `git ls-tree` output.
MODE_SYMLINK = "120000"
MODE_SUBMODULE = "160000"


class GitFailed(DataError):
    """A git command failed; the message never carries git's own stderr."""


def check_ref(ref: str) -> str:
    """Refuse a ref that starts with ``-`` or falls outside the allowlist."""
    if ref.startswith("-") or not REF_RE.match(ref):
        raise DataError(
            f'ref "{_shown(ref)}" refused: refs must match ^[A-Za-z0-9_][A-Za-z0-9/_.-]*$'
        )
    return ref


def _shown(text: str) -> str:
    return text.encode("unicode_escape").decode("ascii") if not text.isprintable() else text


@dataclass(frozen=True)
class Blob:
    """One entry of HEAD's tree: path, mode and object id."""

    path: str
    mode: str
    oid: str


class GitRepo:
    """A repository work tree, addressed by its top-level directory."""

    def __init__(self, root: str | os.PathLike[str], head: str = "HEAD") -> None:
        self.root = Path(root)
        self.head = head  # the commit a review reads: HEAD, or a scope's snapshot
        self._filters: list[tuple[str, str]] | None = None

    # -- running -------------------------------------------------------------
    def _env(self) -> dict[str, str]:
        return gitcmd.config_env(gitcmd.env())  # a git that git itself starts, too

    def filter_overrides(self) -> list[tuple[str, str]]:
        """The filter drivers this repository's configuration defines, turned off."""
        if self._filters is None:
            self._filters = []
            try:
                res = subprocess.run(
                    gitcmd.argv(str(self.root), ["config", "-z", "--name-only", "--list"]),
                    capture_output=True, env=self._env(), check=False)
            except OSError:
                return []
            keys = [os.fsdecode(k) for k in res.stdout.split(b"\0") if k]
            self._filters = gitcmd.filter_overrides(keys)
        return self._filters

    def argv(self, args: Sequence[str]) -> list[str]:
        """The full git command line for ``args`` (the overrides included)."""
        return gitcmd.argv(str(self.root), args, self.filter_overrides())

    def run(
        self,
        args: Sequence[str],
        *,
        ok_codes: Sequence[int] = (0,),
        stdin: bytes | None = None,
        env: Mapping[str, str] | None = None,
    ) -> subprocess.CompletedProcess[bytes]:
        """Run ``git -C root ARGS`` (``env``: extra variables); raise :class:`GitFailed`
        on an unexpected exit."""
        try:
            res = subprocess.run(
                self.argv(args),
                input=stdin,
                capture_output=True,
                env={**self._env(), **(env or {})},
                check=False,
            )
        except OSError as exc:
            raise GitFailed(f"cannot run git: {exc.strerror or type(exc).__name__}") from None
        if res.returncode not in ok_codes:
            raise GitFailed(f"git {args[0]} failed (exit {res.returncode})")
        return res

    def out(self, *args: str) -> bytes:
        return self.run(args).stdout

    def ok(self, *args: str) -> bool:
        return self.run(args, ok_codes=range(256)).returncode == 0

    # -- discovery -----------------------------------------------------------
    @classmethod
    def discover(cls, start: str | os.PathLike[str] = ".") -> GitRepo:
        """The repository containing ``start`` (its top level), or a DataError."""
        probe = cls(start)
        try:
            res = probe.run(["rev-parse", "--show-toplevel"], ok_codes=range(256))
        except GitFailed:
            raise DataError("not in a git repository") from None
        top = res.stdout.rstrip(b"\n")
        if res.returncode != 0 or not top:
            raise DataError("not in a git repository")
        return cls(os.fsdecode(top))

    # -- refs ----------------------------------------------------------------
    def verify(self, ref: str) -> bool:
        """``git rev-parse --verify --quiet REF`` succeeds."""
        return self.ok("rev-parse", "--verify", "--quiet", "--end-of-options", ref)

    def commit_sha(self, ref: str) -> str:
        """The full SHA of the commit ``ref`` names (``ref`` itself when it names none)."""
        res = self.run(
            ["rev-parse", "--verify", "--quiet", "--end-of-options", ref + "^{commit}"],
            ok_codes=range(256),
        )
        sha = res.stdout.decode("ascii", "replace").strip()
        return sha if res.returncode == 0 and sha else ref

    def verify_commit(self, ref: str) -> bool:
        return self.ok("rev-parse", "--verify", "--quiet", "--end-of-options", ref + "^{commit}")

    def merge_base(self, ref: str) -> str | None:
        res = self.run(["merge-base", self.head, ref], ok_codes=range(256))
        sha = res.stdout.decode("ascii", "replace").strip()
        return sha if res.returncode == 0 and sha else None

    def upstream(self) -> str | None:
        """The abbreviated name of HEAD's upstream (``origin/main``), or None."""
        res = self.run(
            ["rev-parse", "--abbrev-ref", "--symbolic-full-name", "@{u}"], ok_codes=range(256)
        )
        name = os.fsdecode(res.stdout.strip())
        return name if res.returncode == 0 and name else None

    def branch_name(self) -> str:
        """``git rev-parse --abbrev-ref HEAD`` (``HEAD`` when detached)."""
        return os.fsdecode(self.out("rev-parse", "--abbrev-ref", "HEAD").rstrip(b"\n"))

    # -- diffs ---------------------------------------------------------------
    def _diff(self, base: str, *extra: str) -> bytes:
        """``git diff BASE...HEAD`` as text whatever the attributes say (``-diff``,
        ``binary``): what git would hide as binary but is mostly text is shown and marked
        (:func:`council_filters.base.diffs.text_diff`)."""
        try:
            raw = self.out("diff", "--no-color", "--no-ext-diff", "--text", *extra,
                           f"{base}...{self.head}")
        except GitFailed:
            raise GitFailed(f"git diff against {base} failed") from None
        return diffs.text_diff(raw) if not extra else raw

    def diff(self, base: str) -> bytes:
        return self._diff(base)

    def diff_stat(self, base: str) -> bytes:
        return self._diff(base, "--stat")

    def diff_and_stat(self, base: str) -> tuple[bytes, bytes]:
        """``(diff(base), diff_stat(base))``: :meth:`start_diff_and_stat`, waited for."""
        return self.start_diff_and_stat(base)()

    def start_diff_and_stat(self, base: str) -> Callable[[], tuple[bytes, bytes]]:
        """Start ``diff(base)`` and ``diff_stat(base)``, two git runs side by side (one
        ``git diff --stat --patch`` costs what the two cost one after the other: git
        computes every file's change once for the stat and again for the patch); the
        call returned waits for both and gives ``(diff, stat)`` or raises what failed.
        The caller may run other git commands meanwhile; it must make that call, even
        on its own failure, so that no git outlives it."""
        self.filter_overrides()  # read once here, not by both threads
        stat = _Background(self.diff_stat, base)
        diff = _Background(self.diff, base)

        def wait() -> tuple[bytes, bytes]:
            return diff.result(), stat.result()

        return wait

    def changed_files(self, base: str) -> list[str]:
        """``git diff --name-only BASE...HEAD`` in git's order, paths unquoted."""
        raw = self._diff(base, "--name-only", "-z")
        return [os.fsdecode(p) for p in raw.split(b"\0") if p]

    def log_oneline(self, path: str, count: int = 10) -> bytes:
        return self.out("log", f"-{count}", "--oneline", "--no-color", "--", path)

    # -- reading the reviewed tree -------------------------------------------------
    def head_entries(self, paths: Sequence[str], rev: str | None = None) -> dict[str, Blob]:
        """``rev``'s tree entries for ``paths`` (missing paths are absent); default: the
        reviewed commit (HEAD, or a scope's snapshot)."""
        entries: dict[str, Blob] = {}
        out = b"".join(
            self.out(
                "ls-tree",
                "-z",
                "--full-tree",
                rev or self.head,
                "--",
                *[":(literal)" + p for p in paths[i : i + 500]],
            )
            for i in range(0, len(paths), 500)
        )
        for rec in out.split(b"\0"):
            if not rec:
                continue
            meta, _, name = rec.partition(b"\t")
            mode, _kind, oid = meta.decode("ascii").split(" ")
            path = os.fsdecode(name)
            entries[path] = Blob(path, mode, oid)
        return entries

    def read_blobs(
        self, oids: Sequence[str], limit: int, *, options: Sequence[str] = (),
        env: Mapping[str, str] | None = None,
    ) -> Iterator[tuple[str, bytes, int]]:
        """``(oid, first `limit` bytes, size)`` for each blob, streamed from one git process
        (``options``: git options before ``cat-file``, e.g. ``-c`` settings)."""
        if not oids:
            return
        proc = subprocess.Popen(
            [*self.argv([]), *options, "cat-file", "--batch"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env={**self._env(), **(env or {})},
        )
        assert proc.stdin is not None and proc.stdout is not None
        request = b"".join(o.encode("ascii") + b"\n" for o in oids)
        writer = threading.Thread(target=_feed, args=(proc.stdin, request), daemon=True)
        writer.start()
        try:
            for oid in oids:
                header = proc.stdout.readline().split()
                if len(header) != 3:
                    raise GitFailed("git cat-file returned an unexpected header")
                size = int(header[2])
                head = proc.stdout.read(min(size, limit))
                left = size - len(head)
                while left > 0:  # drain the rest of a large blob in chunks
                    chunk = proc.stdout.read(min(left, 1 << 20))
                    if not chunk:
                        raise GitFailed("git cat-file ended early")
                    left -= len(chunk)
                proc.stdout.read(1)  # the newline after each object
                yield oid, head, size
        finally:
            proc.stdout.close()
            proc.kill()
            proc.wait()
            writer.join()


class _Background:
    """``fn(*args)`` in a thread (a git run waits on its pipes, not on the interpreter)."""

    def __init__(self, fn: Callable[..., bytes], *args: str) -> None:
        self._value: bytes | None = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, args=(fn, args), daemon=True)
        self._thread.start()

    def _run(self, fn: Callable[..., bytes], args: tuple[str, ...]) -> None:
        try:
            self._value = fn(*args)
        except BaseException as exc:  # noqa: BLE001 - handed to the waiting caller
            self._error = exc

    def result(self) -> bytes:
        self._thread.join()
        if self._error is not None:
            raise self._error
        assert self._value is not None
        return self._value


def _feed(stream: IO[bytes], data: bytes) -> None:
    with contextlib.suppress(OSError):
        stream.write(data)
        stream.close()
