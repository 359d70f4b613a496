"""council-redact command line: files, stdin, --check, --jsonl, errors, pipes, help."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import orjson
import pytest

from council_filters.cli import _shell as kit
from council_filters.cli import redact as cli

from conftest import run_filter

ROOT = Path(__file__).resolve().parent.parent
SECRET = "ghp_" + "Z" * 36
B = "-----BEGIN RSA PRIVATE KEY-----"
W = "MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun"
E = "-----END RSA PRIVATE KEY-----"


# --------------------------------------------------------------------------- #
# Text mode.
# --------------------------------------------------------------------------- #
def test_stdin_to_stdout() -> None:
    code, out, err = run_filter("redact", [], f"ok\n{SECRET}\nlast".encode())
    assert (code, err) == (0, "")
    assert out == b"ok\n--- redacted credential at line 2 ---\nlast\n"


def test_files_and_dash_are_one_stream(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_bytes(f"{B}\n{W}".encode())  # no final newline
    (tmp_path / "c.txt").write_bytes(f"{E}\nafter {SECRET}\n".encode())
    code, out, err = run_filter("redact", [str(tmp_path / "a.txt"), "-", str(tmp_path / "c.txt")],
                                f"{W}\n".encode())
    assert (code, err) == (0, "")
    assert out.split(b"\n") == [
        b"--- redacted PEM key block at line 1 ---",
        b"--- redacted PEM key block at line 2 ---",
        b"--- redacted PEM key block at line 3 ---",
        b"--- redacted PEM key block at line 4 ---",
        b"--- redacted credential at line 5 ---",
        b"",
    ]


def test_missing_file_is_exit_2_after_earlier_files(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_bytes(b"first\n")
    missing = str(tmp_path / "nope.txt")
    code, out, err = run_filter("redact",
                                [str(tmp_path / "a.txt"), missing, str(tmp_path / "a.txt")])
    assert code == kit.EXIT_USAGE
    assert out == b"first\n"
    assert err == f"council-redact: {missing}: cannot open: No such file or directory\n"


@pytest.mark.parametrize("rules", [[], ["--rules", "extended"]])
def test_a_directory_is_exit_2_after_earlier_files_not_an_internal_error(
        tmp_path: Path, rules: list[str]) -> None:
    # the plain form runs on descriptors, where opening a directory succeeds and reading
    # it fails: it is refused as an input that cannot be read, as mawk refuses it (exit 2)
    (tmp_path / "a.txt").write_bytes(b"first\n")
    res = subprocess.run(
        [str(ROOT / "bin" / "council-redact"), *rules, str(tmp_path / "a.txt"), str(tmp_path)],
        capture_output=True, check=False)
    assert res.returncode == kit.EXIT_USAGE, res.stderr
    assert res.stdout == b"first\n"
    assert res.stderr == f"council-redact: {tmp_path}: cannot open: Is a directory\n".encode()


def test_empty_input_gives_empty_output() -> None:
    assert run_filter("redact", []) == (0, b"", "")


# --------------------------------------------------------------------------- #
# --check.
# --------------------------------------------------------------------------- #
def test_check_clean_is_exit_0_and_silent() -> None:
    assert run_filter("redact", ["--check"], b"nothing here\n") == (0, b"", "")


def test_check_counts_per_pattern() -> None:
    data = f"{SECRET}\nsk-{'a' * 20}\nsk-{'b' * 20}\n{B}\n{W}\n{E}\nok\n".encode()
    code, out, err = run_filter("redact", ["--check"], data)
    assert (code, out) == (kit.EXIT_CONDITION, b"")
    assert err.splitlines() == [
        "stdin:1: github-token",
        "stdin:2: openai (lines 2-3)",
        "stdin:4: pem-private-key (lines 4-6)",
        "council-redact: openai: 2 lines",
        "council-redact: github-token: 1 line",
        "council-redact: pem-private-key: 3 lines",
        "council-redact: 6 lines would be redacted",
    ]
    assert SECRET not in err


def test_check_with_jsonl() -> None:
    rec = {"kind": "reviewer", "output": f"x\n{SECRET}", "stderr": ""}
    code, out, err = run_filter("redact", ["--jsonl", "--check"], orjson.dumps(rec) + b"\n")
    assert (code, out) == (3, b"")
    assert "github-token: 1 line" in err


# --------------------------------------------------------------------------- #
# --jsonl.
# --------------------------------------------------------------------------- #
def records(out: bytes) -> list[dict[str, object]]:
    return [orjson.loads(line) for line in out.splitlines()]


def test_jsonl_redacts_fields_and_keeps_the_rest_in_order() -> None:
    rec = {"kind": "reviewer", "reviewer": "codex", "output": f"a\n{SECRET}\nb\n",
           "extra": [1, {"x": SECRET}], "stderr": f"warn {SECRET}"}
    code, out, err = run_filter("redact", ["--jsonl"], orjson.dumps(rec) + b"\n")
    assert (code, err) == (0, "")
    (got,) = records(out)
    assert list(got) == ["kind", "reviewer", "output", "extra", "stderr", "redacted_lines"]
    assert got["output"] == "a\n--- redacted credential at line 2 ---\nb\n"
    assert got["stderr"] == "--- redacted credential at line 1 ---"  # no newline added
    assert got["extra"] == [1, {"x": "--- redacted credential at line 1 ---"}]  # nested too
    assert got["redacted_lines"] == {"output": [2], "stderr": [1], "extra/1/x": [1]}


def test_jsonl_default_reaches_every_string_value() -> None:
    rec = {"kind": "verdict", "summary": f"see {SECRET}", "n": 3, "ok": True, "none": None,
           "findings": [{"summary": "fine"}, {"summary": SECRET, "tags": ["a", SECRET]}],
           "a/b~c": {"": SECRET}, SECRET: "key names are not values"}
    code, out, _ = run_filter("redact", ["--jsonl"], orjson.dumps(rec) + b"\n")
    (got,) = records(out)
    placeholder = "--- redacted credential at line 1 ---"
    values = {k: v for k, v in got.items() if k != SECRET}
    assert code == 0 and SECRET not in orjson.dumps(values).decode()
    assert got["summary"] == placeholder and got["findings"][0] == {"summary": "fine"}
    assert got["findings"][1] == {"summary": placeholder, "tags": ["a", placeholder]}
    assert (got["n"], got["ok"], got["none"]) == (3, True, None)
    assert got["redacted_lines"] == {
        "summary": [1], "findings/1/summary": [1], "findings/1/tags/1": [1], "a~1b~0c/": [1],
    }
    # --field narrows to the named top-level strings
    code, out, _ = run_filter("redact", ["--jsonl", "--field", "summary"],
                              orjson.dumps(rec) + b"\n")
    (got,) = records(out)
    assert got["summary"] == placeholder and got["findings"] == rec["findings"]
    assert got["redacted_lines"] == {"summary": [1]}


def test_jsonl_each_value_on_its_own() -> None:
    # A BEGIN in one field does not open a block in the next; lines restart at 1.
    rec = {"kind": "reviewer", "output": f"{B}\n{W}", "stderr": f"{W}\n{SECRET}"}
    code, out, _ = run_filter("redact", ["--jsonl"], orjson.dumps(rec) + b"\n")
    (got,) = records(out)
    assert got["stderr"] == f"{W}\n--- redacted credential at line 2 ---"
    assert got["redacted_lines"] == {"output": [1, 2], "stderr": [2]}


def test_jsonl_missing_field_passes_and_field_option() -> None:
    lines = [{"kind": "a"}, {"kind": "b", "text": SECRET, "output": SECRET}]
    data = b"".join(orjson.dumps(r) + b"\n" for r in lines)
    code, out, _ = run_filter("redact", ["--jsonl", "--field", "text"], data)
    got = records(out)
    assert code == 0
    assert got[0] == {"kind": "a", "redacted_lines": {}}
    assert got[1]["text"] == "--- redacted credential at line 1 ---"
    assert got[1]["output"] == SECRET  # not named
    assert got[1]["redacted_lines"] == {"text": [1]}


def test_jsonl_rewrites_an_existing_redacted_lines_in_place() -> None:
    rec = {"kind": "r", "redacted_lines": {"output": [9]}, "output": "fine"}
    _, out, _ = run_filter("redact", ["--jsonl"], orjson.dumps(rec) + b"\n")
    assert out == b'{"kind":"r","redacted_lines":{"output":[]},"output":"fine"}\n'


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (b'{"kind":"r","output":42}', "stdin:2: field 'output' is number, expected a string"),
        (b'{"kind":"r","stderr":["' + SECRET.encode() + b'"]}',
         "stdin:2: field 'stderr' is array, expected a string"),
        (b'["' + SECRET.encode() + b'"]', "stdin:2: expected a JSON object, got array"),
        (b'{"kind": "' + SECRET.encode() + b'"', "stdin:2: invalid JSON"),
    ],
)
def test_jsonl_bad_line_is_exit_1_naming_the_line(line: bytes, message: str) -> None:
    data = b'{"kind":"ok","output":"x"}\n' + line + b'\n{"kind":"later"}\n'
    code, out, err = run_filter("redact", ["--jsonl"], data)
    assert code == kit.EXIT_DATA
    assert err.startswith("council-redact: " + message)
    assert err.count("\n") == 1
    assert SECRET not in err
    assert records(out) == [{"kind": "ok", "output": "x", "redacted_lines": {"output": []}}]


def test_jsonl_keep_going_writes_error_records() -> None:
    data = (b'{"kind":"r","output":1}\nnot json ' + SECRET.encode()
            + b'\n{"kind":"r","output":"y"}\n')
    code, out, err = run_filter("redact", ["--jsonl", "--keep-going"], data)
    assert (code, err) == (0, "")
    got = records(out)
    assert got[0] == {"kind": "error", "line": 1,
                      "error": "field 'output' is number, expected a string"}
    assert got[1]["kind"] == "error" and got[1]["line"] == 2
    assert got[2] == {"kind": "r", "output": "y", "redacted_lines": {"output": []}}
    assert SECRET not in out.decode()


def test_jsonl_blank_lines_are_skipped_but_counted() -> None:
    code, out, err = run_filter("redact", ["--jsonl"], b'\n\n{"kind":"r","output":3}\n')
    assert code == 1 and "stdin:3:" in err


# --------------------------------------------------------------------------- #
# Usage, help, version.
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize("args", [["--field", "x"], ["--keep-going"], ["--nope"]])
def test_usage_errors_are_exit_2(args: list[str]) -> None:
    code, out, err = run_filter("redact", args, b"x\n")
    assert code == kit.EXIT_USAGE and out == b""
    assert err.startswith("council-redact: ")


def test_help_teaches() -> None:
    code, out, _ = run_filter("redact", ["--help"])
    text = out.decode() if out else ""
    if not text:  # click writes help through its own echo to the real stdout
        res = subprocess.run([sys.executable, "-m", "council_filters.cli.redact", "--help"],
                             capture_output=True, text=True, cwd=ROOT, check=True)
        text = res.stdout
    assert code == 0
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    assert lines[1] == "Redact credentials in text: like `awk -f redact.awk`, byte for byte."
    assert "Examples:" in text and "| council-redact" in text
    for code_line in ("0   ok", "1   bad input", "2   usage", "3   the condition", "70  internal"):
        assert code_line in text
    for option in ("--jsonl", "--field", "--keep-going", "--check", "--version"):
        assert option in text
    for name in cli.PATTERN_NAMES:
        assert name in text


def test_version() -> None:
    code, out, _ = run_filter("redact", ["--version"])
    assert code == 0 and out.startswith(b"council-redact ")


# --------------------------------------------------------------------------- #
# As a process: the launcher, a closed pipe.
# --------------------------------------------------------------------------- #
def test_launcher_and_closed_pipe_is_quiet(tmp_path: Path) -> None:
    big = tmp_path / "big.txt"
    big.write_bytes(b"".join(b"line %d\n" % i for i in range(300000)))
    script = f"{ROOT / 'bin' / 'council-redact'} {big} | head -n 2"
    res = subprocess.run(["sh", "-c", script], capture_output=True, text=True, check=False)
    assert res.stdout == "line 0\nline 1\n"
    assert res.stderr == ""


def test_launcher_with_options_and_closed_pipe() -> None:
    rec = b'{"kind":"r","output":"x"}\n' * 50000
    res = subprocess.run(
        ["sh", "-c", f"{ROOT / 'bin' / 'council-redact'} --jsonl | head -n 1"],
        input=rec, capture_output=True, check=False,
    )
    assert res.stdout == b'{"kind":"r","output":"x","redacted_lines":{"output":[]}}\n'
    assert res.stderr == b""


@pytest.mark.parametrize("instruction,needle", [
    ("source_bash", b"_council_redact_completion()"),
    ("source_zsh", b"#compdef council-redact"),
])
def test_shell_completion_without_arguments(instruction, needle):
    """The fast no-option path must not swallow a completion request (and read stdin)."""
    res = subprocess.run([str(ROOT / "bin" / "council-redact")], input=b"plain text\n",
                         env={**os.environ, "_COUNCIL_REDACT_COMPLETE": instruction},
                         capture_output=True, check=False)
    assert res.returncode == 0, res.stderr
    assert needle in res.stdout
    assert b"plain text" not in res.stdout


def test_the_collector_is_held_for_the_start_up_only(
    tmp_path: Path, capfdbinary: pytest.CaptureFixture[bytes]
) -> None:
    """The command's own run holds the garbage collector while it starts (the
    modules and rules live to the end) and lets it run again for the input,
    whose memory stays bounded: collections happen while lines are read."""
    import gc

    data = b"".join(b"db_password = 'Xk8pq2Lm9zR%d' and more text\n" % i for i in range(60000))
    src = tmp_path / "in.txt"
    src.write_bytes(data)
    during: list[bool] = []

    def seen(phase: str, _info: dict[str, int]) -> None:
        if phase == "start":
            during.append(cli._held_gc[0])

    assert gc.isenabled()
    gc.callbacks.append(seen)
    try:
        cli._hold_gc()
        assert not gc.isenabled() and cli._held_gc[0]
        from council_filters.redaction.records import load_rules

        assert cli._redact_plain_fds([str(src)], load_rules("extended")) == 0
        assert gc.isenabled() and not cli._held_gc[0]
        assert gc.get_freeze_count() > 0
    finally:
        gc.callbacks.remove(seen)
        gc.unfreeze()
        gc.enable()
    out = capfdbinary.readouterr().out
    assert out.count(b"--- redacted credential at line") == 60000
    assert during and not any(during)  # collections ran, none while held


def test_the_collector_is_left_alone_when_called_in_process() -> None:
    import gc

    code, _out, _err = run_filter("redact", ["--rules", "extended"], b"some text\n")
    assert code == 0 and gc.isenabled() and gc.get_freeze_count() == 0
