"""Helpers for the MCP tests: a server in memory, calls, and the checks every answer and every
error must pass (seed fields, schemaVersion, no absolute path in a message)."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError

from adrguard.api.agent.workspace import Limits, Workspace
from adrguard.mcp.server import build_server

# JSON-RPC codes of the failure classes (docs/agents.md)
CODES = {
    "invalid-params": -32602,
    "timeout": -32001,
    "configuration": -32010,
    "operational": -32011,
    "limit": -32012,
    "internal": -32603,
}
# the fields the seed's contract names, per tool
SUMMARY_FIELDS = {"identifier", "title", "status", "path", "format"}
_ABSOLUTE = re.compile(r"(?<![\w.:/~\\-])/(?!/)[^\s'\"`,;()]+|\b[A-Za-z]:[\\/]")


def server_for(root: Path, **limits: Any) -> Any:
    return build_server(Workspace.open(root, limits=Limits(**limits), cache=False))


async def call(root: Path, tool: str, args: dict[str, Any], **limits: Any) -> Any:
    async with Client(server_for(root, **limits)) as client:
        return await client.call_tool(tool, args)


async def ok(root: Path, tool: str, args: dict[str, Any], **limits: Any) -> dict[str, Any]:
    result = await call(root, tool, args, **limits)
    return answer(result)


def answer(result: Any) -> dict[str, Any]:
    """The structured content of a successful call (which must carry schemaVersion 1.0)."""
    assert not result.is_error, result.content
    data = result.structured_content
    assert isinstance(data, dict) and data["schemaVersion"] == "1.0"
    return data


async def fails(
    root: Path, tool: str, args: dict[str, Any], kind: str, **limits: Any
) -> str:
    """The message of the JSON-RPC error of class ``kind`` the call must end in."""
    async with Client(server_for(root, **limits)) as client:
        with pytest.raises(MCPError) as caught:
            await client.call_tool(tool, args)
    return failure(caught.value, kind, root)


def failure(exc: MCPError, kind: str, root: Path | None = None) -> str:
    """Check one error's code, class and message (sanitised); return the message."""
    assert exc.code == CODES[kind], (exc.code, exc.message)
    assert isinstance(exc.data, dict) and exc.data["errorClass"] == kind, exc.data
    sanitised(exc.message, root)
    return exc.message


def sanitised(message: str, root: Path | None = None) -> None:
    """No absolute path of the repository or of the machine in ``message``."""
    if root is not None:
        for base in {str(root), os.path.realpath(root)}:
            assert base not in message, message
    assert not _ABSOLUTE.search(message), message
    for place in (str(Path.home()), os.path.realpath(os.getcwd()), "/tmp/", "/usr/", "/root"):
        if len(place) > 1:
            assert place not in message, message
