"""Findings from many shard files, read and decoded on a Dask cluster.

What ``council-consolidate --scheduler`` reads with: each FILE argument may be
a local path, an fsspec URL, or a glob of either (matches in sorted order);
every shard is opened and decoded on a worker, and the records come back to
this process in argument order, each with the source name and line number
the single-process reader gives, decode errors included at the same place.
The consolidation itself (dedup, IDs, agreement) needs every finding at once
and runs here, unchanged, so the output is the single-process output.  No
argv, no stdio (stdin, `-`, is read here).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, BinaryIO

from council_filters.base import jsonl, storage
from council_filters.base.errors import CouncilError, UsageError

Item = tuple[str, int, "jsonl.Record | CouncilError"]


def expand(args: Sequence[str]) -> list[str]:
    """The shard list: globs and URL directories expanded (sorted), the rest as given."""
    out: list[str] = []
    for arg in args or ["-"]:
        if arg != "-" and (storage.is_url(arg) or storage.has_glob(arg)):
            out.extend(storage.expand(arg))
        else:
            out.append(arg)
    return out


def read_shard(location: str, keep_going: bool) -> tuple[list[Item], CouncilError | None]:
    """Every record of one shard, and the error that stopped the read (None: none did)."""
    items: list[Item] = []
    try:
        fh = storage.open_read(location)
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        return items, UsageError(f"cannot open: {reason}", source=location)
    except CouncilError as err:
        return items, err.located(location)
    try:
        with fh:
            items.extend(jsonl.iter_jsonl_stream(location, fh, keep_going=keep_going))  # type: ignore[arg-type]
    except CouncilError as err:
        return items, err
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        return items, UsageError(f"cannot read: {reason}", source=location)
    return items, None


def iter_jsonl(
    args: Sequence[str], stdin: BinaryIO, *, keep_going: bool, scheduler: str,
) -> Iterator[Item]:
    """Like ``jsonl.iter_jsonl`` over ``args``, the shards read on the cluster at ``scheduler``."""
    from council_filters.base import dask_backend

    locations = expand(args)
    with dask_backend.connect(scheduler) as backend:
        futures: dict[int, Any] = {
            i: backend.submit(read_shard, loc, keep_going)
            for i, loc in enumerate(locations) if loc != "-"
        }
        for i, loc in enumerate(locations):
            if loc == "-":
                yield from jsonl.iter_jsonl_stream(jsonl.STDIN_NAME, stdin, keep_going=keep_going)
                continue
            items, error = backend.result(futures.pop(i))
            yield from items
            if error is not None:
                for rest in futures.values():
                    rest.cancel()
                raise error
