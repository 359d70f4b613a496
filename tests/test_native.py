"""The compiled path: the native prefilter, the writev sink and redact_fd.

The native scan must report exactly the lines that hold a built-in trigger,
at every vector width and wherever a trigger falls against the vector
blocks; redact_fd must give the bytes of the line machine for any input
split, over pipes that deliver a little at a time, non-blocking descriptors,
long lines and several inputs in one stream; and failures must surface as
the OSError of the failing call (a closed pipe, a directory) or as the
exception of a signal handler, never as a hang.
"""

from __future__ import annotations

import errno
import fcntl
import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from redact_fragments import SECRETS, documents, lines, random_document
from redact_oracles import redact_simple

from council_filters.redaction import native, prefilter
from council_filters.redaction.machine import _BEGIN, credential_in
from council_filters.redaction.patterns import CREDENTIAL_PATTERNS

m = native.compiled()
pytestmark = pytest.mark.skipif(
    m is None, reason="the compiled module is not built (no C compiler at install)")
SETTINGS = settings(max_examples=150, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow,
                                           HealthCheck.function_scoped_fixture])
WIDTHS = (0, 16, 32)


@pytest.fixture(params=WIDTHS)
def width(request: pytest.FixtureRequest) -> Iterator[int]:
    """The native scan at each vector width (a width the processor lacks is skipped)."""
    best = m.vector_width()
    got = m.vector_width(request.param)
    try:
        if got != request.param:
            pytest.skip(f"this processor has no {request.param}-byte scan")
        yield got
    finally:
        m.vector_width(best)


def expected_lines(data: bytes) -> list[int]:
    """0-based numbers of the lines that hold a credential shape or a BEGIN marker."""
    return [i for i, line in enumerate(data.split(b"\n")[:-1])
            if credential_in(line) is not None or _BEGIN.search(line)]


def scanned_lines(data: bytes) -> list[int]:
    return [data.count(b"\n", 0, at) for at in m.scan(data, 0, len(data))]


def redact_fd_bytes(data: bytes, chunk: int = 1 << 20) -> bytes:
    """data through redact_fd, from a file to a file."""
    import tempfile

    with tempfile.TemporaryFile() as fin, tempfile.TemporaryFile() as fout:
        fin.write(data)
        fin.seek(0)
        n_in, n_out = m.redact_fd(fin.fileno(), fout.fileno(), native.fresh_state(), chunk)
        fout.seek(0)
        out = fout.read()
    assert (n_in, n_out) == (len(data), len(out))
    return out


# --------------------------------------------------------------------------- #
# The scan.
# --------------------------------------------------------------------------- #
@SETTINGS
@given(st.lists(lines(), max_size=40))
def test_scan_reports_exactly_the_trigger_lines(width: int, body: list[bytes]) -> None:
    data = b"".join(line.replace(b"\n", b" ") + b"\n" for line in body)
    assert scanned_lines(data) == expected_lines(data)


def test_every_shape_at_every_offset_against_the_vector_blocks(width: int) -> None:
    # Each trigger (and its one-short near miss) placed at offsets 0..70 of a
    # line, after lines of other lengths: the pair straddles every block edge.
    shapes = []
    for p in CREDENTIAL_PATTERNS:
        for prefix in (p.prefix.replace(b"[pous]", bytes([c])) for c in b"pous"):
            shapes.append(prefix + b"A7" * p.tail_len)
    shapes += [b"-----BEGIN RSA PRIVATE KEY-----", b"-----BEGIN PRIVATE KEY-----"] + list(SECRETS)
    for shape in shapes:
        for cut in (len(shape), len(shape) - 1):
            piece = shape[:cut]
            rows = [b"x" * off + piece + b" tail" for off in range(71)]
            for lead in range(3):
                data = b"\n" * lead + b"\n".join(rows) + b"\n"
                assert scanned_lines(data) == expected_lines(data), (piece, lead)


def test_scan_of_a_range_and_of_nothing(width: int) -> None:
    key = b"ghp_" + b"a" * 36
    data = b"one\n" + key + b"\nthree\n" + key + b"\n"
    second = data.index(b"three")
    (at,) = m.scan(data, second, len(data))  # a position inside the key's line
    assert data.rindex(key) <= at < len(data) - 1
    assert m.scan(data, 0, 0) == []
    assert m.scan(b"", 0, 0) == []
    with pytest.raises(ValueError):
        m.scan(data, 5, len(data) + 1)


@given(st.binary(max_size=3000), st.integers(0, 3000), st.integers(0, 3000))
@SETTINGS
def test_count_lines_is_bytes_count_on_any_range(data: bytes, a: int, b: int) -> None:
    """The vector newline count the rules' line machine passes runs of lines with."""
    data = data.replace(b"\x00", b"\n")  # dense in newlines too
    a, b = sorted((min(a, len(data)), min(b, len(data))))
    assert m.count_lines(data, a, b) == data.count(b"\n", a, b)
    assert m.count_lines(memoryview(data), a, b) == data.count(b"\n", a, b)
    with pytest.raises(ValueError):
        m.count_lines(data, b, len(data) + 1)
    with pytest.raises(ValueError):
        m.count_lines(data, 1, 0)


def test_count_lines_past_the_byte_lanes_limit() -> None:
    """Long runs of newlines (more than 255 in one vector lane) count right."""
    big = b"\n" * 9001 + b"ab\n" * 3000 + b"\n" * 4100
    for a, b in ((0, len(big)), (1, len(big) - 1), (17, 9001), (9000, 9002), (5, 5)):
        assert m.count_lines(big, a, b) == big.count(b"\n", a, b)


@given(st.lists(st.sampled_from([b"", b"a", b"ab", b"ba", b"x" * 40, b"\xff\x00", b"ab "]),
                max_size=60), st.data())
@SETTINGS
def test_line_slices_are_the_lines_and_repeats_share_one_object(
    body: list[bytes], data: st.DataObject
) -> None:
    """The candidates' lines as slicing gives them, one object per distinct line."""
    buf = b"".join(line + b"\n" for line in body)
    starts = [0]
    for line in body[:-1]:
        starts.append(starts[-1] + len(line) + 1)
    cands = [(at, 2) for at in starts[: len(body)]]
    cands = data.draw(st.lists(st.sampled_from(cands), max_size=80)) if cands else []
    got = m.line_slices(buf, cands)
    assert got == [buf[at : buf.index(b"\n", at)] for at, _ in cands]
    assert m.line_slices(memoryview(buf), cands) == got
    first: dict[bytes, bytes] = {}
    for line in got:
        assert first.setdefault(line, line) is line  # (the same bytes: the same object)


def test_line_slices_refuse_what_is_not_a_whole_line() -> None:
    buf = b"ab\ncd"
    assert m.line_slices(buf, []) == []
    assert m.line_slices(buf, [(0, 1), (3, 1)][:1]) == [b"ab"]
    for bad in ([(3, 1)], [(7, 1)], [(-1, 1)], [3], [()]):
        with pytest.raises((ValueError, TypeError)):
            m.line_slices(buf, bad)


@given(st.lists(st.sampled_from([b"", b"a", b"ab", b"ba", b"x" * 40, b"\xff\x00", b"ab ",
                                 b"a" * 8, b"a" * 9]), max_size=60), st.data())
@SETTINGS
def test_distinct_keeps_each_line_once_and_hands_candidates_back(
    body: list[bytes], data: st.DataObject
) -> None:
    """Distinct: every distinct line once, in order of first appearance; a
    candidate of that text comes back on every line of the same bytes."""
    buf = b"".join(line + b"\n" for line in body)
    d = m.Distinct(buf, 0, len(buf), 0, 1000)
    kept = list(dict.fromkeys(body))
    assert d.text == b"".join(line + b"\n" for line in kept)
    chosen = data.draw(st.lists(st.sampled_from(range(len(kept))), unique=True)) if kept else []
    text_starts = [sum(len(x) + 1 for x in kept[:i]) for i in range(len(kept))]
    cands = sorted((text_starts[i], 2 << i) for i in chosen)
    starts = [sum(len(x) + 1 for x in body[:i]) for i in range(len(body))]
    want = [(at, 2 << kept.index(line)) for at, line in zip(starts, body, strict=True)
            if kept.index(line) in chosen]
    assert d.expand(cands) == want
    # a range of the buffer (from a line's start) is its own lines
    if body:
        cut = data.draw(st.integers(0, len(body) - 1))
        part = m.Distinct(buf, starts[cut], len(buf), 0, 1000)
        assert part.text == b"".join(line + b"\n" for line in dict.fromkeys(body[cut:]))


def test_distinct_gives_up_on_lines_that_do_not_repeat_and_on_a_cut_line() -> None:
    repeated = b"the same line\n" * 100
    assert m.Distinct(repeated, 0, len(repeated), 200, 500).text == b"the same line\n"
    fresh = b"".join(b"line %d\n" % i for i in range(100))
    assert m.Distinct(fresh, 0, len(fresh), 200, 500).text is None  # (more than half distinct)
    assert m.Distinct(fresh, 0, len(fresh), 0, 500).text == fresh  # (no sample: always kept)
    # many short lines alike but for a byte or two: told apart by the hash, not
    # given up on as lines made to collide
    many = b"".join(b"line %d\n" % i for i in range(200000)) + b"line 7\n"
    assert m.Distinct(many, 0, len(many), 0, 1000).text == many[: -len(b"line 7\n")]
    assert m.Distinct(b"ab\ncd", 0, 5, 0, 1000).text is None  # (no newline ends the last)
    assert m.Distinct(b"", 0, 0, 0, 1000).text == b""
    d = m.Distinct(repeated, 0, len(repeated), 0, 1000)
    for bad in ([(1, 2)], [(99, 2)], [(0, 2), (0, 4)][1:] + [(-1, 2)], [3], [(0,)]):
        with pytest.raises((ValueError, TypeError)):
            d.expand(bad)
    with pytest.raises(ValueError):
        m.Distinct(repeated, 5, 2, 0, 1000)
    with pytest.raises(ValueError):
        m.Distinct(fresh, 0, len(fresh), 200, 500).expand([])


def test_the_prefilter_engine_named_native_is_the_compiled_scan() -> None:
    saved = prefilter.WANT
    try:
        prefilter.use("native")
        data = b"a\nsk-" + b"b" * 20 + b"\nc\n"
        assert prefilter.get().engine_for(len(data)) == "native"
        assert prefilter.get().hits(data, 0, len(data)) == m.scan(data, 0, len(data))
        # Extra rules never run on the native engine.
        pf = prefilter.get([("k1", rb"zebra[0-9]{3}")])
        assert pf.engine_for(len(data)) in ("re", "hyperscan")
    finally:
        prefilter.use(saved)


# --------------------------------------------------------------------------- #
# Whole inputs.
# --------------------------------------------------------------------------- #
@SETTINGS
@given(documents(), st.integers(min_value=1, max_value=300))
def test_redact_fd_is_the_line_machine(width: int, data: bytes, chunk: int) -> None:
    assert redact_fd_bytes(data, chunk) == redact_simple(data)


def test_redact_fd_fresh_random_corpus(width: int) -> None:
    # A fresh corpus every run (the seed is drawn, and shown on failure).
    seed = random.SystemRandom().randrange(1 << 30)
    rng = random.Random(seed)
    data = b"".join(random_document(rng) for _ in range(400))
    for chunk in (1 << 20, 4096, 61):
        assert redact_fd_bytes(data, chunk) == redact_simple(data), f"seed {seed}"


@pytest.mark.parametrize("data", [
    b"", b"\n", b"no newline", b"sk-" + b"a" * 20, b"\n\n\n",
    b"x" * 100_000 + b" sk-" + b"a" * 20 + b"\n" + b"y" * 70_000,
    b"-----BEGIN PRIVATE KEY-----\n" + b"QUJD" * 50_000 + b"\n-----END PRIVATE KEY-----",
    b"1. " * 50_000 + b"-----BEGIN RSA PRIVATE KEY-----\n",
])
def test_redact_fd_edges(data: bytes) -> None:
    # Lines far longer than the buffer grow it; a last line gets its newline.
    for chunk in (1 << 20, 1000, 1):
        assert redact_fd_bytes(data, chunk) == redact_simple(data)


def test_state_runs_on_from_one_input_into_the_next(tmp_path: Path) -> None:
    parts = [b"one\n-----BEGIN PRIVATE KEY-----\nQUJD", b"REVG\n-----END PRIVATE KEY-----\n",
             b"sk-" + b"z" * 20]
    out_path = tmp_path / "out"
    state = native.fresh_state()
    with out_path.open("wb") as out:
        for i, part in enumerate(parts):
            src = tmp_path / f"in{i}"
            src.write_bytes(part)
            fd = os.open(src, os.O_RDONLY)
            try:
                m.redact_fd(fd, out.fileno(), state)
            finally:
                os.close(fd)
    # As awk: each input's last line is a line of its own; numbers run on.
    expected = redact_simple(b"".join(p if p.endswith(b"\n") else p + b"\n" for p in parts))
    assert out_path.read_bytes() == expected
    assert state[0] == expected.count(b"\n")


def _pump(fd: int, data: bytes, piece: int, pause: float) -> threading.Thread:
    """Write data to fd a piece at a time (then close it), in a thread."""

    def run() -> None:
        try:
            view = memoryview(data)
            while view:
                try:
                    n = os.write(fd, view[:piece])
                except BlockingIOError:
                    time.sleep(0.001)
                    continue
                view = view[n:]
                if pause:
                    time.sleep(pause)
        finally:
            os.close(fd)

    t = threading.Thread(target=run, daemon=True)
    t.start()
    return t


def _drain(fd: int, sink: list[bytes], pause: float = 0.0) -> threading.Thread:
    def run() -> None:
        while True:
            try:
                chunk = os.read(fd, 65536)
            except BlockingIOError:
                time.sleep(0.001)
                continue
            if not chunk:
                break
            sink.append(chunk)
            if pause:
                time.sleep(pause)
        os.close(fd)

    t = threading.Thread(target=run, daemon=True)
    t.start()
    return t


@pytest.mark.parametrize("nonblocking", [False, True])
def test_pipes_a_little_at_a_time_and_non_blocking(nonblocking: bool) -> None:
    rng = random.Random(3)
    data = b"".join(random_document(rng) for _ in range(200))
    in_r, in_w = os.pipe()
    out_r, out_w = os.pipe()
    if nonblocking:  # EAGAIN on both sides: the machine waits with poll()
        for fd in (in_r, out_w, in_w, out_r):
            fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) | os.O_NONBLOCK)
    got: list[bytes] = []
    writer = _pump(in_w, data, 777, 0.0)
    reader = _drain(out_r, got, 0.0005)
    try:
        n_in, n_out = m.redact_fd(in_r, out_w, native.fresh_state(), 4096)
    finally:
        os.close(in_r)
        os.close(out_w)
    writer.join(10)
    reader.join(10)
    out = b"".join(got)
    assert out == redact_simple(data)
    assert (n_in, n_out) == (len(data), len(out))


def test_a_live_pipe_is_not_waited_on() -> None:
    # A line that has arrived is redacted and written before the input ends.
    proc = subprocess.Popen([sys.executable, "-m", "council_filters.cli.redact"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert proc.stdin is not None and proc.stdout is not None
    try:
        proc.stdin.write(b"first sk-" + b"q" * 20 + b"\nsecond\n")
        proc.stdin.flush()
        seen = b""
        deadline = time.monotonic() + 20
        while seen.count(b"\n") < 2 and time.monotonic() < deadline:
            seen += os.read(proc.stdout.fileno(), 4096)
        assert seen == b"--- redacted credential at line 1 ---\nsecond\n"
    finally:
        proc.stdin.close()
        proc.wait(20)
    assert proc.returncode == 0


def test_a_closed_output_pipe_is_a_broken_pipe_error(tmp_path: Path) -> None:
    src = tmp_path / "in"
    src.write_bytes(b"line\n" * 200_000)
    out_r, out_w = os.pipe()
    os.close(out_r)
    fd = os.open(src, os.O_RDONLY)
    try:
        with pytest.raises(BrokenPipeError):
            m.redact_fd(fd, out_w, native.fresh_state())
    finally:
        os.close(fd)
        os.close(out_w)


def test_an_unreadable_input_is_its_os_error(tmp_path: Path) -> None:
    fd = os.open(tmp_path, os.O_RDONLY)
    out = os.open(os.devnull, os.O_WRONLY)
    try:
        with pytest.raises(OSError) as info:
            m.redact_fd(fd, out, native.fresh_state())
        assert info.value.errno == errno.EISDIR
    finally:
        os.close(fd)
        os.close(out)


def test_a_signal_handler_interrupts_a_blocked_read() -> None:
    # Ctrl-C (here: SIGALRM whose handler raises) must stop a redaction that
    # waits on an idle pipe, not be held until the input ends.
    in_r, in_w = os.pipe()
    out = os.open(os.devnull, os.O_WRONLY)

    def handler(_sig: int, _frame: object) -> None:
        raise TimeoutError("interrupted")

    old = signal.signal(signal.SIGALRM, handler)
    signal.setitimer(signal.ITIMER_REAL, 0.2)
    start = time.monotonic()
    try:
        with pytest.raises(TimeoutError):
            m.redact_fd(in_r, out, native.fresh_state())
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
        for fd in (in_r, in_w, out):
            os.close(fd)
    assert time.monotonic() - start < 10


def test_run_all_writes_to_a_descriptor_or_counts(tmp_path: Path) -> None:
    rng = random.Random(8)
    data = b"".join(random_document(rng) for _ in range(50))
    end = data.rindex(b"\n") + 1
    expected = redact_simple(data[:end])
    path = tmp_path / "out"
    with path.open("wb") as out:
        assert m.run_all(data, end, None, native.fresh_state(), None, out.fileno()) == len(expected)
    assert path.read_bytes() == expected
    assert m.run_all(data, end, None, native.fresh_state(), None, -1) == len(expected)
    assert m.run_all(data, end, None, native.fresh_state()) == expected
    with pytest.raises(TypeError):  # a buffer must end with its last line's newline
        m.run_all(b"no newline", 10, None, native.fresh_state())


def test_a_clean_buffer_comes_back_uncopied() -> None:
    # Nothing to redact: the very input object is the output (no copy of a
    # large clean buffer); with a redaction, one new object of the right bytes.
    data = b"clean line\n" * 10_000
    assert m.run_all(data, len(data), None, native.fresh_state()) is data
    dirty = data + b"sk-" + b"x" * 20 + b"\n" + data
    out = m.run_all(dirty, len(dirty), None, native.fresh_state())
    assert out == redact_simple(dirty) and out is not dirty
    # A part of the input, or an input that is not bytes, is copied.
    assert m.run_all(data, 11, None, native.fresh_state()) == b"clean line\n"
    view = memoryview(bytearray(data))
    assert m.run_all(view, len(data), None, native.fresh_state()) == data


# --------------------------------------------------------------------------- #
# Start-up.
# --------------------------------------------------------------------------- #
def test_the_plain_form_loads_no_regex_or_typing() -> None:
    # The plain form on the compiled path must not pay for re, typing or the
    # record plumbing at start-up (start-up is most of a small input's time).
    code = (
        "import sys\n"
        "from council_filters.cli import redact\n"
        "sys.argv = ['council-redact']\n"
        "rc = redact.main()\n"
        "heavy = sorted(n for n in ('re', 'typing', 'dataclasses',"
        " 'council_filters.redaction.machine',"
        " 'council_filters.redaction.records', 'typer') if n in sys.modules)\n"
        "sys.stderr.write(repr((rc, heavy)))\n"
    )
    env = {k: v for k, v in os.environ.items() if k not in (prefilter.ENV, native.MACHINE_ENV)}
    env["PYTHONPATH"] = str(Path(__file__).resolve().parent.parent)
    res = subprocess.run([sys.executable, "-S", "-c", code], input=b"sk-" + b"a" * 20 + b"\n",
                         capture_output=True, env=env, check=False)
    assert res.stdout == b"--- redacted credential at line 1 ---\n"
    assert res.stderr == b"(0, [])"
