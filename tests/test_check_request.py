"""One request, one run: every way of asking for a check builds a ``CheckRequest`` (ADR 36)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from gitrepo import GitRepo

from adrguard import api
from adrguard.api.check import CheckRequest, run_check

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
