"""What `adrguard new` and `adrguard supersede` write reads back as written, in every real log
(issue 26, point 4): in a temporary git copy of each collection of ../shared/corpora, and of
each ecosystem snapshot when ``ADRGUARD_ECOSYSTEM_SNAPSHOTS`` names the folder holding them
(one repository per subfolder, ``owner__name``; ``benchmarks/ecosystem/logs.toml``, or the
manifest ``ADRGUARD_ECOSYSTEM_MANIFEST`` names, gives the roots when it names the repository).
See tests/roundtrip.py for the property."""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any

import corpus_labels as labels
import pytest
import roundtrip

SNAPSHOTS = "ADRGUARD_ECOSYSTEM_SNAPSHOTS"
MANIFEST = Path(__file__).resolve().parents[1] / "benchmarks" / "ecosystem" / "logs.toml"
OTHER_MANIFEST = "ADRGUARD_ECOSYSTEM_MANIFEST"  # another copy of the manifest
LABELS = ("TRUTH.json", "FINDINGS.json", "SOURCE.txt")
pytestmark = pytest.mark.uses_cache  # each log is read six times: parse its records once


def _report(trips: list[roundtrip.Trip]) -> list[str]:
    return [f"{t.log}: {p}" for t in trips for p in t.problems]


def test_new_and_supersede_round_trip_in_every_corpus_log(
    corpora_dir: Path, tmp_path: Path
) -> None:
    trips: list[roundtrip.Trip] = []
    for collection in labels.collections(corpora_dir):
        config = labels.findings(collection).get("config") or {}
        repo = roundtrip.copy_repo(collection, tmp_path / collection.name, config, LABELS)
        for root in roundtrip.roots(repo.path):
            repo.git("reset", "-q", "--hard")
            repo.git("clean", "-qfdx", "-e", ".adrguard.toml")
            trips.append(roundtrip.trip(repo.path, root, f"{collection.name} {root}"))
    assert len(trips) >= len(labels.collections(corpora_dir))  # every collection has a log
    assert all(len(t.written) >= 2 for t in trips if not t.problems)  # new, and the successor
    assert not _report(trips), "\n".join(_report(trips))


def _manifest() -> dict[str, list[str]]:
    """Repository (``owner/name``) -> its ADR roots, from the ecosystem manifest."""
    manifest = Path(os.environ.get(OTHER_MANIFEST, "") or MANIFEST)
    if not manifest.is_file():
        return {}
    data: dict[str, Any] = tomllib.loads(manifest.read_text("utf-8"))
    out: dict[str, list[str]] = {}
    for entry in data.get("log", data.get("logs", [])):
        repo = str(entry.get("repository", entry.get("repo", "")))
        found = entry.get("roots", entry.get("root", []))
        out[repo.casefold()] = [found] if isinstance(found, str) else list(found)
    return out


def _snapshots() -> list[Path]:
    folder = os.environ.get(SNAPSHOTS, "")
    if not folder:
        return []
    return sorted(p for p in Path(folder).iterdir() if p.is_dir() and not p.name.startswith("."))


@pytest.mark.skipif(not os.environ.get(SNAPSHOTS), reason=f"{SNAPSHOTS} is not set (the "
                    "ecosystem snapshots are not part of the test suite)")
@pytest.mark.parametrize("snapshot", _snapshots(), ids=lambda p: p.name)
def test_new_and_supersede_round_trip_in_an_ecosystem_log(snapshot: Path, tmp_path: Path) -> None:
    name = snapshot.name.replace("__", "/").replace("+", "/").casefold()
    wanted = _manifest().get(name) or roundtrip.roots(snapshot)
    if not wanted:
        pytest.skip(f"no ADR root found in {snapshot.name}")
    repo = roundtrip.copy_snapshot(snapshot, tmp_path / "repo", wanted)
    trips = []
    for root in wanted:
        repo.git("reset", "-q", "--hard")
        repo.git("clean", "-qfdx", "-e", ".adrguard.toml")
        trips.append(roundtrip.trip(repo.path, root, f"{snapshot.name} {root}"))
    assert not _report(trips), "\n".join(_report(trips))
