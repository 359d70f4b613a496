"""council-redact core: the credential table, the PEM machine, decoration stripping.

Expected values come from the reference program's rules (upstream-contracts
§8); the PEM signatures below were produced by running the reference awk
program on each input (the differential test re-checks them against it when
COUNCIL_REFERENCE_AWK is set).
"""

from __future__ import annotations

import pytest
from redact_oracles import may_change, redact_lines, redact_simple, strip_decoration_reference

from council_filters.redaction.machine import (
    CREDENTIAL_PATTERNS,
    PATTERN_NAMES,
    PEM_PATTERN,
    Redactor,
    credential_in,
    redact,
    redact_text,
    strip_decoration,
)


def sig(out: bytes) -> str:
    """One character per output line: P (PEM placeholder), C (credential), . (kept)."""
    res = []
    for i, line in enumerate(out.split(b"\n")[:-1], start=1):
        if line == b"--- redacted PEM key block at line %d ---" % i:
            res.append("P")
        elif line == b"--- redacted credential at line %d ---" % i:
            res.append("C")
        else:
            res.append(".")
    return "".join(res)


def doc(*lines: str) -> bytes:
    return ("\n".join(lines) + "\n").encode()


# --------------------------------------------------------------------------- #
# Credentials: at the minimum length, one byte under, negatives.
# --------------------------------------------------------------------------- #
# (name, prefix as written, a class byte, a byte outside the class)
CRED_TABLE = [
    ("openai-project", "sk-proj-", "a", "."),
    ("anthropic", "sk-ant-", "b", "."),
    ("openai", "sk-", "c", "_"),
    ("google-api", "AIza", "d", "."),
    ("github-token", "ghp_", "e", "_"),
    ("github-token", "gho_", "E", "-"),
    ("github-token", "ghu_", "0", "."),
    ("github-token", "ghs_", "9", "."),
    ("github-pat", "github_pat_", "f", "-"),
    ("aws-access-key", "AKIA", "Q", "q"),
    ("bearer", "Bearer ", "g", " "),
    ("authorization", "Authorization: ", "h", "@"),
    ("opencode-session", "ses_", "i", "_"),
]
MIN_LEN = {p.name: p.min_len for p in CREDENTIAL_PATTERNS}


def cred(prefix: str, fill: str, total: int) -> str:
    return prefix + fill * (total - len(prefix))


@pytest.mark.parametrize(("name", "prefix", "fill", "other"), CRED_TABLE)
def test_credential_at_min_length(name: str, prefix: str, fill: str, other: str) -> None:
    secret = cred(prefix, fill, MIN_LEN[name])
    out = redact(doc("before", f"token={secret}", "after"))
    assert out == doc("before", "--- redacted credential at line 2 ---", "after")
    assert credential_in(secret.encode()) == name


@pytest.mark.parametrize(("name", "prefix", "fill", "other"), CRED_TABLE)
def test_credential_one_byte_under(name: str, prefix: str, fill: str, other: str) -> None:
    short = cred(prefix, fill, MIN_LEN[name] - 1)
    # An out-of-class byte ends the run, so the credential stays one byte short.
    text = doc(f"token={short}{other}{fill * 40}")
    assert redact(text) == text


@pytest.mark.parametrize(("name", "prefix", "fill", "other"), CRED_TABLE)
def test_credential_one_byte_under_alone(name: str, prefix: str, fill: str, other: str) -> None:
    text = doc(cred(prefix, fill, MIN_LEN[name] - 1))
    assert redact(text) == text


@pytest.mark.parametrize(
    "line",
    [
        "bearer " + "a" * 40,  # case-sensitive
        "authorization: " + "a" * 40,
        "SK-" + "a" * 40,
        "ghx_" + "a" * 40,  # not one of p, o, u, s
        "aKIA" + "A" * 20,
        "AKIA" + "a" * 20,  # lowercase is outside [0-9A-Z]
        "github-pat-" + "a" * 60,
        "ses-" + "a" * 30,
        "sk_" + "a" * 30,
        "AIza " + "a" * 40,
        "sk-" + "a" * 10 + "-" + "a" * 15,  # the sk- class has no dash
        "--- redacted credential at line 3 ---",
    ],
)
def test_credential_negatives(line: str) -> None:
    assert redact(doc(line)) == doc(line)


@pytest.mark.parametrize(
    ("line", "name"),
    [
        # A short candidate first, the real one later on the same line.
        ("sk-short then sk-" + "a" * 20, "openai"),
        ("AKIA12 AKIA" + "B" * 16, "aws-access-key"),
        ("ghp_x ghp_" + "a" * 36, "github-token"),
        ("Bearer x and Bearer " + "t" * 20, "bearer"),
        # Nested prefixes: the sk- inside sk-sk-ant-... is tried at every start.
        ("sk-sk-ant-" + "a" * 20, "anthropic"),
        ("sk-sk-" + "a" * 20, "openai"),
        ("sk-proj-" + "a" * 20, "openai-project"),
        # sk-ant- with 20 after it is also sk- followed by "ant": the first
        # pattern in table order that matches names it.
        ("xsk-ant-" + "a" * 20, "anthropic"),
        ("Authorization: Basic " + "a b " * 5, "authorization"),
    ],
)
def test_credential_anywhere_on_the_line(line: str, name: str) -> None:
    assert redact(doc(line)) == doc("--- redacted credential at line 1 ---")
    assert credential_in(line.encode()) == name


def test_pattern_names_are_the_eleven() -> None:
    assert len(PATTERN_NAMES) == 11
    assert PATTERN_NAMES[-1] == PEM_PATTERN
    assert len(set(PATTERN_NAMES)) == 11


# --------------------------------------------------------------------------- #
# The PEM machine: one case per branch.  Signatures from the reference.
# --------------------------------------------------------------------------- #
B = "-----BEGIN RSA PRIVATE KEY-----"
E = "-----END RSA PRIVATE KEY-----"
W = "MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun"  # wide body
N = "Zm9vYmFyYmF6cXV4"  # narrow body (16): a digit and a letter past F
NW = "AbcdefGhijklmnopQr"  # 18 letters, no digit: not narrow
HEX = "0123456789abcdef0123456789abcdef01234567"  # a hex id: no letter past F

PEM_CASES: dict[str, tuple[list[str], str]] = {
    # BEGIN and END on one line: that line only; it also closes a watch window.
    "inline_pair": ([f"see {B} x {E} here", W, "prose"], "P.."),
    "inline_pair_retires_window": ([B, W, E, f"{B}{E}", W], "PPPP."),
    # A real block: BEGIN alone on its line after any decoration.
    "real_block": ([B, W, W, E, "after"], "PPPP."),
    "real_block_no_end": ([B, W, "prose is swallowed", "and this"], "PPPP"),
    "real_blockquote": ([f"> {B}", f"> {W}", f"> {E}", "after"], "PPP."),
    "real_diff_plus": ([f"+{B}", f"+{W}", f"+{E}", "after"], "PPP."),
    "real_numbered": ([f"12 | {B}", f"13 | {W}", f"14 | {E}", "after"], "PPP."),
    "real_list": ([f"1. {B}", f"   {W}", f"   {E}", "after"], "PPP."),
    "real_dash_flood": ([f"--------{B[5:]}", W, E, "after"], "PPP."),
    "real_crlf": ([B + "\r", W + "\r", E + "\r", "after\r"], "PPP."),
    "real_trailing_space": ([B + "  ", W, E + " \t", "after"], "PPP."),
    # A mention (text before the marker): bounded by strays and the span cap.
    "mention_strays_release": ([f"the marker {B} starts a key", "one", "two", "three", "four"],
                               "PPP.."),
    "mention_blank_neutral": ([f"text {B}", "", "one", "", "two", "", "three", "four"],
                              "PPPPPP.."),
    "mention_wide_body": ([f"text {B}", W, W, "one", "two", "three", "four"], "PPPPP.."),
    "mention_narrow_body": ([f"text {B}", N, N, "one", "two", "three"], "PPPPP."),
    "mention_narrow_no_digit": ([f"text {B}", NW, "two", "three", "four"], "PPP.."),
    "mention_hex_sha": ([f"text {B}", HEX, "two", "three", "four"], "PPP.."),
    "mention_proc_type": ([f"text {B}", "Proc-Type: 4,ENCRYPTED", "DEK-Info: AES", "one", "two",
                           "three"], "PPPPP."),
    "mention_nested_real_promotes": ([f"text {B}", "one", B, "prose now swallowed", "a", "b",
                                      "c", "d"], "PPPPPPPP"),
    "mention_nested_mention": ([f"text {B}", "one", f"again {B}", "two", "three", "four",
                                "five"], "PPPPP.."),
    "mention_end_closes": ([f"text {B}", W, E, "after"], "PPP."),
    "mention_width_chain": ([f"text {B}", "QUJDREVGR0hJSktMTU5PUFFS", "abcdefABCDEF0123456789ab",
                             "one", "two", "three"], "PPPPP."),
    "mention_width_chain_narrow": ([f"text {B}", N, "AbcdefGhijklmnOp", "one", "two", "three"],
                                   "PPPPP."),
    "mention_hex_wrong_width": ([f"text {B}", "QUJDREVGR0hJSktMTU5PUFFS",
                                 "abcdefABCDEF0123456789a", "one", "two", "three"], "PPPP.."),
    "mention_width_one_word": ([f"text {B}", "Zm9vYmFy", "Zm9vYmFyYmF6", "Abcdefghijkl", "x", "y",
                                "z"], "PPPPP.."),
    "mention_span_cap": ([f"text {B}"] + [W] * 402 + ["after"], "P" * 400 + "...."),
    # END closes only at the end of its line.
    "end_garbage_does_not_close": ([B, W, E + " trailing", W, "still in", E, "after"],
                                   "PPPPPP."),
    # After an END: five lines in which key-shaped lines reopen the block.
    "watch_rearm_wide": ([B, W, E, "prose", W + "+", "x", "y", "z", "w"], "PPP.PPPPP"),
    "watch_rearm_narrow": ([f"text {B}", W, E, N, "a", "b", "c", "d"], "PPPPPP.."),
    "watch_expires": ([B, W, E, "a", "b", "c", "d", "e", W], "PPP......"),
    "watch_chain_run_width": ([B, N, E, "AbcdefGhijklmnOp", "a", "b", "c", "d"], "PPPPPP.."),
    "watch_chain_one_word": ([B, N, E, "Abcdefghijklmnop", "a", "b", "c", "d"], "PPP....."),
    "watch_chain_broken": ([B, N, E, "prose", "AbcdefGhijklmnOp", "a"], "PPP..."),
    "watch_new_block_retires": ([B, W, E, f"{B} {E}", W, "after"], "PPPP.."),
    "watch_begin_reopens": ([B, W, E, B, W, "a"], "PPPPPP"),
    "second_block_classified_alone": ([f"text {B}", W, E, B, W, E, "after"], "PPPPPP."),
    # A PEM placeholder wins over a credential on the same line.
    "cred_and_pem_same_line": ([B, "sk-" + "a" * 20, E, "sk-" + "a" * 20], "PPPC"),
}


@pytest.mark.parametrize("name", sorted(PEM_CASES))
def test_pem_branch(name: str) -> None:
    lines, expected = PEM_CASES[name]
    data = doc(*lines)
    out = redact(data)
    assert sig(out) == expected
    kept = [i for i, c in enumerate(expected) if c == "."]
    assert [out.split(b"\n")[i] for i in kept] == [lines[i].encode() for i in kept]
    assert redact_simple(data) == out


def test_state_runs_on_across_inputs() -> None:
    r = Redactor()
    first = r.feed(doc(B, W)) + r.finish()
    second = r.feed(doc(W, E, "after")) + r.finish()
    assert sig(first + second) == "PPPP."
    assert second.startswith(b"--- redacted PEM key block at line 3 ---\n")


def test_final_line_without_newline_per_input() -> None:
    r = Redactor()
    out = r.feed(b"a") + r.finish() + r.feed(b"b\n") + r.finish()
    assert out == b"a\nb\n"  # each input's last line is its own line, as in awk


# --------------------------------------------------------------------------- #
# Bytes: empty input, no final newline, NUL, CR, invalid UTF-8.
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (b"", b""),
        (b"\n", b"\n"),
        (b"x", b"x\n"),
        (b"a\nb", b"a\nb\n"),
        (b"\x00\xff\xfe\r\n", b"\x00\xff\xfe\r\n"),
        (b"x\x00sk-" + b"a" * 20 + b"\n", b"--- redacted credential at line 1 ---\n"),
        (b"sk-" + b"a" * 10 + b"\x00" + b"a" * 20 + b"\n", b"sk-" + b"a" * 10 + b"\x00" +
         b"a" * 20 + b"\n"),
        (b"\xe2\x80\x83" + B.encode() + b"\n" + W.encode() + b"\n" + b"one\ntwo\nthree\n",
         b"--- redacted PEM key block at line 1 ---\n--- redacted PEM key block at line 2 ---\n"
         b"--- redacted PEM key block at line 3 ---\n--- redacted PEM key block at line 4 ---\n"
         b"three\n"),
    ],
)
def test_bytes(data: bytes, expected: bytes) -> None:
    assert redact(data) == expected


def test_placeholder_line_numbers_after_skipped_runs() -> None:
    data = b"plain\n" * 1000 + b"sk-" + b"z" * 20 + b"\n" + b"plain\n" * 5
    out = redact(data)
    assert out.split(b"\n")[1000] == b"--- redacted credential at line 1001 ---"
    assert out.count(b"\n") == 1006


# --------------------------------------------------------------------------- #
# Decoration stripping.
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (b"", b""),
        (b"plain text  ", b"plain text"),
        (b"> > | quoted", b"quoted"),
        (b"- item", b"item"),
        (b"* item", b"item"),
        (b"12) item", b"item"),
        (b"3. 4. nested", b"nested"),
        (b"12 | gutter", b"gutter"),
        (b"+++ many plus", b"many plus"),
        (b"--------BEGIN", b"-----BEGIN"),
        (b"------x", b"x"),
        (b"-----END x", b"-----END x"),
        (b"-x", b"x"),
        (b"+-----BEGIN RSA", b"-----BEGIN RSA"),
        (b"1.nospace", b"1.nospace"),
        (b"\v\f\t\r text \r", b"text"),
        (b"\xc2\xa0text", b"\xc2\xa0text"),  # a UTF-8 no-break space is not [[:space:]]
    ],
)
def test_strip_decoration(line: bytes, expected: bytes) -> None:
    assert strip_decoration(line) == (expected, False)
    assert strip_decoration_reference(line) == (expected, False)


def test_strip_decoration_is_linear_on_marker_floods() -> None:
    line = b"1. " * 100_000 + b"-----BEGIN RSA PRIVATE KEY-----"
    assert strip_decoration(line) == (b"-----BEGIN RSA PRIVATE KEY-----", False)
    dashes = b"-" * 200_000 + b"BEGIN RSA PRIVATE KEY-----"
    assert strip_decoration(dashes) == (b"-----BEGIN RSA PRIVATE KEY-----", False)


# --------------------------------------------------------------------------- #
# Streaming API.
# --------------------------------------------------------------------------- #
def test_line_api_matches_document_api() -> None:
    lines = [f"text {B}".encode(), W.encode(), b"x", b"sk-" + b"q" * 20]
    assert list(redact_lines(lines)) == redact(b"\n".join(lines) + b"\n").split(b"\n")[:-1]


def test_redact_text_value_semantics() -> None:
    assert redact_text(b"") == (b"", [])
    assert redact_text(b"a\nsk-" + b"a" * 20) == (b"a\n--- redacted credential at line 2 ---",
                                                   [2])
    assert redact_text(b"x\n") == (b"x\n", [])


def test_counts_per_pattern() -> None:
    r = Redactor(count=True)
    r.feed(doc("sk-" + "a" * 20, "ghp_" + "b" * 36, B, W, E, "AKIA" + "C" * 16, "ok"))
    r.finish()
    assert dict(r.counts) == {"openai": 1, "github-token": 1, PEM_PATTERN: 3,
                              "aws-access-key": 1}


def test_scan_covers_every_credential_shape() -> None:
    for p in CREDENTIAL_PATTERNS:
        for prefix in (p.prefix.replace(b"[pous]", bytes([c])) for c in b"pous"):
            line = b"x " + prefix + b"A1" * 30
            if credential_in(line):
                assert may_change(line), line
