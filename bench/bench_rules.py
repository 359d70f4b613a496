"""Benchmark council-redact --rules extended: speed against mawk, linearity, false alarms.

    python bench/bench_rules.py [--quick] [--runs N]

Speed rows time `council-redact --rules extended` against mawk running the
reference eleven-pattern program (COUNCIL_REFERENCE_AWK) on the same corpora
as bench_redact.py, in the same run; medians; a ratio above 1 means faster.
The linearity row times an adversarial single line at two sizes.  The
false-alarm rows count the lines the extended set redacts beyond the
default on generated ordinary text (tests/secret_corpus.py) and on this
repository's own sources and docs (goal: at most 0.1 %).
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

import bench_redact as br  # noqa: E402
import secret_corpus  # noqa: E402

from council_filters.redaction import Redactor  # noqa: E402
from council_filters.secrets import load_rules, redact_value  # noqa: E402


def extra_lines(data: bytes, rules: object) -> tuple[int, int]:
    """(lines the rules redact beyond the default, lines) for one document."""
    base = Redactor(record_lines=True)
    base.feed(data)
    base.finish()
    _, got = redact_value(data, rules)  # type: ignore[arg-type]
    return len(set(got) - set(base.redacted)), data.count(b"\n")


def repo_files() -> list[Path]:
    """This repository's own sources and docs (tests and goldens hold fake credentials)."""
    keep = (".py", ".md", ".toml", ".txt", ".json", ".sh", ".yml", ".yaml", ".cfg")
    out = []
    for top in ("council_filters", "bench", "docs", "examples"):
        out += [
            p for p in sorted((ROOT / top).rglob("*"))
            if p.suffix in keep and p.is_file() and not {"out", "build"} & set(p.parts)
        ]
    out += [ROOT / "README.md", ROOT / "Makefile", ROOT / "pyproject.toml"]
    return [p for p in out if p.exists()]


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="10 MB corpora, 1 run (a smoke test)")
    ap.add_argument("--runs", type=int, default=3, help="runs per tool and corpus (median)")
    args = ap.parse_args()
    runs = 1 if args.quick else args.runs
    size = (10 if args.quick else 100) << 20
    out_dir = br.OUT
    out_dir.mkdir(parents=True, exist_ok=True)

    ref = os.environ.get("COUNCIL_REFERENCE_AWK", "")
    mawk = shutil.which("mawk")
    have_ref = bool(ref and Path(ref).is_file() and mawk)
    if not have_ref:
        print("bench_rules: SKIPPED the comparisons with the reference: set "
              "COUNCIL_REFERENCE_AWK=/path/to/redact.awk and install mawk; own timings only")
    awk: br.Cmd = ([mawk or "mawk", "-f", ref], br.ENV)
    argv = [*br.tool_command(), "--rules", "extended"]
    tools: list[tuple[str, br.Cmd]] = [("re", (argv, br.ENV_RE))]
    if "hyperscan" in br.engine_line():
        tools.append(("hyperscan", (argv, br.ENV)))

    corpora = [
        ("typical", out_dir / f"redact-typical-{size >> 20}m.txt", 1.0,
         lambda p: br.gen_typical(p, size, 1)),
        ("adversarial", out_dir / f"redact-adversarial-{size >> 21}m.txt", 0.0,
         lambda p: br.gen_adversarial(p, size // 2, 2)),
        ("pathological", out_dir / "redact-pathological.txt", 1.0, br.gen_pathological),
    ]
    print(f"{'--rules extended':<24} {'MB':>6} {'mawk wall':>10} {'ours wall':>10} {'ratio':>7} "
          f"{'mawk cpu':>9} {'ours cpu':>9} {'ratio':>7} {'goal':>6}")
    for name, path, goal, gen in corpora:
        if not path.exists():
            gen(path)
        mb = path.stat().st_size / (1 << 20)
        for engine, tool in tools:
            label = f"{name} ({engine})"
            if have_ref:
                (aw, ac), (ow, oc) = br.timed([awk, tool], path, runs)
                ok = min(aw / ow, ac / oc) >= goal
                verdict = "" if not goal else ("ok" if ok else "BELOW GOAL")
                print(f"{label:<24} {mb:6.1f} {aw:10.3f} {ow:10.3f} {aw / ow:6.1f}x {ac:9.3f} "
                      f"{oc:9.3f} {ac / oc:6.1f}x {goal or '-':>5}{'x' if goal else ' '}  "
                      f"{verdict}")
            else:
                ((ow, oc),) = br.timed([tool], path, runs)
                print(f"{label:<24} {mb:6.1f} {'-':>10} {ow:10.3f} {'-':>7} {'-':>9} {oc:9.3f}")

    rules = load_rules("extended")

    # Linearity: one long adversarial line, and many short candidate lines.
    unit = (b"password=" + b"a1" * 20 + b" token: ghr_" + b"x" * 30 + b" -----BEGIN ")
    for label, make in (
        ("one long line", lambda k: unit * k + b"\n"),
        ("candidate lines", lambda k: (b"password = 'hunter22' # " + unit[:40] + b"\n") * k),
    ):
        times = []
        for k in (2000, 8000):
            data = make(k)
            t0 = time.perf_counter()
            redact_value(data, rules)
            times.append(time.perf_counter() - t0)
        growth = times[1] / times[0]
        verdict = "ok (linear)" if growth <= 6 else "NOT LINEAR"
        print(f"linearity, {label}: 4x the input took {growth:.1f}x the time "
              f"({times[0]:.3f} s -> {times[1]:.3f} s)  {verdict}")

    # False alarms.
    lines = secret_corpus.benign_lines(seed=29, n=50_000 if not args.quick else 10_000)
    data = "".join(ln + "\n" for ln in lines).encode()
    extra, total = extra_lines(data, rules)
    verdict = "ok" if extra <= 0.001 * total else "ABOVE GOAL"
    print(f"false alarms, generated ordinary text: {extra} of {total} lines "
          f"({100 * extra / total:.3f} %), goal <= 0.1 %  {verdict}")
    extra = total = 0
    for path in repo_files():
        e, t = extra_lines(path.read_bytes(), rules)
        extra += e
        total += t
    verdict = "ok" if extra <= 0.001 * max(total, 1) else "ABOVE GOAL"
    print(f"false alarms, this repository's sources and docs: {extra} of {total} lines "
          f"({100 * extra / max(total, 1):.3f} %), goal <= 0.1 %  {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
