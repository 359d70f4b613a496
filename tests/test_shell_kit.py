"""The shared kit: JSON Lines decoding, error format, exit codes, broken pipes."""

from __future__ import annotations

import functools

import pytest
import typer

from council_filters.cli import _shell as kit

from conftest import run_filter


def make_app():
    app = kit.make_app("Test filter.", kit.exit_code_table())

    @app.command()
    def cmd(
        paths: list[str] = typer.Argument(None),
        keep_going: bool = typer.Option(False, "--keep-going"),
        boom: str = typer.Option("", "--boom"),
    ) -> int:
        s = kit.streams()
        if boom == "internal":
            raise RuntimeError("secret-token-should-not-appear")
        if boom == "pipe":
            raise BrokenPipeError
        w = kit.RecordWriter(s.stdout)
        for _src, _n, rec in kit.iter_jsonl(paths or [], s.stdin, keep_going=keep_going):
            w.write(kit.error_record(rec) if isinstance(rec, kit.CouncilError) else rec)
        return 0

    return app


def run(argv, data=b""):
    return run_filter(functools.partial(kit.run, make_app(), "council-test"), argv, data)


def test_records_pass_through_compact_and_in_order():
    code, out, err = run([], b'{"kind":"x", "b": 1, "a": [1, 2]}\n\n{"kind":"y"}\n')
    assert (code, err) == (0, "")
    assert out == b'{"kind":"x","b":1,"a":[1,2]}\n{"kind":"y"}\n'


def test_invalid_json_names_source_and_line_without_echoing_text():
    code, out, err = run([], b'{"kind":"x"}\n\n{"kind": sk-SECRETVALUE}\n')
    assert code == kit.EXIT_DATA
    assert err.startswith("council-test: stdin:3: invalid JSON: ")
    assert "SECRET" not in err
    assert out == b'{"kind":"x"}\n'


def test_non_object_is_a_data_error():
    code, _, err = run([], b"[1,2]\n")
    assert code == 1
    assert err == "council-test: stdin:1: expected a JSON object, got array\n"


def test_keep_going_emits_error_records():
    code, out, err = run(["--keep-going"], b'{"kind":"a"}\nnot json\n"str"\n{"kind":"b"}\n')
    assert code == 0
    lines = out.decode().splitlines()
    assert lines[0] == '{"kind":"a"}'
    assert lines[1].startswith('{"kind":"error","line":2,"error":"invalid JSON')
    assert lines[2] == '{"kind":"error","line":3,"error":"expected a JSON object, got string"}'
    assert lines[3] == '{"kind":"b"}'


def test_usage_error_exits_2():
    code, _, err = run(["--no-such-option"])
    assert code == kit.EXIT_USAGE
    assert err.startswith("council-test: usage: ")


def test_missing_file_is_usage_error(tmp_path):
    code, _, err = run([str(tmp_path / "absent.jsonl")])
    assert code == kit.EXIT_USAGE
    assert "cannot open: No such file or directory" in err


def test_internal_error_has_no_traceback_and_no_message_text(monkeypatch):
    monkeypatch.delenv("COUNCIL_DEBUG", raising=False)
    code, _, err = run(["--boom", "internal"])
    assert code == kit.EXIT_INTERNAL
    assert "Traceback" not in err and "secret-token" not in err
    assert err == (
        "council-test: internal error: RuntimeError (rerun with COUNCIL_DEBUG=1 for a traceback)\n"
    )


def test_debug_shows_traceback(monkeypatch):
    monkeypatch.setenv("COUNCIL_DEBUG", "1")
    code, _, err = run(["--boom", "internal"])
    assert code == kit.EXIT_INTERNAL
    assert "Traceback" in err


def test_broken_pipe_is_quiet():
    code, _, err = run(["--boom", "pipe"])
    assert (code, err) == (0, "")


@pytest.mark.parametrize(
    "value,name",
    [(None, "null"), (True, "boolean"), (1, "number"), (1.5, "number"), ("s", "string"),
     ([], "array"), ({}, "object")],
)
def test_json_type(value, name):
    assert kit.json_type(value) == name


def test_exit_code_table_lists_every_code():
    table = kit.exit_code_table()
    for code in (0, 1, 2, 3, 70):
        assert f"\n  {code:<3} " in table


def test_help_goes_to_the_injected_stdout():
    code, out, err = run(["--help"])
    assert code == 0 and err == ""
    assert b"Test filter." in out and b"Exit codes:" in out
