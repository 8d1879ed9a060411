"""``adrguard mcp``: serve the agent tools over MCP (stdio) for one repository.

The MCP SDK is an optional extra; without it this prints one line with the install hint.
"""

from __future__ import annotations

import argparse
from typing import Any

from adrguard.cli.common import add_common
from adrguard.core.errors import UserError


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "mcp",
        help="serve read-only ADR tools to coding agents over MCP (stdio)",
        description="Start an MCP server on stdin/stdout bound to the repository (--repo). Tools: "
        "list_adrs, get_adr, search_adrs, get_adr_relationships, validate_adrs, find_adrs, "
        "adr_context, analyze_impact. Needs the extra: pip install 'adrguard[mcp]'.",
    )
    add_common(p)
    p.add_argument(
        "--max-records",
        type=int,
        default=None,
        metavar="N",
        help="records one response may list (default 10000)",
    )
    p.add_argument(
        "--max-response-bytes",
        type=int,
        default=None,
        metavar="N",
        help="bytes of one response (default 1048576)",
    )
    p.add_argument(
        "--max-units",
        type=int,
        default=None,
        metavar="N",
        help="context units per response (default 8)",
    )
    p.add_argument(
        "--max-chars",
        type=int,
        default=None,
        metavar="N",
        help="context code points per response (default 12000)",
    )
    p.set_defaults(func=run)


def limits(args: argparse.Namespace) -> Any:
    from dataclasses import replace

    from adrguard.api.agent import Limits

    out = Limits()
    for name in ("max_records", "max_response_bytes", "max_units", "max_chars"):
        value = getattr(args, name)
        if value is not None:
            if value < 1:
                raise UserError(f"--{name.replace('_', '-')} must be 1 or more")
            out = replace(out, **{name: value})
    return out


def run(args: argparse.Namespace) -> int:
    from adrguard.mcp import INSTALL_HINT, available

    if not available():
        raise UserError(f"the MCP server needs the mcp package: {INSTALL_HINT}")
    chosen = limits(args)
    from adrguard.mcp.server import serve

    serve(args.root, args.config, chosen, cache=not args.no_cache)
    return 0
