"""Read commands write nothing into the repository, and nothing in the repository is read as a
cache. Real git repositories, the real CLI, the MCP SDK's own client over stdio."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import recordcache
from gitrepo import GitRepo

from adrguard.cli import main

pytestmark = pytest.mark.uses_cache

SRC = Path(__file__).resolve().parents[1] / "src"
PROFILES = ("legacy", "advisory", "standard", "strict")
MAPPING = '{"schemaVersion": 1, "mappings": [{"decision": "ADR-0001", "paths": ["src/**"]}]}\n'

RECORD = """# {n}. {title}

Date: 2024-01-01

## Status

{status}

## Context

See [the first](0001-first.md) and [the plan](../plan.md).

## Decision

Yes.

## Consequences

Some.
"""

FILES = {
    "docs/adr/0001-first.md": RECORD.format(n=1, title="First", status="Accepted"),
    "docs/adr/0002-second.md": RECORD.format(n=2, title="Second", status="Bogus"),
    "src/app.py": "x = 1\n",
    "src/cites.py": "# Sessions per ADR-0001 and ADR-0007.\n",
    ".gitignore": "",
    ".adrguard-fitness.json": '{"schemaVersion": 1, "rules": [{"id": "no-print", "decision": '
    '"ADR-0001", "kind": "forbidden-text", "paths": ["src/**"], "pattern": "print\\\\("}]}\n',
}


def _repo(tmp_path: Path) -> GitRepo:
    repo = GitRepo(tmp_path / "repo")
    repo.write(FILES)
    repo.commit("records")
    assert main(["index", "--repo", str(repo.path), "--write", "--init", "--no-cache"]) == 0
    repo.write({"src/app.py": "x = 2\n"})
    repo.commit("index and a change")
    return repo


def _status(repo: GitRepo) -> str:
    return repo.git("status", "--porcelain", "--ignored", "--untracked-files=all")


def _env() -> dict[str, str]:
    out = dict(os.environ)
    out["PYTHONPATH"] = os.pathsep.join([str(SRC), out.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    return out


READ_COMMANDS = [
    ["check"],
    ["check", "--base", "HEAD~1"],
    ["check", "--against", "HEAD~1", "--against", "refs/heads/*"],
    ["new", "--dry-run", "Use Kafka"],
    ["supersede", "--dry-run", "--status", "accepted", "1", "Use Kafka"],
    ["list"],
    ["list", "--format", "json"],
    ["show", "2"],
    ["graph"],
    ["graph", "--format", "json"],
    ["relationships"],
    ["index"],
    ["index", "--check"],
    ["impact", "--base", "HEAD~1"],
    ["current", "status"],
    ["find", "--topic", "first"],
    ["context", "1"],
    ["search", "first"],
    ["citations"],
    ["citations", "1", "--format", "json"],
    ["search", "adr:1"],
    ["compaction"],
    ["compaction", "--format", "json", "--sources", "1,2"],
    ["archive", "plan", "2"],
    ["archive", "plan", "1", "--format", "text"],
    ["verify"],
    ["verify", "--format", "json", "--policy", "enforce"],
    ["verify", "--audit"],
    ["guard", "read", "docs/adr/0001-first.md", "--session", "s1"],
    ["guard", "search", "first", "--session", "s1"],
]


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def test_read_commands_write_nothing_into_the_repository(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = _repo(tmp_path)
    before = _status(repo)
    assert before == ""  # a clean work tree: anything new would show, even an ignored file
    for command in READ_COMMANDS:
        for extra in ([], ["--no-cache"]):
            code = main([*command, "--repo", str(repo.path), *extra])
            assert code in (0, 1), (command, capsys.readouterr().err)
    assert _status(repo) == before


@pytest.mark.anyio
async def test_an_mcp_session_writes_nothing_into_the_repository(tmp_path: Path) -> None:
    from mcp import Client, StdioServerParameters
    from mcp.shared.exceptions import MCPError

    repo = _repo(tmp_path)
    before = _status(repo)
    argv = [sys.executable, "-m", "adrguard", "mcp", "--repo", str(repo.path)]
    params = StdioServerParameters(command=argv[0], args=argv[1:], env=_env(), cwd=str(tmp_path))
    repo.write({".adrguard-impact.json": MAPPING})
    repo.commit("a mapping")
    before = _status(repo)
    calls: list[tuple[str, dict[str, Any]]] = [
        ("list_adrs", {}),
        ("get_adr", {"identifier": "2"}),
        ("get_adr", {"id": "ADR-0001"}),
        ("search_adrs", {"query": "first", "limit": 10}),
        ("search_adrs", {"query": "adr:0001"}),
        ("get_adr_relationships", {}),
        ("get_adr_relationships", {"identifier": "0001-first"}),
        ("validate_adrs", {}),
        *[("validate_adrs", {"validationProfile": p}) for p in PROFILES],
        ("find_adrs", {"topic": "first"}),
        ("adr_context", {}),
        ("adr_context", {"identifier": "ADR-0001"}),
        ("adr_context", {"topic": "first", "status": ["all"]}),
        ("analyze_impact", {"baseReference": "HEAD~2", "manifestPath": ".adrguard-impact.json"}),
        ("verify_architecture", {"rulesPath": ".adrguard-fitness.json", "policy": "enforce"}),
    ]
    async with Client(params, mode="legacy") as client:
        for name, args in calls:
            result = await client.call_tool(name, args)
            assert not result.is_error, (name, result)
        with pytest.raises(MCPError):  # a refusal writes nothing either
            await client.call_tool("verify_architecture", {"rulesPath": "none.json"})
    assert _status(repo) == before == ""


def test_verify_writes_only_the_drift_baseline_and_only_when_asked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = _repo(tmp_path)
    repo.write({"src/app.py": "print(1)\n"})
    repo.commit("a violation")
    assert _status(repo) == ""
    assert main(["verify", "--repo", str(repo.path), "--policy", "enforce"]) == 1
    assert _status(repo) == ""
    assert main(["verify", "--repo", str(repo.path), "--write-baseline"]) == 0
    assert _status(repo) == "?? .adrguard-drift-baseline.json"
    assert main(["verify", "--repo", str(repo.path), "--policy", "enforce"]) == 0  # known now
    assert _status(repo) == "?? .adrguard-drift-baseline.json"
    capsys.readouterr()


def _forged_cache(repo: GitRepo, tmp_path: Path) -> Path:
    """A copy of a real cache whose every record says something else (title, status), plus an
    old-style result entry claiming there is nothing to report."""
    real = recordcache.store_dir()
    main(["list", "--repo", str(repo.path)])  # fills the real cache
    forged = tmp_path / "forged"
    shutil.copytree(real, forged)
    found = recordcache.records(forged)
    assert len(found) == 2
    for pack, entry in found.values():
        recordcache.forge(pack, entry, title="Forged", status=None, links=(), problems=())
    (forged / "check-result.json").write_text('{"format": 1, "key": "x", "value": {}}')
    shutil.rmtree(real)
    return forged


def _outputs(repo: GitRepo, capsys: pytest.CaptureFixture[str], *extra: str) -> list[str]:
    out = []
    for command in (
        ["check", "--format", "json", "--today", "2026-01-01"],
        ["check", "--format", "text", "--today", "2026-01-01"],
        ["list", "--format", "json"],
        ["show", "2", "--format", "json"],
    ):
        main([*command, "--repo", str(repo.path), *extra])
        out.append(capsys.readouterr().out)
    return out


@pytest.mark.parametrize("how", ["committed folder", "committed symlink", "untracked folder"])
def test_a_cache_in_the_repository_is_never_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    """A pull request can commit `.adrguard_cache/` (or a symlink of that name) with forged
    entries under keys anyone can compute: adrguard never reads anything in the work tree as a
    cache, so every report equals a run without the cache."""
    repo = _repo(tmp_path)
    forged = _forged_cache(repo, tmp_path)
    capsys.readouterr()
    planted = repo.path / ".adrguard_cache"
    if how == "committed symlink":
        planted.symlink_to(forged, target_is_directory=True)
    else:
        shutil.copytree(forged, planted)
    if how != "untracked folder":
        repo.git("add", "-f", ".adrguard_cache")
        repo.commit("a forged cache")
    plain = _outputs(repo, capsys, "--no-cache")
    assert "Forged" not in "".join(plain) and "ADR103" in plain[0]
    assert _outputs(repo, capsys) == plain  # cold: the cache folder is empty
    assert _outputs(repo, capsys) == plain  # warm
    # the same folder as the real cache *is* read: the comparison above means something
    monkeypatch.setenv("ADRGUARD_CACHE_DIR", str(forged))
    main(["list", "--repo", str(repo.path)])
    assert "Forged" in capsys.readouterr().out


def test_git_status_is_untouched_by_check_in_a_subprocess(tmp_path: Path) -> None:
    """The console entry point, as a hook runs it, from inside the repository."""
    repo = _repo(tmp_path)
    before = _status(repo)
    for command in (["check"], ["list"], ["index", "--check"]):
        subprocess.run(
            [sys.executable, "-m", "adrguard", *command],
            cwd=repo.path / "docs",
            env=_env(),
            capture_output=True,
            check=False,
        )
    assert _status(repo) == before
