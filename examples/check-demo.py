"""After the demo: say where the report is, and prove nothing secret got out.

    check-demo.py BUILD_DIR

Scans the inline output and every file the run wrote under the example
repository for the credential and private-key material that the recorded
claude reviewer leaks.  Exit 1 (and say which file) if any of it survived.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def secrets() -> list[str]:
    """The leaked material, read from the recording itself."""
    text = (HERE / "reviewers" / "claude.txt").read_text()
    needles = []
    in_key = False
    for line in text.splitlines():
        if "PRIVATE KEY-----" in line:
            in_key = "BEGIN" in line
            continue
        if in_key:
            needles.append(line.strip())
        elif "sk-ant-" in line:
            needles.append(line.split("sk-ant-", 1)[1][:24])
    return needles


def main() -> int:
    build = Path(sys.argv[1])
    reports = sorted((build / "repo" / "docs" / "council").glob("*.md"))
    if not reports:
        print("demo: no report was written under docs/council/", file=sys.stderr)
        return 1
    checked = [build / "inline.md", *reports]
    for path in checked:
        data = path.read_text(errors="replace")
        for needle in secrets():
            if needle in data:
                print(f"demo: LEAK: secret material reached {path}", file=sys.stderr)
                return 1
    print()
    print(f"Report: {reports[-1]}")
    print(f"Checked {len(checked)} outputs: no credential or key material reached any of them.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
