"""The part of the decision graph to draw: every record with a relationship, all of them, or
the neighbourhood of one record. What every graph output (Mermaid, DOT, JSON, the HTML page,
the pull-request comment) draws from."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from adrguard.core.graph.graph import Edge, Graph
from adrguard.core.model import Decision


@dataclass(frozen=True)
class View:
    """The part of the graph to draw: nodes (records) and the edges between them; ``emphasis``
    (paths) are drawn with a thick border; ``omitted`` counts the records without any
    relationship that were left out."""

    nodes: tuple[Decision, ...]
    edges: tuple[Edge, ...]
    focus: Decision | None = None
    depth: int | None = None
    emphasis: frozenset[str] = frozenset()
    omitted: int = 0


def view(
    graph: Graph, focus: Decision | None = None, depth: int | None = None,
    *, everything: bool = False,
) -> View:
    """The records with at least one relationship (all records with ``everything``), or the
    records within ``depth`` edges of ``focus`` (either direction)."""
    edges = graph.edges
    if focus is None:
        if everything:
            return View(graph.corpus.decisions, edges)
        linked = {e.source for e in edges} | {e.target for e in edges}
        nodes = tuple(d for d in graph.corpus.decisions if d.path in linked)
        return View(nodes, edges, omitted=len(graph.corpus.decisions) - len(nodes))
    limit = 1 if depth is None else max(depth, 0)
    around: dict[str, set[str]] = {}
    for e in edges:
        around.setdefault(e.source, set()).add(e.target)
        around.setdefault(e.target, set()).add(e.source)
    dist = {focus.path: 0}
    queue = deque([focus.path])
    while queue:
        node = queue.popleft()
        if dist[node] >= limit:
            continue
        for nxt in sorted(around.get(node, ())):
            if nxt not in dist:
                dist[nxt] = dist[node] + 1
                queue.append(nxt)
    nodes = tuple(d for d in graph.corpus.decisions if d.path in dist)
    kept = tuple(e for e in edges if e.source in dist and e.target in dist)
    return View(nodes, kept, focus, limit, emphasis=frozenset({focus.path}))
