"""The compaction analysis: per root, what the log holds and what reading it costs; per record
in scope, a proposed disposition with its evidence; the blockers to fix before any compaction;
the consolidation candidates. Read-only and deterministic (sorted, no clock). Pure."""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from adrguard.core.compaction.disposition import DISPOSITIONS, dispose
from adrguard.core.compaction.evidence import (
    BLOCKER_KINDS,
    Evidence,
    Facts,
    facts,
    gather,
    is_active,
)
from adrguard.core.compaction.scope import Scope
from adrguard.core.compaction.size import Size, total
from adrguard.core.conventions.log import logs_of, unstated_by_habit
from adrguard.core.findings import Finding, Severity
from adrguard.core.generated.current import CurrentState
from adrguard.core.graph.graph import Graph, build
from adrguard.core.model import Corpus, Decision, status_key
from adrguard.core.wording import plural

SCHEMA_VERSION = 1
STATUS_KEYS = ("accepted", "proposed", "draft", "superseded", "deprecated", "rejected",
               "unknown", "none")  # fmt: skip
CAVEAT = (
    "A mechanical analysis of structure (statuses, relationships, links, CURRENT manifests, "
    "sizes): it reads no meaning, drafts nothing and cannot find every duplicate or conflict "
    "in substance."
)


@dataclass(frozen=True)
class RecordResult:
    evidence: Evidence
    disposition: str
    reasons: tuple[str, ...]
    size: Size

    def as_json(self) -> dict[str, Any]:
        d = self.evidence.decision
        return {
            "id": d.id,
            "path": d.path,
            "root": d.root,
            "title": d.title,
            "disposition": self.disposition,
            "reasons": list(self.reasons),
            "evidence": self.evidence.as_json(),
            "size": self.size.as_json(),
        }


@dataclass(frozen=True)
class Analysis:
    scope: Scope
    roots: tuple[dict[str, Any], ...]
    records: tuple[RecordResult, ...]
    blockers: tuple[dict[str, Any], ...]
    candidates: tuple[dict[str, Any], ...]

    def as_json(self) -> dict[str, Any]:
        return {
            "schemaVersion": SCHEMA_VERSION,
            "scope": self.scope.as_json(),
            "roots": list(self.roots),
            "records": [r.as_json() for r in self.records],
            "blockers": list(self.blockers),
            "candidates": list(self.candidates),
            "notes": [CAVEAT],
        }


def unstated_records(corpus: Corpus, require_status: bool | None) -> frozenset[str]:
    """Records that state no status where their log asks for none (read as in force)."""
    out: set[str] = set()
    for log in logs_of(corpus).values():
        out |= unstated_by_habit(log, require_status)
    return frozenset(out)


def _by_root(decisions: Sequence[Decision]) -> dict[str, list[Decision]]:
    """The records of each root, in their order (grouped once: roots times records is not)."""
    out: dict[str, list[Decision]] = {}
    for d in decisions:
        out.setdefault(d.root, []).append(d)
    return out


def _median(values: Sequence[int]) -> int:
    return int(statistics.median(values)) if values else 0


def analyse(
    corpus: Corpus,
    scope: Scope,
    states: Sequence[CurrentState],
    findings: Sequence[Finding],
    sizes: Mapping[str, Size],
    require_status: bool | None = None,
) -> Analysis:
    """The analysis of ``scope`` (``findings``: the blocker checks run over the corpus;
    ``sizes``: reading size by path, records and CURRENT views; ``require_status``: the
    setting, else each log's habit says whether a record without a status is in force)."""
    graph = build(corpus)
    unstated = unstated_records(corpus, require_status)
    by_root = _by_root(corpus.decisions)
    medians = {
        root: _median([sizes.get(d.path, Size()).code_points for d in by_root.get(root, ())
                       if not d.archived])
        for root in corpus.roots
    }
    blocking = [f for f in findings if f.code in BLOCKER_KINDS and f.severity >= Severity.WARNING
                and f.location.path in corpus.by_path]
    known = facts(graph, states, blocking, unstated)
    results: list[RecordResult] = []
    for d in scope.decisions:
        ev = gather(d, known)
        size = sizes.get(d.path, Size())
        disposition, reasons = dispose(ev, size, medians.get(d.root, 0))
        results.append(RecordResult(ev, disposition, tuple(reasons), size))
    in_scope = {d.path for d in scope.decisions}
    return Analysis(
        scope=scope,
        roots=tuple(_roots(corpus, results, states, sizes)),
        records=tuple(results),
        blockers=tuple(_blockers(blocking, in_scope, corpus, scope, states)),
        candidates=tuple(_candidates(known, in_scope)),
    )


def _roots(
    corpus: Corpus,
    results: Sequence[RecordResult],
    states: Sequence[CurrentState],
    sizes: Mapping[str, Size],
) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    views = {s.root: s for s in states}
    by_root = _by_root(corpus.decisions)
    chosen_by_root: dict[str, list[RecordResult]] = {}
    for r in results:
        chosen_by_root.setdefault(r.evidence.decision.root, []).append(r)
    for root in corpus.roots:
        mine = by_root.get(root, [])
        if not mine:
            continue
        live = [d for d in mine if not d.archived]
        statuses = dict.fromkeys(STATUS_KEYS, 0)
        for d in live:
            statuses[status_key(d)] += 1
        chosen = chosen_by_root.get(root, [])
        counts = dict.fromkeys(DISPOSITIONS, 0)
        for r in chosen:
            counts[r.disposition] += 1
        reading = total([sizes.get(d.path, Size()) for d in live])
        leaving = total([r.size for r in chosen if r.disposition == "archive-candidate"])
        state = views.get(root)
        current = None
        if state is not None:
            current = {
                "view": state.view,
                "fresh": state.fresh,
                "reasons": len(state.reasons),
                "size": sizes[state.view].as_json() if state.view in sizes else None,
            }
        out.append({
            "root": root,
            "records": len(live),
            "archived": len(mine) - len(live),
            "inScope": len(chosen),
            "statuses": statuses,
            "dispositions": counts,
            "size": reading.as_json(),
            "sizeAfterArchiving": Size(
                reading.bytes - leaving.bytes,
                reading.code_points - leaving.code_points,
                reading.tokens - leaving.tokens,
            ).as_json(),
            "current": current,
        })
    return out


def _blockers(
    findings: Sequence[Finding],
    in_scope: set[str],
    corpus: Corpus,
    scope: Scope,
    states: Sequence[CurrentState],
) -> list[dict[str, Any]]:
    ids = {corpus.by_path[p].id for p in in_scope}
    out: list[dict[str, Any]] = []
    for f in findings:
        if f.location.path in in_scope or (f.code == "ADR303" and ids & set(f.related)):
            out.append({
                "kind": BLOCKER_KINDS[f.code],
                "code": f.code,
                "path": f.location.path,
                "line": f.location.line,
                "decisionId": f.decision_id,
                "message": f.message,
            })
    roots = {d.root for d in scope.decisions}
    for state in states:
        if state.root in roots and not state.fresh:
            first = state.reasons[0]
            more = f" (and {len(state.reasons) - 1} more)" if len(state.reasons) > 1 else ""
            out.append({
                "kind": "stale-current",
                "code": first.code,
                "path": state.view,
                "line": 1,
                "decisionId": None,
                "message": f"{state.view} is stale: {first.message}{more}; see "
                           "`adrguard current status`",
            })
    return sorted(out, key=lambda b: (b["path"], b["line"], b["code"], b["message"]))


def _chains(graph: Graph) -> list[list[Decision]]:
    """The groups of records joined by supersession (weakly connected), three or more."""
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for e in graph.edges:
        if e.kind == "supersedes" and e.source != e.target:
            parent[find(e.source)] = find(e.target)
    groups: dict[str, list[str]] = {}
    for node in list(parent):
        groups.setdefault(find(node), []).append(node)
    return [
        sorted((graph.decision(p) for p in members), key=_order)
        for members in groups.values() if len(members) >= 3
    ]


def _order(d: Decision) -> tuple[int, int, str]:
    return (0, d.number, d.path) if d.number is not None else (1, 0, d.path)


def _candidates(known: Facts, in_scope: set[str]) -> list[dict[str, Any]]:
    graph, unstated = known.graph, known.unstated
    out: list[dict[str, Any]] = []
    for chain in _chains(graph):
        if not any(d.path in in_scope for d in chain):
            continue
        heads = [d for d in chain if not graph.successors(d)]
        retired = [d for d in chain if d not in heads and not d.archived]
        in_force = [d for d in heads if is_active(d, unstated)]
        out.append({
            "kind": "chain",
            "records": [d.id for d in chain],
            "heads": [d.id for d in heads],
            "message": (
                f"{len(chain)} records replace one another ({' -> '.join(d.id for d in chain)}); "
                + (f"{', '.join(d.id for d in in_force)} in force: check it states everything "
                   "that still holds, then archive the "
                   f"{plural(len(retired), 'retired record')} not archived yet"
                   if in_force else "no record of the chain is in force: decide it first")
            ),
        })
    for d in graph.corpus.decisions:
        group = known.amenders_of(d)
        if is_active(d, unstated) and len(group) >= 2 and (
            d.path in in_scope or any(a.path in in_scope for a in group)
        ):
            out.append({
                "kind": "amended",
                "records": [d.id, *(a.id for a in group)],
                "heads": [d.id],
                "message": f"{d.id} is amended by {', '.join(a.id for a in group)}: draft one "
                           "record that states what holds now, and have it reviewed",
            })
    return sorted(out, key=lambda c: (c["kind"], c["records"]))
