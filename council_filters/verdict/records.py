"""council-parse-verdict's per-record core: a reviewer record in, the same record with
the verdict fields set out (``map_records`` applies it over JSON Lines)."""

from __future__ import annotations

from dataclasses import dataclass

from council_filters.base.errors import DataError
from council_filters.base.jsonl import Record, json_type
from council_filters.base.vocab import FAILED, has_control
from council_filters.verdict import reading
from council_filters.verdict.findings_block import failed_fields, verdict_fields
from council_filters.verdict.layers import Layer1, coerce_confidence, parse_layer1, parse_layer2


@dataclass(frozen=True)
class ParseOptions:
    """How a record is read: whose answer, in which field, which rules."""

    reviewer: str | None = None  # overrides the record's own 'reviewer'
    field: str = "output"
    hardened: bool = False
    from_layer2: bool = False
    tolerant: bool = False  # read what models write (the default); False: upstream's Layer 1
    root: str | None = None  # the reviewed repository: absolute paths under it become relative


def layer1_of(
    data: bytes, origin: str, hardened: bool, tolerant: bool, root: str | None = None,
) -> tuple[Layer1, list[Record] | None]:
    """The Layer-1 result and, when read tolerantly, its structured findings."""
    if tolerant:
        return reading.layer1(data, origin, root)
    return parse_layer1(data, hardened=hardened), None


def parse_record(rec: Record, options: ParseOptions) -> tuple[Record, list[str]]:
    """A reviewer record with the verdict fields set, and its warnings; other records unchanged."""
    if rec.get("kind") != "reviewer":
        return rec, []
    field, hardened = options.field, options.hardened
    name = options.reviewer if options.reviewer is not None else rec.get("reviewer")
    if not isinstance(name, str) or not name:
        raise DataError("reviewer record has no 'reviewer' name (or pass --reviewer)")
    if has_control(name):
        raise DataError("reviewer record's 'reviewer' holds a control character")
    status = rec.get("status", "OK")
    if status in FAILED:
        rec.update(failed_fields(status, name, rec.get("exit_code")))
        return rec, []
    if status not in ("OK", None):
        raise DataError("unknown status: expected OK, TIMEOUT, ERROR or UNAVAILABLE")
    value = rec.get(field)
    if value is None:
        value = ""
    if not isinstance(value, str):
        raise DataError(f"field '{field}' is {json_type(value)}, expected a string")
    data = value.encode("utf-8", "surrogatepass")
    if options.from_layer2:
        l2 = parse_layer2(data, hardened=hardened)
        fields = verdict_fields(
            l2.verdict, l2.confidence, l2.summary, l2.findings, l2.warnings, name)
    else:
        l1, structured = layer1_of(data, name, hardened, options.tolerant, options.root)
        fields = verdict_fields(
            l1.verdict, coerce_confidence(l1.confidence), l1.summary, l1.findings,
            l1.warnings, name, structured)
    rec.update(fields)
    return rec, fields["warnings"]
