"""What discovery and the citation scan keep between runs in the record cache (the layout plan,
the files the scan chooses, the citation scheme) never changes a report: a warm run, an edited
record, other excludes, a new record with another id prefix and damaged entries each give
exactly the report of a run without the cache. Real files, real git."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest
import recordcache
from gitrepo import GitRepo

from adrguard.adapters.layout import Plan
from adrguard.cli import main

pytestmark = pytest.mark.uses_cache

RECORD = """# {n}. {title}

Date: 2024-02-03

## Status

{status}

## Context

Some context, see [the first](0001-pick-a-queue.md).

## Decision

We do it.

## Consequences

Fine.
"""

CODE = '''"""Workers."""

# Implements ADR-0001 (the queue), DR-0003 (the retries) and DR-0009 (the budget).
def work() -> None:
    pass
'''

FILES = {
    "docs/adr/0001-pick-a-queue.md": RECORD.format(n=1, title="Pick a queue", status="Accepted"),
    "docs/adr/0002-retry-twice.md": RECORD.format(n=2, title="Retry twice", status="Proposed"),
    "docs/adr/template.md": "# Template\n\n## Status\n\n## Context\n",
    "src/worker.py": CODE,
}


@pytest.fixture
def plain_git(monkeypatch: pytest.MonkeyPatch) -> None:
    """Let the git listing be cached too: no variables that move the repository."""
    for name in ("GIT_CONFIG_GLOBAL", "GIT_CONFIG_NOSYSTEM", "GIT_DIR", "GIT_INDEX_FILE"):
        monkeypatch.delenv(name, raising=False)


def _repo(tmp_path: Path) -> GitRepo:
    repo = GitRepo(tmp_path / "repo")
    repo.write(FILES)
    repo.commit("records")
    return repo


def _report(root: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> str:
    main(["check", "--repo", str(root), "--format", "json", "--today", "2026-01-01", *extra])
    return capsys.readouterr().out


def _cold(root: Path, capsys: pytest.CaptureFixture[str]) -> str:
    return _report(root, capsys, "--no-cache")


def _entries(kind: object) -> list[Path]:
    """The store's entries whose value decodes as ``kind``."""
    out = []
    for path in recordcache.files():
        body = path.read_bytes()[len(recordcache.header(path)) :]
        try:
            msgspec.msgpack.decode(body, type=kind)
        except (msgspec.DecodeError, msgspec.ValidationError):
            continue
        out.append(path)
    return out


def _plans() -> list[Path]:
    return _entries(Plan)


def _selections() -> list[Path]:
    return _entries(tuple[list[str], dict[str, int]])


def _schemes() -> list[Path]:
    return _entries(tuple[tuple[str, ...], tuple[int, ...]])


def test_warm_and_edited_runs_give_the_report_of_a_run_without_the_cache(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], plain_git: None
) -> None:
    repo = _repo(tmp_path)
    cold = _cold(repo.path, capsys)
    assert _report(repo.path, capsys) == cold
    assert len(_plans()) == 1 and _selections() and _schemes()
    assert _report(repo.path, capsys) == cold  # every one of them read back
    second = repo.path / "docs/adr/0002-retry-twice.md"
    second.write_text(second.read_text().replace("Proposed", "Parked"), encoding="utf-8")
    edited = _report(repo.path, capsys)
    assert edited != cold and edited == _cold(repo.path, capsys)
    assert len(_plans()) == 1  # an edit lists the same files: the same plan


def test_other_excludes_and_a_new_record_are_seen(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], plain_git: None
) -> None:
    repo = _repo(tmp_path)
    before = _report(repo.path, capsys)
    (repo.path / ".adrguard.toml").write_text(
        'extend-exclude = ["0002-*"]\n', encoding="utf-8")
    excluded = _report(repo.path, capsys)
    assert '"decisions": 2' in before and '"decisions": 1' in excluded
    assert excluded == _cold(repo.path, capsys)
    (repo.path / ".adrguard.toml").unlink()
    repo.write({"docs/adr/DR-0003-retry-budget.md":
                RECORD.format(n=3, title="Retry budget", status="Accepted")})
    repo.git("add", "docs/adr/DR-0003-retry-budget.md")  # a new prefix: another scheme
    added = _report(repo.path, capsys)
    # DR is an id prefix of the log now: the code's DR-0009 cites a decision no record has
    assert "DR-0009" not in before and "DR-0009" in added
    assert added == _cold(repo.path, capsys)
    assert len(_plans()) == 3 and len(_schemes()) == 3  # one for each set of records


@pytest.mark.parametrize("damage", [b"", b"\xc1", b"\x92\x93\x01\x02\x03\xc0", b"\x81\xa1x\x01"])
def test_damaged_entries_are_misses(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], plain_git: None, damage: bytes
) -> None:
    repo = _repo(tmp_path)
    cold = _cold(repo.path, capsys)
    _report(repo.path, capsys)
    kept = [*_plans(), *_selections(), *_schemes()]
    assert len(kept) == 3
    for path in kept:
        path.write_bytes(recordcache.header(path) + damage)
    assert _report(repo.path, capsys) == cold
    assert sorted([*_plans(), *_selections(), *_schemes()]) == sorted(kept)  # written again
    assert _report(repo.path, capsys) == cold


def test_without_the_modules_sources_nothing_is_kept(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], plain_git: None,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An install without the sources of the modules that work the answers out (their
    stamps cannot be taken) keeps neither the plan nor the chosen files: same report."""
    from adrguard.adapters import files
    from adrguard.api.pipeline import citation_scan

    repo = _repo(tmp_path)
    monkeypatch.setattr(files, "_LAYOUT_SOURCE", str(tmp_path / "gone" / "layout.py"))
    monkeypatch.setattr(citation_scan, "_SELECT_SOURCE", str(tmp_path / "gone" / "citing.py"))
    cold = _cold(repo.path, capsys)
    assert _report(repo.path, capsys) == cold == _report(repo.path, capsys)
    assert not _plans() and not _selections() and _schemes()
