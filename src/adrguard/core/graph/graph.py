"""The decision graph: every declared relationship resolved, supersession and dependency edges,
successors, and cycles (strongly connected components, iterative Tarjan: no recursion, so a
10,000-record chain is fine).

Only declared edges exist: if B says "supersedes A", A gets no inferred "superseded by B"
edge (the one-sided rule reports the difference). Partial relations (amends, amended-by) and
``in-favour-of`` never count as supersession.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable, Mapping, Sequence
from functools import cached_property
from typing import Any

import msgspec

from adrguard.core.graph.resolve import Resolution, Resolver, parse_target, record_key
from adrguard.core.model import (
    INACTIVE_STATUSES,
    Corpus,
    Decision,
    Relationship,
    RelKind,
    Status,
)

# Relationship kind -> (edge kind, reversed?) in the normalised graph. "A superseded-by B" is
# the edge B -supersedes-> A.
EDGE_KIND: Mapping[RelKind, tuple[str, bool]] = {
    RelKind.SUPERSEDES: ("supersedes", False),
    RelKind.SUPERSEDED_BY: ("supersedes", True),
    RelKind.AMENDS: ("amends", False),
    RelKind.AMENDED_BY: ("amends", True),
    RelKind.DEPENDS_ON: ("depends-on", False),
    RelKind.RELATES_TO: ("relates-to", False),
    RelKind.IN_FAVOUR_OF: ("in-favour-of", False),
}
_MIRROR: Mapping[RelKind, RelKind] = {
    RelKind.SUPERSEDES: RelKind.SUPERSEDED_BY,
    RelKind.SUPERSEDED_BY: RelKind.SUPERSEDES,
}
# Kinds whose pointing at the record itself is a self-reference (ADR309).
SELF_KINDS = frozenset(
    {
        RelKind.SUPERSEDES,
        RelKind.SUPERSEDED_BY,
        RelKind.DEPENDS_ON,
        RelKind.AMENDS,
        RelKind.AMENDED_BY,
    }
)
NOT_YET_ACTIVE = frozenset({Status.PROPOSED, Status.REJECTED, Status.DRAFT})
EDGE_KINDS: tuple[str, ...] = ("supersedes", "amends", "depends-on", "relates-to", "in-favour-of")


class Declared(msgspec.Struct, frozen=True):
    """One relationship as declared by its source record, with its resolution."""

    source: Decision
    rel: Relationship
    resolution: Resolution

    @property
    def target(self) -> Decision | None:
        return self.resolution.decision


class Edge(msgspec.Struct, frozen=True):
    """A normalised edge between two records (by path), with the declarations behind it."""

    kind: str
    source: str
    target: str
    declared: tuple[Declared, ...] = msgspec.field(default=())


def strongly_connected(nodes: Sequence[str], succ: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """Tarjan's algorithm without recursion. Returns every SCC (singletons included), each
    sorted, in a deterministic order."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    out: list[list[str]] = []
    counter = 0
    for root in nodes:
        if root in index:
            continue
        work: list[tuple[str, Iterable[str]]] = []
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        work.append((root, iter(sorted(succ.get(root, ())))))
        while work:
            node, children = work[-1]
            advanced = False
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(succ.get(child, ())))))
                    advanced = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component: list[str] = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                out.append(sorted(component))
    return out


class Graph:
    """Every declared relationship of a corpus, resolved, plus the normalised edges."""

    def __init__(self, corpus: Corpus) -> None:
        self.corpus = corpus
        self.resolver = Resolver(corpus)

    @cached_property
    def declared(self) -> tuple[Declared, ...]:
        out: list[Declared] = []
        for d in self.corpus.decisions:
            for rel in d.relationships:
                found = self.resolver.resolve(d, rel.target_raw, rel.text, rel.origin)
                out.append(Declared(d, rel, found))
        return tuple(out)

    @cached_property
    def edges(self) -> tuple[Edge, ...]:
        """Resolved, normalised, deduplicated edges (self-loops included), sorted."""
        grouped: dict[tuple[str, str, str], list[Declared]] = {}
        for dec in self.declared:
            target = dec.target
            if target is None:
                continue
            kind, flip = EDGE_KIND[dec.rel.kind]
            a, b = (target.path, dec.source.path) if flip else (dec.source.path, target.path)
            grouped.setdefault((kind, a, b), []).append(dec)
        return tuple(
            Edge(kind, a, b, tuple(decs)) for (kind, a, b), decs in sorted(grouped.items())
        )

    @cached_property
    def edge_index(self) -> Mapping[tuple[str, str, str], Edge]:
        return {(e.kind, e.source, e.target): e for e in self.edges}

    @cached_property
    def out_edges(self) -> Mapping[str, Mapping[str, tuple[str, ...]]]:
        """kind -> source path -> target paths."""
        out: dict[str, dict[str, list[str]]] = {k: {} for k in EDGE_KINDS}
        for e in self.edges:
            out[e.kind].setdefault(e.source, []).append(e.target)
        return {k: {s: tuple(t) for s, t in v.items()} for k, v in out.items()}

    @cached_property
    def in_edges(self) -> Mapping[str, Mapping[str, tuple[str, ...]]]:
        """kind -> target path -> source paths."""
        out: dict[str, dict[str, list[str]]] = {k: {} for k in EDGE_KINDS}
        for e in self.edges:
            out[e.kind].setdefault(e.target, []).append(e.source)
        return {k: {s: tuple(t) for s, t in v.items()} for k, v in out.items()}

    def decision(self, path: str) -> Decision:
        return self.corpus.by_path[path]

    def successors(self, d: Decision) -> tuple[Decision, ...]:
        """Records that supersede ``d`` (declared on either side), excluding ``d`` itself."""
        paths = self.in_edges["supersedes"].get(d.path)
        return tuple(self.decision(p) for p in paths if p != d.path) if paths else ()

    def predecessors(self, d: Decision) -> tuple[Decision, ...]:
        paths = self.out_edges["supersedes"].get(d.path)
        return tuple(self.decision(p) for p in paths if p != d.path) if paths else ()

    def cycles(self, kind: str) -> list[list[str]]:
        """SCCs with more than one member in the ``kind`` edges (self-loops are ADR309's)."""
        succ = self.out_edges[kind]
        nodes = sorted(succ)
        return [c for c in strongly_connected(nodes, succ) if len(c) > 1]

    def ring(self, kind: str, component: list[str]) -> list[str]:
        """One cycle inside the component, found by walking from its first member (iterative);
        returned closed: the last element repeats the first."""
        members = set(component)
        succ = self.out_edges[kind]
        start = component[0]
        order = [start]
        pos = {start: 0}
        node = start
        while True:
            nxt = sorted(t for t in succ.get(node, ()) if t in members and t != node)
            step = next((t for t in nxt if t not in pos), None)
            if step is None:
                back = next((t for t in nxt if t in pos), nxt[0])
                return [*order[pos[back] :], back]
            pos[step] = len(order)
            order.append(step)
            node = step

    @cached_property
    def cyclic_edges(self) -> frozenset[tuple[str, str, str]]:
        out: set[tuple[str, str, str]] = set()
        for kind in ("supersedes", "depends-on"):
            for comp in self.cycles(kind):
                members = set(comp)
                for s in comp:
                    for t in self.out_edges[kind].get(s, ()):
                        if t in members:
                            out.add((kind, s, t))
        return frozenset(out)

    @cached_property
    def said(self) -> Mapping[RelKind, frozenset[tuple[str, str]]]:
        """kind -> (source path, resolved target path) for every resolved declaration."""
        out: dict[RelKind, set[tuple[str, str]]] = {k: set() for k in RelKind}
        for dec in self.declared:
            if dec.target is not None:
                out[dec.rel.kind].add((dec.source.path, dec.target.path))
        return {k: frozenset(v) for k, v in out.items()}

    def counterpart_missing(self, dec: Declared) -> bool:
        """True for a supersedes/superseded-by declaration the other record does not echo."""
        t = dec.target
        if t is None or t.path == dec.source.path:
            return False
        mirror = _MIRROR.get(dec.rel.kind)
        if mirror is None:
            return False
        return (t.path, dec.source.path) not in self.said[mirror]

    def state(self, dec: Declared) -> str:
        """resolved | unresolved | ambiguous | cyclic | inconsistent | inactive."""
        res = dec.resolution
        if res.state == "ambiguous":
            return "ambiguous"
        t = dec.target
        if t is None:
            return "unresolved"
        kind, flip = EDGE_KIND[dec.rel.kind]
        a, b = (t.path, dec.source.path) if flip else (dec.source.path, t.path)
        if a == b and dec.rel.kind in SELF_KINDS:
            return "cyclic"
        if (kind, a, b) in self.cyclic_edges:
            return "cyclic"
        if self.counterpart_missing(dec):
            return "inconsistent"
        if kind == "supersedes":
            old, new = self.decision(b), self.decision(a)
            if old.status is Status.ACCEPTED and new.status is Status.ACCEPTED:
                return "inconsistent"
            if old.status is Status.SUPERSEDED and new.status in NOT_YET_ACTIVE:
                return "inconsistent"
        if dec.rel.kind is RelKind.DEPENDS_ON and t.status in INACTIVE_STATUSES:
            return "inactive"
        return "resolved"

    def current_successor(self, d: Decision) -> Decision | None:
        """The record at the end of ``d``'s supersession chain (None when nothing supersedes it).
        With several successors, an accepted one is followed first (then the first by path); a
        walk that comes back to a record it passed stops before it (a cycle). Looked up in
        :attr:`chain_ends`, resolved once for every record."""
        end = self.chain_ends.get(d.path)
        return None if end is None else self.decision(end)

    @cached_property
    def chain_ends(self) -> Mapping[str, str]:
        """Record path -> the path its supersession walk ends at, for every superseded record:
        each record's next step is its best successor (accepted first, then by path), so the
        walks form a functional graph and every end is found in one pass, linear in the
        records. A walk ending in a cycle stops at the record before the one it would repeat:
        for a record on the cycle, its predecessor on it; for one leading into it, the
        predecessor of the record where it enters."""
        best: dict[str, str] = {}
        for target, sources in self.in_edges["supersedes"].items():
            options = [self.decision(p) for p in sources if p != target]
            if options:
                # the successor a supersession walk follows: an accepted one first, then by path
                first = min(options, key=lambda s: (s.status is not Status.ACCEPTED, s.path))
                best[target] = first.path
        end: dict[str, str] = {}
        for start in best:
            if start in end:
                continue
            walk: list[str] = []
            at: dict[str, int] = {}
            node = start
            while node in best and node not in end and node not in at:
                at[node] = len(walk)
                walk.append(node)
                node = best[node]
            if node in at:  # the walk closed a cycle: walk[at[node]:] is it
                ring = walk[at[node] :]
                for k, member in enumerate(ring):
                    end[member] = ring[k - 1]
                walk = walk[: at[node]]
            final = end.get(node, node)
            for member in walk:
                end[member] = final
        return end

    @cached_property
    def referenced_by(self) -> Mapping[str, tuple[str, ...]]:
        """record path -> paths of records that link to it (links and relationships)."""
        out: dict[str, set[str]] = {}
        for d in self.corpus.decisions:
            for link in d.links:
                t = parse_target(link.target, d.path, self.corpus.repository)
                if t.kind != "path" or t.repo_path is None:
                    continue
                hit = self.resolver.decision_at(t.repo_path)
                if hit is not None and hit.path != d.path:
                    out.setdefault(hit.path, set()).add(d.path)
        for dec in self.declared:
            target = dec.target
            if target is not None and target.path != dec.source.path:
                out.setdefault(target.path, set()).add(dec.source.path)
        return {k: tuple(sorted(v)) for k, v in out.items()}



def short(d: Decision) -> str:
    """How messages name a record: its id (``ADR-0002``), else its file stem."""
    return d.id or record_key(d)


def link_line(d: Decision, target: Decision, verb: str) -> str:
    """A ready-to-paste line for ``d``: ``Superseded by [5. Title](0005-x.md)``."""
    label = target.title or target.id
    if target.number is not None and target.title:
        label = f"{target.number}. {target.title}"
    rel = posixpath.relpath(target.path, posixpath.dirname(d.path) or ".")
    return f"`{verb} [{label}]({rel})`"


def build(corpus: Corpus) -> Graph:
    """The graph of ``corpus``, built once and kept on it (shared by every rule of a run)."""
    return corpus.derived("graph", lambda: Graph(corpus))


def describe(corpus: Corpus, d: Decision) -> dict[str, Any]:
    """Extra fields for ``adrguard show``: resolved relations, referrers, current successor."""
    g = build(corpus)
    ids = {x.path: x.id for x in corpus.decisions}
    out: dict[str, Any] = {
        "supersedes": sorted({ids[p.path] for p in g.predecessors(d)}),
        "supersededBy": sorted({ids[s.path] for s in g.successors(d)}),
        "referencedBy": sorted({ids[p] for p in g.referenced_by.get(d.path, ())}),
    }
    amends = g.out_edges["amends"].get(d.path, ())
    amended_by = g.in_edges["amends"].get(d.path, ())
    depends = g.out_edges["depends-on"].get(d.path, ())
    for key, paths in (("amends", amends), ("amendedBy", amended_by), ("dependsOn", depends)):
        if paths:
            out[key] = sorted({ids[p] for p in paths if p != d.path})
    out = {k: v for k, v in out.items() if v}
    succ = g.current_successor(d)
    if succ is not None:
        out["currentSuccessor"] = succ.id
    return out
