"""The state file and what the flow keeps beside it.

``review-state.json`` stays the single source of truth for findings, statuses and counters
(every change goes through the state machine, under its lock).  What the later steps need
and the state does not hold lives in a private directory next to it, ``<state>.d/`` (0700,
files 0600, written atomically): ``run.json`` (the repository, the scope and its snapshot,
who reviewed each origin, the fix rounds with their before and after trees), ``diff.patch``
(the reviewed diff) and ``report.md``.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from typing import Any

import orjson

from council_filters.base import safefs
from council_filters.base.errors import UsageError
from council_filters.state import machine, store

State = dict[str, Any]
META = "run.json"
DIFF = "diff.patch"
REPORT = "report.md"


def now() -> str:
    return machine.clock(os.environ, time.time())


@dataclass(frozen=True)
class Session:
    path: str  # the state file

    @property
    def directory(self) -> str:
        return store.resolve(self.path) + ".d"

    def file(self, name: str) -> str:
        return os.path.join(self.directory, name)

    def ensure(self) -> None:
        os.makedirs(self.directory, mode=0o700, exist_ok=True)
        os.chmod(self.directory, 0o700)

    def write(self, name: str, data: bytes) -> str:
        self.ensure()
        target = self.file(name)
        safefs.replace(target, data, mode=0o600)
        return target

    def read(self, name: str) -> bytes | None:
        try:
            with open(self.file(name), "rb") as fh:
                return fh.read()
        except FileNotFoundError:
            return None

    def meta(self) -> dict[str, Any]:
        data = self.read(META)
        if data is None:
            raise UsageError(f"no {META} beside the state file: run `council code-review run`"
                             " first", source=self.path)
        try:
            value = orjson.loads(data)
        except orjson.JSONDecodeError:
            raise UsageError(f"{META} beside the state file is not valid JSON",
                             source=self.path) from None
        if not isinstance(value, dict):
            raise UsageError(f"{META} beside the state file is not an object", source=self.path)
        return value

    def save_meta(self, meta: dict[str, Any]) -> None:
        self.write(META, orjson.dumps(meta, option=orjson.OPT_INDENT_2) + b"\n")

    def load(self) -> State:
        return store.load(self.path)

    def transact(self, mutate: store.Mutation) -> machine.Result:
        return store.transact(self.path, mutate)

    def create_or_add(self, context: dict[str, Any], records: list[machine.Located]
                      ) -> machine.Result:
        """Initialise the state (when there is none) and add the consolidated findings."""
        stamp = now()

        def build(current: State | None) -> machine.Result:
            history: list[dict[str, Any]] = []
            if current is None:
                fresh = machine.new_state(context, stamp)
                current, history = fresh.state, fresh.history
            added = machine.add_findings(current, records, stamp)
            return machine.Result(added.state, history + added.history, added.output)

        return store.create(self.path, build)
