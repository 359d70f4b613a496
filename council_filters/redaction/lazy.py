"""A regex compiled on first use (the built-in rules, their searches, the machines).

``--rules extended`` declares some eighty bytes regexes (rules, candidate
searches, their ``re`` fallbacks); compiling all of them costs more than
scanning megabytes with the compiled prefilter, and most are never run on a
given input (a rule runs only on lines its search hit).  A :class:`LazyRegex`
knows its pattern at once and compiles it the first time a method needs it.
Only for patterns the project itself ships (tested to compile): a user's
rule file is compiled, and its errors reported, when it is loaded.
"""

from __future__ import annotations

import re
from typing import Any


class LazyRegex:
    """Duck-types a compiled ``re.Pattern`` (bytes or text); compiles on first use."""

    def __init__(self, pattern: Any, flags: int = 0) -> None:
        self.pattern = pattern
        self.flags_ = flags
        self._compiled: re.Pattern[Any] | None = None

    def compiled(self) -> re.Pattern[Any]:
        rx = self._compiled
        if rx is None:
            rx = self._compiled = re.compile(self.pattern, self.flags_)
        return rx

    def __getattr__(self, name: str) -> Any:
        # Only reached for what the instance does not hold yet (search, match,
        # finditer, groups, ...): kept, so later look-ups find it directly.
        if name.startswith("__"):
            raise AttributeError(name)
        value = getattr(self.compiled(), name)
        self.__dict__[name] = value
        return value

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LazyRegex):
            return (self.pattern, self.flags_) == (other.pattern, other.flags_)
        if isinstance(other, re.Pattern):
            return other == self.compiled()
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.pattern, self.flags_))

    def __repr__(self) -> str:
        return f"LazyRegex({self.pattern!r})"
