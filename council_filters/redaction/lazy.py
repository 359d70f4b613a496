"""A regex compiled on first use (the built-in rules, their searches, the machines).

``--rules extended`` declares some eighty bytes regexes (rules, candidate
searches, their ``re`` fallbacks); compiling all of them costs more than
scanning megabytes with the compiled prefilter, and most are never run on a
given input (a rule runs only on lines its search hit).  A :class:`LazyRegex`
knows its pattern at once and compiles it the first time a method needs it.
Only for patterns the project itself ships (tested to compile): a user's
rule file is compiled, and its errors reported, when it is loaded.

The ``re`` module itself is not imported until a pattern has to be compiled
(or a caller asks for it): importing it (with ``enum`` and its parser) costs
about 4 ms of every start, more than a tenth of ``--rules extended``'s whole
start-up, and a run whose programs are in the cache (see
:func:`compile_kept`) needs none of it.  What the rule modules need of it
while they are built, :func:`escape` and the flag values, is here.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re
    from typing import Any

#: ``re``'s flag values (``re.I``, ``re.M``, ``re.S``; a test holds them to ``re``'s).
IGNORECASE = 2
MULTILINE = 8
DOTALL = 16

#: What ``re.escape`` escapes: each of these characters gets a backslash.
_SPECIAL = {c: "\\" + chr(c) for c in b"()[]{}?*+-|^$\\.&~# \t\n\r\v\f"}


def escape(pattern: Any) -> Any:
    """``re.escape(pattern)`` (text or bytes), without importing ``re``."""
    if isinstance(pattern, str):
        return pattern.translate(_SPECIAL)
    return pattern.decode("latin-1").translate(_SPECIAL).encode("latin-1")


def compile_kept(pattern: Any, flags: int = 0) -> re.Pattern[Any]:
    """``re.compile(pattern, flags)``, the compiled program kept in the private
    disk cache (:mod:`council_filters.redaction.diskcache`).

    ``re`` spends most of a compile parsing the pattern and generating its
    program; the proof patterns and the assignment rules take milliseconds
    each, more than a run over megabytes of code spends matching them.  The
    program (with its group names) is stored under a digest of the pattern,
    the flags and this interpreter's version, and a later run hands it to
    the regex engine directly, which checks it as it checks any program.  Any
    failure (no cache, a damaged or foreign entry, another interpreter)
    compiles as ``re.compile`` does; the pattern is the same either way.

    The programs a process used are also kept together in one pack (see
    :func:`keep_programs`): a run of ``--rules extended`` needs a hundred,
    and one read of the pack costs less than hashing their patterns and
    opening their entries one by one.
    """
    from council_filters.redaction import diskcache

    flags = int(flags)
    head = _program_head(pattern, flags)
    directory = diskcache.cache_dir()
    pack = _pack(directory)
    if pack is not None and head in pack:
        try:
            return _from_program(pattern, pack[head])
        except Exception:  # noqa: BLE001 - any failure: its entry, or a compile
            del pack[head]
    path = None
    if directory:
        import os

        path = os.path.join(directory, f"re-{diskcache.digest(head)[:40]}.bin")
    if path is not None:
        data = diskcache.read(path)
        if data is not None and data.startswith(_PROGRAM_MAGIC):
            try:
                rx = _from_program(pattern, data[len(_PROGRAM_MAGIC) :])
            except Exception:  # noqa: BLE001, S110 - any failure: compile instead
                pass
            else:
                _added(directory, head, data[len(_PROGRAM_MAGIC) :])
                return rx
    try:
        program = _program(pattern, flags)
        rx = _from_program(pattern, program)
    except Exception:  # noqa: BLE001 - another interpreter's re: its own compile
        import re

        return re.compile(pattern, flags)
    if path is not None:
        diskcache.write(path, _PROGRAM_MAGIC + program)
        _added(directory, head, program)
    return rx


_PROGRAM_MAGIC = b"council-re-program 1\n"
_PACK_MAGIC = b"council-re-programs 1\n"
#: A pack that grows past this (programs of many versions' patterns) starts again.
_PACK_LIMIT = 8 << 20


def _interpreter_tag() -> str:
    """What keys a program to this interpreter (made once)."""
    if not _interpreter:
        import _sre
        import sys

        _interpreter.append(f"{sys.version}|{sys.implementation.cache_tag}|{_sre.MAGIC}|")
    return _interpreter[0]


def _program_head(pattern: Any, flags: int) -> bytes:
    """What keys a program: this interpreter, the flags, the kind and the pattern."""
    kind = b"b" if isinstance(pattern, bytes) else b"s"
    text = pattern if isinstance(pattern, bytes) else pattern.encode("utf-8", "surrogatepass")
    return f"{_interpreter_tag()}{flags}|".encode() + kind + text


_interpreter: list[str] = []  # (see _interpreter_tag)

#: The pack of the cache directory in use: its path, the programs read from it
#: (head -> program) and those this process added (kept by keep_programs).
_packs: dict[str, tuple[str, dict[bytes, bytes], dict[bytes, bytes]]] = {}


def _pack(directory: str | None) -> dict[bytes, bytes] | None:
    """The programs of the pack in ``directory`` (read once per process), or None
    when the cache is off."""
    if not directory:
        return None
    found = _packs.get(directory)
    if found is None:
        import os

        from council_filters.redaction import diskcache

        name = f"programs-{diskcache.digest(_interpreter_tag().encode())[:24]}.bin"
        path = os.path.join(directory, name)
        found = _packs[directory] = (path, _read_pack(path), {})
    return found[1]


def _read_pack(path: str) -> dict[bytes, bytes]:
    import marshal

    from council_filters.redaction import diskcache

    data = diskcache.read(path, _PACK_LIMIT)
    if data is None or not data.startswith(_PACK_MAGIC):
        return {}
    try:
        programs = marshal.loads(memoryview(data)[len(_PACK_MAGIC) :])
    except Exception:  # noqa: BLE001 - a damaged pack: start again
        return {}
    if not isinstance(programs, dict) or not all(
        isinstance(k, bytes) and isinstance(v, bytes) for k, v in programs.items()
    ):
        return {}
    return programs


def _added(directory: str | None, head: bytes, program: bytes) -> None:
    """A program to keep in the pack of ``directory``."""
    if directory and _pack(directory) is not None:
        _packs[directory][2][head] = program
        if not _at_exit:
            import atexit

            atexit.register(keep_programs)
            _at_exit.append(True)


_at_exit: list[bool] = []  # keep_programs is registered to run at exit


def keep_programs() -> None:
    """Write the programs this process added to their packs (with what the packs
    on disk hold now: several processes add to one pack); failures are ignored.

    Run at exit, and by a command that ends its process without the
    interpreter's exit (``council-redact``'s plain form)."""
    import marshal
    import os

    from council_filters.redaction import diskcache

    for path, _, added in _packs.values():
        if not added or not os.path.isdir(os.path.dirname(path)):
            continue
        programs = _read_pack(path)
        if sum(map(len, programs.values())) > _PACK_LIMIT // 2:
            programs = {}
        programs.update(added)
        added.clear()
        diskcache.write(path, _PACK_MAGIC + marshal.dumps(programs))


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
        import re  # (compared with a compiled pattern: re is loaded already)

        if isinstance(other, re.Pattern):
            return other == self.compiled()
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.pattern, self.flags_))

    def __repr__(self) -> str:
        return f"LazyRegex({self.pattern!r})"
