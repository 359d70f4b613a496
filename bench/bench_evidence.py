"""Benchmark: the evidence check of 10,000 findings over 1,000 files, and how it grows.

A git repository of N/10 files (about 120 lines each) is built in a temporary
directory, and N findings over them: a third quote their line exactly, a
third are shifted by 5-200 lines (re-anchored), a sixth are within three
lines, and the rest are fabricated (searched through the whole file and not
found).  The timed part is what ``council-consolidate --repo`` adds: reading
every named file at the revision (one listing, one blob stream, redaction)
and checking every claim.  Goals: 10,000 findings over 1,000 files in at most
2 s; each file read once (counted); linear growth (the 10,000 run within 5x
the 2,500 run, the reference measured in the same process).  Times are
medians of three runs, each with a fresh reader (nothing cached between runs);
the goals are judged on CPU time (this process and the git processes it
waited for), which a busy machine disturbs far less than wall time; both are
printed.

    python bench/bench_evidence.py
"""

from __future__ import annotations

import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from council_filters.consolidate import core, revision  # noqa: E402
from council_filters.consolidate import evidence as ev  # noqa: E402
from council_filters.consolidate.finding import SourceReader  # noqa: E402

SIZES = (2_500, 5_000, 10_000)
RUNS = 3
GOAL_SECONDS = 2.0
GOAL_RATIO = 5.0  # 4x the work; a little room for a busy machine
LINES = 120


def source(k: int) -> str:
    out = []
    for i in range(LINES // 2):
        out.append(f"def handler_{k}_{i}(request, store):")
        out.append(f"    return store.lookup({i}, request.args.get('item_{k}_{i}'))")
    return "\n".join(out) + "\n"


def build_repo(root: Path, files: int) -> None:
    env = dict(os.environ, GIT_AUTHOR_NAME="b", GIT_AUTHOR_EMAIL="b@b",
               GIT_COMMITTER_NAME="b", GIT_COMMITTER_EMAIL="b@b")
    subprocess.run(["git", "init", "-q", "-b", "main", str(root)], check=True, env=env)
    for k in range(files):
        d = root / f"pkg{k % 50}"
        d.mkdir(exist_ok=True)
        (d / f"mod{k}.py").write_text(source(k))
    subprocess.run(["git", "-C", str(root), "add", "-A"], check=True, env=env)
    subprocess.run(["git", "-C", str(root), "commit", "-q", "-m", "b"], check=True, env=env)


def findings(n: int, files: int) -> list[dict]:
    rnd = random.Random(n)
    out = []
    for j in range(n):
        k = rnd.randrange(files)
        i = rnd.randrange(LINES // 2)
        line = 2 * i + 2
        quote = f"return store.lookup({i}, request.args.get('item_{k}_{i}'))"
        kind = j % 6
        if kind in (0, 1):
            cited = line
        elif kind in (2, 3):
            cited = line + rnd.choice((-1, 1)) * rnd.randrange(5, 201)
            cited = max(1, cited)
        elif kind == 4:
            cited = line + rnd.randrange(-3, 4)
        else:
            cited = line
            quote = f"os.system(request.args['cmd_{j}'])"
        out.append({"kind": "finding", "origin": "claude", "file": f"pkg{k % 50}/mod{k}.py",
                    "line": max(1, cited), "summary": f"finding {j}", "evidence": quote})
    return out


def cpu() -> float:
    """CPU seconds of this process and its finished children (git)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def one_run(root: Path, recs: list[dict]) -> tuple[float, float, int, int, dict[str, int]]:
    """(wall seconds, CPU seconds, files read, distinct files named, statuses) of one check."""
    stream = (("bench", i, r) for i, r in enumerate(recs, start=1))
    collected = core.collect(stream)
    reads: list[str] = []
    real = revision.RevisionFiles.read

    def counting(self: revision.RevisionFiles, paths: list[str]) -> dict[str, ev.FileText]:
        reads.extend(paths)
        return real(self, paths)

    revision.RevisionFiles.read = counting  # type: ignore[method-assign]
    try:
        reader = SourceReader(str(root))
        t, c = time.perf_counter(), cpu()
        core.check_evidence(collected.findings, reader.files)
        secs, used = time.perf_counter() - t, cpu() - c
    finally:
        revision.RevisionFiles.read = real  # type: ignore[method-assign]
    statuses: dict[str, int] = {}
    for f in collected.findings:
        assert f.evidence is not None
        statuses[f.evidence.status] = statuses.get(f.evidence.status, 0) + 1
    named = len({r["file"] for r in recs})
    return secs, used, len(reads), named, statuses


def main() -> int:
    medians: dict[int, float] = {}
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        for n in SIZES:
            files = n // 10
            root = Path(tmp) / f"r{n}"
            build_repo(root, files)
            recs = findings(n, files)
            runs = [one_run(root, recs) for _ in range(RUNS)]
            secs = statistics.median(r[0] for r in runs)
            used = statistics.median(r[1] for r in runs)
            _, _, read, named, statuses = runs[0]
            once = all(r[2] == named for r in runs)
            medians[n] = used
            print(f"evidence check {n:>6} findings over {files:>5} files: median wall"
                  f" {secs:5.2f} s, CPU {used:5.2f} s ({RUNS} runs); files read {read} for"
                  f" {named} named ({'each once' if once else 'NOT once'}); {statuses}")
            ok &= once
    top = medians[SIZES[-1]]
    ratio = top / medians[SIZES[0]]
    fast = top <= GOAL_SECONDS
    linear = ratio <= GOAL_RATIO
    print(f"10,000 findings / 1,000 files: {top:.2f} CPU s (goal <= {GOAL_SECONDS:.0f} s)"
          f" {'ok' if fast else 'MISSED'}")
    print(f"growth 10,000/2,500: {ratio:.2f}x for 4x the work (goal <= {GOAL_RATIO:.0f}x)"
          f" {'ok' if linear else 'MISSED'}")
    return 0 if ok and fast and linear else 1


if __name__ == "__main__":
    sys.exit(main())
