"""What the graph, the CURRENT manifests and the checks say about one record: the evidence a
disposition (and an archive plan's refusal) rests on. Pure."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from adrguard.core.findings import Finding
from adrguard.core.generated.current import CurrentState
from adrguard.core.graph.graph import Graph
from adrguard.core.model import Decision, Status, status_key

# The checks whose findings block compaction of the records they concern, and what each means.
BLOCKER_KINDS: Mapping[str, str] = {
    "ADR001": "unreadable",
    "ADR106": "ambiguous-id",
    "ADR301": "unresolved-relation",
    "ADR302": "ambiguous-relation",
    "ADR303": "cycle",
    "ADR306": "contradiction",
    "ADR307": "premature-supersession",
    "ADR309": "self-reference",
}
# The CURRENT-view checks that block a compaction too: a view that is missing its manifest,
# unreadable, stale, out of its members or edited since it was stamped.
CURRENT_BLOCKERS: Mapping[str, str] = {
    "ADR404": "current-without-manifest",
    "ADR405": "current-unreadable",
    "ADR406": "stale-current",
    "ADR407": "current-members",
    "ADR408": "current-edited",
}
# What `check --compaction` selects: the compaction blockers as findings of check.
COMPACTION_CODES: tuple[str, ...] = tuple(sorted({*BLOCKER_KINDS, *CURRENT_BLOCKERS}))
IN_FORCE_COVERAGE = frozenset({"kept", "summarized", "consolidated"})
# Amended this many times by records not rejected: the decision is spread over several records.
REPEATEDLY = 2


@dataclass(frozen=True)
class Coverage:
    """How a CURRENT view covers a record: the reviewer's coverage, and whether the record and
    the view are unchanged since the stamp."""

    view: str
    coverage: str
    member_fresh: bool  # the record's hash equals the manifest's
    view_fresh: bool  # the view has no stale reason at all

    @property
    def reviewed(self) -> bool:
        return self.member_fresh and self.view_fresh and self.coverage != "open"

    def as_json(self) -> dict[str, Any]:
        return {
            "view": self.view,
            "coverage": self.coverage,
            "memberFresh": self.member_fresh,
            "viewFresh": self.view_fresh,
        }


@dataclass(frozen=True)
class Evidence:
    """Everything a disposition of ``decision`` is decided from."""

    decision: Decision
    successors: tuple[Decision, ...] = ()
    current_successor: Decision | None = None
    predecessors: tuple[Decision, ...] = ()
    amended_by: tuple[Decision, ...] = ()  # every status
    amends: tuple[Decision, ...] = ()
    # accepted records this one amends that are amended REPEATEDLY (a consolidation group)
    amends_repeatedly: tuple[Decision, ...] = ()
    depended_on_by: tuple[Decision, ...] = ()  # records in force (is_active) only
    inbound_active: tuple[Decision, ...] = ()  # records in force that link to it
    coverage: tuple[Coverage, ...] = ()
    # relationship targets, as written, that resolve to no record (ambiguous ones are ADR302
    # blockers; external ones, outside this log, cannot be checked and are no blocker)
    unresolved: tuple[str, ...] = ()
    blockers: tuple[Finding, ...] = field(default_factory=tuple)
    # records stating no status where their log asks for none: read as in force (see is_active)
    unstated: frozenset[str] = frozenset()

    def live(self, d: Decision) -> bool:
        """``d`` is in force (:func:`is_active`, with this log's status habit)."""
        return is_active(d, self.unstated)

    @property
    def unstated_in_force(self) -> bool:
        """This record states no status, as its log does by habit: read as in force."""
        return self.decision.status is None and self.decision.path in self.unstated

    @property
    def status(self) -> str:
        s = self.decision.status
        return s.value if s is not None else "none"

    def as_json(self) -> dict[str, Any]:
        cur = self.current_successor
        return {
            "status": self.status,
            "successors": _ids(self.successors),
            "currentSuccessor": (
                {"id": cur.id, "path": cur.path, "status": status_key(cur)} if cur else None
            ),
            "supersedes": _ids(self.predecessors),
            "amendedBy": _ids(self.amended_by),
            "amends": _ids(self.amends),
            "dependedOnBy": _ids(self.depended_on_by),
            "inboundActive": _ids(self.inbound_active),
            "current": [c.as_json() for c in self.coverage],
            "unresolved": list(self.unresolved),
            "blockers": sorted({f.code for f in self.blockers}),
        }


def _ids(decisions: Iterable[Decision]) -> list[str]:
    return sorted({d.id for d in decisions})


def is_active(d: Decision, unstated: Collection[str] = frozenset()) -> bool:
    """In force: not in the archive, and accepted, or stating no status in a log that states
    none by habit (``unstated``: those records' paths, from
    :func:`adrguard.core.conventions.log.unstated_by_habit`)."""
    if d.archived:
        return False
    return d.status is Status.ACCEPTED or (d.status is None and d.path in unstated)


@dataclass(frozen=True)
class Facts:
    """What the evidence of every record is gathered from, indexed once per run (each index
    is linear in what it indexes, so gathering every record of a log stays linear in it)."""

    graph: Graph
    unstated: frozenset[str]
    coverage: Mapping[str, tuple[Coverage, ...]]  # record path -> how each CURRENT view covers it
    unresolved: Mapping[str, tuple[str, ...]]  # record path -> targets resolving to no record
    findings: tuple[Finding, ...]  # the blocker checks' findings
    blockers_at: Mapping[str, tuple[int, ...]]  # path -> positions in findings located there
    cycles_of: Mapping[str, tuple[int, ...]]  # record id -> positions of the cycles naming it
    amenders: dict[str, tuple[Decision, ...]] = field(default_factory=dict)  # filled on use

    def amenders_of(self, d: Decision) -> tuple[Decision, ...]:
        found = self.amenders.get(d.path)
        if found is None:
            found = self.amenders[d.path] = amenders(self.graph, d)
        return found

    def blockers_of(self, d: Decision) -> tuple[Finding, ...]:
        """The blocker findings that concern ``d``, in their order: those that point at it, and
        the cycles it is part of (one finding names every member)."""
        at = {*self.blockers_at.get(d.path, ()), *self.cycles_of.get(d.id, ())}
        return tuple(self.findings[i] for i in sorted(at))


def facts(
    graph: Graph,
    states: Sequence[CurrentState],
    findings: Sequence[Finding],
    unstated: frozenset[str] = frozenset(),
) -> Facts:
    """The per-run index :func:`gather` reads (``findings``: the blocker checks' findings on
    the corpus; ``unstated``: see :func:`is_active`)."""
    coverage: dict[str, list[Coverage]] = {}
    for state in states:
        if state.manifest is None:
            continue
        for m in state.manifest.members:
            member = graph.corpus.by_path.get(m.path)
            if member is not None:
                coverage.setdefault(m.path, []).append(
                    Coverage(state.view, m.coverage, m.sha256 == member.sha256, state.fresh))
    unresolved: dict[str, set[str]] = {}
    for dec in graph.declared:
        if dec.resolution.state == "unresolved":
            unresolved.setdefault(dec.source.path, set()).add(dec.rel.target_raw)
    blockers_at: dict[str, list[int]] = {}
    cycles_of: dict[str, list[int]] = {}
    for i, f in enumerate(findings):
        if f.code not in BLOCKER_KINDS:
            continue
        blockers_at.setdefault(f.location.path, []).append(i)
        if f.code == "ADR303":
            for named in set(f.related):
                cycles_of.setdefault(named, []).append(i)
    return Facts(
        graph=graph,
        unstated=unstated,
        coverage={k: tuple(sorted(v, key=lambda c: c.view)) for k, v in coverage.items()},
        unresolved={k: tuple(sorted(v)) for k, v in unresolved.items()},
        findings=tuple(findings),
        blockers_at={k: tuple(v) for k, v in blockers_at.items()},
        cycles_of={k: tuple(v) for k, v in cycles_of.items()},
    )


def gather(d: Decision, known: Facts) -> Evidence:
    """The evidence on ``d``, looked up in the run's :class:`Facts`."""
    graph = known.graph
    unstated = known.unstated
    at = graph.corpus.by_path

    def records(paths: Iterable[str]) -> tuple[Decision, ...]:
        return tuple(sorted((at[p] for p in set(paths) if p != d.path), key=lambda x: x.path))

    inbound = records(graph.referenced_by.get(d.path, ()))
    amends = records(graph.out_edges["amends"].get(d.path, ()))
    repeatedly = tuple(
        t for t in amends if is_active(t, unstated) and len(known.amenders_of(t)) >= REPEATEDLY
    )
    return Evidence(
        decision=d,
        successors=tuple(sorted(graph.successors(d), key=lambda x: x.path)),
        current_successor=graph.current_successor(d),
        predecessors=tuple(sorted(graph.predecessors(d), key=lambda x: x.path)),
        amended_by=records(graph.in_edges["amends"].get(d.path, ())),
        amends=amends,
        amends_repeatedly=repeatedly,
        depended_on_by=tuple(
            x for x in records(graph.in_edges["depends-on"].get(d.path, ()))
            if is_active(x, unstated)
        ),
        inbound_active=tuple(x for x in inbound if is_active(x, unstated)),
        coverage=known.coverage.get(d.path, ()),
        unresolved=known.unresolved.get(d.path, ()),
        blockers=known.blockers_of(d),
        unstated=unstated,
    )


def amenders(graph: Graph, d: Decision) -> tuple[Decision, ...]:
    """The records that amend ``d``, rejected ones left out, sorted by path."""
    paths = graph.in_edges["amends"].get(d.path, ())
    found = (graph.decision(p) for p in set(paths) if p != d.path)
    return tuple(sorted((a for a in found if a.status is not Status.REJECTED),
                        key=lambda a: a.path))
