"""Crash test: a council-state writer killed with SIGKILL at random moments.

After every kill the state file must be byte-for-byte the old state or the
new one, never anything else; the next writer must still get the lock; any
stray temp file is the only debris.

The loop runs in a separate driver process (this file run as a script), so
the pytest process never forks.  The driver starts writers two ways:

* ``exec``: ``python -m council_filters.cli.state`` as a subprocess, the real
  executable end to end (slow to start, so fewer rounds);
* ``fork``: a child of the driver, which has already imported the package,
  calls the same CLI ``main`` and exits with its code (fast, so many rounds).

Kill moments are drawn two ways: uniformly over the writer's measured
lifetime, and just after its temp file appears (the write-and-rename
window, where a non-atomic writer would leave a torn file).

``bench/bench_state.py`` runs the same driver for thousands of rounds.
"""

from __future__ import annotations

import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from conftest import run_filter
from procenv import state_cli_env

pytestmark = pytest.mark.slow  # writers killed mid-write, many times over

ROOT = Path(__file__).resolve().parent.parent
N_FINDINGS = 60  # big enough that writing the file takes a measurable moment


def _env() -> dict[str, str]:
    return state_cli_env()


# --------------------------------------------------------------------------- #
# Driver (runs in its own process).
# --------------------------------------------------------------------------- #
def _setup(work: Path) -> tuple[Path, Path, bytes]:
    """An accepted state with N_FINDINGS findings, and corrector output fixing all of them."""
    path = work / "review-state.json"
    findings = work / "findings.jsonl"
    fixes = work / "fixes.jsonl"
    with findings.open("w") as fh:
        for i in range(1, N_FINDINGS + 1):
            fh.write(json.dumps({"kind": "finding", "id": f"TST-{i:03d}", "origin": "tests",
                                 "severity": "medium", "file": f"src/m{i}.py", "line": i,
                                 "summary": "x" * 200, "fingerprint": f"fp{i}"}) + "\n")
    with fixes.open("w") as fh:
        for i in range(1, N_FINDINGS + 1):
            fh.write(json.dumps({"id": f"TST-{i:03d}", "outcome": "fixed",
                                 "files_touched": [f"src/m{i}.py"], "reason": "y" * 100}) + "\n")
    for argv in (["init", os.devnull], ["add", str(findings)], ["accept", "--all"]):
        assert run_filter("state", ["--file", str(path), *argv]).code == 0, argv
    return path, fixes, path.read_bytes()


def _start(mode: str, path: Path, fixes: Path) -> tuple[int, subprocess.Popen[bytes] | None]:
    argv = ["--file", str(path), "record-fix", str(fixes)]
    if mode == "exec":
        proc = subprocess.Popen(
            [sys.executable, "-m", "council_filters.cli.state", *argv],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        return proc.pid, proc
    pid = os.fork()
    if pid == 0:  # child: run the CLI, never return into the driver
        code = 70
        try:
            devnull = os.open(os.devnull, os.O_RDWR)
            for fd in (0, 1, 2):
                os.dup2(devnull, fd)
            from council_filters.cli import state as cli

            code = cli.main(argv)
        finally:
            os._exit(code)
    return pid, None


def _wait(pid: int, proc: subprocess.Popen[bytes] | None) -> tuple[bool, int]:
    """(killed, exit code) of a writer."""
    if proc is not None:
        rc = proc.wait()
        return rc == -signal.SIGKILL, rc
    _, status = os.waitpid(pid, 0)
    if os.WIFSIGNALED(status):
        return os.WTERMSIG(status) == signal.SIGKILL, -os.WTERMSIG(status)
    return False, os.WEXITSTATUS(status)


def _temps(path: Path) -> list[Path]:
    return [p for p in path.parent.iterdir()
            if p.name.startswith("." + path.name + ".") and p.name.endswith(".tmp")]


def _reset(path: Path, old: bytes) -> None:
    from council_filters.state import store as statefile

    for tmp in _temps(path):
        tmp.unlink()
    statefile.write_atomic(str(path), old)


def drive(mode: str, rounds: int, seed: int) -> dict[str, object]:
    os.environ.update(_env())
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as d:
        work = Path(d)
        path, fixes, old = _setup(work)
        # The new state and the writer's lifetime, from unkilled runs.
        durations = []
        new = b""
        for _ in range(3):
            _reset(path, old)
            t0 = time.perf_counter()
            pid, proc = _start(mode, path, fixes)
            killed, rc = _wait(pid, proc)
            durations.append(time.perf_counter() - t0)
            assert rc == 0, f"unkilled writer exited {rc}"
            new = path.read_bytes()
        assert new != old
        life = statistics.median(durations)
        counts = {"old": 0, "new": 0, "other": 0, "killed": 0, "finished": 0,
                  "temp_left": 0, "at_temp": 0}
        for i in range(rounds):
            _reset(path, old)
            pid, proc = _start(mode, path, fixes)
            if i % 2 == 0:
                time.sleep(rng.uniform(0, life * 1.2))
            else:  # wait for the temp file to appear, then a little more
                deadline = time.perf_counter() + life * 3
                while not _temps(path) and time.perf_counter() < deadline:
                    pass
                counts["at_temp"] += 1
                time.sleep(rng.uniform(0, 0.004))
            os.kill(pid, signal.SIGKILL)
            killed, rc = _wait(pid, proc)
            counts["killed" if killed else "finished"] += 1
            if not killed and rc != 0:
                raise AssertionError(f"round {i}: writer exited {rc}")
            data = path.read_bytes()
            if data == old:
                counts["old"] += 1
            elif data == new:
                counts["new"] += 1
            else:
                counts["other"] += 1
            counts["temp_left"] += bool(_temps(path))
        # The lock is free after all those kills, and a writer cleans the debris.
        _reset(path, old)
        (path.parent / f".{path.name}.deadbeef.tmp").write_bytes(b"{")
        pid, proc = _start(mode, path, fixes)
        killed, rc = _wait(pid, proc)
        counts["final_rc"] = rc
        counts["final_new"] = path.read_bytes() == new
        counts["final_temps"] = len(_temps(path))
        return {"mode": mode, "rounds": rounds, "writer_ms": round(life * 1000, 1), **counts}


# --------------------------------------------------------------------------- #
# Tests.
# --------------------------------------------------------------------------- #
def run_driver(mode: str, rounds: int, seed: int) -> dict[str, int]:
    res = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--driver", mode, str(rounds), str(seed)],
        capture_output=True, env=_env(), check=False, timeout=300,
    )
    assert res.returncode == 0, res.stderr.decode()[-2000:]
    return json.loads(res.stdout)  # type: ignore[no-any-return]


def _check(stats: dict[str, int], rounds: int) -> None:
    assert stats["other"] == 0, stats
    assert stats["old"] + stats["new"] == rounds, stats
    assert stats["killed"] > rounds // 3, stats  # many writers really died mid-run
    assert stats["final_rc"] == 0 and stats["final_new"] and stats["final_temps"] == 0, stats


def test_sigkill_forked_writers_leave_old_or_new() -> None:
    rounds = int(os.environ.get("COUNCIL_CRASH_ROUNDS", "250"))
    stats = run_driver("fork", rounds, seed=20250102)
    _check(stats, rounds)
    # The kills did land on both sides of the rename.
    assert stats["old"] > 0 and stats["new"] > 0, stats


def test_sigkill_real_executable_leaves_old_or_new() -> None:
    rounds = int(os.environ.get("COUNCIL_CRASH_EXEC_ROUNDS", "10"))
    stats = run_driver("exec", rounds, seed=7)
    _check(stats, rounds)


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "--driver":
        sys.path.insert(0, str(ROOT))
        print(json.dumps(drive(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))))
        sys.exit(0)
    print(__doc__)
    sys.exit(2)
