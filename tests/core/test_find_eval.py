"""``find`` against a labelled set built from ../shared/corpora (tests/data/find_eval.json):
recall@5 and precision@5 must stay above floors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from adrguard.api.pipeline.corpus import load_with
from adrguard.config import load_config
from adrguard.core.agent.retrieval import find
from adrguard.core.impact.mapping import manifest_of
from adrguard.core.model import STATUS_CHOICES, Corpus

EVAL = Path(__file__).resolve().parents[1] / "data" / "find_eval.json"
K = 5


def corpus_for(root: Path, cache: dict[str, tuple[Corpus, Any]]) -> tuple[Corpus, Any]:
    if root.name not in cache:
        config = load_config(root).with_overrides(cache=False)  # never write into the corpora
        corpus = load_with(root, config)
        cache[root.name] = (corpus, manifest_of(corpus, config.options))
    return cache[root.name]


def evaluate(corpora_dir: Path) -> tuple[float, float, list[dict[str, Any]]]:
    queries = json.loads(EVAL.read_text())["queries"]
    cache: dict[str, tuple[Corpus, Any]] = {}
    rows = []
    for q in queries:
        corpus, manifest = corpus_for(corpora_dir / q["corpus"], cache)
        statuses = STATUS_CHOICES if q.get("statuses") == ["all"] else ("accepted",)
        result = find(
            corpus,
            manifest,
            paths=q.get("paths", ()),
            topic=q.get("topic"),
            statuses=statuses,
            limit=K,
        )
        got = [h.decision.path for h in result.hits]
        expected = set(q["expected"])
        hits = len(expected.intersection(got))
        rows.append(
            {
                "query": q.get("topic") or q.get("paths"),
                "hits": hits,
                "recall": hits / len(expected),
                "precision": hits / K,
                "got": got,
            }
        )
    recall = sum(r["recall"] for r in rows) / len(rows)
    precision = sum(r["precision"] for r in rows) / len(rows)
    return recall, precision, rows


def test_labels_name_real_records(corpora_dir: Path) -> None:
    for q in json.loads(EVAL.read_text())["queries"]:
        for path in q["expected"]:
            assert (corpora_dir / q["corpus"] / path).is_file(), path


def test_find_recall_and_precision_at_5(
    corpora_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    recall, precision, rows = evaluate(corpora_dir)
    with capsys.disabled():
        print(
            f"\nfind eval: {len(rows)} queries, recall@5 {recall:.3f}, precision@5 {precision:.3f}"
        )
    missed = [(r["query"], r["got"]) for r in rows if r["recall"] < 1]
    assert recall >= 0.85, missed
    assert precision >= 0.35, missed
