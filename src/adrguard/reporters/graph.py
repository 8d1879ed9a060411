"""The decision graph as Mermaid, Graphviz DOT or JSON; the relationship table as text or JSON.

Pure: takes a :class:`~adrguard.core.graph.graph.Graph` (and optionally a focus), returns text.
By default only the records with a relationship are drawn (a log's many unrelated records would
make one tall column); ``everything`` draws them all. Nodes are styled by status, edges by kind
(:mod:`adrguard.reporters.mermaid` holds the styles and the Mermaid output). Output is
deterministic (sorted, no timestamps).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from adrguard.core.findings import Finding
from adrguard.core.graph.graph import Graph
from adrguard.core.model import Decision
from adrguard.core.textsafe import json_safe, neutralise
from adrguard.reporters.formats import names, renderer
from adrguard.reporters.graph_view import View, view
from adrguard.reporters.mermaid import (
    BORDER,
    EDGE_STYLES,
    EMPHASIS,
    MAX_EDGES,
    STATUS_STYLES,
    mermaid_text,
    render_mermaid,
    status_of,
)

__all__ = ["View", "mermaid_text", "render", "render_mermaid", "status_of", "view"]

SCHEMA_VERSION = 1
FORMATS = tuple(n for n in names("graph") if n != "html")  # drawn from a view alone
MERMAID_MAX_EDGES = MAX_EDGES  # GitHub's Mermaid refuses to render more


def to_data(v: View) -> dict[str, Any]:
    return {
        "schemaVersion": SCHEMA_VERSION,
        "focus": v.focus.id if v.focus is not None else None,
        "depth": v.depth,
        "omitted": v.omitted,
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


def dot_text(text: str) -> str:
    flat = " ".join(neutralise(text).split())
    return flat.replace("\\", "\\\\").replace('"', '\\"')


def render_dot(v: View) -> str:
    lines = [
        "digraph decisions {",
        "  rankdir=LR;",
        '  node [shape=box, style="rounded,filled", fontname="Helvetica"];',
        '  edge [fontname="Helvetica", fontsize=10, penwidth=2];',
    ]
    for d in v.nodes:
        status = status_of(d)
        st = STATUS_STYLES[status]
        label = f"{dot_text(d.id)}\\n{dot_text(d.title or '(untitled)')}"
        width = (EMPHASIS if d.path in v.emphasis else BORDER).removesuffix("px")
        dashed = ",dotted" if st.dash == "2 2" else ",dashed" if st.dash else ""
        lines.append(
            f'  "{dot_text(d.path)}" [label="{label}", fillcolor="{st.fill}", color="{st.stroke}", '
            f'fontcolor="{st.text}", style="rounded,filled{dashed}", penwidth={width}, '
            f'tooltip="{status}"];'
        )
    for e in v.edges:
        es = EDGE_STYLES[e.kind]
        head = ", arrowhead=none" if es.arrow == "---" else ""
        lines.append(
            f'  "{dot_text(e.source)}" -> "{dot_text(e.target)}" '
            f'[label="{e.kind}", color="{es.colour}", fontcolor="{es.colour}", '
            f'style={es.dot}{head}];'
        )
    lines.append("}")
    return "\n".join(lines) + "\n"


def render(fmt: str, v: View) -> str:
    """``v`` in the ``graph`` format ``fmt`` other than ``html`` (the page needs its links:
    :func:`adrguard.reporters.graph_html.render_html`); the registry names the function."""
    return renderer("graph", fmt)(v)


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
