"""council-parse-verdict's core: a reviewer's answer in, verdict fields out.

- :mod:`.layers`         Layer 1 (the Verdict/Confidence/Findings/Summary lines) and
  Layer 2 (the 6-key return), byte for byte as upstream, or hardened;
- :mod:`.claude`         the claude-only integrity branch of Layer 2 (decisions);
- :mod:`.fenced_file`    that branch's file work (restrict, redact in place, fail closed);
- :mod:`.findings_block` structured findings from a findings block; the record fields;
- :mod:`.reviewer_json`  JSON reviewer replies checked against the stage schemas.

The names below are the package's public API, re-exported from the modules.
"""

from __future__ import annotations

from council_filters.verdict.claude import (
    CLAUDE_FENCE_BEGIN,
    CLAUDE_FENCE_END,
    CLAUDE_FOREIGN_PATH,
    CLAUDE_NO_PATH,
    CLAUDE_UNCORROBORATED,
    CLAUDE_UNREADABLE,
    CLAUDE_UNSANITIZED,
    ClaudeFenced,
    Sanitized,
    claude_integrity,
    claude_path_branch,
    corroborate,
    parse_claude_fenced,
    shown,
)
from council_filters.verdict.findings_block import (
    failed_fields,
    structured_findings,
    verdict_fields,
)
from council_filters.verdict.layers import (
    BEGIN,
    CONFIDENCE_CAP,
    END,
    FAILED_STATUSES,
    FALLBACK_CAP,
    FALLBACK_HEAD,
    FINDINGS_MAX_BYTES,
    FINDINGS_MAX_LINES,
    NO_VERDICT_WARNING,
    SUMMARY_CAP,
    TRUNCATED_MARKER,
    VERDICT_CAP,
    Layer1,
    Layer2,
    cap_findings,
    capture_findings,
    coerce_confidence,
    coerce_layer2,
    escape_sentinels,
    extract_layer2,
    fallback_summary,
    first_field,
    head,
    layer2_return,
    parse_layer1,
    parse_layer2,
    strip_ingest,
    text,
)

__all__ = [
    "BEGIN",
    "CLAUDE_FENCE_BEGIN",
    "CLAUDE_FENCE_END",
    "CLAUDE_FOREIGN_PATH",
    "CLAUDE_NO_PATH",
    "CLAUDE_UNCORROBORATED",
    "CLAUDE_UNREADABLE",
    "CLAUDE_UNSANITIZED",
    "CONFIDENCE_CAP",
    "ClaudeFenced",
    "END",
    "FAILED_STATUSES",
    "FALLBACK_CAP",
    "FALLBACK_HEAD",
    "FINDINGS_MAX_BYTES",
    "FINDINGS_MAX_LINES",
    "Layer1",
    "Layer2",
    "NO_VERDICT_WARNING",
    "SUMMARY_CAP",
    "Sanitized",
    "TRUNCATED_MARKER",
    "VERDICT_CAP",
    "cap_findings",
    "capture_findings",
    "claude_integrity",
    "claude_path_branch",
    "coerce_confidence",
    "coerce_layer2",
    "corroborate",
    "escape_sentinels",
    "extract_layer2",
    "failed_fields",
    "fallback_summary",
    "first_field",
    "head",
    "layer2_return",
    "parse_claude_fenced",
    "parse_layer1",
    "parse_layer2",
    "shown",
    "strip_ingest",
    "structured_findings",
    "text",
    "verdict_fields",
]
