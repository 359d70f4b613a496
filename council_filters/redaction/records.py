"""Redaction of records and rule-set plumbing: the cores behind council-redact.

Per-record redaction (every string value of a JSON Lines record, nested ones
included), the redactor a rule set asks for, and the --check report.  Imports
stay lazy: the plain text form starts without the rule sets or the JSON kit.
"""

from __future__ import annotations

import os

from council_filters.base.tuples import NamedTuple
from council_filters.redaction.machine import Redactor, redact_text
from council_filters.redaction.patterns import PATTERN_NAMES

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections import Counter
    from collections.abc import Callable
    from typing import Any, TextIO

    from council_filters.redaction.batch import Summary
    from council_filters.redaction.secrets import RuleSet

#: The fields --jsonl always reports in ``redacted_lines`` (and that must be strings).
DEFAULT_FIELDS = ("output", "stderr")


def make_redactor(rules: RuleSet | None, *, count: bool = False) -> Redactor:
    """The line redactor for ``rules`` (None: the eleven patterns)."""
    if rules is None:
        return Redactor(count=count)
    from council_filters.redaction import secrets

    return secrets.make_redactor(rules, count=count)


def name_input(r: Redactor, rules: RuleSet | None, path: str | None) -> None:
    """Rules may look at the input's name (a FILE argument; stdin has none)."""
    if rules is not None:
        from council_filters.redaction.secrets import set_input

        set_input(r, path)


def load_rules(spec: str | None) -> RuleSet | None:
    """The rule set --rules names (None: the default, byte for byte)."""
    if spec is None:
        return None
    from council_filters.redaction import secrets

    return secrets.load_rules(spec)


def redact_record(
    record: dict[str, Any],
    fields: tuple[str, ...] | None,
    source: str,
    lineno: int,
    counts: Counter[str] | None = None,
    rules: RuleSet | None = None,
    shape: bool = False,
) -> dict[str, Any]:
    """Redact the string values of one record, each on its own.

    ``shape`` (named ``fields`` only): the values keep their shape -- only a
    credential's span becomes a typed placeholder (see
    :mod:`council_filters.redaction.shape`), and the record's own
    ``INGEST_TOKEN: <ingest_token>`` line is never touched.

    ``fields`` None (the default) redacts every string value, nested ones
    included, so no stage order lets a credential through; ``output`` and
    ``stderr`` must be strings when present.  Named ``fields`` redact only
    those top-level values (each must be a string).

    Sets ``redacted_lines`` to ``{path: [1-based replaced lines]}``: the named
    fields (or ``output``/``stderr``) always, with an empty list when nothing
    was replaced; any other value only when something was.  A nested value's
    path is its keys and indexes joined by ``/`` (JSON Pointer escaping, no
    leading slash): ``findings/0/summary``.
    """
    from council_filters.base.errors import DataError
    from council_filters.base.jsonl import json_type

    replaced: dict[str, list[int]] = {}
    named = DEFAULT_FIELDS if fields is None else fields
    for name in named:
        if name in record and not isinstance(record[name], str):
            raise DataError(
                f"field {name!r} is {json_type(record[name])}, expected a string",
                source=source, line=lineno,
            )
    if shape and fields is not None:
        return _redact_shaped(record, fields, rules)
    for key in list(record):
        if key == "redacted_lines" or (fields is not None and key not in fields):
            continue
        record[key] = _redact_value(
            record[key], _pointer(key), key in named, replaced, counts, rules
        )
    record["redacted_lines"] = {
        **{name: replaced.pop(name) for name in named if name in replaced},
        **replaced,
    }
    return record


def _redact_shaped(
    record: dict[str, Any], fields: tuple[str, ...], rules: RuleSet | None
) -> dict[str, Any]:
    from council_filters.base.vocab import INGEST_PREFIX
    from council_filters.redaction.shape import redact_shape

    token = record.get("ingest_token")
    token_line = (INGEST_PREFIX + token).encode() if isinstance(token, str) and token else None

    def keep(line: bytes) -> bool:
        return token_line is not None and line.rstrip(b"\r") == token_line

    replaced: dict[str, list[int]] = {}
    for name in fields:
        if name in record:
            out, lines = redact_shape(record[name].encode(), rules, keep)
            replaced[_pointer(name)] = lines
            if lines:
                record[name] = out.decode()
    record["redacted_lines"] = replaced
    return record


def _pointer(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


def _redact_value(
    value: Any, path: str, always: bool, replaced: dict[str, list[int]],
    counts: Counter[str] | None, rules: RuleSet | None,
) -> Any:
    """``value`` with every string in it redacted (nesting is bounded by the reader)."""
    if isinstance(value, str):
        if rules is None:
            out, lines = redact_text(value.encode(), counts)
        else:
            from council_filters.redaction.secrets import redact_value

            out, lines = redact_value(value.encode(), rules, counts)
        if lines or always:
            replaced[path] = lines
        return out.decode() if lines else value
    if isinstance(value, dict):
        return {k: _redact_value(v, f"{path}/{_pointer(k)}", False, replaced, counts, rules)
                for k, v in value.items()}
    if isinstance(value, list):
        return [_redact_value(v, f"{path}/{i}", False, replaced, counts, rules)
                for i, v in enumerate(value)]
    return value


def shown_name(name: str) -> str:
    """An input's name as a message shows it: control characters escaped, at most 300."""
    out = "".join(c if c.isprintable() else repr(c)[1:-1] for c in name)
    return out if len(out) <= 300 else out[:297] + "..."


def hit_lines(name: str, hits: list[tuple[int, str]]) -> list[str]:
    """``NAME:LINE: RULE`` for each redacted line of one input (never its text), in line
    order; a run of lines one rule replaced together (a key block) is one entry
    ``NAME:FIRST: RULE (lines FIRST-LAST)``."""
    out: list[str] = []
    shown = shown_name(name)
    i = 0
    while i < len(hits):
        line, rule = hits[i]
        j = i
        while j + 1 < len(hits) and hits[j + 1] == (hits[j][0] + 1, rule):
            j += 1
        span = f" (lines {line}-{hits[j][0]})" if j > i else ""
        out.append(f"{shown}:{line}: {rule}{span}")
        i = j + 1
    return out


def check_report(counts: Counter[str], rules: RuleSet | None = None) -> list[str]:
    """The --check lines: one per pattern or rule id that fired (table order), then the total."""

    def lines(n: int) -> str:
        return f"{n} line{'' if n == 1 else 's'}"

    order = list(dict.fromkeys(PATTERN_NAMES + (rules.ids if rules is not None else ())))
    order += sorted(set(counts) - set(order))
    report = [f"{name}: {lines(counts[name])}" for name in order if counts[name]]
    report.append(f"{lines(sum(counts.values()))} would be redacted")
    return report


class BatchOptions(NamedTuple):
    out_dir: str | None = None
    jobs: int | None = None
    scheduler: str | None = None
    manifest: str | None = None
    retries: int = 2
    base: str | None = None
    files_from: str | None = None

    @property
    def asked(self) -> list[str]:
        """The batch options given, as their flags (for usage messages)."""
        return [flag for flag, value in (
            ("--jobs", self.jobs), ("--scheduler", self.scheduler),
            ("--manifest", self.manifest), ("--base", self.base),
            ("--files-from", self.files_from), ("--retries", None if self.retries == 2 else 1),
        ) if value is not None]


def run_batch(
    paths: list[str], opts: BatchOptions, rules: RuleSet | None, *,
    warn: Callable[[str], None], progress: TextIO | None,
) -> tuple[str, Summary]:
    """--out-dir over checked options: every input on its own into DIR, with a
    manifest. Returns the manifest's location and the run's summary."""
    from council_filters.base import storage
    from council_filters.redaction import batch

    assert opts.out_dir is not None
    jobs = opts.jobs if opts.jobs else (os.cpu_count() or 1) if opts.jobs == 0 else 1
    if opts.scheduler == "local" and opts.jobs is None:
        jobs = 0  # the LocalCluster: one worker per core
    manifest_at = opts.manifest or storage.join(opts.out_dir, batch.MANIFEST_NAME)
    tasks = batch.plan(paths, opts.out_dir, base=opts.base, manifest=manifest_at,
                       skipped=lambda path, why: warn(f"{path}: {why}"))
    with batch.open_backend(jobs, opts.scheduler) as backend:
        batch.check_memory_urls([*paths, opts.out_dir, manifest_at], backend)
        manifest = batch.Manifest(manifest_at)
        manifest.load()
        if manifest.unreadable_lines:
            n = manifest.unreadable_lines
            warn(f"{manifest_at}: {n} unreadable manifest line{'s' if n != 1 else ''} "
                 "ignored (their files are redone)")
        manifest.open_log()
        try:
            summary = batch.run(
                tasks, backend, manifest, rules=rules, retries=opts.retries, progress=progress,
            )
        finally:
            manifest.finish([t.input for t in tasks])
    return manifest_at, summary
