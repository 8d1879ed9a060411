"""``schemas/mcp-tools.schema.json`` is what the server publishes (a golden file: regenerate it
with ``ADRGUARD_UPDATE_GOLDEN=1 python -m pytest tests/mcp/test_schema_file.py`` and read the
diff), and the JSON the agent commands print validates against the tools' output schemas."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from mcp import Client
from mcphelp import server_for

from adrguard.cli import main
from adrguard.mcp.registry import SCHEMA_FILE, published

FILE = Path(__file__).resolve().parents[2] / SCHEMA_FILE


def test_the_schema_file_is_what_the_registry_publishes() -> None:
    text = json.dumps(published(), indent=2, ensure_ascii=False) + "\n"
    if os.environ.get("ADRGUARD_UPDATE_GOLDEN"):
        FILE.write_text(text, encoding="utf-8")
    assert FILE.read_text(encoding="utf-8") == text, f"regenerate {SCHEMA_FILE} (see docstring)"
    whole = json.loads(text)
    jsonschema.Draft202012Validator.check_schema(whole)
    assert jsonschema.Draft202012Validator(whole).is_valid({"schemaVersion": "1.0", "adrs": []})
    assert not jsonschema.Draft202012Validator(whole).is_valid({"schemaVersion": "2.0"})
    for tool in json.loads(text)["tools"].values():
        jsonschema.Draft202012Validator.check_schema(tool["input"])
        jsonschema.Draft202012Validator.check_schema(tool["output"])


@pytest.mark.anyio
async def test_tools_list_publishes_the_same_schemas(repo: Path) -> None:
    kept = json.loads(FILE.read_text(encoding="utf-8"))["tools"]
    async with Client(server_for(repo)) as client:
        tools = (await client.list_tools()).tools
    assert {t.name: {"input": t.input_schema, "output": t.output_schema} for t in tools} == kept


def output(tool: str) -> jsonschema.Draft202012Validator:
    schema: dict[str, Any] = json.loads(FILE.read_text(encoding="utf-8"))["tools"][tool]["output"]
    return jsonschema.Draft202012Validator(schema)


@pytest.mark.parametrize(
    ("tool", "argv"),
    [
        ("find_adrs", ["find", "--paths", "src/db/schema.py", "--topic", "storage"]),
        ("adr_context", ["context", "ADR-0002"]),
        ("adr_context", ["context", "--topic", "storage"]),
        ("adr_context", ["context"]),
        ("search_adrs", ["search", "decision"]),
    ],
)
def test_the_agent_commands_print_what_the_schemas_say(
    repo: Path, tool: str, argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*argv, "--repo", str(repo), "--format", "json", "--no-cache"]) == 0
    data = json.loads(capsys.readouterr().out)
    output(tool).validate(data)
    assert data["schemaVersion"] == "1.0"
