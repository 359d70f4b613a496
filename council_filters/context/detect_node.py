"""Stack detection for Node (package.json) and Deno roots."""

from __future__ import annotations

import re
from typing import Any

from council_filters.context.tree import Stack, Tree, dig, join, load_json, nearest, percent

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
    threshold = percent(dig(pkg, "jest", "coverageThreshold", "global", "lines"))
    if threshold is None and tree.has(root, "jest.config.json"):
        cfg = load_json(tree, join(root, "jest.config.json"), notes)
        threshold = percent(dig(cfg, "coverageThreshold", "global", "lines"))
    for name in (".nycrc", ".nycrc.json", ".c8rc", ".c8rc.json"):
        if threshold is None and tree.has(root, name):
            threshold = percent(dig(load_json(tree, join(root, name), notes), "lines"))
    if threshold is None and isinstance(pkg.get("nyc"), dict):
        threshold = percent(pkg["nyc"].get("lines"))
    return Stack(root, "node", "typescript" if typescript else "javascript", manager, manifest,
                 lockfile, framework, test_cmd, coverage_cmd, threshold, notes=notes)


def detect_deno(tree: Tree, root: str) -> Stack:
    manifest = join(root, "deno.json" if tree.has(root, "deno.json") else "deno.jsonc")
    lock = join(root, "deno.lock") if tree.has(root, "deno.lock") else None
    return Stack(root, "deno", "typescript", "deno", manifest, lock, "deno test", "deno test",
                 "deno test --coverage")

