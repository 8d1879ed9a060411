"""One ``check`` opens the record cache's store at most once and closes it once (ADR 58): the
work tree's read, the tree before a change, the facts, the record names, the impact manifest and
the findings of the corpus before a commit all use the run's store. Counted by wrapping the real
:meth:`Store.open` and :meth:`Store.close` (every store still opens its real folder), on real
files in a real git repository: cold, warm, after an edit, and in the pre-commit hook; each run
reports exactly what a run without the cache reports."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from gitrepo import GitRepo

from adrguard.adapters.cache.store import Store
from adrguard.cli import main

pytestmark = pytest.mark.uses_cache

RECORD = """# {n}. {title}

Date: 2024-03-0{n}

## Status

{status}

## Context

Ingest runs late; see ADR-0001.

## Decision

{decision}

## Consequences

Fewer pages at night.
"""

FILES = {
    "docs/adr/0001-queue-the-ingest.md": RECORD.format(
        n=1, title="Queue the ingest", status="Accepted", decision="We queue the ingest."),
    "docs/adr/0002-retry-twice.md": RECORD.format(
        n=2, title="Retry twice", status="Proposed", decision="We retry twice."),
    "docs/adr/0003-page-by-day.md": RECORD.format(
        n=3, title="Page by day", status="Superseded by ADR-0009", decision="We page by day."),
    # an impact manifest: the run recalls and keeps its parse in the store too
    ".adrguard-impact.json": '{"schemaVersion": 1, "mappings": [{"decision": "ADR-0001", '
                             '"paths": ["src/ingest/**"]}]}\n',
    "src/ingest/queue.py": "depth = 1\n",
}


class Counted:
    """How often the real ``Store.open`` and ``Store.close`` ran (closing a store twice counts
    twice)."""

    def __init__(self) -> None:
        self.opened = 0
        self.closed = 0

    def reset(self) -> None:
        self.opened = self.closed = 0


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> Iterator[Counted]:
    count = Counted()
    real_open = Store.open.__func__  # type: ignore[attr-defined]
    real_close = Store.close

    def open_counted(cls: type[Store], directory: Path) -> Store | None:
        count.opened += 1
        return real_open(cls, directory)  # type: ignore[no-any-return]

    def close_counted(self: Store) -> None:
        count.closed += 1
        real_close(self)

    monkeypatch.setattr(Store, "open", classmethod(open_counted))
    monkeypatch.setattr(Store, "close", close_counted)
    yield count


def _repo(tmp_path: Path) -> GitRepo:
    repo = GitRepo(tmp_path / "repo")
    repo.write(FILES)
    repo.commit("records")
    return repo


def _check(root: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[int, str]:
    code = main(["check", "--repo", str(root), "--format", "json", "--today", "2026-01-01",
                 *extra])
    return code, capsys.readouterr().out


def test_a_check_opens_the_store_once_cold_warm_and_edited(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], counted: Counted
) -> None:
    repo = _repo(tmp_path)
    uncached = _check(repo.path, capsys, "--no-cache")
    assert counted.opened == 0  # --no-cache: the store is never opened
    assert '"ADR' in uncached[1]  # the log has findings: the rules ran over records
    for case in ("cold", "warm", "warm again"):
        counted.reset()
        assert _check(repo.path, capsys) == uncached, case
        assert (counted.opened, counted.closed) == (1, 1), case
    edited = repo.path / "docs/adr/0002-retry-twice.md"
    edited.write_text(edited.read_text(encoding="utf-8").replace("twice.", "three times."),
                      encoding="utf-8")
    uncached = _check(repo.path, capsys, "--no-cache")
    counted.reset()
    assert _check(repo.path, capsys) == uncached
    assert (counted.opened, counted.closed) == (1, 1)


def test_the_hook_opens_the_store_once_for_both_sides_and_the_earlier_findings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], counted: Counted,
    monkeypatch: pytest.MonkeyPatch
) -> None:
    """The hook reads the staged tree and the tree before the commit and asks the store for
    the findings the rules reported before the commit: one store for all of it."""
    repo = _repo(tmp_path)
    monkeypatch.chdir(repo.path)
    staged = "docs/adr/0002-retry-twice.md"
    for n, words in enumerate(("three times.", "four times.")):
        text = (repo.path / staged).read_text(encoding="utf-8")
        repo.write({staged: text.replace("We retry", f"We retry ({n})")
                    .replace("twice.", words)})
        repo.git("add", "--", staged)
        uncached = _check(repo.path, capsys, "--hook", staged, "--no-cache")
        for case in ("cold", "warm"):
            counted.reset()
            assert _check(repo.path, capsys, "--hook", staged) == uncached, case
            assert (counted.opened, counted.closed) == (1, 1), case
    # a commit that touches no record is passed over: the roots came from the same store
    repo.write({"README.md": "notes\n"})
    repo.git("add", "--", "README.md")
    counted.reset()
    code, _out = _check(repo.path, capsys, "--hook", "README.md")
    assert code == 0 and (counted.opened, counted.closed) == (1, 1)


def test_an_unusable_cache_folder_is_tried_once_and_changes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], counted: Counted,
    monkeypatch: pytest.MonkeyPatch
) -> None:
    """A cache folder that cannot be made (a file stands there): the run is tried with it
    once, goes on without a cache, and reports what a run without the cache reports."""
    repo = _repo(tmp_path)
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file\n", encoding="utf-8")
    monkeypatch.setenv("ADRGUARD_CACHE_DIR", str(blocked))
    uncached = _check(repo.path, capsys, "--no-cache")
    counted.reset()
    assert _check(repo.path, capsys) == uncached
    assert (counted.opened, counted.closed) == (1, 0)  # nothing opened, nothing to close
    assert blocked.read_text(encoding="utf-8") == "a file\n"
