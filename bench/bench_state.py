"""council-state: speed of one locked write, contention, and the SIGKILL stress run.

Reports medians and ratios from one run:

* per-verb wall time of the real executable (``python -m council_filters.cli.state``)
  on a session of N findings, against the interpreter's bare start-up;
* in-process cost of load+validate and of one write, by state size;
* 50 parallel writers on one file: total wall time, lost updates (must be 0);
* the crash stress: thousands of writers killed with SIGKILL at random moments
  (driver in ``tests/test_state_crash.py``): old/new/other counts (other must be 0).

``--quick`` shrinks every part (for a smoke run).
"""

from __future__ import annotations

import io
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from council_filters.cli import state as cli  # noqa: E402
from council_filters.state import store as statefile  # noqa: E402

QUICK = "--quick" in sys.argv


def env() -> dict[str, str]:
    e = dict(os.environ)
    e["PYTHONPATH"] = str(ROOT)
    e["COUNCIL_NOW"] = "2025-01-02T03:04:05Z"
    return e


def jl(records: list[dict]) -> bytes:
    return b"".join(json.dumps(r).encode() + b"\n" for r in records)


def session(path: Path, n: int) -> None:
    os.environ["COUNCIL_NOW"] = "2025-01-02T03:04:05Z"
    findings = [{"kind": "finding", "id": f"SEC-{i:03d}", "origin": "security",
                 "severity": "critical", "file": f"f{i}.py", "line": i, "summary": "s" * 80,
                 "fingerprint": f"fp{i}"} for i in range(1, n + 1)]
    for argv, data in ((["init"], b""), (["add"], jl(findings)), (["accept", "--all"], b"")):
        code = cli.main(["--file", str(path), *argv], stdin=io.BytesIO(data),
                        stdout=io.BytesIO(), stderr=io.StringIO())
        assert code == 0


def timed(argv: list[str], stdin: bytes = b"") -> float:
    t0 = time.perf_counter()
    subprocess.run(argv, input=stdin, capture_output=True, env=env(), check=False)
    return time.perf_counter() - t0


def bench_exec(work: Path) -> None:
    reps = 3 if QUICK else 9
    path = work / "exec.json"
    session(path, 50)
    py = [sys.executable, "-m", "council_filters.cli.state", "--file", str(path)]
    bare = statistics.median(timed([sys.executable, "-c", "pass"]) for _ in range(reps))
    imp = statistics.median(timed([sys.executable, "-c", "import council_filters.cli.state"])
                            for _ in range(reps))
    status = statistics.median(timed([*py, "status", "--json"]) for _ in range(reps))
    scope = statistics.median(timed([*py, "scope"]) for _ in range(reps))
    print(f"exec (50 findings): python start-up {bare*1000:.0f} ms, import {imp*1000:.0f} ms,"
          f" status {status*1000:.0f} ms ({status/bare:.1f}x start-up),"
          f" scope (locked, no write) {scope*1000:.0f} ms")


def bench_sizes(work: Path) -> None:
    for n in (10, 100) if QUICK else (10, 100, 1000):
        path = work / f"size{n}.json"
        session(path, n)
        data = path.read_bytes()
        loads = []
        writes = []
        for _ in range(3 if QUICK else 7):
            t0 = time.perf_counter()
            state = statefile.parse(data, "bench")
            loads.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            statefile.write_atomic(str(path), statefile.serialize(state))
            writes.append(time.perf_counter() - t0)
        print(f"state of {n} findings ({len(data)//1024} KiB): load+validate"
              f" {statistics.median(loads)*1000:.1f} ms, atomic write"
              f" {statistics.median(writes)*1000:.1f} ms")


def bench_contention(work: Path) -> None:
    n = 10 if QUICK else 50
    path = work / "contention.json"
    session(path, n)
    t0 = time.perf_counter()
    procs = [subprocess.Popen(
        [sys.executable, "-m", "council_filters.cli.state", "--file", str(path), "record-fix"],
        stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env())
        for _ in range(n)]
    for i, p in enumerate(procs, start=1):
        assert p.stdin is not None
        p.stdin.write(jl([{"id": f"SEC-{i:03d}", "outcome": "fixed", "files_touched": ["a"]}]))
        p.stdin.close()
    codes = [p.wait() for p in procs]
    wall = time.perf_counter() - t0
    st = statefile.load(str(path))
    fixed = sum(f["status"] == "fixed" for f in st["findings"])
    print(f"{n} parallel record-fix writers: {wall:.2f} s wall, exit codes 0: "
          f"{codes.count(0)}/{n}, lost updates: {n - fixed}")


def bench_crash() -> None:
    from test_state_crash import run_driver

    for mode, rounds in (("fork", 200 if QUICK else 3000), ("exec", 10 if QUICK else 200)):
        t0 = time.perf_counter()
        stats = run_driver(mode, rounds, seed=12345)
        wall = time.perf_counter() - t0
        print(f"SIGKILL stress ({mode}, {rounds} rounds, {wall:.0f} s): "
              + ", ".join(f"{k}={v}" for k, v in stats.items() if k not in ("mode", "rounds")))
        assert stats["other"] == 0


def main() -> int:
    with tempfile.TemporaryDirectory() as d:
        work = Path(d)
        bench_exec(work)
        bench_sizes(work)
        bench_contention(work)
    bench_crash()
    return 0


if __name__ == "__main__":
    sys.exit(main())
