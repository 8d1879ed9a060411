"""``archive apply`` and ``archive restore``: carry out a reviewed archive plan, and undo it
to the byte.

Apply checks the plan file (its schema, and that its id is the hash of its content), makes the
plan again from the repository and refuses when anything changed (naming what), then, step by
step, records in a recovery log (in the repository's git folder, outside the work tree) what it
is about to do and did: the target folders, each ``git mv`` (staged, as a person's would be),
each link rewrite (atomic writes, exactly the planned bytes), the INDEX regeneration when the
log keeps one (an index the move creates is staged, like the moves). CURRENT views are never
re-stamped: a move makes them stale, people review them. An interrupted apply resumes where it
stopped (each step checks the state it finds); applying an applied plan does nothing. Restore
puts back every byte from the log and moves the files back, refusing files changed since the
apply.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from adrguard.adapters.git import add, forget, git_dir
from adrguard.adapters.git import move as git_mv
from adrguard.adapters.write import Busy, exclusive, write_atomic, write_in_repo
from adrguard.api.archive.lifecycle import keep
from adrguard.api.archive.plan import make_plan
from adrguard.api.generated import current_states, current_texts, write_indexes
from adrguard.api.pipeline.corpus import load_with
from adrguard.config import Config
from adrguard.core.compaction import plan as plans
from adrguard.core.compaction.moves import sha256
from adrguard.core.errors import UserError
from adrguard.core.generated import current, manifest
from adrguard.core.generated.region import content_sha256, join_root
from adrguard.core.schemas import load_json, validator
from adrguard.core.wording import plural
from adrguard.pathguard import read_problem, write_problem

LOG_SCHEMA = "archive-log.schema.json"
PLAN_SCHEMA = "archive-plan.schema.json"
Step = Callable[[str], None]


@dataclass(frozen=True)
class Outcome:
    """What apply or restore did (``done`` False: it found nothing to do)."""

    plan_id: str
    done: bool
    lines: tuple[str, ...]


def read_plan(path: Path) -> dict[str, Any]:
    """A plan file, checked: JSON, its schema, and an id that matches its content."""
    try:
        data = load_json(path.read_bytes().decode("utf-8"))
    except OSError as exc:
        raise UserError(f"cannot read the plan {path}: {exc.strerror or exc}") from None
    except (UnicodeDecodeError, ValueError) as exc:
        raise UserError(f"{path} is not a plan (not JSON: {exc})") from None
    err = next(iter(validator(PLAN_SCHEMA).iter_errors(data)), None)
    if err is not None:
        where = "/".join(str(p) for p in err.absolute_path) or "(top level)"
        raise UserError(f"{path} is not a valid archive plan ({where}: {err.message})")
    if plans.plan_id(data) != data["planId"]:
        raise UserError(f"{path} was edited after it was made (its planId does not match its "
                        "content): make the plan again with `adrguard archive plan`")
    return dict(data)


# --- the recovery log ---------------------------------------------------------------------


class Log:
    """The recovery log of one plan: ``<git dir>/adrguard/archive/<planId>.json``."""

    def __init__(self, root: Path, plan_id: str) -> None:
        self.path = self.place(root, plan_id)
        self.data: dict[str, Any] = {
            "schemaVersion": 1, "planId": plan_id, "state": "new", "done": [],
            "originals": {}, "created": [], "createdDirs": [], "after": {},
        }
        if self.path.is_file():
            try:
                loaded = load_json(self.path.read_bytes().decode("utf-8"))
            except (OSError, UnicodeDecodeError, ValueError) as exc:
                raise UserError(f"the recovery log {self.path} cannot be read ({exc}); "
                                "inspect it before going on") from None
            if list(validator(LOG_SCHEMA).iter_errors(loaded)) or loaded["planId"] != plan_id:
                raise UserError(f"the recovery log {self.path} is not valid; inspect it")
            self.data = loaded

    @staticmethod
    def place(root: Path, plan_id: str) -> Path:
        return git_dir(root) / "adrguard" / "archive" / f"{plan_id}.json"

    @property
    def state(self) -> str:
        return str(self.data["state"])

    def save(self, state: str | None = None) -> None:
        if state is not None:
            self.data["state"] = state
        self.path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(self.path, json.dumps(self.data, indent=2, sort_keys=True) + "\n")

    def mark(self, step: str, hook: Step | None) -> None:
        if step not in self.data["done"]:
            self.data["done"].append(step)
        self.save()
        if hook is not None:
            hook(step)


def _read(root: Path, rel: str) -> bytes | None:
    """A regular file's bytes (None: absent); a symlink is refused, and so is a path the
    path guard refuses (:func:`adrguard.pathguard.read_problem`)."""
    why = read_problem(root, rel)
    if why is not None:
        raise UserError(f"refusing to read {rel}: {why}")
    target = root / rel
    if target.is_symlink():
        raise UserError(f"{rel} is a symlink: adrguard moves and writes only regular files")
    try:
        return target.read_bytes()
    except FileNotFoundError:
        return None
    except IsADirectoryError:
        raise UserError(f"{rel} is a folder where the plan expects a file") from None
    except OSError as exc:
        raise UserError(f"cannot read {rel}: {exc.strerror or exc}") from None


def _write(root: Path, rel: str, data: bytes) -> None:
    try:
        write_in_repo(root, rel, data)
    except OSError as exc:
        raise UserError(f"refusing to write {rel}: {exc.strerror or exc}") from None


# --- apply --------------------------------------------------------------------------------


def apply(root: Path, config: Config, plan_path: Path, *, hook: Step | None = None) -> Outcome:
    """Apply the plan at ``plan_path`` (see the module docstring). ``hook`` is called with
    each step's name once the step is done and logged (tests stop a run there). One process at
    a time applies or restores a plan: the others stop at once (:func:`_locked`)."""
    plan = read_plan(plan_path)
    with _locked(root, plan["planId"], "apply"):
        keep(root, plan)  # `compaction status` lists it, `--confirm` finds it
        return _apply(root, config, plan, plan_path, hook)


@contextlib.contextmanager
def _locked(root: Path, plan_id: str, action: str) -> Iterator[None]:
    """The lock of a plan's recovery log (``<planId>.lock`` beside it), held while apply or
    restore runs; a second process says so and stops (exit 2) instead of racing the first."""
    lock = Log.place(root, plan_id).with_suffix(".lock")
    try:
        with exclusive(lock):
            yield
    except Busy:
        raise UserError(f"another adrguard is applying or restoring plan {plan_id[:12]} (it "
                        f"holds {lock}): wait for it to finish, then run `adrguard archive "
                        f"{action}` again") from None


def _apply(root: Path, config: Config, plan: dict[str, Any], plan_path: Path,
           hook: Step | None) -> Outcome:
    pid = plan["planId"]
    log = Log(root, pid)
    if log.state == "applied":
        return Outcome(pid, False, (f"plan {pid[:12]} is applied already: nothing to do",))
    if log.state in ("new", "restored"):
        _same_plan(root, config, plan)
        _capture(root, plan, log)
        log.data.update(done=[], created=[], createdDirs=[], after={},
                        currentFresh=_fresh_manifests(root, config, plan, log))
        log.save("applying")
    elif log.state != "applying":
        raise UserError(f"plan {pid[:12]} is being restored (its recovery log says so): run "
                        f"`adrguard archive restore {plan_path}` to finish that first")
    try:
        _check_states(root, plan, log)
        for move in plan["moves"]:
            _move(root, move, log, hook)
        for rw in plan["rewrites"]:
            _rewrite(root, rw, log, hook)
        notes = _index(root, config, plan, log, hook)
        kept = _current(root, config, plan, log, hook)
    except UserError as exc:  # stopped half-way: `compaction status` lists it as failed
        log.data["error"] = str(exc)
        log.save()
        raise
    log.data.pop("error", None)
    touched = {m["to"] for m in plan["moves"]} | {rw["path"] for rw in plan["rewrites"]}
    touched |= {c["path"] for c in plan["index"]} | set(kept)
    log.data["after"] = {p: sha256(data) for p in sorted(touched)
                         if (data := _read(root, p)) is not None}
    log.save("applied")
    lines = [f"moved {m['from']} -> {m['to']}" for m in plan["moves"]]
    lines += [f"rewrote {plural(len(rw['edits']), 'link')} in {rw['path']}"
              for rw in plan["rewrites"]]
    lines += notes
    lines += [f"updated {m}: the move changed paths and link destinations only, so the view "
              "stays fresh" for m in kept]
    lines += [f"{c['view']} is stale now ({plural(len(c['reasons']), 'reason')}): review it, then "
              "`adrguard current stamp`" for c in plan["current"]
              if _manifest_of(config, c["view"]) not in kept]
    lines.append(f"recovery log: {log.path}; undo with `adrguard archive restore {plan_path}`")
    return Outcome(pid, True, tuple(lines))


def _same_plan(root: Path, config: Config, plan: dict[str, Any]) -> None:
    """Make the plan again from the repository: the same plan, or stop and say what changed."""
    blocking = plans.blocking(plan)
    if blocking:
        first = blocking[0]
        raise UserError(f"the plan has {plural(len(blocking), 'blocking conflict')}, first "
                        f"{first['path']}:{first['line']}: {first['message']}; fix them and "
                        "make the plan again")
    again = make_plan(root, config, [r["path"] for r in plan["records"]])
    if again.plan is not None and again.plan["planId"] == plan["planId"]:
        return
    changed = sorted(p for p, h in plan["inputs"].items()
                     if (data := _read(root, p)) is None or sha256(data) != h)
    if again.plan is None:
        why = "; ".join(f"{d.id}: {r[0]}" for d, r in again.refused)
        raise UserError(f"the records are no longer fully retired ({why}); nothing was moved")
    if changed:
        raise UserError(f"changed since the plan was made: {', '.join(changed)}; nothing was "
                        "moved: make the plan again")
    parts = [k for k in ("moves", "rewrites", "index", "current", "conflicts")
             if again.plan[k] != plan[k]]
    raise UserError(f"the repository changed since the plan was made (the plan's "
                    f"{', '.join(parts) or 'content'} would differ); nothing was moved: make "
                    "the plan again")


def _capture(root: Path, plan: dict[str, Any], log: Log) -> None:
    """The bytes of every file apply will change, keyed by the path it has after the move."""
    originals: dict[str, str] = {}
    for rw in plan["rewrites"]:
        data = _read(root, rw["source"])
        if data is not None:
            originals[rw["path"]] = base64.b64encode(data).decode("ascii")
    for change in plan["index"]:
        data = _read(root, change["path"])
        if data is not None and change["path"] not in originals:
            originals[change["path"]] = base64.b64encode(data).decode("ascii")
    log.data["originals"] = originals


def _check_states(root: Path, plan: dict[str, Any], log: Log) -> None:
    """Every file is as the plan found it, or as apply leaves it; anything else stops."""
    after = {rw["path"]: rw["sha256After"] for rw in plan["rewrites"]}
    odd: list[str] = []
    for move in plan["moves"]:
        src, dst = _read(root, move["from"]), _read(root, move["to"])
        ok = {move["sha256"], after.get(move["to"], move["sha256"])}
        if not ((src is not None and dst is None and sha256(src) == move["sha256"])
                or (src is None and dst is not None and sha256(dst) in ok)):
            odd.append(move["from"] if src is not None else move["to"])
    for rw in plan["rewrites"]:
        data = _read(root, rw["path"]) if rw["path"] != rw["source"] else None
        if data is None:
            data = _read(root, rw["source"])
        if data is None or sha256(data) not in (rw["sha256Before"], rw["sha256After"]):
            odd.append(rw["source"])
    if odd:
        raise UserError(f"changed since the plan was made: {', '.join(sorted(set(odd)))}; "
                        f"the recovery log {log.path} says what was done so far")


def _move(root: Path, move: dict[str, str], log: Log, hook: Step | None) -> None:
    step = f"move {move['from']}"
    if step in log.data["done"] or (root / move["to"]).exists():
        log.mark(step, None)
        return

    why = write_problem(root, move["to"])
    if why is not None:
        raise UserError(f"refusing to move {move['from']} to {move['to']}: {why}")
    folder = Path(move["to"]).parent
    missing = [p for p in (folder, *folder.parents) if str(p) != "." and not (root / p).exists()]
    for p in reversed(missing):
        (root / p).mkdir()
        log.data["createdDirs"].append(p.as_posix())
    log.save()
    git_mv(root, move["from"], move["to"])
    log.mark(step, hook)


def _rewrite(root: Path, rw: dict[str, Any], log: Log, hook: Step | None) -> None:
    step = f"rewrite {rw['path']}"
    data = _read(root, rw["path"])
    if data is None:
        raise UserError(f"{rw['path']} is missing: the recovery log {log.path} says what was done")
    if sha256(data) == rw["sha256Before"]:
        try:
            new = plans.apply_edits(data, rw["edits"])
        except ValueError as exc:
            raise UserError(f"{rw['path']}: {exc}; restore with the recovery log") from None
        if sha256(new) != rw["sha256After"]:
            raise UserError(f"rewriting {rw['path']} would not give the planned bytes; nothing "
                            "more was changed: restore with the recovery log")
        _write(root, rw["path"], new)
    elif sha256(data) != rw["sha256After"]:
        raise UserError(f"{rw['path']} changed while the plan was applied: the recovery log "
                        f"{log.path} says what was done so far")
    log.mark(step, hook)


def _index(
    root: Path, config: Config, plan: dict[str, Any], log: Log, hook: Step | None
) -> list[str]:
    if not plan["index"]:
        return []
    for change in plan["index"]:
        if change["sha256Before"] is None and (root / change["path"]).exists() is False \
                and change["path"] not in log.data["created"]:
            log.data["created"].append(change["path"])
    log.save()
    written = write_indexes(root, config, load_with(root, config)).written

    # an index the move creates is staged like the moved records (never left untracked)
    add(root, [p for p in log.data["created"] if _read(root, p) is not None])
    lines = [f"regenerated {p}" for p in written]
    for change in plan["index"]:
        data = _read(root, change["path"])
        if data is None or sha256(data) != change["sha256After"]:
            lines.append(f"note: {change['path']} differs from the plan's prediction; check it")
    log.mark("index", hook)
    return lines


def _manifest_of(config: Config, view: str) -> str:
    """The manifest path of the view ``view`` (the view's folder is its root)."""
    cfg = current.settings(config.options)
    root = view[: -len(cfg.view)].rstrip("/") if view.endswith(cfg.view) else ""
    return join_root(root or ".", cfg.manifest)


def _fresh_manifests(root: Path, config: Config, plan: dict[str, Any], log: Log) -> list[str]:
    """The manifests of the views the plan touches that are fresh before the move (their
    bytes are kept in the recovery log, which a pure move may update)."""
    touched = {c["view"] for c in plan["current"]}
    if not touched:
        return []
    out = [s.manifest_path for s in current_states(root, config, load_with(root, config))
           if s.view in touched and s.fresh]
    for path in out:
        data = _read(root, path)
        if data is not None:
            log.data["originals"][path] = base64.b64encode(data).decode("ascii")
    return sorted(out)


def _current(root: Path, config: Config, plan: dict[str, Any], log: Log,
             hook: Step | None) -> list[str]:
    """Keep a view fresh through a pure move: the manifest of a view that was fresh before
    the move gets the records' new paths and, for the files whose only change was a planned
    link rewrite, their new hashes; it is written only when the view is then fresh (anything
    else a person reviews: the view stays stale, as the plan said). Returns the manifests
    written."""
    step = "current"
    fresh = log.data.get("currentFresh", [])
    if step in log.data["done"] or not fresh:
        log.mark(step, None)
        return [p for p in fresh if p in log.data["after"]] if fresh else []
    corpus = load_with(root, config)
    texts = current_texts(root, config, corpus)
    moves = {m["from"]: m["to"] for m in plan["moves"]}
    rehashed: dict[str, tuple[str, str]] = {}
    for rw in plan["rewrites"]:
        old = log.data["originals"].get(rw["path"])
        now = _read(root, rw["path"])
        if old is not None and now is not None:
            rehashed[rw["path"]] = (content_sha256(base64.b64decode(old)), content_sha256(now))
    cfg = current.settings(config.options)
    written: list[str] = []
    for state in current.evaluate(corpus, config.options, texts):
        if state.manifest_path not in fresh or state.manifest is None:
            continue
        updated = current.moved_manifest(state.manifest, moves, rehashed)
        text = manifest.dump(updated)
        again = current.compare(corpus, cfg, state.root, state.view, state.manifest_path,
                                {**texts, state.manifest_path: text.encode("utf-8")})
        if again.fresh and texts.get(state.manifest_path) != text.encode("utf-8"):
            _write(root, state.manifest_path, text.encode("utf-8"))
            written.append(state.manifest_path)
    log.data["after"].update({p: sha256(_read(root, p) or b"") for p in written})
    log.mark(step, hook)
    return written


# --- restore ------------------------------------------------------------------------------


def restore(root: Path, plan_path: Path, *, hook: Step | None = None) -> Outcome:
    """Undo an applied (or interrupted) plan from its recovery log, to the byte."""
    plan = read_plan(plan_path)
    with _locked(root, plan["planId"], "restore"):
        return _restore(root, plan, hook)


def _restore(root: Path, plan: dict[str, Any], hook: Step | None) -> Outcome:
    pid = plan["planId"]
    log = Log(root, pid)
    if log.state == "new":
        raise UserError(f"no recovery log for plan {pid[:12]} in this repository "
                        f"({log.path}): it was never applied here")
    if log.state == "restored":
        return Outcome(pid, False, (f"plan {pid[:12]} is restored already: nothing to do",))
    originals = {p: base64.b64decode(v) for p, v in log.data["originals"].items()}
    _check_restorable(root, plan, log, originals)
    log.save("restoring")
    lines: list[str] = []

    forget(root, log.data["created"])  # apply staged them
    for path in log.data["created"]:
        if _read(root, path) is not None:
            (root / path).unlink()
            lines.append(f"removed {path}")
    for path, data in sorted(originals.items()):
        now = _read(root, path)
        if now is not None and now != data:  # absent: an interrupted apply never got there
            _write(root, path, data)
            lines.append(f"restored {path}")
    log.mark("restore files", hook)
    for move in reversed(plan["moves"]):
        if (root / move["to"]).exists() and not (root / move["from"]).exists():
            git_mv(root, move["to"], move["from"])
            lines.append(f"moved {move['to']} -> {move['from']}")
            log.mark(f"unmove {move['from']}", hook)
    for folder in sorted(log.data["createdDirs"], key=lambda p: -p.count("/")):
        try:
            os.rmdir(root / folder)
        except OSError:
            continue  # not empty: something else lives there now
    log.data.pop("error", None)
    log.save("restored")
    return Outcome(pid, True, tuple(lines))


def _check_restorable(
    root: Path, plan: dict[str, Any], log: Log, originals: dict[str, bytes]
) -> None:
    """Each file apply touched is as apply left it, or already as it was: else stop."""
    odd: list[str] = []
    after: dict[str, str] = log.data["after"]
    if log.state != "applied":  # interrupted: each file as the plan found it or apply left it
        try:
            _check_states(root, plan, log)
        except UserError as exc:
            raise UserError(f"{exc}; restore refuses to overwrite them") from None
        return
    for path, want in after.items():
        data = _read(root, path)
        if data is None:
            back = next((m["from"] for m in plan["moves"] if m["to"] == path), None)
            if back is not None and _read(root, back) is not None:
                continue  # moved back already
            if path in log.data["created"]:
                continue
            odd.append(path)
        elif sha256(data) != want and data != originals.get(path):
            odd.append(path)
    if odd:
        raise UserError(f"changed since the plan was applied: {', '.join(sorted(odd))}; restore "
                        "refuses to overwrite them (undo those changes, or restore by hand "
                        f"from {log.path})")


__all__: Sequence[str] = ("Outcome", "apply", "read_plan", "restore")
