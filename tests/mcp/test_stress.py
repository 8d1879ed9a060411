"""Bad input at scale: empty and huge repositories, a 5 MB record, concurrent and cancelled
calls."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError
from mcphelp import fails, failure, ok, server_for

pytestmark = pytest.mark.anyio


async def test_repository_with_no_records(tmp_path: Path) -> None:
    (tmp_path / "docs" / "adr").mkdir(parents=True)
    assert (await ok(tmp_path, "list_adrs", {}))["adrs"] == []
    found = await ok(tmp_path, "find_adrs", {"paths": ["src/x.py"], "topic": "anything"})
    assert found["results"] == [] and found["total"] == 0
    assert (await ok(tmp_path, "search_adrs", {"query": "x"}))["results"] == []
    context = await ok(tmp_path, "adr_context", {"topic": "x"})
    assert context["units"] == [] and context["cursor"] is None
    overview = await ok(tmp_path, "adr_context", {})
    assert overview["index"] == [] and overview["cursor"] is None
    assert (await ok(tmp_path, "validate_adrs", {}))["fileCount"] == 0
    assert (await ok(tmp_path, "get_adr_relationships", {}))["relationships"] == []


@pytest.fixture(scope="module")
def big_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("big")
    folder = root / "docs" / "adr"
    folder.mkdir(parents=True)
    topics = ["cache", "queue", "storage", "auth", "logging"]
    for i in range(1, 20_001):
        topic = topics[i % len(topics)]
        (folder / f"{i:05d}-{topic}-{i}.md").write_text(
            f"# {i}. Decide {topic} {i}\n\n## Status\n\nAccepted\n\n## Decision\n\n"
            f"We pick option {i} for {topic}.\n"
        )
    return root


async def test_repository_with_20000_records(big_repo: Path) -> None:
    async with Client(server_for(big_repo)) as client:
        started = time.monotonic()
        with pytest.raises(MCPError) as caught:
            await client.call_tool("list_adrs", {})
        text = failure(caught.value, "limit", big_repo)
        assert "20,000 ADRs" in text and "limit of 1,000" in text and "narrow" in text
        page = await client.call_tool("list_adrs", {"limit": 50, "offset": 19_990})
        assert page.structured_content["total"] == 20_000
        assert len(page.structured_content["adrs"]) == 10
        found = await client.call_tool("find_adrs", {"topic": "queue option 7"})
        assert not found.is_error and len(found.structured_content["results"]) == 10
        hits = await client.call_tool("search_adrs", {"query": "option 19999"})
        assert hits.structured_content["results"][0]["identifier"] == "ADR-19999"
        overview = await client.call_tool("adr_context", {})
        index = overview.structured_content
        assert index["codePoints"] <= 12_000 and index["leftOut"] > 19_000 and index["cursor"]
        assert time.monotonic() - started < 240


async def test_record_of_5_mb(tmp_path: Path) -> None:
    folder = tmp_path / "docs" / "adr"
    folder.mkdir(parents=True)
    para = "All work and no play makes a very long decision record. " * 20 + "\n\n"
    body = "# 1. Huge\n\n## Status\n\nAccepted\n\n" + "".join(
        f"## Section {i}\n\n{para * 4}" for i in range(1_200)
    )
    (folder / "0001-huge.md").write_text(body)
    assert len(body.encode()) > 5_000_000
    # default max-file-size (1 MiB): the record is unreadable, and the failure names it
    text = await fails(tmp_path, "get_adr", {"identifier": "1"}, "operational")
    assert "docs/adr/0001-huge.md" in text and "limit" in text
    context = await ok(tmp_path, "adr_context", {"identifier": "1"})
    assert any("content unavailable" in w for w in context["warnings"])
    # allowed in: too large for one response, readable in bounded parts
    (tmp_path / ".adrguard.toml").write_text("max-file-size = 8000000\n")
    assert "adr_context" in await fails(tmp_path, "get_adr", {"identifier": "1"}, "limit")
    first = await ok(tmp_path, "adr_context", {"identifier": "1"})
    assert first["codePoints"] <= 12_000 and first["leftOut"] > 100
    assert first["units"][0]["parts"] == first["totalUnits"]
    part = await ok(tmp_path, "adr_context", {"identifier": "ADR-0001#500"})
    assert [u["part"] for u in part["units"]] == [500]


async def test_concurrent_calls(repo: Path) -> None:
    calls: list[tuple[str, dict[str, Any]]] = [
        ("list_adrs", {}),
        ("get_adr", {"identifier": "3"}),
        ("search_adrs", {"query": "decision"}),
        ("find_adrs", {"paths": ["src/api/routes.py"]}),
        ("adr_context", {"identifier": "2"}),
        ("get_adr_relationships", {"identifier": "5"}),
        ("validate_adrs", {}),
        ("find_adrs", {"topic": "storage"}),
    ] * 3
    results: list[Any] = [None] * len(calls)
    async with Client(server_for(repo)) as client:

        async def one(i: int, tool: str, args: dict[str, Any]) -> None:
            results[i] = await client.call_tool(tool, args)

        async with anyio.create_task_group() as tg:
            for i, (tool, args) in enumerate(calls):
                tg.start_soon(one, i, tool, args)
    assert all(r is not None and not r.is_error for r in results)
    first, again = results[3].structured_content, results[11].structured_content
    assert first["results"] == again["results"]  # deterministic under concurrency
    assert first["notes"] == again["notes"]


async def test_client_cancels_mid_call(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from adrguard.api.agent import surface as agent

    real = agent.find_adrs
    started = anyio.Event()

    def slow(*args: Any, **kwargs: Any) -> dict[str, Any]:
        if kwargs.get("topic") == "slow":
            started_flag.append(True)
            time.sleep(1.5)
        return real(*args, **kwargs)

    started_flag: list[bool] = []
    monkeypatch.setattr(agent, "find_adrs", slow)
    async with Client(server_for(repo)) as client:
        with anyio.move_on_after(0.5) as scope:
            await client.call_tool("find_adrs", {"topic": "slow"})
        assert scope.cancelled_caught and started_flag
        after = await client.call_tool("find_adrs", {"topic": "storage"})
        assert not after.is_error and after.structured_content["results"]
        listed = await client.call_tool("list_adrs", {})
        assert listed.structured_content["total"] == 6
    assert started_flag == [True]
    del started


async def test_a_call_past_the_timeout_is_a_timeout_error(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from adrguard.api.agent import surface as agent

    real = agent.find_adrs

    def slow(*args: Any, **kwargs: Any) -> dict[str, Any]:
        if kwargs.get("topic") == "slow":
            time.sleep(1.0)
        return real(*args, **kwargs)

    monkeypatch.setattr(agent, "find_adrs", slow)
    async with Client(server_for(repo, timeout=0.2)) as client:
        started = time.monotonic()
        with pytest.raises(MCPError) as caught:
            await client.call_tool("find_adrs", {"topic": "slow"})
        assert time.monotonic() - started < 0.9  # the answer does not wait for the worker
        text = failure(caught.value, "timeout", repo)
        assert "0.2 seconds" in text and "--timeout" in text
        assert caught.value.data["timeoutSeconds"] == 0.2
        after = await client.call_tool("find_adrs", {"topic": "storage"})
        assert after.structured_content["results"]
