"""The spec folder, the codebase docs, and what STACK.md / TESTING.md declare.

Pure functions over a :class:`~council_filters.context.tree.Tree`.

Spec matching: the candidates are the folders directly under
``.specs/features/`` and, only when none of those matches, under
``.specs/quick/``.  A name (the feature name given, else the branch) and a
folder name are each reduced to words: the last ``/`` segment, lower-cased,
split on anything not a letter or digit, without numbers and without the
words of :data:`NOISE` (``feature``, ``fix``, ...).  Equal word lists match
with score 1; otherwise the score is the larger of the Dice coefficient of the
two word sets and difflib's ratio of the joined words.  The best score at or
above :data:`THRESHOLD` wins; ties go to the alphabetically first folder.  Names
are tried in order (the feature name, then the branch): the first that matches wins.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from council_filters.context.tree import Tree, join, percent, split

SPECS = ".specs"
FEATURES = ".specs/features"
QUICK = ".specs/quick"
CODEBASE = ".specs/codebase"
THRESHOLD = 0.6
NOISE = frozenset({"feature", "features", "feat", "fix", "bugfix", "hotfix", "chore", "refactor",
                   "spec", "specs", "quick", "task", "wip", "branch", "pr", "issue"})


def words(name: str) -> list[str]:
    last = name.rstrip("/").rsplit("/", 1)[-1].lower()
    return [w for w in re.split(r"[^a-z0-9]+", last) if w and not w.isdigit() and w not in NOISE]


def score(a: Sequence[str], b: Sequence[str]) -> float:
    if not a or not b:
        return 0.0
    if list(a) == list(b):
        return 1.0
    sa, sb = set(a), set(b)
    dice = 2 * len(sa & sb) / (len(sa) + len(sb))
    ratio = difflib.SequenceMatcher(None, "-".join(a), "-".join(b)).ratio()
    return max(dice, ratio)


def subfolders(tree: Tree, parent: str) -> list[str]:
    prefix = parent + "/"
    return sorted({parent + "/" + p[len(prefix):].split("/", 1)[0]
                   for p in tree.under(parent) if "/" in p[len(prefix):]})


@dataclass(frozen=True)
class Match:
    path: str
    kind: str  # feature | quick | supplied
    matched_on: str  # feature | branch | supplied


def find_spec(tree: Tree, names: Sequence[tuple[str, str]]) -> Match | None:
    """The best spec folder for ``names`` (``(what, name)`` pairs, e.g. ``("branch", ...)``)."""
    for parent, kind in ((FEATURES, "feature"), (QUICK, "quick")):
        folders = subfolders(tree, parent)
        for what, name in names:  # in priority order: a name that matches settles it
            best: tuple[float, str] | None = None
            for folder in folders:
                s = score(words(name), words(split(folder)[1]))
                if s >= THRESHOLD and (best is None or s > best[0]):
                    best = (s, folder)
            if best is not None:
                return Match(best[1], kind, what)
    return None


def spec_files(tree: Tree, path: str) -> list[str]:
    """The files of a spec folder, relative to it, sorted."""
    prefix = path + "/"
    return sorted(p[len(prefix):] for p in tree.under(path))


def codebase_docs(tree: Tree) -> list[str]:
    return [p for p in tree.under(CODEBASE)]


# --------------------------------------------------------------------------- #
# STACK.md / TESTING.md.
# --------------------------------------------------------------------------- #
KEYS: dict[str, str] = {
    "test command": "test_cmd", "test commands": "test_cmd", "tests command": "test_cmd",
    "test cmd": "test_cmd", "test_cmd": "test_cmd", "run tests": "test_cmd",
    "running tests": "test_cmd", "test": "test_cmd", "tests": "test_cmd",
    "unit tests": "test_cmd", "testing command": "test_cmd", "test script": "test_cmd",
    "coverage command": "coverage_cmd", "coverage cmd": "coverage_cmd",
    "coverage_cmd": "coverage_cmd", "coverage": "coverage_cmd", "test coverage": "coverage_cmd",
    "run coverage": "coverage_cmd", "coverage script": "coverage_cmd",
    "coverage threshold": "coverage_threshold", "coverage_threshold": "coverage_threshold",
    "minimum coverage": "coverage_threshold", "coverage minimum": "coverage_threshold",
    "coverage target": "coverage_threshold", "required coverage": "coverage_threshold",
    "coverage goal": "coverage_threshold",
    "language": "language", "languages": "language", "primary language": "language",
    "package manager": "manager", "package_manager": "manager", "dependency manager": "manager",
    "test framework": "framework", "test runner": "framework", "testing framework": "framework",
}
#: Keys whose plain (unquoted) value is prose more often than a command.
LOOSE_KEYS = frozenset({"test", "tests", "unit tests", "coverage", "test coverage"})
_KV = re.compile(
    r"^\s*(?:[-*+]\s+)?(?:\*\*|__)?(?P<key>[A-Za-z][A-Za-z _/-]{0,40}?)\s*(?:\*\*|__)?\s*"
    r"(?:[:=]|\u2014|\u2013| - )\s*(?:\*\*|__)?\s*(?P<val>\S.*?)\s*$")
_ROW = re.compile(r"^\s*\|(?P<key>[^|]+)\|(?P<val>[^|]+)\|")
_TICK = re.compile(r"`([^`]+)`")
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$")
_FENCE = re.compile(r"^\s{0,3}(```|~~~)")
_PERCENT = re.compile(r"\A\s*([0-9]+(?:\.[0-9]+)?)\s*%")


def _value(field: str, raw: str) -> Any:
    tick = _TICK.search(raw)
    if field == "coverage_threshold":
        m = re.search(r"([0-9]+(?:\.[0-9]+)?)\s*%?", raw)
        return percent(m[1]) if m else None
    if tick:
        return tick[1].strip() or None
    text = re.sub(r"[*_]{1,2}", "", raw).strip().rstrip(".")
    if field in ("test_cmd", "coverage_cmd") and not text:
        return None
    return text or None


def parse_docs(text: str) -> dict[str, Any]:
    """Declared values in one codebase doc: test/coverage commands, threshold, language..."""
    found: dict[str, Any] = {}
    heading = ""
    in_fence = False
    fence_field: str | None = None
    for line in text.splitlines():
        if _FENCE.match(line):
            in_fence = not in_fence
            continue
        if in_fence:
            cmd = line.strip().lstrip("$ ").strip()
            if fence_field and cmd and not cmd.startswith("#") and fence_field not in found:
                found[fence_field] = cmd
            continue
        h = _HEADING.match(line)
        if h:
            heading = h[1].lower()
            fence_field = ("coverage_cmd" if "coverage" in heading
                           else "test_cmd" if re.search(r"\btest", heading) else None)
            continue
        m = _ROW.match(line) or _KV.match(line)
        if not m:
            continue
        key = " ".join(m["key"].strip().strip("*_` ").lower().split())
        field_name = KEYS.get(key)
        if field_name is None:
            continue
        raw = m["val"].strip().strip("|").strip()
        if field_name == "coverage_cmd" and _PERCENT.match(raw) and "`" not in raw:
            field_name = "coverage_threshold"
        if key in LOOSE_KEYS and "`" not in raw and field_name != "coverage_threshold":
            continue  # "Tests: unit and e2e" is prose; a command there needs a code span
        value = _value(field_name, raw)
        if value is not None and field_name not in found:
            found[field_name] = value
    return found


def declared(tree: Tree) -> tuple[dict[str, Any], list[str]]:
    """What TESTING.md then STACK.md declare (first one wins per field), and the files read."""
    out: dict[str, Any] = {}
    used = []
    for name in ("TESTING.md", "STACK.md"):
        path = join(CODEBASE, name)
        if not tree.has(CODEBASE, name):
            continue
        values = parse_docs(tree.text(path))
        if values:
            used.append(path)
        for key, value in values.items():
            out.setdefault(key, value)
    return out, used
