"""Benchmark: council-consolidate over 10,000 and 100,000 findings from six origins.

Goal: near-linear growth (the 100k run within 12x the 10k run) and a few
seconds for 100k.  Each size runs in a fresh subprocess so peak memory
(ru_maxrss) is per run; the time is the median of three runs of the whole
CLI (read, validate, fingerprint, dedup, number, write findings JSON Lines).
The ratio uses CPU time, which a busy machine disturbs less than wall time.
"""

from __future__ import annotations

import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ORIGINS = ("security", "requirements", "tests", "architecture", "regression", "performance")
SEVERITIES = ("critical", "medium", "minor", "P1", "P2", "P3", "warning", "suggestion")
SIZES = (10_000, 100_000)
RUNS = 3
GOAL_RATIO = 12.0


def make_input(n: int, path: Path) -> None:
    rnd = random.Random(n)
    with path.open("w") as fh:
        for i in range(n):
            rec = {
                "kind": "finding",
                "origin": ORIGINS[i % 6],
                "file": f"src/pkg{rnd.randrange(200)}/mod{rnd.randrange(50)}.py",
                "line": rnd.randrange(1, 2000),
                "severity": rnd.choice(SEVERITIES),
                "subject": f"finding {i}: something about {rnd.randrange(1000)}",
                "discussion": "Because it matters. " * rnd.randrange(0, 4),
                "confidence": 0.9,
            }
            fh.write(json.dumps(rec) + "\n")


def one_run(inp: Path) -> tuple[float, float, int]:
    """(wall seconds, CPU seconds, peak RSS KiB) of one CLI run in a child process."""
    code = (
        "import io,resource,sys,time;"
        "from council_filters.cli import consolidate as c;"
        "t=time.perf_counter();c0=time.process_time();"
        f"rc=c.main(['--format','findings','--no-source',{str(inp)!r}],stdin=io.BytesIO(),"
        "stdout=io.BytesIO(),stderr=io.StringIO());"
        "d=time.perf_counter()-t;cpu=time.process_time()-c0;"
        "print(rc,d,cpu,resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)"
    )
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=env, check=True).stdout.split()
    if out[0] != "0":
        raise SystemExit(f"council-consolidate exited {out[0]}")
    return float(out[1]), float(out[2]), int(out[3])


def main() -> int:
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        for n in SIZES:
            inp = Path(tmp) / f"f{n}.jsonl"
            make_input(n, inp)
            runs = [one_run(inp) for _ in range(RUNS)]
            secs = statistics.median(r[0] for r in runs)
            cpu = statistics.median(r[1] for r in runs)
            peak = max(r[2] for r in runs)
            results[n] = cpu
            print(f"consolidate {n:>7} findings: median wall {secs:6.2f} s, CPU {cpu:6.2f} s, "
                  f"peak RSS {peak / 1024:6.1f} MiB ({RUNS} runs)")
    ratio = results[SIZES[1]] / results[SIZES[0]]
    ok = ratio <= GOAL_RATIO
    print(f"consolidate growth 100k/10k (CPU): {ratio:.1f}x (goal <= {GOAL_RATIO:.0f}x) "
          f"{'ok' if ok else 'MISSED'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
