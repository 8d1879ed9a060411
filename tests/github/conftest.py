"""Fixtures for the GitHub Action tests: the fake API server, the fixture repository and the
Action runner (tests/github/gha_helpers.py)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from fakegithub import Server, State
from gha_helpers import ActionRunner, Fixture, build_repo


@pytest.fixture
def fixture_repo(tmp_path: Path) -> Fixture:
    return build_repo(tmp_path / "repo")


@pytest.fixture
def github() -> Iterator[State]:
    state = State(tokens={"user-token": "adrguard-bot"})
    server = Server(state)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield state
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


@pytest.fixture
def action(fixture_repo: Fixture, tmp_path: Path, github: State, monkeypatch: pytest.MonkeyPatch,
           capsys: pytest.CaptureFixture[str]) -> ActionRunner:
    return ActionRunner(fixture_repo, tmp_path, github, monkeypatch, capsys)
