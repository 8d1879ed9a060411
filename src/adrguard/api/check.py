"""``check``: the one entry every front end uses to check a repository (the CLI, the MCP
server's ``validate_adrs``, the GitHub Action through the CLI). The corpus comes from the one
pipeline (:func:`adrguard.api.pipeline.corpus.read_source`), the rules from
:mod:`adrguard.engine`, then the judging (:mod:`.gate`): the baseline file and, for a change,
what it touches."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from adrguard.adapters.files import Discovery
from adrguard.adapters.source import WorkTree
from adrguard.api.pipeline.corpus import read_source, resolve_root
from adrguard.config import Config, load_config
from adrguard.core.authoring.claims import Claims
from adrguard.core.cancel import Token
from adrguard.core.errors import UserError
from adrguard.core.findings import Report
from adrguard.core.gate.baseline import DEFAULT_PATH
from adrguard.core.model import ChangeSet, Corpus

if TYPE_CHECKING:
    from adrguard.api.gate import Scope
    from adrguard.api.pipeline.targets import Targets


CHECK = "check"  # scan for citations as check does (adrguard.api.pipeline.citation_scan.CHECK)


@dataclass(frozen=True)
class CheckResult:
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
    then ``profile``, ``select``, ``ignore`` and ``today`` make the effective configuration."""

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


def check(repo_root: Path | str | None = None, **request: Any) -> Report:
    """Run every selected rule over the repository's decisions and return the sorted report
    (``request``: the fields of :class:`CheckRequest`)."""
    return run_check(CheckRequest(repo_root, **request)).report


def check_result(repo_root: Path | str | None = None, **request: Any) -> CheckResult:
    """:func:`run_check` of ``CheckRequest(repo_root, **request)``: a field that
    :class:`CheckRequest` does not have is a ``TypeError``."""
    return run_check(CheckRequest(repo_root, **request))


def run_check(request: CheckRequest) -> CheckResult:
    """The report together with the corpus and the effective config it was made from (see
    :class:`CheckRequest` for what can be asked)."""
    from adrguard.api import gate
    from adrguard.api.pipeline import targets

    r = request

    root = resolve_root(r.repo_root)
    cfg = _effective(r.config if r.config is not None else load_config(root, r.config_path),
                     r.profile, r.select, r.ignore, r.today)
    wanted = targets.resolve(root, r.paths)
    if r.claims_file is not None and r.base is None:
        raise UserError("--claims needs --base: the records a pull request adds are compared "
                        "with the records this change adds since its base")
    others = _Others(root, cfg, tuple(r.against), r.claims_file, r.head)
    judging = gate.Judging(use_baseline=r.baseline, baseline_path=r.baseline_path or DEFAULT_PATH)
    if r.base is not None:
        if r.change is not None:
            raise UserError("--base and --changed judge different changes: give one of them")
        run = _check_base(root, cfg, wanted, r.base, r.head, r.deepen, others, r.cancel)
        changes = run.changes
        assert changes is not None
        judging = replace(
            judging, baseline_rev=changes.merge_base, scope=gate.base_scope(changes, cfg)
        )
    elif r.head is not None:
        raise UserError("--head needs --base: say which revision the change is measured against")
    elif r.change is not None:
        run = _check_local(root, cfg, wanted, r.change, r.changed_files, others, r.cancel)
        if run.check.skipped_run is not None:
            return run.check
        judging = replace(judging, scope=run.scope)
    else:
        run = _check_tree(root, cfg, wanted, others, r.cancel)
    check = run.check
    found = check.found
    if found is not None:
        targets.check_files(wanted, found)

    def ran() -> set[str]:
        from adrguard import engine

        return {rule.meta.code for rule in engine.selected_rules(cfg, run.changes)}

    untracked = found.untracked if found is not None and found.untracked_checked else ()
    report = gate.judge(
        check.report,
        root,
        judging,
        ran=ran,
        only_paths=list(wanted.paths) or None,
        untracked=untracked,
    )
    return replace(check, report=report)


def _effective(
    cfg: Config,
    profile: str | None,
    select: Sequence[str],
    ignore: Sequence[str],
    today: str | None,
) -> Config:
    overrides: dict[str, object] = {"profile": profile}
    if select:
        overrides["select"] = tuple(select)
    if ignore:
        overrides["ignore"] = tuple(cfg.ignore) + tuple(ignore)
    cfg = cfg.with_overrides(**overrides)
    if today is not None:
        cfg = replace(cfg, options=replace(cfg.options, today=today))
    return cfg


@dataclass(frozen=True)
class _Run:
    check: CheckResult
    changes: ChangeSet | None = None
    scope: Scope | None = None  # a local change being judged


@dataclass(frozen=True)
class _Others:
    """What other changes add (``--against`` refs, a ``--claims`` file), read once the corpus of
    this side is known."""

    root: Path
    config: Config
    refs: tuple[str, ...] = ()
    claims_file: Path | None = None
    head: str | None = None

    def claims(self, corpus: Corpus, changes: ChangeSet | None) -> Claims | None:
        from adrguard.api import claims
        from adrguard.core.authoring.claims import merge

        parts = []
        if self.refs:
            parts.append(claims.from_refs(self.root, self.config, corpus, self.refs, self.head))
        if self.claims_file is not None and changes is not None:
            before = changes.base_corpus or Corpus(())
            parts.append(claims.from_file(self.root, self.config, corpus, self.claims_file,
                                          before))
        return merge(parts) if parts else None


def _check_base(
    root: Path, cfg: Config, wanted: Targets, base: str, head: str | None, deepen: bool,
    others: _Others, cancel: Token | None = None,
) -> _Run:
    from adrguard.api import impact

    found: Discovery | None = None
    other = impact.other_head(root, head)
    if other is None:  # the work tree, as git will commit it
        source = WorkTree(root, extra_roots=wanted.folders)
        found, corpus = read_source(source, cfg, citations=CHECK, cancel=cancel)
    else:
        corpus = impact.corpus_at(root, cfg, other)
    changes = _cited_before(impact.build_changes(root, cfg, base, head, corpus=corpus,
                                                 deepen=deepen), corpus)
    corpus = _with_previous(corpus, changes.base_corpus)
    claims = others.claims(corpus, changes)
    return _Run(_run(corpus, cfg, list(wanted.paths), changes, found, claims, cancel), changes)


def _check_local(
    root: Path, cfg: Config, wanted: Targets, change: str, changed_files: Sequence[str],
    others: _Others, cancel: Token | None = None,
) -> _Run:
    from adrguard.adapters import git
    from adrguard.api import gate, relevance
    from adrguard.api.pipeline.corpus import search_roots
    from adrguard.api.pipeline.targets import repo_relative

    if change not in ("staged", "worktree"):
        raise ValueError(f"unknown change {change!r}")
    staged = change == "staged"
    git.require_work_tree(root)
    head, diff = git.staged_changes(root) if staged else git.worktree_changes(root)
    passed = {p for p in (repo_relative(root, f) for f in changed_files) if p}
    if staged:  # decide before reading any record: most commits touch no ADR
        search = search_roots(root, cfg, extra=wanted.folders, required=False)
        why = relevance.nothing_to_check(cfg, search, diff, passed)
        if why is not None:
            empty = Report((), 0, 0, cfg.profile)
            return _Run(CheckResult(empty, cfg, Corpus(()), skipped_run=why))
    source = WorkTree(root, untracked=not staged, extra_roots=wanted.folders)
    found, corpus = read_source(source, cfg, citations=CHECK, cancel=cancel)
    changes, scope = gate.local_scope(root, cfg, found, corpus, head, diff, staged=staged)
    changes = _cited_before(changes, corpus)
    scope = replace(scope, touched=scope.touched | passed, before=changes.base_corpus)
    corpus = _with_previous(corpus, changes.base_corpus)
    claims = others.claims(corpus, changes)
    run = _run(corpus, cfg, list(wanted.paths), changes, found, claims, cancel)
    return _Run(run, changes, scope)


def _check_tree(
    root: Path, cfg: Config, wanted: Targets, others: _Others, cancel: Token | None = None
) -> _Run:
    source = WorkTree(root, untracked=True, extra_roots=wanted.folders)
    found, corpus = read_source(source, cfg, citations=CHECK, cancel=cancel)
    previous = _previous_at_head(root, cfg, found)
    if previous:
        corpus = replace(corpus, previous_texts=previous)
    claims = others.claims(corpus, None)
    return _Run(_run(corpus, cfg, list(wanted.paths), None, found, claims, cancel))


def _previous_at_head(root: Path, cfg: Config, found: Discovery) -> dict[str, bytes]:
    """Generated indexes HEAD holds that the work tree has lost (ADR401). Asked of git only
    when an index file git tracks is missing from the work tree (a deletion that is staged
    already is judged by the hook, --changed and --base, which compare with HEAD)."""
    if not found.uses_git:
        return {}
    from adrguard.core.generated.index import AUTO_NAMES
    from adrguard.core.generated.region import join_root

    names = {join_root(r, n) for r in found.roots for n in AUTO_NAMES} - set(found.other_texts)
    tracked = frozenset(found.file_list) if names else frozenset()
    gone = [p for p in names if p in tracked and not (root / p).exists()]
    if not gone:
        return {}
    from adrguard.api.generated import lost_indexes

    return lost_indexes(root, cfg, found.roots, found.other_texts, "HEAD")


def _cited_before(changes: ChangeSet, corpus: Corpus) -> ChangeSet:
    """The change with the head's citations on the corpus before it: the files a change does
    not touch cite the same way before and after it, so a citation finding in one of them is
    older unless the change made it (a cited record it marked superseded)."""
    before = changes.base_corpus
    if corpus.citations is None or before is None:
        return changes
    return replace(changes, base_corpus=replace(before, citations=corpus.citations))


def _with_previous(corpus: Corpus, before: Corpus | None) -> Corpus:
    """The corpus with the base's generated indexes that are gone now (ADR401), and with the
    base's translation mirrors kept as mirrors: deleting a record removes the evidence that its
    ``zh/`` copy is a translation, and the copy must not take over the record's id (it would
    read as a rename, or as an id reused)."""
    if before is None:
        return corpus
    from adrguard.api.pipeline.corpus import keep_mirrors
    from adrguard.core.generated.index import AUTO_NAMES

    corpus = keep_mirrors(corpus, before.mirrors)

    gone = {
        p: t
        for p, t in before.other_texts.items()
        if p not in corpus.other_texts and p.rsplit("/", 1)[-1] in AUTO_NAMES
    }
    return replace(corpus, previous_texts=gone) if gone else corpus


def _run(
    corpus: Corpus,
    cfg: Config,
    rel_paths: list[str],
    changes: ChangeSet | None,
    found: Discovery | None,
    claims: Claims | None = None,
    cancel: Token | None = None,
) -> CheckResult:
    from adrguard import engine

    only = _expand(corpus, rel_paths) if rel_paths else None
    report = engine.run(corpus, cfg, changes=changes, only_paths=only, claims=claims,
                        cancel=cancel)
    return CheckResult(report, cfg, corpus, found, claims=claims)


def _expand(corpus: Corpus, rel_paths: list[str]) -> list[str]:
    """Files as given; a directory stands for every record below it."""
    out: list[str] = []
    for rel in rel_paths:
        prefix = "" if rel in ("", ".") else rel.rstrip("/") + "/"
        below = [d.path for d in corpus.decisions if d.path.startswith(prefix)]
        out.extend(below if (not rel.endswith(".md") and below) else [rel])
    return sorted(set(out))
