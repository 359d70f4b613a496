"""council-redact --out-dir: per-file redaction, manifest, retries, resume, backends."""

from __future__ import annotations

import builtins
import hashlib
import io
import os
import random
import sys
from pathlib import Path

import orjson
import pytest
from batch_corpus import make_tree, single
from redact_fragments import random_document

from council_filters.base import storage
from council_filters.redaction import batch
from council_filters.redaction import machine as redaction
from council_filters.redaction.machine import redact_stream

from conftest import run_filter


def run(args: list[str], stdin: bytes = b"") -> tuple[int, bytes, str]:
    res = run_filter("redact", args, stdin)
    return res.code, res.out, res.err


def manifest(path: Path) -> list[dict]:
    return [orjson.loads(line) for line in path.read_bytes().splitlines()]


def snapshot(root: Path) -> dict[str, tuple[int, bytes]]:
    """Every file under root: (mtime_ns, bytes)."""
    return {
        str(p.relative_to(root)): (p.stat().st_mtime_ns, p.read_bytes())
        for p in sorted(root.rglob("*")) if p.is_file()
    }


# --------------------------------------------------------------------------- #
# The per-file entry point.
# --------------------------------------------------------------------------- #
def test_redact_stream_is_council_redact_file(tmp_path: Path) -> None:
    rng = random.Random(16)
    for i in range(60):
        data = random_document(rng, 60)
        path = tmp_path / f"{i}.txt"
        path.write_bytes(data)
        out = io.BytesIO()
        stats = redact_stream(io.BytesIO(data), out)
        assert out.getvalue() == single(path)
        assert stats.bytes_in == len(data)
        assert stats.bytes_out == len(out.getvalue())
        code, _, err = run(["--check", str(path)])
        total = sum(stats.counts.values())
        assert (code == 3) == (total > 0)
        if total:
            assert f"{total} line{'s' if total != 1 else ''} would be redacted" in err


def test_redact_stream_reads_in_chunks() -> None:
    class Source(io.RawIOBase):
        def __init__(self) -> None:
            self.reads: list[int] = []
            self.left = 20 << 20

        def readable(self) -> bool:
            return True

        def read(self, n: int = -1) -> bytes:
            assert n > 0, "read whole"
            self.reads.append(n)
            k = min(n, self.left, 1 << 16)
            self.left -= k
            return b"line\n" * (k // 5) + b"x" * (k % 5)

    src = Source()
    stats = redact_stream(src, io.BytesIO())  # type: ignore[arg-type]
    assert stats.bytes_in == 20 << 20
    assert max(src.reads) <= redaction.CHUNK < 20 << 20


# --------------------------------------------------------------------------- #
# Planning.
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize(
    ("location", "base", "expected"),
    [
        ("logs/a.txt", None, "logs/a.txt"),
        ("./logs//a.txt", None, "logs/a.txt"),
        ("/var/log/x.log", None, "var/log/x.log"),
        ("s3://bucket/raw/k.txt", None, "bucket/raw/k.txt"),
        ("file:///data/raw/k.txt", None, "data/raw/k.txt"),
        ("memory://in/a", None, "in/a"),
        ("/data/raw/sub/k.txt", "/data/raw", "sub/k.txt"),
        ("s3://bucket/raw/sub/k", "s3://bucket/raw", "sub/k"),
        ("s3://bucket/raw/sub/k", "s3://bucket/raw/", "sub/k"),
    ],
)
def test_relative_output(location: str, base: str | None, expected: str) -> None:
    assert batch.relative_output(location, base) == expected


@pytest.mark.parametrize(
    ("location", "base"),
    [("../x", None), ("a/../../x", None), ("/other/x", "/data"), ("s3://b/x", "s3://c"),
     (".", None)],
)
def test_relative_output_refuses_climbing_out(location: str, base: str | None) -> None:
    with pytest.raises(batch.UsageError):
        batch.relative_output(location, base)


def test_plan_walks_directories_skips_the_out_dir_and_dedups(tmp_path: Path) -> None:
    (tmp_path / "in" / "b").mkdir(parents=True)
    for rel in ("in/a.txt", "in/b/c.txt", "in/b/a.txt"):
        (tmp_path / rel).write_bytes(b"x\n")
    out = tmp_path / "in" / "clean"
    (out / "in").mkdir(parents=True)
    (out / "in" / "old.txt").write_bytes(b"x\n")
    tasks = batch.plan([str(tmp_path / "in"), str(tmp_path / "in" / "a.txt")], str(out),
                       base=str(tmp_path))
    assert [t.input for t in tasks] == [str(tmp_path / r) for r in
                                        ("in/a.txt", "in/b/a.txt", "in/b/c.txt")]
    assert [t.output for t in tasks] == [str(out / r) for r in
                                         ("in/a.txt", "in/b/a.txt", "in/b/c.txt")]
    assert all(t.size == 2 for t in tasks)


# --------------------------------------------------------------------------- #
# The command.
# --------------------------------------------------------------------------- #
@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[list[str], list[str]]:
    monkeypatch.chdir(tmp_path)
    return make_tree(Path("in"), 120)


def check_outputs(files: list[str], unreadable: list[str], out: Path, rows: list[dict]) -> None:
    by_input = {r["input"]: r for r in rows}
    assert len(rows) == len(by_input) == len(files), "one manifest line per input"
    for rel in files:
        row = by_input["in/" + rel]
        assert row["kind"] == "redacted-file"
        assert row["output"] == str(out / "in" / rel)
        if rel in unreadable:
            assert row["status"] == "failed"
            assert row["error"].startswith("cannot read: ")
            assert row["attempts"] == 3
            assert not (out / "in" / rel).exists()
            continue
        expected = single(Path("in") / rel)
        got = (out / "in" / rel).read_bytes()
        assert got == expected, rel
        assert row["status"] == "ok"
        assert row["error"] is None
        assert row["bytes_in"] == (Path("in") / rel).stat().st_size
        assert row["bytes_out"] == len(got)
        assert row["sha256"] == hashlib.sha256(got).hexdigest()
        assert row["rules"] == "default"
        src = (Path("in") / rel).read_bytes()
        changed = sum(a != b for a, b in zip(src.split(b"\n"), got.split(b"\n"), strict=False))
        assert sum(row["redacted"].values()) == changed
    leftovers = [p for p in out.rglob("*") if p.name.endswith(".part")]
    assert leftovers == []


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_out_dir_outputs_manifest_and_failures(tree, jobs: str) -> None:
    files, unreadable = tree
    code, stdout, err = run(["--out-dir", "out", "--jobs", jobs, "in"])
    assert code == 1
    assert stdout == b""
    lines = err.splitlines()
    assert lines[-1] == (f"council-redact: {len(unreadable)} of {len(files)} files failed; "
                         "see out/manifest.jsonl")
    for rel in unreadable:
        assert any(line.startswith(f"council-redact: in/{rel}: cannot read: ") and
                   line.endswith("(3 attempts)") for line in lines)
    rows = manifest(Path("out/manifest.jsonl"))
    assert [r["input"] for r in rows] == ["in/" + f for f in files], "manifest in input order"
    check_outputs(files, unreadable, Path("out"), rows)


def test_resume_does_nothing_new_then_redoes_what_changed(tree) -> None:
    files, unreadable = tree
    run(["--out-dir", "out", "in"])
    for rel in unreadable:
        os.unlink(Path("in") / rel)
    before = snapshot(Path("out"))
    code, _, err = run(["--out-dir", "out", "in"])
    assert (code, err) == (0, "")
    assert snapshot(Path("out")) == before, "a resumed run writes nothing"

    # An output changed behind our back, an input grew, and another set of rules
    # made a third: those three are redone, nothing else.
    victims = [f for f in files if f not in unreadable][:3]
    (Path("out/in") / victims[0]).write_bytes(b"tampered\n")
    with open(Path("in") / victims[1], "ab") as fh:
        fh.write(b"new line sk-ant-" + b"Q" * 30 + b"\n")
    rows = manifest(Path("out/manifest.jsonl"))
    for r in rows:
        if r["input"] == "in/" + victims[2]:
            r["rules"] = "other"
    Path("out/manifest.jsonl").write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in rows))
    before = snapshot(Path("out"))
    code, _, err = run(["--out-dir", "out", "in"])
    assert (code, err) == (0, "")
    after = snapshot(Path("out"))
    changed = {k for k in after if after[k] != before.get(k)}
    assert changed == {"manifest.jsonl"} | {f"in/{v}" for v in victims}
    rows = manifest(Path("out/manifest.jsonl"))
    # Entries of inputs this run did not name stay, after this run's inputs.
    gone = ["in/" + u for u in unreadable]
    assert [r["input"] for r in rows[-len(gone):]] == gone
    check_outputs([f for f in files if f not in unreadable], [], Path("out"), rows[:-len(gone)])
    assert b"redacted credential" in (Path("out/in") / victims[1]).read_bytes()


def test_special_files_are_reported_not_waited_on(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("in").mkdir()
    os.mkfifo("in/pipe")
    Path("in/ok.txt").write_bytes(b"fine\n")
    code, _, err = run(["--out-dir", "out", "--retries", "0", "in"])
    assert code == 1
    assert "council-redact: in/pipe: cannot read: not a regular file (1 attempt)" in err
    assert Path("out/in/ok.txt").read_bytes() == b"fine\n"


def test_torn_manifest_line_is_ignored_and_its_file_redone(tree) -> None:
    files, unreadable = tree
    run(["--out-dir", "out", "in"])
    data = Path("out/manifest.jsonl").read_bytes()
    first, rest = data.split(b"\n", 1)
    Path("out/manifest.jsonl").write_bytes(rest + first[:40])  # a crash mid-append
    code, _, err = run(["--out-dir", "out", "in"])
    assert code == 1
    assert "out/manifest.jsonl: 1 unreadable manifest line ignored (their files are redone)" in err
    rows = manifest(Path("out/manifest.jsonl"))
    check_outputs(files, unreadable, Path("out"), rows)


def test_a_second_run_on_the_same_manifest_is_refused(tree) -> None:
    import fcntl

    Path("out").mkdir()
    with open("out/manifest.jsonl", "ab") as fh:
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX)
        code, _, err = run(["--out-dir", "out", "in"])
    assert code == 2
    assert err == "council-redact: out/manifest.jsonl: another run is using this manifest\n"


def test_retries_option_and_custom_manifest(tree) -> None:
    files, unreadable = tree
    code, _, err = run(["--out-dir", "out", "--retries", "0", "--manifest", "log/m.jsonl", "in"])
    assert code == 1
    assert "(1 attempt)" in err
    assert not Path("out/manifest.jsonl").exists()
    rows = manifest(Path("log/m.jsonl"))
    assert {r["attempts"] for r in rows if r["status"] == "failed"} == {1}


def test_files_from_and_base(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "raw" / "x").mkdir(parents=True)
    (tmp_path / "raw" / "x" / "a.log").write_bytes(b"Bearer abcdefghijklmnopqrstuvwxyz\n")
    (tmp_path / "raw" / "b.log").write_bytes(b"plain")
    listing = f"{tmp_path}/raw/x/a.log\r\n\n{tmp_path}/raw/b.log\n".encode()
    code, _, err = run(["--out-dir", "clean", "--base", str(tmp_path / "raw"),
                        "--files-from", "-"], stdin=listing)
    assert (code, err) == (0, "")
    assert Path("clean/x/a.log").read_bytes() == b"--- redacted credential at line 1 ---\n"
    assert Path("clean/b.log").read_bytes() == b"plain\n"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--jobs", "2", "a"], "--jobs needs --out-dir"),
        (["--retries", "5", "--scheduler", "local", "a"], "--scheduler, --retries need --out-dir"),
        (["--out-dir", "o"], "--out-dir needs FILE arguments (or --files-from)"),
        (["--out-dir", "o", "-"], "stdin cannot be one of the files of --out-dir"),
        (["--out-dir", "o", "--check", "a"], "--jsonl and --check read a stream"),
        (["--out-dir", "o", "--jobs", "-1", "a"], "take a number >= 0"),
        (["--out-dir", "o", "--jobs", "2", "--scheduler", "tcp://h:1", "a"],
         "a running Dask cluster has its own workers"),
        (["--out-dir", "o", "../a"], "../a: input lies above the current directory"),
        (["--out-dir", ".", "a"], "a: the output would overwrite its input"),
        (["--out-dir", "o", "--jobs", "2", "memory://in/a"], "memory:// URLs live in one"),
        (["--out-dir", "o", "x/*.none"], "x/*.none: no file matches"),
    ],
)
def test_usage_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str],
                      message: str) -> None:
    monkeypatch.chdir(tmp_path)
    Path("a").write_bytes(b"x\n")
    code, out, err = run(args)
    assert code == 2, err
    assert message in err
    assert err.count("\n") == 1 and err.startswith("council-redact: ")
    assert not Path("o").exists()


def test_scheduler_without_dask_says_how_to_install(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("a").write_bytes(b"x\n")
    real_import = builtins.__import__

    def no_dask(name: str, *args, **kwargs):
        if name.split(".")[0] in ("distributed", "dask"):
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_dask)
    for mod in [m for m in sys.modules if m.split(".")[0] in ("distributed", "dask")]:
        monkeypatch.delitem(sys.modules, mod)
    code, _, err = run(["--out-dir", "o", "--scheduler", "local", "a"])
    assert code == 2
    assert err == ("council-redact: --scheduler needs Dask: "
                   "pip install 'council-filters[dask]'\n")


def test_memory_urls_in_process() -> None:
    fs, _ = storage.url_fs("memory://")
    fs.pipe("/batchtest/in/a.txt", b"one\nAKIA" + b"Z" * 16 + b"\n")
    fs.pipe("/batchtest/in/sub/b.txt", b"no newline")
    try:
        code, _, err = run(["--out-dir", "memory://batchtest/out", "memory://batchtest/in/"])
        assert (code, err) == (0, "")
        assert fs.cat("/batchtest/out/batchtest/in/a.txt") == (
            b"one\n--- redacted credential at line 2 ---\n")
        assert fs.cat("/batchtest/out/batchtest/in/sub/b.txt") == b"no newline\n"
        rows = [orjson.loads(x) for x in fs.cat("/batchtest/out/manifest.jsonl").splitlines()]
        assert [(r["input"], r["redacted"]) for r in rows] == [
            ("memory://batchtest/in/a.txt", {"aws-access-key": 1}),
            ("memory://batchtest/in/sub/b.txt", {}),
        ]
        # Resume: nothing new.
        code, _, err = run(["--out-dir", "memory://batchtest/out", "memory://batchtest/in/*.txt"])
        assert (code, err) == (0, "")
    finally:
        fs.rm("/batchtest", recursive=True)


# --------------------------------------------------------------------------- #
# The runner: lost workers, progress.
# --------------------------------------------------------------------------- #
class FlakyBackend(batch.SerialBackend):
    """Loses every third first-round group (as a killed worker would); resent files get through."""

    def __init__(self) -> None:
        self.sent = 0
        self.seen: set[tuple[str, ...]] = set()

    def submit(self, fn, *args):
        self.sent += 1
        group = tuple(t.input for t in args[0])
        if self.sent % 3 == 0 and len(group) > 1 and group not in self.seen:
            self.seen.add(group)
            import concurrent.futures as cf

            f: cf.Future = cf.Future()
            f.set_exception(ConnectionResetError("worker gone"))
            return f
        return super().submit(fn, *args)


def test_lost_groups_are_resent_nothing_lost_or_duplicated(tree) -> None:
    files, unreadable = tree
    tasks = batch.plan(["in"], "out")
    backend = FlakyBackend()
    m = batch.Manifest("out/manifest.jsonl")
    m.open_log()
    summary = batch.run(tasks, backend, m, retries=2)
    m.finish([t.input for t in tasks])
    assert backend.seen, "the test lost no group"
    assert summary.lost_tasks == len(backend.seen)
    assert summary.written == len(files) - len(unreadable)
    rows = manifest(Path("out/manifest.jsonl"))
    check_outputs(files, unreadable, Path("out"), rows)
    lost = {i for g in backend.seen for i in g}
    assert {r["attempts"] for r in rows if r["input"] in lost and r["status"] == "ok"} == {2}


def test_a_file_lost_on_every_try_is_reported(tmp_path: Path) -> None:
    class Dead(batch.SerialBackend):
        def submit(self, fn, *args):
            import concurrent.futures as cf

            f: cf.Future = cf.Future()
            f.set_exception(RuntimeError("KilledWorker"))
            return f

    (tmp_path / "a").write_bytes(b"x\n")
    tasks = batch.plan([str(tmp_path / "a")], str(tmp_path / "o"), base=str(tmp_path))
    m = batch.Manifest(str(tmp_path / "o" / "m.jsonl"))
    summary = batch.run(tasks, Dead(), m, retries=1)
    assert [(e["status"], e["attempts"], e["error"]) for e in summary.failed] == [
        ("failed", 2, "worker lost: RuntimeError")]


def test_progress_line() -> None:
    t = [100.0]
    stream = io.StringIO()
    bar = batch.Progress(stream, 10, 50_000_000, clock=lambda: t[0])
    t[0] = 110.0
    bar.update(4, 20_000_000, 0)
    assert stream.getvalue() == "\r4/10 files  20.0 MB/50.0 MB  2.0 MB/s  ETA 15s"
    t[0] = 110.1
    bar.update(5, 25_000_000, 0)  # too soon: not redrawn
    assert stream.getvalue().count("\r") == 1
    t[0] = 130.0
    bar.update(10, 50_000_000, 10_000_000, final=True)
    assert stream.getvalue().endswith("\r10/10 files  50.0 MB/50.0 MB  1.3 MB/s  done in 30s\n")


def test_quiet_when_not_a_terminal(tree) -> None:
    files, unreadable = tree
    for rel in unreadable:
        os.unlink(Path("in") / rel)
    code, out, err = run(["--out-dir", "out", "--jobs", "2", "in"])
    assert (code, out, err) == (0, b"", "")


PATH_RULES = """\
[[rules]]
id = "pathbound"
regex = '''pb_[a-z0-9]{10}'''
path = '''config/'''

[[rules]]
id = "tok"
regex = '''tk_[a-z0-9]{10}'''

[allowlist]
paths = ['''vendor/''']
"""


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_rules_pass_through_per_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                     jobs: str) -> None:
    from secret_corpus import secret_lines

    monkeypatch.chdir(tmp_path)
    Path("rules.toml").write_text(PATH_RULES)
    cases = list(secret_lines(seed=5))
    names = []
    for i, sub in enumerate(["config", "vendor", "other", "other/deep"]):
        Path("in", sub).mkdir(parents=True, exist_ok=True)
        for j in range(6):
            lines = [c.text for c in cases[(i * 6 + j) * 7:(i * 6 + j) * 7 + 7]]
            lines += ["pb_0123456789 here", "and tk_abcdefghij there", "AKIAXXXXXXXXXXXXXXXX"]
            name = f"in/{sub}/f{j}.txt"
            Path(name).write_text("\n".join(lines) + ("\n" if j % 2 else ""))
            names.append(name)
    for spec in ("extended", "rules.toml", "extended,rules.toml"):
        out = f"out-{spec.replace(',', '+')}"
        code, _, err = run(["--rules", spec, "--jobs", jobs, "--out-dir", out, "in"])
        assert (code, err) == (0, "")
        rows = {r["input"]: r for r in manifest(Path(out) / "manifest.jsonl")}
        key = batch.rules_key(redaction_rules(spec))
        fired: set[str] = set()
        for name in names:
            want = run_filter("redact", ["--rules", spec, name])
            assert want.code == 0
            got = (Path(out) / name).read_bytes()
            assert got == want.out, (spec, name)
            assert rows[name]["rules"] == key != "default"
            check = run_filter("redact", ["--rules", spec, "--check", name])
            counted = [x for x in check.err.splitlines() if x.startswith("council-redact: ")]
            for line in counted[:-1]:
                rule, n = line.removeprefix("council-redact: ").split(": ")
                assert rows[name]["redacted"][rule] == int(n.split()[0])
            assert sum(rows[name]["redacted"].values()) == (
                int(check.err.splitlines()[-1].split()[1]) if check.code == 3 else 0)
            fired.update(rows[name]["redacted"])
        if "rules.toml" in spec:
            assert {"pathbound", "tok"} <= fired
            assert "pathbound" in rows["in/config/f0.txt"]["redacted"]
            assert "pathbound" not in rows["in/other/f0.txt"]["redacted"]
            assert not rows["in/vendor/f1.txt"]["redacted"].get("tok")
        # The same run again is a resume; another rule set redoes everything.
        before = snapshot(Path(out))
        assert run(["--rules", spec, "--out-dir", out, "in"])[:2] == (0, b"")
        assert snapshot(Path(out)) == before
    code, _, _ = run(["--out-dir", "out-extended", "in"])  # default rules now
    assert code == 0
    rows = manifest(Path("out-extended/manifest.jsonl"))
    assert {r["rules"] for r in rows} == {"default"}


def redaction_rules(spec: str):
    from council_filters.redaction.secrets import load_rules

    return load_rules(spec)
