"""The file operations of the claude integrity branch (everything else is in ``verdict``).

Two functions, both over the one path the run minted for claude's fenced file:

- :func:`regular` — ``lstat`` says a regular file (so not a symlink, a
  directory or missing);
- :func:`sanitize` — restrict it to ``0600``, redact it in place (a private
  temp file in the same directory, renamed over it) and return the redacted
  bytes; on any failure truncate it, remove it and return None with the
  diagnostics.

The file is opened with ``O_NOFOLLOW`` and checked again through the open
descriptor, so a symlink swapped in after :func:`regular` is refused rather
than followed.  Nothing here knows about argv or stdio.
"""

from __future__ import annotations

import contextlib
import os
import stat

from council_filters.base import safefs
from council_filters.redaction import machine as redaction
from council_filters.verdict.claude import Sanitized
from council_filters.verdict.layers import text

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)


def regular(path: bytes) -> bool:
    """True for a regular file that is not a symlink (``[ -f p ] && [ ! -L p ]``)."""
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except (OSError, ValueError):
        return False


def _truncate(name: str) -> bool:
    try:
        fd = os.open(name, os.O_WRONLY | os.O_TRUNC | _NOFOLLOW | _NONBLOCK)
    except OSError:
        return False
    os.close(fd)
    return True


def sanitize(path: bytes) -> Sanitized:
    """Restrict, redact and reinstall the fenced file; fail closed (truncate, remove)."""
    name = os.fsdecode(path)
    label = text(path)
    try:
        raw, _size = safefs.read_regular(name, restrict=0o600)
    except (OSError, ValueError):
        message = f"redaction of {label} failed \u2014 truncating"
    else:
        redacted = redaction.redact(raw)
        try:
            safefs.replace(name, redacted, mode=0o600)
        except (OSError, ValueError):
            message = f"cannot install redacted {label} \u2014 truncating"
        else:
            return Sanitized(redacted)
    messages = [message]
    if _truncate(name):
        messages.append(f"{label} truncated after a redaction failure \u2014 failing the slot")
    else:
        messages.append(f"cannot truncate {label} \u2014 RAW output may remain on disk")
    with contextlib.suppress(OSError, ValueError):
        os.unlink(name)
    return Sanitized(None, messages)
