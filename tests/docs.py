"""Each command's reference page in docs/, its ``--help`` section generated from the command.

    python tests/docs.py --write   rewrite the sections between the markers
    python tests/docs.py --check   exit 1 if any section differs (make lint)

Every executable in pyproject's ``[project.scripts]`` has one page,
``docs/NAME.md`` (``council-pack`` -> ``docs/pack.md``, ``council`` ->
``docs/council.md``), so a new command cannot be forgotten.  The page's
generated part sits between ``<!-- help:council-NAME -->`` and
``<!-- /help:council-NAME -->``; executables with subcommands get the help of
each subcommand too.  The rest of the page is written by hand.
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
DOCS = ROOT / "docs"


def executables() -> dict[str, str]:
    """``{"council-redact": "council_filters.cli.redact", ...}`` from pyproject."""
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    return {name: target.split(":")[0] for name, target in data["project"]["scripts"].items()}


def page(name: str) -> Path:
    """The reference page of one executable: ``docs/pack.md`` for ``council-pack``."""
    return DOCS / f"{name.removeprefix('council-') or name}.md"


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


def render(name: str, module: str, text: str) -> str | None:
    """``text`` with ``name``'s help section regenerated; None when it has no markers."""
    pattern = re.compile(
        rf"<!-- help:{re.escape(name)} -->.*?<!-- /help:{re.escape(name)} -->", re.S
    )
    if not pattern.search(text):
        return None
    new = section(name, module)
    return pattern.sub(lambda _m: new, text)


def pages() -> tuple[dict[Path, tuple[str, str]], list[str]]:
    """``{page: (current, regenerated)}`` for every executable, and the names lacking one."""
    out: dict[Path, tuple[str, str]] = {}
    missing = []
    for name, module in executables().items():
        path = page(name)
        current = path.read_text() if path.exists() else ""
        new = render(name, module, current)
        if new is None:
            missing.append(name)
        else:
            out[path] = (current, new)
    return out, missing


def main(argv: list[str]) -> int:
    os.environ.setdefault("COLUMNS", "100")
    if argv not in (["--write"], ["--check"]):
        print(__doc__)
        return 2
    found, missing = pages()
    if missing:
        print("no reference page with a help section for: " + ", ".join(
            f"{name} ({page(name).relative_to(ROOT)})" for name in missing), file=sys.stderr)
    stale = [path for path, (current, new) in found.items() if new != current]
    if argv == ["--write"]:
        for path in stale:
            path.write_text(found[path][1])
        return 1 if missing else 0
    if stale:
        print("stale help sections in " + ", ".join(str(p.relative_to(ROOT)) for p in stale)
              + ": run `make docs`", file=sys.stderr)
        return 1
    return 1 if missing else 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    sys.exit(main(sys.argv[1:]))
