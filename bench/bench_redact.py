"""Benchmark council-redact against mawk running the reference awk program.

    python bench/bench_redact.py [--quick] [--runs N] [--rss-gb G]

The reference program is located through COUNCIL_REFERENCE_AWK; without it
(or without mawk) the comparisons are skipped with a message and only our own
timings are printed.  Corpora are generated deterministically (seeded) under
bench/out/ at run time.  Each row is the median of N runs of each tool on the
same input, in the same run of this script; a ratio above 1 means
council-redact is faster.

Rows:
  typical      100 MB of reviewer text: prose, diff lines, findings, rare secrets
  adversarial  dense with PEM markers, key-shaped bodies and credential shapes
  pathological one 600 KB line of "1. " list markers before a BEGIN marker
  startup      a one-line input, against a bare `python -c pass`
  rss          a generated stream of normal lines through a pipe, peak RSS
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bench" / "out"
PY = sys.executable
TOOL = [PY, "-m", "council_filters.cli.redact"]
ENV = {**os.environ, "LC_ALL": "C", "PYTHONPATH": str(ROOT)}

WORDS = (
    "the a of to in is that for it as with on this be are by not or from at an will "
    "function return value error check test file line change should could would must "
    "handler request response config parse buffer stream record field index cache risk "
    "task-list disk-usage ask-me mask-bits desk-check AIzaTion Bearer token header auth "
    "session key secret private public block begin end null undefined timeout retry"
).split()


# --------------------------------------------------------------------------- #
# Corpora.
# --------------------------------------------------------------------------- #
def _alnum(rng: random.Random, n: int, alphabet: str = "") -> str:
    chars = alphabet or "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
    return "".join(rng.choice(chars) for _ in range(n))


def _secret(rng: random.Random) -> str:
    kind = rng.randrange(10)
    if kind == 0:
        return "sk-proj-" + _alnum(rng, 40)
    if kind == 1:
        return "sk-ant-api03-" + _alnum(rng, 40)
    if kind == 2:
        return "sk-" + _alnum(rng, 40)
    if kind == 3:
        return "AIza" + _alnum(rng, 35)
    if kind == 4:
        return "ghp_" + _alnum(rng, 36)
    if kind == 5:
        return "github_pat_" + _alnum(rng, 60)
    if kind == 6:
        return "AKIA" + _alnum(rng, 16, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
    if kind == 7:
        return "Bearer " + _alnum(rng, 30)
    if kind == 8:
        return "Authorization: Basic " + _alnum(rng, 30)
    return "ses_" + _alnum(rng, 20)


def _pem_block(rng: random.Random, deco: str = "") -> list[str]:
    lines = [deco + "-----BEGIN RSA PRIVATE KEY-----"]
    lines += [deco + _alnum(rng, 64, "ABCDEFabcdef0123456789+/") for _ in range(rng.randint(3, 12))]
    lines.append(deco + "-----END RSA PRIVATE KEY-----")
    return lines


def typical_lines(rng: random.Random) -> list[str]:
    """One paragraph-sized piece of a reviewer's answer."""
    kind = rng.randrange(100)
    if kind < 40:
        return [" ".join(rng.choice(WORDS) for _ in range(rng.randint(6, 18))) + "."]
    if kind < 70:
        sign = rng.choice("+- ")
        code = " ".join(rng.choice(WORDS) for _ in range(rng.randint(2, 9)))
        return [f"{sign}    {code}({rng.randint(0, 99)});"]
    if kind < 80:
        return [
            f"- [P{rng.randint(1, 3)}] src/mod_{rng.randint(0, 99)}.py:{rng.randint(1, 999)} "
            + " ".join(rng.choice(WORDS) for _ in range(rng.randint(5, 12)))
        ]
    if kind < 85:
        return ["## " + " ".join(rng.choice(WORDS) for _ in range(3)), ""]
    if kind < 90:
        return ["```", f"$ make test  # {rng.randint(0, 9999)} passed", "```"]
    if kind < 95:
        return [f"@@ -{rng.randint(1, 500)},7 +{rng.randint(1, 500)},8 @@ def f():"]
    return [""]


def gen_typical(path: Path, size: int, seed: int) -> None:
    rng = random.Random(seed)
    n = 0
    with path.open("w", encoding="utf-8", newline="\n") as fh:
        while n < size:
            block = []
            for _ in range(200):
                block += typical_lines(rng)
            r = rng.randrange(1000)
            if r < 10:  # rare secrets: about one per 20,000 lines
                block.append("export TOKEN=" + _secret(rng))
            elif r < 12:
                block += _pem_block(rng)
            elif r < 20:
                block.append("Never paste a -----BEGIN PRIVATE KEY----- block into a review.")
            text = "\n".join(block) + "\n"
            fh.write(text)
            n += len(text)


def gen_adversarial(path: Path, size: int, seed: int) -> None:
    rng = random.Random(seed)
    decos = ["", "> ", "| ", "1. ", "- ", "+", "-", "  ", "> > ", "12 | ", "++ ", "------"]
    n = 0
    with path.open("w", encoding="utf-8", newline="\n") as fh:
        while n < size:
            r = rng.randrange(12)
            deco = rng.choice(decos)
            if r == 0:
                lines = _pem_block(rng, deco)
            elif r == 1:
                lines = [deco + "see -----BEGIN PRIVATE KEY----- here"] + [
                    deco + _alnum(rng, rng.randint(10, 30)) for _ in range(rng.randint(0, 6))
                ]
            elif r == 2:
                lines = [deco + "-----END PRIVATE KEY-----"] + [
                    deco + _alnum(rng, rng.choice((12, 16, 19, 20, 64))) for _ in range(6)
                ]
            elif r == 3:
                lines = ["token " + _secret(rng) for _ in range(3)]
            elif r == 4:  # near misses: one byte short
                lines = [
                    "sk-" + _alnum(rng, 19), "AKIA" + _alnum(rng, 15, "ABCDEF0123"),
                    "ghp_" + _alnum(rng, 35), "Bearer " + _alnum(rng, 19),
                ]
            elif r == 5:
                lines = [deco + "-----BEGIN EC PRIVATE KEY----- -----END EC PRIVATE KEY-----"]
            elif r == 6:
                lines = [deco + "Proc-Type: 4,ENCRYPTED", deco + "DEK-Info: AES-128-CBC,00"]
            else:
                lines = [deco + " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 12)))]
            text = "\n".join(lines) + "\n"
            fh.write(text)
            n += len(text)


def gen_pathological(path: Path) -> None:
    path.write_bytes(b"1. " * 200_000 + b"-----BEGIN RSA PRIVATE KEY-----\n")


# --------------------------------------------------------------------------- #
# Timing.
# --------------------------------------------------------------------------- #
def timed(cmd: list[str], stdin_path: Path, runs: int) -> float:
    times = []
    for _ in range(runs):
        with stdin_path.open("rb") as fh:
            t0 = time.perf_counter()
            subprocess.run(cmd, stdin=fh, stdout=subprocess.DEVNULL, env=ENV, check=True)
            times.append(time.perf_counter() - t0)
    return statistics.median(times)


def same_output(cmd_a: list[str], cmd_b: list[str], path: Path) -> bool:
    outs = []
    for cmd in (cmd_a, cmd_b):
        with path.open("rb") as fh:
            outs.append(subprocess.run(cmd, stdin=fh, capture_output=True, env=ENV).stdout)
    return outs[0] == outs[1]


GEN = (
    "import sys,random\n"
    "rng=random.Random(7)\n"
    "words=sys.argv[2].split()\n"
    "lines=[(' '.join(rng.choice(words) for _ in range(rng.randint(4,16)))+'\\n').encode()"
    " for _ in range(4096)]\n"
    "block=b''.join(lines)\n"
    "total=int(float(sys.argv[1])*(1<<30))\n"
    "n=0\n"
    "while n<total:\n"
    "    sys.stdout.buffer.write(block); n+=len(block)\n"
)


def rss_run(gigabytes: float) -> tuple[float, float]:
    """Stream generated normal lines through the tool over a pipe.

    Returns (seconds, the tool's own peak RSS in MB, from wait4).
    """
    gen = subprocess.Popen(
        [PY, "-c", GEN, str(gigabytes), " ".join(WORDS)], stdout=subprocess.PIPE
    )
    t0 = time.perf_counter()
    tool = subprocess.Popen(TOOL, stdin=gen.stdout, stdout=subprocess.DEVNULL, env=ENV)
    assert gen.stdout is not None
    gen.stdout.close()
    _, status, usage = os.wait4(tool.pid, 0)
    tool.returncode = os.waitstatus_to_exitcode(status)
    elapsed = time.perf_counter() - t0
    gen.wait()
    if tool.returncode != 0:
        raise SystemExit(f"bench_redact: tool exited {tool.returncode} on the RSS stream")
    return elapsed, usage.ru_maxrss / 1024


def python_pass_time(runs: int) -> float:
    real = subprocess.run(
        [PY, "-c", "import sys; print(sys.executable)"], capture_output=True, text=True
    ).stdout.strip()
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run([real, "-c", "pass"], check=True)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="10 MB corpora, 1 run (a smoke test)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--rss-gb", type=float, default=1.0)
    args = ap.parse_args()
    runs = 1 if args.quick else args.runs
    size = (10 if args.quick else 100) << 20

    OUT.mkdir(parents=True, exist_ok=True)
    ref = os.environ.get("COUNCIL_REFERENCE_AWK", "")
    mawk = shutil.which("mawk")
    have_ref = bool(ref and Path(ref).is_file() and mawk)
    if not have_ref:
        print(
            "bench_redact: reference comparisons skipped: set COUNCIL_REFERENCE_AWK to the "
            "reference redact.awk and install mawk"
        )
    awk = [mawk or "mawk", "-f", ref]

    corpora = {
        "typical": (OUT / f"redact-typical-{size >> 20}m.txt", lambda p: gen_typical(p, size, 1)),
        "adversarial": (
            OUT / f"redact-adversarial-{size >> 21}m.txt",
            lambda p: gen_adversarial(p, size // 2, 2),
        ),
        "pathological": (OUT / "redact-pathological.txt", gen_pathological),
    }
    goals = {"typical": 4.0, "adversarial": 1.0, "pathological": 10.0}
    rows = []
    for name, (path, gen) in corpora.items():
        if not path.exists():
            gen(path)
        mb = path.stat().st_size / (1 << 20)
        ours = timed(TOOL, path, runs)
        if have_ref:
            theirs = timed(awk, path, runs)
            ok = same_output(TOOL, awk, path)
            ratio = theirs / ours
            verdict = "ok" if ratio >= goals[name] else "BELOW GOAL"
            rows.append(
                f"{name:<13} {mb:8.1f} {theirs:9.3f} {ours:9.3f} {ratio:7.1f}x "
                f"{goals[name]:5.0f}x  {'same' if ok else 'DIFFERENT'}  {verdict}"
            )
        else:
            rows.append(f"{name:<13} {mb:8.1f} {'-':>9} {ours:9.3f} {'-':>8} {goals[name]:5.0f}x")

    one = OUT / "redact-one-line.txt"
    one.write_bytes(b"hello world\n")
    startup = timed(TOOL, one, max(runs, 5) * 2)
    bare = python_pass_time(max(runs, 5) * 2)
    s_ratio = startup / bare
    rows.append(
        f"{'startup':<13} {'':>8} {bare:9.3f} {startup:9.3f} {s_ratio:7.1f}x "
        f"{'<=5x':>6}  (python -c pass vs one line)  {'ok' if s_ratio <= 5 else 'ABOVE GOAL'}"
    )

    gb = 0.02 if args.quick else args.rss_gb
    _, small = rss_run(0.001)
    secs, peak = rss_run(gb)
    rows.append(
        f"{'rss':<13} {gb * 1024:8.0f} {'':>9} {secs:9.3f} peak RSS {peak:.1f} MB streamed "
        f"(1 MB input: {small:.1f} MB)"
    )

    print(f"{'corpus':<13} {'MB':>8} {'mawk s':>9} {'ours s':>9} {'ratio':>8} {'goal':>6}")
    for row in rows:
        print(row)
    return 0


if __name__ == "__main__":
    sys.exit(main())
