"""Running reviewer commands: delivery, timeouts, capture and classification.

A core with no argv and no stdio.  :func:`run_reviewer` runs one command for
one pack record and returns the fields council-dispatch adds to the record.

* The command runs as ``sh -c CMD`` in a new session (its own process group).
  ``{pack_file}`` / ``{pack_dir}`` in CMD are replaced by the shell-quoted path
  of a private copy of the pack (0600 file in a 0700 directory, removed
  afterwards); without them the pack goes to the command's stdin.
* The upstream timeout pattern: SIGTERM to the whole group at the limit,
  SIGKILL ``kill_grace`` seconds later, and a final SIGKILL sweep of the group
  once the command has exited, so nothing it started is left behind.
* stdout and stderr are drained by threads (a flood cannot deadlock) and kept
  up to a cap each; the rest is read and dropped.
* Exit codes are classified per the upstream table: 0 OK (after the ingest
  token check), 124/137 and 128+N TIMEOUT, 125 ERROR, 126/127 UNAVAILABLE,
  anything else ERROR with a keyword kind from stderr (auth, rate-limit,
  invalid-request, cli-error).
"""

from __future__ import annotations

import contextlib
import os
import re
import shlex
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import IO, Any

import orjson

from council_filters import redaction
from council_filters.base.bytesops import utf8_cut
from council_filters.base.vocab import DISPLAY_NAMES, INGEST_PREFIX, RUN_STATUSES, display_name

OK, TIMEOUT, ERROR, UNAVAILABLE = STATUSES = RUN_STATUSES
ADAPTERS = ("text", "opencode-json")
PEEK_LINES = 3
PEEK_BYTES = 200
DEFAULT_OUTPUT_CAP = 8 << 20
DEFAULT_STDERR_CAP = 1 << 20
_CHUNK = 1 << 16
_PLACEHOLDER = re.compile(r"\{(pack_file|pack_dir)\}")
_SH_BUILTINS = frozenset(
    [
        ".",
        ":",
        "[",
        "alias",
        "break",
        "cd",
        "command",
        "continue",
        "echo",
        "eval",
        "exec",
        "exit",
        "export",
        "false",
        "getopts",
        "hash",
        "kill",
        "printf",
        "pwd",
        "read",
        "readonly",
        "return",
        "set",
        "shift",
        "test",
        "times",
        "trap",
        "true",
        "type",
        "ulimit",
        "umask",
        "unalias",
        "unset",
        "wait",
    ]
)
_SH_WORDS = frozenset(
    [
        "!",
        "{",
        "}",
        "case",
        "do",
        "done",
        "elif",
        "else",
        "esac",
        "fi",
        "for",
        "if",
        "in",
        "then",
        "until",
        "while",
    ]
)
# Keyword kinds, tested in order, case-insensitively, on the stderr excerpt.
KINDS: tuple[tuple[str, re.Pattern[bytes]], ...] = (
    ("auth", re.compile(rb"auth|unauthor|api[ -]?key|credentials", re.I)),
    ("rate-limit", re.compile(rb"rate.?limit|quota|429", re.I)),
    ("invalid-request", re.compile(rb"invalid|bad.?request|400", re.I)),
)
CLI_NAMES = {"gemini": "agy"}  # how the ingest summary names a slot's CLI


@dataclass(frozen=True)
class Command:
    """What to run for one reviewer."""

    reviewer: str
    shell: str
    adapter: str = "text"

    @property
    def uses_file(self) -> bool:
        return bool(_PLACEHOLDER.search(self.shell))


@dataclass(frozen=True)
class Limits:
    timeout: int = 600
    kill_grace: float = 10.0
    output_cap: int = DEFAULT_OUTPUT_CAP
    stderr_cap: int = DEFAULT_STDERR_CAP
    cwd: str | None = None


@dataclass
class Result:
    output: str = ""
    stderr: str = ""
    exit_code: int | None = None
    status: str = OK
    duration_ms: int = 0
    summary: str | None = None
    error_kind: str | None = None
    timeout_s: int | None = None
    capped: list[str] = field(default_factory=list)

    def fields(self) -> dict[str, Any]:
        extra = {"timeout_s": self.timeout_s} if self.timeout_s is not None else {}
        return {
            "output": self.output,
            "stderr": self.stderr,
            "exit_code": self.exit_code,
            "status": self.status,
            "duration_ms": self.duration_ms,
            "summary": self.summary,
            "error_kind": self.error_kind,
            **extra,
        }


# --------------------------------------------------------------------------- #
# Redaction of excerpts that reach a summary.
# --------------------------------------------------------------------------- #
def redact_excerpt(data: bytes) -> bytes:
    """``data`` through the shared 11-pattern redaction (fresh state, lines from 1)."""
    return redaction.redact_text(data)[0]


def peek(stderr: bytes) -> bytes:
    """The first 3 lines of stderr, newlines as spaces, at most 200 bytes (unredacted)."""
    lines = stderr.split(b"\n")[:PEEK_LINES]
    return b" ".join(lines)[:PEEK_BYTES]


def safe_excerpt(stderr: bytes) -> str:
    """The summary excerpt: the first 3 lines redacted, then flattened and cut UTF-8-safely."""
    head = b"\n".join(stderr.split(b"\n")[:PEEK_LINES])
    flat = redact_excerpt(head).rstrip(b"\n").replace(b"\n", b" ")
    return _cut_text(flat, PEEK_BYTES)


def _cut_text(data: bytes, cap: int) -> str:
    """``data`` as text (invalid UTF-8 replaced) cut to at most ``cap`` UTF-8 bytes."""
    return utf8_cut(data.decode("utf-8", "replace").encode(), cap).decode()


def error_kind(text: bytes) -> str:
    for kind, pattern in KINDS:
        if pattern.search(text):
            return kind
    return "cli-error"


# --------------------------------------------------------------------------- #
# OpenCode's `--format json` event stream.
# --------------------------------------------------------------------------- #
@dataclass(frozen=True)
class Events:
    text: bytes
    error: str | None


def read_opencode_events(raw: bytes) -> Events:
    """Text events joined one per line (as ``jq -r`` prints them), the first error message.

    Reading stops at the first line that is not JSON, as jq does; NULs are
    deleted and trailing newlines dropped, as the upstream capture does.
    """
    texts: list[bytes] = []
    error: str | None = None
    for line in raw.split(b"\n"):
        if not line.strip():
            continue
        try:
            event = orjson.loads(line)
        except orjson.JSONDecodeError:
            break
        if not isinstance(event, dict):
            continue
        if event.get("type") == "text":
            part = event.get("part")
            text = part.get("text") if isinstance(part, dict) else None
            if isinstance(text, str):
                texts.append(text.encode("utf-8", "replace") + b"\n")
            elif text is None:
                texts.append(b"null\n")
        elif event.get("type") == "error" and error is None:
            error = _event_error(event.get("error"))
    joined = b"".join(texts).replace(b"\0", b"").rstrip(b"\n")
    return Events(joined, error)


def _event_error(err: object) -> str:
    if isinstance(err, dict):
        data = err.get("data")
        if isinstance(data, dict) and data.get("message") not in (None, False):
            return str(data["message"])
        if err.get("name") not in (None, False):
            return str(err["name"])
    return "unknown"


# --------------------------------------------------------------------------- #
# Commands.
# --------------------------------------------------------------------------- #
def env_key(reviewer: str) -> str:
    return reviewer.upper().replace("-", "_")


def parse_config(text: str, source: str) -> dict[str, str]:
    """``name = command`` and ``name.adapter = opencode-json`` lines; ``#`` comments."""
    out: dict[str, str] = {}
    for lineno, line in enumerate(text.splitlines(), start=1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        key, eq, value = line.partition("=")
        if not eq or not key.strip():
            raise ValueError(f"{source}:{lineno}: expected NAME = COMMAND")
        out[key.strip()] = value.strip()
    return out


def resolve_command(
    reviewer: str,
    options: Mapping[str, str],
    adapters: Mapping[str, str],
    env: Mapping[str, str],
    config: Mapping[str, str],
) -> Command | None:
    """The command for ``reviewer``: --command, then COUNCIL_CMD_<NAME>, then the config file."""
    key = env_key(reviewer)
    shell = options.get(reviewer) or env.get(f"COUNCIL_CMD_{key}") or config.get(reviewer)
    if not shell:
        return None
    adapter = (
        adapters.get(reviewer)
        or env.get(f"COUNCIL_ADAPTER_{key}")
        or config.get(f"{reviewer}.adapter")
        or ("opencode-json" if reviewer == "opencode" and "--format json" in shell else "text")
    )
    if adapter not in ADAPTERS:
        raise ValueError(f"unknown adapter for {reviewer} (known: {', '.join(ADAPTERS)})")
    return Command(reviewer, shell, adapter)


def substitute(shell: str, pack_file: str) -> str:
    """Replace ``{pack_file}`` / ``{pack_dir}`` with shell-quoted paths; nothing else."""
    paths = {"pack_file": pack_file, "pack_dir": os.path.dirname(pack_file)}
    return _PLACEHOLDER.sub(lambda m: shlex.quote(paths[m.group(1)]), shell)


def command_missing(shell: str, cwd: str | None) -> bool:
    """True when the command's first word is clearly not runnable (like ``command -v``)."""
    try:
        lexer = shlex.shlex(shell, posix=True, punctuation_chars=True)
        lexer.whitespace_split = True
        words = list(lexer)
    except ValueError:
        return False  # let the shell report its own syntax error
    if not words or "=" in words[0] or words[0] in _SH_BUILTINS or words[0] in _SH_WORDS:
        return False
    if not words[0].strip("();|&<>"):
        return False  # a subshell or redirection first: only the shell can tell
    first = words[0]
    if "/" in first:
        path = os.path.join(cwd or os.getcwd(), first)
        return not (os.path.isfile(path) and os.access(path, os.X_OK))
    if _PLACEHOLDER.search(first) or "$" in first or "`" in first:
        return False
    return shutil.which(first) is None


# --------------------------------------------------------------------------- #
# Running one command.
# --------------------------------------------------------------------------- #
class _Capture(threading.Thread):
    """Drains one pipe; keeps the first ``cap`` bytes."""

    def __init__(self, stream: IO[bytes], cap: int) -> None:
        super().__init__(daemon=True)
        self.stream = stream
        self.cap = cap
        self.parts: list[bytes] = []
        self.kept = 0
        self.capped = False

    def run(self) -> None:
        with contextlib.suppress(OSError, ValueError):
            while True:
                chunk = (
                    self.stream.read1(_CHUNK)
                    if hasattr(self.stream, "read1")
                    else self.stream.read(_CHUNK)
                )
                if not chunk:
                    break
                room = self.cap - self.kept
                if room > 0:
                    self.parts.append(chunk[:room])
                    self.kept += min(room, len(chunk))
                if len(chunk) > room:
                    self.capped = True

    def data(self) -> bytes:
        return b"".join(self.parts)


def _feed(stream: IO[bytes] | None, data: bytes) -> None:
    if stream is None:
        return
    with contextlib.suppress(OSError, ValueError):
        stream.write(data)
    with contextlib.suppress(OSError, ValueError):
        stream.close()


def _killpg(pgid: int, sig: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, sig)


@dataclass
class _Run:
    stdout: bytes
    stderr: bytes
    returncode: int
    timed_out: bool
    killed: bool
    duration_ms: int
    capped: list[str]


def _execute(shell: str, stdin_data: bytes | None, limits: Limits, env: Mapping[str, str]) -> _Run:
    start = time.monotonic()
    proc = subprocess.Popen(
        ["sh", "-c", shell],
        stdin=subprocess.PIPE if stdin_data is not None else subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
        cwd=limits.cwd,
        env=dict(env),
    )
    pgid = proc.pid  # leader of its own session and group
    assert proc.stdout is not None and proc.stderr is not None
    out = _Capture(proc.stdout, limits.output_cap)
    err = _Capture(proc.stderr, limits.stderr_cap)
    out.start()
    err.start()
    feeder = threading.Thread(target=_feed, args=(proc.stdin, stdin_data or b""), daemon=True)
    if stdin_data is not None:
        feeder.start()
    exited = threading.Event()

    def waiter() -> None:
        # Wait for exit WITHOUT reaping, so the group id cannot be reused
        # before the sweep below.
        with contextlib.suppress(ChildProcessError, OSError):
            os.waitid(os.P_PID, proc.pid, os.WEXITED | os.WNOWAIT)
        exited.set()

    threading.Thread(target=waiter, daemon=True).start()
    timed_out = killed = False
    if not exited.wait(limits.timeout):
        timed_out = True
        _killpg(pgid, signal.SIGTERM)
        if not exited.wait(limits.kill_grace):
            killed = True
            _killpg(pgid, signal.SIGKILL)
            exited.wait()
    duration_ms = int((time.monotonic() - start) * 1000)
    _killpg(pgid, signal.SIGKILL)  # sweep whatever the command left running
    proc.wait()
    for t in (out, err):
        t.join(timeout=max(1.0, limits.kill_grace))
    if stdin_data is not None:
        feeder.join(timeout=1.0)
    for stream in (proc.stdout, proc.stderr):
        with contextlib.suppress(OSError):
            stream.close()
    capped = [name for name, t in (("output", out), ("stderr", err)) if t.capped]
    return _Run(out.data(), err.data(), proc.returncode, timed_out, killed, duration_ms, capped)


def _private_pack(reviewer: str, pack: bytes) -> str:
    """A 0600 ``pack.txt`` inside a fresh 0700 directory; returns the file path."""
    directory = tempfile.mkdtemp(prefix=f"council-{reviewer}-pack-")
    path = os.path.join(directory, "pack.txt")
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
    with os.fdopen(fd, "wb") as fh:
        fh.write(pack)
    return path


def run_reviewer(
    reviewer: str,
    pack: str,
    token: str | None,
    command: Command | None,
    limits: Limits,
    env: Mapping[str, str],
) -> Result:
    """Run one reviewer's command on its pack and classify the outcome."""
    name = display_name(reviewer)
    if command is None:
        return Result(
            status=UNAVAILABLE,
            error_kind="not-configured",
            summary=f"No command configured for {name} "
            f"(--command {reviewer}=CMD, COUNCIL_CMD_{env_key(reviewer)} or the config file).",
        )
    if command_missing(command.shell, limits.cwd):
        return Result(
            status=UNAVAILABLE,
            exit_code=127,
            error_kind="not-found",
            summary=f"{name} command not found or not executable; CLI not invoked.",
        )
    data = pack.encode("utf-8", "replace")
    pack_file = _private_pack(reviewer, data) if command.uses_file else None
    child_env = dict(env)
    child_env["COUNCIL_REVIEWER"] = reviewer
    try:
        shell = substitute(command.shell, pack_file) if pack_file else command.shell
        run = _execute(shell, None if pack_file else data, limits, child_env)
    finally:
        if pack_file:
            shutil.rmtree(os.path.dirname(pack_file), ignore_errors=True)
    return classify(reviewer, command, run, token, limits)


def classify(
    reviewer: str, command: Command, run: _Run, token: str | None, limits: Limits
) -> Result:
    name = display_name(reviewer)
    events = read_opencode_events(run.stdout) if command.adapter == "opencode-json" else None
    output = events.text if events is not None else run.stdout
    res = Result(
        output=output.decode("utf-8", "replace"),
        stderr=run.stderr.decode("utf-8", "replace"),
        duration_ms=run.duration_ms,
        capped=run.capped,
    )
    code = run.returncode
    if code < 0:
        code = 128 - code  # killed by signal N -> 128+N, as a shell reports it
    if run.timed_out:
        code = 137 if run.killed else 124
    res.exit_code = code
    missed = f"Council ran without {name}'s verdict."
    if run.timed_out or code in (124, 137):
        res.status, res.error_kind = TIMEOUT, "timeout"
        res.summary = f"{name} timed out at {limits.timeout}s. {missed}"
        res.timeout_s = int(limits.timeout)
    elif code in (126, 127):
        res.status = UNAVAILABLE
        res.error_kind = "not-executable" if code == 126 else "not-found"
        res.summary = f"{name} command failed to execute (exit {code})."
    elif code > 128:
        res.status, res.error_kind = TIMEOUT, "signal"
        res.summary = f"{name} was killed by signal {code - 128} (exit {code}). {missed}"
    elif code == 125:
        res.status, res.error_kind = ERROR, "timeout-utility"
        res.summary = (
            f"{name} timeout wrapper failed (exit 125). Excerpt: {safe_excerpt(run.stderr)}"
        )
    elif code != 0:
        res.status = ERROR
        if events is not None and events.error is not None:
            res.error_kind, res.summary = _event_error_summary(name, events.error)
        else:
            res.error_kind = error_kind(peek(run.stderr))
            res.summary = (
                f"{name} CLI error ({res.error_kind}, exit {code}). "
                f"Excerpt: {safe_excerpt(run.stderr)}"
            )
    elif token is not None and (INGEST_PREFIX + token).encode() not in run.stdout:
        res.status, res.error_kind = ERROR, "ingest"
        cli = CLI_NAMES.get(reviewer, name)
        res.summary = (
            f"Pack ingestion could not be verified ({cli} output lacks the ingest token) — "
            "verdict withheld rather than risk a review of unread input."
        )
    elif events is not None and not events.text:
        res.status = ERROR
        if events.error is not None:
            res.error_kind, res.summary = _event_error_summary(name, events.error)
        else:
            res.error_kind = "no-output"
            res.summary = f"{name} produced no assistant text."
    else:
        res.status = OK
    return res


def _event_error_summary(name: str, message: str) -> tuple[str, str]:
    """The kind and summary for an OpenCode error event (message redacted, then cut)."""
    raw = message.encode("utf-8", "replace")
    shown = _cut_text(redact_excerpt(raw).replace(b"\n", b" "), PEEK_BYTES)
    return error_kind(raw), f"{name} error: {shown}"


__all__ = [
    "ADAPTERS",
    "Command",
    "DISPLAY_NAMES",
    "Limits",
    "Result",
    "STATUSES",
    "classify",
    "parse_config",
    "read_opencode_events",
    "redact_excerpt",
    "resolve_command",
    "run_reviewer",
]
