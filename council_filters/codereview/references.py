"""The texts a reviewer or corrector is sent: one reference per origin, the finding contract
and the correction rules.

They ship in the package (``data/code-review/NAME.md``).  A user overrides any of them with a
file of the same name in ``--references DIR`` or in
``${XDG_CONFIG_HOME:-~/.config}/council/code-review/``; the reviewed repository is never read
for them (a change under review could rewrite its own reviewer's instructions).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from council_filters.base.errors import UsageError
from council_filters.base.vocab import CODE_REVIEW_ORIGINS
from council_filters.council import config

#: The six reviewers, in the order reports list them; the two hybrid ones run a script first.
ORIGINS: tuple[str, ...] = CODE_REVIEW_ORIGINS
HYBRID: tuple[str, ...] = ("security", "tests")
CONTRACT = "finding-contract"
CORRECTION = "correction"
NAMES: tuple[str, ...] = (*ORIGINS, CONTRACT, CORRECTION)
READ_CAP = 256 << 10


def shipped_dir() -> Path:
    return Path(__file__).resolve().parent.parent / "data" / "code-review"


def user_dir(env: Mapping[str, str]) -> Path:
    return config.user_commands_path(env).parent / "code-review"


@dataclass(frozen=True)
class Reference:
    name: str
    text: str
    where: str  # "shipped", or the overriding file's path


def search_path(explicit: str | None, env: Mapping[str, str]) -> list[Path]:
    dirs = []
    if explicit:
        if not os.path.isdir(explicit):
            raise UsageError("--references: not a directory", source=explicit)
        dirs.append(Path(explicit))
    dirs.append(user_dir(env))
    return dirs


def load(name: str, dirs: Sequence[Path] = ()) -> Reference:
    """The text for ``name`` (an origin, ``finding-contract`` or ``correction``)."""
    if name not in NAMES:
        raise UsageError(f"no reference named {name!r}")
    for directory in dirs:
        path = directory / f"{name}.md"
        if path.is_file():
            try:
                with open(path, "rb") as fh:
                    data = fh.read(READ_CAP)
                return Reference(name, data.decode("utf-8", "replace"), str(path))
            except OSError as exc:
                raise UsageError(f"cannot read: {exc.strerror or type(exc).__name__}",
                                 source=str(path)) from None
    text = (shipped_dir() / f"{name}.md").read_text(encoding="utf-8")
    return Reference(name, text, "shipped")


def load_all(dirs: Sequence[Path] = ()) -> dict[str, Reference]:
    return {name: load(name, dirs) for name in NAMES}
