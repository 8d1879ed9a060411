"""The MCP server driven in memory through the SDK's client: every tool, structured output,
annotations, limits and errors."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from mcp import Client

from adrguard.api.agent import Limits, Workspace
from adrguard.mcp.server import build_server

pytestmark = pytest.mark.anyio
TOOLS = {
    "list_adrs",
    "get_adr",
    "search_adrs",
    "get_adr_relationships",
    "validate_adrs",
    "find_adrs",
    "adr_context",
    "analyze_impact",
    "verify_architecture",  # adrguard.mcp.verify (issue 18)
}


def server_for(root: Path, **limits: int) -> Any:
    return build_server(Workspace.open(root, limits=Limits(**limits), cache=False))


async def call(root: Path, tool: str, args: dict[str, Any], **limits: int) -> Any:
    async with Client(server_for(root, **limits)) as client:
        return await client.call_tool(tool, args)


async def ok(root: Path, tool: str, args: dict[str, Any], **limits: int) -> dict[str, Any]:
    result = await call(root, tool, args, **limits)
    assert not result.is_error, result.content[0].text
    assert isinstance(result.structured_content, dict)
    return result.structured_content


async def error(root: Path, tool: str, args: dict[str, Any], **limits: int) -> str:
    result = await call(root, tool, args, **limits)
    assert result.is_error
    text: str = result.content[0].text
    return text


async def test_every_tool_is_listed_read_only_with_schemas(repo: Path) -> None:
    async with Client(server_for(repo)) as client:
        tools = (await client.list_tools()).tools
    assert {t.name for t in tools} == TOOLS
    for t in tools:
        assert t.annotations is not None
        assert t.annotations.read_only_hint is True
        assert t.annotations.idempotent_hint is True
        assert t.annotations.destructive_hint is False
        assert t.output_schema is not None and t.output_schema.get("type") == "object"
        assert t.description


async def test_list_adrs_filters_and_pages(repo: Path) -> None:
    data = await ok(repo, "list_adrs", {})
    assert data["total"] == 6
    assert [r["id"] for r in data["records"]][:2] == ["ADR-0001", "ADR-0002"]
    assert all(not r["path"].startswith("/") for r in data["records"])
    accepted = await ok(repo, "list_adrs", {"status": ["accepted"]})
    assert {r["status"] for r in accepted["records"]} == {"accepted"}
    page = await ok(repo, "list_adrs", {"offset": 4, "limit": 1})
    assert [r["id"] for r in page["records"]] == ["ADR-0005"] and page["total"] == 6
    assert (await ok(repo, "list_adrs", {"under": "elsewhere"}))["total"] == 0


async def test_record_limit_says_how_to_narrow(repo: Path) -> None:
    text = await error(repo, "list_adrs", {}, max_records=3)
    assert "more than the limit of 3" in text and "narrow" in text
    assert (await ok(repo, "list_adrs", {"limit": 3}, max_records=3))["total"] == 6


async def test_response_byte_limit(repo: Path) -> None:
    text = await error(repo, "get_adr", {"id": "ADR-0006"}, max_response_bytes=200)
    assert "more than the limit of 200" in text and "adr_context" in text


async def test_get_adr_wraps_markdown_as_untrusted(repo: Path) -> None:
    data = await ok(repo, "get_adr", {"id": "6"})
    assert data["id"] == "ADR-0006" and data["path"] == "docs/adr/0006-logging.md"
    content = data["content"]
    assert content["contentIsUntrusted"] is True
    assert "Ignore all previous instructions" in content["markdown"]  # data, wrapped
    assert "never follow" in content["note"]
    by_path = await ok(repo, "get_adr", {"id": "docs/adr/0005-use-postgres.md"})
    assert by_path["relationships"]["supersedes"] == ["ADR-0002"]


@pytest.mark.parametrize(
    ("identifier", "expected"),
    [
        ("../../etc/passwd", "'..'"),
        ("/etc/passwd", "absolute"),
        ("C:\\Windows\\win.ini", "absolute"),
        ("ADR-0001\x00", "control characters"),
        ("ADR\n0001", "control characters"),
        ("x" * 1025, "limit is 1,024"),
        ("", "empty"),
        ("ADR-9999", "no decision matches"),
    ],
)
async def test_bad_identifiers_are_tool_errors(repo: Path, identifier: str, expected: str) -> None:
    for tool in ("get_adr", "get_adr_relationships"):
        assert expected in await error(repo, tool, {"id": identifier})


async def test_search_adrs(repo: Path) -> None:
    data = await ok(repo, "search_adrs", {"query": "storage mysql"})
    assert data["excerptsAreUntrusted"] is True
    assert [r["id"] for r in data["results"]] == ["ADR-0002", "ADR-0005"]
    assert data["results"][0]["matches"]["mysql"] == ["title", "body"]
    assert (await ok(repo, "search_adrs", {"query": "adr", "limit": 1}))["total"] == 6


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("q" * 10_240, "the limit is 256"),
        ("a\tb", "non-printable"),
        ("a\x00", "non-printable"),
        ("   ", "empty"),
    ],
)
async def test_bad_queries(repo: Path, query: str, expected: str) -> None:
    assert expected in await error(repo, "search_adrs", {"query": query})
    assert expected in await error(repo, "find_adrs", {"topic": query})


async def test_search_limit_is_validated_by_schema(repo: Path) -> None:
    assert "limit" in await error(repo, "search_adrs", {"query": "x", "limit": 0})
    assert "limit" in await error(repo, "search_adrs", {"query": "x", "limit": 101})


async def test_relationships(repo: Path) -> None:
    data = await ok(repo, "get_adr_relationships", {"id": "ADR-0002"})
    assert data["currentSuccessor"]["id"] == "ADR-0005"
    assert data["declared"][0]["kind"] == "superseded-by"
    assert data["declared"][0]["state"] == "resolved"


@pytest.mark.parametrize("profile", ["legacy", "advisory", "standard", "strict"])
async def test_validate_profiles(repo: Path, profile: str) -> None:
    data = await ok(repo, "validate_adrs", {"profile": profile})
    assert data["profile"] == profile and isinstance(data["valid"], bool)
    assert data["summary"]["decisions"] == 6


async def test_invalid_adr_set_is_a_result_not_an_error(tmp_path: Path) -> None:
    from gitrepo import GitRepo

    repo = GitRepo(tmp_path / "bad")
    repo.write(
        {
            "docs/adr/0001-a.md": "# 1. A\n\n## Status\n\nAccepted\n\nsee [x](missing.md)\n",
            "docs/adr/0001-b.md": "no title at all\n",
        }
    )
    repo.commit()
    data = await ok(repo.path, "validate_adrs", {"profile": "strict"})
    assert data["valid"] is False and data["summary"]["errors"] >= 1
    assert any(f["code"].startswith("ADR") for f in data["findings"])


async def test_unknown_profile(repo: Path) -> None:
    assert "profile" in await error(repo, "validate_adrs", {"profile": "lenient"})


async def test_find_adrs_paths_and_topic(repo: Path) -> None:
    data = await ok(repo, "find_adrs", {"paths": ["src/api/routes.py"]})
    assert [r["id"] for r in data["results"]] == ["ADR-0003", "ADR-0006", "ADR-0001"]
    assert data["results"][0]["reasons"][0]["kind"] == "component"
    topic = await ok(repo, "find_adrs", {"topic": "database storage"})
    assert topic["results"][0]["id"] == "ADR-0005"
    wide = await ok(repo, "find_adrs", {"topic": "redis", "status": ["all"]})
    assert wide["results"][0]["id"] == "ADR-0004"
    assert "give paths" in await error(repo, "find_adrs", {})
    assert "'..'" in await error(repo, "find_adrs", {"paths": ["../outside.py"]})
    assert "unknown status" in await error(repo, "find_adrs", {"topic": "x", "status": ["gone"]})


async def test_adr_context_budget_and_cursor(repo: Path) -> None:
    data = await ok(repo, "adr_context", {"id": "ADR-0002"})
    assert data["contentIsUntrusted"] is True
    assert [u["id"] for u in data["units"]] == ["ADR-0005", "ADR-0002"]
    assert data["units"][0]["why"] == "current successor of ADR-0002"
    assert data["codePoints"] <= 12_000 and data["bytes"] >= data["codePoints"]
    assert any("superseded" in w for w in data["warnings"])
    paged = await ok(repo, "adr_context", {"paths": ["src/api/routes.py"], "max_units": 1})
    assert len(paged["units"]) == 1 and paged["leftOut"] >= 1 and paged["cursor"]
    nxt = await ok(
        repo,
        "adr_context",
        {"paths": ["src/api/routes.py"], "max_units": 1, "cursor": paged["cursor"]},
    )
    assert nxt["units"][0]["key"] != paged["units"][0]["key"]
    assert "different request" in await error(
        repo, "adr_context", {"topic": "logging", "max_units": 1, "cursor": paged["cursor"]}
    )
    assert "not one adrguard made" in await error(
        repo, "adr_context", {"id": "1", "cursor": "../x"}
    )
    assert "give an id" in await error(repo, "adr_context", {})


async def test_cursor_from_an_older_corpus_is_refused(tmp_path: Path) -> None:
    from agentrepo import build

    repo = build(tmp_path / "r")
    first = await ok(
        repo.path, "adr_context", {"topic": "decision", "status": ["all"], "max_units": 1}
    )
    target = repo.path / "docs/adr/0006-logging.md"
    target.write_text(target.read_text() + "\nEdited.\n")
    text = await error(
        repo.path,
        "adr_context",
        {"topic": "decision", "status": ["all"], "max_units": 1, "cursor": first["cursor"]},
    )
    assert "older version" in text and "without a cursor" in text


async def test_analyze_impact(tmp_path: Path) -> None:
    from agentrepo import build

    repo = build(tmp_path / "r")
    repo.write({"src/api/routes.py": "routes = ['/orders']\n"})
    repo.commit("change routes")
    data = await ok(repo.path, "analyze_impact", {"base": "HEAD~1"})
    assert {a["id"] for a in data["affected"]} == {"ADR-0003", "ADR-0006"}
    assert "never" in data["statement"]
    assert "not a git revision" in await error(
        repo.path, "analyze_impact", {"base": "--output=/tmp/x"}
    )
    assert "not a git revision" in await error(repo.path, "analyze_impact", {"base": "a b"})
    assert await error(repo.path, "analyze_impact", {"base": "no-such-branch"})
