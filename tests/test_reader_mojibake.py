"""The reader on answers whose UTF-8 was decoded with a single-byte code page before it
reached us (issue: read what real reviewers print).  Fixtures written for these tests,
garbled here from clean text, one per family:

- a bot comment whose severity badges, dashes and quotes were read as Windows-1252 once,
  with the no-break space ending a badge turned into a plain space and the undefined
  bytes dropped (``ðŸŸ  Major``, ``âš ï¸ Potential issue``, ``â€”``);
- the same read twice (``Ã°Å¸Å¸Â ``);
- read as Latin-1 (bytes 0x80-0x9F kept as C1 controls);
- shown in a Windows console (code page 850 or 437: ``ÔÇö``, ``ΓÇö``) or on a Mac
  (Mac Roman: ``‚ö†Ô∏è``);
- a text mixing good non-ASCII with a garbled run: only the run changes.

The properties: clean text is never changed, and garbling clean text once or twice by any
of these code pages repairs back to it.
"""

from __future__ import annotations

import unicodedata

from hypothesis import assume, given
from hypothesis import strategies as st

from council_filters.verdict import mojibake, reading
from council_filters.verdict.mojibake import repair

CLEAN = """\
## Automated review of the upload handler

**Verdict:** REVISE \u2014 two problems must be fixed before merging.

### Findings

- \U0001f7e0 **Major** `server/upload.py:41` \u2014 the size check runs after the whole body \
is read into memory, so a \u201chuge\u201d upload exhausts the worker.
- \u26a0\ufe0f **Potential issue** `server/upload.py:77` \u2192 the temporary file is never \
removed when the copy fails.
- \U0001f6e0\ufe0f **Refactor suggestion** `server/names.py:9` \u2014 the filename \
cleaning is written twice; keep one helper.
- \U0001f7e1 **Minor** `docs/upload.md:3` \u2014 the limit is given as 10\u00a0MB, the \
code says 8.
- \U0001f534 `server/auth.py:5` \u2014 the session token is compared with `==`, which \
leaks its length through timing.
- \U0001f9f9 **Nitpick** `server/upload.py:12` \u2014 an unused import (\u65e5\u672c \
comments stay as they are).
"""


def cp1252(text: str, *, lossy: bool = True) -> str:
    """``text``'s UTF-8 read as Windows-1252 by a tool that drops the undefined bytes and
    whose output turns no-break spaces into spaces (``lossy``), or keeps those bytes as
    C1 controls (what a Latin-1 reading does)."""
    out = []
    for b in text.encode("utf-8"):
        try:
            out.append(bytes([b]).decode("cp1252"))
        except UnicodeDecodeError:
            out.append("" if lossy else chr(b))
    garbled = "".join(out)
    return garbled.replace("\u00a0", " ") if lossy else garbled


def page(text: str, name: str) -> str:
    return text.encode("utf-8").decode(name)


def seen(text: str) -> tuple[str, list[tuple]]:
    r = reading.read(text.encode(), "tester")
    return r.verdict, [(f.get("file"), f.get("line"), f.get("severity")) for f in r.findings]


EXPECTED = ("REVISE", [("server/upload.py", 41, "medium"), ("server/upload.py", 77, "medium"),
                       ("server/names.py", 9, None), ("docs/upload.md", 3, "minor"),
                       ("server/auth.py", 5, "critical"), ("server/upload.py", 12, "minor")])


def test_clean_fixture_reads_as_labelled() -> None:
    assert seen(CLEAN) == EXPECTED


def test_badges_read_as_windows_1252_once_read_as_unbroken() -> None:
    garbled = cp1252(CLEAN)
    assert "\u00f0\u0178\u0178  **Major**" in garbled and "\u00e2\u0161 \u00ef\u00b8 " in garbled
    assert seen(garbled) == EXPECTED
    assert repair(garbled) == CLEAN


def test_badges_read_as_windows_1252_twice_read_as_unbroken() -> None:
    twice = cp1252(cp1252(CLEAN, lossy=False), lossy=False)
    assert "\u00c3\u00b0\u00c5\u00b8\u00c5\u00b8\u00c2\u00a0" in twice
    assert repair(twice) == CLEAN
    assert seen(twice) == EXPECTED
    lossy = cp1252(cp1252(CLEAN))
    assert seen(lossy) == EXPECTED


def test_latin_1_reading_keeps_c1_controls_and_is_repaired() -> None:
    latin = CLEAN.encode("utf-8").decode("latin-1")
    assert "\u0097" in latin or "\u0080" in latin
    assert repair(latin) == CLEAN
    assert seen(latin) == EXPECTED


def test_console_and_mac_code_pages_are_repaired() -> None:
    for name in ("cp850", "cp437", "mac_roman"):
        garbled = page(CLEAN, name)
        assert repair(garbled) == CLEAN, name
        assert seen(garbled) == EXPECTED, name


def test_only_the_garbled_run_changes() -> None:
    mixed = "Le r\u00e9sum\u00e9 dit \u00ab\u00a0oui\u00a0\u00bb \u2014 " \
        + cp1252("\U0001f534 Critical \u2014 fix") + " (\u00e7a reste)"
    assert repair(mixed) == "Le r\u00e9sum\u00e9 dit \u00ab\u00a0oui\u00a0\u00bb \u2014 " \
        "\U0001f534 Critical \u2014 fix (\u00e7a reste)"


def test_one_lone_two_byte_pair_is_left_as_it_is() -> None:
    # one "Ã©" alone may be what the writer meant; two, or a surer run beside it, is not
    assert repair("the caf\u00c3\u00a9 module") == "the caf\u00c3\u00a9 module"
    assert repair("caf\u00c3\u00a9 cr\u00c3\u00a8me") == "caf\u00e9 cr\u00e8me"
    assert repair("caf\u00c3\u00a9 \u00e2\u20ac\u201d ok") == "caf\u00e9 \u2014 ok"


def test_french_and_typography_are_not_taken_for_garbling() -> None:
    for text in ("Caf\u00e9\u2014cr\u00e8me br\u00fbl\u00e9e, \u00e9t\u00e9\u2026",
                 "\u00c0 la fa\u00e7on \u00ab\u00a0na\u00efve\u00a0\u00bb \u2014 d\u00e9j\u00e0 vu",
                 "Gr\u00fc\u00dfe aus K\u00f6ln \u2013 \u00c4rger \u00fcber \u00d6l",
                 "\u00bfQu\u00e9 pas\u00f3? \u00a1Se\u00f1or!",
                 "\u00a9 2024 \u2122 \u00b1 5 \u00b0C",
                 # box drawing: "\u2500\u2510" is C4 BF in code page 437, "\u2550\u2557" CD BB
                 "\u250c\u2500\u2500\u2510\n\u2502 a \u2502\n\u2514\u2500\u2500\u2518 "
                 "\u2554\u2550\u2557 \u255a\u2550\u255d \u2014 caf\u00e9"):
        assert repair(text) == text


# --------------------------------------------------------------------------- #
# Properties
# --------------------------------------------------------------------------- #
_READINGS = [mojibake._page(name) for name in ("cp1252", "latin-1", "cp850", "cp437", "mac_roman")]


def _looks_garbled(text: str) -> bool:
    """A character one code page reads from a UTF-8 lead byte followed by one read from a
    continuation byte (or by a space, a no-break space made plain): the one shape a
    garbled run has, so clean text showing it is ambiguous by nature."""
    for reading_ in _READINGS:
        for a, b in zip(text, (text + " ")[1:], strict=True):
            lead, cont = reading_.get(a, 0), reading_.get(b, 0)
            if lead >= 0xC2 and (0x80 <= cont <= 0xBF or b == " "):
                return True
    return False


@given(st.text())
def test_clean_text_is_never_changed(text: str) -> None:
    assume(not _looks_garbled(text))
    assert repair(text) == text


@given(st.text())
def test_the_repair_only_ever_replaces_non_ascii_runs(text: str) -> None:
    fixed = repair(text)
    assert [c for c in fixed if c.isascii() and c != " "] == \
        [c for c in text if c.isascii() and c != " "]


_PRINTABLE = st.characters(blacklist_categories=("Cc", "Cn", "Co", "Cs"))
_SURE = st.sampled_from("\u2014\u2192\u2019\u201c\u26a0\U0001f7e0\U0001f534\u65e5\u2705")


@given(st.text(_PRINTABLE, max_size=40), _SURE, st.sampled_from(["cp1252", "cp850", "cp437"]))
def test_garbled_clean_text_repairs_to_it_once_and_twice(text: str, sure: str, name: str) -> None:
    clean = text + " " + sure
    assume(not _looks_garbled(clean))
    once = cp1252(clean, lossy=False) if name == "cp1252" else page(clean, name)
    assert repair(once) == clean
    twice = cp1252(once, lossy=False) if name == "cp1252" else page(once, name)
    assert repair(twice) == clean


def test_no_category_is_invented() -> None:
    # what the repair gives is always a character the text could hold: never a control
    for text in (cp1252(CLEAN), page(CLEAN, "cp850")):
        assert not any(unicodedata.category(c) == "Cc" and c not in "\n\t" for c in repair(text))
