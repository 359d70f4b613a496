"""Golden cases, discovered by name under ``golden/<filter>/``.

A case is a set of files sharing a stem:

    <case>.in     bytes on stdin (absent: empty stdin)
    <case>.args   JSON array of arguments (absent: no arguments)
    <case>.out    the exact expected stdout
    <case>.err    the exact expected stderr (absent: not compared)
    <case>.code   the expected exit code (absent: 0)

A new case needs no new test code.  ``python tests/golden.py --regen [FILTER]``
rewrites ``.out``/``.code`` (and an existing ``.err``) from the current tool;
for ``redact`` it runs the reference awk program named by
``COUNCIL_REFERENCE_AWK`` under mawk instead, since that program, not this
tool, is the source of truth there.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from conftest import Result, run_filter

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "golden"


@dataclass(frozen=True)
class Case:
    filter: str
    name: str
    dir: Path

    def path(self, ext: str) -> Path:
        return self.dir / f"{self.name}.{ext}"

    @property
    def id(self) -> str:
        return f"{self.filter}/{self.name}"

    def stdin(self) -> bytes:
        p = self.path("in")
        return p.read_bytes() if p.exists() else b""

    def args(self) -> list[str]:
        p = self.path("args")
        return list(json.loads(p.read_text())) if p.exists() else []

    def expected_code(self) -> int:
        p = self.path("code")
        return int(p.read_text().strip()) if p.exists() else 0


def discover(filters: list[str] | None = None) -> list[Case]:
    cases = []
    for fdir in sorted(p for p in GOLDEN.iterdir() if p.is_dir()) if GOLDEN.exists() else []:
        if filters and fdir.name not in filters:
            continue
        for out in sorted(fdir.glob("*.out")):
            cases.append(Case(fdir.name, out.name[: -len(".out")], fdir))
    return cases


def run_case(case: Case) -> Result:
    """Run one case in-process, relative file arguments resolving next to the case."""
    return run_filter(case.filter, case.args(), case.stdin(), cwd=case.dir)


def regen(filters: list[str] | None) -> int:
    for case in discover(filters):
        if case.filter == "redact" and not case.args():
            ref = os.environ.get("COUNCIL_REFERENCE_AWK")
            awk = shutil.which("mawk") or shutil.which("awk")
            if not ref or not awk:
                print(f"skip {case.id}: set COUNCIL_REFERENCE_AWK (and install mawk)")
                continue
            res = subprocess.run(
                [awk, "-f", ref], input=case.stdin(), capture_output=True,
                env={**os.environ, "LC_ALL": "C"}, check=False,
            )
            case.path("out").write_bytes(res.stdout)
            continue
        code, out, err = run_case(case)
        case.path("out").write_bytes(out)
        if code or case.path("code").exists():
            case.path("code").write_text(f"{code}\n")
        if case.path("err").exists():
            case.path("err").write_text(err)
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    argv = sys.argv[1:]
    if not argv or argv[0] != "--regen":
        print(__doc__)
        sys.exit(2)
    sys.exit(regen(argv[1:] or None))
