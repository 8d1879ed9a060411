from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
CORPORA = (REPO.parent / "shared" / "corpora").resolve()


@pytest.fixture(scope="session")
def corpora_dir() -> Path:
    if not CORPORA.is_dir():
        pytest.fail(f"real-world corpora not found at {CORPORA} (expected ../shared/corpora)")
    return CORPORA


@pytest.fixture(scope="session")
def repo_dir() -> Path:
    return REPO


@pytest.fixture(autouse=True)
def _no_parse_cache(monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest) -> None:
    """Tests never leave a parse cache behind (least of all in ../shared/corpora); the cache
    tests opt back in with the marker ``uses_cache``."""
    if request.node.get_closest_marker("uses_cache") is None:
        monkeypatch.setenv("ADRGUARD_NO_CACHE", "1")
