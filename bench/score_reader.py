"""Score council-parse-verdict's default reading on a hand-labelled corpus of reviewer texts.

The corpus is a directory holding ``texts/`` (one answer a file) and ``labels.jsonl``,
one object a line:

    {"id": "001.md", "family": "codex-plain", "verdict": "REVISE" | "APPROVE" | "REJECT" | null,
     "findings": [{"file": "src/a.py" | null, "line": 12 | null, "severity": "critical" | null}]}

``verdict`` null means the text states none; ``file`` null a finding that names no file,
``line`` null a file-level finding; ``severity`` uses the project's ladder
(critical / medium / minor) or null when the text gives none.

Each text goes through the command as a user runs it (``council-parse-verdict --reviewer
scorer FILE``), and the record it prints is compared with the label:

- verdict right: the record's verdict (UNKNOWN = none) equals the label's;
  an *invented* verdict is one read from a text whose label states none;
- a finding is at the right place when its file names the labelled file (the same
  path, or one ends with the other at a ``/``) and its line is within 2 of the
  labelled line (both absent for a file-level finding); a labelled finding without
  a file is matched by a finding without a file (see *matching* below);
- invented: findings read that match no labelled finding, over all findings read;
- severity right: among matched findings whose label has a severity.

Matching: labels are matched one to one with the findings read.  A located label takes
the first unused finding at its place (labels in the order of the file).  Every
fileless finding read matches every fileless label, so the order alone would decide
their pairs, and one finding read at a wrong place (a fileless finding given a file)
would shift every later pair and count severity errors that are not there.  By default
(``--match severity``) fileless labels are therefore paired in two passes: first each
labelled severity with an unused fileless finding of that same severity (in order),
then the labels left with the fileless findings left (in order).  Findings of one
severity are interchangeable, so this is an optimal assignment: the most severity
agreements for the same number of matches (the match counts are the same either
way).  ``--match order`` gives the plain in-order pairing, for comparison.

Usage:

    python bench/score_reader.py CORPUS_DIR            # the table by family and in total
    python bench/score_reader.py CORPUS_DIR --misses   # also every text that was not read right
    python bench/score_reader.py CORPUS_DIR --json     # the figures as one JSON object
    python bench/score_reader.py CORPUS_DIR --in-process   # the same reading without a process
                                                           # per text (quicker; same code path)
    python bench/score_reader.py CORPUS_DIR --match order  # fileless labels paired in order

The corpus is data, not part of the repository: pass any directory of that shape.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from council_filters.base import severity  # noqa: E402

VOTES = ("APPROVE", "REVISE", "REJECT")
SLACK = 2


@dataclass
class Tally:
    texts: int = 0
    verdicts: int = 0
    verdicts_right: int = 0
    no_verdict_texts: int = 0
    verdicts_invented: int = 0
    located: int = 0
    located_right: int = 0
    fileless: int = 0
    fileless_right: int = 0
    read: int = 0
    invented: int = 0
    severities: int = 0
    severities_right: int = 0
    errors: int = 0
    misses: list[str] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        for name in self.__dataclass_fields__:
            if name != "misses":
                setattr(self, name, getattr(self, name) + getattr(other, name))
        self.misses.extend(other.misses)


def same_file(read: str, label: str) -> bool:
    a, b = (re.sub(r"^(?:\./)+", "", x.strip()).lstrip("/") for x in (read, label))
    if not a or not b:
        return False
    return a == b or a.endswith("/" + b) or b.endswith("/" + a)


def read_severity(rec: dict[str, Any]) -> str | None:
    for key in ("severity", "priority"):
        value = rec.get(key)
        if isinstance(value, str) and (canon := severity.from_text(value)):
            return canon
    return None


def matches(rec: dict[str, Any], lab: dict[str, Any]) -> bool:
    file, line = rec.get("file"), rec.get("line")
    if lab.get("file") is None:
        return not file
    if not isinstance(file, str) or not same_file(file, lab["file"]):
        return False
    if lab.get("line") is None:
        return line is None
    return isinstance(line, int) and abs(line - lab["line"]) <= SLACK


def pair(found: list[dict[str, Any]], labels: list[dict[str, Any]],
         by_severity: bool = True) -> list[int | None]:
    """The index of the finding read that each label is matched with (None: missed);
    see *Matching* in the module docstring."""
    used: set[int] = set()
    hits: list[int | None] = [None] * len(labels)
    passes = (True, False) if by_severity else (False,)
    for same_severity in passes:
        for j, lab in enumerate(labels):
            if hits[j] is not None:
                continue
            fileless = lab.get("file") is None
            if same_severity and (not fileless or lab.get("severity") is None):
                continue
            hit = next((i for i, rec in enumerate(found) if i not in used and matches(rec, lab)
                        and (not same_severity or read_severity(rec) == lab["severity"])),
                       None)
            if hit is not None:
                used.add(hit)
                hits[j] = hit
    return hits


def score_one(record: dict[str, Any], label: dict[str, Any],
              by_severity: bool = True) -> tuple[Tally, list[str]]:
    t = Tally(texts=1)
    why: list[str] = []
    got = record.get("verdict")
    got = got if got in VOTES else None
    want = label.get("verdict")
    if want is None:
        t.no_verdict_texts += 1
        if got is not None:
            t.verdicts_invented += 1
            why.append(f"verdict {got} invented")
    else:
        t.verdicts += 1
        if got == want:
            t.verdicts_right += 1
        else:
            why.append(f"verdict {got} != {want}")
    found = [f for f in record.get("findings") or [] if isinstance(f, dict)]
    t.read = len(found)
    # located labels first (a fileless finding read must not take a located label's place)
    labels = sorted(label.get("findings") or [], key=lambda x: x.get("file") is None)
    hits = pair(found, labels, by_severity)
    used = {h for h in hits if h is not None}
    for lab, hit in zip(labels, hits, strict=True):
        located = lab.get("file") is not None
        if located:
            t.located += 1
        else:
            t.fileless += 1
        if hit is None:
            where = f"{lab.get('file')}:{lab.get('line')}" if located else "(no file)"
            why.append(f"missed {where}")
            continue
        if located:
            t.located_right += 1
        else:
            t.fileless_right += 1
        if lab.get("severity") is not None:
            t.severities += 1
            sev = read_severity(found[hit])
            if sev == lab["severity"]:
                t.severities_right += 1
            else:
                why.append(f"severity {sev} != {lab['severity']} at {lab.get('file')}")
    for i, rec in enumerate(found):
        if i not in used:
            t.invented += 1
            why.append(f"invented {rec.get('file')}:{rec.get('line')} "
                       f"{str(rec.get('summary', ''))[:60]!r}")
    return t, why


def run(command: list[str], path: Path) -> dict[str, Any] | None:
    proc = subprocess.run([*command, str(path)], capture_output=True, timeout=60, check=False)
    if proc.returncode != 0:
        return None
    try:
        value = json.loads(proc.stdout.decode("utf-8", "replace").strip().splitlines()[-1])
    except (ValueError, IndexError):
        return None
    return value if isinstance(value, dict) else None


def read_in_process(path: Path) -> dict[str, Any] | None:
    """What the command prints for one text, computed by the functions it calls."""
    from council_filters.verdict.findings_block import verdict_fields
    from council_filters.verdict.records import layer1_of

    try:
        l1, structured = layer1_of(path.read_bytes(), "scorer", True, True)
        return dict(verdict_fields(l1.verdict, l1.confidence, l1.summary, l1.findings,
                                   l1.warnings, "scorer", structured))
    except Exception:  # noqa: BLE001 - a crash is scored as a failed reading
        return None


def pct(a: int, b: int) -> str:
    return f"{a}/{b} ({100 * a / b:.0f}%)" if b else "-"


def row(name: str, t: Tally) -> list[str]:
    return [name, str(t.texts), pct(t.verdicts_right, t.verdicts),
            str(t.verdicts_invented), pct(t.located_right, t.located),
            pct(t.fileless_right, t.fileless), pct(t.invented, t.read),
            pct(t.severities_right, t.severities)]


def figures(t: Tally) -> dict[str, Any]:
    return {k: getattr(t, k) for k in t.__dataclass_fields__ if k != "misses"}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("corpus", type=Path, help="directory with texts/ and labels.jsonl")
    ap.add_argument("--command", default=None,
                    help="the reader to run (default: council-parse-verdict beside this Python)")
    ap.add_argument("--misses", action="store_true", help="list what each text got wrong")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    ap.add_argument("--match", choices=("severity", "order"), default="severity",
                    help="pair fileless labels by severity agreement (default) or in order")
    ap.add_argument("--in-process", action="store_true",
                    help="call the reader's functions instead of running the command per text")
    args = ap.parse_args(argv)
    exe = args.command or str(Path(sys.executable).with_name("council-parse-verdict"))
    if not os.path.exists(exe.split()[0]):
        exe = "council-parse-verdict"
    command = [*exe.split(), "--reviewer", "scorer"]
    labels_path = args.corpus / "labels.jsonl"
    texts = args.corpus / "texts"
    if not labels_path.is_file() or not texts.is_dir():
        print(f"{args.corpus}: expected texts/ and labels.jsonl", file=sys.stderr)
        return 2
    families: dict[str, Tally] = defaultdict(Tally)
    total = Tally()
    for line in labels_path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        label = json.loads(line)
        path = texts / label["id"]
        record = read_in_process(path) if args.in_process else run(command, path)
        if record is None:
            t = Tally(texts=1, errors=1)
            why = ["the reader failed"]
        else:
            t, why = score_one(record, label, args.match == "severity")
        if why:
            t.misses.append(f"{label['id']}: " + "; ".join(why))
        families[label.get("family") or "-"].add(t)
        total.add(t)
    if args.json:
        print(json.dumps({"total": figures(total),
                          "families": {k: figures(v) for k, v in sorted(families.items())}}))
        return 0
    head = ["family", "texts", "verdicts right", "invented verdicts", "findings at place",
            "fileless found", "invented findings", "severity right"]
    rows = [head] + [row(k, v) for k, v in sorted(families.items())] + [row("TOTAL", total)]
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    for r in rows:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)))
    if total.errors:
        print(f"\n{total.errors} text(s) made the reader fail")
    if args.misses:
        print()
        for m in total.misses:
            print(m)
    return 0


if __name__ == "__main__":
    sys.exit(main())
