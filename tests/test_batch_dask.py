"""--scheduler: council-redact --out-dir and council-consolidate on a Dask cluster."""

from __future__ import annotations

import io
import random
from collections.abc import Iterator
from pathlib import Path

import orjson
import pytest
from batch_corpus import make_tree, single

from council_filters.base import storage

from conftest import run_filter

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def threads_cluster() -> Iterator[str]:
    """A cluster whose workers are threads of this process (memory:// is shared)."""
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, dashboard_address=":0",
    ) as cluster:
        yield cluster.scheduler_address


def redact(args: list[str]) -> tuple[int, str]:
    res = run_filter("redact", args)
    return res.code, res.err


def consolidate(args: list[str], stdin: bytes = b"") -> tuple[int, bytes, str]:
    res = run_filter("consolidate", args, stdin)
    return res.code, res.out, res.err


def test_memory_urls_on_a_cluster(threads_cluster: str) -> None:
    fs, _ = storage.url_fs("memory://")
    rng = random.Random(7)
    from redact_fragments import random_document

    docs = {f"/dtest/in/{i % 3}/f{i}.txt": random_document(rng, 30) for i in range(30)}
    for path, data in docs.items():
        fs.pipe(path, data)
    try:
        code, err = redact(["--scheduler", threads_cluster, "--out-dir", "memory://dtest/out",
                            "--base", "memory://dtest/in", "memory://dtest/in/**"])
        assert (code, err) == (0, "")
        for path, data in docs.items():
            out = io.BytesIO()
            from council_filters.redaction.machine import redact_stream

            redact_stream(io.BytesIO(data), out)
            assert fs.cat(path.replace("/dtest/in/", "/dtest/out/")) == out.getvalue()
        rows = [orjson.loads(x) for x in fs.cat("/dtest/out/manifest.jsonl").splitlines()]
        assert sorted(r["input"] for r in rows) == sorted("memory:/" + p for p in docs)
        assert all(r["status"] == "ok" for r in rows)
    finally:
        fs.rm("/dtest", recursive=True)


def test_local_cluster_matches_single_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                            ) -> None:
    monkeypatch.chdir(tmp_path)
    files, unreadable = make_tree(Path("in"), 60)
    code, err = redact(["--scheduler", "local", "--jobs", "2", "--out-dir",
                        f"file://{tmp_path}/out", "in"])
    assert code == 1
    assert err.splitlines()[-1] == (f"council-redact: {len(unreadable)} of {len(files)} files "
                                    f"failed; see file://{tmp_path}/out/manifest.jsonl")
    rows = {r["input"]: r for r in map(orjson.loads, Path("out/manifest.jsonl").read_bytes()
                                       .splitlines())}
    assert len(rows) == len(files)
    for rel in files:
        if rel in unreadable:
            assert rows["in/" + rel]["status"] == "failed"
        else:
            assert (Path("out/in") / rel).read_bytes() == single(Path("in") / rel)


# --------------------------------------------------------------------------- #
# council-consolidate --scheduler.
# --------------------------------------------------------------------------- #
SEVERITIES = ["critical", "medium", "minor", "P1", "high", "warning", "bogus"]
ORIGINS = ["security", "tests", "architecture", "performance", "regression", "requirements"]


def write_shards(root: Path, n: int, *, seed: int = 3, bad: bool = False) -> list[str]:
    rng = random.Random(seed)
    names = []
    for i in range(n):
        lines = []
        for _ in range(rng.randrange(0, 12)):
            f = {"kind": "finding", "origin": rng.choice(ORIGINS),
                 "summary": f"issue {rng.randrange(40)} in handler",
                 "file": f"src/m{rng.randrange(5)}.py", "line": rng.randrange(1, 80),
                 "severity": rng.choice(SEVERITIES)}
            lines.append(orjson.dumps(f))
            if rng.random() < 0.1:
                lines.append(b"")
        if bad and i == n // 2:
            lines.insert(1, b'{"kind": "finding", oops')
        path = root / f"shard-{i:03d}.jsonl"
        path.write_bytes(b"\n".join(lines) + b"\n" if lines else b"")
        names.append(str(path))
    return names


@pytest.mark.parametrize("fmt", ["findings", "json", "markdown", "sarif"])
def test_consolidate_shards_match_the_single_process_run(
    tmp_path: Path, threads_cluster: str, fmt: str
) -> None:
    names = write_shards(tmp_path, 25)
    base = ["--no-source", "--format", fmt, "--date", "2026-01-01"]
    want = consolidate(base + names)
    assert want[0] == 0 and want[1]
    assert consolidate(base + ["--scheduler", threads_cluster] + names) == want
    assert consolidate(base + ["--scheduler", threads_cluster, str(tmp_path / "shard-*.jsonl")]
                       ) == want
    # Order of the arguments is the order of the records, as for one process.
    rev = list(reversed(names))
    assert consolidate(base + ["--scheduler", threads_cluster] + rev) == consolidate(base + rev)


def test_consolidate_shard_errors_match(tmp_path: Path, threads_cluster: str) -> None:
    names = write_shards(tmp_path, 10, bad=True)
    base = ["--no-source", "--format", "findings"]
    for extra in ([], ["--keep-going"]):
        want = consolidate(base + extra + names)
        assert want[0] == (0 if extra else 1)
        assert "invalid JSON" in want[2]
        assert consolidate(base + extra + ["--scheduler", threads_cluster] + names) == want
    missing = names[:3] + [str(tmp_path / "absent.jsonl")] + names[3:]
    want = consolidate(base + missing)
    assert want[0] == 2 and "absent.jsonl: cannot open: No such file or directory" in want[2]
    assert consolidate(base + ["--scheduler", threads_cluster] + missing) == want


def test_consolidate_stdin_and_urls(tmp_path: Path, threads_cluster: str) -> None:
    names = write_shards(tmp_path, 6)
    stdin = Path(names[0]).read_bytes()
    base = ["--no-source", "--format", "findings"]
    want = consolidate(base + ["-"] + names[1:], stdin)
    urls = ["file://" + n for n in names[1:]]
    got = consolidate(base + ["--scheduler", threads_cluster, "-"] + urls, stdin)
    assert got[:2] == want[:2]


def test_consolidate_on_a_local_cluster(tmp_path: Path) -> None:
    names = write_shards(tmp_path, 8)
    base = ["--no-source", "--format", "json"]
    assert consolidate(base + ["--scheduler", "local"] + names) == consolidate(base + names)
