"""``citations``: which code and documents cite a decision, and which cite one that no longer
holds (read-only; the scan is cached in the user cache folder)."""

from __future__ import annotations

import argparse
from typing import Any

from adrguard.api.citation_answers import report
from adrguard.cli import add_command
from adrguard.cli.common import add_common, add_format, load_config_for, print_json
from adrguard.cli.common import out as print_line
from adrguard.core.outcome import EXIT_OK
from adrguard.core.wording import plural


def register(subparsers: Any) -> None:
    p = add_command(
        subparsers, "citations",
        description="List the citations of decisions in the repository's code and documents "
        "outside the ADR roots: ids in comments and prose (ADR-0004, ADR 4), links into the ADR "
        "folder, front-matter keys (adrs:) and table rows labelled ADRs. With ID, only the "
        "citations of that record (its id, number or path). See docs/citations.md.",
        epilog="examples:\n  adrguard citations\n  adrguard citations ADR-0004 --kind code\n"
        "  adrguard citations --state unknown --format json",
    )
    p.add_argument("id", nargs="?", metavar="ID", help="a record id, number or path")
    add_common(p)
    p.add_argument("--kind", choices=("code", "doc"), help="only citations in code or documents")
    p.add_argument(
        "--state",
        choices=("resolved", "unknown", "ambiguous"),
        help="only citations that name a record, none, or several",
    )
    add_format(p, "citations")
    p.set_defaults(func=run_citations)


def run_citations(args: argparse.Namespace) -> int:
    root, config = load_config_for(args)
    data = report(root, config, args.id, kind=args.kind, state=args.state)
    if args.format == "json":
        print_json(data)
        return EXIT_OK
    lines = [_line(row) for row in data["citations"]]
    what = f" of {data['decision']['id']}" if data["decision"] else ""
    lines.append(
        f"{plural(data['total'], 'citation')}{what} in {plural(data['files'], 'file')} "
        f"({data['scanned']:,} files scanned)"
    )
    print_line("\n".join(lines))
    return EXIT_OK


def _line(row: dict[str, Any]) -> str:
    d = row["decision"]
    if d is not None:
        named = f"{d['id']} [{d['status'] or 'no status'}]"
    elif row["state"] == "ambiguous":
        named = f"ambiguous: {', '.join(row['candidates'])}"
    else:
        named = "unknown decision"
    where = f"{row['path']}:{row['line']}:{row['column']}"
    return f"{where}  {row['kind']:<4}  {row['text']} -> {named}\n    {row['excerpt']}"
