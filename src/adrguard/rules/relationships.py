"""ADR3xx: relationships between records (supersedes, superseded-by, depends-on, amends).

Every rule works on :func:`adrguard.core.graph.graph.build`, built once per corpus. Only declared
relationships count; partial ones (amends, "partly supersedes") never count as supersession.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from adrguard.core.findings import Finding, Severity
from adrguard.core.graph import graph
from adrguard.core.graph.graph import link_line, short
from adrguard.core.lazyre import lazy
from adrguard.core.model import INACTIVE_STATUSES, Decision, Location, RelKind, Status
from adrguard.rules.base import BaseRule, RuleContext, RuleMeta
from adrguard.rules.supersession import OneSidedSupersession

_SELF_KINDS = graph.SELF_KINDS
_NOT_YET = graph.NOT_YET_ACTIVE
_LIST_LIMIT = 8
_RELATED_LIMIT = 50  # related records one finding names (an ambiguity among thousands)


def _status_location(d: Decision) -> Location:
    return Location(d.path, d.status_line or 1)


def _names(ds: Sequence[Decision]) -> str:
    names = [short(d) for d in ds[:_LIST_LIMIT]]
    if len(ds) > _LIST_LIMIT:
        names.append(f"... ({len(ds)} records)")
    return ", ".join(names)


class UnresolvedRelationship(BaseRule):
    """A relationship whose target matches no record.

    **Why**: "Superseded by 0009" is only useful when 0009 exists. Targets may be written as a
    path (`0005-x.md`, `../adr/0005-x.md`, a record folder), an id (`ADR-0005`, `ADR 5`, `#5`),
    a file stem (log4brains slug) or a title; links to other sites are not checked. A path in
    front matter is metadata, not a rendered link: it is also read from the repository root and
    the log's root (`replaces: docs/adr/0003-x.md`). A file name alone (`0009-x.md`) that is
    not next to the record names the one record of that file name elsewhere in the log (a
    record moved to an archive folder); a broken link there is still ADR201's.

    **Bad**: `Superseded by [9. Use Kafka](0009-use-kafka.md)` when no such file exists.

    **Good**: `Superseded by [9. Use Kafka](0009-use-kafka-for-events.md)`.
    """

    meta = RuleMeta(
        code="ADR301",
        name="unresolved-relationship",
        summary="a relationship target matches no record",
        default_severity=Severity.ERROR,
        log_level=True,
        legacy=True,
    )

    def check(self, ctx: RuleContext) -> Iterator[Finding]:
        for dec in graph.build(ctx.corpus).declared:
            res = dec.resolution
            if res.state != "unresolved":
                continue
            yield self.finding(
                f"{dec.rel.kind.value} target {dec.rel.target_raw or dec.rel.text!r} matches no "
                f"record ({res.reason}): point it at an existing record or remove it",
                dec.rel.location,
                dec.source,
            )


class AmbiguousRelationship(BaseRule):
    """A relationship whose target matches several records.

    **Why**: two records numbered 25 (a merge race) make "Supersedes ADR 25" mean either; tools
    and readers pick different ones. Ids resolve inside the record's own log first.

    **Bad**: `Supersedes ADR-25` with `0025-use-redis.md` and `0025-use-memcached.md` present.

    **Good**: `Supersedes [25. Use Redis](0025-use-redis.md)` — and renumber one of the two.
    """

    meta = RuleMeta(
        code="ADR302",
        name="ambiguous-relationship",
        summary="a relationship target matches several records",
        default_severity=Severity.ERROR,
        log_level=True,
        legacy=True,
    )

    def check(self, ctx: RuleContext) -> Iterator[Finding]:
        for dec in graph.build(ctx.corpus).declared:
            res = dec.resolution
            if res.state != "ambiguous":
                continue
            yield self.finding(
                f"{dec.rel.kind.value} target {dec.rel.target_raw!r} is ambiguous: {res.reason}; "
                "link the file itself",
                dec.rel.location,
                dec.source,
                related=[d.id for d in res.decisions[:_RELATED_LIMIT]],
            )


class RelationshipCycle(BaseRule):
    """A cycle of any length in supersedes, or in depends-on.

    **Why**: A supersedes B, B supersedes C, C supersedes A: no record is in force, and pairwise
    checks never notice. Cycles are found as strongly connected components, so every ring is
    reported once, with all its members; a record that supersedes itself is ADR309.

    **Bad**: 0003 `Supersedes [1](0001-a.md)`, 0001 `Supersedes [2](0002-b.md)`,
    0002 `Supersedes [3](0003-c.md)`.

    **Good**: a chain that ends: 0003 supersedes 0002, which supersedes 0001.
    """

    meta = RuleMeta(
        code="ADR303",
        name="relationship-cycle",
        summary="a cycle of any length in supersedes (or in depends-on)",
        default_severity=Severity.ERROR,
        log_level=True,
        legacy=True,
    )

    def check(self, ctx: RuleContext) -> Iterator[Finding]:
        g = graph.build(ctx.corpus)
        for kind in ("supersedes", "depends-on"):
            for component in g.cycles(kind):
                members = [g.decision(p) for p in component]
                ring = g.ring(kind, component)
                first = g.decision(ring[0])
                loc = _edge_location(g, kind, ring[0], ring[1]) or first.location
                path = " -> ".join(short(g.decision(p)) for p in ring[: _LIST_LIMIT + 1])
                if len(ring) > _LIST_LIMIT + 1:
                    path += " -> ..."
                extra = ""
                if len(ring) - 1 != len(members):
                    extra = f" ({len(members)} records involved)"
                yield self.finding(
                    f"{kind} cycle: {path}{extra}: remove the relationship that points back",
                    loc,
                    first,
                    related=[d.id for d in members],
                )


def _edge_location(g: graph.Graph, kind: str, a: str, b: str) -> Location | None:
    edge = g.edge_index.get((kind, a, b))
    return edge.declared[0].rel.location if edge is not None and edge.declared else None


# Prose that says what replaced a record ("superseded by the zone design", "replaced with
# the hosted service; see PR 153"): a successor the author named, but no record adrguard can
# check. Bounded: the verb, at most 120 characters, then by/with/see and a word.
_PROSE_SUCCESSOR = lazy(
    r"\b(?:supersed|supercede|replac)\w*\b[^\n]{0,120}?"
    r"\b(?:by|with|see|in favou?r of)\s+[\w\[(`\"']",
    re.IGNORECASE,
)


def _uncommented(text: str) -> str:
    """``text`` without its HTML comments (a template's ``<!-- ... | superseded by -->``);
    one pass."""
    out: list[str] = []
    at = 0
    while True:
        start = text.find("<!--", at)
        if start < 0:
            out.append(text[at:])
            return "".join(out)
        out.append(text[at:start])
        end = text.find("-->", start + 4)
        if end < 0:
            return "".join(out)
        at = end + 3


class SupersededWithoutSuccessor(BaseRule):
    """The status is superseded, but no successor is recorded anywhere.

    **Why**: "Superseded" without "by what" leaves the reader with no decision in force. A
    record whose text names its successor in prose that is no record of the log ("superseded
    by the zone design", "replaced with the hosted service, see PR 153") has said by what;
    adrguard cannot check it, so it is a note.

    **Bad**: `## Status` / `Superseded` and nothing else.

    **Good**: `## Status` / `Superseded by [7. Use gRPC](0007-use-grpc.md)`.
    """

    meta = RuleMeta(
        code="ADR305",
        name="superseded-without-successor",
        summary="status is superseded but no successor is recorded",
        default_severity=Severity.WARNING,
        log_level=True,
    )

    def check(self, ctx: RuleContext) -> Iterator[Finding]:
        g = graph.build(ctx.corpus)
        for d in ctx.corpus.decisions:
            if d.status is not Status.SUPERSEDED:
                continue
            if any(r.kind is RelKind.SUPERSEDED_BY for r in d.relationships) or g.successors(d):
                continue
            if d.text and _PROSE_SUCCESSOR.search(_uncommented(d.text)):
                yield self.finding(
                    f"{short(d)} is superseded by something its text names, which is no record "
                    "of this log: link the successor record if there is one",
                    _status_location(d),
                    d,
                    severity=Severity.NOTE,
                )
                continue
            yield self.finding(
                f"{short(d)} is superseded but names no successor: write `Superseded by "
                "[N. Title](NNNN-title.md)` in its status",
                _status_location(d),
                d,
            )


class SupersededStillActive(BaseRule):
    """An accepted record supersedes B, but B's status is still accepted.

    **Why**: two accepted records on the same question means two decisions in force; readers
    of B follow the old one.

    **Bad**: 0005 (accepted) `Supersedes [2](0002-x.md)`, and 0002 still `Accepted`.

    **Good**: 0002's status becomes `Superseded by [5. ...](0005-y.md)`.
    """

    meta = RuleMeta(
        code="ADR306",
        name="superseded-still-active",
        summary="an accepted successor supersedes B, but B's status is still accepted",
        default_severity=Severity.WARNING,
        log_level=True,
    )

    def check(self, ctx: RuleContext) -> Iterator[Finding]:
        g = graph.build(ctx.corpus)
        for d in ctx.corpus.decisions:
            if d.status is not Status.ACCEPTED:
                continue
            active = [s for s in g.successors(d) if s.status is Status.ACCEPTED]
            if not active:
                continue
            yield self.finding(
                f"{short(d)} is still accepted although accepted {_names(active)} supersedes it: "
                f"set its status to {link_line(d, active[0], 'Superseded by')}",
                _status_location(d),
                d,
                related=[s.id for s in active],
            )


class PrematureSupersession(BaseRule):
    """B is marked superseded, but its successor is not accepted.

    **Why**: a proposed (or rejected, or draft) record cannot take over yet; marking the old
    record superseded leaves no decision in force until the new one is accepted.

    **Bad**: 0002 `Superseded by [5](0005-x.md)` while 0005 is `Proposed`.

    **Good**: keep 0002 accepted until 0005 is accepted, then mark it superseded.
    """

    meta = RuleMeta(
        code="ADR307",
        name="premature-supersession",
        summary="B is marked superseded but its successor is not accepted",
        default_severity=Severity.WARNING,
        log_level=True,
    )

    def check(self, ctx: RuleContext) -> Iterator[Finding]:
        g = graph.build(ctx.corpus)
        for d in ctx.corpus.decisions:
            if d.status is not Status.SUPERSEDED:
                continue
            succ = g.successors(d)
            if not succ or not all(s.status in _NOT_YET for s in succ):
                continue
            states = ", ".join(f"{short(s)} is {s.status}" for s in succ[:_LIST_LIMIT])
            yield self.finding(
                f"{short(d)} is marked superseded but its successor is not accepted ({states}): "
                "accept the successor first, or keep this record's status until then",
                _status_location(d),
                d,
                related=[s.id for s in succ],
            )


class MultipleSuccessors(BaseRule):
    """Several accepted records supersede the same record.

    **Why**: which one is in force? Usually the later one should supersede the earlier
    successor rather than the original, or one of them only amends it.

    **Bad**: 0005 and 0007, both accepted, each `Supersedes [2](0002-x.md)`.

    **Good**: 0007 `Supersedes [5](0005-y.md)`, or 0007 `Amends [2](0002-x.md)`; or a split
    the old record states itself: 0002 `Superseded by [5](0005-y.md) and [7](0007-z.md)`
    (explicit metadata outranks inference: the record says both are in force).
    """

    meta = RuleMeta(
        code="ADR308",
        name="multiple-successors",
        summary="several accepted records supersede the same record",
        default_severity=Severity.WARNING,
        log_level=True,
    )

    def check(self, ctx: RuleContext) -> Iterator[Finding]:
        g = graph.build(ctx.corpus)
        for d in ctx.corpus.decisions:
            accepted = [s for s in g.successors(d) if s.status is Status.ACCEPTED]
            if len(accepted) < 2:
                continue
            said = g.said[RelKind.SUPERSEDED_BY]
            if all((d.path, s.path) in said for s in accepted):
                continue  # the record itself says it was split between them
            yield self.finding(
                f"{len(accepted)} accepted records supersede {short(d)} ({_names(accepted)}): "
                "make the later one supersede the earlier successor, or mark it as amending",
                _status_location(d),
                d,
                related=[s.id for s in accepted],
            )


class SelfReference(BaseRule):
    """A record supersedes, amends or depends on itself.

    **Why**: always a slip, usually a copied line whose link was not updated.

    **Bad**: in 0005-x.md: `Supersedes [5. X](0005-x.md)`.

    **Good**: `Supersedes [4. Y](0004-y.md)`.
    """

    meta = RuleMeta(
        code="ADR309",
        name="self-reference",
        summary="a record supersedes or depends on itself",
        default_severity=Severity.ERROR,
        log_level=True,
        legacy=True,
    )

    def check(self, ctx: RuleContext) -> Iterator[Finding]:
        for dec in graph.build(ctx.corpus).declared:
            t = dec.target
            if t is None or t.path != dec.source.path or dec.rel.kind not in _SELF_KINDS:
                continue
            yield self.finding(
                f"{short(dec.source)} {dec.rel.kind.value} itself: point the relationship at the "
                "record it means",
                dec.rel.location,
                dec.source,
            )


class DependsOnInactive(BaseRule):
    """An accepted record depends on a rejected, deprecated or superseded record.

    **Why**: a decision in force that rests on one that is not may rest on nothing; review it
    and depend on the successor instead.

    **Bad**: 0009 (accepted) `Depends on [2](0002-x.md)`, and 0002 is superseded by 0005.

    **Good**: 0009 `Depends on [5](0005-y.md)`.
    """

    meta = RuleMeta(
        code="ADR310",
        name="depends-on-inactive",
        summary="an accepted record depends on a rejected, deprecated or superseded record",
        default_severity=Severity.WARNING,
        log_level=True,
    )

    def check(self, ctx: RuleContext) -> Iterator[Finding]:
        g = graph.build(ctx.corpus)
        for dec in g.declared:
            t = dec.target
            if dec.rel.kind is not RelKind.DEPENDS_ON or t is None or t.path == dec.source.path:
                continue
            if dec.source.status is not Status.ACCEPTED or t.status not in INACTIVE_STATUSES:
                continue
            succ = g.current_successor(t)
            hint = f"depend on {short(succ)} instead" if succ else "review the dependency"
            yield self.finding(
                f"accepted {short(dec.source)} depends on {short(t)}, which is {t.status}: {hint}",
                dec.rel.location,
                dec.source,
                related=[t.id],
            )


RULES: tuple[type[BaseRule], ...] = (
    UnresolvedRelationship,
    AmbiguousRelationship,
    RelationshipCycle,
    OneSidedSupersession,
    SupersededWithoutSuccessor,
    SupersededStillActive,
    PrematureSupersession,
    MultipleSuccessors,
    SelfReference,
    DependsOnInactive,
)
