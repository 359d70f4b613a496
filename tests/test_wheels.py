"""Wheels without a package index entry: with a C compiler the wheel carries the compiled
line machine (interpreter and platform tags); without one (CC names a compiler that does
not exist) the build still succeeds and the wheel is pure Python (py3-none-any).  Each is
installed into a fresh virtual environment and redacts the same bytes.

SLOW (two builds with pip's build isolation, which fetches setuptools from the package
index, and two venvs).  COUNCIL_SKIP_INSTALL_TEST=1 leaves it out, as for test_install.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from council_filters import __version__

from pipeline_kit import ROOT, clean_env

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(os.environ.get("COUNCIL_SKIP_INSTALL_TEST") == "1",
                       reason="COUNCIL_SKIP_INSTALL_TEST=1"),
]

LINE = b"key: sk-ant-api03-" + b"abcdefghijklmnopqrstuvwx" + b"\nfine\n"


def sources(tmp: Path, name: str) -> Path:
    """A fresh copy of the sources (pip builds in the tree: a build/ of one build would
    be reused by the next)."""
    src = tmp / name
    shutil.copytree(ROOT, src, ignore=shutil.ignore_patterns(
        ".git", ".venv", "node_modules", "build", "*.egg-info", "__pycache__", "*.so",
        ".*_cache", ".hypothesis", "golden", "bench", "tests", "examples", "docs"))
    return src


def build(src: Path, out: Path, env: dict[str, str]) -> Path:
    res = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet",
                          "--disable-pip-version-check", "-w", str(out), f"{src}/"],
                         env=env, capture_output=True, text=True, timeout=600, check=False)
    assert res.returncode == 0, res.stderr[-3000:]
    (wheel,) = out.glob("*.whl")
    return wheel


def install(wheel: Path, venv: Path) -> dict[str, str]:
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, capture_output=True)
    vpy = venv / "bin" / "python"
    where = "import sysconfig; print(sysconfig.get_path('purelib'))"
    site = subprocess.run([str(vpy), "-c", where], capture_output=True, text=True,
                          check=True).stdout.strip()
    deps = [p for p in sys.path if p.endswith("site-packages") and Path(p).is_dir()]
    (Path(site) / "council-test-deps.pth").write_text("\n".join(deps) + "\n")
    env = clean_env(PATH=f"{venv / 'bin'}:/usr/bin:/bin", PIP_DISABLE_PIP_VERSION_CHECK="1")
    env.pop("PYTHONPATH", None)
    res = subprocess.run([str(vpy), "-m", "pip", "install", "--quiet", "--no-deps", str(wheel)],
                         env=env, capture_output=True, text=True, timeout=300, check=False)
    assert res.returncode == 0, res.stderr[-2000:]
    return env


def redact(env: dict[str, str], cwd: Path) -> tuple[bytes, str]:
    out = subprocess.run(["council-redact"], input=LINE, env=env, cwd=cwd, capture_output=True,
                         timeout=60, check=True).stdout
    version = subprocess.run(["council-redact", "--version"], env=env, cwd=cwd,
                             capture_output=True, text=True, timeout=60, check=True).stdout
    return out, version


def test_wheels_with_and_without_a_compiler(tmp_path) -> None:
    if shutil.which(os.environ.get("CC", "cc")) is None:
        pytest.skip("no C compiler here: only the pure wheel could be built")
    base = clean_env(PIP_DISABLE_PIP_VERSION_CHECK="1")
    base.pop("PYTHONPATH", None)

    compiled = build(sources(tmp_path, "src-cc"), tmp_path / "compiled", base)
    pure = build(sources(tmp_path, "src-no-cc"), tmp_path / "pure",
                 {**base, "CC": str(tmp_path / "no-such-cc")})

    assert pure.name == f"council_filters-{__version__}-py3-none-any.whl"
    assert compiled.name.startswith(f"council_filters-{__version__}-cp")
    assert not compiled.name.endswith("-none-any.whl")
    with zipfile.ZipFile(pure) as z:
        names = z.namelist()
        assert not [n for n in names if n.endswith((".so", ".pyd"))]
        wheel_meta = z.read(f"council_filters-{__version__}.dist-info/WHEEL").decode()
        assert "Root-Is-Purelib: true" in wheel_meta
        assert "council_filters/data/commands.example" in names
    with zipfile.ZipFile(compiled) as z:
        assert [n for n in z.namelist() if n.startswith("council_filters/redaction/_machine.")
                and n.endswith(".so")]

    outs = []
    for wheel, machine in ((pure, "Python"), (compiled, "compiled")):
        env = install(wheel, tmp_path / f"venv-{machine}")
        out, version = redact(env, tmp_path)
        assert version.startswith(f"council-redact {__version__}\n")
        assert f"line machine: {machine}" in version, version
        outs.append(out)
    assert outs[0] == outs[1] == b"--- redacted credential at line 1 ---\nfine\n"
