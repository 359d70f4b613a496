"""The council report by finding: agreement is two or more reviewers naming the same problem.

The default synthesis.  Its input is the consolidated findings (one grouping,
the same the json, SARIF and rdjsonl outputs use) and the verdict records.  A
group cited by two or more reviewers is Agreement whatever their overall
verdicts; each member is quoted with its reviewer's verdict and its own
severity; groups whose citers voted differently are counted as verdict
conflicts in the headline and summary instead of being demoted.  A group from
one reviewer is Disagreement.  The headline ends with one recommendation
(:func:`recommendation`; the rule is in docs/consolidate.md).

The upstream report (agreement by exact location and equal verdicts) stays in
:mod:`.synthesis` for ``--upstream``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from council_filters.base import severity as sev
from council_filters.base.vocab import SLOTS, VOTES
from council_filters.consolidate import synthesis
from council_filters.consolidate.evidence import UNVERIFIED
from council_filters.consolidate.finding import (
    Checks,
    Consolidated,
    Finding,
    member_record,
    status_text,
)
from council_filters.consolidate.render import mdquote, review_md
from council_filters.consolidate.render.mdquote import inline

Record = dict[str, Any]


@dataclass
class Group:
    """One consolidated finding with its members' reviewers."""

    item: Consolidated
    members: list[tuple[synthesis.Reviewer, Finding]]

    @property
    def severity(self) -> str | None:
        return self.item.severity

    @property
    def citers(self) -> list[synthesis.Reviewer]:
        """The reviewers whose claims count: a member the code contradicts (unverified)
        is shown but does not count towards agreement."""
        seen: dict[str, synthesis.Reviewer] = {}
        for r, f in self.members:
            if f.status != UNVERIFIED:
                seen.setdefault(r.slot, r)
        return list(seen.values())

    @property
    def conflict(self) -> bool:
        return len({r.verdict for r in self.citers if r.votes}) > 1

    def where(self) -> str:
        """``path:first-last`` over the lines of the members in the survivor's file
        (``path`` alone without a line); members elsewhere are its related places."""
        s = self.item.survivor
        if not s.file:
            return ""
        lines = sorted({f.line for _, f in self.members if f.line and f.file == s.file})
        if not lines:
            return inline(s.file)
        span = f"{lines[0]}" if len(lines) == 1 else f"{lines[0]}-{lines[-1]}"
        return f"{inline(s.file)}:{span}"

    def also(self) -> list[str]:
        """The report's line for the other places the finding is cited at (none without)."""
        related = self.item.related
        if not related:
            return []
        return ["  - Also at: " + ", ".join(inline(p.text()) for p in related)]

    def sort_key(self) -> tuple[Any, ...]:
        s = self.item.survivor
        return (sev.rank(self.severity or ""), s.file or "\U0010ffff", s.line or 0, s.key)

    def record(self) -> Record:
        return {
            "id": self.item.id,
            "file": self.item.survivor.file,
            "line": self.item.survivor.line,
            "severity": self.severity,
            "reviewers": [r.slot for r in self.citers],
            "verdicts": {r.slot: r.verdict for r in self.citers},
            "conflict": self.conflict,
            "members": [dict(member_record(f), reviewer=r.slot) for r, f in self.members],
            **({"related": [p.record() for p in self.item.related]} if self.item.related else {}),
            **({"baseline": self.item.baseline} if self.item.baseline else {}),
        }


def _rated(severity: str | None) -> str:
    return severity or "unrated"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def recommendation(reviewers: Sequence[synthesis.Reviewer], agreed: Sequence[Group]) -> str:
    """One overall recommendation and its reason (docs/consolidate.md, "Recommendation").

    1. No counted verdict: ``NO DECISION``.
    2. More than half of the counted verdicts are REJECT: ``REJECT``.
    3. A critical or medium finding agreed by 2+ reviewers, or APPROVE not being
       more than half of the counted verdicts: ``REVISE``.
    4. Otherwise ``APPROVE``.
    """
    voters = [r for r in reviewers if r.votes]
    if not voters:
        return "NO DECISION — no reviewer cast a counted verdict"
    n = {v: sum(1 for r in voters if r.verdict == v) for v in VOTES}
    total = len(voters)
    if n["REJECT"] * 2 > total:
        return f"REJECT — {n['REJECT']} of {total} counted reviewers REJECT"
    for level in ("critical", "medium"):
        hits = [g for g in agreed if g.severity == level]
        if hits:
            return f"REVISE — {_agreed_count(hits, level)}"
    if n["APPROVE"] * 2 <= total:
        return (f"REVISE — {n['APPROVE']} of {total} counted reviewers APPROVE "
                f"({n['REVISE']} REVISE, {n['REJECT']} REJECT)")
    return f"APPROVE — {n['APPROVE']} of {total} counted reviewers APPROVE, no agreed " \
        "critical or medium finding"


def _agreed_count(hits: Sequence[Group], level: str) -> str:
    """What agreed findings of one level count, each by its own citers (never a union):
    ``1 critical finding agreed by 3 reviewers``, ``2 critical findings, agreed by 2 and 3
    reviewers``."""
    if len(hits) == 1:
        return f"1 {level} finding agreed by {len(hits[0].citers)} reviewers"
    sizes = sorted(len(g.citers) for g in hits)
    if len(set(sizes)) == 1:
        return f"{len(hits)} {level} findings, each agreed by {sizes[0]} reviewers"
    shown = ", ".join(str(n) for n in sizes[:-1]) + f" and {sizes[-1]}"
    return f"{len(hits)} {level} findings, agreed by {shown} reviewers"


@dataclass
class GroupedSynthesis(synthesis.Synthesis):
    """The synthesis with Agreement and Disagreement by finding."""

    agreed: list[Group] = field(default_factory=list)
    single: list[Group] = field(default_factory=list)
    unverified: list[Group] = field(default_factory=list)
    checks: Checks = field(default_factory=Checks)
    pointer_once = True
    quoted_structure = True

    def conflicts_count(self) -> int:
        return sum(1 for g in self.agreed if g.conflict)

    def headline_text(self) -> str:
        if self.mode == "question":
            return self.answers_headline()
        text = synthesis.headline(self.reviewers, plain=True)
        k = self.conflicts_count()
        if k:
            text += f"; {_plural(k, 'agreed finding')} drew differing verdicts"
        text += "".join(f"; {x}" for x in self.checks.sentences())
        return f"{text}. Recommendation: {recommendation(self.reviewers, self.agreed)}"

    # -- a question: answers, not verdicts ----------------------------------------
    def answers_headline(self) -> str:
        answered = [r for r in self.reviewers if _answer(r)]
        total = len(self.reviewers)
        text = f"{len(answered)} of {total} {'reviewer' if total == 1 else 'reviewers'} answered"
        missing = [r for r in self.reviewers if not _answer(r)]
        if missing:
            text += " (" + ", ".join(
                f"{r.name} {synthesis.failure_phrase(r) if not r.votes else 'gave no summary'}"
                for r in missing) + ")"
        if self.agreed:
            text += f"; {_plural(len(self.agreed), 'point')} made by two or more of them"
        return text

    def render_answers(self, report_path: str) -> str:
        out = [
            f"## Council Answers — {self.mode}: {self.slug} — {self.date}",
            "",
            synthesis.ADVISORY,
            "",
            "### Headline",
            self.answers_headline(),
            *synthesis.pack_lines(self.reviewers),
            "",
            "### Answers",
        ]
        for r in self.reviewers:
            answer = _answer(r)
            out += ["", f"**{r.name}**"]
            if answer:
                out.append(mdquote.blockquote(answer))
            else:
                out.append(f"- No answer ({synthesis.failure_phrase(r)})" if not r.votes
                           else "- No summary given")
        out += ["", "### Where they agree"]
        for g in self.agreed:
            names = ", ".join(r.name for r in g.citers)
            where = g.where()
            out.append(f"- {where + ' — ' if where else ''}{inline(g.item.survivor.title)}"
                       f" ({names})")
            out.extend(g.also())
            out.extend(f'  - {r.name}: "{inline(f.title)}"' for r, f in g.members)
        if not self.agreed:
            out.append("- No point was made by two or more reviewers")
        out += ["", "### Points made by one reviewer"]
        single = []
        for g in self.single:
            r, f = g.members[0]
            where = g.where()
            single.append(f'- {where + " — " if where else ""}{r.name} only: "{inline(f.title)}"')
            single.extend(g.also())
        out.extend(single or ["- None"])
        out += ["", f"Full reviewer outputs: see {report_path}"]
        return "\n".join(out)

    def render(self, report_path: str) -> str:
        if self.mode == "question":
            return self.render_answers(report_path)
        out = [
            f"## Council Report — {self.mode}: {self.slug} — {self.date}",
            "",
            synthesis.ADVISORY,
            "",
            "### Headline",
            self.headline_text(),
            *synthesis.pack_lines(self.reviewers),
            "",
            "### Agreement (cited by 2+ reviewers)",
        ]
        for g in self.agreed:
            names = ", ".join(r.name for r in g.citers)
            title = inline(g.item.survivor.title)
            out.append(f"- [{_rated(g.severity)}] {g.where()} — {title} ({names})")
            out.extend(g.also())
            out.extend(_quotes(g))
            if g.conflict:
                verdicts = ", ".join(f"{r.name} {r.verdict}" for r in g.citers)
                out.append(f"  - Verdicts differ: {verdicts}")
        if not self.agreed:
            out.append("- None")
        out += ["", "### Disagreement (unique to one reviewer)"]
        dis: list[str] = []
        for g in self.single:
            r, f = g.members[0]
            where = g.where()
            lead = f"- [{_rated(g.severity)}] {where + ' — ' if where else ''}"
            dis.append(f'{lead}{r.name} only ({r.verdict}): "{inline(f.title)}"{_tag(f)}')
            dis.extend(g.also())
            for r2, f2 in g.members[1:]:  # duplicates, or claims that did not check out
                dis.append(f'  - {r2.name} ({r2.verdict}): "{inline(f2.title)}"{_tag(f2)}')
        dis.extend(self.unknown_lines())
        out.extend(dis or ["- None"])
        out.extend(self.check_lines())
        out.extend(self.closing(report_path))
        return "\n".join(out)

    def check_lines(self) -> list[str]:
        """The sections for claims the code contradicts, what --filter-mode left out, and
        what is gone since the baseline."""
        out: list[str] = []
        c = self.checks
        if c.checked:
            out += ["", "### Claims that did not check out (not counted)"]
            for g in self.unverified:
                names = ", ".join(r.name for r, _ in g.members)
                title = inline(g.item.survivor.title)
                out.append(f"- [{_rated(g.severity)}] {g.where()} — {title} ({names})")
                out.extend(g.also())
                out.extend(_quotes(g))
            if not self.unverified:
                out.append("- None")
        if c.filtered:
            out += ["", f"### Left out by --filter-mode {c.filter_mode}"]
            for item in c.filtered:
                s = item.survivor
                at = f"{inline(s.file)}:{s.line}" if s.file and s.line else inline(s.file or "")
                out.append(f"- {item.id} {at + ' — ' if at else ''}{inline(s.title)}"
                           f" ({s.change or 'no file'})")
        if c.baseline is not None:
            out += ["", "### Fixed since the baseline"]
            out += [review_md.fixed_line(e) for e in c.fixed] or ["- None"]
        return out

    def summary(self) -> str:
        s1 = self.counted_sentence()
        if self.agreed:
            top = ", ".join(f"{_rated(g.severity)} at {g.where()}" for g in self.agreed[:3])
            k = len(self.agreed)
            s2 = (f"{_plural(k, 'finding')} {'was' if k == 1 else 'were'} cited by two or "
                  f"more reviewers ({self.conflicts_count()} with differing verdicts); "
                  f"most severe: {top}.")
        else:
            s2 = "No finding was cited by two or more reviewers."
        u = len(self.single)
        s3 = f"{_plural(u, 'finding')} came from a single reviewer."
        s4 = f"Recommendation: {recommendation(self.reviewers, self.agreed)}."
        return " ".join((s1, s2, s3, s4))

    def json_section(self) -> Record:
        return {
            "headline": self.headline_text(),
            "recommendation": recommendation(self.reviewers, self.agreed),
            "agreement": [g.record() for g in self.agreed],
            "disagreement": [g.record() for g in self.single],
            "conflicts": [g.record() for g in self.agreed if g.conflict],
            **({"unverified": [g.record() for g in self.unverified]}
               if self.checks.checked else {}),
        }


def _answer(r: synthesis.Reviewer) -> str:
    """A reviewer's answer to a question: its ``Summary:`` text, else nothing."""
    summary = (r.record or {}).get("summary")
    return summary.strip() if isinstance(summary, str) else ""


def _tag(f: Finding) -> str:
    status = status_text(f)
    return f" [{inline(status)}]" if status else ""


def _quotes(g: Group) -> list[str]:
    out = []
    for r, f in g.members:
        at = f" at {inline(f.file)}:{f.line}" if f.file and f.line else ""
        out.append(f'  - {r.name} ({r.verdict}), {_rated(f.severity)}{at}: "{inline(f.title)}"'
                   f"{_tag(f)}")
    return out


def build(
    records: Sequence[Record], items: Sequence[Consolidated], *, mode: str, slug: str,
    date: str, slots: Sequence[str] = SLOTS, checks: Checks | None = None,
) -> GroupedSynthesis:
    """The grouped synthesis from verdict records and the consolidated findings."""
    findings = [m for c in items for m in c.members]
    base = synthesis.build(records, findings, mode=mode, slug=slug, date=date, slots=slots)
    index = {r.slot: r for r in base.reviewers}
    order = {slot: i for i, slot in enumerate(synthesis.slot_order(slots, list(index)))}
    extra: dict[str, synthesis.Reviewer] = {}

    def reviewer_of(f: Finding) -> synthesis.Reviewer:
        slot = f.reviewer or f.origin
        if slot in index:
            return index[slot]
        return extra.setdefault(slot, synthesis.Reviewer(slot, "N/A", None))

    agreed: list[Group] = []
    single: list[Group] = []
    unverified: list[Group] = []
    checks = checks or Checks()
    for c in items:
        members = [(reviewer_of(f), f) for f in c.members]
        members.sort(key=lambda p: (p[1].status == UNVERIFIED,
                                    order.get(p[0].slot, len(order)), p[0].slot,
                                    sev.rank(p[1].severity or ""), p[1].key))
        g = Group(c, members)
        if checks.checked and not c.checked_out:
            unverified.append(g)
        else:
            (agreed if len(g.citers) >= 2 else single).append(g)
    unverified.sort(key=Group.sort_key)
    agreed.sort(key=Group.sort_key)
    single.sort(key=lambda g: (order.get(g.members[0][0].slot, len(order)),
                               g.members[0][0].slot, *g.sort_key()))
    return GroupedSynthesis(base.mode, base.slug, base.date, base.reviewers, base.agreement,
                            base.conflicts, base.singles, agreed, single, unverified, checks)
