"""Reviewer text is inert in both reports, as CommonMark/GFM renders them (markdown-it-py).

For hostile reviewer text (forged headings of every kind, lone CRs and other
line separators, HTML blocks and comments, code fences of any length, link
reference definitions, tables, forged ``<!-- code-review:... -->`` markers),
the rendered report has exactly the headings and the HTML nodes the same
report has for harmless text.
"""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import run_filter

markdown_it = pytest.importorskip("markdown_it")

FRAGMENTS = [
    "## Codex Output", "# Council Report", "### x", "###### deep", "Codex Output", "---", "===",
    "***", "___", "\r", "\n", "\r\n", "\v", "\f", "\x85", "\u2028", "\u2029", "\x1c",
    "<!--", "-->", "<pre>", "</pre>", "<script>", "<details>", "<summary>x</summary>",
    "<div>", "<!-- code-review:security:SEC-009 -->", "```", "````", "~~~", "```python",
    "[x]: https://example.invalid", "| a | b |", "|---|---|", "--- end council-output:codex ---",
    "#### SEC-001", "> quote", ">## x", "- ## x", "1. # x", "* ", "- - -",
    "    indented", "    ", "text", " ", "#", "<", ">", "`", "x",
]
# Always a visible word first: a blank subject is invalid input, not an attack.
HOSTILE = st.lists(st.sampled_from(FRAGMENTS), min_size=1, max_size=25).map(
    lambda parts: "finding " + "".join(parts))
BENIGN = "plain words"


def _render(markdown: str) -> list[tuple[str, str]]:
    """The structure that matters: every heading (level, text) and every HTML node."""
    md = markdown_it.MarkdownIt("commonmark").enable("table")
    tokens = md.parse(markdown)
    out: list[tuple[str, str]] = []
    for i, tok in enumerate(tokens):
        if tok.type == "heading_open":
            out.append((tok.tag, tokens[i + 1].content))
        elif tok.type == "html_block":
            out.append(("html", tok.content.strip()))
        elif tok.type == "inline":
            out += [("html", c.content) for c in tok.children or [] if c.type == "html_inline"]
    return out


def _council(tmp_path: Path, text: str) -> str:
    recs = [
        {"kind": "reviewer", "run": "r", "mode": "review", "slug": "feat-x", "reviewer": slot,
         "status": "OK", "verdict": verdict, "confidence": "HIGH", "summary": text,
         "output": f"Verdict: {verdict}\n{text}\n", "findings": [
             {"kind": "finding", "origin": slot, "file": "a.py", "line": 3, "summary": text}]}
        for slot, verdict in (("claude", "REVISE"), ("codex", "APPROVE"))
    ]
    root = tmp_path / ("root-" + str(abs(hash(text))))
    root.mkdir()
    res = run_filter("consolidate", ["--write", "--date", "2026-11-30", "--root", str(root)],
                     b"".join(orjson.dumps(r) + b"\n" for r in recs))
    assert res.code == 0, res.err
    (report,) = (root / "docs" / "council").iterdir()
    return report.read_text()


def _code_review(text: str) -> str:
    recs = [
        {"kind": "finding", "origin": "security", "severity": "critical", "file": "a.py",
         "line": 3, "subject": text, "discussion": text, "evidence": text},
        {"kind": "finding", "origin": "tests", "severity": "minor", "subject": text,
         "discussion": f"{text}\n<!-- code-review:security:SEC-009 -->"},
    ]
    res = run_filter("consolidate", ["--no-source"],
                     b"".join(orjson.dumps(r) + b"\n" for r in recs))
    assert res.code == 0, res.err
    return res.out.decode()


@settings(max_examples=150, deadline=None)
@given(text=HOSTILE)
def test_council_report_structure_survives_hostile_text(tmp_path_factory: pytest.TempPathFactory,
                                                        text: str) -> None:
    tmp = tmp_path_factory.mktemp("council")
    want = _render(_council(tmp, BENIGN))
    appendices = [h[1] for h in want if h[0] == "h2" and h[1].endswith(" Output")]
    assert appendices[:2] == ["Claude Output", "Codex Output"]
    assert len(set(appendices)) == len(appendices)
    assert _render(_council(tmp, text)) == want


@settings(max_examples=150, deadline=None)
@given(text=HOSTILE)
def test_code_review_report_structure_survives_hostile_text(text: str) -> None:
    want = _render(_code_review(BENIGN))
    got = _render(_code_review(text))
    assert got == want
    markers = [c for kind, c in got if kind == "html" and "code-review:" in c]
    assert len(markers) == 2  # the report's own markers, none forged


@pytest.mark.parametrize(
    "text",
    ["ok\r## Codex Output\r", "Codex Output\n---", "<!-- hide", "<pre>", "<script>x",
     "<details><summary>s</summary>", "```\r## Codex Output\r```", "x\r#### SEC-001\rmore",
     "<!-- code-review:security:SEC-009 -->", "[ref]: https://example.invalid\n[ref]"],
)
def test_the_probed_attacks(tmp_path: Path, text: str) -> None:
    assert _render(_council(tmp_path, text)) == _render(_council(tmp_path, BENIGN))
    assert _render(_code_review(text)) == _render(_code_review(BENIGN))
