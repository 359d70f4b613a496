"""Where a deterministic reviewer's summary record goes: stdout, or a file of its own."""

from __future__ import annotations

from typing import Any

from council_filters import atomic
from council_filters.kit import RecordWriter, UsageError, dumps


def write_summary(writer: RecordWriter, path: str | None, record: dict[str, Any]) -> None:
    """The summary as the stream's last record, or atomically replacing ``path``."""
    if path is None:
        writer.write(record)
        return
    try:
        atomic.replace(path, dumps(record))
    except OSError as exc:
        raise UsageError(f"cannot write: {exc.strerror or type(exc).__name__}",
                         source=path) from None
