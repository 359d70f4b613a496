"""Reading what a test run left behind: failing tests with their file and line.

Pure functions over bytes.  Each reader returns :class:`Failure` objects; the
caller turns them into findings.  Readers, tried in this order:

- JUnit XML (pytest with ``junit_family=xunit1`` carries ``file``/``line``;
  Maven Surefire and Gradle carry a class name and a stack trace);
- ``go test -json`` events, else go test's plain ``--- FAIL:`` lines;
- jest / vitest ``--json`` results;
- cargo's libtest output (``---- name stdout ----``, ``panicked at FILE:LINE``);
- RSpec's ``rspec ./spec/x_spec.rb:12`` lines and Minitest's ``[file:line]``;
- pytest's short summary (``FAILED path::name``) when no XML was written.

Paths are returned as the report wrote them; the caller makes them
repository-relative and looks up definition lines.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterable
from dataclasses import dataclass


@dataclass
class Failure:
    name: str  # the test's id as its runner names it
    file: str | None = None
    line: int | None = None  # the test's own line (definition), when known
    message: str = ""
    failure_file: str | None = None  # where it failed (assertion, panic), when known
    failure_line: int | None = None
    kind: str = "failure"  # failure | error
    definition: str | None = None  # a function name to look up when line is None
    package: str | None = None  # go: the package import path


@dataclass
class Counts:
    total: int = 0
    failed: int = 0
    errors: int = 0
    skipped: int = 0

    def add(self, other: Counts) -> None:
        self.total += other.total
        self.failed += other.failed
        self.errors += other.errors
        self.skipped += other.skipped


def first_line(text: str, cap: int = 300) -> str:
    for line in text.splitlines():
        if line.strip():
            line = line.strip()
            return line if len(line) <= cap else line[: cap - 1] + "\u2026"
    return ""


# --------------------------------------------------------------------------- #
# JUnit XML.
# --------------------------------------------------------------------------- #
_JAVA_FRAME = re.compile(r"at ([\w$.]+)\.([\w$<>]+)\(([\w$]+\.(?:java|kt|groovy|scala)):(\d+)\)")
_PY_FRAME = re.compile(r"^([^\s:][^:\n]*\.py):(\d+): ", re.M)


def pytest_node_id(file: str, classname: str, name: str) -> str:
    """The runner's own identifier for a JUnit test case pytest wrote: ``path::Class::test``,
    nested classes each their own part, parameters kept (``tests/t.py::TestA::TestB::t[x-1]``).

    pytest's classname is the node ID's path with ``/`` as ``.`` and ``.py`` dropped, then
    the classes; what follows the module's own name is the class chain."""
    inner = ""
    if file.endswith(".py"):
        module = file[:-3].replace("/", ".")
        stem = module.rsplit(".", 1)[-1]
        if classname in (module, stem) or classname.endswith("." + module):
            inner = ""
        elif classname.startswith(module + "."):
            inner = classname[len(module) + 1:]
        elif f".{stem}." in f".{classname}":
            inner = f".{classname}".split(f".{stem}.", 1)[1]
    return "::".join(x for x in (file, inner.replace(".", "::"), name) if x)


def read_junit(data: bytes) -> tuple[list[Failure], Counts]:
    """Failures and counts of one JUnit XML document (``<testsuites>`` or ``<testsuite>``)."""
    try:
        root = ET.fromstring(data)  # noqa: S314 - no DTDs are resolved by ElementTree
    except ET.ParseError:
        return [], Counts()
    failures: list[Failure] = []
    counts = Counts()
    for case in root.iter("testcase"):
        counts.total += 1
        name = case.get("name") or "?"
        classname = case.get("classname") or ""
        problem = None
        for tag in ("failure", "error"):
            problem = case.find(tag)
            if problem is not None:
                break
        if case.find("skipped") is not None and problem is None:
            counts.skipped += 1
            continue
        if problem is None:
            continue
        kind = "error" if problem.tag == "error" else "failure"
        if kind == "error":
            counts.errors += 1
        else:
            counts.failed += 1
        text = (problem.get("message") or "") + "\n" + (problem.text or "")
        file = case.get("file")
        line = case.get("line")
        f = Failure(name=f"{classname}::{name}" if classname else name, kind=kind,
                    message=first_line(problem.get("message") or problem.text or ""))
        if file:
            f.file = file
            f.name = pytest_node_id(file, classname, name)
            if line is not None and line.lstrip("-").isdigit():
                f.line = int(line) + 1  # xunit1 writes pytest's 0-based definition line
            frames = [m for m in _PY_FRAME.finditer(text)]
            same = [m for m in frames if m[1].endswith(file) or file.endswith(m[1])]
            pick = (same or frames)[-1:] if frames else []
            if pick:
                f.failure_file, f.failure_line = pick[0][1], int(pick[0][2])
        else:
            simple = classname.rsplit(".", 1)[-1]
            for m in _JAVA_FRAME.finditer(text):
                if m[1].rsplit(".", 1)[-1] == simple or m[1] == classname:
                    pkg = classname.rsplit(".", 1)[0].replace(".", "/") if "." in classname else ""
                    f.failure_file = f"{pkg}/{m[3]}" if pkg else m[3]
                    f.failure_line = int(m[4])
                    break
            if f.failure_file:
                f.file = f.failure_file
            f.definition = re.sub(r"[\[(].*", "", name) or None
            f.name = f"{classname}.{name}" if classname else name
        failures.append(f)
    return failures, counts


# --------------------------------------------------------------------------- #
# go test.
# --------------------------------------------------------------------------- #
_GO_LOC = re.compile(r"^\s+([\w./-]+_test\.go):(\d+): ?(.*)$")
_GO_FAIL = re.compile(r"^\s*--- FAIL: (\S+)")


def read_go_json(data: bytes) -> tuple[list[Failure], Counts] | None:
    """``go test -json`` events; None when the output holds none."""
    outputs: dict[tuple[str, str], list[str]] = {}
    failed: list[tuple[str, str]] = []
    counts = Counts()
    seen = False
    for raw in data.splitlines():
        if not raw.startswith(b"{"):
            continue
        try:
            ev = json.loads(raw)
        except ValueError:
            continue
        if not isinstance(ev, dict) or "Action" not in ev:
            continue
        seen = True
        test = ev.get("Test")
        key = (str(ev.get("Package") or ""), str(test or ""))
        action = ev.get("Action")
        if action == "output":
            outputs.setdefault(key, []).append(str(ev.get("Output") or ""))
        elif test and action in ("pass", "fail", "skip"):
            counts.total += 1
            if action == "fail":
                counts.failed += 1
                failed.append(key)
            elif action == "skip":
                counts.skipped += 1
        elif not test and action == "fail" and not any(k[0] == key[0] for k in failed):
            failed.append(key)  # a package that failed to build, or failed outside any test
            counts.errors += 1
    if not seen:
        return None
    failures = []
    names = {k for k in failed if k[1]}
    for pkg, test in failed:
        if test and any(other != (pkg, test) and other[0] == pkg and other[1].startswith(test + "/")
                        for other in names):
            continue  # a parent whose subtest failed: the subtest is the finding
        lines = outputs.get((pkg, test), [])
        f = Failure(name=f"{pkg}.{test}" if test else pkg,
                    definition=test.split("/", 1)[0] if test else None,
                    kind="failure" if test else "error")
        f.message, f.failure_file, f.failure_line = _go_location(lines)
        if not test:
            f.message = f.message or first_line("".join(lines[-5:]))
        f.package = pkg  # resolved by the caller (package -> directory)
        failures.append(f)
    return failures, counts


def _go_location(lines: Iterable[str]) -> tuple[str, str | None, int | None]:
    for line in lines:
        m = _GO_LOC.match(line.rstrip("\n"))
        if m:
            return first_line(m[3]), m[1], int(m[2])
    return "", None, None


def read_go_text(text: str) -> list[Failure]:
    failures = []
    lines = text.splitlines()
    for i, line in enumerate(lines):
        m = _GO_FAIL.match(line)
        if not m:
            continue
        name = m[1]
        if any(_GO_FAIL.match(x) and _GO_FAIL.match(x)[1].startswith(name + "/")  # type: ignore[index]
               for x in lines[i + 1:i + 50]):
            continue
        f = Failure(name=name, definition=name.split("/", 1)[0])
        f.message, f.failure_file, f.failure_line = _go_location(lines[i + 1:i + 20])
        if f.failure_file is None:
            f.message, f.failure_file, f.failure_line = _go_location(lines[max(0, i - 20):i])
        f.file = f.failure_file
        failures.append(f)
    return failures


# --------------------------------------------------------------------------- #
# jest / vitest.
# --------------------------------------------------------------------------- #
_JS_FRAME = re.compile(r"\(?((?:/|[A-Za-z]:\\)?[^\s():]+\.[cm]?[jt]sx?):(\d+):(\d+)\)?")


def read_jest(data: bytes) -> tuple[list[Failure], Counts] | None:
    try:
        doc = json.loads(data)
    except ValueError:
        return None
    if not isinstance(doc, dict) or not isinstance(doc.get("testResults"), list):
        return None
    failures = []
    counts = Counts()
    for suite in doc["testResults"]:
        if not isinstance(suite, dict):
            continue
        file = suite.get("name") or suite.get("testFilePath")
        results = suite.get("assertionResults") or suite.get("testResults") or []
        for test in results if isinstance(results, list) else []:
            if not isinstance(test, dict):
                continue
            counts.total += 1
            status = test.get("status")
            if status in ("pending", "skipped", "todo", "disabled"):
                counts.skipped += 1
            if status != "failed":
                continue
            counts.failed += 1
            title = test.get("fullName") or " ".join(
                [*(test.get("ancestorTitles") or []), str(test.get("title") or "")]).strip()
            messages = test.get("failureMessages") or []
            text = "\n".join(m for m in messages if isinstance(m, str))
            f = Failure(name=title or "?", file=file, message=first_line(_strip_ansi(text)))
            loc = test.get("location")
            if isinstance(loc, dict) and isinstance(loc.get("line"), int):
                f.line = loc["line"]
            for m in _JS_FRAME.finditer(text):
                if file and (m[1] == file or file.endswith(m[1]) or m[1].endswith(file)):
                    f.failure_file, f.failure_line = file, int(m[2])
                    break
            failures.append(f)
        if suite.get("status") == "failed" and not results:
            counts.errors += 1
            failures.append(Failure(name=str(file), file=file, kind="error",
                                    message=first_line(_strip_ansi(str(suite.get("message"))))))
    return failures, counts


_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


def _strip_ansi(text: str) -> str:
    return _ANSI.sub("", text)


# --------------------------------------------------------------------------- #
# cargo test (libtest).
# --------------------------------------------------------------------------- #
_CARGO_HEAD = re.compile(r"^---- (\S+) stdout ----$")
_CARGO_PANIC = re.compile(r"panicked at (?:'.*?', |\"[^\"]*\", )?([^\s:]+\.rs):(\d+):(\d+)")
_CARGO_FAILED = re.compile(r"^test (\S+) \.\.\. FAILED$")


def read_cargo(text: str) -> list[Failure]:
    lines = _strip_ansi(text).splitlines()
    by_name: dict[str, Failure] = {}
    for i, line in enumerate(lines):
        m = _CARGO_HEAD.match(line)
        if m:
            name = m[1]
            f = Failure(name=name, definition=name.rsplit("::", 1)[-1])
            for follow in lines[i + 1:i + 30]:
                if _CARGO_HEAD.match(follow):
                    break
                p = _CARGO_PANIC.search(follow)
                if p:
                    f.failure_file, f.failure_line = p[1], int(p[2])
                    idx = lines.index(follow, i + 1)
                    f.message = first_line(lines[idx + 1] if idx + 1 < len(lines) else "") or \
                        first_line(follow)
                    break
            f.file = f.failure_file
            by_name[name] = f
    for line in lines:
        m = _CARGO_FAILED.match(line)
        if m and m[1] not in by_name:
            by_name[m[1]] = Failure(name=m[1], definition=m[1].rsplit("::", 1)[-1])
    return list(by_name.values())


# --------------------------------------------------------------------------- #
# RSpec, Minitest, pytest's summary.
# --------------------------------------------------------------------------- #
_RSPEC = re.compile(r"^rspec (\./[^\s:]+):(\d+) # (.*)$")
_MINITEST = re.compile(r"^(?:Failure|Error):\s*$|^\s*(\S+#\S+) \[([^\s:\]]+\.rb):(\d+)\]:?$")
_PYTEST_FAILED = re.compile(r"^(FAILED|ERROR) ([^\s:]+\.py)(?:::(\S+))?(?: - (.*))?$")


def read_rspec(text: str) -> list[Failure]:
    out = []
    for line in _strip_ansi(text).splitlines():
        m = _RSPEC.match(line)
        if m:
            out.append(Failure(name=m[3], file=m[1][2:], line=int(m[2])))
    return out


def read_minitest(text: str) -> list[Failure]:
    out = []
    for line in _strip_ansi(text).splitlines():
        m = _MINITEST.match(line)
        if m and m[1]:
            out.append(Failure(name=m[1], file=m[2], failure_file=m[2],
                               failure_line=int(m[3]), definition=m[1].split("#", 1)[1]))
    return out


def read_pytest_summary(text: str) -> list[Failure]:
    out = []
    for line in _strip_ansi(text).splitlines():
        m = _PYTEST_FAILED.match(line)
        if m:
            name = m[3] or ""
            out.append(Failure(name=f"{m[2]}::{name}" if name else m[2], file=m[2],
                               message=m[4] or "", kind="error" if m[1] == "ERROR" else "failure",
                               definition=re.sub(r"\[.*", "", name.rsplit("::", 1)[-1]) or None))
    return out
