"""Compiled regex programs kept in the private disk cache (``lazy.compile_kept``).

A run of ``--rules extended`` reads the programs of the built-in rules and
their proof patterns from the cache instead of compiling them, all from one
entry per interpreter.  These tests pin that a program read back is the
pattern ``re.compile`` gives (the same program, flags and groups) and is not
compiled again, that a damaged or foreign entry is never used, that entries
are private, that runs at once keep each other's programs, and that the entry
is bounded.  That the patterns are the same bytes in every process whatever
the hash seed (else a program would never be found again) is checked in
test_extended_families.py.
"""

from __future__ import annotations

import marshal
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
    monkeypatch.setattr(lazy, "_kept", {})
    return where


def entries(cache: Path) -> list[Path]:
    return sorted(p for p in cache.iterdir() if p.name.startswith("re-"))


def next_process() -> None:
    """What a new process starts with: nothing read from the cache yet."""
    lazy._kept.clear()


def stored(cache: Path) -> dict[object, bytes]:
    (entry,) = entries(cache)
    data = entry.read_bytes()
    assert data.startswith(lazy._PROGRAM_MAGIC)
    kept = marshal.loads(data[len(lazy._PROGRAM_MAGIC):])
    assert isinstance(kept, dict)
    return kept


def no_compiling(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(pattern: object, flags: int) -> bytes:
        raise AssertionError(f"compiled again: {pattern!r}")

    monkeypatch.setattr(lazy, "_program", refuse)


def test_a_program_read_back_is_the_compiled_pattern(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    patterns = shipped_patterns()
    assert len(patterns) > 60
    first = [lazy.compile_kept(p, f) for p, f in patterns]  # compiled, then stored
    assert len(entries(cache)) == 1  # one entry holds them all
    assert set(stored(cache)) == {(f, p) for p, f in patterns}
    next_process()
    no_compiling(monkeypatch)
    again = [lazy.compile_kept(p, f) for p, f in patterns]  # read back
    for (p, f), a, b in zip(patterns, first, again, strict=True):
        ref = re.compile(p, f)
        # Patterns compare by their program, flags and source.
        assert a == ref and b == ref, p[:60]
        assert b.groupindex == ref.groupindex and b.groups == ref.groups


def test_read_back_programs_match_as_the_compiled_ones(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    line = (b"password = 'Xk8#pq2Lm9zR' | token | s3cr3tV4lu3 | "
            b"<db_password>Qm9vaz77s</db_password> value: n0tEmpty1")
    patterns = shipped_patterns()
    for p, f in patterns:
        lazy.compile_kept(p, f)
    next_process()
    no_compiling(monkeypatch)
    for p, f in patterns:
        got = lazy.compile_kept(p, f)
        ref = re.compile(p, f)
        assert [m.span() for m in got.finditer(line)] == [m.span() for m in ref.finditer(line)]


def test_a_damaged_or_foreign_entry_is_compiled_instead(cache: Path) -> None:
    pattern = rb"(?P<key>[a-z]+)=(?P<v>\d{3,})"
    lazy.compile_kept(pattern)
    (entry,) = entries(cache)
    good = entry.read_bytes()
    magic = lazy._PROGRAM_MAGIC
    for bad in (good[:-7], good.replace(magic, b"something else\n"),
                magic + b"\x00\x01garbage",
                magic + marshal.dumps([1, 2, 3]),  # not a table of programs
                magic + marshal.dumps({(0, pattern): "not bytes"}),
                # a valid marshal of a wrong program: the engine refuses it
                magic + marshal.dumps({(0, pattern): marshal.dumps((0, [1, 2, 3], 0, {}, ()))})):
        entry.write_bytes(bad)
        os.chmod(entry, 0o600)
        next_process()
        got = lazy.compile_kept(pattern)
        assert got == re.compile(pattern)
        assert got.match(b"ab=1234").group("v") == b"1234"
    # An entry others may write is not read (it is compiled, and stored again).
    entry.write_bytes(magic + marshal.dumps({(0, pattern): b"\x00"}))
    os.chmod(entry, 0o666)
    next_process()
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
    assert set(stored(cache)) == {(0, rb"abc+")}


def test_text_patterns_and_flags_are_kept_apart(cache: Path) -> None:
    a = lazy.compile_kept(r"(?P<w>é+)x", re.I)
    b = lazy.compile_kept(r"(?P<w>é+)x", 0)
    c = lazy.compile_kept(rb"(?P<w>e+)x", re.I)
    assert len(stored(cache)) == 3
    next_process()
    assert lazy.compile_kept(r"(?P<w>é+)x", re.I) == a == re.compile(r"(?P<w>é+)x", re.I)
    assert a.match("ÉÉX") and not b.match("ÉÉX") and c.match(b"EEX")


def test_runs_at_once_keep_each_others_programs(cache: Path) -> None:
    lazy.compile_kept(rb"one+")
    mine = dict(lazy._kept)  # this run read the entry before the other one wrote
    next_process()
    lazy.compile_kept(rb"two+")  # another run stores its program
    lazy._kept.clear()
    lazy._kept.update(mine)
    lazy.compile_kept(rb"three+")  # the first run's new program keeps the other's
    assert set(stored(cache)) == {(0, rb"one+"), (0, rb"two+"), (0, rb"three+")}


def test_the_entry_is_bounded(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lazy, "_MAX_PROGRAMS", 3)
    for n in range(1, 8):
        lazy.compile_kept(b"a{%d}" % n)
        assert 1 <= len(stored(cache)) <= 3
    assert (0, b"a{7}") in stored(cache)
