"""The batch run end to end on a LocalCluster of two worker processes, one killed mid-run.

2,000 generated files (credentials, PEM blocks, empty files, files without a
final newline, an unreadable entry).  One worker is killed (SIGKILL) once a
quarter of the files are recorded, while both workers are busy.  Every output
must be byte-identical to `council-redact FILE`, the manifest must hold one
record per input, the unreadable entry must be reported, nothing may be left
half-written, and a resumed run must change nothing.
"""

from __future__ import annotations

import hashlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import orjson
import pytest
from batch_corpus import make_tree, single

distributed = pytest.importorskip("distributed")
pytestmark = pytest.mark.slow

N_FILES = 2000


def snapshot(root: Path) -> dict[str, tuple[int, bytes]]:
    return {str(p.relative_to(root)): (p.stat().st_mtime_ns, p.read_bytes())
            for p in sorted(root.rglob("*")) if p.is_file()}


def recorded(manifest: Path) -> int:
    try:
        return manifest.read_bytes().count(b"\n")
    except FileNotFoundError:
        return 0


def test_two_thousand_files_on_a_local_cluster_with_a_killed_worker(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    files, unreadable = make_tree(Path("in"), N_FILES)
    cmd = [sys.executable, "-m", "council_filters.cli.redact", "--out-dir", "out", "in"]
    manifest = Path("out/manifest.jsonl")

    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0",
    ) as cluster, distributed.Client(cluster) as client:
        address = cluster.scheduler_address
        run = subprocess.Popen(cmd + ["--scheduler", address], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
        deadline = time.monotonic() + 240
        try:
            while recorded(manifest) < len(files) // 4 and time.monotonic() < deadline:
                assert run.poll() is None, "the run ended before the kill"
                time.sleep(0.005)
            pids = list(client.run(os.getpid).values())
            assert run.poll() is None and recorded(manifest) < len(files) // 2
            victim = pids[0]
            os.kill(victim, signal.SIGKILL)
            out, err = run.communicate(timeout=max(deadline - time.monotonic(), 1))
        finally:
            if run.poll() is None:
                run.kill()
                run.wait()
        assert victim not in client.run(os.getpid).values(), "the worker was not replaced"

        assert run.returncode == 1, err
        assert out == b""
        lines = err.decode().splitlines()
        assert lines[-1] == (f"council-redact: {len(unreadable)} of {len(files)} files failed; "
                             "see out/manifest.jsonl")
        for rel in unreadable:
            assert any(line.startswith(f"council-redact: in/{rel}: cannot read: ")
                       for line in lines)
        assert len(lines) == len(unreadable) + 1

        # Every output, byte for byte; one manifest record per input.
        rows = [orjson.loads(x) for x in Path("out/manifest.jsonl").read_bytes().splitlines()]
        assert [r["input"] for r in rows] == ["in/" + f for f in files]
        for rel, row in zip(files, rows, strict=True):
            target = Path("out/in") / rel
            if rel in unreadable:
                assert (row["status"], row["attempts"]) == ("failed", 3)
                assert not target.exists()
                continue
            want = single(Path("in") / rel)
            got = target.read_bytes()
            assert got == want, rel
            assert row["status"] == "ok" and row["error"] is None
            assert row["sha256"] == hashlib.sha256(got).hexdigest()
            assert row["bytes_out"] == len(got)
        assert sum(1 for r in rows if r["redacted"]) > N_FILES // 4
        written = sorted(str(p.relative_to("out/in")) for p in Path("out/in").rglob("*")
                         if p.is_file())
        assert written == sorted(set(files) - set(unreadable)), "nothing more, nothing less"
        # The real executable agrees on a sample.
        for rel in [f for f in files if f not in unreadable ][::250]:
            proc = subprocess.run([sys.executable, "-m", "council_filters.cli.redact",
                                   str(Path("in") / rel)], capture_output=True, check=True)
            assert proc.stdout == (Path("out/in") / rel).read_bytes()

        # A resumed run changes nothing.
        before = snapshot(Path("out"))
        again = subprocess.run(cmd + ["--scheduler", address], capture_output=True, timeout=240)
        assert again.returncode == 1
        assert again.stderr == err
        assert snapshot(Path("out")) == before

