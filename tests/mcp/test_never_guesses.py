"""``adr_context`` and ``adrguard context`` never guess: an ambiguous successor is reported with
its candidates, CURRENT.md freshness is checked against CURRENT.sources.json, and the overview
stays within the budget."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from agentrepo import record
from gitrepo import GitRepo
from mcphelp import ok

from adrguard.cli import main

pytestmark = pytest.mark.anyio

FORK = {
    "docs/adr/0001-queue.md": record(
        1, "Use RabbitMQ", "superseded", "## Decision\n\nRabbitMQ.\n",
        "superseded-by: [ADR-0002, ADR-0003]\n",
    ),
    "docs/adr/0002-kafka.md": record(
        2, "Use Kafka", "accepted", "## Decision\n\nKafka.\n", "supersedes: ADR-0001\n"
    ),
    "docs/adr/0003-pulsar.md": record(
        3, "Use Pulsar", "accepted", "## Decision\n\nPulsar.\n", "supersedes: ADR-0001\n"
    ),
    "src/queue.py": "q = None\n",
}


@pytest.fixture
def fork(tmp_path: Path) -> GitRepo:
    repo = GitRepo(tmp_path / "fork")
    repo.write(FORK)
    repo.commit("a fork in the chain")
    return repo


async def test_an_ambiguous_successor_is_reported_never_picked(fork: GitRepo) -> None:
    data = await ok(fork.path, "adr_context", {"identifier": "ADR-0001"})
    assert data["successor"]["state"] == "ambiguous" and data["successor"]["successor"] is None
    assert [c["identifier"] for c in data["successor"]["candidates"]] == ["ADR-0002", "ADR-0003"]
    assert data["units"][0]["identifier"] == "ADR-0001"  # the record asked for comes first
    assert not any(u["why"].startswith("current successor") for u in data["units"])
    assert any("ambiguous" in w and "none was chosen" in w for w in data["warnings"])
    adr = (await ok(fork.path, "get_adr", {"identifier": "1"}))["adr"]
    assert adr["successor"]["state"] == "ambiguous"
    assert "currentSuccessor" not in adr["relationships"]


async def test_find_reports_the_fork_and_brings_no_successor(fork: GitRepo) -> None:
    data = await ok(fork.path, "find_adrs", {"topic": "rabbitmq", "status": ["superseded"]})
    assert [r["identifier"] for r in data["results"]] == ["ADR-0001"]
    assert not any(r["kind"] == "successor" for r in data["results"][0]["reasons"])
    assert any("ambiguous" in n for n in data["notes"])


def test_the_command_line_says_the_same(fork: GitRepo, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["context", "1", "--repo", str(fork.path), "--no-cache"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert out.startswith("=== ADR-0001: Use RabbitMQ")
    assert "warning: ADR-0001 has an ambiguous successor" in out
    assert main([*argv, "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["successor"]["state"] == "ambiguous"


def _stamped(tmp_path: Path) -> GitRepo:
    repo = GitRepo(tmp_path / "current")
    repo.write(
        {
            "docs/adr/0001-db.md": record(1, "Use PostgreSQL", "accepted", "Postgres."),
            "docs/adr/0002-queue.md": record(2, "Use Kafka", "accepted", "Kafka."),
        }
    )
    repo.commit("records")
    assert main(["current", "init", "--repo", str(repo.path)]) == 0
    view = repo.path / "docs/adr/CURRENT.md"
    view.write_text("# In force\n\n* PostgreSQL stores data.\n* Kafka carries events.\n")
    assert main(["current", "stamp", "--repo", str(repo.path)]) == 0
    repo.commit("reviewed CURRENT")
    return repo


async def test_freshness_of_current_md(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo = _stamped(tmp_path)
    capsys.readouterr()
    fresh = await ok(repo.path, "adr_context", {})
    assert [(f["root"], f["state"]) for f in fresh["freshness"]] == [("docs/adr", "fresh")]
    assert fresh["freshness"][0]["view"] == "docs/adr/CURRENT.md"
    assert fresh["freshness"][0]["manifest"] == "docs/adr/CURRENT.sources.json"

    record_path = repo.path / "docs/adr/0002-queue.md"
    record_path.write_text(record(2, "Use Kafka", "accepted", "Kafka, with three brokers."))
    stale = await ok(repo.path, "adr_context", {"identifier": "ADR-0001"})
    state = stale["freshness"][0]
    assert state["state"] == "stale" and state["changedTotal"] == 1
    assert state["changed"][0]["identifier"] == "ADR-0002"
    assert any("CURRENT.md is stale: ADR-0002 changed" in w for w in stale["warnings"])

    (repo.path / "docs/adr/CURRENT.sources.json").write_text("{not json")
    broken = await ok(repo.path, "adr_context", {"topic": "kafka"})
    assert broken["freshness"][0]["state"] == "invalid"

    repo.git("rm", "-q", "-f", "docs/adr/CURRENT.sources.json")
    absent = await ok(repo.path, "adr_context", {})
    assert absent["freshness"][0]["state"] == "absent"
    assert main(["context", "--repo", str(repo.path), "--no-cache", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["freshness"][0]["state"] == "absent"


async def test_overview_pages_with_a_cursor_bound_to_the_corpus(tmp_path: Path) -> None:
    folder = tmp_path / "docs" / "adr"
    folder.mkdir(parents=True)
    for i in range(1, 301):
        (folder / f"{i:04d}-r.md").write_text(
            record(i, f"Decision number {i} about a fairly long subject", "accepted", "T.")
        )
    first = await ok(tmp_path, "adr_context", {"maxChars": 3_000})
    assert first["mode"] == "overview" and first["codePoints"] <= 3_000
    assert first["leftOut"] == 300 - len(first["index"]) and first["cursor"]
    assert first["tokensEstimate"] > 0 and first["bytes"] >= first["codePoints"]
    second = await ok(tmp_path, "adr_context", {"maxChars": 3_000, "cursor": first["cursor"]})
    assert second["index"][0]["identifier"] == f"ADR-{len(first['index']) + 1:04d}"
    accepted = await ok(tmp_path, "adr_context", {"status": ["proposed"]})
    assert accepted["index"] == [] and accepted["totalUnits"] == 0
