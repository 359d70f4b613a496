"""Gap detection: changed files no finding covers (lockfiles, config and type files exempt)."""

from __future__ import annotations

import re
from collections.abc import Iterable

from council_filters.base import diffs
from council_filters.consolidate.finding import Finding, normalize_path

LOCKFILES = {
    "package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml", "bun.lockb",
    "bun.lock", "poetry.lock", "uv.lock", "pipfile.lock", "pdm.lock", "gemfile.lock", "go.sum",
    "cargo.lock", "composer.lock", "mix.lock", "pubspec.lock", "podfile.lock", "flake.lock",
    "packages.lock.json", "gradle.lockfile",
}
CONFIG_EXTENSIONS = (
    ".json", ".yaml", ".yml", ".toml", ".ini", ".cfg", ".conf", ".properties", ".env",
    ".editorconfig", ".lock",
)

CONFIG_NAMES = {
    "dockerfile", "makefile", "procfile", "codeowners", "license", "setup.cfg", "tox.ini",
    ".gitignore", ".gitattributes", ".dockerignore", ".npmrc", ".nvmrc", ".prettierrc",
    ".eslintrc", ".babelrc",
}
_CONFIG_SCRIPT = re.compile(r"(^|[.\-_])(config|conf|rc)\.(js|cjs|mjs|ts|cts|mts)\Z")
TYPE_SUFFIXES = (".d.ts", ".d.mts", ".d.cts", ".pyi")


def exemption(path: str) -> str | None:
    """Why a changed file needs no finding: ``lockfile``, ``config`` or ``types`` (else None)."""
    base = path.rsplit("/", 1)[-1].lower()
    if base in LOCKFILES or base.endswith(".lock") or base.endswith("-lock.json"):
        return "lockfile"
    if base.endswith(TYPE_SUFFIXES):
        return "types"
    if (
        base in CONFIG_NAMES
        or base.endswith(CONFIG_EXTENSIONS)
        or _CONFIG_SCRIPT.search(base)
        or (base.startswith(".") and base.endswith("rc"))
    ):
        return "config"
    return None


def changed_files_from_diff(diff: str) -> list[str]:
    """Paths a unified (git) diff adds or changes, in diff order; deleted files are left out.

    A git header without ``---``/``+++`` (a binary or mode-only change) names
    the file itself (see :func:`council_filters.base.diffs.parse`).
    """
    out: dict[str, None] = {}
    for f in diffs.parse(diff.encode("utf-8", "surrogateescape")):
        if f.path and not f.deleted:
            out.setdefault(normalize_path(f.path), None)
    return list(out)


def changed_files_from_list(text: str) -> list[str]:
    out: list[str] = []
    for line in text.split("\n"):
        p = line.strip()
        if p and not p.startswith("#"):
            out.append(normalize_path(p))
    return sorted(set(out))


def gaps(changed: Iterable[str], findings: Iterable[Finding]) -> tuple[list[str], list[str]]:
    """(changed files with no finding, exempt changed files with no finding), both sorted."""
    covered = {f.file for f in findings if f.file}
    missing: list[str] = []
    exempt: list[str] = []
    for path in sorted(set(changed)):
        if path in covered:
            continue
        (exempt if exemption(path) else missing).append(path)
    return missing, exempt
