"""Redaction cases taken from the upstream project's own behavioural tests.

Each case names the upstream test it mirrors (``source``), the document it feeds
the redaction program, what that test asserts (``gone``: substrings that must
not survive; ``kept``: substrings that must survive) and ``sig``: the line
signature the reference program produces for the same document, one character
per line -- ``P`` PEM placeholder, ``C`` credential placeholder, ``.`` line
kept byte for byte.  Because every output line is either its input line or a
placeholder carrying its line number, the signature fixes the whole expected
output.

Sources (upstream paths, in KingInYellows/yellow-plugins):
  rb   plugins/yellow-council/tests/redaction.bats (the later suite, run against
       the program with the narrow-body rule and the 400-line span cap)
  rb0  the same file in the older snapshot; only its cases absent from rb
  mt   docs/testing/yellow-council-manual-tests.md, "Redaction Audit"
  cx   plugins/yellow-codex/tests/redaction.bats (redact before the byte cap)

The documents are rebuilt here the way the bats helpers build them: the
marker strings are assembled from parts, lines joined with newlines, one final
newline added.  The sizes of the long-prefix cases follow upstream (100, 500
and 100000 plus signs).
"""

from __future__ import annotations

from dataclasses import dataclass, field

D5 = "-" * 5
BEGIN_PK = f"{D5}BEGIN PRIVATE KEY{D5}"
END_PK = f"{D5}END PRIVATE KEY{D5}"
BEGIN_RSA = f"{D5}BEGIN RSA PRIVATE KEY{D5}"
END_RSA = f"{D5}END RSA PRIVATE KEY{D5}"
# A 14-byte body line (under the 20-byte base64 floor) and a 54-byte one.
NARROW = "MIIEvQIBADANBg"
WIDE = NARROW + "kqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQCxYz"
REARM = "aGVsbG8gd29ybGQgMTIzNDU2Nzg5"


@dataclass(frozen=True)
class Case:
    name: str
    source: str
    lines: tuple[str, ...]
    sig: str
    gone: tuple[str, ...] = ()
    kept: tuple[str, ...] = field(default=())

    @property
    def data(self) -> bytes:
        return ("\n".join(self.lines) + "\n").encode()


def _c(name: str, source: str, lines: list[str], sig: str, *, gone: tuple[str, ...] = (),
       kept: tuple[str, ...] = ()) -> Case:
    return Case(name, source, tuple(lines), sig, gone, kept)


def _prefixed(prefix: str, lines: list[str]) -> list[str]:
    return [prefix + s for s in lines]


def _plus_begin(n: int) -> list[str]:
    return ["+" * n + BEGIN_PK, NARROW, NARROW, NARROW, NARROW, END_PK]


AUDIT = (
    "sk-test-1234567890abcdefghijklmnop",
    "sk-proj-1234567890abcdefghijklmnop",
    "sk-ant-1234567890abcdefghijklmnop",
    "AIza1234567890abcdefghijklmnopqrstuvwxy",
    "ses_test1234567890abcd",
    "ghp_test1234567890abcd1234567890abcdefgh",
    "github_pat_1234567890abcdef1234567890abcdef12345678",
    "AKIATEST1234567890XX",
    "Bearer test-token-1234567890abcdefghij",
    "Authorization: Basic1234567890abcdefghij",
    f"{BEGIN_RSA}TESTKEY1234567890abcdefghijklmnopqrstuvwxyz{END_RSA}",
)

PROSE4 = ["prose one", "prose two", "prose three", "prose four", "Verdict: APPROVE"]

CASES: list[Case] = [
    # --- leak direction -------------------------------------------------------
    _c("clean-multiline-key", "rb", ["Verdict: REJECT", BEGIN_PK, WIDE, WIDE, END_PK],
       ".PPPP", gone=(WIDE,)),
    _c("diff-deletion-lines", "rb", _prefixed("-", [BEGIN_PK] + [NARROW] * 4 + [END_PK]),
       "PPPPPP", gone=(NARROW,)),
    _c("diff-addition-lines", "rb", _prefixed("+", [BEGIN_PK] + [NARROW] * 6 + [END_PK]),
       "PPPPPPPP", gone=(NARROW,)),
    _c("combined-diff-lines", "rb", _prefixed("--", [BEGIN_PK] + [NARROW] * 4 + [END_PK]),
       "PPPPPP", gone=(NARROW,)),
    _c("list-blockquote-nesting", "rb", _prefixed("- > ", [BEGIN_PK] + [NARROW] * 3 + [END_PK]),
       "PPPPP", gone=(NARROW,)),
    _c("plus-run-100-on-begin", "rb", _plus_begin(100), "PPPPPP", gone=(NARROW,)),
    _c("plus-run-500-on-begin", "rb", _plus_begin(500), "PPPPPP", gone=(NARROW,)),
    _c("plus-run-100000-on-begin", "rb", _plus_begin(100000), "PPPPPP", gone=(NARROW,)),
    _c("narrow-rsa-key", "rb", [BEGIN_RSA] + [NARROW] * 4 + [END_RSA], "PPPPPP", gone=(NARROW,)),
    # The blank separator line after the decoy END is the one line kept.
    _c("decoy-end", "rb", [BEGIN_PK, WIDE, END_PK, "", WIDE, END_PK], "PPP.PP", gone=(WIDE,)),
    _c("short-placeholder-then-real-token", "rb",
       ["example sk-ant-xxx then the real one sk-ant-A1B2C3D4E5F6G7H8I9J0K1L2M3N4O5P6Q7R8S9T0"],
       "C", gone=("sk-ant-A1B2C3D4E5F6G7H8I9J0K1L2M3N4O5P6Q7R8S9T0",)),
    _c("second-block-own-merits", "rb",
       [f"note: a mention of {BEGIN_PK} in prose", "some ordinary prose here", END_PK,
        BEGIN_RSA, WIDE] + [NARROW] * 4 + [END_RSA],
       "PPPPPPPPPP", gone=(NARROW,)),
    _c("inline-single-line-key", "rb",
       [f"leaked: {BEGIN_PK} {WIDE} {END_PK}", "Verdict: REJECT", "Summary: key was exposed"],
       "P..", gone=(WIDE,), kept=("Verdict: REJECT",)),
    # --- over-redaction direction ----------------------------------------------
    _c("prose-ending-with-marker", "rb",
       [f"The header format is exactly: {BEGIN_PK}",
        "and reviewers should not paste keys into findings.",
        "That is all this finding is about.", "Nothing further to report here.",
        "", "Verdict: APPROVE", "Summary: fine"],
       "PPP....", kept=("Verdict: APPROVE", "Summary: fine")),
    _c("long-prose-line-mentions-marker", "rb",
       ["x" * 10000 + f" mentions {BEGIN_PK} here"] + PROSE4, "PPP...",
       kept=("Verdict: APPROVE",)),
    _c("quoted-mention-list", "rb", [f'- "{BEGIN_PK}"'] + PROSE4, "PPP...",
       kept=("Verdict: APPROVE",)),
    _c("quoted-mention-blockquote", "rb", [f'> "{BEGIN_PK}"'] + PROSE4, "PPP...",
       kept=("Verdict: APPROVE",)),
    _c("quoted-mention-numbered", "rb", [f'3. "{BEGIN_PK}"'] + PROSE4, "PPP...",
       kept=("Verdict: APPROVE",)),
    _c("new-block-retires-rearm", "rb",
       [BEGIN_PK, WIDE, END_PK, f"note: the header is {BEGIN_PK}", "short prose",
        "more prose", "third prose", REARM, "Verdict: APPROVE"],
       "PPPPPP...", kept=("Verdict: APPROVE",)),
    _c("inline-pair-retires-rearm", "rb",
       [BEGIN_PK, WIDE, END_PK, f"{BEGIN_PK} {END_PK}", "short prose", "more prose",
        "third prose", REARM, "Verdict: APPROVE"],
       "PPPP.....", kept=("Verdict: APPROVE",)),
    _c("horizontal-rule", "rb", ["-" * 32, "Verdict: APPROVE"], "..",
       kept=("Verdict: APPROVE",)),
    _c("identifier-after-key", "rb",
       [BEGIN_PK, WIDE, END_PK, "additionalRecommendationsForReviewers",
        "Verdict: APPROVE", "Confidence: high", "Summary: looks fine"],
       "PPP....", kept=("Verdict: APPROVE", "Confidence: high", "Summary: looks fine")),
    _c("ordinary-report", "rb",
       ["Findings:", "P1: something is wrong at foo.c:12", "Verdict: REJECT",
        "Summary: needs work"],
       "....", kept=("P1: something is wrong at foo.c:12", "Verdict: REJECT")),
    _c("bare-git-sha", "rb",
       ["See commit a852e8b8ffbad9c58f0d1a5cb1782dc0d4ab815a", "Verdict: APPROVE",
        "Summary: fine"],
       "...", kept=("Verdict: APPROVE",)),
    _c("mention-window-terminates", "rb",
       [f"P1: the fixture embeds a {BEGIN_PK} marker in plain prose",
        "which the scanner flagged as a false positive.",
        "The redaction block already handles this case.",
        "No action needed for that finding.",
        "", "Findings: none blocking", "Verdict: APPROVE", "Summary: fine"],
       "PPP.....",
       kept=("Verdict: APPROVE", "Summary: fine", "Findings: none blocking")),
    # --- older suite only -------------------------------------------------------
    _c("base64-prose-after-clean-end", "rb0",
       [BEGIN_RSA, WIDE, END_RSA, "HereIsSomeBase64LookingData12345AndMore7",
        "stray one", "stray two", "Summary: the report tail must survive"],
       "PPPPPP.", gone=(WIDE,), kept=("Summary: the report tail must survive",)),
    _c("third-stray-line-emitted", "rb0",
       [f"P2: prose quoting a {BEGIN_PK} marker inline", "stray one", "stray two",
        "Summary: the third stray line must survive"],
       "PPP.", kept=("Summary: the third stray line must survive",)),
    # --- manual redaction audit -------------------------------------------------
    # One echoed test string per line.  The audit lists eleven strings and says all
    # eleven redact; the program redacts ten of them on their own: "sk-test-..." is
    # not an sk- key to it ("-" is outside the sk- class, so the match stops at
    # "sk-test").  Echoed on one line, as the audit prompt has them, the whole line
    # goes, as a PEM line: the inline key pair on it decides the placeholder.
    _c("audit-strings-one-per-line", "mt", list(AUDIT), ".CCCCCCCCCP", gone=AUDIT[1:]),
    _c("audit-strings-one-line", "mt", [", ".join(AUDIT)], "P", gone=AUDIT),
    # --- codex: a key that a 400-byte cap before redaction would have cut ----------
    _c("key-straddling-byte-cap", "cx",
       ["api-error: " + "x" * 377 + "sk-" + "A" * 40 + " trailing text"],
       "C", gone=("sk-" + "A" * 40, "sk-AAAA")),
]
