"""The drift baseline (``.adrguard-drift-baseline.json``): the violations a repository already
had when it was written. Pure: parse, compare, render.

Each violation has a fingerprint (see :mod:`adrguard.core.fitness.evaluate`: the evidence file
and pointer, the path, or a line's text and its occurrence in the file, never its line number),
so a violation that moves stays ``known``. A violation the baseline lacks is ``new``; a baseline
entry that no longer occurs is ``fixed`` (its rule's result says so when the rule now passes).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace

from adrguard.core.errors import UserError
from adrguard.core.fitness.result import (
    NOT_APPLICABLE,
    PASS,
    UNKNOWN,
    VIOLATION,
    Drift,
    Item,
    RuleResult,
)
from adrguard.core.schemas import load_json, validator

DEFAULT_PATH = ".adrguard-drift-baseline.json"
SCHEMA = "drift-baseline.schema.json"
ABOUT = ("Fitness-rule violations accepted as known, written by `adrguard verify "
         "--write-baseline`. Later runs report violations missing here as new.")


@dataclass(frozen=True, slots=True, order=True)
class Entry:
    rule: str
    fingerprint: str
    file: str | None = None
    summary: str = ""


def parse(data: bytes, shown: str) -> list[Entry]:
    """The entries of a drift baseline's bytes; :class:`UserError` names the file and the fix."""
    fix = "write it again with `adrguard verify --write-baseline`"
    try:
        doc = load_json(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise UserError(f"{shown} is not valid JSON ({str(exc)[:120]}); {fix}") from None
    error = next(iter(validator(SCHEMA).iter_errors(doc)), None)
    if error is not None:
        where = "/".join(str(p) for p in error.absolute_path) or "the top level"
        raise UserError(f"{shown}: {error.message[:200]} at {where}; {fix}")
    return [Entry(v["rule"], v["fingerprint"], v.get("file"), v.get("summary", ""))
            for v in doc["violations"]]


def summary_of(item: Item) -> str:
    """What a violation is, in a few words, for the people who review the baseline file."""
    if item.pointer is not None:
        return f"{item.file} {item.pointer or '(document)'}"
    if item.line is not None and item.text is not None:
        return f"{item.file}: {item.text[:120]}"
    return item.file or item.text or ""


def entries_of(results: Sequence[RuleResult]) -> list[Entry]:
    """Today's violations as baseline entries, sorted (the file is deterministic)."""
    return sorted(
        Entry(r.rule.id, i.key, i.file, summary_of(i))
        for r in results
        for i in r.violations
        if i.key is not None
    )


def render(entries: Sequence[Entry], manifest: str) -> str:
    rows = []
    for e in entries:
        row: dict[str, object] = {"rule": e.rule, "fingerprint": e.fingerprint, "file": e.file}
        if e.summary:
            row["summary"] = e.summary
        rows.append(row)
    doc = {"schemaVersion": 1, "tool": "adrguard", "about": ABOUT, "manifest": manifest,
           "violations": rows}
    return json.dumps(doc, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def judge(
    results: Sequence[RuleResult], entries: Sequence[Entry], path: str
) -> tuple[tuple[RuleResult, ...], Drift]:
    """Mark each violation ``known`` or ``new`` and each result ``new``, ``known`` or
    ``fixed``; count the entries that no longer occur."""
    pending = Counter((e.rule, e.fingerprint) for e in entries)
    per_rule = Counter(e.rule for e in entries)
    rules = {r.rule.id for r in results}
    out: list[RuleResult] = []
    new = known = fixed = 0
    for r in results:
        items: list[Item] = []
        for i in r.items:
            if i.verdict == VIOLATION and i.key is not None:
                slot = (r.rule.id, i.key)
                state = "known" if pending[slot] > 0 else "new"
                if state == "known":
                    pending[slot] -= 1
                i = replace(i, baseline=state)
            items.append(i)
        states = {i.baseline for i in items if i.verdict == VIOLATION}
        new += sum(1 for i in items if i.baseline == "new")
        known += sum(1 for i in items if i.baseline == "known")
        out.append(replace(r, items=tuple(items), baseline=_state(r.status, states,
                                                                   per_rule[r.rule.id])))
    stale = 0
    for r_index, r in enumerate(out):
        left = sum(n for (rule, _fp), n in pending.items() if rule == r.rule.id)
        if not left or r.status == UNKNOWN:
            continue  # no verdict: an entry may or may not still occur
        if r.status == NOT_APPLICABLE:
            stale += left  # the rule is not evaluated any more
            continue
        fixed += left
        out[r_index] = replace(r, fixed=left)
    stale += sum(n for (rule, _fp), n in pending.items() if rule not in rules)
    return tuple(out), Drift(path, new=new, known=known, fixed=fixed, stale=stale)


def _state(status: str, states: set[str | None], entries: int) -> str | None:
    if status == VIOLATION:
        return "new" if "new" in states else "known"
    if status == PASS and entries:
        return "fixed"
    return None
