"""An archive plan as data (``schemas/archive-plan.schema.json``): the records, the file moves,
the link rewrites, the INDEX and CURRENT changes, the conflicts and risks, and the hashes of
every file it was made from. Its id is the SHA-256 of its own canonical JSON, so the same
repository state and request always make the same plan, and any edit of a plan file shows.
Pure."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from adrguard.core.compaction.moves import Edit, Issue, Rewrite, sha256
from adrguard.core.compaction.moves import apply_edits as _apply

SCHEMA_VERSION = 1
PROTOCOL = "adrguard-archive/1"


@dataclass(frozen=True)
class Planned:
    """One record to archive."""

    id: str
    path: str
    target: str
    status: str
    successor: str | None
    mirrors: tuple[str, ...] = ()  # its translation mirrors, moved with it


@dataclass(frozen=True)
class IndexChange:
    path: str
    action: str  # create | update
    before: str | None  # sha256 of the file now (None: absent)
    after: str  # sha256 of what the index will hold


def canonical(data: Mapping[str, Any]) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def plan_id(body: Mapping[str, Any]) -> str:
    """The id of a plan: SHA-256 of its canonical JSON without the ``planId`` key."""
    rest = {k: v for k, v in body.items() if k != "planId"}
    return hashlib.sha256(canonical(rest).encode("utf-8")).hexdigest()


def _issue(i: Issue) -> dict[str, Any]:
    return {"kind": i.kind, "path": i.path, "line": i.line, "message": i.message,
            "blocking": i.blocking}


def build(
    records: Sequence[Planned],
    moves: Mapping[str, str],
    hashes: Mapping[str, str],
    rewrites: Sequence[Rewrite],
    index: Sequence[IndexChange],
    current: Mapping[str, Sequence[tuple[str, str]]],
    conflicts: Sequence[Issue],
    risks: Sequence[Issue],
) -> dict[str, Any]:
    """The plan's JSON, ``planId`` included (``hashes``: sha256 of every file it read)."""
    body: dict[str, Any] = {
        "schemaVersion": SCHEMA_VERSION,
        "protocol": PROTOCOL,
        "records": [
            {"id": r.id, "path": r.path, "target": r.target, "status": r.status,
             "successor": r.successor, "mirrors": list(r.mirrors)}
            for r in sorted(records, key=lambda r: r.path)
        ],
        "moves": [{"from": a, "to": b, "sha256": hashes[a]} for a, b in sorted(moves.items())],
        "rewrites": [
            {
                "source": rw.source,
                "path": rw.path,
                "sha256Before": sha256(rw.before),
                "sha256After": sha256(rw.after),
                "edits": [
                    {"start": e.start, "end": e.end, "line": e.line, "kind": e.kind,
                     "direction": e.direction, "old": e.old, "new": e.new}
                    for e in rw.edits
                ],
            }
            for rw in sorted(rewrites, key=lambda rw: rw.source)
        ],
        "index": [
            {"path": c.path, "action": c.action, "sha256Before": c.before, "sha256After": c.after}
            for c in sorted(index, key=lambda c: c.path)
        ],
        "current": [
            {"view": view, "reasons": [{"code": c, "message": m} for c, m in sorted(reasons)]}
            for view, reasons in sorted(current.items()) if reasons
        ],
        "conflicts": sorted((_issue(i) for i in conflicts),
                            key=lambda x: (x["path"], x["line"], x["kind"], x["message"])),
        "risks": sorted((_issue(i) for i in risks),
                        key=lambda x: (x["path"], x["line"], x["kind"], x["message"])),
        "inputs": dict(sorted(hashes.items())),
    }
    body["planId"] = plan_id(body)
    return body


def blocking(plan: Mapping[str, Any]) -> list[dict[str, Any]]:
    return [c for c in plan["conflicts"] if c["blocking"]]


def dump(plan: Mapping[str, Any]) -> str:
    """A plan file: sorted keys, two-space indent, LF, trailing newline."""
    return json.dumps(plan, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def apply_edits(data: bytes, edits: Sequence[Mapping[str, Any]]) -> bytes:
    """``data`` with a plan's edits (as JSON) made; ValueError when the bytes replaced are not
    the ones planned."""
    return _apply(data, [
        Edit(e["start"], e["end"], e["line"], e["kind"], e["direction"], e["old"], e["new"])
        for e in edits
    ])
