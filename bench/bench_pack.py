"""Benchmark: `council-pack review` on a large generated repository.

Builds a repository with many files, changes a large share of them on a
branch (a diff of several megabytes), then measures `council-pack review
--base main` as a separate process: the median wall time of a few runs, the
ratio to `git diff main...HEAD` alone (the floor: the pack cannot be faster
than reading the diff), whether the goal (a median of at most 1 s) is met, and
the peak resident memory of the pack process.
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FILES = int(os.environ.get("BENCH_PACK_FILES", "3000"))
CHANGED = int(os.environ.get("BENCH_PACK_CHANGED", "1500"))
LINES = 60
RUNS = int(os.environ.get("BENCH_PACK_RUNS", "5"))
GIT_ENV = {
    **os.environ,
    "GIT_AUTHOR_NAME": "Bench",
    "GIT_AUTHOR_EMAIL": "bench@example.invalid",
    "GIT_COMMITTER_NAME": "Bench",
    "GIT_COMMITTER_EMAIL": "bench@example.invalid",
    "GIT_AUTHOR_DATE": "2026-01-01T00:00:00Z",
    "GIT_COMMITTER_DATE": "2026-01-01T00:00:00Z",
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": os.devnull,
}


def git(repo: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-C", str(repo), *args], check=True, env=GIT_ENV, stdout=subprocess.DEVNULL
    )


def build(repo: Path) -> None:
    git(repo, "init", "-q", "-b", "main")
    for i in range(FILES):
        d = repo / f"pkg{i % 40:02}"
        d.mkdir(exist_ok=True)
        (d / f"mod{i:05}.py").write_text(
            "".join(f"def f{i}_{n}(x):\n    return x + {n}  # é\n" for n in range(LINES))
        )
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base")
    git(repo, "checkout", "-q", "-b", "feature")
    for i in range(CHANGED):
        p = repo / f"pkg{i % 40:02}" / f"mod{i:05}.py"
        p.write_text(p.read_text().replace("return x +", "return x * 2 +"))
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "change")


CPU: dict[str, list[float]] = {}


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def timed(cmd: list[str], cwd: Path, label: str = "") -> tuple[float, bytes]:
    """Wall time and stdout; the CPU time (user + system, the process and its children)
    is kept under ``label``: on a busy machine it is the steadier figure."""
    start, cpu = time.perf_counter(), _cpu()
    res = subprocess.run(cmd, cwd=cwd, env=GIT_ENV, capture_output=True, check=True)
    CPU.setdefault(label, []).append(_cpu() - cpu)
    return time.perf_counter() - start, res.stdout


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="bench-pack-") as tmp:
        repo = Path(tmp) / "repo"
        repo.mkdir()
        build(repo)
        diff_times, pack_times, upstream_times = [], [], []
        diff_bytes = 0
        out = b""
        pack = [sys.executable, "-m", "council_filters.cli.pack", "review", "--base", "main",
                "--run-id", "bench"]
        for _ in range(RUNS):
            t, diff = timed(["git", "diff", "main...HEAD"], repo)
            diff_times.append(t)
            diff_bytes = len(diff)
            t, out = timed(pack, repo, "numbered")  # the default: numbered excerpts
            pack_times.append(t)
            t, _ = timed([*pack, "--upstream"], repo, "upstream")
            upstream_times.append(t)
        peak_kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        packs = out.count(b"\n")
        med_pack = statistics.median(pack_times)
        med_diff = statistics.median(diff_times)
        print(
            f"bench_pack: {FILES} files, {CHANGED} changed, diff {diff_bytes / 1e6:.1f} MB, "
            f"{packs} packs"
        )
        med_up = statistics.median(upstream_times)
        print(
            f"  council-pack review median {med_pack * 1000:.0f} ms over {RUNS} runs "
            f"(min {min(pack_times) * 1000:.0f}, max {max(pack_times) * 1000:.0f}; numbered;"
            f" --upstream {med_up * 1000:.0f} ms, ratio {med_pack / med_up:.2f}x); "
            f"git diff alone {med_diff * 1000:.0f} ms; ratio {med_pack / med_diff:.1f}x"
        )
        print(f"  goal: a median of at most 1000 ms: {'met' if med_pack <= 1.0 else 'NOT met'}")
        cpu_n, cpu_u = statistics.median(CPU["numbered"]), statistics.median(CPU["upstream"])
        print(
            f"  CPU time (user+sys, with git) median: numbered {cpu_n * 1000:.0f} ms, "
            f"--upstream {cpu_u * 1000:.0f} ms, ratio {cpu_n / cpu_u:.2f}x"
        )
        print(
            f"  peak RSS of any child process {peak_kib / 1024:.0f} MiB "
            f"({peak_kib / 1024 / (diff_bytes / 2**20):.1f}x the diff size)"
        )
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    os.environ["PYTHONPATH"] = str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")
    GIT_ENV["PYTHONPATH"] = os.environ["PYTHONPATH"]
    sys.exit(main())
