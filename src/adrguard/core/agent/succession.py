"""Where a record's supersession chain ends, without guessing. Pure.

A record nothing supersedes has no successor (``none``). Otherwise the chain of declared
"supersedes" edges is followed while every step has exactly one successor: its end is the
``current`` successor. When some record on the way is superseded by several records at once
the answer is ``ambiguous``, with those records as the candidates (none of them is chosen: the
reader decides, or the log is fixed); when the chain comes back to a record already on it the
answer is ``cyclic``. The walk visits each record at most once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from adrguard.core.graph.graph import Graph
from adrguard.core.model import Decision, status_key

NONE = "none"
CURRENT = "current"
AMBIGUOUS = "ambiguous"
CYCLIC = "cyclic"


@dataclass(frozen=True, slots=True)
class Succession:
    """How a record's supersession chain ends."""

    state: str  # none | current | ambiguous | cyclic
    successor: Decision | None = None  # the current successor (state "current")
    candidates: tuple[Decision, ...] = ()  # the records at the fork (state "ambiguous")
    at: Decision | None = None  # the record the fork or the cycle is at
    chain: tuple[Decision, ...] = ()  # records passed, from the first successor on

    def describe(self, d: Decision) -> str | None:
        """A warning for an agent (None when there is nothing to say)."""
        if self.state == AMBIGUOUS and self.at is not None:
            names = ", ".join(f"{c.id} ({status_key(c)}, {c.path})" for c in self.candidates)
            where = "" if self.at.path == d.path else f" (via {self.at.id})"
            return (
                f"{d.id} has an ambiguous successor{where}: {names} all supersede "
                f"{self.at.id}; none was chosen: ask for one by identifier"
            )
        if self.state == CYCLIC and self.at is not None:
            return f"{d.id}'s supersession chain loops back to {self.at.id}: no current successor"
        return None


def succession(graph: Graph, d: Decision) -> Succession:
    """Where ``d``'s supersession chain ends (see the module docstring)."""
    seen = {d.path}
    chain: list[Decision] = []
    current = d
    while True:
        nxt = sorted({s.path: s for s in graph.successors(current)}.values(), key=_order)
        if not nxt:
            if current is d:
                return Succession(NONE)
            return Succession(CURRENT, current, chain=tuple(chain))
        if len(nxt) > 1:
            return Succession(AMBIGUOUS, None, tuple(nxt), current, tuple(chain))
        step = nxt[0]
        if step.path in seen:
            return Succession(CYCLIC, None, (), step, tuple(chain))
        seen.add(step.path)
        chain.append(step)
        current = step


def _order(d: Decision) -> tuple[str, str]:
    return d.id, d.path


def to_json(s: Succession) -> dict[str, Any]:
    """The succession as plain data: state, the successor, the candidates."""

    def row(d: Decision) -> dict[str, Any]:
        return {"identifier": d.id, "title": d.title, "status": status_key(d), "path": d.path}

    return {
        "state": s.state,
        "successor": row(s.successor) if s.successor is not None else None,
        "candidates": [row(c) for c in s.candidates],
        "at": s.at.id if s.at is not None else None,
    }
