#!/usr/bin/env python3
"""A recorded reviewer: replays examples/reviewers/<NAME>.* in place of a real CLI.

    replay.py NAME [PACK_FILE]

Reads the pack (from PACK_FILE, else stdin) as a real reviewer would.  When the
pack ends with an INGEST_TOKEN line it begins the answer by repeating it, as the
pointer prompt asks.  `gemini` sleeps past any sane council timeout instead of
answering, to show the TIMEOUT path.
"""

import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> int:
    name = sys.argv[1]
    pack = Path(sys.argv[2]).read_text() if len(sys.argv) > 2 else sys.stdin.read()
    if "## Required Output Format" not in pack:
        print("stub reviewer: the pack has no Required Output Format section", file=sys.stderr)
        return 2
    if name == "gemini":
        time.sleep(600)
    token = [ln for ln in pack.splitlines() if ln.startswith("INGEST_TOKEN: ")]
    if token:
        print(token[-1])
    for recorded in (HERE / f"{name}.txt", HERE / f"{name}.jsonl"):
        if recorded.exists():
            sys.stdout.write(recorded.read_text())
            return 0
    print(f"stub reviewer: no recording for {name}", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
