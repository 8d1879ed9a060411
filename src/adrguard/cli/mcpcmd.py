"""``adrguard mcp``: serve the agent tools over MCP (stdio) for one repository.

The MCP SDK is an optional extra; without it this prints one line with the install hint.
"""

from __future__ import annotations

import argparse
from typing import Any

from adrguard.api.agent.surface import Limits
from adrguard.cli import add_command
from adrguard.cli.common import add_common
from adrguard.config import repository_setting
from adrguard.core.errors import UserError
from adrguard.core.outcome import EXIT_OK
from adrguard.core.schemas import load_schema
from adrguard.mcp import INSTALL_HINT, available


def tool_names() -> list[str]:
    """The tools the server offers, in its order, from the schema the server publishes
    (``schemas/mcp-tools.schema.json``, generated from the registry; read without the SDK)."""
    return list(load_schema("mcp-tools.schema.json")["tools"])


def register(subparsers: Any) -> None:
    p = add_command(
        subparsers, "mcp", rewrap=True,
        description="Start an MCP server on stdin/stdout bound to the repository (--repo). Tools: "
        f"{', '.join(tool_names())} (docs/agents.md). Needs the extra: "
        "pip install 'adrguard[mcp]'.",
    )
    add_common(p)
    p.add_argument(
        "--max-records",
        type=int,
        default=None,
        metavar="N",
        help="ADRs list_adrs may list in one response (default 1000)",
    )
    p.add_argument(
        "--max-response-bytes",
        type=int,
        default=None,
        metavar="N",
        help="bytes of one response (default 1048576)",
    )
    p.add_argument(
        "--timeout",
        type=float,
        default=None,
        metavar="SECONDS",
        help="seconds one tool call may take before it fails with a timeout error (default 60)",
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

    out = Limits()
    for name in ("max_records", "max_response_bytes", "max_units", "max_chars"):
        value = getattr(args, name)
        if value is not None:
            if value < 1:
                raise UserError(f"--{name.replace('_', '-')} must be 1 or more")
            out = replace(out, **{name: value})
    timeout = getattr(args, "timeout", None)
    if timeout is not None:
        if not 0 < timeout <= 86_400:
            raise UserError("--timeout must be more than 0 and at most 86400 seconds")
        out = replace(out, timeout=timeout)
    return out


def run(args: argparse.Namespace) -> int:
    if not available():
        raise UserError(f"the MCP server needs the mcp package: {INSTALL_HINT}")
    chosen = limits(args)

    repository = repository_setting(args.repository_url, "--repository-url")
    import logging

    from adrguard.mcp.server import serve

    # the protocol owns stdout: what the server logs goes to stderr
    logging.basicConfig(level=logging.WARNING, format="adrguard mcp: %(levelname)s %(message)s")

    serve(args.root, args.config, chosen, cache=not args.no_cache, repository=repository)
    return EXIT_OK
