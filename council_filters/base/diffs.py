"""Unified diffs: the one parser, and the one reading of git's quoted paths.

Per file, in diff order: paths, status (added, deleted, renamed, copied,
modified), binary, the added lines with their right-side numbers, and the line
ranges the hunks show on each side (what a finding may anchor to).  Pure
functions over bytes.  Understands ``git diff`` output (renames, copies, mode
changes, binary files, quoted paths, ``\\ No newline at end of file``) and
plain ``diff -u`` output.  A hunk's body is consumed by its counts, so a
removed line reading ``-- x`` before an added ``++ y`` is never taken for a
file header, and ``+++`` header lines never count as added.  Paths come
unquoted (git's C-style ``"a/\\303\\251"``), without the ``a/``/``b/``
prefix and without a plain diff's tab-separated timestamp.

The diff is read from byte positions, as far as the caller goes (a caller
that stops after the first files never splits the rest), and a hunk's body is
cut out in one piece; a reader that needs no added-line texts
(``iter_files(diff, texts=False)``) has each well-formed hunk counted on its
bytes.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

Range = tuple[int, int]

_HUNK = re.compile(rb"^@@ -([0-9]+)(?:,([0-9]+))? \+([0-9]+)(?:,([0-9]+))? @@")
_ESCAPE = re.compile(r"\\([0-7]{3}|.)")
_SIMPLE_ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\", "a": "\a", "b": "\b",
                   "f": "\f", "r": "\r", "v": "\v"}
DEV_NULL = "/dev/null"


def unquote_path(raw: bytes | str) -> str:
    """A path as a diff header writes it, read back: git's C-style quoting undone, a plain
    diff's ``\\t<timestamp>`` dropped, the ``a/`` or ``b/`` prefix removed."""
    s = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
    s = s.rstrip("\r")
    if s.startswith('"'):
        end = _closing_quote(s)
        if end > 0:
            s = _c_unescape(s[1:end])
    elif "\t" in s:
        s = s.split("\t", 1)[0]
    if s.startswith(("a/", "b/")):
        s = s[2:]
    return s


def _closing_quote(s: str) -> int:
    i = 1
    while i < len(s):
        if s[i] == "\\":
            i += 2
            continue
        if s[i] == '"':
            return i
        i += 1
    return -1


def _c_unescape(body: str) -> str:
    out = bytearray()
    pos = 0
    for m in _ESCAPE.finditer(body):
        out += body[pos:m.start()].encode("utf-8", "replace")
        esc = m[1]
        if len(esc) == 3:
            out.append(int(esc, 8) & 0xFF)
        else:
            out += _SIMPLE_ESCAPES.get(esc, esc).encode("utf-8", "replace")
        pos = m.end()
    out += body[pos:].encode("utf-8", "replace")
    return out.decode("utf-8", "replace")


def _add(ranges: list[Range], start: int, count: int) -> None:
    if count <= 0:
        return
    end = start + count - 1
    if ranges and start <= ranges[-1][1] + 1:
        ranges[-1] = (ranges[-1][0], max(ranges[-1][1], end))
    else:
        ranges.append((start, end))


@dataclass
class FileDiff:
    path: str
    old_path: str | None = None
    status: str = "modified"  # added | deleted | renamed | copied | modified
    binary: bool = False
    added: list[tuple[int, bytes]] = field(default_factory=list)
    removed: int = 0
    added_lines: int = 0  # how many lines the hunks add (``len(added)`` when texts are read)
    new: list[Range] = field(default_factory=list)  # right-side lines the hunks show
    old: list[Range] = field(default_factory=list)  # left-side lines the hunks show
    hunks: bool = False

    @property
    def deleted(self) -> bool:
        return self.status == "deleted"

    def added_ranges(self) -> list[list[int]]:
        """Contiguous runs of added right-side line numbers, as ``[first, last]`` pairs."""
        out: list[list[int]] = []
        for number, _text in self.added:
            if out and number == out[-1][1] + 1:
                out[-1][1] = number
            else:
                out.append([number, number])
        return out

    def summary(self) -> dict[str, object]:
        return {
            "path": self.path, "status": self.status, "old_path": self.old_path,
            "binary": self.binary, "added": len(self.added), "removed": self.removed,
            "added_ranges": self.added_ranges(),
        }


def _git_header_paths(rest: bytes) -> tuple[str, str] | None:
    """The two paths of ``diff --git a/X b/Y`` (unambiguous cases only)."""
    if rest.startswith(b'"'):
        m = re.match(rb'("(?:[^"\\]|\\.)*")\s+(.*)\Z', rest)
        if m:
            return unquote_path(m[1]), unquote_path(m[2])
        return None
    if rest.endswith(b'"'):
        m = re.match(rb'(.*?)\s+("(?:[^"\\]|\\.)*")\Z', rest)
        if m:
            return unquote_path(m[1]), unquote_path(m[2])
        return None
    n = len(rest)
    if n % 2 == 1:
        left, right = rest[: n // 2], rest[n // 2 + 1:]
        if left[2:] == right[2:]:
            return unquote_path(left), unquote_path(right)
    return None


def parse(diff: bytes) -> list[FileDiff]:
    """Every file of the diff, in diff order."""
    return list(iter_files(diff))


# A line that cannot be in a hunk's body (the first byte is none of ``+ - space \``,
# and the line is not empty), found after the newline that ends the line before it.
_BODY_END = re.compile(rb"\n[^-+ \\\n]")
_BODY_FIRST = b"+- \\\n"


class _Lines:
    """The lines of a diff as :func:`council_filters.base.bytesops.lines_of` gives them,
    read from a byte position on demand: a caller that stops early never splits the rest,
    and a hunk's body is cut out in one piece (:meth:`body`)."""

    __slots__ = ("data", "pos")

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.pos = 0

    def more(self) -> bool:
        return self.pos < len(self.data)

    def peek(self) -> bytes:
        nl = self.data.find(b"\n", self.pos)
        return self.data[self.pos:] if nl < 0 else self.data[self.pos:nl]

    def take(self) -> bytes:
        data, pos = self.data, self.pos
        nl = data.find(b"\n", pos)
        if nl < 0:
            self.pos = len(data)
            return data[pos:]
        self.pos = nl + 1
        return data[pos:nl]

    def body(self) -> bytes | None:
        """The run of lines from here that a hunk's body may hold (each starts with
        ``+``, ``-``, a space or ``\\``, or is empty), as one piece without its last
        newline; None when the next line cannot be one.  The position stays: the caller
        moves on with :meth:`skip` (as far as the hunk's counts took it) or :meth:`past`."""
        data, pos = self.data, self.pos
        if pos >= len(data) or data[pos] not in _BODY_FIRST:
            return None
        m = _BODY_END.search(data, pos)
        return data[pos:m.start()] if m else data[pos:].removesuffix(b"\n")

    def past(self, run: bytes) -> None:
        """Move past the whole ``run`` (:meth:`body`)."""
        self.pos = min(self.pos + len(run) + 1, len(self.data))

    def skip(self, run: bytes, lines: list[bytes], taken: int) -> None:
        """Move past the first ``taken`` of the ``lines`` of ``run`` (:meth:`body`)."""
        if taken == len(lines):
            self.past(run)
        else:
            self.pos += sum(map(len, lines[:taken])) + taken


def _run_counts(run: bytes, old_left: int, new_left: int) -> tuple[int, int] | None:
    """``(added, removed)`` of a hunk whose counts last to the last line of ``run`` (a
    :meth:`_Lines.body`), counted on the bytes; None when they run out before it (the
    caller then reads the lines one by one)."""
    added = run.count(b"\n+") + run.startswith(b"+")
    removed = run.count(b"\n-") + run.startswith(b"-")
    notes = run.count(b"\n\\") + run.startswith(b"\\")
    context = run.count(b"\n") + 1 - added - removed - notes
    last = run.rfind(b"\n") + 1
    while run.startswith(b"\\", last):  # a note moves no count: the line before it decides
        if last == 0:
            return added, removed  # notes only: nothing counted either way
        last = run.rfind(b"\n", 0, last - 1) + 1
    tag = run[last:last + 1]
    old_left -= removed + context - (tag != b"+")  # the counts before the last line
    new_left -= added + context - (tag != b"-")
    return (added, removed) if old_left > 0 or new_left > 0 else None


def iter_files(diff: bytes, texts: bool = True) -> Iterator[FileDiff]:
    """The files of ``diff`` one by one, read only as far as the caller goes.

    ``texts=False``: the added lines' texts are not kept (``added`` stays empty,
    ``added_lines`` counts them): a well-formed hunk is then counted on its bytes,
    without a step per line.
    """
    reader = _Lines(diff)
    current: FileDiff | None = None
    while reader.more():
        line = reader.take().rstrip(b"\r")
        if line.startswith(b"diff --git "):
            if current is not None:
                yield current
            paths = _git_header_paths(line[len(b"diff --git "):])
            current = FileDiff(path=paths[1] if paths else "")
            if paths and paths[0] != paths[1]:
                current.old_path = paths[0]
            continue
        if line.startswith(b"--- ") and reader.more() and reader.peek().startswith(b"+++ "):
            old = _unquote_side(line[4:])
            new = _unquote_side(reader.take().rstrip(b"\r")[4:])
            if current is None or current.added_lines or current.removed or current.hunks:
                if current is not None:
                    yield current
                current = FileDiff(path="")
            if new is None:
                current.status = "deleted"
                current.path = current.path or (old or "")
            else:
                current.path = new
                if old is None:
                    current.status = "added"
                elif old != new and current.status == "modified":
                    current.old_path = old
            continue
        if current is None:
            continue
        if line.startswith(b"new file mode"):
            current.status = "added"
        elif line.startswith(b"deleted file mode"):
            current.status = "deleted"
        elif line.startswith(b"rename from "):
            current.status, current.old_path = "renamed", unquote_path(line[12:])
        elif line.startswith(b"rename to "):
            current.path = unquote_path(line[10:])
        elif line.startswith(b"copy from "):
            current.status, current.old_path = "copied", unquote_path(line[10:])
        elif line.startswith(b"copy to "):
            current.path = unquote_path(line[8:])
        elif line.startswith(b"Binary files ") or line == b"GIT binary patch":
            current.binary = True
        m = _HUNK.match(line)
        if m:
            current.hunks = True
            old_left = int(m[2]) if m[2] is not None else 1
            new_left = int(m[4]) if m[4] is not None else 1
            number = int(m[3])
            _add(current.old, int(m[1]), old_left)
            _add(current.new, number, new_left)
            if not (old_left > 0 or new_left > 0):
                continue
            run = reader.body()
            if run is None:
                continue
            counted = None if texts else _run_counts(run, old_left, new_left)
            if counted is not None:
                current.added_lines += counted[0]
                current.removed += counted[1]
                reader.past(run)
                continue
            lines = run.split(b"\n")
            append = current.added.append  # the body loop is the hot path: locals only
            added = removed = taken = 0
            for body in lines:
                if not (old_left > 0 or new_left > 0):
                    break
                tag = body[:1]
                if tag == b"+":
                    if texts:
                        append((number, body[1:].rstrip(b"\r")))
                    added += 1
                    number += 1
                    new_left -= 1
                elif tag == b"-":
                    removed += 1
                    old_left -= 1
                elif tag != b"\\":  # a space, or an empty line
                    number += 1
                    new_left -= 1
                    old_left -= 1
                taken += 1
            current.added_lines += added
            current.removed += removed
            reader.skip(run, lines, taken)
    if current is not None:
        yield current


def _unquote_side(raw: bytes) -> str | None:
    path = unquote_path(raw)
    return None if path == DEV_NULL else path


# --------------------------------------------------------------------------- #
# Line-by-line reading, for showing a diff with its line numbers.
# --------------------------------------------------------------------------- #
META, HUNK, ADDED, REMOVED, CONTEXT, NOTE = "meta", "hunk", "added", "removed", "context", "note"


def walk(diff: bytes) -> Iterator[tuple[str, int | None, bytes]]:
    """Every line of ``diff`` as ``(kind, new-side number, line)``, the line unchanged.

    ``kind`` is ``meta`` (headers), ``hunk`` (``@@``), ``added``, ``removed``,
    ``context`` or ``note`` (``\\ No newline at end of file``); the number is
    set for added and context lines (the line's number in the new file).  A
    hunk's body is consumed by its counts, as :func:`iter_files` reads it.  The
    diff is read only as far as the caller goes.
    """
    reader = _Lines(diff)
    while reader.more():
        line = reader.take()
        m = _HUNK.match(line)
        if not m:
            yield META, None, line
            continue
        yield HUNK, None, line
        old_left = int(m[2]) if m[2] is not None else 1
        new_left = int(m[4]) if m[4] is not None else 1
        number = int(m[3])
        run = reader.body()
        if run is None:
            continue
        lines = run.split(b"\n")
        taken = 0
        for body in lines:
            tag = body[:1]
            if old_left > 0 or new_left > 0:
                if tag == b"+":
                    yield ADDED, number, body
                    number += 1
                    new_left -= 1
                elif tag == b"-":
                    yield REMOVED, None, body
                    old_left -= 1
                elif tag == b"\\":
                    yield NOTE, None, body
                else:  # a space, or an empty line
                    yield CONTEXT, number, body
                    number += 1
                    new_left -= 1
                    old_left -= 1
            elif tag == b"\\":  # the note after a hunk's last line
                yield NOTE, None, body
            else:
                break
            taken += 1
        reader.skip(run, lines, taken)


# --------------------------------------------------------------------------- #
# Text diffs of files git would call binary.
# --------------------------------------------------------------------------- #
TEXT_SHARE = 0.95  # at least this share of a file's characters is text: it is text
NUL_SHOWN = "\u2400".encode()  # a NUL byte, shown (SYMBOL FOR NULL)
BINARY_MARK = b"# council: git calls this file binary (it holds NUL bytes); shown as text"


def mostly_text(data: bytes) -> bool:
    """True when ``data`` reads as text with a few stray bytes (a NUL or two): at least
    :data:`TEXT_SHARE` of its characters decode as UTF-8 and are no control character other
    than tab, line breaks and form feed.  An image, an archive, UTF-16 are not."""
    if not data:
        return True
    text = data.decode("utf-8", "replace")
    # The control characters are ASCII, so they are counted on the bytes (what one C-level
    # pass deletes); the replacement character on the decoded text.
    controls = len(data) - len(data.translate(None, _CONTROL_BYTES))
    bad = text.count("\ufffd") + controls
    return bad <= (1 - TEXT_SHARE) * len(text)


_CONTROL_BYTES = bytes(c for c in range(32) if chr(c) not in "\t\n\r\f\v")


def _section_paths(section: list[bytes]) -> tuple[bytes, bytes]:
    old = new = b""
    for line in section:
        if line.startswith(b"--- "):
            old = line[4:]
        elif line.startswith(b"+++ "):
            new = line[4:]
            break
    if not (old and new) and section and section[0].startswith(b"diff --git "):
        rest = section[0][len(b"diff --git "):]
        half = rest.split(b" b/", 1)
        if len(half) == 2:
            old, new = half[0], b"b/" + half[1]
    return old or b"/dev/null", new or b"/dev/null"


def text_diff(diff: bytes) -> bytes:
    """A ``git diff --text`` made safe to show: a file whose changed content is not
    :func:`mostly_text` goes back to git's ``Binary files ... differ`` line; a mostly-text
    file with NUL bytes (the one NUL a change adds to hide itself) keeps its hunks, NULs
    shown as U+2400, and gets :data:`BINARY_MARK` after its ``diff --git`` line."""
    if b"\0" not in diff and mostly_text(diff):
        return diff
    lines = diff.split(b"\n")
    sections: list[list[bytes]] = []
    for line in lines:
        if line.startswith(b"diff --git ") or not sections:
            sections.append([line])
        else:
            sections[-1].append(line)
    out: list[bytes] = []
    for section in sections:
        start = next((i for i, line in enumerate(section) if line.startswith(b"@@")), None)
        body = b"\n".join(section[start:]) if start is not None else b""
        if start is None or (b"\0" not in body and mostly_text(body)):
            out.extend(section)
            continue
        if not mostly_text(body):
            head = [line for line in section[:start]
                    if not line.startswith((b"--- ", b"+++ "))]
            old, new = _section_paths(section)
            out.extend([*head, b"Binary files " + old + b" and " + new + b" differ"])
            continue
        out.append(section[0])
        out.append(BINARY_MARK)
        out.extend(line.replace(b"\0", NUL_SHOWN) for line in section[1:])
    return b"\n".join(out)
