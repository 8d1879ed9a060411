"""`adrguard check --compaction` (issue 33, point 6): the compaction blockers as findings of
check, on the real temporary repository the compaction tests build."""

from __future__ import annotations

from pathlib import Path

import pytest
from compactionrepo import build
from gitrepo import GitRepo

from adrguard.cli import main
from adrguard.core.compaction.evidence import BLOCKER_KINDS, COMPACTION_CODES


@pytest.fixture()
def repo(tmp_path: Path) -> GitRepo:
    return build(tmp_path)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_check_compaction_reports_the_blockers_and_nothing_else(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    where = ["--repo", str(repo.path), "--no-cache", "--format", "concise"]
    code, out, _ = run(capsys, "check", "--compaction", *where)
    lines = out.splitlines()
    # the premature supersession of ADR-0008 (its successor is only proposed) blocks
    assert code == 1 and any(" ADR307 " in line and "0008-use-a-queue.md" in line
                             for line in lines), out
    assert all(line.split()[1] in COMPACTION_CODES for line in lines), out
    # what `compaction` lists as blockers, check --compaction reports
    code, js, _ = run(capsys, "compaction", "--repo", str(repo.path), "--no-cache",
                      "--format", "json")
    import json

    blockers = {(b["code"], b["path"]) for b in json.loads(js)["blockers"]}
    found = {(line.split()[1], line.split(":")[0]) for line in lines}
    assert blockers <= found
    # a view edited after its review is a blocker too (ADR408)
    view = repo.path / "docs/adr/CURRENT.md"
    view.write_text(view.read_text(encoding="utf-8") + "\nAn edit nobody reviewed.\n",
                    encoding="utf-8")
    code, out, _ = run(capsys, "check", "--compaction", *where)
    assert "docs/adr/CURRENT.md:1:1: ADR408" in out


def test_check_compaction_is_clean_when_nothing_blocks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = GitRepo(tmp_path / "clean")
    repo.write({"docs/adr/0001-use-x.md": "# 1. Use X\n\nDate: 2024-01-01\n\n## Status\n\n"
                "Accepted\n\n## Context\n\nC.\n\n## Decision\n\nD.\n\n## Consequences\n\nE.\n",
                "docs/adr/0002-no-title-here.md": "no heading\n"})
    repo.commit("records")
    code, out, _ = run(capsys, "check", "--compaction", "--repo", str(repo.path), "--no-cache",
                       "--format", "concise")
    assert (code, out) == (0, "")  # a missing title is a finding of check, not a blocker
    code, out, _ = run(capsys, "check", "--repo", str(repo.path), "--no-cache",
                       "--format", "concise")
    assert out


def test_check_compaction_refuses_its_own_rule_choices(
    repo: GitRepo, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, "check", "--compaction", "--select", "ADR1", "--repo",
                       str(repo.path))
    assert code == 2 and "--compaction chooses the rules itself" in err
    assert set(BLOCKER_KINDS) < set(COMPACTION_CODES)
