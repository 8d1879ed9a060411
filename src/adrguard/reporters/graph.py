"""The decision graph as Mermaid, Graphviz DOT or JSON; the relationship table as text or JSON.

Pure: takes a :class:`~adrguard.core.graph.graph.Graph` (and optionally a focus), returns text.
By default only the records with a relationship are drawn (a log's many unrelated records would
make one tall column); ``everything`` draws them all (:func:`view`: the part of the graph every
graph output, the HTML page and the pull-request comment too, draws from). Nodes are styled by
status, edges by kind (:data:`STATUS_STYLES`, :data:`EDGE_STYLES`). Output is deterministic
(sorted, no timestamps).
"""

from __future__ import annotations

import json
import re
from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from adrguard.core.findings import Finding
from adrguard.core.graph.graph import Edge, Graph
from adrguard.core.model import Decision, status_key
from adrguard.core.textsafe import json_safe, neutralise
from adrguard.reporters.formats import renderer

# --- the part of the graph to draw ----------------------------------------------------------

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

# --- Mermaid --------------------------------------------------------------------------------
# The decision graph as a Mermaid flowchart that renders alike in Mermaid 10, 11 and 12.
#
# Labels are the record's short id and its title, cut at :data:`TITLE_LIMIT` characters (the full
# text stays in the JSON and DOT output). Every character that Mermaid's flowchart syntax, its
# entity decoding, KaTeX (``$$``) or the Markdown pass of Mermaid 11.0-11.9 gives a meaning to is
# written as a Mermaid entity code (``#42;``), so a title shows exactly as written: no "Unsupported
# markdown: link" for a bare URL, no list for a title starting ``- ``, no HTML. The styles are data
# (:data:`STATUS_STYLES`, :data:`EDGE_STYLES`) shared with the DOT output and described in
# ``docs/graph.md``; node fills carry their own text colour and every line colour keeps a 3:1
# contrast on white and on GitHub's dark background, so the picture works in both themes.

MAX_TEXT = 50_000  # Mermaid's maxTextSize: above it, a red "Maximum text size" box instead
MAX_EDGES = 500  # Mermaid's maxEdges (GitHub renders no more)
TITLE_LIMIT = 70  # characters of a title drawn in a node
ID_LIMIT = 24  # characters of an id drawn in a node


@dataclass(frozen=True)
class NodeStyle:
    fill: str
    stroke: str
    text: str
    dash: str | None  # SVG stroke-dasharray of the border, None for solid
    looks: str  # what a reader sees, for docs/graph.md


@dataclass(frozen=True)
class EdgeStyle:
    colour: str
    arrow: str  # Mermaid link syntax
    dash: str | None  # SVG stroke-dasharray, None for solid
    dot: str  # Graphviz style
    looks: str


# status -> look; "none" = no status stated. Fills are light with dark text in both themes. The
# border says where a record stands: solid = decided (accepted, rejected), dashed = no longer in
# force (superseded, deprecated), dotted = not decided yet (proposed, draft, no status).
STATUS_STYLES: Mapping[str, NodeStyle] = {
    "accepted": NodeStyle("#dafbe1", "#1a7f37", "#0f3d1c", None, "green box, solid green border"),
    "proposed": NodeStyle("#ddf4ff", "#0969da", "#0a3069", "2 2",
                          "blue box, dotted blue border"),
    "draft": NodeStyle("#eaeef2", "#57606a", "#24292f", "2 2", "grey box, dotted grey border"),
    "rejected": NodeStyle("#ffebe9", "#cf222e", "#82071e", None, "red box, solid red border"),
    "deprecated": NodeStyle("#fff8c5", "#9a6700", "#4d2d00", "6 3",
                            "yellow box, dashed brown border"),
    "superseded": NodeStyle("#ffffff", "#6e7781", "#57606a", "6 3",
                            "white box, dashed grey border, grey text"),
    "unknown": NodeStyle("#fbefff", "#8250df", "#3e1f79", None,
                         "lilac box, solid purple border (a status outside the vocabulary)"),
    "none": NodeStyle("#ffffff", "#6e7781", "#24292f", "2 2",
                      "white box, dotted grey border (no status stated)"),
}
BORDER = "2px"
EMPHASIS = "4px"  # the --focus record, the decisions governing a pull request
EDGE_WIDTH = "2px"
EDGE_STYLES: Mapping[str, EdgeStyle] = {
    "supersedes": EdgeStyle("#cf222e", "-->", None, "solid", "red solid arrow"),
    "amends": EdgeStyle("#bc4c00", "-.->", "8 4", "dashed", "orange dashed arrow"),
    "depends-on": EdgeStyle("#0969da", "-.->", "2 4", "dotted", "blue dotted arrow"),
    "relates-to": EdgeStyle("#6e7781", "---", None, "solid", "grey solid line, no arrowhead"),
    "in-favour-of": EdgeStyle("#8250df", "-.->", "8 3 2 3", "dashed",
                              "purple dash-dot arrow"),
}

# Characters with a meaning to the flowchart grammar (quotes, brackets, |, %% comments, ;),
# to entity decoding (# &), to HTML (< >), to KaTeX ($), and to the Markdown that Mermaid
# 11.0-11.9 apply to every label: code spans, emphasis, strikethrough, escapes, images, links
# and autolinks (`scheme:`, `user@host`), font-awesome icons (`fa:`).
_ESCAPED = frozenset('"#&<>[](){}|%;`*_~\\!@:$')
_WWW = re.compile(r"(?i)(?<![0-9a-z])www\.")  # GFM autolinks www.example.com
_ORDERED = re.compile(r"^(\d+)([.)])")  # "1. x" or "1) x" at the start: an ordered list


def mermaid_text(text: str) -> str:
    """``text`` on one line, every special character as a Mermaid entity code (``#42;``);
    also the first character unless it is a letter or digit (no list, heading or quote), the
    dot of a leading ``1.`` and of ``www.``."""
    flat = " ".join(neutralise(text).split())
    force = {m.end() - 1 for m in _WWW.finditer(flat)}
    ordered = _ORDERED.match(flat)
    if ordered:
        force.add(ordered.end() - 1)
    return "".join(
        f"#{ord(ch)};" if ch in _ESCAPED or i in force or (i == 0 and not ch.isalnum()) else ch
        for i, ch in enumerate(flat)
    )


def clip(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters at a word boundary when one is near, with "…"."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    space = cut.rfind(" ")
    if space >= limit * 2 // 3:
        cut = cut[:space]
    return cut.rstrip(" ,;:-") + "…"


_TOKEN = re.compile(r"[A-Za-z0-9]+")


def short_id(d: Decision) -> str:
    """The id without a slug that repeats the title: ``20200924-use-markdown`` -> ``20200924``,
    ``2022-10-01-ci-cd`` -> ``2022-10-01``, ``adr-0004-use-x`` -> ``adr-0004``; ``ADR-0004`` and
    ``SCS-0001-v1`` stay as they are. An id with no number that is the title's slug is dropped."""
    ident = d.id
    tokens = list(_TOKEN.finditer(ident))
    first = next((i for i, t in enumerate(tokens) if t.group().isdigit()), None)
    if first is None:
        slug = "-".join(t.group().lower() for t in tokens)
        title = "-".join(t.group().lower() for t in _TOKEN.finditer(d.title or ""))
        return "" if slug and title.startswith(slug) else clip(ident, ID_LIMIT)
    last = first
    while last + 1 < len(tokens) and tokens[last + 1].group().isdigit():
        last += 1
    rest = tokens[last + 1:]
    if sum(1 for t in rest if not t.group().isdigit()) >= 2:
        ident = ident[: tokens[last].end()]
    return clip(ident, ID_LIMIT)


def label_parts(d: Decision) -> tuple[str, str]:
    """What a node says, before escaping: the short id ("" when it would repeat the title)
    and the title cut at TITLE_LIMIT."""
    title = clip(" ".join((d.title or "").split()), TITLE_LIMIT) or "(untitled)"
    ident = short_id(d)
    return (ident if ident and ident not in title else ""), title


def label(d: Decision) -> str:
    """The node label, escaped: ``short id: title``."""
    ident, title = label_parts(d)
    return f"{mermaid_text(ident)}: {mermaid_text(title)}" if ident else mermaid_text(title)


def _class_def(name: str, style: NodeStyle, width: str) -> str:
    dash = f",stroke-dasharray:{style.dash}" if style.dash else ""
    return (f"  classDef {name} fill:{style.fill},stroke:{style.stroke},color:{style.text},"
            f"stroke-width:{width}{dash}")


def render_mermaid(v: View) -> str:
    """``flowchart LR``: one quoted node per record, one link per edge, a class per status
    (``st_<status>``, ``st_<status>_em`` for emphasised records), a linkStyle per edge kind."""
    names = {d.path: f"n{i}" for i, d in enumerate(v.nodes)}
    lines = ["flowchart LR"]
    for d in v.nodes:
        lines.append(f'  {names[d.path]}["{label(d)}"]')
    by_kind: dict[str, list[int]] = {}
    for i, e in enumerate(v.edges):
        lines.append(f"  {names[e.source]} {EDGE_STYLES[e.kind].arrow}|{e.kind}| {names[e.target]}")
        by_kind.setdefault(e.kind, []).append(i)
    groups: dict[str, list[str]] = {}
    for d in v.nodes:
        suffix = "_em" if d.path in v.emphasis else ""
        groups.setdefault(f"st_{status_key(d)}{suffix}", []).append(names[d.path])
    for name in sorted(groups):
        status = name[3:].removesuffix("_em")
        width = EMPHASIS if name.endswith("_em") else BORDER
        lines.append(_class_def(name, STATUS_STYLES[status], width))
        lines.append(f"  class {','.join(groups[name])} {name}")
    for kind, style in EDGE_STYLES.items():
        if kind in by_kind:
            dash = f",stroke-dasharray:{style.dash}" if style.dash else ""
            idx = ",".join(str(i) for i in by_kind[kind])
            lines.append(f"  linkStyle {idx} stroke:{style.colour},stroke-width:{EDGE_WIDTH}{dash}")
    return "\n".join(lines) + "\n"


def too_large(text: str, edges: int) -> str | None:
    """Why Mermaid would not draw ``text`` (None when it would)."""
    if edges > MAX_EDGES:
        return f"{edges} edges (Mermaid draws at most {MAX_EDGES})"
    size = len(text.encode("utf-16-le")) // 2  # Mermaid counts JavaScript (UTF-16) units
    if size > MAX_TEXT:
        return f"{size:,} characters (Mermaid draws at most {MAX_TEXT:,})"
    return None

# --- JSON, DOT and the relationship table ---------------------------------------------------

SCHEMA_VERSION = 1


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
        status = status_key(d)
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
