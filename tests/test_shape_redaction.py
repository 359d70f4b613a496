"""The pack's redaction keeps its shape: only the credential's span becomes a typed
placeholder; prefixes, identifiers and the line count stay; the ingest token is never
touched; the reviewers' outputs keep the whole-line redaction."""

from __future__ import annotations

import json
import secrets as pysecrets

import pytest

from council_filters.base.vocab import INGEST_PREFIX
from council_filters.pack import core
from council_filters.redaction import secrets
from council_filters.redaction.machine import redact_text
from council_filters.redaction.records import redact_record
from council_filters.redaction.shape import PLACEHOLDER_RE, redact_shape

from conftest import run_filter

EXTENDED = secrets.load_rules("extended")
# Credential shapes built at run time, so no scanner trips on this file.
AWS = "AKIA" + "Q7WERTYUIOPASDF3"
GHP = "ghp_" + "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5"
SLACK = "xoxb-" + "2417593026-4820496730-" + "Zq8RtY3uVw5XaB7cDe9FgH1J"
STRIPE = "sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc9x"
PASSWORD = "Tr0ub4dor-" + "Horse-Battery-77"


def test_a_diff_line_keeps_its_plus_and_its_identifier_without_the_value():
    data = f'diff --git a/c.py b/c.py\n@@ -1 +1,2 @@\n x = 1\n+AWS_KEY = "{AWS}"\n'.encode()
    out, changed = redact_shape(data, EXTENDED)
    text = out.decode()
    assert AWS not in text
    assert '+AWS_KEY = "\u2039redacted:aws-access-key-id\u203a"' in text.split("\n")
    assert changed == [4] and text.count("\n") == data.decode().count("\n")


@pytest.mark.parametrize("rules", [None, EXTENDED], ids=["eleven", "extended"])
@pytest.mark.parametrize("frame", ["  12 |+", "  12 | ", "+", ""], ids=repr)
@pytest.mark.parametrize(
    "line,name,secret",
    [
        ('token = "{}"', "token", GHP),
        ("export AWS_ACCESS_KEY_ID={}", "AWS_ACCESS_KEY_ID", AWS),
        ('headers["Authorization"] = "Bearer {}"', "headers", "eyJ" + "hbGciOiJIUzI1NiJ9x" * 2),
    ],
)
def test_span_replaced_frame_and_names_kept(rules, frame, line, name, secret):
    fence = "```diff\n" if frame == "+" else ""
    data = f"{fence}{frame}{line.format(secret)}\n".encode()
    out, changed = redact_shape(data, rules)
    text = out.decode()
    shown = text.split("\n")[1 if fence else 0]
    assert secret not in text
    assert shown.startswith(frame + line.split("{}")[0][:len(name)])
    assert PLACEHOLDER_RE.search(out)
    assert text.count("\n") == data.decode().count("\n")
    assert changed == [2 if fence else 1]


@pytest.mark.parametrize("secret", [GHP, SLACK, STRIPE, AWS, PASSWORD])
def test_nothing_the_whole_line_redaction_catches_gets_through(secret):
    """Whatever the span logic does, the line-redactor finds nothing left on the result."""
    lines = [
        f"  3 |+PASSWORD = '{secret}'",
        f"  4 | client_secret: {secret}",
        f"  5 |+url = 'https://user:{secret}@db.example.com/x'",
        f"+{secret}",
        f"value = {secret}  # trailing {secret}",
    ]
    data = ("\n".join(lines) + "\n").encode()
    flagged = {f.line for f in secrets.scan(data, EXTENDED)}
    assert {1, 2, 3} <= flagged  # the named ones, whatever the value's shape
    out, changed = redact_shape(data, EXTENDED)
    assert set(changed) == flagged
    for n, line in enumerate(out.split(b"\n"), start=1):
        assert (secret.encode() in line) == (n not in flagged and n <= len(lines))
    assert list(secrets.scan(out, EXTENDED)) == []
    assert redact_text(out)[0] == out
    assert out.count(b"\n") == data.count(b"\n")


def test_private_key_body_becomes_placeholder_lines_of_the_same_count():
    body = ["MIIEowIBAAKCAQEA" + "q" * 48, "Zm9vYmFy" * 8, "YWJjZGVm" * 8, "c2VjcmV0"]
    block = ["-----BEGIN RSA PRIVATE KEY-----", *body, "-----END RSA PRIVATE KEY-----"]
    data = ("".join(f"{i + 4:>3} |+{ln}\n" for i, ln in enumerate(block))).encode()
    out, changed = redact_shape(data, EXTENDED)
    got = out.decode().split("\n")[:-1]
    assert len(got) == len(block)
    assert got[0].endswith("|+-----BEGIN RSA PRIVATE KEY-----")
    assert got[-1].endswith("|+-----END RSA PRIVATE KEY-----")
    for i, line in enumerate(got[1:-1], start=5):
        assert line == f"{i:>3} |+\u2039redacted:private-key\u203a"
    assert all(b.encode() not in out for b in body)
    assert changed == [2, 3, 4, 5]


def test_default_rules_key_block_too():
    data = (b"-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n"
            b"-----END PRIVATE KEY-----\n")
    out, _ = redact_shape(data, None)
    assert out.split(b"\n")[1] == "\u2039redacted:private-key\u203a".encode()
    assert b"MIIEvQ" not in out


def test_clean_text_is_returned_as_is():
    data = b"def f():\n    return 1\n"
    assert redact_shape(data, EXTENDED) == (data, [])


def test_the_ingest_token_slot_counts_across_a_hundred_fresh_tokens():
    """The file reviewer's pack, redacted as the council redacts it, always still ends with
    its own token line (a redacted token is an ERROR for that reviewer)."""
    context = f'### Diff\n```diff\n@@ -0,0 +1 @@\n  1 |+KEY = "{AWS}"\n```'
    pack = core.envelope("Gemini", "review", context, numbered=True)
    for _ in range(100):
        token = pysecrets.token_hex(8)
        rec = {"kind": "reviewer", "reviewer": "gemini", "pack": core.file_form(pack, token),
               "ingest_token": token}
        out = redact_record(dict(rec), ("pack",), "-", 1, None, EXTENDED, shape=True)
        assert out["pack"].endswith(f"\n\n{INGEST_PREFIX}{token}\n")
        assert AWS not in out["pack"]
        # What the reviewer echoes is what dispatch looks for.
        echoed = [ln for ln in out["pack"].split("\n") if ln.startswith(INGEST_PREFIX)]
        assert echoed == [INGEST_PREFIX + token]


def test_a_token_line_that_is_not_the_records_own_is_redacted_as_usual():
    rec = {"pack": f"INGEST_TOKEN: {GHP}\n", "ingest_token": "0123456789abcdef"}
    out = redact_record(rec, ("pack",), "-", 1, None, EXTENDED, shape=True)
    assert GHP not in out["pack"]


def test_cli_keep_shape_on_the_pack_field_only():
    rec = {"kind": "reviewer", "pack": f"+KEY = '{AWS}'\n", "output": f"KEY = '{AWS}'\n"}
    code, out, err = run_filter("redact", ["--jsonl", "--field", "pack", "--keep-shape",
                                           "--rules", "extended"], json.dumps(rec) + "\n")
    assert code == 0, err
    got = json.loads(out)
    assert got["pack"] == "+KEY = '\u2039redacted:aws-access-key-id\u203a'\n"
    assert got["output"] == rec["output"]  # not a named field: untouched here
    assert got["redacted_lines"] == {"pack": [1]}
    code, out, _ = run_filter("redact", ["--jsonl", "--rules", "extended"],
                              json.dumps(rec) + "\n")
    assert json.loads(out)["output"] == "--- redacted credential at line 1 ---\n"


def test_keep_shape_needs_a_field():
    code, _, err = run_filter("redact", ["--jsonl", "--keep-shape"], "{}\n")
    assert code == 2 and "--keep-shape needs --jsonl and --field" in err


def test_a_quote_of_the_packs_placeholder_is_verified_against_the_file():
    """A reviewer quotes the pack's line; the evidence check reads the file redacted the same
    way (and a placeholder stands for any text), so the hardcoded-key finding verifies."""
    from council_filters.consolidate import evidence

    source = f'import os\nAWS_KEY = "{AWS}"\npassword = "{PASSWORD}"\n'.encode()
    redacted, changed = redact_shape(source)
    assert changed == [2] and AWS.encode() not in redacted
    ft = evidence.FileText(redacted.decode().split("\n"), None, frozenset(changed))
    quote = 'AWS_KEY = "\u2039redacted:aws-access-key-id\u203a"'
    assert evidence.check(evidence.Claim("c.py", 2, quote), ft).status == evidence.VERIFIED
    # A secret only the extended rules know is in the file as written: still found.
    quote = 'password = "\u2039redacted:secret-assignment\u203a"'
    assert evidence.check(evidence.Claim("c.py", 3, quote), ft).status == evidence.VERIFIED
    assert evidence.check(evidence.Claim("c.py", 2, 'AWS_KEY = "nope"'), ft).status != (
        evidence.VERIFIED)


@pytest.mark.slow
def test_the_file_reviewer_slot_is_ok_for_a_hundred_fresh_tokens(tmp_path, monkeypatch):
    """council-pack's file form (a fresh token each run), the pack redaction the council
    runs (extended rules, shape kept), then council-dispatch of a reviewer reading the pack
    from its file and echoing the token line: every run is OK, none an ingest ERROR."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    monkeypatch.delenv("COUNCIL_COMMANDS", raising=False)
    monkeypatch.chdir(tmp_path)
    context = f'### Diff\n```diff\n@@ -0,0 +1 @@\n  1 |+KEY = "{AWS}"\n```'
    pack = core.envelope("Gemini", "review", context, numbered=True)
    cmd = "gemini=grep '^INGEST_TOKEN: ' {pack_file}; echo Verdict: APPROVE"
    statuses = []
    for _ in range(100):
        token = pysecrets.token_hex(8)
        rec = {"kind": "reviewer", "run": "t", "reviewer": "gemini",
               "pack": core.file_form(pack, token), "ingest_token": token}
        code, red, err = run_filter(
            "redact", ["--jsonl", "--field", "pack", "--keep-shape", "--rules", "extended"],
            json.dumps(rec) + "\n")
        assert code == 0, err
        code, out, err = run_filter("dispatch", ["-c", cmd], red)
        assert code == 0, err
        (got,) = [json.loads(x) for x in out.splitlines() if x.strip()]
        statuses.append((got["status"], got.get("error_kind")))
    assert statuses == [("OK", None)] * 100
