"""The parse cache never changes a result: a changed file, a changed config, a new tool version
and a corrupted or foreign cache each give exactly the report of a cold run."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import adrguard
from adrguard.adapters import cache as cache_mod
from adrguard.cli import main

pytestmark = pytest.mark.uses_cache

RECORD = """# {n}. {title}

Date: 2024-01-01

## Status

{status}

## Context

See [the first](0001-first.md).

## Decision

Yes.

## Consequences

Some.
"""


def _corpus(root: Path) -> None:
    adr = root / "docs" / "adr"
    adr.mkdir(parents=True)
    for n, title, status in [
        (1, "First", "Accepted"),
        (2, "Second", "Proposed"),
        (3, "Third", "Bogus"),
    ]:
        slug = title.lower()
        (adr / f"000{n}-{slug}.md").write_text(
            RECORD.format(n=n, title=title, status=status), encoding="utf-8"
        )


def _report(root: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> str:
    main(["check", "--repo", str(root), "--format", "json", "--today", "2026-01-01", *extra])
    return capsys.readouterr().out


def _cold(root: Path, capsys: pytest.CaptureFixture[str]) -> str:
    return _report(root, capsys, "--no-cache")


def _forget_result(root: Path) -> None:
    """Drop the stored check result, so the next run goes through the parse cache."""
    (root / ".adrguard_cache" / "check-result.json").unlink()


def test_warm_equals_cold_and_cache_is_tagged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _corpus(tmp_path)
    first = _report(tmp_path, capsys)
    cache_dir = tmp_path / ".adrguard_cache"
    assert (
        (cache_dir / "CACHEDIR.TAG")
        .read_text()
        .startswith("Signature: 8a477f597d28d172789f06886806bc55")
    )
    assert (cache_dir / ".gitignore").read_text().strip().endswith("*")
    assert _report(tmp_path, capsys) == first == _cold(tmp_path, capsys)


def test_changed_file_is_reparsed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _corpus(tmp_path)
    before = _report(tmp_path, capsys)
    path = tmp_path / "docs/adr/0003-third.md"
    path.write_text(path.read_text().replace("Bogus", "Accepted"), encoding="utf-8")
    after = _report(tmp_path, capsys)
    assert after != before
    assert after == _cold(tmp_path, capsys)


def test_changed_config_is_a_new_key(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _corpus(tmp_path)
    _report(tmp_path, capsys)
    (tmp_path / ".adrguard.toml").write_text('[statuses]\nbogus = "accepted"\n', encoding="utf-8")
    warm = _report(tmp_path, capsys)
    assert "ADR103" not in warm
    assert warm == _cold(tmp_path, capsys)


def test_new_tool_version_ignores_old_cache(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _corpus(tmp_path)
    _report(tmp_path, capsys)
    old = sorted((tmp_path / ".adrguard_cache").glob("parse-*.json"))
    monkeypatch.setattr(cache_mod, "__version__", adrguard.__version__ + ".post1")
    assert _report(tmp_path, capsys) == _cold(tmp_path, capsys)
    new = sorted((tmp_path / ".adrguard_cache").glob("parse-*.json"))
    assert old != new and len(new) == 1


@pytest.mark.parametrize(
    "damage",
    [
        b"not json at all",
        b"[]",
        b'{"format": 1, "key": "x", "entries": {}}',
        None,  # entries with the right key but forged, ill-typed records
    ],
)
def test_corrupt_or_foreign_cache_is_rebuilt(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], damage: bytes | None
) -> None:
    _corpus(tmp_path)
    cold = _cold(tmp_path, capsys)
    _report(tmp_path, capsys)
    (cache_file,) = (tmp_path / ".adrguard_cache").glob("parse-*.json")
    if damage is None:
        data = json.loads(cache_file.read_text())
        for entry in data["entries"].values():
            entry[3] = ["ADR-9999", {"evil": 1}, 42]
        cache_file.write_text(json.dumps(data))
    else:
        cache_file.write_bytes(damage)
    _forget_result(tmp_path)
    assert _report(tmp_path, capsys) == cold


def test_forged_decision_with_matching_hash_but_wrong_path_is_ignored(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _corpus(tmp_path)
    cold = _cold(tmp_path, capsys)
    _report(tmp_path, capsys)
    (cache_file,) = (tmp_path / ".adrguard_cache").glob("parse-*.json")
    data = json.loads(cache_file.read_text())
    entries = data["entries"]
    a, b = "docs/adr/0001-first.md", "docs/adr/0003-third.md"
    entries[a][3], entries[b][3] = entries[b][3], entries[a][3]  # swap parsed bodies
    cache_file.write_text(json.dumps(data))
    _forget_result(tmp_path)
    assert _report(tmp_path, capsys) == cold


def test_forged_parse_entry_is_what_a_damaged_cache_would_serve(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The damage tests above only prove something if the parse cache is read at all: an
    entry that decodes fine but says something else is served (and changes the report)."""
    _corpus(tmp_path)
    cold = _cold(tmp_path, capsys)
    _report(tmp_path, capsys)
    (cache_file,) = (tmp_path / ".adrguard_cache").glob("parse-*.json")
    text = cache_file.read_text(encoding="utf-8")
    cache_file.write_text(text.replace('"Bogus"', '"Accepted"'), encoding="utf-8")
    _forget_result(tmp_path)
    assert _report(tmp_path, capsys) != cold


@pytest.fixture
def sharded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """40 records, with the shard threshold lowered to 5: the parse cache is 32 files."""
    monkeypatch.setattr(cache_mod, "SHARD_MIN", 5)
    adr = tmp_path / "docs" / "adr"
    adr.mkdir(parents=True)
    for n in range(1, 41):
        (adr / f"{n:04d}-record-{n}.md").write_text(
            RECORD.format(n=n, title=f"Record {n}", status="Accepted"), encoding="utf-8"
        )
    return tmp_path


def test_large_corpus_cache_is_sharded_and_an_edit_rewrites_one_shard(
    sharded: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tmp_path = sharded
    first = _report(tmp_path, capsys)
    shards = sorted((tmp_path / ".adrguard_cache").glob("parse-*.json"))
    assert len(shards) > 1 and all(".json" in s.name and s.name.count(".") == 2 for s in shards)
    before = {s.name: s.stat().st_ino for s in shards}  # write_atomic replaces: a new inode

    edited = tmp_path / "docs/adr/0007-record-7.md"
    edited.write_text(edited.read_text().replace("Accepted", "Bogus"), encoding="utf-8")
    after = _report(tmp_path, capsys)
    assert after != first and after == _cold(tmp_path, capsys)
    now = {s.name: s.stat().st_ino for s in (tmp_path / ".adrguard_cache").glob("parse-*.json")}
    rewritten = [name for name in now if now[name] != before.get(name)]
    assert now.keys() == before.keys()
    expected = cache_mod.shard_of("docs/adr/0007-record-7.md", cache_mod.SHARDS)
    assert rewritten == [f"{shards[0].name.split('.')[0]}.{expected:02d}.json"]


def test_damaged_or_misfiled_shard_is_reparsed(
    sharded: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tmp_path = sharded
    cold = _cold(tmp_path, capsys)
    _report(tmp_path, capsys)
    shards = sorted((tmp_path / ".adrguard_cache").glob("parse-*.json"))
    first = json.loads(shards[0].read_text())
    # entries filed under another shard than their path's are not read, even when they decode
    # (here: shard 1's records, retitled, moved into shard 0; `list` shows titles)
    moved = json.loads(shards[1].read_text())["entries"]
    assert moved
    for entry in moved.values():
        entry[3][4] = "Forged"
    first["entries"].update(moved)
    shards[0].write_text(json.dumps(first))
    shards[1].write_bytes(b"{not json")
    _forget_result(tmp_path)
    assert _report(tmp_path, capsys) == cold
    assert json.loads(shards[1].read_text())["entries"]  # rebuilt
    main(["list", "--repo", str(tmp_path), "--format", "json"])
    assert "Forged" not in capsys.readouterr().out


def test_no_cache_writes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _corpus(tmp_path)
    _cold(tmp_path, capsys)
    assert not (tmp_path / ".adrguard_cache").exists()


def test_parse_cache_outlives_the_date_and_is_shared_with_list(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`today` matters to ADR109 only: a new day (or `list`, which has no date) reuses the
    parsed records instead of parsing the corpus again."""
    _corpus(tmp_path)
    _report(tmp_path, capsys)
    (before,) = (tmp_path / ".adrguard_cache").glob("parse-*.json")
    inode = before.stat().st_ino
    tomorrow = _report(tmp_path, capsys, "--today", "2026-01-02")
    main(["list", "--repo", str(tmp_path), "--format", "json"])
    capsys.readouterr()
    (after,) = (tmp_path / ".adrguard_cache").glob("parse-*.json")
    assert after == before and after.stat().st_ino == inode  # neither re-keyed nor rewritten
    assert tomorrow == _report(tmp_path, capsys, "--no-cache", "--today", "2026-01-02")
