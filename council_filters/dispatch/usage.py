"""What a reviewer's run used, as its CLI reported it, and the pack's size in tokens.

A pure core over the bytes a reviewer command printed.  :func:`read` finds
the usage a CLI reports in its own machine format and returns one mapping,
``{"input_tokens", "output_tokens", "cost_usd", "source"}`` (a value the CLI
did not report is None), or None when the output carries no usage at all.
It never reads the answer text.

Shapes read (documented in docs/council.md):

* ``claude-json``: one ``{"type":"result"}`` object (``-p --output-format
  json``), a JSON array of messages whose last ``result`` counts (verbose
  mode, Qwen Code), or the ``result`` line of a ``stream-json`` stream:
  ``usage`` and ``total_cost_usd`` (older builds: ``total_cost``,
  ``cost_usd``; else the sum of ``modelUsage.*.costUSD``);
* ``codex-json``: ``codex exec --json`` events, the last ``turn.completed``
  ``usage`` (no cost);
* ``gemini-json``: the ``--output-format json`` object, ``stats.models.*.tokens``
  summed over models; ``gemini-stream-json``: the ``result`` event's ``stats``
  (no cost);
* ``opencode-json``: ``step_finish`` events, ``part.tokens`` and ``part.cost``
  summed over steps;
* ``aider-text``: the ``Tokens: … sent, … received.`` lines summed and the
  last ``Cost: $X message, $Y session.`` line's session cost.

Input tokens count every prompt token the model read, cached ones included
(Claude's ``cache_creation_input_tokens`` and ``cache_read_input_tokens``,
OpenCode's ``cache.read``/``cache.write``; Codex's and Gemini's totals already
include them); output tokens include reasoning tokens where the CLI counts
them apart (Gemini's ``thoughts``, OpenCode's ``reasoning``).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from typing import Any

from council_filters.verdict.formats import loads, strip_controls

Usage = dict[str, Any]

#: The pack-size estimate: UTF-8 bytes per token (rounded up).
BYTES_PER_TOKEN = 4

_AIDER_TOKENS = re.compile(
    r"Tokens: ([0-9][0-9.,]*k?) sent(?:, ([0-9][0-9.,]*k?) cache write)?"
    r"(?:, ([0-9][0-9.,]*k?) cache (?:hit|read))?, ([0-9][0-9.,]*k?) received\."
)
_AIDER_COST = re.compile(r"Cost: \$([0-9][0-9.,]*) message, \$([0-9][0-9.,]*) session\.")


def estimate_tokens(text: str | bytes) -> int:
    """The token estimate of a pack: its UTF-8 size divided by 4, rounded up."""
    size = len(text.encode("utf-8", "replace")) if isinstance(text, str) else len(text)
    return -(-size // BYTES_PER_TOKEN)


# --------------------------------------------------------------------------- #
# Small readers of JSON values.
# --------------------------------------------------------------------------- #
def _int(value: object) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int) and value >= 0:
        return value
    if isinstance(value, float) and math.isfinite(value) and value >= 0:
        return int(value)
    return None


def _cost(value: object) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    cost = float(value)
    return cost if math.isfinite(cost) and cost >= 0 else None


def _sum(*values: int | None) -> int | None:
    known = [v for v in values if v is not None]
    return sum(known) if known else None


def _dict(value: object) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _usage(source: str, inp: int | None, out: int | None, cost: float | None) -> Usage | None:
    if inp is None and out is None and cost is None:
        return None
    return {"input_tokens": inp, "output_tokens": out, "cost_usd": cost, "source": source}


# --------------------------------------------------------------------------- #
# The shapes.
# --------------------------------------------------------------------------- #
def _claude(result: dict[str, Any]) -> Usage | None:
    usage = _dict(result.get("usage"))
    inp = _sum(
        _int(usage.get("input_tokens")),
        _int(usage.get("cache_creation_input_tokens")),
        _int(usage.get("cache_read_input_tokens")),
    )
    out = _int(usage.get("output_tokens"))
    cost = None
    for key in ("total_cost_usd", "total_cost", "cost_usd"):
        cost = _cost(result.get(key))
        if cost is not None:
            break
    models = _dict(result.get("modelUsage"))
    if cost is None and models:
        costs = [_cost(_dict(m).get("costUSD")) for m in models.values()]
        known = [c for c in costs if c is not None]
        cost = sum(known) if known else None
    if inp is None and out is None and models:
        per = [_dict(m) for m in models.values()]
        inp = _sum(*(
            _sum(_int(m.get("inputTokens")), _int(m.get("cacheReadInputTokens")),
                 _int(m.get("cacheCreationInputTokens")))
            for m in per
        ))
        out = _sum(*(_int(m.get("outputTokens")) for m in per))
    return _usage("claude-json", inp, out, cost)


def _gemini(stats: dict[str, Any]) -> Usage | None:
    models = _dict(stats.get("models"))
    inp_all: list[int | None] = []
    out_all: list[int | None] = []
    for model in models.values():
        tokens = _dict(_dict(model).get("tokens"))
        prompt = _int(tokens.get("prompt"))
        if prompt is None:
            prompt = _sum(_int(tokens.get("input")), _int(tokens.get("cached")))
        inp_all.append(prompt)
        out_all.append(_sum(_int(tokens.get("candidates")), _int(tokens.get("thoughts"))))
    return _usage("gemini-json", _sum(*inp_all), _sum(*out_all), None)


def _gemini_stream(stats: dict[str, Any]) -> Usage | None:
    return _usage("gemini-stream-json", _int(stats.get("input_tokens")),
                  _int(stats.get("output_tokens")), None)


def _whole_document(text: str) -> object:
    """The output as one JSON document (leading non-JSON lines skipped), else None."""
    m = re.search(r"^[ \t]*[\[{]", text, re.M)
    return loads(text[m.start():]) if m else None


def _from_document(doc: object) -> Usage | None:
    if isinstance(doc, list):
        results = [m for m in doc if isinstance(m, dict) and m.get("type") == "result"]
        return _claude(results[-1]) if results else None
    if not isinstance(doc, dict):
        return None
    if doc.get("type") == "result":
        stats = doc.get("stats")
        if isinstance(stats, dict) and "usage" not in doc:
            return _gemini_stream(stats)
        return _claude(doc)
    stats = doc.get("stats")
    if isinstance(stats, dict) and isinstance(stats.get("models"), dict):
        return _gemini(stats)
    return None


def _events(text: str) -> Iterator[dict[str, Any]]:
    """Every line of ``text`` that is a JSON object (other lines skipped)."""
    for line in text.split("\n"):
        event = loads(line)
        if isinstance(event, dict):
            yield event


def _from_events(text: str) -> Usage | None:
    codex: dict[str, Any] | None = None
    result: dict[str, Any] | None = None
    steps = 0
    inp: list[int | None] = []
    out: list[int | None] = []
    costs: list[float | None] = []
    for event in _events(text):
        kind = event.get("type")
        if kind == "turn.completed" and isinstance(event.get("usage"), dict):
            codex = event["usage"]
        elif kind == "result":
            result = event
        elif kind == "step_finish":
            part = _dict(event.get("part"))
            tokens = _dict(part.get("tokens"))
            cache = _dict(tokens.get("cache"))
            steps += 1
            inp.append(_sum(_int(tokens.get("input")), _int(cache.get("read")),
                            _int(cache.get("write"))))
            out.append(_sum(_int(tokens.get("output")), _int(tokens.get("reasoning"))))
            costs.append(_cost(part.get("cost")))
    if codex is not None:
        return _usage("codex-json", _int(codex.get("input_tokens")),
                      _int(codex.get("output_tokens")), None)
    if steps:
        known = [c for c in costs if c is not None]
        return _usage("opencode-json", _sum(*inp), _sum(*out), sum(known) if known else None)
    if result is not None:
        return _from_document(result)
    return None


def _aider_count(text: str | None) -> int | None:
    if text is None:
        return None
    raw = text.replace(",", "")
    scale = 1000 if raw.endswith("k") else 1
    try:
        return int(round(float(raw.rstrip("k")) * scale))
    except ValueError:
        return None


def _from_aider(text: str) -> Usage | None:
    sent: list[int | None] = []
    received: list[int | None] = []
    for m in _AIDER_TOKENS.finditer(text):
        sent.append(_sum(_aider_count(m[1]), _aider_count(m[3])))
        received.append(_aider_count(m[4]))
    costs = list(_AIDER_COST.finditer(text))
    cost = None
    if costs:
        try:
            cost = _cost(float(costs[-1][2].replace(",", "")))
        except ValueError:
            cost = None
    if not sent and cost is None:
        return None
    return _usage("aider-text", _sum(*sent), _sum(*received), cost)


def read(stdout: bytes, stderr: bytes = b"") -> Usage | None:
    """The usage the reviewer's CLI reported in ``stdout`` (aider's text lines may also be
    on ``stderr``), or None.  Terminal escapes and control characters are removed first;
    JSON is read with the verdict reader's bounded decoder."""
    text = strip_controls(stdout.decode("utf-8", "replace"))
    found = _from_document(_whole_document(text))
    if found is None:
        found = _from_events(text)
    if found is None:
        found = _from_aider(text) or _from_aider(
            strip_controls(stderr.decode("utf-8", "replace")))
    return found
