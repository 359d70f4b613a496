"""The JSON Schemas shipped in ``council_filters/schemas/``, each read and parsed once.

The code validates with them and the tests check against them: one file per
record kind, one loader.  A loaded schema is shared: treat it as read-only.
"""

from __future__ import annotations

import functools
from importlib import resources
from typing import Any

import orjson

Schema = dict[str, Any]


@functools.cache
def load(name: str) -> Schema:
    """The schema ``<name>.schema.json`` (``finding``, ``review-state``, ``verdict``, ...)."""
    raw = (resources.files("council_filters") / "schemas" / f"{name}.schema.json").read_bytes()
    schema: Schema = orjson.loads(raw)
    return schema


def inline_refs(node: Any, defs: dict[str, Any]) -> Any:
    """``node`` with every local ``{"$ref": "#/$defs/x"}`` replaced by its target.

    Same meaning for a schema without recursive definitions, and jsonschema
    validates the result about twice as fast.
    """
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/") and len(node) == 1:
            return inline_refs(defs[ref[len("#/$defs/"):]], defs)
        return {k: inline_refs(v, defs) for k, v in node.items() if k != "$defs"}
    if isinstance(node, list):
        return [inline_refs(v, defs) for v in node]
    return node


def inlined(name: str) -> Schema:
    """The schema ``name`` with its local references inlined (see :func:`inline_refs`)."""
    full = load(name)
    out: Schema = inline_refs(full, full.get("$defs", {}))
    return out
