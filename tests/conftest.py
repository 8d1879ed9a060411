from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
CORPORA = (REPO.parent / "shared" / "corpora").resolve()
# CI sets this (see .ci/run): a missing corpus is then a failure, never a silent skip.
REQUIRE_CORPORA = "ADRGUARD_REQUIRE_CORPORA"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "slow: end-to-end tests that build environments (pre-commit try-repo) or drive a "
        "real browser (tests/browser)",
    )


def need_corpora() -> Path:
    """The real-world corpora, or a skip with one line that says why (a failure in CI)."""
    if CORPORA.is_dir():
        return CORPORA
    why = f"real-world corpora not found at {CORPORA} (../shared/corpora beside the checkout)"
    if os.environ.get(REQUIRE_CORPORA, "") not in ("", "0"):
        pytest.fail(f"{why}; {REQUIRE_CORPORA} is set, so this is a failure")
    pytest.skip(why)


@pytest.fixture(scope="session")
def corpora_dir() -> Path:
    return need_corpora()


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
