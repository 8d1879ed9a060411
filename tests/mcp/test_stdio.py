"""End to end: ``adrguard mcp --repo <repo>`` as a subprocess, spoken to over stdio."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from mcp import Client, StdioServerParameters
from mcp.shared.exceptions import MCPError

from adrguard.mcp.registry import registered

SRC = Path(__file__).resolve().parents[2] / "src"


def env() -> dict[str, str]:
    out = dict(os.environ)
    out["PYTHONPATH"] = os.pathsep.join([str(SRC), out.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    return out


def command(repo: Path) -> list[str]:
    return [sys.executable, "-m", "adrguard", "mcp", "--repo", str(repo), "--no-cache"]


@pytest.mark.anyio
async def test_stdio_session(repo: Path, tmp_path: Path) -> None:
    cmd = command(repo)
    params = StdioServerParameters(command=cmd[0], args=cmd[1:], env=env(), cwd=str(tmp_path))
    with open(tmp_path / "stderr.log", "w") as errlog:
        async with Client(params, mode="legacy") as client:
            tools = (await client.list_tools()).tools
            names = {t.name for t in tools}
            assert names == {t.name for t in registered()} and "verify_architecture" in names
            found = await client.call_tool("find_adrs", {"paths": ["src/db/schema.py"]})
            assert not found.is_error
            assert found.structured_content["results"][0]["identifier"] == "ADR-0005"
            with pytest.raises(MCPError) as bad:
                await client.call_tool("get_adr", {"identifier": "../../etc/passwd"})
            assert bad.value.code == -32602
            context = await client.call_tool("adr_context", {"identifier": "ADR-0006"})
            assert context.structured_content["contentIsUntrusted"] is True
    del errlog


def test_stdout_carries_only_the_protocol(repo: Path, tmp_path: Path) -> None:
    messages: list[dict[str, Any]] = [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "raw", "version": "0"},
            },
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {
            "jsonrpc": "2.0",
            "id": 2,
            "method": "tools/call",
            "params": {"name": "search_adrs", "arguments": {"query": "storage"}},
        },
    ]
    proc = subprocess.Popen(
        command(repo),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env(),
        cwd=tmp_path,
    )
    assert proc.stdin is not None and proc.stdout is not None
    replies = []
    try:
        for message in messages:
            proc.stdin.write(json.dumps(message) + "\n")
            proc.stdin.flush()
            if "id" in message:
                replies.append(json.loads(proc.stdout.readline()))  # one JSON-RPC line each
        proc.stdin.close()
        rest = proc.stdout.read()
        assert proc.wait(timeout=60) == 0
    finally:
        proc.kill()
        proc.wait()
    assert rest.strip() == ""  # nothing else ever reached stdout
    assert all(r.get("jsonrpc") == "2.0" for r in replies)
    assert replies[0]["result"]["serverInfo"]["name"] == "adrguard"
    result = replies[1]["result"]
    assert [r["identifier"] for r in result["structuredContent"]["results"]] == [
        "ADR-0002",
        "ADR-0005",
    ]
    assert proc.stderr is not None


def test_missing_extra_prints_the_install_hint(
    repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from adrguard.cli import main

    monkeypatch.setitem(sys.modules, "mcp", None)
    monkeypatch.setitem(sys.modules, "mcp.server.lowlevel", None)
    assert main(["mcp", "--repo", str(repo)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert err[0].startswith("error:") and "pip install 'adrguard[mcp]'" in err[0]
