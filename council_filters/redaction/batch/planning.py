"""Planning a batch: which input goes where, and the key of the rules used."""

from __future__ import annotations

import hashlib
import os
import pickle
import posixpath
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from council_filters.base import storage
from council_filters.base.errors import UsageError

KIND = "redacted-file"
MANIFEST_NAME = "manifest.jsonl"
OK, FAILED, VERIFIED = "ok", "failed", "verified"
#: A group of files sent as one task: at most this many files or bytes.
GROUP_FILES = 256
GROUP_BYTES = 16 << 20


@dataclass(frozen=True)
class FileTask:
    input: str
    output: str
    size: int | None = None
    #: (bytes_out, sha256) of an output a previous run recorded as done.
    expect: tuple[int, str] | None = None


def relative_output(location: str, base: str | None = None) -> str:
    """The path an input's output takes under the output directory.

    Without ``base`` it is the input's own path with the URL scheme, leading
    ``/`` and ``.`` parts dropped (``logs/a.txt``, ``/var/log/x`` ->
    ``var/log/x``, ``s3://bucket/k`` -> ``bucket/k``); with ``base`` it is the
    path relative to ``base``.  A path that climbs out (``..``) is refused.
    """
    path = storage.url_path(location) if storage.is_url(location) else location
    path = path.replace(os.sep, "/")
    if base is not None:
        root = storage.url_path(base) if storage.is_url(base) else base
        root = root.replace(os.sep, "/")
        if not storage.is_url(location) and not storage.is_url(base):
            path = os.path.relpath(os.path.abspath(path), os.path.abspath(root))
        else:
            path = posixpath.relpath("/" + path.lstrip("/"), "/" + root.lstrip("/"))
        path = path.replace(os.sep, "/")
    parts = [p for p in path.split("/") if p not in ("", ".")]
    if not parts or ".." in parts:
        where = "outside --base" if base is not None else "above the current directory"
        raise UsageError(f"input lies {where}; give --base to say where paths start",
                         source=location)
    return "/".join(parts)


def plan(
    inputs: Iterable[str],
    out_dir: str,
    *,
    base: str | None = None,
    manifest: str | None = None,
    skipped: Callable[[str, str], None] | None = None,
) -> list[FileTask]:
    """One task per distinct input file, in order (directories and globs expanded; a
    symlink leaving its directory is skipped and reported through ``skipped``)."""
    out_local = storage.local_path(out_dir)
    out_abs = os.path.abspath(out_local) if out_local is not None else None

    def inside_out_dir(path: str) -> bool:
        if out_abs is None:
            return False
        p = os.path.abspath(path)
        return p == out_abs or p.startswith(out_abs + os.sep)

    manifest_abs = None
    if manifest is not None and storage.local_path(manifest) is not None:
        manifest_abs = os.path.abspath(storage.local_path(manifest) or "")
    tasks: list[FileTask] = []
    seen: set[str] = set()
    by_output: dict[str, str] = {}
    for given in inputs:
        for location in storage.expand(given, exclude=inside_out_dir, skipped=skipped):
            if location in seen:
                continue
            seen.add(location)
            output = storage.join(out_dir, relative_output(location, base))
            other = by_output.get(output)
            if other is not None:
                raise UsageError(f"two inputs would be written to the same output (the other is "
                                 f"{other})", source=location)
            by_output[output] = location
            local_in, local_out = storage.local_path(location), storage.local_path(output)
            if local_in is not None and local_out is not None:
                if os.path.abspath(local_in) == os.path.abspath(local_out):
                    raise UsageError("the output would overwrite its input; choose another "
                                     "--out-dir", source=location)
                if manifest_abs is not None and os.path.abspath(local_out) == manifest_abs:
                    raise UsageError("the output would overwrite the manifest", source=location)
            tasks.append(FileTask(location, output, storage.size_of(location)))
    return tasks


def rules_key(rules: object) -> str:
    """How the manifest names a rule set (a resumed run redoes files made by other rules)."""
    if rules is None:
        return "default"
    own = getattr(rules, "fingerprint", None)
    if isinstance(own, str) and own:
        return own
    return "sha256:" + hashlib.sha256(pickle.dumps(rules)).hexdigest()[:16]
