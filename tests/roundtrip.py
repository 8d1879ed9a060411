"""The round trip of `adrguard new` and `adrguard supersede` on a real log (issue 26, point 4).

In a temporary git copy of a log: ``new`` writes a proposed record, then ``supersede`` writes an
accepted successor of the log's latest accepted record (else its latest record). What they
wrote must read back (with the whole log around it) as the status, title and number they wrote,
the old record as superseded (when it stated a status) and linked to its successor, and
``adrguard check`` must report no warning or error it did not report before.

Used by tests/test_authoring_roundtrip.py on the corpora and, given a folder of snapshots, on
the ecosystem logs.
"""

from __future__ import annotations

import datetime as dt
import re
import shutil
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from gitrepo import GitRepo

from adrguard.api.authoring import write as authoring
from adrguard.api.check import check_result
from adrguard.api.pipeline.corpus import load_with, search_roots
from adrguard.config import Config, load_config
from adrguard.core.errors import UserError
from adrguard.core.graph.graph import build
from adrguard.core.model import Corpus, Decision, Status

TODAY = dt.date(2031, 3, 4)  # after every record: a dated name is new
TITLE = "Use an event bus for payment events"
SUCCESSOR = "Use a message queue for payment events"
LOUD = ("warning", "error")


@dataclass
class Trip:
    """What happened in one log: the files written and what went wrong."""

    log: str
    written: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def copy_repo(source: Path, target: Path, config: Mapping[str, object] | None = None,
              ignore: Iterable[str] = ()) -> GitRepo:
    """A git repository at ``target`` holding a copy of ``source`` (its own ``.git`` left
    out), with a config file of ``config``, committed. The record cache (outside the work
    tree, a temporary folder in the tests) spares re-parsing the records each check reads
    again; a cache never changes a result."""
    shutil.copytree(source, target, ignore=shutil.ignore_patterns(".git", *ignore),
                    symlinks=True)
    return copy_repo_in_place(target, config)


def copy_snapshot(snapshot: Path, target: Path, roots: list[str]) -> GitRepo:
    """A git repository at ``target`` holding the ADR ``roots`` of a repository snapshot and
    its top-level files (what tells a site generator), with those roots configured. The
    snapshot is only read: its own history is not needed, and a large repository is not
    copied whole."""
    target.mkdir(parents=True)
    for item in snapshot.iterdir():
        if item.is_file() and not item.is_symlink() and item.stat().st_size < 1 << 20:
            shutil.copy2(item, target / item.name)
    for root in roots:
        source = snapshot / root if root not in ("", ".") else snapshot
        if root in ("", "."):
            for item in source.iterdir():
                if item.is_dir() and not item.is_symlink() and item.name != ".git":
                    shutil.copytree(item, target / item.name, symlinks=True, dirs_exist_ok=True)
        elif source.is_dir():
            shutil.copytree(source, target / root, symlinks=True, dirs_exist_ok=True,
                            ignore=shutil.ignore_patterns(".git"))
    return copy_repo_in_place(target, {"roots": roots})


def copy_repo_in_place(target: Path, config: Mapping[str, object] | None) -> GitRepo:
    repo = GitRepo(target)
    lines = [f"{key} = {_toml(value)}" for key, value in sorted((config or {}).items())]
    (target / ".adrguard.toml").write_text("\n".join([*lines, ""]), "utf-8")
    repo.commit("a real log")
    return repo


def _toml(value: object) -> str:
    import json

    return json.dumps(value)


def roots(repo: Path) -> list[str]:
    """The ADR roots adrguard finds in ``repo`` with its config (read only)."""
    config = load_config(repo)
    return [r.path for r in search_roots(repo, config).roots]


def _loud(repo: Path, config: Config) -> tuple[Counter[tuple[str, str]], dict[tuple[str, str], str]]:
    report = check_result(repo, config=config, baseline=False).report
    counts: Counter[tuple[str, str]] = Counter()
    shown: dict[tuple[str, str], str] = {}
    for f in report.findings:
        if f.severity.value in LOUD:
            key = (f.code, f.location.path)
            counts[key] += 1
            shown[key] = f"{f.code} {f.location.path}:{f.location.line} {f.message[:160]}"
    return counts, shown


def _new_loud(before: Counter[tuple[str, str]], after: Counter[tuple[str, str]],
              shown: Mapping[tuple[str, str], str]) -> list[str]:
    return [f"new finding: {shown[k]}" for k in sorted(after - before)]


def _expected_number(members: list[Decision], path: str, root: str) -> int | None:
    """The number a new record of the log carries: the next one, when its name holds it and
    the log's own records (if it has any) are read with numbers."""
    numbers = [d.number for d in members if d.number is not None]
    if members and not numbers:
        return None
    nxt = max(numbers, default=0) + 1
    name = path[len(root) + 1 :] if root not in ("", ".") else path
    held = any(int(m.group()) == nxt for m in re.finditer(r"\d+", name))
    return nxt if held else None


def _read(repo: Path, config: Config, path: str) -> tuple[Corpus, Decision | None]:
    corpus = load_with(repo, config)
    return corpus, corpus.by_path.get(path)


def _check_written(problems: list[str], d: Decision | None, what: str, status: Status,
                   title: str, number: int | None) -> None:
    if d is None:
        problems.append(f"{what}: not read as a record")
        return
    if d.status is not status:
        problems.append(f"{what}: status {d.status} ({d.status_raw!r}), wrote {status.value}")
    if d.title != title:
        problems.append(f"{what}: title {d.title!r}, wrote {title!r}")
    if d.number != number:
        problems.append(f"{what}: number {d.number}, wrote {number}")


def _old_record(members: list[Decision]) -> Decision | None:
    """The record a successor replaces: the latest accepted one, else the latest one."""
    live = [d for d in members if not d.archived and d.is_readable]
    accepted = [d for d in live if d.status is Status.ACCEPTED]
    chosen = accepted or live
    key = lambda d: (d.number is not None, d.number or 0, d.date or "", d.path)  # noqa: E731
    return max(chosen, key=key) if chosen else None


def trip(repo: Path, root: str, label: str) -> Trip:
    """``new`` then ``supersede`` in the log at ``root`` (see the module docstring)."""
    result = Trip(label)
    config = load_config(repo)
    corpus = load_with(repo, config)
    members = [d for d in corpus.decisions if d.root == root]
    before, _ = _loud(repo, config)
    request = authoring.Request(root=root, today=TODAY)
    try:
        outcome = authoring.new(repo, config, TITLE, request)
    except UserError as exc:
        result.problems.append(f"new: refused: {exc}")
        return result
    path = outcome.changes[0].path
    result.written.append(path)
    config = load_config(repo)
    _, d = _read(repo, config, path)
    _check_written(result.problems, d, f"new {path}", Status.PROPOSED, TITLE,
                   _expected_number(members, path, root))
    after, shown = _loud(repo, config)
    result.problems += _new_loud(before, after, shown)
    old = _old_record(members)
    if old is None:
        return result
    corpus = load_with(repo, config)
    members = [x for x in corpus.decisions if x.root == root]
    accepted = authoring.Request(root=root, today=TODAY, status="accepted")
    try:
        outcome = authoring.supersede(repo, config, old.path, SUCCESSOR, accepted)
    except UserError as exc:
        result.problems.append(f"supersede {old.path}: refused: {exc}")
        return result
    path = outcome.changes[0].path
    result.written += [c.path for c in outcome.changes]
    corpus, d = _read(repo, config, path)
    _check_written(result.problems, d, f"supersede: {path}", Status.ACCEPTED, SUCCESSOR,
                   _expected_number(members, path, root))
    marked = corpus.by_path.get(old.path)
    if marked is None:
        result.problems.append(f"supersede: {old.path} is gone")
    else:
        if old.statuses and marked.status is not Status.SUPERSEDED:
            result.problems.append(f"supersede: {old.path} reads {marked.status} "
                                   f"({marked.status_raw!r}), not superseded")
        if d is not None and d.path not in {s.path for s in build(corpus).successors(marked)}:
            result.problems.append(f"supersede: {path} is not read as {old.path}'s successor")
    again, shown = _loud(repo, config)
    result.problems += _new_loud(after, again, shown)
    return result
