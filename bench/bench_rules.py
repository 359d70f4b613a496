"""Benchmark council-redact --rules extended: speed against mawk, linearity, false alarms.

    python bench/bench_rules.py [--quick] [--runs N]

Speed rows time `council-redact --rules extended` against mawk running the
reference eleven-pattern program (COUNCIL_REFERENCE_AWK) on the same corpora
as bench_redact.py, in the same run; medians; a ratio above 1 means faster.
Further rows, each the median of per-run CPU ratios against mawk in one run,
with secretlint (recommended preset, from package.json) timed on the same
file beside: --rules extended on real code and docs (this interpreter's
standard library sources plus Markdown; goal 10x), on near misses (goal 3x),
on near misses drawn fresh line by line (tests/near_misses.py; goal 3x),
and a gitleaks file named by COUNCIL_GITLEAKS_CONFIG (gitleaks' default
config; goal 3x; skipped, saying why, without it).
The linearity row times an adversarial single line at two sizes.  The
false-alarm rows count the lines the extended set redacts beyond the
default on generated ordinary text (tests/secret_corpus.py) and on this
repository's own sources and docs (goal: at most 0.02 %).
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
import near_misses  # noqa: E402
import secret_corpus  # noqa: E402

from council_filters.redaction.machine import Redactor  # noqa: E402
from council_filters.redaction.secrets import load_rules, redact_value  # noqa: E402


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


# --------------------------------------------------------------------------- #
# Real code and docs, near misses, a gitleaks file, secretlint beside.
# --------------------------------------------------------------------------- #
GITLEAKS_ENV = "COUNCIL_GITLEAKS_CONFIG"  # a gitleaks TOML (e.g. gitleaks' default file)


def gen_real(path: Path, size: int) -> None:
    """This interpreter's standard library sources, then Markdown found beside it."""
    import sysconfig

    stdlib = Path(sysconfig.get_paths()["stdlib"])
    out = bytearray()
    for p in sorted(stdlib.rglob("*.py")):
        if "site-packages" in p.parts or len(out) >= size * 3 // 4:
            continue
        out += p.read_bytes()
    roots = [Path(sys.prefix), ROOT, stdlib.parent]
    for root in roots:
        for p in sorted(root.rglob("*.md")):
            if len(out) >= size:
                break
            if p.is_file():
                out += p.read_bytes()
    if not out.endswith(b"\n"):
        out += b"\n"
    path.write_bytes(bytes(out))


def gen_near_misses(path: Path, size: int, seed: int = 5) -> None:
    """Lines dense in what the rules look for, none a credential."""
    import random

    rng = random.Random(seed)
    shapes = [
        "password = self.password", "token_count = len(tokens)", "api_key: str | None = None",
        "secret_name = os.environ['SECRET_NAME']", 'key = "{}".format(name)',
        "AUTH is required", "requirepass is documented in redis.conf", "redis://localhost:6379/0",
        "<password>${DB_PASSWORD}</password>", '<add key="Password" value="" />',
        "SessionToken: string", "secretAccessKey: <your key>", "mysql -u root -p appdb",
        "--password-file /run/secrets/db", "Authorization: Bearer $TOKEN", "PWD=/home/app/src",
        "| token | the session token |", "sk_test_xxxxxxxxxxxxxxxxxxxx", "ghp_EXAMPLE",
        "-----BEGIN CERTIFICATE-----", "--- a/x.py", "machine host login me password $PW",
        "connection_string = build_dsn(host, port)", "passphrase: ${PASSPHRASE}",
    ]
    words = ("the", "value", "is", "read", "from", "config", "at", "start", "and", "never")
    lines = []
    n = 0
    while n < size:
        line = rng.choice(shapes) if rng.random() < 0.6 else " ".join(
            rng.choice(words) for _ in range(rng.randint(4, 14)))
        lines.append(line)
        n += len(line) + 1
    path.write_text("\n".join(lines) + "\n")


def gen_fresh_near_misses(path: Path, size: int, seed: int = 43) -> None:
    """Near misses drawn fresh line by line (tests/near_misses.py: new names, values,
    spacing and quoting each line, the same families): the shapes do not repeat."""
    out = []
    n = 0
    for line in near_misses.near_miss_lines(seed=seed, n=size):  # (stops at the size)
        out.append(line)
        n += len(line) + 1
        if n >= size:
            break
    path.write_text("\n".join(out) + "\n")


def secretlint_command(path: Path) -> list[str] | None:
    """secretlint with its recommended preset on ``path`` (None when not installed)."""
    exe = ROOT / "node_modules" / ".bin" / "secretlint"
    preset = ROOT / "node_modules" / "@secretlint" / "secretlint-rule-preset-recommend"
    if not exe.exists() or not preset.exists():
        return None
    rc = br.OUT / "secretlintrc.json"
    rc.write_text('{"rules": [{"id": "@secretlint/secretlint-rule-preset-recommend"}]}')
    return [str(exe), "--secretlintrc", str(rc), "--no-color", str(path)]


def run_tolerant(argv: list[str], path: Path | None, env: dict[str, str]) -> tuple[float, float]:
    """(wall, CPU) of one run; a scanner's "found something" exit status is fine."""
    import subprocess

    fh = path.open("rb") if path is not None else subprocess.DEVNULL
    try:
        t0 = time.perf_counter()
        proc = subprocess.Popen(argv, stdin=fh, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, env=env)
        _, _status, usage = os.wait4(proc.pid, 0)
        return time.perf_counter() - t0, usage.ru_utime + usage.ru_stime
    finally:
        if path is not None:
            fh.close()  # type: ignore[union-attr]


def ratio_rows(corpora: list[tuple[str, Path, list[str], float]], awk: br.Cmd, runs: int,
               have_ref: bool) -> None:
    """Per corpus: mawk and council-redact alternating, the median of the per-run
    CPU ratios (and of wall ratios), and secretlint on the same file beside."""
    import statistics

    print(f"{'rule set / corpus':<34} {'MB':>6} {'mawk cpu':>9} {'ours cpu':>9} "
          f"{'ratio':>7} {'wall ratio':>10} {'goal':>5}  {'secretlint cpu':>14}")
    for label, path, rules_args, goal in corpora:
        mb = path.stat().st_size / (1 << 20)
        ours = [*br.tool_command(), *rules_args]
        lint = secretlint_command(path)
        cpu_r, wall_r, ours_c, awk_c, lint_c = [], [], [], [], []
        for _ in range(runs):
            ow, oc = run_tolerant(ours, path, br.ENV)
            ours_c.append(oc)
            if have_ref:
                aw, ac = run_tolerant(awk[0], path, awk[1])
                awk_c.append(ac)
                cpu_r.append(ac / oc)
                wall_r.append(aw / ow)
            if lint is not None:
                lint_c.append(run_tolerant(lint, None, br.ENV)[1])
        med = statistics.median
        lint_txt = f"{med(lint_c):14.3f}" if lint_c else f"{'not installed':>14}"
        if have_ref:
            verdict = "ok" if med(cpu_r) >= goal else "BELOW GOAL"
            print(f"{label:<34} {mb:6.1f} {med(awk_c):9.3f} {med(ours_c):9.3f} "
                  f"{med(cpu_r):6.2f}x {med(wall_r):9.2f}x {goal:4.0f}x  {lint_txt}  {verdict}")
        else:
            print(f"{label:<34} {mb:6.1f} {'-':>9} {med(ours_c):9.3f} {'-':>7} {'-':>10} "
                  f"{goal:4.0f}x  {lint_txt}")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="10 MB corpora, 1 run (a smoke test)")
    ap.add_argument("--runs", type=int, default=0, help="runs per tool and corpus (median; "
                    "default 3, 1 with --quick)")
    args = ap.parse_args()
    runs = args.runs or (1 if args.quick else 3)
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

    # Real code and docs, near misses, a gitleaks file: medians of per-run ratios.
    real = out_dir / f"rules-real-{27 if not args.quick else 5}m.txt"
    if not real.exists():
        gen_real(real, (27 if not args.quick else 5) << 20)
    near = out_dir / f"rules-near-misses-{8 if not args.quick else 2}m.txt"
    if not near.exists():
        gen_near_misses(near, (8 if not args.quick else 2) << 20)
    fresh = out_dir / f"rules-fresh-near-misses-{8 if not args.quick else 2}m.txt"
    if not fresh.exists():
        gen_fresh_near_misses(fresh, (8 if not args.quick else 2) << 20)
    rows: list[tuple[str, Path, list[str], float]] = [
        ("extended, real code and docs", real, ["--rules", "extended"], 10.0),
        ("extended, near misses", near, ["--rules", "extended"], 3.0),
        ("extended, fresh near misses", fresh, ["--rules", "extended"], 3.0),
    ]
    gl = os.environ.get(GITLEAKS_ENV, "")
    if gl and Path(gl).is_file():
        rows.append(("gitleaks file, real code and docs", real, ["--rules", gl], 3.0))
    else:
        print(f"bench_rules: SKIPPED the gitleaks row: set {GITLEAKS_ENV}=/path/to/gitleaks.toml "
              "(gitleaks' default config file, not shipped here)")
    ratio_rows(rows, awk, runs, have_ref)

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
    verdict = "ok" if extra <= 0.0002 * total else "ABOVE GOAL"
    print(f"false alarms, generated ordinary text: {extra} of {total} lines "
          f"({100 * extra / total:.3f} %), goal <= 0.02 %  {verdict}")
    extra = total = 0
    for path in repo_files():
        e, t = extra_lines(path.read_bytes(), rules)
        extra += e
        total += t
    verdict = "ok" if extra <= 0.0002 * max(total, 1) else "ABOVE GOAL"
    print(f"false alarms, this repository's sources and docs: {extra} of {total} lines "
          f"({100 * extra / max(total, 1):.3f} %), goal <= 0.02 %  {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
