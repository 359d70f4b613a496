"""The README's per-filter sections, generated from each filter's ``--help``.

    python tests/docs.py --write   rewrite the sections between the markers
    python tests/docs.py --check   exit 1 if any section differs (make lint)

A section sits between ``<!-- help:council-NAME -->`` and
``<!-- /help:council-NAME -->``; executables with subcommands get the help of
each subcommand too.  The executables are those in pyproject's
``[project.scripts]``, so a new filter cannot be forgotten.
"""

from __future__ import annotations

import importlib
import os
import re
import sys
import tomllib
from pathlib import Path

from conftest import run_filter

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"


def executables() -> dict[str, str]:
    """``{"council-redact": "council_filters.cli.redact", ...}`` from pyproject."""
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    return {name: target.split(":")[0] for name, target in data["project"]["scripts"].items()}


def help_text(module: str, argv: list[str]) -> str:
    code, out, err = run_filter(importlib.import_module(module).main, [*argv, "--help"])
    if code != 0:
        raise SystemExit(f"{module} {' '.join(argv)} --help exited {code}: {err}")
    return out.decode("utf-8")


def subcommands(module: str) -> list[str]:
    import typer.main

    mod = importlib.import_module(module)
    command = typer.main.get_command(mod.app)
    names = sorted(getattr(command, "commands", None) or [])
    # Subcommands a module dispatches itself, before typer (see its main()).
    return names + list(getattr(mod, "EXTRA_SUBCOMMANDS", ()))


def nested(module: str, sub: str) -> list[str]:
    """The subcommands of a subcommand group (``council code-review run`` ...)."""
    import typer.main

    command = typer.main.get_command(importlib.import_module(module).app)
    group = (getattr(command, "commands", None) or {}).get(sub)
    return list(getattr(group, "commands", None) or [])


def section(name: str, module: str) -> str:
    parts = [help_text(module, [])]
    for sub in subcommands(module):
        parts.append(help_text(module, [sub]))
        for inner in nested(module, sub):
            parts.append(help_text(module, [sub, inner]))
    body = "\n".join(p.rstrip("\n") + "\n" for p in parts)
    return f"<!-- help:{name} -->\n```text\n{body}```\n<!-- /help:{name} -->"


def render(readme: str) -> tuple[str, list[str]]:
    missing = []
    for name, module in executables().items():
        pattern = re.compile(
            rf"<!-- help:{re.escape(name)} -->.*?<!-- /help:{re.escape(name)} -->", re.S
        )
        if not pattern.search(readme):
            missing.append(name)
            continue
        new = section(name, module)
        readme = pattern.sub(lambda _m, new=new: new, readme)
    return readme, missing


def main(argv: list[str]) -> int:
    os.environ.setdefault("COLUMNS", "100")
    if argv not in (["--write"], ["--check"]):
        print(__doc__)
        return 2
    current = README.read_text()
    new, missing = render(current)
    if missing:
        print("README has no help section for: " + ", ".join(missing), file=sys.stderr)
    if argv == ["--write"]:
        if new != current:
            README.write_text(new)
        return 1 if missing else 0
    if new != current:
        print("README help sections are stale: run `make docs`", file=sys.stderr)
        return 1
    return 1 if missing else 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    sys.exit(main(sys.argv[1:]))
