"""Byte helpers every core shares: lines, the one UTF-8-safe cut, code fences."""

from __future__ import annotations

import re


def lines_of(data: bytes) -> list[bytes]:
    """Lines as awk reads them, terminators dropped: a final line without ``\\n`` still
    counts, and there is no phantom empty line after a final ``\\n``."""
    if not data:
        return []
    parts = data.split(b"\n")
    if parts[-1] == b"":
        parts.pop()
    return parts


def head_lines(data: bytes, count: int) -> list[bytes]:
    """``lines_of(data)[:count]``, without splitting what follows the ``count``-th line."""
    if count < 0:
        return lines_of(data)[:count]
    if not data or count == 0:
        return []
    parts = data.split(b"\n", count)
    if len(parts) > count or parts[-1] == b"":
        parts.pop()  # what follows the first `count` lines, or the phantom after a final \n
    return parts


def line_count(data: bytes) -> int:
    """``len(lines_of(data))``, counted without splitting."""
    return data.count(b"\n") + (not data.endswith(b"\n") if data else 0)


def _need(lead: int) -> int:
    """How many bytes the UTF-8 sequence starting with ``lead`` declares (1 if not a lead)."""
    if 0xC0 <= lead <= 0xDF:
        return 2
    if 0xE0 <= lead <= 0xEF:
        return 3
    if 0xF0 <= lead <= 0xF7:
        return 4
    return 1


def utf8_backoff(cut: bytes) -> bytes:
    """``cut`` without a trailing character that the cut split; a complete one is kept.

    The bytes after the last lead byte are looked at only in ``cut`` itself,
    so what followed the cut never matters: ``b"\\xc3\\xa9"`` stays whole even
    when the original went on with a stray continuation byte.
    """
    k = len(cut)
    while k > 0 and 0x80 <= cut[k - 1] <= 0xBF:
        k -= 1
    if k > 0 and k + _need(cut[k - 1]) - 1 > len(cut):
        return cut[: k - 1]
    return cut


def utf8_cut(data: bytes, limit: int) -> bytes:
    """The first ``limit`` bytes of ``data``, never ending inside a UTF-8 character."""
    return data if len(data) <= limit else utf8_backoff(data[:limit])


_BACKTICKS = re.compile(r"`+")


def code_fence(content: str, info: str = "") -> str:
    """``content`` in a backtick code fence longer than any backtick run inside it.

    The body ends with a newline (one is added when missing); empty content
    gives an empty body.
    """
    longest = max((len(m.group()) for m in _BACKTICKS.finditer(content)), default=0)
    bar = "`" * max(3, longest + 1)
    body = content if content.endswith("\n") or not content else content + "\n"
    return f"{bar}{info}\n{body}{bar}"
