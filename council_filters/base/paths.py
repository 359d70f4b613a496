"""Names and paths of a council run: the slug, the report path, path validation.

Pure functions over bytes and paths; nothing here touches argv or stdio.

* :func:`build_slug` is the upstream slug rule, byte for byte (``LC_ALL=C``):
  lower-case ASCII, every byte outside ``[A-Za-z0-9-]`` becomes ``-``, runs of
  dashes collapse, one leading and one trailing dash go, the first 40 bytes
  stay, one trailing dash goes; anything that is then not
  ``^[a-z0-9]+(-[a-z0-9]+)*$`` falls back to the first 16 hex digits of the
  SHA-256 of the original bytes.
* :func:`report_path` is the collision-numbered ``docs/council/`` path that
  council-pack and council-consolidate share.
* :func:`validate_path` runs the five upstream checks in their order, with
  their reasons, and the hardened checks on top when asked.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import os
import re
from collections.abc import Iterator
from pathlib import Path

from council_filters.base.errors import DataError
from council_filters.base.vocab import DATE_RE, SLUG_RE, is_slug

# --------------------------------------------------------------------------- #
# Slug
# --------------------------------------------------------------------------- #
SLUG_MAX = 40
SLUG_SOURCE_MAX = 80  # `head -c 80` of free text before the slug rule runs
_SLUG_KEEP = frozenset(b"abcdefghijklmnopqrstuvwxyz0123456789-")
_SLUG_TABLE = bytes(
    (c + 32 if 65 <= c <= 90 else c) if (c + 32 if 65 <= c <= 90 else c) in _SLUG_KEEP else 45
    for c in range(256)
)
_DASH_RUN = re.compile(rb"-{2,}")


def build_slug(raw: bytes) -> str:
    """The report slug for ``raw`` (bytes, as the shell would see them)."""
    slug = _DASH_RUN.sub(b"-", raw.translate(_SLUG_TABLE))
    slug = slug.removeprefix(b"-").removesuffix(b"-")
    slug = slug[:SLUG_MAX].removesuffix(b"-")
    if SLUG_RE.match(slug):
        return slug.decode("ascii")
    return hashlib.sha256(raw).hexdigest()[:16]


def plan_slug_source(name: str) -> bytes:
    """Slug source for a plan document: basename without ``.md``, cut at the first dot."""
    base = os.path.basename(name.rstrip("/")) or name
    if base.endswith(".md") and base != ".md":
        base = base[: -len(".md")]
    return base.split(".", 1)[0].encode("utf-8", "surrogateescape")


def text_slug_source(text: str) -> bytes:
    """Slug source for free text: its first 80 bytes."""
    return text.encode("utf-8", "surrogateescape")[:SLUG_SOURCE_MAX]


# --------------------------------------------------------------------------- #
# Report path
# --------------------------------------------------------------------------- #
REPORT_DIR = "docs/council"
MAX_COLLISIONS = 10


def today() -> str:
    """The local date as ``YYYY-MM-DD`` (what ``date +%Y-%m-%d`` prints)."""
    return _dt.date.today().isoformat()


def check_date(date: str) -> str:
    if not DATE_RE.match(date):
        raise DataError("date must be YYYY-MM-DD")
    return date


def report_candidates(mode: str, slug: str, date: str) -> list[str]:
    """The ten repo-relative report paths, in the order they are tried.

    ``mode`` and ``slug`` must be slugs (``[a-z0-9]`` words joined by single
    dashes), so no candidate can leave ``docs/council/`` or hold a control
    character.
    """
    date = check_date(date)
    for label, value in (("mode", mode), ("slug", slug)):
        if not is_slug(value):
            raise DataError(f"{label} must be a plain name")
    stem = f"{REPORT_DIR}/{date}-{mode}-{slug}"
    return [f"{stem}.md"] + [f"{stem}-{n}.md" for n in range(2, MAX_COLLISIONS + 1)]


def report_names(mode: str, slug: str, date: str) -> Iterator[str]:
    """Every report path for ``mode``/``slug``/``date`` in the order a council run tries them:
    the ten upstream candidates, then ``-11``, ``-12``, ... without end (a run's name
    never runs out)."""
    first = report_candidates(mode, slug, date)
    yield from first
    stem = first[0][: -len(".md")]
    n = MAX_COLLISIONS + 1
    while True:
        yield f"{stem}-{n}.md"
        n += 1


def scoped_slug(name: str, scope: str) -> str:
    """A review's slug naming its scope too: ``feat-x-worktree``, ``feat-x-vs-main``."""
    return f"{build_slug(name.encode('utf-8', 'surrogateescape'))}-" + build_slug(
        scope.encode("utf-8", "surrogateescape")
    )


def collision_message(slug: str) -> str:
    """The upstream error when all ten candidates are taken."""
    return f'too many same-day collisions for slug "{slug}" (>{MAX_COLLISIONS})'


def report_path(root: str | os.PathLike[str], mode: str, slug: str, date: str | None = None) -> str:
    """The first free ``docs/council/<date>-<mode>-<slug>[-N].md`` under ``root``.

    Candidates are the bare name, then ``-2`` … ``-10``; a candidate is taken
    when it is an existing regular file (as upstream's ``[ -f ]`` tests it, so
    a directory or a dangling symlink of that name does not count as taken).
    Returns the path relative to ``root``; raises :class:`DataError` with the
    upstream message when all ten are taken.  (Writing a report is stricter:
    council-consolidate never takes a name where anything exists.)
    """
    base = Path(root)
    for rel in report_candidates(mode, slug, date if date is not None else today()):
        if not (base / rel).is_file():
            return rel
    raise DataError(collision_message(slug))


# --------------------------------------------------------------------------- #
# Path validation
# --------------------------------------------------------------------------- #
_BAD_CHAR = re.compile(r"[^a-zA-Z0-9._/-]")


class PathRefused(DataError):
    """A refused path: ``reason`` is the upstream reason, ``path`` the path as given."""

    def __init__(self, reason: str, path: str) -> None:
        self.reason = reason
        self.path = path
        shown = f": {show_path(path)}" if path else ""
        super().__init__(f"{reason}{shown}")


def show_path(path: str) -> str:
    """``path`` for a one-line message: control characters and undecodable bytes escaped."""
    out = []
    for ch in path:
        code = ord(ch)
        if 0xDC80 <= code <= 0xDCFF:  # surrogateescape'd raw byte
            out.append(f"\\x{code - 0xDC00:02x}")
        elif code < 0x20 or code == 0x7F:
            out.append({"\n": "\\n", "\t": "\\t", "\r": "\\r"}.get(ch, f"\\x{code:02x}"))
        elif ch == "\\":
            out.append("\\\\")
        else:
            out.append(ch)
    return "".join(out)


def _has_bad_char(path: str, hardened: bool) -> bool:
    # Upstream greps line by line, so a newline alone never counts as bad;
    # hardened mode looks at the whole string.
    lines = [path] if hardened else path.split("\n")
    return any(_BAD_CHAR.search(line) for line in lines)


def validate_path(path: str, root: str | os.PathLike[str] = ".", *, hardened: bool = False) -> None:
    """Raise :class:`PathRefused` unless ``path`` (relative to ``root``) passes.

    The five upstream checks, in order: empty; traversal (``..`` anywhere, or
    a leading ``/`` or ``~``); a character outside ``[a-zA-Z0-9._/-]``; not
    existing (``-e``, which follows symlinks); the final component a symlink.
    ``hardened`` adds: the character check over the whole string (so newline
    and NUL are refused), a symlink anywhere among the parents, a path that is
    not a regular file, and a real path outside ``root``.
    """
    if path == "":
        raise PathRefused("empty path", "")
    if ".." in path or path.startswith(("/", "~")):
        raise PathRefused("path traversal not allowed", path)
    if _has_bad_char(path, hardened) or (hardened and "\0" in path):
        raise PathRefused("invalid characters in path", path)
    if "\0" in path:  # cannot exist on any file system
        raise PathRefused("path not found", path)
    base = Path(root)
    full = base / path
    if not os.path.exists(full):
        raise PathRefused("path not found", path)
    if os.path.islink(full):
        raise PathRefused("symlinks not permitted", path)
    if not hardened:
        return
    parts = Path(path).parts
    for i in range(1, len(parts)):
        if os.path.islink(base.joinpath(*parts[:i])):
            raise PathRefused("symlinks not permitted", path)
    real_root = os.path.realpath(base)
    real = os.path.realpath(full)
    if os.path.commonpath([real_root, real]) != real_root:
        raise PathRefused("path resolves outside the repository", path)
    if not os.path.isfile(full):
        raise PathRefused("not a regular file", path)


def repo_path(path: str) -> str | None:
    """``path`` as a normalised repository-relative path, or None when it leaves the repository.

    Absolute paths (``/etc/shadow``, ``C:\\x``, ``\\\\host\\x``, ``~/x``, ``file:`` URIs)
    and paths whose ``..`` climb above the root are outside; ``./a//b`` is ``a/b``.
    """
    p = path.replace("\\", "/")
    if (not p or p.startswith(("/", "~")) or (len(p) > 1 and p[1] == ":")
            or "://" in p or p.lower().startswith("file:") or "\0" in p):
        return None
    first = p.split("/", 1)[0]
    if first.endswith(":") and first[:-1].replace("+", "").replace(".", "").replace(
            "-", "").isalnum():
        return None  # a URI scheme or a drive, whatever the slashes after it
    parts: list[str] = []
    for part in p.split("/"):
        if part in ("", "."):
            continue
        if part == "..":
            if not parts:
                return None
            parts.pop()
            continue
        parts.append(part)
    return "/".join(parts) or None
