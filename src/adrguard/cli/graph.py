"""``graph`` and ``relationships``: the decision graph and its declared edges."""

from __future__ import annotations

import argparse
from typing import Any

from adrguard.cli.common import FormatSpec, add_common, emit, info, load_config_for


def register(subparsers: Any) -> None:
    g = subparsers.add_parser(
        "graph",
        help="draw the decision graph (mermaid, dot, json)",
        description="Draw the records that have declared relationships: nodes styled by "
        "status, edges by kind (supersedes, amends, depends-on, relates-to, in-favour-of). "
        "Records without any relationship are left out (a line on stderr counts them); --all "
        "draws every record. Mermaid output renders on GitHub.",
        epilog="examples:\n  adrguard graph > decisions.mmd\n"
        "  adrguard graph --focus ADR-0012 --depth 3   # one supersession chain\n"
        "  adrguard graph --format dot | dot -Tsvg > decisions.svg\n"
        "  adrguard graph --format json --focus ADR-0007 --depth 2",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_common(g)
    g.add_argument("--format", choices=("mermaid", "dot", "json"), default="mermaid")
    g.add_argument(
        "--focus", metavar="ID", help="only this record's neighbourhood (id, number or path)"
    )
    g.add_argument("--depth", type=int, metavar="N",
                   help="with --focus: how many edges away to go (default 1)")
    g.add_argument("--all", action="store_true", dest="everything",
                   help="also draw the records that have no relationship")
    g.add_argument("--output", "-o", metavar="PATH", help="write to a file instead of stdout")
    g.set_defaults(func=run_graph)

    r = subparsers.add_parser(
        "relationships",
        help="list declared relationships and their problems",
        description="Every declared relationship (supersedes, superseded-by, depends-on, amends, "
        "...): source, type, target as written, the record it resolves to, and its state "
        "(resolved, unresolved, ambiguous, cyclic, inconsistent, inactive), then the ADR3xx "
        "findings. Nothing is inferred.",
        epilog="examples:\n  adrguard relationships\n"
        "  adrguard relationships ADR-0012 --format json",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    r.add_argument("id", nargs="?", metavar="ID", help="only relationships from or to this record")
    add_common(r)
    r.add_argument("--format", choices=("text", "json"), default="text")
    r.set_defaults(func=run_relationships)


def run_graph(args: argparse.Namespace) -> int:
    from pathlib import Path

    from adrguard.api import graph as api_graph

    root, config = load_config_for(args)
    out = api_graph.graph_text(
        root, config=config, fmt=args.format, focus=args.focus, depth=args.depth,
        everything=args.everything,
    )
    if out.omitted:
        records = "record" if out.omitted == 1 else "records"
        info(f"adrguard: {out.omitted} {records} without relationships left out "
             f"({out.nodes} drawn); --all draws every record")
    if out.too_large:
        info(f"adrguard: {out.too_large}: GitHub will not draw this diagram; "
             "use --focus ID --depth N, or --format dot")
    emit(out.text, FormatSpec(args.format, Path(args.output) if args.output else None),
         root=root)
    return 0


def run_relationships(args: argparse.Namespace) -> int:
    from adrguard.api import graph as api_graph

    root, config = load_config_for(args)
    result = api_graph.relationships(root, config=config, decision=args.id)
    text = result.to_json() if args.format == "json" else result.to_text()
    emit(text, FormatSpec(args.format, None))
    return 0
