"""Time ``adrguard check`` side by side with a peer ADR checker over the same generated corpora.

    python benchmarks/peer.py --peer /tmp/adrcheck-venv/bin/adr-check --sizes 100,1000,10000

The peer is adr-check (``pip install --ignore-requires-python adr-check`` into a Python 3.13
venv); it runs as ``PEER --mode local`` in the corpus folder, which reads ``docs/adr`` as our
generated corpora lay it out. adrguard runs as ``PYTHON -m adrguard check``, once with its record
cache removed before every run (cold) and once with the cache its warm-up left (warm). Runs are
interleaved (adrguard, peer, peer, adrguard, ...) so machine noise falls on both; each cell is the
median wall time of ``--repeat`` runs and the ratio adrguard / peer of the pairs' medians.

The two tools do not check the same things (adr-check reads one folder and checks its own small
rule set; adrguard runs its whole catalogue), so the table compares the cost a user pays for one
run of each, not equal work. This script never imports adrguard.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

from run import clear_cache, ensure_corpus, parse_sizes, run_once


def _pairs(ours: list[str], peer: list[str], folder: Path, repeat: int,
           cold: bool) -> list[tuple[float, float]]:
    """(adrguard wall, peer wall) per pair, alternating which one runs first."""
    if cold:
        clear_cache(folder)
    for argv in (ours, peer):  # untimed warm-ups: page cache, __pycache__, record cache
        sample = run_once(argv, folder)
        if sample.exit_code not in (0, 1):
            raise SystemExit(f"{argv[0]} failed in {folder} (exit {sample.exit_code}): "
                             f"{sample.stderr.strip()[:200]}")
    pairs: list[tuple[float, float]] = []
    for i in range(repeat):
        order = (ours, peer) if i % 2 == 0 else (peer, ours)
        walls: dict[int, float] = {}
        for argv in order:
            if cold and argv is ours:
                clear_cache(folder)
            walls[id(argv)] = run_once(argv, folder).wall
        pairs.append((walls[id(ours)], walls[id(peer)]))
    return pairs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--peer", required=True, help="the peer's executable (adr-check)")
    parser.add_argument("--python", default=sys.executable, help="interpreter with adrguard")
    parser.add_argument("--sizes", default="100,1000,10000")
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--work-dir", type=Path, default=Path("/tmp/adrguard-bench"))
    args = parser.parse_args(argv)
    print("| records | adrguard check | wall (s, median) | adr-check (s, median) | "
          "adrguard / adr-check (median of pairs) |")
    print("|---:|---|---:|---:|---:|")
    for size in parse_sizes(args.sizes):
        folder, _manifest = ensure_corpus(args.work_dir, size, args.seed, False)
        ours = [args.python, "-m", "adrguard", "check"]
        peer = [args.peer, "--mode", "local"]
        for label, cold in (("cold cache", True), ("warm cache", False)):
            pairs = _pairs(ours, peer, folder, args.repeat, cold)
            a = statistics.median(p[0] for p in pairs)
            b = statistics.median(p[1] for p in pairs)
            ratio = statistics.median(p[0] / p[1] for p in pairs)
            print(f"| {size:,} | {label} | {a:.3f} | {b:.3f} | {ratio:.2f}x |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
