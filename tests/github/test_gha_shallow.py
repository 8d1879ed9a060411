"""``adrguard action prepare`` in a shallow clone: it deepens until the merge base appears,
or says why it cannot and carries on without a base."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from fakegithub import State
from gha_helpers import ActionRunner, Fixture, build_repo, parse_outputs
from gitrepo import BASE_ENV, GitRepo


def _shallow_clone(origin: Fixture, target: Path) -> GitRepo:
    import os

    subprocess.run(["git", "clone", "-q", "--depth", "1", "--branch", "feature",
                    f"file://{origin.repo.path}", str(target)],
                   check=True, capture_output=True, env={**os.environ, **BASE_ENV})
    return GitRepo(target, init=False)


@pytest.fixture
def shallow(tmp_path: Path) -> tuple[Fixture, Fixture]:
    origin = build_repo(tmp_path / "origin")
    clone = _shallow_clone(origin, tmp_path / "clone")
    assert clone.git("rev-parse", "--is-shallow-repository") == "true"
    return origin, Fixture(clone, origin.base, origin.head)


def test_prepare_deepens_until_the_merge_base_appears(
    shallow: tuple[Fixture, Fixture], tmp_path: Path, github: State,
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    _origin, clone = shallow
    run = ActionRunner(clone, tmp_path, github, monkeypatch, capsys)()
    assert "ADR505" in run.summary  # change-aware rules ran against the fetched base
    assert "Decisions governing this change" in run.summary and "ADR-0003" in run.summary
    assert run.code == 0
    outputs = parse_outputs((tmp_path / "run1" / "output").read_text(encoding="utf-8"))
    assert outputs["base"] == clone.base


def test_prepare_falls_back_with_a_notice_when_it_cannot_fetch(
    shallow: tuple[Fixture, Fixture], tmp_path: Path, github: State,
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    _origin, clone = shallow
    clone.repo.git("remote", "remove", "origin")
    runner = ActionRunner(clone, tmp_path, github, monkeypatch, capsys)
    run = runner()
    outputs = parse_outputs((tmp_path / "run1" / "output").read_text(encoding="utf-8"))
    assert outputs["base"] == ""
    assert run.prepared.startswith("::notice title=adrguard::no merge base with ")
    assert "fetch-depth: 0" in run.prepared
    assert "ADR505" not in run.summary
    assert "No base to compare with" in run.summary
    assert run.code == 0 and run.outputs["error-count"] == "4"
