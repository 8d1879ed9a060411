"""Hostile input at the size limit: the worst case of each class issue 15 found, timed.

Each case is a git repository holding one ordinary record and one hostile file of just under
1 MiB (the default ``max-file-size``), plus the config the case needs. Every cell is a whole
process, ``PYTHON -m adrguard check --no-cache --format json``, after one untimed warm-up run;
a run that takes longer than ``--timeout`` is stopped and shown as ``> N s``.

    python benchmarks/hostile.py                       # the installed adrguard
    python benchmarks/hostile.py --python /tmp/old/bin/python --timeout 60
    python benchmarks/hostile.py --out benchmarks/HOSTILE.md

The table gives the median wall time of ``--repeat`` runs and the start-up time (``--version``)
of the same interpreter, so what adrguard spends on the input is the difference.
"""

from __future__ import annotations

import argparse
import json
import os
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


def build(folder: Path, files: dict[str, str]) -> None:
    folder.mkdir(parents=True)
    git(folder, "init", "-q")
    for rel, text in {"docs/adr/0001-ordinary.md": RECORD, **files}.items():
        path = folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    git(folder, "add", "-A")
    git(folder, "commit", "-q", "-m", "hostile")


def timed(argv: list[str], cwd: Path, timeout: float) -> float | None:
    """Wall seconds of one run, None when it ran past ``timeout``."""
    env = {**os.environ, "ADRGUARD_NO_CACHE": "1"}
    started = time.perf_counter()
    try:
        done = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None
    elapsed = time.perf_counter() - started
    if done.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(argv)} in {cwd}: exit {done.returncode}: "
                         f"{done.stderr.decode(errors='replace')[-400:]}")
    return elapsed


def measure(python: str, folder: Path, repeat: int, timeout: float) -> str:
    argv = [python, "-m", "adrguard", "check", "--no-cache", "--format", "json"]
    if timed(argv, folder, timeout) is None:  # warm-up; a hang is not repeated
        return f"> {timeout:g} s"
    runs = [timed(argv, folder, timeout) for _ in range(repeat)]
    if any(r is None for r in runs):
        return f"> {timeout:g} s"
    return f"{statistics.median(r for r in runs if r is not None):.2f} s"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--python", default=sys.executable)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--only", help="run the cases whose name contains this text")
    parser.add_argument("--out", type=Path, help="also write the Markdown table here")
    args = parser.parse_args(argv)
    startup = timed([args.python, "-m", "adrguard", "--version"], Path.cwd(), args.timeout)
    rows = [f"| case (hostile file of {LIMIT:,} bytes) | check, median wall time |", "|---|---|"]
    with tempfile.TemporaryDirectory(prefix="adrguard-hostile-") as tmp:
        for i, (name, make) in enumerate(CASES.items()):
            if args.only and args.only not in name:
                continue
            folder = Path(tmp) / f"case{i}"
            build(folder, make())
            cell = measure(args.python, folder, args.repeat, args.timeout)
            rows.append(f"| {name} | {cell} |")
            print(rows[-1], flush=True)
    rows.append(f"| start-up (`--version`), for reference | {startup or 0:.2f} s |")
    table = "\n".join(rows) + "\n"
    print(table)
    if args.out:
        args.out.write_text(table, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
