"""Running one reviewer command in bounded time, whatever it does with its pipes.

The command runs as ``sh -c CMD`` in a new session (its own process group).
One thread per command drives everything with non-blocking descriptors and a
selector: the pack written to stdin, stdout and stderr drained (kept up to a
cap each, the rest read and dropped), the exit noticed through a pidfd.  No
call ever blocks on a pipe, so a process that escaped the group and still
holds the command's output cannot hold dispatch:

* at the limit the whole group gets SIGTERM, and SIGKILL ``kill_grace``
  seconds later; once the command's shell has exited, a SIGKILL sweep of the
  group ends whatever it started and left running;
* after the exit, output still arriving is read for at most ``LINGER``
  seconds; then any process still holding the pipes (one that left the group
  with ``setsid``) is killed where the system tells which (Linux ``/proc``),
  and the pipes are closed without waiting;
* a :class:`Cancel` set by an interrupt moves every running command straight
  to SIGTERM, SIGKILL after the grace, no lingering.

So one command takes at most ``timeout + kill_grace + LINGER`` seconds (plus
scheduling), and an interrupted run ends within ``kill_grace`` plus a fraction
of a second.  Every live process group and private pack directory is known to
a :class:`Registry`, the last line of cleanup for an interrupt.
"""

from __future__ import annotations

import contextlib
import os
import selectors
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass, field

#: Seconds output may keep arriving after the command exited.
LINGER = 1.0
#: Longest sleep between two looks at the clock, the cancel flag and the exit.
_TICK = 0.05
_CHUNK = 1 << 16
#: Seconds to drain the pipes after a command that was stopped at its limit.
_DRAIN = 0.2


@dataclass(frozen=True)
class Limits:
    timeout: int = 600
    kill_grace: float = 10.0
    output_cap: int = 8 << 20
    stderr_cap: int = 1 << 20
    cwd: str | None = None


@dataclass
class Run:
    """How one command ended."""

    stdout: bytes
    stderr: bytes
    returncode: int
    timed_out: bool = False
    killed: bool = False
    duration_ms: int = 0
    capped: list[str] = field(default_factory=list)
    #: The pipes were closed while some process still held them.
    abandoned: bool = False
    #: The run was stopped by an interrupt.
    cancelled: bool = False


class Cancel:
    """Set once by an interrupt; every running command stops, none starts."""

    def __init__(self) -> None:
        self._event = threading.Event()
        self.signum: int | None = None

    def set(self, signum: int) -> None:
        if self.signum is None:
            self.signum = signum
        self._event.set()

    def is_set(self) -> bool:
        return self._event.is_set()


class Registry:
    """The process groups and pack directories alive right now."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.groups: set[int] = set()
        self.dirs: set[str] = set()

    def signal_all(self, sig: int) -> None:
        with self.lock:
            groups = list(self.groups)
        for pgid in groups:
            killpg(pgid, sig)

    def remove_dirs(self) -> None:
        with self.lock:
            dirs = list(self.dirs)
            self.dirs.clear()
        for directory in dirs:
            shutil.rmtree(directory, ignore_errors=True)


def killpg(pgid: int, sig: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, sig)


# --------------------------------------------------------------------------- #
# Private pack files.
# --------------------------------------------------------------------------- #
def private_pack(reviewer: str, pack: bytes, registry: Registry | None = None) -> str:
    """A 0600 ``pack.txt`` inside a fresh 0700 directory; returns the file path."""
    directory = tempfile.mkdtemp(prefix=f"council-{reviewer}-pack-")
    if registry is not None:
        with registry.lock:
            registry.dirs.add(directory)
    path = os.path.join(directory, "pack.txt")
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
    with os.fdopen(fd, "wb") as fh:
        fh.write(pack)
    return path


def remove_pack(path: str, registry: Registry | None = None) -> None:
    directory = os.path.dirname(path)
    shutil.rmtree(directory, ignore_errors=True)
    if registry is not None:
        with registry.lock:
            registry.dirs.discard(directory)


# --------------------------------------------------------------------------- #
# Processes that left the group but kept the pipes.
# --------------------------------------------------------------------------- #
def _pipe_inode(fd: int) -> int:
    return os.fstat(fd).st_ino


def kill_pipe_holders(inodes: set[int]) -> int:
    """SIGKILL every other process holding one of these pipes; returns how many.

    Linux only (reads ``/proc``); elsewhere nothing is found and the pipes
    are simply abandoned.  Each process is pinned with a pidfd and its
    descriptors re-checked before the signal, so a reused pid is never hit.
    """
    links = {f"pipe:[{inode}]" for inode in inodes}
    me = os.getpid()
    killed = 0
    try:
        pids = [int(name) for name in os.listdir("/proc") if name.isdigit()]
    except OSError:
        return 0
    for pid in pids:
        if pid == me or not _holds(pid, links):
            continue
        try:
            pidfd = os.pidfd_open(pid)
        except (OSError, AttributeError):
            continue
        try:
            if _holds(pid, links):
                signal.pidfd_send_signal(pidfd, signal.SIGKILL)
                killed += 1
        except OSError:
            pass
        finally:
            os.close(pidfd)
    return killed


def _holds(pid: int, links: set[str]) -> bool:
    base = f"/proc/{pid}/fd"
    try:
        names = os.listdir(base)
    except OSError:
        return False
    for name in names:
        try:
            if os.readlink(f"{base}/{name}") in links:
                return True
        except OSError:
            continue
    return False


# --------------------------------------------------------------------------- #
# One command.
# --------------------------------------------------------------------------- #
class _Sink:
    """Keeps the first ``cap`` bytes read from one pipe."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.parts: list[bytes] = []
        self.kept = 0
        self.capped = False

    def add(self, chunk: bytes) -> None:
        room = self.cap - self.kept
        if room > 0:
            self.parts.append(chunk[:room])
            self.kept += min(room, len(chunk))
        if len(chunk) > room:
            self.capped = True

    def data(self) -> bytes:
        return b"".join(self.parts)


def _exited(pid: int) -> bool:
    """Has ``pid`` exited?  Does not reap it, so its group id stays reserved."""
    try:
        info = os.waitid(os.P_PID, pid, os.WEXITED | os.WNOWAIT | os.WNOHANG)
    except ChildProcessError:
        return True
    return info is not None


def execute(
    shell: str,
    stdin_data: bytes | None,
    limits: Limits,
    env: Mapping[str, str],
    *,
    cancel: Cancel | None = None,
    registry: Registry | None = None,
) -> Run:
    """Run ``sh -c shell`` and return what it printed and how it ended (see the module doc)."""
    start = time.monotonic()
    lock = registry.lock if registry is not None else contextlib.nullcontext()
    with lock:
        if cancel is not None and cancel.is_set():
            return Run(b"", b"", -(cancel.signum or signal.SIGTERM), cancelled=True)
        proc = subprocess.Popen(
            ["sh", "-c", shell],
            stdin=subprocess.PIPE if stdin_data is not None else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
            cwd=limits.cwd,
            env=dict(env),
            bufsize=0,
        )
        if registry is not None:
            registry.groups.add(proc.pid)  # leader of its own session and group
    try:
        return _drive(proc, stdin_data, limits, start, cancel)
    finally:
        if registry is not None:
            with registry.lock:
                registry.groups.discard(proc.pid)


def _drive(
    proc: subprocess.Popen[bytes],
    stdin_data: bytes | None,
    limits: Limits,
    start: float,
    cancel: Cancel | None,
) -> Run:
    pgid = proc.pid
    assert proc.stdout is not None and proc.stderr is not None
    out, err = _Sink(limits.output_cap), _Sink(limits.stderr_cap)
    sinks = {proc.stdout.fileno(): out, proc.stderr.fileno(): err}
    inodes = {_pipe_inode(fd) for fd in sinks}
    sel = selectors.DefaultSelector()
    for fd in sinks:
        os.set_blocking(fd, False)
        sel.register(fd, selectors.EVENT_READ)
    pending = memoryview(stdin_data or b"")
    stdin_fd = proc.stdin.fileno() if proc.stdin is not None else None
    if stdin_fd is not None:
        os.set_blocking(stdin_fd, False)
        if pending:
            sel.register(stdin_fd, selectors.EVENT_WRITE)
        else:
            _close(proc.stdin)
            stdin_fd = None
    pidfd = None
    with contextlib.suppress(OSError, AttributeError):
        pidfd = os.pidfd_open(proc.pid)
        sel.register(pidfd, selectors.EVENT_READ)

    timed_out = killed = cancelled = False
    term_at = start + limits.timeout
    kill_at: float | None = None
    exit_seen: float | None = None
    leave_at: float | None = None
    try:
        while True:
            now = time.monotonic()
            if exit_seen is None and _exited(proc.pid):
                exit_seen = now
                killpg(pgid, signal.SIGKILL)  # sweep whatever the command left running
                # after a timeout nothing more is wanted: a short drain of what is in the pipes
                leave_at = now + (0.0 if cancelled else _DRAIN if timed_out else LINGER)
            if cancel is not None and cancel.is_set() and not cancelled:
                cancelled = True
                if exit_seen is None:
                    killpg(pgid, signal.SIGTERM)
                    kill_at = now + limits.kill_grace
                else:
                    leave_at = now
            if exit_seen is None:
                if kill_at is None and now >= term_at:
                    timed_out = True
                    killpg(pgid, signal.SIGTERM)
                    kill_at = now + limits.kill_grace
                elif kill_at is not None and now >= kill_at and not killed:
                    killed = True
                    killpg(pgid, signal.SIGKILL)
                    leave_at = now + min(LINGER, 0.5)  # a process SIGKILL cannot end
            if not sinks and exit_seen is not None:
                break
            if leave_at is not None and now >= leave_at:
                break
            wake = [now + _TICK]
            if exit_seen is None and kill_at is None:
                wake.append(term_at)
            elif exit_seen is None and not killed and kill_at is not None:
                wake.append(kill_at)
            if leave_at is not None:
                wake.append(leave_at)
            for key, _events in sel.select(max(0.0, min(wake) - now)):
                fd = key.fd
                if fd == pidfd:
                    sel.unregister(pidfd)
                elif fd == stdin_fd:
                    pending = _write_some(stdin_fd, pending)
                    if not pending:
                        sel.unregister(stdin_fd)
                        _close(proc.stdin)
                        stdin_fd = None
                else:
                    _read_some(fd, sinks, sel)
    finally:
        sel.close()
        abandoned = bool(sinks)
        if abandoned:
            kill_pipe_holders(inodes)
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            _close(stream)
        if pidfd is not None:
            os.close(pidfd)
        if exit_seen is not None:
            proc.wait()
        else:
            _reap_later(proc)
    duration_ms = int(((exit_seen or time.monotonic()) - start) * 1000)
    capped = [name for name, s in (("output", out), ("stderr", err)) if s.capped]
    code = proc.returncode if proc.returncode is not None else -signal.SIGKILL
    if cancelled and cancel is not None and cancel.signum is not None and not timed_out:
        code = -cancel.signum
    return Run(out.data(), err.data(), code, timed_out, killed, duration_ms, capped,
               abandoned, cancelled)


def _read_some(fd: int, sinks: dict[int, _Sink], sel: selectors.BaseSelector) -> None:
    try:
        chunk = os.read(fd, _CHUNK)
    except BlockingIOError:
        return
    except OSError:
        chunk = b""
    if chunk:
        sinks[fd].add(chunk)
        return
    sel.unregister(fd)
    del sinks[fd]


def _write_some(fd: int, pending: memoryview) -> memoryview:
    try:
        n = os.write(fd, pending[:_CHUNK])
    except BlockingIOError:
        return pending
    except OSError:  # the command closed its stdin: the rest is not wanted
        return memoryview(b"")
    return pending[n:]


def _close(stream: object) -> None:
    with contextlib.suppress(OSError, ValueError, AttributeError):
        stream.close()  # type: ignore[attr-defined]


def _reap_later(proc: subprocess.Popen[bytes]) -> None:
    """A leader SIGKILL did not end yet: reap it in the background, never wait here."""
    threading.Thread(target=proc.wait, daemon=True).start()
