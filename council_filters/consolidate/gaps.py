"""Gap detection: changed files no finding covers (lockfiles, config and type files exempt)."""

from __future__ import annotations

import re
from collections.abc import Iterable

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


_GIT_QUOTED = re.compile(r'^"((?:[^"\\]|\\.)*)"')


def _unquote_git(path: str) -> str:
    m = _GIT_QUOTED.match(path)
    if not m:
        return path.split("\t", 1)[0]
    raw = m.group(1).encode("latin-1", "backslashreplace").decode("unicode_escape")
    return raw.encode("latin-1", "replace").decode("utf-8", "replace")


def changed_files_from_diff(diff: str) -> list[str]:
    """Paths a unified (git) diff adds or changes; deleted files are left out.

    A ``+++`` line counts only right after a ``---`` line (so an added line
    that happens to start with ``++`` is not taken for a header); a git header
    without ``---``/``+++`` (binary or mode-only change) names the file itself.
    """
    files: list[str] = []
    seen: set[str] = set()
    current: str | None = None
    deleted = False
    in_git_header = False
    prev = ""

    def flush() -> None:
        if current and not deleted and current not in seen:
            seen.add(current)
            files.append(current)

    for line in diff.split("\n"):
        line = line.rstrip("\r")
        if line.startswith("diff --git "):
            flush()
            rest = line[len("diff --git "):]
            idx = rest.rfind(" b/")
            current = normalize_path(_unquote_git(rest[idx + 3:])) if idx >= 0 else None
            deleted = False
            in_git_header = True
        elif line.startswith("deleted file mode"):
            deleted = True
        elif line.startswith("+++ ") and prev.startswith("--- "):
            if not in_git_header:  # a plain unified diff: each header pair is a new file
                flush()
                current, deleted = None, False
            in_git_header = False
            target = _unquote_git(line[4:])
            if target == "/dev/null":
                deleted = True
            else:
                current = normalize_path(target[2:] if target.startswith("b/") else target)
        prev = line
    flush()
    return files


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
