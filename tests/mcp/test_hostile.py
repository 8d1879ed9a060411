"""Attack 2 through the MCP server: a record of hostile markdown (a flood of ``<!--``, of
suppression comments, of ``](`` openers beside a decision id) and a catastrophic
``decision-id-pattern`` are answered quickly, and a later call is not kept waiting."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from gitrepo import GitRepo
from mcp import Client

from adrguard.api.agent.surface import Limits, Workspace
from adrguard.mcp.server import build_server

pytestmark = pytest.mark.anyio
HEAD = "# 2. Hostile\n\nDate: 2024-01-02\n\n## Status\n\nAccepted\n\n## Context\n\n"
FLOODS = {
    "docs/adr/0002-comments.md": HEAD + "<!--" * 100_000 + "\n",
    "docs/adr/0003-suppressions.md": HEAD.replace("2.", "3.") + "".join(
        f"<!-- adrguard-disable-next-line ADR201 -->\n[x](gone{i}.md)\n\n" for i in range(5_000)),
    "docs/adr/0004-openers.md": HEAD.replace("2.", "4.") + "ADR-9 " + "](" * 100_000 + "\n",
    "docs/adr/0005-pattern.md": HEAD.replace("2.", "5.") + "a" * 100_000 + "b\n",
}


@pytest.fixture
def hostile(tmp_path: Path) -> Path:
    repo = GitRepo(tmp_path / "repo")
    repo.write({".adrguard.toml": 'decision-id-pattern = "(ADR-\\\\d+|(a+)+$)"\n',
                "docs/adr/0001-a.md": HEAD.replace("2. Hostile", "1. Plain"), **FLOODS})
    repo.commit("floods")
    return repo.path


async def test_hostile_markdown_does_not_hold_the_server(hostile: Path) -> None:
    server = build_server(Workspace.open(hostile, limits=Limits(), cache=False))
    async with Client(server) as client:
        started = time.monotonic()
        checked = await client.call_tool("validate_adrs", {})
        assert time.monotonic() - started < 10
        assert not checked.is_error, checked.content
        started = time.monotonic()
        listed = await client.call_tool("list_adrs", {})
        assert time.monotonic() - started < 5
        assert not listed.is_error
        ids = {row["identifier"] for row in listed.structured_content["adrs"]}
        assert {"ADR-0002", "ADR-0003", "ADR-0004", "ADR-0005"} <= ids
