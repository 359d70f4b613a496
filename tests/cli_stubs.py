"""What each reviewer CLI prints in its machine format, written for these tests.

Each function returns the bytes one vendor's CLI writes on stdout (shapes from
docs/council.md: field names as the CLIs use them, values made up here), so a
stub reviewer can print them and the tests can say what usage must be read.
"""

from __future__ import annotations

import shlex
import stat
from pathlib import Path

import orjson

ANSWER = "Verdict: {verdict}\nConfidence: HIGH\nFindings: none\nSummary: the change reads fine.\n"


def answer(verdict: str = "APPROVE") -> str:
    return ANSWER.format(verdict=verdict)


def _lines(*events: object) -> bytes:
    return b"".join(orjson.dumps(e) + b"\n" for e in events)


def claude_json(text: str, *, fresh: int, made: int, read: int, out: int,
                cost: float | None) -> bytes:
    doc: dict[str, object] = {
        "type": "result", "subtype": "success", "is_error": False, "duration_ms": 812,
        "num_turns": 1, "result": text, "session_id": "s-1",
        "usage": {"input_tokens": fresh, "cache_creation_input_tokens": made,
                  "cache_read_input_tokens": read, "output_tokens": out},
    }
    if cost is not None:
        doc["total_cost_usd"] = cost
    return orjson.dumps(doc) + b"\n"


def claude_verbose(text: str, *, fresh: int, out: int, cost: float) -> bytes:
    """``--verbose`` json: an array of messages, the result last."""
    return orjson.dumps([
        {"type": "system", "subtype": "init", "session_id": "s-2"},
        {"type": "assistant", "message": {"content": [{"type": "text", "text": text}],
                                          "usage": {"input_tokens": 1, "output_tokens": 1}}},
        {"type": "result", "subtype": "success", "is_error": False, "result": text,
         "usage": {"input_tokens": fresh, "output_tokens": out}, "total_cost_usd": cost},
    ]) + b"\n"


def claude_stream(text: str, *, fresh: int, out: int, model_cost: float) -> bytes:
    """``stream-json``: events, the result line last, cost only per model."""
    return _lines(
        {"type": "system", "subtype": "init", "session_id": "s-3"},
        {"type": "assistant", "message": {"content": [{"type": "text", "text": text}]}},
        {"type": "result", "subtype": "success", "result": text,
         "usage": {"input_tokens": fresh, "output_tokens": out},
         "modelUsage": {"m-a": {"inputTokens": fresh, "outputTokens": out,
                                "costUSD": model_cost}}},
    )


def codex_json(text: str, *, inp: int, cached: int, out: int) -> bytes:
    return _lines(
        {"type": "thread.started", "thread_id": "t-1"},
        {"type": "turn.started"},
        {"type": "item.completed", "item": {"id": "item_0", "type": "reasoning",
                                            "text": "**Reading the diff**"}},
        {"type": "item.completed", "item": {"id": "item_1", "type": "agent_message",
                                            "text": text}},
        {"type": "turn.completed", "usage": {"input_tokens": inp,
                                             "cached_input_tokens": cached,
                                             "output_tokens": out}},
    )


def gemini_json(text: str, models: dict[str, dict[str, int]]) -> bytes:
    stats = {name: {"api": {"totalRequests": 1, "totalErrors": 0},
                    "tokens": tokens} for name, tokens in models.items()}
    doc = {"session_id": "g-1", "response": text,
           "stats": {"models": stats, "tools": {"totalCalls": 0},
                     "files": {"totalLinesAdded": 0, "totalLinesRemoved": 0}}}
    # Pretty-printed, after a stray notice line, as some builds print it.
    return b"Loaded cached credentials.\n" + orjson.dumps(doc, option=orjson.OPT_INDENT_2) + b"\n"


def gemini_stream(text: str, *, inp: int, out: int) -> bytes:
    return _lines(
        {"type": "init", "timestamp": "2026-01-01T00:00:00Z", "session_id": "g-2"},
        {"type": "message", "role": "assistant", "content": text, "delta": True},
        {"type": "result", "status": "success",
         "stats": {"total_tokens": inp + out, "input_tokens": inp, "output_tokens": out}},
    )


def opencode_json(text: str, steps: list[tuple[int, int, int, int, int, float]]) -> bytes:
    """One ``step_finish`` per (input, output, reasoning, cache read, cache write, cost)."""
    events: list[object] = [{"type": "step_start", "timestamp": 1, "sessionID": "o-1",
                             "part": {"type": "step-start"}}]
    for i, (inp, out, reasoning, read, write, cost) in enumerate(steps):
        last = i == len(steps) - 1
        if last:
            events.append({"type": "text", "timestamp": 2, "sessionID": "o-1",
                           "part": {"type": "text", "text": text}})
        events.append({"type": "step_finish", "timestamp": 3, "sessionID": "o-1",
                       "part": {"type": "step-finish", "reason": "stop" if last else "tool-calls",
                                "cost": cost,
                                "tokens": {"input": inp, "output": out, "reasoning": reasoning,
                                           "cache": {"read": read, "write": write}}}})
    return _lines(*events)


def aider_text(text: str, *, turns: list[tuple[str, str]], session: str) -> bytes:
    """Aider's banner, the reply and one usage line per (sent, received) turn."""
    out = ["Aider v0.86.0", "Main model: some-model with diff edit format", "Git repo: none",
           "", text]
    for i, (sent, received) in enumerate(turns):
        out.append(f"Tokens: {sent} sent, {received} received. Cost: $0.01 message,"
                   f" ${session if i == len(turns) - 1 else '0.01'} session.")
    return ("\n".join(out) + "\n").encode()


def write_stub(directory: Path, name: str, stdout: bytes, *, stderr: bytes = b"",
               capture: Path | None = None, counter: Path | None = None,
               exit_code: int = 0) -> Path:
    """An executable that reads its stdin (kept in ``capture``), adds a line to ``counter``
    each time it starts, and prints ``stdout``/``stderr``."""
    directory.mkdir(parents=True, exist_ok=True)
    out_file = directory / f"{name}.stdout"
    err_file = directory / f"{name}.stderr"
    out_file.write_bytes(stdout)
    err_file.write_bytes(stderr)
    script = directory / name
    lines = ["#!/bin/sh"]
    lines.append(f"cat > {shlex.quote(str(capture))}" if capture else "cat > /dev/null")
    if counter is not None:
        lines.append(f"echo started >> {shlex.quote(str(counter))}")
    lines += [f"cat {shlex.quote(str(out_file))}", f"cat {shlex.quote(str(err_file))} >&2",
              f"exit {exit_code}"]
    script.write_text("\n".join(lines) + "\n")
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return script


def starts(counter: Path) -> int:
    """How many times the stub started."""
    return len(counter.read_text().splitlines()) if counter.exists() else 0
