"""`adrguard list` and `adrguard check` over every real-world collection in ../shared/corpora,
compared with the hand labels in each TRUTH.json (see the corpora README)."""

from __future__ import annotations

import json
import re
import unicodedata
from pathlib import Path
from typing import Any

import pytest

from adrguard.cli import main

STATUS_LABELS = {"accepted", "proposed", "rejected", "deprecated", "superseded", "draft"}


def _roots(collection: Path) -> list[str]:
    text = (collection / "SOURCE.txt").read_text(encoding="utf-8")
    m = re.search(r"^path\(s\) in repository:\s*(.+)$", text, re.MULTILINE)
    assert m, f"no ADR path in {collection}/SOURCE.txt"
    roots = []
    for part in re.split(r"[,;]", m.group(1)):
        part = part.strip().split(" ")[0].strip("`'\"")
        if not part or part.startswith("("):
            continue
        roots.append("." if part in ("/", ".", "(repository root)") else part.strip("/"))
    return roots or ["."]


def _collections(corpora: Path) -> list[Path]:
    return sorted(p for p in corpora.iterdir() if (p / "TRUTH.json").is_file())


def _config(tmp_path: Path, collection: Path) -> Path:
    cfg = tmp_path / f"{collection.name}.toml"
    cfg.write_text("roots = " + json.dumps(_roots(collection)) + "\n", encoding="utf-8")
    return cfg


def _run_json(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, Any]:
    code = main(argv)
    out = capsys.readouterr().out
    return code, json.loads(out) if out.strip() else None


def fold(title: str | None) -> str | None:
    if title is None:
        return None
    text = unicodedata.normalize("NFKC", title).casefold()
    text = re.sub(r"[\W_]+", " ", text)
    return " ".join(text.split())


def test_every_collection_lists_like_the_labels(
    corpora_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from adrguard.core.schemas import validator

    totals = {"records": 0, "listed": 0, "status_n": 0, "status_ok": 0, "title_n": 0, "title_ok": 0}
    table: list[str] = []
    wrong: list[str] = []
    for collection in _collections(corpora_dir):
        truth = json.loads((collection / "TRUTH.json").read_text(encoding="utf-8"))["files"]
        code, data = _run_json(
            capsys,
            [
                "list",
                "--repo",
                str(collection),
                "--config",
                str(_config(tmp_path, collection)),
                "--format",
                "json",
                "--no-cache",
            ],
        )
        assert code == 0, collection.name
        validator("list.schema.json").validate(data)
        listed = {d["path"]: d for d in data["decisions"]}
        for path, label in truth.items():
            # documents whose front-matter type says they are not decisions (SCS supplements)
            # may be counted either way (corpora README); discovery goes by paths
            if label["kind"] != "adr" and not label.get("doc_type"):
                assert path not in listed, (
                    f"{collection.name}: {label['kind']} file {path} listed as a record"
                )
        row = {
            "records": 0,
            "listed": 0,
            "status_n": 0,
            "status_ok": 0,
            "title_n": 0,
            "title_ok": 0,
        }
        for path, label in truth.items():
            if label["kind"] != "adr":
                continue
            row["records"] += 1
            got = listed.get(path)
            if got is None:
                wrong.append(f"{collection.name}/{path}: not listed")
                continue
            row["listed"] += 1
            if label["status"] != "ambiguous":
                row["status_n"] += 1
                want = None if label["status"] == "none" else label["status"]
                if got["status"] == want:
                    row["status_ok"] += 1
                else:
                    wrong.append(f"{collection.name}/{path}: status {got['status']!r} != {want!r}")
            row["title_n"] += 1
            ok_titles = (
                {fold(label.get("title")), fold(label.get("title_raw"))}
                if label.get("title")
                else {None}
            )
            if fold(got["title"]) in ok_titles:
                row["title_ok"] += 1
            else:
                wrong.append(
                    f"{collection.name}/{path}: title {got['title']!r} != {label.get('title')!r}"
                )
        for k in totals:
            totals[k] += row[k]
        table.append(
            f"| {collection.name} | {row['records']} | {row['listed']} | "
            f"{row['status_ok']}/{row['status_n']} | {row['title_ok']}/{row['title_n']} |"
        )
    print("\n| collection | records | listed | status | title |\n|---|---:|---:|---:|---:|")
    print("\n".join(table))
    print("\n".join(wrong))
    assert totals["listed"] >= 0.99 * totals["records"], wrong
    assert totals["status_ok"] >= 0.98 * totals["status_n"], wrong
    assert totals["title_ok"] >= 0.97 * totals["title_n"], wrong


def test_check_never_crashes_and_reads_every_valid_file(
    corpora_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for collection in _collections(corpora_dir):
        code, report = _run_json(
            capsys,
            [
                "check",
                "--repo",
                str(collection),
                "--config",
                str(_config(tmp_path, collection)),
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
