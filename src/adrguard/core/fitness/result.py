"""What ``adrguard verify`` found: one result per fitness rule, and the run's verdict. Pure.

A result's ``status`` is ``pass``, ``violation``, ``unknown`` (the evidence is missing,
unreadable, of the wrong type, or contradicts itself: never a pass) or ``not-applicable`` (the
decision is not accepted). Its ``confidence`` says what the verdict rests on:

* ``high``: files adrguard read itself, checked exhaustively (text, paths, an import found);
* ``medium``: a claim adrguard cannot check (an evidence file another tool wrote), or a static
  read that cannot see everything (no forbidden import found: imports made at run time by a
  computed name are invisible);
* ``none``: no verdict (``unknown``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from adrguard.core.fitness.manifest import FitnessRule
from adrguard.core.fitness.pointer import type_name
from adrguard.core.model import Decision

PASS, VIOLATION, UNKNOWN, NOT_APPLICABLE = "pass", "violation", "unknown", "not-applicable"
POLICIES = ("advisory", "enforce")
SCHEMA_VERSION = 1
ITEMS_SHOWN = 200  # evidence items per result in the JSON output (the rest are counted)
VALUE_CHARS = 1_000  # a value longer than this (as JSON) is summarised, not copied


@dataclass(frozen=True, slots=True)
class Item:
    """One piece of evidence behind a result: a value at a pointer, a line, a path, a glob."""

    verdict: str  # pass | violation | unknown
    file: str | None = None
    pointer: str | None = None
    value: Any = None
    has_value: bool = False
    line: int | None = None
    text: str | None = None  # the matching line, the forbidden module, the glob
    problem: str | None = None  # why the verdict is unknown
    key: str | None = None  # identity of a violation for the drift baseline
    baseline: str | None = None  # new | known (violations, when a baseline is used)


@dataclass(frozen=True)
class RuleResult:
    rule: FitnessRule
    decision: Decision
    status: str
    confidence: str  # high | medium | none
    message: str
    items: tuple[Item, ...] = ()
    successor: Decision | None = None
    baseline: str | None = None  # new | known | fixed (None: no baseline, or no verdict)
    fixed: int = 0  # baseline entries of this rule that no longer occur

    @property
    def violations(self) -> tuple[Item, ...]:
        return tuple(i for i in self.items if i.verdict == VIOLATION)


@dataclass(frozen=True)
class Drift:
    """How the violations compare with the drift baseline."""

    path: str
    new: int = 0
    known: int = 0
    fixed: int = 0
    stale: int = 0  # entries of rules the manifest no longer has, or no longer evaluates


@dataclass(frozen=True)
class Verification:
    manifest: str
    policy: str
    results: tuple[RuleResult, ...]
    evidence: tuple[tuple[str, str | None], ...] = ()  # evidence files read, and their problem
    drift: Drift | None = None
    notes: tuple[str, ...] = ()
    accepted: int = 0  # accepted decisions in the corpus
    covered: int = 0  # of which have at least one rule

    def count(self, status: str) -> int:
        return sum(1 for r in self.results if r.status == status)

    @property
    def inconclusive(self) -> bool:
        return any(r.status == UNKNOWN for r in self.results)

    @property
    def new_violations(self) -> int:
        """Violations the baseline does not know (every violation when there is none)."""
        return sum(1 for r in self.results for i in r.violations if i.baseline != "known")

    @property
    def policy_failed(self) -> bool:
        return self.policy == "enforce" and (self.inconclusive or self.new_violations > 0)

    @property
    def coverage_line(self) -> str:
        noun = "decision has" if self.accepted == 1 else "decisions have"
        return f"{self.covered} of {self.accepted} accepted {noun} fitness rules"


def shown_value(value: Any) -> tuple[bool, Any, str | None]:
    """``(copied, value, summary)``: a value short enough is copied into the output; a long
    array, object or string is summarised."""
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    if len(text) <= VALUE_CHARS:
        return True, value, None
    if isinstance(value, list):
        return False, None, f"an array of {len(value):,} item{'' if len(value) == 1 else 's'}"
    if isinstance(value, dict):
        return False, None, f"an object of {len(value):,} keys"
    return False, None, f"{type_name(value)} of {len(text):,} characters"


def item_json(i: Item) -> dict[str, Any]:
    out: dict[str, Any] = {"verdict": i.verdict, "file": i.file}
    if i.pointer is not None:
        out["pointer"] = i.pointer
    if i.has_value:
        copied, value, summary = shown_value(i.value)
        if copied:
            out["value"] = value
        else:
            out["valueSummary"] = summary
    if i.line is not None:
        out["line"] = i.line
        out["location"] = f"{i.file}:{i.line}"
    if i.text is not None:
        out["text"] = i.text
    if i.problem is not None:
        out["problem"] = i.problem
    if i.baseline is not None:
        out["baseline"] = i.baseline
    return out


def result_json(r: RuleResult) -> dict[str, Any]:
    d = r.decision
    items = [item_json(i) for i in _ordered(r.items)[:ITEMS_SHOWN]]
    out: dict[str, Any] = {
        "rule": r.rule.id,
        "kind": r.rule.kind,
        "description": r.rule.description,
        "decision": d.id,
        "decisionTitle": d.title,
        "decisionPath": d.path,
        "decisionStatus": d.status.value if d.status is not None else None,
        "status": r.status,
        "confidence": r.confidence,
        "evidence": items,
        "evidenceOmitted": max(0, len(r.items) - ITEMS_SHOWN),
        "baseline": r.baseline,
        "message": r.message,
        "line": r.rule.line,
        "successor": r.successor.id if r.successor is not None else None,
        "fixed": r.fixed,
    }
    return out


def _ordered(items: Sequence[Item]) -> list[Item]:
    """Violations and unknowns first (what needs attention), each in the order found."""
    rank = {VIOLATION: 0, UNKNOWN: 1, PASS: 2}
    return sorted(items, key=lambda i: rank.get(i.verdict, 3))


def to_json(v: Verification, schema_version: int | str = SCHEMA_VERSION) -> dict[str, Any]:
    """The result as ``schemas/verify.schema.json`` describes it (the MCP tool passes
    ``"1.0"`` as its schema version)."""
    out: dict[str, Any] = {
        "schemaVersion": schema_version,
        "manifest": v.manifest,
        "policy": v.policy,
        "inconclusive": v.inconclusive,
        "policyFailed": v.policy_failed,
        "summary": {
            "pass": v.count(PASS),
            "violation": v.count(VIOLATION),
            "unknown": v.count(UNKNOWN),
            "notApplicable": v.count(NOT_APPLICABLE),
            "newViolations": v.new_violations,
        },
        "coverage": {"accepted": v.accepted, "withRules": v.covered, "line": v.coverage_line},
        "results": [result_json(r) for r in v.results],
        "evidenceFiles": [{"file": p, "problem": why} for p, why in v.evidence],
        "drift": None,
        "notes": list(v.notes),
        "statement": "Fitness results are evidence about accepted decisions, not architectural "
                     "approval. Missing or contradictory evidence is never a pass.",
    }
    if v.drift is not None:
        dr = v.drift
        out["drift"] = {"baseline": dr.path, "new": dr.new, "known": dr.known,
                        "fixed": dr.fixed, "stale": dr.stale}
    return out
