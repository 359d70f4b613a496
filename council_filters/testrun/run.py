"""Running the declared test command and turning its results into findings.

The command runs with ``sh -c`` in its package root, in its own process group,
stdin from /dev/null, under a timeout (SIGTERM to the whole group, then
SIGKILL after a grace period; whatever it left running is swept either way),
with TMPDIR pointing at a private 0700 directory that is removed afterwards.
Report hooks, so failures carry a file and line:

- pytest: ``PYTEST_ADDOPTS`` gains ``--junitxml=<private>/junit.xml -o
  junit_family=xunit1 -p no:cacheprovider`` (and a JSON coverage report when
  the command asks for ``--cov``);
- go test: ``GOFLAGS`` gains ``-json``;
- jest / vitest: JSON reporter flags are appended to the command (after
  ``--`` for ``npm test``);
- everything else is read from the output and from report files the run
  wrote under its root (JUnit XML, coverage reports).

Nothing else of the repository is run.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shlex
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from council_filters.base import childenv, script_findings
from council_filters.dispatch import Limits, execute
from council_filters.redaction import shown
from council_filters.testrun import coverage as cov
from council_filters.testrun import reports
from council_filters.testrun.reports import Counts, Failure

OUTPUT_CAP = 32 << 20
TAIL_LINES = 40
TAIL_BYTES = 4000
#: Report files a run may leave under its root (globs), read when written during the run.
REPORT_GLOBS = (
    "target/surefire-reports/TEST-*.xml", "build/test-results/**/*.xml",
    "**/target/surefire-reports/TEST-*.xml", "**/build/test-results/**/*.xml",
)
COVERAGE_FILES = (
    "coverage.json", "coverage.xml", "lcov.info", "coverage.lcov", "coverage.out", "cover.out",
    "coverage/coverage-final.json", "coverage/coverage-summary.json", "coverage/lcov.info",
    "coverage/cobertura-coverage.xml", "target/site/jacoco/jacoco.xml",
    "build/reports/jacoco/test/jacocoTestReport.xml",
)
ORIGIN = "tests"


@dataclass(frozen=True)
class Settings:
    timeout: float = 600.0
    kill_grace: float = 5.0
    coverage: bool = True


@dataclass
class RunOutcome:
    root: str
    command: str
    status: str = "passed"  # passed | failed | timeout | error | no-tests
    exit_code: int | None = None
    duration_ms: int = 0
    counts: Counts = field(default_factory=Counts)
    parser: str | None = None
    coverage: float | None = None
    coverage_format: str | None = None
    findings: list[dict[str, Any]] = field(default_factory=list)
    note: str | None = None

    def record(self) -> dict[str, Any]:
        return {
            "root": self.root, "command": self.command, "note": self.note,
            "status": self.status,
            "exit_code": self.exit_code, "duration_ms": self.duration_ms,
            "tests": {"total": self.counts.total, "failed": self.counts.failed,
                      "errors": self.counts.errors, "skipped": self.counts.skipped},
            "parser": self.parser,
            "coverage": None if self.coverage is None else round(self.coverage, 2),
            "coverage_format": self.coverage_format,
        }


def redact_text(text: str) -> str:
    data = shown.redact(text.encode("utf-8", "replace"))[0]
    return data.decode("utf-8", "replace")


def tail(data: bytes) -> str:
    lines = data.decode("utf-8", "replace").splitlines()[-TAIL_LINES:]
    text = redact_text("\n".join(lines) + "\n")
    encoded = text.encode("utf-8")
    if len(encoded) > TAIL_BYTES:
        text = encoded[-TAIL_BYTES:].decode("utf-8", "ignore")
    return text.rstrip("\n")


def finding(summary: str, *, severity: str = "critical", rule: str, file: str | None = None,
            line: int | None = None, evidence: str | None = None, discussion: str,
            **extra: Any) -> dict[str, Any]:
    return script_findings.finding(ORIGIN, "tests", rule, severity, summary, discussion,
                                   file=file, line=line, evidence=evidence, **extra)


# --------------------------------------------------------------------------- #
# Framework hooks.
# --------------------------------------------------------------------------- #
def is_pytest(command: str, framework: str | None) -> bool:
    """Whether ``command`` runs pytest (so a node ID can select one test)."""
    return framework == "pytest" or bool(re.search(r"\b(?:py\.test|pytest)\b", command))


def _js_runner(command: str, framework: str | None) -> str | None:
    for name in ("vitest", "jest"):
        if framework == name or re.search(rf"\b{name}\b", command):
            return name
    return None


def prepare(command: str, framework: str | None, private: Path, env: dict[str, str]
            ) -> str:
    """The command line to run, with report hooks set in ``env``."""
    if is_pytest(command, framework):
        extra = (f"--junitxml={shlex.quote(str(private / 'junit.xml'))} -o junit_family=xunit1"
                 " -p no:cacheprovider")
        if "--cov" in command:
            extra += f" --cov-report=json:{shlex.quote(str(private / 'coverage.json'))}"
        env["PYTEST_ADDOPTS"] = (env.get("PYTEST_ADDOPTS", "") + " " + extra).strip()
    if framework == "go test" or re.search(r"\bgo\s+test\b", command):
        env["GOFLAGS"] = (env.get("GOFLAGS", "") + " -json").strip()
    runner = _js_runner(command, framework)
    if runner is not None:
        out = shlex.quote(str(private / "jest.json"))
        flags = (f"--json --outputFile={out}" if runner == "jest"
                 else f"--reporter=default --reporter=json --outputFile={out}")
        separator = " -- " if re.match(r"\s*npm\s+(?:test|t|run(?:-script)?\s+\S+)\s*$", command) \
            else " "
        command = command.rstrip() + separator + flags
    return command


# --------------------------------------------------------------------------- #
# A runner that is not installed.
# --------------------------------------------------------------------------- #
_PY_RUNNER = re.compile(
    r"\A\s*(uv|poetry|pdm|pipenv|hatch)\s+run\s+(pytest|py\.test|python3?)\b(.*)\Z", re.S)
_HATCH_TEST = re.compile(r"\A\s*hatch\s+test\b(?:\s+--cover(?:age)?)?\s*\Z")
_BARE = re.compile(r"\A\s*(pytest|py\.test|python)\b(.*)\Z", re.S)
_JS_TEST = re.compile(r"\A\s*(pnpm|yarn|bun\s+run)\s+test\s*\Z")


def _python(which: Callable[[str], str | None]) -> str:
    """The interpreter for a fallback: this one when it has pytest, else python3 / python."""
    if importlib.util.find_spec("pytest") is not None:
        return shlex.quote(sys.executable)
    return "python3" if which("python3") else "python"


def fallback(command: str, which: Callable[[str], str | None] = shutil.which
             ) -> tuple[str, str | None]:
    """``command``, or what runs the same tests when its runner is not installed, and a note.

    ``uv|poetry|pdm|pipenv|hatch run pytest ...`` and ``hatch test`` become
    ``python -m pytest ...`` (``... run python ...`` keeps its arguments); a bare ``pytest``
    becomes ``python -m pytest``; ``python`` becomes ``python3``; ``pnpm|yarn|bun run test``
    becomes ``npm test``.  Only when the first word is not on PATH.
    """
    first = command.split(None, 1)[0] if command.strip() else ""
    if not first or which(first) is not None:
        return command, None
    m = _PY_RUNNER.match(command)
    if m:
        rest = m[3]
        new = (f"{_python(which)} -m pytest{rest}" if m[2] in ("pytest", "py.test")
               else f"{_python(which)}{rest}")
    elif _HATCH_TEST.match(command):
        new = f"{_python(which)} -m pytest"
    elif (b := _BARE.match(command)) is not None:
        new = (f"{_python(which)} -m pytest{b[2]}" if b[1] != "python"
               else f"python3{b[2]}" if which("python3") else command)
    elif _JS_TEST.match(command) and which("npm"):
        new = "npm test"
    else:
        return command, None
    if new == command:
        return command, None
    return new, f"{first} is not installed: ran the same tests without it"


# --------------------------------------------------------------------------- #
# Running one command.
# --------------------------------------------------------------------------- #
def run_one(repo: Path, root: str, command: str, framework: str | None, settings: Settings,
            added: Mapping[str, set[int]], threshold: float, *, shown: str | None = None,
            env_base: Mapping[str, str] | None = None) -> RunOutcome:
    """Run ``command`` in ``root``; ``shown`` is how findings name it (the caller masks a
    credential a command line may carry: ``API_KEY=... pytest``)."""
    shown = command if shown is None else shown
    outcome = RunOutcome(root, shown)
    cwd = (repo / root).resolve() if root != "." else repo
    private = Path(tempfile.mkdtemp(prefix="council-tests-"))
    try:
        os.chmod(private, 0o700)
        scratch = private / "tmp"
        scratch.mkdir(mode=0o700)
        env = dict(childenv.trimmed() if env_base is None else env_base)  # no credentials
        env.update({"TMPDIR": str(scratch), "TMP": str(scratch), "TEMP": str(scratch)})
        line = prepare(command, framework, private, env)
        command = shown
        start = time.time()
        res = execute(line, None, Limits(timeout=settings.timeout,  # type: ignore[arg-type]
                                         kill_grace=settings.kill_grace, output_cap=OUTPUT_CAP,
                                         stderr_cap=OUTPUT_CAP, cwd=str(cwd)), env)
        outcome.exit_code = None if res.timed_out else res.returncode
        outcome.duration_ms = res.duration_ms
        output = res.stdout + (b"\n" if res.stdout and not res.stdout.endswith(b"\n") else b"") \
            + res.stderr
        failures, counts, parser = _read_results(private, cwd, start, res.stdout, output)
        outcome.counts, outcome.parser = counts, parser
        resolver = _Resolver(repo, cwd)
        if res.timed_out:
            outcome.status = "timeout"
            outcome.findings.append(finding(
                f"Test suite timed out after {settings.timeout:g} s and was stopped",
                rule="test-timeout", evidence=tail(output),
                discussion="The test command did not finish within the timeout; its whole"
                " process group was terminated. A hanging test, a wait on the network or on"
                " input, or a watch mode keeps the suite from ending. Make the suite finish"
                " (or raise --timeout when it is only slow).", command=command, root=root))
        for f in failures:
            outcome.findings.append(resolver.finding(f, command, root))
        if not res.timed_out:
            if failures:
                outcome.status = "failed"
            elif res.returncode == 0:
                outcome.status = "passed"
            elif is_pytest(command, framework) and res.returncode == 5:
                outcome.status = "no-tests"
            else:
                outcome.status = "error"
                outcome.findings.append(finding(
                    f"Test command failed (exit {res.returncode}) without a readable test report",
                    rule="test-command-failed", evidence=tail(output),
                    discussion="The command exited non-zero and no failing test could be read"
                    " from its reports or output (a collection or build error, a missing"
                    " tool, a crash). The evidence is the redacted tail of its output.",
                    command=command, root=root, exit_code=res.returncode))
        if settings.coverage:
            report = _read_coverage(private, cwd, start)
            if report is not None:
                outcome.coverage, outcome.coverage_format = report.total(), report.format
                outcome.findings.extend(_coverage_findings(report, resolver, added, threshold,
                                                           command, root))
    finally:
        shutil.rmtree(private, ignore_errors=True)
    return outcome


def _fresh(path: Path, since: float) -> bool:
    try:
        return path.is_file() and not path.is_symlink() and path.stat().st_mtime >= since - 1
    except OSError:
        return False


def _read_results(private: Path, cwd: Path, start: float, stdout: bytes, output: bytes
                  ) -> tuple[list[Failure], Counts, str | None]:
    junit = [private / "junit.xml"] if (private / "junit.xml").is_file() else []
    for pattern in REPORT_GLOBS:
        junit += [p for p in sorted(cwd.glob(pattern)) if _fresh(p, start) and p not in junit]
    if junit:
        failures: list[Failure] = []
        counts = Counts()
        for path in junit:
            got, c = reports.read_junit(path.read_bytes())
            failures += got
            counts.add(c)
        return failures, counts, "junit"
    jest = private / "jest.json"
    if jest.is_file():
        parsed = reports.read_jest(jest.read_bytes())
        if parsed is not None:
            return parsed[0], parsed[1], "jest-json"
    go = reports.read_go_json(stdout)
    if go is not None:
        return go[0], go[1], "go-json"
    text = output.decode("utf-8", "replace")
    for name, reader in (("go-text", reports.read_go_text), ("cargo", reports.read_cargo),
                         ("rspec", reports.read_rspec), ("minitest", reports.read_minitest),
                         ("pytest-text", reports.read_pytest_summary)):
        found = reader(text)
        if found:
            return found, Counts(total=len(found), failed=len(found)), name
    return [], Counts(), None


def _read_coverage(private: Path, cwd: Path, start: float) -> cov.Coverage | None:
    candidates = [private / "coverage.json"] + [cwd / name for name in COVERAGE_FILES]
    for path in candidates:
        if path.parent == private and path.is_file() or _fresh(path, start):
            report = cov.read(path.name, path.read_bytes())
            if report is not None and (report.lines or report.percent is not None):
                return report
    return None


class _Resolver:
    """Makes report paths repository-relative and finds definition lines."""

    def __init__(self, repo: Path, cwd: Path) -> None:
        self.repo = repo.resolve()
        self.cwd = cwd.resolve()
        self._lines: dict[str, list[str]] = {}
        self._go_dirs: dict[str, str] | None = None

    def rel(self, path: str | None) -> str | None:
        if not path:
            return None
        p = Path(path)
        for candidate in ([p] if p.is_absolute() else [self.cwd / p, self.repo / p]):
            try:
                full = candidate.resolve()
                rel = full.relative_to(self.repo)
            except (OSError, ValueError):
                continue
            if full.is_file():
                return rel.as_posix()
        if not p.is_absolute():
            found = sorted(x for x in self.cwd.rglob(p.name) if x.is_file() and
                           x.as_posix().endswith("/" + path.lstrip("./")) and
                           ".git" not in x.parts)
            if len(found) == 1:
                return found[0].resolve().relative_to(self.repo).as_posix()
        return None

    def lines(self, rel: str) -> list[str]:
        if rel not in self._lines:
            try:
                text = (self.repo / rel).read_text("utf-8", "replace")
            except OSError:
                text = ""
            self._lines[rel] = text.splitlines()
        return self._lines[rel]

    def definition(self, rel: str, name: str) -> int | None:
        rx = re.compile(
            rf"^\s*(?:(?:async\s+)?def|func|(?:pub(?:\([^)]*\))?\s+)?(?:async\s+)?fn|function)"
            rf"\s+(?:\([^)]*\)\s*)?{re.escape(name)}\s*[\[(<]"
            rf"|^\s*(?:public|protected|private|static|final|\s)*[\w<>\[\], ]+\s+"
            rf"{re.escape(name)}\s*\(|^\s*def\s+{re.escape(name)}\b")
        for i, line in enumerate(self.lines(rel), start=1):
            if rx.match(line):
                return i
        return None

    def go_dir(self, package: str) -> str | None:
        if self._go_dirs is None:
            self._go_dirs = {}
            for mod in sorted(self.cwd.rglob("go.mod")):
                if "vendor" in mod.parts:
                    continue
                m = re.search(r"(?m)^module\s+(\S+)", mod.read_text("utf-8", "replace"))
                if m:
                    self._go_dirs[m[1]] = mod.parent.as_posix()
        for module, directory in sorted(self._go_dirs.items(), key=lambda kv: -len(kv[0])):
            if package == module or package.startswith(module + "/"):
                sub = package[len(module):].lstrip("/")
                return (Path(directory) / sub).as_posix() if sub else directory
        return None

    def finding(self, f: Failure, command: str, root: str) -> dict[str, Any]:
        file = failure_file = None
        if f.package is not None:  # go: a package import path, files relative to its directory
            directory = self.go_dir(f.package)
            if directory is not None:
                for test in sorted(Path(directory).glob("*_test.go")) if f.definition else []:
                    rel = test.resolve().relative_to(self.repo).as_posix()
                    if self.definition(rel, f.definition or ""):
                        file = rel
                        break
                if f.failure_file and (Path(directory) / f.failure_file).is_file():
                    failure_file = (Path(directory) / f.failure_file).resolve().relative_to(
                        self.repo).as_posix()
        else:
            file = self.rel(f.file)
            failure_file = self.rel(f.failure_file) if f.failure_file else None
        file = file or failure_file
        line = None
        if file is not None:
            line = f.line
            if line is None and f.definition:
                line = self.definition(file, f.definition)
            if line is None and failure_file == file:
                line = f.failure_line
        kind = "errored" if f.kind == "error" else "failed"
        message = redact_text(f.message).strip() if f.message else ""
        extra: dict[str, Any] = {"test": f.name}
        if failure_file is not None and f.failure_line is not None:
            extra["failure_file"], extra["failure_line"] = failure_file, f.failure_line
        return finding(
            f"Test {kind}: {f.name}", rule="test-failure", file=file, line=line,
            evidence=message or None,
            discussion="The test suite reports this test as " + kind + ". A change under review"
            " broke it, or the test itself is wrong; fix the code or the test before merging.",
            command=command, root=root, **extra)


def _coverage_findings(report: cov.Coverage, resolver: _Resolver,
                       added: Mapping[str, set[int]], threshold: float, command: str,
                       root: str) -> list[dict[str, Any]]:
    out = []
    total = report.total()
    if total is not None and total + 1e-9 < threshold:
        out.append(finding(
            f"Line coverage {total:.1f}% is below the {threshold:g}% threshold",
            severity="warning", rule="coverage-below-threshold",
            discussion="The suite's line coverage is under the project's threshold. Add tests"
            " for the changed code, or lower the threshold where the project decides so.",
            command=command, root=root, coverage=round(total, 2), threshold=threshold))
    by_rel: dict[str, dict[int, int]] = {}
    for path, hits in report.lines.items():
        rel = resolver.rel(path)
        if rel is not None:
            by_rel[rel] = hits
    for rel in sorted(added):
        measured = by_rel.get(rel)
        if not measured:
            continue
        for line, name in cov.uncovered_new_functions(rel, resolver.lines(rel), added[rel],
                                                      measured):
            out.append(finding(
                f"New function {name} has no test coverage", rule="new-code-uncovered",
                file=rel, line=line,
                discussion="The function is added by this change and no test runs any of its"
                " lines. Add a test that exercises it.", command=command, root=root))
    return out


def runs_of(context: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The runs a context asks for: ``test_runs``, else its top-level ``test_cmd`` at the root."""
    runs = context.get("test_runs")
    if isinstance(runs, list) and runs:
        return [r for r in runs if isinstance(r, dict) and isinstance(r.get("test_cmd"), str)
                and r["test_cmd"].strip()]
    cmd = context.get("test_cmd")
    if isinstance(cmd, str) and cmd.strip():
        cov_cmd = context.get("coverage_cmd")
        return [{"root": ".", "test_cmd": cmd,
                 "coverage_cmd": cov_cmd if isinstance(cov_cmd, str) else None,
                 "framework": None}]
    return []


def added_lines(context: Mapping[str, Any]) -> dict[str, set[int]]:
    out: dict[str, set[int]] = {}
    files = (context.get("diff") or {}).get("files") if isinstance(context.get("diff"), dict) \
        else None
    for f in files or []:
        if not isinstance(f, dict) or not isinstance(f.get("path"), str):
            continue
        lines: set[int] = set()
        for pair in f.get("added_ranges") or []:
            if isinstance(pair, list) and len(pair) == 2 and all(isinstance(x, int) for x in pair):
                lines.update(range(pair[0], pair[1] + 1))
        out[f["path"]] = lines
    return out


def sort_key(rec: Mapping[str, Any]) -> tuple[Any, ...]:
    return (rec.get("file") or "\uffff", rec.get("line") or 0, rec.get("rule") or "",
            rec.get("summary") or "")


Callback = Callable[[RunOutcome], None]


def run_context(repo: Path, context: Mapping[str, Any], settings: Settings, *,
                test_cmd: str | None = None, threshold: float | None = None,
                warn: Callable[[str], None] = lambda _m: None,
                shown: Callable[[str], str] = lambda c: c,
                env_base: Mapping[str, str] | None = None) -> tuple[list[RunOutcome], float]:
    """Every run a context asks for (or ``test_cmd`` at the root), and the threshold used.

    ``shown`` masks what a command line may carry before findings name it.  A run root
    outside the repository is refused (a DataError)."""
    from council_filters.base.errors import DataError

    if test_cmd:
        runs = [{"root": ".", "test_cmd": test_cmd, "coverage_cmd": None, "framework": None}]
    else:
        runs = runs_of(context)
    limit = threshold if threshold is not None else context.get("coverage_threshold")
    limit = float(limit) if isinstance(limit, (int, float)) and not isinstance(limit, bool) \
        else 80.0
    added = added_lines(context)
    outcomes = []
    for spec in runs:
        where = str(spec.get("root") or ".")
        if Path(where).is_absolute() or ".." in Path(where).parts or not (repo / where).is_dir():
            raise DataError("test run root must be a directory inside the repository")
        cov_cmd = spec.get("coverage_cmd")
        cmd = str(cov_cmd if settings.coverage and isinstance(cov_cmd, str) and cov_cmd.strip()
                  else spec["test_cmd"])
        framework = spec.get("framework") if isinstance(spec.get("framework"), str) else None
        cmd, note = fallback(cmd)
        if note:
            warn(note)
        outcome = run_one(repo, where, cmd, framework, settings, added, limit, shown=shown(cmd),
                          env_base=env_base)
        outcome.note = note
        outcomes.append(outcome)
    return outcomes, limit
