"""council-redact's option parser: its help, its options, ``--version``.

A private part of the ``council-redact`` shell, imported only when options are given
(importing typer dominates start-up; the plain ``council-redact [FILE]...`` form never
loads this module).
"""

from __future__ import annotations

from typing import Any

PROG = "council-redact"

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
are written. Streams: memory is bounded by the longest line plus a 1 MiB read.

Speed: one scan over each buffer finds the lines that can change, and the
exact line machine runs only there and inside open PEM blocks. With the
compiled module (built at install when a C compiler is there) the scan is a
SIMD pass in C and the whole input goes from descriptor to descriptor in C;
--rules scans use Hyperscan when the 'fast' extra is installed, RE2 (linear,
like Hyperscan) otherwise. --version names the engines; COUNCIL_PREFILTER=native, hyperscan or
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


_app: list[Any] = []


def build_app() -> Any:
    """The typer app (built on first use: importing typer dominates startup)."""
    if _app:
        return _app[0]
    import typer

    from council_filters.cli import _shell as kit
    from council_filters.redaction import stream
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
        return stream.command(kit.streams(), kit.error_record, files, jsonl, field, keep_going,
                              check, rules, opts, keep_shape)

    _app.append(app)
    return app


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
