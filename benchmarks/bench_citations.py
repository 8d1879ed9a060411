"""The citation scan at scale: a git repository of 10,000 tracked files (100 MB) and a log.

    python benchmarks/bench_citations.py [--files 10000] [--megabytes 100] [--repeat 5]

Generates (once, under ``--work-dir``, default ``/tmp/adrguard-bench``) a repository with a log
of 50 records and ``--files`` code files and documents of equal size (Python, TypeScript, Go,
YAML, Markdown) whose comments and prose cite decisions now and then, and commits it. Then it
times whole processes, ``PYTHON -m adrguard citations --format json``, from the repository:

* cold: the cache folder removed before every run (every file is read and scanned);
* warm: the cache left in place (every file is read and hashed; none is scanned again);
* ``--no-cache``: no cache at all.

Prints the best and median wall time of each row (after one untimed warm-up run) and the
number of citations found (the same in every row: the cache never changes a result); then the
scan alone, in this process (wall and CPU time: CPU is steadier on a shared machine).
Targets (issue 19): cold <= 2 s and warm <= 0.3 s of scan time at 10,000 files / 100 MB.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"
RECORDS = 50

LINES = {
    "py": ("x{n} = compute({n})  # value {n}", "# Retries follow ADR-{id:04d}."),
    "ts": ("export const v{n} = f({n}); // value {n}", "// Per ADR-{id:04d} we cache here."),
    "go": ("var v{n} = f({n}) // value {n}", "// See docs/adr/{id:04d}-decision-{id}.md"),
    "yaml": ("key{n}: value-{n}  # setting {n}", "# sized per ADR {id}"),
    "md": ("Paragraph {n} explains the module in plain words.", "As ADR-{id:04d} decided, ..."),
}


def _record(n: int) -> str:
    status = "Superseded by ADR-0001" if n % 10 == 0 else "Accepted"
    return f"# {n}. Decision {n}\n\nDate: 2024-01-01\n\n## Status\n\n{status}\n\n## Context\n\nC.\n"


def _file(ext: str, size: int, rng: random.Random) -> str:
    plain, cite = LINES[ext]
    out: list[str] = []
    total = 0
    n = 0
    while total < size:
        n += 1
        line = cite.format(id=rng.randrange(1, RECORDS + 5)) if rng.random() < 0.002 else (
            plain.format(n=n))
        out.append(line)
        total += len(line) + 1
    return "\n".join(out) + "\n"


def ensure_repo(work: Path, files: int, megabytes: int) -> Path:
    repo = work / f"citations-{files}-{megabytes}mb"
    if (repo / ".git").is_dir():
        return repo
    shutil.rmtree(repo, ignore_errors=True)
    rng = random.Random(1)
    (repo / "docs" / "adr").mkdir(parents=True)
    for n in range(1, RECORDS + 1):
        (repo / "docs" / "adr" / f"{n:04d}-decision-{n}.md").write_text(_record(n))
    size = megabytes * 1_000_000 // files
    exts = sorted(LINES)
    for i in range(files):
        ext = exts[i % len(exts)]
        target = repo / "src" / f"pkg{i // 200:03d}" / f"mod{i:05d}.{ext}"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(_file(ext, size, rng))
    env = {**os.environ, "GIT_AUTHOR_NAME": "bench", "GIT_AUTHOR_EMAIL": "b@example.invalid",
           "GIT_COMMITTER_NAME": "bench", "GIT_COMMITTER_EMAIL": "b@example.invalid"}
    for args in (["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-qm", "corpus"]):
        subprocess.run(["git", *args], cwd=repo, env=env, check=True)
    return repo


def _run(python: str, repo: Path, cache: Path, extra: list[str]) -> tuple[float, int]:
    env = {**os.environ, "ADRGUARD_CACHE_DIR": str(cache),
           "PYTHONPATH": os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")])}
    env.pop("ADRGUARD_NO_CACHE", None)
    start = time.perf_counter()
    done = subprocess.run([python, "-m", "adrguard", "citations", "--format", "json", *extra],
                          cwd=repo, env=env, capture_output=True, check=False)
    took = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"adrguard failed ({done.returncode}): {done.stderr.decode()[:500]}")
    return took, int(json.loads(done.stdout)["total"])


def time_row(python: str, repo: Path, repeat: int, mode: str) -> tuple[list[float], int]:
    cache = repo.parent / (repo.name + ".cache")
    extra = ["--no-cache"] if mode == "no-cache" else []
    if mode == "cold":
        shutil.rmtree(cache, ignore_errors=True)
    _run(python, repo, cache, extra)  # warm-up: page cache, __pycache__ (and the cache: warm)
    times: list[float] = []
    total = 0
    for _ in range(repeat):
        if mode == "cold":
            shutil.rmtree(cache, ignore_errors=True)
        took, total = _run(python, repo, cache, extra)
        times.append(took)
    return times, total


def scan_in_process(repo: Path, repeat: int) -> list[tuple[str, list[float], list[float], int]]:
    """The scan alone, in this process (``api.citations.scan_found`` after discovery and the
    records): wall and CPU seconds, cold (an empty cache folder each run) and warm."""
    sys.path.insert(0, str(SRC))
    from adrguard.adapters.cache.store import open_store
    from adrguard.adapters.source import WorkTree
    from adrguard.api.pipeline.citation_scan import ASKED, scan_found
    from adrguard.api.pipeline.corpus import corpus_of
    from adrguard.config import load_config

    cache = repo.parent / (repo.name + ".inproc-cache")
    os.environ["ADRGUARD_CACHE_DIR"] = str(cache)
    os.environ.pop("ADRGUARD_NO_CACHE", None)
    config = load_config(repo)
    rows = []
    for mode in ("cold", "warm"):
        walls: list[float] = []
        cpus: list[float] = []
        total = 0
        for i in range(repeat + (1 if mode == "warm" else 0)):
            if mode == "cold":
                shutil.rmtree(cache, ignore_errors=True)
            store = open_store(config, repo)
            found = WorkTree(repo, untracked=True).discover(config, store)
            corpus = corpus_of(found, config, store, place=repo)
            wall, cpu = time.perf_counter(), time.process_time()
            got = scan_found(found, config, corpus, store, repo, ASKED)
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            if store is not None:
                store.close()
            total = sum(len(f.citations) for f in got.files) if got is not None else 0
            if mode == "cold" or i > 0:  # warm: the first run fills the cache
                walls.append(wall)
                cpus.append(cpu)
        rows.append((mode, walls, cpus, total))
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--files", type=int, default=10_000)
    parser.add_argument("--megabytes", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--python", default=sys.executable)
    parser.add_argument("--work-dir", type=Path, default=Path("/tmp/adrguard-bench"))
    args = parser.parse_args(argv)
    repo = ensure_repo(args.work_dir, args.files, args.megabytes)
    empty = ensure_repo(args.work_dir, 1, 1)  # the same log, one file: the command's own cost
    rows: list[tuple[str, list[float], int]] = []
    base, _ = time_row(args.python, empty, args.repeat, "warm")
    rows.append(("log only, 1 file (start-up, git, records)", base, 0))
    for mode in ("cold", "warm", "no-cache"):
        times, total = time_row(args.python, repo, args.repeat, mode)
        rows.append((f"{args.files:,} files / {args.megabytes} MB, {mode}", times, total))
    floor = statistics.median(base)
    print("Whole processes (`adrguard citations --format json`):\n")
    print("| run | best s | median s | scan only (median - log only) s | citations |")
    print("|---|---|---|---|---|")
    for name, times, total in rows:
        med = statistics.median(times)
        print(f"| {name} | {min(times):.3f} | {med:.3f} | {med - floor:.3f} | {total:,} |")
    print("\nThe scan alone, in process (`api.citations.scan_found`):\n")
    print("| scan | best wall s | median wall s | best CPU s | median CPU s | citations |")
    print("|---|---|---|---|---|---|")
    for mode, walls, cpus, total in scan_in_process(repo, args.repeat):
        print(f"| {args.files:,} files / {args.megabytes} MB, {mode} | {min(walls):.3f} | "
              f"{statistics.median(walls):.3f} | {min(cpus):.3f} | {statistics.median(cpus):.3f} "
              f"| {total:,} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
