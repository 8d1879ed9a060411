"""Parse the first N records of a log in one process and with the parse pool, side by side.

    python benchmarks/generate.py --size 10000 --out /tmp/adrguard-bench/10000
    python benchmarks/parse_pool.py /tmp/adrguard-bench/10000 --sizes 1000,2000,4000,10000

Prints a markdown table of wall seconds (the median of ``--repeat`` runs, alternating the two
ways) of :func:`adrguard.api.pipeline.parsing.parse_all` with ``jobs=1`` (this process) and
``jobs=0`` or ``--jobs`` workers (the pool, forced on below ``POOL_MIN`` so the table shows
where it pays), and the pool's time over the one-process time. The records are read once,
before any timing. Run it on an otherwise idle machine.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("log", type=Path, help="a log's folder (a generated corpus)")
    parser.add_argument("--sizes", default="1000,2000,4000,10000")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=0,
                        help="worker processes of the pool run (0: one per core, up to 4)")
    args = parser.parse_args(argv)

    from adrguard.adapters.files import discover
    from adrguard.api.pipeline import parsing
    from adrguard.config import load_config

    config = load_config(args.log, None)
    sources = discover(args.log, config).sources
    options = config.options
    parsing.POOL_MIN = 0  # this table decides where the pool pays: let it run at every size
    print(f"{len(sources)} records in {args.log}; {parsing._cpus()} CPUs\n")
    print("| records | one process (s) | pool (s) | pool / one |")
    print("| ------: | --------------: | -------: | ---------: |")
    for size in (int(s) for s in args.sizes.split(",")):
        part = sources[:size]
        times: dict[int, list[float]] = {1: [], 0: []}
        for _ in range(args.repeat):
            for jobs in (1, 0):
                started = time.perf_counter()
                parsing.parse_all(part, options, encoded=True, jobs=jobs or args.jobs)
                times[jobs].append(time.perf_counter() - started)
        one, pool = statistics.median(times[1]), statistics.median(times[0])
        print(f"| {len(part):,} | {one:.2f} | {pool:.2f} | {pool / one:.2f} |")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
