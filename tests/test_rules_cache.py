"""A loaded gitleaks file, kept in the private disk cache: same rules, same output.

The first load of a file compiles every regex (so its errors are named) and
stores what it read; a later load of the same bytes reads the stored copy and
compiles each regex only when it first runs.  These tests pin that the copy
is the same rule set (every rule, every allowlist, the same redactions), that
a damaged, foreign or stale entry is never used, and that entries are private.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
import secret_corpus as sc

from council_filters.redaction.secrets import RuleSet
from council_filters.redaction.secrets import gitleaks as gl
from council_filters.redaction.secrets.engine import _derived_keywords, redact_value

DATA = Path(__file__).resolve().parent / "data"
DEFAULT_TOML = str(DATA / "gitleaks-default.toml")

pytestmark = pytest.mark.skipif(gl._re2() is None, reason="the cache serves RE2 rules only")


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    where = tmp_path / "cache"
    monkeypatch.setenv("COUNCIL_CACHE_DIR", str(where))
    return where


def eager(path: str, monkeypatch: pytest.MonkeyPatch) -> tuple[list, list]:  # type: ignore[type-arg]
    with monkeypatch.context() as m:
        m.setenv("COUNCIL_CACHE_DIR", "")  # the cache off: every regex compiled at load
        return gl.load_file(path)


def is_cached(rules: list) -> bool:  # type: ignore[type-arg]
    return all(isinstance(r.regex, gl.LazyRE2) for r in rules)


def corpus() -> bytes:
    lines = [case.text for case in sc.secret_lines(seed=41)]
    lines += sc.benign_lines(seed=43, n=3000)
    lines += ["api_key = 'abcd1234efgh5678ijkl'", "token: ey" + "A" * 40,
              "s.abcdefghijklmnopqrstuvwx"]
    return ("\n".join(lines) + "\n").encode()


def test_a_cached_file_is_the_same_rule_set(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ref_rules, ref_allows = eager(DEFAULT_TOML, monkeypatch)
    assert not is_cached(ref_rules)
    first = gl.load_file(DEFAULT_TOML)  # compiles, then stores
    assert not is_cached(first[0])
    (entry,) = [p for p in cache.iterdir() if p.name.startswith("rules-")]
    rules, allows = gl.load_file(DEFAULT_TOML)  # read back
    assert is_cached(rules)
    assert [r.canonical() for r in rules] == [r.canonical() for r in ref_rules]
    for got, want in zip(rules, ref_rules, strict=True):
        for name in ("id", "secret_group", "entropy", "keywords", "prefilter", "description",
                     "source", "text", "placeholders", "validator"):
            assert getattr(got, name) == getattr(want, name), (want.id, name)
        assert got.regex.groups == want.regex.groups
        if not want.keywords:  # searched for by the literals its regex holds
            assert _derived_keywords(got) == _derived_keywords(want)
    assert [(a.target, a.condition, a.stopwords, a.rule_ids, [r.pattern for r in a.regexes],
             [p.pattern for p in a.paths]) for a in allows] == [
        (a.target, a.condition, a.stopwords, a.rule_ids, [r.pattern for r in a.regexes],
         [p.pattern for p in a.paths]) for a in ref_allows]
    # Redacting with either gives the same bytes and the same lines.
    data = corpus()
    want = redact_value(data, RuleSet("f", tuple(ref_rules), tuple(ref_allows)))
    got = redact_value(data, RuleSet("f", tuple(rules), tuple(allows)))
    assert got == want and want[1]
    assert entry.exists()


def test_lazy_compile_equals_eager_compile_on_every_rule(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ref_rules, _ = eager(DEFAULT_TOML, monkeypatch)
    gl.load_file(DEFAULT_TOML)
    rules, _ = gl.load_file(DEFAULT_TOML)
    assert is_cached(rules)
    texts = corpus().decode("utf-8", "replace").splitlines()
    for got, want in zip(rules, ref_rules, strict=True):
        assert "_rx" not in got.regex.__dict__  # nothing compiled before it is run
        assert got.regex.pattern == want.regex.pattern
        for t in texts:
            assert [m.span() for m in got.regex.finditer(t)] == [
                m.span() for m in want.regex.finditer(t)], (want.id, t)
        assert "_rx" in got.regex.__dict__


@pytest.mark.parametrize("damage", ["flip", "truncate", "garbage", "empty", "wrong-shape",
                                    "wrong-type", "code", "json"])
def test_a_damaged_entry_is_never_used(
    cache: Path, monkeypatch: pytest.MonkeyPatch, damage: str
) -> None:
    ref_rules, _ = eager(DEFAULT_TOML, monkeypatch)
    gl.load_file(DEFAULT_TOML)
    (entry,) = [p for p in cache.iterdir() if p.name.startswith("rules-")]
    data = entry.read_bytes()
    if damage == "flip":
        i = len(data) // 2
        data = data[:i] + bytes([data[i] ^ 0x20]) + data[i + 1 :]
    elif damage == "truncate":
        data = data[: len(data) // 3]
    elif damage == "garbage":
        data = os.urandom(4096)
    elif damage == "empty":
        data = b""
    else:
        import hashlib
        import marshal

        head, _, payload = data[len(gl._CACHE_MAGIC) :].partition(b"\n")
        doc = marshal.loads(payload)
        if damage == "wrong-shape":
            payload = marshal.dumps((doc[0], 7, doc[2]))
        elif damage == "wrong-type":  # a rule's entropy as a string, well formed otherwise
            rule = list(doc[1][0])
            rule[3] = str(rule[3])
            payload = marshal.dumps((doc[0], (tuple(rule), *doc[1][1:]), doc[2]))
        elif damage == "code":  # a code object where a pattern goes: never run, refused
            rule = list(doc[1][0])
            rule[1] = (compile("raise SystemExit(9)", "x", "exec"), 0)
            payload = marshal.dumps((doc[0], (tuple(rule), *doc[1][1:]), doc[2]))
        else:  # an entry of the format before (JSON)
            payload = b'{"rules": 7}'
        data = gl._CACHE_MAGIC + hashlib.sha256(payload).hexdigest().encode() + b"\n" + payload
    entry.write_bytes(data)
    entry.chmod(0o600)
    rules, _ = gl.load_file(DEFAULT_TOML)
    assert not is_cached(rules)  # loaded afresh ...
    assert [r.canonical() for r in rules] == [r.canonical() for r in ref_rules]
    rules, _ = gl.load_file(DEFAULT_TOML)  # ... and stored again
    assert is_cached(rules)


def test_entries_are_private_and_foreign_ones_unused(cache: Path) -> None:
    gl.load_file(DEFAULT_TOML)
    (entry,) = [p for p in cache.iterdir() if p.name.startswith("rules-")]
    assert stat.S_IMODE(cache.stat().st_mode) == 0o700
    assert stat.S_IMODE(entry.stat().st_mode) == 0o600
    entry.chmod(0o644)  # others could have written it
    assert not is_cached(gl.load_file(DEFAULT_TOML)[0])
    assert not list(cache.glob(".*.tmp"))


def one_rule(rule_id: str) -> str:
    return f'[[rules]]\nid = "{rule_id}"\nregex = \'{rule_id}_[a-z0-9]{{16}}\'\n' \
        f'keywords = ["{rule_id}_"]\n'


def test_a_changed_file_or_base_is_read_again(cache: Path, tmp_path: Path) -> None:
    base = tmp_path / "base.toml"
    top = tmp_path / "top.toml"
    base.write_text(one_rule("one"))
    top.write_text('[extend]\npath = "base.toml"\n\n' + one_rule("two"))
    assert [r.id for r in gl.load_file(str(top))[0]] == ["one", "two"]
    assert is_cached(gl.load_file(str(top))[0])
    base.write_text(one_rule("uno"))
    rules, _ = gl.load_file(str(top))
    assert [r.id for r in rules] == ["uno", "two"] and not is_cached(rules)
    top.write_text(top.read_text().replace('"two"', '"dos"'))
    rules, _ = gl.load_file(str(top))
    assert [r.id for r in rules] == ["uno", "dos"] and not is_cached(rules)


def test_a_file_with_problems_is_not_stored(cache: Path, tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('[[rules]]\nid = "x"\nregex = \'\'\'(?=a)b\'\'\'\n')
    for _ in range(2):
        with pytest.raises(Exception, match="lookahead"):
            gl.load_file(str(bad))
    assert not cache.exists() or not [p for p in cache.iterdir() if p.name.startswith("rules-")]


def test_the_cache_can_be_turned_off(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("COUNCIL_CACHE_DIR", "")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    for _ in range(2):
        assert not is_cached(gl.load_file(DEFAULT_TOML)[0])
    assert not (tmp_path / "xdg").exists()


def test_a_cached_load_needs_no_parser(cache: Path) -> None:
    # The entry is read without a TOML or JSON parser, a regex parser or a compile.
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from council_filters.redaction.secrets import gitleaks as gl\n"
        f"rules, _ = gl.load_file({DEFAULT_TOML!r})\n"
        "assert all(isinstance(r.regex, gl.LazyRE2) for r in rules), 'not cached'\n"
        "print(sorted(m for m in ('json', 'tomllib', 'regex') if m in sys.modules))\n"
    )
    env = {**os.environ, "COUNCIL_CACHE_DIR": str(cache)}
    gl.load_file(DEFAULT_TOML)  # stored
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"


def test_a_cached_file_is_searched_for_as_a_fresh_one(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from council_filters.redaction.secrets.engine import RuleCheck

    def searches(rules: list) -> list[tuple[bytes | None, bool, tuple[str, ...]]]:  # type: ignore[type-arg]
        plan = RuleCheck(RuleSet("f", tuple(rules))).plan
        return [(s.regex.pattern if s.regex is not None else None, s.lower,
                 tuple(r.id for r in s.rules)) for s in plan.scans]

    fresh, _ = eager(DEFAULT_TOML, monkeypatch)
    gl.load_file(DEFAULT_TOML)
    cached, _ = gl.load_file(DEFAULT_TOML)
    assert is_cached(cached)
    assert searches(cached) == searches(fresh)
    assert sum(not lower for _, lower, _ in searches(cached)) > 100
