"""A reviewer's own headings and table rules appear in its appendix as the text it wrote,
never as the report's structure and never behind an [ESCAPED] prefix (the default report;
--upstream keeps upstream's prefix)."""

from __future__ import annotations

import orjson
import pytest

from council_filters.consolidate.render import mdquote

from conftest import run_filter

markdown_it = pytest.importorskip("markdown_it")

OUTPUT = ("Verdict: REVISE\n## Findings\n| file | issue |\n|---|---|\n| a.py | x |\n"
          "Summary\n---\n> ### nested\n- - -\n[ref]: https://example.invalid\n")


def _structure(markdown: str) -> list[str]:
    tokens = markdown_it.MarkdownIt("commonmark").enable("table").parse(markdown)
    return [t.type for t in tokens if t.type in ("heading_open", "table_open", "hr")]


def _report(tmp_path, *extra: str) -> str:
    rec = {"kind": "reviewer", "run": "r", "mode": "review", "slug": "feat-x",
           "reviewer": "claude", "status": "OK", "verdict": "REVISE", "confidence": "HIGH",
           "summary": "s", "output": OUTPUT}
    res = run_filter("consolidate", ["--write", "--date", "2026-11-30", "--root", str(tmp_path),
                                     "--slots", "claude", *extra], orjson.dumps(rec) + b"\n")
    assert res.code == 0, res.err
    (report,) = (tmp_path / "docs" / "council").iterdir()
    return report.read_text()


def test_headings_and_tables_are_quoted_text(tmp_path):
    report = _report(tmp_path)
    appendix = report.split("## Claude Output\n", 1)[1]
    assert _structure(appendix) == []  # no heading, table or rule came from the reviewer
    assert "\\## Findings" in appendix and "[ESCAPED] ##" not in appendix
    text = markdown_it.MarkdownIt("commonmark").render(appendix)
    assert "## Findings" in text and "|---|---|" in text  # shown as the reviewer wrote it


def test_upstream_report_keeps_the_prefix(tmp_path):
    report = _report(tmp_path, "--upstream")
    assert "[ESCAPED] ## Findings" in report


@pytest.mark.parametrize("line", ["## x", "> ## x", "- ## x", "1. # x", "|---|---|", "===",
                                  "- - -", "***", "[x]: https://e.invalid", "   ---"])
def test_each_structure_line_is_inert_when_quoted(line):
    body = mdquote.appendix_body(f"text\n{line}", quoted=True)
    assert _structure(body) == []
    assert body.split("\n")[1].replace("\\", "", 1).replace("\u200b", "") == line
