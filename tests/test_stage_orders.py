"""Any order of the text stages keeps every credential out of every report.

The README and docs/formats.md say stages can be added, removed or reordered.  A reviewer answer
carrying an AWS key, a GitHub token in stderr and a 25-line PEM block goes
through every order of council-redact --jsonl, council-fence --jsonl
--hardened and council-parse-verdict --jsonl, then council-consolidate in
each output format: no credential byte may reach any of them.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

import orjson
import pytest

from conftest import run_filter

AWS = "AKIAIOSFODNN7EXAMPLE"
GHP = "ghp_" + "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghij1234"
BEARER = "Bearer " + "eyJhbGciOiJIUzI1NiJ9.payloadpayload"
PEM_BODY = [
    f"MIIEpAIBAAKCAQEA{i:02d}xyzABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopq" for i in range(25)
]
PEM = "-----BEGIN RSA PRIVATE KEY-----\n" + "\n".join(PEM_BODY) + "\n-----END RSA PRIVATE KEY-----"
SECRETS = [AWS, GHP, BEARER.split(" ", 1)[1], *PEM_BODY]

OUTPUT = (
    "Verdict: REVISE\nConfidence: HIGH\nFindings:\n"
    f"- [P1] app/config.py:12 \u2014 hard-coded key {AWS} in source\n"
    f"  Evidence: \"aws_key = '{AWS}'\"\n"
    f"- [P2] app/keys.pem:1 \u2014 a private key is committed: {BEARER}\n"
    f"{PEM}\n"
    f"Summary: rotate {AWS} and the key\n"
)
RECORD = {
    "kind": "reviewer", "run": "r1", "mode": "review", "slug": "leak-check",
    "reviewer": "gemini", "output": OUTPUT, "stderr": f"warning: token {GHP}",
    "exit_code": 0, "status": "OK",
    "extra": {"notes": [f"user field {AWS}"]},
}

Stage = Callable[[bytes], bytes]


def _stage(exe: str, args: list[str]) -> Stage:
    def run(data: bytes) -> bytes:
        res = run_filter(exe, args, data)
        assert res.code == 0, res.err
        assert not any(s in res.err for s in SECRETS)
        return res.out

    return run


STAGES = {
    "redact": _stage("redact", ["--jsonl"]),
    "fence": _stage("fence", ["--jsonl", "--hardened"]),
    "parse-verdict": _stage("parse-verdict", ["--jsonl"]),
}
ORDERS = list(itertools.permutations(STAGES))


def _leaks(data: bytes) -> list[str]:
    text = data.decode("utf-8", "replace")
    return [s[:24] for s in SECRETS if s in text]


@pytest.mark.parametrize("order", ORDERS, ids=["-".join(o) for o in ORDERS])
@pytest.mark.parametrize("fmt", ["markdown", "json", "findings", "sarif", "rdjsonl"])
def test_no_stage_order_leaks_a_credential(order: tuple[str, ...], fmt: str) -> None:
    data = orjson.dumps(RECORD) + b"\n"
    assert len(_leaks(data)) == len(SECRETS)  # the test input does carry them all
    for name in order:
        data = STAGES[name](data)
    if order[-1] == "redact":
        assert _leaks(data) == []
    report = _stage("consolidate", ["--format", fmt])(data)
    if fmt in ("markdown", "json"):
        assert report.strip()
    assert _leaks(report) == []


def test_the_chain_still_reports_what_the_reviewer_found() -> None:
    data = orjson.dumps(RECORD) + b"\n"
    for name in ("fence", "parse-verdict", "redact"):
        data = STAGES[name](data)
    (rec,) = [orjson.loads(x) for x in data.splitlines()]
    assert rec["verdict"] == "REVISE"
    assert [f["file"] for f in rec["findings"]] == ["app/config.py", "app/keys.pem"]
    assert "redacted credential" in rec["findings"][0]["summary"]
