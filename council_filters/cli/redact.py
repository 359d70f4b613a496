"""council-redact: credential redaction as a Unix filter (the eleven, or --rules).

The option parser (typer) is built only when options are given: the plain
``council-redact [FILE]...`` form, the one pipes use most, starts without it,
and without the shared kit too until something goes wrong (start-up is most
of the time on small inputs).  This module imports nothing at the top but
``os`` and ``sys``: on the compiled path (:mod:`council_filters.redaction.native`) the
plain form loads no other module of the package but the engine choice.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections import Counter
    from collections.abc import Sequence
    from typing import Any, BinaryIO, TextIO

    from council_filters.cli import _shell as kit
    from council_filters.redaction.records import BatchOptions
    from council_filters.redaction.secrets import RuleSet

#: The core's names, importable from here (loaded on first use, see __getattr__).
_CORE_NAMES = {
    "DEFAULT_FIELDS": "council_filters.redaction.records",
    "BatchOptions": "council_filters.redaction.records",
    "check_report": "council_filters.redaction.records",
    "load_rules": "council_filters.redaction.records",
    "make_redactor": "council_filters.redaction.records",
    "name_input": "council_filters.redaction.records",
    "redact_record": "council_filters.redaction.records",
    "run_batch": "council_filters.redaction.records",
    "PATTERN_NAMES": "council_filters.redaction.machine",
    "run_input": "council_filters.redaction.machine",
    "writer": "council_filters.redaction.machine",
}

PROG = "council-redact"
#: The variable click reads for shell completion (kit._completion_var(PROG)).
COMPLETE_VAR = "_COUNCIL_REDACT_COMPLETE"

HELP = """\
Redact credentials in text: like `awk -f redact.awk`, byte for byte.

Each input line yields exactly one output line: the line itself, or a placeholder
naming its line number N (counted from 1 across all inputs, as awk's NR is):

\b
  --- redacted credential at line N ---
  --- redacted PEM key block at line N ---

The eleven patterns (names as --check reports them; a credential is its prefix
followed by at least the given number of bytes of its character class):

\b
  openai-project    sk-proj-      20 of [A-Za-z0-9_-]
  anthropic         sk-ant-       20 of [A-Za-z0-9_-]
  openai            sk-           20 of [A-Za-z0-9]
  google-api        AIza          35 of [0-9A-Za-z_-]
  github-token      gh[pous]_     36 of [A-Za-z0-9]
  github-pat        github_pat_   40 of [A-Za-z0-9_]
  aws-access-key    AKIA          16 of [0-9A-Z]
  bearer            "Bearer "     20 of [A-Za-z0-9._~+/-]
  authorization     "Authorization: "  20 of [A-Za-z0-9 ._~+/-]
  opencode-session  ses_          16 of [A-Za-z0-9]
  pem-private-key   -----BEGIN ... PRIVATE KEY----- blocks, quoted, listed or
                    diffed, with the reference's rules for mentions and decoys

Bytes in, bytes out: any encoding, NUL bytes and CR pass through, a final line
without a newline gets one, empty input gives empty output. Several FILEs are
one stream, as for awk: line numbers and an open PEM block run on from one file
into the next; an unreadable FILE stops with exit 2 after the files before it
are written. Streams: memory is bounded by the longest line plus a 4 MiB read.

Speed: one scan over each buffer finds the lines that can change, and the
exact line machine runs only there and inside open PEM blocks. With the
compiled module (built at install when a C compiler is there) the scan is a
SIMD pass in C and the whole input goes from descriptor to descriptor in C;
--rules scans use Hyperscan when the 'fast' extra is installed, Python's re
otherwise. --version names the engines; COUNCIL_PREFILTER=native, hyperscan or
re forces one, COUNCIL_LINE_MACHINE=python the Python machine. Output is the
same bytes either way.

--rules widens the net (the default above stays byte-identical to the reference):

\b
  extended   the eleven, plus about thirty rules with ids (AWS secret and
             temporary keys, GitHub, GitLab, Slack, Stripe, OpenAI, Google,
             JWTs, npm, PyPI, SendGrid, Twilio, Azure, credentials in URLs,
             password/secret/token assignments, any-case bearer, Basic auth),
             and private-key blocks in every shape: markers in any case with
             any dashes, invisible characters ignored; body lines in tables,
             numbered, coloured, commented, quoted, listed, diffed, indented,
             JSON-escaped, rewrapped; a decoy END does not end the block.
             Documentation placeholders (AKIAXXXXXXXXXXXXXXXX) are not redacted.
  FILE       the rules of a gitleaks TOML configuration (RE2 regexes,
             secretGroup, keywords, entropy, allowlists; one line at a time)
  extended,FILE   both (any comma list; `default` means the eleven alone)

A line a rule redacts becomes `--- redacted credential at line N ---` (key
lines the PEM placeholder); --check names the rule ids that fired.

With --out-dir, each FILE is instead redacted on its own (lines from 1, fresh PEM
state; the output is byte for byte `council-redact [--rules SPEC] FILE`) into
DIR under the same relative path, by --jobs local processes or on a Dask
cluster (--scheduler). A directory FILE stands for the files under it; FILEs
and DIR may be fsspec URLs (file://, s3://, gs://, memory://...) and URL
globs. Outputs are written under a temporary name and renamed. The manifest
(JSON Lines, one record per input: input, output, status, bytes_in,
bytes_out, redacted lines per rule, sha256 of the output, rules, attempts,
error) lets a rerun skip files whose output is still the one recorded with
the same rules. A file that fails is retried, then named on stderr, and the
run exits 1. Progress (files, bytes, rate, ETA) shows when stderr is a terminal.
"""

EPILOG_EXAMPLES = """\
Examples:

\b
  codex exec "$PROMPT" 2>&1 | council-redact > review.txt
  council-dispatch < packs.jsonl | council-redact --jsonl | council-fence --jsonl
  git diff origin/main | council-redact --check || echo "the diff holds a credential"
  council-redact notes.md build.log | less
  council-redact --rules extended < reviewer.log > reviewer.txt
  council-redact --rules extended,.gitleaks.toml --check build.log
  council-redact --jobs 4 --out-dir clean/ logs/
  council-redact --scheduler local --out-dir file:///data/clean --base /data/raw /data/raw
  council-redact --scheduler tcp://10.0.0.5:8786 --out-dir s3://bucket/clean 's3://bucket/raw/**'

"""


def epilog() -> str:
    from council_filters.cli import _shell as kit

    return EPILOG_EXAMPLES + kit.exit_code_table()


# --------------------------------------------------------------------------- #
# The two modes.
# --------------------------------------------------------------------------- #
def _out_fd(stdout: BinaryIO) -> int | None:
    """The descriptor of the process's own stdout when that is where output goes."""
    if getattr(sys.stdout, "buffer", None) is not stdout:
        return None
    try:
        stdout.flush()
        return stdout.fileno()
    except (AttributeError, OSError, ValueError):
        return None


def redact_raw(
    s: kit.Streams, paths: list[str], *, check: bool = False, rules: RuleSet | None = None,
    hits: list[str] | None = None,
) -> Counter[str]:
    """Text mode: every input through one redactor, output written as it comes.

    With ``hits`` (a list), each redacted line is added to it as ``INPUT:LINE: RULE``,
    its line counted within its own input."""
    from council_filters.cli import _shell as kit
    from council_filters.redaction.machine import run_input, writer
    from council_filters.redaction.records import hit_lines, make_redactor, name_input

    r = make_redactor(rules, count=check)
    if hits is not None:
        r.keep_hits()
    fd = _out_fd(s.stdout)
    write = None if check else writer(s.stdout if fd is None else fd)
    for source, fh in kit.open_inputs(paths, s.stdin):
        name_input(r, rules, None if source == kit.STDIN_NAME else source)
        start, seen = r.nr, len(r.hits)
        run_input(r, fh, write)
        if hits is not None:
            hits += hit_lines(source, [(n - start, rule) for n, rule in r.hits[seen:]])
            del r.hits[:]
    return r.counts


def _redact_plain_fds(paths: list[str], rules: RuleSet | None = None) -> int:
    """The plain form on the process's own descriptors, without the kit.

    On the compiled path when it applies (:mod:`council_filters.redaction.native`),
    else through the redactor.  Raises ``OSError`` with ``filename`` set for
    an input that cannot be opened (after the inputs before it are written).
    """
    if rules is None:
        from council_filters.redaction import native, prefilter

        m = prefilter.whole_input()
        if m is not None:
            native.redact_paths(m, paths, 1)
            return 0
    from council_filters.redaction.machine import Redactor, run_input, writer

    if rules is None:
        r = Redactor()
    else:
        from council_filters.redaction.records import make_redactor, name_input

        r = make_redactor(rules)
    write = writer(1)
    for path in paths or ["-"]:
        if rules is not None:
            name_input(r, rules, None if path == "-" else path)
        if path == "-":
            run_input(r, 0, write)
            continue
        fd = os.open(path, os.O_RDONLY)
        try:
            run_input(r, fd, write)
        finally:
            os.close(fd)
    return 0


def redact_jsonl(
    s: kit.Streams, paths: list[str], fields: tuple[str, ...] | None, *, keep_going: bool,
    check: bool, rules: RuleSet | None = None, shape: bool = False,
) -> Counter[str]:
    """JSON Lines mode: one record at a time."""
    from collections import Counter

    from council_filters.cli import _shell as kit
    from council_filters.redaction.records import redact_record

    writer = kit.RecordWriter(s.stdout, flush=False)
    counts: Counter[str] = Counter()
    kit.map_records(
        lambda source, lineno, rec: [
            redact_record(rec, fields, source, lineno, counts, rules, shape)
        ],
        kit.iter_jsonl(paths, s.stdin, keep_going=keep_going),
        (lambda _rec: None) if check else writer.write,
        keep_going=keep_going,
    )
    return counts


# --------------------------------------------------------------------------- #
# Many files: --out-dir.
# --------------------------------------------------------------------------- #
def _files_from(path: str, stdin: BinaryIO) -> list[str]:
    """One input per line (`-`: stdin); blank lines are skipped."""
    from council_filters.cli import _shell as kit

    data = kit.read_all([path], stdin)
    return [line.rstrip("\r") for line in data.decode("utf-8", "surrogateescape").split("\n")
            if line.strip()]


def redact_batch(
    s: kit.Streams, paths: list[str], opts: BatchOptions, rules: RuleSet | None = None
) -> int:
    """--out-dir: every input on its own, into DIR, with a manifest."""
    from council_filters.cli import _shell as kit
    from council_filters.redaction.records import run_batch

    assert opts.out_dir is not None
    if opts.files_from is not None:
        paths = paths + _files_from(opts.files_from, s.stdin)
    if not paths:
        kit.fail_usage("--out-dir needs FILE arguments (or --files-from)")
    if "-" in paths:
        kit.fail_usage("stdin cannot be one of the files of --out-dir")
    if opts.jobs is not None and opts.jobs < 0 or opts.retries < 0:
        kit.fail_usage("--jobs and --retries take a number >= 0")
    if opts.scheduler not in (None, "local") and opts.jobs is not None:
        kit.fail_usage("--jobs sizes a local run; a running Dask cluster has its own workers")
    manifest_at, summary = run_batch(
        paths, opts, rules, warn=s.warn, progress=s.stderr if _is_tty(s.stderr) else None
    )
    for entry in summary.failed:
        tries = entry["attempts"]
        s.warn(f"{entry['input']}: {entry['error']} ({tries} attempt{'s' if tries != 1 else ''})")
    if summary.failed:
        s.warn(f"{len(summary.failed)} of {summary.files} files failed; see {manifest_at}")
        return kit.EXIT_DATA
    return kit.EXIT_OK


def _is_tty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


# --------------------------------------------------------------------------- #
# The command line.
# --------------------------------------------------------------------------- #
def command(
    files: list[str] | None,
    jsonl: bool,
    field: list[str] | None,
    keep_going: bool,
    check: bool,
    rules_spec: str | None = None,
    opts: BatchOptions | None = None,
    shape: bool = False,
) -> int:
    from council_filters.cli import _shell as kit
    from council_filters.redaction.records import BatchOptions, check_report, load_rules

    s = kit.streams()
    paths = list(files or [])
    opts = opts or BatchOptions()
    if opts.out_dir is not None:
        if jsonl or check:
            kit.fail_usage("--out-dir writes redacted files; --jsonl and --check read a stream")
        return redact_batch(s, paths, opts, load_rules(rules_spec))
    if opts.asked:
        kit.fail_usage(f"{', '.join(opts.asked)} need{'s' if len(opts.asked) == 1 else ''} "
                       "--out-dir")
    if not jsonl and (field or keep_going):
        kit.fail_usage("--field and --keep-going need --jsonl")
    if shape and not (jsonl and field):
        kit.fail_usage("--keep-shape needs --jsonl and --field")
    if shape and check:
        kit.fail_usage("--keep-shape rewrites values; --check only counts: choose one")
    rules = load_rules(rules_spec)
    hits: list[str] | None = [] if check and not jsonl else None  # plain --check names each
    if jsonl:
        fields = tuple(field) if field else None
        counts = redact_jsonl(s, paths, fields, keep_going=keep_going, check=check, rules=rules,
                              shape=shape)
    else:
        counts = redact_raw(s, paths, check=check, rules=rules, hits=hits)
    if check and +counts:
        for hit in hits or ():
            s.stderr.write(hit + "\n")
        for line in check_report(counts, rules):
            s.warn(line)
        return kit.EXIT_CONDITION
    return kit.EXIT_OK


_app: list[Any] = []


def build_app() -> Any:
    """The typer app (built on first use: importing typer dominates startup)."""
    if _app:
        return _app[0]
    import typer

    from council_filters.cli import _shell as kit
    from council_filters.redaction.records import BatchOptions

    EPILOG = epilog()
    app = kit.make_app(HELP, EPILOG)

    @app.command(help=HELP, epilog=EPILOG)
    def redact(
        files: list[str] = typer.Argument(
            None, metavar="FILE", show_default=False,
            help="Inputs, read in order as one stream; `-` is stdin. Default: stdin.",
        ),
        jsonl: bool = typer.Option(
            False, "--jsonl",
            help="Read JSON Lines records and redact every string value of each, nested "
            "ones included (so stages may run in any order), each value on its own (lines "
            "from 1, fresh state); fields keep their order, and `redacted_lines` ({path: "
            "[line, ...]}) is added. Default: off (plain text).",
        ),
        field: list[str] = typer.Option(
            None, "--field", metavar="NAME",
            help="With --jsonl: redact only this top-level field (a string); repeat for "
            "several. A record without it passes. Default: every string value.",
        ),
        rules: str = typer.Option(
            None, "--rules", metavar="SPEC",
            help="Redact with more rules: `extended` (the built-in set, see above), a "
            "gitleaks TOML FILE, or a comma list (`extended,FILE`). Default: the eleven "
            "patterns alone, byte-identical to the reference program.",
        ),
        keep_shape: bool = typer.Option(
            False, "--keep-shape",
            help="With --jsonl --field: keep each value's shape (for a prompt pack): only a "
            "credential's span becomes a typed placeholder such as "
            "\u2039redacted:aws-access-key-id\u203a; a diff line keeps its +/- prefix and its "
            "identifiers, a private key's body lines become one placeholder line each, "
            "and the record's own INGEST_TOKEN line is left as it is. Default: off "
            "(whole-line redaction, byte-identical to the reference).",
        ),
        keep_going: bool = kit.keep_going_option("--jsonl: "),
        check: bool = typer.Option(
            False, "--check",
            help="Write nothing to stdout; exit 3 when anything would be redacted, naming "
            "each hit on stderr as INPUT:LINE: RULE (the line counted within its own input; "
            "never the text), then the count per pattern or rule id; exit 0 when clean. "
            "Default: off.",
        ),
        out_dir: str = typer.Option(
            None, "--out-dir", metavar="DIR",
            help="Redact each FILE on its own into DIR (a path or an fsspec URL), under the "
            "same relative path; see above. Default: off (one stream to stdout).",
        ),
        jobs: int = typer.Option(
            None, "--jobs", "-j", metavar="N", show_default=False,
            help="With --out-dir: N local worker processes (0: one per core); with "
            "--scheduler local, the LocalCluster's workers. Default: 1.",
        ),
        scheduler: str = typer.Option(
            None, "--scheduler", metavar="ADDRESS",
            help="With --out-dir: run on a dask.distributed cluster: `local` starts a "
            "LocalCluster, otherwise a scheduler address (tcp://host:8786) or scheduler "
            "file. Needs pip install 'council-filters[dask]'. Default: no Dask.",
        ),
        manifest: str = typer.Option(
            None, "--manifest", metavar="FILE",
            help="With --out-dir: the manifest to write and resume from. "
            "Default: DIR/manifest.jsonl.",
        ),
        retries: int = typer.Option(
            2, "--retries", metavar="N",
            help="With --out-dir: retries of a failed file (or of a lost worker's files) "
            "before it is reported. Default: 2.",
        ),
        base: str = typer.Option(
            None, "--base", metavar="DIR",
            help="With --out-dir: inputs' paths are taken relative to DIR. Default: as given "
            "(leading / and URL schemes dropped).",
        ),
        files_from: str = typer.Option(
            None, "--files-from", metavar="FILE",
            help="With --out-dir: more inputs, one per line (`-`: stdin), for lists too long "
            "for a command line. Default: none.",
        ),
        version: bool = typer.Option(
            False, "--version", callback=_version, is_eager=True,
            help="Print the version and the prefilter engine, and exit.",
        ),
    ) -> int:
        opts = BatchOptions(out_dir, jobs, scheduler, manifest, retries, base, files_from)
        return command(files, jsonl, field, keep_going, check, rules, opts, keep_shape)

    _app.append(app)
    return app


def __getattr__(name: str) -> Any:
    """``app`` is built lazily (see :func:`build_app`), the core's names loaded so."""
    if name == "app":
        return build_app()
    if name in _CORE_NAMES:
        import importlib

        return getattr(importlib.import_module(_CORE_NAMES[name]), name)
    raise AttributeError(name)


# --------------------------------------------------------------------------- #
# Entry points.
# --------------------------------------------------------------------------- #
def _version(value: bool) -> None:
    """``--version``: the version, then the prefilter engine on a second line."""
    if value:
        import typer

        from council_filters import __version__
        from council_filters.cli import _shell as kit
        from council_filters.redaction import machine as redaction
        from council_filters.redaction import prefilter

        machine = "compiled" if redaction.machine_name() == "c" else "Python"
        out = kit.streams().stdout
        out.write(
            f"{PROG} {__version__}\nprefilter: {prefilter.describe()}; "
            f"line machine: {machine}\n".encode()
        )
        raise typer.Exit(0)


def _plain(args: list[str]) -> tuple[list[str], str | None] | None:
    """``(files, rules spec)`` when the arguments are FILEs and at most one
    ``--rules SPEC`` (the forms pipes use most); None for anything else, and
    when shell completion is asked for (the option parser answers those)."""
    if COMPLETE_VAR in os.environ:
        return None
    files: list[str] = []
    spec: str | None = None
    i = 0
    while i < len(args):
        a = args[i]
        if a.startswith("--rules=") and spec is None and len(a) > 8:
            spec = a[8:]
        elif a == "--rules" and spec is None and i + 1 < len(args):
            spec = args[i + 1]
            i += 1
        elif a == "-" or not a.startswith("-"):
            files.append(a)
        else:
            return None
        i += 1
    return files, spec


def main(
    argv: Sequence[str] | None = None,
    *,
    stdin: BinaryIO | None = None,
    stdout: BinaryIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    plain = _plain(args)
    if plain is not None:
        files, spec = plain
        if stdin is None and stdout is None and stderr is None and spec is None:
            try:
                return _redact_plain_fds(files)
            except BaseException as exc:  # noqa: BLE001 - handed to the kit's error mapping
                return _plain_failure(exc)
        from council_filters.cli import _shell as kit

        def text_mode(s: kit.Streams) -> int:
            from council_filters.redaction.records import load_rules

            redact_raw(s, files, rules=load_rules(spec))
            return kit.EXIT_OK

        return kit.run_plain(text_mode, PROG, stdin=stdin, stdout=stdout, stderr=stderr)
    from council_filters.cli import _shell as kit

    return kit.run(build_app(), PROG, args, stdin=stdin, stdout=stdout, stderr=stderr)


def _plain_failure(exc: BaseException) -> int:
    """Report a failure of the kit-less plain form exactly as the kit would."""
    from council_filters.cli import _shell as kit

    if isinstance(exc, OSError) and exc.filename is not None and not isinstance(
        exc, BrokenPipeError
    ):
        path = os.fsdecode(exc.filename)

        def reopen(_s: kit.Streams) -> int:
            # The kit names an unreadable input; a second attempt fails the same way.
            for _ in kit.open_inputs([path], sys.stdin.buffer):
                pass  # pragma: no cover - it opened this time (a race): nothing to do
            return kit.EXIT_OK

        return kit.run_plain(reopen, PROG)

    def fail(_s: kit.Streams) -> int:
        raise exc

    return kit.run_plain(fail, PROG)


def entry() -> None:
    plain = _plain(sys.argv[1:])
    if plain is not None and plain[1] is None:
        # Output went straight to the descriptors: nothing is buffered to flush.
        sys.exit(main())
    from council_filters.cli import _shell as kit

    kit.entry(main)


if __name__ == "__main__":
    entry()
