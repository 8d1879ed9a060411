"""Statistics and Markdown for benchmarks/run.py: samples, medians, tables, the machine.

Never imports adrguard.
"""

from __future__ import annotations

import os
import platform
import statistics
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

FLOOR = "floor (read + sha256)"
CHECK_COLD = "check (cold cache)"
CHECK_WARM = "check (warm cache)"
CHECK_EDIT = "check (one record edited)"
IMPACT = "impact --base HEAD~1"
HOOK = "hook: check --hook, one record staged"


@dataclass(frozen=True)
class Sample:
    wall: float  # seconds
    cpu: float  # user + sys seconds of the child
    rss_kb: int  # peak resident set of the child (ru_maxrss, KiB on Linux)
    exit_code: int
    stderr: str = ""


@dataclass
class Result:
    label: str
    size: int
    samples: list[Sample] = field(default_factory=list)
    note: str | None = None  # "n/a (...)" when the command could not be timed

    @property
    def wall(self) -> float:
        return median([s.wall for s in self.samples])

    @property
    def cpu(self) -> float:
        return median([s.cpu for s in self.samples])

    @property
    def rss_mb(self) -> float:
        return max(s.rss_kb for s in self.samples) / 1024


def median(values: Sequence[float]) -> float:
    if not values:
        raise ValueError("median of no values")
    return float(statistics.median(values))


def format_table(headers: Sequence[str], rows: Sequence[Sequence[str]],
                 right: Sequence[bool] | None = None) -> str:
    """A Markdown table; ``right[i]`` right-aligns column i (numbers)."""
    right = list(right) if right is not None else [False] * len(headers)
    widths = [max(len(str(c)) for c in col) for col in zip(headers, *rows, strict=False)]
    widths = [max(w, 3) for w in widths]

    def line(cells: Sequence[str]) -> str:
        triples = zip(cells, widths, right, strict=True)
        padded = [c.rjust(w) if r else c.ljust(w) for c, w, r in triples]
        return "| " + " | ".join(padded) + " |"

    rule = ["-" * (w - 1) + ":" if r else "-" * w for w, r in zip(widths, right, strict=True)]
    return "\n".join([line(headers), line(rule), *(line(r) for r in rows)]) + "\n"


def fmt_s(seconds: float) -> str:
    return f"{seconds:.3f}"


def results_table(results: Sequence[Result]) -> str:
    floors = {r.size: r.wall for r in results if r.label == FLOOR and r.samples}
    rows = []
    for r in results:
        if not r.samples:
            rows.append([r.label, f"{r.size:,}", "0", "", "", "", "", "", r.note or "n/a"])
            continue
        walls = [s.wall for s in r.samples]
        floor = floors.get(r.size)
        ratio = f"{r.wall / floor:.1f}×" if floor and r.label != FLOOR else ""
        rows.append([r.label, f"{r.size:,}", str(len(walls)), fmt_s(r.wall), fmt_s(min(walls)),
                     fmt_s(r.cpu), f"{r.rss_mb:.0f}", ratio, r.note or ""])
    headers = ["command", "records", "runs", "wall median (s)", "wall min (s)",
               "CPU median (s)", "peak RSS (MB)", "vs floor", "note"]
    return format_table(headers, rows, [False, *[True] * 7, False])


def _find(results: Sequence[Result], label: str, size: int) -> Result | None:
    return next((r for r in results if r.label == label and r.size == size and r.samples), None)


def targets_section(results: Sequence[Result]) -> str:
    """Issue 7's targets, each met / missed / not measured (judged on the median wall time; the
    median CPU time beside it shows what a busy machine added)."""
    rows: list[list[str]] = []

    def fmt(value: float | None, unit: str) -> str:
        if value is None:
            return ""
        return f"{value:.0f} MB" if unit == " MB" else f"{value:.3f}{unit}"

    def add(target: str, value: float | None, cpu: float | None, limit: float, unit: str) -> None:
        if value is None:
            rows.append([target, "not measured", "", ""])
        else:
            rows.append([target, fmt(value, unit), fmt(cpu, unit),
                         "met" if value <= limit else "missed"])

    def cell(label: str, size: int) -> tuple[float | None, float | None]:
        r = _find(results, label, size)
        return (r.wall, r.cpu) if r else (None, None)

    add("check, 10,000 records, cold cache: ≤ 1.0 s", *cell(CHECK_COLD, 10000), 1.0, " s")
    add("check, 10,000 records, warm cache: ≤ 0.35 s", *cell(CHECK_WARM, 10000), 0.35, " s")
    (big, big_cpu), (small, small_cpu) = cell(CHECK_COLD, 10000), cell(CHECK_COLD, 1000)
    add("check 10,000 ÷ check 1,000 (cold): ≤ 11×", big / small if big and small else None,
        big_cpu / small_cpu if big_cpu and small_cpu else None, 11.0, "×")
    r10k = _find(results, CHECK_COLD, 10000)
    add("check peak RSS at 10,000 records: ≤ 250 MB", r10k.rss_mb if r10k else None, None,
        250.0, " MB")
    add("check, 100 records, start-up included: ≤ 0.15 s", *cell(CHECK_COLD, 100), 0.15, " s")
    add("  … same, warm cache", *cell(CHECK_WARM, 100), 0.15, " s")
    add("  … same, one record edited since the last run", *cell(CHECK_EDIT, 100), 0.15, " s")
    add("impact, 50,000 changed paths × 2,000 mappings: ≤ 1.0 s", *cell(IMPACT, 50000), 1.0,
        " s")
    add("hook, 100 records, warm, one record staged: ≤ 0.15 s (issue 30)", *cell(HOOK, 100),
        0.15, " s")
    add("check, 1,000 records, one record edited: ≤ 0.15 s (issue 30)",
        *cell(CHECK_EDIT, 1000), 0.15, " s")
    return format_table(["target (issues 7, 30)", "wall (median)", "CPU (median)", "status"],
                        rows)


def compare_table(pairs: dict[tuple[str, int], list[tuple[float, float]]],
                  notes: dict[tuple[str, int], str],
                  cpu: dict[tuple[str, int], list[tuple[float, float]]] | None = None) -> str:
    """Wall-time ratios B/A per pair; with ``cpu``, the median CPU-time ratio too (user + sys of
    each child: far less sensitive to other work on the machine than wall time)."""
    rows = []
    all_ratios: list[float] = []
    for (label, size), values in pairs.items():
        extra = ["", "", ""] if cpu is not None else []
        if not values:
            rows.append([label, f"{size:,}", "", "", "", "", *extra, "0",
                         notes.get((label, size), "n/a")])
            continue
        ratios = [b / a for a, b in values]
        all_ratios += ratios
        if cpu is not None:
            cpu_pairs = cpu.get((label, size), [])
            cpu_ratios = [b / a for a, b in cpu_pairs if a > 0]
            extra = [f"{median(cpu_ratios):.3f}" if cpu_ratios else "",
                     fmt_s(median([a for a, _ in cpu_pairs])) if cpu_pairs else "",
                     fmt_s(median([b for _, b in cpu_pairs])) if cpu_pairs else ""]
        rows.append([label, f"{size:,}", fmt_s(median([a for a, _ in values])),
                     fmt_s(median([b for _, b in values])), f"{median(ratios):.3f}",
                     f"{min(ratios):.3f}–{max(ratios):.3f}", *extra, str(len(ratios)), ""])
    headers = ["command", "records", "A wall median (s)", "B wall median (s)",
               "B/A median", "B/A range",
               *(["B/A CPU median", "A CPU median (s)", "B CPU median (s)"] if cpu is not None
                 else []),
               "pairs", "note"]
    numeric = 9 if cpu is not None else 6
    text = format_table(headers, rows, [False, *[True] * numeric, False])
    if all_ratios:
        text += f"\nMedian B/A over all pairs: {median(all_ratios):.3f} (< 1 means B is faster).\n"
    return text


def _probe(python: str, code: str) -> str:
    try:
        out = subprocess.run([python, *code.split()] if code.startswith("-m") else
                             [python, "-c", code], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"unknown ({exc})"
    return (out.stdout or out.stderr).strip().splitlines()[0] if (out.stdout or out.stderr) else "?"


def machine_description(pythons: Sequence[str]) -> str:
    cpu = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
        mem_kb = next(int(ln.split()[1]) for ln in Path("/proc/meminfo").read_text().splitlines()
                      if ln.startswith("MemTotal"))
        memory = f"{mem_kb / 1024 / 1024:.1f} GiB"
    except (OSError, StopIteration, ValueError):
        memory = "unknown"
    nproc = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    lines = [
        f"- nproc: {nproc}",
        f"- CPU: {cpu}",
        f"- memory: {memory}",
        f"- OS: {platform.system()} {platform.release()} ({platform.machine()})",
    ]
    for tag, python in zip("AB" if len(pythons) > 1 else " ", pythons, strict=False):
        who = f" {tag}" if tag.strip() else ""
        version = _probe(python, "import sys; print(sys.version.split()[0])")
        lines.append(f"- Python{who}: {version} ({python})")
        lines.append(f"- adrguard{who}: {_probe(python, '-m adrguard --version')}")
    return "\n".join(lines) + "\n"
