"""``adrguard verify --audit``: which accepted decisions have fitness rules, which have none,
and which rules point at decisions that are not in force. Pure; reads no evidence.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from adrguard.core.fitness.manifest import FitnessManifest, FitnessRule
from adrguard.core.fitness.result import SCHEMA_VERSION
from adrguard.core.graph import graph
from adrguard.core.model import INACTIVE_STATUSES, Corpus, Decision, Status


@dataclass(frozen=True)
class Audit:
    manifest: str
    covered: tuple[tuple[Decision, tuple[FitnessRule, ...]], ...]  # accepted, with rules
    uncovered: tuple[Decision, ...]  # accepted, without rules
    inactive: tuple[tuple[FitnessRule, Decision, Decision | None], ...]  # rule, target, successor
    pending: tuple[tuple[FitnessRule, Decision], ...]  # rules on proposed/draft/no-status records

    @property
    def accepted(self) -> int:
        return len(self.covered) + len(self.uncovered)

    @property
    def line(self) -> str:
        noun = "decision has" if self.accepted == 1 else "decisions have"
        return f"{len(self.covered)} of {self.accepted} accepted {noun} fitness rules"


def audit(corpus: Corpus, manifest: FitnessManifest, targets: Mapping[str, Decision]) -> Audit:
    """``targets``: each rule's decision (rule id → record), as the one lookup resolved it."""
    by_path: dict[str, list[FitnessRule]] = {}
    inactive: list[tuple[FitnessRule, Decision, Decision | None]] = []
    pending: list[tuple[FitnessRule, Decision]] = []
    g = graph.build(corpus)
    for rule in manifest.rules:
        d = targets[rule.id]
        if d.status in INACTIVE_STATUSES:
            inactive.append((rule, d, g.current_successor(d)))
        elif d.status is not Status.ACCEPTED:
            pending.append((rule, d))
        else:
            by_path.setdefault(d.path, []).append(rule)
    # the decisions in force: accepted, and not in an archive
    accepted = tuple(d for d in corpus.decisions if d.status is Status.ACCEPTED and not d.archived)
    covered = tuple((d, tuple(by_path[d.path])) for d in accepted if d.path in by_path)
    uncovered = tuple(d for d in accepted if d.path not in by_path)
    return Audit(manifest.path, covered, uncovered, tuple(inactive), tuple(pending))


def _row(d: Decision) -> dict[str, Any]:
    return {"id": d.id, "title": d.title, "path": d.path,
            "status": d.status.value if d.status is not None else None}


def to_json(a: Audit) -> dict[str, Any]:
    """``schemas/verify-audit.schema.json``."""
    return {
        "schemaVersion": SCHEMA_VERSION,
        "manifest": a.manifest,
        "summary": a.line,
        "accepted": a.accepted,
        "withRules": len(a.covered),
        "covered": [
            {**_row(d), "rules": [{"id": r.id, "kind": r.kind} for r in rules]}
            for d, rules in a.covered
        ],
        "uncovered": [_row(d) for d in a.uncovered],
        "inactive": [
            {"rule": r.id, **_row(d), "successor": s.id if s is not None else None}
            for r, d, s in a.inactive
        ],
        "notYetAccepted": [{"rule": r.id, **_row(d)} for r, d in a.pending],
    }
