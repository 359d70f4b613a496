"""The reviewer commands file: its line kinds, one table, checked in full before anything runs.

A line is ``KEY = VALUE`` (the first ``=`` splits; ``#`` starts a comment line).
What a KEY may be is decided by three tables, so a new kind of line is one row:

* :data:`REVIEWER_KEYS` -- ``NAME.SUFFIX`` lines about one reviewer (``claude.adapter``);
* :data:`GLOBAL_KEYS` -- top-level keys that are not reviewers;
* :data:`PREFIX_KEYS` -- ``PREFIX.REST`` families (``PREFIX`` names the family);

and any other bare KEY is a reviewer: ``NAME = COMMAND``.  Every problem is
collected with its line number (duplicate keys, unknown keys, bad values, a
reviewer name one or two typing slips away from a built-in one such as
``cladue``) and reported together; no value is ever echoed (a command line
may hold a credential).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from council_filters.base import vocab
from council_filters.base.errors import UsageError

#: A value check: a description of what is wrong, or None when the value is good.
ValueCheck = Callable[[str], str | None]

ADAPTERS: tuple[str, ...] = ("text", "opencode-json")


def _adapter(value: str) -> str | None:
    if value in ADAPTERS:
        return None
    return f"unknown adapter (known: {', '.join(ADAPTERS)})"


def _command(value: str) -> str | None:
    return None if value else "empty command"


def _origin(rest: str, value: str) -> str | None:
    """``code-review.ORIGIN = NAME``: one of the code-review origins, a reviewer name."""
    from council_filters.base.vocab import CODE_REVIEW_ORIGINS as ORIGINS
    from council_filters.consolidate.origins import canonical_origin

    if canonical_origin(rest.strip()) not in ORIGINS:
        return f"not one of the code-review origins ({', '.join(ORIGINS)})"
    if not vocab.is_name(value):
        return "expected the name of a configured reviewer"
    return None


def _family(value: str) -> str | None:
    return None if vocab.is_name(value) else "a model family is a name like `anthropic`"


def _council_setting(rest: str, value: str) -> str | None:
    """``council.SETTING = VALUE``: the front command's own settings."""
    if rest not in COUNCIL_SETTINGS:
        return f"unknown setting (known: {', '.join(f'council.{k}' for k in COUNCIL_SETTINGS)})"
    return COUNCIL_SETTINGS[rest](value)


def _directory(value: str) -> str | None:
    return None if value else "expected a directory"


#: ``council.SETTING = VALUE`` lines, by setting.
COUNCIL_SETTINGS: dict[str, ValueCheck] = {
    "cache": _directory,  # the response cache directory
}

#: ``NAME.SUFFIX = VALUE`` lines about one reviewer, by suffix.
REVIEWER_KEYS: dict[str, ValueCheck] = {
    "adapter": _adapter,
    "family": _family,  # the model family (--min-families, price tables)
}

#: Top-level keys that are not reviewer names.
GLOBAL_KEYS: dict[str, ValueCheck] = {
    "corrector": _command,  # the code-review flow's corrector command
}

#: ``PREFIX.REST = VALUE`` families: the check gets (REST, VALUE).
PREFIX_KEYS: dict[str, Callable[[str, str], str | None]] = {
    "code-review": _origin,  # code-review.ORIGIN = NAME: who reviews that origin
    "council": _council_setting,  # council.cache = DIR
}

#: The built-in reviewer slots a near-miss name is compared with.
KNOWN_REVIEWERS: tuple[str, ...] = vocab.SLOTS


@dataclass(frozen=True)
class Problem:
    line: int
    message: str


class CommandsFileError(UsageError):
    """Every problem of one commands file, each rendered ``FILE:LINE: message``."""

    def __init__(self, source: str, problems: list[Problem]) -> None:
        first = problems[0]
        super().__init__(first.message, source=source, line=first.line)
        self.problems = problems

    def render(self, prog: str) -> str:
        lines = [f"{prog}: {self.source}:{p.line}: {p.message}" for p in self.problems]
        n = len(self.problems)
        lines.append(
            f"{prog}: {self.source}: {n} problem{'s' if n != 1 else ''} in the reviewer"
            " commands file; nothing was run"
        )
        return "\n".join(lines)

    def __str__(self) -> str:
        return "\n".join(f"{self.source}:{p.line}: {p.message}" for p in self.problems)


@dataclass
class CommandsFile:
    """The parsed file: ``table`` maps each key to its value (file order); ``lines`` maps
    each key to its line number."""

    source: str
    table: dict[str, str] = field(default_factory=dict)
    lines: dict[str, int] = field(default_factory=dict)

    def reviewers(self) -> list[str]:
        """The reviewers with a command, in file order (an empty command leaves one out)."""
        return [k for k, v in self.table.items() if _kind(k) == "reviewer" and v]


def _kind(key: str) -> str:
    if key in GLOBAL_KEYS:
        return "global"
    head, dot, _tail = key.partition(".")
    if dot:
        return "prefix" if head in PREFIX_KEYS else "reviewer-key"
    return "reviewer"


def distance(a: str, b: str) -> int:
    """Edit distance with adjacent transpositions (optimal string alignment)."""
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            cost = ca != cb
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        prev2, prev = prev, cur
    return prev[-1]


def near_miss(name: str, known: tuple[str, ...] | list[str]) -> str | None:
    """The known name ``name`` is probably a typo of: one or two slips away (one for short
    names), and not the known name with something added (``claude2``, ``claude-fast``)."""
    best: tuple[int, str] | None = None
    for k in known:
        if name == k or name.startswith(k) or name.endswith(k):
            continue
        limit = 1 if len(k) <= 4 else 2
        d = distance(name, k)
        if 0 < d <= limit and (best is None or d < best[0]):
            best = (d, k)
    return best[1] if best else None


def _shown(key: str) -> str:
    """A key as a message may show it: only when it looks like a name (never arbitrary text)."""
    return f"`{key}`" if len(key) <= 64 and all(vocab.is_name(p) for p in key.split(".")) else (
        "this key"
    )


def _check_reviewer_name(name: str) -> str | None:
    if not vocab.is_name(name):
        return "reviewer names must match [a-z0-9][a-z0-9_-]*, up to 32 characters"
    guess = near_miss(name, [*KNOWN_REVIEWERS, *GLOBAL_KEYS])
    if guess is not None:
        return (
            f"unknown reviewer `{name}`: did you mean `{guess}`? (a reviewer of your own"
            " needs a name that is not one slip from a built-in one)"
        )
    return None


def parse(text: str, source: str) -> CommandsFile:
    """Parse and check the whole file; raise :class:`CommandsFileError` naming every problem."""
    out = CommandsFile(source)
    problems: list[Problem] = []
    suffix_lines: list[tuple[str, str, int]] = []  # (reviewer, key, line)
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        key, eq, value = line.partition("=")
        key, value = key.strip(), value.strip()
        if not eq or not key:
            problems.append(Problem(lineno, "expected NAME = COMMAND"))
            continue
        if key in out.lines:
            problems.append(Problem(
                lineno, f"{_shown(key)} is set again (first set on line {out.lines[key]});"
                " keep one line"))
            continue
        problem = _check_line(key, value)
        if problem is not None:
            problems.append(Problem(lineno, problem))
            continue
        out.table[key] = value
        out.lines[key] = lineno
        if _kind(key) == "reviewer-key":
            suffix_lines.append((key.partition(".")[0], key, lineno))
    for reviewer, key, lineno in suffix_lines:
        if reviewer not in out.table:
            problems.append(Problem(
                lineno, f"{_shown(key)} is about a reviewer with no `{reviewer} = COMMAND` line"))
    if problems:
        raise CommandsFileError(source, sorted(problems, key=lambda p: p.line))
    return out


def _check_line(key: str, value: str) -> str | None:
    kind = _kind(key)
    if kind == "global":
        return _value_problem(key, GLOBAL_KEYS[key](value))
    if kind == "prefix":
        head, _, rest = key.partition(".")
        return _value_problem(key, PREFIX_KEYS[head](rest, value))
    if kind == "reviewer-key":
        name, _, suffix = key.partition(".")
        if suffix not in REVIEWER_KEYS:
            known = [*REVIEWER_KEYS]
            guess = near_miss(suffix, known) if vocab.is_name(suffix) else None
            listed = ", ".join(f"NAME.{k}" for k in known)
            hint = f"did you mean `{name}.{guess}`?" if guess else f"known: {listed}"
            return f"unknown key {_shown(key)} ({hint})"
        name_problem = _check_reviewer_name(name)
        if name_problem is not None:
            return name_problem
        return _value_problem(key, REVIEWER_KEYS[suffix](value))
    return _check_reviewer_name(key)


def _value_problem(key: str, problem: str | None) -> str | None:
    return None if problem is None else f"{_shown(key)}: {problem}"
