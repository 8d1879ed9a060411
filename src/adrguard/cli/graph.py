"""``graph`` and ``relationships``: the decision graph and its declared edges."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from adrguard.api import graph as api_graph
from adrguard.cli import add_command
from adrguard.cli.common import FormatSpec, add_common, add_format, emit, info, load_config_for
from adrguard.core.outcome import EXIT_OK
from adrguard.core.wording import plural
from adrguard.reporters import formats as output_formats
from adrguard.reporters.graph_html import CDN_VERSION


def register(subparsers: Any) -> None:
    g = add_command(
        subparsers, "graph",
        description="Draw the records that have declared relationships: nodes styled by "
        "status, edges by kind (supersedes, amends, depends-on, relates-to, in-favour-of). "
        "Records without any relationship are left out (a line on stderr counts them); --all "
        "draws every record. A log without any relationship draws nothing and says so. Mermaid "
        "output renders on GitHub; --format html writes one page that draws it in a browser, "
        "each record linked to its file.",
        epilog="examples:\n  adrguard graph > decisions.mmd\n"
        "  adrguard graph --focus ADR-0012 --depth 3   # one supersession chain\n"
        "  adrguard graph --format dot | dot -Tsvg > decisions.svg\n"
        "  adrguard graph --format html -o decisions.html   # open it in a browser\n"
        "  adrguard graph --format html -o decisions.html --mermaid-js mermaid.min.js  # offline\n"
        "  adrguard graph --format json --focus ADR-0007 --depth 2",
    )
    add_common(g)
    add_format(g, "graph", help=output_formats.help_text("graph", last=", or "))
    g.add_argument("--mermaid-js", type=Path, metavar="PATH",
                   help="with --format html: inline this local mermaid.min.js (Mermaid's "
                   "browser build) so the page works offline; default: Mermaid "
                   f"{CDN_VERSION} from the jsDelivr CDN")
    g.add_argument(
        "--focus", metavar="ID", help="only this record's neighbourhood (id, number or path)"
    )
    g.add_argument("--depth", type=int, metavar="N",
                   help="with --focus: how many edges away to go (default 1)")
    g.add_argument("--all", action="store_true", dest="everything",
                   help="also draw the records that have no relationship")
    g.add_argument("--output", "-o", metavar="PATH", help="write to a file instead of stdout")
    g.set_defaults(func=run_graph)

    r = add_command(
        subparsers, "relationships",
        description="Every declared relationship (supersedes, superseded-by, depends-on, amends, "
        "...): source, type, target as written, the record it resolves to, and its state "
        "(resolved, unresolved, ambiguous, cyclic, inconsistent, inactive), then the ADR3xx "
        "findings. Nothing is inferred.",
        epilog="examples:\n  adrguard relationships\n"
        "  adrguard relationships ADR-0012 --format json",
    )
    r.add_argument("id", nargs="?", metavar="ID", help="only relationships from or to this record")
    add_common(r)
    add_format(r, "relationships")
    r.set_defaults(func=run_relationships)


def run_graph(args: argparse.Namespace) -> int:
    root, config = load_config_for(args)
    target = Path(args.output) if args.output else None
    page_dir = (target.parent if target is not None else Path.cwd()).absolute()
    out = api_graph.graph_text(
        root, config=config, fmt=args.format, focus=args.focus, depth=args.depth,
        everything=args.everything, page_dir=page_dir, mermaid_js=args.mermaid_js,
    )
    if out.nodes == 0 and out.omitted and args.focus is None:
        which = ("the only decision record has no relationship" if out.omitted == 1 else
                 f"none of the {out.omitted} decision records has a relationship to another")
        info(f"adrguard: {which}, so there is no graph to draw; --all draws every record as "
             "a node"
             + (" (the JSON below is empty)" if args.format == "json" else ""))
        if args.format != "json":  # data stays data; a picture of nothing is not drawn
            return EXIT_OK
    elif out.omitted:
        info(f"adrguard: {plural(out.omitted, 'record')} without relationships left out "
             f"({out.nodes} drawn); --all draws every record")
    if out.too_large:
        info(f"adrguard: {out.too_large}: GitHub will not draw this diagram; "
             "use --focus ID --depth N, or --format dot")
    emit(out.text, FormatSpec(args.format, target), root=root)
    if target is not None and args.format == "html":
        info(f"adrguard: wrote {target} ({plural(out.nodes, 'record')}, "
             f"{plural(out.edges, 'relationship')}): open it in a browser")
    return EXIT_OK


def run_relationships(args: argparse.Namespace) -> int:
    root, config = load_config_for(args)
    result = api_graph.relationships(root, config=config, decision=args.id)
    text = result.to_json() if args.format == "json" else result.to_text()
    emit(text, FormatSpec(args.format, None))
    return EXIT_OK
