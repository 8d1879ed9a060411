"""Adding a tool the way docs/agents.md says ("Adding a tool"): one Tool value with a strict
parameter model and an answer model naming schemaVersion. The server gives it the same
contract as its own tools: strict arguments (-32602), one error shape per failure class,
sanitised messages, the response limit. Driven through the MCP SDK's client."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError
from mcphelp import answer, failure
from pydantic import BaseModel, Field

from adrguard.api.agent import surface as agent
from adrguard.api.agent.workspace import SCHEMA_VERSION, LimitExceeded, Limits, Workspace
from adrguard.mcp.contract import Params, Tool
from adrguard.mcp.registry import check, registered
from adrguard.mcp.server import build_server

pytestmark = pytest.mark.anyio


class CountParams(Params):
    status: Annotated[list[str], Field(max_length=16, default_factory=lambda: ["accepted"])]
    failWith: Literal["none", "limit", "bug"] = "none"


class CountResult(BaseModel):
    schemaVersion: Literal["1.0"]
    count: int


def count(ws: Workspace, p: Any) -> dict[str, Any]:
    if p.failWith == "limit":
        raise LimitExceeded(f"too many ADRs under {ws.root}/docs/adr: ask for one status")
    if p.failWith == "bug":
        raise RuntimeError(f"boom in {ws.root}")
    listed = agent.list_adrs(ws, status=p.status)
    return {"schemaVersion": SCHEMA_VERSION, "count": listed["total"]}


COUNT = Tool(
    "count_adrs",
    "Count ADRs",
    "How many ADRs have one of the statuses.",
    CountParams,
    CountResult,
    count,
    "ask for one status",
    {"statuses": "status"},
)


def server(root: Path) -> Any:
    ws = Workspace.open(root, limits=Limits(), cache=False)
    return build_server(ws, (*registered(), COUNT))


async def test_an_added_tool_gets_the_whole_contract(repo: Path) -> None:
    async with Client(server(repo)) as client:
        listed = {t.name: t for t in (await client.list_tools()).tools}
        assert "list_adrs" in listed and "count_adrs" in listed
        schema = listed["count_adrs"].input_schema
        assert schema["additionalProperties"] is False
        output = listed["count_adrs"].output_schema
        assert output is not None and "schemaVersion" in output["required"]

        accepted = answer(await client.call_tool("count_adrs", {}))
        every = answer(await client.call_tool("count_adrs", {"statuses": ["all"]}))  # alias
        assert 0 < accepted["count"] < every["count"] == 6

        with pytest.raises(MCPError) as caught:
            await client.call_tool("count_adrs", {"state": ["accepted"]})
        message = failure(caught.value, "invalid-params", repo)
        assert "unknown argument 'state'" in message and "status" in message
        with pytest.raises(MCPError) as caught:
            await client.call_tool("count_adrs", {"failWith": "limit"})
        message = failure(caught.value, "limit", repo)
        assert message == "too many ADRs under docs/adr: ask for one status"
        with pytest.raises(MCPError) as caught:
            await client.call_tool("count_adrs", {"failWith": "bug"})
        message = failure(caught.value, "internal", repo)
        assert "bug in adrguard" in message and "boom" not in message


class NoVersion(BaseModel):
    count: int


@pytest.mark.parametrize(
    ("tools", "expected"),
    [
        ((COUNT, COUNT), "two MCP tools are named 'count_adrs'"),
        ((Tool("x", "X", "x", CountParams, NoVersion, count, "-"),), "must name schemaVersion"),
        ((Tool("x", "X", "x", CountParams, CountResult, count, "-", {"a": "b"}),), "aliases"),
        ((Tool("x", "X", "x", CountParams, CountResult, count, "-", {"status": "a"}),), "aliases"),
    ],
)
def test_a_tool_that_breaks_the_contract_is_refused_at_start(
    tools: tuple[Tool, ...], expected: str
) -> None:
    with pytest.raises(ValueError, match=expected):
        check(tools)


def test_the_registered_tools_keep_the_contract() -> None:
    check(registered())
    assert len({t.name for t in registered()}) == len(registered()) >= 8
