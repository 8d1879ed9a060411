"""A cold ``check`` of real repositories, two adrguards side by side: what a pull request's
first run (the GitHub Action runs ``check --no-cache``) costs where the code is.

    python benchmarks/cold_check.py --python A/bin/python --compare B/bin/python REPO...

Runs ``PYTHON -m adrguard check --no-cache --format json`` from each repository, the two
interpreters alternating (``--repeat`` pairs after one untimed run of each), and prints a
markdown table: the repository, the records it checks (from B's report), the files git
tracks there (the citation scan reads those outside the ADR folders), each side's median wall seconds and CPU seconds (user + system of the
process and its helpers), and B over A (the median of the pairs' ratios). Both sides must report
the same findings: a difference stops the run. Run it on an otherwise idle machine; CPU times
suffer less from other work than wall times.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path


def run(python: str, repo: Path) -> tuple[float, float, dict[str, object]]:
    """Wall and CPU seconds of one cold check of ``repo``, and its JSON report."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([python, "-m", "adrguard", "check", "--no-cache", "--format", "json",
                           "--no-baseline"], cwd=repo, capture_output=True, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if done.returncode not in (0, 1):
        raise SystemExit(f"error: {python} failed in {repo} ({done.returncode}): "
                         f"{done.stderr.decode(errors='replace')[:400]}")
    report: dict[str, object] = json.loads(done.stdout)
    return wall, cpu, report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("repos", nargs="+", type=Path, help="work trees to check")
    parser.add_argument("--python", required=True, help="A: the interpreter of one adrguard")
    parser.add_argument("--compare", required=True, help="B: the interpreter of the other")
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args(argv)
    env_note = os.environ.get("ADRGUARD_NO_CACHE")
    print(f"`python benchmarks/cold_check.py --python {args.python} --compare {args.compare} "
          f"--repeat {args.repeat} ...`, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
          f"{os.cpu_count()} processors{'' if env_note is None else ', ADRGUARD_NO_CACHE set'}\n")
    print("| repository | records | tracked files | A wall s | B wall s | B/A wall | A CPU s "
          "| B CPU s |")
    print("|---|--:|--:|--:|--:|--:|--:|--:|")
    for repo in args.repos:
        _, _, first_a = run(args.python, repo)
        _, _, first_b = run(args.compare, repo)
        if first_a.get("findings") != first_b.get("findings"):
            raise SystemExit(f"error: A and B report different findings in {repo}")
        walls: dict[str, list[float]] = {"a": [], "b": []}
        cpus: dict[str, list[float]] = {"a": [], "b": []}
        ratios: list[float] = []
        for _ in range(args.repeat):
            wa, ca, _ = run(args.python, repo)
            wb, cb, _ = run(args.compare, repo)
            walls["a"].append(wa)
            walls["b"].append(wb)
            cpus["a"].append(ca)
            cpus["b"].append(cb)
            ratios.append(wb / wa)
        summary = first_b.get("summary")
        records = summary.get("decisions", "?") if isinstance(summary, dict) else "?"
        scanned = _tracked(repo)
        print(f"| {repo.name} | {records} | {scanned} | {statistics.median(walls['a']):.3f} | "
              f"{statistics.median(walls['b']):.3f} | {statistics.median(ratios):.2f} | "
              f"{statistics.median(cpus['a']):.3f} | {statistics.median(cpus['b']):.3f} |")
    return 0


def _tracked(repo: Path) -> str:
    """How many files git tracks in ``repo`` ("?" outside a work tree)."""
    done = subprocess.run(["git", "ls-files", "-z"], cwd=repo, capture_output=True, check=False)
    return f"{done.stdout.count(0):,}" if done.returncode == 0 else "?"


if __name__ == "__main__":
    sys.exit(main())
