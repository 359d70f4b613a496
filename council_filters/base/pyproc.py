"""How this package starts Python processes: never from the working directory.

``python -m MOD`` puts the working directory first on ``sys.path``; the
council runs its stages with a reviewed repository as working directory, so a
change adding ``council_filters/__init__.py``, ``orjson.py`` or ``json.py`` at
its root would be imported into every stage.  :func:`module_argv` starts the
interpreter with ``-P`` (no unsafe path entry, Python 3.11+) and
:func:`child_env` makes every ``PYTHONPATH`` entry absolute against this
process's directory (an empty or relative entry would otherwise mean the
child's working directory), dropping empty ones.  The installed packages
(site-packages and the editable install's ``.pth`` line) still load.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping

ISOLATE = "-P"  # do not prepend the script's or the working directory to sys.path


def module_argv(module: str, *args: str) -> list[str]:
    """``python -P -m MODULE ARGS``: this interpreter, isolated from the working directory."""
    return [sys.executable, ISOLATE, "-m", module, *args]


def absolute_pythonpath(value: str, cwd: str | None = None) -> str:
    """``PYTHONPATH`` with every entry absolute against ``cwd`` and empty entries dropped."""
    here = cwd if cwd is not None else os.getcwd()
    parts = [p for p in value.split(os.pathsep) if p]
    return os.pathsep.join(os.path.normpath(os.path.join(here, p)) for p in parts)


def child_env(env: Mapping[str, str] | None = None) -> dict[str, str]:
    """``env`` (default: this process's) made safe for a Python child in another directory."""
    out = dict(os.environ if env is None else env)
    if "PYTHONPATH" in out:
        fixed = absolute_pythonpath(out["PYTHONPATH"])
        if fixed:
            out["PYTHONPATH"] = fixed
        else:
            del out["PYTHONPATH"]
    out.pop("PYTHONSTARTUP", None)
    out.pop("PYTHONSAFEPATH", None)  # -P already; never let a value turn it into noise
    return out
