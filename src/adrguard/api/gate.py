"""Judge a run: which findings count (can fail it) and which are held back.

Two things hold a finding back (:class:`adrguard.core.findings.Gate`):

* the **baseline file** (``.adrguard-baseline.json``) lists it: it was there when adrguard was
  adopted (``known``). Baseline entries that no longer occur are named so they can be dropped;
* when a **change** is judged (the pre-commit hook, ``check --changed``, ``check --base REF``),
  it lies in a file the change does not touch and was already reported before the change
  (``older``). A finding the change causes in an untouched file (a duplicate id, a link to a
  record it deleted) is not in the run before the change, so it still counts.

Every front end gets this through :func:`adrguard.api.check.run_check`, the one run; the
change and the corpus before it (:class:`Scope`) are picked with the sources
(:mod:`adrguard.api.pipeline.sources`): the gate only judges.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec
from msgspec.structs import replace

from adrguard.adapters import baseline as store
from adrguard.adapters.git import blobs_at, head_commit, renames_since
from adrguard.api.pipeline.sources import Scope as Scope
from adrguard.core.errors import UserError
from adrguard.core.findings import INTERNAL_ERROR, Finding, Gate, Report, sort_findings
from adrguard.core.gate import baseline as bl
from adrguard.engine import is_corpus_level

if TYPE_CHECKING:
    from adrguard.rules import RuleMeta


# What the rules ``codes`` reported on the corpus before a change (the run asks the one run:
# :func:`adrguard.api.check.run_check`; only those rules need to run).
Earlier = Callable[[Scope, Collection[str]], tuple[Finding, ...]]


class Judging(msgspec.Struct, frozen=True):
    """How :func:`judge` treats a report."""

    use_baseline: bool = True
    baseline_path: str = bl.DEFAULT_PATH
    baseline_rev: str | None = None  # read the baseline as this commit holds it (--base)
    scope: Scope | None = None
    paths: tuple[str, ...] = ()  # ``check PATHS`` as given (only entries below can be fixed)
    files: tuple[str, ...] | None = None  # what PATHS stand for: file-level findings kept there


def judge(
    report: Report,
    root: Path,
    judging: Judging,
    *,
    ran: Callable[[], Sequence[RuleMeta]],
    earlier: Earlier,
    untracked: Sequence[str] = (),
) -> Report:
    """The one place a run's findings are filtered: those outside ``check PATHS`` dropped, then
    held findings moved into the report's :class:`Gate` (see the module docstring).
    ``ran``: the rules that ran (only their baseline entries can be fixed; asked only when
    paths are given or a baseline is used); ``earlier``: the findings before a change (with a
    scope)."""
    if judging.files is not None:
        log_level = frozenset(m.code for m in ran() if m.log_level)
        report = keep_paths(report, judging.files, log_level)
    # adrguard's own failures (ADR000) are never held back: no baseline or change hides them
    internal = [f for f in report.findings if f.code == INTERNAL_ERROR[0]]
    counted = [f for f in report.findings if f.code != INTERNAL_ERROR[0]]
    known: tuple[Finding, ...] = ()
    fixed: tuple[str, ...] = ()
    used: str | None = None
    loaded = _load_baseline(root, judging) if judging.use_baseline else None
    if loaded is not None:
        entries, commit = loaded
        used = judging.baseline_path
        result = bl.match(counted, entries)
        if result.new and result.unmatched:  # maybe renamed since the baseline was written
            renames = _renames(root, commit or judging.baseline_rev)
            if renames:
                result = bl.match(counted, bl.follow_renames(entries, renames))
        known, counted = result.known, list(result.new)
        codes = {m.code for m in ran()} if result.unmatched else set()
        only_paths = judging.paths or None
        fixed = tuple(
            e.describe()
            for e in result.unmatched
            if e.code in codes and _within(e.path, only_paths)
        )
    older: tuple[Finding, ...] = ()
    if judging.scope is not None:
        counted, older = _split(counted, judging.scope, earlier)
    if used is None and judging.scope is None and not untracked:
        return report
    gate = Gate(
        known=known,
        older=older,
        fixed=fixed,
        baseline=used,
        scope=judging.scope.label if judging.scope is not None else None,
        untracked=tuple(untracked),
    )
    return replace(report, findings=sort_findings(counted + internal), gate=gate)


def keep_paths(report: Report, files: Collection[str], log_level: Collection[str]) -> Report:
    """``check PATHS``: the report with its corpus-level findings
    (:func:`adrguard.engine.is_corpus_level`; ``log_level``: the codes of the rules flagged so)
    and its file-level ones on ``files`` (a folder covers the files below it); a crash stays
    with its finding."""
    wanted = {p.strip("/") for p in files}
    wanted = {"" if p == "." else p for p in wanted}

    def covered(path: str) -> bool:
        return path in wanted or "" in wanted or any(path.startswith(w + "/") for w in wanted)

    return report.keeping(tuple(
        f for f in report.findings if is_corpus_level(f, log_level) or covered(f.location.path)
    ))


def _split(
    findings: list[Finding], scope: Scope, earlier: Earlier
) -> tuple[list[Finding], tuple[Finding, ...]]:
    """(findings that count, older findings in files the change does not touch)."""
    inside = [f for f in findings if f.location.path in scope.touched]
    outside = [f for f in findings if f.location.path not in scope.touched]
    if not outside:
        return inside, ()
    then = earlier(scope, {f.code for f in outside})
    before = bl.follow_renames(bl.entries_of(then), scope.renames)
    result = bl.match(outside, before)
    return inside + list(result.new), result.known


def _within(path: str, only: Sequence[str] | None) -> bool:
    if only is None:
        return True
    return any(path == p or p in ("", ".") or path.startswith(p.rstrip("/") + "/") for p in only)


def _load_baseline(root: Path, judging: Judging) -> tuple[list[bl.Entry], str | None] | None:
    if judging.baseline_rev is None:
        return store.read(root, judging.baseline_path)

    data = blobs_at(root, judging.baseline_rev, [judging.baseline_path])
    raw = data.get(judging.baseline_path)
    if raw is None:
        return None
    return store.parse(raw, f"{judging.baseline_path} at {judging.baseline_rev[:12]}")


def _renames(root: Path, since: str | None) -> dict[str, str]:
    try:
        start = since or head_commit(root)
        return renames_since(root, start) if start else {}
    except (UserError, OSError):
        return {}
