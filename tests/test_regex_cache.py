"""Compiled regex programs kept in the private disk cache (``lazy.compile_kept``).

A run of ``--rules extended`` reads the programs of the built-in rules and
their proof patterns from the cache instead of compiling them.  These tests
pin that a program read back is the pattern ``re.compile`` gives (the same
program, flags and groups), that a damaged or foreign entry is never used,
and that entries are private.  That the patterns are the same bytes in every
process whatever the hash seed (else a program would never be found again)
is checked in test_extended_families.py.
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path

import pytest

from council_filters.redaction import lazy
from council_filters.redaction.secrets import builtin, proof


def shipped_patterns() -> list[tuple[bytes, int]]:
    """Every built-in rule's regex and every proof pattern, with its flags."""
    out = [(r.regex.pattern, r.regex.flags_) for r in builtin.RULES]
    for r in builtin.RULES:
        if proof.servable(r):
            out += [(src, int(re.M)) for src in proof.proof_sources(r)]
    return out


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    where = tmp_path / "cache"
    monkeypatch.setenv("COUNCIL_CACHE_DIR", str(where))
    monkeypatch.setattr(lazy, "_packs", {})  # (a fresh process: no pack read yet)
    return where


def entries(cache: Path) -> list[Path]:
    return sorted(p for p in cache.iterdir() if p.name.startswith("re-"))


def test_a_program_read_back_is_the_compiled_pattern(cache: Path) -> None:
    patterns = shipped_patterns()
    assert len(patterns) > 60
    first = [lazy.compile_kept(p, f) for p, f in patterns]  # compiled, then stored
    assert len(entries(cache)) == len({(p, f) for p, f in patterns})
    again = [lazy.compile_kept(p, f) for p, f in patterns]  # read back
    for (p, f), a, b in zip(patterns, first, again, strict=True):
        ref = re.compile(p, f)
        # Patterns compare by their program, flags and source.
        assert a == ref and b == ref, p[:60]
        assert b.groupindex == ref.groupindex and b.groups == ref.groups


def test_read_back_programs_match_as_the_compiled_ones(cache: Path) -> None:
    line = (b"password = 'Xk8#pq2Lm9zR' | token | s3cr3tV4lu3 | "
            b"<db_password>Qm9vaz77s</db_password> value: n0tEmpty1")
    for p, f in shipped_patterns():
        lazy.compile_kept(p, f)
        got = lazy.compile_kept(p, f)
        ref = re.compile(p, f)
        assert [m.span() for m in got.finditer(line)] == [m.span() for m in ref.finditer(line)]


def test_a_damaged_or_foreign_entry_is_compiled_instead(cache: Path) -> None:
    pattern = rb"(?P<key>[a-z]+)=(?P<v>\d{3,})"
    lazy.compile_kept(pattern)
    (entry,) = entries(cache)
    good = entry.read_bytes()
    for bad in (good[:-7], good.replace(lazy._PROGRAM_MAGIC, b"something else\n"),
                lazy._PROGRAM_MAGIC + b"\x00\x01garbage",
                # a valid marshal of a wrong program: the engine refuses it
                lazy._PROGRAM_MAGIC + __import__("marshal").dumps((0, [1, 2, 3], 0, {}, ()))):
        entry.write_bytes(bad)
        os.chmod(entry, 0o600)
        got = lazy.compile_kept(pattern)
        assert got == re.compile(pattern)
        assert got.match(b"ab=1234").group("v") == b"1234"
    # An entry others may write is not read (it is compiled, and stored again).
    entry.write_bytes(lazy._PROGRAM_MAGIC + b"\x00")
    os.chmod(entry, 0o666)
    assert lazy.compile_kept(pattern) == re.compile(pattern)


def test_entries_are_private_and_the_cache_can_be_off(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lazy.compile_kept(rb"abc+")
    (entry,) = entries(cache)
    assert stat.S_IMODE(entry.stat().st_mode) == 0o600
    assert stat.S_IMODE(cache.stat().st_mode) == 0o700
    monkeypatch.setenv("COUNCIL_CACHE_DIR", "")
    assert lazy.compile_kept(rb"abd+") == re.compile(rb"abd+")
    assert len(entries(cache)) == 1


def test_text_patterns_and_flags_are_kept_apart(cache: Path) -> None:
    a = lazy.compile_kept(r"(?P<w>é+)x", re.I)
    b = lazy.compile_kept(r"(?P<w>é+)x", 0)
    c = lazy.compile_kept(rb"(?P<w>e+)x", re.I)
    assert len(entries(cache)) == 3
    assert lazy.compile_kept(r"(?P<w>é+)x", re.I) == a == re.compile(r"(?P<w>é+)x", re.I)
    assert a.match("ÉÉX") and not b.match("ÉÉX") and c.match(b"EEX")



def packs(cache: Path) -> list[Path]:
    return sorted(cache.glob("programs-*.bin"))


def test_the_programs_a_process_used_are_read_back_from_one_pack(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    patterns = shipped_patterns()
    for p, f in patterns:
        lazy.compile_kept(p, f)
    assert packs(cache) == []  # (written when the process ends, or asked)
    lazy.keep_programs()
    (pack,) = packs(cache)
    assert stat.S_IMODE(pack.stat().st_mode) == 0o600
    # The next process reads the pack alone: no entry is opened.
    monkeypatch.setattr(lazy, "_packs", {})
    for entry in entries(cache):
        entry.unlink()
    for p, f in patterns:
        got = lazy.compile_kept(p, f)
        ref = re.compile(p, f)
        assert got == ref and got.groupindex == ref.groupindex, p[:60]
    assert entries(cache) == []
    # Another process adds its own programs to the same pack.
    monkeypatch.setattr(lazy, "_packs", {})
    lazy.compile_kept(rb"(?P<x>q+)z")
    lazy.keep_programs()
    monkeypatch.setattr(lazy, "_packs", {})
    assert len(lazy._pack(str(cache)) or {}) == len({(p, f) for p, f in patterns}) + 1


def test_a_damaged_pack_or_program_in_it_is_not_used(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pattern = rb"(?P<key>[a-z]+)=(?P<v>\d{3,})"
    lazy.compile_kept(pattern)
    lazy.keep_programs()
    (pack,) = packs(cache)
    good = pack.read_bytes()
    marshal = __import__("marshal")
    head = lazy._program_head(pattern, 0)
    for bad in (good[:-9], good.replace(lazy._PACK_MAGIC, b"another thing\n"),
                lazy._PACK_MAGIC + marshal.dumps([1, 2]),
                lazy._PACK_MAGIC + marshal.dumps({head: marshal.dumps((0, [1, 2, 3], 0, {}, ()))})):
        pack.write_bytes(bad)
        os.chmod(pack, 0o600)
        monkeypatch.setattr(lazy, "_packs", {})
        got = lazy.compile_kept(pattern)
        assert got == re.compile(pattern)
        assert got.match(b"ab=1234").group("v") == b"1234"
    # A pack others may write is not read.
    pack.write_bytes(good)
    os.chmod(pack, 0o666)
    monkeypatch.setattr(lazy, "_packs", {})
    assert lazy._pack(str(cache)) == {}


def test_the_plain_command_keeps_its_programs_though_it_skips_the_exit(cache: Path) -> None:
    """council-redact's plain form ends its process without the interpreter's
    exit (no exit hooks): it writes the pack itself."""
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "council_filters.cli.redact", "--rules", "extended"],
        input=b"password = 'Xk8#pq2Lm9zR'\nnothing here\n", capture_output=True, check=True,
        env={**os.environ, "COUNCIL_CACHE_DIR": str(cache)},
    )
    assert done.stdout == b"--- redacted credential at line 1 ---\nnothing here\n"
    (pack,) = packs(cache)
    assert len(lazy._read_pack(str(pack))) >= 2


def test_escape_and_the_flag_values_are_res_own() -> None:
    """The rule modules escape words and name flags without importing ``re``:
    the same bytes and values as ``re`` (the patterns, and so the cached
    programs and the scan's database, stay the same)."""
    for b in range(256):
        assert lazy.escape(bytes([b])) == re.escape(bytes([b]))
    every = bytes(range(256))
    assert lazy.escape(every) == re.escape(every)
    text = "a.b*c (d)|e\\f-g ~é€\t\n#&"
    assert lazy.escape(text) == re.escape(text)
    assert (lazy.IGNORECASE, lazy.MULTILINE, lazy.DOTALL) == (re.I, re.M, re.S)



def test_the_proofs_line_end_is_what_res_substitution_gives() -> None:
    """``proof.joinable`` reads escapes in pairs, as ``re``'s substitution did:
    every short pattern of backslashes, ``Z`` and others gives the same bytes."""
    import itertools

    def by_re(p: bytes) -> bytes:
        return re.sub(rb"(?<!\\)((?:\\\\)*)\\Z", rb"\1$", p)

    for k in range(1, 7):
        for t in itertools.product((b"\\", b"Z", b"a", b"$", b"z"), repeat=k):
            p = b"".join(t)
            assert proof.joinable(p) == by_re(p), p
    assert proof.joinable(rb"x\Z|y\\Z") == rb"x$|y\\Z"


#: Lines that reach the rules: assignments, JSON in a string, colours, a URL, a key block.
_REACHING = (
    b"password = 'Xk8#pq2Lm9zR'\n"
    b"nothing here at all\n"
    b'{\\"db_password\\": \\"Qw7!zT9#kLm2\\"}\n'
    b'\x1b[31mtoken\x1b[0m = "aZ3kQ9xW7mP2vB8n"\n'
    b"export API_KEY=abc\n"
    b"redis://:Pa55w0rdXy@cache.internal:6379/0\n"
    b"-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAx7Yk2hB9\n-----END RSA PRIVATE KEY-----\n"
)

_LOADS_RE = """
import sys
from council_filters.cli import redact
code = redact.main(["--rules", "extended", sys.argv[1]])
sys.stderr.write(" ".join(m for m in ("re", "re._parser", "enum", "collections", "functools")
                          if m in sys.modules))
"""


def test_a_run_with_its_programs_kept_never_loads_re(cache: Path, tmp_path: Path) -> None:
    """``--rules extended`` with its programs in the cache runs without the ``re``
    module (its import is a tenth of the start-up); the first run compiles them.
    The second loads neither ``functools`` nor ``collections`` either (about
    3 ms of a start; ``re`` loads them in the first)."""
    import subprocess
    import sys

    text = tmp_path / "in.txt"
    text.write_bytes(_REACHING)
    env = {**os.environ, "COUNCIL_CACHE_DIR": str(cache)}

    def run() -> tuple[bytes, str]:
        done = subprocess.run([sys.executable, "-P", "-c", _LOADS_RE, str(text)],
                              capture_output=True, check=True, env=env)
        return done.stdout, done.stderr.decode()

    first, loaded_first = run()
    again, loaded_again = run()
    assert "re" in loaded_first.split()  # (compiled: the cache was empty)
    assert loaded_again == ""
    assert again == first
    assert first.count(b"--- redacted credential") == 4
    assert first.count(b"--- redacted PEM key block") == 3
