"""``archive plan``: a reviewed, reversible move of fully retired records into their root's
archive folder, worked out without writing anything.

The records are looked up the one way (:func:`adrguard.api.lookup.find_decision`) and judged
from their evidence (:mod:`adrguard.core.compaction.evidence`); a record not fully retired is
refused with the reasons. Otherwise the plan lists the file moves, every relative link to
rewrite in both directions (:mod:`adrguard.core.compaction.moves`), and what the move does to
the INDEX, the CURRENT views and the checks, found by running the one pipeline over the work
tree as it would be after the move (:class:`adrguard.adapters.source.Rearranged`).
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from adrguard.adapters.files import Discovery
from adrguard.adapters.git import tracked
from adrguard.adapters.reading import read_bytes
from adrguard.adapters.source import Rearranged, WorkTree
from adrguard.api.check import CheckRequest, run_check
from adrguard.api.compaction import blocker_findings
from adrguard.api.generated import current_states
from adrguard.api.lookup import find_decision
from adrguard.api.pipeline.corpus import corpus_of, read_source
from adrguard.config import Config
from adrguard.core.compaction import plan as plans
from adrguard.core.compaction.analysis import unstated_records
from adrguard.core.compaction.disposition import not_retired
from adrguard.core.compaction.evidence import facts, gather
from adrguard.core.compaction.moves import (
    Issue,
    Mover,
    Rewrite,
    apply_edits,
    archive_name,
    mirror_units,
    plan_rewrites,
    sha256,
    target_of,
    unit_of,
)
from adrguard.core.compaction.plan import blocking as blocking
from adrguard.core.compaction.plan import dump as dump
from adrguard.core.errors import UserError
from adrguard.core.generated import current, index
from adrguard.core.generated.region import MARK_END, MARK_START
from adrguard.core.graph.graph import build
from adrguard.core.model import Corpus, Decision, status_key
from adrguard.pathguard import write_problem

MARKDOWN = (".md", ".markdown")
# Text files that may name a record by path but are not rewritten (site navigation, configs).
MENTIONS = (".mdx", ".rst", ".adoc", ".txt", ".html", ".htm", ".yml", ".yaml", ".json",
            ".toml", ".js", ".ts")  # fmt: skip


@dataclass(frozen=True)
class PlanResult:
    """A plan (``plan``: its JSON), or the records refused and why (``refused``)."""

    plan: dict[str, Any] | None = None
    refused: tuple[tuple[Decision, tuple[str, ...]], ...] = ()
    notes: tuple[str, ...] = field(default_factory=tuple)


def make_plan(root: Path, config: Config, keys: Sequence[str]) -> PlanResult:
    """The archive plan for the records ``keys`` name (ids, numbers or paths)."""
    if not keys:
        raise UserError("name the records to archive: adrguard archive plan ID...")
    found, corpus = read_source(WorkTree(root, untracked=True), config)
    chosen = list({d.path: d for d in (find_decision(corpus, k) for k in keys)}.values())
    graph = build(corpus)
    states = current_states(root, config, corpus)
    findings = blocker_findings(corpus, config)
    unstated = unstated_records(corpus, config.options.require_status)
    known = facts(graph, states, findings, unstated)
    evidence = {d.path: gather(d, known) for d in chosen}
    refused = [(d, tuple(why)) for d in chosen if (why := not_retired(evidence[d.path]))]
    if refused:
        return PlanResult(refused=tuple(sorted(refused, key=lambda r: r[0].path)))
    units = {
        unit_of(d): target_of(unit_of(d), d.root, archive_name(corpus, d.root,
                                                              config.options.archive_dirs))
        for d in chosen
    }
    mirrors: dict[str, tuple[str, ...]] = {}
    for d in chosen:  # a record's translation mirrors move with it
        if unit_of(d) == d.path:
            found_mirrors = mirror_units(d, units[d.path], corpus)
            units.update(found_mirrors)
            mirrors[d.path] = tuple(sorted(found_mirrors))
    mover = Mover(units, found.file_list or sorted(found.repo_files))
    conflicts = _move_conflicts(root, found, mover, units)
    texts, unread = _markdown_with_links(root, config, found, mover)
    rewrites, link_conflicts, risks = plan_rewrites(
        texts, mover, found.repo_files, corpus.repo_dirs, corpus.repository
    )
    rewrites = _outside_generated(rewrites)
    risks += unread + _mentions(root, config, found, mover)
    after_found, after = _after(root, config, found, corpus, mover, rewrites)
    index_changes, index_conflicts = _index_changes(found, after, after_found, config)
    effects = _current_effects(corpus, found, after, after_found, config)
    new_findings = _new_findings(corpus, after, config, mover)
    records = [
        plans.Planned(d.id, d.path, mover(d.path), status_key(d),
                      (s.id if (s := evidence[d.path].current_successor) else None),
                      mirrors.get(d.path, ()))
        for d in chosen
    ]
    hashes = _inputs(root, mover, rewrites, index_changes, chosen, evidence, states)
    body = plans.build(records, mover.files, hashes, rewrites, index_changes, effects,
                       conflicts + link_conflicts + index_conflicts + new_findings, risks)
    return PlanResult(plan=body)


def _move_conflicts(
    root: Path, found: Discovery, mover: Mover, units: dict[str, str]
) -> list[Issue]:
    out: list[Issue] = []
    if not found.uses_git:
        out.append(Issue("no-git", ".", 1, "not a git work tree: an archive move is made with "
                         "git mv and can only be applied in a clone"))
        return out
    known = tracked(root, mover.files) if mover.files else set()
    for source, target in sorted(mover.files.items()):
        if source not in known:
            out.append(Issue("untracked", source, 1, f"{source} is not tracked by git: commit "
                             "it (or add it) first"))
        if os.path.islink(root / source):
            out.append(Issue("symlink", source, 1, f"{source} is a symlink: move it by hand"))
        why = write_problem(root, target)
        if why is not None and not os.path.lexists(root / target):
            out.append(Issue("unsafe-target", target, 1, why))
        if target in found.repo_files or os.path.lexists(root / target):
            out.append(Issue("target-exists", target, 1, f"{target} exists already: {source} "
                             "cannot move there"))
    for unit in units:
        if (root / unit).is_dir():  # one folder per record: everything in it moves with it
            for dirpath, _dirs, names in os.walk(root / unit):
                for name in names:
                    rel = Path(dirpath, name).relative_to(root).as_posix()
                    if rel not in mover.files:
                        out.append(Issue("untracked", rel, 1, f"{rel} is not tracked by git "
                                         f"and would stay behind when {unit}/ moves"))
    return out


def _needles(mover: Mover) -> set[bytes]:
    from urllib.parse import quote

    names = {p.rsplit("/", 1)[-1] for p in (*mover.files, *mover.units)}
    return {n.encode("utf-8") for n in names} | {quote(n).encode("ascii") for n in names}


def _markdown_with_links(
    root: Path, config: Config, found: Discovery, mover: Mover
) -> tuple[dict[str, bytes], list[Issue]]:
    """The markdown files that may link to a moved file (they name it), and the moved ones."""
    needles = _needles(mover)
    real = os.path.realpath(root)
    texts: dict[str, bytes] = {}
    unread: list[Issue] = []
    for path in found.file_list or sorted(found.repo_files):
        if not path.lower().endswith(MARKDOWN):
            continue
        got = read_bytes(real, path, config.options.max_file_size)
        if got is None:
            continue
        data, error = got
        if data is None:
            if path in mover.files:
                unread.append(Issue("unreadable", path, 1, f"{path}: {error}; its links were "
                                    "not checked", False))
            continue
        # a destination may escape punctuation (``0003-\\[x\\].md``): look past backslashes
        probe = data.replace(b"\\", b"") if b"\\" in data else data
        if path in mover.files or any(n in probe for n in needles):
            texts[path] = data
    return texts, unread


def _outside_generated(rewrites: list[Rewrite]) -> list[Rewrite]:
    """Edits inside a generated INDEX region are left out: the index is regenerated."""
    out: list[Rewrite] = []
    for rw in rewrites:
        start = rw.before.find(MARK_START.encode())
        end = rw.before.find(MARK_END.encode(), start + 1) if start != -1 else -1
        edits = tuple(e for e in rw.edits if not (start != -1 and start < e.start and
                                                   (end == -1 or e.start < end)))
        if edits:
            out.append(Rewrite(rw.source, rw.path, edits, rw.before, apply_edits(rw.before,
                                                                                  edits)))
    return out


def _mentions(root: Path, config: Config, found: Discovery, mover: Mover) -> list[Issue]:
    needles = {p.rsplit("/", 1)[-1] for p in mover.files if p.lower().endswith(MARKDOWN)}
    real = os.path.realpath(root)
    out: list[Issue] = []
    for path in found.file_list or sorted(found.repo_files):
        if not path.lower().endswith(MENTIONS):
            continue
        got = read_bytes(real, path, config.options.max_file_size)
        if got is None or got[0] is None:
            continue
        data = got[0]
        for name in sorted(needles):
            at = data.find(name.encode("utf-8"))
            if at != -1:
                out.append(Issue("mention", path, data.count(b"\n", 0, at) + 1,
                                 f"{path} names {name}, which moves; it is not markdown, so "
                                 "check it by hand", False))
    return out


def _after(
    root: Path, config: Config, found: Discovery, corpus: Corpus, mover: Mover,
    rewrites: Sequence[Rewrite],
) -> tuple[Discovery, Corpus]:
    source = Rearranged(root, found, mover.files, {rw.path: rw.after for rw in rewrites})
    after_found = source.discover(config)
    return after_found, corpus_of(after_found, config, None, corpus)


def _index_changes(
    found: Discovery, after: Corpus, after_found: Discovery, config: Config
) -> tuple[list[plans.IndexChange], list[Issue]]:
    if index.settings(config.options).enabled is False:
        return [], []
    # only the indexes of the logs that opted in are regenerated (``index --write``'s rule); an
    # index written by hand is markdown like any other: its links to moved files are rewritten
    states = [s for s in index.evaluate(after, config.options, after_found.other_texts)
              if s.required]
    changes: list[plans.IndexChange] = []
    conflicts: list[Issue] = []
    for s in states:
        path = s.target.path
        if s.kind == "malformed":
            conflicts.append(Issue(f"index-{s.kind}", path, s.line, f"{s.message}: the index "
                                   "cannot be regenerated after the move; fix it first"))
        elif s.kind in ("stale", "missing") and s.expected is not None:
            now = found.other_texts.get(path)
            changes.append(plans.IndexChange(
                path, "create" if s.kind == "missing" else "update",
                sha256(now) if now is not None else None, sha256(s.expected.encode("utf-8")),
            ))
    return changes, conflicts


def _current_effects(
    corpus: Corpus, found: Discovery, after: Corpus, after_found: Discovery, config: Config
) -> dict[str, list[tuple[str, str]]]:
    """The reasons each CURRENT view will be stale for after the move, new ones only: a
    reviewed view is never re-stamped by a move; people review and stamp it."""
    before = {s.view: {(r.code, r.message) for r in s.reasons}
              for s in current.evaluate(corpus, config.options, found.other_texts)}
    out: dict[str, list[tuple[str, str]]] = {}
    for s in current.evaluate(after, config.options, after_found.other_texts):
        new = [(r.code, r.message) for r in s.reasons if (r.code, r.message) not in
               before.get(s.view, set())]
        if new:
            out[s.view] = sorted(new)
    return out


def _new_findings(corpus: Corpus, after: Corpus, config: Config, mover: Mover) -> list[Issue]:
    """Link and relationship findings the move would add: the plan failed to keep a link.
    URLs are left out of the comparison: one into this repository at its default branch names
    the file as the branch holds it until the move is merged, and the plan lists it as a risk
    (a URL is never rewritten); one at another ref never names the work tree."""
    from msgspec.structs import replace

    corpus, after = replace(corpus, repository=None), replace(after, repository=None)
    only = config.with_overrides(select=("ADR2", "ADR3"), ignore=())
    before = Counter(
        (f.code, mover(f.location.path), f.decision_id)
        for f in run_check(CheckRequest(corpus=corpus, config=only)).report.findings
    )
    out: list[Issue] = []
    for f in run_check(CheckRequest(corpus=after, config=only)).report.findings:
        key = (f.code, f.location.path, f.decision_id)
        if before[key] > 0:
            before[key] -= 1
            continue
        out.append(Issue("new-finding", f.location.path, f.location.line,
                         f"after the move: {f.code} {f.message}"))
    return out


def _inputs(
    root: Path, mover: Mover, rewrites: Sequence[Rewrite],
    index_changes: Sequence[plans.IndexChange], chosen: Sequence[Decision],
    evidence: dict[str, Any], states: Sequence[current.CurrentState],
) -> dict[str, str]:
    """sha256 of every file the plan was made from: what moves, what is rewritten, the
    indexes, the CURRENT files of the roots involved and the successors that made the
    records retired."""
    paths = set(mover.files) | {rw.source for rw in rewrites}
    paths |= {c.path for c in index_changes if c.before is not None}
    roots = {d.root for d in chosen}
    paths |= {p for s in states if s.root in roots for p in (s.view, s.manifest_path)}
    for d in chosen:
        ev = evidence[d.path]
        paths |= {s.path for s in ev.successors}
        if ev.current_successor is not None:
            paths.add(ev.current_successor.path)

    real = os.path.realpath(root)
    out: dict[str, str] = {}
    for path in sorted(paths):
        got = read_bytes(real, path, 1 << 30)
        if got is not None and got[0] is not None:
            out[path] = sha256(got[0])
    return out
