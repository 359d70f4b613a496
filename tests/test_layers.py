"""The import layers, read from the source (every import, lazy ones included).

- ``council_filters.base`` imports nothing else of the package;
- a core (anything outside ``cli/`` and the shell kit) never imports a CLI
  module, the shell kit, typer or click;
- a CLI module never imports another one (the shared shell excepted).
"""

from __future__ import annotations

import ast
from pathlib import Path

PKG = Path(__file__).resolve().parent.parent / "council_filters"
SHELL = {"council_filters.kit", "council_filters.cli._shell", "council_filters.cli._coerce"}


def module_name(path: Path) -> str:
    parts = path.relative_to(PKG.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path) -> set[str]:
    """Every module ``path`` imports, ``from pkg import mod`` counted as ``pkg.mod``."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"{path.name}: relative import"
            base = node.module or ""
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return {name for name in found if name}


MODULES = {module_name(p): imports(p) for p in sorted(PKG.rglob("*.py"))}


def ours(names: set[str]) -> set[str]:
    """The package modules among ``names`` (names of functions or classes dropped)."""
    return {n for n in names if n in MODULES or n == "council_filters"}


def is_cli(name: str) -> bool:
    return name.startswith("council_filters.cli.")


def test_every_module_is_seen() -> None:
    assert "council_filters.base.vocab" in MODULES and "council_filters.cli.pack" in MODULES


def test_base_imports_nothing_else_of_the_package() -> None:
    bad = {
        name: sorted(n for n in ours(deps) if not n.startswith("council_filters.base"))
        for name, deps in MODULES.items() if name.startswith("council_filters.base")
    }
    assert {k: v for k, v in bad.items() if v} == {}


def test_cores_never_import_a_shell_typer_or_click() -> None:
    shellish = ("typer", "click")
    bad = {}
    for name, deps in MODULES.items():
        if is_cli(name) or name in SHELL or name == "council_filters.cli":
            continue
        wrong = sorted(
            n for n in deps
            if n.split(".")[0] in shellish or is_cli(n) or n in SHELL
            or n == "council_filters.cli"
        )
        if wrong:
            bad[name] = wrong
    assert bad == {}


def test_no_cli_module_imports_another() -> None:
    bad = {
        name: sorted(n for n in ours(deps) if is_cli(n) and n not in SHELL and n != name)
        for name, deps in MODULES.items() if is_cli(name)
    }
    assert {k: v for k, v in bad.items() if v} == {}
