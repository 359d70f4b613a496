"""The review state machine: accept -> fix -> re-review, as pure functions.

A state is a plain JSON-shaped dict (see ``schemas/review-state.schema.json``).
Every mutation takes a state and returns a :class:`Result` holding a *new*
state and the history entries it appended; the input state is never
modified, so a caller that gets an exception still holds the old state
unchanged.  An illegal request raises :class:`DataError` (exit 1) with a
message naming the finding ID and what was wrong, never the finding's text.

Every status change goes through :data:`TRANSITIONS`, the one table of
allowed moves (``docs/state.md`` prints the same table; a test checks the two
agree).  Nothing here reads files, argv or the clock: callers pass ``now``.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import orjson

from council_filters.base import severity
from council_filters.base.errors import DataError, UsageError
from council_filters.base.jsonl import Record, json_type
from council_filters.base.vocab import FINDING_STATUSES
from council_filters.consolidate import origins

FORMAT = "council-review-state"
VERSION = 1

# Statuses, in the order summaries list them.
STATUSES = FINDING_STATUSES
TERMINAL: frozenset[str] = frozenset({"verified", "dismissed", "escalated"})

# A finding that entered re-review this many times and still failed is
# escalated and frozen by the next ``scope``: no further correction round.
MAX_FIX_ATTEMPTS = 2

# Fields the state owns on a finding; the same names in input records are ignored.
STATE_FIELDS: tuple[str, ...] = (
    "id", "status", "fix_attempts", "frozen", "in_scope", "files_touched", "reason",
)



@dataclass(frozen=True)
class Transition:
    """One allowed move: ``source`` --event--> ``target``, made by ``verb``."""

    source: str | None  # None: the finding is created in ``target``
    event: str
    target: str
    verb: str
    when: str  # the condition, in words (for the docs)


# The one transition table.  Anything not listed is refused.
TRANSITIONS: tuple[Transition, ...] = (
    Transition(None, "add", "open", "add", "a new ID from consolidate"),
    Transition(None, "induce", "open", "verify", "a fix-induced finding; the state assigns its ID"),
    Transition("open", "accept", "accepted", "accept", "selected by --all, --severity or --ids"),
    Transition("open", "dismiss", "dismissed", "accept", "open and not selected"),
    Transition("accepted", "fix", "fixed", "record-fix", "outcome fixed"),
    Transition("accepted", "escalate", "escalated", "record-fix", "outcome escalated; frozen"),
    Transition("reopened", "fix", "fixed", "record-fix",
               f"outcome fixed, fix_attempts < {MAX_FIX_ATTEMPTS}"),
    Transition("reopened", "escalate", "escalated", "record-fix", "outcome escalated; frozen"),
    Transition("fixed", "verify", "verified", "verify", "in scope, outcome verified"),
    Transition("fixed", "reopen", "reopened", "verify", "in scope, outcome reopened"),
    Transition("reopened", "freeze", "escalated", "scope",
               f"fix_attempts >= {MAX_FIX_ATTEMPTS}; frozen"),
)

_TABLE: dict[tuple[str | None, str], str] = {(t.source, t.event): t.target for t in TRANSITIONS}

# How an event reads in an error message: "cannot <phrase> a dismissed finding".
_PHRASE: dict[str, str] = {
    "accept": "accept", "dismiss": "dismiss", "fix": "record a fix for",
    "escalate": "escalate", "verify": "verify", "reopen": "reopen", "freeze": "freeze",
}


def allowed_sources(event: str) -> list[str]:
    return [t.source for t in TRANSITIONS if t.event == event and t.source is not None]


def next_status(finding_id: str, status: str, event: str) -> str:
    """The status ``event`` moves a finding to, or a DataError naming the refused move."""
    target = _TABLE.get((status, event))
    if target is None:
        sources = ", ".join(allowed_sources(event)) or "nowhere"
        raise DataError(
            f"{finding_id}: cannot {_PHRASE.get(event, event)} a finding that is {status}"
            f" (only from: {sources})"
        )
    return target


def transition_table_markdown() -> str:
    """The transition table as the docs print it (generated, so it cannot drift)."""
    rows = ["| from | event | to | verb | when |", "|---|---|---|---|---|"]
    for t in TRANSITIONS:
        rows.append(
            f"| {t.source or '(new)'} | {t.event} | {t.target} | `{t.verb}` | {t.when} |"
        )
    return "\n".join(rows) + "\n"


# --------------------------------------------------------------------------- #
# Results, clock.
# --------------------------------------------------------------------------- #
State = dict[str, Any]
Located = tuple[str, int, Record]  # (source, line, record), as iter_jsonl yields


@dataclass
class Result:
    """A mutation's outcome: the new state, what it appended to history, and output."""

    state: State
    history: list[dict[str, Any]] = field(default_factory=list)
    output: list[Record] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return bool(self.history)


def format_time(epoch: float) -> str:
    stamp = _dt.datetime.fromtimestamp(int(epoch), tz=_dt.UTC)
    return stamp.strftime("%Y-%m-%dT%H:%M:%SZ")


def clock(environ: Mapping[str, str], real_epoch: float) -> str:
    """The timestamp for history: ``COUNCIL_NOW`` (ISO-8601 UTC or epoch seconds),
    else ``SOURCE_DATE_EPOCH``, else ``real_epoch``.  A malformed value is a usage error."""
    for name in ("COUNCIL_NOW", "SOURCE_DATE_EPOCH"):
        raw = environ.get(name, "").strip()
        if not raw:
            continue
        if raw.isdigit():
            return format_time(int(raw))
        try:
            parsed = _dt.datetime.strptime(raw, "%Y-%m-%dT%H:%M:%SZ")
        except ValueError:
            raise UsageError(
                f"{name} must be epoch seconds or YYYY-MM-DDTHH:MM:SSZ"
            ) from None
        return format_time(parsed.replace(tzinfo=_dt.UTC).timestamp())
    return format_time(real_epoch)


def _copy(state: State) -> State:
    return orjson.loads(orjson.dumps(state))  # type: ignore[no-any-return]


class _Session:
    """One mutation in progress: a private copy of the state and its history log."""

    def __init__(self, state: State, verb: str, now: str) -> None:
        self.state = _copy(state)
        self.verb = verb
        self.now = now
        self.appended: list[dict[str, Any]] = []
        self.by_id: dict[str, dict[str, Any]] = {f["id"]: f for f in self.state["findings"]}

    def log(self, finding_id: str | None, changes: dict[str, list[Any]] | None) -> None:
        history = self.state["history"]
        entry: dict[str, Any] = {"seq": len(history) + 1, "at": self.now, "verb": self.verb}
        if finding_id is not None:
            entry["id"] = finding_id
        if changes is not None:
            entry["changes"] = changes
        history.append(entry)
        self.appended.append(entry)

    def update(self, finding: dict[str, Any], **values: Any) -> None:
        """Set fields on a finding and log exactly what changed (no entry if nothing did)."""
        changes = {}
        for key, value in values.items():
            before = finding.get(key)
            if before != value:
                changes[key] = [before, value]
                finding[key] = value
        if changes:
            self.log(finding["id"], changes)

    def create(self, entry: dict[str, Any]) -> None:
        self.state["findings"].append(entry)
        self.by_id[entry["id"]] = entry
        self.log(entry["id"], {"status": [None, entry["status"]]})

    def finding(self, finding_id: object, where: tuple[str, int] | None = None) -> dict[str, Any]:
        source, line = where if where else (None, None)
        if not origins.is_id_token(finding_id):
            raise DataError("missing or malformed finding id", source=source, line=line)
        assert isinstance(finding_id, str)
        found = self.by_id.get(finding_id)
        if found is None:
            raise DataError(f"{finding_id}: unknown finding ID", source=source, line=line)
        return found

    def result(self, output: list[Record] | None = None) -> Result:
        if self.appended:
            self.state["updated_at"] = self.now
        return Result(self.state, self.appended, output or [])


# --------------------------------------------------------------------------- #
# init, add
# --------------------------------------------------------------------------- #
def new_state(context: Mapping[str, Any], now: str) -> Result:
    """A fresh session: no findings, one ``init`` history entry."""
    if not isinstance(context, Mapping):
        raise DataError(f"context must be a JSON object, got {json_type(context)}")
    state: State = {
        "format": FORMAT,
        "version": VERSION,
        "created_at": now,
        "updated_at": now,
        "context": dict(context),
        "findings": [],
        "history": [],
    }
    session = _Session(state, "init", now)
    session.log(None, None)
    return session.result()


def _finding_fields(record: Mapping[str, Any]) -> dict[str, Any]:
    """The finding's own fields: everything but ``kind`` and the state-owned names."""
    return {k: v for k, v in record.items() if k != "kind" and k not in STATE_FIELDS}


def _check_finding(record: Mapping[str, Any], source: str, line: int) -> None:
    kind = record.get("kind", "finding")
    if kind != "finding":
        raise DataError("not a finding record (kind is not \"finding\")", source=source,
                            line=line)
    origin = record.get("origin")
    if not isinstance(origin, str) or not origin.strip():
        raise DataError("finding has no origin (a non-empty string)", source=source, line=line)
    for key in ("merged_origins",):
        value = record.get(key)
        if value is not None and not (
            isinstance(value, list) and all(isinstance(v, str) for v in value)
        ):
            raise DataError(f"{key} must be an array of strings", source=source, line=line)
    fingerprint = record.get("fingerprint")
    if fingerprint is not None and not isinstance(fingerprint, str):
        raise DataError("fingerprint must be a string", source=source, line=line)
    if "fix_induced" in record and not isinstance(record["fix_induced"], bool):
        raise DataError("fix_induced must be true or false", source=source, line=line)


def _new_entry(finding_id: str, fields: dict[str, Any]) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "id": finding_id,
        "status": "open",
        "fix_attempts": 0,
        "frozen": False,
        "in_scope": False,
        "files_touched": [],
        "reason": None,
    }
    entry.update(fields)
    return entry


def add_findings(state: State, records: Iterable[Located], now: str) -> Result:
    """Merge consolidated findings: new IDs enter as ``open``.

    A record whose ID is already present must carry the same ``fingerprint``
    (absent counts as absent on both sides); it refreshes the finding's own
    fields (location, text, merged origins) and never touches status or
    counters.  A different fingerprint under a known ID is an ID collision.
    """
    session = _Session(state, "add", now)
    for source, line, record in records:
        _check_finding(record, source, line)
        finding_id = record.get("id")
        if not origins.is_id_token(finding_id):
            raise DataError(
                "finding has a missing or malformed id (expected e.g. SEC-001)",
                source=source, line=line,
            )
        assert isinstance(finding_id, str)
        fields = _finding_fields(record)
        existing = session.by_id.get(finding_id)
        if existing is None:
            session.create(_new_entry(finding_id, fields))
            continue
        if existing.get("fingerprint") != fields.get("fingerprint"):
            raise DataError(
                f"{finding_id}: ID collision: already used by a finding with a different"
                " fingerprint (IDs are never reused)",
                source=source, line=line,
            )
        _refresh(session, existing, fields)
    return session.result()


def _refresh(session: _Session, existing: dict[str, Any], fields: dict[str, Any]) -> None:
    """Replace a finding's own fields, keeping the state-owned ones and key order stable."""
    changes: dict[str, list[Any]] = {}
    own = [k for k in existing if k not in STATE_FIELDS]
    for key in own:
        if key not in fields:
            changes[key] = [existing.pop(key), None]
    for key, value in fields.items():
        before = existing.get(key)
        if key not in existing or before != value:
            changes[key] = [before, value]
            existing[key] = value
    if changes:
        session.log(existing["id"], changes)


# --------------------------------------------------------------------------- #
# accept
# --------------------------------------------------------------------------- #
@dataclass(frozen=True)
class Selection:
    """Which open findings ``accept`` accepts; every other open finding is dismissed."""

    all: bool = False
    severities: frozenset[str] = frozenset()  # canonical levels
    categories: frozenset[str] = frozenset()  # origin / category names, lower-case
    ids: tuple[str, ...] = ()


def _split(values: Sequence[str]) -> list[str]:
    return [part.strip() for value in values for part in value.split(",") if part.strip()]


def parse_selection(
    state: State, *, all_: bool, severities: Sequence[str], ids: Sequence[str]
) -> Selection:
    """Build a selection from ``--all``, ``--severity`` and ``--ids`` values.

    Severity items are canonical levels or any alias; other items must name a
    category: one of the six reviewers, an origin present in the state, or a
    group (``security``, ``performance``).  Anything else is a usage error,
    so a typo never dismisses everything.
    """
    sev_items = _split(severities)
    id_items = _split(ids)
    if all_ and (sev_items or id_items):
        raise UsageError("accept: --all cannot be combined with --severity or --ids")
    if not (all_ or sev_items or id_items):
        raise UsageError("accept: give --all, --severity LEVELS or --ids IDS")
    known = set(origins.ORIGIN_CODES) | set(origins.ORIGIN_ALIASES)
    for finding in state["findings"]:
        known.update(_categories(finding))
    levels: set[str] = set()
    cats: set[str] = set()
    for item in sev_items:
        level = severity.normalize(item)
        if level is not None:
            levels.add(level)
        elif origins.canonical_origin(item) in known:
            cats.add(origins.canonical_origin(item))
        else:
            shown = f" '{item}'" if origins.is_id_token(item) else ""
            raise UsageError(
                f"accept: --severity item{shown} is neither a severity"
                f" ({', '.join(severity.LADDER)} or an alias) nor a known category"
            )
    for item in id_items:
        if not origins.is_id_token(item):
            raise UsageError("accept: --ids holds a malformed ID")
    return Selection(all_, frozenset(levels), frozenset(cats), tuple(dict.fromkeys(id_items)))


def _categories(finding: Mapping[str, Any]) -> set[str]:
    cats = {origins.canonical_origin(finding["origin"])}
    cats.update(origins.canonical_origin(o) for o in finding.get("merged_origins") or [])
    group = finding.get("group")
    if isinstance(group, str) and group.strip():
        cats.add(group.strip().lower())
    return cats


def finding_severity(finding: Mapping[str, Any]) -> str | None:
    """The canonical severity of a stored finding (its severity, else its group)."""
    return severity.normalize(finding.get("severity")) or severity.normalize(finding.get("group"))


def _selected(finding: Mapping[str, Any], sel: Selection) -> bool:
    if sel.all or finding["id"] in sel.ids:
        return True
    if sel.severities and finding_severity(finding) in sel.severities:
        return True
    return bool(sel.categories & _categories(finding))


def accept(state: State, selection: Selection, now: str) -> Result:
    """Accept the selected open findings and dismiss every other open one."""
    session = _Session(state, "accept", now)
    for finding_id in selection.ids:
        finding = session.finding(finding_id)
        next_status(finding_id, finding["status"], "accept")  # refuses non-open findings
    for finding in session.state["findings"]:
        if finding["status"] != "open":
            continue
        event = "accept" if _selected(finding, selection) else "dismiss"
        session.update(finding, status=next_status(finding["id"], "open", event))
    return session.result()


# --------------------------------------------------------------------------- #
# record-fix
# --------------------------------------------------------------------------- #
FIX_OUTCOMES = ("fixed", "escalated")
VERIFY_OUTCOMES = ("verified", "reopened")


def _string_list(value: object) -> list[str] | None:
    if isinstance(value, list) and all(isinstance(v, str) and v and "\0" not in v for v in value):
        return list(dict.fromkeys(value))
    return None


def record_fix(state: State, records: Iterable[Located], now: str) -> Result:
    """Apply corrector output: each ``{"id", "outcome", "files_touched", "reason"}``."""
    session = _Session(state, "record-fix", now)
    for source, line, record in records:
        finding = session.finding(record.get("id"), (source, line))
        fid = finding["id"]
        outcome = record.get("outcome")
        if outcome not in FIX_OUTCOMES:
            raise DataError(f"{fid}: outcome must be one of: {', '.join(FIX_OUTCOMES)}",
                                source=source, line=line)
        files = _string_list(record.get("files_touched", []))
        if files is None:
            raise DataError(f"{fid}: files_touched must be an array of non-empty paths",
                                source=source, line=line)
        reason = record.get("reason")
        if reason is not None and not isinstance(reason, str):
            raise DataError(f"{fid}: reason must be a string", source=source, line=line)
        event = "fix" if outcome == "fixed" else "escalate"
        try:
            target = next_status(fid, finding["status"], event)
        except DataError as err:
            raise err.located(source, line) from None
        if event == "fix" and finding["fix_attempts"] >= MAX_FIX_ATTEMPTS:
            raise DataError(
                f"{fid}: failed verification {finding['fix_attempts']} times and cannot be"
                " corrected again (run scope to escalate it, or record it escalated)",
                source=source, line=line,
            )
        session.update(finding, status=target, frozen=target == "escalated",
                       files_touched=files, reason=reason)
    return session.result()


# --------------------------------------------------------------------------- #
# scope
# --------------------------------------------------------------------------- #
def scope(state: State, now: str) -> Result:
    """Compute the scoped re-review and enforce the attempt limit.

    Findings ``fixed`` and not yet in scope enter re-review: ``in_scope``
    becomes true and ``fix_attempts`` goes up by one.  Findings ``reopened``
    with ``fix_attempts >= MAX_FIX_ATTEMPTS`` are escalated and frozen.
    The output record lists every finding in scope (new or not), the
    reviewers to re-run (each in-scope finding's origin and merged origins)
    and the files to inspect (the files its latest fix touched, or its own
    file when the fix named none).  Running scope twice changes nothing the
    second time.
    """
    session = _Session(state, "scope", now)
    escalated: list[str] = []
    for finding in session.state["findings"]:
        status = finding["status"]
        if status == "reopened" and finding["fix_attempts"] >= MAX_FIX_ATTEMPTS:
            session.update(
                finding,
                status=next_status(finding["id"], status, "freeze"),
                frozen=True,
                reason=f"failed verification {finding['fix_attempts']} times",
            )
            escalated.append(finding["id"])
        elif status == "fixed" and not finding["in_scope"]:
            session.update(finding, fix_attempts=finding["fix_attempts"] + 1, in_scope=True)
    in_scope = [f for f in session.state["findings"] if f["in_scope"]]
    reviewers: set[str] = set()
    files: dict[str, None] = {}
    for finding in in_scope:
        reviewers.add(finding["origin"])
        reviewers.update(finding.get("merged_origins") or [])
        touched = finding["files_touched"] or (
            [finding["file"]] if isinstance(finding.get("file"), str) and finding["file"] else []
        )
        files.update(dict.fromkeys(touched))
    record = {
        "kind": "scope",
        "reviewers_to_rerun": sorted(reviewers),
        "files_to_inspect": sorted(files),
        "findings_in_scope": [f["id"] for f in in_scope],
        "escalated": escalated,
    }
    return session.result([record])


# --------------------------------------------------------------------------- #
# verify
# --------------------------------------------------------------------------- #
def verify(state: State, records: Iterable[Located], now: str) -> Result:
    """Apply re-review output: outcomes for in-scope findings, and fix-induced findings.

    ``{"id", "outcome": "verified"|"reopened"}`` settles a finding in scope.
    A finding record with ``"fix_induced": true`` and no ``id`` is appended
    as ``open`` with a fresh ID continuing its origin's numbering; the
    result's output holds those new findings.
    """
    session = _Session(state, "verify", now)
    induced: list[Record] = []
    for source, line, record in records:
        if "outcome" in record:
            finding = session.finding(record.get("id"), (source, line))
            fid = finding["id"]
            outcome = record["outcome"]
            if outcome not in VERIFY_OUTCOMES:
                raise DataError(
                    f"{fid}: outcome must be one of: {', '.join(VERIFY_OUTCOMES)}",
                    source=source, line=line,
                )
            if not finding["in_scope"]:
                raise DataError(
                    f"{fid}: not in re-review scope (it is {finding['status']}; run scope"
                    " after record-fix)",
                    source=source, line=line,
                )
            event = "verify" if outcome == "verified" else "reopen"
            try:
                target = next_status(fid, finding["status"], event)
            except DataError as err:
                raise err.located(source, line) from None
            session.update(finding, status=target, in_scope=False)
        elif record.get("fix_induced") is True:
            _check_finding(record, source, line)
            if "id" in record:
                raise DataError(
                    "a fix-induced finding must not carry an id (the state assigns one;"
                    " use add for findings with IDs)",
                    source=source, line=line,
                )
            known = origins.known_codes(session.by_id.values())
            code = origins.origin_code(record["origin"], known)
            fid = origins.format_id(code, origins.next_number(session.by_id, code))
            entry = _new_entry(fid, _finding_fields(record))
            session.create(entry)
            induced.append({"kind": "finding", **entry})
        else:
            raise DataError(
                "neither a verify outcome (id, outcome) nor a fix-induced finding"
                " (fix_induced: true)",
                source=source, line=line,
            )
    return session.result(induced)


# --------------------------------------------------------------------------- #
# Reading: status, consistency.
# --------------------------------------------------------------------------- #
def summarize(state: State) -> Record:
    """The machine summary ``status --json`` prints."""
    findings = state["findings"]
    counts = {s: 0 for s in STATUSES}
    for f in findings:
        counts[f["status"]] += 1

    def ids(pred: Any) -> list[str]:
        return [f["id"] for f in findings if pred(f)]

    pending = ids(lambda f: f["status"] not in TERMINAL)
    return {
        "kind": "review-status",
        "complete": not pending,
        "total": len(findings),
        "counts": counts,
        "pending": pending,
        "to_accept": ids(lambda f: f["status"] == "open"),
        "to_fix": ids(lambda f: f["status"] == "accepted" or (
            f["status"] == "reopened" and f["fix_attempts"] < MAX_FIX_ATTEMPTS)),
        "to_scope": ids(lambda f: f["status"] == "fixed" and not f["in_scope"]),
        "in_scope": ids(lambda f: f["in_scope"]),
        "to_escalate": ids(lambda f: f["status"] == "reopened"
                           and f["fix_attempts"] >= MAX_FIX_ATTEMPTS),
        "frozen": ids(lambda f: f["frozen"]),
        "fix_induced": ids(lambda f: f.get("fix_induced") is True),
    }


def render_status(summary: Mapping[str, Any]) -> str:
    """The human summary ``status`` prints."""
    counts = summary["counts"]
    parts = ", ".join(f"{n} {s}" for s, n in counts.items() if n)
    lines = [f"findings: {summary['total']}" + (f" ({parts})" if parts else "")]
    steps = (
        ("to_accept", "waiting for accept"),
        ("to_fix", "waiting for a fix (record-fix)"),
        ("to_scope", "fixed, waiting for scope"),
        ("in_scope", "in re-review (verify)"),
        ("to_escalate", "out of attempts, escalated by the next scope"),
        ("frozen", "escalated (frozen)"),
        ("fix_induced", "fix-induced"),
    )
    for key, label in steps:
        if summary[key]:
            lines.append(f"{label}: {' '.join(summary[key])}")
    if summary["complete"]:
        lines.append("complete: every finding is verified, dismissed or escalated")
    else:
        lines.append(f"work remains: {len(summary['pending'])} finding(s) not terminal")
    return "\n".join(lines) + "\n"


def check_consistency(state: State) -> str | None:
    """The invariants a schema cannot say; a description of the first broken one, or None."""
    seen: set[str] = set()
    for i, f in enumerate(state["findings"]):
        if f["id"] in seen:
            return f"findings/{i}: duplicate id"
        seen.add(f["id"])
        if f["frozen"] != (f["status"] == "escalated"):
            return f"findings/{i}: frozen must be true exactly when escalated"
        if f["in_scope"] and f["status"] != "fixed":
            return f"findings/{i}: only a fixed finding can be in scope"
    for i, entry in enumerate(state["history"]):
        if entry["seq"] != i + 1:
            return f"history/{i}: seq out of order"
    return None
