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
    main(["check", "--root", str(root), "--format", "json", "--today", "2026-01-01", *extra])
    return capsys.readouterr().out


def _cold(root: Path, capsys: pytest.CaptureFixture[str]) -> str:
    return _report(root, capsys, "--no-cache")


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
    assert _report(tmp_path, capsys) == cold


def test_no_cache_writes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _corpus(tmp_path)
    _cold(tmp_path, capsys)
    assert not (tmp_path / ".adrguard_cache").exists()
