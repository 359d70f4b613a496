"""``council code-review accept``: the user's selection applied to the state file.

The selection is finding IDs, severities or categories, everything open, or nothing; what
is accepted is to be fixed and every other open finding is dismissed.  On a terminal with
no selection given, :func:`listing` shows the open findings and :func:`parse_answer` reads
the one line typed back.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from council_filters.base.errors import UsageError
from council_filters.codereview import session
from council_filters.consolidate import origins
from council_filters.state import machine


@dataclass(frozen=True)
class Choice:
    """What to accept: every open finding, these severities/categories, these IDs, or none."""

    all_: bool = False
    levels: tuple[str, ...] = ()
    ids: tuple[str, ...] = ()
    none: bool = False

    def empty(self) -> bool:
        return not (self.all_ or self.levels or self.ids or self.none)


def choice(ids: Sequence[str], severity: str | None, all_: bool, none: bool) -> Choice:
    """The command line's selection, checked."""
    chosen = Choice(all_, (severity,) if severity else (), tuple(ids), none)
    if none and (chosen.ids or chosen.levels or all_):
        raise UsageError("--none cannot be combined with a selection")
    return chosen


def listing(state_file: str) -> list[str]:
    """One line per open finding: ID, severity, place and title."""
    st = session.Session(state_file).load()
    out = []
    for f in st["findings"]:
        if f["status"] != "open":
            continue
        where = f"{f.get('file') or '-'}:{f.get('line') or '-'}"
        title = " ".join(str(f.get("subject") or f.get("summary") or "").split())[:90]
        out.append(f"  {f['id']:<9} {str(f.get('severity') or '-'):<9} {where:<30} {title}")
    return out


def parse_answer(state_file: str, answer: str) -> Choice:
    """The line typed at the picker: IDs, severities/categories, ``all``, or nothing (none)."""
    if answer.lower() == "all":
        return Choice(all_=True)
    st = session.Session(state_file).load()
    words = answer.replace(",", " ").split()
    ids = [w for w in words if origins.is_id_token(w) and any(
        f["id"] == w for f in st["findings"])]
    levels = [w for w in words if w not in ids]
    if not (levels or ids):
        return Choice(none=True)
    return Choice(levels=tuple(levels), ids=tuple(ids))


def accept(state_file: str, chosen: Choice) -> tuple[list[str], list[str]]:
    """Apply the choice under the state file's lock: the IDs accepted and dismissed."""
    sess = session.Session(state_file)
    before = {f["id"]: f["status"] for f in sess.load()["findings"]}
    if chosen.none:
        result = sess.transact(lambda st: machine.accept(st, machine.Selection(ids=()),
                                                         session.now()))
    else:
        def mutate(st: machine.State) -> machine.Result:
            sel = machine.parse_selection(st, all_=chosen.all_, severities=list(chosen.levels),
                                          ids=list(chosen.ids))
            return machine.accept(st, sel, session.now())
        result = sess.transact(mutate)
    after = {f["id"]: f["status"] for f in result.state["findings"]}
    accepted = [i for i, s in after.items() if s == "accepted" and before.get(i) == "open"]
    dismissed = [i for i, s in after.items() if s == "dismissed" and before.get(i) == "open"]
    return accepted, dismissed
