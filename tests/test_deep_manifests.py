"""A change's manifest nested thousands of levels deep is a broken manifest, not a crash:
council-context and council-scan read it as empty with a note and finish."""

from __future__ import annotations

import json

import pytest

from conftest import make_repo, run_filter


def _deep(n: int, key: str) -> str:
    return f'{{"name": "p", "{key}": ' + '{"a": ' * n + "1" + "}" * n + "}"


SHAPES = {
    "package.json 5000": ("package.json", _deep(5000, "dependencies")),
    "package.json 900": ("package.json", _deep(900, "scripts")),
    "package.json arrays": ("package.json", '{"workspaces": ' + "[" * 5000 + "]" * 5000 + "}"),
    "composer.json": ("composer.json", _deep(3000, "require")),
    "pyproject arrays": ("pyproject.toml", "[project]\nname = 'p'\ndependencies = "
                         + "[" * 3000 + "]" * 3000 + "\n"),
}


@pytest.mark.parametrize("shape", SHAPES)
def test_context_and_scan_survive_a_deep_manifest(tmp_path, shape):
    name, text = SHAPES[shape]
    repo = make_repo(tmp_path / "r", {"README": "x\n"}, {name: text, "a.py": "x = 1\n"})
    ctx = run_filter("context", ["--repo", str(repo), "--base", "main", "--task", "t"])
    assert ctx.code in (0, 3), ctx.err
    assert "Traceback" not in ctx.err and "internal error" not in ctx.err
    doc = json.loads(ctx.out)
    assert doc["kind"] == "context"
    assert any("nested too deeply" in n or "not valid" in n for n in doc.get("notes", [])) \
        or "nested too deeply" in ctx.err or "not valid" in ctx.err, (doc.get("notes"), ctx.err)
    for args in ([], ["--audit"]):
        scan = run_filter("scan", ["--repo", str(repo), "--base", "main", *args])
        assert scan.code == 0, scan.err
        assert scan.records()[-1]["kind"] == "scan"
