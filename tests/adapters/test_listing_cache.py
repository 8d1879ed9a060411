"""The cached git listing (kept in the record cache, keyed by the bytes of the git index and
config) never changes a report: a staged file, an edited index, other options and a damaged
entry each give exactly the report of a run without the cache. Real files, real git."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest
import recordcache
from gitrepo import GitRepo

from adrguard.cli import main

pytestmark = pytest.mark.uses_cache

RECORD = """# {n}. {title}

Date: 2024-01-01

## Status

{status}

## Context

See [the first](0001-first.md) and [the plan](../plan.md).

## Decision

Yes.

## Consequences

Some.
"""

FILES = {
    "docs/adr/0001-first.md": RECORD.format(n=1, title="First", status="Accepted"),
    "docs/adr/0002-second.md": RECORD.format(n=2, title="Second", status="Proposed"),
}


def _report(root: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> str:
    main(["check", "--repo", str(root), "--format", "json", "--today", "2026-01-01", *extra])
    return capsys.readouterr().out


def _cold(root: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> str:
    return _report(root, capsys, "--no-cache", *extra)


@pytest.fixture
def plain_git(monkeypatch: pytest.MonkeyPatch) -> None:
    """Let the listing be cached: no variables that move the repository or its config."""
    for name in ("GIT_CONFIG_GLOBAL", "GIT_CONFIG_NOSYSTEM", "GIT_DIR", "GIT_INDEX_FILE"):
        monkeypatch.delenv(name, raising=False)


def _repo(tmp_path: Path) -> GitRepo:
    repo = GitRepo(tmp_path / "repo")
    repo.write(FILES)
    repo.commit("records")
    return repo


def _listings() -> list[Path]:
    """The store's git-listing entries (the files that are not packs of records)."""
    out = []
    for path in recordcache.files():
        body = path.read_bytes()[len(recordcache.header(path)) :]
        try:
            msgspec.msgpack.decode(body, type=list[str])
        except (msgspec.DecodeError, msgspec.ValidationError):
            continue
        out.append(path)
    return out


def test_a_staged_file_is_seen_and_an_untracked_one_outside_the_roots_is_not(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], plain_git: None
) -> None:
    repo = _repo(tmp_path)
    before = _report(repo.path, capsys)
    assert "plan.md" in before and _listings()
    repo.write({"docs/plan.md": "# Plan\n"})
    assert _report(repo.path, capsys) == before  # untracked, outside the roots: not seen
    repo.git("add", "docs/plan.md")  # staged, not committed: part of the next commit
    after = _report(repo.path, capsys)
    assert "plan.md" not in after
    assert after == _cold(repo.path, capsys)
    repo.git("rm", "-q", "--cached", "docs/plan.md")  # untracked again: the link breaks again
    assert _report(repo.path, capsys) == before


def test_an_untracked_record_under_a_root_is_checked_in_a_manual_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], plain_git: None
) -> None:
    repo = _repo(tmp_path)
    _report(repo.path, capsys)
    repo.write({"docs/adr/0003-third.md": RECORD.format(n=3, title="Third", status="Bogus")})
    warm = _report(repo.path, capsys)
    assert "0003-third.md" in warm and warm == _cold(repo.path, capsys)


def test_options_and_paths_give_the_report_of_a_run_without_the_cache(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], plain_git: None
) -> None:
    repo = _repo(tmp_path)
    _report(repo.path, capsys)
    second = repo.path / "docs/adr/0002-second.md"
    second.write_text(second.read_text().replace("Proposed", "Bogus"), encoding="utf-8")
    assert _report(repo.path, capsys) == _cold(repo.path, capsys)
    for extra in (
        ("--profile", "strict"),
        ("--select", "ADR201"),
        ("--ignore", "ADR201"),
        ("--today", "2030-01-01"),
        (str(second),),
    ):
        assert _report(repo.path, capsys, *extra) == _cold(repo.path, capsys, *extra), extra


def test_an_edited_index_file_is_seen(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], plain_git: None
) -> None:
    repo = _repo(tmp_path)
    assert main(["index", "--repo", str(repo.path), "--write", "--init"]) == 0
    repo.commit("index")
    capsys.readouterr()
    fresh = _report(repo.path, capsys)
    index = repo.path / "docs/adr/INDEX.md"
    index.write_text(index.read_text().replace("Second", "Sekond"), encoding="utf-8")
    stale = _report(repo.path, capsys)
    assert stale != fresh
    assert stale == _cold(repo.path, capsys)


@pytest.mark.parametrize("damage", [b"", b"\xc1", b"\x92\x93\x01\x02\x03\xc0"])
def test_a_damaged_listing_is_a_miss(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], plain_git: None, damage: bytes
) -> None:
    repo = _repo(tmp_path)
    cold = _cold(repo.path, capsys)
    _report(repo.path, capsys)
    (listing,) = _listings()
    listing.write_bytes(recordcache.header(listing) + damage)
    assert _report(repo.path, capsys) == cold
    assert _listings() == [listing]  # written again


def test_git_variables_bypass_the_listing_cache(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _repo(tmp_path)
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", "/dev/null")
    cold = _cold(repo.path, capsys)
    assert _report(repo.path, capsys) == cold
    assert not _listings()
