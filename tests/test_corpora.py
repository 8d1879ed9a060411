"""`adrguard list` and `adrguard check` over every real-world collection in ../shared/corpora,
compared with the hand labels in each TRUTH.json (see the corpora README)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import corpus_labels as labels
import pytest

from adrguard.cli import main


def _run_json(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, Any]:
    code = main(argv)
    out = capsys.readouterr().out
    return code, json.loads(out) if out.strip() else None


# Agreement over all collections together (issue 13: found, status, title, non-records).
MIN_FOUND, MIN_STATUS, MIN_TITLE, MAX_NON_RECORDS = 99.0, 98.0, 97.0, 2


def list_agreement(
    collection: Path, listed: dict[str, dict[str, Any]]
) -> tuple[dict[str, int], list[str]]:
    """One collection's row (records, found, status, title, non-records listed) and the
    disagreements, from ``adrguard list`` output against TRUTH.json."""
    row = {"records": 0, "found": 0, "status_ok": 0, "title_ok": 0, "non_records": 0}
    wrong: list[str] = []
    for path, label in sorted(labels.truth(collection).items()):
        got = listed.get(path)
        if label["kind"] != "adr":
            if got is not None:
                row["non_records"] += 1
                wrong.append(f"{collection.name}/{path}: {label['kind']} file listed as a record")
            continue
        row["records"] += 1
        if got is None:
            wrong.append(f"{collection.name}/{path}: record not listed")
            continue
        row["found"] += 1
        if got["status"] in labels.acceptable_statuses(label):
            row["status_ok"] += 1
        else:
            wrong.append(
                f"{collection.name}/{path}: status {got['status']!r}, label {label['status']!r}"
                f" ({(label.get('status_raw') or '')[:40]!r})"
            )
        if labels.fold_title(got["title"]) in labels.acceptable_titles(label):
            row["title_ok"] += 1
        else:
            wrong.append(
                f"{collection.name}/{path}: title {got['title']!r}, label {label.get('title')!r}"
            )
    return row, wrong


def test_every_collection_lists_like_the_labels(
    corpora_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from adrguard.core.schemas import validator

    collections = labels.collections(corpora_dir)
    assert len(collections) >= 25
    totals = {"records": 0, "found": 0, "status_ok": 0, "title_ok": 0, "non_records": 0}
    table: list[str] = []
    wrong: list[str] = []
    for collection in collections:
        argv = ["list", "--repo", str(collection), "--format", "json", "--no-cache"]
        argv += ["--config", str(labels.config_file(tmp_path, collection))]
        code, data = _run_json(capsys, argv)
        assert code == 0, collection.name
        validator("list.schema.json").validate(data)
        row, misses = list_agreement(collection, {d["path"]: d for d in data["decisions"]})
        wrong.extend(misses)
        for k in totals:
            totals[k] += row[k]
        table.append(
            f"| {collection.name} | {row['records']} | {row['found']} | {row['status_ok']} "
            f"| {row['title_ok']} | {row['non_records']} |"
        )
    found = labels.pct(totals["found"], totals["records"])
    status = labels.pct(totals["status_ok"], totals["found"])
    title = labels.pct(totals["title_ok"], totals["found"])
    print("\n| collection | records | found | status ok | title ok | non-records listed |")
    print("|---|---:|---:|---:|---:|---:|")
    print("\n".join(table))
    print(
        f"| **total** | {totals['records']} | {found:.1f}% | {status:.1f}% | {title:.1f}% "
        f"| {totals['non_records']} |"
    )
    print("\n".join(wrong))
    assert found >= MIN_FOUND, wrong
    assert status >= MIN_STATUS, wrong
    assert title >= MIN_TITLE, wrong
    assert totals["non_records"] <= MAX_NON_RECORDS, wrong


def test_check_never_crashes_and_reads_every_valid_file(
    corpora_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for collection in labels.collections(corpora_dir):
        code, report = _run_json(
            capsys,
            [
                "check",
                "--repo",
                str(collection),
                "--config",
                str(labels.config_file(tmp_path, collection)),
                "--format",
                "json",
                "--today",
                "2026-11-30",
                "--no-cache",
            ],
        )
        assert code in (0, 1), collection.name
        for f in report["findings"]:
            if f["code"] in ("ADR001", "ADR002"):
                data = (collection / f["path"]).read_bytes()
                data.decode("utf-8")  # valid UTF-8 here, so ADR001/ADR002 would be a false positive
                pytest.fail(
                    f"{collection.name}: {f['code']} on a readable file {f['path']}: {f['message']}"
                )


def test_a_crashing_rule_on_real_logs_costs_only_its_own_findings(
    corpora_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A rule that raises on a real log becomes one ADR000 finding; every other rule reports
    exactly what it reports in a run without that rule."""
    from adrguard import engine
    from adrguard.api import load_with
    from adrguard.config import load_config
    from adrguard.rules import ALL_RULES

    broken = next(r for r in ALL_RULES if r.meta.code == "ADR205")

    def boom(self: object, ctx: object) -> list[object]:
        raise ZeroDivisionError("planted")

    compared = 0
    for collection in labels.collections(corpora_dir)[:4]:
        config = load_config(collection, labels.config_file(tmp_path, collection))
        corpus = load_with(collection, config)
        without = engine.run(corpus, config.with_overrides(ignore=("ADR205",)))
        with monkeypatch.context() as m:
            m.setattr(broken, "check", boom)
            crashed = engine.run(corpus, config)
        crash = [f for f in crashed.findings if f.code == "ADR000"]
        assert len(crash) == 1, collection.name
        assert "rule ADR205 (link-text-mismatch) failed (ZeroDivisionError: planted)" in (
            crash[0].message
        )
        others = [f for f in crashed.findings if f.code not in ("ADR000", "ADR003", "ADR004")]
        assert others == [f for f in without.findings if f.code not in ("ADR003", "ADR004")]
        compared += bool(others)
    assert compared, "no log had findings to compare"
