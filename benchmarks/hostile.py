"""Hostile input at the size limit: the worst case of each class issue 15 found, timed.

Each case is a git repository holding one ordinary record and one hostile file of just under
1 MiB (the default ``max-file-size``), plus the config the case needs. Every cell is a whole
process, ``PYTHON -m adrguard check --no-cache --format json``, after one untimed warm-up run;
a run that takes longer than ``--timeout`` is stopped and shown as ``> N s``.

    python benchmarks/hostile.py                       # the installed adrguard
    python benchmarks/hostile.py --python /tmp/old/bin/python --timeout 60
    python benchmarks/hostile.py --out benchmarks/HOSTILE.md
    python benchmarks/hostile.py --growth-only --timeout 120   # only the growth table

The table gives the median wall time of ``--repeat`` runs and the start-up time (``--version``)
of the same interpreter, so what adrguard spends on the input is the difference.

A second table times the classes whose cost grows with two inputs at once (a supersession chain
and the citations of it, the words of a Status section and the status vocabulary, same-page
anchors and headings) at three sizes, each twice the one before, up to 5,000 records or 1 MiB.
Every cell is a whole process (``check``, or ``compaction`` for the compaction case); the
ratios are those of the CPU time (user + sys of the child and of the processes it waited for)
above start-up's (``--version``) between consecutive sizes: about 2 is linear, about 4
quadratic. CPU time is the steadier figure on a shared machine, where wall time also measures
the other jobs. From 4,000 records on, ``check`` parses in a pool of worker processes, whose
start-up (a few tenths of a second of CPU each) the 5,000-record row also pays.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

LIMIT = 1024 * 1024 - 4096  # bytes of the hostile file: just under the 1 MiB size limit
HEAD = "# 2. Hostile\n\nDate: 2024-01-02\n\n## Status\n\nAccepted\n\n## Context\n\n"
RECORD = ("# 1. Ordinary\n\nDate: 2024-01-01\n\n## Status\n\nAccepted\n\n## Context\n\nx\n\n"
          "## Decision\n\ny\n\n## Consequences\n\nz\n")


def fill(unit: str, head: str = HEAD, tail: str = "\n") -> str:
    """``head``, then ``unit`` repeated up to the size limit, then ``tail``."""
    room = LIMIT - len(head.encode()) - len(tail.encode())
    return head + unit * (room // len(unit.encode())) + tail


def _pattern_case(key: str, pattern: str) -> dict[str, str]:
    return {".adrguard.toml": f"{key} = {json.dumps(pattern)}\n"}


def _schema_case() -> dict[str, str]:
    schema = {"type": "object", "properties": {"id": {"type": "string", "pattern": "^(a+)+$"}}}
    room = LIMIT - 200
    return {".adrguard.toml": 'frontmatter-schema = "adr.schema.json"\n',
            "adr.schema.json": json.dumps(schema),
            "docs/adr/0002-hostile.md": "---\nid: " + "a" * room + "!\n---\n" + HEAD}


def _chain(n: int) -> dict[str, str]:
    """``n`` records, each superseded by the next (both sides written); the last accepted."""
    out: dict[str, str] = {}
    for i in range(1, n + 1):
        status = (f"Superseded by [{i + 1}. R](0{i + 1:04d}-r.md)" if i < n else "Accepted")
        if i > 1:
            status += f"\n\nSupersedes [{i - 1}. R](0{i - 1:04d}-r.md)"
        out[f"docs/adr/0{i:04d}-r.md"] = (
            f"# {i}. R\n\nDate: 2024-01-01\n\n## Status\n\n{status}\n\n## Context\n\nc\n\n"
            "## Decision\n\nd\n\n## Consequences\n\ne\n")
    return out


def _citations_case(n: int) -> dict[str, str]:
    """A chain of ``n`` records and a source file citing them ``4 n`` times: half the lines
    cite one record, half cite a record and a later one (so the line itself names a successor)."""
    lines = []
    for k in range(4 * n):
        i = k % n + 1
        if k % 2:
            lines.append(f"x{k} = {k}  # see ADR-{i:05d}\n")
        else:
            later = min(n, i + 1 + k % 7)
            lines.append(f"y{k} = {k}  # ADR-{i:05d}, then ADR-{later:05d}\n")
    return {**_chain(n), ".adrguard.toml": "[citations]\nenabled = true\n",
            "src/app.py": "".join(lines)}


def _permutation(k: int, letters: str = "abcdefghi") -> str:
    """The ``k``-th arrangement of ``letters`` (factorial number system)."""
    pool, out = list(letters), []
    for base in range(len(pool), 0, -1):
        k, pick = divmod(k, base)
        out.append(pool.pop(pick))
    return "".join(out)


GREEK = "αβγδεζηθικλμνξοπρστυφχψω"


def _greek(k: int) -> str:
    """The ``k``-th eight-letter Greek word (no status vocabulary word has a Greek letter)."""
    out = ""
    for _ in range(8):
        k, digit = divmod(k, len(GREEK))
        out += GREEK[digit]
    return out


def _status_words(size: int) -> dict[str, str]:
    """A Status section of ``size`` bytes of distinct made-up Greek words, one a sentence (so
    none is close to a status and the search never stops early), and a ``[statuses]`` table of
    made-up synonyms of the same length filling ``size // 4`` bytes of config."""
    head = "# 2. Hostile\n\nDate: 2024-01-02\n\n## Status\n\n"
    words, total, k = [], len(head), 0
    while total < size - 64:
        w = _greek(k * 7919) + ". "
        words.append(w)
        total += len(w.encode())
        k += 1
    synonyms, total, k = ["[statuses]\n"], 12, 0
    while total < size // 4:
        line = f'"{_permutation(k * 89 % 362_880)}" = "accepted"\n'
        synonyms.append(line)
        total += len(line)
        k += 1
    return {"docs/adr/0002-hostile.md": head + "".join(words) + "\n",
            ".adrguard.toml": "".join(synonyms)}


def _anchors(size: int) -> dict[str, str]:
    """One record of ``size`` bytes: headings and as many same-page links to anchors that are
    one letter off each heading."""
    head = "# 2. Hostile\n\nDate: 2024-01-02\n\n## Status\n\nAccepted\n\n"
    parts, total, k = [head], len(head), 0
    while total < size - 64:
        part = f"## Section {k:06d} alpha\n\n[see](#section-{k:06d}-alphx)\n\n"
        parts.append(part)
        total += len(part)
        k += 1
    return {"docs/adr/0002-hostile.md": "".join(parts)}


def _compaction_case(n: int) -> dict[str, str]:
    return _chain(n)


MIB = 1024 * 1024
BASELINE = "for reference: the chain alone, no citations"
# name -> (files at a size, the three sizes, what a size counts, the adrguard command)
GROWTH: dict[str, tuple[Callable[[int], dict[str, str]], tuple[int, ...], str, tuple[str, ...]]] = {
    "citations x supersession chain (4 citations a record)": (
        _citations_case, (1250, 2500, 5000), "records", ("check",)),
    "compaction x supersession chain": (
        _compaction_case, (1250, 2500, 5000), "records", ("compaction",)),
    "status words x vocabulary (`[statuses]` of size/4)": (
        _status_words, (MIB // 4, MIB // 2, MIB - 4096), "bytes", ("check",)),
    "same-page anchors x headings": (
        _anchors, (MIB // 4, MIB // 2, MIB - 4096), "bytes", ("check",)),
}

CASES: dict[str, Callable[[], dict[str, str]]] = {
    "HTML block of `<!--`": lambda: {"docs/adr/0002-hostile.md": fill("<!--")},
    "HTML block of `<!--` lines": lambda: {"docs/adr/0002-hostile.md": fill("<!--\n")},
    "inline `<!--` in a paragraph": lambda: {"docs/adr/0002-hostile.md": fill("x <!--")},
    "next-line suppressions + broken links": lambda: {"docs/adr/0002-hostile.md": fill(
        "<!-- adrguard-disable-next-line ADR201 -->\n[x](missing.md)\n\n")},
    "file-wide suppressions": lambda: {"docs/adr/0002-hostile.md": fill(
        "<!-- adrguard-disable ADR201 -->\n", tail="[x](missing.md)\n")},
    "unknown selectors in one directive": lambda: {"docs/adr/0002-hostile.md": fill(
        "w ", head=HEAD + "<!-- adrguard-disable ", tail="-->\n")},
    "directive with a run of spaces": lambda: {"docs/adr/0002-hostile.md": fill(
        " ", head=HEAD + "<!-- adrguard-disable", tail="x -->\n")},
    "decision-id-pattern `(a+)+$`": lambda: {
        **_pattern_case("decision-id-pattern", "(a+)+$"),
        "docs/adr/0002-hostile.md": fill("a", tail="b\n")},
    "filename-pattern `^(a\\|aa)+$`": lambda: {
        **_pattern_case("filename-pattern", "^(a|aa)+$"),
        "docs/adr/" + "a" * 200 + "!.md": HEAD},
    "frontmatter-schema pattern `^(a+)+$`": _schema_case,
    "ADR id mentions beside `<a:` openers": lambda: {"docs/adr/0002-hostile.md": fill(
        "<a:", head=HEAD + "ADR-9 ")},
    "ADR id mentions beside `](` openers": lambda: {"docs/adr/0002-hostile.md": fill(
        "](", head=HEAD + "ADR-9 ")},
    "ADR id mentions beside backticks": lambda: {"docs/adr/0002-hostile.md": fill(
        "`", head=HEAD + "ADR-9 ")},
    "ADR id mentions beside `a.` runs": lambda: {"docs/adr/0002-hostile.md": fill(
        "a.", head=HEAD + "ADR-9 ")},
    "nested `[` brackets": lambda: {"docs/adr/0002-hostile.md": fill("[")},
    "emphasis `*a_`": lambda: {"docs/adr/0002-hostile.md": fill("*a_")},
    "links `[x](y.md)`": lambda: {"docs/adr/0002-hostile.md": fill("[x](y.md) ")},
    "headings": lambda: {"docs/adr/0002-hostile.md": fill("## h\n")},
}


def git(folder: Path, *args: str) -> None:
    env = {**os.environ, "GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@example.invalid",
           "GIT_COMMITTER_NAME": "b", "GIT_COMMITTER_EMAIL": "b@example.invalid",
           "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
    subprocess.run(["git", *args], cwd=folder, env=env, check=True, capture_output=True)


def build(folder: Path, files: dict[str, str], ordinary: bool = True) -> None:
    """A git repository holding ``files`` (and one ordinary record unless ``ordinary`` is
    false), committed."""
    folder.mkdir(parents=True)
    git(folder, "init", "-q")
    base = {"docs/adr/0001-ordinary.md": RECORD} if ordinary else {}
    for rel, text in {**base, **files}.items():
        path = folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    git(folder, "add", "-A")
    git(folder, "commit", "-q", "-m", "hostile")


def timed(argv: list[str], cwd: Path, timeout: float) -> tuple[float, float] | None:
    """Wall and CPU seconds (user + sys of the child and what it waited for) of one run; None
    when it ran past ``timeout``."""
    env = {**os.environ, "ADRGUARD_NO_CACHE": "1"}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    try:
        done = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None
    elapsed = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(argv)} in {cwd}: exit {done.returncode}: "
                         f"{done.stderr.decode(errors='replace')[-400:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return elapsed, cpu


def measure(python: str, folder: Path, repeat: int, timeout: float,
            command: tuple[str, ...] = ("check",)) -> tuple[float, float] | None:
    """Median wall and CPU seconds of ``repeat`` runs after one warm-up; None on a timeout."""
    argv = [python, "-m", "adrguard", *command, "--no-cache", "--format", "json"]
    if timed(argv, folder, timeout) is None:  # warm-up; a hang is not repeated
        return None
    runs = [timed(argv, folder, timeout) for _ in range(repeat)]
    if any(r is None for r in runs):
        return None
    done = [r for r in runs if r is not None]
    return statistics.median(w for w, _ in done), statistics.median(c for _, c in done)


def _cell(result: tuple[float, float] | None, timeout: float) -> str:
    return f"> {timeout:g} s | " if result is None else f"{result[0]:.2f} s | {result[1]:.2f} s"


def _ratio(bigger: tuple[float, float] | None, smaller: tuple[float, float] | None,
           startup: float) -> str:
    """The growth between two sizes: the ratio of the CPU time above start-up's CPU time."""
    if bigger is None:
        return "n/a (timed out)"
    if smaller is None:
        return "n/a"
    base = max(smaller[1] - startup, 0.01)
    return f"{max(bigger[1] - startup, 0.0) / base:.2f}"


def growth(args: argparse.Namespace, tmp: Path, startup: float) -> list[str]:
    """The growth table: each two-input case at its three sizes, with the ratios."""
    rows = ["| case | size | wall (median) | CPU (median) | CPU ratio to the size before |",
            "|---|---:|---:|---:|---:|"]
    for i, (name, (make, sizes, unit, command)) in enumerate(GROWTH.items()):
        if args.only and args.only not in name:
            continue
        before: tuple[float, float] | None = None
        for j, size in enumerate(sizes):
            folder = tmp / f"growth{i}-{j}"
            build(folder, make(size), ordinary=unit != "records")
            result = measure(args.python, folder, args.repeat, args.timeout, command)
            ratio = "" if j == 0 else _ratio(result, before, startup)
            label = f"{name} (`{' '.join(command)}`)" if j == 0 else ""
            rows.append(f"| {label} | {size:,} {unit} | {_cell(result, args.timeout)} | {ratio} |")
            print(rows[-1], flush=True)
            before = result
            if result is None:
                break  # a bigger size only times out later
    if not args.only or args.only in BASELINE:
        folder = tmp / "growth-baseline"
        build(folder, _chain(max(GROWTH[next(iter(GROWTH))][1])), ordinary=False)
        result = measure(args.python, folder, args.repeat, args.timeout)
        rows.append(f"| {BASELINE} (`check`) | 5,000 records | {_cell(result, args.timeout)} | |")
        print(rows[-1], flush=True)
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--python", default=sys.executable)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--only", help="run the cases whose name contains this text")
    parser.add_argument("--growth-only", action="store_true", help="only the growth table")
    parser.add_argument("--out", type=Path, help="also write the Markdown tables here")
    args = parser.parse_args(argv)
    up = timed([args.python, "-m", "adrguard", "--version"], Path.cwd(), args.timeout)
    startup, startup_cpu = up if up is not None else (0.0, 0.0)
    rows = [f"| case (hostile file of {LIMIT:,} bytes) | check, wall (median) | CPU (median) |",
            "|---|---:|---:|"]
    with tempfile.TemporaryDirectory(prefix="adrguard-hostile-") as tmp:
        if not args.growth_only:
            for i, (name, make) in enumerate(CASES.items()):
                if args.only and args.only not in name:
                    continue
                folder = Path(tmp) / f"case{i}"
                build(folder, make())
                cell = _cell(measure(args.python, folder, args.repeat, args.timeout), args.timeout)
                rows.append(f"| {name} | {cell} |")
                print(rows[-1], flush=True)
        grown = growth(args, Path(tmp), startup_cpu)
    rows.append(f"| start-up (`--version`), for reference | {startup:.2f} s | {startup_cpu:.2f} s |")
    table = ("" if args.growth_only else "\n".join(rows) + "\n\n") + "\n".join(grown) + "\n"
    print(table)
    if args.out:
        args.out.write_text(table, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
