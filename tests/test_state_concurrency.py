"""Concurrency: 50 council-state processes at once on one file lose nothing.

40 ``record-fix`` writers each fix a different accepted finding, while 10
``accept --ids`` writers race for 10 open findings: accepting one dismisses
every other open finding, so exactly one accept may win and the other nine
must be refused as illegal (exit 1) against the state the winner left.
Readers (``status --json``) run alongside and must always see a valid file.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from council_filters.state import store as statefile

from conftest import run_filter
from procenv import state_cli_env

pytestmark = pytest.mark.slow  # fifty writer processes at once

ROOT = Path(__file__).resolve().parent.parent
N_FIX = 40
N_ACCEPT = 10
N_READ = 2


def _env() -> dict[str, str]:
    return state_cli_env()


def _cli(path: Path, *argv: str, stdin: bytes = b"") -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "council_filters.cli.state", "--file", str(path), *argv],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=_env(),
    )
    assert proc.stdin is not None
    proc.stdin.write(stdin)
    proc.stdin.close()
    return proc


def _finish(proc: subprocess.Popen[bytes]) -> tuple[int, bytes, bytes]:
    assert proc.stdout is not None and proc.stderr is not None
    out, err = proc.stdout.read(), proc.stderr.read()
    return proc.wait(timeout=120), out, err


def _setup(path: Path) -> None:
    findings = [{"kind": "finding", "id": f"REQ-{i:03d}", "origin": "requirements",
                 "severity": "critical", "fingerprint": f"a{i}"} for i in range(1, N_FIX + 1)]
    late = [{"kind": "finding", "id": f"ARQ-{i:03d}", "origin": "architecture",
             "severity": "minor", "fingerprint": f"b{i}"} for i in range(1, N_ACCEPT + 1)]
    lines = lambda rs: "".join(json.dumps(r) + "\n" for r in rs).encode()  # noqa: E731
    for argv, data in ((["init"], b""), (["add"], lines(findings)),
                       (["accept", "--all"], b""), (["add"], lines(late))):
        assert run_filter("state", ["--file", str(path), *argv], data).code == 0


def test_fifty_parallel_writers_lose_nothing(tmp_path: Path) -> None:
    path = tmp_path / "review-state.json"
    _setup(path)
    before = statefile.load(str(path))
    procs = []
    for i in range(1, max(N_FIX, N_ACCEPT) + 1):
        if i <= N_FIX:
            fix = {"id": f"REQ-{i:03d}", "outcome": "fixed", "files_touched": [f"src/f{i}.py"]}
            procs.append(("fix", i, _cli(path, "record-fix", stdin=json.dumps(fix).encode())))
        if i <= N_ACCEPT:
            procs.append(("accept", i, _cli(path, "accept", "--ids", f"ARQ-{i:03d}")))
        if i <= N_READ:
            procs.append(("read", i, _cli(path, "status", "--json")))
    results = [(kind, i, *_finish(p)) for kind, i, p in procs]

    fixes = [r for r in results if r[0] == "fix"]
    accepts = [r for r in results if r[0] == "accept"]
    reads = [r for r in results if r[0] == "read"]
    assert all(code == 0 for _k, _i, code, _o, _e in fixes), [r[4] for r in fixes if r[2]]
    winners = [i for _k, i, code, _o, _e in accepts if code == 0]
    assert len(winners) == 1, accepts
    for _k, _i, code, _out, err in accepts:
        if code != 0:
            assert code == 1
            assert b"cannot accept a finding that is dismissed" in err, err
    for _k, _i, code, out, _err in reads:  # readers saw a whole file, with work remaining
        assert code == 3
        assert json.loads(out)["kind"] == "review-status"

    after = statefile.load(str(path))  # valid JSON, schema and invariants
    status = {f["id"]: f["status"] for f in after["findings"]}
    assert all(status[f"REQ-{i:03d}"] == "fixed" for i in range(1, N_FIX + 1))
    won = f"ARQ-{winners[0]:03d}"
    assert status[won] == "accepted"
    assert sum(s == "dismissed" for s in status.values()) == N_ACCEPT - 1

    new = after["history"][len(before["history"]):]
    assert after["history"][: len(before["history"])] == before["history"]
    assert [e["seq"] for e in after["history"]] == list(range(1, len(after["history"]) + 1))
    assert sorted(e["id"] for e in new if e["verb"] == "record-fix") == sorted(
        f"REQ-{i:03d}" for i in range(1, N_FIX + 1))
    assert len([e for e in new if e["verb"] == "accept"]) == N_ACCEPT  # 1 accepted, 9 dismissed
    assert len(new) == N_FIX + N_ACCEPT
    leftovers = [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
    assert leftovers == []
    assert (tmp_path / "review-state.json.lock").exists()
