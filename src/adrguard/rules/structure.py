"""ADR1xx: the structure of one record (title, status, sections, id, file name, dates).

Rules skip records that could not be read (ADR001 already reports them). This module holds the
ADR1xx registry; status and section presence (ADR102, ADR104) live in
:mod:`adrguard.rules.presence`, dates and front matter (ADR109, ADR110) in
:mod:`adrguard.rules.fields`, numbers and names (ADR106-ADR108, ADR111) in
:mod:`adrguard.rules.numbering`.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterator

from adrguard.core.findings import Finding, Severity
from adrguard.core.model import Decision, Location, Status
from adrguard.core.sections import Requirement
from adrguard.rules.base import BaseRule, RuleContext, RuleMeta
from adrguard.rules.fields import FrontMatterSchema, InvalidDate
from adrguard.rules.numbering import DuplicateId, FilenamePattern, IdMismatch, NumberingGap
from adrguard.rules.presence import MissingSection, MissingStatus


def _readable(ctx: RuleContext) -> Iterator[Decision]:
    return (d for d in ctx.corpus.decisions if d.is_readable)


class MissingTitle(BaseRule):
    """The record has no title: no H1 heading and no `title` in its front matter.

    **Why**: the title is what indexes, link texts and reviewers show; a record without one is
    listed as "(untitled)".

    **Bad**:

    ```markdown
    ## Status

    Accepted
    ```

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
        for d in _readable(ctx):
            if d.title is None and d.title_raw is None:
                yield self.finding(
                    "the record has no title: add an H1 (`# 7. Short title`) or `title:` "
                    "in the front matter",
                    Location(d.path, 1),
                    d,
                )


class UnknownStatus(BaseRule):
    """The status is not a word of the status vocabulary.

    **Why**: tools and readers sort records by status; a status adrguard cannot map to proposed,
    accepted, rejected, deprecated, superseded or draft is treated as unknown everywhere
    (supersession checks, indexes). Add your own words with the `statuses` config key
    (`statuses = { "on hold" = "proposed" }`).

    **Bad**: `Status: Acepted` or `Status: Parked`.

    **Good**: `Status: Accepted`, or `Parked` mapped with `statuses = { parked = "proposed" }`.
    """

    meta = RuleMeta(
        "ADR103",
        "unknown-status",
        "status not in the vocabulary (configurable); suggests the closest word",
        Severity.WARNING,
    )

    def check(self, ctx: RuleContext) -> Iterator[Finding]:
        synonyms = dict(ctx.options.status_synonyms)
        for s in Status:
            if s is not Status.UNKNOWN:
                synonyms.setdefault(s.value, s.value)
        for d in _readable(ctx):
            if d.status is not Status.UNKNOWN:
                continue
            raw = (d.status_raw or "").strip()
            hint = suggest_status(raw, synonyms)
            yield self.finding(
                f"status {raw!r} is not in the status vocabulary{hint}: use proposed, accepted, "
                "rejected, deprecated, superseded or draft, or map the word with `statuses` in "
                "the config",
                Location(d.path, d.status_line),
                d,
            )


def suggest_status(raw: str, synonyms: dict[str, str]) -> str:
    """`` (did you mean 'superseded'?)`` for the vocabulary word closest to ``raw``, or ``""``."""
    words = re.findall(r"[^\W\d_]+(?:[ -][^\W\d_]+)*", raw.casefold())
    candidates = [raw.casefold(), *words, *(w.split()[0] for w in words)]
    for candidate in candidates:
        match = difflib.get_close_matches(candidate, list(synonyms), n=1, cutoff=0.75)
        if match:
            return f" (did you mean {synonyms[match[0]]!r}?)"
    return ""


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
                f"status {conflict.raw!r} ({conflict.status.value}, {conflict.source}) contradicts "
                f"{first.raw!r} ({first.status.value}, {first.source}, line {first.line}): state "
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
