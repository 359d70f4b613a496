"""Rules from a file searched for by a window of their own regex (secrets/window.py).

A window must be necessary: every line a rule fires on is found by its
search, in every way a line can be written (upper case, escaped quotes,
colours, non-ASCII text around it, the non-ASCII letters RE2 folds with
``k`` and ``s``).  Redacting with windows equals redacting with keywords,
except where the keyword search missed a line the rules read without its
colours (such a line is now found).
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
import secret_corpus as sc

from council_filters.redaction import prefilter
from council_filters.redaction.secrets import RuleSet, load_rules, window
from council_filters.redaction.secrets import engine as eng
from council_filters.redaction.secrets import gitleaks as gl
from council_filters.redaction.secrets.engine import RuleCheck, redact_value

DATA = Path(__file__).resolve().parent / "data"
DEFAULT_TOML = str(DATA / "gitleaks-default.toml")

pytestmark = pytest.mark.skipif(gl._re2() is None, reason="windows serve RE2 rules only")


def variants(line: str, rng: random.Random) -> list[str]:
    half = len(line) // 2
    return [
        line,
        line.upper(),
        line.lower(),
        line.replace('"', '\\"'),
        line.replace('"', '\\\\\\"'),  # escaped twice: \\\"
        line.replace('"', "'").replace("'", "\\'"),
        "é " + line + " ü",
        "\x1b[31m" + line[:half] + "\x1b[0m" + line[half:],
        line.replace("k", "\u212a").replace("s", "\u017f"),
        line.replace("K", "\u212a", 1),
        line[rng.randrange(max(1, half)) :],
    ]


def lines() -> list[bytes]:
    rng = random.Random(11)
    out: list[str] = []
    for case in sc.secret_lines(seed=19):
        for text in case.text.splitlines():
            out += variants(text, rng)
    out += sc.benign_lines(seed=31, n=2000)
    return [t.encode("utf-8", "surrogateescape") for t in out]


def hits(check: RuleCheck, line: bytes) -> set[str]:
    """The ids of the rules the line's searches stand for."""
    pf = prefilter.get(check.prefilter)
    found = pf.candidates(line + b"\n", 0, len(line) + 1)
    if not found:
        return set()
    mask = found[0][1] >> 1
    scans = check.plan.scans
    return {r.id for k, sc_ in enumerate(scans) if mask >> k & 1 for r in sc_.rules}


def test_the_default_file_is_searched_by_windows() -> None:
    rules = load_rules(DEFAULT_TOML)
    assert rules is not None
    plan = RuleCheck(rules).plan
    windowed = [s for s in plan.scans if not s.lower]
    assert len(windowed) > 100  # most rules: their keywords are weaker than their regex
    jwt = next(s for s in windowed if any(r.id == "jwt" for r in s.rules))
    assert jwt.regex is not None and b"ey" in jwt.regex.pattern and b"{17" in jwt.regex.pattern


def test_a_window_without_a_literal_leaves_selective_keywords_to_search() -> None:
    """A window of classes only (no literal the scan can skip to) is not
    chosen over keywords that are selective themselves, and still is over
    keywords of a letter or two."""
    hexes = (rb"(?:[\x30-\x39\x61-\x66]){32}", 120.0)
    assert window.better(hexes, (b"sourcegraph", b"sgp_")) is None
    assert window.better(hexes, (b"sk",)) == hexes[0]
    assert window.better(hexes, ()) == hexes[0]
    led = (rb"sgp_(?:[\x30-\x39\x61-\x66]){32}", 150.0)
    assert window.better(led, (b"sourcegraph", b"sgp_")) == led[0]
    either = (rb"sgp_(?:[\x30-\x39\x61-\x66]){32}|(?:[\x30-\x39\x61-\x66]){40}", 120.0)
    assert window.better(either, (b"sourcegraph", b"sgp_")) is None
    rules = load_rules(DEFAULT_TOML)
    assert rules is not None
    plan = RuleCheck(rules).plan
    source = next(s for s in plan.scans if any(r.id == "sourcegraph-access-token" for r in s.rules))
    assert source.lower  # its keywords


def test_every_line_a_rule_fires_on_is_found_by_its_search() -> None:
    rules = load_rules(DEFAULT_TOML)
    assert rules is not None
    check = RuleCheck(rules)
    fired = 0
    for line in lines():
        found = hits(check, line)
        for rule in rules.rules:
            if rules.line_rule(line, [rule]) is not None:
                fired += 1
                assert rule.id in found, (rule.id, line)
    assert fired > 1000


def test_windows_redact_as_keywords_do(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = load_rules(DEFAULT_TOML)
    assert rules is not None
    data = b"\n".join(ln for ln in lines() if b"\x1b" not in ln) + b"\n"
    got = redact_value(data, rules)
    with monkeypatch.context() as m:
        m.setattr(window, "better", lambda found, words: None)
        m.setattr(eng, "_chosen_search", lambda rule, words: None)  # (a cached file's choice too)
        eng.plan_for.cache_clear()
        assert not [s for s in RuleCheck(rules).plan.scans if not s.lower]
        want = redact_value(data, rules)
    eng.plan_for.cache_clear()
    assert got == want and len(want[1]) > 1000


def test_a_line_split_by_colours_is_found() -> None:
    rules = load_rules(DEFAULT_TOML)
    assert rules is not None
    key_id = "ASIA" + "LC6SIGOCBKHJHP7N"
    line = f'\x1b[31m{{"accessKeyId": "{key_id[:2]}\x1b[0m{key_id[2:]}"}}'.encode()
    out, redacted = redact_value(b"ok\n" + line + b"\nok\n", rules)
    assert redacted == [2] and key_id[2:].encode() not in out


def rule_file(tmp_path: Path, regex: str, keywords: list[str]) -> RuleSet:
    import json

    path = tmp_path / "r.toml"
    path.write_text(f"[[rules]]\nid = \"r\"\nregex = '''{regex}'''\n"
                    f"keywords = {json.dumps(keywords)}\n")
    got = load_rules(str(path))
    assert got is not None
    return got


@pytest.mark.parametrize("subject", [
    "tok_abcd\u017fk0123456789abcdefghij",  # long s for s
    "tok_abcds\u212a0123456789abcdefghij",  # Kelvin sign for k
    "TOK_ABCDSK0123456789ABCDEFGHIJ",
])
def test_case_folding_beyond_ascii_is_searched_for(tmp_path: Path, subject: str) -> None:
    rules = rule_file(tmp_path, "(?i)tok_[a-z]{4}sk[a-z0-9]{20}", ["tok_"])
    check = RuleCheck(rules)
    assert [s for s in check.plan.scans if not s.lower]  # searched by its window
    line = f"value = {subject} # here".encode()
    assert rules.line_rule(line) == "r"
    assert "r" in hits(check, line)
    assert redact_value(line + b"\n", rules)[1] == [1]


@pytest.mark.parametrize("regex", [
    r"key_[[:alpha:]]{12}x",  # a POSIX class: read otherwise by Python's parser
    r"key_a{,3}[0-9]{12}",  # a literal brace in RE2
    r"key_[^\s]{12}[0-9]{4}",  # a negated class
])
def test_windows_stop_at_what_reads_otherwise(regex: str) -> None:
    found = window.search_window(gl.translate(regex)[0])
    if found is not None:
        assert b"[^" not in found[0] and b"{,3}" not in found[0] and b"alpha" not in found[0]


def test_escaped_quotes_are_searched_for(tmp_path: Path) -> None:
    # A quote inside the window: the rules also read the line unescaped.
    regex = r"""(?i)passcode["']?\s*[:=]\s*["']([a-z0-9]{16})["'](?:\s|,|}|$)"""
    rules = rule_file(tmp_path, regex, ["passcode"])
    check = RuleCheck(rules)
    assert any(not s.lower for s in check.plan.scans)  # searched by its window
    secret = "q7w8e9r0t1y2u3i4"
    for line in (f'"passcode": "{secret}"', f'{{\\"passcode\\": \\"{secret}\\"}}',
                 f'\\\\\\"passcode\\\\\\":\\\\\\"{secret}\\\\\\"',
                 f"'passcode' = \\'{secret}\\'"):
        data = line.encode()
        assert rules.line_rule(data) == "r", line
        assert "r" in hits(check, data), line
        assert redact_value(data + b"\n", rules)[1] == [1], line
    assert not hits(check, b"passcode is asked for at the door")


def test_flags_set_inside_a_pattern_keep_their_scope() -> None:
    assert window.scoped_flags(r"\b(SG\.(?i)[a-z]{4})x") == r"\b(SG\.(?i:[a-z]{4}))x"
    assert window.scoped_flags(r"a(?i)b|c") == r"a(?i:b)|(?i:c)"
    assert window.scoped_flags(r"(?i)a[(?i)]b") == r"(?i)a[(?i)]b"
    found = window.search_window(gl.translate(r"\b(SG\.(?i)[a-z0-9]{22}\.[a-z0-9]{43})")[0])
    assert found is not None
    rx = re.compile(found[0])
    tail = b"." + b"x1Y2" * 11
    assert rx.search(b"SG.ABCDEFGHIJKLMNOPQRSTUV" + tail)
    assert rx.search(b"SG.abcdefghijklmnopqrstuv" + tail)
    assert not rx.search(b"sg.abcdefghijklmnopqrstuv" + tail)  # the flag does not reach back


def test_alternatives_at_the_top_each_get_a_window(tmp_path: Path) -> None:
    rules = rule_file(tmp_path, r"(?i)\btok_[a-z0-9]{24}\b|\bTKN-[0-9]{20}\b", ["tok_", "tkn-"])
    check = RuleCheck(rules)
    win = next(s for s in check.plan.scans if not s.lower)
    assert win.regex is not None and b"|" in win.regex.pattern
    for line in (b"a = tok_" + b"ab12" * 6, b"x TKN-" + b"12345" * 4 + b" y"):
        assert rules.line_rule(line) == "r"
        assert "r" in hits(check, line)
    assert not hits(check, b"tok_ is a prefix and TKN- another")


def test_a_window_ends_at_the_first_copies_of_its_last_repeat() -> None:
    # One match per run of the class (Hyperscan reports every end), not one per byte.
    found = window.search_window(gl.translate(r"zz_key_[a-f0-9]{20,64}(?:\s|$)")[0])
    assert found is not None and found[0].endswith(b"{20}")
    found = window.search_window(gl.translate(r"zz_key_[a-f0-9]{20,}[ \t]{0,3}")[0])
    assert found is not None and found[0].endswith(b"{20}")


def test_generic_api_key_is_searched_for_with_its_assignment() -> None:
    rules = load_rules(DEFAULT_TOML)
    assert rules is not None
    check = RuleCheck(rules)
    scan = next(s for s in check.plan.scans if any(r.id == "generic-api-key" for r in s.rules))
    assert not scan.lower  # a window, not the bare keywords
    assert "generic-api-key" not in hits(check, b"def get_token(self, key):")
    assert "generic-api-key" not in hits(check, b"the api key is read at start")
    line = b'api_key = "Zm9vYmFyYmF6cXV4MTIzNDU2"'
    assert rules.line_rule(line) == "generic-api-key"
    assert "generic-api-key" in hits(check, line)
