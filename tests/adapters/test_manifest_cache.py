"""The impact manifest a run parsed is kept in the record cache by its bytes (ADR 53) and never
changes a report: a warm run, an edited record, an edited manifest, a manifest with a problem
and damaged or foreign entries each give exactly the report of a run without the cache. Real
files, real git."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest
import recordcache
from gitrepo import GitRepo

from adrguard.cli import main
from adrguard.core.impact import mapping
from adrguard.core.impact.mapping import Manifest

pytestmark = pytest.mark.uses_cache

RECORD = """# {n}. {title}

Date: 2024-02-03

## Status

Accepted

## Context

Some context.

## Decision

We do it.
"""

MANIFEST = """{
  "schemaVersion": 1,
  "components": {"billing": ["src/billing/**", "!**/test_*.py"]},
  "mappings": [
    {"decision": "docs/adr/0001-pick-a-queue.md", "paths": ["src/queue/**"],
     "note": "the queue", "components": ["billing"]},
    {"decision": "ADR-0002", "paths": ["src/retry.py"]},
    {"decision": "ADR-0009", "paths": ["src/gone/**"]}
  ]
}
"""

FILES = {
    "docs/adr/0001-pick-a-queue.md": RECORD.format(n=1, title="Pick a queue"),
    "docs/adr/0002-retry-twice.md": RECORD.format(n=2, title="Retry twice"),
    "src/queue/worker.py": "def work() -> None:\n    pass\n",
    "src/retry.py": "TIMES = 2\n",
    ".adrguard-impact.json": MANIFEST,
}


def _repo(tmp_path: Path) -> GitRepo:
    repo = GitRepo(tmp_path / "repo")
    repo.write(FILES)
    repo.commit("records")
    return repo


def _report(root: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> str:
    code = main(["check", "--repo", str(root), "--format", "json", "--today", "2026-01-01",
                 *extra])
    out, err = capsys.readouterr()
    return f"{code}\n{out}{err}"


def _cold(root: Path, capsys: pytest.CaptureFixture[str]) -> str:
    return _report(root, capsys, "--no-cache")


def _kept() -> list[Path]:
    """The store's entries that hold a manifest."""
    out = []
    for path in recordcache.files():
        body = path.read_bytes()[len(recordcache.header(path)) :]
        try:
            msgspec.msgpack.decode(body, type=Manifest)
        except (msgspec.DecodeError, msgspec.ValidationError):
            continue
        out.append(path)
    return out


def _count_parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    parsed: list[str] = []
    real = mapping.parse_manifest

    def counting(path: str, data: bytes, memo: mapping.Compiled | None = None) -> Manifest:
        parsed.append(path)
        return real(path, data, memo)

    monkeypatch.setattr(mapping, "parse_manifest", counting)
    return parsed


def test_warm_and_edited_runs_read_the_kept_manifest_and_report_the_same(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _repo(tmp_path)
    cold = _cold(repo.path, capsys)
    assert "ADR-0009" in cold  # the manifest is read: a mapping to a decision no record has
    parsed = _count_parses(monkeypatch)
    assert _report(repo.path, capsys) == cold
    assert parsed == [".adrguard-impact.json"] and len(_kept()) == 1
    assert _report(repo.path, capsys) == cold
    assert parsed == [".adrguard-impact.json"]  # the warm run parsed nothing
    record = repo.path / "docs/adr/0002-retry-twice.md"
    record.write_text(record.read_text().replace("Accepted", "Parked"), encoding="utf-8")
    edited = _report(repo.path, capsys)
    assert edited != cold and edited == _cold(repo.path, capsys)
    assert len(parsed) == 2  # by the run without the cache: the edited run read the kept one
    manifest = repo.path / ".adrguard-impact.json"
    manifest.write_text(MANIFEST.replace("ADR-0009", "ADR-0008"), encoding="utf-8")
    moved = _report(repo.path, capsys)
    assert "ADR-0008" in moved and "ADR-0009" not in moved
    assert moved == _cold(repo.path, capsys) and len(_kept()) == 2  # other bytes, another entry


def test_a_manifest_with_a_problem_is_parsed_every_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = _repo(tmp_path)
    (repo.path / ".adrguard-impact.json").write_text(
        MANIFEST.replace('"components": ["billing"]', '"components": ["biling"]'),
        encoding="utf-8")
    cold = _cold(repo.path, capsys)
    assert "unknown component 'biling'" in cold
    parsed = _count_parses(monkeypatch)
    assert _report(repo.path, capsys) == cold == _report(repo.path, capsys)
    assert len(parsed) == 2 and not _kept()


@pytest.mark.parametrize("damage", [b"", b"\xc1", b"\x92\x93\x01\x02\x03\xc0", b"\x81\xa1x\x01"])
def test_damaged_and_foreign_entries_are_misses(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], damage: bytes
) -> None:
    repo = _repo(tmp_path)
    cold = _cold(repo.path, capsys)
    _report(repo.path, capsys)
    (kept,) = _kept()
    kept.write_bytes(recordcache.header(kept) + damage)
    assert _report(repo.path, capsys) == cold
    assert _kept() == [kept]  # written again
    foreign = Manifest(path="elsewhere.json", mappings=())
    kept.write_bytes(recordcache.header(kept) + msgspec.msgpack.encode(foreign))
    assert _report(repo.path, capsys) == cold


def test_a_manifest_is_given_only_for_its_own_path() -> None:
    from adrguard.core.model import Corpus
    from adrguard.core.options import Options

    corpus = Corpus((), other_texts={".adrguard-impact.json": MANIFEST.encode()})
    with pytest.raises(ValueError, match=r"elsewhere\.json"):
        mapping.give_manifest(corpus, Options(), Manifest(path="elsewhere.json"))
    assert mapping.parsed_manifest(corpus, Options()) is None
    given = mapping.parse_manifest(".adrguard-impact.json", MANIFEST.encode())
    mapping.give_manifest(corpus, Options(), given)
    assert mapping.manifest_of(corpus, Options()) is given
    assert mapping.parsed_manifest(corpus, Options()) is given
