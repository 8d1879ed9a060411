"""Judge a run: which findings count (can fail it) and which are held back.

Two things hold a finding back (:class:`adrguard.core.findings.Gate`):

* the **baseline file** (``.adrguard-baseline.json``) lists it: it was there when adrguard was
  adopted (``known``). Baseline entries that no longer occur are named so they can be dropped;
* when a **change** is judged (the pre-commit hook, ``check --changed``, ``check --base REF``),
  it lies in a file the change does not touch and was already reported before the change
  (``older``). A finding the change causes in an untouched file (a duplicate id, a link to a
  record it deleted) is not in the run before the change, so it still counts.

Every front end gets this through :func:`adrguard.api.check.check_result`.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from adrguard.config import Config
from adrguard.core.errors import UserError
from adrguard.core.findings import INTERNAL_ERROR, Finding, Gate, Report, sort_findings
from adrguard.core.gate import baseline as bl
from adrguard.core.model import ChangeSet, Corpus, FileChange
from adrguard.core.wording import revision

if TYPE_CHECKING:
    from adrguard.adapters.files import Discovery


@dataclass(frozen=True)
class Scope:
    """A change being judged: what it touches, and the corpus before it (whose findings tell
    the older ones from those the change causes)."""

    label: str  # "this commit", "the uncommitted changes", "the changes since origin/main"
    touched: frozenset[str]
    before: Corpus | None  # None: nothing before the change (every finding is new)
    config: Config
    renames: Mapping[str, str] = field(default_factory=dict)  # old path -> new path

    def findings_before(
        self, codes: Collection[str], root: Path | None = None
    ) -> tuple[Finding, ...]:
        """What the rules ``codes`` reported before the change (only those need to run: a
        finding is older only if its own rule reported it before). Suppression bookkeeping
        (the rules flagged ``bookkeeping``) depends on every rule that ran, so with those all
        rules run. With ``root`` (the work tree), kept in the record cache between runs: the
        corpus before a change stays the same commit after commit
        (:mod:`adrguard.adapters.run_cache`)."""
        from adrguard import engine
        from adrguard.rules import RULES_BY_CODE

        before = self.before
        if before is None or not codes:
            return ()
        config = self.config
        if not any(RULES_BY_CODE[c].meta.bookkeeping for c in codes if c in RULES_BY_CODE):
            config = config.with_overrides(select=tuple(sorted(codes)))
        if root is None:
            return engine.run(before, config).findings
        from adrguard.adapters.run_cache import findings_of
        from adrguard.api.records import open_store

        store = open_store(config, root)
        try:
            return findings_of(store, root, f"before {self.label}", before, config,
                               lambda: engine.run(before, config).findings)
        finally:
            if store is not None:
                store.close()


@dataclass(frozen=True)
class Judging:
    """How :func:`judge` treats a report."""

    use_baseline: bool = True
    baseline_path: str = bl.DEFAULT_PATH
    baseline_rev: str | None = None  # read the baseline as this commit holds it (--base)
    scope: Scope | None = None


def judge(
    report: Report,
    root: Path,
    judging: Judging,
    *,
    ran: Callable[[], Collection[str]],
    only_paths: Sequence[str] | None = None,
    untracked: Sequence[str] = (),
) -> Report:
    """The report with held findings moved into its :class:`Gate` (see the module docstring).
    ``ran``: the codes of the rules that ran (only their baseline entries can be fixed; asked
    only when a baseline is used);
    ``only_paths``: ``check PATHS`` (only entries below them can be fixed)."""
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
        codes = ran() if result.unmatched else ()
        fixed = tuple(
            e.describe()
            for e in result.unmatched
            if e.code in codes and _within(e.path, only_paths)
        )
    older: tuple[Finding, ...] = ()
    if judging.scope is not None:
        counted, older = _split(counted, judging.scope, root)
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


def _split(
    findings: list[Finding], scope: Scope, root: Path | None = None
) -> tuple[list[Finding], tuple[Finding, ...]]:
    """(findings that count, older findings in files the change does not touch)."""
    inside = [f for f in findings if f.location.path in scope.touched]
    outside = [f for f in findings if f.location.path not in scope.touched]
    if not outside:
        return inside, ()
    then = scope.findings_before({f.code for f in outside}, root)
    before = bl.follow_renames(bl.entries_of(then), scope.renames)
    result = bl.match(outside, before)
    return inside + list(result.new), result.known


def _within(path: str, only: Sequence[str] | None) -> bool:
    if only is None:
        return True
    return any(path == p or p in ("", ".") or path.startswith(p.rstrip("/") + "/") for p in only)


def _load_baseline(root: Path, judging: Judging) -> tuple[list[bl.Entry], str | None] | None:
    from adrguard.adapters import baseline as store

    if judging.baseline_rev is None:
        return store.read(root, judging.baseline_path)
    from adrguard.adapters.git import blobs_at

    data = blobs_at(root, judging.baseline_rev, [judging.baseline_path])
    raw = data.get(judging.baseline_path)
    if raw is None:
        return None
    return store.parse(raw, f"{judging.baseline_path} at {judging.baseline_rev[:12]}")


def _renames(root: Path, since: str | None) -> dict[str, str]:
    from adrguard.adapters.git import head_commit, renames_since

    try:
        start = since or head_commit(root)
        return renames_since(root, start) if start else {}
    except (UserError, OSError):
        return {}


# --- scopes -------------------------------------------------------------------------------------


def base_scope(changes: ChangeSet, config: Config) -> Scope:
    """``check --base REF``: the changes since the merge base."""
    return Scope(
        label=f"the changes since {revision(changes.base)}",
        touched=_touched(changes.changes),
        before=changes.base_corpus,
        config=config,
        renames=_renamed(changes.changes),
    )


def local_scope(
    root: Path,
    config: Config,
    found: Discovery,
    corpus: Corpus,
    head: str,
    changes: list[FileChange],
    *,
    staged: bool,
) -> tuple[ChangeSet, Scope]:
    """The change not committed yet (``changes`` against commit ``head``): what the next
    commit holds (``staged``, the hook), or everything in the work tree (``check
    --changed``); the corpus before it is the one ``head`` holds. ``found`` and ``corpus``:
    the work tree's discovery and corpus."""
    before = corpus_before(root, config, found, corpus, head, changes)
    changeset = ChangeSet(
        base="HEAD",
        head="the staged changes" if staged else "the work tree",
        merge_base=head,
        changes=tuple(changes),
        base_corpus=before,
        base_commit=head,
    )
    scope = Scope(
        label="this commit" if staged else "the uncommitted changes",
        touched=_touched(changes),
        before=before,
        config=config,
        renames=_renamed(changes),
    )
    return changeset, scope


def _touched(changes: Sequence[FileChange]) -> frozenset[str]:
    return frozenset(p for c in changes for p in (c.path, c.old_path) if p)


def _renamed(changes: Sequence[FileChange]) -> dict[str, str]:
    return {c.old_path: c.path for c in changes if c.status == "R" and c.old_path}


def corpus_before(
    root: Path,
    config: Config,
    found: Discovery,
    corpus: Corpus,
    head: str,
    changes: Sequence[FileChange],
) -> Corpus:
    """The corpus as ``head`` holds it, through the one pipeline
    (:class:`adrguard.adapters.source.Amended`): the work tree's files the change leaves alone
    plus the changed files read from git; only those are read and parsed, the other records
    are taken from ``corpus``."""
    from adrguard.adapters.source import Amended
    from adrguard.api.corpus import load_corpus

    now = frozenset(c.path for c in changes)
    then = frozenset(c.old_path or c.path for c in changes if c.status != "A")
    return load_corpus(Amended(root, head, found, now, then), config, reuse=corpus)
