"""The plan lifecycle: archive plans kept in the repository's git folder, and what became of
each (``adrguard compaction status``, ``adrguard compaction --confirm PLAN-ID``).

A plan is kept in ``<git dir>/adrguard/archive/plans/<planId>.json`` when ``archive plan
--out`` writes it (or ``--save`` asks for it) and when ``archive apply`` applies it; its
recovery log (:class:`adrguard.api.archive.apply.Log`) says what was done. The state of a plan:

=========  ==================================================================================
planned    kept, never applied (no recovery log)
applied    its recovery log says applied
restored   applied, then undone by ``archive restore``
failed     an apply or restore that stopped half-way (an error, a crash, a killed process):
           ``--confirm`` (or ``archive apply``) finishes it, ``archive restore`` undoes it
=========  ==================================================================================

Everything here reads, except :func:`keep`, which writes one file into the git folder
(outside the work tree: a kept plan never shows in ``git status``).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from adrguard.adapters.git import git_dir, is_ignored
from adrguard.adapters.write import write_atomic
from adrguard.core.errors import UserError
from adrguard.pathguard import is_inside, output_problem

_ID = re.compile(r"^[0-9a-f]{64}$")


def folder(root: Path) -> Path:
    """Where plans are kept: ``<git dir>/adrguard/archive/plans``."""
    return git_dir(root) / "adrguard" / "archive" / "plans"


def keep(root: Path, plan: dict[str, Any]) -> Path:
    """Keep ``plan`` (a checked plan) in the git folder, atomically; the same plan kept twice
    is one file."""
    from adrguard.core.compaction.plan import dump

    target = folder(root) / f"{plan['planId']}.json"
    text = dump(plan)
    try:
        if not target.is_file() or target.read_text(encoding="utf-8") != text:
            target.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(target, text)
    except OSError as exc:
        raise UserError(f"cannot keep the plan in {target}: {exc.strerror or exc}") from None
    return target


@dataclass(frozen=True)
class PlanState:
    """One plan and what became of it."""

    plan_id: str
    state: str  # planned | applied | restored | failed
    records: tuple[str, ...]  # the records it moves (paths before the move); () if unknown
    moves: int
    rewrites: int
    kept: str | None  # the kept plan file, None when only its recovery log is left
    log: str | None  # the recovery log, None when it was never applied
    detail: str  # what to do next, or what stopped it

    def as_json(self) -> dict[str, Any]:
        return {"planId": self.plan_id, "state": self.state, "records": list(self.records),
                "moves": self.moves, "rewrites": self.rewrites, "planFile": self.kept,
                "recoveryLog": self.log, "detail": self.detail}


def _load(path: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(path.read_bytes().decode("utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def states(root: Path) -> list[PlanState]:
    """Every kept plan and every recovery log, by plan id."""
    plans_dir = folder(root)
    logs_dir = plans_dir.parent
    ids: set[str] = set()
    for where in (plans_dir, logs_dir):
        if where.is_dir():
            ids.update(p.stem for p in where.glob("*.json") if _ID.match(p.stem))
    return [_state(root, pid, plans_dir / f"{pid}.json", logs_dir / f"{pid}.json")
            for pid in sorted(ids)]


def _state(root: Path, pid: str, kept: Path, logged: Path) -> PlanState:
    plan = _load(kept) if kept.is_file() else None
    log = _load(logged) if logged.is_file() else None
    moves = plan.get("moves", []) if plan else []
    records = tuple(str(m.get("from", "")) for m in moves if isinstance(m, dict))
    rewrites = len(plan.get("rewrites", [])) if plan else 0
    short = pid[:12]
    rel_kept = _shown(root, kept) if plan is not None else None
    rel_log = _shown(root, logged) if log is not None else None
    raw = str(log.get("state", "")) if log else "new"
    if raw in ("new", "") and log is None:
        state = "planned"
        detail = (f"apply it with `adrguard compaction --confirm {short}`" if plan else
                  "the plan file cannot be read")
    elif raw == "applied":
        state, detail = "applied", f"undo it with `adrguard archive restore {rel_kept or pid}`"
    elif raw == "restored":
        state, detail = "restored", "undone: every file is back"
    else:
        state = "failed"
        what = "a restore" if raw == "restoring" else "the apply"
        error = f": {log['error']}" if log and log.get("error") else ""
        detail = (f"{what} stopped half-way{error}; finish with `adrguard compaction --confirm "
                  f"{short}`" if raw != "restoring" else
                  f"{what} stopped half-way{error}; finish it with `adrguard archive restore`")
        detail += ", or undo with `adrguard archive restore`" if raw != "restoring" else ""
    return PlanState(pid, state, records, len(moves), rewrites, rel_kept, rel_log, detail)


def _shown(root: Path, path: Path) -> str:
    """A path for people: relative to the repository when inside it, else as it is."""
    try:
        return Path(os.path.relpath(path, root)).as_posix()
    except ValueError:
        return path.as_posix()


def find(root: Path, key: str) -> Path:
    """The kept plan whose id is ``key`` or starts with it (at least 6 hex digits)."""
    wanted = key.strip().casefold()
    if not re.fullmatch(r"[0-9a-f]{6,64}", wanted):
        raise UserError(f"{key!r} is not a plan id: give the id `adrguard compaction status` "
                        "lists (6 to 64 hex digits)")
    where = folder(root)
    hits = sorted(p for p in where.glob("*.json") if p.stem.startswith(wanted)) \
        if where.is_dir() else []
    if not hits:
        raise UserError(f"no kept plan {key} in this repository: `adrguard compaction status` "
                        "lists the plans; make one with `adrguard archive plan ID... --save`")
    if len(hits) > 1:
        raise UserError(f"{key} names {len(hits)} plans ({', '.join(p.stem[:12] for p in hits)})"
                        ": give more of the id")
    return hits[0]


__all__: Sequence[str] = ("PlanState", "find", "folder", "keep", "states")


def check_plan_target(root: Path, target: Path) -> None:
    """``archive plan --out``: a plan file goes outside the work tree, in the git folder, or
    where git ignores it (a :class:`UserError` otherwise)."""
    problem = output_problem(target, root)
    if problem is not None:
        raise UserError(f"--out {target}: {problem}")
    real = os.path.realpath(target if target.is_absolute() else Path.cwd() / target)
    top = os.path.realpath(root)
    if not is_inside(real, top):
        return
    try:
        private = os.path.realpath(git_dir(root))
    except UserError:
        private = ""
    if private and is_inside(real, private):
        return
    rel = os.path.relpath(real, top)
    if not is_ignored(root, rel):
        raise UserError(f"--out {target}: {rel} is inside the work tree and git does not ignore "
                        "it; write plans under .git/ (e.g. .git/adrguard/plan.json), outside "
                        "the repository, or to an ignored folder")
