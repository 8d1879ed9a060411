"""Impact analysis at scale: 50,000 changed paths against 2,000 mappings.

    PYTHONPATH=src python benchmarks/bench_impact.py [--paths 50000] [--mappings 2000] [--repeat 5]

Pure and in memory (no git): it times ``adrguard.core.impact.analysis.analyse`` on a generated corpus of
accepted decisions, an impact manifest and a change set, the way ``adrguard impact`` and
``check --base`` call it. The mappings mix what real manifests hold: directory globs with a
literal prefix (most), ``!negations``, components, and prefix-free globs such as ``*.proto`` and
``**/migrations/**`` that must be tried against every path. Prints the best and median wall time, and the best CPU time (steadier on a busy machine).
Target: well under one second.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from adrguard.core.impact.analysis import analyse
from adrguard.core.impact.mapping import parse_manifest
from adrguard.core.model import (
    ChangeSet,
    Corpus,
    Decision,
    FileChange,
    Status,
)

EXTENSIONS = ("py", "ts", "go", "sql", "proto", "md", "yaml", "json")


def changed_paths(n: int, rng: random.Random) -> list[str]:
    out: set[str] = set()
    while len(out) < n:
        svc = rng.randrange(500)
        area = rng.choice(("src", "tests", "docs", "migrations", "api"))
        mod = rng.randrange(20)
        ext = rng.choice(EXTENSIONS)
        out.add(f"services/svc-{svc:03d}/{area}/module{mod:02d}/file{rng.randrange(60)}.{ext}")
    return sorted(out)


def manifest(mappings: int, decisions: int, rng: random.Random) -> dict[str, object]:
    components = {
        f"comp-{i}": [f"services/svc-{i:03d}/api/**", f"services/svc-{i:03d}/src/module00/**"]
        for i in range(100)
    }
    entries: list[dict[str, object]] = []
    for i in range(mappings):
        kind = i % 20
        svc = rng.randrange(500)
        decision = f"ADR-{(i % decisions) + 1:04d}"
        if kind < 14:
            paths = [f"services/svc-{svc:03d}/src/module{rng.randrange(20):02d}/**"]
        elif kind < 17:
            paths = [f"services/svc-{svc:03d}/**", f"!services/svc-{svc:03d}/tests/**"]
        elif kind < 19:
            entries.append({"decision": decision, "components": [f"comp-{rng.randrange(100)}"]})
            continue
        else:
            paths = [rng.choice(("*.proto", "**/migrations/**", "*.sql", "**/api/*.yaml"))]
        entries.append({"decision": decision, "paths": paths, "note": f"mapping {i}"})
    return {"schemaVersion": 1, "components": components, "mappings": entries}


def corpus(decisions: int, files: list[str]) -> Corpus:
    records = tuple(
        Decision(
            id=f"ADR-{i:04d}", path=f"docs/adr/{i:04d}-decision-{i}.md", root="docs/adr",
            number=i, title=f"Decision {i}", status=Status.ACCEPTED,
        )
        for i in range(1, decisions + 1)
    )
    return Corpus(decisions=records, roots=("docs/adr",), repo_files=frozenset(files))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--paths", type=int, default=50_000)
    parser.add_argument("--mappings", type=int, default=2_000)
    parser.add_argument("--decisions", type=int, default=2_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    paths = changed_paths(args.paths, rng)
    data = json.dumps(manifest(args.mappings, args.decisions, rng), indent=2).encode()
    t0 = time.perf_counter()
    parsed = parse_manifest(".adrguard-impact.json", data)
    parse_s = time.perf_counter() - t0
    head = corpus(args.decisions, paths)
    changes = ChangeSet("main", "HEAD", "0" * 40,
                        tuple(FileChange("M", p) for p in paths))
    timings: list[float] = []
    cpu: list[float] = []
    result = None
    for _ in range(args.repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        result = analyse(head, changes, parsed)
        timings.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    assert result is not None
    cov = result.coverage
    print(f"impact: {len(paths):,} changed paths x {len(parsed.mappings):,} mappings "
          f"({args.decisions:,} decisions)")
    print(f"  manifest parse + validation: {parse_s * 1000:.0f} ms")
    print(f"  analyse (match changed paths, and every glob against the tracked files): "
          f"best {min(timings) * 1000:.0f} ms, median {statistics.median(timings) * 1000:.0f} ms "
          f"(CPU time best {min(cpu) * 1000:.0f} ms)")
    print(f"  affected decisions {len(result.affected):,}, governed {cov.governed:,}, "
          f"ungoverned {cov.ungoverned:,}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
