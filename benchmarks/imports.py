"""The import budget of a run: the sum of the self times ``python -X importtime`` reports.

    python benchmarks/imports.py /tmp/adrguard-bench/100-seed1
    python benchmarks/imports.py FOLDER --python OLD/bin/python NEW/bin/python --repeat 7
    python benchmarks/imports.py FOLDER --commands check --top 15

Each command runs as ``PYTHON -X importtime -m adrguard ...`` in ``FOLDER`` (a git work tree)
after one untimed warm-up run (bytecode and the record cache written), as ``run.py`` does:
``check`` is the warm check, ``hook`` the pre-commit hook with one record edited and staged
(``check --hook PATH``). Every ``import time:`` line's self time is summed over the modules
the run imports (the interpreter's own start-up modules included); the table gives the median
of ``--repeat`` runs per interpreter, with the smallest and the largest, and ``--top`` the
modules that cost most in the median run. With several interpreters the runs interleave
(A B, B A, ...), so machine noise falls on both. Issue 30's budget for ``check``: 60 ms.
This script never imports adrguard.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from report import median
from run import cache_of, edit_record, edit_target, restore_record

COMMANDS = {"check": ("check",), "hook": ("check", "--hook", "{staged}")}
BUDGET_MS = {"check": 60.0}


def self_times(stderr: str) -> dict[str, int]:
    """Module -> self time in microseconds, from ``-X importtime`` lines."""
    out: dict[str, int] = {}
    for line in stderr.splitlines():
        if not line.startswith("import time:") or "self [us]" in line:
            continue
        fields = line[len("import time:"):].split("|")
        if len(fields) == 3 and fields[0].strip().isdigit():
            name = fields[2].strip()
            out[name] = out.get(name, 0) + int(fields[0])
    return out


def run_once(python: str, args: list[str], folder: Path) -> dict[str, int]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONDONTWRITEBYTECODE", "ADRGUARD_NO_CACHE")}
    env.update({"NO_COLOR": "1", "ADRGUARD_CACHE_DIR": str(cache_of(folder))})
    proc = subprocess.run([python, "-X", "importtime", "-m", "adrguard", *args], cwd=folder,
                          env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          text=True, check=False)
    if proc.returncode not in (0, 1):
        raise SystemExit(f"error: {python} -m adrguard {' '.join(args)} exited "
                         f"{proc.returncode}:\n{proc.stderr[-2000:]}")
    return self_times(proc.stderr)


def measure(pythons: list[str], name: str, folder: Path, repeat: int
            ) -> dict[str, list[dict[str, int]]]:
    """Per interpreter, ``repeat`` runs' self times (after one warm-up each), interleaved."""
    target = edit_target(folder) if name == "hook" else None
    staged = target.relative_to(folder).as_posix() if target else ""
    args = [a.format(staged=staged) for a in COMMANDS[name]]
    original = target.read_bytes() if target else b""
    runs: dict[str, list[dict[str, int]]] = {p: [] for p in pythons}
    try:
        if target:
            edit_record(target, original, 1, stage=True)
        for python in pythons:
            run_once(python, args, folder)  # warm-up: bytecode, record cache
        for i in range(repeat):
            order = pythons if i % 2 == 0 else pythons[::-1]
            for python in order:
                runs[python].append(run_once(python, args, folder))
    finally:
        if target:
            restore_record(target, original, stage=True)
    return runs


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folder", type=Path, help="a git work tree holding decision records")
    ap.add_argument("--python", nargs="+", default=[sys.executable],
                    help="interpreters (venvs) to compare (default: this one)")
    ap.add_argument("--commands", default="check,hook", help="check, hook (comma-separated)")
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--top", type=int, default=0, help="list the N dearest modules")
    args = ap.parse_args(argv)
    folder = args.folder.resolve()
    names = [n for n in args.commands.split(",") if n]
    unknown = [n for n in names if n not in COMMANDS]
    if unknown:
        ap.error(f"unknown command(s) {', '.join(unknown)}: choose from {', '.join(COMMANDS)}")
    print(f"Import self time (`-X importtime`), {folder}, median of {args.repeat} warm runs\n")
    print("| command | python | median | min | max | modules | budget |")
    print("|---|---|---:|---:|---:|---:|---|")
    dearest: list[str] = []
    for name in names:
        runs = measure(args.python, name, folder, args.repeat)
        for python in args.python:
            sums = sorted(sum(r.values()) / 1000 for r in runs[python])
            mid = median(sums)
            budget = BUDGET_MS.get(name)
            verdict = "" if budget is None else (
                f"{'within' if mid <= budget else 'over'} {budget:.0f} ms")
            modules = len(runs[python][0]) if runs[python] else 0
            print(f"| {name} | {python} | {mid:.1f} ms | {sums[0]:.1f} ms | {sums[-1]:.1f} ms "
                  f"| {modules} | {verdict} |")
            if args.top:
                typical = min(runs[python], key=lambda r: abs(sum(r.values()) / 1000 - mid))
                top = sorted(typical.items(), key=lambda kv: -kv[1])[:args.top]
                dearest.append(f"\n{name}, {python}: " + ", ".join(
                    f"{mod} {us / 1000:.1f}" for mod, us in top))
    for line in dearest:
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
