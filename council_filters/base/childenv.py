"""The environments the project gives to commands of a reviewed repository.

A reviewed change is code nobody has vetted, and the caller's environment
often holds API keys (CI secrets, the reviewers' credentials).  Whatever runs
the change's code (council-tests with ``--run-tests``) or reads its manifests
(council-scan's auditors with ``--audit``) gets an environment built from an
allowlist here, never a copy of ``os.environ``: names that say where tools
and caches are and how to reach the network, nothing that authenticates.
PATH keeps absolute entries only (an empty or relative entry names the
working directory, that is, the repository).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping

# How to reach the network (a proxy URL may carry the user's proxy login: it is the user's
# way out, kept on purpose and documented).
NETWORK = ("HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy", "NO_PROXY", "no_proxy",
           "SSL_CERT_FILE", "SSL_CERT_DIR", "NODE_EXTRA_CA_CERTS", "REQUESTS_CA_BUNDLE")
# Where the user and the toolchains are; locale and terminal.
TOOLCHAIN = ("HOME", "USER", "LOGNAME", "SHELL", "LANG", "LANGUAGE", "TERM", "TZ", "CI",
             "NO_COLOR", "FORCE_COLOR", "GOPATH", "GOROOT", "GOMODCACHE", "GOCACHE",
             "GOTOOLCHAIN", "CARGO_HOME", "RUSTUP_HOME", "RUSTUP_TOOLCHAIN", "JAVA_HOME",
             "GRADLE_USER_HOME", "MAVEN_HOME", "M2_HOME", "VIRTUAL_ENV", "CONDA_PREFIX",
             "PYENV_ROOT", "PYENV_VERSION", "NVM_DIR", "NVM_BIN", "VOLTA_HOME", "PNPM_HOME",
             "BUN_INSTALL", "DENO_DIR", "GEM_HOME", "GEM_PATH", "BUNDLE_PATH", "RBENV_ROOT",
             "COMPOSER_HOME", "DOTNET_ROOT", "SWIFTLY_HOME_DIR")


def safe_path(value: str) -> str:
    """PATH without empty or relative entries (they name the working directory)."""
    return os.pathsep.join(p for p in value.split(os.pathsep) if os.path.isabs(p))


def trimmed(environ: Mapping[str, str] | None = None, *, keep: Iterable[str] = ()
            ) -> dict[str, str]:
    """The allowlisted part of ``environ`` (default: this process's): PATH made safe, the
    toolchain, locale and network names, every ``LC_*``, and the names in ``keep`` (the
    user's explicit choice)."""
    src = os.environ if environ is None else environ
    names = {*TOOLCHAIN, *NETWORK, *keep}
    env = {k: v for k, v in src.items() if k in names or k.startswith("LC_")}
    env["PATH"] = safe_path(src.get("PATH", os.defpath))
    return env
