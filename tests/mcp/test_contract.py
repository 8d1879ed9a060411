"""The contract of the "ADR Guard" MCP tools, end to end: ``adrguard mcp`` started as a
subprocess and driven over stdio by the MCP SDK's own client.

Every example input of the tool specification is replayed verbatim (as JSON text) against a
real git repository built so that each one means something: ``ADR-0003`` exists, ``7`` names a
record with declared relationships (one of them broken), "authentication token" matches two
records, ``origin/main`` is a local remote-tracking ref (no network), and
``.adrguard-impact.json`` maps decisions to code. Every result field the specification names is
checked. Then each error class: invalid parameters, an unknown profile, malformed
configuration, a sanitised operational failure, a timeout, an oversized response, the 1,000-ADR
limit, and unreadable / oversized / invalid-UTF-8 records named in the failure; every message
is checked for absolute paths.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import pytest
from agentrepo import record
from gitrepo import GitRepo
from mcp import Client, StdioServerParameters
from mcp.shared.exceptions import MCPError
from mcphelp import SUMMARY_FIELDS, answer, failure

pytestmark = pytest.mark.anyio
SRC = Path(__file__).resolve().parents[2] / "src"

# The example inputs of the specification, verbatim. list_adrs takes no input.
EXAMPLES = {
    "list_adrs": "{}",
    "get_adr": '{ "identifier": "ADR-0003" }',
    "search_adrs": '{ "query": "authentication token", "limit": 10 }',
    "get_adr_relationships": '{ "identifier": "7" }',
    "validate_adrs": '{ "validationProfile": "standard" }',
    "analyze_impact": """{
  "baseReference": "origin/main",
  "manifestPath": ".adrguard-impact.json"
}""",
    "verify_architecture": """{
  "rulesPath": ".adrguard-fitness.json",
  "evidencePaths": ["artifacts/architecture-evidence.json"],
  "baselinePath": ".adrguard-drift-baseline.json",
  "policy": "advisory"
}""",
}

MADR4 = """---
status: accepted
date: 2024-02-01
decision-makers: [platform team]
---
# Store data in PostgreSQL

## Context and Problem Statement

Orders need a relational store.

## Considered Options

* PostgreSQL
* MySQL

## Decision Outcome

Chosen option: "PostgreSQL", because it has the features we need.

### Consequences

* Good, because migrations are transactional.

### Confirmation

Reviews check that new tables live in src/db.
"""
RECORDS = {
    "docs/adr/README.md": (
        "# Architecture decision records\n\n<!-- adrguard:index:start -->\n"
        "* [ADR-0001](0001-record-architecture-decisions.md)\n<!-- adrguard:index:end -->\n"
    ),
    "docs/adr/0001-record-architecture-decisions.md": (
        "# 1. Record architecture decisions\n\nDate: 2024-01-01\n\n## Status\n\nAccepted\n\n"
        "## Context\n\nWe need to record decisions.\n\n## Decision\n\nWe use ADRs.\n\n"
        "## Consequences\n\nSee the log.\n"
    ),
    "docs/adr/0002-server-sessions.md": record(
        2,
        "Keep sessions on the server",
        "superseded",
        "## Context\n\nBrowsers hold a cookie.\n\n## Decision\n\nServer-side sessions.\n",
        "superseded-by: ADR-0007\n",
    ),
    "docs/adr/0003-bearer-tokens.md": record(
        3,
        "Authenticate API clients",
        "accepted",
        "## Context\n\nClients call the API.\n\n## Decision\n\nEvery request carries an "
        "authentication token in the Authorization header.\n",
        'affected-paths: ["src/auth/**"]\n',
    ),
    "docs/adr/0004-postgres.md": MADR4,
    "docs/adr/0005-logging.md": record(
        5, "Log in JSON", "accepted", "## Decision\n\nJSON lines on stdout.\n"
    ),
    "docs/adr/0006-cache.md": record(
        6, "Cache with Redis", "proposed", "## Decision\n\nRedis, five minutes.\n"
    ),
    "docs/adr/0007-signed-tokens.md": record(
        7,
        "Use signed authentication tokens",
        "accepted",
        "## Context\n\nSessions do not scale.\n\n## Decision\n\nThe authentication token is a "
        "signed JWT; the token expires after one hour.\n",
        "supersedes: ADR-0002\ndepends-on: [ADR-0003, ADR-0042]\n",
    ),
}
MANIFEST = {
    "schemaVersion": 1,
    "components": {"auth": ["src/auth/**"]},
    "mappings": [
        {"decision": "ADR-0007", "components": ["auth"], "note": "token handling"},
        {"decision": "ADR-0004", "paths": ["src/db/**"]},
        {"decision": "ADR-0099", "paths": ["src/legacy/**"]},
    ],
}
# For verify_architecture (issue 18's tool).
FITNESS = {
    ".adrguard-fitness.json": {
        "schemaVersion": 1,
        "rules": [
            {
                "id": "token-coverage",
                "decision": "ADR-0007",
                "kind": "evidence",
                "evidence": "artifacts/architecture-evidence.json",
                "pointer": "/tokenTestCoverage",
                "op": ">=",
                "value": 80,
            }
        ],
    },
    "artifacts/architecture-evidence.json": {"tokenTestCoverage": 91},
    ".adrguard-drift-baseline.json": {"schemaVersion": 1, "violations": []},
}


def env() -> dict[str, str]:
    out = dict(os.environ)
    out["PYTHONPATH"] = os.pathsep.join([str(SRC), out.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    return out


@asynccontextmanager
async def session(root: Path, *flags: str) -> AsyncIterator[Client]:
    """A client of ``adrguard mcp --repo root`` running as a subprocess, over stdio."""
    argv = [sys.executable, "-m", "adrguard", "mcp", "--repo", str(root), "--no-cache", *flags]
    params = StdioServerParameters(command=argv[0], args=argv[1:], env=env(), cwd=str(root.parent))
    async with Client(params, mode="legacy") as client:
        yield client


async def refused(client: Client, tool: str, args: dict[str, Any], kind: str, root: Path) -> str:
    with pytest.raises(MCPError) as caught:
        await client.call_tool(tool, args)
    return failure(caught.value, kind, root)


@pytest.fixture(scope="module")
def seed(tmp_path_factory: pytest.TempPathFactory) -> GitRepo:
    repo = GitRepo(tmp_path_factory.mktemp("contract") / "repo")
    repo.write(RECORDS)
    repo.write({f: json.dumps(v, indent=2) + "\n" for f, v in FITNESS.items()})
    repo.write(
        {
            ".adrguard-impact.json": json.dumps(MANIFEST, indent=2) + "\n",
            "src/auth/tokens.py": "TTL = 3600\n",
            "src/db/models.py": "tables = []\n",
        }
    )
    repo.commit("records, mappings and code")
    repo.git("update-ref", "refs/remotes/origin/main", "HEAD")  # origin/main, locally
    repo.write({"src/auth/tokens.py": "TTL = 1800\n", "src/web/app.py": "app = None\n"})
    repo.commit("shorter tokens and a web app")
    return repo


def example(tool: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(EXAMPLES[tool])
    return data


def summary(row: dict[str, Any]) -> None:
    assert set(row) >= SUMMARY_FIELDS, row
    assert isinstance(row["identifier"], str) and row["identifier"]
    assert row["title"] is None or isinstance(row["title"], str)
    assert row["status"] is None or isinstance(row["status"], str)
    assert not row["path"].startswith("/") and "\\" not in row["path"]
    assert row["format"] in ("canonical", "madr-4")


async def test_every_example_of_the_specification(seed: GitRepo) -> None:
    root = seed.path
    status_before = seed.git("status", "--porcelain", "--ignored", "--untracked-files=all")
    async with session(root) as client:
        offered = {t.name for t in (await client.list_tools()).tools}
        assert set(EXAMPLES) <= offered

        listed = answer(await client.call_tool("list_adrs", example("list_adrs")))
        assert listed["total"] == 7 == len(listed["adrs"])
        ids = [r["identifier"] for r in listed["adrs"]]
        assert ids == sorted(ids) and ids[0] == "ADR-0001" and ids[-1] == "ADR-0007"
        for row in listed["adrs"]:
            summary(row)
        assert "docs/adr/README.md" not in {r["path"] for r in listed["adrs"]}  # generated
        formats = {r["identifier"]: (r["format"], r["family"]) for r in listed["adrs"]}
        assert formats["ADR-0004"] == ("madr-4", "madr4")
        assert formats["ADR-0001"] == ("canonical", "nygard")
        assert {r["status"] for r in listed["adrs"]} == {"accepted", "superseded", "proposed"}

        got = answer(await client.call_tool("get_adr", example("get_adr")))
        assert got["adr"]["identifier"] == "ADR-0003" and got["contentIsUntrusted"] is True
        summary(got["adr"])
        assert "authentication token in the Authorization header" in got["content"]

        found = answer(await client.call_tool("search_adrs", example("search_adrs")))
        # ranked: ADR-0007 has "token" in its title too (issue 28: best first, not discovery)
        assert [r["identifier"] for r in found["results"]] == ["ADR-0007", "ADR-0003"]
        assert found["total"] == 2 and found["results"][0]["score"] > found["results"][1]["score"]
        assert found["excerptsAreUntrusted"] is True and found["truncated"] is False
        for r in found["results"]:
            summary(r)
            assert set(r["matchedFields"]) <= {"identifier", "title", "markdown"}
            assert r["excerpt"] is None or "token" in r["excerpt"].lower()
        assert found["results"][0]["matchedFields"] == ["title", "markdown"]

        related = answer(await client.call_tool("get_adr_relationships", example(
            "get_adr_relationships")))
        assert related["adr"]["identifier"] == "ADR-0007"
        edges = {(r["type"], r["declaredTarget"]): r for r in related["relationships"]}
        assert set(edges) == {
            ("supersedes", "ADR-0002"),
            ("depends-on", "ADR-0003"),
            ("depends-on", "ADR-0042"),
        }
        for r in related["relationships"]:
            assert r["source"] == "ADR-0007"
            assert r["type"] in ("superseded-by", "supersedes", "depends-on")
        assert edges["supersedes", "ADR-0002"]["resolvedTarget"] == "ADR-0002"
        assert edges["supersedes", "ADR-0002"]["resolutionState"] == "resolved"
        broken = edges["depends-on", "ADR-0042"]
        assert (broken["resolvedTarget"], broken["resolutionState"]) == (None, "unresolved")
        assert [d["code"] for d in related["diagnostics"]] == ["ADR301"]
        assert related["diagnostics"][0]["path"] == "docs/adr/0007-signed-tokens.md"

        every = answer(await client.call_tool("get_adr_relationships", {}))
        assert every["scope"] == "all"
        assert {r["source"] for r in every["relationships"]} == {"ADR-0002", "ADR-0007"}
        assert {d["code"] for d in every["diagnostics"]} == {"ADR301"}

        checked = answer(await client.call_tool("validate_adrs", example("validate_adrs")))
        assert checked["valid"] is False  # an invalid set is a result, not an error
        assert checked["fileCount"] == 7
        assert checked["effectivePolicy"]["profile"] == "standard"
        assert checked["effectivePolicy"]["failOn"] == "error"
        assert "ADR301" in {d["code"] for d in checked["diagnostics"]}
        for d in checked["diagnostics"]:
            assert {"code", "message", "path", "severity"} <= set(d)
            assert d["severity"] in ("error", "warning", "note")

        impact = answer(await client.call_tool("analyze_impact", example("analyze_impact")))
        origin = seed.git("rev-parse", "origin/main")
        repository = impact["repository"]
        assert repository["baseReference"] == "origin/main"
        assert repository["mergeBase"] == origin == repository["baseCommit"]
        assert repository["headCommit"] == seed.git("rev-parse", "HEAD")
        assert repository["manifestPath"] == ".adrguard-impact.json"
        assert impact["changedFiles"] == [
            {"status": "M", "path": "src/auth/tokens.py", "oldPath": None},
            {"status": "A", "path": "src/web/app.py", "oldPath": None},
        ]
        assert {a["identifier"] for a in impact["affectedDecisions"]} == {"ADR-0003", "ADR-0007"}
        assert [u["decision"] for u in impact["unknownDecisions"]] == ["ADR-0099"]
        assert impact["summary"]["changedFiles"] == 2
        assert impact["summary"]["affectedDecisions"] == 2
        assert impact["summary"]["unknownDecisions"] == 1
        assert impact["coverage"] == {"changed": 2, "records": 0, "governed": 1, "ungoverned": 1}
        assert any("outside any mapping" in u for u in impact["uncertainty"])
        evidence = {(e["identifier"], e["via"], tuple(e["files"])) for e in impact["mappingEvidence"]}
        assert evidence == {
            ("ADR-0003", "front-matter", ("src/auth/tokens.py",)),
            ("ADR-0007", "manifest", ("src/auth/tokens.py",)),
        }
        assert "never" in impact["statement"]

        verified = answer(
            await client.call_tool("verify_architecture", example("verify_architecture"))
        )
        for name in ("policyFailed", "inconclusive"):
            assert isinstance(verified[name], bool), name
        assert verified["policyFailed"] is False and verified["inconclusive"] is False
        assert verified["policy"] == "advisory" and verified["manifest"] == ".adrguard-fitness.json"
        (rule,) = verified["results"]
        assert (rule["rule"], rule["decision"]) == ("token-coverage", "ADR-0007")
        assert (rule["status"], rule["confidence"]) == ("pass", "medium")
        assert rule["evidence"][0]["file"] == "artifacts/architecture-evidence.json"
        assert rule["evidence"][0]["value"] == 91
        assert verified["drift"]["baseline"] == ".adrguard-drift-baseline.json"
    after = seed.git("status", "--porcelain", "--ignored", "--untracked-files=all")
    assert after == status_before == ""  # read-only


INVALID: list[tuple[str, dict[str, Any], str]] = [
    ("get_adr", {"identifier": "ADR-0003", "verbose": True}, "unknown argument 'verbose'"),
    ("list_adrs", {"format": "json"}, "unknown argument 'format'"),
    ("get_adr", {}, "identifier is required"),
    ("get_adr", {"identifier": 3}, "valid string"),
    ("get_adr", {"identifier": "x" * 1025}, "at most 1024"),
    ("get_adr", {"identifier": "ADR-0003\x07"}, "control characters"),
    ("get_adr", {"identifier": "../../etc/passwd"}, "'..'"),
    ("get_adr", {"identifier": "ADR-0404"}, "no decision matches"),
    ("search_adrs", {"query": "token", "limit": 0}, "greater than or equal to 1"),
    ("search_adrs", {"query": "token", "limit": 101}, "less than or equal to 100"),
    ("search_adrs", {"query": "t" * 257}, "at most 256"),
    ("search_adrs", {"limit": 10}, "query is required"),
    ("validate_adrs", {"validationProfile": "lenient"}, "'legacy', 'advisory', 'standard'"),
    ("validate_adrs", {"validationProfile": "standard", "profile": "strict"}, "old name"),
    ("analyze_impact", {"baseReference": "origin/main"}, "manifestPath is required"),
    ("analyze_impact", {"baseReference": "--output=x", "manifestPath": "m.json"}, "not a git"),
    ("analyze_impact", {"baseReference": "origin/main", "manifestPath": "/etc/passwd"}, "absolute"),
    ("verify_architecture", {"policy": "advisory"}, "rulesPath is required"),
    ("verify_architecture", {"rulesPath": "../fitness.json"}, "'..'"),
    ("verify_architecture", {"rulesPath": "r.json", "policy": "strict"}, "'advisory' or 'enforce'"),
    ("verify_architecture", {"rulesPath": "r.json", "evidencePaths": ["e.json"] * 21}, "at most 20"),
]


async def test_invalid_parameters_are_json_rpc_errors(seed: GitRepo) -> None:
    async with session(seed.path) as client:
        for tool, args, expected in INVALID:
            message = await refused(client, tool, args, "invalid-params", seed.path)
            assert expected in message, (tool, args, message)
        with pytest.raises(MCPError) as caught:
            await client.call_tool("validate_adrs", {"validationProfile": "lenient"})
        problems = caught.value.data["errors"]
        assert problems[0]["parameter"] == "validationProfile"
        # the server still answers
        assert answer(await client.call_tool("get_adr", {"identifier": "3"}))["adr"]


async def test_timeout_is_an_explicit_error(seed: GitRepo) -> None:
    async with session(seed.path, "--timeout", "0.001") as client:
        message = await refused(client, "validate_adrs", {}, "timeout", seed.path)
        assert "timeout of 0.001 seconds" in message and "--timeout" in message


@pytest.fixture(scope="module")
def broken(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Records that cannot be read (invalid UTF-8, over max-file-size, a symlink out of the
    repository) and one readable record too large for one response."""
    root = tmp_path_factory.mktemp("broken") / "repo"
    folder = root / "docs" / "adr"
    folder.mkdir(parents=True)
    (folder / "0001-fine.md").write_text(record(1, "Fine", "accepted", "Text."))
    (folder / "0002-latin1.md").write_bytes(
        record(2, "Latin-1", "accepted", "caf\xe9").encode("latin-1")
    )
    (folder / "0003-huge.md").write_text(record(3, "Huge", "accepted", "x" * 1_100_000))
    outside = root.parent / "outside.md"
    outside.write_text(record(4, "Outside", "accepted", "Text."))
    (folder / "0004-outside.md").symlink_to(outside)
    (folder / "0005-long.md").write_text(
        record(5, "Long", "accepted", ("A long paragraph of decision text. " * 20 + "\n\n") * 800)
    )
    return root


async def test_unreadable_records_are_named(broken: Path) -> None:
    async with session(broken) as client:
        message = await refused(client, "list_adrs", {}, "operational", broken)
        assert "3 ADR files could not be read" in message
        for path in ("docs/adr/0002-latin1.md", "docs/adr/0003-huge.md", "docs/adr/0004-outside.md"):
            assert path in message, message
        assert "not valid UTF-8" in message and "larger than" in message and "outside" in message
        fine = answer(await client.call_tool("list_adrs", {"status": ["accepted"], "limit": 1}))
        assert fine["adrs"][0]["identifier"] == "ADR-0001"
        message = await refused(client, "get_adr", {"identifier": "2"}, "operational", broken)
        assert "docs/adr/0002-latin1.md" in message


async def test_a_response_over_one_mebibyte_is_refused_with_advice(broken: Path) -> None:
    assert (broken / "docs/adr/0005-long.md").stat().st_size < 1024 * 1024  # readable
    async with session(broken) as client:
        message = await refused(client, "get_adr", {"identifier": "5"}, "limit", broken)
        assert "more than the limit of 1,048,576" in message and "adr_context" in message
        parts = answer(await client.call_tool("adr_context", {"identifier": "5"}))
        assert parts["codePoints"] <= 12_000 and parts["leftOut"] > 0


async def test_malformed_configuration_fails_the_call(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    (root / "docs" / "adr").mkdir(parents=True)
    (root / "docs/adr/0001-a.md").write_text(record(1, "A", "accepted", "Text."))
    (root / ".adrguard.toml").write_text('profile = "standard"\nprofil = "strict"\n')
    async with session(root) as client:
        for tool, args in (("list_adrs", {}), ("validate_adrs", {"validationProfile": "strict"})):
            message = await refused(client, tool, args, "configuration", root)
            assert ".adrguard.toml" in message and "profil" in message


@pytest.fixture(scope="module")
def thousand(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """1,001 records in a folder that is not a git repository."""
    root = tmp_path_factory.mktemp("thousand") / "repo"
    folder = root / "docs" / "adr"
    folder.mkdir(parents=True)
    for i in range(1, 1002):
        (folder / f"{i:04d}-r.md").write_text(record(i, f"Decision {i}", "accepted", "Text."))
    return root


async def test_more_than_1000_adrs_and_a_sanitised_git_failure(thousand: Path) -> None:
    async with session(thousand) as client:
        message = await refused(client, "list_adrs", {}, "limit", thousand)
        assert "1,001 ADRs" in message and "limit of 1,000" in message and "offset" in message
        page = answer(await client.call_tool("list_adrs", {"limit": 1000}))
        assert page["total"] == 1001 and len(page["adrs"]) == 1000
        args = {"baseReference": "origin/main", "manifestPath": ".adrguard-impact.json"}
        (thousand / ".adrguard-impact.json").write_text('{"schemaVersion": 1, "mappings": []}')
        message = await refused(client, "analyze_impact", args, "operational", thousand)
        assert "not inside a git repository" in message and message.startswith(".")


async def test_cancelled_calls_leave_the_server_serving(thousand: Path) -> None:
    async with session(thousand) as client:
        with anyio.move_on_after(0.05) as scope:
            await client.call_tool("validate_adrs", {"validationProfile": "strict"})
        assert scope.cancelled_caught
        page = answer(await client.call_tool("list_adrs", {"limit": 3}))
        assert [r["identifier"] for r in page["adrs"]] == ["ADR-0001", "ADR-0002", "ADR-0003"]
