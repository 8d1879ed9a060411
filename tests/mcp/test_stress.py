"""Bad input at scale: empty and huge repositories, a 5 MB record, concurrent and cancelled
calls."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from test_server import error, ok, server_for

pytestmark = pytest.mark.anyio


async def test_repository_with_no_records(tmp_path: Path) -> None:
    (tmp_path / "docs" / "adr").mkdir(parents=True)
    assert (await ok(tmp_path, "list_adrs", {}))["records"] == []
    found = await ok(tmp_path, "find_adrs", {"paths": ["src/x.py"], "topic": "anything"})
    assert found["results"] == [] and found["total"] == 0
    assert (await ok(tmp_path, "search_adrs", {"query": "x"}))["total"] == 0
    context = await ok(tmp_path, "adr_context", {"topic": "x"})
    assert context["units"] == [] and context["cursor"] is None
    assert (await ok(tmp_path, "validate_adrs", {}))["summary"]["decisions"] == 0


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
        too_many = await client.call_tool("list_adrs", {})
        assert too_many.is_error
        text = getattr(too_many.content[0], "text", "")
        assert "20,000 records match" in text and "limit of 10,000" in text and "narrow" in text
        page = await client.call_tool("list_adrs", {"limit": 50, "offset": 19_990})
        assert page.structured_content["total"] == 20_000
        assert len(page.structured_content["records"]) == 10
        found = await client.call_tool("find_adrs", {"topic": "queue option 7"})
        assert not found.is_error and len(found.structured_content["results"]) == 10
        hits = await client.call_tool("search_adrs", {"query": "option 19999"})
        assert hits.structured_content["results"][0]["id"] == "ADR-19999"
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
    # default max-file-size (1 MiB): the record is unreadable, and says so
    data = await ok(tmp_path, "get_adr", {"id": "1"})
    assert data["content"]["markdown"] == "" and data["problems"]
    context = await ok(tmp_path, "adr_context", {"id": "1"})
    assert any("content unavailable" in w for w in context["warnings"])
    # allowed in: too large for one response, readable in bounded parts
    (tmp_path / ".adrguard.toml").write_text("max-file-size = 8000000\n")
    assert "adr_context" in await error(tmp_path, "get_adr", {"id": "1"})
    first = await ok(tmp_path, "adr_context", {"id": "1"})
    assert first["codePoints"] <= 12_000 and first["leftOut"] > 100
    assert first["units"][0]["parts"] == first["totalUnits"]
    part = await ok(tmp_path, "adr_context", {"id": "ADR-0001#500"})
    assert [u["part"] for u in part["units"]] == [500]


async def test_concurrent_calls(repo: Path) -> None:
    calls: list[tuple[str, dict[str, Any]]] = [
        ("list_adrs", {}),
        ("get_adr", {"id": "3"}),
        ("search_adrs", {"query": "decision"}),
        ("find_adrs", {"paths": ["src/api/routes.py"]}),
        ("adr_context", {"id": "2"}),
        ("get_adr_relationships", {"id": "5"}),
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
    assert first == again  # deterministic under concurrency


async def test_client_cancels_mid_call(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from adrguard.api import agent

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
    del started
