"""The one redaction for what the project writes from repository text or tool output.

Report snippets read from the reviewed files, council-tests' failure evidence,
a reviewer's stderr in a summary, quoted reviewer output: each goes through
the extended credential rules when this install has them (the rules
council-scan reports with, so a ``postgres://user:PASSWORD@host`` line or a
Slack webhook it flagged never appears in clear next to the finding), else
through the eleven patterns.  ``council-redact``'s own default stays the
byte-identical upstream one; this is for what the project shows.
"""

from __future__ import annotations

import importlib.util
from collections import Counter
from functools import lru_cache
from typing import Any

from council_filters.redaction import machine as redaction


@lru_cache(maxsize=1)
def _rules() -> Any:
    if importlib.util.find_spec("council_filters.redaction.secrets") is None:
        return None
    from council_filters.redaction import secrets

    return secrets.extended()


def redact(data: bytes, counts: Counter[str] | None = None) -> tuple[bytes, list[int]]:
    """``data`` redacted on its own (fresh state, lines from 1) with the widest rules
    installed; the redacted bytes and the numbers of the lines replaced."""
    rules = _rules()
    if rules is None:
        return redaction.redact_text(data, counts)
    from council_filters.redaction import secrets

    return secrets.redact_value(data, rules, counts)


def redact_str(text: str) -> str:
    """:func:`redact` over text (undecodable bytes replaced)."""
    return redact(text.encode("utf-8", "replace"))[0].decode("utf-8", "replace")


def redact_shaped(data: bytes) -> tuple[bytes, list[int]]:
    """:func:`redact` keeping the text's shape (only each credential's span replaced, as
    the council's pack is redacted), for text a reviewer's quote is checked against."""
    from council_filters.redaction.shape import redact_shape

    return redact_shape(data, _rules())
