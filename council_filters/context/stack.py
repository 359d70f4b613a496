"""Stack detection over a file listing: package roots, manager, test and coverage commands.

Pure: the input is the repository's file paths (repo-relative, ``/``-separated)
and a reader that returns a file's bytes (or None).  Nothing of the repository
is run.  The rules, in the order they are tried, are documented in
``docs/context.md`` ("Stack detection"); each rule's table has one home:
the file listing and manifest readers in ``tree``, the
ecosystems' own rules in ``detect_node``, ``detect_python`` and
``detect_other``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from council_filters.context.detect_node import detect_deno, detect_node
from council_filters.context.detect_other import (
    detect_dotnet,
    detect_elixir,
    detect_go,
    detect_jvm,
    detect_php,
    detect_ruby,
    detect_rust,
    detect_swift,
)
from council_filters.context.detect_python import detect_python
from council_filters.context.tree import (
    DOTNET,
    MARKERS,
    REQUIREMENTS,
    SKIP_DIRS,
    Stack,
    Tree,
    ancestors,
    join,
    number,
    skipped,
    split,
)

__all__ = [
    "DEPENDENCY_FILES", "DETECTORS", "ECOSYSTEM_ORDER", "LANGUAGE_ECOSYSTEMS", "SKIP_DIRS",
    "Stack", "Tree", "detect", "is_dependency_file", "join", "make_target", "number",
    "package_roots", "root_ecosystems", "root_of", "split", "touched_roots",
]

#: A declared language's ecosystem (STACK.md names languages, detection names ecosystems).
LANGUAGE_ECOSYSTEMS = {"python": "python", "javascript": "node", "typescript": "node",
                       "go": "go", "golang": "go", "rust": "rust", "ruby": "ruby",
                       "java": "jvm", "kotlin": "jvm", "scala": "jvm", "php": "php",
                       "elixir": "elixir", "c#": "dotnet", "csharp": "dotnet", "swift": "swift"}
#: Ecosystems in the order entries of one root are listed.
ECOSYSTEM_ORDER = ("python", "node", "deno", "go", "rust", "ruby", "jvm", "php", "elixir",
                   "dotnet", "swift")


# --------------------------------------------------------------------------- #
# Package roots.
# --------------------------------------------------------------------------- #
def root_ecosystems(tree: Tree, directory: str) -> list[str]:
    """The ecosystems whose marker files sit in ``directory``, in :data:`ECOSYSTEM_ORDER`."""
    found = set()
    for name in tree.names.get(directory, ()):
        eco = MARKERS.get(name)
        if eco is None:
            if REQUIREMENTS.match(name):
                eco = "python"
            elif DOTNET.search(name):
                eco = "dotnet"
        if eco == "python" and name == "setup.cfg" and not re.search(
                r"(?m)^\[(?:metadata|options)\]", tree.text(join(directory, name))):
            eco = None  # a setup.cfg that only configures tools (flake8, ...) is no package
        if eco is not None:
            found.add(eco)
    if "requirements" in {split(p)[1] for p in tree.dirs if split(p)[0] == directory} and any(
            p.endswith(".txt") for p in tree.under(join(directory, "requirements"))):
        found.add("python")
    return [e for e in ECOSYSTEM_ORDER if e in found]


def package_roots(tree: Tree) -> list[str]:
    """Every directory holding a marker file, outside dependency and build directories."""
    roots = []
    for directory in sorted(tree.names):
        if directory != "." and skipped(directory + "/x"):
            continue
        if root_ecosystems(tree, directory):
            roots.append(directory)
    return roots


def root_of(path: str, roots: Sequence[str]) -> str | None:
    """The nearest package root holding ``path``, or None."""
    known = set(roots)
    for directory in ancestors(split(path)[0]):
        if directory in known:
            return directory
    return None


def touched_roots(tree: Tree, changed: Sequence[str]) -> list[str]:
    """The package roots the changed paths fall in (all roots when nothing changed)."""
    roots = package_roots(tree)
    if not changed:
        return roots
    hit = {r for r in (root_of(p, roots) for p in changed) if r is not None}
    return [r for r in roots if r in hit]


def detect(tree: Tree, changed: Sequence[str]) -> list[Stack]:
    """One entry per (touched root, ecosystem), roots sorted, ecosystems in table order."""
    out: list[Stack] = []
    for root in touched_roots(tree, changed):
        for eco in root_ecosystems(tree, root):
            stack = DETECTORS[eco](tree, root)
            if stack.test_cmd is None:
                stack.test_cmd = make_target(tree, root)
            out.append(stack)
    return out


def make_target(tree: Tree, root: str) -> str | None:
    """``make test`` / ``just test`` when the root's Makefile or justfile has a test target."""
    for name, cmd in (("Makefile", "make test"), ("GNUmakefile", "make test"),
                      ("justfile", "just test"), ("Justfile", "just test")):
        if tree.has(root, name) and re.search(r"(?m)^test\s*:(?!=)", tree.text(join(root, name))):
            return cmd
    return None



DETECTORS: dict[str, Callable[[Tree, str], Stack]] = {
    "python": detect_python, "node": detect_node, "deno": detect_deno, "go": detect_go,
    "rust": detect_rust, "ruby": detect_ruby, "jvm": detect_jvm, "php": detect_php,
    "elixir": detect_elixir, "dotnet": detect_dotnet, "swift": detect_swift,
}

#: Manifest and lock files whose change triggers the dependency audit.
DEPENDENCY_FILES = frozenset(
    {*MARKERS, "package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml",
     "bun.lock", "bun.lockb", "uv.lock", "poetry.lock", "pdm.lock", "Pipfile.lock", "go.sum",
     "Cargo.lock", "Gemfile.lock", "composer.lock", "mix.lock", "gradle.lockfile"})


def is_dependency_file(path: str) -> bool:
    name = split(path)[1]
    return name in DEPENDENCY_FILES or bool(REQUIREMENTS.match(name))
