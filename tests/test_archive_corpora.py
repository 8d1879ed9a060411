"""Archive plans on the real-world collections in ../shared/corpora: in a temporary git copy of
each, every record the analysis proposes as an archive candidate is planned, applied, checked
and restored. The move adds no finding (no broken link or relation, no renumbered record) and
the restore leaves `git status` empty."""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path
from typing import Any

import corpus_labels as labels
import pytest
from gitrepo import GitRepo

from adrguard.cli import main

LABELS = ("TRUTH.json", "FINDINGS.json", "SOURCE.txt")


def _json(capsys: pytest.CaptureFixture[str], *argv: str) -> Any:
    capsys.readouterr()
    assert main([*argv, "--format", "json", "--no-cache"]) in (0, 1)
    return json.loads(capsys.readouterr().out)


def _shape(report: dict[str, Any]) -> Counter[tuple[str, str, str]]:
    """Findings by code, severity and path with the archive folder left out: a message may
    word a path differently after the move; a finding may not appear or grow in severity."""
    return Counter((f["code"], f["severity"], f["path"].replace("archive/", ""))
                   for f in report["findings"])


def test_every_archive_candidate_moves_and_comes_back(
    corpora_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    moved = 0
    added: list[str] = []  # findings a move adds, and plans refused
    for collection in labels.collections(corpora_dir):
        repo = GitRepo(tmp_path / collection.name, init=False)
        shutil.copytree(collection, repo.path, ignore=shutil.ignore_patterns(*LABELS))
        repo = GitRepo(repo.path)
        repo.commit("a real log")
        where = ["--repo", str(repo.path)]
        analysis = _json(capsys, "compaction", *where)
        paths = [r["path"] for r in analysis["records"] if r["disposition"] == "archive-candidate"]
        if not paths:
            continue
        before = _json(capsys, "check", *where)
        listed = {r["id"]: r["number"] for r in _json(capsys, "list", *where)["decisions"]}
        plan = repo.path / ".git" / "plan.json"
        if main(["archive", "plan", *paths, *where, "--out", str(plan)]) != 0:
            added.append(f"{collection.name} archive plan refused")
            continue
        assert main(["archive", "apply", str(plan), *where]) == 0, collection.name
        new = _shape(_json(capsys, "check", *where)) - _shape(before)
        # some may go (rules that spare the archive); none may appear
        added += [f"{collection.name} {code} {sev} {path}" for code, sev, path in new]
        after = {r["id"]: r["number"] for r in _json(capsys, "list", *where)["decisions"]}
        assert after == listed, collection.name
        assert main(["archive", "restore", str(plan), *where]) == 0, collection.name
        assert repo.git("status", "--porcelain", "--untracked-files=all") == "", collection.name
        moved += len(json.loads(plan.read_text())["moves"])
    assert not added, added
    assert moved >= 30  # the collections hold retired records (34 when this was written)
