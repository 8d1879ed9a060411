"""A CURRENT view that tells the truth (issue 33, point 4): `current init` writes the decisions
in force, then the proposals and the open conflicts apart, and says what it is derived from;
a proposal the view shows is tracked like a member, so its edit makes the view stale. (A pure
archive move keeping a fresh view fresh is tested with the archive: test_archive_cli.py.)
Real temporary git repositories, through the CLI in-process."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from gitrepo import GitRepo

from adrguard.cli import main


def record(n: int, title: str, status: str, extra: str = "") -> str:
    return (f"# {n}. {title}\n\nDate: 2024-01-0{n}\n\n## Status\n\n{status}\n\n{extra}"
            f"## Context\n\nWhy.\n\n## Decision\n\nWe {title.lower()}.\n\n"
            "## Consequences\n\nFine.\n")


FILES = {
    ".adrguard.toml": "cache = false\n",
    "docs/adr/0001-use-postgres.md": record(1, "Use Postgres", "Accepted"),
    "docs/adr/0002-use-kafka.md": record(2, "Use Kafka", "Accepted"),
    "docs/adr/0003-use-pulsar.md": record(
        3, "Use Pulsar", "Proposed", "Supersedes [2. Use Kafka](0002-use-kafka.md)\n\n"),
    "docs/adr/0004-use-a-cache.md": record(
        4, "Use a cache", "Accepted", "Depends on [9. Gone](0009-gone.md)\n\n"),
    "docs/adr/0005-drop-mysql.md": record(5, "Drop MySQL", "Rejected"),
}


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def repo(tmp_path: Path) -> GitRepo:
    repo = GitRepo(tmp_path / "repo")
    repo.write(FILES)
    repo.commit("records")
    return repo


def test_init_writes_in_force_then_proposals_and_conflicts_apart(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, "current", "init", "--repo", str(repo.path))
    assert code == 0, err
    text = (repo.path / "docs/adr/CURRENT.md").read_text(encoding="utf-8")
    in_force, _, rest = text.partition("## Proposals (not in force)\n")
    proposals, _, conflicts = rest.partition("## Open conflicts\n")
    assert "derived this draft from the 4 record(s) it links below (3 with status accepted, " \
           "1 proposal(s))" in in_force and "must be reviewed" in in_force
    assert [line for line in in_force.splitlines() if line.startswith("## ")] == [
        "## ADR-0001: Use Postgres", "## ADR-0002: Use Kafka", "## ADR-0004: Use a cache"]
    assert "- [ADR-0003: Use Pulsar](0003-use-pulsar.md) (proposed)" in proposals
    assert "Drop MySQL" not in text  # rejected: neither in force nor a proposal
    assert conflicts.splitlines()[1:] == [
        "- ADR-0003 (proposed) would supersede ADR-0002, in force",
        "- ADR-0004 depends-on '0009-gone.md': unresolved",
    ]


def test_a_proposal_the_view_shows_is_tracked(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    where = ("--repo", str(repo.path))
    view = repo.path / "docs/adr/CURRENT.md"
    view.write_text("# In force\n\nPostgres ([ADR-0001](0001-use-postgres.md)), Kafka "
                    "([ADR-0002](0002-use-kafka.md)), a cache ([ADR-0004](0004-use-a-cache.md))."
                    "\n\nProposed: Pulsar instead of Kafka ([ADR-0003](./0003-use-pulsar.md#decision)"
                    ").\n", encoding="utf-8")
    assert run(capsys, "current", "stamp", *where)[0] == 0
    members = json.loads((repo.path / "docs/adr/CURRENT.sources.json").read_text())["members"]
    assert [m["id"] for m in members] == ["ADR-0001", "ADR-0002", "ADR-0003", "ADR-0004"]
    assert run(capsys, "current", "status", *where)[0] == 0
    proposal = repo.path / "docs/adr/0003-use-pulsar.md"
    proposal.write_text(proposal.read_text(encoding="utf-8").replace(
        "We use pulsar.", "We use Pulsar for every topic."), encoding="utf-8")
    code, out, _ = run(capsys, "current", "status", *where)
    assert code == 1 and "ADR406" in out and "0003-use-pulsar.md (ADR-0003) changed" in out


def test_a_proposal_the_view_does_not_show_is_not_tracked(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    where = ("--repo", str(repo.path))
    (repo.path / "docs/adr/CURRENT.md").write_text("# In force\n\nPostgres, Kafka, a cache.\n",
                                                   encoding="utf-8")
    assert run(capsys, "current", "stamp", *where)[0] == 0
    members = json.loads((repo.path / "docs/adr/CURRENT.sources.json").read_text())["members"]
    assert "ADR-0003" not in [m["id"] for m in members]
    proposal = repo.path / "docs/adr/0003-use-pulsar.md"
    proposal.write_text(proposal.read_text(encoding="utf-8") + "\nMore.\n", encoding="utf-8")
    assert run(capsys, "current", "status", *where)[0] == 0
