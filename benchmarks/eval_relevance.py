"""Retrieval eval: labelled queries over real logs, recall@5 and MRR for ``find`` (docs/evals.md).

    python benchmarks/eval_relevance.py [--corpora ../shared/corpora] [--format text|json]
    python benchmarks/eval_relevance.py --provider anthropic --model MODEL [--key-env VAR]
    python benchmarks/eval_relevance.py --provider openai-compatible --model MODEL \\
        --base-url http://127.0.0.1:8080/v1

The queries are those of ``tests/data/find_eval.json`` (a corpus of ``../shared/corpora``, the
paths being edited and/or a topic, the statuses asked for, and the records a person reading
the log expects). Every query runs through the same layers as ``adrguard find`` (paths and
components, status filter, graph, then keywords — or a model on the narrowed candidates), in
this process, with the record cache off (nothing is written into the corpora).

Reported per method: recall@5 (the share of expected records in the first five results,
averaged over the queries) and MRR (the mean over the queries of 1/rank of the first expected
record in the first ten results; 0 when none is there). ``keyword`` is always measured; ``ai``
only when a provider is given on the command line (the corpora's own configuration never
names one), which needs that provider's key or a local server. The answer cache is not used,
so every AI query is asked. A run with a provider is not deterministic: models change.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from msgspec.structs import replace

ROOT = Path(__file__).resolve().parents[1]
LABELS = ROOT / "tests" / "data" / "find_eval.json"
K = 5
MRR_DEPTH = 10


def _load(corpus_dir: Path, cache: dict[str, Any]) -> tuple[Any, Any, Any]:
    from adrguard.api.pipeline.corpus import load_with
    from adrguard.config import load_config
    from adrguard.core.impact.mapping import manifest_of

    key = str(corpus_dir)
    if key not in cache:
        config = load_config(corpus_dir).with_overrides(cache=False)
        corpus = load_with(corpus_dir, config)
        cache[key] = (config, corpus, manifest_of(corpus, config.options))
    return cache[key]  # type: ignore[no-any-return]


def rank(
    query: dict[str, Any], corpora: Path, cache: dict[str, Any], ai: Any | None
) -> tuple[list[str], str, list[str]]:
    """The result paths of one query, the method that answered and any warnings."""
    from adrguard.api.agent.relevance import judge_relevance
    from adrguard.api.agent.relevance import rank as rank_judged
    from adrguard.core.agent.retrieval import narrow
    from adrguard.core.impact.analysis import STATUS_CHOICES

    corpus_dir = corpora / query["corpus"]
    config, corpus, manifest = _load(corpus_dir, cache)
    statuses = STATUS_CHOICES if query.get("statuses") == ["all"] else ("accepted",)
    narrowed = narrow(
        corpus,
        manifest,
        paths=query.get("paths", ()),
        topic=query.get("topic"),
        statuses=statuses,
        limit=MRR_DEPTH,
    )
    settings = replace(config, ai=ai) if ai is not None else config
    judged = judge_relevance(settings, corpus_dir, narrowed, query.get("topic"), no_ai=ai is None)
    rows = rank_judged(judged, narrowed, settings.ai.threshold)
    return [h.decision.path for h, _extra in rows[:MRR_DEPTH]], judged.method, judged.warnings


def evaluate(corpora: Path, ai: Any | None = None) -> dict[str, Any]:
    """recall@5 and MRR over every labelled query, and each query's row."""
    queries = json.loads(LABELS.read_text(encoding="utf-8"))["queries"]
    cache: dict[str, Any] = {}
    rows = []
    for q in queries:
        got, method, warnings = rank(q, corpora, cache, ai)
        expected = set(q["expected"])
        recall = len(expected.intersection(got[:K])) / len(expected)
        first = next((i for i, p in enumerate(got, 1) if p in expected), None)
        rows.append(
            {
                "corpus": q["corpus"],
                "query": q.get("topic") or q.get("paths"),
                "method": method,
                "recall@5": round(recall, 3),
                "rr": round(1 / first, 3) if first else 0.0,
                "missed": sorted(expected.difference(got[:K])),
                "warnings": warnings,
            }
        )
    n = len(rows)
    return {
        "queries": n,
        "corpora": sorted({r["corpus"] for r in rows}),
        "recall@5": round(sum(r["recall@5"] for r in rows) / n, 3),
        "mrr": round(sum(r["rr"] for r in rows) / n, 3),
        "answeredBy": {m: sum(1 for r in rows if r["method"] == m) for m in ("ai", "keyword")},
        "rows": rows,
    }


def main(argv: list[str] | None = None) -> int:
    sys.path.insert(0, str(ROOT / "src"))
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--corpora", type=Path, default=ROOT.parent / "shared" / "corpora")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.add_argument("--provider", choices=("openai-compatible", "anthropic"))
    p.add_argument("--model")
    p.add_argument("--base-url")
    p.add_argument("--key-env", help="the NAME of the variable that holds the key")
    p.add_argument("--threshold", type=float, default=0.7)
    p.add_argument("--timeout", type=float, default=30.0)
    args = p.parse_args(argv)
    if not args.corpora.is_dir():
        p.error(f"no corpora at {args.corpora}")
    results = {"keyword": evaluate(args.corpora)}
    if args.provider:
        if not args.model:
            p.error("--provider needs --model")
        from adrguard.core.options import AiOptions

        ai = AiOptions(
            provider=args.provider,
            base_url=args.base_url,
            model=args.model,
            api_key_env=args.key_env,
            timeout=args.timeout,
            threshold=args.threshold,
            cache_ttl=0,
        )
        results["ai"] = evaluate(args.corpora, ai)
    if args.format == "json":
        print(json.dumps(results, indent=2))
        return 0
    print(f"| method | queries | recall@{K} | MRR@{MRR_DEPTH} | answered by the model |")
    print("|---|---:|---:|---:|---:|")
    for name, r in results.items():
        print(f"| {name} | {r['queries']} | {r['recall@5']:.3f} | {r['mrr']:.3f} | "
              f"{r['answeredBy']['ai']} |")
    for name, r in results.items():
        for row in r["rows"]:
            if row["missed"] or row["warnings"]:
                print(f"- {name}: {row['corpus']} {row['query']!r}: missed {row['missed']}"
                      + (f"; {row['warnings'][0]}" if row["warnings"] else ""))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
