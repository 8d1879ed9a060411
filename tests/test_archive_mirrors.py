"""Archive and INDEX (issue 33, point 5): the root INDEX links the archive's INDEX; an archive
plan names a record's translation mirrors and moves them with it (a tag-named file beside it,
a file of a language folder); deleting an original never promotes its mirror to its id. Real
temporary git repositories, through the CLI in-process."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from gitrepo import GitRepo

from adrguard.cli import main


def record(n: int, title: str, status: str) -> str:
    return (f"# {n}. {title}\n\nDate: 2024-01-0{n}\n\n## Status\n\n{status}\n\n## Context\n\n"
            f"Why.\n\n## Decision\n\nWe {title.lower()}.\n\n## Consequences\n\nFine.\n")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def repo(tmp_path: Path) -> GitRepo:
    repo = GitRepo(tmp_path / "repo")
    repo.write({
        ".adrguard.toml": "cache = false\n",
        "docs/adr/0001-use-mysql.md": record(
            1, "Use MySQL", "Superseded by [2. Use Postgres](0002-use-postgres.md)"),
        "docs/adr/0002-use-postgres.md": record(
            2, "Use Postgres", "Accepted\n\nSupersedes [1. Use MySQL](0001-use-mysql.md)"),
        "docs/adr/0003-use-kafka.md": record(3, "Use Kafka", "Accepted"),
        # a translation beside its record, and a language folder
        "docs/adr/0001-use-mysql.de.md": "# 1. MySQL verwenden\n\nSiehe [Postgres]"
                                          "(0002-use-postgres.md).\n",
        "docs/adr/0003-use-kafka.de.md": "# 3. Kafka verwenden\n",
        "docs/adr/zh/0001-use-mysql.md": "# 1. 使用 MySQL\n\n[原文](../0001-use-mysql.md)\n",
        "docs/adr/zh/0003-use-kafka.md": "# 3. 使用 Kafka\n",
    })
    assert main(["index", "--write", "--init", "--repo", str(repo.path)]) == 0
    repo.commit("records, translations, an index")
    return repo


def _listed(capsys: pytest.CaptureFixture[str], repo: GitRepo) -> dict[str, Any]:
    code, out, _ = run(capsys, "list", "--repo", str(repo.path), "--format", "json")
    assert code == 0
    return {r["id"]: r for r in json.loads(out)["decisions"]}


def test_mirrors_move_with_their_record_and_the_root_index_links_the_archive(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    where = ("--repo", str(repo.path))
    plan_path = repo.path / ".git/plan.json"
    code, _, err = run(capsys, "archive", "plan", "1", "--out", str(plan_path), *where)
    assert code == 0, err
    plan = json.loads(plan_path.read_text())
    assert plan["records"][0]["mirrors"] == ["docs/adr/0001-use-mysql.de.md",
                                             "docs/adr/zh/0001-use-mysql.md"]
    assert {m["from"]: m["to"] for m in plan["moves"]} == {
        "docs/adr/0001-use-mysql.md": "docs/adr/archive/0001-use-mysql.md",
        "docs/adr/0001-use-mysql.de.md": "docs/adr/archive/0001-use-mysql.de.md",
        "docs/adr/zh/0001-use-mysql.md": "docs/adr/zh/archive/0001-use-mysql.md",
    }
    code, text, _ = run(capsys, "archive", "plan", "1", "--format", "text", *where)
    assert "move docs/adr/zh/0001-use-mysql.md -> docs/adr/zh/archive/0001-use-mysql.md " \
           "(translation of ADR-0001)" in text
    code, _, err = run(capsys, "archive", "apply", str(plan_path), *where)
    assert code == 0, err
    # the mirrors' links still resolve; the translations are still mirrors, not records
    zh = (repo.path / "docs/adr/zh/archive/0001-use-mysql.md").read_text(encoding="utf-8")
    assert "(../../archive/0001-use-mysql.md)" in zh
    de = (repo.path / "docs/adr/archive/0001-use-mysql.de.md").read_text(encoding="utf-8")
    assert "(../0002-use-postgres.md)" in de
    listed = _listed(capsys, repo)
    assert sorted(listed) == ["ADR-0001", "ADR-0002", "ADR-0003"]
    assert listed["ADR-0001"]["path"] == "docs/adr/archive/0001-use-mysql.md"
    index = (repo.path / "docs/adr/INDEX.md").read_text(encoding="utf-8")
    assert "Archived: [archive/INDEX.md](archive/INDEX.md) (1 record)." in index
    code, out, _ = run(capsys, "check", "--repo", str(repo.path), "--format", "concise")
    assert code == 0 and " ADR2" not in out and " ADR4" not in out, out
    assert run(capsys, "archive", "restore", str(plan_path), *where)[0] == 0
    assert repo.git("status", "--porcelain") == ""


def test_deleting_an_original_never_promotes_its_translation(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    repo.git("rm", "-q", "docs/adr/0003-use-kafka.md")
    repo.commit("drop the Kafka record")
    listed = _listed(capsys, repo)
    assert sorted(listed) == ["ADR-0001", "ADR-0002"]  # neither translation of 0003 took its id
