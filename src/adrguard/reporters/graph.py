"""The decision graph as Mermaid, Graphviz DOT or JSON; the relationship table as text or JSON.

Pure: takes a :class:`~adrguard.core.graph.graph.Graph` (and optionally a focus), returns text.
Nodes are coloured by status, edges by kind. Output is deterministic (sorted, no timestamps).
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from adrguard.core.findings import Finding
from adrguard.core.graph.graph import EDGE_KINDS, Edge, Graph
from adrguard.core.model import Decision
from adrguard.core.textsafe import json_safe, neutralise

SCHEMA_VERSION = 1

# status -> (fill, stroke/text); "none" = no status stated.
STATUS_COLOURS: Mapping[str, tuple[str, str]] = {
    "accepted": ("#d1e7dd", "#0f5132"),
    "proposed": ("#cfe2ff", "#084298"),
    "draft": ("#e2e3e5", "#41464b"),
    "rejected": ("#f8d7da", "#842029"),
    "deprecated": ("#fff3cd", "#664d03"),
    "superseded": ("#e9ecef", "#6c757d"),
    "unknown": ("#f3e8ff", "#59359a"),
    "none": ("#ffffff", "#495057"),
}
# edge kind -> (colour, mermaid arrow, dot style)
EDGE_STYLES: Mapping[str, tuple[str, str, str]] = {
    "supersedes": ("#dc3545", "-->", "solid"),
    "amends": ("#fd7e14", "-.->", "dashed"),
    "depends-on": ("#0d6efd", "==>", "bold"),
    "relates-to": ("#6c757d", "-.-", "dotted"),
    "in-favour-of": ("#6f42c1", "-.->", "dashed"),
}
FORMATS = ("mermaid", "dot", "json")


@dataclass(frozen=True)
class View:
    """The part of the graph to draw: nodes (records) and the edges between them."""

    nodes: tuple[Decision, ...]
    edges: tuple[Edge, ...]
    focus: Decision | None = None
    depth: int | None = None


def status_of(d: Decision) -> str:
    return d.status.value if d.status is not None else "none"


def view(graph: Graph, focus: Decision | None = None, depth: int | None = None) -> View:
    """The whole graph, or the records within ``depth`` edges of ``focus`` (either direction)."""
    edges = graph.edges
    if focus is None:
        return View(graph.corpus.decisions, edges)
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
    return View(nodes, kept, focus, limit)


def to_data(v: View) -> dict[str, Any]:
    return {
        "schemaVersion": SCHEMA_VERSION,
        "focus": v.focus.id if v.focus is not None else None,
        "depth": v.depth,
        "nodes": [
            {
                "key": d.path,
                "id": d.id,
                "number": d.number,
                "title": d.title,
                "status": d.status.value if d.status is not None else None,
                "path": d.path,
                "root": d.root,
                "archived": d.archived,
            }
            for d in v.nodes
        ],
        "edges": [
            {
                "source": e.source,
                "target": e.target,
                "kind": e.kind,
                "declaredBy": sorted({dec.source.path for dec in e.declared}),
            }
            for e in v.edges
        ],
    }


def _one(value: Any) -> str:
    return json_safe(json.dumps(value, sort_keys=True, ensure_ascii=False))


def dumps(data: Mapping[str, Any]) -> str:
    """Sorted keys, one line per list item, trailing newline: readable, diffable and fast
    (``json.dumps(indent=...)`` runs the pure-Python encoder, 20x slower on 10,000 nodes)."""
    lines = ["{"]
    keys = sorted(data)
    for i, key in enumerate(keys):
        value = data[key]
        comma = "," if i < len(keys) - 1 else ""
        if isinstance(value, list) and value:
            lines.append(f"  {_one(key)}: [")
            lines.extend(f"    {_one(item)}," for item in value[:-1])
            lines.append(f"    {_one(value[-1])}")
            lines.append(f"  ]{comma}")
        else:
            lines.append(f"  {_one(key)}: {_one(value)}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def render_json(v: View) -> str:
    return dumps(to_data(v))


_MERMAID_ESCAPES = {
    "#": "#35;",
    '"': "#quot;",
    "&": "#amp;",
    "<": "#lt;",
    ">": "#gt;",
    "[": "#91;",
    "]": "#93;",
    "(": "#40;",
    ")": "#41;",
    "{": "#123;",
    "}": "#125;",
    "|": "#124;",
    "`": "#96;",
    "\\": "#92;",
    "%": "#37;",
    ";": "#59;",
}
MERMAID_MAX_EDGES = 500  # GitHub's Mermaid refuses to render more


def mermaid_text(text: str) -> str:
    """Text safe inside a quoted Mermaid label (GitHub's Mermaid): entity codes for
    quotes, brackets and the characters Mermaid gives meaning to; no line breaks."""
    flat = " ".join(neutralise(text).split())
    return "".join(_MERMAID_ESCAPES.get(ch, ch) for ch in flat)


def _label(d: Decision) -> str:
    title = d.title or "(untitled)"
    return f"{d.id}: {title}" if d.id and d.id not in title else title


def render_mermaid(v: View) -> str:
    names = {d.path: f"n{i}" for i, d in enumerate(v.nodes)}
    lines = ["flowchart LR"]
    for d in v.nodes:
        lines.append(f'  {names[d.path]}["{mermaid_text(_label(d))}"]')
    by_kind: dict[str, list[int]] = {}
    for i, e in enumerate(v.edges):
        arrow = EDGE_STYLES[e.kind][1]
        lines.append(f"  {names[e.source]} {arrow}|{e.kind}| {names[e.target]}")
        by_kind.setdefault(e.kind, []).append(i)
    groups: dict[str, list[str]] = {}
    for d in v.nodes:
        groups.setdefault(status_of(d), []).append(names[d.path])
    for status in sorted(groups):
        fill, stroke = STATUS_COLOURS[status]
        lines.append(f"  classDef st_{status} fill:{fill},stroke:{stroke},color:{stroke}")
        lines.append(f"  class {','.join(groups[status])} st_{status}")
    for kind in EDGE_KINDS:
        if kind in by_kind:
            idx = ",".join(str(i) for i in by_kind[kind])
            lines.append(f"  linkStyle {idx} stroke:{EDGE_STYLES[kind][0]}")
    if v.focus is not None:
        lines.append(f"  style {names[v.focus.path]} stroke-width:3px")
    return "\n".join(lines) + "\n"


def dot_text(text: str) -> str:
    flat = " ".join(neutralise(text).split())
    return flat.replace("\\", "\\\\").replace('"', '\\"')


def render_dot(v: View) -> str:
    lines = [
        "digraph decisions {",
        "  rankdir=LR;",
        '  node [shape=box, style="rounded,filled", fontname="Helvetica"];',
        '  edge [fontname="Helvetica", fontsize=10];',
    ]
    for d in v.nodes:
        status = status_of(d)
        fill, stroke = STATUS_COLOURS[status]
        label = f"{dot_text(d.id)}\\n{dot_text(d.title or '(untitled)')}"
        width = ", penwidth=3" if v.focus is not None and d.path == v.focus.path else ""
        lines.append(
            f'  "{dot_text(d.path)}" [label="{label}", fillcolor="{fill}", color="{stroke}", '
            f'tooltip="{status}"{width}];'
        )
    for e in v.edges:
        colour, _arrow, style = EDGE_STYLES[e.kind]
        lines.append(
            f'  "{dot_text(e.source)}" -> "{dot_text(e.target)}" '
            f'[label="{e.kind}", color="{colour}", fontcolor="{colour}", style={style}];'
        )
    lines.append("}")
    return "\n".join(lines) + "\n"


RENDERERS = {"json": render_json, "mermaid": render_mermaid, "dot": render_dot}


def render(fmt: str, v: View) -> str:
    return RENDERERS[fmt](v)


# -- relationships ----------------------------------------------------------------------------


def relationship_rows(graph: Graph, only: Decision | None = None) -> list[dict[str, Any]]:
    """One row per declared relationship (optionally those touching ``only``)."""
    rows: list[dict[str, Any]] = []
    for dec in graph.declared:
        target = dec.target
        if only is not None and only.path not in (
            dec.source.path,
            target.path if target is not None else None,
        ):
            continue
        res = dec.resolution
        rows.append(
            {
                "source": dec.source.id,
                "sourcePath": dec.source.path,
                "type": dec.rel.kind.value,
                "declared": dec.rel.target_raw,
                "text": dec.rel.text,
                "origin": dec.rel.origin,
                "line": dec.rel.location.line,
                "target": target.id if target is not None else None,
                "targetPath": target.path if target is not None else None,
                "candidates": [d.path for d in res.decisions] if res.state == "ambiguous" else [],
                "state": graph.state(dec),
                "reason": res.reason,
            }
        )
    return rows


def finding_data(f: Finding) -> dict[str, Any]:
    return {
        "code": f.code,
        "name": f.name,
        "severity": f.severity.label,
        "message": f.message,
        "path": f.location.path,
        "line": f.location.line,
        "column": f.location.column,
        "decisionId": f.decision_id,
        "related": list(f.related),
    }


def render_relationships_json(
    rows: Sequence[Mapping[str, Any]], findings: Iterable[Finding], decision: str | None
) -> str:
    return dumps(
        {
            "schemaVersion": SCHEMA_VERSION,
            "decision": decision,
            "relationships": list(rows),
            "diagnostics": [finding_data(f) for f in findings],
        }
    )


def render_relationships_text(
    rows: Sequence[Mapping[str, Any]], findings: Sequence[Finding]
) -> str:
    if not rows:
        out = ["no relationships declared"]
    else:
        out = []
        for r in rows:
            target = r["target"] or "-"
            out.append(
                f"{r['sourcePath']}:{r['line']}  {r['source']} {r['type']} {r['declared']!r}"
                f" -> {target}  [{r['state']}]"
            )
    if findings:
        out.append("")
        out.extend(f"{f.location}: {f.code} {f.message}" for f in findings)
    return "\n".join(out) + "\n"
