"""ADR1xx: the structure of one record (title, status, sections, id, file name, dates).

Rules skip records that could not be read (ADR001 already reports them). This module holds the
ADR1xx registry; status and section presence (ADR102, ADR104) live in
:mod:`adrguard.rules.presence`, the status vocabulary (ADR103) in :mod:`adrguard.rules.statuses`,
dates and front matter (ADR109, ADR110) in :mod:`adrguard.rules.fields`, numbers and names
(ADR106-ADR108, ADR111) in :mod:`adrguard.rules.numbering`.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator

from adrguard.core.conventions.log import MIN_LEARN
from adrguard.core.conventions.sections import Requirement
from adrguard.core.findings import Finding, Severity
from adrguard.core.model import Decision, Location, Status
from adrguard.core.parse import status as st
from adrguard.rules.base import BaseRule, RuleContext, RuleMeta
from adrguard.rules.fields import FrontMatterSchema, InvalidDate
from adrguard.rules.numbering import DuplicateId, FilenamePattern, IdMismatch, NumberingGap
from adrguard.rules.presence import MissingSection, MissingStatus
from adrguard.rules.statuses import UnknownStatus, suggest_status


def _readable(ctx: RuleContext) -> Iterator[Decision]:
    return (d for d in ctx.corpus.decisions if d.is_readable)


class MissingTitle(BaseRule):
    """The record has no title: no H1 heading and no `title` in its front matter.

    **Why**: the title is what indexes, link texts and reviewers show; a record without one is
    listed as "(untitled)". A template's placeholder left as the title (`# {short title of
    solved problem}`, `# Title (a description of the decision)`) is no title either.

    **Bad**:

    ```markdown
    ## Status

    Accepted
    ```

    **Learns**: whether the log titles its records. In a log of three records or more where
    fewer than half of them write a title in any form (an RFC process whose file names are the
    titles), or where three or more records and a tenth of the log leave it out (a second
    template that starts at `## Summary`), a missing title is the log's habit: one **note** for
    the log, not an error per record. One or two untitled records in a titled log are errors.
    Sign-posts are left out of the count.

    **Good**:

    ```markdown
    # 7. Use PostgreSQL for the order service

    ## Status

    Accepted
    ```
    """

    meta = RuleMeta(
        "ADR101", "missing-title", "no H1 and no `title` in front matter", Severity.ERROR
    )

    def check(self, ctx: RuleContext) -> Iterator[Finding]:
        untitled: dict[str, list[Decision]] = {}  # root -> records with no title by habit
        habit: dict[str, bool] = {}  # root -> untitled by habit, worked out once per root
        for d in _readable(ctx):
            if d.title is not None:
                continue
            if d.title_raw is None:
                if d.root not in habit:
                    habit[d.root] = _untitled_by_habit(ctx, d.root)
                if habit[d.root]:
                    untitled.setdefault(d.root, []).append(d)
                    continue
                yield self.finding(
                    "the record has no title: add an H1 (`# 7. Short title`) or `title:` "
                    "in the front matter",
                    Location(d.path, 1),
                    d,
                )
            else:
                yield self.finding(
                    f"the title is still the template's placeholder {st.quote(d.title_raw)}: "
                    "write the record's own title",
                    Location(d.path, d.title_line),
                    d,
                )
        for root, records in sorted(untitled.items()):
            log = ctx.log(root)
            first = records[0]
            yield self.finding(
                f"{len(records)} of {len(log.substantive)} records in {log.label} have no title "
                "(no H1, no `title:`): the log names these records by their file names, so they "
                "are listed by name; add titles to show them in indexes and link texts",
                Location(first.path, 1),
                first,
                related=[d.id for d in records[1:]],
                severity=Severity.NOTE,
            )


def _untitled_by_habit(ctx: RuleContext, root: str) -> bool:
    """Whether a log leaves its records untitled by habit: in a log of MIN_LEARN records or
    more, fewer than half of them (sign-posts left out) write a title in any form. A heading
    that opens UNTITLED_HABIT records or more with the same words (`# Summary`) is a section
    the log starts with, not their titles."""
    log = ctx.log(root)
    records = log.substantive
    shared = Counter(d.title.casefold() for d in records if d.title)
    titled = sum(
        1 for d in records
        if d.title_raw is not None
        and not (d.title and shared[d.title.casefold()] >= UNTITLED_HABIT)
    )
    untitled = len(records) - titled
    if len(records) < MIN_LEARN:
        return False
    return 2 * titled < len(records) or (
        untitled >= UNTITLED_HABIT and UNTITLED_SHARE * untitled >= len(records)
    )


UNTITLED_HABIT = 3  # untitled records that make a habit of a log ...
UNTITLED_SHARE = 10  # ... when they are a tenth of it or more


class EmptySection(BaseRule):
    """A required section is present but has no content.

    **Why**: an empty "Consequences" heading is a template left unfinished; it passes ADR104 but
    tells the reader nothing. Text in sub-sections counts as content; HTML comments do not.
    Off by default: enable it with `select = ["ADR105"]` or the `strict` profile.

    **Bad**:

    ```markdown
    ## Consequences

    ## Links
    ```

    **Good**:

    ```markdown
    ## Consequences

    Deployments need a migration step.
    ```
    """

    meta = RuleMeta(
        "ADR105", "empty-section", "a required section has no content", Severity.WARNING,
        enabled_by_default=False,
    )

    def check(self, ctx: RuleContext) -> Iterator[Finding]:
        parsed: dict[str, tuple[Requirement, ...]] = {}
        for d in _readable(ctx):
            required = parsed.get(d.format)
            if required is None:
                entries = ctx.options.required_sections.get(d.format, ())
                required = parsed[d.format] = tuple(Requirement.parse(e) for e in entries)
            for i, s in enumerate(d.sections):
                if any(r.carried_by(s.title) for r in required) and _is_empty(d, i):
                    yield self.finding(
                        f"section {s.title!r} is empty: write what it asks for, or remove the "
                        "heading if it does not apply",
                        Location(d.path, s.line),
                        d,
                    )


def _is_empty(d: Decision, index: int) -> bool:
    level = d.sections[index].level
    for s in d.sections[index:]:
        if s is not d.sections[index] and s.level <= level:
            break
        if re.sub(r"<!--.*?-->", "", s.text, flags=re.DOTALL).strip():
            return False
    return True


class ConflictingStatus(BaseRule):
    """The record states two different statuses.

    **Why**: when front matter says `accepted` and the Status section says `Superseded`, tools and
    readers disagree about whether the decision is in force. State the status once, or keep every
    statement in step.

    **Bad**:

    ```markdown
    ---
    status: accepted
    ---
    # 3. Use REST

    ## Status

    Superseded by [ADR-0009](0009-use-grpc.md)
    ```

    **Good**: front matter `status: superseded` and the same Status section.
    """

    meta = RuleMeta(
        "ADR112", "conflicting-status",
        "the record states two different statuses (front matter vs body, two status lines)",
        Severity.WARNING,
    )

    def check(self, ctx: RuleContext) -> Iterator[Finding]:
        for d in _readable(ctx):
            known = [s for s in d.statuses if s.status is not Status.UNKNOWN]
            if len({s.status for s in known}) < 2:
                continue
            first = known[0]
            conflict = next(s for s in known if s.status != first.status)
            yield self.finding(
                f"status {st.quote(conflict.raw)} ({conflict.status.value}, {conflict.source}) "
                f"contradicts {st.quote(first.raw)} ({first.status.value}, {first.source}, line "
                f"{first.line}): state "
                "one status, or make every statement agree",
                Location(d.path, conflict.line),
                d,
            )


RULES: tuple[type[BaseRule], ...] = (
    MissingTitle,
    MissingStatus,
    UnknownStatus,
    MissingSection,
    EmptySection,
    DuplicateId,
    FilenamePattern,
    IdMismatch,
    InvalidDate,
    FrontMatterSchema,
    NumberingGap,
    ConflictingStatus,
)

__all__ = ["RULES", "suggest_status"]
