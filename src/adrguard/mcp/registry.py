"""The one place that says which tools ``adrguard mcp`` offers, in the order it lists them.

A feature that adds a tool keeps it in its own module (``mcp/<feature>.py``) as a
:class:`~adrguard.mcp.contract.Tool` value (or a tuple of them) and adds one line below. The
server checks every tool when it starts (:func:`check`): a unique name, a strict parameter model,
an answer model that names ``schemaVersion``. See "Adding a tool" in ``docs/agents.md``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from adrguard.mcp import tools, verify
from adrguard.mcp.contract import Params, Tool


def registered() -> tuple[Tool, ...]:
    """Every tool the server offers."""
    return (
        *tools.TOOLS,  # list/get/search/relationships/validate, find, context, impact (issue 17)
        *verify.TOOLS,  # verify_architecture (issue 18)
    )


def check(tools: Sequence[Tool]) -> None:
    """Refuse a set of tools that breaks the contract (a bug in adrguard, found at start-up)."""
    seen: set[str] = set()
    for tool in tools:
        if tool.name in seen:
            raise ValueError(f"two MCP tools are named {tool.name!r}")
        seen.add(tool.name)
        if not issubclass(tool.params, Params):
            raise ValueError(f"{tool.name}: parameters must be a contract.Params model")
        if "schemaVersion" not in tool.result.model_fields:
            raise ValueError(f"{tool.name}: its answer model must name schemaVersion")
        clash = set(tool.aliases) & set(tool.params.model_fields)
        unknown = set(tool.aliases.values()) - set(tool.params.model_fields)
        if clash or unknown:
            raise ValueError(f"{tool.name}: aliases must map old names to parameters")


SCHEMA_FILE = "schemas/mcp-tools.schema.json"


def published() -> dict[str, Any]:
    """What ``tools/list`` publishes of every tool (its input and output schema), as the
    document kept in ``schemas/mcp-tools.schema.json``."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "adrguard MCP tools",
        "description": "Every answer of every tool of `adrguard mcp` is an object with "
        "schemaVersion 1.0. `tools` holds each tool's input and output schema as tools/list "
        "publishes them; `adrguard find/context/search --format json` print the output of "
        "find_adrs, adr_context and search_adrs. Generated from src/adrguard/mcp/registry.py: "
        "see docs/agents.md.",
        "type": "object",
        "required": ["schemaVersion"],
        "properties": {"schemaVersion": {"const": "1.0"}},
        "tools": {
            t.name: {"input": t.input_schema(), "output": t.output_schema()} for t in registered()
        },
    }
