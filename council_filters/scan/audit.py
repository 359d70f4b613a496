"""Dependency audit through the stack's own auditor, when it is installed and asked for.

One auditor per ecosystem (:data:`AUDITORS`), run only with ``--audit``; its
JSON is read into :class:`Advisory` records.  An auditor that is not
installed, that times out or whose output cannot be read is a skipped layer,
never a crash.

The reviewed change is hostile until proven otherwise, and a package
manager's project configuration can run code (``.yarnrc`` ``yarn-path``,
``.yarnrc.yml`` ``yarnPath``, ``.pnpmfile.cjs``, composer plugins, a
``packageManager`` field that makes corepack fetch a tool) or send the
caller's credentials where the change says (``.npmrc`` ``registry=`` with
``_authToken=${VAR}``, ``auth.json``, ``pip.conf``, ``.cargo/config.toml``).
So an auditor never runs in the repository: its manifest and lockfile are
copied into a private scratch directory (JSON manifests reduced to their
dependency fields, requirement files to their requirement lines), and it
runs there with :func:`minimal_env` (no credentials, a scratch HOME, the
public registry named explicitly, PATH without relative entries).
govulncheck needs the Go source, so it reads the package in place, with
toolchain switching, workspaces, the go env file and cgo off, and the public
module proxy only.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from council_filters.base import childenv
from council_filters.dispatch import Limits, execute

AUDIT_TIMEOUT = 120.0
CAP = 16 << 20


@dataclass
class Advisory:
    package: str
    version: str | None
    id: str
    title: str
    severity: str  # critical | medium | minor


@dataclass
class Skipped:
    layer: str
    root: str
    tool: str | None
    reason: str

    def record(self) -> dict[str, Any]:
        return {"layer": self.layer, "root": self.root, "tool": self.tool, "reason": self.reason}


def _sev(value: Any) -> str:
    text = str(value or "").lower()
    if text in ("critical", "high"):
        return "critical"
    if text in ("low", "info", "none"):
        return "minor"
    return "medium"


def _docs(raw: bytes) -> Iterator[Any]:
    """Every JSON value in ``raw`` (one document, JSON Lines, or concatenated documents)."""
    text = raw.decode("utf-8", "replace")
    decoder = json.JSONDecoder()
    i = 0
    while i < len(text):
        while i < len(text) and text[i] in " \t\r\n":
            i += 1
        if i >= len(text):
            break
        try:
            value, i = decoder.raw_decode(text, i)
        except (ValueError, RecursionError):
            nl = text.find("\n", i)
            if nl < 0:
                break
            i = nl + 1
            continue
        yield value


def parse_pip_audit(raw: bytes) -> list[Advisory]:
    out = []
    for doc in _docs(raw):
        deps = doc.get("dependencies") if isinstance(doc, dict) else doc
        for dep in deps if isinstance(deps, list) else []:
            for v in dep.get("vulns") or []:
                out.append(Advisory(dep.get("name", "?"), dep.get("version"), v.get("id", "?"),
                                    (v.get("description") or "").split("\n", 1)[0][:200],
                                    "critical" if v.get("fix_versions") is not None else "medium"))
    return out


def parse_npm_audit(raw: bytes) -> list[Advisory]:
    out = []
    for doc in _docs(raw):
        if not isinstance(doc, dict):
            continue
        if isinstance(doc.get("vulnerabilities"), dict):  # npm 7+
            for name, v in doc["vulnerabilities"].items():
                via = [x for x in v.get("via") or [] if isinstance(x, dict)]
                ident = ",".join(sorted({str(x.get("url") or x.get("source") or "") for x in via}
                                        - {""})) or v.get("range", "")
                title = via[0].get("title", "") if via else f"vulnerable through {v.get('via')}"
                out.append(Advisory(name, None, ident or "?", str(title)[:200],
                                    _sev(v.get("severity"))))
        if isinstance(doc.get("advisories"), dict):  # npm 6, pnpm
            for adv in doc["advisories"].values():
                out.append(Advisory(adv.get("module_name", "?"), None,
                                    str(adv.get("github_advisory_id") or adv.get("id") or "?"),
                                    str(adv.get("title", ""))[:200], _sev(adv.get("severity"))))
        if doc.get("type") == "auditAdvisory":  # yarn 1
            adv = (doc.get("data") or {}).get("advisory") or {}
            out.append(Advisory(adv.get("module_name", "?"), None,
                                str(adv.get("github_advisory_id") or adv.get("id") or "?"),
                                str(adv.get("title", ""))[:200], _sev(adv.get("severity"))))
    return out


def parse_cargo_audit(raw: bytes) -> list[Advisory]:
    out = []
    for doc in _docs(raw):
        vulns = (doc.get("vulnerabilities") or {}).get("list") if isinstance(doc, dict) else None
        for v in vulns or []:
            adv, pkg = v.get("advisory") or {}, v.get("package") or {}
            out.append(Advisory(pkg.get("name", "?"), pkg.get("version"), adv.get("id", "?"),
                                str(adv.get("title", ""))[:200], "critical"))
    return out


def parse_govulncheck(raw: bytes) -> list[Advisory]:
    osv: dict[str, str] = {}
    found: dict[tuple[str, str], Advisory] = {}
    for doc in _docs(raw):
        if not isinstance(doc, dict):
            continue
        if isinstance(doc.get("osv"), dict):
            osv[doc["osv"].get("id", "")] = str(doc["osv"].get("summary", ""))[:200]
        f = doc.get("finding")
        if isinstance(f, dict):
            trace = f.get("trace") or [{}]
            module = trace[0].get("module", "?")
            key = (module, f.get("osv", "?"))
            called = any(t.get("function") for t in trace)
            found[key] = Advisory(module, trace[0].get("version"), key[1], "",
                                  "critical" if called else "medium")
    for adv in found.values():
        adv.title = osv.get(adv.id, "")
    return list(found.values())


def parse_bundle_audit(raw: bytes) -> list[Advisory]:
    out = []
    for doc in _docs(raw):
        for r in (doc.get("results") or []) if isinstance(doc, dict) else []:
            gem, adv = r.get("gem") or {}, r.get("advisory") or {}
            out.append(Advisory(gem.get("name", "?"), gem.get("version"),
                                str(adv.get("id") or adv.get("cve") or "?"),
                                str(adv.get("title", ""))[:200], _sev(adv.get("criticality"))))
    return out


def parse_composer_audit(raw: bytes) -> list[Advisory]:
    out = []
    for doc in _docs(raw):
        advisories = doc.get("advisories") if isinstance(doc, dict) else None
        for name, items in (advisories or {}).items() if isinstance(advisories, dict) else []:
            for adv in items if isinstance(items, list) else list(items.values()):
                out.append(Advisory(name, None, str(adv.get("cve") or adv.get("advisoryId") or "?"),
                                    str(adv.get("title", ""))[:200], _sev(adv.get("severity"))))
    return out


NPM_REGISTRY = "https://registry.npmjs.org/"
PYPI_INDEX = "https://pypi.org/simple/"
GO_PROXY = "https://proxy.golang.org"

# Dependency fields a JSON manifest keeps in the scratch copy (no scripts, no
# packageManager, no config, no repositories, no plugins).
_JSON_KEEP = ("name", "version", "dependencies", "devDependencies", "optionalDependencies",
              "peerDependencies", "bundleDependencies", "bundledDependencies", "overrides",
              "resolutions", "workspaces", "require", "require-dev", "lockfileVersion",
              "packages")


@dataclass(frozen=True)
class Auditor:
    tool: str  # the executable that must be on PATH
    argv: Callable[[Path, str], list[str] | None]  # (root dir, manifest name) -> argv or None
    parse: Callable[[bytes], list[Advisory]]
    needs: str = ""  # why argv may be None
    files: tuple[str, ...] = ()  # globs copied into the scratch directory it runs in
    in_place: bool = False  # reads the source where it is (govulncheck)


def minimal_env(scratch: Path, environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """The whole environment an auditor gets: PATH, a scratch HOME and TMPDIR, the
    network settings, the public registries, and switches that keep package
    managers from running or fetching tools.  No credential reaches it."""
    src = os.environ if environ is None else environ
    home, tmp = scratch / "home", scratch / "tmp"
    home.mkdir(mode=0o700, exist_ok=True)
    tmp.mkdir(mode=0o700, exist_ok=True)
    real_home = src.get("HOME") or os.path.expanduser("~")
    env = {
        "PATH": childenv.safe_path(src.get("PATH", os.defpath)),
        "HOME": str(home),
        "TMPDIR": str(tmp), "TMP": str(tmp), "TEMP": str(tmp),
        "XDG_CONFIG_HOME": str(home / ".config"), "XDG_CACHE_HOME": str(home / ".cache"),
        "XDG_DATA_HOME": str(home / ".local" / "share"),
        "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "NO_COLOR": "1", "CI": "1",
        # npm, pnpm, yarn 1: the public registry, no lifecycle scripts, no yarn-path, no
        # corepack downloads, no user or global npmrc.
        "npm_config_registry": NPM_REGISTRY, "npm_config_ignore_scripts": "true",
        "npm_config_userconfig": os.devnull, "npm_config_globalconfig": os.devnull,
        "npm_config_update_notifier": "false", "YARN_IGNORE_PATH": "1",
        "YARN_REGISTRY": NPM_REGISTRY, "COREPACK_ENABLE_DOWNLOAD_PROMPT": "0",
        "COREPACK_ENABLE_AUTO_PIN": "0", "COREPACK_ENABLE_STRICT": "0",
        # pip-audit
        "PIP_CONFIG_FILE": os.devnull, "PIP_NO_INPUT": "1", "PIP_INDEX_URL": PYPI_INDEX,
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
        # cargo-audit keeps the user's advisory database; composer a scratch home
        "CARGO_HOME": src.get("CARGO_HOME") or os.path.join(real_home, ".cargo"),
        "COMPOSER_HOME": str(home / ".composer"), "COMPOSER_NO_INTERACTION": "1",
        "COMPOSER_ALLOW_SUPERUSER": "1",
        # govulncheck: the caller's module cache, no toolchain switch, no workspace, no go
        # env file, no cgo, the public proxy only
        "GOTOOLCHAIN": "local", "GOWORK": "off", "GOENV": "off", "GOFLAGS": "-mod=readonly",
        "CGO_ENABLED": "0", "GOPROXY": GO_PROXY, "GONOSUMDB": "", "GOPRIVATE": "",
        "GONOPROXY": "", "GOINSECURE": "",
        "GOMODCACHE": src.get("GOMODCACHE") or os.path.join(
            src.get("GOPATH") or os.path.join(real_home, "go"), "pkg", "mod"),
        "GOCACHE": str(home / ".cache" / "go-build"),
    }
    env.update({k: src[k] for k in childenv.NETWORK if k in src})
    return env


def _json_manifest(raw: bytes) -> bytes:
    """A JSON manifest reduced to its dependency fields (``{}`` when it does not parse or
    nests too deeply)."""
    try:
        doc = json.loads(raw)
        if not isinstance(doc, dict):
            return b"{}"
        return json.dumps({k: doc[k] for k in _JSON_KEEP if k in doc}).encode()
    except (ValueError, RecursionError):
        return b"{}"


def _requirement_lines(raw: bytes) -> bytes:
    """A requirements file without its option lines (-r, -e, --index-url, -f, ...)."""
    keep = [line for line in raw.splitlines()
            if line.strip() and not line.lstrip().startswith((b"-", b"#"))]
    return b"".join(line + b"\n" for line in keep)


def stage_files(auditor: Auditor, root: Path, scratch: Path) -> list[str]:
    """Copy the auditor's manifest and lockfile shapes from ``root`` into ``scratch``
    (regular files only, never through a symlink); the names copied."""
    copied = []
    for pattern in auditor.files:
        for src in sorted(root.glob(pattern)):
            if src.is_symlink() or not src.is_file() or src.parent != root:
                continue
            raw = src.read_bytes()
            if src.name in ("package.json", "composer.json"):
                raw = _json_manifest(raw)
            elif src.suffix == ".txt":
                raw = _requirement_lines(raw)
            fd = os.open(scratch / src.name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "wb") as out:
                out.write(raw)
            copied.append(src.name)
    return copied


def _requirements(root: Path, manifest: str) -> list[str] | None:
    reqs = sorted(p.name for p in root.glob("*requirements*.txt"))
    if not reqs:
        return None
    argv = ["pip-audit", "--format", "json", "--progress-spinner", "off", "--no-deps",
            "--disable-pip", "--index-url", PYPI_INDEX]
    for name in reqs:
        argv += ["-r", name]
    return argv


AUDITORS: dict[tuple[str, str], Auditor] = {
    ("python", "*"): Auditor("pip-audit", _requirements, parse_pip_audit,
                             "pip-audit reads requirements files; this root has none",
                             files=("*requirements*.txt",)),
    ("node", "npm"): Auditor("npm", lambda r, m: ["npm", "audit", "--json",
                                                 "--package-lock-only", "--ignore-scripts",
                                                 f"--registry={NPM_REGISTRY}"],
                             parse_npm_audit,
                             files=("package.json", "package-lock.json", "npm-shrinkwrap.json")),
    ("node", "pnpm"): Auditor("pnpm", lambda r, m: ["pnpm", "audit", "--json",
                                                   f"--registry={NPM_REGISTRY}"],
                              parse_npm_audit, files=("package.json", "pnpm-lock.yaml")),
    ("node", "yarn"): Auditor("yarn", lambda r, m: ["yarn", "audit", "--json"], parse_npm_audit,
                              files=("package.json", "yarn.lock")),
    ("rust", "*"): Auditor("cargo-audit", lambda r, m: ["cargo-audit", "audit", "--json"],
                           parse_cargo_audit, files=("Cargo.lock",)),
    ("go", "*"): Auditor("govulncheck", lambda r, m: ["govulncheck", "-json", "./..."],
                         parse_govulncheck, in_place=True),
    ("ruby", "*"): Auditor("bundle-audit", lambda r, m: ["bundle-audit", "check", "--format",
                                                         "json"], parse_bundle_audit,
                           files=("Gemfile", "Gemfile.lock")),
    ("php", "*"): Auditor("composer", lambda r, m: ["composer", "audit", "--format=json",
                                                    "--locked", "--no-plugins", "--no-scripts"],
                          parse_composer_audit, files=("composer.json", "composer.lock")),
}


def auditor_for(ecosystem: str, manager: str) -> Auditor | None:
    return AUDITORS.get((ecosystem, manager)) or AUDITORS.get((ecosystem, "*"))


def run(auditor: Auditor, root: Path, manifest: str, rel_root: str, timeout: float
        ) -> list[Advisory] | Skipped:
    layer = "dependency-audit"
    exe = shutil.which(auditor.tool, path=childenv.safe_path(os.environ.get("PATH", os.defpath)))
    if exe is None:
        return Skipped(layer, rel_root, auditor.tool, f"{auditor.tool} is not installed")
    argv = auditor.argv(root, manifest)
    if argv is None:
        return Skipped(layer, rel_root, auditor.tool, auditor.needs or "nothing to audit")
    private = Path(tempfile.mkdtemp(prefix="council-audit-"))  # 0700
    try:
        env = minimal_env(private)
        where = root
        if not auditor.in_place:
            where = private / "project"
            where.mkdir(mode=0o700)
            stage_files(auditor, root, where)
        line = " ".join(_quote(a) for a in [exe, *argv[1:]])
        res = execute(line, None, Limits(timeout=timeout, kill_grace=2.0,  # type: ignore[arg-type]
                                         output_cap=CAP, stderr_cap=1 << 16, cwd=str(where)), env)
    except OSError as exc:
        return Skipped(layer, rel_root, auditor.tool,
                       f"cannot prepare the audit: {exc.strerror or type(exc).__name__}")
    finally:
        shutil.rmtree(private, ignore_errors=True)
    if res.timed_out:
        return Skipped(layer, rel_root, auditor.tool, f"timed out after {timeout:g} s")
    advisories = auditor.parse(res.stdout)
    if not advisories and res.returncode not in (0, 1):
        return Skipped(layer, rel_root, auditor.tool, f"exited {res.returncode} with no report")
    if not advisories and res.returncode == 1 and not res.stdout.strip():
        return Skipped(layer, rel_root, auditor.tool, "failed with no report")
    return advisories


def _quote(arg: str) -> str:
    import shlex

    return shlex.quote(arg)
