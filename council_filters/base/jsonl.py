"""JSON Lines: inputs, one-record decoding, the writer, and the skip-or-stop loop.

Inputs are binary streams; ``-`` or no path means stdin.  Every record is
decoded inside the loop, one at a time, with its 1-based line number, so an
error names ``source:line`` and never the text.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, BinaryIO

import orjson

from council_filters.base.errors import CouncilError, DataError, UsageError

Record = dict[str, Any]

STDIN_NAME = "stdin"


def source_name(path: str) -> str:
    return STDIN_NAME if path == "-" else path


def open_inputs(paths: Sequence[str], stdin: BinaryIO) -> Iterator[tuple[str, BinaryIO]]:
    """Yield ``(source, binary stream)`` for each path, in order.

    An unreadable file is a usage error (exit 2), raised when its turn comes,
    so earlier inputs are fully processed first, as awk and cat do.
    """
    for path in paths or ["-"]:
        if path == "-":
            yield STDIN_NAME, stdin
            continue
        try:
            fh = open(path, "rb")  # noqa: SIM115 - closed below
        except OSError as exc:
            reason = exc.strerror or type(exc).__name__
            raise UsageError(f"cannot open: {reason}", source=path) from None
        with fh:
            yield path, fh


#: The longest line a line reader takes, and the most a buffering filter reads
#: in all: beyond that the input is refused as too large (exit 1), before the
#: machine runs out of memory on something like ``/dev/zero``.
MAX_LINE_BYTES = 512 << 20
MAX_INPUT_BYTES = 1 << 30


def too_large(what: str, limit: int) -> DataError:
    return DataError(f"input too large: {what} longer than {limit >> 20} MiB")


def read_all(paths: Sequence[str], stdin: BinaryIO, limit: int | None = None) -> bytes:
    """The concatenated bytes of every input (for filters that must buffer), at most ``limit``."""
    cap = MAX_INPUT_BYTES if limit is None else limit
    parts: list[bytes] = []
    total = 0
    for source, fh in open_inputs(paths, stdin):
        while True:
            chunk = fh.read(min(1 << 24, cap + 1 - total))
            if not chunk:
                break
            parts.append(chunk)
            total += len(chunk)
            if total > cap:
                raise too_large("the input is", cap).located(source)
    return b"".join(parts)


#: The deepest nesting a record may have (the record itself is level 1); it
#: leaves room under orjson's output limit for the documents that wrap records.
MAX_DEPTH = 128


def decode_record(raw: bytes, source: str, lineno: int) -> Record:
    """Decode one JSON Lines line into an object, or raise a located DataError.

    The message carries orjson's reason and the column, never the text.
    Duplicate keys: the last one wins.  Refused as bad input, so nothing is
    silently changed or fails later on output: an integer beyond 64 bits
    (orjson would round it to a float) and nesting deeper than
    :data:`MAX_DEPTH` (orjson writes at most 254 levels).
    """
    try:
        value = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        raise DataError(_decode_reason(raw, exc), source=source, line=lineno) from None
    if not isinstance(value, dict):
        raise DataError(
            f"expected a JSON object, got {json_type(value)}", source=source, line=lineno
        )
    problem = shape_problem(value, raw)
    if problem:
        raise DataError(problem, source=source, line=lineno)
    return value


def _decode_reason(raw: bytes, exc: orjson.JSONDecodeError) -> str:
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError as bad:
        return f"invalid UTF-8 at byte {bad.start + 1}"
    # orjson's wording grows between releases ("invalid literal, expected
    # 'null'"); keep its stable head so messages do not depend on the version.
    reason = exc.msg.split(",", 1)[0]
    return f"invalid JSON: {reason} at column {exc.colno}"


def shape_problem(value: Record, raw: bytes) -> str | None:
    """Why a decoded record cannot pass through unchanged (None when it can).

    One walk over the containers only (strings are not looked into), so the
    common record of a few long strings costs next to nothing.
    """
    floats = False
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            return f"nested deeper than {MAX_DEPTH} levels"
        for item in node.values() if type(node) is dict else node:
            kind = type(item)
            if kind is dict or kind is list:
                stack.append((item, depth + 1))
            elif kind is float:
                floats = True
    if floats and _LONG_DIGITS.search(raw):
        # orjson reads an integer literal beyond 64 bits as a float: look again exactly.
        try:
            json.loads(raw, parse_int=_int64)
        except ValueError:
            return "integer beyond 64 bits (write it as a string)"
    return None


_LONG_DIGITS = re.compile(rb"[0-9]{19}")  # 2**64 and -(2**63) have 20 and 19
_INT64_MIN, _UINT64_MAX = -(2**63), 2**64 - 1


def _int64(text: str) -> int:
    number = int(text)
    if not _INT64_MIN <= number <= _UINT64_MAX:
        raise ValueError(text)
    return number


def json_type(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


def iter_lines(
    stream: BinaryIO, limit: int | None = None, source: str | None = None
) -> Iterator[bytes]:
    """Lines of a binary stream, terminators kept; a line over ``limit`` bytes is refused.

    Memory is bounded by the longest line, and the longest line by
    :data:`MAX_LINE_BYTES` (a DataError "input too large" names the line).
    """
    cap = MAX_LINE_BYTES if limit is None else limit
    lineno = 0
    while True:
        line = stream.readline(cap + 1)
        if not line:
            return
        lineno += 1
        if len(line) > cap and not (len(line) == cap + 1 and line.endswith(b"\n")):
            raise too_large("a line", cap).located(source, lineno)
        yield line


Located = tuple[str, int, Record]


def iter_jsonl(
    paths: Sequence[str], stdin: BinaryIO, *, keep_going: bool = False
) -> Iterator[tuple[str, int, Record | CouncilError]]:
    """Yield ``(source, lineno, record)`` for every non-blank line of every input.

    Line numbers are 1-based and count blank lines.  Decoding happens inside
    the loop, one record at a time.  With ``keep_going`` a bad line yields its
    located :class:`DataError` in place of the record; otherwise it is raised.
    """
    for source, fh in open_inputs(paths, stdin):
        yield from iter_jsonl_stream(source, fh, keep_going=keep_going)


def iter_jsonl_stream(
    source: str, fh: BinaryIO, *, keep_going: bool = False
) -> Iterator[tuple[str, int, Record | CouncilError]]:
    """:func:`iter_jsonl` over one open stream named ``source``."""
    for lineno, raw in enumerate(iter_lines(fh, source=source), start=1):
        if not raw.strip():
            continue
        try:
            yield source, lineno, decode_record(raw, source, lineno)
        except DataError as err:
            if not keep_going:
                raise
            yield source, lineno, err


def dumps(record: Record) -> bytes:
    """Compact UTF-8 JSON, key order kept, ``\\n``-terminated."""
    return orjson.dumps(record) + b"\n"


class RecordWriter:
    """Writes records to a binary stream, one compact line each, flushed per record."""

    def __init__(self, out: BinaryIO, *, flush: bool = True) -> None:
        self.out = out
        self.flush_each = flush
        self.count = 0

    def write(self, record: Record) -> None:
        self.out.write(dumps(record))
        self.count += 1
        if self.flush_each:
            self.out.flush()

    def write_all(self, records: Iterable[Record]) -> None:
        for record in records:
            self.write(record)


def map_records(
    fn: Callable[[str, int, Record], Sequence[Record]],
    items: Iterable[tuple[str, int, Record | CouncilError]],
    write: Callable[[Record], None],
    *,
    keep_going: bool,
    error_record: Callable[[CouncilError], Record],
) -> None:
    """Skip-or-stop, decided once for every record filter.

    ``fn(source, lineno, record)`` returns the records to write for one input
    record (usually the record itself, changed), as a sequence so every error
    is raised inside the loop.  A :class:`DataError` it
    raises, or a line that did not decode, is located and then raised
    (``keep_going`` false: exit 1) or written as ``error_record(err)`` in the
    record's place, and the loop goes on.
    """
    for source, lineno, item in items:
        try:
            if isinstance(item, CouncilError):
                raise item
            outputs = fn(source, lineno, item)
        except DataError as err:
            err.located(source, lineno)
            if not keep_going:
                raise
            write(error_record(err))
            continue
        for out in outputs:
            write(out)
