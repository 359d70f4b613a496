"""A regex compiled on first use (the built-in rules, their searches, the machines).

``--rules extended`` declares some eighty bytes regexes (rules, candidate
searches, their ``re`` fallbacks); compiling all of them costs more than
scanning megabytes with the compiled prefilter, and most are never run on a
given input (a rule runs only on lines its search hit).  A :class:`LazyRegex`
knows its pattern at once and compiles it the first time a method needs it.
Only for patterns the project itself ships (tested to compile): a user's
rule file is compiled, and its errors reported, when it is loaded.
"""

from __future__ import annotations

import re

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def compile_kept(pattern: Any, flags: int = 0) -> re.Pattern[Any]:
    """``re.compile(pattern, flags)``, the compiled program kept in the private
    disk cache (:mod:`council_filters.redaction.diskcache`).

    ``re`` spends most of a compile parsing the pattern and generating its
    program; the proof patterns and the assignment rules take milliseconds
    each, more than a run over megabytes of code spends matching them.  The
    programs (with their group names) are kept together in one entry per
    interpreter (see :func:`_programs`), under the pattern and its flags, and
    a later run hands a program to the regex engine directly, which checks it
    as it checks any program.  Any failure (no cache, a damaged or foreign
    entry, another interpreter) compiles as ``re.compile`` does; the pattern
    is the same either way.
    """
    flags = int(flags)
    kept = _programs()
    key = (flags, pattern)
    stored = kept.get(key)
    if isinstance(stored, bytes):
        try:
            return _from_program(pattern, stored)
        except Exception:  # noqa: BLE001, S110 - any failure: compile instead
            pass
    try:
        program = _program(pattern, flags)
        rx = _from_program(pattern, program)
    except Exception:  # noqa: BLE001 - another interpreter's re: its own compile
        return re.compile(pattern, flags)
    kept[key] = program
    _store_programs(kept, key, program)
    return rx


_PROGRAM_MAGIC = b"council-re-programs 2\n"
#: The most programs one entry keeps: the shipped patterns are a few hundred;
#: past this the entry starts again (it never grows without bound).
_MAX_PROGRAMS = 2048
#: The programs read from the cache in this process, by entry (loaded on first use).
_kept: dict[str | None, dict[Any, Any]] = {}


def _programs() -> dict[Any, Any]:
    """The stored programs, ``(flags, pattern) -> program``, read once a process.

    One entry holds them all: a run of ``--rules extended`` over code needs
    about a hundred, and one read of one file costs less than a hundred
    opens, and no digest of each pattern is taken.  Each program stays in its
    stored bytes until its pattern is first used.  Empty when the cache is
    off, or the entry is missing, damaged or foreign.
    """
    path = _programs_path()
    found = _kept.get(path)
    if found is not None:
        return found
    import marshal

    from council_filters.redaction import diskcache

    found = {}
    data = diskcache.read(path) if path is not None else None
    if data is not None and data.startswith(_PROGRAM_MAGIC):
        try:
            loaded = marshal.loads(data[len(_PROGRAM_MAGIC) :])
        except Exception:  # noqa: BLE001 - a damaged entry: start again
            loaded = None
        if isinstance(loaded, dict):
            found = loaded
    _kept[path] = found
    return found


def _programs_path() -> str | None:
    """The entry of this interpreter's programs (None: the cache is off)."""
    from council_filters.redaction import diskcache

    if not _name:
        import _sre
        import sys

        head = f"{sys.version}|{sys.implementation.cache_tag}|{_sre.MAGIC}".encode()
        _name.append(f"re-programs-{diskcache.digest(head)[:32]}.bin")
    return diskcache.entry_path(_name[0])


_name: list[str] = []  # the entry's name for this interpreter (made once)


def _store_programs(kept: dict[Any, Any], key: Any, program: bytes) -> None:
    """Write the programs known to this process to the entry (atomically),
    ``key``'s new ``program`` among them.

    A program is stored when it was compiled, which is on a fresh cache only:
    the entry is rewritten once a new pattern was compiled, with what other
    processes stored meanwhile read back first (several runs at once lose at
    most each other's newest programs, compiled again later).  An entry
    that would pass :data:`_MAX_PROGRAMS` starts again with the new one."""
    import marshal

    from council_filters.redaction import diskcache

    path = _programs_path()
    if path is None:
        return
    data = diskcache.read(path)
    if data is not None and data.startswith(_PROGRAM_MAGIC):
        try:
            theirs = marshal.loads(data[len(_PROGRAM_MAGIC) :])
        except Exception:  # noqa: BLE001 - a damaged entry: replaced
            theirs = None
        if isinstance(theirs, dict):
            for their_key, their_program in theirs.items():
                kept.setdefault(their_key, their_program)
    if len(kept) > _MAX_PROGRAMS:
        kept.clear()
        kept[key] = program
    diskcache.write(path, _PROGRAM_MAGIC + marshal.dumps(kept))


def _program(pattern: Any, flags: int) -> bytes:
    """The program ``re`` compiles ``pattern`` to, as the cache stores it."""
    import marshal
    from re import _compiler, _parser  # type: ignore[attr-defined]

    parsed = _parser.parse(pattern, flags)
    code = [int(op) for op in _compiler._code(parsed, flags)]  # (opcodes are int subclasses)
    names = parsed.state.groupdict
    index: list[str | None] = [None] * parsed.state.groups
    for name, i in names.items():
        index[i] = name
    return marshal.dumps(
        (int(flags | parsed.state.flags), code, parsed.state.groups - 1, dict(names),
         tuple(index)))


def _from_program(pattern: Any, stored: bytes) -> re.Pattern[Any]:
    """The compiled pattern from a stored program (the engine validates it)."""
    import _sre
    import marshal

    flags, code, groups, names, index = marshal.loads(stored)
    if not (isinstance(code, list) and isinstance(names, dict) and isinstance(index, tuple)):
        raise ValueError("not a program")
    return _sre.compile(pattern, flags, code, groups, names, index)  # type: ignore[no-any-return]


class LazyRegex:
    """Duck-types a compiled ``re.Pattern`` (bytes or text); compiles on first use."""

    def __init__(self, pattern: Any, flags: int = 0) -> None:
        self.pattern = pattern
        self.flags_ = flags
        self._compiled: re.Pattern[Any] | None = None

    def compiled(self) -> re.Pattern[Any]:
        rx = self._compiled
        if rx is None:
            rx = self._compiled = compile_kept(self.pattern, self.flags_)
        return rx

    def __getattr__(self, name: str) -> Any:
        # Only reached for what the instance does not hold yet (search, match,
        # finditer, groups, ...): kept, so later look-ups find it directly.
        if name.startswith("__"):
            raise AttributeError(name)
        value = getattr(self.compiled(), name)
        self.__dict__[name] = value
        return value

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LazyRegex):
            return (self.pattern, self.flags_) == (other.pattern, other.flags_)
        if isinstance(other, re.Pattern):
            return other == self.compiled()
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.pattern, self.flags_))

    def __repr__(self) -> str:
        return f"LazyRegex({self.pattern!r})"
