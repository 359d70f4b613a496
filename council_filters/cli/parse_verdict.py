"""council-parse-verdict: reviewer answers -> verdict records (and the JSON-reviewer check)."""

from __future__ import annotations

import os

import orjson
import typer

from council_filters import verdict
from council_filters.base import diffranges, vocab
from council_filters.cli import _shell as kit
from council_filters.verdict import fenced_file, reviewer_json
from council_filters.verdict.records import ParseOptions, layer1_of, parse_record

HELP = """Parse a reviewer's answer into a verdict record, like the upstream agents' grep/awk/head
pipeline (Layer 1) and the orchestrator's parse_reviewer_return (Layer 2), but reading what models
actually write: keys in any case, bold or as headings, tables, fences, preambles, CRLF, numbered
and nested findings, severity words and locations in many spellings, JSON answers. --upstream
reads exactly as upstream does.

Text mode reads one redacted answer (stdin or the concatenated FILEs) and writes one verdict
record. --layer2 prints the agent's 6-key return instead; --from-layer2 parses one. --jsonl adds
the verdict fields to every reviewer record. --schema STAGE checks a JSON reviewer's reply against
a pr-workflow stage schema and prints the verify_output result. Buffers one answer (text modes)
or one record (--jsonl). The subcommand `ranges --diff FILE` prints anchorable line ranges."""

EPILOG = (
    "\b\nExamples:\n"
    "  agy -p \"$PROMPT\" | council-redact | council-parse-verdict --reviewer gemini\n"
    "  council-redact < out.txt | council-parse-verdict --layer2 --reviewer opencode\n"
    "  council-dispatch < packs.jsonl | council-redact --jsonl | council-parse-verdict --jsonl\n"
    "  council-parse-verdict --from-layer2 --reviewer claude --minted-path \"$FENCED\" < ret.txt\n"
    "  council-parse-verdict --schema council --diff pr.diff < reply.md\n"
    "  git diff origin/main | council-parse-verdict ranges --diff -\n\n"
    + kit.exit_code_table()
)

RANGES_HELP = """Print the anchorable line ranges of a unified diff, one file per line:
`path: new 12-34, 50-78 | old 12-34` (right-side lines a `line` finding may anchor to with
side "new", left-side lines for side "old"; a side without lines is left out)."""

RANGES_EPILOG = (
    "\b\nExamples:\n"
    "  git diff origin/main...HEAD | council-parse-verdict ranges --diff -\n\n"
    + kit.exit_code_table()
)

app = kit.make_app(HELP, EPILOG)
ranges_app = kit.make_app(RANGES_HELP, RANGES_EPILOG)

# Dispatched by main() before typer sees the arguments; listed for the docs.
EXTRA_SUBCOMMANDS = ("ranges",)

VERSION_OPTION = kit.version_option()


@app.command(help=HELP, epilog=EPILOG)
def command(
    files: list[str] = typer.Argument(None, metavar="FILE", help="Inputs (default: stdin)."),
    reviewer: str = typer.Option(
        None, "--reviewer", "-r", metavar="NAME",
        help="Reviewer name: the record's 'reviewer' and every finding's 'origin' "
        "(--jsonl: overrides the record's own). Default: none (origin 'reviewer'; with "
        "--jsonl each record's own).",
    ),
    upstream: bool = typer.Option(
        False, "--upstream",
        help="Read exactly as upstream: the first line starting 'Verdict: ' (case-sensitive), "
        "'- [Pn] file:line — text' findings, byte cuts, any enum verdict; Layer 2 as "
        "parse_reviewer_return. Default: off (tolerant reading, hardened rules; every "
        "departure is listed in docs/parse-verdict.md).",
    ),
    hardened: bool = typer.Option(
        False, "--hardened",
        help="With --upstream: cut at UTF-8 boundaries and accept only APPROVE/REVISE/REJECT "
        "from model text; with --from-layer2 read keys before the block only, one block, caps "
        "re-applied. Always on without --upstream. Default: off.",
    ),
    layer2: bool = typer.Option(
        False, "--layer2", help="Print the 6-key return, not a record. Default: off."
    ),
    fenced_path: str = typer.Option(
        "", "--fenced-path", metavar="PATH",
        help="--layer2: the fenced_output_path= value (default: empty).",
    ),
    from_layer2: bool = typer.Option(
        False, "--from-layer2",
        help="The input is a 6-key return (parse_reviewer_return). Default: off.",
    ),
    jsonl: bool = typer.Option(
        False, "--jsonl", help="Read and write reviewer records. Default: off (text)."
    ),
    minted_path: str = typer.Option(
        None, "--minted-path", metavar="PATH",
        help="--from-layer2 --reviewer claude: the path this run minted for claude's fenced "
        "file; runs the claude integrity checks (the file is redacted in place, mode 0600). "
        "Default: none (a claude return is parsed like any other).",
    ),
    field: str = typer.Option(
        "output", "--field", "-f", metavar="NAME",
        help="--jsonl: the field holding the answer (default: output).",
    ),
    emit_findings: bool = typer.Option(
        False, "--emit-findings",
        help="--jsonl: also write each structured finding as a 'finding' record. Default: off.",
    ),
    keep_going: bool = kit.keep_going_option("--jsonl: "),
    root: str = typer.Option(
        None, "--root", metavar="DIR",
        help="The reviewed repository: a finding's absolute path under DIR is written "
        "relative to it. Default: the current directory.",
    ),
    schema: str = typer.Option(
        None, "--schema", metavar="STAGE",
        help="Check a JSON reviewer reply: council, judge, critique, stack-review, stack-judge. "
        "Exit 1 when it does not validate. Default: none (parse a text answer).",
    ),
    findings_out: bool = typer.Option(
        False, "--findings",
        help="--schema: on success print the normalised finding (critique) records instead. "
        "Default: off (print the verify_output result).",
    ),
    diff: str = typer.Option(
        None, "--diff", metavar="FILE",
        help="--schema: warn about line findings outside this diff's anchorable ranges "
        "(default: none, no check).",
    ),
    version: bool = VERSION_OPTION,
) -> int:
    s = kit.streams()
    if reviewer is not None and vocab.has_control(reviewer):
        raise kit.UsageError("--reviewer: a name must not hold control characters")
    hardened = hardened or not upstream
    tolerant = not upstream
    _check_modes(layer2, from_layer2, jsonl, schema, findings_out, diff, emit_findings)
    _check_minted(minted_path, from_layer2, jsonl, reviewer)
    paths = files or []
    root = root if root is not None else os.getcwd()
    if schema is not None:
        return _run_schema(s, paths, schema, reviewer, findings_out, diff)
    if jsonl:
        _run_jsonl(s, paths, reviewer, field, (hardened, tolerant), from_layer2, emit_findings,
                   keep_going, root)
        return kit.EXIT_OK
    data = kit.read_all(paths, s.stdin)
    origin = reviewer or "reviewer"
    prefix = f"{reviewer}: " if reviewer else ""
    if from_layer2:
        l2 = verdict.extract_layer2(data, hardened=hardened)
        if minted_path is not None:
            l2 = verdict.claude_integrity(
                l2, _path_bytes(minted_path), regular=fenced_file.regular,
                sanitize=fenced_file.sanitize, hardened=hardened)
        l2 = verdict.coerce_layer2(l2)
        _warn_all(s, prefix, l2.warnings)
        rec = {"kind": "verdict", "reviewer": reviewer, **verdict.verdict_fields(
            l2.verdict, l2.confidence, l2.summary, l2.findings, l2.warnings, origin),
            "fenced_output_path": verdict.text(l2.fenced_path)}
        s.stdout.write(kit.dumps(rec))
        return kit.EXIT_OK
    l1, structured = layer1_of(data, origin, hardened, tolerant, root)
    _warn_all(s, prefix, l1.warnings)
    if layer2:
        s.stdout.write(verdict.layer2_return(l1, _path_bytes(fenced_path)))
        return kit.EXIT_OK
    rec = {"kind": "verdict", "reviewer": reviewer, **verdict.verdict_fields(
        l1.verdict, l1.confidence, l1.summary, l1.findings, l1.warnings, origin, structured)}
    s.stdout.write(kit.dumps(rec))
    return kit.EXIT_OK


def _path_bytes(path: str) -> bytes:
    return path.encode("utf-8", "surrogateescape")


def _check_modes(
    layer2: bool, from_layer2: bool, jsonl: bool, schema: str | None,
    findings_out: bool, diff: str | None, emit_findings: bool,
) -> None:
    if schema is not None and schema not in reviewer_json.STAGES:
        raise kit.UsageError(f"--schema must be one of: {', '.join(reviewer_json.STAGES)}")
    if schema is not None and (layer2 or from_layer2 or jsonl):
        raise kit.UsageError("--schema cannot be combined with --layer2, --from-layer2 or --jsonl")
    if (findings_out or diff is not None) and schema is None:
        raise kit.UsageError("--findings and --diff need --schema (or use: ranges --diff FILE)")
    if layer2 and (from_layer2 or jsonl):
        raise kit.UsageError("--layer2 prints one text return: not with --from-layer2 or --jsonl")
    if emit_findings and not jsonl:
        raise kit.UsageError("--emit-findings needs --jsonl")


def _check_minted(
    minted_path: str | None, from_layer2: bool, jsonl: bool, reviewer: str | None,
) -> None:
    if minted_path is None:
        return
    if not from_layer2 or jsonl or reviewer != "claude":
        raise kit.UsageError("--minted-path needs --from-layer2 --reviewer claude (not --jsonl)")
    if not minted_path:
        raise kit.UsageError("--minted-path must not be empty")


def _warn_all(s: kit.Streams, prefix: str, warnings: list[str]) -> None:
    for w in warnings:
        s.warn(prefix + w)


# --------------------------------------------------------------------------- #
# --jsonl
# --------------------------------------------------------------------------- #
def _run_jsonl(
    s: kit.Streams, paths: list[str], reviewer: str | None, field: str,
    rules: tuple[bool, bool], from_layer2: bool, emit_findings: bool, keep_going: bool,
    root: str | None = None,
) -> None:
    writer = kit.RecordWriter(s.stdout)
    options = ParseOptions(reviewer, field, rules[0], from_layer2, tolerant=rules[1], root=root)

    def one(source: str, lineno: int, rec: kit.Record) -> list[kit.Record]:
        out, warnings = parse_record(rec, options)
        name = out.get("reviewer") if isinstance(out.get("reviewer"), str) else "reviewer"
        _warn_all(s, f"{source}:{lineno}: {name}: ", warnings)
        if emit_findings and out.get("kind") == "reviewer":
            return [out, *out["findings"]]
        return [out]

    kit.map_records(one, kit.iter_jsonl(paths, s.stdin, keep_going=keep_going), writer.write,
                    keep_going=keep_going)


# --------------------------------------------------------------------------- #
# --schema
# --------------------------------------------------------------------------- #
def _run_schema(
    s: kit.Streams, paths: list[str], stage: str, reviewer: str | None,
    findings_out: bool, diff_path: str | None,
) -> int:
    ranges = _read_diff(diff_path, s) if diff_path is not None else None
    raw = kit.read_all(paths, s.stdin)
    source = kit.source_name(paths[0]) if len(paths) == 1 else kit.STDIN_NAME
    try:
        value = reviewer_json.extract(raw.decode("utf-8", "replace"))
    except reviewer_json.ExtractError as err:
        result = reviewer_json.reply_error(str(err))
    else:
        result = reviewer_json.verify(stage, value)
    if not result["ok"]:
        s.stdout.write(orjson.dumps(result) + b"\n")
        n = len(result["errors"])
        raise kit.DataError(
            f"reply does not match the {stage} schema ({n} error{'s' if n != 1 else ''})",
            source=source)
    norm = reviewer_json.normalise(stage, value, reviewer or "reviewer", ranges)
    _warn_all(s, f"{reviewer}: " if reviewer else "", norm.warnings)
    if findings_out:
        kit.RecordWriter(s.stdout).write_all(norm.records)
    else:
        s.stdout.write(orjson.dumps(result) + b"\n")
    return kit.EXIT_OK


def _read_diff(path: str, s: kit.Streams) -> list[diffranges.FileRanges]:
    return diffranges.parse(kit.read_all([path], s.stdin))


# --------------------------------------------------------------------------- #
# ranges
# --------------------------------------------------------------------------- #
@ranges_app.command(help=RANGES_HELP, epilog=RANGES_EPILOG)
def ranges_command(
    diff: str = typer.Option(..., "--diff", metavar="FILE", help="The unified diff ('-': stdin)."),
    version: bool = VERSION_OPTION,
) -> int:
    s = kit.streams()
    s.stdout.write(diffranges.format_ranges(_read_diff(diff, s)))
    return kit.EXIT_OK


main = kit.main_for(app, "council-parse-verdict", {"ranges": ranges_app})


def entry() -> None:
    kit.entry(main)


if __name__ == "__main__":
    entry()

