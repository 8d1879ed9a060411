"""get_adr and the read guard (issue 32), through the MCP SDK's own client: with read-guard =
"guard" an archived record's markdown is withheld and a receipt names the bounded retrieval,
unless the call asks for it as history; warn mode gives the text and the hint; off changes
nothing; an active record is never withheld."""

from __future__ import annotations

from pathlib import Path

import pytest
from guardrepo import ACTIVE, ARCHIVED, build, set_mode
from mcphelp import ok

pytestmark = pytest.mark.anyio


@pytest.fixture(scope="module")
def guarded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build(tmp_path_factory.mktemp("mcp-guard")).path


async def test_guard_withholds_an_archived_record(guarded: Path) -> None:
    set_mode(guarded, "guard")
    data = await ok(guarded, "get_adr", {"identifier": "ADR-0002"})
    assert data["content"] is None and data["contentWithheld"] is True
    assert data["adr"]["archived"] is True and data["adr"]["path"] == ARCHIVED
    assert data["adr"]["successor"]["state"] == "current"  # the metadata still says where to go
    assert data["receipt"] == {
        "command": f"adrguard context {ARCHIVED}",
        "mcp": {"tool": "adr_context", "arguments": {"identifier": ARCHIVED}},
        "history": {"command": f"adrguard show {ARCHIVED}",
                    "mcp": {"tool": "get_adr",
                            "arguments": {"identifier": ARCHIVED, "history": True}}},
    }
    assert "archived decision record" in data["readGuard"]


async def test_history_names_the_record_explicitly(guarded: Path) -> None:
    set_mode(guarded, "guard")
    data = await ok(guarded, "get_adr", {"identifier": ARCHIVED, "history": True})
    assert data["content"] and "Use MySQL" in data["content"]
    assert data.get("contentWithheld", False) is False


async def test_an_active_record_and_the_other_modes(guarded: Path) -> None:
    set_mode(guarded, "guard")
    active = await ok(guarded, "get_adr", {"identifier": ACTIVE})
    assert active["content"] and "readGuard" not in active and "receipt" not in active
    set_mode(guarded, "warn")
    warned = await ok(guarded, "get_adr", {"identifier": "2"})
    assert warned["content"] and warned["receipt"]["mcp"]["tool"] == "adr_context"
    assert "archived decision record" in warned["readGuard"]
    set_mode(guarded, "off")
    plain = await ok(guarded, "get_adr", {"identifier": "2"})
    assert plain["content"] and "readGuard" not in plain and "receipt" not in plain
    set_mode(guarded, "guard")


async def test_history_must_be_a_boolean(guarded: Path) -> None:
    from mcphelp import fails

    message = await fails(guarded, "get_adr", {"identifier": "2", "history": "yes"},
                          "invalid-params")
    assert "history" in message
