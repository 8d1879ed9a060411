"""A proposed disposition for each record, from its evidence: the same five values as a CURRENT
manifest's ``coverage`` (there in the past tense: what a reviewer did; here what to do).

* ``keep`` — in force and readable as it is;
* ``summarize`` — in force, but long: a CURRENT view should carry its substance;
* ``consolidate`` — in force, spread over several records (repeatedly amended): one new record
  should replace them, reviewed by people;
* ``open`` — something must be decided or fixed first (a proposal, an unknown status, a
  contradiction, a dangling relation, a successor that is not accepted, ...);
* ``archive-candidate`` — fully retired: it may move to the archive (``adrguard archive plan``).

A reviewer's coverage in a fresh CURRENT manifest is a human decision and wins over the
size and amendment heuristics for records in force. Nothing here decides what a record means:
dispositions are proposals from structure, never a judgement of content.
"""

from __future__ import annotations

from adrguard.core.compaction.evidence import (
    IN_FORCE_COVERAGE,
    REPEATEDLY,
    Evidence,
)
from adrguard.core.compaction.size import Size
from adrguard.core.model import Decision, Status

DISPOSITIONS = ("keep", "summarize", "consolidate", "open", "archive-candidate")
COVERAGE_TO_DISPOSITION = {
    "kept": "keep",
    "summarized": "summarize",
    "consolidated": "consolidate",
    "archive-candidate": "archive-candidate",
}
# A record this long (and twice its log's median length) is proposed for a summary: half of
# what one bounded context response holds (12,000 code points), so it cannot be read whole
# beside the records it relates to.
LONG_CODE_POINTS = 6000
RETIRED = frozenset({Status.SUPERSEDED, Status.DEPRECATED, Status.REJECTED})


def _names(records: tuple[object, ...] | list[object]) -> str:
    ids = sorted({getattr(r, "id", str(r)) for r in records})
    shown = ", ".join(ids[:5])
    return shown + (f" and {len(ids) - 5} more" if len(ids) > 5 else "")


def _state(d: Decision) -> str:
    return d.status.value if d.status is not None else "no status, in force by the log's habit"


def not_retired(ev: Evidence) -> list[str]:
    """Why ``ev.decision`` may not move to the archive (empty: it is fully retired). A record is
    retired when it is superseded and the end of its chain is accepted, or deprecated or
    rejected; and nothing in force still leans on it."""
    d = ev.decision
    why: list[str] = []
    if d.archived:
        return ["it is in the archive already"]
    if d.status not in RETIRED:
        what = d.status.value if d.status is not None else "no status"
        return [f"it is not retired (status {what}): only superseded, deprecated or rejected "
                "records move to the archive"]
    if d.status is Status.SUPERSEDED:
        head = ev.current_successor
        if head is None:
            why.append("it is marked superseded but no successor resolves: name the record "
                       "that supersedes it")
        elif not ev.live(head):
            status = head.status.value if head.status is not None else "no status"
            why.append(f"its successor {head.id} is {status}, not accepted: the supersession "
                       "is not in force yet")
    if ev.depended_on_by:
        why.append(f"accepted {_names(list(ev.depended_on_by))} still depend on it")
    live_amenders = [a for a in ev.amended_by if ev.live(a)]
    if live_amenders:
        why.append(f"accepted {_names(list(live_amenders))} amend it: part of it may be in force")
    for c in ev.coverage:
        if c.coverage in IN_FORCE_COVERAGE:
            why.append(f"{c.view} covers it as {c.coverage}: the reviewed view says it is in "
                       "force (change its coverage, review and stamp the view first)")
    for f in ev.blockers:
        if f.code != "ADR307":  # a successor not accepted: said above, in these words
            why.append(f"{f.code}: {f.message}")
    if ev.unresolved:
        why.append(f"relationship targets resolve to no record: {', '.join(ev.unresolved)}")
    return why


def dispose(ev: Evidence, size: Size, median_code_points: int) -> tuple[str, list[str]]:
    """(disposition, reasons) for ``ev.decision`` (see the module docstring)."""
    d = ev.decision
    blockers = [f"{f.code}: {f.message}" for f in ev.blockers]
    if ev.unresolved:
        blockers.append(f"relationship targets resolve to no record: {', '.join(ev.unresolved)}")
    if d.status in RETIRED:
        why = not_retired(ev)
        if why:
            return "open", why
        if d.status is Status.SUPERSEDED and ev.current_successor is not None:
            return "archive-candidate", [
                f"superseded; {ev.current_successor.id} ({_state(ev.current_successor)}) is in "
                "force in its place"
            ]
        word = "rejected: never in force" if d.status is Status.REJECTED else (
            "deprecated: retired without a successor")
        return "archive-candidate", [word]
    if blockers:
        return "open", blockers
    if ev.unstated_in_force:
        disposition, reasons = _in_force(ev, size, median_code_points)
        return disposition, [*reasons, "states no status, as its log does by habit: read as "
                         "in force (`require-status = true` asks every record for one)"]
    if d.status is None or d.status is Status.UNKNOWN:
        raw = f" ({d.status_raw!r})" if d.status_raw else ""
        return "open", [f"its status is {'unknown' + raw if d.status else 'not stated'}: "
                        "say whether it is in force"]
    if d.status is not Status.ACCEPTED:
        return "open", [f"{d.status.value}: a proposal is still a proposal; accept or reject it"]
    return _in_force(ev, size, median_code_points)


def _in_force(ev: Evidence, size: Size, median_code_points: int) -> tuple[str, list[str]]:
    accepted_successors = [s for s in ev.successors if ev.live(s)]
    if accepted_successors:
        if ev.unstated_in_force:
            return "open", [f"{_names(list(accepted_successors))} (in force) supersede it, but "
                            "it states no status: mark it superseded to retire it"]
        return "open", [f"{_names(list(accepted_successors))} (accepted) supersede it, but its "
                        "status is still accepted: two decisions in force"]
    reviewed = [c for c in ev.coverage if c.reviewed]
    if reviewed:
        c = reviewed[0]
        wanted = COVERAGE_TO_DISPOSITION[c.coverage]
        if wanted == "archive-candidate":
            return "open", [f"{c.view} marks it archive-candidate, but it is accepted"]
        return wanted, [f"{c.view} covers it as {c.coverage} (reviewed, unchanged since)"]
    notes: list[str] = []
    pending = [s for s in ev.successors if not ev.live(s)]
    if pending:
        notes.append(f"still in force: its successor {_names(list(pending))} is not accepted")
    amenders = [a for a in ev.amended_by if a.status is not Status.REJECTED]
    if len(amenders) >= REPEATEDLY:
        return "consolidate", [f"amended by {_names(list(amenders))}: one record should "
                               "state what holds now", *notes]
    if ev.amends_repeatedly:
        return "consolidate", [f"one of the amendments of {_names(list(ev.amends_repeatedly))}: "
                               "one record should state what holds now", *notes]
    long = size.code_points > LONG_CODE_POINTS and size.code_points > 2 * median_code_points
    if long:
        return "summarize", [
            f"{size.code_points} code points (~{size.tokens} tokens), over {LONG_CODE_POINTS} "
            f"and twice the log's median ({median_code_points}): summarize it in CURRENT.md",
            *notes,
        ]
    if amenders:
        notes.append(f"amended by {_names(list(amenders))}: read them together")
    live = [t for t in ev.amends if ev.live(t)]
    if live:
        notes.append(f"amends {_names(list(live))}: read them together")
    return "keep", notes or ["in force and stands alone"]
