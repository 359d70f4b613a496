"""Per-record cores of council-fence: a reviewer record in, the same record with
``fenced`` set out.  No argv, no stdio (the shell maps them over JSON Lines with
``map_records``)."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from council_filters import fence, verdict
from council_filters.base.errors import DataError
from council_filters.base.jsonl import Record, json_type


@dataclass(frozen=True)
class FenceOptions:
    """How the sandwich is built (see :func:`council_filters.fence.fence_stream`)."""

    variant: str = "agent"
    cli_advisory: bool = False
    bare: bool = False

    def kwargs(self) -> dict[str, Any]:
        return asdict(self)


def fence_record(rec: Record, label: str | None, field: str, options: FenceOptions) -> Record:
    """Set ``fenced`` on a reviewer record; other records are returned unchanged."""
    if rec.get("kind") != "reviewer":
        return rec
    name = label if label is not None else rec.get("reviewer")
    if not isinstance(name, str) or not fence.valid_label(name):
        raise DataError("reviewer record has no usable 'reviewer' name (or pass --label)")
    value = rec.get(field)
    if value is None:
        rec["fenced"] = None
        return rec
    if not isinstance(value, str):
        raise DataError(f"field '{field}' is {json_type(value)}, expected a string")
    body = value.encode("utf-8", "surrogatepass")
    if rec.get("ingest_token"):
        # A file reviewer's answer repeats its INGEST_TOKEN line; upstream deletes
        # such lines after redaction and before fencing, so no nonce reaches a report.
        body = verdict.strip_ingest(body)
    rec["fenced"] = fence.fence(body, name, **options.kwargs()).decode("utf-8", "replace")
    return rec
