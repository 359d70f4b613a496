"""Benchmark: real reviewer habits through the whole default chain.

A fresh corpus (tests/realcorpus.py; the seed is today's date unless
``--seed`` is given) of council runs, four reviewers each, goes through

    council-redact --jsonl | council-fence --jsonl | council-parse-verdict --jsonl
      | council-consolidate --format F

for F in json, markdown, sarif and rdjsonl, as separate processes (the
executables in bin/).  Reported: verdicts read right; for each format, the
share of reviewer findings whose own text appears (markdown: in the synthesis
sections, not the appendices; json: in the consolidated findings' members;
SARIF: in result messages; rdjsonl: in diagnostic messages); and the pairwise
precision, recall and F1 of the grouping (two findings are a true pair when
they name the same planted problem).

``--sweep`` instead measures grouping precision/recall in-process for a range
of thresholds (the table in docs/benchmarks.md).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

import realcorpus  # noqa: E402

fold, strings = realcorpus.fold, realcorpus.strings

BIN = ROOT / "bin"
FORMATS = ("json", "markdown", "sarif", "rdjsonl")



def unescape_md(text: str) -> str:
    text = re.sub(r"\\(.)", r"\1", text)
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")



def run(cmd: list[str], data: bytes, extra: list[str] | None = None) -> bytes:
    exe = str(BIN / cmd[0])
    proc = subprocess.run([exe, *cmd[1:], *(extra or [])], input=data,
                          capture_output=True, check=False)
    if proc.returncode not in (0, 3):
        raise SystemExit(f"{cmd[0]} exited {proc.returncode}: {proc.stderr.decode()[:300]}")
    return proc.stdout


def chain(data: bytes, upstream: bool) -> bytes:
    flag = ["--upstream"] if upstream else []
    data = run(["council-redact", "--jsonl"], data)
    data = run(["council-fence", "--jsonl"], data, flag)
    return run(["council-parse-verdict", "--jsonl"], data, flag)


def synthesis_part(markdown: str) -> str:
    m = re.search(r"^## \S+ Output$", markdown, re.M)
    return markdown[: m.start()] if m else markdown


def present(fmt: str, out: bytes) -> str:
    """The text in which findings must appear, for one output format."""
    text = out.decode("utf-8", "replace")
    if fmt == "markdown":
        return fold(unescape_md(synthesis_part(text)))
    if fmt == "json":
        return fold(" ".join(strings(json.loads(text).get("findings", []))))
    if fmt == "sarif":
        doc = json.loads(text)
        return fold(" ".join(s for run_ in doc["runs"] for r in run_.get("results", [])
                             for s in strings([r.get("message"), r.get("relatedLocations")])))
    return fold(" ".join(json.loads(ln)["message"] for ln in text.splitlines() if ln.strip()))


def pairs_score(sc: realcorpus.Scenario, doc: dict) -> tuple[int, int, int]:
    """(tp, fp, fn) of the grouping against the truth, from the json output."""
    truth = sc.findings
    group_of: dict[int, int] = {}
    for gi, item in enumerate(doc.get("findings", [])):
        for m in item.get("members", [item]):
            text = fold(" ".join(strings([m.get("summary"), m.get("text"),
                                          m.get("discussion")])))
            for ti, t in enumerate(truth):
                if ti in group_of or t.reviewer != m.get("origin"):
                    continue
                if fold(t.text) in text and m.get("line") == t.line:
                    group_of[ti] = gi
                    break
    groups: dict[int, list[int]] = {}
    for ti, gi in group_of.items():
        groups.setdefault(gi, []).append(ti)
    return realcorpus.pairwise([t.pid for t in truth], list(groups.values()))


def full(seed: int, runs: int, upstream: bool) -> int:
    scenarios = realcorpus.corpus(seed, runs)
    verdicts_ok = verdicts = 0
    found = {f: 0 for f in FORMATS}
    total = 0
    tp = fp = fn = 0
    for sc in scenarios:
        parsed = chain(sc.jsonl(), upstream)
        for line in parsed.splitlines():
            rec = json.loads(line)
            if rec.get("kind") == "reviewer":
                verdicts += 1
                verdicts_ok += rec.get("verdict") == sc.verdicts[rec["reviewer"]]
        total += len(sc.findings)
        for fmt in FORMATS:
            extra = ["--format", fmt, "--no-source", "--date", "2026-01-01"]
            if upstream:
                extra.append("--upstream")
            out = run(["council-consolidate"], parsed, extra)
            hay = present(fmt, out)
            found[fmt] += sum(1 for t in sc.findings if fold(t.text) in hay)
            if fmt == "json":
                a, b, c = pairs_score(sc, json.loads(out))
                tp, fp, fn = tp + a, fp + b, fn + c
    print(f"realworld seed {seed}, {len(scenarios)} runs{' (--upstream)' if upstream else ''}")
    print(f"  verdicts read right: {verdicts_ok}/{verdicts}")
    for fmt in FORMATS:
        print(f"  findings present in {fmt:8}: {found[fmt]}/{total} "
              f"({100 * found[fmt] / max(1, total):.1f} %)")
    p, r, f1 = realcorpus.f1(tp, fp, fn)
    print(f"  grouping pairwise: precision {p:.3f}, recall {r:.3f}, F1 {f1:.3f}")
    ok = verdicts_ok == verdicts and all(found[f] == total for f in FORMATS) and f1 >= 0.95
    return 0 if ok or upstream else 1


def sweep(seeds: range, runs: int) -> int:
    from council_filters.consolidate import grouping
    from council_filters.verdict import reading

    data = []
    for seed in seeds:
        for sc in realcorpus.corpus(seed, runs):
            items: list[grouping.Item] = []
            pids: list[int] = []
            for rec in sc.records:
                if rec["status"] != "OK":
                    continue
                got = reading.read(rec["output"].encode(), rec["reviewer"]).findings
                for t in (t for t in sc.findings if t.reviewer == rec["reviewer"]):
                    hit = [f for f in got if t.text in f["summary"] + f.get("discussion", "")
                           and f.get("line") == t.line]
                    if hit:
                        f = hit[0]
                        items.append(grouping.Item(f.get("file"), f.get("line"), t.reviewer,
                                                   f["summary"]))
                        pids.append(t.pid)
            data.append((items, pids))
    print("threshold  precision  recall  F1")
    for th in (0.02, 0.04, 0.06, 0.08, 0.10, 0.12, 0.15, 0.18, 0.22, 0.26, 0.30, 0.40, 0.50):
        tp = fp = fn = 0
        for items, pids in data:
            a, b, c = realcorpus.pairwise(pids, grouping.group(items, threshold=th))
            tp, fp, fn = tp + a, fp + b, fn + c
        p, r, f = realcorpus.f1(tp, fp, fn)
        print(f"{th:9.2f}  {p:9.3f}  {r:6.3f}  {f:.3f}")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    today = int(datetime.date.today().strftime("%Y%m%d"))
    ap.add_argument("--seed", type=int, default=today)
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--upstream", action="store_true", help="run the chain with --upstream")
    ap.add_argument("--sweep", action="store_true", help="grouping threshold sweep")
    args = ap.parse_args()
    os.environ.setdefault("LC_ALL", "C.UTF-8")
    if args.sweep:
        return sweep(range(args.seed, args.seed + 10), args.runs)
    return full(args.seed, args.runs, args.upstream)


if __name__ == "__main__":
    raise SystemExit(main())
