"""``check``: the one run every front end and every command that runs rules asks for (the CLI,
the MCP server's ``validate_adrs``, the GitHub Action through the CLI; compaction's blockers,
``relationships``, ``archive plan``, the judging of a change). :func:`run_check` takes one
:class:`CheckRequest` and always goes the same way:

1. **sources**: pick the corpus (and, for a change, the corpus before it) by the kind of
   change asked for (:mod:`adrguard.api.pipeline.sources`) — the work tree, the staged change
   (the hook), the uncommitted change (``--changed``), the changes since a base ref
   (``--base``); with ``--against``/``--claims``, what other refs add — or a corpus already
   read (``corpus``). The corpus comes from the one pipeline
   (:func:`adrguard.api.pipeline.corpus.read_source`);
2. **engine**: the selected rules over it (:func:`adrguard.engine.run`); a rule that raised is
   data on the report (``Report.crashes``);
3. **gate**: the one place findings are filtered (:func:`adrguard.api.gate.judge`): ``check
   PATHS``, the baseline file, and for a change what it touches; off for a corpus already read;
4. **report**: the :class:`CheckResult`.
"""

from __future__ import annotations

import functools
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec

from adrguard import engine
from adrguard.adapters.cache import names as name_cache
from adrguard.adapters.cache.store import RunStore, Store
from adrguard.adapters.files import Discovery as Discovery
from adrguard.api import gate
from adrguard.api.gate import Judging
from adrguard.api.pipeline import sources
from adrguard.api.pipeline.corpus import resolve_root
from adrguard.api.pipeline.helpers import Ahead
from adrguard.api.pipeline.records import keep_facts
from adrguard.api.pipeline.sources import Scope
from adrguard.config import Config, load_config
from adrguard.core.cancel import Token
from adrguard.core.findings import Finding, Report
from adrguard.core.gate.baseline import DEFAULT_PATH
from adrguard.core.model import Corpus
from adrguard.core.options import manifest_path
from adrguard.core.parse import formats
from adrguard.rules import RULES_BY_CODE

if TYPE_CHECKING:
    from adrguard.core.authoring.claims import Claims
    from adrguard.rules import RuleMeta


class CheckResult(msgspec.Struct, frozen=True):
    """A report, the effective config it was made with, the corpus it was made from and what
    discovery found (the roots and why, for ``-v``; None when the corpus came from git)."""

    report: Report
    config: Config
    corpus: Corpus
    found: Discovery | None = None
    skipped_run: str | None = None  # why nothing was checked (the hook: nothing relevant)
    claims: Claims | None = None  # what other refs add (--against, --claims)

    @property
    def repo_url(self) -> str | None:
        return self.corpus.repository.url if self.corpus.repository else None

    @property
    def untracked(self) -> tuple[str, ...]:
        return self.corpus.untracked


@dataclass(frozen=True)
class CheckRequest:
    """One check, as every front end asks for it (the CLI, the MCP server, the agent tools);
    :func:`run_check` runs it. The one declaration of what a check can be asked.

    ``paths`` (``check PATH...``) limits file-level findings to them; a folder outside every
    root is checked as a root. ``change`` judges a change not committed yet: ``"staged"`` (the
    pre-commit hook; ``changed_files`` are the files it passes) or ``"worktree"``
    (``--changed``); ``base`` judges the changes since ``base`` (to ``head``, default the work
    tree). The baseline file (unless ``baseline`` is False) and the change hold findings back
    (:mod:`adrguard.api.gate`). Manual runs (no change, no base) also check files git does not
    track yet. ``against`` (refs or globs) and ``claims_file`` (open pull requests, with
    ``base``) say what other changes add: ADR509 reports this change's records that take their
    numbers. ``cancel``: a cancellation token (:mod:`adrguard.core.cancel`), checked between
    records, files and rules. ``config`` (else read from ``config_path`` or the repository),
    then ``profile``, ``select``, ``ignore`` and ``today`` make the effective configuration.
    ``corpus``: a corpus already read (a command's own, or one as a plan would leave it): the
    rules run over it as it is, nothing is read, and there is nothing to judge it against (no
    baseline, no change, no paths). ``ahead``: parse helpers the caller started ahead of the
    run (ADR 64; the command line's cold ``check``), used when the parse is shared; the caller
    ends them."""

    repo_root: Path | str | None = None
    config_path: Path | None = None
    config: Config | None = None
    paths: Sequence[str] = ()
    profile: str | None = None
    select: Sequence[str] = ()
    ignore: Sequence[str] = ()
    base: str | None = None
    head: str | None = None
    today: str | None = None
    deepen: bool = False
    change: str | None = None
    changed_files: Sequence[str] = ()
    baseline: bool = True
    baseline_path: str | None = None
    against: Sequence[str] = ()
    claims_file: Path | None = None
    cancel: Token | None = field(default=None, compare=False)
    corpus: Corpus | None = field(default=None, compare=False)
    ahead: Ahead | None = field(default=None, compare=False)


def check(repo_root: Path | str | None = None, **request: Any) -> Report:
    """Run every selected rule over the repository's decisions and return the sorted report
    (``request``: the fields of :class:`CheckRequest`)."""
    return run_check(CheckRequest(repo_root, **request)).report


def check_result(repo_root: Path | str | None = None, **request: Any) -> CheckResult:
    """:func:`run_check` of ``CheckRequest(repo_root, **request)``: a field that
    :class:`CheckRequest` does not have is a ``TypeError``."""
    return run_check(CheckRequest(repo_root, **request))


def run_check(request: CheckRequest) -> CheckResult:
    """The one run: sources → engine → gate → report (see the module docstring and
    :class:`CheckRequest` for what can be asked)."""
    r = request
    if r.corpus is not None:  # a corpus already read: the rules over it, the gate off
        if r.base is not None or r.change is not None or r.paths or r.against or r.claims_file:
            raise ValueError("a corpus already read is checked as it is: no change, paths or "
                             "claims")
        if r.config is None:
            raise ValueError("a corpus already read is checked with the config it was read with")
        cfg = _effective(r.config, r)
        report = engine.run(r.corpus, cfg, cancel=r.cancel)
        return CheckResult(report, cfg, r.corpus)
    root = resolve_root(r.repo_root)
    cfg = _effective(r.config if r.config is not None else load_config(root, r.config_path), r)
    cache = RunStore(cfg, root)  # the record cache: opened once, when a step first reads it
    try:
        return _run(r, root, cfg, cache)
    finally:
        cache.close()


def _run(r: CheckRequest, root: Path, cfg: Config, cache: RunStore) -> CheckResult:
    """:func:`run_check` of the repository at ``root``, every step with the run's store."""
    run = sources.pick(root, cfg, r.paths, base=r.base, head=r.head, deepen=r.deepen,
                       change=r.change, changed_files=r.changed_files, against=r.against,
                       claims_file=r.claims_file, cancel=r.cancel, cache=cache, ahead=r.ahead)
    if run.skipped is not None:
        empty = Report((), 0, 0, cfg.profile)
        return CheckResult(empty, cfg, Corpus(()), skipped_run=run.skipped)
    recalled = _manifest(run.corpus, cfg, cache)
    report = engine.run(run.corpus, cfg, changes=run.changes, claims=run.claims,
                        cancel=r.cancel)
    facts = run.corpus.facts  # only a corpus read with the run's store has them
    store = cache.get() if facts is not None else None
    if store is not None and facts is not None and facts.fresh:
        keep_facts(run.corpus, cfg, store)  # what the rules computed from single records (ADR 44)
    found = run.found
    _keep_answers(run.corpus, cfg, found, store, manifest=recalled is False)

    def ran() -> tuple[RuleMeta, ...]:
        return tuple(rule.meta for rule in engine.selected_rules(cfg, run.changes))

    untracked = found.untracked if found is not None and found.untracked_checked else ()
    since = run.changes if r.base is not None else None  # --base: the baseline as it held it
    judging = Judging(
        use_baseline=r.baseline, baseline_path=r.baseline_path or DEFAULT_PATH, scope=run.scope,
        baseline_rev=since.merge_base if since is not None else None,
        paths=run.paths, files=tuple(_expand(run.corpus, run.paths)) if run.paths else None)
    report = gate.judge(report, root, judging, ran=ran,
                        earlier=functools.partial(_earlier, root=root, cache=cache),
                        untracked=untracked)
    return CheckResult(report, cfg, run.corpus, found, claims=run.claims)


def _manifest(corpus: Corpus, cfg: Config, cache: RunStore) -> bool | None:
    """Give the impact manifest of a corpus read with the record cache from the run's store;
    whether it was there (:mod:`adrguard.adapters.cache.manifest`, ADR 53). None: no manifest,
    or no store."""
    facts = corpus.facts
    if facts is None or facts.place is None or manifest_path(cfg.options) not in corpus.other_texts:
        return None
    store = cache.get()
    if store is None:
        return None
    from adrguard.adapters.cache import manifest  # the manifest's reader: only with one

    return manifest.recall(store, corpus, cfg.options)


def _keep_answers(corpus: Corpus, cfg: Config, found: Discovery | None, store: Store | None, *,
                  manifest: bool) -> None:
    """Store what the run worked out that the next run may read (ADR 53), for a corpus read
    with the record cache (``store``, the run's): the record names it took apart anew, and
    (``manifest``) the impact manifest the rules parsed."""
    facts = corpus.facts
    if store is None or facts is None or facts.place is None or found is None:
        return
    names = formats.names_of(corpus)
    if not names.grown and not manifest:
        return
    place = Path(facts.place)
    name_cache.keep(store, place, names, {s.path for s in found.sources})
    if manifest:
        from adrguard.adapters.cache import manifest as kept  # the manifest's reader: only with one

        kept.keep(store, corpus, cfg.options)


def _earlier(
    scope: Scope, codes: Collection[str], *, root: Path, cache: RunStore
) -> tuple[Finding, ...]:
    """What the rules ``codes`` reported on the corpus before the change, by the one run (only
    those rules need to run: a finding is older only if its own rule reported it before).
    Suppression bookkeeping (the rules flagged ``bookkeeping``) depends on every rule that ran,
    so with those all rules run. Kept in the record cache between runs (the run's store ``cache``
    of the work tree ``root``): the corpus before a change stays the same commit
    after commit (:mod:`adrguard.adapters.cache.runs`)."""
    before = scope.before
    if before is None or not codes:
        return ()
    config = scope.config
    if not any(RULES_BY_CODE[c].meta.bookkeeping for c in codes if c in RULES_BY_CODE):
        config = config.with_overrides(select=tuple(sorted(codes)))

    def run() -> tuple[Finding, ...]:
        return run_check(CheckRequest(corpus=before, config=config)).report.findings

    from adrguard.adapters.cache.runs import findings_of

    return findings_of(cache.get(), root, f"before {scope.label}", before, config, run)


def _effective(cfg: Config, r: CheckRequest) -> Config:
    """``cfg`` with the request's ``profile``, ``select``, ``ignore`` and ``today``."""
    overrides: dict[str, object] = {"profile": r.profile}
    if r.select:
        overrides["select"] = tuple(r.select)
    if r.ignore:
        overrides["ignore"] = tuple(cfg.ignore) + tuple(r.ignore)
    cfg = cfg.with_overrides(**overrides)
    if r.today is not None:
        options = msgspec.structs.replace(cfg.options, today=r.today)
        cfg = msgspec.structs.replace(cfg, options=options)
    return cfg


def _expand(corpus: Corpus, rel_paths: Sequence[str]) -> list[str]:
    """Files as given; a directory stands for every record below it."""
    out: list[str] = []
    for rel in rel_paths:
        prefix = "" if rel in ("", ".") else rel.rstrip("/") + "/"
        below = [d.path for d in corpus.decisions if d.path.startswith(prefix)]
        out.extend(below if (not rel.endswith(".md") and below) else [rel])
    return sorted(set(out))
