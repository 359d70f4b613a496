"""A scripted council-state session, step by step, against golden files.

Each step runs the real CLI (in-process) on one state file and compares the
exit code, stdout, stderr and the exact bytes of the state file afterwards
with ``golden/state/session/NN-<step>.*``.  A refused step must leave the
file byte-for-byte as it was.  ``python tests/test_state_session.py --regen``
rewrites the golden files from the tool: review the diff.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from conftest import run_filter

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "golden" / "state" / "session"
T0 = 1735787045  # 2025-01-02T03:04:05Z; each step is one minute later


def jl(*records: dict) -> bytes:
    return b"".join(json.dumps(r, separators=(",", ":")).encode() + b"\n" for r in records)


def finding(fid, origin, sev, group, file, line, summary, fp, merged=None):
    return {"kind": "finding", "id": fid, "origin": origin, "severity": sev, "group": group,
            "file": file, "line": line, "summary": summary,
            "merged_origins": merged or [origin], "fingerprint": fp}


FINDINGS = jl(
    finding("SEC-001", "security", "critical", "Security", "app/db.py", 41,
            "query built by string concatenation", "f1a"),
    finding("SEC-002", "security", "medium", "Security", "app/auth.py", 12,
            "token compared with ==", "f2b"),
    finding("REG-001", "regression", "critical", "Critical", "app/api.py", 88,
            "handler calls a function that does not exist", "f3c"),
    finding("TST-001", "tests", "medium", "Warning", "app/api.py", 90,
            "new branch has no test", "f4d"),
    finding("PRF-001", "performance", "medium", "Performance", "app/list.py", 7,
            "query inside a loop", "f5e", merged=["performance", "architecture"]),
    finding("ARQ-001", "architecture", "minor", "Suggestion", "app/list.py", 30,
            "helper belongs in the service layer", "f6f"),
)

# (name, argv after --file, stdin, expected exit code, changes the file?)
STEPS: list[tuple[str, list[str], bytes, int, bool]] = [
    ("init", ["init"], b'{"base":"origin/main","pr":42,"missing":["konecty_task"]}', 0, True),
    ("status-empty", ["status"], b"", 0, False),
    ("add", ["add"], FINDINGS, 0, True),
    ("add-again", ["add"], FINDINGS, 0, False),
    ("accept", ["accept", "--severity", "critical,security,performance"], b"", 0, True),
    ("accept-dismissed", ["accept", "--ids", "TST-001"], b"", 1, False),
    ("record-fix", ["record-fix"], jl(
        {"id": "SEC-001", "outcome": "fixed", "files_touched": ["app/db.py"],
         "reason": "parameterised the query"},
        {"id": "SEC-002", "outcome": "escalated", "files_touched": [],
         "reason": "changing the comparison changes a public contract"},
        {"id": "REG-001", "outcome": "fixed", "files_touched": ["app/api.py"]},
        {"id": "PRF-001", "outcome": "fixed", "files_touched": ["app/list.py", "app/repo.py"]},
    ), 0, True),
    ("record-fix-unknown", ["record-fix"], jl(
        {"id": "SEC-009", "outcome": "fixed", "files_touched": ["x.py"]}), 1, False),
    ("verify-before-scope", ["verify"], jl({"id": "SEC-001", "outcome": "verified"}), 1, False),
    ("scope", ["scope"], b"", 0, True),
    ("scope-again", ["scope"], b"", 0, False),
    ("verify", ["verify"], jl(
        {"id": "SEC-001", "outcome": "verified"},
        {"id": "REG-001", "outcome": "reopened"},
        {"id": "PRF-001", "outcome": "reopened"},
        {"kind": "finding", "origin": "security", "severity": "critical", "file": "app/db.py",
         "line": 44, "summary": "the new query helper logs the password", "fix_induced": True},
    ), 0, True),
    ("record-fix-2", ["record-fix"], jl(
        {"id": "REG-001", "outcome": "fixed", "files_touched": ["app/api.py"]},
        {"id": "PRF-001", "outcome": "fixed", "files_touched": ["app/list.py"]},
    ), 0, True),
    ("scope-2", ["scope"], b"", 0, True),
    ("verify-2", ["verify"], jl(
        {"id": "REG-001", "outcome": "verified"},
        {"id": "PRF-001", "outcome": "reopened"},
    ), 0, True),
    ("record-fix-exhausted", ["record-fix"], jl(
        {"id": "PRF-001", "outcome": "fixed", "files_touched": ["app/list.py"]}), 1, False),
    ("scope-3", ["scope"], b"", 0, True),
    ("status-pending", ["status"], b"", 3, False),
    ("accept-induced", ["accept", "--ids", "SEC-003"], b"", 0, True),
    ("record-fix-3", ["record-fix"], jl(
        {"id": "SEC-003", "outcome": "fixed", "files_touched": ["app/db.py"]}), 0, True),
    ("scope-4", ["scope"], b"", 0, True),
    ("verify-3", ["verify"], jl({"id": "SEC-003", "outcome": "verified"}), 0, True),
    ("status", ["status"], b"", 0, False),
    ("status-json", ["status", "--json"], b"", 0, False),
    ("history", ["history", "--id", "PRF-001"], b"", 0, False),
]


def run_session(tmp: Path):
    """Yield (index, step, code, stdout, stderr, before, after) for every step."""
    path = tmp / "review-state.json"
    for i, step in enumerate(STEPS, start=1):
        name, argv, stdin, _code, _changes = step
        before = path.read_bytes() if path.exists() else b""
        code, out, err = run_filter("state", ["--file", str(path), *argv], stdin,
                                    env={"COUNCIL_NOW": str(T0 + 60 * i)})
        # Paths in messages are the tmp dir's: make them stable.
        errtext = err.replace(str(path), "review-state.json")
        yield i, step, code, out, errtext, before, path.read_bytes()


def stem(i: int, name: str) -> Path:
    return GOLDEN / f"{i:02d}-{name}"


def test_session_matches_golden(tmp_path: Path) -> None:
    for i, (name, _argv, _in, want_code, changes), code, out, err, before, after in run_session(
        tmp_path
    ):
        base = stem(i, name)
        assert code == want_code, f"step {name}: exit {code}, stderr {err!r}"
        assert out == base.with_suffix(".out").read_bytes(), f"step {name}: stdout"
        assert err == base.with_suffix(".err").read_text(), f"step {name}: stderr"
        if changes:
            assert after != before, f"step {name} should change the state"
            assert after == base.with_suffix(".json").read_bytes(), f"step {name}: state"
        else:
            assert after == before, f"step {name} must leave the file byte-for-byte untouched"


def test_golden_files_cover_every_step() -> None:
    expected = set()
    for i, (name, *_rest, changes) in enumerate(STEPS, start=1):
        expected |= {stem(i, name).with_suffix(".out").name, stem(i, name).with_suffix(".err").name}
        if changes:
            expected.add(stem(i, name).with_suffix(".json").name)
    assert {p.name for p in GOLDEN.iterdir()} == expected


def regen(tmp: Path) -> None:
    for p in GOLDEN.glob("*"):
        p.unlink()
    for i, (name, *_rest, changes), _code, out, err, _before, after in run_session(tmp):
        base = stem(i, name)
        base.with_suffix(".out").write_bytes(out)
        base.with_suffix(".err").write_text(err)
        if changes:
            base.with_suffix(".json").write_bytes(after)


if __name__ == "__main__":
    import tempfile

    sys.path.insert(0, str(ROOT))
    if sys.argv[1:] != ["--regen"]:
        print(__doc__)
        sys.exit(2)
    GOLDEN.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as d:
        regen(Path(d))
    sys.exit(0)
