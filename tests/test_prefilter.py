"""The combined prefilter: both engines find every line that can change, and agree.

The whole-output checks run every redaction path under each engine: the
goldens, the line machine as an oracle, and a fresh random corpus against the
reference program when the environment names it.
"""

from __future__ import annotations

import importlib.util
import io
import os
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from redact_fragments import SECRETS, documents, lines, random_document
from redact_oracles import redact_simple
from test_redact_props import needs_reference, reference

from council_filters.redaction import machine as redaction
from council_filters.redaction import prefilter
from council_filters.redaction.machine import (
    _BEGIN,
    CREDENTIAL_PATTERNS,
    Redactor,
    credential_in,
    redact,
    redact_stream,
)

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "golden" / "redact"
HAVE_HS = importlib.util.find_spec("hyperscan") is not None
HAVE_C = importlib.util.find_spec("council_filters.redaction._machine") is not None
ENGINES = [
    "re",
    pytest.param("hyperscan", marks=pytest.mark.skipif(
        not HAVE_HS, reason="hyperscan is not installed (the 'fast' extra)")),
    pytest.param("native", marks=pytest.mark.skipif(
        not HAVE_C, reason="the compiled module is not built (no C compiler at install)")),
]
#: The engines whose scan holds the exact shapes (the re scan may over-report).
EXACT = ("hyperscan", "native")
SETTINGS = settings(max_examples=100, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow,
                                           HealthCheck.function_scoped_fixture])


MACHINES = ["python", pytest.param("c", marks=pytest.mark.skipif(
    not HAVE_C, reason="the compiled line machine is not built (no C compiler at install)"))]


@pytest.fixture(params=ENGINES)
def engine(request: pytest.FixtureRequest) -> Iterator[str]:
    """Every buffer through the named engine (hyperscan even for tiny ones)."""
    saved = prefilter.WANT
    prefilter.use(request.param)
    try:
        yield request.param
    finally:
        prefilter.use(saved)


@pytest.fixture(params=MACHINES)
def machine(request: pytest.FixtureRequest) -> Iterator[str]:
    """The plain path on the named line machine (the compiled one, or Python)."""
    redaction.use_machine(request.param)
    assert redaction.machine_name() == request.param
    try:
        yield request.param
    finally:
        redaction.use_machine("c")


def lines_of(pf: prefilter.Prefilter, data: bytes) -> list[int]:
    """The 0-based numbers of the lines the prefilter reports."""
    starts = [s for s, _ in pf.candidates(data, 0, len(data))]
    return [data.count(b"\n", 0, s) for s in starts]


# --------------------------------------------------------------------------- #
# The scan itself.
# --------------------------------------------------------------------------- #
@SETTINGS
@given(st.lists(lines(), max_size=30))
def test_every_line_that_can_change_is_a_candidate(engine: str, body: list[bytes]) -> None:
    data = b"".join(line.replace(b"\n", b" ") + b"\n" for line in body)
    found = set(lines_of(prefilter.get(), data))
    for i, line in enumerate(data.split(b"\n")[:-1]):
        if credential_in(line) or _BEGIN.search(line):
            assert i in found, line


def test_every_credential_shape_and_its_near_miss(engine: str) -> None:
    pf = prefilter.get()
    for p in CREDENTIAL_PATTERNS:
        for prefix in (p.prefix.replace(b"[pous]", bytes([c])) for c in b"pous"):
            hit = b"x " + prefix + b"A" * p.tail_len + b"\n"
            assert lines_of(pf, hit) == [0], hit
    for secret in SECRETS:
        miss = secret[:-1]
        found = lines_of(pf, b"ok\n" + miss + b"\nok\n")
        if credential_in(miss) is not None:
            assert found == [1], miss  # sk-ant-... one short is still an sk- key
        elif engine in EXACT:  # exact shapes; the re scan may over-report
            assert found == [], miss


def test_hyperscan_reports_no_more_than_the_exact_patterns(engine: str) -> None:
    # The automaton holds the exact shapes: a near miss of the wide "sk-"
    # class is not a candidate there (the re scan may over-report).
    data = b"sk-aaaa_aaaaaaaaaaaaaaaaaa\n"
    assert credential_in(data[:-1]) is None
    if engine in EXACT:
        assert lines_of(prefilter.get(), data) == []


def test_matches_map_to_their_lines_and_masks(engine: str) -> None:
    pf = prefilter.get([("k1", rb"zebra[0-9]{3}"), ("k2", rb"(?i)okapi")])
    data = b"a\nzebra123 and OKAPI\n\nnothing\n" + b"sk-" + b"b" * 20 + b" okapi\n"
    cands = pf.candidates(data, 0, len(data))
    assert [(data.count(b"\n", 0, s), m) for s, m in cands] == [(1, 0b110), (4, 0b101)]
    assert pf.ids == ("k1", "k2")
    assert pf.candidates(data, 0, 0) == []


def test_the_automaton_runs_a_wider_form_the_re_engine_the_exact_one(engine: str) -> None:
    # prefilter.widen: the automaton takes the wider form (a line holding only
    # its part is a candidate there), the re engine keeps the exact pattern.
    prefilter.widen({rb"quagga[0-9]{3}x": rb"quagga"})
    pf = prefilter.get([("k1", rb"quagga[0-9]{3}x")])
    data = b"quagga\nquagga123x\nzebra\n"
    assert lines_of(pf, data) == ([1] if pf.engine_for(len(data)) == "re" else [0, 1])


_EXTRA = [("k1", rb"zebra[0-9]{3}"), ("k2", rb"(?i)okapi"), ("k3", rb"a{2,}"),
          ("k4", rb"[0-9]+:[0-9]+")]


@pytest.mark.skipif(not (HAVE_HS and HAVE_C),
                    reason="needs hyperscan and the compiled module")
@pytest.mark.parametrize("split", ["auto", "hyperscan"])
@SETTINGS
@given(st.lists(st.sampled_from([b"zebra123", b"ZEBRA999 okapi", b"aaaa", b"12:34 aa",
                                 b"sk-" + b"c" * 20, b"", b"plain text", b"x" * 300,
                                 b"ghp_" + b"d" * 36 + b" 1:2"]), max_size=25),
       st.integers(min_value=0, max_value=40))
def test_the_compiled_match_list_gives_the_python_grouping(
    split: str, body: list[bytes], cut: int
) -> None:
    # Hyperscan's matches kept and mapped to lines in C (Matches) give the
    # candidates the per-match Python callback gives, with the built-in
    # triggers from the native scan (auto) or from the automaton (hyperscan),
    # from any line start on.
    data = b"\n".join(body) + b"\n"
    starts = [0] + [i + 1 for i, c in enumerate(data) if c == 10]
    start = starts[min(cut, len(starts) - 1)]
    saved = prefilter.WANT
    prefilter.use(split)
    try:
        pf = prefilter.get(_EXTRA)
        got = pf.candidates(data, start, len(data))
        pf._lines_hs = lambda *_: None  # type: ignore[method-assign]
        want = pf.candidates(data, start, len(data))
    finally:
        prefilter.use(saved)
    assert got == want
    for s, m in got:
        line = data[s : data.index(b"\n", s)]
        assert bool(m & 0b100) == (b"okapi" in line.lower())
        assert bool(m & 0b1000) == (b"aa" in line)


@pytest.mark.skipif(not (HAVE_HS and HAVE_C),
                    reason="needs hyperscan and the compiled module")
@SETTINGS
@given(st.lists(st.sampled_from([b"zebra123", b"ZEBRA999 okapi", b"aaaa", b"12:34 aa",
                                 b"sk-" + b"c" * 20, b"", b"plain text", b"x" * 300,
                                 b"ghp_" + b"d" * 36 + b" 1:2"]), max_size=40),
       st.integers(min_value=0, max_value=40))
def test_repeated_lines_scanned_once_give_the_same_candidates(body: list[bytes], cut: int) -> None:
    # The automaton may read each distinct line of a buffer once (Distinct):
    # the candidates, on every line that repeats one, are the whole scan's.
    data = b"\n".join(body) + b"\n"
    starts = [0] + [i + 1 for i, c in enumerate(data) if c == 10]
    start = starts[min(cut, len(starts) - 2)]
    pf = prefilter.get(_EXTRA)
    whole = pf.candidates(data, start, len(data))
    scanned = []
    real_scan = pf._hs_scan
    saved = prefilter.DISTINCT_MIN, prefilter.DISTINCT_SAMPLE, prefilter.DISTINCT_DENSE
    prefilter.DISTINCT_MIN = prefilter.DISTINCT_SAMPLE = prefilter.DISTINCT_DENSE = 0
    pf._hs_scan = lambda view, found: (  # type: ignore[method-assign]
        scanned.append(bytes(view)), real_scan(view, found))[1]
    try:
        assert pf.candidates(data, start, len(data)) == whole
    finally:
        prefilter.DISTINCT_MIN, prefilter.DISTINCT_SAMPLE, prefilter.DISTINCT_DENSE = saved
        del pf._hs_scan
    lines = data[start:].split(b"\n")[:-1]
    # (the first scan is the probe of the matches' density)
    assert scanned[1:] == [b"".join(line + b"\n" for line in dict.fromkeys(lines))]


def test_a_buffer_of_repeated_lines_is_scanned_as_its_distinct_lines(
    monkeypatch: pytest.MonkeyPatch
) -> None:
    if not (HAVE_HS and HAVE_C):
        pytest.skip("needs hyperscan and the compiled module")
    pf = prefilter.get(_EXTRA)
    data = (b"zebra123 okapi\nplain text\n12:34 aa\n" * 20000
            + b"".join(b"line %d\n" % i for i in range(3000)))
    scanned: list[int] = []
    real_scan = pf._hs_scan
    monkeypatch.setattr(pf, "_hs_scan", lambda view, found: (scanned.append(len(view)),
                                                              real_scan(view, found))[1])
    cands = pf.candidates(data, 0, len(data))
    probe = data.index(b"\n", prefilter.DISTINCT_PROBE) + 1
    assert scanned == [probe, len(b"zebra123 okapi\nplain text\n12:34 aa\n")
                       + len(b"".join(b"line %d\n" % i for i in range(3000)))]
    assert len(cands) == 40000 and cands[-1] == (data.rindex(b"12:34"), 0b11000)
    fresh = b"".join(b"zebra%d\n" % i for i in range(40000))
    scanned.clear()
    pf.candidates(fresh, 0, len(fresh))
    probe = fresh.index(b"\n", prefilter.DISTINCT_PROBE) + 1
    assert scanned == [probe, len(fresh)]  # (lines that do not repeat: the buffer itself)
    sparse = b"plain text\n" * 20000 + b"zebra123\n"
    scanned.clear()
    assert pf.candidates(sparse, 0, len(sparse)) == [(len(sparse) - 9, 0b10)]
    probe = sparse.index(b"\n", prefilter.DISTINCT_PROBE) + 1
    assert scanned == [probe, len(sparse)]  # (few matches: the buffer itself, repeats and all)


#: Lines of the extended families and their near misses, to repeat.
_FAMILY_LINES = [
    b'db_password = "Tr0ub4dor-and-more"', b"db_password = ${DB_PASSWORD}",
    b"- name: API_TOKEN", b"  value: q8Zr3mWx7Lp2Vn5K", b"  value: see the docs",
    b"mysql -u admin -pW1nterIsH3re shop", b"mysql -u admin -p shop",
    b"redis://:L0ngRandomPass99@cache.internal:6379/0", b"redis://cache.internal:6379/0",
    b"AKIAXXXXXXXXXXXXXXXX in the docs", b"token: str | None = None",
    b"-----BEGIN OPENSSH PRIVATE KEY-----", b"b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAA",
    b"-----END OPENSSH PRIVATE KEY-----", b"| password | the account's password |",
    b'"secret_key": "Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MA"', b"plain words about nothing",
]


@pytest.mark.skipif(not (HAVE_HS and HAVE_C),
                    reason="needs hyperscan and the compiled module")
@pytest.mark.parametrize("seed", range(4))
def test_extended_rules_on_repeated_lines_give_the_bytes_of_a_whole_scan(seed: int) -> None:
    # Under --rules extended the rules look at each distinct candidate line of
    # such a buffer once; the output is the same, byte for byte, as when
    # every line is scanned and looked at.
    from council_filters.redaction.secrets import engine, load_rules

    rng = random.Random(seed)
    pool = _FAMILY_LINES + [redact_fragments_line(rng) for _ in range(30)]
    body = [rng.choice(pool) for _ in range(12000)]
    data = b"\n".join(body) + b"\n"
    rules = load_rules("extended")
    used = []
    real = prefilter.Prefilter.distinct

    def spy(self: prefilter.Prefilter, *args: object) -> object:
        found = real(self, *args)  # type: ignore[arg-type]
        used.append(found is not None)
        return found

    prefilter.Prefilter.distinct = spy  # type: ignore[method-assign]
    try:
        once = engine.redact_value(data, rules)
        saved = prefilter.DISTINCT_MIN
        prefilter.DISTINCT_MIN = len(data) + 1
        try:
            whole = engine.redact_value(data, rules)
        finally:
            prefilter.DISTINCT_MIN = saved
    finally:
        prefilter.Prefilter.distinct = real  # type: ignore[method-assign]
    assert used[0] and not any(used[len(used) // 2:])  # (repeated lines, then none)
    assert once == whole
    assert once[1]  # (some lines are redacted)


def redact_fragments_line(rng: random.Random) -> bytes:
    return random_document(rng, 3).split(b"\n")[0]


@pytest.mark.parametrize("pattern", [
    rb"^start", rb"end$", rb"a.b", rb"x\s+y", rb"(?<=a)b", rb"(a)\1", rb"[^a]+", rb"\Aabc",
    rb"a\nb", rb"[\s=]", rb"(unclosed",
])
def test_patterns_that_could_cross_a_line_or_differ_are_rejected(pattern: bytes) -> None:
    with pytest.raises(prefilter.PrefilterError):
        prefilter.Prefilter([("bad", pattern)])


@pytest.mark.parametrize("pattern", [
    rb"\bkey[0-9a-f]{8}\b", rb"[^\n\"']{8}", rb"(?i)token", rb"a\.b", rb"[\w-]{10}",
])
def test_plain_patterns_are_accepted(pattern: bytes) -> None:
    prefilter.Prefilter([("ok", pattern)])


def test_the_shipped_searches_pass_the_check_they_skip() -> None:
    """The built-in searches skip check_pattern at run time; each one passes it,
    and only they are named (a rule file's pattern is still checked)."""
    from council_filters.redaction.secrets import engine, load_rules

    pairs = load_rules("extended").fresh().prefilter  # (names the shipped searches)
    searches = engine._shipped_searches()
    assert set(searches) == prefilter._SHIPPED and len(searches) > 40
    assert {p for _, p in pairs} <= prefilter._SHIPPED
    try:
        prefilter._SHIPPED.clear()
        for pattern in searches:
            prefilter.check_pattern("shipped", pattern)
    finally:
        prefilter.shipped(searches)
    with pytest.raises(prefilter.PrefilterError):
        prefilter.Prefilter([("bad", rb"[^a]+" + searches[0])])


def test_unknown_engine_name_is_an_error() -> None:
    res = subprocess.run(
        [sys.executable, "-c", "import council_filters.redaction.prefilter"],
        env={**os.environ, "COUNCIL_PREFILTER": "fastest"}, capture_output=True, check=False,
    )
    assert res.returncode != 0 and b"COUNCIL_PREFILTER" in res.stderr


@pytest.mark.parametrize("args", [[], ["--version"], ["--check"], ["--rules", "extended"]])
def test_an_unknown_engine_is_a_usage_error_naming_the_variable(args: list[str]) -> None:
    res = subprocess.run(
        [sys.executable, "-m", "council_filters.cli.redact", *args], input=b"hi\n",
        env={**os.environ, "COUNCIL_PREFILTER": "fastest"}, capture_output=True, check=False,
    )
    assert res.returncode == 2, res.stderr
    assert res.stderr.decode().splitlines() == [
        "council-redact: COUNCIL_PREFILTER must be auto, native, hyperscan or re "
        "(got an unknown value)"]
    assert res.stdout == b""


_ABSENT = """
import sys
class Absent:
    def find_spec(self, name, path=None, target=None):
        if name == "council_filters.redaction._machine":
            raise ImportError("not built")
        return None
sys.meta_path.insert(0, Absent())
"""
# A module left by an older build: no ABI, and functions of other arguments.
_STALE = """
import sys, types
stale = types.ModuleType("council_filters.redaction._machine")
def run_all(*args):
    raise TypeError("an older build's run_all")
stale.run_all = stale.scan = stale.redact_fd = run_all
sys.modules["council_filters.redaction._machine"] = stale
"""
_MAIN = """
from council_filters.cli import redact
sys.exit(redact.main(sys.argv[1:]))
"""


@pytest.mark.parametrize("preamble", [_ABSENT, _STALE], ids=["absent", "stale"])
def test_without_a_usable_compiled_module_the_python_path_gives_the_same_bytes(
    preamble: str,
) -> None:
    # An install without a C compiler, or one not redone after _machine.c
    # changed: no native engine, no compiled machine, the same bytes.
    code = preamble + _MAIN
    rng = random.Random(41)
    data = b"".join(random_document(rng) for _ in range(80))
    env = {k: v for k, v in os.environ.items() if k != "COUNCIL_PREFILTER"}
    res = subprocess.run([sys.executable, "-c", code], input=data,
                         capture_output=True, env=env, check=False)
    assert res.returncode == 0, res.stderr
    assert res.stdout == redact_simple(data)
    version = subprocess.run([sys.executable, "-c", code, "--version"],
                             capture_output=True, env=env, check=False).stdout.decode()
    assert "native" not in version and "line machine: Python" in version, version
    forced = subprocess.run([sys.executable, "-c", code], input=b"x\n",
                            capture_output=True, env={**env, "COUNCIL_PREFILTER": "native"},
                            check=False)
    assert forced.returncode == 2
    assert b"COUNCIL_PREFILTER=native but the compiled module is not built" in forced.stderr


# --------------------------------------------------------------------------- #
# Whole outputs, under each engine.
# --------------------------------------------------------------------------- #
def test_goldens(engine: str, machine: str) -> None:
    cases = sorted(GOLDEN.glob("*.in"))
    names = [c for c in cases if c.name.startswith(("edge-", "gen-"))]
    assert len(names) >= 686
    for case in names:
        expected = case.with_suffix(".out").read_bytes()
        assert redact(case.read_bytes()) == expected, case.name


@SETTINGS
@given(documents(), st.integers(min_value=1, max_value=97))
def test_same_as_the_line_machine(engine: str, machine: str, data: bytes, size: int) -> None:
    expected = redact_simple(data)
    assert redact(data) == expected
    r = Redactor()
    out = [r.feed(data[i : i + size]) for i in range(0, len(data), size)]
    assert b"".join(out) + r.finish() == expected


def test_large_buffers_same_as_the_line_machine(engine: str, machine: str) -> None:
    # Above the size where auto switches engines, with the state crossing reads.
    rng = random.Random(17)
    data = b"".join(random_document(rng) for _ in range(300)) * 5
    assert len(data) > prefilter.HS_MIN_BYTES
    assert redact(data) == redact_simple(data)


def test_redact_stream_counts_and_sizes(engine: str, tmp_path: Path) -> None:
    data = b"one\nkey sk-" + b"a" * 20 + b"\n-----BEGIN PRIVATE KEY-----\nQUJD\n" \
        b"-----END PRIVATE KEY-----\ntail"
    src = tmp_path / "in.txt"
    src.write_bytes(data)
    dst = tmp_path / "out.txt"
    with src.open("rb") as fin, dst.open("wb") as fout:
        stats = redact_stream(fin, fout)
    assert dst.read_bytes() == redact(data)
    assert (stats.bytes_in, stats.bytes_out, stats.lines) == (len(data), dst.stat().st_size, 6)
    assert stats.counts == {"openai": 1, "pem-private-key": 3}
    fd_in = os.open(src, os.O_RDONLY)
    fd_out = os.open(tmp_path / "out2.txt", os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        assert redact_stream(fd_in, fd_out) == stats
    finally:
        os.close(fd_in)
        os.close(fd_out)
    assert (tmp_path / "out2.txt").read_bytes() == redact(data)
    with src.open("rb") as fin:
        assert redact_stream(fin, None, check_only=True).counts == stats.counts
    assert stats.redacted == stats.counts
    small = io.BytesIO()
    assert redact_stream(io.BytesIO(data), small, chunk=7) == stats  # lines across reads
    assert small.getvalue() == redact(data)


class Words:
    """A stand-in extra rule set: a keyword rule and a stateful one."""

    def __init__(self) -> None:
        self.prefilter = [("zebra", rb"zebra-[0-9]{4}"), ("open", rb"<<open>>")]
        self.active = False
        self.seen: list[bytes] = []

    def check(self, line: bytes, hits: frozenset[str]) -> str | None:
        self.seen.append(line)
        if b"<<open>>" in line:
            self.active = True
            return "open"
        if self.active:
            if b"<<close>>" in line:
                self.active = False
            return "open"
        if "zebra" in hits and b"zebra-1234" in line:  # the exact check is narrower
            return "zebra"
        return None


def test_extra_rules_join_the_scan(engine: str) -> None:
    rules = Words()
    data = (b"a\nzebra-1234 here\nzebra-9999 not\nb\n<<open>>\ninside\n<<close>>\nafter\n"
            b"ghp_" + b"x" * 36 + b" zebra-1234\n")
    r = Redactor(count=True, rules=rules)
    out = r.feed(data) + r.finish()
    assert out.split(b"\n")[:-1] == [
        b"a", b"--- redacted credential at line 2 ---", b"zebra-9999 not", b"b",
        b"--- redacted credential at line 5 ---", b"--- redacted credential at line 6 ---",
        b"--- redacted credential at line 7 ---", b"after",
        b"--- redacted credential at line 9 ---",
    ]
    assert dict(r.counts) == {"zebra": 1, "open": 3, "github-token": 1}
    # Only flagged lines (and lines while a rule is active) reach the check.
    assert rules.seen == [b"zebra-1234 here", b"zebra-9999 not", b"<<open>>", b"inside",
                          b"<<close>>"]


@needs_reference
@pytest.mark.parametrize("seed", range(3))
def test_differential_fresh_random_corpus(engine: str, machine: str, seed: int) -> None:
    # A fresh corpus every run: the seed is drawn, and shown on failure.
    fresh = random.SystemRandom().randrange(1 << 30)
    rng = random.Random(fresh + seed)
    data = b"".join(random_document(rng) for _ in range(60))
    assert redact(data) == reference(data), f"seed {fresh + seed}"


@pytest.mark.parametrize(("env", "engine_name"), [
    ("re", b"prefilter: re "),
    pytest.param("hyperscan", b"prefilter: hyperscan ", marks=pytest.mark.skipif(
        not HAVE_HS, reason="hyperscan is not installed")),
    pytest.param("native", b"prefilter: native ", marks=pytest.mark.skipif(
        not HAVE_C, reason="the compiled module is not built")),
])
def test_version_names_the_engine(env: str, engine_name: bytes) -> None:
    res = subprocess.run(
        [sys.executable, "-m", "council_filters.cli.redact", "--version"],
        env={**os.environ, "COUNCIL_PREFILTER": env}, capture_output=True, check=False,
    )
    assert res.returncode == 0, res.stderr
    assert res.stdout.split(b"\n")[1].startswith(engine_name), res.stdout


def test_many_full_reads_overlap_and_agree(engine: str, machine: str) -> None:
    # Full-size reads take the two-buffers-in-flight path on the compiled machine.
    rng = random.Random(23)
    data = b"".join(random_document(rng) for _ in range(120))
    out = io.BytesIO()
    stats = redact_stream(io.BytesIO(data), out, chunk=4096)
    assert out.getvalue() == redact_simple(data)
    assert stats.bytes_in == len(data) and stats.lines == data.count(b"\n") + (
        0 if data.endswith(b"\n") else 1)


def test_extended_rules_ride_the_one_scan_in_both_engines() -> None:
    # The --rules extended set reaches the redactor through the extra-rules
    # hook: its searches join the combined scan, and both engines agree.
    from council_filters.redaction.secrets import load_rules
    from council_filters.redaction.secrets.engine import RuleCheck

    rules = load_rules("extended")
    rng = random.Random(5)
    data = b"".join(random_document(rng) for _ in range(40)) + (
        b"slack: xoxb-1234567890-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx\n"
        b"-----BEGIN PGP PRIVATE KEY BLOCK-----\nlQdGBF1abc\n"
    )
    saved = prefilter.WANT
    outs = []
    try:
        for name in ["re"] + (["hyperscan"] if HAVE_HS else []) + (["native"] if HAVE_C else []):
            prefilter.use(name)
            check = RuleCheck(rules)
            r = Redactor(rules=check)
            assert r.prefilter().ids == tuple(i for i, _ in check.prefilter) != ()
            outs.append(r.feed(data) + r.finish())
    finally:
        prefilter.use(saved)
    assert all(out == outs[0] for out in outs)
    assert outs[0] != redact(data)  # the extended set redacts more than the eleven


@pytest.mark.skipif(not HAVE_HS, reason="hyperscan is not installed (the 'fast' extra)")
def test_a_rules_run_loads_hyperscan_without_typing() -> None:
    """`--rules extended` over code starts without typing (hyperscan's package
    imports it for a record this project does not use: its compiled module is
    loaded alone), and hyperscan's names and version are the package's: an
    import of the package afterwards re-exports the very same module."""
    code = (
        "import sys\n"
        "from council_filters.cli import redact\n"
        "sys.argv = ['council-redact', '--rules', 'extended']\n"
        "rc = redact.main()\n"
        "from council_filters.redaction import prefilter\n"
        "hs = prefilter._hyperscan()\n"
        "heavy = sorted(n for n in ('typing', 'contextlib', 'threading', 'urllib.parse',"
        " 'hyperscan') if n in sys.modules)\n"
        "names = (hs.__version__, hs.Database, hs.Scratch, hs.error, hs.loadb)\n"
        "import hyperscan\n"
        "same = names == (hyperscan.__version__, hyperscan.Database, hyperscan.Scratch,"
        " hyperscan.error, hyperscan.loadb)\n"
        "sys.stderr.write(repr((rc, heavy, same)))\n"
    )
    env = {k: v for k, v in os.environ.items() if k not in (prefilter.ENV,)}
    env["PYTHONPATH"] = str(ROOT)
    text = b"password = 'Xk8#pq2Lm9zR'\n" + b"def f(x):\n    return x\n" * 50
    res = subprocess.run([sys.executable, "-c", code], input=text, capture_output=True,
                         env=env, check=False)
    assert res.stdout.startswith(b"--- redacted credential at line 1 ---\ndef f(x):\n")
    assert res.stderr == b"(0, [], True)"


def test_a_version_file_is_read_as_the_package_reads_it(tmp_path: Path) -> None:
    path = tmp_path / "_version.py"
    path.write_text('# generated\n__version__ = "1.2.3"\n')
    assert prefilter._version_of(str(path)) == "1.2.3"
    path.write_text("__version__ = '4.5'\n")
    assert prefilter._version_of(str(path)) == "4.5"
    assert prefilter._version_of(str(tmp_path / "missing.py")) == "unknown"


def _same_but_bounds(exact: object, wide: object) -> bool:
    import re._constants as c

    if type(exact).__name__ == "SubPattern":
        exact, wide = list(exact), list(wide)  # type: ignore[call-overload]
    if isinstance(exact, list):
        return (isinstance(wide, list) and len(exact) == len(wide)
                and all(_same_but_bounds(a, b) for a, b in zip(exact, wide, strict=True)))
    if isinstance(exact, tuple):
        if not isinstance(wide, tuple) or len(exact) != len(wide):
            return False
        if exact and exact[0] in (c.MAX_REPEAT, c.MIN_REPEAT) and wide[0] is exact[0]:
            (lo, hi, body), (lo2, hi2, body2) = exact[1], wide[1]
            bounds = (lo, hi) == (lo2, hi2) or (lo == lo2 and lo <= 1 and hi >= 10
                                                and hi2 == c.MAXREPEAT)
            return bounds and _same_but_bounds(body, body2)
        return all(_same_but_bounds(a, b) for a, b in zip(exact, wide, strict=True))
    return bool(exact == wide)


def test_unbounded_raises_only_the_upper_bounds_of_long_repeats() -> None:
    """prefilter.unbounded writes {0,N} and {1,N} (N >= 10) of a class or group
    as * and +, and nothing else: braces inside a class or escaped, short,
    lazy and possessive repeats stay; on every built-in search the automaton
    runs so, the parsed pattern is the exact one's with only those upper
    bounds raised (each match of the exact search is one of the wider)."""
    from re import _parser

    from council_filters.redaction.secrets import builtin, engine

    u = prefilter.unbounded
    assert u(rb"a[^ \t]{0,300}b") == rb"a[^ \t]*b"
    assert u(rb"(?:ab){1,64}c") == rb"(?:ab)+c"
    assert u(rb"[]{0,30}]{0,30}") == rb"[]{0,30}]*"
    assert u(rb"[^]{0,30}]{1,30}") == rb"[^]{0,30}]+"
    for kept in (rb"[a{0,30}]", rb"\{0,30}", rb"x{0,30}", rb"(a){0,9}", rb"(a){0,30}?",
                 rb"[x]{0,30}+", rb"[x]{2,30}", rb"[x[^]{1}"):
        assert u(kept) == kept
    forms = engine._unbounded_forms()
    assert len(forms) >= 10
    for exact, wide in forms.items():
        before = builtin.AUTOMATON_FORMS.get(exact, exact)
        assert _same_but_bounds(_parser.parse(before), _parser.parse(wide)), exact[:80]
    looked_at = [p for _, p, _, ids in builtin.SCANS if builtin.PEM in ids or builtin.OPENS in ids]
    assert looked_at and not set(looked_at) & set(forms)
