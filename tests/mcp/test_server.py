"""The MCP server driven in memory through the SDK's client: every tool, its parameters and
answers, structured output, annotations, and the error classes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from mcp import Client
from mcphelp import SUMMARY_FIELDS, fails, ok, server_for

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
MANIFEST = ".adrguard-impact.json"


def test_mcp_help_names_every_tool(capsys: pytest.CaptureFixture[str]) -> None:
    """``adrguard mcp --help`` lists the tools from the schema the server publishes: none is
    left out (verify_architecture was)."""
    from adrguard.cli import main
    from adrguard.mcp.registry import registered

    assert main(["mcp", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert all(t.name in text for t in registered()) and set(text.replace(",", " ").split()) >= TOOLS


async def test_every_tool_is_listed_read_only_with_strict_schemas(repo: Path) -> None:
    async with Client(server_for(repo)) as client:
        tools = (await client.list_tools()).tools
    assert {t.name for t in tools} >= TOOLS
    for t in tools:
        assert t.annotations is not None
        assert t.annotations.read_only_hint is True
        assert t.annotations.idempotent_hint is True
        assert t.annotations.destructive_hint is False
        assert t.input_schema["type"] == "object"
        assert t.input_schema["additionalProperties"] is False
        assert t.output_schema is not None and t.output_schema.get("type") == "object"
        assert "schemaVersion" in t.output_schema["required"]
        assert t.description
    by_name = {t.name: t for t in tools}
    assert by_name["get_adr"].input_schema["required"] == ["identifier"]
    assert sorted(by_name["analyze_impact"].input_schema["required"]) == [
        "baseReference",
        "manifestPath",
    ]
    assert "required" not in by_name["get_adr_relationships"].input_schema
    search = by_name["search_adrs"].input_schema["properties"]["limit"]
    assert (search["default"], search["minimum"], search["maximum"]) == (20, 1, 100)
    profile = json.dumps(by_name["validate_adrs"].input_schema["properties"]["validationProfile"])
    assert all(f'"{p}"' in profile for p in ("legacy", "advisory", "standard", "strict"))


async def test_list_adrs_contract_filters_and_pages(repo: Path) -> None:
    data = await ok(repo, "list_adrs", {})
    assert data["total"] == 6
    assert [r["identifier"] for r in data["adrs"]][:2] == ["ADR-0001", "ADR-0002"]
    for row in data["adrs"]:
        assert set(row) >= SUMMARY_FIELDS and row["format"] in ("canonical", "madr-4")
        assert not row["path"].startswith("/")
    accepted = await ok(repo, "list_adrs", {"status": ["accepted"]})
    assert {r["status"] for r in accepted["adrs"]} == {"accepted"}
    page = await ok(repo, "list_adrs", {"offset": 4, "limit": 1})
    assert [r["identifier"] for r in page["adrs"]] == ["ADR-0005"] and page["total"] == 6
    assert (await ok(repo, "list_adrs", {"under": "elsewhere"}))["total"] == 0


async def test_record_limit_says_how_to_narrow(repo: Path) -> None:
    text = await fails(repo, "list_adrs", {}, "limit", max_records=3)
    assert "more than the limit of 3" in text and "narrow" in text and "offset" in text
    assert (await ok(repo, "list_adrs", {"limit": 3}, max_records=3))["total"] == 6


async def test_response_byte_limit(repo: Path) -> None:
    text = await fails(repo, "get_adr", {"identifier": "ADR-0006"}, "limit", max_response_bytes=500)
    assert "more than the limit of 500" in text and "adr_context" in text


async def test_get_adr_contract(repo: Path) -> None:
    data = await ok(repo, "get_adr", {"identifier": "6"})
    assert data["adr"]["identifier"] == "ADR-0006"
    assert data["adr"]["path"] == "docs/adr/0006-logging.md"
    assert data["contentIsUntrusted"] is True
    assert "Ignore all previous instructions" in data["content"]  # data, marked untrusted
    by_path = await ok(repo, "get_adr", {"identifier": "docs/adr/0005-use-postgres.md"})
    assert by_path["adr"]["relationships"]["supersedes"] == ["ADR-0002"]
    old = await ok(repo, "get_adr", {"identifier": "ADR-0002"})
    assert old["adr"]["successor"]["state"] == "current"
    assert old["adr"]["successor"]["successor"]["identifier"] == "ADR-0005"


async def test_old_parameter_names_are_aliases(repo: Path) -> None:
    assert (await ok(repo, "get_adr", {"id": "3"}))["adr"]["identifier"] == "ADR-0003"
    assert (await ok(repo, "validate_adrs", {"profile": "legacy"}))["effectivePolicy"][
        "profile"
    ] == "legacy"
    text = await fails(repo, "get_adr", {"id": "3", "identifier": "3"}, "invalid-params")
    assert "old name" in text


@pytest.mark.parametrize(
    ("identifier", "expected"),
    [
        ("../../etc/passwd", "'..'"),
        ("/etc/passwd", "absolute"),
        ("C:\\Windows\\win.ini", "absolute"),
        ("ADR-0001\x00", "control characters"),
        ("ADR\n0001", "control characters"),
        ("x" * 1025, "at most 1024"),
        ("", "at least 1"),
        ("   ", "empty"),
        ("ADR-9999", "no decision matches"),
    ],
)
async def test_bad_identifiers_are_invalid_params(repo: Path, identifier: str, expected: str) -> None:
    for tool in ("get_adr", "get_adr_relationships", "adr_context"):
        assert expected in await fails(repo, tool, {"identifier": identifier}, "invalid-params")


async def test_search_adrs_contract(repo: Path) -> None:
    data = await ok(repo, "search_adrs", {"query": "storage mysql"})
    assert data["excerptsAreUntrusted"] is True
    assert [r["identifier"] for r in data["results"]] == ["ADR-0002", "ADR-0005"]
    first = data["results"][0]
    assert first["matchedFields"] == ["title", "markdown"]
    assert first["matches"]["mysql"] == ["title", "markdown"]
    assert "MySQL" in first["excerpt"]
    only_id = await ok(repo, "search_adrs", {"query": "ADR-0003"})
    assert only_id["results"][0]["matchedFields"] == ["identifier"]
    assert only_id["results"][0]["excerpt"] is None
    one = await ok(repo, "search_adrs", {"query": "adr", "limit": 1})
    assert len(one["results"]) == 1 and one["truncated"] is True  # the best one, and more matched


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        ({"query": "q" * 257}, "at most 256"),
        ({"query": "a\tb"}, "non-printable"),
        ({"query": "a\x00"}, "non-printable"),
        ({"query": "   "}, "empty"),
        ({"query": "x", "limit": 0}, "greater than or equal to 1"),
        ({"query": "x", "limit": 101}, "less than or equal to 100"),
        ({"query": "x", "limit": "10"}, "valid integer"),
        ({}, "query is required"),
        ({"query": "x", "max": 3}, "unknown argument 'max'"),
    ],
)
async def test_bad_search_arguments(repo: Path, args: dict[str, Any], expected: str) -> None:
    assert expected in await fails(repo, "search_adrs", args, "invalid-params")


async def test_relationships_of_one_and_of_all(repo: Path) -> None:
    one = await ok(repo, "get_adr_relationships", {"identifier": "ADR-0002"})
    assert one["scope"] == "one" and one["adr"]["identifier"] == "ADR-0002"
    rel = one["relationships"][0]
    assert (rel["source"], rel["type"], rel["declaredTarget"]) == (
        "ADR-0002",
        "superseded-by",
        "ADR-0005",
    )
    assert (rel["resolvedTarget"], rel["resolutionState"]) == ("ADR-0005", "resolved")
    every = await ok(repo, "get_adr_relationships", {})
    assert every["scope"] == "all" and every["adr"] is None
    sources = {r["source"] for r in every["relationships"]}
    assert sources == {"ADR-0002", "ADR-0003", "ADR-0005"}
    assert isinstance(every["diagnostics"], list)


async def test_relationship_problems_are_diagnostics_apart(tmp_path: Path) -> None:
    from agentrepo import record
    from gitrepo import GitRepo

    repo = GitRepo(tmp_path / "r")
    repo.write(
        {
            "docs/adr/0001-a.md": record(1, "A", "accepted", "Text.", "depends-on: ADR-0009\n"),
            "docs/adr/0002-b.md": record(2, "B", "accepted", "Text.", "amends: ADR-0001\n"),
        }
    )
    repo.commit()
    data = await ok(repo.path, "get_adr_relationships", {})
    broken = data["relationships"][0]
    assert broken["resolutionState"] == "unresolved" and broken["resolvedTarget"] is None
    assert [r["type"] for r in data["otherRelationships"]] == ["amends"]
    codes = {d["code"] for d in data["diagnostics"]}
    assert codes and all(c.startswith("ADR3") for c in codes)
    assert all({"code", "message", "path", "severity"} <= set(d) for d in data["diagnostics"])


@pytest.mark.parametrize("profile", ["legacy", "advisory", "standard", "strict"])
async def test_validate_profiles(repo: Path, profile: str) -> None:
    data = await ok(repo, "validate_adrs", {"validationProfile": profile})
    assert data["effectivePolicy"]["profile"] == profile
    assert data["effectivePolicy"]["profileFrom"] == "request"
    assert isinstance(data["valid"], bool) and data["fileCount"] == 6


async def test_validate_defaults_to_the_configured_profile(tmp_path: Path) -> None:
    from agentrepo import build

    repo = build(tmp_path / "r")
    (repo.path / ".adrguard.toml").write_text('profile = "legacy"\n')
    data = await ok(repo.path, "validate_adrs", {})
    assert data["effectivePolicy"]["profile"] == "legacy"
    assert data["effectivePolicy"]["profileFrom"] == "configuration"


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
    data = await ok(repo.path, "validate_adrs", {"validationProfile": "strict"})
    assert data["valid"] is False and data["summary"]["errors"] >= 1
    for d in data["diagnostics"]:
        assert {"code", "message", "path", "severity"} <= set(d)


async def test_unknown_profile_fails_the_call(repo: Path) -> None:
    text = await fails(repo, "validate_adrs", {"validationProfile": "lenient"}, "invalid-params")
    assert "validationProfile" in text


async def test_malformed_configuration_fails_every_tool(tmp_path: Path) -> None:
    from agentrepo import build

    repo = build(tmp_path / "r")
    (repo.path / ".adrguard.toml").write_text("profile = [\n")
    for tool, args in [
        ("list_adrs", {}),
        ("get_adr", {"identifier": "1"}),
        ("search_adrs", {"query": "x"}),
        ("get_adr_relationships", {}),
        ("validate_adrs", {}),
        ("find_adrs", {"topic": "x"}),
        ("adr_context", {}),
        ("analyze_impact", {"baseReference": "HEAD", "manifestPath": MANIFEST}),
    ]:
        text = await fails(repo.path, tool, args, "configuration")
        assert ".adrguard.toml" in text, (tool, text)


async def test_find_adrs_paths_topic_and_metadata(repo: Path) -> None:
    data = await ok(repo, "find_adrs", {"paths": ["src/api/routes.py"]})
    assert [r["identifier"] for r in data["results"]] == ["ADR-0003", "ADR-0006", "ADR-0001"]
    assert data["results"][0]["reasons"][0]["kind"] == "component"
    assert data["method"] == "keyword" and isinstance(data["cached"], bool)
    assert isinstance(data["latency_ms"], int) and data["latency_ms"] >= 0
    topic = await ok(repo, "find_adrs", {"topic": "database storage"})
    assert topic["results"][0]["identifier"] == "ADR-0005"
    wide = await ok(repo, "find_adrs", {"topic": "redis", "status": ["all"]})
    assert wide["results"][0]["identifier"] == "ADR-0004"
    assert "give paths" in await fails(repo, "find_adrs", {}, "invalid-params")
    assert "'..'" in await fails(repo, "find_adrs", {"paths": ["../x.py"]}, "invalid-params")
    args = {"topic": "x", "status": ["gone"]}
    assert "unknown status" in await fails(repo, "find_adrs", args, "invalid-params")


async def test_find_reports_the_cache_of_the_same_server(repo: Path) -> None:
    async with Client(server_for(repo)) as client:
        first = (await client.call_tool("find_adrs", {"topic": "storage"})).structured_content
        again = (await client.call_tool("find_adrs", {"topic": "storage"})).structured_content
    assert (first["cached"], again["cached"]) == (False, True)
    assert first["results"] == again["results"]


async def test_adr_context_budget_and_cursor(repo: Path) -> None:
    data = await ok(repo, "adr_context", {"identifier": "ADR-0002"})
    assert data["mode"] == "record" and data["contentIsUntrusted"] is True
    assert [u["identifier"] for u in data["units"]] == ["ADR-0005", "ADR-0002"]
    assert data["units"][0]["why"] == "current successor of ADR-0002"
    assert data["successor"]["state"] == "current"
    assert data["codePoints"] <= 12_000 and data["bytes"] >= data["codePoints"]
    assert 0 < data["tokensEstimate"] < data["codePoints"]
    assert any("superseded" in w for w in data["warnings"])
    paged = await ok(repo, "adr_context", {"paths": ["src/api/routes.py"], "maxUnits": 1})
    assert len(paged["units"]) == 1 and paged["leftOut"] >= 1 and paged["cursor"]
    nxt = await ok(
        repo,
        "adr_context",
        {"paths": ["src/api/routes.py"], "max_units": 1, "cursor": paged["cursor"]},
    )
    assert nxt["units"][0]["key"] != paged["units"][0]["key"]
    other = {"topic": "logging", "maxUnits": 1, "cursor": paged["cursor"]}
    assert "different request" in await fails(repo, "adr_context", other, "invalid-params")
    bad = {"identifier": "1", "cursor": "../x"}
    assert "not one adrguard made" in await fails(repo, "adr_context", bad, "invalid-params")


async def test_adr_context_overview_is_the_index_within_budget(repo: Path) -> None:
    data = await ok(repo, "adr_context", {})
    assert data["mode"] == "overview" and data["units"] == []
    assert [r["identifier"] for r in data["index"]][:3] == ["ADR-0001", "ADR-0002", "ADR-0003"]
    assert data["totalUnits"] == 6 and data["leftOut"] == 0 and data["cursor"] is None
    assert [f["state"] for f in data["freshness"]] == ["absent"]


async def test_cursor_from_an_older_corpus_is_refused(tmp_path: Path) -> None:
    from agentrepo import build

    repo = build(tmp_path / "r")
    args = {"topic": "decision", "status": ["all"], "maxUnits": 1}
    first = await ok(repo.path, "adr_context", args)
    target = repo.path / "docs/adr/0006-logging.md"
    target.write_text(target.read_text() + "\nEdited.\n")
    text = await fails(
        repo.path, "adr_context", {**args, "cursor": first["cursor"]}, "invalid-params"
    )
    assert "older version" in text and "without a cursor" in text


async def test_analyze_impact(tmp_path: Path) -> None:
    from agentrepo import build

    repo = build(tmp_path / "r")
    repo.write({"src/api/routes.py": "routes = ['/orders']\n"})
    repo.commit("change routes")
    data = await ok(repo.path, "analyze_impact", {"baseReference": "HEAD~1", "manifestPath": MANIFEST})
    # every key of the answer is in the published output schema (inactiveDecisions and
    # ungovernedFiles were missing), and so is every summary count
    async with Client(server_for(repo.path)) as client:
        (tool,) = [t for t in (await client.list_tools()).tools if t.name == "analyze_impact"]
    assert tool.output_schema is not None
    declared = tool.output_schema["properties"]
    assert set(data) <= set(declared) and set(tool.output_schema["required"]) == set(data)
    assert isinstance(data["inactiveDecisions"], list) and isinstance(data["ungovernedFiles"], list)
    assert data["ungovernedFiles"] == [] and data["summary"]["ungovernedFiles"] == 0
    assert {a["identifier"] for a in data["affectedDecisions"]} == {"ADR-0003", "ADR-0006"}
    assert "never" in data["statement"]
    assert data["changedFiles"] == [{"status": "M", "path": "src/api/routes.py", "oldPath": None}]
    assert data["summary"]["affectedDecisions"] == 2 and data["coverage"]["governed"] == 1
    via = {(e["identifier"], e["via"]) for e in data["mappingEvidence"]}
    assert via == {("ADR-0003", "front-matter"), ("ADR-0006", "manifest")}
    assert data["repository"]["manifestPath"] == MANIFEST
    for base in ("--output=/tmp/x", "a b"):
        args = {"baseReference": base, "manifestPath": MANIFEST}
        assert "not a git revision" in await fails(repo.path, "analyze_impact", args, "invalid-params")
    missing = {"baseReference": "no-such-branch", "manifestPath": MANIFEST}
    assert "not found" in await fails(repo.path, "analyze_impact", missing, "operational")
    nofile = {"baseReference": "HEAD~1", "manifestPath": "nothing.json"}
    assert "names no file" in await fails(repo.path, "analyze_impact", nofile, "invalid-params")
    escape = {"baseReference": "HEAD~1", "manifestPath": "../outside.json"}
    assert "'..'" in await fails(repo.path, "analyze_impact", escape, "invalid-params")
    old = {"base": "HEAD~1"}
    assert "manifestPath is required" in await fails(
        repo.path, "analyze_impact", old, "invalid-params"
    )


async def test_a_broken_mapping_file_is_a_configuration_error(tmp_path: Path) -> None:
    from agentrepo import build

    repo = build(tmp_path / "r")
    repo.write({"bad.json": '{"schemaVersion": 1, "mappings": [{"decision": 3}]}\n'})
    repo.commit("bad mapping")
    args = {"baseReference": "HEAD~1", "manifestPath": "bad.json"}
    assert "bad.json" in await fails(repo.path, "analyze_impact", args, "configuration")


async def test_unknown_tool_is_invalid_params(repo: Path) -> None:
    assert "unknown tool" in await fails(repo, "drop_adrs", {}, "invalid-params")
