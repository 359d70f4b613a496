"""The README's pipeline ("The pipe") is safe to copy: it is the chain `council review` runs,
stage for stage, the pack redaction stage included."""

from __future__ import annotations

import re
import shlex

from council_filters.council import chain

from conftest import ROOT


def first_pipeline() -> list[list[str]]:
    text = (ROOT / "README.md").read_text()
    section = text.split("\n## The pipe\n")[1].split("\n## ")[0]
    block = re.search(r"```sh\n(.*?)```", section, re.S)
    assert block is not None
    joined = block.group(1).replace("\\\n", " ")
    return [shlex.split(stage) for stage in joined.split("|")]


def test_the_first_pipeline_is_the_chain_council_runs() -> None:
    plan = chain.Plan(pack_args=("review", "--base", "origin/main"), reviewers=("claude",),
                      commands_file="cmds", root=".", extended_rules=True)
    readme = first_pipeline()
    stages = plan.stages()
    assert [words[0] for words in readme] == [f"council-{name}" for name, _ in stages] + [
        "council-consolidate"]
    # The redaction stages carry the options the chain gives them, in the same order.
    for words, (name, argv) in zip(readme, stages, strict=False):
        if name == "redact":
            module = argv.index("council_filters.cli.redact")
            assert words[1:] == argv[module + 1:], (words, argv)
    assert readme[1][:4] == ["council-redact", "--jsonl", "--field", "pack"]
