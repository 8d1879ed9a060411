"""`adrguard compaction` end to end on a real git repository: the analysis of a log with a
supersession chain, amendments, an archived record, a reviewed CURRENT view and blockers; its
scopes and its refusals. The analysis writes nothing."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from compactionrepo import build, status
from gitrepo import GitRepo

from adrguard.cli import main
from adrguard.core.schemas import validator


@pytest.fixture
def repo(tmp_path: Path) -> GitRepo:
    return build(tmp_path)


def _json(repo: GitRepo, capsys: pytest.CaptureFixture[str], *extra: str) -> dict[str, Any]:
    assert main(["compaction", "--repo", str(repo.path), "--format", "json", *extra]) == 0
    data: dict[str, Any] = json.loads(capsys.readouterr().out)
    errors = list(validator("compaction.schema.json").iter_errors(data))
    assert not errors, errors[0].message
    return data


def _by_id(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {r["id"]: r for r in data["records"]}


def test_the_analysis_of_a_log_with_chains_archive_current_and_blockers(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    data = _json(repo, capsys)
    records = _by_id(data)
    assert {k: v["disposition"] for k, v in records.items()} == {
        "ADR-0001": "keep",  # the reviewer's coverage: kept
        "ADR-0002": "archive-candidate",  # superseded; the chain ends at accepted ADR-0006
        "ADR-0003": "consolidate",  # amended twice
        "ADR-0004": "archive-candidate",
        "ADR-0005": "consolidate",
        "ADR-0006": "summarize",  # the reviewer's coverage: summarized
        "ADR-0007": "consolidate",
        "ADR-0008": "open",  # superseded by a proposal: premature
        "ADR-0009": "open",  # a proposal
        "ADR-0010": "keep",
    }
    assert "ADR-0000" not in records  # archived: counted, not analysed
    ev = records["ADR-0002"]["evidence"]
    assert ev["currentSuccessor"] == {
        "id": "ADR-0006", "path": "docs/adr/0006-use-postgresql-16.md", "status": "accepted"}
    assert ev["successors"] == ["ADR-0004"]
    assert ev["inboundActive"] == ["ADR-0006"]  # ADR-0006 links to it (a reference link)
    assert records["ADR-0006"]["evidence"]["current"] == [{
        "view": "docs/adr/CURRENT.md", "coverage": "summarized", "memberFresh": True,
        "viewFresh": True}]
    assert records["ADR-0003"]["evidence"]["amendedBy"] == ["ADR-0005", "ADR-0007"]
    assert "not accepted" in records["ADR-0008"]["reasons"][0]
    [root] = data["roots"]
    assert root["root"] == "docs/adr"
    assert (root["records"], root["archived"], root["inScope"]) == (10, 1, 10)
    assert root["statuses"]["accepted"] == 6 and root["statuses"]["superseded"] == 3
    assert root["dispositions"] == {
        "keep": 2, "summarize": 1, "consolidate": 3, "open": 2, "archive-candidate": 2}
    assert root["sizeAfterArchiving"]["bytes"] < root["size"]["bytes"]
    assert root["current"]["fresh"] is True and root["current"]["size"]["tokens"] > 0
    assert [(b["kind"], b["path"]) for b in data["blockers"]] == [
        ("premature-supersession", "docs/adr/0008-use-a-queue.md")]
    assert [(c["kind"], c["records"]) for c in data["candidates"]] == [
        ("amended", ["ADR-0003", "ADR-0005", "ADR-0007"]),
        ("chain", ["ADR-0002", "ADR-0004", "ADR-0006"]),
    ]


def test_a_stale_current_view_is_a_blocker_and_its_coverage_is_not_trusted(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    path = repo.path / "docs/adr/0006-use-postgresql-16.md"
    path.write_text(path.read_text().replace("We live with it.", "We upgrade yearly."))
    data = _json(repo, capsys)
    kinds = [b["kind"] for b in data["blockers"]]
    assert kinds.count("stale-current") == 1
    six = _by_id(data)["ADR-0006"]
    assert six["evidence"]["current"][0]["memberFresh"] is False
    assert six["disposition"] == "keep"  # no longer the reviewer's word: the heuristics decide


def test_cycles_and_dangling_relations_are_blockers(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    path = repo.path / "docs/adr/0003-expose-a-rest-api.md"
    path.write_text(path.read_text().replace(
        "## Context", "Depends on [ADR-0011](0011-missing.md)\n\n"
        "Depends on [the vendor's RFC](https://example.invalid/rfc-7.md)\n\n"  # external: no blocker
        "Superseded by DR008\n\n## Context"))  # not an id of this log: external too
    nine = repo.path / "docs/adr/0009-use-kafka.md"
    nine.write_text(nine.read_text().replace(
        "Proposed\n\nSupersedes", "Superseded by [8. Use a queue](0008-use-a-queue.md)\n\nSupersedes"))
    data = _json(repo, capsys)
    records = _by_id(data)
    three = records["ADR-0003"]
    assert three["disposition"] == "open"
    assert three["evidence"]["blockers"] == ["ADR301"]
    assert three["evidence"]["unresolved"] == ["0011-missing.md"]
    for rid in ("ADR-0008", "ADR-0009"):  # each end of the loop is open, the cycle named
        assert records[rid]["disposition"] == "open"
        assert records[rid]["evidence"]["blockers"] == ["ADR303"]
    assert [(b["kind"], b["code"], b["decisionId"]) for b in data["blockers"]
            if b["kind"] != "stale-current"] == [
        ("unresolved-relation", "ADR301", "ADR-0003"), ("cycle", "ADR303", "ADR-0008")]


def test_the_output_is_deterministic_and_the_tree_untouched(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    before = status(repo)
    runs = []
    for fmt in ("json", "text", "json", "text"):
        assert main(["compaction", "--repo", str(repo.path), "--format", fmt]) == 0
        runs.append(capsys.readouterr().out)
    assert runs[0] == runs[2] and runs[1] == runs[3]
    assert "archive-candidate" in runs[1] and "blockers (fix these before any compaction)" in runs[1]
    assert status(repo) == before == ""


def test_sources_and_domain_scopes(repo: GitRepo, capsys: pytest.CaptureFixture[str]) -> None:
    data = _json(repo, capsys, "--sources", "2, ADR-0006,docs/adr/0008-use-a-queue.md")
    assert data["scope"] == {"kind": "sources", "value": "2, ADR-0006,docs/adr/0008-use-a-queue.md",
                             "records": 3}
    assert sorted(_by_id(data)) == ["ADR-0002", "ADR-0006", "ADR-0008"]
    # the evidence still comes from the whole log: ADR-0006 is in force because of ADR-0004
    assert _by_id(data)["ADR-0002"]["evidence"]["currentSuccessor"]["id"] == "ADR-0006"
    data = _json(repo, capsys, "--domain", "Security")
    assert data["scope"]["value"] == "security" and sorted(_by_id(data)) == ["ADR-0010"]
    assert _json(repo, capsys, "--domain", "operations")["scope"]["records"] == 1  # a tag


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--sources", "ADR-0000"], "is archived"),
        (["--sources", "ADR-0042"], "no decision matches"),
        (["--sources", "1,,2"], "separated by commas"),
        (["--domain", "billing"], "known domains: operations, security"),
        (["--domain", "security", "--sources", "1"], "not allowed with argument"),
        (["--mode", "summary"], "--mode summary is not available in this version"),
        (["--mode", "consolidate", "--archive"], "not available in this version"),
        (["--mode", "consolidate", "--domain", "security"], "takes the records it replaces"),
        (["--mode", "consolidate", "--sources", "3,5"], "needs the new record's --title"),
        (["--title", "X"], "go with --mode consolidate"),
        (["--archive"], "--archive is not available in this version"),
        (["--style", "madr"], "--style is not available"),
        (["--baseline", "v2"], "--baseline is not available"),
        (["--iteration", "7"], "--iteration is not available"),
        (["--confirm", "abc"], "'abc' is not a plan id"),
        (["--confirm", "abcdef"], "no kept plan abcdef"),
        (["--confirm", "abcdef", "--sources", "1"], "give no scope"),
        (["status", "1", "2"], "takes at most one PLAN-ID"),
        (["status", "--sources", "1"], "takes no scope"),
        (["statuses"], "takes no argument 'statuses'"),
        (["--all"], "every unarchived record is the default scope"),
        (["--force"], "--force is not an option"),
        (["--delete-history"], "never deletes a record"),
        (["--include-archived"], "is not an option"),
        (["--unlimited"], "is not an option"),
        (["--bogus"], "unrecognized arguments: --bogus"),
        (["--dom", "security"], "unrecognized arguments"),  # no abbreviations
    ],
)
def test_refusals(
    repo: GitRepo, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    assert main(["compaction", "--repo", str(repo.path), *argv]) == 2
    err = capsys.readouterr().err
    assert err.count("error:") == 1 and message in err, err


def test_dry_run_is_the_default_analysis(repo: GitRepo, capsys: pytest.CaptureFixture[str]) -> None:
    assert _json(repo, capsys, "--dry-run") == _json(repo, capsys)


def test_help_documents_the_combinations(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compaction", "--help"]) == 0
    text = capsys.readouterr().out
    for words in ("--sources IDS", "--domain SLUG", "not available in this version", "--all",
                  "adrguard archive plan"):
        assert words in text


def _plain(n: int, title: str, status: str = "", extra: str = "") -> str:
    state = f"## Status\n\n{status}\n\n" if status else ""
    return (f"# {n}. {title}\n\n{state}## Context\n\nWhy {title.lower()}.\n\n## Decision\n\n"
            f"We {title.lower()}.{extra}\n\n## Consequences\n\nFine.\n")


def test_a_log_that_states_no_status_is_read_as_in_force(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A record without a status is the house style of a log that states none (the ADR102
    reading): in force, not 'open'; `require-status = true` asks for statuses again. A log that
    adopted statuses later reads its early records so, and asks its later ones."""
    repo = GitRepo(tmp_path / "plain")
    repo.write({
        "docs/adr/0001-use-markdown.md": _plain(1, "Use markdown"),
        "docs/adr/0002-use-python.md": _plain(2, "Use Python"),
        "docs/adr/0003-use-tox.md": _plain(3, "Use tox", extra=" See [2](0002-use-python.md)."),
        "docs/adr/0004-use-nox.md": _plain(
            4, "Use nox", extra="\n\nSupersedes [3. Use tox](0003-use-tox.md)"),
        "src/app.py": "x = 1\n",
    })
    repo.commit("a log without statuses")
    records = _by_id(_json(repo, capsys))
    assert records["ADR-0001"]["disposition"] == "keep"
    assert "states no status, as its log does by habit" in records["ADR-0001"]["reasons"][-1]
    assert records["ADR-0002"]["evidence"]["inboundActive"] == ["ADR-0003"]
    # superseded in all but its status: a person marks it, then it can be archived
    assert records["ADR-0003"]["disposition"] == "open"
    assert "mark it superseded" in records["ADR-0003"]["reasons"][0]
    assert records["ADR-0004"]["disposition"] == "keep"

    repo.write({".adrguard.toml": "require-status = true\n"})
    records = _by_id(_json(repo, capsys))
    assert {r["disposition"] for r in records.values()} == {"open"}
    assert "its status is not stated" in records["ADR-0001"]["reasons"][0]

    repo.write({".adrguard.toml": "", **{
        f"docs/adr/{n:04d}-later-{n}.md": _plain(n, f"Later {n}", "Accepted") for n in range(5, 9)},
        "docs/adr/0009-forgot.md": _plain(9, "Forgot")})
    records = _by_id(_json(repo, capsys))
    assert records["ADR-0001"]["disposition"] == "keep"  # written before statuses were adopted
    assert records["ADR-0009"]["disposition"] == "open"  # written after: a status is missing
