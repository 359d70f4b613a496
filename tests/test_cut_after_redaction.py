"""No cut hands half a credential to the reviewers: the pack's diff and excerpts are cut on
line boundaries (the upstream pack's byte cut stays only under --upstream), so the redaction
that follows sees every credential line whole."""

from __future__ import annotations

import re

import orjson
import pytest

from council_filters.pack import core

from conftest import make_repo, run_filter

pytest.importorskip("council_filters.redaction.secrets")

PASSWORD = "Pw" + "q7Z" * 1000  # a URL password long enough for any cut to land inside
# One long line of URL credentials: wherever a byte cut lands in it, it is likely to land
# between a password's ":" and its "@".
URLS = ", ".join(f"'postgres://admin:Sx{i:03d}Hq{i:03d}Zk@db{i}.internal/app'" for i in range(120))


def test_cap_body_never_cuts_inside_a_line():
    diff = b"+" + b"a" * 50 + b"\n+postgres://u:" + PASSWORD.encode() + b"@h/db\n"
    upstream = core.cap_body(diff, 200, 10)
    assert upstream.endswith(b"\n") and b"postgres://u:Pw" in upstream  # the byte cut
    whole = core.cap_body(diff, 200, 10, whole_lines=True)
    assert whole == b"+" + b"a" * 50 + b"\n"


def _pack_text(tmp_path, name: str, long_line: str) -> str:
    lines = "".join(f"value_{i:05d} = '{'x' * 370}'\n" for i in range(150))
    repo = make_repo(tmp_path / name, {"a.py": "x = 1\n"},
                     {"a.py": "x = 1\n" + lines + long_line + "\ny = 2\n"})
    pack = run_filter("pack", ["review", "--repo", str(repo), "--base", "main",
                               "--reviewers", "claude", *UPSTREAM])
    assert pack.code == 0, pack.err
    red = run_filter("redact", ["--jsonl", "--field", "pack", "--rules", "extended"], pack.out)
    assert red.code == 0, red.err
    return "".join(orjson.loads(line)["pack"] for line in red.out.splitlines())


UPSTREAM: tuple[str, ...] = ()


@pytest.mark.parametrize("into", [20, 24, 29, 33])
def test_a_long_diff_never_shows_a_cut_credential(tmp_path, into):
    # Where does the diff cut fall in a long line?  A probe with no credential says ...
    probe = _pack_text(tmp_path, "probe", "LONG = '" + "z" * 6000 + "'")
    shown = re.search(r"LONG = '(z*)", probe)
    cut_at = len("LONG = '") + len(shown.group(1)) if shown else 0
    # ... then a credential is placed so that a byte cut would land `into` bytes inside it.
    url = "postgres://admin:Sup3rS3cretPw99x@db.internal/app"
    start = max(0, cut_at - len("LONG = '") - into)
    text = _pack_text(tmp_path, "real", "LONG = '" + "z" * start + url + "z" * 6000 + "'")
    assert "admin:Sup" not in text and "S3cretPw" not in text and "Sup3r" not in text
