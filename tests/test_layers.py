"""The import layers, read from the source (every import, lazy ones included).

- ``council_filters.base`` imports nothing else of the package;
- a core (anything outside ``cli/`` and the shell kit) never imports a CLI
  module, the shell kit, typer or click;
- an executable's CLI module never imports another executable's; the shared shell and
  the private parts of one shell (``cli/_NAME.py``: ``council``'s shared options and its
  ``code-review`` group) are the only CLI modules imported, and no private part imports
  an executable's module;
- no import circle, between modules or between the package's rooms (its
  top-level packages and modules), counting every import but those under
  ``if TYPE_CHECKING:``;
- the redaction engine (``council_filters.redaction``) imports nothing of
  the package but itself and ``base``;
- at most five loose modules sit at the package's top.
"""

from __future__ import annotations

import ast
from pathlib import Path

PKG = Path(__file__).resolve().parent.parent / "council_filters"
SHELL = {"council_filters.cli._shell", "council_filters.cli._coerce"}


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


def _runtime_nodes(tree: ast.AST) -> list[ast.AST]:
    """The import statements that run: those under ``if TYPE_CHECKING:`` left out."""
    out: list[ast.AST] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING":
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            out.append(node)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return out


def runtime_edges(path: Path) -> set[str]:
    """The package modules ``path`` loads when it runs.

    ``from pkg import name`` is an edge to ``pkg.name`` when that is a module
    (the package's ``__init__`` runs first in any case, and is no edge), else
    to ``pkg``.
    """
    found: set[str] = set()
    for node in _runtime_nodes(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name in MODULES)
        elif isinstance(node, ast.ImportFrom) and node.module:
            for a in node.names:
                sub = f"{node.module}.{a.name}"
                if sub in MODULES:
                    found.add(sub)
                elif node.module in MODULES:
                    found.add(node.module)
    return found - {module_name(path)}


EDGES = {module_name(p): runtime_edges(p) for p in sorted(PKG.rglob("*.py"))}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected sets of more than one node (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def strong(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            strong(v)
    return found


def room(name: str) -> str:
    """The top-level package or module a module belongs to."""
    parts = name.split(".")
    return ".".join(parts[:2])


ROOMS = {
    r: {room(n) for m in EDGES if room(m) == r for n in EDGES[m]} - {r}
    for r in {room(m) for m in EDGES if m != "council_filters"}
}


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


def is_private(name: str) -> bool:
    """A part of a shell, not an executable: ``council_filters.cli._NAME``."""
    return is_cli(name) and name.rsplit(".", 1)[1].startswith("_")


def test_no_cli_module_imports_another() -> None:
    bad = {
        name: sorted(n for n in ours(deps) if is_cli(n) and not is_private(n) and n != name)
        for name, deps in MODULES.items() if is_cli(name)
    }
    assert {k: v for k, v in bad.items() if v} == {}


def test_every_public_cli_module_is_an_executable() -> None:
    """What a private name lets through is never an executable's own shell."""
    import tomllib

    data = tomllib.loads((PKG.parent / "pyproject.toml").read_text())
    targets = {t.split(":")[0] for t in data["project"]["scripts"].values()}
    public = {n for n in MODULES if is_cli(n) and not is_private(n)}
    assert public == targets


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_circle_between_modules() -> None:
    assert cycles(EDGES) == []


def test_no_import_circle_between_rooms() -> None:
    # Rooms form layers: an import from a lower room to a higher one closes a circle.
    assert cycles(ROOMS) == []


def test_the_redaction_engine_imports_only_itself_and_base() -> None:
    engine = "council_filters.redaction"
    bad = {
        name: sorted(
            n for n in deps
            if not n.startswith((engine + ".", "council_filters.base.")) and n != engine
        )
        for name, deps in EDGES.items() if name == engine or name.startswith(engine + ".")
    }
    assert {k: v for k, v in bad.items() if v} == {}


def test_at_most_five_loose_modules_at_the_top() -> None:
    loose = sorted(p.name for p in PKG.glob("*.py") if p.name != "__init__.py")
    assert len(loose) <= 5, loose
    assert not (PKG / "kit.py").exists()
