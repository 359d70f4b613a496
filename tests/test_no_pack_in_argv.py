"""No shipped or documented reviewer command puts the pack on a command line, where any
local user reads it (/proc/PID/cmdline): the pack goes through stdin or a private file."""

from __future__ import annotations

import re

from council_filters.dispatch import config

from conftest import ROOT

# An expansion that would turn the pack's bytes into an argument: $(...), `...`, xargs, or
# the {pack_file} placeholder anywhere but after an input redirection.
_ARGV_PACK = re.compile(r"\$\(|`|\bxargs\b|(?<!<)\s*\{pack_file\}")


def _command_lines() -> list[tuple[str, str]]:
    out = []
    example = ROOT / "council_filters" / "data" / "commands.example"
    sources = [example, ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    for path in sources:
        for line in path.read_text().splitlines():
            m = re.match(r"\s*#?\s*([a-z][a-z0-9_-]*)\s*=\s*(.+)", line)
            if m and not m.group(1).endswith("adapter") and (
                    path == example or re.search(r"\b(claude|codex|agy|gemini|opencode)\b",
                                                 m.group(2))):
                out.append((f"{path.relative_to(ROOT)}", m.group(2)))
    return out


def _uses_pack_in_argv(shell: str) -> bool:
    cleaned = re.sub(r"<\s*\{pack_file\}", "", shell)
    return bool(_ARGV_PACK.search(cleaned))


def test_the_rule_catches_the_shapes():
    for bad in ['opencode run "$(cat {pack_file})"', "x `cat {pack_file}`",
                "x {pack_file}", "xargs -0 x < {pack_file}", 'x "$(< {pack_file})"']:
        assert _uses_pack_in_argv(bad), bad
    for good in ["claude -p --output-format text", "x < {pack_file}",
                 'cd {pack_dir} && agy -p "Read the file pack.txt"']:
        assert not _uses_pack_in_argv(good), good


def test_no_example_passes_the_pack_through_argv():
    lines = _command_lines()
    assert any("opencode" in cmd for _, cmd in lines)
    bad = [(where, cmd) for where, cmd in lines if _uses_pack_in_argv(cmd)]
    assert bad == []


def test_the_example_parses_with_every_reviewer():
    text = (ROOT / "council_filters" / "data" / "commands.example").read_text()
    table = config.parse_config(text, "commands.example")
    assert {"claude", "codex", "gemini", "opencode"} <= set(table)
    assert not any(_uses_pack_in_argv(v) for v in table.values())
