"""ADR2xx/ADR3xx over the real-world collections in ../shared/corpora, compared with the hand
labels (TRUTH.json ``broken_links`` / ``broken_images`` and the relation fields)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from adrguard import api
from adrguard.core import graph
from adrguard.core.model import RelKind

# Every ADR3xx finding on the collections, each read by eye: all are real (see docs/graph.md).
EXPECTED_3XX = {
    ("alphagov__govuk-aws", "ADR304", "docs/architecture/decisions/0004-dns-definitions-for-hosts-and-services.md"),
    ("cisagov__manage.get.gov", "ADR304", "docs/architecture/decisions/0012-user-models.md"),
    ("ministryofjustice__cloud-platform", "ADR304", "architecture-decision-record/021-Multi-cluster.md"),
    ("zooniverse__front-end-monorepo", "ADR304", "docs/arch/adr-15.md"),
    ("zooniverse__front-end-monorepo", "ADR307", "docs/arch/adr-15.md"),
}
# Empty link targets (`[text]()`) are not in the labels, which list missing files only; adrguard
# reports them as ADR201 because nobody writes an empty link on purpose.
EXTRA_201 = {("ministryofjustice__cloud-platform", "architecture-decision-record/007-Use-ECR-As-Container-Registry.md", "")}
REL_FIELDS = {
    RelKind.SUPERSEDED_BY: "superseded_by",
    RelKind.SUPERSEDES: "supersedes",
    RelKind.AMENDS: "amends",
    RelKind.AMENDED_BY: "amended_by",
    RelKind.IN_FAVOUR_OF: "in_favour_of",
}


def _config(tmp_path: Path, collection: Path) -> Path:
    text = (collection / "SOURCE.txt").read_text(encoding="utf-8")
    m = re.search(r"^path\(s\) in repository:\s*(.+)$", text, re.MULTILINE)
    assert m
    roots = [p.strip().strip("/") or "." for p in m.group(1).split(",")]
    cfg = tmp_path / f"{collection.name}.toml"
    # cache = false: never write a parse cache into the read-only corpora
    cfg.write_text("roots = " + json.dumps(roots) + "\ncache = false\n", encoding="utf-8")
    return cfg


@pytest.fixture(scope="module")
def collections(corpora_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    return sorted(p for p in corpora_dir.iterdir() if (p / "TRUTH.json").is_file())


def test_broken_links_agree_with_the_labels(
    collections: list[Path], tmp_path: Path
) -> None:
    expected: set[tuple[str, str, str]] = set()
    reported: set[tuple[str, str, str]] = set()
    for collection in collections:
        truth = json.loads((collection / "TRUTH.json").read_text(encoding="utf-8"))["files"]
        cfg = _config(tmp_path, collection)
        _config_obj, corpus = api.load(collection, cfg)
        records = {p for p, label in truth.items() if label["kind"] == "adr"}
        for path in records:
            label = truth[path]
            for target in (*label["broken_links"], *label["broken_images"]):
                expected.add((collection.name, path, target))
        report = api.check(collection, config_path=cfg, select=["ADR201"])
        for f in report.findings:
            d = corpus.by_path[f.location.path]
            targets = {
                link.target
                for link in d.links
                if (link.line, link.column) == (f.location.line, f.location.column)
            }
            assert len(targets) == 1, f
            reported.add((collection.name, f.location.path, targets.pop()))
            assert f.location.path in records, f"ADR201 on a non-record: {f}"
    assert reported - EXTRA_201 == expected
    assert len(expected) == 54  # 26 broken links + 28 broken images in records


def test_relationship_findings_are_the_reviewed_ones(
    collections: list[Path], tmp_path: Path
) -> None:
    found = set()
    other_2xx = []
    for collection in collections:
        report = api.check(collection, config_path=_config(tmp_path, collection),
                           select=["ADR2", "ADR3"])
        for f in report.findings:
            if f.code.startswith("ADR3"):
                found.add((collection.name, f.code, f.location.path))
            elif f.code != "ADR201":
                other_2xx.append(f)
    assert found == EXPECTED_3XX
    assert other_2xx == []


def test_declared_relations_resolve_like_the_labels(
    collections: list[Path], tmp_path: Path
) -> None:
    for collection in collections:
        truth = json.loads((collection / "TRUTH.json").read_text(encoding="utf-8"))["files"]
        _cfg, corpus = api.load(collection, _config(tmp_path, collection))
        got: dict[tuple[str, str], set[str]] = {}
        for dec in graph.build(corpus).declared:
            assert dec.target is not None, (collection.name, dec.rel)
            key = (dec.source.path, REL_FIELDS[dec.rel.kind])
            got.setdefault(key, set()).add(dec.target.path)
        want = {
            (path, field): set(label[field])
            for path, label in truth.items()
            if label["kind"] == "adr"
            for field in REL_FIELDS.values()
            if label.get(field)
        }
        assert got == want, collection.name
