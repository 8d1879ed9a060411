"""Time adrguard as whole processes over generated corpora and print a Markdown table.

    /work/venv/bin/python benchmarks/run.py                       # sizes 100,1000,10000
    python benchmarks/run.py --sizes 100,1000,10000,50000 --repeat 7 --out benchmarks/RESULTS.md
    python benchmarks/run.py --compare OLD/bin/python NEW/bin/python --sizes 1000
    python benchmarks/run.py --peer /tmp/adrcheck-venv/bin/adr-check --sizes 100,1000,10000

Each command runs as ``PYTHON -m adrguard ...`` in the corpus directory after one untimed warm-up
run. Wall time is measured around the child; CPU time (user + sys) and peak RSS come from
``os.wait4`` for that child alone. A command the installed adrguard does not have yet (argparse
"invalid choice") is reported as "n/a (command not available)" instead of failing the run.
The floor is a Python process that only reads and hashes every record of the corpus.

``--peer ADR_CHECK`` times ``check`` (cold, warm, one record edited) against adr-check pair by
pair and prints the CPU and wall ratios adrguard / adr-check.

``--compare A B`` runs the same commands with two interpreters (two venvs holding different
adrguard versions), interleaved pairwise (A B, B A, ...), and reports the ratio B/A per pair and
its median, so machine noise cancels. Corpora are generated once under ``--work-dir`` and reused.
This script never imports adrguard.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from generate import FITNESS, GENERATOR_VERSION, MANIFEST
from report import (
    CHECK_COLD,
    CHECK_EDIT,
    CHECK_WARM,
    FLOOR,
    HOOK,
    IMPACT,
    Result,
    Sample,
    compare_table,
    fmt_s,
    format_table,
    machine_description,
    median,
    results_table,
    targets_section,
)

HERE = Path(__file__).resolve().parent

LEGACY_CACHE_DIR = ".adrguard_cache"  # where versions before issue 16 kept their caches
TIMEOUT = 900.0
FLOOR_CODE = """\
import hashlib, os, sys
n = 0
for root in sys.argv[1:]:
    for folder, _dirs, files in os.walk(root):
        for name in files:
            if name.endswith(".md"):
                with open(os.path.join(folder, name), "rb") as fh:
                    hashlib.sha256(fh.read()).hexdigest()
                n += 1
print(n)
"""


@dataclass(frozen=True)
class Command:
    label: str
    args: tuple[str, ...]  # after ``-m adrguard``; {sample_path} and {staged} are filled in
    cold_cache: bool = False  # remove the record cache before every run
    edit: bool = False  # change one record before every run (every other record cached)
    stage: bool = False  # ... and stage it (``git add``), as before a commit


COMMANDS: tuple[Command, ...] = (
    Command("start-up (--version)", ("--version",)),
    Command(CHECK_COLD, ("check",), cold_cache=True),
    Command(CHECK_WARM, ("check",)),
    Command(CHECK_EDIT, ("check",), edit=True),
    Command(HOOK, ("check", "--hook", "{staged}"), edit=True, stage=True),
    Command("index --check", ("index", "--check")),
    Command("graph --format json", ("graph", "--format", "json")),
    Command(IMPACT, ("impact", "--base", "HEAD~1")),
    Command("find", ("find", "--paths", "{sample_path}", "--topic", "postgresql order storage")),
    Command("compaction --format json", ("compaction", "--format", "json")),
    Command("verify", ("verify", "--rules", FITNESS)),
)
SHORT_NAMES = {"startup": 0, "check": 1, "check-warm": 2, "check-edit": 3, "hook": 4, "index": 5,
               "graph": 6, "impact": 7, "find": 8, "compaction": 9, "verify": 10}


def cache_of(folder: Path) -> Path:
    """The record cache a run in ``folder`` uses (``ADRGUARD_CACHE_DIR``): beside the corpus,
    never inside it, and one per corpus copy, so two versions never share entries."""
    return folder.with_name(f"{folder.name}.cache")


def run_once(argv: Sequence[str], cwd: Path, timeout: float = TIMEOUT) -> Sample:
    """Run one child to completion; wall from the parent, CPU and RSS from wait4."""
    # Bytecode is written (as a pip install does), so the warm-up run leaves __pycache__ behind.
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONDONTWRITEBYTECODE", "ADRGUARD_NO_CACHE")}
    env.update({"NO_COLOR": "1", "PYTHONUNBUFFERED": "0",
                "ADRGUARD_CACHE_DIR": str(cache_of(cwd))})
    with tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(argv, cwd=cwd, stdout=subprocess.DEVNULL, stderr=err, env=env)
        timer = threading.Timer(timeout, proc.kill)
        timer.start()
        try:
            _pid, status, usage = os.wait4(proc.pid, 0)
        finally:
            timer.cancel()
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        text = err.read().decode("utf-8", "replace")
    return Sample(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss, proc.returncode, text)


def unavailable(sample: Sample, command: str) -> str | None:
    """Why a warm-up run cannot be timed, or None when it ran (exit 0 or 1)."""
    if sample.exit_code in (0, 1):
        return None
    first = next((ln.strip() for ln in sample.stderr.splitlines() if "error" in ln), "")
    if sample.exit_code == 2 and f"invalid choice: '{command}'" in sample.stderr:
        return "n/a (command not available)"
    if sample.exit_code == 2:
        return f"n/a (usage or environment error: {first[:120]})"
    return f"failed (exit {sample.exit_code}: {first[:120]})"


def command_argv(python: str, cmd: Command, corpus: dict[str, object],
                 folder: Path | None = None) -> list[str]:
    git = corpus.get("git") or {}
    sample_path = str(git.get("sample_code_path", "")) if isinstance(git, dict) else ""
    staged = edit_target(folder).relative_to(folder).as_posix() if cmd.stage and folder else ""
    return [python, "-m", "adrguard",
            *(a.format(sample_path=sample_path, staged=staged) for a in cmd.args)]


def floor_argv(python: str, corpus: dict[str, object]) -> list[str]:
    roots = corpus.get("roots")
    return [python, "-c", FLOOR_CODE, *(str(r) for r in roots)] if isinstance(roots, list) else [
        python, "-c", FLOOR_CODE, "."]


def clear_cache(folder: Path) -> None:
    """Remove the record cache of runs in ``folder`` (and an older version's in-tree cache)."""
    shutil.rmtree(cache_of(folder), ignore_errors=True)
    shutil.rmtree(folder / LEGACY_CACHE_DIR, ignore_errors=True)


def cache_state(folder: Path) -> frozenset[tuple[str, int, int]]:
    """Names, sizes and mtimes of adrguard's cache files: if a warm run changes them, it missed."""
    found: set[tuple[str, int, int]] = set()
    for top in (cache_of(folder), folder / LEGACY_CACHE_DIR):
        for base, _dirs, files in os.walk(top):
            for name in files:
                st = os.stat(os.path.join(base, name))
                found.add((os.path.join(base, name), st.st_size, st.st_mtime_ns))
    return frozenset(found)


def ensure_corpus(work_dir: Path, size: int, seed: int,
                  fresh: bool) -> tuple[Path, dict[str, object]]:
    """Generate (or reuse) the git corpus of ``size`` records; returns its folder and manifest."""
    folder = work_dir / f"{size}-seed{seed}"
    manifest_path = folder / MANIFEST
    if manifest_path.is_file() and not fresh:
        data: dict[str, object] = json.loads(manifest_path.read_text(encoding="utf-8"))
        if data.get("generator") == GENERATOR_VERSION and data.get("git"):
            return folder, data
    print(f"generating {size} records in {folder} ...", file=sys.stderr, flush=True)
    subprocess.run(
        [sys.executable, str(HERE / "generate.py"), "--size", str(size), "--seed", str(seed),
         "--out", str(folder), "--git", "--force"],
        check=True,
    )
    return folder, json.loads(manifest_path.read_text(encoding="utf-8"))


def edit_target(folder: Path) -> Path:
    """The record the "one record edited" row changes: the first one of the first root."""
    for path in sorted((folder / "docs" / "adr").glob("*.md")):
        if path.name[:1].isdigit():
            return path
    raise SystemExit(f"error: no numbered record in {folder / 'docs' / 'adr'} to edit")


def edit_record(path: Path, original: bytes, n: int, stage: bool = False) -> None:
    """Give the record bytes no earlier run saw (the original plus ``n`` blank lines), so the
    record cache misses on that record alone; with ``stage``, ``git add`` it as before a commit.
    (Toggling between two versions would hit the cache from the third run on.)"""
    path.write_bytes(original + b"\n" * n)
    if stage:
        subprocess.run(["git", "add", "--", path.name], cwd=path.parent, check=True)


def restore_record(path: Path, original: bytes, stage: bool) -> None:
    path.write_bytes(original)
    if stage:  # the index back to HEAD's version
        subprocess.run(["git", "reset", "-q", "--", path.name], cwd=path.parent, check=True)


def time_command(argv: list[str], folder: Path, repeat: int, cold: bool, name: str,
                 label: str, size: int, budget: float | None = None,
                 edit: bool = False, stage: bool = False) -> Result:
    result = Result(label, size)
    clear_cache(folder)
    target = edit_target(folder) if edit else None
    original = target.read_bytes() if target else b""
    try:
        return _time_runs(result, argv, folder, repeat, cold, name, budget, target, original,
                          stage)
    finally:
        if target is not None:
            restore_record(target, original, stage)


def _time_runs(result: Result, argv: list[str], folder: Path, repeat: int, cold: bool,
               name: str, budget: float | None, target: Path | None, original: bytes,
               stage: bool = False) -> Result:
    if target is not None:  # the warm-up fills the cache with every record, this edit included
        edit_record(target, original, 1, stage)
    warm = run_once(argv, folder)
    result.note = unavailable(warm, name)
    if result.note:
        return result
    for i in range(repeat):
        if cold:
            clear_cache(folder)
        if target is not None:
            edit_record(target, original, i + 2, stage)
        before = cache_state(folder)
        sample = run_once(argv, folder)
        if not cold and target is None and before and cache_state(folder) != before:
            result.note = "cache rebuilt during a timed run (cache key changed?): not a warm run"
        if sample.exit_code != warm.exit_code:  # a timed run must do what the warm-up did
            why = unavailable(sample, name) or f"exit {sample.exit_code}"
            result.note = f"discarded: a timed run ended differently from the warm-up ({why})"
            result.samples.clear()
            return result
        result.samples.append(sample)
        if budget is not None and sum(s.wall for s in result.samples) >= budget:
            break
    return result


def selected(names: str | None) -> list[Command]:
    if not names:
        return list(COMMANDS)
    out = []
    for name in (n.strip() for n in names.split(",")):
        if name == "floor":
            continue
        if name not in SHORT_NAMES:
            known = ", ".join([*SHORT_NAMES, "floor"])
            raise SystemExit(f"error: unknown command {name!r}: use {known}")
        out.append(COMMANDS[SHORT_NAMES[name]])
    return out


# ---------------------------------------------------------------- main


def run_single(python: str, sizes: Sequence[int], commands: Sequence[Command], floor: bool,
               repeat: int, work_dir: Path, seed: int, fresh: bool,
               budget: float | None = None) -> list[Result]:
    results: list[Result] = []
    for size in sizes:
        folder, corpus = ensure_corpus(work_dir, size, seed, fresh)
        jobs = [(FLOOR, floor_argv(python, corpus), False, "", False, False)] if floor else []
        jobs += [(c.label, command_argv(python, c, corpus, folder), c.cold_cache, c.args[0],
                  c.edit, c.stage) for c in commands]
        for label, argv, cold, name, edit, stage in jobs:
            print(f"  {size:>6} {label} ...", file=sys.stderr, flush=True)
            results.append(
                time_command(argv, folder, repeat, cold, name, label, size, budget, edit, stage))
        clear_cache(folder)
    return results


def side_folder(folder: Path, side: str) -> Path:
    """A copy of the corpus for one side of a comparison. Each version keeps its own cache
    (:func:`cache_of` the copy): two versions sharing one would evict each other's entries, and
    every "warm" run would time a miss."""
    copy = folder.with_name(f"{folder.name}-compare-{side}")
    stamp = (folder / MANIFEST).read_bytes()
    if not (copy / MANIFEST).is_file() or (copy / MANIFEST).read_bytes() != stamp:
        shutil.rmtree(copy, ignore_errors=True)
        shutil.copytree(folder, copy, symlinks=True,
                        ignore=shutil.ignore_patterns(LEGACY_CACHE_DIR))
    return copy


def run_compare(pythons: Sequence[str], sizes: Sequence[int], commands: Sequence[Command],
                repeat: int, work_dir: Path, seed: int, fresh: bool) -> str:
    pairs: dict[tuple[str, int], list[tuple[float, float]]] = {}
    cpu: dict[tuple[str, int], list[tuple[float, float]]] = {}
    notes: dict[tuple[str, int], str] = {}
    for size in sizes:
        folder, corpus = ensure_corpus(work_dir, size, seed, fresh)
        folders = [side_folder(folder, side) for side in "AB"]
        for cmd in commands:
            key = (cmd.label, size)
            pairs[key], cpu[key] = [], []
            argvs = [command_argv(p, cmd, corpus, f) for p, f in zip(pythons, folders, strict=True)]
            print(f"  {size:>6} {cmd.label} (A/B) ...", file=sys.stderr, flush=True)
            for f in folders:
                clear_cache(f)
            why = [unavailable(run_once(a, f), cmd.args[0])
                   for a, f in zip(argvs, folders, strict=True)]
            if any(why):
                notes[key] = "; ".join(f"{t}: {w}" for t, w in zip("AB", why, strict=True) if w)
                continue
            targets = [edit_target(f) for f in folders] if cmd.edit else []
            originals = [t.read_bytes() for t in targets]
            try:
                for target, original, argv, f in zip(targets, originals, argvs, folders,
                                                      strict=False):
                    edit_record(target, original, 1, cmd.stage)  # cached by a warm-up
                    run_once(argv, f)
                _compare_runs(pairs[key], cpu[key], argvs, folders, repeat, cmd, targets,
                              originals)
            finally:
                for target, original in zip(targets, originals, strict=True):
                    restore_record(target, original, cmd.stage)
        for f in folders:
            clear_cache(f)
    return compare_table(pairs, notes, cpu)


def _compare_runs(pairs: list[tuple[float, float]], cpu: list[tuple[float, float]],
                  argvs: list[list[str]], folders: list[Path], repeat: int, cmd: Command,
                  targets: list[Path], originals: list[bytes]) -> None:
    for i in range(repeat):
        order = (0, 1) if i % 2 == 0 else (1, 0)
        samples = [Sample(0.0, 0.0, 0, 0), Sample(0.0, 0.0, 0, 0)]
        for k in order:
            if cmd.cold_cache:
                clear_cache(folders[k])
            if targets:
                edit_record(targets[k], originals[k], i + 2, cmd.stage)
            samples[k] = run_once(argvs[k], folders[k])
        pairs.append((samples[0].wall, samples[1].wall))
        cpu.append((samples[0].cpu, samples[1].cpu))


PEER_ROWS = (CHECK_COLD, CHECK_WARM, CHECK_EDIT)


def run_peer(python: str, peer: str, sizes: Sequence[int], repeat: int, work_dir: Path,
             seed: int, fresh: bool, every_root: bool = False) -> str:
    """adrguard's check (cold, warm, one record edited) against a peer checker (adr-check, run
    as ``PEER --mode local`` in the corpus: it reads ``docs/adr``), pair by pair, alternating
    which one runs first. Ratios are adrguard / peer per pair, then the median; below 1 means
    adrguard is faster. The tools do not check the same things (adr-check runs its own small
    rule set on one folder, adrguard its whole catalogue on every root): this is what a user
    pays for one run of each, not equal work. With ``every_root`` the peer runs once per root
    of the corpus (``--adr-dir ROOT``) and its side of a pair is the sum of those runs, so both
    tools read every record."""
    rows: list[list[str]] = []
    for size in sizes:
        folder, corpus = ensure_corpus(work_dir, size, seed, fresh)
        roots = corpus.get("roots")
        peer_argv = [[peer, "--mode", "local", "--adr-dir", str(root)] for root in roots] if (
            every_root and isinstance(roots, list)) else [[peer, "--mode", "local"]]
        for label in PEER_ROWS:
            cmd = next(c for c in COMMANDS if c.label == label)
            print(f"  {size:>6} {label} vs peer ...", file=sys.stderr, flush=True)
            ours = command_argv(python, cmd, corpus, folder)
            target = edit_target(folder) if cmd.edit else None
            original = target.read_bytes() if target else b""
            try:
                pairs = _peer_pairs(ours, peer_argv, folder, repeat, cmd, target, original)
            finally:
                if target is not None:
                    restore_record(target, original, False)
            rows.append(_peer_row(label, size, pairs))
        clear_cache(folder)
    headers = ["adrguard", "records", "adrguard CPU (s)", "adr-check CPU (s)",
               "CPU ratio", "adrguard wall (s)", "adr-check wall (s)", "wall ratio",
               "adrguard peak RSS (MB)", "pairs"]
    return format_table(headers, rows, [False, *[True] * 9])


def run_each(argvs: Sequence[Sequence[str]], cwd: Path) -> Sample:
    """Run the commands one after another; one sample: wall and CPU summed, the peak RSS and
    the worst exit code of any of them."""
    return combined([run_once(argv, cwd) for argv in argvs])


def combined(samples: Sequence[Sample]) -> Sample:
    """Several runs as one: wall and CPU summed, the largest peak RSS, the worst exit code,
    the error output in order."""
    return Sample(sum(s.wall for s in samples), sum(s.cpu for s in samples),
                  max(s.rss_kb for s in samples), max(s.exit_code for s in samples),
                  "".join(s.stderr for s in samples))


def _peer_pairs(ours: list[str], peer: list[list[str]], folder: Path, repeat: int, cmd: Command,
                target: Path | None, original: bytes) -> list[tuple[Sample, Sample]]:
    clear_cache(folder)
    if target is not None:
        edit_record(target, original, 1)
    for argvs in ([ours], peer):  # untimed warm-ups: page cache, __pycache__, record cache
        sample = run_each(argvs, folder)
        if sample.exit_code not in (0, 1):
            raise SystemExit(f"{argvs[0][0]} failed in {folder} (exit {sample.exit_code}): "
                             f"{sample.stderr.strip()[:200]}")
    pairs: list[tuple[Sample, Sample]] = []
    for i in range(repeat):
        got: dict[str, Sample] = {}
        for side in (("ours", "peer") if i % 2 == 0 else ("peer", "ours")):
            if side == "ours":
                if cmd.cold_cache:
                    clear_cache(folder)
                if target is not None:
                    edit_record(target, original, i + 2)
            got[side] = run_once(ours, folder) if side == "ours" else run_each(peer, folder)
        pairs.append((got["ours"], got["peer"]))
    return pairs


def _peer_row(label: str, size: int, pairs: list[tuple[Sample, Sample]]) -> list[str]:
    def med(values: Sequence[float]) -> float:
        return median(list(values))

    return [label, f"{size:,}", fmt_s(med([a.cpu for a, _ in pairs])),
            fmt_s(med([b.cpu for _, b in pairs])),
            f"{med([a.cpu / b.cpu for a, b in pairs if b.cpu > 0]):.2f}×",
            fmt_s(med([a.wall for a, _ in pairs])), fmt_s(med([b.wall for _, b in pairs])),
            f"{med([a.wall / b.wall for a, b in pairs]):.2f}×",
            f"{max(a.rss_kb for a, _ in pairs) / 1024:.0f}", str(len(pairs))]


def parse_sizes(text: str) -> list[int]:
    try:
        sizes = [int(s.replace("_", "")) for s in text.split(",") if s.strip()]
    except ValueError:
        raise SystemExit(f"error: --sizes wants comma-separated numbers, not {text!r}") from None
    if not sizes or min(sizes) < 1:
        raise SystemExit("error: --sizes needs at least one positive size")
    return sizes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--sizes", default="100,1000,10000",
                        help="corpus sizes, comma separated (default 100,1000,10000; 50000 too)")
    parser.add_argument("--repeat", type=int, default=5, help="timed runs per command (default 5)")
    parser.add_argument("--out", type=Path, help="also write the Markdown report to this file")
    parser.add_argument("--python", default=sys.executable,
                        help="interpreter whose adrguard is timed (default: this one)")
    parser.add_argument("--compare", nargs=2, metavar=("PYTHON_A", "PYTHON_B"),
                        help="compare two interpreters/venvs pairwise (ratio B/A)")
    parser.add_argument("--peer", metavar="ADR_CHECK",
                        help="time check against this adr-check executable and print ratios")
    parser.add_argument("--peer-every-root", action="store_true",
                        help="with --peer: run adr-check once per root of the corpus (--adr-dir) "
                             "and sum, so both tools read every record")
    parser.add_argument("--commands", help=f"subset: {', '.join(SHORT_NAMES)}, floor")
    parser.add_argument("--work-dir", type=Path,
                        default=Path(tempfile.gettempdir()) / "adrguard-bench",
                        help="where corpora are generated and kept (default /tmp/adrguard-bench)")
    parser.add_argument("--budget", type=float, metavar="SECONDS",
                        help="stop repeating a cell once its timed runs took this long (min 1 run)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--fresh", action="store_true", help="regenerate the corpora")
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    sizes = parse_sizes(args.sizes)
    commands = selected(args.commands)
    floor = not args.commands or "floor" in args.commands.split(",")
    invoked = "python benchmarks/run.py " + " ".join(sys.argv[1:] if argv is None else argv)
    today = dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
    pythons = list(args.compare) if args.compare else [args.python]
    load_start = " / ".join(f"{x:.2f}" for x in os.getloadavg())
    parts = ["# adrguard benchmarks", "",
             f"`{invoked.strip()}` — {today}, {args.repeat} timed runs per cell after one "
             "untimed warm-up; corpora from `benchmarks/generate.py --git` (seed "
             f"{args.seed}).", "", "## Machine", "", machine_description(pythons)]
    if args.peer:
        title = "## Against adr-check (pairs interleaved; CPU = user + sys of each process)"
        if args.peer_every_root:
            title += "; adr-check once per root, summed"
        parts += [title, "", run_peer(args.python, args.peer, sizes, args.repeat, args.work_dir,
                                      args.seed, args.fresh, args.peer_every_root)]
    elif args.compare:
        parts += ["## Comparison (B/A wall time, pairs interleaved A B, B A, ...)", "",
                  run_compare(pythons, sizes, commands, args.repeat, args.work_dir, args.seed,
                              args.fresh)]
    else:
        results = run_single(args.python, sizes, commands, floor, args.repeat, args.work_dir,
                             args.seed, args.fresh, args.budget)
        parts += ["## Results", "", results_table(results), "## Targets", "",
                  targets_section(results)]
    load = " / ".join(f"{x:.2f}" for x in os.getloadavg())
    parts[parts.index("## Machine") + 2] += (
        f"- load average (1/5/15 min) at start: {load_start}; at the end: {load}\n"
        "  (other work on the machine inflates wall times; CPU times suffer less)\n")
    text = "\n".join(parts)
    sys.stdout.write(text)
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
