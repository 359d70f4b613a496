"""council-redact --check names each hit as FILE:LINE: RULE (never the credential), and the
pre-commit hooks (.pre-commit-hooks.yaml) run it, with the eleven or the extended rules."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from conftest import ROOT, git, run_filter

# Seven credentials of seven families, built from pieces so no scanner trips on this file.
PLANTED = {
    "aws.env": ("AWS_ACCESS_KEY_ID=" + "AKIA" + "QWERTYUIOPASDFGH" + "\n", 1, "aws-access-key"),
    "gh.txt": ("notes\n\ntoken: " + "ghp_" + "aB3dE5fG7h" * 3 + "aB3dE5" + "\n", 3,
               "github-token"),
    "slack.py": ('SLACK = "' + "xoxb-" + "123456789012-1234567890123-" + "aB3dE" * 5 + '"\n',
                 1, "slack-token"),
    "stripe.js": ("// pay\nconst k = '" + "sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc" + "';\n", 2,
                  "stripe-key"),
    "db.ini": ("[db]\nhost = x\npassword = " + "Tr0ub4dor&3-horse-staple" + "\n", 3,
               "secret-assignment"),
    "url.cfg": ("remote = https://deploy:" + "s3cr3tP4ssw0rd99" + "@git.example.com/r.git\n", 1,
                "url-credentials"),
    "key.pem": ("-----BEGIN " + "OPENSSH PRIVATE KEY-----\n"
                + "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n"
                + "-----END " + "OPENSSH PRIVATE KEY-----\n", 1, "pem-private-key"),
}
DEFAULT_FAMILIES = {"aws.env", "gh.txt", "key.pem"}  # what the eleven patterns know


def secrets_in(text: str) -> list[str]:
    """Every planted credential's distinctive part found in ``text``."""
    parts = ["QWERTYUIOPASDFGH", "aB3dE5fG7h", "1234567890123-aB3dE", "4eC39HqLyjWD",
             "Tr0ub4dor", "s3cr3tP4ssw0rd99", "b3BlbnNzaC1rZXkt"]
    return [p for p in parts if p in text]


@pytest.fixture()
def planted(tmp_path: Path) -> Path:
    d = tmp_path / "tree"
    d.mkdir()
    for name, (text, _line, _rule) in PLANTED.items():
        (d / name).write_text(text)
    (d / "clean.md").write_text("# nothing\n")
    return d


def expected(names: set[str], prefix: str = "") -> list[str]:
    out = []
    for name in sorted(names):
        _text, line, rule = PLANTED[name]
        span = " (lines 1-3)" if rule == "pem-private-key" else ""
        out.append(f"{prefix}{name}:{line}: {rule}{span}")
    return out


@pytest.mark.parametrize(("args", "names"), [
    ([], DEFAULT_FAMILIES), (["--rules", "extended"], set(PLANTED)),
], ids=["eleven", "extended"])
def test_check_names_file_line_and_rule_per_input(planted, args, names) -> None:
    files = sorted(str(p.name) for p in planted.iterdir())
    res = run_filter("redact", [*args, "--check", *files], cwd=planted)
    assert (res.code, res.out) == (3, b"")
    hits = [ln for ln in res.err.splitlines() if not ln.startswith("council-redact: ")]
    assert hits == expected(names)  # line numbers count within each file, not the stream
    assert secrets_in(res.err) == []
    assert res.err.splitlines()[-1].startswith("council-redact: ")


def test_check_on_stdin_and_odd_names(tmp_path) -> None:
    text, _line, _rule = PLANTED["gh.txt"]
    res = run_filter("redact", ["--check"], text)
    assert res.err.splitlines()[0] == "stdin:3: github-token"
    odd = tmp_path / "a\x1bb.txt"
    odd.write_text(text)
    res = run_filter("redact", ["--check", str(odd)])
    assert res.err.splitlines()[0] == f"{tmp_path}/a\\x1bb.txt:3: github-token"
    res = run_filter("redact", ["--check"], "fine\n")
    assert (res.code, res.err) == (0, "")


def test_the_hooks_file() -> None:
    hooks = {h["id"]: h for h in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())}
    assert hooks["council-redact-check"]["entry"] == "council-redact --check"
    assert hooks["council-redact-check-extended"]["entry"] == \
        "council-redact --check --rules extended"
    for h in hooks.values():
        assert h["language"] == "python" and h["types"] == ["text"]
    text = (ROOT / ".pre-commit-hooks.yaml").read_text()
    # The rev guidance names the tag form the release checklist creates.
    from council_filters import __version__

    assert f"rev: v{__version__}" in text
    assert 'git tag -a vX.Y.Z -m "council-filters X.Y.Z"' in (
        ROOT / "docs" / "RELEASING.md").read_text()
    assert f"## [{__version__}]" in (ROOT / "CHANGELOG.md").read_text()
    readme = (ROOT / "README.md").read_text()
    assert 'pip install "council-filters @ git+https://' in readme
    assert f'@v{__version__}"' in readme and f"rev: v{__version__}" in readme
    assert "pipx install \"git+https://" in readme


@pytest.mark.slow
def test_pre_commit_try_repo_prints_where(tmp_path, planted) -> None:
    pre_commit = Path(sys.executable).parent / "pre-commit"
    if not pre_commit.exists():
        pytest.skip("pre-commit is not installed (the dev extra installs it)")
    src = tmp_path / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md", ".pre-commit-hooks.yaml", "setup.py"):
        shutil.copy(ROOT / name, src / name)
    shutil.copytree(ROOT / "council_filters", src / "council_filters",
                    ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    git(src, "init", "-q")
    git(src, "add", ".")
    git(src, "commit", "-qm", "hooks")
    work = planted
    git(work, "init", "-q")
    git(work, "add", ".")
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "cache")}
    for hook, names in (("council-redact-check-extended", set(PLANTED)),
                        ("council-redact-check", DEFAULT_FAMILIES)):
        res = subprocess.run([str(pre_commit), "try-repo", str(src), hook, "--all-files"],
                             cwd=work, env=env, capture_output=True, text=True, timeout=900)
        output = res.stdout + res.stderr
        assert res.returncode == 1, output[-3000:]
        got = sorted(re.findall(r"^(\S+:\d+: [a-z-]+(?: \(lines \d+-\d+\))?)$", output, re.M))
        assert got == expected(names), output[-3000:]
        assert secrets_in(output) == []
    git(work, "rm", "-q", "--cached", *PLANTED)
    res = subprocess.run([str(pre_commit), "try-repo", str(src), "council-redact-check-extended",
                          "--all-files"], cwd=work, env=env, capture_output=True, text=True,
                         timeout=900)
    assert res.returncode == 0, (res.stdout + res.stderr)[-3000:]
