"""Precision and recall of `adrguard check` against the hand labels of ../shared/corpora.

Every collection's `FINDINGS.json` labels each finding an earlier adrguard reported (TP, FP,
NOISE, COPY) and lists the real defects it missed (see the corpora README, "FINDINGS.json").
This test runs the real CLI over every collection with the collection's `config` (written to a
temporary file, never into the corpora), matches findings to labels by (path, code, line) and
asserts, over all collections together:

* precision: of the warning and error findings (COPY excluded), at least 90% are labelled TP;
  a finding no label covers counts as not TP and is printed;
* recall: at least 95% of the TP labels and of the `missed` entries with `expect_finding: true`
  are still reported, at any severity.

A finding with no label at its exact line takes an unmatched label of the same path and code
at most ``NEAR`` lines away: the same defect, reported on a neighbouring line.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from adrguard.cli import main

CORPORA = Path(__file__).resolve().parents[1].parent / "shared" / "corpora"
TODAY = "2026-11-30"  # fixed, so that "a date in the future" does not move with the clock
MIN_PRECISION = 0.90
MIN_RECALL = 0.95
NEAR = 3  # lines: a finding may match a label of its path and code this far away

Key = tuple[str, str, int]  # (path, code, line)


@dataclass
class Row:
    collection: str
    findings: int = 0  # warning/error findings, COPY excluded
    tp: int = 0
    fp: int = 0
    noise: int = 0
    unlabelled: list[dict[str, Any]] = field(default_factory=list)
    expected: int = 0  # TP labels + missed entries that expect a finding
    recalled: int = 0
    lost: list[str] = field(default_factory=list)

    @property
    def precision(self) -> float:
        return self.tp / self.findings if self.findings else 1.0

    @property
    def recall(self) -> float:
        return self.recalled / self.expected if self.expected else 1.0


def _toml_value(value: Any) -> str:
    return json.dumps(value)  # the config holds only strings and lists of strings


def write_config(config: dict[str, Any] | None, path: Path) -> Path:
    lines = [f"{key} = {_toml_value(value)}" for key, value in (config or {}).items()]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def run_check(collection: Path, config: Path, capsys: pytest.CaptureFixture[str]) -> list[Any]:
    argv = ["check", "--repo", str(collection), "--config", str(config), "--format", "json",
            "--today", TODAY, "--no-cache"]
    code = main(argv)
    out = capsys.readouterr().out
    assert code in (0, 1), f"{collection.name}: exit {code}"
    findings: list[Any] = json.loads(out)["findings"]
    return findings


@dataclass
class Label:
    path: str
    code: str
    line: int
    label: str  # TP | FP | NOISE | COPY; a `missed` entry that expects a finding is TP
    missed: str = ""  # the reason, for a `missed` entry
    matched: bool = False


def _labels(data: dict[str, Any]) -> list[Label]:
    out = [Label(x["path"], x["code"], x["line"], x["label"]) for x in data["findings"]]
    out += [
        Label(x["path"], x["code"], x["line"], "TP", x["reason"])
        for x in data.get("missed", ())
        if x.get("expect_finding") and x.get("code")
    ]
    return out


def _match(findings: list[Any], labels: list[Label]) -> list[Label | None]:
    """The label of each finding: the same (path, code, line) first; else, for a finding no
    label has, an unmatched label of the same path and code at most NEAR lines away (the same
    defect reported on a neighbouring line, such as a Status section's text)."""
    by_key: dict[Key, list[Label]] = {}
    for label in labels:
        by_key.setdefault((label.path, label.code, label.line), []).append(label)
    out: list[Label | None] = []
    for f in findings:
        pool = by_key.get((f["path"], f["code"], f["line"]), [])
        free = [x for x in pool if not x.matched]
        hit = free[0] if free else (pool[0] if pool else None)
        if hit is not None:
            hit.matched = True
        out.append(hit)
    for i, f in enumerate(findings):
        if out[i] is not None:
            continue
        near = [
            x for x in labels
            if not x.matched and (x.path, x.code) == (f["path"], f["code"])
            and abs(x.line - f["line"]) <= NEAR
        ]
        if near:
            label = min(near, key=lambda x: abs(x.line - f["line"]))
            label.matched = True
            out[i] = label
    return out


def score(name: str, data: dict[str, Any], findings: list[Any]) -> Row:
    row = Row(name)
    labels = _labels(data)
    for f, label in zip(findings, _match(findings, labels), strict=True):
        if f["severity"] == "note" or (label is not None and label.label == "COPY"):
            continue
        row.findings += 1
        if label is None:
            row.unlabelled.append(f)
        elif label.label == "TP":
            row.tp += 1
        elif label.label == "FP":
            row.fp += 1
        else:
            row.noise += 1
    for label in labels:
        if label.label != "TP":
            continue
        row.expected += 1
        if label.matched:
            row.recalled += 1
        else:
            what = f"(missed) {label.missed}" if label.missed else "(TP) no longer reported"
            row.lost.append(f"{name}: {label.code} {label.path}:{label.line} {what}")
    return row


def collections(corpora: Path) -> Iterator[Path]:
    return (p for p in sorted(corpora.iterdir()) if (p / "FINDINGS.json").is_file())


def table(rows: list[Row]) -> str:
    lines = [
        "| collection | W/E findings | TP | FP | NOISE | unlabelled | precision | recall |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    total = Row("**total**")
    for r in [*rows, total]:
        if r is not total:
            total.findings += r.findings
            total.tp += r.tp
            total.fp += r.fp
            total.noise += r.noise
            total.unlabelled += r.unlabelled
            total.expected += r.expected
            total.recalled += r.recalled
        lines.append(
            f"| {r.collection} | {r.findings} | {r.tp} | {r.fp} | {r.noise} | "
            f"{len(r.unlabelled)} | {r.precision:.1%} | {r.recall:.1%} "
            f"({r.recalled}/{r.expected}) |"
        )
    return "\n".join(lines)


def test_precision_and_recall_on_the_labelled_corpora(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    if not CORPORA.is_dir():
        pytest.skip(f"labelled corpora not found at {CORPORA}")
    rows: list[Row] = []
    for collection in collections(CORPORA):
        data = json.loads((collection / "FINDINGS.json").read_text(encoding="utf-8"))
        config = write_config(data.get("config"), tmp_path / f"{collection.name}.toml")
        rows.append(score(collection.name, data, run_check(collection, config, capsys)))
    findings = sum(r.findings for r in rows)
    tp = sum(r.tp for r in rows)
    expected = sum(r.expected for r in rows)
    recalled = sum(r.recalled for r in rows)
    report = [table(rows), "", "Unlabelled warning/error findings:"]
    report += [
        f"  {r.collection}: {f['code']} {f['path']}:{f['line']} "
        f"[{f['severity']}] {f['message']}"
        for r in rows
        for f in r.unlabelled
    ]
    report += ["", "Expected findings not reported:"] + [f"  {x}" for x in
                                                         (x for r in rows for x in r.lost)]
    with capsys.disabled():
        print("\n" + "\n".join(report))
    assert findings and tp >= MIN_PRECISION * findings, (
        f"precision {tp}/{findings} = {tp / max(findings, 1):.1%} < {MIN_PRECISION:.0%}"
    )
    assert recalled >= MIN_RECALL * expected, (
        f"recall {recalled}/{expected} = {recalled / max(expected, 1):.1%} < {MIN_RECALL:.0%}"
    )
