"""council-dispatch in bounded time with hostile reviewers: real processes, real signals.

Reviewers here leave detached children (``setsid``) holding their pipes,
ignore TERM, or never read their stdin; dispatch itself is sent SIGINT,
SIGTERM and SIGHUP.  Every run must end within its time bound, leave no
reviewer process alive and no pack copy on disk.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import orjson
import pytest

pytestmark = pytest.mark.slow
GRACE = 0.5


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("COUNCIL_")}
    env.update(COUNCIL_KILL_GRACE=str(GRACE), **extra)
    return env


def _start(args: list[str], stdin: bytes | None, cwd: Path, **env: str) -> subprocess.Popen[bytes]:
    """council-dispatch on ``stdin`` (a file), or on a pipe left open when None."""
    source: int | object = subprocess.PIPE
    if stdin is not None:
        path = cwd / "input.jsonl"
        path.write_bytes(stdin)
        source = path.open("rb")
    return subprocess.Popen(
        [sys.executable, "-m", "council_filters.cli.dispatch", *args],
        stdin=source,  # type: ignore[arg-type]
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=cwd,
        env=_env(**env),
    )


def _rec(reviewer: str, pack: str = "PACK\n") -> bytes:
    return orjson.dumps({"kind": "reviewer", "reviewer": reviewer, "pack": pack}) + b"\n"


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except FileNotFoundError:
        return False


def _pids(directory: Path) -> list[int]:
    return [int(p.read_text()) for p in directory.glob("*.pid") if p.read_text().strip()]


def _wait_for(paths: list[Path], limit: float = 10.0) -> None:
    end = time.monotonic() + limit
    while not all(p.exists() and p.read_text().strip() for p in paths):
        assert time.monotonic() < end, "reviewers did not start"
        time.sleep(0.02)


def _all_gone(pids: list[int], limit: float = 1.0) -> bool:
    end = time.monotonic() + limit
    while any(_alive(p) for p in pids):
        if time.monotonic() > end:
            return False
        time.sleep(0.02)
    return True


def _wait_until_catching(pid: int, sig: signal.Signals, limit: float = 20.0) -> None:
    """Wait until ``pid`` has a handler for ``sig`` (its SigCgt mask), i.e. it started up."""
    end = time.monotonic() + limit
    while time.monotonic() < end:
        with open(f"/proc/{pid}/status") as fh:
            caught = next(int(ln.split()[1], 16) for ln in fh if ln.startswith("SigCgt:"))
        if caught >> (sig - 1) & 1:
            return
        time.sleep(0.02)
    raise AssertionError("dispatch never installed its signal handlers")


def _started(proc: subprocess.Popen[bytes]) -> float:
    """When dispatch is up (its handlers installed): interpreter start-up is not its time."""
    _wait_until_catching(proc.pid, signal.SIGTERM)
    return time.monotonic()


@pytest.fixture(autouse=True)
def _no_strays(tmp_path: Path):  # type: ignore[no-untyped-def]
    yield
    for pid in _pids(tmp_path):  # never leave a test's sleeper behind, pass or fail
        if _alive(pid):
            os.kill(pid, signal.SIGKILL)


# --------------------------------------------------------------------------- #
# Detached children holding the pipes.
# --------------------------------------------------------------------------- #
def test_detached_child_holding_stdout_does_not_hold_the_run(tmp_path: Path) -> None:
    cmd = (
        f"claude=setsid sh -c 'echo $$ > {tmp_path}/det.pid; exec sleep 300' & "
        'sleep 0.3; echo "Verdict: APPROVE"'
    )
    proc = _start(["-c", cmd, "--timeout", "5"], _rec("claude"), tmp_path)
    start = _started(proc)
    out, err = proc.communicate(timeout=60)
    wall = time.monotonic() - start
    assert proc.returncode == 0, err
    assert wall < 5 + GRACE + 2
    assert wall < 4  # not the timeout: the command itself ended at 0.3 s
    (r,) = [orjson.loads(x) for x in out.splitlines()]
    assert (r["status"], r["exit_code"], r["output"]) == ("OK", 0, "Verdict: APPROVE\n")
    assert b"still held the output" in err
    assert _all_gone(_pids(tmp_path))  # the escaped child was found by its pipe and stopped


@pytest.mark.parametrize("stream", ["stdout", "stderr", "both"])
def test_timeout_with_detached_children_ignoring_term_is_bounded(
    tmp_path: Path, stream: str
) -> None:
    redirect = {"stdout": "2>/dev/null", "stderr": ">/dev/null", "both": ""}[stream]
    cmd = (
        f"claude=setsid sh -c 'trap \"\" TERM HUP INT; echo $$ > {tmp_path}/det.pid; "
        f"while :; do sleep 1; done' {redirect} & "
        f"trap '' TERM; echo $$ > {tmp_path}/lead.pid; while :; do sleep 1; done"
    )
    timeout = 2
    proc = _start(["-c", cmd, "--timeout", str(timeout)], _rec("claude"), tmp_path)
    start = _started(proc)
    out, err = proc.communicate(timeout=60)
    wall = time.monotonic() - start
    assert proc.returncode == 0, err
    assert wall < timeout + GRACE + 2
    (r,) = [orjson.loads(x) for x in out.splitlines()]
    assert (r["status"], r["exit_code"]) == ("TIMEOUT", 137)
    assert _all_gone(_pids(tmp_path))


def test_command_that_never_reads_a_large_pack_is_bounded(tmp_path: Path) -> None:
    # 4 MiB on stdin to a command that never reads it, and a detached child
    # that inherited the stdin pipe: the writer must never block.
    cmd = f"claude=setsid sh -c 'echo $$ > {tmp_path}/det.pid; exec sleep 300' & sleep 60"
    proc = _start(["-c", cmd, "--timeout", "1"], _rec("claude", "x" * (4 << 20)), tmp_path)
    start = _started(proc)
    out, err = proc.communicate(timeout=60)
    assert time.monotonic() - start < 1 + GRACE + 2
    (r,) = [orjson.loads(x) for x in out.splitlines()]
    assert r["status"] == "TIMEOUT"
    assert _all_gone(_pids(tmp_path))


# --------------------------------------------------------------------------- #
# Interrupts.
# --------------------------------------------------------------------------- #
def _stubborn(tmp_path: Path, name: str, file: bool) -> str:
    """A reviewer that ignores every stop signal and leaves a detached child doing the same."""
    where = f"echo {{pack_dir}} > {tmp_path}/{name}.dir; " if file else ""
    return (
        f"{name}={where}"
        f"setsid sh -c 'trap \"\" TERM HUP INT; echo $$ > {tmp_path}/{name}-det.pid; "
        f"while :; do sleep 1; done' & "
        f"trap '' TERM HUP INT; echo $$ > {tmp_path}/{name}.pid; while :; do sleep 1; done"
    )


@pytest.mark.parametrize(
    ("sig", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143), (signal.SIGHUP, 129)]
)
def test_stop_signal_kills_every_reviewer_and_removes_packs(
    tmp_path: Path, sig: signal.Signals, code: int
) -> None:
    stdin = _rec("claude") + _rec("gemini") + _rec("codex")
    args = [
        "-c", _stubborn(tmp_path, "claude", file=True),
        "-c", _stubborn(tmp_path, "gemini", file=True),
        "-c", f"codex=echo $$ > {tmp_path}/codex.pid; exec sleep 300",
        "--timeout", "600",
    ]
    proc = _start(args, stdin, tmp_path)
    markers = [tmp_path / f"{n}.pid" for n in ("claude", "gemini", "codex")]
    markers += [tmp_path / f"{n}-det.pid" for n in ("claude", "gemini")]
    markers += [tmp_path / f"{n}.dir" for n in ("claude", "gemini")]
    _wait_for(markers)
    pack_dirs = [Path((tmp_path / f"{n}.dir").read_text().strip()) for n in ("claude", "gemini")]
    assert all(d.is_dir() for d in pack_dirs)
    pids = _pids(tmp_path)
    assert len(pids) == 5 and all(_alive(p) for p in pids)
    sent = time.monotonic()
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=30)
    elapsed = time.monotonic() - sent
    assert proc.returncode == code, err
    assert elapsed <= GRACE + 1.0
    assert err.decode().splitlines() == [
        f"council-dispatch: interrupted by {sig.name}; reviewers stopped"
    ]
    assert _all_gone(pids, limit=0.5)
    assert not any(d.exists() for d in pack_dirs)


def test_signal_while_reading_input_exits_at_once(tmp_path: Path) -> None:
    proc = _start(["-c", "claude=true"], None, tmp_path)  # stdin left open
    _wait_until_catching(proc.pid, signal.SIGTERM)
    sent = time.monotonic()
    proc.send_signal(signal.SIGTERM)
    _out, err = proc.communicate(timeout=30)
    assert proc.returncode == 143
    assert time.monotonic() - sent < 1.0
    assert b"interrupted by SIGTERM" in err


def test_signal_with_jobs_limit_starts_nothing_more(tmp_path: Path) -> None:
    stdin = _rec("claude") + _rec("gemini")
    args = [
        "-j", "1",
        "-c", f"claude=echo $$ > {tmp_path}/claude.pid; exec sleep 300",
        "-c", f"gemini=echo $$ > {tmp_path}/gemini.pid; exec sleep 300",
    ]
    proc = _start(args, stdin, tmp_path)
    _wait_for([tmp_path / "claude.pid"])
    proc.send_signal(signal.SIGINT)
    _out, _err = proc.communicate(timeout=30)
    assert proc.returncode == 130
    time.sleep(0.3)
    assert not (tmp_path / "gemini.pid").exists()
    assert _all_gone(_pids(tmp_path))


def test_stop_after_a_signal_inside_start_skips_the_thread_never_started() -> None:
    """A stop signal can land inside ``Runner.start`` after a worker thread was created and
    listed but before it started (the first reviewer already running): stopping then
    joins only the threads that ran, and ends the run as an interruption, not a crash."""
    import threading

    from council_filters.dispatch import process
    from council_filters.dispatch.runner import Runner

    runner = Runner(process.Limits(kill_grace=0.1), {}, 1)
    ran = threading.Thread(target=lambda: None, daemon=True)
    ran.start()
    runner._threads += [ran, threading.Thread(target=lambda: None, daemon=True)]
    runner.stop(signal.SIGINT)  # raised RuntimeError ("cannot join thread before it is started")
    assert runner.cancel.is_set()
