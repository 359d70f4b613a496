"""Every rule set is linear on adversarial lines, under every prefilter engine.

The lines are built from each rule set's own literals (the words its searches
and rules cannot match without), each repeated with what may follow it (a
blank and a word, an operator, a JSON value's opening): the near misses a
backtracking search tries again from every occurrence.  Each runs at n and 4n
bytes under ``COUNCIL_PREFILTER=re`` (Python's regex module: the searches
must not backtrack there) and under the default engine; a quadratic cost
would take 16 times as long at 4n, linear code about 4.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from council_filters.redaction import prefilter
from council_filters.redaction.prefilter import required_literals
from council_filters.redaction.secrets import load_rules, redact_value

GITLEAKS_DEFAULT = str(Path(__file__).parent / "data" / "gitleaks-default.toml")
N = 4000
#: A unit whose line takes less CPU time than this at n is not timed at 4n.
FLOOR = 0.002
LIMIT = 8.0  # linear: about 4; quadratic: about 16


@contextmanager
def engine_set(name: str) -> Iterator[None]:
    """The prefilter engine ``name`` for the block (the one before restored)."""
    saved = prefilter.WANT
    prefilter.use(name)
    try:
        yield
    finally:
        prefilter.use(saved)


def literals(rules: object) -> list[bytes]:
    """The words the rule set's searches and rules hold, lower case."""
    found: set[bytes] = set()
    for _, pattern in rules.prefilter:  # type: ignore[attr-defined]
        found.update(required_literals(pattern) or ())
    for rule in rules.rules:  # type: ignore[attr-defined]
        found.update(k.lower() for k in rule.keyword_bytes)
        if isinstance(rule.regex.pattern, bytes):
            found.update(required_literals(rule.regex.pattern) or ())
    return sorted(found)


def units(word: bytes, shape: str) -> list[bytes]:
    if shape == "many lines":  # (a search that crosses the newlines of joined lines)
        return [word + b" a ", word + b"=", word + b'": "']
    return [word, word + b"a ", word + b" a ", word + b"=", word + b'": "',
            b"-" + word + b" ", word.upper() + b" a "]


def cpu(rules: object, data: bytes, runs: int = 1) -> float:
    best = float("inf")
    for _ in range(runs):
        t0 = time.process_time()
        redact_value(data, rules)  # type: ignore[arg-type]
        best = min(best, time.process_time() - t0)
    return best


def slow_units(rules: object, shape: str) -> list[tuple[bytes, float]]:
    """The units whose input costs more than LIMIT times as much at 4n as at n."""

    def build(unit: bytes, n: int) -> bytes:
        if shape == "one line":
            return unit * (n // len(unit) + 1) + b"\n"
        return (unit + b"\n") * (n // (len(unit) + 1) + 1)

    redact_value(b"warm up\n", rules)  # type: ignore[arg-type]
    slow = []
    for word in literals(rules):
        for unit in units(word, shape):
            small = cpu(rules, build(unit, N))
            if small < FLOOR:
                continue
            large = cpu(rules, build(unit, 4 * N))
            if large > LIMIT * small:  # again, the best of three each (a busy machine)
                small = min(small, cpu(rules, build(unit, N), 3))
                large = cpu(rules, build(unit, 4 * N), 3)
                if large > LIMIT * small:
                    slow.append((unit, round(large / small, 1)))
    return slow


@pytest.mark.parametrize("shape", ["one line", "many lines"])
@pytest.mark.parametrize("spec", ["extended", GITLEAKS_DEFAULT], ids=["extended", "gitleaks"])
@pytest.mark.parametrize("engine", ["re", "auto"])
def test_every_rule_set_is_linear_on_lines_of_its_own_literals(
    engine: str, spec: str, shape: str
) -> None:
    rules = load_rules(spec)
    assert rules is not None
    assert len(literals(rules)) > 100  # the check covers the set, not a few words
    with engine_set(engine):
        assert slow_units(rules, shape) == []


def test_the_re_engine_runs_a_gap_between_two_words_in_linear_time() -> None:
    """``-u a`` repeated: the login search's ``[^\\n]*`` before ``-p`` is tried
    from every ``-u`` by a backtracking engine (seconds at 100 KB)."""
    rules = load_rules("extended")
    line = b"-u a " * 20000 + b"\n"
    with engine_set("re"):
        assert redact_value(line, rules)[0] == line  # type: ignore[arg-type]
        assert cpu(rules, line, 3) < 0.5  # (was 14 s of CPU time)


def test_a_line_of_rejected_matches_each_to_its_end_is_linear_and_redacted() -> None:
    """Every ``authorization=`` starts a match that runs to the line's end and is
    refused; trying each again would cost the square of the line, so past a
    budget the line is redacted (the redactor fails closed)."""
    rules = load_rules("extended")
    line = b"authorization=" * 3000 + b"\n"
    out = redact_value(line, rules)[0]  # type: ignore[arg-type]
    assert out.startswith(b"--- redacted credential at line 1")
    assert cpu(rules, line, 3) < 0.5
    # A few such matches stay within the budget: read as before.
    assert redact_value(b"authorization=" * 3 + b"\n", rules)[0] == b"authorization=" * 3 + b"\n"  # type: ignore[arg-type]
