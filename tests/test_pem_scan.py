"""The PEM machine's non-ASCII entry test in the candidate scan (secrets/pemscan.py).

A line the PEM machine would act on while idle (a marker, in any writing)
must stay a candidate; prose with em dashes or text in other scripts need
not be one.  The tables the test stands on are derived again from the
machine's own reading of every code point.
"""

from __future__ import annotations

import random

import pytest
import secret_corpus as sc

from council_filters.redaction import prefilter
from council_filters.redaction.secrets import load_rules, pemscan
from council_filters.redaction.secrets.engine import RuleCheck, redact_value
from council_filters.redaction.secrets.pem import IDLE, PemMachine, marker_text

EXT = load_rules("extended")


def _ranges(cps: list[int]) -> tuple[tuple[int, int], ...]:
    out: list[list[int]] = []
    for cp in cps:
        if out and out[-1][1] == cp - 1:
            out[-1][1] = cp
        else:
            out.append([cp, cp])
    return tuple((a, b) for a, b in out)


def test_the_tables_are_the_machines_reading() -> None:
    dashes, removed = [], []
    for cp in range(0x80, 0x110000):
        if 0xD800 <= cp <= 0xDFFF:
            continue
        read = marker_text(chr(cp).encode())
        if "-" in read:
            assert read == "-", hex(cp)  # no code point reads as two dashes
            dashes.append(cp)
        elif set(read) <= set("\\nrt"):
            removed.append(cp)
    assert _ranges(dashes) == pemscan.DASH_LIKES
    assert _ranges(removed) == pemscan.REMOVED


def _code_points(ranges: tuple[tuple[int, int], ...]) -> list[str]:
    return [chr(cp) for lo, hi in ranges for cp in range(lo, hi + 1)]


def _candidate_for_pem(check: RuleCheck, line: bytes) -> bool:
    """Whether the scan (and the filter after it) shows ``line`` to the PEM machine."""
    buf = line + b"\n"
    pf = prefilter.get(check.prefilter)
    cands = pf.candidates(buf, 0, len(buf))
    kept = check.prepare(buf, cands)
    cands = cands if kept is None else kept
    if not cands:
        return False
    mask = cands[0][1]
    hits = frozenset(pf.ids[k] for k in range(len(pf.ids)) if mask >> (k + 1) & 1)
    return bool(mask & prefilter.BUILTIN) or check._pem_hit(hits)


def _acts(line: bytes) -> bool:
    machine = PemMachine()
    return machine.step(line) or machine.mode != IDLE


def test_every_marker_line_is_shown_to_the_machine() -> None:
    rng = random.Random(28)
    dashes = ["-", *_code_points(pemscan.DASH_LIKES)]
    removed = [" ", "\t", "\\n", "\\t", *_code_points(pemscan.REMOVED)]
    words = ["BEGIN", "END", "begin", "ＢＥＧＩＮ", "ＥＮＤ", "B\u200bEGIN", "𝐁𝐄𝐆𝐈𝐍"]
    kinds = ["RSA PRIVATE KEY", "OPENSSH PRIVATE KEY", "PRIVATE KEY", "ＰＲＩＶＡＴＥ ＫＥＹ",
             "PRI\u00adVATE KEY", "ENCRYPTED PRIVATE \u212aEY"]
    check = RuleCheck(EXT)
    acted = 0
    for _ in range(6000):

        def run() -> str:
            parts = []
            for _ in range(rng.choice((3, 3, 4, 5))):
                parts.append(rng.choice(dashes))
                if rng.random() < 0.5:
                    parts.append(rng.choice(removed) * rng.randint(1, 3))
            return "".join(parts)

        sep = rng.choice(["", " ", "\u200b", "\u3000", "\ufeff", "\\n"])
        line = rng.choice(["", "  ", "é ", "x = '", "> ", "# ", "— "]) + run() + sep
        line += rng.choice(words) + " " + rng.choice(kinds) + run() + rng.choice(["", "'", " ü"])
        data = line.encode()
        if _acts(data):
            acted += 1
            assert _candidate_for_pem(check, data), line
    assert acted > 3000


def test_marker_variants_of_real_keys_are_redacted() -> None:
    keys = sc.generate_keys()
    lines = keys["rsa-openssh"]
    for name, variant in sc.marker_variants().items():
        for sep in ("\u0600", "\u2060", "\u00ad", "\u180e"):
            begin = variant(lines[0]).replace("-", "-" + sep, 2)
            end = variant(lines[-1])
            text = "\n".join(["intro — text", begin, *lines[1:-1], end, "after — text"]) + "\n"
            out, _ = redact_value(text.encode(), EXT)
            kept = out.decode().splitlines()
            assert not any(b in kept for b in lines[1:-1]), (name, sep)
            assert kept[0] == "intro — text"


@pytest.mark.parametrize("line", [
    "An em dash — and another — in prose.", "日本語のテキスト、“引用”とか。",
    "x ── y (box drawing: ── twice)", "Ünïcödé ‘quotes’ and → arrows",
])
def test_non_ascii_prose_is_not_a_candidate(line: str) -> None:
    assert not _candidate_for_pem(RuleCheck(EXT), line.encode())


def test_a_dash_run_through_format_characters_is_a_marker() -> None:
    # U+0600 (a format character the machine ignores) between the dashes:
    # the scan found no lead byte of it before.
    lines = sc.generate_keys()["ec-sec1"]
    begin = "-\u0600-\u0600-BEGIN EC PRIVATE KEY-----"
    text = "\n".join([begin, *lines[1:-1], lines[-1], "ok"]) + "\n"
    out, redacted = redact_value(text.encode(), EXT)
    assert redacted == list(range(1, len(lines) + 1))
    assert out.decode().splitlines()[-1] == "ok"
