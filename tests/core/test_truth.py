"""The parser against the hand-checked labels of every real-world collection (../shared/corpora)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote

import corpus_labels as labels
import pytest

from adrguard.core.model import Decision, RelKind, SourceFile
from adrguard.core.options import Options
from adrguard.core.parse.record import parse

RELATION_FIELDS = {
    "superseded_by": RelKind.SUPERSEDED_BY,
    "supersedes": RelKind.SUPERSEDES,
    "amends": RelKind.AMENDS,
    "amended_by": RelKind.AMENDED_BY,
    "in_favour_of": RelKind.IN_FAVOUR_OF,
}
_NUMBER = re.compile(r"(\d+)")


roots_of = labels.source_roots
root_for = labels.root_for


def resolve(target: str, source_path: str, records: dict[str, int | None]) -> str:
    """A relation target -> the repo path of the record it names, or ``UNRESOLVED:`` when it
    names no single record (the labels write ``UNRESOLVED:<text>`` for those)."""
    t = target.split("#", 1)[0].strip()
    folder = source_path.rsplit("/", 1)[0] if "/" in source_path else ""
    if t and not re.match(r"^[a-z]+:", t, re.I):
        parts: list[str] = [] if t.startswith("/") else [p for p in folder.split("/") if p]
        for piece in t.strip("/").split("/"):
            if piece == "..":
                if parts:
                    parts.pop()
            elif piece not in ("", "."):
                parts.append(piece)
        candidate = "/".join(parts)
        for option in (candidate, candidate + ".md", candidate + "/README.md"):
            if option in records:
                return option
    numbers = _NUMBER.findall(t)
    if numbers and not t.endswith(".md") and not re.match(r"^[a-z]+:", t, re.I):
        same_folder = [
            p for p, n in records.items() if n == int(numbers[-1]) and p.rsplit("/", 1)[0] == folder
        ]
        if len(same_folder) == 1:
            return same_folder[0]
    return labels.UNRESOLVED


def _label_targets(label: dict[str, object], field_name: str) -> set[str]:
    values = label.get(field_name) or []
    assert isinstance(values, list)
    return {labels.UNRESOLVED if str(v).startswith(labels.UNRESOLVED) else str(v) for v in values}


@dataclass
class Tally:
    status: list[int] = field(default_factory=lambda: [0, 0])
    title: list[int] = field(default_factory=lambda: [0, 0])
    number: list[int] = field(default_factory=lambda: [0, 0])
    relations: list[int] = field(default_factory=lambda: [0, 0])
    misses: list[str] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        for name in ("status", "title", "number", "relations"):
            mine, theirs = getattr(self, name), getattr(other, name)
            mine[0] += theirs[0]
            mine[1] += theirs[1]
        self.misses.extend(other.misses)


def _relations_agree(d: Decision, label: dict[str, object], records: dict[str, int | None]) -> bool:
    for field_name, kind in RELATION_FIELDS.items():
        truth = _label_targets(label, field_name)
        ours = {resolve(r.target_raw, d.path, records) for r in d.relationships if r.kind is kind}
        if truth != ours:
            return False
    return True


def score(collection: Path, options: Options) -> Tally:
    truth = json.loads((collection / "TRUTH.json").read_text(encoding="utf-8"))
    roots = roots_of(collection)
    tally = Tally()
    records = {p: v["number"] for p, v in truth["files"].items() if v["kind"] == "adr"}
    for path, label in sorted(truth["files"].items()):
        if label["kind"] != "adr":
            continue
        data = (collection / path).read_bytes()
        d = parse(SourceFile(path=path, root=root_for(path, roots), data=data), options)
        where = f"{collection.name}/{path}"
        got = d.status.value if d.status is not None else None
        tally.status[1] += 1
        if got in labels.acceptable_statuses(label):
            tally.status[0] += 1
        else:
            want = label["status"]
            tally.misses.append(f"status {where}: want {want} got {got} ({d.status_raw!r})")
        tally.title[1] += 1
        if labels.fold_title(d.title) in labels.acceptable_titles(label):
            tally.title[0] += 1
        else:
            tally.misses.append(f"title  {where}: want {label['title']!r} got {d.title!r}")
        tally.number[1] += 1
        if d.number == label["number"]:
            tally.number[0] += 1
        else:
            tally.misses.append(f"number {where}: want {label['number']} got {d.number}")
        tally.relations[1] += 1
        if _relations_agree(d, label, records):
            tally.relations[0] += 1
        else:
            ours = sorted((r.kind.value, r.target_raw) for r in d.relationships)
            wanted = {k: label[k] for k in RELATION_FIELDS if label.get(k)}
            tally.misses.append(f"rels   {where}: want {wanted} got {ours}")
    return tally


def _pct(pair: list[int]) -> float:
    return 100.0 * pair[0] / pair[1] if pair[1] else 100.0


def test_parser_agrees_with_hand_labels(corpora_dir: Path) -> None:
    options = Options()
    collections = labels.collections(corpora_dir)
    assert len(collections) >= 25
    total = Tally()
    rows = []
    for collection in collections:
        t = score(collection, options)
        total.add(t)
        rows.append(
            f"| {collection.name} | {t.status[0]}/{t.status[1]} | {t.title[0]}/{t.title[1]} "
            f"| {t.number[0]}/{t.number[1]} | {t.relations[0]}/{t.relations[1]} |"
        )
    print("\n| collection | status | title | number | relationships (records) |")
    print("|---|---:|---:|---:|---:|")
    print("\n".join(rows))
    print(
        f"| **total** | {_pct(total.status):.1f}% | {_pct(total.title):.1f}% "
        f"| {_pct(total.number):.1f}% | {_pct(total.relations):.1f}% |"
    )
    for miss in total.misses:
        print("  disagreement:", miss)
    assert _pct(total.status) >= 98.0
    assert _pct(total.title) >= 97.0
    assert _pct(total.number) >= 99.0
    assert _pct(total.relations) >= 99.0


_SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*:|^//", re.I)


def broken(collection: Path, path: str, d: Decision) -> dict[str, list[str]]:
    """The corpus README's link rule applied to our links: relative targets that do not exist."""
    out: dict[str, list[str]] = {"broken_links": [], "broken_images": [], "broken_html_refs": []}
    for link in d.links:
        target = link.target
        if not target or target.startswith("#") or _SCHEME.match(target):
            continue
        clean = unquote(target.split("#", 1)[0].split("?", 1)[0])
        parts = [] if clean.startswith("/") else path.split("/")[:-1]
        for piece in clean.strip("/").split("/"):
            if piece == "..":
                if parts:
                    parts.pop()
            elif piece not in ("", "."):
                parts.append(piece)
        kind = "html" if link.kind == "html" else "image" if link.is_image else "link"
        key = {"html": "broken_html_refs", "image": "broken_images", "link": "broken_links"}[kind]
        if not (collection / "/".join(parts)).exists() and target not in out[key]:
            out[key].append(target)
    return out


_QUOTE_MARKS = re.compile(r"^(?:\s*>)+\s*")


def _as_written(raw: str | None) -> str | None:
    """A status as written, for comparison: blockquote marks and line breaks do not count (the
    labels keep a paragraph's line break in one record and a space in another)."""
    return None if raw is None else " ".join(_QUOTE_MARKS.sub("", raw[:80]).split())


def test_links_and_raw_values_agree_with_hand_labels(corpora_dir: Path) -> None:
    """Every file (records, indexes, templates): the broken links found are exactly the
    labelled ones; a record's status_raw and title_raw agree with the labels (the status as
    written is a judgement where a record states it more than once, hence a threshold)."""
    link_disagreements: list[tuple[str, str, object, object]] = []
    raw_disagreements: list[tuple[str, str, object, object]] = []
    checked = raw_checked = 0
    for collection in labels.collections(corpora_dir):
        roots = roots_of(collection)
        for path, label in sorted(labels.truth(collection).items()):
            data = (collection / path).read_bytes()
            d = parse(SourceFile(path=path, root=root_for(path, roots), data=data), Options())
            got = broken(collection, path, d)
            for key, value in got.items():
                checked += 1
                if value != label[key]:
                    link_disagreements.append((path, key, label[key], value))
            if label["kind"] == "adr":
                raw_checked += 2
                raw = d.status_raw[:80] if d.status_raw else None
                if _as_written(raw) != _as_written(label["status_raw"]):
                    raw_disagreements.append((path, "status_raw", label["status_raw"], raw))
                if d.title_raw != label["title_raw"]:
                    raw_disagreements.append((path, "title_raw", label["title_raw"], d.title_raw))
    for item in raw_disagreements:
        print("  raw value:", item)
    assert checked > 2500
    assert link_disagreements == []
    assert labels.pct(raw_checked - len(raw_disagreements), raw_checked) >= 98.0


@pytest.mark.parametrize("name", ["alphagov__govuk-aws", "zooniverse__front-end-monorepo"])
def test_no_read_problems_on_valid_files(corpora_dir: Path, name: str) -> None:
    collection = corpora_dir / name
    roots = roots_of(collection)
    for path in sorted(json.loads((collection / "TRUTH.json").read_text("utf-8"))["files"]):
        d = parse(
            SourceFile(
                path=path, root=root_for(path, roots), data=(collection / path).read_bytes()
            ),
            Options(),
        )
        assert d.problems == (), (path, d.problems)
