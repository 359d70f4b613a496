"""Stack detection over a file listing: package roots, manager, test and coverage commands.

Pure: the input is the repository's file paths (repo-relative, ``/``-separated)
and a reader that returns a file's bytes (or None).  Nothing of the repository
is run.  The rules, in the order they are tried, are documented in
``docs/context.md`` ("Stack detection"); the tables below are the one home of
each of them.
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
_REQUIREMENTS = re.compile(r"\A(?:[\w.-]*[-_.])?requirements(?:[-_.][\w.-]*)?\.(?:txt|in)\Z", re.I)
_DOTNET = re.compile(r"\.(?:csproj|fsproj|vbproj|sln)\Z")

#: A declared language's ecosystem (STACK.md names languages, detection names ecosystems).
LANGUAGE_ECOSYSTEMS = {"python": "python", "javascript": "node", "typescript": "node",
                       "go": "go", "golang": "go", "rust": "rust", "ruby": "ruby",
                       "java": "jvm", "kotlin": "jvm", "scala": "jvm", "php": "php",
                       "elixir": "elixir", "c#": "dotnet", "csharp": "dotnet", "swift": "swift"}
#: Ecosystems in the order entries of one root are listed.
ECOSYSTEM_ORDER = ("python", "node", "deno", "go", "rust", "ruby", "jvm", "php", "elixir",
                   "dotnet", "swift")

NODE_LOCKS: tuple[tuple[str, str], ...] = (
    ("bun.lock", "bun"),
    ("bun.lockb", "bun"),
    ("pnpm-lock.yaml", "pnpm"),
    ("yarn.lock", "yarn"),
    ("package-lock.json", "npm"),
    ("npm-shrinkwrap.json", "npm"),
)
NODE_MANAGERS = ("npm", "pnpm", "yarn", "bun")
NODE_TEST = {"npm": "npm test", "pnpm": "pnpm test", "yarn": "yarn test", "bun": "bun run test"}
NODE_RUN = {"npm": "npm run", "pnpm": "pnpm run", "yarn": "yarn run", "bun": "bun run"}
NODE_EXEC = {"npm": "npx", "pnpm": "pnpm exec", "yarn": "yarn", "bun": "bunx"}
#: npm init's placeholder test script: no test command at all.
NODE_PLACEHOLDER = re.compile(r"no test specified", re.I)
#: Test runners named in a test script or the dependencies, first match wins.
NODE_FRAMEWORKS: tuple[tuple[str, str, str], ...] = (
    # (framework, word in a script, dependency name)
    ("vitest", r"\bvitest\b", "vitest"),
    ("jest", r"\bjest\b", "jest"),
    ("mocha", r"\bmocha\b", "mocha"),
    ("ava", r"\bava\b", "ava"),
    ("playwright", r"\bplaywright\b", "@playwright/test"),
    ("jasmine", r"\bjasmine\b", "jasmine"),
    ("tap", r"\btap\b", "tap"),
    ("node:test", r"\bnode\b[^&|;]*--test\b", ""),
    ("bun:test", r"\bbun\s+test\b", ""),
)
NODE_COVERAGE_SCRIPTS = ("coverage", "test:coverage", "test:cov", "cov", "test-coverage",
                         "coverage:test")

PY_LOCKS: tuple[tuple[str, str], ...] = (
    ("uv.lock", "uv"),
    ("poetry.lock", "poetry"),
    ("pdm.lock", "pdm"),
    ("Pipfile.lock", "pipenv"),
)
PY_TOOL_TABLES = (("uv", "uv"), ("poetry", "poetry"), ("pdm", "pdm"), ("hatch", "hatch"))
PY_BACKENDS = (("poetry", "poetry"), ("pdm", "pdm"), ("hatchling", "hatch"), ("uv_build", "uv"))
PY_RUN = {"uv": "uv run ", "poetry": "poetry run ", "pdm": "pdm run ", "hatch": "hatch run ",
          "pipenv": "pipenv run ", "pip": ""}


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
# Package roots.
# --------------------------------------------------------------------------- #
def root_ecosystems(tree: Tree, directory: str) -> list[str]:
    """The ecosystems whose marker files sit in ``directory``, in :data:`ECOSYSTEM_ORDER`."""
    found = set()
    for name in tree.names.get(directory, ()):
        eco = MARKERS.get(name)
        if eco is None:
            if _REQUIREMENTS.match(name):
                eco = "python"
            elif _DOTNET.search(name):
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
    return value if isinstance(value, dict) else {}


def load_toml(tree: Tree, path: str, notes: list[str]) -> dict[str, Any]:
    data = tree.read(path)
    if not data:
        return {}
    try:
        return tomllib.loads(data.decode("utf-8-sig"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError):
        notes.append(f"{path}: not valid TOML (read as empty)")
        return {}


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


def _threshold(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)) and 0 <= value <= 100:
        return float(value)
    if isinstance(value, str):
        m = re.fullmatch(r"\s*([0-9]+(?:\.[0-9]+)?)\s*%?\s*", value)
        if m and float(m[1]) <= 100:
            return float(m[1])
    return None


# --------------------------------------------------------------------------- #
# Node.
# --------------------------------------------------------------------------- #
def _node_deps(pkg: dict[str, Any]) -> set[str]:
    names: set[str] = set()
    for key in ("dependencies", "devDependencies", "peerDependencies", "optionalDependencies"):
        deps = pkg.get(key)
        if isinstance(deps, dict):
            names.update(k for k in deps if isinstance(k, str))
    return names


def node_manager(tree: Tree, root: str, pkg: dict[str, Any]) -> tuple[str, str | None]:
    """(manager, lockfile): packageManager field, then the nearest lockfile, then npm."""
    lock = nearest(tree, root, NODE_LOCKS)
    declared = pkg.get("packageManager")
    if isinstance(declared, str):
        name = declared.split("@", 1)[0].strip().lower()
        if name in NODE_MANAGERS:
            return name, lock[0] if lock and lock[1] == name else None
    if lock:
        return lock[1], lock[0]
    if nearest(tree, root, (("pnpm-workspace.yaml", "pnpm"),)):
        return "pnpm", None
    return "npm", None


def node_test_script(pkg: dict[str, Any]) -> str | None:
    """The ``test`` script, unless absent, empty or npm init's placeholder."""
    script = dig(pkg, "scripts", "test")
    if not isinstance(script, str) or not script.strip() or NODE_PLACEHOLDER.search(script):
        return None
    return script


def detect_node(tree: Tree, root: str) -> Stack:
    notes: list[str] = []
    manifest = join(root, "package.json")
    pkg = load_json(tree, manifest, notes)
    manager, lockfile = node_manager(tree, root, pkg)
    deps = _node_deps(pkg)
    typescript = tree.has(root, "tsconfig.json") or "typescript" in deps
    script = node_test_script(pkg)
    framework = None
    for name, word, _dep in NODE_FRAMEWORKS:
        if script is not None and re.search(word, script):
            framework = name
            break
    if framework is None:
        framework = next((n for n, _w, d in NODE_FRAMEWORKS if d and d in deps), None)
    exe = NODE_EXEC[manager]
    if script is not None:
        test_cmd: str | None = NODE_TEST[manager]
    elif framework == "vitest":
        test_cmd = f"{exe} vitest run"
    elif framework in ("jest", "mocha", "ava", "jasmine", "tap"):
        test_cmd = f"{exe} {framework}"
    elif framework == "playwright":
        test_cmd = f"{exe} playwright test"
    elif manager == "bun":
        test_cmd, framework = "bun test", "bun:test"
    else:
        test_cmd = None
    scripts: dict[str, Any] = pkg["scripts"] if isinstance(pkg.get("scripts"), dict) else {}
    coverage_cmd = None
    for name in NODE_COVERAGE_SCRIPTS:
        if isinstance(scripts.get(name), str) and scripts[name].strip():
            coverage_cmd = f"{NODE_RUN[manager]} {name}"
            break
    if coverage_cmd is None and test_cmd is not None:
        if framework == "jest":
            coverage_cmd = f"{exe} jest --coverage"
        elif framework == "vitest" and any(d.startswith("@vitest/coverage-") for d in deps):
            coverage_cmd = f"{exe} vitest run --coverage"
    threshold = _threshold(dig(pkg, "jest", "coverageThreshold", "global", "lines"))
    if threshold is None and tree.has(root, "jest.config.json"):
        cfg = load_json(tree, join(root, "jest.config.json"), notes)
        threshold = _threshold(dig(cfg, "coverageThreshold", "global", "lines"))
    for name in (".nycrc", ".nycrc.json", ".c8rc", ".c8rc.json"):
        if threshold is None and tree.has(root, name):
            threshold = _threshold(dig(load_json(tree, join(root, name), notes), "lines"))
    if threshold is None and isinstance(pkg.get("nyc"), dict):
        threshold = _threshold(pkg["nyc"].get("lines"))
    return Stack(root, "node", "typescript" if typescript else "javascript", manager, manifest,
                 lockfile, framework, test_cmd, coverage_cmd, threshold, notes=notes)


def detect_deno(tree: Tree, root: str) -> Stack:
    manifest = join(root, "deno.json" if tree.has(root, "deno.json") else "deno.jsonc")
    lock = join(root, "deno.lock") if tree.has(root, "deno.lock") else None
    return Stack(root, "deno", "typescript", "deno", manifest, lock, "deno test", "deno test",
                 "deno test --coverage")


# --------------------------------------------------------------------------- #
# Python.
# --------------------------------------------------------------------------- #
_REQ_NAME = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)")


def _req_name(spec: str) -> str | None:
    m = _REQ_NAME.match(spec)
    return m[1].lower().replace("_", "-") if m else None


def _py_deps(pyproject: dict[str, Any], extra_lines: Iterable[str]) -> set[str]:
    """Every dependency name the project declares anywhere (normalised)."""
    specs: list[str] = []

    def add_list(value: Any) -> None:
        if isinstance(value, list):
            specs.extend(v for v in value if isinstance(v, str))

    def add_table(value: Any) -> None:
        if isinstance(value, dict):
            specs.extend(k for k in value if isinstance(k, str))

    add_list(dig(pyproject, "project", "dependencies"))
    for group in (dig(pyproject, "project", "optional-dependencies") or {}).values():
        add_list(group)
    for group in (dig(pyproject, "dependency-groups") or {}).values():
        add_list(group)
    add_list(dig(pyproject, "tool", "uv", "dev-dependencies"))
    add_table(dig(pyproject, "tool", "poetry", "dependencies"))
    add_table(dig(pyproject, "tool", "poetry", "dev-dependencies"))
    for group in (dig(pyproject, "tool", "poetry", "group") or {}).values():
        add_table(dig(group, "dependencies"))
    for group in (dig(pyproject, "tool", "pdm", "dev-dependencies") or {}).values():
        add_list(group)
    for env in (dig(pyproject, "tool", "hatch", "envs") or {}).values():
        add_list(dig(env, "dependencies"))
        add_list(dig(env, "extra-dependencies"))
    specs.extend(extra_lines)
    return {n for n in (_req_name(s) for s in specs) if n}


def _requirement_files(tree: Tree, root: str) -> list[str]:
    files = [join(root, n) for n in sorted(tree.names.get(root, ())) if _REQUIREMENTS.match(n)]
    sub = join(root, "requirements")
    files += [p for p in tree.under(sub) if p.endswith((".txt", ".in")) and split(p)[0] == sub]
    return files


def python_manager(tree: Tree, root: str, pyproject: dict[str, Any]) -> tuple[str, str | None]:
    lock = nearest(tree, root, PY_LOCKS)
    if lock:
        return lock[1], lock[0]
    tool: dict[str, Any] = pyproject["tool"] if isinstance(pyproject.get("tool"), dict) else {}
    for table, manager in PY_TOOL_TABLES:
        if table in tool:
            return manager, None
    backend = dig(pyproject, "build-system", "build-backend")
    if isinstance(backend, str):
        for word, manager in PY_BACKENDS:
            if backend.startswith(word):
                return manager, None
    if tree.has(root, "Pipfile"):
        return "pipenv", None
    return "pip", None


def _py_tests(tree: Tree, root: str) -> list[str]:
    return [p for p in tree.under(root) if not skipped(p) and re.search(
        r"(?:^|/)(?:test_[^/]*|[^/]*_test)\.py\Z", p)]


def detect_python(tree: Tree, root: str) -> Stack:
    notes: list[str] = []
    pyproject = load_toml(tree, join(root, "pyproject.toml"), notes) \
        if tree.has(root, "pyproject.toml") else {}
    manager, lockfile = python_manager(tree, root, pyproject)
    req_files = _requirement_files(tree, root)
    req_lines = [ln.split("#", 1)[0] for f in req_files for ln in tree.text(f).splitlines()
                 if not ln.lstrip().startswith(("-", "#"))]
    if tree.has(root, "Pipfile"):
        pipfile = load_toml(tree, join(root, "Pipfile"), notes)
        for section in ("packages", "dev-packages"):
            table = pipfile.get(section)
            if isinstance(table, dict):
                req_lines.extend(k for k in table if isinstance(k, str))
    deps = _py_deps(pyproject, req_lines)
    manifest = next((join(root, n) for n in ("pyproject.toml", "setup.py", "setup.cfg", "Pipfile")
                     if tree.has(root, n)), req_files[0] if req_files else join(root, "."))
    setup_cfg = load_ini(tree, join(root, "setup.cfg")) if tree.has(root, "setup.cfg") else None
    tox = load_ini(tree, join(root, "tox.ini")) if tree.has(root, "tox.ini") else None
    pytest_signal = (
        dig(pyproject, "tool", "pytest") is not None
        or tree.has(root, "pytest.ini")
        or (tox is not None and tox.has_section("pytest"))
        or (setup_cfg is not None and setup_cfg.has_section("tool:pytest"))
        or "pytest" in deps
        or any(split(p)[1] == "conftest.py" for p in tree.under(root) if not skipped(p))
    )
    test_files = _py_tests(tree, root)
    unittest_only = bool(test_files) and not pytest_signal and all(
        re.search(r"(?m)^\s*(?:import unittest|from unittest\b)", tree.text(p))
        for p in test_files[:50])
    run = PY_RUN[manager]
    script, body = _py_script(pyproject, manager, ("test", "tests"))
    if re.search(r"\b(?:py\.test|pytest)\b", body):
        pytest_signal = True
    elif re.search(r"\bunittest\b", body):
        unittest_only = True
    if pytest_signal or (test_files and not unittest_only) or manager == "hatch":
        framework: str | None = "pytest"
    else:
        framework = "unittest" if unittest_only else None
    if script is not None:
        test_cmd: str | None = script
    elif framework == "pytest":
        test_cmd = "hatch test" if manager == "hatch" else (
            "python -m pytest" if manager == "pip" else f"{run}pytest")
    elif framework == "unittest":
        test_cmd = f"{run}python -m unittest"
    else:
        test_cmd = None
    coverage_cmd = _py_script(pyproject, manager, ("cov", "coverage", "test-cov", "test:cov"))[0]
    if coverage_cmd is None and framework == "pytest" and script is None:
        if manager == "hatch":
            coverage_cmd = "hatch test --cover"
        elif "pytest-cov" in deps:
            coverage_cmd = f"{test_cmd} --cov"
    threshold = _threshold(dig(pyproject, "tool", "coverage", "report", "fail_under"))
    for path, section in ((".coveragerc", "report"), ("setup.cfg", "coverage:report"),
                          ("tox.ini", "coverage:report")):
        if threshold is None and tree.has(root, path):
            ini = load_ini(tree, join(root, path))
            if ini.has_option(section, "fail_under"):
                threshold = _threshold(ini.get(section, "fail_under"))
    if threshold is None:
        addopts = dig(pyproject, "tool", "pytest", "ini_options", "addopts")
        text = " ".join(addopts) if isinstance(addopts, list) else str(addopts or "")
        m = re.search(r"--cov-fail-under[= ]([0-9.]+)", text)
        threshold = _threshold(m[1]) if m else None
    return Stack(root, "python", "python", manager, manifest, lockfile, framework, test_cmd,
                 coverage_cmd, threshold, notes=notes)


def _py_script(pyproject: dict[str, Any], manager: str, names: Sequence[str]
               ) -> tuple[str | None, str]:
    """(how to run a task named ``names`` in pdm/hatch scripts, poethepoet or taskipy, its text)."""
    run = PY_RUN[manager]
    tables = [
        ("pdm", dig(pyproject, "tool", "pdm", "scripts"), "pdm run {}"),
        ("hatch", dig(pyproject, "tool", "hatch", "envs", "default", "scripts"), "hatch run {}"),
        ("poe", dig(pyproject, "tool", "poe", "tasks"), run + "poe {}"),
        ("taskipy", dig(pyproject, "tool", "taskipy", "tasks"), run + "task {}"),
    ]
    for _tool, table, shape in tables:
        if isinstance(table, dict):
            for name in names:
                if name in table:
                    return shape.format(name), json.dumps(table[name])
    return None, ""


# --------------------------------------------------------------------------- #
# The others.
# --------------------------------------------------------------------------- #
def detect_go(tree: Tree, root: str) -> Stack:
    lock = join(root, "go.sum") if tree.has(root, "go.sum") else None
    return Stack(root, "go", "go", "go", join(root, "go.mod"), lock, "go test", "go test ./...",
                 "go test -coverprofile=coverage.out ./...")


def detect_rust(tree: Tree, root: str) -> Stack:
    lock = nearest(tree, root, (("Cargo.lock", "cargo"),))
    nextest = any(tree.has(join(d, ".config"), "nextest.toml") for d in ancestors(root))
    test = "cargo nextest run" if nextest else "cargo test"
    return Stack(root, "rust", "rust", "cargo", join(root, "Cargo.toml"),
                 lock[0] if lock else None, "nextest" if nextest else "libtest", test, None)


def detect_ruby(tree: Tree, root: str) -> Stack:
    gemfile = tree.text(join(root, "Gemfile"))
    lock = join(root, "Gemfile.lock") if tree.has(root, "Gemfile.lock") else None
    gems = set(re.findall(r"""(?m)^\s*gem\s+['"]([\w-]+)['"]""", gemfile))
    rails = "rails" in gems or tree.has(join(root, "bin"), "rails")
    rspec = tree.has(root, ".rspec") or "rspec" in gems or "rspec-rails" in gems or any(
        p.endswith("_spec.rb") for p in tree.under(join(root, "spec")))
    minitest = tree.has_dir(join(root, "test")) or "minitest" in gems
    if rspec:
        framework, test = "rspec", "bundle exec rspec"
    elif minitest and rails:
        framework, test = "minitest", "bin/rails test"
    elif minitest or tree.has(root, "Rakefile"):
        framework, test = "minitest", "bundle exec rake test"
    else:
        framework, test = None, None
    coverage = test if test and "simplecov" in gems else None
    return Stack(root, "ruby", "ruby", "bundler", join(root, "Gemfile"), lock, framework, test,
                 coverage)


def _wrapper(tree: Tree, root: str, name: str) -> str | None:
    """A relative path from ``root`` to the nearest build wrapper script (``./gradlew``)."""
    for depth, directory in enumerate(ancestors(root)):
        if tree.has(directory, name):
            return "./" + name if depth == 0 else "/".join([".."] * depth + [name])
    return None


def detect_jvm(tree: Tree, root: str) -> Stack:
    kotlin = tree.has_dir(join(root, "src/main/kotlin")) and not tree.has_dir(
        join(root, "src/main/java"))
    language = "kotlin" if kotlin else "java"
    gradle_file = next((n for n in ("build.gradle.kts", "build.gradle") if tree.has(root, n)), None)
    mvnw, gradlew = _wrapper(tree, root, "mvnw"), _wrapper(tree, root, "gradlew")
    if tree.has(root, "pom.xml") and not (gradle_file and gradlew and not mvnw):
        mvn = mvnw or "mvn"
        pom = tree.text(join(root, "pom.xml"))
        coverage = f"{mvn} test jacoco:report" if "jacoco" in pom else None
        return Stack(root, "jvm", language, "maven", join(root, "pom.xml"), None, "junit",
                     f"{mvn} test", coverage)
    assert gradle_file is not None
    gradle = gradlew or "gradle"
    build = tree.text(join(root, gradle_file))
    coverage = f"{gradle} test jacocoTestReport" if "jacoco" in build else None
    lock = join(root, "gradle.lockfile") if tree.has(root, "gradle.lockfile") else None
    return Stack(root, "jvm", language, "gradle", join(root, gradle_file), lock, "junit",
                 f"{gradle} test", coverage)


def detect_php(tree: Tree, root: str) -> Stack:
    notes: list[str] = []
    manifest = join(root, "composer.json")
    composer = load_json(tree, manifest, notes)
    lock = join(root, "composer.lock") if tree.has(root, "composer.lock") else None
    dev = set()
    for key in ("require", "require-dev"):
        if isinstance(composer.get(key), dict):
            dev.update(composer[key])
    script = dig(composer, "scripts", "test")
    if script:
        framework = "pest" if "pestphp/pest" in dev else "phpunit" if "phpunit/phpunit" in dev \
            else None
        test: str | None = "composer test"
    elif "pestphp/pest" in dev:
        framework, test = "pest", "vendor/bin/pest"
    elif "phpunit/phpunit" in dev or tree.has(root, "phpunit.xml") or tree.has(
            root, "phpunit.xml.dist"):
        framework, test = "phpunit", "vendor/bin/phpunit"
    else:
        framework, test = None, None
    coverage = f"{test} --coverage-clover coverage.xml" if test and test.startswith(
        "vendor/bin/") else None
    return Stack(root, "php", "php", "composer", manifest, lock, framework, test, coverage,
                 notes=notes)


def detect_elixir(tree: Tree, root: str) -> Stack:
    lock = join(root, "mix.lock") if tree.has(root, "mix.lock") else None
    return Stack(root, "elixir", "elixir", "mix", join(root, "mix.exs"), lock, "exunit",
                 "mix test", "mix test --cover")


def detect_dotnet(tree: Tree, root: str) -> Stack:
    names = sorted(tree.names.get(root, ()))
    project = next((n for n in names if _DOTNET.search(n) and not n.endswith(".sln")), None)
    manifest = join(root, project or next(n for n in names if n.endswith(".sln")))
    language = "fsharp" if manifest.endswith(".fsproj") else "csharp"
    coverlet = "coverlet" in tree.text(manifest).lower()
    coverage = 'dotnet test --collect:"XPlat Code Coverage"' if coverlet else None
    return Stack(root, "dotnet", language, "dotnet", manifest, None, None, "dotnet test", coverage)


def detect_swift(tree: Tree, root: str) -> Stack:
    lock = join(root, "Package.resolved") if tree.has(root, "Package.resolved") else None
    return Stack(root, "swift", "swift", "swiftpm", join(root, "Package.swift"), lock, "xctest",
                 "swift test", "swift test --enable-code-coverage")


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
    return name in DEPENDENCY_FILES or bool(_REQUIREMENTS.match(name))
