"""Issue 27: the MCP server's timeout did not stop the work. A timed-out call kept running on
its worker thread and kept the workspace lock, so the next ``list_adrs`` timed out too, a
thread was lost per timed-out call, and a server whose input closed kept running until the
work ended. The server runs here as a real subprocess (``adrguard mcp --timeout 3``), spoken
to by the MCP SDK's own client over stdio. The slow call is slow by size alone: ``get_adr``
scans the repository's other files for citations, and they hold millions of them (tens of
seconds of CPU)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from mcp import Client, StdioServerParameters
from mcp.shared.exceptions import MCPError

SRC = Path(__file__).resolve().parents[2] / "src"
FILES = 24  # code files of dense citations, 1 MB each: about 2 s of scanning per file
TIMEOUT = "3"
EOF_BOUND = 10.0  # wall seconds for the server to exit once its input closed
THREAD_BOUND = 10.0  # wall seconds for a cancelled call's thread to stop working
RECORD = "# {n}. Decision {n}\n\nDate: 2024-01-01\n\n## Status\n\nAccepted\n\n## Context\n\nc\n"


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
def slow_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Three records, and code whose every line cites them three times."""
    root = tmp_path_factory.mktemp("slow") / "repo"
    (root / "docs" / "adr").mkdir(parents=True)
    for n in (1, 2, 3):
        (root / "docs" / "adr" / f"000{n}-decision-{n}.md").write_text(RECORD.format(n=n))
    line = "# ADR-0001 ADR-0002 ADR-0003\n"
    data = line * (1_000_000 // len(line))
    (root / "src").mkdir()
    for k in range(FILES):
        (root / "src" / f"module{k:02d}.py").write_text(data)
    return root


def _env() -> dict[str, str]:
    out = dict(os.environ)
    out["PYTHONPATH"] = os.pathsep.join([str(SRC), out.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    return out


def _command(repo: Path, *extra: str) -> list[str]:
    return [sys.executable, "-m", "adrguard", "mcp", "--repo", str(repo), "--no-cache", *extra]


def _server() -> Path | None:
    """The ``/proc`` folder of the ``adrguard mcp`` process this test started, or None."""
    me = str(os.getpid())
    proc = Path("/proc")
    if not proc.is_dir():
        return None
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            cmdline = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if stat[1] == me and b"adrguard" in cmdline and b"mcp" in cmdline:
            return entry
    return None


def _cpu_ticks(server: Path) -> int:
    """User and system CPU of the whole server process so far, in clock ticks."""
    stat = (server / "stat").read_text().rsplit(")", 1)[1].split()
    return int(stat[11]) + int(stat[12])


async def _working_after(server: Path) -> float:
    """Wall seconds until the server stops working: until its CPU grows by less than a tenth
    of the wall time over a whole second (it idles: no thread is still scanning for a call
    that timed out), or :data:`THREAD_BOUND` if it never does. Threads are not counted: the
    server's worker threads are a pool (the SDK reads stdin and writes stdout on it too), so
    an idle thread staying in the pool is not a thread left behind; a thread still working
    on a cancelled call is, and shows as CPU."""
    import anyio

    tick = os.sysconf("SC_CLK_TCK")
    start = time.monotonic()
    while time.monotonic() - start < THREAD_BOUND:
        before = _cpu_ticks(server)
        await anyio.sleep(1.0)
        if (_cpu_ticks(server) - before) / tick < 0.1:
            return time.monotonic() - start - 1.0
    return THREAD_BOUND


@pytest.mark.anyio
async def test_a_timed_out_call_gives_back_the_lock_and_its_thread(
    slow_repo: Path, tmp_path: Path
) -> None:
    cmd = _command(slow_repo, "--timeout", TIMEOUT)
    params = StdioServerParameters(command=cmd[0], args=cmd[1:], env=_env(), cwd=str(tmp_path))
    async with Client(params, mode="legacy") as client:
        first = await client.call_tool("list_adrs", {})
        assert first.structured_content is not None and first.structured_content["total"] == 3
        server = _server()
        for _ in range(3):
            with pytest.raises(MCPError) as caught:
                await client.call_tool("get_adr", {"identifier": "ADR-0001"})
            assert caught.value.code == -32001, caught.value.message  # the timeout
            assert "timeout of 3 seconds" in caught.value.message
            # right after: the timed-out call gave the lock back, so this one answers
            listed = await client.call_tool("list_adrs", {})
            assert not listed.is_error and listed.structured_content is not None
            assert listed.structured_content["total"] == 3
        if server is not None:  # no thread keeps working on a call that timed out
            assert await _working_after(server) < THREAD_BOUND


def test_the_server_exits_when_its_input_closes_during_a_call(
    slow_repo: Path, tmp_path: Path
) -> None:
    messages: list[dict[str, Any]] = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize",
         "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                    "clientInfo": {"name": "raw", "version": "0"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
         "params": {"name": "get_adr", "arguments": {"identifier": "ADR-0001"}}},
    ]
    proc = subprocess.Popen(_command(slow_repo), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=_env(), cwd=tmp_path)
    assert proc.stdin is not None and proc.stdout is not None
    try:
        proc.stdin.write(json.dumps(messages[0]) + "\n")
        proc.stdin.flush()
        assert json.loads(proc.stdout.readline())["id"] == 1
        for message in messages[1:]:
            proc.stdin.write(json.dumps(message) + "\n")
        proc.stdin.flush()
        time.sleep(1.0)  # the call is scanning now
        closed = time.monotonic()
        proc.stdin.close()
        code = proc.wait(timeout=EOF_BOUND)  # TimeoutExpired: still working after EOF
        assert time.monotonic() - closed < EOF_BOUND
        assert code == 0
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        for stream in (proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()
