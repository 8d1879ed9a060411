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
