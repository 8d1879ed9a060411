"""Parse the first N records of a log in this process alone and shared with helpers, side by side.

    python benchmarks/generate.py --size 10000 --out /tmp/adrguard-bench/10000
    python benchmarks/parse_share.py /tmp/adrguard-bench/10000 --sizes 250,500,1000,10000

Prints a markdown table of wall seconds (the median of ``--repeat`` runs, alternating the two
ways) of :func:`adrguard.api.pipeline.parsing.parse_all` with ``jobs=1`` (this process alone) and
with ``--jobs`` processes (0: one per core, up to four), with the share forced on below
``SHARE_MIN`` so that the table shows where it pays, and the shared time over the one-process
time. ``--head-start`` overrides ``HEAD_START`` (the records this process parses before the
helpers' slices) to tune it. The records are read once, before any timing. Run it on an
otherwise idle machine.
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
    parser.add_argument("--sizes", default="250,500,1000,2000,4000,10000")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--jobs", type=int, default=0,
                        help="processes that parse, this one included (0: one per core, up to 4)")
    parser.add_argument("--head-start", type=int, default=None,
                        help="records this process parses before the helpers' slices")
    args = parser.parse_args(argv)

    from adrguard.adapters.files import discover
    from adrguard.api.pipeline import helpers, parsing
    from adrguard.config import load_config

    config = load_config(args.log, None)
    sources = discover(args.log, config).sources
    options = config.options
    parsing.SHARE_MIN = 2  # this table decides where sharing pays: let it share at every size
    if args.head_start is not None:
        parsing.HEAD_START = args.head_start
    parsing.parse_all(sources[:20], options, encoded=True)  # this process's imports, untimed
    print(f"{len(sources)} records in {args.log}; {helpers.cpus()} CPUs; "
          f"HEAD_START {parsing.HEAD_START}\n")
    print("| records | one process (s) | shared (s) | shared / one |")
    print("| ------: | --------------: | ---------: | -----------: |")
    for size in (int(s) for s in args.sizes.split(",")):
        part = sources[:size]
        times: dict[str, list[float]] = {"one": [], "shared": []}
        for _ in range(args.repeat):
            for way, jobs in (("one", 1), ("shared", args.jobs)):
                started = time.perf_counter()
                parsing.parse_all(part, options, encoded=True, jobs=jobs)
                times[way].append(time.perf_counter() - started)
        one, shared = statistics.median(times["one"]), statistics.median(times["shared"])
        print(f"| {len(part):,} | {one:.3f} | {shared:.3f} | {shared / one:.2f} |")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
