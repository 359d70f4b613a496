"""The shell kit's old name: everything in :mod:`council_filters.cli._shell`, re-exported.

Shells import ``council_filters.cli._shell``; this module stays so code written
against the old name keeps working.  Cores import neither (see
``tests/test_layers.py``): errors and JSON Lines live in ``council_filters.base``.
"""

from __future__ import annotations

from typing import Any

from council_filters.cli import _shell
from council_filters.cli._shell import *  # noqa: F403 - the whole kit, by its old name


def __getattr__(name: str) -> Any:
    """Names the star import leaves out (``_completion_var``, ...)."""
    return getattr(_shell, name)
