"""Benchmark council-redact --out-dir: --jobs 1, --jobs 2 and a 2-worker Dask LocalCluster.

    python bench/bench_batch.py [--size-mb 500] [--runs 1] [--corpus DIR] [--keep]

The corpus (typical reviewer and CI text with rare credentials and PEM
blocks, files of 0.1 to 2.5 MB in nested directories) is generated once,
deterministically, under the system temp directory and reused while its
stamp matches.  Each configuration redacts the same corpus into a fresh
output directory in the same run of this script; the row is the median wall
time of --runs runs, as MB/s, and the ratio against --jobs 1.  Every run's
manifest must record the same sha256 for every output, or the script fails.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_redact import gen_typical  # noqa: E402 - the shared corpus generator

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
CONFIGS = {
    "--jobs 1": ["--jobs", "1"],
    "--jobs 2": ["--jobs", "2"],
    "LocalCluster, 2 workers": ["--scheduler", "local", "--jobs", "2"],
}


def make_corpus(root: Path, size: int, seed: int = 16) -> tuple[int, int]:
    """Files under ``root`` adding up to ``size`` bytes; (files, bytes).  Reused when stamped."""
    stamp = root.parent / (root.name + ".stamp")
    want = f"{size} {seed} v1"
    if stamp.is_file() and stamp.read_text() == want:
        files = [p for p in root.rglob("*") if p.is_file()]
        return len(files), sum(p.stat().st_size for p in files)
    shutil.rmtree(root, ignore_errors=True)
    stamp.unlink(missing_ok=True)
    root.mkdir(parents=True)
    rng = random.Random(seed)
    total = n = 0
    while total < size:
        part = min(rng.randint(100_000, 2_500_000), size - total)
        path = root / f"team{n % 8}" / f"job{n % 50:02d}" / f"run-{n:05d}.log"
        path.parent.mkdir(parents=True, exist_ok=True)
        gen_typical(path, part, seed * 100_000 + n)
        total += path.stat().st_size
        n += 1
    stamp.write_text(want)
    return n, total


def run_config(args: list[str], corpus: Path, out: Path) -> tuple[float, dict[str, str]]:
    shutil.rmtree(out, ignore_errors=True)
    cmd = [PY, "-m", "council_filters.cli.redact", *args, "--out-dir", str(out), "--base",
           str(corpus), str(corpus)]
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, env=ENV, capture_output=True, text=True)
    elapsed = time.perf_counter() - t0
    if proc.returncode != 0:
        raise SystemExit(f"bench_batch: {' '.join(args)} exited {proc.returncode}: "
                         f"{proc.stderr.strip()[:300]}")
    rows = [orjson.loads(x) for x in (out / "manifest.jsonl").read_bytes().splitlines()]
    return elapsed, {r["input"]: r["sha256"] for r in rows}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--size-mb", type=int, default=500, help="corpus size (default 500)")
    ap.add_argument("--runs", type=int, default=1, help="runs per configuration (median)")
    ap.add_argument("--corpus", type=Path,
                    default=Path(tempfile.gettempdir()) / "council-bench-batch" / "corpus")
    ap.add_argument("--keep", action="store_true", help="keep the outputs")
    opts = ap.parse_args()
    try:
        import distributed  # noqa: F401
    except ImportError:
        print("bench_batch: skipped (needs pip install 'council-filters[dask]')")
        return 0
    size = opts.size_mb * 1_000_000
    print(f"council-redact --out-dir over {opts.size_mb} MB, {os.cpu_count()} cores; "
          f"{opts.runs} run(s) each, median wall time")
    t0 = time.perf_counter()
    files, total = make_corpus(opts.corpus, size)
    print(f"corpus: {files} files, {total / 1e6:.0f} MB under {opts.corpus} "
          f"(ready in {time.perf_counter() - t0:.0f} s)")
    out_root = opts.corpus.parent / "out"
    results: dict[str, float] = {}
    reference: dict[str, str] | None = None
    for name, args in CONFIGS.items():
        times = []
        for _ in range(opts.runs):
            elapsed, shas = run_config(args, opts.corpus, out_root / name.split(",")[0]
                                       .replace(" ", "").replace("-", ""))
            if reference is None:
                reference = shas
            elif shas != reference:
                raise SystemExit(f"bench_batch: {name}: outputs differ from --jobs 1")
            times.append(elapsed)
        results[name] = statistics.median(times)
    base = results["--jobs 1"]
    print("\n| configuration | wall time | throughput | vs --jobs 1 |\n|---|---|---|---|")
    for name, secs in results.items():
        print(f"| {name} | {secs:.1f} s | {total / 1e6 / secs:.1f} MB/s | {base / secs:.2f}× |")
    print(f"\nall {len(reference or {})} outputs identical across configurations")
    if not opts.keep:
        shutil.rmtree(out_root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
