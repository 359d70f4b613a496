"""Usage and cost read from each reviewer CLI's own machine format; the pack estimate."""

from __future__ import annotations

import pytest

from council_filters.dispatch import usage

import cli_stubs as cs

TEXT = cs.answer("REVISE")

CASES = [
    # (name, stdout, stderr, expected (input, output, cost, source))
    ("claude json", cs.claude_json(TEXT, fresh=7, made=300, read=2000, out=55, cost=0.0421),
     b"", (2307, 55, 0.0421, "claude-json")),
    ("claude json without a cost", cs.claude_json(TEXT, fresh=9, made=0, read=0, out=3,
                                                  cost=None),
     b"", (9, 3, None, "claude-json")),
    ("claude verbose array", cs.claude_verbose(TEXT, fresh=120, out=30, cost=0.5),
     b"", (120, 30, 0.5, "claude-json")),
    ("claude stream-json, cost per model", cs.claude_stream(TEXT, fresh=40, out=4,
                                                            model_cost=0.002),
     b"", (40, 4, 0.002, "claude-json")),
    ("codex --json", cs.codex_json(TEXT, inp=24000, cached=20000, out=310),
     b"", (24000, 310, None, "codex-json")),
    ("gemini json, two models summed",
     cs.gemini_json(TEXT, {"pro": {"input": 100, "prompt": 600, "candidates": 80,
                                   "cached": 500, "thoughts": 20, "total": 700},
                           "flash": {"input": 10, "cached": 5, "candidates": 1}}),
     b"", (615, 101, None, "gemini-json")),
    ("gemini stream-json", cs.gemini_stream(TEXT, inp=5200, out=300),
     b"", (5200, 300, None, "gemini-stream-json")),
    ("opencode steps summed",
     cs.opencode_json(TEXT, [(1000, 10, 5, 200, 0, 0.01), (1500, 90, 0, 0, 50, 0.02)]),
     b"", (2750, 105, 0.03, "opencode-json")),
    ("aider text, k counts and the session cost",
     cs.aider_text(TEXT, turns=[("1.2k", "150"), ("12k", "2.5k")], session="0.07"),
     b"", (13200, 2650, 0.07, "aider-text")),
    ("aider lines on stderr", b"", cs.aider_text(TEXT, turns=[("900", "12")], session="0.003"),
     (900, 12, 0.003, "aider-text")),
]


@pytest.mark.parametrize(("stdout", "stderr", "expected"),
                         [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_each_vendor_shape(stdout: bytes, stderr: bytes, expected: tuple) -> None:
    got = usage.read(stdout, stderr)
    assert got is not None
    inp, out, cost, source = expected
    assert got["input_tokens"] == inp
    assert got["output_tokens"] == out
    assert got["source"] == source
    if cost is None:
        assert got["cost_usd"] is None
    else:
        assert got["cost_usd"] == pytest.approx(cost)


@pytest.mark.parametrize("stdout", [
    b"",
    TEXT.encode(),  # plain text: no usage
    b'{"type":"result","result":"x"}\n',  # a result without usage or cost
    b'{"type":"turn.completed"}\n',  # no usage object
    b'{"type":"result","usage":{"input_tokens":-5,"output_tokens":true}}\n',  # nonsense values
    b"tokens used\n12,345\n",  # codex's plain trailer: a blended total, not a split
    b"Tokens: lots sent, some received.\n",  # not aider's numbers
    b'[1, 2, 3]\n',
    b'{"response":"x","stats":{"tools":{}}}\n',  # gemini without models
])
def test_no_usage_is_none(stdout: bytes) -> None:
    assert usage.read(stdout) is None


def test_answer_text_is_not_read_for_usage() -> None:
    # A reviewer quoting a usage line inside its JSON answer does not set its usage.
    quoted = cs.claude_json("Tokens: 9k sent, 9k received. Cost: $9.00 message, $9.00 session.",
                            fresh=1, made=0, read=0, out=2, cost=0.001)
    got = usage.read(quoted)
    assert got == {"input_tokens": 1, "output_tokens": 2, "cost_usd": 0.001,
                   "source": "claude-json"}


def test_terminal_escapes_around_aider_lines() -> None:
    raw = (b"\x1b[32mTokens: 2k sent, 10 received.\x1b[0m"
           b" \x1b[1mCost: $0.02 message, $0.02 session.\x1b[0m\n")
    assert usage.read(raw) == {"input_tokens": 2000, "output_tokens": 10, "cost_usd": 0.02,
                               "source": "aider-text"}


@pytest.mark.parametrize(("text", "tokens"), [
    ("", 0), ("a", 1), ("abcd", 1), ("abcde", 2), ("é" * 2, 1), ("€", 1), ("x" * 4001, 1001),
])
def test_pack_estimate_is_utf8_bytes_over_four_rounded_up(text: str, tokens: int) -> None:
    assert usage.estimate_tokens(text) == tokens
    assert usage.estimate_tokens(text.encode()) == tokens
