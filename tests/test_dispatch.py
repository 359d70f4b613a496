"""council-dispatch with real subprocess stubs: timeouts, signals, floods, tokens, adapters."""

from __future__ import annotations

import os
import stat
import time
from pathlib import Path

import orjson
import pytest

from council_filters import dispatch as core
from council_filters.dispatch import outcome

from conftest import run_filter

TOKEN = "0123456789abcdef"


@pytest.fixture(autouse=True)
def _env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("COUNCIL_TIMEOUT", "1")
    monkeypatch.setenv("COUNCIL_KILL_GRACE", "0.3")
    for key in list(os.environ):
        if key.startswith(("COUNCIL_CMD_", "COUNCIL_ADAPTER_")):
            monkeypatch.delenv(key)
    monkeypatch.delenv("COUNCIL_COMMANDS", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))  # no user commands file
    monkeypatch.chdir(tmp_path)  # no stray .council/commands


def rec(reviewer: str, pack: str = "PACK\n", token: str | None = None, **extra: object) -> bytes:
    r: dict[str, object] = {"kind": "reviewer", "run": "t", "reviewer": reviewer, "pack": pack}
    if token:
        r["ingest_token"] = token
    r.update(extra)
    return orjson.dumps(r) + b"\n"


def dispatch(stdin: bytes, *args: str) -> tuple[int, list[dict], str]:
    res = run_filter("dispatch", args, stdin)
    return res.code, res.records(), res.err


def one(cmd: str, *args: str, token: str | None = None, pack: str = "PACK\n") -> dict:
    code, recs, err = dispatch(rec("claude", pack, token), "-c", f"claude={cmd}", *args)
    assert code == 0, err
    (r,) = recs
    return r


# --------------------------------------------------------------------------- #
# Outcomes.
# --------------------------------------------------------------------------- #
def test_ok_stdin_delivery_and_field_order() -> None:
    r = one("cat; echo; echo Verdict: APPROVE", pack="hello pack")
    assert r["output"] == "hello pack\nVerdict: APPROVE\n"
    assert (r["status"], r["exit_code"], r["summary"], r["error_kind"]) == ("OK", 0, None, None)
    assert list(r)[-10:] == [
        "output",
        "stderr",
        "exit_code",
        "status",
        "duration_ms",
        "summary",
        "error_kind",
        "usage",
        "cached",
        "pack_tokens",
    ]
    assert (r["usage"], r["cached"], r["pack_tokens"]) == (None, False, 3)
    assert list(r)[:4] == ["kind", "run", "reviewer", "pack"]


@pytest.mark.slow
def test_sleep_past_timeout_is_terminated() -> None:
    start = time.monotonic()
    r = one("echo partial; sleep 30")
    assert time.monotonic() - start < 5
    assert (r["status"], r["exit_code"], r["error_kind"]) == ("TIMEOUT", 124, "timeout")
    assert r["summary"] == "Claude timed out at 1s. Council ran without Claude's verdict."
    assert r["timeout_s"] == 1
    assert r["output"] == "partial\n"
    assert 900 <= r["duration_ms"] < 3000


@pytest.mark.slow
def test_ignoring_term_gets_killed_after_the_grace() -> None:
    r = one("trap '' TERM; sleep 30")
    assert (r["status"], r["exit_code"]) == ("TIMEOUT", 137)
    assert r["duration_ms"] >= 1250  # 1 s limit + 0.3 s grace


def gone(pid: int) -> bool:
    """Dead: no such process, or a zombie waiting for init to reap it."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] in ("Z", "X")
    except FileNotFoundError:
        return True


def test_no_process_left_behind(tmp_path: Path) -> None:
    pidfile = tmp_path / "bg.pid"
    r = one(f"sleep 60 & echo $! > {pidfile}; echo done")
    assert r["status"] == "OK"
    pid = int(pidfile.read_text())
    time.sleep(0.05)
    assert gone(pid)


@pytest.mark.slow
def test_timeout_kills_the_whole_group(tmp_path: Path) -> None:
    pidfile = tmp_path / "child.pid"
    r = one(f"sh -c 'trap \"\" TERM; sleep 60' & echo $! > {pidfile}; wait")
    assert r["status"] == "TIMEOUT"
    time.sleep(0.05)
    assert gone(int(pidfile.read_text()))


@pytest.mark.parametrize(
    ("cmd", "status", "code", "kind"),
    [
        ("exit 127", "UNAVAILABLE", 127, "not-found"),
        ("exit 126", "UNAVAILABLE", 126, "not-executable"),
        ("exit 124", "TIMEOUT", 124, "timeout"),
        ("exit 137", "TIMEOUT", 137, "timeout"),
        ("kill -9 $$", "TIMEOUT", 137, "timeout"),
        ("kill -SEGV $$", "TIMEOUT", 139, "signal"),
        ("exit 130", "TIMEOUT", 130, "signal"),
        ("exit 128", "ERROR", 128, "cli-error"),
        ("echo boom >&2; exit 125", "ERROR", 125, "timeout-utility"),
        ("echo 'Error: Unauthorized' >&2; exit 1", "ERROR", 1, "auth"),
        ("echo 'HTTP 429 Too Many' >&2; exit 1", "ERROR", 1, "rate-limit"),
        ("echo 'ratelimit hit' >&2; exit 1", "ERROR", 1, "rate-limit"),
        ("echo 'Bad Request' >&2; exit 2", "ERROR", 2, "invalid-request"),
        ("echo 'segfault' >&2; exit 3", "ERROR", 3, "cli-error"),
        ("echo a >&2; echo b >&2; echo c >&2; echo 'api key' >&2; exit 1", "ERROR", 1, "cli-error"),
    ],
)
def test_exit_code_classification(cmd: str, status: str, code: int, kind: str) -> None:
    r = one(cmd)
    assert (r["status"], r["exit_code"], r["error_kind"]) == (status, code, kind)


def test_cli_error_summary_never_carries_unredacted_stderr(monkeypatch: pytest.MonkeyPatch) -> None:
    r = one("echo 'auth failed: token sk-abcdefghijklmnopqrstuvwxyz0123' >&2; exit 1")
    assert r["summary"].startswith("Claude CLI error (auth, exit 1). Excerpt: ")
    assert "sk-abcdefghijklmnop" not in r["summary"]
    assert r["summary"].endswith("Excerpt: --- redacted credential at line 1 ---")
    assert "sk-abcdefghijklmnop" in r["stderr"]  # the raw field is council-redact's job


def test_excerpt_goes_through_the_redaction_hook(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(outcome, "redact_excerpt", lambda data: data.replace(b"secret", b"[R]"))
    r = one("printf 'line one secret\\nline two\\nline three\\nline four\\n' >&2; exit 4")
    assert r["summary"] == (
        "Claude CLI error (cli-error, exit 4). Excerpt: line one [R] line two line three"
    )
    long = one("head -c 500 /dev/zero | tr '\\0' 'é' >&2; exit 4")  # invalid UTF-8 soup
    assert len(long["summary"].split("Excerpt: ")[1].encode()) <= 200


def test_missing_and_unconfigured_commands(tmp_path: Path) -> None:
    r = one("definitely-not-a-command-xyz --flag")
    assert (r["status"], r["error_kind"], r["exit_code"]) == ("UNAVAILABLE", "not-found", 127)
    script = tmp_path / "noexec.sh"
    script.write_text("echo hi\n")
    r = one(str(script))
    assert r["status"] == "UNAVAILABLE"
    code, recs, _ = dispatch(rec("gemini"))
    assert recs[0]["status"] == "UNAVAILABLE" and recs[0]["error_kind"] == "not-configured"
    assert "COUNCIL_CMD_GEMINI" in recs[0]["summary"]


# --------------------------------------------------------------------------- #
# Pack file and ingest token.
# --------------------------------------------------------------------------- #
def test_pack_file_is_private_and_removed(tmp_path: Path) -> None:
    probe = tmp_path / "probe"
    r = one(
        f"stat -c '%a %n' {{pack_file}} {{pack_dir}} > {probe}; tail -n 1 {{pack_file}}",
        token=TOKEN,
        pack=f"body\n\nINGEST_TOKEN: {TOKEN}\n",
    )
    assert r["status"] == "OK" and r["output"] == f"INGEST_TOKEN: {TOKEN}\n"
    file_line, dir_line = probe.read_text().splitlines()
    assert file_line.startswith("600 ") and file_line.endswith("/pack.txt")
    assert dir_line.startswith("700 ")
    assert not Path(file_line.split(" ", 1)[1]).exists()
    assert not Path(dir_line.split(" ", 1)[1]).exists()


def test_pack_file_path_is_shell_quoted() -> None:
    assert core.substitute("cat {pack_file} ${HOME} {other}", "/t/a b'c/pack.txt") == (
        "cat '/t/a b'\"'\"'c/pack.txt' ${HOME} {other}"
    )
    assert core.substitute("cd {pack_dir}", "/t/x/pack.txt") == "cd /t/x"


def test_ingest_token_missing_is_an_error() -> None:
    r = one("echo Verdict: APPROVE", token=TOKEN)
    assert (r["status"], r["error_kind"]) == ("ERROR", "ingest")
    assert r["summary"] == (
        "Pack ingestion could not be verified (Claude output lacks the ingest token) — verdict "
        "withheld rather than risk a review of unread input."
    )
    ok = one(f"echo x; echo 'seen INGEST_TOKEN: {TOKEN} mid-line'", token=TOKEN)
    assert ok["status"] == "OK"  # a substring anywhere, as upstream
    near = one(f"echo 'INGEST_TOKEN: {TOKEN[:-1]}'", token=TOKEN)
    assert near["status"] == "ERROR"


def test_gemini_ingest_summary_names_agy() -> None:
    code, recs, _ = dispatch(rec("gemini", token=TOKEN), "-c", "gemini=echo nope")
    assert "(agy output lacks the ingest token)" in recs[0]["summary"]


# --------------------------------------------------------------------------- #
# Floods, parallelism, order, pass-through.
# --------------------------------------------------------------------------- #
def test_flood_does_not_deadlock_and_is_capped() -> None:
    code, recs, err = dispatch(
        rec("claude", pack="x" * 300_000),
        "-c",
        "claude=head -c 3000000 /dev/zero; head -c 2000000 /dev/zero >&2",
        "--output-cap",
        "1000000",
    )
    assert code == 0
    r = recs[0]
    assert r["status"] == "OK" and len(r["output"]) == 1_000_000
    assert len(r["stderr"]) == core.DEFAULT_STDERR_CAP
    assert "claude: output capped" in err and "claude: stderr capped" in err


@pytest.mark.slow
def test_parallel_wall_time_is_the_slowest_and_order_is_kept() -> None:
    stdin = rec("claude") + rec("codex") + rec("gemini") + b'{"kind":"note","x":1}\n'
    start = time.monotonic()
    code, recs, _ = dispatch(
        stdin,
        "-c",
        "claude=sleep 0.6; echo c",
        "-c",
        "codex=sleep 0.1; echo x",
        "-c",
        "gemini=sleep 0.6; echo g",
    )
    wall = time.monotonic() - start
    assert code == 0 and wall < 1.1  # not 1.3 s of summed sleeps
    assert [r.get("reviewer") for r in recs] == ["claude", "codex", "gemini", None]
    assert recs[3] == {"kind": "note", "x": 1}
    assert [r["output"] for r in recs[:3]] == ["c\n", "x\n", "g\n"]


@pytest.mark.slow
def test_jobs_one_serialises() -> None:
    start = time.monotonic()
    dispatch(
        rec("claude") + rec("codex"), "-j", "1", "-c", "claude=sleep 0.3", "-c", "codex=sleep 0.3"
    )
    assert time.monotonic() - start >= 0.6


def test_bad_records() -> None:
    code, _, err = dispatch(b'{"kind":"reviewer","reviewer":"a"}\n')
    assert code == 1 and err == "council-dispatch: stdin:1: pack must be a string\n"
    code, recs, _ = dispatch(b"not json\n" + rec("claude"), "--keep-going", "-c", "claude=true")
    assert recs[0]["kind"] == "error" and recs[0]["line"] == 1 and recs[1]["status"] == "OK"


# --------------------------------------------------------------------------- #
# Command sources and settings.
# --------------------------------------------------------------------------- #
def test_command_precedence(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    (tmp_path / ".council").mkdir()
    (tmp_path / ".council" / "commands").write_text(
        "# reviewers\nclaude = echo from-config\ncodex = echo codex-config\n"
        "local-llm = echo local\n"
    )
    monkeypatch.setenv("COUNCIL_CMD_CODEX", "echo from-env")
    monkeypatch.setenv("COUNCIL_CMD_LOCAL_LLM", "echo local-env")
    code, recs, _ = dispatch(
        rec("claude") + rec("codex") + rec("local-llm"), "-c", "codex=echo from-option",
        "--trust-repo-config",
    )
    assert [r["output"] for r in recs] == ["from-config\n", "from-option\n", "local-env\n"]


def test_config_errors(tmp_path: Path) -> None:
    bad = tmp_path / "bad"
    bad.write_text("just a line\n")
    code, _, err = dispatch(rec("claude"), "--config", str(bad))
    assert code == 2 and "expected NAME = COMMAND" in err
    code, _, err = dispatch(rec("claude"), "--config", str(tmp_path / "missing"))
    assert code == 2 and "cannot read config" in err
    code, _, err = dispatch(rec("claude"), "-c", "noequals")
    assert code == 2


@pytest.mark.parametrize(
    "raw", ["0", "abc", "-1", "10m", " 600", "86401", "000000", "1.5", "٣", ""]
)
def test_bad_timeout_option_is_a_usage_error(raw: str) -> None:
    code, recs, err = dispatch(rec("claude"), "-c", "claude=true", "--timeout", raw)
    assert (code, recs) == (2, [])
    assert err.startswith("council-dispatch: --timeout must be a whole number of seconds from 1")
    assert err.count("\n") == 1


@pytest.mark.parametrize("raw", ["0", "abc", "-1", "10m", "86401"])
def test_bad_council_timeout_is_a_usage_error_unless_upstream(
    monkeypatch: pytest.MonkeyPatch, raw: str
) -> None:
    monkeypatch.setenv("COUNCIL_TIMEOUT", raw)
    code, recs, err = dispatch(rec("claude"), "-c", "claude=true")
    assert (code, recs) == (2, [])
    assert err.startswith("council-dispatch: COUNCIL_TIMEOUT must be a whole number of seconds")
    # --upstream keeps the upstream guard: a warning, then the default.
    code, recs, err = dispatch(rec("claude"), "-c", "claude=true", "--upstream")
    assert code == 0 and recs[0]["status"] == "OK"
    assert err.startswith(f"council-dispatch: COUNCIL_TIMEOUT={raw} ")
    assert err.endswith("; falling back to 600\n")


@pytest.mark.slow
def test_timeout_setting_is_validated(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COUNCIL_TIMEOUT", "")
    code, recs, err = dispatch(rec("claude"), "-c", "claude=true")
    assert (code, err) == (0, "")  # empty means the default, silently
    monkeypatch.setenv("COUNCIL_TIMEOUT", "01")
    code, recs, err = dispatch(rec("claude"), "-c", "claude=sleep 5")
    assert err == "" and recs[0]["summary"].startswith("Claude timed out at 1s.")  # not octal
    code, recs, err = dispatch(rec("claude"), "-c", "claude=sleep 5", "--timeout", "2")
    assert recs[0]["summary"].startswith("Claude timed out at 2s.")  # the option wins
    code, _, err = dispatch(rec("claude"), "-c", "claude=true", "--kill-after", "soon")
    assert code == 2


# --------------------------------------------------------------------------- #
# OpenCode's event stream.
# --------------------------------------------------------------------------- #
EVENTS = (
    b'{"type":"step_start","part":{"snapshot":{"sessionID":"s1"}}}\n'
    b'{"type":"text","part":{"text":"Verdict: APPROVE\\nConfidence: HIGH"}}\n'
    b'{"type":"text","part":{"text":"Summary: fine\\u0000."}}\n'
)


def test_opencode_events_joined() -> None:
    ev = core.read_opencode_events(EVENTS + b"garbage\n" + b'{"type":"text","part":{"text":"x"}}\n')
    assert ev.text == b"Verdict: APPROVE\nConfidence: HIGH\nSummary: fine."
    assert ev.error is None


@pytest.mark.parametrize(
    ("event", "message"),
    [
        (
            b'{"type":"error","error":{"name":"APIError","data":{"message":"quota exceeded"}}}',
            "quota exceeded",
        ),
        (b'{"type":"error","error":{"name":"ProviderAuthError"}}', "ProviderAuthError"),
        (b'{"type":"error","error":{}}', "unknown"),
    ],
)
def test_opencode_error_events(event: bytes, message: str) -> None:
    assert core.read_opencode_events(event + b"\n" + event).error == message


def test_opencode_adapter_end_to_end(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(outcome, "redact_excerpt", lambda data: data)
    events = tmp_path / "events.jsonl"
    events.write_bytes(EVENTS)
    code, recs, _ = dispatch(
        rec("opencode"), "-c", f"opencode=cat {events} # opencode run --format json"
    )
    assert recs[0]["status"] == "OK"
    assert recs[0]["output"] == "Verdict: APPROVE\nConfidence: HIGH\nSummary: fine."
    err_events = tmp_path / "err.jsonl"
    err_events.write_bytes(b'{"type":"error","error":{"data":{"message":"Rate limit hit"}}}\n')
    code, recs, _ = dispatch(
        rec("opencode"),
        "-c",
        f"opencode=cat {err_events}; exit 1",
        "--adapter",
        "opencode=opencode-json",
    )
    assert recs[0]["summary"] == "OpenCode error: Rate limit hit"
    assert recs[0]["error_kind"] == "rate-limit"
    code, recs, _ = dispatch(
        rec("opencode"), "-c", f"opencode=cat {err_events}", "--adapter", "opencode=opencode-json"
    )
    assert recs[0]["status"] == "ERROR" and recs[0]["summary"] == "OpenCode error: Rate limit hit"
    code, recs, _ = dispatch(
        rec("opencode"), "-c", "opencode=true", "--adapter", "opencode=opencode-json"
    )
    assert recs[0]["summary"] == "OpenCode produced no assistant text."
    code, _, err = dispatch(rec("opencode"), "-c", "opencode=true", "--adapter", "opencode=xml")
    assert code == 2 and "unknown adapter" in err


def test_private_pack_modes(tmp_path: Path) -> None:
    path = core.private_pack("claude", b"data")
    try:
        assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
        assert stat.S_IMODE(os.stat(os.path.dirname(path)).st_mode) == 0o700
    finally:
        os.unlink(path)
        os.rmdir(os.path.dirname(path))
