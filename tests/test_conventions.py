"""The house conventions, checked on every executable the way a user runs them.

Table-driven: errors are one located line with no traceback and no echoed
secret, exit codes stay in {0, 1, 2, 3, 70}, stdin and ``-`` are the same,
odd input (empty, invalid UTF-8, NUL, CRLF, huge lines, big integers, deep
nesting, duplicate keys) is handled, ``--keep-going`` writes error records,
fields a filter does not own pass through in order, a closed pipe is a quiet
0, ``--help`` teaches and ``--version`` works on every command form.
Most cases run ``main`` in-process; pipes and launchers run as subprocesses.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path
from typing import Any

import orjson
import pytest
import typer.main

from council_filters import __version__
from council_filters.cli import _shell as kit

from conftest import Result, child_env, cli_module, make_git_repo, run_filter, run_process

ROOT = Path(__file__).resolve().parent.parent
BIN = ROOT / "bin"
EXES = ("pack", "dispatch", "redact", "fence", "parse-verdict", "consolidate", "state", "context",
        "scan", "tests")
CODES = {0, 1, 2, 3, 70}
SECRET = "sk-ant-api03-" + "A" * 28
SECRET_B = SECRET.encode()


def records(out: bytes) -> list[dict[str, Any]]:
    return [orjson.loads(line) for line in out.splitlines()]


def assert_no_secret(res: Result) -> None:
    assert SECRET not in res.err
    assert SECRET_B not in res.out


def assert_one_error(res: Result, exe: str, code: int, where: str | None = None) -> str:
    """Exit ``code``, exactly one stderr line ``council-<exe>: [where: ]...``, nothing leaked."""
    assert res.code == code, res.err
    lines = res.err.splitlines()
    assert len(lines) == 1, res.err
    assert lines[0].startswith(f"council-{exe}: ")
    if where is not None:
        assert lines[0].startswith(f"council-{exe}: {where}: "), lines[0]
    assert "Traceback" not in res.err
    assert_no_secret(res)
    return lines[0]


@pytest.fixture
def state_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("COUNCIL_NOW", "2025-01-02T03:04:05Z")
    monkeypatch.delenv("COUNCIL_STATE", raising=False)
    path = str(tmp_path / "review-state.json")
    assert run_filter("state", ["--file", path, "init"]).code == 0
    return path


def jsonl_args(exe: str, state: str) -> list[str]:
    return {
        "dispatch": ["--command", "claude=cat"],
        "redact": ["--jsonl"],
        "fence": ["--jsonl"],
        "parse-verdict": ["--jsonl"],
        "consolidate": ["--format", "findings", "--no-source"],
        "state": ["--file", state, "add"],
    }[exe]


JSONL = ("dispatch", "redact", "fence", "parse-verdict", "consolidate", "state")
STREAMING = ("dispatch", "redact", "fence", "parse-verdict")  # the --keep-going record writers

# --------------------------------------------------------------------------- #
# Usage errors: exit 2, one line, no secret (bad options, values, files).
# --------------------------------------------------------------------------- #
USAGE = [
    *[(exe, ["--no-such-" + SECRET]) for exe in EXES],
    *[(exe, ["/nonexistent/" + SECRET]) for exe in ("dispatch", "redact", "parse-verdict")],
    ("redact", ["--jsonl", "/nonexistent/" + SECRET]),
    ("fence", ["--jsonl", "/nonexistent/" + SECRET]),
    ("consolidate", ["/nonexistent/" + SECRET]),
    ("pack", [SECRET]),
    ("pack", ["report-path", SECRET, "slug"]),
    ("pack", ["truncate-diff", "--stat-file", "/nonexistent/" + SECRET]),
    ("state", [SECRET]),
    ("state", ["--lock-timeout", SECRET, "status"]),
    ("state", ["--file", "/nonexistent/" + SECRET, "status"]),
    ("dispatch", ["--jobs", SECRET]),
    ("dispatch", ["--command", SECRET]),
    ("dispatch", ["--config", "/nonexistent/" + SECRET]),
    ("fence", ["--escape", SECRET, "--label", "x"]),
    ("parse-verdict", ["--schema", SECRET]),
    ("parse-verdict", ["ranges", "--diff", "/nonexistent/" + SECRET]),
    ("consolidate", ["--format", SECRET]),
    ("consolidate", ["--fail-level", SECRET]),
    ("consolidate", ["--state", "/nonexistent/" + SECRET]),
    ("consolidate", ["--diff", "/nonexistent/" + SECRET]),
    ("context", ["--repo", "/nonexistent/" + SECRET]),
    ("context", ["--diff", "/nonexistent/" + SECRET]),
    ("context", ["--threshold", SECRET]),
    ("scan", ["--diff", "/nonexistent/" + SECRET]),
    ("scan", ["--fail-level", SECRET]),
    ("tests", ["/nonexistent/" + SECRET]),
    ("tests", ["--timeout", SECRET]),
    ("tests", ["--fail-level", SECRET, "--test-cmd", "true"]),
]


@pytest.mark.parametrize(("exe", "args"), USAGE, ids=[f"{e}-{i}" for i, (e, _) in enumerate(USAGE)])
def test_usage_errors_are_one_line_exit_2_and_never_echo_a_secret(exe, args):
    stdin = b"diff --git a/x b/x\n" if args[:1] == ["truncate-diff"] else b""
    assert_one_error(run_filter(exe, args, stdin), exe, 2)


DIRECTORY_AS_FILE = [
    ("dispatch", []), ("redact", []), ("redact", ["--jsonl"]), ("fence", ["--label", "x"]),
    ("fence", ["--jsonl"]), ("parse-verdict", []), ("parse-verdict", ["--jsonl"]),
    ("consolidate", []), ("state", ["add"]),
]


@pytest.mark.parametrize(("exe", "args"), DIRECTORY_AS_FILE)
def test_a_directory_given_as_a_file_is_a_usage_error(exe, args, tmp_path, state_file):
    if exe == "state":
        args = ["--file", state_file, *args]
    assert_one_error(run_filter(exe, [*args, str(tmp_path)]), exe, 2, str(tmp_path))


@pytest.mark.parametrize(
    ("exe", "args"),
    [("pack", ["truncate-diff", "--stat-file", "."]), ("consolidate", ["--state", "."]),
     ("consolidate", ["--diff", "."]), ("dispatch", ["--config", "."]),
     ("state", ["--file", ".", "status"]), ("parse-verdict", ["ranges", "--diff", "."])],
)
def test_a_directory_given_to_a_file_option_is_a_usage_error(exe, args):
    stdin = b"diff --git a/x b/x\n+x\n" if exe == "pack" else b""
    assert_one_error(run_filter(exe, args, stdin), exe, 2)


# --------------------------------------------------------------------------- #
# Bad input: exit 1, one located line, no secret.
# --------------------------------------------------------------------------- #
def _deep(levels: int) -> bytes:
    return b'{"kind":"note","a":' + b"[" * levels + b"]" * levels + b"}\n"


BAD_LINES = [
    ("bad-json", b'{"kind":"reviewer","x":"' + SECRET_B + b"\n", 1, "invalid JSON"),
    ("bad-json-line-2", b'{"kind":"note"}\n\n{' + SECRET_B + b"}\n", 3, "invalid JSON"),
    ("not-an-object", b'["' + SECRET_B + b'"]\n', 1, "expected a JSON object, got array"),
    ("scalar", b"42\n", 1, "expected a JSON object, got number"),
    ("invalid-utf8", b'{"kind":"note","x":"\xff\xfe"}\n', 1, "invalid UTF-8"),
    ("nul", b'{"kind":"note"}\n\x00\n', 2, "invalid JSON"),
    ("big-int", b'{"kind":"note","n":123456789012345678901234567890}\n', 1, "64 bits"),
    ("big-uint", b'{"kind":"note","n":18446744073709551616}\n', 1, "64 bits"),
    ("too-deep", _deep(300), 1, "nested deeper than"),
    ("too-deep-for-the-reader", b"[" * 5000 + b"\n", 1, "invalid JSON"),
    ("infinity", b'{"kind":"note","x":1e400}\n', 1, "invalid JSON"),
]


@pytest.mark.parametrize("exe", JSONL)
@pytest.mark.parametrize(("case", "data", "line", "message"), BAD_LINES,
                         ids=[c[0] for c in BAD_LINES])
def test_bad_json_lines_are_one_located_line_exit_1(exe, case, data, line, message, state_file):
    res = run_filter(exe, jsonl_args(exe, state_file), data)
    text = assert_one_error(res, exe, 1, f"stdin:{line}")
    assert message in text


def test_the_depth_limit_is_exact():
    ok = kit.decode_record(_deep(kit.MAX_DEPTH - 1), "stdin", 1)
    assert ok["kind"] == "note"
    assert orjson.dumps({"wrapped": [[[[ok]]]]})  # room left for the documents that wrap it
    with pytest.raises(kit.DataError, match="nested deeper"):
        kit.decode_record(_deep(kit.MAX_DEPTH), "stdin", 1)


@pytest.mark.parametrize(
    ("raw", "ok"),
    [(b'{"n":18446744073709551615}', True), (b'{"n":18446744073709551616}', False),
     (b'{"n":-9223372036854775808}', True), (b'{"n":-9223372036854775809}', False),
     (b'{"n":1.5,"s":"123456789012345678901234567890"}', True),
     (b'{"n":-9999999999999999999}', False), (b'{"n":9999999999999999999}', True)],
)
def test_integers_are_exact_or_refused(raw, ok):
    if ok:
        assert kit.dumps(kit.decode_record(raw, "stdin", 1)) == raw + b"\n"
    else:
        with pytest.raises(kit.DataError, match="64 bits"):
            kit.decode_record(raw, "stdin", 1)


WRONG_TYPES = [
    ("redact", ["--jsonl"], {"kind": "reviewer", "output": [SECRET]}, "field 'output'"),
    ("fence", ["--jsonl"], {"kind": "reviewer", "reviewer": "claude", "output": {"x": SECRET}},
     "field 'output'"),
    ("parse-verdict", ["--jsonl"], {"kind": "reviewer", "reviewer": "claude",
                                    "output": [SECRET]}, "field 'output'"),
    ("parse-verdict", ["--jsonl"], {"kind": "reviewer", "reviewer": "claude", "status": SECRET},
     "unknown status"),
    ("dispatch", [], {"kind": "reviewer", "reviewer": "claude", "pack": [SECRET]}, "pack"),
    ("dispatch", [], {"kind": "reviewer", "reviewer": [SECRET], "pack": "p"}, "reviewer"),
    ("fence", ["--jsonl"], {"kind": "reviewer", "reviewer": SECRET + "/", "output": "x"},
     "reviewer"),
]


@pytest.mark.parametrize(("exe", "args", "rec", "message"), WRONG_TYPES)
def test_wrong_typed_fields_are_located_and_not_echoed(exe, args, rec, message):
    data = b'{"kind":"note"}\n' + orjson.dumps(rec) + b"\n"
    assert message in assert_one_error(run_filter(exe, args, data), exe, 1, "stdin:2")


# --------------------------------------------------------------------------- #
# A secret typed where a name is expected never reaches stderr.
# --------------------------------------------------------------------------- #
def _finding(**extra: Any) -> bytes:
    rec = {"kind": "finding", "origin": "security", "severity": "critical", "file": "a.py",
           "line": 3, "summary": "token compared with ==", **extra}
    return orjson.dumps(rec) + b"\n"


REPO = "<a git repository>"  # replaced by one the test builds
SECRET_NAMES = [
    ("pack", ["validate-path", "a/" + SECRET], b"", 1),
    ("pack", ["validate-path", "../" + SECRET], b"", 1),
    ("pack", ["validate-path", "$" + SECRET], b"", 1),
    ("pack", ["validate-path", "--hardened", "a\n" + SECRET], b"", 1),
    ("pack", ["validate-path"], b"ok\n" + SECRET_B + b"/x\n", 1),
    ("pack", ["review", "--repo", REPO, "--base", SECRET], b"", 1),
    ("pack", ["review", "--repo", REPO, "--base", "~" + SECRET], b"", 1),
    ("pack", ["truncate-diff", "--repo", REPO, "--base", SECRET], b"", 1),
    ("pack", ["truncate-diff", "--repo", REPO, "--base", "<" + SECRET + ">"], b"", 1),
    ("pack", ["report-path", "review", SECRET], b"", 1),
    ("dispatch", ["--timeout", SECRET], b"", 2),
    ("dispatch", ["--kill-after", SECRET], b"", 2),
    ("fence", ["--label", SECRET + "!"], b"", 2),
    ("redact", ["--jsonl", "--field", SECRET], b'{"kind":"x","' + SECRET_B + b'":1}\n', 1),
    ("parse-verdict", ["--reviewer", SECRET], b"no verdict here\n", 0),
    ("consolidate", ["--format", "findings"],
     b'{"kind":"' + SECRET_B + b'"}\n' + _finding(line=SECRET), 0),
    ("consolidate", [],
     (b'{"kind":"reviewer","reviewer":"' + SECRET_B + b'","verdict":"APPROVE"}\n') * 2, 1),
]


@pytest.mark.parametrize(("exe", "args", "stdin", "code"), SECRET_NAMES)
def test_a_secret_in_a_name_never_reaches_stderr(exe, args, stdin, code, tmp_path):
    if REPO in args:  # a repository of the test's own, never this checkout
        repo = make_git_repo(tmp_path, {"a.py": "x = 1\n"})
        args = [str(repo) if a == REPO else a for a in args]
    res = run_filter(exe, args, stdin)
    assert res.code == code, res.err
    assert "Traceback" not in res.err
    assert SECRET not in res.err
    if code:
        assert len(res.err.splitlines()) == 1


@pytest.mark.parametrize(
    ("args", "stdin", "code"),
    [(["accept", "--ids", SECRET], b"", 1),
     (["accept", "--ids", "SEC-001," + SECRET], b"", 1),
     (["accept", "--severity", SECRET], b"", 2),
     (["show", "SEC-00" + SECRET], b"", 1),
     (["record-fix"], b'{"id":"' + SECRET_B + b'","outcome":"fixed"}\n', 1),
     (["record-fix"], b'{"id":"SEC-001","outcome":"' + SECRET_B + b'"}\n', 1),
     (["verify"], b'{"id":"' + SECRET_B + b'","outcome":"verified"}\n', 1)],
)
def test_state_ids_holding_a_secret_are_not_echoed(args, stdin, code, state_file):
    findings = run_filter("consolidate", ["--format", "findings", "--no-source"], _finding()).out
    assert run_filter("state", ["--file", state_file, "add"], findings).code == 0
    assert_one_error(run_filter("state", ["--file", state_file, *args], stdin), "state", code)


def test_scrub_masks_every_credential_shape_and_keeps_one_line():
    from council_filters.redaction.patterns import CREDENTIAL_PATTERNS

    for p in CREDENTIAL_PATTERNS:
        shape = p.prefix.replace(b"gh[pous]_", b"ghp_").decode() + "A" * p.tail_len
        assert shape not in kit.scrub(f"ref {shape} is bad")
    assert kit.scrub("a\nb\rc") == "a\\nb\\rc"
    assert kit.scrub("sk-short stays") == "sk-short stays"


def test_a_float_with_many_digits_is_a_float_not_a_refusal():
    assert kit.decode_record(b'{"n":12345678901234567890123.0}', "stdin", 1)["n"] > 1e22


# --------------------------------------------------------------------------- #
# Input forms: stdin and '-', empty input, odd bytes, huge lines, duplicate keys.
# --------------------------------------------------------------------------- #
REVIEWER = {"kind": "reviewer", "reviewer": "claude", "pack": "p", "status": "OK",
            "output": "Verdict: REVISE\nConfidence: HIGH\nSummary: fine\n", "stderr": ""}
STDIN_FORMS = [
    ("redact", [], b"a " + SECRET_B + b"\nb\n"),
    ("redact", ["--jsonl"], orjson.dumps(REVIEWER) + b"\n"),
    ("fence", ["--label", "codex"], b"body\n"),
    ("fence", ["--jsonl"], orjson.dumps(REVIEWER) + b"\n"),
    ("parse-verdict", [], REVIEWER["output"].encode()),
    ("parse-verdict", ["--jsonl"], orjson.dumps(REVIEWER) + b"\n"),
    ("parse-verdict", ["ranges", "--diff"],
     b"diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n"),
    ("dispatch", ["--command", "claude=cat"], orjson.dumps(REVIEWER) + b"\n"),
    ("consolidate", ["--format", "findings", "--no-source"], _finding()),
]


@pytest.mark.parametrize(("exe", "args", "data"), STDIN_FORMS)
def test_dash_is_stdin(exe, args, data):
    bare = run_filter(exe, args if args[-1:] != ["--diff"] else [*args, "-"], data)
    dash = run_filter(exe, [*args, "-"], data)
    assert bare.code == dash.code == 0, bare.err + dash.err
    strip = re.compile(rb'"duration_ms":\d+')
    assert strip.sub(b"", bare.out) == strip.sub(b"", dash.out)
    assert bare.out


@pytest.mark.parametrize("exe", JSONL)
@pytest.mark.parametrize("data", [b"", b"\n\n  \n", b"\r\n"], ids=["empty", "blank", "crlf"])
def test_empty_jsonl_input_is_no_output_and_exit_0(exe, data, state_file):
    res = run_filter(exe, jsonl_args(exe, state_file), data)
    assert (res.code, res.out, res.err) == (0, b"", "")


ODD = b"a\xff\xfe\x00b\r\nVerdict: APPROVE\r\n\x00\n" + b"x" * 3_000_000 + b"\nlast"


def test_text_redact_passes_odd_bytes_through():
    res = run_filter("redact", [], ODD)
    assert (res.code, res.err) == (0, "")
    assert res.out == ODD + b"\n"


def test_text_fence_keeps_odd_bytes_inside_the_sandwich():
    res = run_filter("fence", ["--label", "gemini"], ODD)
    assert (res.code, res.err) == (0, "")
    assert ODD in res.out


@pytest.mark.parametrize("args", [[], ["--layer2"], ["--from-layer2"], ["--hardened"]])
def test_text_parse_verdict_takes_odd_bytes(args):
    res = run_filter("parse-verdict", args, ODD)
    assert res.code == 0
    assert "Traceback" not in res.err
    if not args or args == ["--hardened"]:
        assert records(res.out)[0]["kind"] == "verdict"


def test_pack_blocks_take_odd_bytes():
    assert run_filter("pack", ["slug"], ODD).code == 0
    res = run_filter("pack", ["truncate-diff"], ODD)
    assert res.code == 0 and res.out.startswith(b"### git diff --stat")
    res = run_filter("pack", ["validate-path"], b"a\xff\n")
    assert_one_error(res, "pack", 1, "stdin:1")


@pytest.mark.parametrize("exe", STREAMING)
def test_a_huge_record_and_duplicate_keys_pass(exe, state_file):
    big = dict(REVIEWER, output="Verdict: APPROVE\n" + "y" * 4_000_000, user="u")
    data = orjson.dumps(big) + b'\n{"kind":"note","a":1,"a":2}\n'
    res = run_filter(exe, jsonl_args(exe, state_file), data)
    assert res.code == 0, res.err
    out = records(res.out)
    assert out[0]["user"] == "u"
    assert out[1]["kind"] == "note" and out[1]["a"] == 2


# --------------------------------------------------------------------------- #
# --keep-going and pass-through.
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize("exe", STREAMING)
def test_keep_going_writes_error_records_in_place(exe, state_file):
    wrong = {"kind": "reviewer", "reviewer": "claude", "pack": [SECRET], "output": [SECRET]}
    data = b"".join([
        orjson.dumps(REVIEWER) + b"\n",
        b'{"kind":"reviewer","x":"' + SECRET_B + b"\n",
        b'["' + SECRET_B + b'"]\n',
        orjson.dumps(wrong) + b"\n",
        b'{"kind":"note","n":123456789012345678901234567890}\n',
        b'{"kind":"note","keep":"me"}\n',
    ])
    res = run_filter(exe, [*jsonl_args(exe, state_file), "--keep-going"], data)
    assert (res.code, res.err) == (0, "")
    assert_no_secret(res)
    out = records(res.out)
    assert [r["kind"] for r in out] == ["reviewer", "error", "error", "error", "error", "note"]
    for rec, line in zip(out[1:5], (2, 3, 4, 5), strict=True):
        assert list(rec) == ["kind", "line", "error"]
        assert rec["line"] == line and rec["error"]
    assert out[5]["keep"] == "me"


USER = {"zz_first": 1, "ünï": "ç😀\u2028", "nest": {"b": [1, {"c": None}], "a": 2.5},
        "big": 18446744073709551615, "neg": -9223372036854775808, "t": True, "empty": [],
        "user_last": {"z": 1, "a": 2}}


def _keys_in_order(rec: dict[str, Any]) -> list[str]:
    return [k for k in rec if k in USER]


@pytest.mark.parametrize("exe", STREAMING)
def test_fields_a_filter_does_not_own_pass_through_in_order(exe, state_file):
    first = {"zz_first": USER["zz_first"], **REVIEWER, **{k: v for k, v in USER.items()
                                                         if k != "zz_first"}}
    note = {"kind": "note", **USER}
    data = orjson.dumps(first) + b"\n" + orjson.dumps(note) + b"\n"
    res = run_filter(exe, jsonl_args(exe, state_file), data)
    assert res.code == 0, res.err
    out = records(res.out)
    assert len(out) == 2
    for got in out:
        assert _keys_in_order(got) == list(USER)
        assert {k: got[k] for k in USER} == USER
    assert "ç😀".encode() in res.out  # UTF-8 out, not \u escapes
    if exe != "redact":  # redact documents redacted_lines on every record
        assert out[1] == note


def test_consolidate_and_state_carry_user_fields(state_file):
    extra = {"zz": 1, "ünï": "ç😀", "nest": {"b": [1], "a": None}}
    res = run_filter("consolidate", ["--format", "findings", "--no-source"], _finding(**extra))
    assert res.code == 0, res.err
    (got,) = records(res.out)
    assert [k for k in got if k in extra] == list(extra)
    assert {k: got[k] for k in extra} == extra
    assert run_filter("state", ["--file", state_file, "add"], res.out).code == 0
    (shown,) = records(run_filter("state", ["--file", state_file, "show"]).out)
    assert {k: shown[k] for k in extra} == extra


# --------------------------------------------------------------------------- #
# --help teaches; --version everywhere.
# --------------------------------------------------------------------------- #
def _apps(exe: str) -> list[Any]:
    mod = cli_module(exe)
    if exe == "redact":
        return [mod.build_app()]
    return [mod.app, *([mod.ranges_app] if exe == "parse-verdict" else [])]


def _forms() -> list[tuple[str, list[str], Any]]:
    """(exe, argv prefix, click command) for every command form of every executable."""
    forms = []
    for exe in EXES:
        for app in _apps(exe):
            cmd = typer.main.get_command(app)
            prefix = ["ranges"] if app is getattr(cli_module(exe), "ranges_app", None) else []
            forms.append((exe, prefix, cmd))
            forms += [(exe, [*prefix, name], sub)
                      for name, sub in getattr(cmd, "commands", {}).items()]
    return forms


FORMS = _forms()
FORM_IDS = [" ".join([e, *p]) for e, p, _ in FORMS]


@pytest.mark.parametrize(("exe", "prefix", "cmd"), FORMS, ids=FORM_IDS)
def test_version_works_on_every_command_form(exe, prefix, cmd):
    res = run_filter(exe, [*prefix, "--version"])
    first, _, rest = res.out.partition(b"\n")
    assert (res.code, first, res.err) == (0, f"council-{exe} {__version__}".encode(), "")
    # council-redact names its prefilter engine on a second line (like rg's features).
    if exe == "redact":
        assert rest.startswith(b"prefilter: ") and rest.count(b"\n") == 1, rest
    else:
        assert rest == b"", rest


@pytest.mark.parametrize(("exe", "prefix", "cmd"), FORMS, ids=FORM_IDS)
def test_help_explains_every_option_with_its_default(exe, prefix, cmd):
    res = run_filter(exe, [*prefix, "--help"])
    assert res.code == 0 and res.err == ""
    text = res.out.decode()
    usage = f"Usage: council-{exe} {' '.join(prefix)}".rstrip()
    assert text.startswith(usage + " "), text.splitlines()[0]
    assert "[[" not in text.splitlines()[0]
    purpose = text.split("\n\n")[1].strip()
    assert len(purpose) > 20 and purpose[0].isupper()
    ctx = cmd.make_context(f"council-{exe}", [], resilient_parsing=True)
    for param in cmd.params:
        record = param.get_help_record(ctx)
        if record is None or param.param_type_name != "option" or param.name in (
                "help", "version"):
            continue
        names, helptext = record
        assert helptext.endswith((".", "]")), names
        assert "<str>" not in names and "<float>" not in names, names
        assert re.search(r"default|required", helptext, re.IGNORECASE), names


@pytest.mark.parametrize("exe", EXES)
def test_top_level_help_has_examples_with_a_pipe_and_the_exit_codes(exe):
    text = run_filter(exe, ["--help"]).out.decode()
    examples = text.split("Examples:", 1)[1]
    assert any(" | council-" in line for line in examples.splitlines()), exe
    for code in sorted(CODES):
        assert re.search(rf"^ +{code} +\S", text, re.MULTILINE), code


# --------------------------------------------------------------------------- #
# Real processes: launchers, closed pipes, exit codes.
# --------------------------------------------------------------------------- #
# A fixed clock, no inherited state file, no debug tracebacks.
PROCESS_ENV: dict[str, str | None] = {
    "COUNCIL_NOW": "2025-01-02T03:04:05Z", "COUNCIL_STATE": None, "COUNCIL_DEBUG": None,
}


def _env(tmp: Path) -> dict[str, str]:
    return child_env(PROCESS_ENV)


def _closed_pipe(exe: str, args: list[str], stdin: bytes, tmp: Path,
                 read_first: bool = False) -> tuple[int, bytes]:
    """Run bin/council-<exe> with stdout a pipe whose reader has gone (or goes after a line)."""
    src = tmp / "stdin"
    src.write_bytes(stdin)
    r, w = os.pipe()
    if not read_first:
        os.close(r)
    with src.open("rb") as fin:
        proc = subprocess.Popen([str(BIN / f"council-{exe}"), *args], stdin=fin, stdout=w,
                                stderr=subprocess.PIPE, cwd=tmp, env=_env(tmp))
    os.close(w)
    if read_first:
        with os.fdopen(r, "rb") as reader:
            reader.readline()
    _, err = proc.communicate(timeout=60)
    return proc.returncode, err


BIG_TEXT = (b"plain line of a review " * 4 + b"\n") * 60_000
BIG_JSONL = (orjson.dumps(REVIEWER) + b"\n") * 3_000
BIG_FINDINGS = b"".join(_finding(line=n, summary=f"finding {n}") for n in range(1, 1500))

PIPES = [
    *[(exe, ["--help"], b"") for exe in EXES],
    *[(exe, ["--version"], b"") for exe in EXES],
    ("pack", ["slug", "x"], b""),
    ("pack", ["truncate-diff"], b"diff --git a/x b/x\n" + BIG_TEXT),
    ("pack", ["validate-path"], b"stdin\n" * 100_000),
    ("dispatch", [], (b'{"kind":"note","x":"' + b"y" * 1000 + b'"}\n') * 2000),
    ("redact", [], BIG_TEXT),
    ("redact", ["--jsonl"], BIG_JSONL),
    ("fence", ["--label", "x"], BIG_TEXT),
    ("fence", ["--jsonl"], BIG_JSONL),
    ("parse-verdict", ["--jsonl", "--emit-findings"], BIG_JSONL),
    ("parse-verdict", ["ranges", "--diff", "-"], b""),
    ("consolidate", ["--format", "findings", "--no-source"], BIG_FINDINGS),
    ("consolidate", ["--no-source"], BIG_FINDINGS),
    ("state", ["init"], b""),
]


@pytest.mark.slow
@pytest.mark.parametrize(("exe", "args", "data"), PIPES,
                         ids=[f"{e}-{' '.join(a)}" for e, a, _ in PIPES])
def test_a_closed_pipe_is_a_quiet_exit_0(exe, args, data, tmp_path):
    code, err = _closed_pipe(exe, args, data, tmp_path)
    assert (code, err) == (0, b"")


@pytest.mark.slow
@pytest.mark.parametrize(
    ("exe", "args", "data"),
    [("redact", [], BIG_TEXT), ("fence", ["--jsonl"], BIG_JSONL),
     ("consolidate", ["--format", "findings", "--no-source"], BIG_FINDINGS)],
    ids=["redact", "fence", "consolidate"],  # short: pytest puts the id in the environment
)
def test_head_dash_1_after_some_output(exe, args, data, tmp_path):
    assert _closed_pipe(exe, args, data, tmp_path, read_first=True) == (0, b"")


@pytest.mark.slow
def test_state_listing_into_a_closed_pipe(tmp_path):
    env = PROCESS_ENV
    assert run_process("state", ["init"], cwd=tmp_path, env=env, launcher=True).code == 0
    findings = run_filter("consolidate", ["--format", "findings", "--no-source"], BIG_FINDINGS).out
    assert run_process("state", ["add"], findings, cwd=tmp_path, env=env, launcher=True).code == 0
    for args in (["show"], ["history"], ["status", "--json"]):
        assert _closed_pipe("state", args, b"", tmp_path) == (0, b"")


@pytest.mark.slow
@pytest.mark.parametrize("exe", EXES)
def test_launcher_errors_are_one_line_with_a_listed_exit_code(exe, tmp_path):
    res = run_process(exe, ["--bogus=" + SECRET, "/nonexistent"], cwd=tmp_path, env=PROCESS_ENV,
                      launcher=True)
    assert res.code == 2
    assert res.err.count("\n") == 1 and res.out == b""
    assert SECRET not in res.err and "Traceback" not in res.err
