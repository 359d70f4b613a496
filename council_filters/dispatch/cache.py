"""The response cache: a reviewer's answer kept under its command line, adapter and pack.

An entry is one JSON file, ``<key>.json``, in a private directory (0700,
owned by the user; files 0600), written atomically (a temporary file renamed
over the name), so two councils sharing one cache never see half an entry:
each reads a whole old entry, a whole new one, or none.  The key is the
SHA-256 of the reviewer's name, its command line as configured (before
``{pack_file}`` is filled), its adapter and the exact pack it is sent, with
the run's random ingest token taken out (so an identical pack gives the same
key in every run).

Only answers that ended OK are kept, and every string of an entry goes
through the credential redaction before it is written: the cache never holds
an unredacted byte of what a reviewer printed.
"""

from __future__ import annotations

import hashlib
import os
import stat
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import orjson

from council_filters.base import safefs
from council_filters.base.errors import UsageError
from council_filters.base.vocab import INGEST_PREFIX
from council_filters.dispatch.config import Command

#: Bumped when the key or the entry changes meaning: old entries are then never read.
VERSION = 1
#: The result fields an entry keeps (what council-dispatch adds to a record).
FIELDS = ("output", "stderr", "exit_code", "status", "duration_ms", "summary", "error_kind",
          "usage")
_KEY = frozenset("0123456789abcdef")

Redact = Callable[[dict[str, Any]], dict[str, Any]]


def key(command: Command, pack: str, token: str | None) -> str:
    """The entry's key: hex SHA-256 over the reviewer, command line, adapter and pack."""
    if token:
        pack = pack.replace(INGEST_PREFIX + token, INGEST_PREFIX)
    doc = {"v": VERSION, "reviewer": command.reviewer, "command": command.shell,
           "adapter": command.adapter, "pack": pack}
    return hashlib.sha256(orjson.dumps(doc, option=orjson.OPT_SORT_KEYS)).hexdigest()


def default_redact(entry: dict[str, Any]) -> dict[str, Any]:
    """Every string of ``entry`` through the extended rules when installed, else the
    eleven patterns (the post-dispatch redaction of a council run)."""
    from council_filters.redaction import records as redact_records

    rules = None
    try:
        rules = redact_records.load_rules("extended")
    except Exception:  # noqa: BLE001 - an install without the extended rules
        rules = None
    return redact_records.redact_record(entry, None, "cache", 0, Counter(), rules=rules)


@dataclass
class Cache:
    """One cache directory (created 0700 when missing)."""

    directory: str
    redact: Redact = default_redact

    def __post_init__(self) -> None:
        self.directory = os.path.realpath(self.directory)
        try:
            if not os.path.lexists(self.directory):
                os.makedirs(self.directory, mode=0o700, exist_ok=True)
            info = os.lstat(self.directory)
        except OSError as exc:
            raise UsageError(f"cannot use the cache directory: {exc.strerror or 'error'}",
                             source=self.directory) from None
        if not stat.S_ISDIR(info.st_mode):
            raise UsageError("the cache is not a directory", source=self.directory)
        if info.st_uid != os.getuid():
            raise UsageError("the cache directory belongs to another user",
                             source=self.directory)
        if stat.S_IMODE(info.st_mode) & 0o077:
            os.chmod(self.directory, 0o700)  # ours: make it private before anything is kept

    def path(self, entry_key: str) -> str:
        if len(entry_key) != 64 or not set(entry_key) <= _KEY:
            raise ValueError("a cache key is 64 hex digits")
        return os.path.join(self.directory, entry_key + ".json")

    def get(self, entry_key: str) -> dict[str, Any] | None:
        """The kept result fields, or None (no entry, or one that cannot be read)."""
        try:
            raw, _size = safefs.read_regular(self.path(entry_key), max_size=64 << 20)
        except (OSError, ValueError):
            return None
        try:
            entry = orjson.loads(raw)
        except orjson.JSONDecodeError:
            return None
        if not isinstance(entry, dict) or entry.get("v") != VERSION:
            return None
        fields = entry.get("fields")
        if not isinstance(fields, dict) or fields.get("status") != "OK":
            return None
        if not isinstance(fields.get("output"), str):
            return None
        return {k: fields.get(k) for k in FIELDS}

    def put(self, entry_key: str, command: Command, fields: dict[str, Any]) -> bool:
        """Keep an OK result (redacted first); False when it is not kept."""
        if fields.get("status") != "OK":
            return False
        kept = {k: fields.get(k) for k in FIELDS}
        entry = self.redact({"v": VERSION, "reviewer": command.reviewer,
                             "adapter": command.adapter, "fields": kept})
        entry.pop("redacted_lines", None)
        safefs.replace(self.path(entry_key), orjson.dumps(entry) + b"\n", mode=0o600)
        return True
