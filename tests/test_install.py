"""Packaging: `pip install .` into a fresh virtual environment.

SLOW (about 10 s; it builds the package with pip's normal build isolation,
which needs the package index for setuptools): one test, one venv, every
check.  Set COUNCIL_SKIP_INSTALL_TEST=1 to leave it out of a quick run.

The runtime dependencies are not downloaded again: the new venv sees the
test interpreter's site-packages through a .pth file, and the project itself
is installed with --no-deps from a copy of the source tree (so the checkout
gets no build/ or egg-info directory).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from council_filters import __version__

from docs import executables
from pipeline_kit import ROOT, clean_env

pytestmark = pytest.mark.slow  # a fresh virtual environment and a pip install


def run(cmd: list[str] | str, env: dict[str, str], cwd: Path, **kw) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True,
                          timeout=kw.pop("timeout", 60), check=False, shell=isinstance(cmd, str),
                          **kw)


@pytest.mark.skipif(os.environ.get("COUNCIL_SKIP_INSTALL_TEST") == "1",
                    reason="COUNCIL_SKIP_INSTALL_TEST=1")
def test_pip_install_puts_every_filter_on_path_with_version_and_completion(tmp_path):
    src = tmp_path / "src"
    shutil.copytree(ROOT, src, ignore=shutil.ignore_patterns(
        ".git", ".venv", "node_modules", "build", "*.egg-info", "__pycache__",
        ".*_cache", ".hypothesis", "golden", "bench"))
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, capture_output=True)
    vpy = venv / "bin" / "python"
    site_dir = run([str(vpy), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                   clean_env(), tmp_path).stdout.strip()
    deps = [p for p in sys.path if p.endswith("site-packages") and Path(p).is_dir()]
    (Path(site_dir) / "council-test-deps.pth").write_text("\n".join(deps) + "\n")

    env = clean_env(PATH=f"{venv / 'bin'}:/usr/bin:/bin", PIP_DISABLE_PIP_VERSION_CHECK="1")
    env.pop("PYTHONPATH", None)
    env.pop("VIRTUAL_ENV", None)
    res = run([str(vpy), "-m", "pip", "install", "--quiet", "--no-deps", str(src)], env,
              tmp_path, timeout=300)
    assert res.returncode == 0, res.stderr[-2000:]

    # The installed package, not the checkout, is what runs.
    where = run(["python", "-c", "import council_filters; print(council_filters.__file__)"],
                env, tmp_path).stdout.strip()
    assert where.startswith(site_dir), where

    # Every console script is on PATH, and --version comes from one source.
    names = sorted(executables())
    assert len(names) == 11  # council and the ten council-* filters
    for name in names:
        assert (venv / "bin" / name).is_file(), name
        res = run(f"{name} --version", env, tmp_path)
        first = res.stdout.split("\n", 1)[0]
        assert (res.returncode, first) == (0, f"{name} {__version__}"), (name, res.stderr)

    # The front command's example commands file ships with the package.
    res = run(f"council init --path {tmp_path / 'cfg' / 'commands'}", env, tmp_path)
    assert res.returncode == 0, res.stderr
    assert "claude = " in (tmp_path / "cfg" / "commands").read_text()

    # The code-review references ship with the package, one file per origin.
    res = run(["python", "-c", "from council_filters.codereview import references as r;"
               " print(sorted(r.load(n).where for n in r.NAMES))"], env, tmp_path)
    assert res.returncode == 0 and res.stdout.strip() == str(["shipped"] * 8), res.stderr

    # A real pipe between installed executables found on PATH.
    res = run("printf 'key: sk-ant-api03-%s\\nfine\\n' abcdefghijklmnopqrstuvwx"
              " | council-redact | council-fence --label claude", env, tmp_path)
    assert res.returncode == 0, res.stderr
    assert "--- redacted credential at line 1 ---\nfine\n" in res.stdout
    assert "abcdefghijklmnop" not in res.stdout

    # Shell completion: bash and zsh scripts, and completions of options and verbs.
    for name in names:
        var = "_" + name.replace("-", "_").upper() + "_COMPLETE"
        func = "_" + name.replace("-", "_") + "_completion"
        res = run(name, {**env, var: "source_bash"}, tmp_path, stdin=subprocess.DEVNULL)
        assert res.returncode == 0 and f"{func}()" in res.stdout and "complete " in res.stdout, (
            name, res.stdout[:200], res.stderr)
    res = run("council-redact", {**env, "_COUNCIL_REDACT_COMPLETE": "source_zsh"}, tmp_path,
              stdin=subprocess.DEVNULL)
    assert res.returncode == 0 and "#compdef council-redact" in res.stdout, res.stdout[:200]

    res = run("council-redact", {**env, "_COUNCIL_REDACT_COMPLETE": "complete_bash",
                                 "COMP_WORDS": "council-redact --", "COMP_CWORD": "1"},
              tmp_path, stdin=subprocess.DEVNULL)
    offered = res.stdout.split()
    assert res.returncode == 0
    assert {"--jsonl", "--check", "--version", "--help"} <= set(offered), offered
    assert all(word.startswith("--") for word in offered), offered

    res = run("council-state", {**env, "_COUNCIL_STATE_COMPLETE": "complete_bash",
                                "COMP_WORDS": "council-state ", "COMP_CWORD": "1"},
              tmp_path, stdin=subprocess.DEVNULL)
    assert {"init", "add", "accept", "record-fix", "scope", "verify", "status"} <= set(
        res.stdout.split()), res.stdout
