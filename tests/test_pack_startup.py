"""Start-up of the pack path: what it imports, and the option values it takes without typer's
pydantic models (``council_filters/cli/_coerce.py``).

A pack of a large change is built in about a second, and a quarter of that was
typer building a pydantic model per option.  The pack path imports neither
pydantic nor the other heavy parts it never uses (the schema validator, the
Markdown reader, the redaction engine), and a value taken without typer's
coercion is the value typer's coercion gives (or the same error).
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from council_filters.cli import _coerce
from council_filters.cli import pack as pack_cli

from conftest import make_repo

ROOT = Path(__file__).resolve().parent.parent
# Never needed to build a pack: typer's models, the schema validator, the Markdown reader,
# the regex engine and the redaction engine with its rules (another filter redacts the pack).
NOT_ON_THE_PACK_PATH = ("pydantic", "pydantic_core", "jsonschema", "markdown_it", "regex",
                        "council_filters.redaction")

PROBE = """
import io, json, sys
from council_filters.cli import pack
out = io.BytesIO()
code = pack.main(["review", "--base", "main", "--run-id", "r1", "--max-diff-lines", "5"],
                 stdout=out)
heavy = sorted(m for m in sys.modules
               if any(m == h or m.startswith(h + ".") for h in json.loads(sys.argv[1])))
print(json.dumps({"code": code, "records": out.getvalue().count(b"\\n"), "heavy": heavy}))
"""


def test_a_review_pack_imports_nothing_heavy_it_does_not_use(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo", {"a.py": "x = 1\n"}, {"a.py": "x = 2\ny = 3\n"})
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    res = subprocess.run([sys.executable, "-P", "-c", PROBE, json.dumps(NOT_ON_THE_PACK_PATH)],
                         cwd=repo, env=env, capture_output=True, text=True, check=True)
    got = json.loads(res.stdout)
    assert got["code"] == 0 and got["records"] == 4  # one pack per default reviewer
    assert got["heavy"] == []


def _command() -> Any:
    import typer.main

    command = typer.main.get_command(pack_cli.app)
    _coerce.install(command)
    return command


def _values(rnd: random.Random) -> list[Any]:
    pieces = ["0", "1", "7", "00", "007", "-", "+", " ", "_", "x", "9" * 19, "٣", "1e3", "0x1"]
    return [None, True, False, 0, 5, -1, 60000, 10**20, "", "HEAD", "main", "a,b"] + [
        "".join(rnd.choice(pieces) for _ in range(rnd.randint(1, 4))) for _ in range(300)]


@pytest.mark.skipif(_coerce._LAYER is None, reason="this typer has no pydantic coercion")
def test_a_plain_value_is_what_typers_own_coercion_gives() -> None:
    from typer._click import Context

    command = _command()
    rnd = random.Random(23)
    checked = 0
    for sub in (command.commands["review"], command.commands["plan"],
                command.commands["truncate-diff"]):
        ctx = Context(sub)
        for param in sub.params:
            ours = param.get_runtime_param()
            if not isinstance(ours, _coerce._Plain):
                continue
            theirs = _coerce._LAYER.build_runtime_param(param.type_descriptor)
            values = _values(rnd)
            if param.type_descriptor.annotation == list[str]:
                values = [tuple(v for v in values[i:i + 3] if isinstance(v, str))
                          for i in range(0, 60, 3)] + [["a", "b"], (), ("a", 1)]
            for value in values:
                assert _outcome(ours, value, param, ctx) == _outcome(theirs, value, param, ctx), (
                    param.name, value)
                checked += 1
    assert checked > 1000


def _outcome(runtime: Any, value: Any, param: Any, ctx: Any) -> tuple[str, Any]:
    try:
        got = runtime._coerce_value(value, param=param, ctx=ctx)
    except Exception as exc:  # noqa: BLE001 - the error itself is compared
        return "error", (type(exc).__name__, str(exc))
    return "value", (type(got).__name__, got)
