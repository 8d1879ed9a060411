"""Generate a synthetic, deterministic ADR corpus for benchmarks.

    python benchmarks/generate.py --size 10000 --out /tmp/adrguard-bench/10000 [--git]

The corpus mixes the three shapes adrguard sees most (Nygard/adr-tools, MADR 3 with YAML front
matter, MADR 2 bullets), spreads the records over several roots (``docs/adr`` plus module roots
``services/<name>/docs/adr``, listed in a generated ``.adrguard.toml``), links records to each
other (inside a root and across roots), builds reciprocal supersession pairs and chains, and
plants a few deliberate defects. The same ``--size`` and ``--seed`` give byte-identical files.

``--git`` makes the corpus a git repository with two commits at fixed dates: the first holds the
records, an impact manifest and some source files; the second changes ``--changed`` paths (half
modified, half added, plus a few edited records) so that ``adrguard impact --base HEAD~1`` has
work to do. ``.benchmark-corpus.json`` at the top describes what was generated.

This script never imports adrguard: it only writes files.
"""

from __future__ import annotations

import argparse
import datetime as dt
import itertools
import json
import math
import os
import random
import shutil
import subprocess
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from corpus_text import AREAS, FORMATS, TECH, VERBS, Plan, Record, render, slugify

GENERATOR_VERSION = 3  # 3: a fitness manifest for ``adrguard verify``
MANIFEST = ".benchmark-corpus.json"
DEFAULT_SIZES = (100, 1000, 10000, 50000)
FORMAT_WEIGHTS = (45, 35, 20)
DEFECT_KINDS = (
    "broken-link",  # ADR201
    "missing-status",  # ADR102
    "unknown-status",  # ADR103
    "missing-section",  # ADR104
    "filename-pattern",  # ADR107
    "id-mismatch",  # ADR108
    "invalid-date",  # ADR109
    "unresolved-relationship",  # ADR301
    "one-sided-supersession",  # ADR304
)
GIT_DATE = "2024-01-01T12:00:00+00:00"
GIT_DATE_2 = "2024-01-02T12:00:00+00:00"


def plan_corpus(size: int, seed: int) -> Plan:
    """Decide every record's place, format, status, relations and defect (no text yet)."""
    rng = random.Random(seed)
    n_services = max(2, math.ceil(size / 2000))
    services = [f"svc-{i:02d}" for i in range(1, n_services + 1)]
    roots = ["docs/adr"] + [f"services/{s}/docs/adr" for s in services]
    width = max(4, len(str(size)))
    per_root = [size // len(roots)] * len(roots)
    for i in range(size - sum(per_root)):
        per_root[i] += 1
    start = dt.date(2015, 1, 5)
    records: list[Record] = []
    for root, count in zip(roots, per_root, strict=True):
        for _ in range(count):
            i = len(records)
            title = f"{rng.choice(VERBS)} {rng.choice(TECH)} for {rng.choice(AREAS)}"
            number = i + 1
            day = start + dt.timedelta(days=(i * 3650) // max(size, 1))
            fmt = rng.choices(FORMATS, FORMAT_WEIGHTS)[0]
            filename = f"{number:0{width}d}-{slugify(title)}.md"
            records.append(Record(i, number, root, fmt, title, filename, day.isoformat()))
    _plan_statuses(records, rng)
    _plan_supersession(records, roots, rng)
    _plan_links(records, roots, rng)
    _plan_defects(records, rng)
    return Plan(size, seed, roots, width, records, services)


def _plan_statuses(records: list[Record], rng: random.Random) -> None:
    for r in records:
        roll = rng.random()
        r.status = (
            "proposed" if roll < 0.08 else "rejected" if roll < 0.11
            else "deprecated" if roll < 0.13 else "accepted"
        )


def _plan_supersession(records: list[Record], roots: list[str], rng: random.Random) -> None:
    """Reciprocal pairs and chains (length 2-4) inside each root, about 10% of the records."""
    for root in roots:
        members = [r for r in records if r.root == root and r.status == "accepted"]
        budget = len(members) // 10
        free = list(members)
        rng.shuffle(free)
        while budget >= 2 and len(free) >= 4:
            length = min(rng.choice((2, 2, 2, 3, 4)), len(free), budget)
            chain = sorted(free[:length], key=lambda r: r.number)
            del free[:length]
            budget -= length
            for old, new in itertools.pairwise(chain):
                old.status = "superseded"
                old.superseded_by.append(new.index)
                new.supersedes.append(old.index)


def _plan_links(records: list[Record], roots: list[str], rng: random.Random) -> None:
    by_root: dict[str, list[Record]] = {}
    for r in records:
        by_root.setdefault(r.root, []).append(r)
    primary = by_root[roots[0]]
    for r in records:
        peers = by_root[r.root]
        for _ in range(rng.choice((0, 1, 1, 2, 3))):
            other = rng.choice(peers)
            if other.index != r.index and other.index not in r.links:
                r.links.append(other.index)
        if r.root != roots[0] and rng.random() < 0.2:
            other = rng.choice(primary)
            if other.index not in r.links:
                r.links.append(other.index)


def _plan_defects(records: list[Record], rng: random.Random) -> None:
    per_kind = max(1, len(records) // 2000)
    plain = [r for r in records
             if not r.supersedes and not r.superseded_by and r.status == "accepted"]
    rng.shuffle(plain)
    pool = iter(plain)
    for kind in DEFECT_KINDS:
        for _ in range(per_kind):
            r = next(pool, None)
            if r is None:
                return
            r.defect = kind
            if kind == "filename-pattern":
                stem = r.filename.removesuffix(".md")
                r.filename = stem.split("-", 1)[0] + "-" + stem.split("-", 1)[1].title() + ".md"
            elif kind == "id-mismatch":
                r.fmt = "nygard"
            elif kind == "one-sided-supersession":
                peers = [p for p in records if p.root == r.root and p.number < r.number
                         and not p.superseded_by and p.defect is None]
                if peers:
                    r.supersedes.append(rng.choice(peers).index)


# ---------------------------------------------------------------- files, config, git


@dataclass(frozen=True)
class GitPlan:
    changed: int  # paths changed by the second commit
    mappings: int  # entries in .adrguard-impact.json

    @property
    def packages(self) -> int:
        return max(10, self.mappings)


def code_path(plan: Plan, git: GitPlan, j: int) -> str:
    k = j % git.packages
    service = plan.services[k % len(plan.services)]
    return f"services/{service}/src/pkg_{k:04d}/mod_{j:05d}.py"


def code_text(j: int, revision: int) -> str:
    return f'"""Generated module {j} (revision {revision})."""\n\nVALUE = {j * 7 + revision}\n'


def package_glob(plan: Plan, k: int) -> str:
    return f"services/{plan.services[k % len(plan.services)]}/src/pkg_{k:04d}/**"


def plan_mappings(plan: Plan, git: GitPlan) -> dict[str, object]:
    """The impact manifest, and ``affected-paths`` front matter on some MADR 3 records."""
    accepted = [r for r in plan.records if r.status == "accepted" and r.defect is None]
    madr3 = [r for r in accepted if r.fmt == "madr3"]
    for n, r in enumerate(madr3[:: max(1, len(madr3) // max(1, git.packages // 20))]):
        r.affected = [package_glob(plan, (n * 7) % git.packages)]
    mappings: list[dict[str, object]] = []
    for k in range(git.mappings if accepted else 0):
        target = accepted[(k * 13) % len(accepted)]
        entry: dict[str, object] = {
            "decision": target.path,
            "paths": [package_glob(plan, k), "!**/test_*.py"],
            "note": f"package {k} follows {target.title}",
        }
        if k % 50 == 0:
            entry["components"] = [plan.services[k % len(plan.services)]]
        mappings.append(entry)
    components = {s: [f"services/{s}/**"] for s in plan.services}
    return {"schemaVersion": 1, "components": components, "mappings": mappings}


# Not the default .adrguard-fitness.json: the check rows then time what they timed before (most
# logs have no fitness manifest); the verify row names it with --rules.
FITNESS = "ci/fitness.json"
FITNESS_KINDS = ("forbidden-text", "required-paths", "forbidden-paths", "forbidden-import")


def plan_fitness(plan: Plan, git: GitPlan) -> dict[str, object]:
    """The fitness manifest ``adrguard verify`` reads: rules of four kinds over the generated
    code, on accepted records (one rule per 100 records, at least 4, at most 40)."""
    accepted = [r for r in plan.records if r.status == "accepted" and r.defect is None]
    rules: list[dict[str, object]] = []
    for k in range(min(40, max(4, plan.size // 100)) if accepted else 0):
        kind = FITNESS_KINDS[k % len(FITNESS_KINDS)]
        rule: dict[str, object] = {"id": f"rule-{k:02d}", "decision": accepted[(k * 7) % len(
            accepted)].path, "kind": kind}
        package = package_glob(plan, k % git.packages)
        if kind == "forbidden-text":
            rule.update(paths=[package], pattern=r"\bVALUE = 99999\b")
        elif kind == "required-paths":
            rule.update(paths=[package.replace("**", "*.py")])
        elif kind == "forbidden-paths":
            rule.update(paths=["**/.env", "**/*.pem"])
        else:
            rule.update(paths=[package], modules=["pkg_legacy"])
        rules.append(rule)
    return {"schemaVersion": 1, "rules": rules}


def config_text(plan: Plan) -> str:
    roots = ",\n".join(f'  "{root}"' for root in plan.roots)
    digits = "4" if plan.width == 4 else f"4,{plan.width}"
    return (
        f"# Generated by benchmarks/generate.py: {plan.size} records, seed {plan.seed}.\n"
        f"roots = [\n{roots},\n]\n"
        f"filename-pattern = '^\\d{{{digits}}}-[a-z0-9-]+\\.md$'\n"
    )


def write(base: Path, rel: str, text: str) -> int:
    path = base / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    data = text.encode("utf-8")
    path.write_bytes(data)
    return len(data)


def _git(out: Path, *args: str, date: str = GIT_DATE) -> None:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "Bench Mark",
        "GIT_AUTHOR_EMAIL": "bench@example.com",
        "GIT_COMMITTER_NAME": "Bench Mark",
        "GIT_COMMITTER_EMAIL": "bench@example.com",
        "GIT_AUTHOR_DATE": date,
        "GIT_COMMITTER_DATE": date,
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_CONFIG_GLOBAL": os.devnull,
    }
    subprocess.run(
        ["git", "-c", "commit.gpgsign=false", "-c", "core.autocrlf=false", *args],
        cwd=out, env=env, check=True, stdout=subprocess.DEVNULL,
    )


def is_inside(path: Path, parent: Path) -> bool:
    try:
        path.resolve().relative_to(parent.resolve())
    except ValueError:
        return False
    return True


def prepare_out(out: Path, force: bool) -> None:
    repo = Path(__file__).resolve().parents[1]
    if is_inside(out, repo):
        raise SystemExit(f"error: {out} is inside the repository {repo}; generate under /tmp")
    if out.exists() and any(out.iterdir()):
        if not force:
            raise SystemExit(f"error: {out} is not empty; pass --force to replace it")
        if not (out / MANIFEST).is_file():
            raise SystemExit(f"error: {out} was not made by this generator ({MANIFEST} missing)")
        shutil.rmtree(out)
    out.mkdir(parents=True, exist_ok=True)


def generate(out: Path, size: int, seed: int = 1, git: GitPlan | None = None,
             force: bool = False) -> dict[str, object]:
    """Write the corpus to ``out`` and return its description (also saved as MANIFEST)."""
    prepare_out(out, force)
    plan = plan_corpus(size, seed)
    impact = plan_mappings(plan, git) if git else None
    total = write(out, ".adrguard.toml", config_text(plan))
    for r in plan.records:
        total += write(out, r.path, render(plan, r))
    defects: dict[str, list[str]] = {kind: [] for kind in DEFECT_KINDS}
    for r in plan.records:
        if r.defect:
            defects[r.defect].append(r.path)
    manifest: dict[str, object] = {
        "generator": GENERATOR_VERSION,
        "size": size,
        "seed": seed,
        "records": len(plan.records),
        "roots": plan.roots,
        "formats": {f: sum(r.fmt == f for r in plan.records) for f in FORMATS},
        "statuses": _count(r.status for r in plan.records),
        "supersessions": sum(len(r.supersedes) for r in plan.records),
        "links": sum(len(r.links) for r in plan.records),
        "defects": defects,
        "git": None,
    }
    if git is not None and impact is not None:
        total += write(out, ".adrguard-impact.json", json.dumps(impact, indent=2) + "\n")
        fitness = plan_fitness(plan, git)
        total += write(out, FITNESS, json.dumps(fitness, indent=2) + "\n")
        manifest["git"] = _make_history(out, plan, git)
    manifest["bytes"] = total
    write(out, MANIFEST, json.dumps(manifest, indent=2, sort_keys=True) + "\n")
    return manifest


def _count(values: Iterable[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for v in values:
        out[v] = out.get(v, 0) + 1
    return dict(sorted(out.items()))


def _make_history(out: Path, plan: Plan, git: GitPlan) -> dict[str, object]:
    modified = math.ceil(git.changed / 2)
    for j in range(modified):
        write(out, code_path(plan, git, j), code_text(j, 1))
    _git(out, "init", "-q", "-b", "main")
    _git(out, "add", "-A")
    _git(out, "commit", "-q", "-m", "Benchmark corpus")
    for j in range(git.changed):
        write(out, code_path(plan, git, j), code_text(j, 2))
    edited = [r for r in plan.records if r.status == "accepted" and r.defect is None]
    count = max(1, plan.size // 1000)
    edited = edited[:: max(1, len(edited) // count)][:count]
    for r in edited:
        with (out / r.path).open("a", encoding="utf-8") as fh:
            fh.write("\nThis record was revised after review.\n")
    _git(out, "add", "-A")
    _git(out, "commit", "-q", "-m", "Change code and revise records", date=GIT_DATE_2)
    return {
        "changed_code": git.changed,
        "modified_code": modified,
        "added_code": git.changed - modified,
        "edited_records": [r.path for r in edited],
        "mappings": git.mappings,
        "sample_code_path": code_path(plan, git, 0),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--size", type=int, default=1000, help="number of records (default 1000)")
    parser.add_argument("--out", type=Path, required=True, help="directory to create (under /tmp)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--force", action="store_true", help="replace an earlier generated corpus")
    parser.add_argument("--git", action="store_true", help="make a git repo with two commits")
    parser.add_argument("--changed", type=int, default=None,
                        help="paths the second commit changes (default: the size, at most 50000)")
    parser.add_argument("--mappings", type=int, default=None,
                        help="impact manifest entries (default: size/5, at most 2000)")
    args = parser.parse_args(argv)
    if args.size < 1:
        parser.error("--size must be at least 1")
    git = None
    if args.git:
        changed = args.changed if args.changed is not None else min(args.size, 50_000)
        mappings = args.mappings if args.mappings is not None else min(2000, args.size // 5)
        git = GitPlan(changed=changed, mappings=mappings)
    manifest = generate(args.out, args.size, args.seed, git, args.force)
    print(f"wrote {manifest['records']} records ({manifest['bytes']} bytes) to {args.out}",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
