"""Issue 31 through the MCP SDK's own client: ``find_adrs`` and ``adr_context`` with a model
provider (a loopback fake speaking the Anthropic wire format), ``noAi``, the ladder's fields,
context intents and selectors, ``list_adrs`` summaries and ``referencedBy`` titles and dates.
Every answer is checked by the server against the tool's published output schema."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fakeprovider import KEY, FakeProvider, running
from mcphelp import fails, ok
from relevancerepo import build, configure

pytestmark = pytest.mark.anyio
ENV = "FAKE_AI_API_KEY"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return build(tmp_path / "repo").path


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch, repo: Path) -> Iterator[FakeProvider]:
    monkeypatch.setenv(ENV, KEY)
    with running() as provider:
        provider.ratings = {"deleting old code": {
            "No Dead Code": (0.9, "unused code is removed"),
            "Courage": (0.85, "removing what no longer serves takes courage"),
        }}
        configure(repo, provider.url, "anthropic", api_key_env=ENV)
        yield provider


async def test_find_adrs_with_a_model_and_with_no_ai(repo: Path, fake: FakeProvider) -> None:
    data = await ok(repo, "find_adrs", {"topic": "deleting old code"})
    assert data["method"] == "ai" and data["ai"]["state"] == "answered"
    assert [(r["identifier"], r["confidence"], r["judgedBy"]) for r in data["results"]] == [
        ("ADR-0010", 0.9, "ai"), ("ADR-0009", 0.85, "ai")]
    assert data["results"][1]["reason"] == "removing what no longer serves takes courage"
    assert data["ai"]["provider"] == "anthropic" and data["ai"]["model"] == "fake-model"
    assert isinstance(data["latency_ms"], int)
    plain = await ok(repo, "find_adrs", {"topic": "deleting old code", "noAi": True})
    assert plain["method"] == "keyword" and plain["ai"]["state"] == "off"
    assert plain["results"][0]["judgedBy"] == "keyword"
    assert 0 <= plain["results"][0]["confidence"] <= 1 and plain["results"][0]["matchedFields"]
    assert len(fake.requests) == 1
    assert "noAi" in await fails(repo, "find_adrs", {"topic": "x", "noAi": "yes"},
                                 "invalid-params")


async def test_a_failing_provider_is_a_result_with_a_warning(
    repo: Path, fake: FakeProvider
) -> None:
    fake.mode, fake.status = "status", 429
    data = await ok(repo, "find_adrs", {"topic": "deleting old code"})
    assert data["method"] == "keyword" and data["ai"]["state"] == "failed"
    assert "HTTP 429 rate_limit_error" in data["warnings"][0]


async def test_adr_context_judged_and_by_intent(repo: Path, fake: FakeProvider) -> None:
    data = await ok(repo, "adr_context", {"topic": "deleting old code"})
    assert (data["method"], data["intent"]) == ("ai", "current")
    assert [u["identifier"] for u in data["units"]] == ["ADR-0010", "ADR-0009"]
    assert data["units"][0]["why"].startswith("judged relevant by the model (0.90)")
    plain = await ok(repo, "adr_context", {"topic": "deleting old code", "noAi": True})
    assert plain["method"] == "keyword"
    history = await ok(repo, "adr_context", {"identifier": "ADR-0012", "intent": "history"})
    assert [u["identifier"] for u in history["units"]] == ["ADR-0012", "ADR-0011"]
    current = await ok(repo, "adr_context", {"paths": ["src/db/schema.py"]})
    assert "ADR-0011" not in [u["identifier"] for u in current["units"]]  # superseded
    assert "unknown" not in str(current["intent"])
    args = {"identifier": "ADR-0012", "intent": "later"}
    assert "intent" in await fails(repo, "adr_context", args, "invalid-params")
    message = await fails(repo, "adr_context", {"intent": "history"}, "invalid-params")
    assert "needs a record" in message


async def test_adr_context_by_domain_and_iteration(tmp_path: Path) -> None:
    from agentrepo import record
    from gitrepo import GitRepo

    repo = GitRepo(tmp_path / "sel")
    repo.write({
        "docs/adr/payments/0001-cards.md": record(1, "Cards", "accepted", "Cards text."),
        "docs/adr/0002-refunds.md": record(2, "Refunds", "accepted", "Refund text.",
                                           "domain: payments\niteration: 3\n"),
        "docs/adr/0003-search.md": record(3, "Search", "accepted", "Search text."),
    })
    repo.commit("records")
    data = await ok(repo.path, "adr_context", {"domain": "Payments"})
    assert [u["identifier"] for u in data["units"]] == ["ADR-0001", "ADR-0002"]
    assert data["units"][0]["why"] == "in domain Payments"
    it = await ok(repo.path, "adr_context", {"iteration": "3"})
    assert [u["identifier"] for u in it["units"]] == ["ADR-0002"]
    message = await fails(repo.path, "adr_context", {"domain": "billing"}, "invalid-params")
    assert "payments" in message  # the domains this log states


async def test_list_summaries_and_referenced_by_titles(tmp_path: Path) -> None:
    from agentrepo import record
    from gitrepo import GitRepo

    repo = GitRepo(tmp_path / "cite")
    repo.write({
        "docs/adr/0004-evidence.md": record(
            4, "Evidence", "accepted", "## Decision\n\nShow, do not tell. Always.\n"),
        "docs/adr/0005-tests.md": record(5, "Tests", "accepted", "See [Evidence](0004-evidence.md).\n",
                                         "date: 2026-01-15\n"),
        "docs/rfcs/0001-testing.md": "# RFC 0001: Testing framework\n\n| | |\n|---|---|\n"
        "| **Date** | 2026-01-20 |\n| **ADRs** | 0004 |\n",
    })
    repo.commit("records")
    listed = await ok(repo.path, "list_adrs", {})
    assert listed["adrs"][0]["summary"] == "Show, do not tell."
    got = await ok(repo.path, "get_adr", {"identifier": "ADR-0004"})
    by = {r["kind"]: r for r in got["adr"]["referencedBy"]}
    assert (by["decision"]["title"], by["decision"]["date"]) == ("Tests", "2026-01-15")
    assert (by["doc"]["title"], by["doc"]["date"]) == ("RFC 0001: Testing framework",
                                                        "2026-01-20")
