"""``verify_architecture`` through the MCP SDK's own client over stdio (``adrguard mcp`` as a
subprocess), with seed 004's example input verbatim: the same result as ``adrguard verify
--format json``, schemaVersion "1.0", errors without absolute paths, nothing written."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest
from gitrepo import GitRepo
from mcp import Client, StdioServerParameters
from mcp.shared.exceptions import MCPError
from mcphelp import failure
from verifyrepo import build, write_evidence

from adrguard.cli import main
from adrguard.core.schemas import validator

SRC = Path(__file__).resolve().parents[2] / "src"
SEED_EXAMPLE = {
    "rulesPath": ".adrguard-fitness.json",
    "evidencePaths": ["artifacts/architecture-evidence.json"],
    "baselinePath": ".adrguard-drift-baseline.json",
    "policy": "advisory",
}

pytestmark = pytest.mark.anyio


def _params(repo: Path, cwd: Path) -> StdioServerParameters:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(SRC), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    return StdioServerParameters(command=sys.executable,
                                 args=["-m", "adrguard", "mcp", "--repo", str(repo), "--no-cache"],
                                 env=env, cwd=str(cwd))


@pytest.fixture
def repo(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> GitRepo:
    r = build(tmp_path / "repo")
    write_evidence(r, {"coverage": {"percent": 64}})  # a violation the baseline will know
    r.write({"shop/api/admin.py": "from shop.db import models\n"})
    r.commit("a layer breach")
    assert main(["verify", "--repo", str(r.path), "--write-baseline", "--no-cache"]) == 0
    r.write({"keys/server.pem": "secret\n"})  # a new violation since the baseline
    r.commit("a key")
    capsys.readouterr()
    return r


def _cli(repo: GitRepo, capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    main(["verify", "--repo", str(repo.path), "--no-cache", "--format", "json", *args])
    data: dict[str, Any] = json.loads(capsys.readouterr().out)
    return data


async def test_the_seed_example_gives_the_cli_result(
    repo: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = repo.git("status", "--porcelain", "--ignored", "--untracked-files=all")
    async with Client(_params(repo.path, tmp_path), mode="legacy") as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        schema = tools["verify_architecture"].input_schema
        assert set(schema["properties"]) == {"rulesPath", "evidencePaths", "baselinePath",
                                             "policy"}
        assert schema["required"] == ["rulesPath"]
        result = await client.call_tool("verify_architecture", SEED_EXAMPLE)
        assert not result.is_error, result.content
        got = result.structured_content
        enforced = await client.call_tool("verify_architecture",
                                          {**SEED_EXAMPLE, "policy": "enforce"})
        assert not enforced.is_error  # enforcement is a result, not an error
        assert enforced.structured_content["policyFailed"] is True
    assert got["schemaVersion"] == "1.0"
    assert not list(validator("verify.schema.json").iter_errors(got))
    expected = _cli(repo, capsys, "--evidence", "artifacts/architecture-evidence.json",
                    "--baseline", ".adrguard-drift-baseline.json")
    assert {**got, "schemaVersion": 1} == expected
    statuses = {r["rule"]: (r["status"], r["baseline"]) for r in got["results"]}
    assert statuses["coverage-floor"] == ("violation", "known")
    assert statuses["api-not-db"] == ("violation", "known")
    assert statuses["no-env-files"] == ("violation", "new")
    assert statuses["no-urllib"] == ("not-applicable", None)
    assert got["policyFailed"] is False and got["inconclusive"] is False
    after = repo.git("status", "--porcelain", "--ignored", "--untracked-files=all")
    assert after == before  # the tool wrote nothing


@pytest.mark.parametrize(("arguments", "kind", "words"), [
    ({"rulesPath": "../outside.json"}, "invalid-params", "contains '..'"),
    ({"rulesPath": "/etc/passwd"}, "invalid-params", "is absolute"),
    ({"rulesPath": "missing.json"}, "invalid-params", "no fitness manifest at missing.json"),
    ({**SEED_EXAMPLE, "baselinePath": "nope.json"}, "invalid-params",
     "no drift baseline at nope.json"),
    ({**SEED_EXAMPLE, "evidencePaths": [f"e{i}.json" for i in range(21)]}, "invalid-params",
     "at most 20"),
    ({**SEED_EXAMPLE, "policy": "strict"}, "invalid-params", "'advisory' or 'enforce'"),
    ({"evidencePaths": []}, "invalid-params", "rulesPath is required"),
    ({**SEED_EXAMPLE, "verbose": True}, "invalid-params", "unknown argument 'verbose'"),
    ({"rulesPath": "shop/api/admin.py"}, "configuration", "shop/api/admin.py"),
    ({**SEED_EXAMPLE, "baselinePath": "shop/api/admin.py"}, "configuration",
     "shop/api/admin.py"),
])
async def test_bad_requests_are_errors_of_their_class_without_absolute_paths(
    repo: GitRepo, tmp_path: Path, arguments: dict[str, Any], kind: str, words: str
) -> None:
    async with Client(_params(repo.path, tmp_path), mode="legacy") as client:
        with pytest.raises(MCPError) as caught:
            await client.call_tool("verify_architecture", arguments)
    message = failure(caught.value, kind, repo.path)
    assert words in message, message
    assert str(tmp_path) not in message


async def test_an_unknown_decision_in_the_manifest_is_a_configuration_error(
    repo: GitRepo, tmp_path: Path
) -> None:
    manifest = json.loads((repo.path / ".adrguard-fitness.json").read_text())
    manifest["rules"][0]["decision"] = "ADR-0404"
    repo.write({".adrguard-fitness.json": json.dumps(manifest, indent=2) + "\n"})
    async with Client(_params(repo.path, tmp_path), mode="legacy") as client:
        with pytest.raises(MCPError) as caught:
            await client.call_tool("verify_architecture", SEED_EXAMPLE)
    message = failure(caught.value, "configuration", repo.path)
    assert ".adrguard-fitness.json:" in message and "ADR-0404" in message


async def test_missing_evidence_through_the_tool_is_unknown(
    repo: GitRepo, tmp_path: Path
) -> None:
    os.remove(repo.path / "artifacts" / "architecture-evidence.json")
    async with Client(_params(repo.path, tmp_path), mode="legacy") as client:
        result = await client.call_tool("verify_architecture", SEED_EXAMPLE)
    data = result.structured_content
    assert data["inconclusive"] is True
    cov = next(r for r in data["results"] if r["rule"] == "coverage-floor")
    assert cov["status"] == "unknown" and cov["confidence"] == "none"
