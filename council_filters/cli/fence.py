"""council-fence: wrap reviewer output in the injection-fence sandwich."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import typer

from council_filters import fence
from council_filters.cli import _shell as kit
from council_filters.fence.records import FenceOptions, fence_record

HELP = """Wrap reviewer output in the five-part injection fence (the upstream agents' sed + printf).

Text mode reads the body on stdin (or the concatenated FILEs) and writes one sandwich: advisory,
begin delimiter, escaped body (always newline-terminated), end delimiter, re-anchor. Literal
delimiters inside the body are escaped first (--escape). With --jsonl every reviewer record's
output field is fenced into "fenced" (label from "reviewer"); all other fields and records pass
through. Streams: holds one line (text) or one record (--jsonl)."""

EPILOG = (
    "\b\nEscape variants:\n"
    "  hardened  every delimiter of every label anywhere, any case, 2+ dashes; every\n"
    "            sentinel line; matched on a view with look-alikes folded (NFKC,\n"
    "            zero-width and format characters removed, dash-likes, &#45; references,\n"
    "            CR/VT/FF/U+2028 as line ends); the text keeps its own bytes (default)\n"
    "  agent     own label only, every occurrence in a line (the agents' sed; --upstream)\n"
    "  report    line-start, every label, code fences, findings_block_* sentinels\n\n"
    "\b\nExamples:\n"
    "  gemini-cli < pack.txt | council-redact | council-fence --label gemini\n"
    "  council-fence --label codex --upstream < review.txt\n"
    "  council-dispatch < packs.jsonl | council-redact --jsonl | council-fence --jsonl\n\n"
    + kit.exit_code_table()
)

app = kit.make_app(HELP, EPILOG)


@app.command(help=HELP, epilog=EPILOG)
def command(
    files: list[str] = typer.Argument(None, metavar="FILE", help="Inputs (default: stdin)."),
    label: str = typer.Option(
        None, "--label", "-l", metavar="NAME",
        help="Fence label: claude, gemini, opencode, codex (codex-output fence) or your own "
        "reviewer name. Required in text mode; with --jsonl the default is each record's "
        "'reviewer'.",
    ),
    escape: str = typer.Option(
        None, "--escape", "-e", metavar="VARIANT",
        help="Delimiter escape: hardened, agent or report (default: hardened; agent with "
        "--upstream).",
    ),
    hardened: bool = typer.Option(
        False, "--hardened", help="Shorthand for --escape hardened (the default). Default: off."
    ),
    upstream: bool = typer.Option(
        False, "--upstream",
        help="Upstream-exact: the agents' own-label escape (--escape agent) unless --escape "
        "says otherwise. Default: off.",
    ),
    cli_advisory: bool = typer.Option(
        False, "--cli-advisory",
        help="Use the external-CLI advisory line for every label, claude too (the consumption "
        "fence's shape). Default: claude gets its own advisory.",
    ),
    bare: bool = typer.Option(
        False, "--bare",
        help="Only the begin/end pair, no advisory or re-anchor lines. Default: off.",
    ),
    jsonl: bool = typer.Option(
        False, "--jsonl", help="Read and write JSON Lines records. Default: off (text)."
    ),
    field: str = typer.Option(
        "output", "--field", "-f", metavar="NAME",
        help="--jsonl: the field to fence (default: output).",
    ),
    keep_going: bool = kit.keep_going_option("--jsonl: "),
    version: bool = kit.version_option(),
) -> int:
    s = kit.streams()
    variant = _variant(escape, hardened, upstream)
    if label is not None and not fence.valid_label(label):
        raise kit.UsageError("--label must be letters, digits, '.', '_' or '-' (at most 64)")
    options = FenceOptions(variant, cli_advisory, bare)
    if jsonl:
        _run_jsonl(s, files or [], label, field, keep_going, options)
        return kit.EXIT_OK
    if label is None:
        raise kit.UsageError("text mode needs --label (claude, gemini, opencode, codex, ...)")
    for chunk in fence.fence_stream(_lines(files or [], s.stdin), label, **options.kwargs()):
        s.stdout.write(chunk)
    return kit.EXIT_OK


def _lines(files: list[str], stdin: Any) -> Iterator[bytes]:
    """Whole lines of the concatenated inputs (as ``cat`` joins them)."""
    carry = b""
    for _source, fh in kit.open_inputs(files, stdin):
        for line in kit.iter_lines(fh):
            if carry:
                line, carry = carry + line, b""
            if line.endswith(b"\n"):
                yield line
            else:
                carry = line
    if carry:
        yield carry


def _variant(escape: str | None, hardened: bool, upstream: bool) -> str:
    if escape is None:
        escape = "agent" if upstream and not hardened else "hardened"
    if escape not in fence.ESCAPES:
        raise kit.UsageError(f"--escape must be one of: {', '.join(fence.ESCAPES)}")
    if hardened:
        if escape != "hardened":
            raise kit.UsageError("--hardened conflicts with --escape " + escape)
        return "hardened"
    return escape


def _run_jsonl(
    s: kit.Streams,
    files: list[str],
    label: str | None,
    field: str,
    keep_going: bool,
    options: FenceOptions,
) -> None:
    writer = kit.RecordWriter(s.stdout)
    kit.map_records(
        lambda _source, _lineno, rec: [fence_record(rec, label, field, options)],
        kit.iter_jsonl(files, s.stdin, keep_going=keep_going),
        writer.write,
        keep_going=keep_going,
    )


main = kit.main_for(app, "council-fence")


def entry() -> None:
    kit.entry(main)


if __name__ == "__main__":
    entry()
