"""council-state CLI and storage: exit codes, error lines, refusals, file hygiene."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest

from council_filters.base.errors import DataError
from council_filters.consolidate import origins
from council_filters.state import machine as review_state
from council_filters.state import store as statefile

from conftest import Result, run_filter

ROOT = Path(__file__).resolve().parent.parent
SECRET = "ghp_SECRETVALUE1234567890abcdefghijkl"


def run(path: Path | None, *argv: str, stdin: bytes = b"",
        env: dict[str, str] | None = None) -> Result:
    """council-state on the state file ``path`` (``None``: no --file)."""
    args = (["--file", str(path)] if path is not None else []) + list(argv)
    return run_filter("state", args, stdin, env=env)


def jl(*records: dict) -> bytes:
    return b"".join(json.dumps(r).encode() + b"\n" for r in records)


def f(fid: str, origin: str, sev: str = "medium", **extra: object) -> dict:
    return {"kind": "finding", "id": fid, "origin": origin, "severity": sev,
            "fingerprint": "fp-" + fid, **extra}


@pytest.fixture
def state(tmp_path: Path) -> Path:
    path = tmp_path / "review-state.json"
    assert run(path, "init")[0] == 0
    assert run(path, "add", stdin=jl(
        f("SEC-001", "security", "critical"), f("TST-001", "tests", "P1"),
        f("PRF-001", "performance", "minor", merged_origins=["performance", "security"]),
        f("ARQ-001", "architecture", "minor"), f("REQ-001", "requirements", "medium"),
    ))[0] == 0
    return path


def statuses(path: Path) -> dict[str, str]:
    return {x["id"]: x["status"] for x in statefile.load(str(path))["findings"]}


# --------------------------------------------------------------------------- #
# Help, version, usage.
# --------------------------------------------------------------------------- #
def test_help_teaches() -> None:
    code, out, _ = run(None, "--help")
    text = out.decode()  # help goes to the injected stdout
    assert code == 0
    assert "Exit codes:" in text and "Examples:" in text and "| council-state add" in text
    for verb in ("init", "add", "accept", "record-fix", "scope", "verify", "status", "show",
                 "history"):
        assert verb in text


def test_version() -> None:
    code, out, _ = run(None, "--version")
    assert code == 0 and out.startswith(b"council-state ")


@pytest.mark.parametrize("argv", [
    ["accept"], ["accept", "--all", "--ids", "SEC-001"], ["accept", "--severity", "critcal"],
    ["accept", "--ids", "bad id!"], ["frobnicate"],
])
def test_usage_errors_exit_2_and_change_nothing(state: Path, argv: list[str]) -> None:
    before = state.read_bytes()
    code, _, err = run(state, *argv)
    assert code == 2, err
    assert err.startswith("council-state: ") and err.count("\n") == 1
    assert state.read_bytes() == before


def test_bad_clock_is_a_usage_error(state: Path) -> None:
    code, _, err = run(state, "scope", env={"COUNCIL_NOW": "yesterday"})
    assert code == 2 and "COUNCIL_NOW" in err


@pytest.mark.parametrize("raw,expected", [
    ("0", "1970-01-01T00:00:00Z"), ("1735787045", "2025-01-02T03:04:05Z"),
    ("2025-01-02T03:04:05Z", "2025-01-02T03:04:05Z"),
])
def test_clock(raw: str, expected: str) -> None:
    assert review_state.clock({"COUNCIL_NOW": raw}, 99) == expected
    assert review_state.clock({"SOURCE_DATE_EPOCH": raw}, 99) == expected
    assert review_state.clock({}, 0) == "1970-01-01T00:00:00Z"


# --------------------------------------------------------------------------- #
# Illegal requests: exit 1, one clear line, the file byte-for-byte untouched.
# --------------------------------------------------------------------------- #
ILLEGAL = [
    # (setup steps, request, stdin, expected message part)
    ([["accept", "--ids", "SEC-001"]], ["accept", "--ids", "TST-001"], b"",
     "TST-001: cannot accept a finding that is dismissed"),
    ([["accept", "--ids", "SEC-001"]], ["accept", "--ids", "SEC-001"], b"",
     "SEC-001: cannot accept a finding that is accepted"),
    ([], ["accept", "--ids", "SEC-404"], b"", "SEC-404: unknown finding ID"),
    ([["accept", "--all"]], ["record-fix"], jl({"id": "SEC-404", "outcome": "fixed"}),
     "stdin:1: SEC-404: unknown finding ID"),
    ([], ["record-fix"], jl({"id": "SEC-001", "outcome": "fixed"}),
     "SEC-001: cannot record a fix for a finding that is open"),
    ([["accept", "--all"]], ["record-fix"], jl({"id": "SEC-001", "outcome": "done"}),
     "SEC-001: outcome must be one of: fixed, escalated"),
    ([["accept", "--all"]], ["record-fix"], jl({"id": "SEC-001", "outcome": "fixed",
                                               "files_touched": "a.py"}),
     "files_touched must be an array"),
    ([["accept", "--all"]], ["record-fix"],
     jl({"id": "SEC-001", "outcome": "fixed"}, {"id": "SEC-001", "outcome": "fixed"}),
     "stdin:2: SEC-001: cannot record a fix for a finding that is fixed"),
    ([["accept", "--all"]], ["verify"], jl({"id": "SEC-001", "outcome": "verified"}),
     "SEC-001: not in re-review scope"),
    ([["accept", "--all"]], ["verify"], jl({"id": "SEC-001"}),
     "neither a verify outcome"),
    ([], ["verify"], jl({"kind": "finding", "id": "SEC-009", "origin": "security",
                         "fix_induced": True}), "must not carry an id"),
    ([], ["add"], jl({"kind": "finding", "origin": "security"}), "missing or malformed id"),
    ([], ["add"], jl({"kind": "finding", "id": "SEC-010"}), "finding has no origin"),
    ([], ["add"], jl({"kind": "verdict", "id": "SEC-010", "origin": "security"}),
     "not a finding record"),
    ([], ["add"], jl(f("SEC-001", "security") | {"fingerprint": "other"}), "ID collision"),
    ([], ["add"], b'{"id": "SEC-011", "origin": "sec\n', "stdin:1: invalid JSON"),
    ([], ["init"], b"{}", "already exists (use init --force"),
]


@pytest.mark.parametrize("setup,request_,stdin,message", ILLEGAL,
                         ids=[f"{i}-{r[1][0]}" for i, r in enumerate(ILLEGAL)])
def test_illegal_request_exit_1_file_untouched(state: Path, setup: list[list[str]],
                                                request_: list[str], stdin: bytes,
                                                message: str) -> None:
    for step in setup:
        assert run(state, *step)[0] == 0
    before = state.read_bytes()
    mtime = state.stat().st_mtime_ns
    code, out, err = run(state, *request_, stdin=stdin)
    assert code == 1, err
    assert message in err, err
    assert err.startswith("council-state: ") and err.count("\n") == 1
    assert out == b""
    assert state.read_bytes() == before and state.stat().st_mtime_ns == mtime


def test_the_batch_is_all_or_nothing(state: Path) -> None:
    run(state, "accept", "--all")
    before = state.read_bytes()
    code, _, _ = run(state, "record-fix", stdin=jl(
        {"id": "SEC-001", "outcome": "fixed"}, {"id": "TST-001", "outcome": "escalated"},
        {"id": "NOPE-001", "outcome": "fixed"}))
    assert code == 1
    assert state.read_bytes() == before


def test_errors_never_quote_input_text(state: Path) -> None:
    code, _, err = run(state, "add", stdin=jl(
        {"kind": "finding", "id": "SEC-050", "origin": "security", "summary": SECRET,
         "fingerprint": 42}))
    assert code == 1 and SECRET not in err
    bad = state.parent / "bad.json"
    bad.write_text(json.dumps({"format": "council-review-state", "version": 1,
                               "context": {"token": SECRET}}))
    code, _, err = run(bad, "status")
    assert code == 1 and SECRET not in err and "fails schema rule" in err
    bad.write_text('{"token": "' + SECRET)
    code, _, err = run(bad, "status")
    assert code == 1 and SECRET not in err and "corrupt or truncated" in err


# --------------------------------------------------------------------------- #
# Refused files are never overwritten, by any verb.
# --------------------------------------------------------------------------- #
BAD_FILES = {
    "empty": b"",
    "truncated": None,  # filled from a valid state below
    "not-json": b"not json at all\n",
    "array": b"[1, 2, 3]\n",
    "foreign": b'{"name": "pkg", "version": "1.0.0"}\n',
    "newer": None,
    "bad-version": None,
    "duplicate-id": None,
    "frozen-mismatch": None,
}


def bad_bytes(kind: str, valid: bytes) -> bytes:
    data = BAD_FILES[kind]
    if data is not None:
        return data
    st = json.loads(valid)
    if kind == "truncated":
        return valid[: len(valid) - 7]
    if kind == "newer":
        st["version"] = 2
    elif kind == "bad-version":
        st["version"] = "1"
    elif kind == "duplicate-id":
        st["findings"].append(st["findings"][0])
    elif kind == "frozen-mismatch":
        st["findings"][0]["frozen"] = True
    return json.dumps(st).encode()


@pytest.mark.parametrize("kind", list(BAD_FILES))
@pytest.mark.parametrize("argv", [["status"], ["accept", "--all"], ["scope"],
                                  ["init", "--force"], ["add"]])
def test_refused_files_are_never_overwritten(state: Path, kind: str, argv: list[str]) -> None:
    data = bad_bytes(kind, state.read_bytes())
    state.write_bytes(data)
    code, _, err = run(state, *argv, stdin=jl(f("SEC-099", "security")))
    assert code == 1, err
    assert "refusing" in err or "invalid state file" in err or "newer" in err, err
    assert state.read_bytes() == data


def test_newer_version_message(state: Path) -> None:
    state.write_bytes(bad_bytes("newer", state.read_bytes()))
    _, _, err = run(state, "status")
    assert "version 2 is newer" in err and "upgrade" in err


def test_missing_file_is_exit_2(tmp_path: Path) -> None:
    code, _, err = run(tmp_path / "nope.json", "accept", "--all")
    assert code == 2 and "council-state init" in err
    assert not (tmp_path / "nope.json").exists()


def test_missing_directory_is_exit_2(tmp_path: Path) -> None:
    code, _, err = run(tmp_path / "no" / "such.json", "init")
    assert code == 2 and "directory does not exist" in err


# --------------------------------------------------------------------------- #
# init, file location, hygiene.
# --------------------------------------------------------------------------- #
def test_init_force_replaces_a_valid_state(state: Path) -> None:
    code, _, _ = run(state, "init", "--force", stdin=b'{"pr": 7}')
    assert code == 0
    st = statefile.load(str(state))
    assert st["findings"] == [] and st["context"] == {"pr": 7}
    assert [e["verb"] for e in st["history"]] == ["init"]


@pytest.mark.parametrize("data,message", [
    (b"[1]", "context must be a JSON object, got array"),
    (b"{", "invalid JSON"),
])
def test_init_rejects_bad_context(tmp_path: Path, data: bytes, message: str) -> None:
    path = tmp_path / "s.json"
    code, _, err = run(path, "init", stdin=data)
    assert code == 1 and message in err
    assert not path.exists()


def test_file_comes_from_env_then_default(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                          ) -> None:
    monkeypatch.chdir(tmp_path)
    assert run(None, "init")[0] == 0
    assert (tmp_path / "review-state.json").exists()
    monkeypatch.setenv("COUNCIL_STATE", str(tmp_path / "env.json"))
    assert run(None, "init")[0] == 0
    assert (tmp_path / "env.json").exists()
    assert run(tmp_path / "flag.json", "init")[0] == 0  # --file beats the environment
    assert (tmp_path / "flag.json").exists()


def test_private_modes_and_no_debris(state: Path) -> None:
    assert stat.S_IMODE(state.stat().st_mode) == 0o600
    lock = Path(str(state) + ".lock")
    assert stat.S_IMODE(lock.stat().st_mode) == 0o600
    assert sorted(p.name for p in state.parent.iterdir()) == [state.name, lock.name]


def test_stale_temp_files_are_removed_by_the_next_writer(state: Path) -> None:
    stale = state.parent / f".{state.name}.abcd1234.tmp"
    stale.write_bytes(b'{"half')
    other = state.parent / ".unrelated.tmp"
    other.write_bytes(b"keep")
    assert run(state, "accept", "--all")[0] == 0
    assert not stale.exists() and other.exists()


def test_a_symlinked_state_file_stays_a_symlink(state: Path) -> None:
    link = state.parent / "link.json"
    link.symlink_to(state.name)
    assert run(link, "accept", "--all")[0] == 0
    assert link.is_symlink()
    assert statuses(state)["SEC-001"] == "accepted"


def test_no_write_when_nothing_changes(state: Path) -> None:
    before = state.read_bytes()
    mtime = state.stat().st_mtime_ns
    assert run(state, "scope")[0] == 0  # nothing fixed yet
    assert run(state, "add", stdin=jl(f("SEC-001", "security", "critical")))[0] == 0  # same
    assert state.read_bytes() == before and state.stat().st_mtime_ns == mtime


# --------------------------------------------------------------------------- #
# Verbs.
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize("argv,accepted", [
    (["--all"], {"SEC-001", "TST-001", "PRF-001", "ARQ-001", "REQ-001"}),
    (["--severity", "critical"], {"SEC-001", "TST-001"}),  # TST-001 is P1
    (["--severity", "P1"], {"SEC-001", "TST-001"}),
    (["--severity", "security"], {"SEC-001", "PRF-001"}),  # PRF-001 merged from security
    (["--severity", "critical,security"], {"SEC-001", "TST-001", "PRF-001"}),
    (["--severity", "minor", "--ids", "REQ-001"], {"PRF-001", "ARQ-001", "REQ-001"}),
    (["--ids", "ARQ-001,REQ-001"], {"ARQ-001", "REQ-001"}),
    (["--severity", "suggestion"], {"PRF-001", "ARQ-001"}),
    (["--severity", "tests"], {"TST-001"}),
])
def test_accept_selection(state: Path, argv: list[str], accepted: set[str]) -> None:
    assert run(state, "accept", *argv)[0] == 0
    got = statuses(state)
    assert {k for k, v in got.items() if v == "accepted"} == accepted
    assert {k for k, v in got.items() if v == "dismissed"} == set(got) - accepted


def test_add_refresh_keeps_status_and_logs_changes(state: Path) -> None:
    run(state, "accept", "--ids", "SEC-001")
    code, _, _ = run(state, "add", stdin=jl(f("SEC-001", "security", "critical", line=12)))
    assert code == 0
    st = statefile.load(str(state))
    sec = st["findings"][0]
    assert sec["status"] == "accepted" and sec["line"] == 12
    assert st["history"][-1]["changes"] == {"line": [None, 12]}
    assert list(sec)[: len(review_state.STATE_FIELDS)] == list(review_state.STATE_FIELDS)


def test_add_accepts_records_without_kind(state: Path) -> None:
    rec = {"id": "REG-001", "origin": "regression", "fingerprint": "x"}
    assert run(state, "add", stdin=jl(rec))[0] == 0
    assert statuses(state)["REG-001"] == "open"


def test_fix_induced_ids_continue_the_origin_numbering(state: Path) -> None:
    run(state, "add", stdin=jl(f("SEC-007", "security")))
    code, out, _ = run(state, "verify", stdin=jl(
        {"kind": "finding", "origin": "security", "fix_induced": True, "summary": "a"},
        {"kind": "finding", "origin": "security", "fix_induced": True, "summary": "b"},
        {"kind": "finding", "origin": "claude", "fix_induced": True, "summary": "c"},
    ))
    assert code == 0
    new = [json.loads(line) for line in out.splitlines()]
    assert [r["id"] for r in new] == ["SEC-008", "SEC-009", "CLA-001"]
    assert all(r["kind"] == "finding" and r["status"] == "open" for r in new)


def test_status_exit_codes(tmp_path: Path, state: Path) -> None:
    empty = tmp_path / "empty.json"
    run(empty, "init")
    assert run(empty, "status")[0] == 0
    code, out, _ = run(state, "status", "--json")
    assert code == 3
    summary = json.loads(out)
    assert summary["complete"] is False and summary["total"] == 5
    run(state, "accept", "--ids", "SEC-001")
    run(state, "record-fix", stdin=jl({"id": "SEC-001", "outcome": "escalated",
                                       "reason": "design choice"}))
    assert run(state, "status")[0] == 0


def test_show_and_history(state: Path) -> None:
    code, out, _ = run(state, "show", "PRF-001")
    rec = json.loads(out)
    assert code == 0 and rec["kind"] == "finding" and rec["id"] == "PRF-001"
    code, out, _ = run(state, "show")
    assert len(out.splitlines()) == 5
    code, out, _ = run(state, "history", "--id", "TST-001")
    entries = [json.loads(line) for line in out.splitlines()]
    assert [(e["kind"], e["verb"]) for e in entries] == [("history", "add")]


# --------------------------------------------------------------------------- #
# The one transition table: code and docs agree; every other move is refused.
# --------------------------------------------------------------------------- #
def test_docs_print_the_code_table() -> None:
    doc = (ROOT / "docs" / "state.md").read_text()
    begin, end = "<!-- transitions:begin -->\n", "<!-- transitions:end -->"
    block = doc[doc.index(begin) + len(begin): doc.index(end)]
    assert block == review_state.transition_table_markdown()


EVENTS = sorted({t.event for t in review_state.TRANSITIONS if t.source is not None})


@pytest.mark.parametrize("status", review_state.STATUSES)
@pytest.mark.parametrize("event", EVENTS)
def test_every_pair_is_allowed_or_refused_by_the_table(status: str, event: str) -> None:
    allowed = {(t.source, t.event): t.target for t in review_state.TRANSITIONS}
    if (status, event) in allowed:
        assert review_state.next_status("X-001", status, event) == allowed[(status, event)]
    else:
        with pytest.raises(DataError, match="X-001: cannot"):
            review_state.next_status("X-001", status, event)


def test_terminal_statuses_have_no_way_out() -> None:
    for t in review_state.TRANSITIONS:
        assert t.source not in review_state.TERMINAL


# --------------------------------------------------------------------------- #
# Origins and IDs.
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize("origin,code", [
    ("security", "SEC"), ("requirements", "REQ"), ("tests", "TST"), ("architecture", "ARQ"),
    ("regression", "REG"), ("performance", "PRF"), (" Security ", "SEC"),
    ("hallucination", "REG"), ("test", "TST"),
    ("claude", "CLA"), ("codex", "COD"), ("go", "GOX"), ("x", "XXX"), ("42x", "XXX"),
    ("my-linter", "MYL"), ("", "XXX"), ("---", "XXX"), ("é", "XXX"), ("SEC", "SEC"),
])
def test_origin_code(origin: str, code: str) -> None:
    assert origins.origin_code(origin) == code


def test_origin_code_keeps_a_code_in_use_and_avoids_taken_ones() -> None:
    known = {"clangd": "CLA"}  # consolidate gave clangd CLA in an earlier cycle
    assert origins.origin_code("clangd", known) == "CLA"
    assert origins.origin_code("claude", known) == "CLU"
    findings = [{"origin": "clangd", "id": "CLA-004"}, {"origin": "x", "id": "odd"}]
    assert origins.known_codes(findings) == {"clangd": "CLA"}


@pytest.mark.parametrize("fid,parsed", [
    ("SEC-001", ("SEC", 1)), ("SEC-1000", ("SEC", 1000)), ("CLA-042", ("CLA", 42)),
    ("SEC-01", None), ("sec-001", None), ("S-001", None), ("SEC001", None), ("SEC-001 ", None),
])
def test_parse_id(fid: str, parsed: tuple[str, int] | None) -> None:
    assert origins.parse_id(fid) == parsed


def test_next_number_skips_past_the_highest() -> None:
    assert origins.next_number([], "SEC") == 1
    assert origins.next_number(["SEC-001", "SEC-007", "TST-020", "odd"], "SEC") == 8
    assert origins.format_id("SEC", 8) == "SEC-008"
