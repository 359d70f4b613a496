"""Unclosed code fences in reviewer text are escaped in one linear pass."""

from __future__ import annotations

import random
import re

import pytest

from council_filters.consolidate.render import mdquote

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})(.*)$")


def _open_fence_line_rescan(lines: list[str]) -> int | None:
    """The fixed-point definition: the last opener a full scan leaves open."""
    opener: tuple[int, str, int] | None = None
    for i, line in enumerate(lines):
        m = _FENCE.match(line)
        if not m:
            continue
        run = m.group(1)
        if opener is None:
            if run[0] == "`" and "`" in m.group(2):
                continue
            opener = (i, run[0], len(run))
        elif run[0] == opener[1] and len(run) >= opener[2] and not m.group(2).strip():
            opener = None
    return opener[0] if opener else None


def _escaped_by_rescanning(lines: list[str]) -> list[str]:
    lines = list(lines)
    while (idx := _open_fence_line_rescan(lines)) is not None:
        lines[idx] = mdquote.ESCAPED + lines[idx]
    return lines


def _escaped_in_one_pass(lines: list[str]) -> list[str]:
    lines = list(lines)
    for idx in mdquote._unclosed_openers(lines):
        lines[idx] = mdquote.ESCAPED + lines[idx]
    return lines


_PIECES = ["```", "````", "`````", "~~~", "~~~~", "~~~~~", "```py", "~~~ x", "``` `x`",
           "   ```", "    ```", "```  ", "text", "## heading", "", "<b>", "~~~~ `"]


@pytest.mark.parametrize("seed", range(300))
def test_one_pass_matches_the_rescanning_definition(seed: int) -> None:
    rng = random.Random(seed)
    lines = [rng.choice(_PIECES) for _ in range(rng.randint(0, 14))]
    assert _escaped_in_one_pass(lines) == _escaped_by_rescanning(lines)


def test_nested_unclosed_fences_are_all_escaped() -> None:
    text = "\n".join(["`" * k for k in range(9, 2, -1)] + ["## forged", "<b>"])
    body = mdquote.appendix_body(text).split("\n")
    assert body[:7] == [mdquote.ESCAPED + "`" * k for k in range(9, 2, -1)]
    assert body[7] == mdquote.ESCAPED + "## forged"  # no block left open to hide in
    assert body[8] == "&lt;b>"


def test_a_closed_block_stays_and_only_the_unclosed_opener_is_escaped() -> None:
    text = "~~~~\n```\n~~~~\n`````\n```\n## x"
    assert mdquote.appendix_body(text).split("\n") == [
        "~~~~", "```", "~~~~", mdquote.ESCAPED + "`````", mdquote.ESCAPED + "```",
        mdquote.ESCAPED + "## x"]


class _CountingPattern:
    """Stands in for the fence pattern and counts how often a line is tried."""

    def __init__(self) -> None:
        self.calls = 0

    def match(self, line: str) -> re.Match[str] | None:
        self.calls += 1
        return _FENCE.match(line)


def _fence_matches(monkeypatch: pytest.MonkeyPatch, lines: list[str]) -> int:
    counter = _CountingPattern()
    monkeypatch.setattr(mdquote, "_FENCE", counter)
    mdquote.appendix_body("\n".join(lines))
    return counter.calls


def _decreasing(n: int, char: str) -> list[str]:
    return [char * k for k in range(n + 2, 2, -1)]


def _info_openers(n: int, char: str) -> list[str]:
    return [char * 3 + "x"] * n


@pytest.mark.parametrize("family", [_decreasing, _info_openers])
@pytest.mark.parametrize("char", ["`", "~"])
def test_work_grows_linearly_with_the_number_of_unclosed_openers(
        monkeypatch: pytest.MonkeyPatch, family, char: str) -> None:
    small = _fence_matches(monkeypatch, family(200, char))
    large = _fence_matches(monkeypatch, family(800, char))
    assert small <= 3 * 200 and large <= 3 * 800  # a bounded number of tries per line
    assert large <= 4 * small + 8


def test_twenty_thousand_unclosed_openers_render(monkeypatch: pytest.MonkeyPatch) -> None:
    n = 20_000
    lines = _decreasing(600, "`") + _decreasing(600, "~")  # nothing after closes them
    lines += [("`" if i % 2 else "~") * (3 + i % 5) + "info" for i in range(n)] + ["## forged"]
    counter = _CountingPattern()
    monkeypatch.setattr(mdquote, "_FENCE", counter)
    body = mdquote.appendix_body("\n".join(lines)).split("\n")
    assert counter.calls <= 3 * len(lines)
    assert all(line.startswith(mdquote.ESCAPED) for line in body)
