"""council's shared options are declared once: every mode lists them in the same place and
hands its command one Options object built from exactly what was typed."""

from __future__ import annotations

import dataclasses
import inspect

import pytest

from council_filters.cli import _council_options as shared
from council_filters.cli import council as council_cli
from council_filters.council.prepare import Options

MODES = {
    "review": council_cli.review_cmd,
    "question": council_cli.question_cmd,
    "debug": council_cli.debug_cmd,
    "plan": council_cli.plan_cmd,
}
GROUPS = (shared.GATES, shared.OUTPUTS, shared.REPORT, shared.EXTRAS)


def names(group: shared.Group) -> list[str]:
    return [name for name, _type, _option in group.members]


def test_every_option_field_is_in_one_group() -> None:
    grouped = [n for g in GROUPS for n in names(g)]
    assert sorted(grouped) == sorted(f.name for f in dataclasses.fields(Options))
    assert len(grouped) == len(set(grouped))


@pytest.mark.parametrize("mode", sorted(MODES))
def test_each_mode_lists_the_shared_options_in_one_run(mode: str) -> None:
    params = list(inspect.signature(MODES[mode]).parameters)
    assert "opts" not in params
    for group in (shared.GATES, shared.REPORT, shared.EXTRAS):
        run = names(group)
        start = params.index(run[0])
        assert params[start:start + len(run)] == run, (mode, run)
    assert ("sarif" in params) == (mode == "review")


def test_the_command_gets_the_typed_values_as_one_options_object() -> None:
    seen: list[Options] = []

    @shared.with_options
    def probe(word: str = "", _g: shared.Group = shared.GATES,
              _r: shared.Group = shared.REPORT, _e: shared.Group = shared.EXTRAS,
              *, opts: Options) -> int:
        seen.append(opts)
        return len(word)

    values = {n: f"v-{n}" for g in (shared.GATES, shared.REPORT, shared.EXTRAS)
              for n in names(g)}
    assert probe(word="abc", **values) == 3
    (opts,) = seen
    for name, value in values.items():
        assert getattr(opts, name) == value
    assert opts.sarif is None and opts.rdjsonl is None and opts.codequality is None
