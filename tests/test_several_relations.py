"""Several amendments and supersessions of one record (issue 33, point 2): the second one
writes a list value or one more relation line instead of refusing ("already has a
front-matter key"). Real temporary git repositories, through the CLI in-process; what is
written is read back by `relationships` and `check`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from gitrepo import GitRepo

from adrguard.cli import main

MADR = """---
status: {status}
date: 2023-0{n}-11
{extra}---
# {title}

## Context and Problem Statement

Problem {n}.

## Decision Outcome

Chosen option: "A".
"""

NYGARD = """# {n}. {title}

Date: 2023-0{n}-05

## Status

{status}

## Context

Context {n}.

## Decision

Decision {n}.

## Consequences

Consequences {n}.
"""


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _repo(tmp_path: Path, files: dict[str, str]) -> GitRepo:
    repo = GitRepo(tmp_path / "repo")
    repo.write({**files, ".adrguard.toml": "cache = false\n"})
    repo.commit("records")
    return repo


def _relations(capsys: pytest.CaptureFixture[str], repo: GitRepo) -> set[tuple[str, str, str]]:
    code, out, _ = run(capsys, "relationships", "--repo", str(repo.path), "--format", "json")
    assert code == 0
    return {(r["source"], r["type"], r["target"]) for r in json.loads(out)["relationships"]
            if r["state"] == "resolved"}


def _clean(capsys: pytest.CaptureFixture[str], repo: GitRepo) -> None:
    code, out, _ = run(capsys, "check", "--repo", str(repo.path), "--format", "concise")
    assert (code, out) == (0, ""), out


def test_three_amendments_of_a_front_matter_record_make_a_list(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = _repo(tmp_path, {
        f"docs/decisions/000{n}-{slug}.md": MADR.format(n=n, title=title, status="accepted",
                                                         extra=extra)
        for n, slug, title, extra in (
            (1, "use-json", "Use JSON", ""),
            (2, "pretty-json", "Pretty JSON", "amends: ADR-0001\n"),
            (3, "sorted-keys", "Sorted keys", ""),
            (4, "no-bom", "No BOM", ""),
        )})
    (repo.path / "docs/decisions/0001-use-json.md").write_text(
        MADR.format(n=1, title="Use JSON", status="accepted", extra="amended-by: ADR-0002\n"),
        encoding="utf-8")
    repo.commit("one amendment on both sides")
    root = str(repo.path)
    code, _, err = run(capsys, "link", "3", "amends", "1", "--repo", root)
    assert code == 0, err
    code, _, err = run(capsys, "link", "4", "amends", "1", "--repo", root)
    assert code == 0, err
    first = (repo.path / "docs/decisions/0001-use-json.md").read_text(encoding="utf-8")
    assert "amended-by: [ADR-0002, ADR-0003, ADR-0004]\n" in first
    # every other byte of the record stays as it was
    assert first.replace("amended-by: [ADR-0002, ADR-0003, ADR-0004]\n",
                         "amended-by: ADR-0002\n") == MADR.format(
        n=1, title="Use JSON", status="accepted", extra="amended-by: ADR-0002\n")
    assert {("ADR-0001", "amended-by", f"ADR-000{n}") for n in (2, 3, 4)} <= _relations(
        capsys, repo)
    # the same relation a second time is not written twice
    code, _, err = run(capsys, "link", "4", "amends", "1", "--repo", root)
    assert code == 0 and "declared already" in err
    _clean(capsys, repo)


def test_a_block_list_gets_one_more_item(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = _repo(tmp_path, {
        "docs/decisions/0001-use-json.md": MADR.format(
            n=1, title="Use JSON", status="accepted", extra="amended-by:\n  - ADR-0002\n"),
        "docs/decisions/0002-pretty-json.md": MADR.format(
            n=2, title="Pretty JSON", status="accepted", extra="amends: ADR-0001\n"),
        "docs/decisions/0003-sorted-keys.md": MADR.format(
            n=3, title="Sorted keys", status="accepted", extra=""),
    })
    code, _, err = run(capsys, "link", "3", "amends", "1", "--repo", str(repo.path))
    assert code == 0, err
    first = (repo.path / "docs/decisions/0001-use-json.md").read_text(encoding="utf-8")
    assert "amended-by:\n  - ADR-0002\n  - ADR-0003\ndate:" not in first  # order is kept
    assert "amended-by:\n  - ADR-0002\n  - ADR-0003\n" in first
    assert ("ADR-0001", "amended-by", "ADR-0003") in _relations(capsys, repo)
    _clean(capsys, repo)


def test_a_record_split_between_two_accepted_successors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`supersede OLD --by NEW` on a record superseded already adds one more Superseded by
    line (adr-tools' own form for a second link) and keeps the status; a second successor
    written from a TITLE is still refused."""
    repo = _repo(tmp_path, {
        f"docs/adr/000{n}-{slug}.md": NYGARD.format(n=n, title=title, status=status)
        for n, slug, title, status in (
            (1, "one-database", "One database", "Accepted"),
            (2, "orders-in-postgres", "Orders in Postgres", "Accepted"),
            (3, "events-in-kafka", "Events in Kafka", "Accepted"),
        )})
    root = str(repo.path)
    code, _, err = run(capsys, "supersede", "1", "--by", "2", "--repo", root)
    assert code == 0, err
    code, _, err = run(capsys, "supersede", "1", "--by", "3", "--repo", root)
    assert code == 0, err
    old = (repo.path / "docs/adr/0001-one-database.md").read_text(encoding="utf-8")
    assert old.count("Superseded by [") == 2
    assert "Superseded by [3. Events in Kafka](0003-events-in-kafka.md)" in old
    rels = _relations(capsys, repo)
    assert {("ADR-0001", "superseded-by", "ADR-0002"),
            ("ADR-0001", "superseded-by", "ADR-0003")} <= rels
    code, _, err = run(capsys, "supersede", "1", "--by", "3", "--repo", root)
    assert code == 0
    assert (repo.path / "docs/adr/0001-one-database.md").read_text(encoding="utf-8") == old
    code, _, err = run(capsys, "supersede", "1", "Another one", "--repo", root)
    assert code == 2 and "superseded already" in err
