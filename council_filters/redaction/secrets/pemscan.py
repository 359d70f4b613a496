"""The non-ASCII entry test of the PEM machine, for the candidate scan.

While no key block or watch is open, the PEM machine (:mod:`.pem`) acts only
on a line holding a marker, and a marker holds a run of three dashes in the
line as the machine reads markers (:func:`.pem.marker_text`: NFKC, dash-likes
read as ``-``, invisibles and spaces and the escapes ``\\n \\r \\t``
removed).  On an ASCII line the scan's dash-run search finds that (``-``
then ``BEGIN`` or ``END``, see :data:`.builtin.SCANS`).  A non-ASCII line is
found in two steps: the scan's :data:`SEARCH` finds the lines holding a
non-ASCII dash-like, or an ASCII dash followed by something non-ASCII, and
:func:`may_hold_marker` keeps those where three dash-likes follow each other
with only removed characters between.  Prose with an em dash, or text in
another script, is then no candidate: before, every line holding a lead byte
of a dash-like or a space was one (and a run of dashes split by a format
character outside those lead bytes was not found at all).

:data:`DASH_LIKES` and :data:`REMOVED` are the code points read as ``-`` and
those read as nothing or as a letter of an escape (``\\``, ``n``, ``r``,
``t``, in any form NFKC maps to them: a superset), derived from the
machine's own reading of each code point alone; a test derives them again.
No code point reads as two dashes or as nothing with a neighbour's help (a
dash-like composes with nothing), so a run of three dashes in the read line
comes from three dash-likes in the line with only removed characters between.
Lines with terminal escapes (which the machine also removes) are found by a
search of their own.
"""

from __future__ import annotations

#: Code points (ranges) that :func:`.pem.marker_text` reads as ``-``.
DASH_LIKES = (
    (0x2D7, 0x2D7), (0x58A, 0x58A), (0x5BE, 0x5BE), (0x1400, 0x1400), (0x1806, 0x1806),
    (0x2010, 0x2015), (0x2043, 0x2043), (0x207B, 0x207B), (0x208B, 0x208B), (0x2212, 0x2212),
    (0x23AF, 0x23AF), (0x2500, 0x2501), (0x2796, 0x2796), (0x2E17, 0x2E17), (0x2E1A, 0x2E1A),
    (0x2E3A, 0x2E3B), (0x2E40, 0x2E40), (0x2E5D, 0x2E5D), (0x301C, 0x301C), (0x3030, 0x3030),
    (0x30A0, 0x30A0), (0xFE31, 0xFE32), (0xFE58, 0xFE58), (0xFE63, 0xFE63), (0xFF0D, 0xFF0D),
    (0x10EAD, 0x10EAD),
)
#: Code points (ranges) it reads as nothing or as one of ``\\ n r t``.
REMOVED = (
    (0x85, 0x85), (0xA0, 0xA0), (0xAD, 0xAD), (0x2B3, 0x2B3), (0x34F, 0x34F), (0x600, 0x605),
    (0x61C, 0x61C), (0x6DD, 0x6DD), (0x70F, 0x70F), (0x890, 0x891), (0x8E2, 0x8E2),
    (0x115F, 0x1160), (0x1680, 0x1680), (0x17B4, 0x17B5), (0x180B, 0x180E), (0x1D3A, 0x1D3A),
    (0x1D3F, 0x1D40), (0x1D57, 0x1D57), (0x1D63, 0x1D63), (0x2000, 0x200F), (0x2028, 0x202F),
    (0x205F, 0x2064), (0x2066, 0x206F), (0x207F, 0x207F), (0x2099, 0x2099), (0x209C, 0x209C),
    (0x2115, 0x2115), (0x211B, 0x211D), (0x24C3, 0x24C3), (0x24C7, 0x24C7), (0x24C9, 0x24C9),
    (0x24DD, 0x24DD), (0x24E1, 0x24E1), (0x24E3, 0x24E3), (0x2800, 0x2800), (0x3000, 0x3000),
    (0x3164, 0x3164), (0xFE68, 0xFE68), (0xFEFF, 0xFEFF), (0xFF2E, 0xFF2E), (0xFF32, 0xFF32),
    (0xFF34, 0xFF34), (0xFF3C, 0xFF3C), (0xFF4E, 0xFF4E), (0xFF52, 0xFF52), (0xFF54, 0xFF54),
    (0xFFA0, 0xFFA0), (0xFFF9, 0xFFFB), (0x110BD, 0x110BD), (0x110CD, 0x110CD),
    (0x13430, 0x13438), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A), (0x1D40D, 0x1D40D),
    (0x1D411, 0x1D411), (0x1D413, 0x1D413), (0x1D427, 0x1D427), (0x1D42B, 0x1D42B),
    (0x1D42D, 0x1D42D), (0x1D441, 0x1D441), (0x1D445, 0x1D445), (0x1D447, 0x1D447),
    (0x1D45B, 0x1D45B), (0x1D45F, 0x1D45F), (0x1D461, 0x1D461), (0x1D475, 0x1D475),
    (0x1D479, 0x1D479), (0x1D47B, 0x1D47B), (0x1D48F, 0x1D48F), (0x1D493, 0x1D493),
    (0x1D495, 0x1D495), (0x1D4A9, 0x1D4A9), (0x1D4AF, 0x1D4AF), (0x1D4C3, 0x1D4C3),
    (0x1D4C7, 0x1D4C7), (0x1D4C9, 0x1D4C9), (0x1D4DD, 0x1D4DD), (0x1D4E1, 0x1D4E1),
    (0x1D4E3, 0x1D4E3), (0x1D4F7, 0x1D4F7), (0x1D4FB, 0x1D4FB), (0x1D4FD, 0x1D4FD),
    (0x1D511, 0x1D511), (0x1D517, 0x1D517), (0x1D52B, 0x1D52B), (0x1D52F, 0x1D52F),
    (0x1D531, 0x1D531), (0x1D54B, 0x1D54B), (0x1D55F, 0x1D55F), (0x1D563, 0x1D563),
    (0x1D565, 0x1D565), (0x1D579, 0x1D579), (0x1D57D, 0x1D57D), (0x1D57F, 0x1D57F),
    (0x1D593, 0x1D593), (0x1D597, 0x1D597), (0x1D599, 0x1D599), (0x1D5AD, 0x1D5AD),
    (0x1D5B1, 0x1D5B1), (0x1D5B3, 0x1D5B3), (0x1D5C7, 0x1D5C7), (0x1D5CB, 0x1D5CB),
    (0x1D5CD, 0x1D5CD), (0x1D5E1, 0x1D5E1), (0x1D5E5, 0x1D5E5), (0x1D5E7, 0x1D5E7),
    (0x1D5FB, 0x1D5FB), (0x1D5FF, 0x1D5FF), (0x1D601, 0x1D601), (0x1D615, 0x1D615),
    (0x1D619, 0x1D619), (0x1D61B, 0x1D61B), (0x1D62F, 0x1D62F), (0x1D633, 0x1D633),
    (0x1D635, 0x1D635), (0x1D649, 0x1D649), (0x1D64D, 0x1D64D), (0x1D64F, 0x1D64F),
    (0x1D663, 0x1D663), (0x1D667, 0x1D667), (0x1D669, 0x1D669), (0x1D67D, 0x1D67D),
    (0x1D681, 0x1D681), (0x1D683, 0x1D683), (0x1D697, 0x1D697), (0x1D69B, 0x1D69B),
    (0x1D69D, 0x1D69D), (0x1F12C, 0x1F12C), (0x1F13D, 0x1F13D), (0x1F141, 0x1F141),
    (0x1F143, 0x1F143), (0xE0001, 0xE0001), (0xE0020, 0xE007F),
)
#: ASCII read as nothing: spaces and control spaces, and the escapes' letters.
_ASCII_REMOVED = "\t\x0b\x0c\r\x1c\x1d\x1e\x1f \\nrtNRT"


def _code_points(ranges: tuple[tuple[int, int], ...]) -> list[int]:
    return [cp for lo, hi in ranges for cp in range(lo, hi + 1)]


def _utf8(ranges: tuple[tuple[int, int], ...]) -> bytes:
    """An alternation of the UTF-8 of every code point in ``ranges`` (those that
    differ only in their last byte share a class)."""
    by_head: dict[bytes, list[int]] = {}
    for cp in _code_points(ranges):
        enc = chr(cp).encode("utf-8")
        by_head.setdefault(enc[:-1], []).append(enc[-1])
    parts = []
    for head, lasts in sorted(by_head.items()):
        cls = b"".join(b"\\x%02x" % b for b in sorted(lasts))
        parts.append(b"".join(b"\\x%02x" % b for b in head)
                     + (b"[" + cls + b"]" if len(lasts) > 1 else cls))
    return b"(?:" + b"|".join(parts) + b")"


#: The scan's search: a non-ASCII dash-like, or an ASCII dash followed (through
#: ASCII spaces and escape letters) by a non-ASCII byte.  Of a dash run with
#: anything non-ASCII in it, or a run of ASCII dashes followed by something
#: non-ASCII, one of the two is always there (the last ASCII dash before the
#: first non-ASCII character); an ASCII run followed by ``b``/``e`` is the
#: ASCII search's.
SEARCH = (b"(?:" + _utf8(DASH_LIKES) + b"|-[\t\x0b\x0c\r\x1c-\x20\\\\nrtNRT]*[\x80-\xff])")

_TABLE: dict[int, str | None] | None = None


def _table() -> dict[int, str | None]:
    global _TABLE
    if _TABLE is None:
        table: dict[int, str | None] = {cp: None for cp in _code_points(REMOVED)}
        table.update({ord(c): None for c in _ASCII_REMOVED})
        table.update({cp: "-" for cp in _code_points(DASH_LIKES)})
        _TABLE = table
    return _TABLE


def may_hold_marker(line: bytes) -> bool:
    """Whether a marker's dash run can be on ``line`` (False: surely not)."""
    return "---" in line.decode("utf-8", "replace").translate(_table())
