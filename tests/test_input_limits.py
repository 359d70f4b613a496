"""Input too large for memory is bad input (exit 1, one line), never MemoryError / exit 70."""

from __future__ import annotations

import io
import resource
import subprocess
import sys

import pytest

from council_filters.base import jsonl
from council_filters.base.errors import DataError


def test_a_line_over_the_limit_is_refused_naming_it() -> None:
    stream = io.BytesIO(b"ok\n" + b"x" * 11 + b"\nlater\n")
    lines = jsonl.iter_lines(stream, limit=10, source="in.jsonl")
    assert next(lines) == b"ok\n"
    with pytest.raises(DataError) as exc:
        next(lines)
    assert exc.value.render("council-x") == (
        "council-x: in.jsonl:2: input too large: a line longer than 0 MiB"
    )


@pytest.mark.parametrize("data", [b"x" * 9 + b"\n", b"x" * 10, b"x" * 10 + b"\n"])
def test_lines_at_the_limit_pass(data: bytes) -> None:
    assert list(jsonl.iter_lines(io.BytesIO(data), limit=10)) == [data]


def test_read_all_is_bounded() -> None:
    assert jsonl.read_all(["-"], io.BytesIO(b"y" * 10), limit=10) == b"y" * 10
    with pytest.raises(DataError, match="input too large"):
        jsonl.read_all(["-"], io.BytesIO(b"y" * 11), limit=10)


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (800 << 20, 800 << 20))


@pytest.mark.slow
@pytest.mark.parametrize(
    "argv",
    [["redact", "--jsonl"], ["redact"], ["fence", "--jsonl"], ["fence", "--label", "x"],
     ["parse-verdict", "--jsonl"], ["parse-verdict"], ["consolidate"], ["dispatch"],
     ["state", "--file", "/dev/zero", "status"]],
    ids=" ".join,
)
def test_dev_zero_under_a_memory_limit_is_exit_1(argv: list[str]) -> None:
    module = "council_filters.cli." + argv[0].replace("-", "_")
    with open("/dev/zero", "rb") as zero:
        res = subprocess.run([sys.executable, "-m", module, *argv[1:]], stdin=zero,
                             capture_output=True, preexec_fn=_limit_memory, timeout=300)
    err = res.stderr.decode()
    assert res.returncode == 1, err
    assert "input too large" in err and "Traceback" not in err
    assert len(err.splitlines()) == 1
