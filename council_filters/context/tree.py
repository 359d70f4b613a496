"""What every stack detector reads: the file listing, its manifests, the Stack record.

Pure: a :class:`Tree` is the repository's file paths (repo-relative,
``/``-separated) plus a reader that returns a file's bytes (or None).  Nothing
of the repository is run.
"""

from __future__ import annotations

import configparser
import contextlib
import json
import posixpath
import re
import tomllib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

Reader = Callable[[str], "bytes | None"]

#: Directories never searched for package roots (dependencies, build output, caches).
SKIP_DIRS = frozenset({
    ".git", "node_modules", "bower_components", ".venv", "venv", ".tox", ".nox", "__pycache__",
    ".mypy_cache", ".pytest_cache", "target", "dist", "build", "_build", "deps", "vendor",
    ".bundle", ".gradle", ".idea", ".next", ".nuxt", ".svelte-kit", "coverage", ".terraform",
})

#: File names that make their directory a package root, and the ecosystem they announce.
MARKERS: dict[str, str] = {
    "package.json": "node",
    "pyproject.toml": "python",
    "setup.py": "python",
    "setup.cfg": "python",
    "Pipfile": "python",
    "go.mod": "go",
    "Cargo.toml": "rust",
    "Gemfile": "ruby",
    "pom.xml": "jvm",
    "build.gradle": "jvm",
    "build.gradle.kts": "jvm",
    "composer.json": "php",
    "mix.exs": "elixir",
    "deno.json": "deno",
    "deno.jsonc": "deno",
    "Package.swift": "swift",
}
REQUIREMENTS = re.compile(r"\A(?:[\w.-]*[-_.])?requirements(?:[-_.][\w.-]*)?\.(?:txt|in)\Z", re.I)
DOTNET = re.compile(r"\.(?:csproj|fsproj|vbproj|sln)\Z")


@dataclass
class Stack:
    """One detected stack: a package root and what runs its tests."""

    root: str
    ecosystem: str
    language: str
    manager: str
    manifest: str
    lockfile: str | None = None
    framework: str | None = None
    test_cmd: str | None = None
    coverage_cmd: str | None = None
    coverage_threshold: float | None = None
    source: str = "detected"
    notes: list[str] = field(default_factory=list)

    def record(self) -> dict[str, Any]:
        rec: dict[str, Any] = {
            "root": self.root, "ecosystem": self.ecosystem, "language": self.language,
            "manager": self.manager, "manifest": self.manifest, "lockfile": self.lockfile,
            "framework": self.framework, "test_cmd": self.test_cmd,
            "coverage_cmd": self.coverage_cmd, "source": self.source,
        }
        if self.coverage_threshold is not None:
            rec["coverage_threshold"] = number(self.coverage_threshold)
        return rec


def number(value: float) -> int | float:
    """80.0 -> 80, 82.5 stays."""
    return int(value) if float(value).is_integer() else value


# --------------------------------------------------------------------------- #
# The file listing.
# --------------------------------------------------------------------------- #
class Tree:
    """A repository's file listing plus a reader; paths are repo-relative, ``/``-separated."""

    def __init__(self, files: Iterable[str], read: Reader) -> None:
        self.files = sorted(set(files))
        self._read = read
        self.names: dict[str, set[str]] = {}
        self.dirs: set[str] = {"."}
        for path in self.files:
            parent, name = split(path)
            self.names.setdefault(parent, set()).add(name)
            while parent != ".":
                if parent in self.dirs:
                    break
                self.dirs.add(parent)
                parent = split(parent)[0]
        self._cache: dict[str, bytes | None] = {}

    def has(self, directory: str, name: str) -> bool:
        return name in self.names.get(directory, ())

    def has_dir(self, path: str) -> bool:
        return path in self.dirs

    def read(self, path: str) -> bytes | None:
        if path not in self._cache:
            self._cache[path] = self._read(path)
        return self._cache[path]

    def text(self, path: str) -> str:
        data = self.read(path)
        return data.decode("utf-8", "replace") if data else ""

    def under(self, directory: str) -> Iterable[str]:
        """Every file below ``directory`` (the whole tree for ``"."``)."""
        if directory == ".":
            return self.files
        prefix = directory + "/"
        return (p for p in self.files if p.startswith(prefix))


def split(path: str) -> tuple[str, str]:
    parent, name = posixpath.split(path)
    return parent or ".", name


def join(directory: str, name: str) -> str:
    return name if directory == "." else f"{directory}/{name}"


def ancestors(directory: str) -> list[str]:
    """``directory`` and its parents up to ``"."``, nearest first."""
    out = [directory]
    while directory != ".":
        directory = split(directory)[0]
        out.append(directory)
    return out


def skipped(path: str) -> bool:
    return any(part in SKIP_DIRS for part in path.split("/")[:-1])



# --------------------------------------------------------------------------- #
# Reading manifests (a broken one reads as empty, with a note).
# --------------------------------------------------------------------------- #
def load_json(tree: Tree, path: str, notes: list[str]) -> dict[str, Any]:
    data = tree.read(path)
    if not data:
        return {}
    try:
        value = json.loads(data.decode("utf-8-sig"))
    except (ValueError, UnicodeDecodeError):
        notes.append(f"{path}: not valid JSON (read as empty)")
        return {}
    except RecursionError:
        notes.append(f"{path}: nested too deeply (read as empty)")
        return {}
    if isinstance(value, dict) and depth_over(value, MAX_DEPTH):
        notes.append(f"{path}: nested too deeply (read as empty)")
        return {}
    return value if isinstance(value, dict) else {}


MAX_DEPTH = 64  # no real manifest nests this deep; the records written must stay encodable


def depth_over(value: Any, limit: int) -> bool:
    """True when ``value`` nests containers deeper than ``limit`` (an iterative walk)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > limit:
            return True
        stack.extend((c, depth + 1) for c in children if isinstance(c, (dict, list)))
    return False


def load_toml(tree: Tree, path: str, notes: list[str]) -> dict[str, Any]:
    data = tree.read(path)
    if not data:
        return {}
    try:
        value = tomllib.loads(data.decode("utf-8-sig"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError):
        notes.append(f"{path}: not valid TOML (read as empty)")
        return {}
    except RecursionError:
        notes.append(f"{path}: nested too deeply (read as empty)")
        return {}
    if depth_over(value, MAX_DEPTH):
        notes.append(f"{path}: nested too deeply (read as empty)")
        return {}
    return value


def load_ini(tree: Tree, path: str) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    with contextlib.suppress(configparser.Error):
        parser.read_string(tree.text(path))
    return parser


def dig(value: Any, *keys: str) -> Any:
    for key in keys:
        if not isinstance(value, dict):
            return None
        value = value.get(key)
    return value


def nearest(tree: Tree, root: str, names: Sequence[tuple[str, str]]) -> tuple[str, str] | None:
    """The first (file, meaning) of ``names`` found in ``root``, else in its parents."""
    for directory in ancestors(root):
        for name, meaning in names:
            if tree.has(directory, name):
                return join(directory, name), meaning
    return None


def percent(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)) and 0 <= value <= 100:
        return float(value)
    if isinstance(value, str):
        m = re.fullmatch(r"\s*([0-9]+(?:\.[0-9]+)?)\s*%?\s*", value)
        if m and float(m[1]) <= 100:
            return float(m[1])
    return None
