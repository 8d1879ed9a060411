"""What each record's name says is kept in the record cache for the next run (ADR 53) and never
changes a report: the answers read back are the ones a run works out, and a warm run, an edited
record, a new record and a damaged entry each give exactly the report of a run without the
cache. Real files, real git."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest
import recordcache
from gitrepo import GitRepo

from adrguard.adapters.cache import names as name_cache
from adrguard.adapters.cache import store as cache
from adrguard.cli import main
from adrguard.core.parse.formats import KnownName, Names

pytestmark = pytest.mark.uses_cache

RECORD = """# {n}. {title}

Date: 2024-02-03

## Status

{status}

## Context

Some context, see [the first](../0001-pick-a-queue.md) and ADR-0042.

## Decision

We do it.
"""

FILES = {
    "docs/adr/0001-pick-a-queue.md": RECORD.format(n=1, title="Pick a queue", status="Accepted"),
    "docs/adr/adr-0002-retry-twice.md": RECORD.format(n=3, title="Retry twice", status="Proposed"),
    "docs/adr/0004-use-folders/README.md": RECORD.format(n=4, title="Use folders",
                                                         status="Accepted"),
    "docs/adr/2024-02-03-a-dated-note.md": RECORD.format(n=5, title="A dated note",
                                                         status="Accepted"),
    "docs/adr/DR-0006-v2-drop-it.md": RECORD.format(n=6, title="Drop it", status="Rejected"),
}


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


def _entries() -> list[Path]:
    """The store's entries that hold record names."""
    out = []
    for path in recordcache.files():
        body = path.read_bytes()[len(recordcache.header(path)) :]
        try:
            found = msgspec.msgpack.decode(body, type=list[KnownName])
        except (msgspec.DecodeError, msgspec.ValidationError):
            continue
        if found:
            out.append(path)
    return out


def _kept(root: Path) -> list[KnownName]:
    store = cache.Store.open(recordcache.store_dir())
    assert store is not None
    try:
        return name_cache.recall(store, root.resolve()).known()
    finally:
        store.close()


def test_the_answers_read_back_are_the_ones_a_run_works_out(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = _repo(tmp_path)
    _report(repo.path, capsys)
    kept = _kept(repo.path)
    assert {k[0] for k in kept} == set(FILES)
    fresh = Names()
    for path, root, name, folder, prefix, number, version in kept:
        assert fresh.record_name(path, root) == name
        assert fresh.is_folder_record(path, root) is folder
        parsed = fresh.name_id(path, root)
        assert (parsed.prefix, parsed.number, parsed.version) == (prefix, number, version)
    assert {(k[0], k[2], k[3], k[5]) for k in kept} >= {
        ("docs/adr/0004-use-folders/README.md", "0004-use-folders", True, 4),
        ("docs/adr/DR-0006-v2-drop-it.md", "DR-0006-v2-drop-it", False, 6),
        ("docs/adr/2024-02-03-a-dated-note.md", "2024-02-03-a-dated-note", False, None),
    }


def test_warm_edited_and_new_records_give_the_report_of_a_run_without_the_cache(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = _repo(tmp_path)
    cold = _cold(repo.path, capsys)
    assert _report(repo.path, capsys) == cold
    (entry,) = _entries()
    written = entry.stat().st_mtime_ns
    assert _report(repo.path, capsys) == cold  # read back
    second = repo.path / "docs/adr/adr-0002-retry-twice.md"
    second.write_text(second.read_text().replace("Proposed", "Parked"), encoding="utf-8")
    edited = _report(repo.path, capsys)
    assert edited != cold and edited == _cold(repo.path, capsys)
    assert entry.stat().st_mtime_ns == written  # an edit takes no name apart: nothing written
    repo.write({"docs/adr/0042-keep-it.md": RECORD.format(n=42, title="Keep it",
                                                           status="Accepted")})
    added = _report(repo.path, capsys)
    assert added == _cold(repo.path, capsys) and added != edited
    assert "docs/adr/0042-keep-it.md" in {k[0] for k in _kept(repo.path)}
    (repo.path / "docs/adr/0042-keep-it.md").unlink()
    assert _report(repo.path, capsys) == edited


@pytest.mark.parametrize("damage", [b"", b"\xc1", b"\x92\x93\x01\x02\x03\xc0", b"\x81\xa1x\x01"])
def test_a_damaged_entry_is_a_miss(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], damage: bytes
) -> None:
    repo = _repo(tmp_path)
    cold = _cold(repo.path, capsys)
    _report(repo.path, capsys)
    (entry,) = _entries()
    entry.write_bytes(recordcache.header(entry) + damage)
    assert _report(repo.path, capsys) == cold
    assert _entries() == [entry]  # written again
    assert _report(repo.path, capsys) == cold
