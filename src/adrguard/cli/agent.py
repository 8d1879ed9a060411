"""``find``, ``context`` and ``search``: the read-only agent queries on the command line.

The same functions back the MCP server (``adrguard mcp``); ``--format json`` prints exactly
what the server's tools return (``find_adrs``, ``adr_context``, ``search_adrs``).
"""

from __future__ import annotations

import argparse
import textwrap
from typing import Any

from adrguard.api import STATUS_CHOICES
from adrguard.api.agent.surface import (
    INTENT_HELP,
    INTENTS,
    Workspace,
    adr_context,
    find_adrs,
    search_adrs,
)
from adrguard.cli import add_command
from adrguard.cli.common import add_common, add_format, print_json, quiet, split_values
from adrguard.cli.common import out as print_line
from adrguard.config import repository_setting
from adrguard.core.outcome import EXIT_OK
from adrguard.core.wording import plural


def _workspace(args: argparse.Namespace) -> Any:
    repository = repository_setting(args.repository_url, "--repository-url")
    return Workspace.open(args.root, args.config, cache=not args.no_cache, jobs=0,
                          repository=repository)


def _filters(p: argparse.ArgumentParser) -> None:
    """``find``'s and ``context``'s last options: --status, --no-ai and --format."""
    p.add_argument(
        "--status",
        action="append",
        default=[],
        metavar="STATUS[,STATUS]",
        help=(
            "statuses to include (default: `impact.statuses` from the config, else accepted); "
            f"any of {', '.join(STATUS_CHOICES)}, or all"
        ),
    )
    p.add_argument(
        "--no-ai",
        action="store_true",
        help="never ask the model provider of [ai]: keyword results (the answer says so)",
    )
    add_format(p, "agent", help="output format")


def register(subparsers: Any) -> None:
    p = add_command(
        subparsers, "find",
        description="Deterministic retrieval: path/component match (front matter and the impact "
        "manifest), status filter, successors and dependencies, then BM25 keyword ranking. "
        "When [ai] configures a model provider and a topic is given, the model judges the "
        "records that survived those layers (never the whole log; only the topic and short "
        "summaries are sent); a provider that fails gives keyword results and a warning. "
        "Each result says why it matched, with a confidence from 0 to 1.",
        epilog="examples:\n  adrguard find --paths src/api/routes.py src/db/models.py\n"
        "  adrguard find --topic 'database migrations' --format json\n"
        "  adrguard find --topic 'deleting old code' --no-ai",
    )
    add_common(p)
    p.add_argument("--paths", nargs="+", default=[], metavar="PATH", help="files being edited")
    p.add_argument("--topic", help="words describing the change")
    p.add_argument("--limit", type=int, default=10, help="results (1-100, default 10)")
    _filters(p)
    p.set_defaults(func=run_find)

    p = add_command(
        subparsers, "context",
        description="Decision units (a record, or a part of a long record split at headings) for "
        "one record, or for what `find` returns for paths/a topic; with none of those, the log's "
        "index. At most --max-units units and --max-chars code points per response; the rest is "
        "counted and a --cursor resumes it. An ambiguous successor is reported, never chosen; "
        "each root's CURRENT.md is reported fresh, stale, invalid or absent.",
        epilog="examples:\n  adrguard context\n  adrguard context ADR-0007\n"
        "  adrguard context --paths src/api/x.py\n"
        "  adrguard context --topic caching --cursor CURSOR\n"
        "  adrguard context ADR-0007 --intent history\n"
        "  adrguard context --domain payments --intent rationale",
    )
    add_common(p)
    p.add_argument("id", nargs="?", help="a record id, number or path (ID#N: part N only)")
    p.add_argument("--paths", nargs="+", default=[], metavar="PATH", help="files being edited")
    p.add_argument("--topic", help="words describing the change")
    p.add_argument(
        "--intent",
        choices=INTENTS,
        default=None,
        help=INTENT_HELP,
    )
    p.add_argument(
        "--domain",
        help="records in this domain (front matter domain/domains/category/categories, or the "
        "folder below the ADR root)",
    )
    p.add_argument(
        "--iteration",
        help="records of this iteration (front matter iteration/iterations/milestone/release)",
    )
    p.add_argument("--cursor", help="continue a previous response")
    p.add_argument("--max-units", type=int, default=None, help="units per response (default 8)")
    p.add_argument(
        "--max-chars", type=int, default=None, help="code points per response (default 12000)"
    )
    _filters(p)
    p.set_defaults(func=run_context)

    p = add_command(
        subparsers, "search",
        description="Case-insensitive AND of the distinct whitespace-separated terms over "
        "identifier, title and markdown, ranked best first (BM25 over the markdown, plus a "
        "boost for a match in the title or identifier), up to --limit; each result shows the "
        "markdown around the place where the most terms occur together. Exit 1 when nothing "
        "matches, like grep. A term adr:ID (adr:0004) asks what cites that decision: the "
        "records that refer to it and the code and documents outside the ADR roots that cite "
        "it.",
        epilog="examples:\n  adrguard search postgres replica\n"
        "  adrguard search kafka --format json\n"
        "  adrguard search adr:0004\n"
        "  adrguard search -q cache && echo decided   # exit 0: something matched",
    )
    add_common(p)
    p.add_argument("query", help="words that must all occur")
    p.add_argument("--limit", type=int, default=20, help="results (1-100, default 20)")
    add_format(p, "agent", help="output format")
    p.set_defaults(func=run_search)


def run_find(args: argparse.Namespace) -> int:
    data = find_adrs(
        _workspace(args),
        paths=args.paths,
        topic=args.topic,
        status=split_values(args.status),
        limit=args.limit,
        no_ai=args.no_ai,
    )
    if args.format == "json":
        print_json(data)
        return EXIT_OK
    lines = []
    for r in data["results"]:
        lines.append(
            f"{r['identifier']}  {r['title'] or '(untitled)'}  [{r['status'] or 'none'}]  "
            f"confidence {r['confidence']:.2f}" + ("" if r["judgedBy"] == "ai" else
                                                   f", score {r['score']}")
        )
        lines.append(f"    {r['path']}")
        if r["judgedBy"] == "ai":
            lines.append(f"    model: {r['reason']}")
        why = "; ".join(_reason(x) for x in r["reasons"])
        if why:
            lines.append(f"    why: {why}")
    if not data["results"]:
        lines.append("no decision found")
    if data["method"] == "ai":
        ai = data["ai"]
        how = "cached answer of" if data["cached"] else "judged by"
        lines.append(
            f"{how} {ai['model']} ({ai['provider']}) over {ai['candidates']} candidate(s); "
            f"threshold {ai['threshold']}"
        )
    lines += [f"note: {n}" for n in data["notes"]]
    lines += [f"warning: {w}" for w in data["warnings"]]
    print_line("\n".join(lines))
    return EXIT_OK


def _reason(r: dict[str, str]) -> str:
    text = f"{r['kind']} {r['detail']}"
    if "path" in r and r["kind"] != "record":
        text += f" ({r['path']})"
    if "via" in r:
        text += f" via {r['via']}"
    return text


def run_context(args: argparse.Namespace) -> int:
    data = adr_context(
        _workspace(args),
        identifier=args.id,
        paths=args.paths,
        topic=args.topic,
        status=split_values(args.status),
        cursor=args.cursor,
        max_units=args.max_units,
        max_chars=args.max_chars,
        intent=args.intent,
        domain=args.domain,
        iteration=args.iteration,
        no_ai=args.no_ai,
    )
    if args.format == "json":
        print_json(data)
        return EXIT_OK
    out: list[str] = []
    for u in data["units"]:
        part = f" (part {u['part']} of {u['parts']} of {u['identifier']})" if u["parts"] > 1 else ""
        out.append(f"=== {u['key']}: {u['title'] or '(untitled)'} [{u['status']}]{part}")
        out.append(f"source: {u['path']}:{u['startLine']}-{u['endLine']} · {u['why']}")
        out.append(u["text"].rstrip("\n"))
        out.append("")
    for row in data["index"]:
        out.append(f"{row['identifier']}  [{row['status']}]  {row['title'] or '(untitled)'}")
        out.append(f"    {row['path']}")
    out += [f"warning: {w}" for w in data["warnings"]]
    for f in data["freshness"]:
        if f["state"] != "absent":
            out.append(f"{f['view']}: {f['state']}")
    shown = len(data["units"]) or len(data["index"])
    # one wording with the headers: a unit is a whole record, or one part of a long record
    what = (f"index rows shown: {shown} of {data['totalUnits']}" if data["mode"] == "overview"
            else f"units shown: {shown} of {data['totalUnits']} (a unit is a record, or one "
                 "part of a long record)")
    out.append(
        f"{what}; {data['leftOut']} left out; "
        f"{data['codePoints']:,} code points, {data['bytes']:,} bytes, "
        f"~{data['tokensEstimate']:,} tokens (estimate)"
    )
    if data.get("method") == "ai" and data.get("ai"):
        out.append(f"selected by {data['ai']['model']} ({data['ai']['provider']})")
    if data["cursor"]:
        out.append(f"continue with: --cursor {data['cursor']}")
    print_line("\n".join(out))
    return EXIT_OK


def run_search(args: argparse.Namespace) -> int:
    data = search_adrs(_workspace(args), args.query, args.limit)
    found = 0 if data["results"] or data.get("citations") else 1  # like grep: 1 = no match
    if args.format == "json":
        print_json(data)
        return found
    if quiet():
        return found
    out: list[str] = []
    for r in data["results"]:
        out.append(
            f"{r['identifier']}  {r['title'] or '(untitled)'}  [{r['status'] or 'none'}]  "
            f"({', '.join(r['matchedFields'])})"
        )
        out.append(f"    {r['path']}:{r['line']}")
        if r["excerpt"]:
            out.append(textwrap.indent(r["excerpt"], "    "))
    shown = len(data["results"])
    total = data.get("total", shown)
    if data["truncated"]:
        out.append(f"{total} matching records, the best {shown} shown (raise --limit above "
                   f"{args.limit} for more)")
    else:
        out.append(plural(shown, "matching record"))
    if data["notSearchedTotal"]:
        unread = plural(data["notSearchedTotal"], "record")
        out.append(f"note: {unread} could not be read, not searched")
    if "citations" in data:  # adr:ID: the code and documents citing the decision
        for c in data["citations"]:
            out.append(f"{c['path']}:{c['line']}  {c['kind']}  {c['text']}")
            out.append(textwrap.indent(c["excerpt"], "    "))
        cited = ", ".join(d["identifier"] for d in data["cites"]) or "an unknown decision"
        total = plural(data["citationTotal"], "citation")
        out.append(f"{len(data['citations'])} of {total} of {cited} in code and documents")
    print_line("\n".join(out))
    return found
