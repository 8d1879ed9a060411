"""`adrguard link A RELATION B` (issue 28, point 7; adr-tools' `adr link`): on real temporary
git repositories, through the CLI in-process; what it writes is read back by `check`,
`relationships` and `supersede`'s own writer."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from gitrepo import GitRepo

from adrguard.cli import main

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

MADR3 = """---
status: {status}
date: 2023-0{n}-11
{extra}---
# {title}

## Context and Problem Statement

Problem {n}.

## Decision Outcome

Chosen option: "A".
"""


def _log(tmp_path: Path, name: str, records: dict[str, str]) -> GitRepo:
    repo = GitRepo(tmp_path / name)
    repo.write({**records, ".adrguard.toml": "cache = false\n"})
    repo.commit("records")
    return repo


@pytest.fixture()
def nygard(tmp_path: Path) -> GitRepo:
    return _log(tmp_path, "nygard", {
        f"docs/adr/000{n}-{slug}.md": NYGARD.format(n=n, title=title, status=status)
        for n, slug, title, status in (
            (1, "use-mysql", "Use MySQL", "Accepted"),
            (2, "cache-reads", "Cache reads", "Accepted"),
            (3, "use-postgres", "Use Postgres", "Accepted"),
            (4, "try-sqlite", "Try SQLite", "Proposed"),
        )})


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _relations(capsys: pytest.CaptureFixture[str], repo: GitRepo) -> set[tuple[str, str, str, str]]:
    code, out, _ = run(capsys, "relationships", "--repo", str(repo.path), "--format", "json")
    assert code == 0
    return {(r["source"], r["type"], r["target"], r["state"])
            for r in json.loads(out)["relationships"]}


def _clean(capsys: pytest.CaptureFixture[str], repo: GitRepo) -> None:
    code, out, _ = run(capsys, "check", "--repo", str(repo.path), "--format", "concise")
    assert (code, out) == (0, ""), out


def _files(repo: GitRepo) -> dict[str, str]:
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(repo.path.rglob("*.md"))}


def test_link_amends_writes_both_sides_in_the_logs_form(
    nygard: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before: `link` was not a command (exit 2)."""
    root = str(nygard.path)
    before = _files(nygard)
    code, out, err = run(capsys, "link", "2", "amends", "1", "--repo", root, "--dry-run")
    assert code == 0 and _files(nygard) == before and "dry run: nothing was written" in err
    assert "+Amends [1. Use MySQL](0001-use-mysql.md)\n" in out
    assert "+Amended by [2. Cache reads](0002-cache-reads.md)\n" in out and out.endswith("\n")
    code, out, _ = run(capsys, "link", "2", "amends", "1", "--repo", root)
    assert code == 0 and out.splitlines() == ["docs/adr/0002-cache-reads.md",
                                              "docs/adr/0001-use-mysql.md"]
    amended = (nygard.path / "docs/adr/0002-cache-reads.md").read_text(encoding="utf-8")
    assert "## Status\n\nAccepted\n\nAmends [1. Use MySQL](0001-use-mysql.md)\n\n## Context" in amended
    assert _relations(capsys, nygard) == {
        ("ADR-0002", "amends", "ADR-0001", "resolved"),
        ("ADR-0001", "amended-by", "ADR-0002", "resolved")}
    _clean(capsys, nygard)
    # again: declared already, nothing written
    after = _files(nygard)
    code, out, err = run(capsys, "link", "ADR-0002", "amends", "ADR-0001", "--repo", root)
    assert (code, out) == (0, "") and "declared already: nothing to write" in err
    assert _files(nygard) == after


def test_link_supersedes_writes_what_supersede_by_writes(
    nygard: GitRepo, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    twin = tmp_path / "twin"
    shutil.copytree(nygard.path, twin)
    code, _, _ = run(capsys, "link", "3", "supersedes", "1", "--repo", str(nygard.path))
    assert code == 0
    code, _, _ = run(capsys, "supersede", "1", "--by", "3", "--repo", str(twin))
    assert code == 0
    assert _files(nygard) == {p.name: p.read_text(encoding="utf-8")
                              for p in sorted(twin.rglob("*.md"))}
    old = (nygard.path / "docs/adr/0001-use-mysql.md").read_text(encoding="utf-8")
    assert "## Status\n\nSuperseded by [3. Use Postgres](0003-use-postgres.md)\n" in old
    _clean(capsys, nygard)
    # the same relation, written from the other side, changes nothing more
    code, _, err = run(capsys, "link", "1", "superseded-by", "3", "--repo", str(nygard.path))
    assert code == 0 and "declared already" in err


def test_a_proposed_successor_leaves_the_old_record_in_force(
    nygard: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "link", "4", "supersedes", "2", "--repo", str(nygard.path))
    assert code == 0 and out == "docs/adr/0004-try-sqlite.md\n"
    assert "ADR-0002 keeps its status while ADR-0004 is proposed" in err
    assert "`adrguard link ADR-0004 supersedes ADR-0002` again" in err
    # one side only, until ADR-0004 is accepted (as `supersede 2 "Title"` leaves it)
    assert _relations(capsys, nygard) == {("ADR-0004", "supersedes", "ADR-0002", "inconsistent")}
    _clean(capsys, nygard)  # a proposed successor is no problem for check


def test_depends_on_is_written_in_the_dependent_record_only(
    nygard: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    before = _files(nygard)
    code, out, err = run(capsys, "link", "2", "depends-on", "3", "--repo", str(nygard.path))
    assert code == 0 and out == "docs/adr/0002-cache-reads.md\n" and "left as it is" in err
    after = _files(nygard)
    assert after["0003-use-postgres.md"] == before["0003-use-postgres.md"]
    assert "Depends on [3. Use Postgres](0003-use-postgres.md)" in after["0002-cache-reads.md"]
    assert _relations(capsys, nygard) == {("ADR-0002", "depends-on", "ADR-0003", "resolved")}
    _clean(capsys, nygard)


def test_a_relation_adrguard_could_not_read_back_is_refused(
    nygard: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    """This log has no front matter, and a `Relates to` line in prose is no relation to the
    parser: nothing is written rather than a line `check` would not see."""
    before = _files(nygard)
    code, out, err = run(capsys, "link", "2", "relates-to", "3", "--repo", str(nygard.path))
    assert (code, out) == (2, "") and "would not read a relates-to relation" in err
    assert "nothing was written" in err and _files(nygard) == before


def test_relates_to_in_a_front_matter_log_goes_both_ways(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = _log(tmp_path, "madr", {
        "docs/decisions/0001-use-json.md": MADR3.format(
            n=1, title="Use JSON", status="superseded", extra="superseded-by: ADR-0002\n"),
        "docs/decisions/0002-use-yaml.md": MADR3.format(
            n=2, title="Use YAML", status="accepted", extra="supersedes: ADR-0001\n"),
        "docs/decisions/0003-use-toml.md": MADR3.format(
            n=3, title="Use TOML", status="accepted", extra=""),
    })
    code, out, _ = run(capsys, "link", "3", "related_to", "2", "--repo", str(repo.path))
    assert code == 0 and sorted(out.splitlines()) == ["docs/decisions/0002-use-yaml.md",
                                                      "docs/decisions/0003-use-toml.md"]
    toml = (repo.path / "docs/decisions/0003-use-toml.md").read_text(encoding="utf-8")
    assert toml.startswith("---\nstatus: accepted\ndate: 2023-03-11\nrelates-to: ADR-0002\n---\n")
    assert {r for r in _relations(capsys, repo) if r[1] == "relates-to"} == {
        ("ADR-0003", "relates-to", "ADR-0002", "resolved"),
        ("ADR-0002", "relates-to", "ADR-0003", "resolved")}
    _clean(capsys, repo)


@pytest.mark.parametrize(("argv", "says"), [
    (["2", "contradicts", "1"], "unknown relation 'contradicts'"),
    (["2", "amends", "2"], "cannot amends itself"),
    (["2", "amends", "99"], "no decision matches '99'"),
    (["2", "in-favour-of", "1"], "in-favour-of says a rejected record"),
])
def test_link_refuses_what_makes_no_sense(
    nygard: GitRepo, capsys: pytest.CaptureFixture[str], argv: list[str], says: str
) -> None:
    before = _files(nygard)
    code, out, err = run(capsys, "link", *argv, "--repo", str(nygard.path))
    assert (code, out) == (2, "") and says in err, err
    assert _files(nygard) == before
