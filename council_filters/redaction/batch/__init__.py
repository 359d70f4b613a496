"""Redaction over many files: one output per input, a manifest, retries, resume.

The unit of work is one file, redacted as its own stream by
:func:`council_filters.redaction.machine.redact_stream` (fresh line numbers and PEM
state, read in chunks), written under a temporary name and renamed.  Files are
sent to workers in small groups (a Dask task per file costs more than
redacting a small file); a group's files are still independent.  The runner
only needs a :class:`Backend`: in this process, local processes, or a Dask
cluster (:mod:`council_filters.base.dask_backend`).

The manifest is JSON Lines, one record per input (the last one for an input
wins), appended as files finish when it is a local file and rewritten in input
order at the end.  A rerun with the same manifest skips a file whose recorded
output still has the recorded size and sha256 and was made by the same rules.
No argv, no stdio: progress goes to a stream the caller passes.

Modules: :mod:`.planning` (tasks, output paths, the rules key), :mod:`.work`
(one file, one group), :mod:`.backends`, :mod:`.manifest`, :mod:`.progress`,
:mod:`.runner`; their public names are importable from here.
"""

from __future__ import annotations

from council_filters.base.errors import UsageError
from council_filters.redaction.batch.backends import (
    Backend,
    ProcessBackend,
    SerialBackend,
    check_memory_urls,
    open_backend,
)
from council_filters.redaction.batch.manifest import Manifest
from council_filters.redaction.batch.planning import (
    FAILED,
    GROUP_BYTES,
    GROUP_FILES,
    KIND,
    MANIFEST_NAME,
    OK,
    VERIFIED,
    FileTask,
    plan,
    relative_output,
    rules_key,
)
from council_filters.redaction.batch.progress import Progress, human_bytes, human_seconds
from council_filters.redaction.batch.runner import Summary, groups, run
from council_filters.redaction.batch.work import output_intact, per_rule, redact_file, redact_group

__all__ = [
    "Backend",
    "FAILED",
    "FileTask",
    "GROUP_BYTES",
    "GROUP_FILES",
    "KIND",
    "MANIFEST_NAME",
    "Manifest",
    "OK",
    "ProcessBackend",
    "Progress",
    "SerialBackend",
    "Summary",
    "UsageError",
    "VERIFIED",
    "check_memory_urls",
    "groups",
    "human_bytes",
    "human_seconds",
    "open_backend",
    "output_intact",
    "per_rule",
    "plan",
    "redact_file",
    "redact_group",
    "relative_output",
    "rules_key",
    "run",
]
