"""council-dispatch's response cache, --replay, the run budget and the usage field."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import orjson
import pytest

from council_filters.dispatch import budget
from council_filters.dispatch import cache as cachemod
from council_filters.dispatch.config import Command

import cli_stubs as cs
from conftest import child_env, executable, run_filter

AWS = "AKIA" + "ZXCVBNMASDFGHJKL"  # an access-key shape, built so no scanner trips here
PEM_HEAD = "-----BEGIN " + "RSA PRIVATE KEY-----"


@pytest.fixture(autouse=True)
def _env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("COUNCIL_TIMEOUT", "20")
    for key in list(os.environ):
        if key.startswith(("COUNCIL_CMD_", "COUNCIL_ADAPTER_", "COUNCIL_CACHE")):
            monkeypatch.delenv(key)
    monkeypatch.delenv("COUNCIL_COMMANDS", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    monkeypatch.chdir(tmp_path)


def rec(reviewer: str, pack: str = "PACK one\n", token: str | None = None) -> bytes:
    r: dict[str, object] = {"kind": "reviewer", "run": "t", "reviewer": reviewer, "pack": pack}
    if token:
        r["ingest_token"] = token
    return orjson.dumps(r) + b"\n"


def dispatch(stdin: bytes, *args: str) -> tuple[int, list[dict], str]:
    res = run_filter("dispatch", args, stdin)
    return res.code, res.records(), res.err


def claude_stub(tmp_path: Path, text: str | None = None, **kw: object) -> tuple[Path, Path]:
    counter = tmp_path / "claude.count"
    out = cs.claude_json(text or cs.answer(), fresh=5, made=10, read=100, out=20, cost=0.01)
    return cs.write_stub(tmp_path / "bin", "claude", out, counter=counter, **kw), counter


def test_second_identical_run_starts_no_cli_and_gives_the_same_answer(tmp_path: Path) -> None:
    script, counter = claude_stub(tmp_path)
    args = ("-c", f"claude={script}", "--cache", str(tmp_path / "c"))
    code, (first,), err = dispatch(rec("claude"), *args)
    assert code == 0, err
    assert cs.starts(counter) == 1 and first["cached"] is False
    assert first["usage"] == {"input_tokens": 115, "output_tokens": 20, "cost_usd": 0.01,
                              "source": "claude-json"}
    assert first["pack_tokens"] == 3  # "PACK one\n" is 9 bytes
    code, (second,), err = dispatch(rec("claude"), *args)
    assert code == 0, err
    assert cs.starts(counter) == 1  # answered from the cache
    assert second["cached"] is True
    for key in ("output", "status", "exit_code", "usage", "pack_tokens"):
        assert second[key] == first[key], key
    # Another pack, another command line, or no cache: the CLI runs again.
    dispatch(rec("claude", "PACK two\n"), *args)
    assert cs.starts(counter) == 2
    dispatch(rec("claude"), "-c", f"claude={script} --flag", "--cache", str(tmp_path / "c"))
    assert cs.starts(counter) == 3
    dispatch(rec("claude"), "-c", f"claude={script}")
    assert cs.starts(counter) == 4


def test_the_ingest_token_does_not_change_the_key() -> None:
    cmd = Command("codex", "codex exec -", "text")
    a = cachemod.key(cmd, "pack\n\nINGEST_TOKEN: aaaa\n", "aaaa")
    b = cachemod.key(cmd, "pack\n\nINGEST_TOKEN: bbbb\n", "bbbb")
    assert a == b
    assert a != cachemod.key(cmd, "pack\n\nINGEST_TOKEN: aaaa\n", None)
    assert a != cachemod.key(Command("codex", "codex exec -", "opencode-json"),
                             "pack\n\nINGEST_TOKEN: aaaa\n", "aaaa")
    assert a != cachemod.key(Command("claude", "codex exec -", "text"),
                             "pack\n\nINGEST_TOKEN: aaaa\n", "aaaa")


def test_the_cache_never_holds_an_unredacted_byte(tmp_path: Path) -> None:
    secret_text = cs.answer() + f"I found aws_key = {AWS} in the diff.\n{PEM_HEAD}\nMIIEow\n"
    out = cs.claude_json(secret_text, fresh=1, made=0, read=0, out=1, cost=0.0)
    script = cs.write_stub(tmp_path / "bin", "claude", out,
                           stderr=f"debug: token {AWS}\n".encode())
    cache_dir = tmp_path / "c"
    code, (first,), err = dispatch(rec("claude"), "-c", f"claude={script}", "--cache",
                                   str(cache_dir))
    assert code == 0, err
    (entry,) = list(cache_dir.iterdir())
    raw = entry.read_bytes()
    assert AWS.encode() not in raw and b"MIIEow" not in raw
    assert b"redacted" in raw
    assert stat.S_IMODE(entry.stat().st_mode) == 0o600
    assert stat.S_IMODE(cache_dir.stat().st_mode) == 0o700
    code, (second,), _ = dispatch(rec("claude"), "-c", f"claude={script}", "--cache",
                                  str(cache_dir))
    assert second["cached"] is True
    assert AWS not in second["output"] and AWS not in second["stderr"]


def test_an_existing_open_cache_directory_is_made_private(tmp_path: Path) -> None:
    cache_dir = tmp_path / "c"
    cache_dir.mkdir(mode=0o755)
    cache_dir.chmod(0o755)
    cachemod.Cache(str(cache_dir))
    assert stat.S_IMODE(cache_dir.stat().st_mode) == 0o700


def test_a_cache_that_is_a_file_is_a_usage_error(tmp_path: Path) -> None:
    (tmp_path / "c").write_text("x")
    code, _, err = dispatch(rec("claude"), "-c", "claude=cat", "--cache", str(tmp_path / "c"))
    assert code == 2 and "not a directory" in err


def test_failed_answers_are_not_kept(tmp_path: Path) -> None:
    counter = tmp_path / "n"
    script = cs.write_stub(tmp_path / "bin", "claude", b"", stderr=b"boom\n", counter=counter,
                           exit_code=1)
    args = ("-c", f"claude={script}", "--cache", str(tmp_path / "c"))
    dispatch(rec("claude"), *args)
    code, (r,), _ = dispatch(rec("claude"), *args)
    assert r["status"] == "ERROR" and r["cached"] is False
    assert cs.starts(counter) == 2
    assert list((tmp_path / "c").iterdir()) == []


def test_a_damaged_entry_is_a_miss(tmp_path: Path) -> None:
    script, counter = claude_stub(tmp_path)
    args = ("-c", f"claude={script}", "--cache", str(tmp_path / "c"))
    dispatch(rec("claude"), *args)
    (entry,) = list((tmp_path / "c").iterdir())
    entry.write_bytes(b'{"v":1,"fields":{"output":')
    code, (r,), _ = dispatch(rec("claude"), *args)
    assert code == 0 and r["cached"] is False and cs.starts(counter) == 2


def test_replay_starts_no_cli(tmp_path: Path) -> None:
    script, counter = claude_stub(tmp_path)
    other, other_count = cs.write_stub(tmp_path / "bin", "codex", b"x\n",
                                       counter=tmp_path / "codex.count"), tmp_path / "codex.count"
    cache_dir = str(tmp_path / "c")
    dispatch(rec("claude"), "-c", f"claude={script}", "--cache", cache_dir)
    assert cs.starts(counter) == 1
    stdin = rec("claude") + rec("codex")
    code, (a, b), err = dispatch(stdin, "-c", f"claude={script}", "-c", f"codex={other}",
                                 "--cache", cache_dir, "--replay")
    assert code == 0, err
    assert cs.starts(counter) == 1 and cs.starts(other_count) == 0
    assert a["cached"] is True and a["status"] == "OK"
    assert (b["status"], b["error_kind"]) == ("UNAVAILABLE", "not-cached")
    code, _, err = dispatch(rec("claude"), "-c", "claude=cat", "--replay")
    assert code == 2 and "--replay needs --cache" in err


def test_budget_skips_before_start_in_reviewer_order(tmp_path: Path) -> None:
    counters = {n: tmp_path / f"{n}.count" for n in ("alpha", "beta", "gamma")}
    scripts = {n: cs.write_stub(tmp_path / "bin", n, cs.answer().encode(), counter=c)
               for n, c in counters.items()}
    pack = "x" * 400  # 100 tokens each
    stdin = b"".join(rec(n, pack) for n in scripts)
    cmds = [a for n, s in scripts.items() for a in ("-c", f"{n}={s}")]
    code, recs, err = dispatch(stdin, *cmds, "--budget-tokens", "250")
    assert code == 0, err
    assert [r["status"] for r in recs] == ["OK", "OK", "UNAVAILABLE"]
    assert recs[2]["error_kind"] == "budget"
    assert "~100 tokens" in recs[2]["summary"] and "--budget-tokens 250" in recs[2]["summary"]
    assert "Gamma skipped before it started" in err  # said on stderr too, never silent
    assert [cs.starts(c) for c in counters.values()] == [1, 1, 0]
    # One byte under the line: exactly the budget fits.
    code, recs, _ = dispatch(stdin, *cmds, "--budget-tokens", "300")
    assert [r["status"] for r in recs] == ["OK", "OK", "OK"]


def test_cached_answers_cost_nothing_against_the_budget(tmp_path: Path) -> None:
    script, counter = claude_stub(tmp_path)
    cache_dir = str(tmp_path / "c")
    dispatch(rec("claude", "y" * 400), "-c", f"claude={script}", "--cache", cache_dir)
    code, (r,), _ = dispatch(rec("claude", "y" * 400), "-c", f"claude={script}",
                             "--cache", cache_dir, "--budget-tokens", "0")
    assert r["cached"] is True and r["status"] == "OK" and cs.starts(counter) == 1


def test_usd_budget_uses_the_price_table_by_name_then_family(tmp_path: Path) -> None:
    prices = tmp_path / "prices"
    prices.write_text("# USD per million tokens\nalpha = 3 15\nopenai = 1.25\n")
    conf = tmp_path / "commands"
    scripts = {n: cs.write_stub(tmp_path / "bin", n, cs.answer().encode())
               for n in ("alpha", "beta", "gamma")}
    conf.write_text("".join(f"{n} = {s}\n" for n, s in scripts.items())
                    + "beta.family = openai\n")
    stdin = b"".join(rec(n, "z" * 4000) for n in scripts)  # 1000 tokens each
    code, recs, err = dispatch(stdin, "--config", str(conf), "--prices", str(prices),
                               "--budget-usd", "0.004")
    assert code == 0, err
    # alpha: 1000 * 3e-6 = $0.003; beta: + $0.00125 > $0.004; gamma: no price.
    assert [(r["status"], r["error_kind"]) for r in recs] == [
        ("OK", None), ("UNAVAILABLE", "budget"), ("UNAVAILABLE", "budget")]
    assert "--budget-usd" in recs[1]["summary"] and "no price" in recs[2]["summary"]
    assert recs[1]["family"] == "openai" and "family" not in recs[0]
    code, _, err = dispatch(stdin, "--config", str(conf), "--budget-usd", "1")
    assert code == 2 and "--prices" in err


@pytest.mark.parametrize("line", ["a = cheap", "a = -1", "a = 1 2 3", "= 1", "a 1", "a = nan"])
def test_bad_price_lines(line: str) -> None:
    with pytest.raises(ValueError, match="prices:1:"):
        budget.parse_prices(line + "\n", "prices")


@pytest.mark.slow
def test_two_dispatches_at_once_share_one_cache(tmp_path: Path) -> None:
    names = [f"r{i}" for i in range(6)]
    scripts = {n: cs.write_stub(tmp_path / "bin", n, cs.claude_json(
        cs.answer(), fresh=i, made=0, read=0, out=i, cost=0.001 * i), counter=tmp_path / n)
        for i, n in enumerate(names)}
    conf = tmp_path / "commands"
    conf.write_text("".join(f"{n} = {s}\n" for n, s in scripts.items()))
    stdin = b"".join(rec(n, f"pack of {n}\n" * 50) for n in names)
    argv = [str(executable("dispatch")), "--config", str(conf), "--cache", str(tmp_path / "c")]
    env = child_env()
    for _round in range(3):
        procs = [subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, env=env) for _ in range(2)]
        outs = [p.communicate(stdin, timeout=60) for p in procs]
        for p, (out, err) in zip(procs, outs, strict=True):
            assert p.returncode == 0, err
            recs = [orjson.loads(line) for line in out.splitlines()]
            assert [r["status"] for r in recs] == ["OK"] * 6
            assert all(r["usage"]["source"] == "claude-json" for r in recs)
    entries = sorted((tmp_path / "c").iterdir())
    assert len(entries) == 6  # one per reviewer, no temporary file left
    for entry in entries:
        assert entry.suffix == ".json" and stat.S_IMODE(entry.stat().st_mode) == 0o600
        assert orjson.loads(entry.read_bytes())["fields"]["status"] == "OK"
    # At most the first round's two runs started each CLI.
    assert all(cs.starts(tmp_path / n) <= 2 for n in names)


def test_concurrent_writers_never_leave_a_partial_entry(tmp_path: Path) -> None:
    code = (
        "import sys\n"
        "from council_filters.dispatch.cache import Cache\n"
        "from council_filters.dispatch.config import Command\n"
        "c = Cache(sys.argv[1], redact=lambda e: e)\n"
        "k = 'a' * 64\n"
        "cmd = Command('x', 'x', 'text')\n"
        "for i in range(200):\n"
        "    c.put(k, cmd, {'status': 'OK', 'output': sys.argv[2] * (1000 + i)})\n"
        "    got = c.get(k)\n"
        "    assert got is not None and set(got['output']) <= {'p', 'q'}, got\n"
    )
    directory = str(tmp_path / "c")
    procs = [subprocess.Popen([sys.executable, "-c", code, directory, ch]) for ch in "pq"]
    assert [p.wait(timeout=120) for p in procs] == [0, 0]
    assert [p.name for p in (tmp_path / "c").iterdir()] == ["a" * 64 + ".json"]
