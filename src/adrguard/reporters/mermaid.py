"""The decision graph as a Mermaid flowchart that renders alike in Mermaid 10, 11 and 12.

Labels are the record's short id and its title, cut at :data:`TITLE_LIMIT` characters (the full
text stays in the JSON and DOT output). Every character that Mermaid's flowchart syntax, its
entity decoding, KaTeX (``$$``) or the Markdown pass of Mermaid 11.0-11.9 gives a meaning to is
written as a Mermaid entity code (``#42;``), so a title shows exactly as written: no "Unsupported
markdown: link" for a bare URL, no list for a title starting ``- ``, no HTML. The styles are data
(:data:`STATUS_STYLES`, :data:`EDGE_STYLES`) shared with the DOT output and described in
``docs/graph.md``; node fills carry their own text colour and every line colour keeps a 3:1
contrast on white and on GitHub's dark background, so the picture works in both themes.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from adrguard.core.model import Decision
from adrguard.core.textsafe import neutralise

if TYPE_CHECKING:
    from adrguard.reporters.graph_view import View

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


def status_of(d: Decision) -> str:
    return d.status.value if d.status is not None else "none"


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
        groups.setdefault(f"st_{status_of(d)}{suffix}", []).append(names[d.path])
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
