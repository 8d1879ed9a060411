"""One request, one run: every way of asking for a check builds a ``CheckRequest`` (ADR 36)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from gitrepo import GitRepo

from adrguard import api
from adrguard.api.check import CheckRequest, run_check
from adrguard.core.findings import Finding
from adrguard.core.gate import baseline as bl

RECORD = "# {n}. Use {what}\n\n## Status\n\n{status}\n\n## Context\n\nC.\n\n## Decision\n\nD.\n"


def _repo(tmp_path: Path) -> GitRepo:
    repo = GitRepo(tmp_path / "repo")
    repo.write({
        "docs/adr/0001-use-postgres.md": RECORD.format(n=1, what="Postgres", status="Accepted"),
        "docs/adr/0002-use-redis.md": RECORD.format(n=2, what="Redis", status="Sometime"),
    })
    repo.commit("records")
    return repo


def test_the_keyword_form_and_the_request_run_the_same_check(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    asked = CheckRequest(repo.path, select=("ADR1",), baseline=False)
    result = run_check(asked)
    codes = [f.code for f in result.report.findings]
    assert "ADR103" in codes and all(c.startswith("ADR1") for c in codes)  # "Sometime"
    assert api.check(repo.path, select=("ADR1",), baseline=False) == result.report
    assert api.check_result(repo.path, select=("ADR1",), baseline=False).report == result.report
    assert result.config.select == ("ADR1",)


def test_a_request_is_one_immutable_value_and_names_every_option() -> None:
    request = CheckRequest(".", base="main", against=("origin/pr/*",))
    with pytest.raises(dataclasses.FrozenInstanceError):
        request.base = "dev"  # type: ignore[misc]
    assert dataclasses.replace(request, base="dev").base == "dev"
    with pytest.raises(TypeError, match="basse"):
        api.check_result(".", basse="main")


def test_a_corpus_already_read_is_checked_by_the_same_run_with_the_gate_off(
    tmp_path: Path,
) -> None:
    """Compaction's blockers, ``relationships``, ``archive plan`` and the findings before a
    change hand the one run a corpus they read: the same findings as the repository's run
    without a baseline, and nothing to judge them against (ADR 38)."""
    repo = _repo(tmp_path)
    # a baseline that lists every finding: the repository's run holds them back
    first = run_check(CheckRequest(repo.path, baseline=False))
    repo.write({".adrguard-baseline.json": _baseline(first.report.findings)})
    held = run_check(CheckRequest(repo.path))
    assert held.report.findings == () and held.report.gate is not None

    given = run_check(CheckRequest(corpus=first.corpus, config=first.config))
    assert given.report.findings == first.report.findings  # no baseline for a corpus read
    assert given.report.gate is None
    with pytest.raises(ValueError, match="as it is"):
        run_check(CheckRequest(corpus=first.corpus, config=first.config, paths=("docs",)))
    with pytest.raises(ValueError, match="config"):
        run_check(CheckRequest(corpus=first.corpus))


def _baseline(findings: tuple[Finding, ...]) -> str:
    return json.dumps(bl.to_json(bl.entries_of(findings), None))
