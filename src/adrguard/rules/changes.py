"""ADR5xx: change-aware rules (``check --base REF``) and the impact manifest.

ADR501 and ADR505–ADR508 need a change set (``needs_changes``); ADR509 needs the records other
refs add (``check --against``). ADR502–ADR504 check the impact
manifest and front-matter mappings and run on every ``check``: the manifest reaches them as
raw bytes in ``Corpus.other_texts`` under its repo-relative path (config ``impact.manifest``,
default ``.adrguard-impact.json``). A manifest that is not valid stops the run (exit 2), like a
broken config file.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from adrguard.core.findings import Finding, Severity
from adrguard.core.graph import graph
from adrguard.core.model import INACTIVE_STATUSES, Corpus, Decision, Location
from adrguard.core.options import manifest_path
from adrguard.core.wording import decision_name
from adrguard.rules.base import BaseRule, RuleContext, RuleMeta

if TYPE_CHECKING:
    from adrguard.core.impact.analysis import Impact
    from adrguard.core.impact.mapping import Manifest, MappingEntry
    from adrguard.core.options import Options

_LIST_LIMIT = 5


def manifest_of(corpus: Corpus, options: Options) -> Manifest | None:
    """:func:`adrguard.core.impact.mapping.manifest_of`; a log without an impact manifest
    (most logs) never imports the manifest's module."""
    if corpus.other_texts.get(manifest_path(options)) is None:
        return None
    from adrguard.core.impact.mapping import manifest_of as parsed

    return parsed(corpus, options)


def _impact(ctx: RuleContext) -> Impact:
    """The change set's impact, analysed once per run for ADR501 and ADR508."""

    def analysed() -> Impact:
        from adrguard.core.impact.analysis import analyse, configured_statuses

        assert ctx.changes is not None
        manifest = manifest_of(ctx.corpus, ctx.options)
        return analyse(ctx.corpus, ctx.changes, manifest, configured_statuses(ctx.options))

    return ctx.derived("impact", analysed)


def _mapped(ctx: RuleContext) -> list[tuple[Location, MappingEntry, tuple[Decision, ...]]]:
    """(where, mapping, the records its decision names) for each mapping of the impact
    manifest; looked up once per run and shared by ADR502 and ADR503."""

    def resolved() -> list[tuple[Location, MappingEntry, tuple[Decision, ...]]]:
        manifest = manifest_of(ctx.corpus, ctx.options)
        if manifest is None:
            return []
        from adrguard.core.impact.analysis import resolve

        return [(Location(manifest.path, m.line, m.column), m, resolve(ctx.corpus, m.decision))
                for m in manifest.mappings]

    return ctx.derived("impact-decisions", resolved)


def naming_problem(named: str, hits: Sequence[Decision], fix: str) -> str | None:
    """What is wrong with a manifest entry that names a decision (``named``: ``mapping names
    decision 'ADR-0042'``): it matches no record (``fix`` says what to do then) or several.
    None when it names one. Shared by the impact (ADR502) and fitness (ADR702) manifests."""
    if not hits:
        return f"{named}, which no record has: {fix}"
    if len(hits) > 1:
        paths = ", ".join(d.path for d in hits)
        return f"{named}, which matches several records ({paths}): name the record by its path"
    return None


def inactive_named(
    corpus: Corpus, hits: Sequence[Decision]
) -> tuple[Decision, str, Decision | None] | None:
    """(the record, its status, its successor in force) when a manifest entry names one
    inactive record, else None. Shared by the impact (ADR503) and fitness (ADR703) manifests."""
    if len(hits) != 1 or hits[0].status not in INACTIVE_STATUSES:
        return None
    target = hits[0]
    status = target.status.value if target.status else "inactive"
    return target, status, graph.build(corpus).current_successor(target)


def _files(paths: tuple[str, ...]) -> str:
    shown = ", ".join(paths[:_LIST_LIMIT])
    return shown + (f" and {len(paths) - _LIST_LIMIT} more" if len(paths) > _LIST_LIMIT else "")


class GovernedChange(BaseRule):
    """A changed file is governed by an accepted decision: review the change against it.

    **Why**: reviewers rarely know every decision that constrains the code they read. Decisions
    govern paths through front matter (`affected-paths`, `affected-components`, `scope`) or the
    impact manifest `.adrguard-impact.json`. The finding means "review this decision", never
    "this change violates it". `adrguard impact --base REF` shows the same as a report.

    **Bad**: a change to `src/billing/invoice.py` while `0007-money-as-integers.md` says
    `affected-paths: ["src/billing/**"]`: ADR501 names ADR-0007 for review.

    **Good**: the same change, reviewed with ADR-0007 in mind (the note stays a note), or a
    change outside every governed path.
    """

    meta = RuleMeta(
        code="ADR501",
        name="governed-change",
        summary="a changed file is governed by an accepted decision: review it",
        default_severity=Severity.NOTE,
        needs_changes=True,
        log_level=True,
    )

    def check(self, ctx: RuleContext) -> Iterator[Finding]:
        if ctx.changes is None:
            return
        for a in _impact(ctx).affected:
            noun = "file" if len(a.files) == 1 else "files"
            yield self.finding(
                f"{len(a.files)} changed {noun} governed by {decision_name(a.decision)} "
                f"({_files(a.files)}): review the change against this decision",
                a.decision.location,
                a.decision,
            )


class MappingUnknownDecision(BaseRule):
    """The impact manifest maps paths to a decision that does not exist.

    **Why**: a mapping to `ADR-0042` when no record has that id governs nothing, so changes to
    those paths silently lose their reviewer hint. Decisions are named by id (`ADR-0007`), by a
    number (`7`) or by the record's path; a name that matches several records is reported too.

    **Bad**: `{"decision": "ADR-0042", "paths": ["src/api/**"]}` with no record 42.

    **Good**: `{"decision": "ADR-0012", "paths": ["src/api/**"]}` naming an existing record.
    """

    meta = RuleMeta(
        code="ADR502",
        name="mapping-unknown-decision",
        summary="the impact manifest maps paths to a decision that does not exist",
        default_severity=Severity.ERROR,
        log_level=True,
    )

    def check(self, ctx: RuleContext) -> Iterator[Finding]:
        for where, m, hits in _mapped(ctx):
            problem = naming_problem(f"mapping names decision {m.decision!r}", hits,
                                     "fix the id or path (`adrguard list` shows them) or remove "
                                     "the mapping")
            if problem is not None:
                yield self.finding(problem, where, m.decision)


class MappingInactiveDecision(BaseRule):
    """The impact manifest maps paths to a superseded, rejected or deprecated decision.

    **Why**: an inactive decision no longer governs anything; the mapping should name the
    decision in force (the end of the supersession chain), which the message names.

    **Bad**: `{"decision": "ADR-0003", "paths": ["db/**"]}` when 0003 is superseded by 0009.

    **Good**: `{"decision": "ADR-0009", "paths": ["db/**"]}`.
    """

    meta = RuleMeta(
        code="ADR503",
        name="mapping-inactive-decision",
        summary="the impact manifest maps paths to a superseded/rejected/deprecated decision",
        default_severity=Severity.WARNING,
        log_level=True,
    )

    def check(self, ctx: RuleContext) -> Iterator[Finding]:
        for where, _m, hits in _mapped(ctx):
            inactive = inactive_named(ctx.corpus, hits)
            if inactive is None:
                continue
            target, status, after = inactive
            fix = (
                f"map the paths to its successor {decision_name(after)}"
                if after is not None
                else "map the paths to the decision now in force, or remove the mapping"
            )
            yield self.finding(
                f"mapping names {target.id}, which is {status}: {fix}",
                where,
                target,
                related=[after.id] if after is not None else (),
            )


class MappingMatchesNothing(BaseRule):
    """A mapping glob matches no tracked file.

    **Why**: a glob that matches nothing is usually a typo or a path that moved; the decision
    then governs nothing there. Checked for manifest mappings and components and for front
    matter `affected-paths`. `!negations` are not checked.

    **Bad**: `"paths": ["src/paymnts/**"]` when the folder is `src/payments/`.

    **Good**: `"paths": ["src/payments/**"]`.
    """

    meta = RuleMeta(
        code="ADR504",
        name="mapping-matches-nothing",
        summary="a mapping glob matches no tracked file",
        default_severity=Severity.WARNING,
        log_level=True,
    )

    def check(self, ctx: RuleContext) -> Iterator[Finding]:
        corpus = ctx.corpus
        if not corpus.repo_files:
            return
        checks: list[tuple[str, str, Location, str | None]] = []  # glob, owner, where, decision
        manifest = manifest_of(corpus, ctx.options)
        if manifest is not None:
            for name, globs in manifest.components.items():
                where = Location(manifest.path, manifest.component_lines.get(name, 1))
                checks += [(g, f"component {name!r}", where, None) for g in globs]
            for m in manifest.mappings:
                where = Location(manifest.path, m.line, m.column)
                checks += [(g, f"the mapping for {m.decision}", where, m.decision)
                           for g in m.paths]
        for d in corpus.decisions:
            if not d.governed_paths:  # (the analysis module loads only for records with some)
                continue
            from adrguard.core.impact.analysis import front_matter_line
            from adrguard.core.impact.globs import compiled_globs, glob_problem

            where = Location(d.path, front_matter_line(d))
            memo = compiled_globs(corpus)
            checks += [(g, f"{d.id}'s affected-paths", where, d.id)
                       for g in d.governed_paths if glob_problem(g, memo) is None]
        checks = [c for c in checks if not c[0].startswith("!")]
        if not checks:
            return  # (the glob module loads only for globs to match)
        from adrguard.core.impact.globs import GlobSet, compiled_globs

        hits = GlobSet([[glob] for glob, *_ in checks],
                       compiled_globs(corpus)).matches_any(corpus.repo_files)
        for (glob, owner, where, decision), found in zip(checks, hits, strict=True):
            if not found:
                yield self.finding(
                    f"glob {glob!r} in {owner} matches no tracked file: fix the glob or "
                    "remove it",
                    where,
                    decision,
                )


class AcceptedDecisionEdited(BaseRule):
    """The decision text of a record accepted at base changed in place.

    **Why**: an accepted record is the history of what was decided and why. Rewriting it hides
    that history from everyone who read it before; a new decision belongs in a new record that
    supersedes the old one. Status, relationship and link edits are fine (that is how a record
    is superseded), so are front-matter bookkeeping keys (date, affected-paths, scope) and
    whitespace.

    **Bad**: changing "We use PostgreSQL 12" to "We use MySQL" in `0003-database.md`, which was
    accepted at the base of the change.

    **Good**: a new `0011-use-mysql.md` that says `Supersedes [3. Database](0003-database.md)`,
    and 0003's status changed to `Superseded by [11. Use MySQL](0011-use-mysql.md)`.
    """

    meta = RuleMeta(
        code="ADR505",
        name="accepted-decision-edited",
        summary="the decision text of a record accepted at base changed in place",
        default_severity=Severity.WARNING,
        needs_changes=True,
        log_level=True,
    )

    def check(self, ctx: RuleContext) -> Iterator[Finding]:
        if ctx.changes is None:
            return
        from adrguard.core.impact import history  # with a change set only

        for e in history.edited_accepted(ctx.changes, ctx.corpus, ctx.options):
            yield self.finding(
                f"{e.after.id} was accepted at base and its decision text changed here: keep it "
                "as it was and record the new decision in a new ADR that supersedes it",
                Location(e.after.path, e.line),
                e.after,
            )


class DecisionDeleted(BaseRule):
    """A record present at base is gone, and was not moved into an archive.

    **Why**: deleting a decision erases why the code looks the way it does, and breaks every
    link to it. Retire a record by changing its status (deprecated, superseded) or by moving it
    into an archive folder (`archive-dirs`, default `archive/`); a move is recognised by git's
    rename detection or by the same id at the new place.

    **Bad**: `git rm docs/adr/0004-use-soap.md`.

    **Good**: `git mv docs/adr/0004-use-soap.md docs/adr/archive/0004-use-soap.md`, or status
    `Deprecated`.
    """

    meta = RuleMeta(
        code="ADR506",
        name="decision-deleted",
        summary="a record present at base is gone, and not moved into an archive",
        default_severity=Severity.ERROR,
        needs_changes=True,
        log_level=True,
    )

    def check(self, ctx: RuleContext) -> Iterator[Finding]:
        if ctx.changes is None:
            return
        from adrguard.core.impact import history  # with a change set only

        for gone in history.deleted_records(ctx.changes, ctx.corpus):
            d = gone.decision
            what = (f"was moved to {gone.moved_to}, outside the ADR roots"
                    if gone.moved_to else "was deleted")
            yield self.finding(
                f"{decision_name(d)} {what}: keep the record and mark it deprecated or superseded, "
                "or move it into an archive folder",
                Location(d.path, 1),
                d,
            )


class IdReused(BaseRule):
    """A record new in this change takes an id or number that base gave another record.

    **Why**: ids are how people, commits and other records cite decisions; giving "ADR-0012"
    a second meaning makes every old citation lie. Archived records count: their ids stay
    taken. Typical cause: two branches picked the same next number.

    **Bad**: adding `0012-use-grpc.md` when base had `archive/0012-use-corba.md`.

    **Good**: adding `0015-use-grpc.md`, the next free number.
    """

    meta = RuleMeta(
        code="ADR507",
        name="id-reused",
        summary="a new record takes an id or number that base gave another record",
        default_severity=Severity.ERROR,
        needs_changes=True,
        log_level=True,
    )

    def check(self, ctx: RuleContext) -> Iterator[Finding]:
        if ctx.changes is None:
            return
        from adrguard.core.impact import history  # with a change set only

        for r in history.reused_ids(ctx.changes, ctx.corpus):
            owners = ", ".join(o.path for o in r.owners)
            fix = f"renumber it to {r.next_number}" if r.next_number else "give it a new id"
            yield self.finding(
                f"{r.decision.id} is new here, but base already used its id or number for "
                f"{owners}: {fix}",
                r.decision.location,
                r.decision,
                related=[o.id for o in r.owners],
            )


class UncoveredChange(BaseRule):
    """A changed file is governed by no decision (coverage).

    **Why**: turned on (`select = ["ADR508"]`), this shows where the decision map has holes:
    changed files that no accepted decision claims. Changed decision records themselves are
    not counted.

    **Bad**: a change to `src/search/index.py` when no front matter or manifest mapping covers
    `src/search/`.

    **Good**: a manifest mapping `{"decision": "ADR-0014", "paths": ["src/search/**"]}`.
    """

    meta = RuleMeta(
        code="ADR508",
        name="uncovered-change",
        summary="a changed file is governed by no decision (coverage)",
        default_severity=Severity.WARNING,
        enabled_by_default=False,
        needs_changes=True,
        log_level=True,
    )

    def check(self, ctx: RuleContext) -> Iterator[Finding]:
        if ctx.changes is None:
            return
        for path in _impact(ctx).ungoverned:
            yield self.finding(
                "changed file is governed by no accepted decision: map it to the decision "
                f"that covers it ({manifest_path(ctx.options)} or affected-paths)",
                Location(path, 1),
            )


class NumberClaimedElsewhere(BaseRule):
    """A record this change adds takes a number (or id) that another ref, such as another
    open pull request, also adds.

    **Why**: two branches that both add `0042-*.md` each pass alone and collide once both are
    merged: two records share a number, and every citation of "ADR 42" means either. Caught
    while both are open, the second one to merge renumbers before anyone cites it.

    **Learns**: what the other refs add. `adrguard check --against REF...` (refs or globs such
    as `refs/remotes/origin/pr/*`, read from what is already fetched) compares each ref with
    this change from the point where they parted; the GitHub Action's `open-pull-requests`
    input does the same for the open pull requests, through the API. Without `--against` this
    rule finds nothing. A branch that holds this change's very file (stacked on it) is not a
    collision.

    **Bad**: this branch adds `docs/adr/0042-use-kafka.md` while `origin/pr/17` adds
    `docs/adr/0042-use-pulsar.md`.

    **Good**: this branch renumbers its record to `0043-use-kafka.md`, the next number neither
    side has taken (`adrguard new --against 'refs/remotes/origin/pr/*'` picks it).
    """

    meta = RuleMeta(
        code="ADR509",
        name="number-claimed-elsewhere",
        summary="a new record takes a number or id that another given ref also adds",
        default_severity=Severity.WARNING,
        log_level=True,
    )

    def check(self, ctx: RuleContext) -> Iterator[Finding]:
        if ctx.claims is None:
            return
        from adrguard.core.authoring.claims import collisions  # with --against only

        for hit in collisions(ctx.corpus, ctx.claims):
            d, c = hit.decision, hit.claimed
            what = f"number {d.number}" if d.number is not None else f"id {d.id}"
            title = f"{c.title!r}, " if c.title else ""
            fix = (f"renumber this record to {hit.next_free}, the next number free on both "
                   "sides" if hit.next_free is not None else "give this record another name")
            yield self.finding(
                f"{c.label} also adds {what} ({title}{c.path}): whichever of the two merges "
                f"second collides; {fix}",
                d.location,
                d,
            )


RULES: tuple[type[BaseRule], ...] = (
    GovernedChange,
    MappingUnknownDecision,
    MappingInactiveDecision,
    MappingMatchesNothing,
    AcceptedDecisionEdited,
    DecisionDeleted,
    IdReused,
    UncoveredChange,
    NumberClaimedElsewhere,
)
