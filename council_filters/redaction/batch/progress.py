"""Progress on a terminal: files, bytes, rate, ETA."""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import TextIO


def human_bytes(n: float) -> str:
    for unit in ("B", "KB", "MB", "GB", "TB"):
        if n < 1000 or unit == "TB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1000
    return f"{n:.1f} TB"  # pragma: no cover


def human_seconds(s: float) -> str:
    s = int(round(s))
    if s < 60:
        return f"{s}s"
    if s < 3600:
        return f"{s // 60}m{s % 60:02d}s"
    return f"{s // 3600}h{s % 3600 // 60:02d}m"


class Progress:
    """One status line, redrawn in place at most every ``interval`` seconds."""

    def __init__(
        self, stream: TextIO, files: int, total_bytes: int, *,
        clock: Callable[[], float] = time.monotonic, interval: float = 0.25,
    ) -> None:
        self.stream = stream
        self.files = files
        self.total_bytes = total_bytes
        self.clock = clock
        self.interval = interval
        self.start = clock()
        self.last = -math.inf
        self.width = 0

    def line(self, files_done: int, bytes_done: int, bytes_skipped: int) -> str:
        elapsed = max(self.clock() - self.start, 1e-9)
        worked = bytes_done - bytes_skipped
        rate = worked / elapsed
        text = (f"{files_done}/{self.files} files  {human_bytes(bytes_done)}/"
                f"{human_bytes(self.total_bytes)}  {human_bytes(rate)}/s")
        left = self.total_bytes - bytes_done
        if files_done >= self.files:
            text += f"  done in {human_seconds(elapsed)}"
        elif rate > 0 and worked > 0:
            text += f"  ETA {human_seconds(left / rate)}"
        return text

    def update(self, files_done: int, bytes_done: int, bytes_skipped: int,
               *, final: bool = False) -> None:
        now = self.clock()
        if not final and now - self.last < self.interval:
            return
        self.last = now
        text = self.line(files_done, bytes_done, bytes_skipped)
        pad = max(self.width - len(text), 0)
        self.width = len(text)
        self.stream.write("\r" + text + " " * pad + ("\n" if final else ""))
        self.stream.flush()
