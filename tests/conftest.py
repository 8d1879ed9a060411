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
def _no_record_cache(
    monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Tests never touch the user's real cache: the cache folder is a temporary one, and the
    cache is off unless a test opts in with the marker ``uses_cache``."""
    monkeypatch.setenv("ADRGUARD_CACHE_DIR", str(tmp_path_factory.mktemp("adrguard-cache")))
    if request.node.get_closest_marker("uses_cache") is None:
        monkeypatch.setenv("ADRGUARD_NO_CACHE", "1")
    else:
        monkeypatch.delenv("ADRGUARD_NO_CACHE", raising=False)
