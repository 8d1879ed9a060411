"""The sources of one run: the corpus to check and, when a change is judged, the corpus before
it, picked by the kind of change (:func:`adrguard.api.check.run_check` asks for one of these):

* :func:`work_tree`: the work tree as it is (``check``), untracked files included;
* :func:`local_change`: a change not committed yet, ``"staged"`` (the pre-commit hook; a
  commit that touches nothing adrguard reads is passed over first, :func:`nothing_to_check`)
  or ``"worktree"`` (``check --changed``); the corpus before it is the one ``HEAD`` holds
  (:func:`corpus_before`);
* :func:`since_base`: the changes since the merge base with a ref (``check --base``, ``impact``):
  :func:`build_changes` and the corpus at that commit (:func:`corpus_at`);
* whatever the kind, what other refs and open pull requests add (``--against``, ``--claims``):
  :class:`Others`; and the paths ``check PATH...`` names (:func:`targets`), which must lie in
  what discovery found (:func:`check_files`).

:func:`pick` takes the request's part of the sources (and refuses a combination of kinds that
does not go together).

Each reads its corpora through the one pipeline (:mod:`adrguard.api.pipeline.corpus`) and
returns :class:`Sources`; a change comes with its :class:`Scope` (what it touches, the corpus
before it), which the gate (:mod:`adrguard.api.gate`) judges findings by.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

import msgspec
from msgspec.structs import replace

from adrguard.adapters import git
from adrguard.adapters.cache.store import RunStore
from adrguard.adapters.files import Discovery
from adrguard.adapters.git import require_work_tree, staged_changes
from adrguard.adapters.layout import longest_first as longest_first
from adrguard.adapters.layout import root_of as root_of
from adrguard.adapters.source import Amended, Revision, WorkTree
from adrguard.api.pipeline.corpus import (
    load_corpus,
    load_with,
    read_source,
    search_roots,
)
from adrguard.api.pipeline.helpers import Ahead
from adrguard.config import Config
from adrguard.core.cancel import Token
from adrguard.core.errors import UserError
from adrguard.core.gate.baseline import DEFAULT_PATH
from adrguard.core.generated.index import AUTO_NAMES
from adrguard.core.generated.region import join_root
from adrguard.core.model import ChangeSet, Corpus, FileChange
from adrguard.core.options import manifest_path
from adrguard.core.parse import formats
from adrguard.core.wording import revision

if TYPE_CHECKING:
    from adrguard.adapters.roots import Search
    from adrguard.core.authoring.claims import Claims


CHECK = "check"  # scan for citations as check does (adrguard.api.pipeline.citation_scan.CHECK)


class Scope(msgspec.Struct, frozen=True):
    """A change being judged: what it touches, and the corpus before it (whose findings tell
    the older ones from those the change causes)."""

    label: str  # "this commit", "the uncommitted changes", "the changes since origin/main"
    touched: frozenset[str]
    before: Corpus | None  # None: nothing before the change (every finding is new)
    config: Config
    renames: Mapping[str, str] = msgspec.field(default_factory=dict)  # old path -> new path


class Sources(msgspec.Struct, frozen=True):
    """What a request is run over: the corpus (and what discovery found, None when it came from
    git), the change and its scope, what other changes add."""

    corpus: Corpus
    found: Discovery | None = None
    changes: ChangeSet | None = None
    claims: Claims | None = None
    scope: Scope | None = None  # the change being judged
    skipped: str | None = None  # why nothing is checked (the hook: nothing relevant)
    paths: tuple[str, ...] = ()  # ``check PATH...``, repo-relative


class Others(msgspec.Struct, frozen=True):
    """What other changes add (``--against`` refs, a ``--claims`` file), read once the corpus of
    this side is known."""

    root: Path
    config: Config
    refs: tuple[str, ...] = ()
    claims_file: Path | None = None
    head: str | None = None

    def claims(self, corpus: Corpus, changes: ChangeSet | None) -> Claims | None:
        if not self.refs and (self.claims_file is None or changes is None):
            return None  # nothing to read: the claims modules stay unimported
        from adrguard.api import claims
        from adrguard.core.authoring.claims import merge

        parts = []
        if self.refs:
            here = (changes.head_commit or None) if changes is not None else None
            parts.append(claims.from_refs(self.root, self.config, corpus, self.refs, self.head,
                                          here))
        if self.claims_file is not None and changes is not None:
            before = changes.base_corpus or Corpus(())
            parts.append(claims.from_file(self.root, self.config, corpus, self.claims_file,
                                          before))
        return merge(parts) if parts else None


# --- what `check PATH...` names -------------------------------------------------------------


class Targets(msgspec.Struct, frozen=True):
    """The paths given, repo-relative, and which of them are folders."""

    paths: tuple[str, ...] = ()
    folders: tuple[str, ...] = ()


def targets(root: Path, paths: Sequence[str]) -> Targets:
    """``check PATH...`` repo-relative: a path that does not exist or lies outside the
    repository is a usage error; a folder is checked as a root for this run."""
    rels: list[str] = []
    folders: list[str] = []
    for given in paths:
        p = Path(given)
        full = p if p.is_absolute() else Path.cwd() / p
        if not full.exists() and not full.is_symlink():
            raise UserError(f"{given}: no such file or folder: give a file or folder inside {root}")
        try:
            rel = full.resolve().relative_to(root).as_posix()
        except ValueError:
            raise UserError(f"{given} is outside the repository root {root}") from None
        rel = "." if rel in ("", ".") else rel
        rels.append(rel)
        if full.is_dir():
            folders.append(rel)
    return Targets(tuple(rels), tuple(folders))


def check_files(wanted: Targets, found: Discovery) -> None:
    """Every file named must lie in an ADR root."""
    ordered = longest_first(found.roots)
    records = {s.path for s in found.sources}
    for rel in wanted.paths:
        if rel in wanted.folders or rel in records or rel in found.skipped:
            continue
        root = root_of(rel, ordered)
        if root is None or (root in found.shallow_roots and "/" in rel[len(root) + 1 :]):
            raise UserError(
                f"{rel} is not inside an ADR root (roots: {', '.join(found.roots)}): check its "
                "folder with `adrguard check FOLDER`, or add the folder to `roots` in the config"
            )


def repo_relative(root: Path, path: str) -> str:
    """A path pre-commit passes (relative to the current directory) as repo-relative; "" when
    it is outside the repository."""
    p = Path(path)
    full = p if p.is_absolute() else Path.cwd() / p
    try:
        return full.resolve().relative_to(root).as_posix()
    except (ValueError, OSError):
        return ""


# --- the kinds of change ------------------------------------------------------------------------


def pick(
    root: Path, cfg: Config, paths: Sequence[str] = (), *, base: str | None = None,
    head: str | None = None, deepen: bool = False, change: str | None = None,
    changed_files: Sequence[str] = (), against: Sequence[str] = (),
    claims_file: Path | None = None, cancel: Token | None, cache: RunStore,
    ahead: Ahead | None = None,
) -> Sources:
    """The sources by the kind of change: the changes since ``base`` (to ``head``), a local
    ``change`` (``"staged"``, ``"worktree"``), else the work tree as it is; ``paths`` (``check
    PATH...``, :func:`targets`) must lie in what it finds; ``against`` and ``claims_file``:
    what other changes add (:class:`Others`). ``cache``: the store of the run, for every read
    of the work tree's record cache. ``ahead``: parse helpers started ahead of the run (ADR
    64), for the work tree's records."""
    wanted = targets(root, paths)
    if claims_file is not None and base is None:
        raise UserError("--claims needs --base: the records a pull request adds are compared "
                        "with the records this change adds since its base")
    if base is not None and change is not None:
        raise UserError("--base and --changed judge different changes: give one of them")
    if base is None and head is not None:
        raise UserError("--head needs --base: say which revision the change is measured against")
    others = Others(root, cfg, tuple(against), claims_file, head)
    if base is not None:
        run = since_base(root, cfg, wanted, base, head, deepen, others, cancel, cache, ahead)
    elif change is not None:
        run = local_change(root, cfg, wanted, change, changed_files, others, cancel, cache,
                           ahead)
    else:
        run = work_tree(root, cfg, wanted, others, cancel, cache, ahead)
    if run.found is not None:
        check_files(wanted, run.found)
    return replace(run, paths=wanted.paths)


def work_tree(
    root: Path, cfg: Config, wanted: Targets, others: Others, cancel: Token | None,
    cache: RunStore, ahead: Ahead | None = None,
) -> Sources:
    """The work tree as it is, files git does not track yet included (``ahead``: parse helpers
    started ahead of the run, ADR 64)."""
    source = WorkTree(root, untracked=True, extra_roots=wanted.folders)
    found, corpus = read_source(source, cfg, citations=CHECK, cancel=cancel, cache=cache,
                                ahead=ahead)
    previous = _previous_at_head(root, cfg, found)
    if previous:
        corpus = formats.same_names(corpus, replace(corpus, previous_texts=previous))
    return Sources(corpus, found, claims=others.claims(corpus, None))


def local_change(
    root: Path, cfg: Config, wanted: Targets, change: str, changed_files: Sequence[str],
    others: Others, cancel: Token | None, cache: RunStore, ahead: Ahead | None = None,
) -> Sources:
    """The change not committed yet: what the next commit holds (``"staged"``, the hook;
    ``changed_files``: the files it passes) or everything in the work tree (``"worktree"``,
    ``check --changed``); the corpus before it is the one ``HEAD`` holds."""
    if change not in ("staged", "worktree"):
        raise ValueError(f"unknown change {change!r}")
    staged = change == "staged"
    local = git.local_diff(root, staged)
    head, diff = local.head, local.changes
    passed = {p for p in (repo_relative(root, f) for f in changed_files) if p}
    if staged:  # decide before reading any record: most commits touch no ADR
        search = search_roots(root, cfg, extra=wanted.folders, cache=cache)
        why = nothing_to_check(cfg, search, diff, passed)
        if why is not None:
            return Sources(Corpus(()), skipped=why)
    source = WorkTree(root, untracked=not staged, extra_roots=wanted.folders)
    found, corpus = read_source(source, cfg, citations=CHECK, cancel=cancel, cache=cache,
                                ahead=ahead)
    before = corpus_before(root, cfg, found, corpus, head, diff, local.before, cache)
    changes = ChangeSet(
        base="HEAD",
        head="the staged changes" if staged else "the work tree",
        merge_base=head,
        changes=tuple(diff),
        base_corpus=before,
        base_commit=head,
    )
    label = "this commit" if staged else "the uncommitted changes"
    return _of_change(cfg, corpus, found, changes, others, label, passed)


def since_base(
    root: Path, cfg: Config, wanted: Targets, base: str, head: str | None, deepen: bool,
    others: Others, cancel: Token | None, cache: RunStore, ahead: Ahead | None = None,
) -> Sources:
    """The changes since the merge base of ``base`` and ``head`` (the work tree, as git will
    commit it, when ``head`` is None or names the commit checked out)."""
    found: Discovery | None = None
    resolved = resolve_head(root, head)
    if resolved.other is None:  # the work tree, as git will commit it
        source = WorkTree(root, extra_roots=wanted.folders)
        found, corpus = read_source(source, cfg, citations=CHECK, cancel=cancel, cache=cache,
                                    ahead=ahead)
    else:
        corpus = corpus_at(root, cfg, resolved.other)
    changes = build_changes(root, cfg, base, resolved, corpus=corpus, deepen=deepen)
    label = f"the changes since {revision(changes.base)}"
    return _of_change(cfg, corpus, found, changes, others, label)


def _of_change(
    cfg: Config, corpus: Corpus, found: Discovery | None, changes: ChangeSet, others: Others,
    label: str, passed: Collection[str] = (),
) -> Sources:
    """The sources of a change: the head's corpus with what the base leaves it
    (:func:`_with_previous`), the change with the head's citations on its base, what other
    changes add, and the scope the gate judges (``label``; what the change touches, plus the
    files the hook was passed, ``passed``)."""
    changes = _cited_before(changes, corpus)
    scope = Scope(
        label=label,
        touched=_touched(changes.changes) | frozenset(passed),
        before=changes.base_corpus,
        config=cfg,
        renames=_renamed(changes.changes),
    )
    corpus = _with_previous(corpus, changes.base_corpus)
    return Sources(corpus, found, changes, others.claims(corpus, changes), scope)


# --- the corpus before a change, the head of a change -------------------------------------------


def corpus_at(
    repo_root: Path,
    config: Config,
    rev: str,
    roots: tuple[str, ...] = (),
    reuse: Corpus | None = None,
) -> Corpus:
    """The corpus as it was at commit ``rev`` (see :class:`adrguard.adapters.source.Revision`):
    the same pipeline as the work tree's, reading git objects. ``roots``: the ADR roots to use
    (the head's; default: those discovery finds). A record of ``reuse`` with the same path and
    content is taken as it is instead of being parsed again; its shallow roots (found by
    content) stay shallow."""
    shallow = reuse.shallow_roots if reuse is not None and roots else frozenset()
    return load_corpus(Revision(repo_root, rev, roots, shallow), config, reuse=reuse)


def corpus_before(
    root: Path,
    config: Config,
    found: Discovery,
    corpus: Corpus,
    head: str,
    changes: Sequence[FileChange],
    ids: Mapping[str, str | None] | None = None,
    cache: RunStore | None = None,
) -> Corpus:
    """The corpus as ``head`` holds it, through the one pipeline
    (:class:`adrguard.adapters.source.Amended`): the work tree's files the change leaves alone
    plus the changed files read from git; only those are read and parsed, the other records
    are taken from ``corpus``. ``ids``: the changed files' object ids at ``head``, as the
    change's diff gave them (:func:`adrguard.adapters.git.diff_with_ids`). ``cache``: the
    store of the run, which the work tree was read with; a changed file whose bytes at
    ``head`` the work tree's pack still holds (checked before it was edited) is taken from
    there, not parsed."""
    now = frozenset(c.path for c in changes)
    then = frozenset(c.old_path or c.path for c in changes if c.status != "A")
    source = Amended(root, head, found, now, then, ids)
    return read_source(source, config, reuse=corpus, cache=cache, reuse_found=found)[1]


def build_changes(
    repo_root: Path,
    config: Config,
    base: str,
    head: str | Head | None = None,
    *,
    corpus: Corpus | None = None,
    deepen: bool = False,
) -> ChangeSet:
    """What changed from the merge base of ``base`` and ``head`` (default ``HEAD``; a
    :class:`Head` when it is resolved already) to head (:func:`adrguard.adapters.git.span`),
    with the corpus at the merge base, parsed with the same config as discovery. ``deepen``
    fetches more history in shallow clones."""
    resolved = head if isinstance(head, Head) else Head(head or "HEAD")
    head_ref = resolved.ref
    spanned = git.span(repo_root, base, head_ref, deepen=deepen, head_commit=resolved.commit)
    roots = corpus.roots if corpus is not None else ()
    return ChangeSet(
        base=base,
        head=head_ref,
        merge_base=spanned.merge_base,
        changes=tuple(spanned.changes),
        base_corpus=corpus_at(repo_root, config, spanned.merge_base, roots, reuse=corpus),
        notes=tuple(spanned.notes),
        base_commit=spanned.base_commit,
        head_commit=spanned.head_commit,
    )


class Head(NamedTuple):
    """The head of a change, resolved once (:func:`resolve_head`) and handed down: the ref as
    given (``HEAD`` when none was), the commit it names (None when none was given: the change's
    span resolves ``HEAD``), and that commit when it is not the one checked out (None: the
    work tree is the head of the change)."""

    ref: str
    commit: str | None = None
    other: str | None = None


def resolve_head(repo_root: Path, head: str | None) -> Head:
    """``head`` resolved: one ``git rev-parse`` of it, one of ``HEAD`` to compare."""
    if head is None:
        return Head("HEAD")
    wanted = git.resolve_commit(repo_root, head, "head")
    checked_out = git.resolve_commit(repo_root, "HEAD", "head")
    return Head(head, wanted, None if wanted == checked_out else wanted)


def head_corpus(
    repo_root: Path, config: Config, head: Head, cancel: Token | None = None
) -> Corpus:
    """The corpus ``head`` describes: the work tree for no head (or a head naming the commit
    checked out), else the files of that commit. ``cancel``: checked while the work tree's
    records are parsed."""
    if head.other is not None:
        return corpus_at(repo_root, config, head.other)
    return load_with(repo_root, config, untracked=False, cancel=cancel)  # what git will commit


# --- whether the hook has anything to judge -----------------------------------------------------

# Files whose change can change any verdict: adrguard's config, the ADR tools' settings that
# discovery reads, the baseline and the impact manifest.
SETTINGS = (".adrguard.toml", "pyproject.toml", ".adr-dir", ".log4brains.yml")


def settings_paths(config: Config) -> set[str]:
    paths = {*SETTINGS, DEFAULT_PATH, manifest_path(config.options)}
    if config.source and not config.source.startswith("/"):
        paths.add(config.source)
    return paths


def nothing_to_check(
    config: Config, search: Search, changes: Sequence[FileChange], passed: Collection[str]
) -> str | None:
    """Why the hook can stop here (None: it must check): a commit that touches no file under an
    ADR root (configured or detected, whatever its name) and none of adrguard's own settings is
    passed over at once. ``changes``: what the commit changes (from git, deletions included);
    ``passed``: the files pre-commit passed."""
    roots = tuple(r.path for r in search.roots)
    if not roots:
        return "no ADR folder in this repository: nothing to check"
    touched = {p for c in changes for p in (c.path, c.old_path) if p} | set(passed)
    if touched & settings_paths(config):
        return None
    ordered = longest_first(roots)
    shallow = {r.path for r in search.roots if r.shallow}
    for path in touched:
        root = root_of(path, ordered)
        if root is None:
            continue
        below = path if root == "." else path[len(root) + 1 :]
        if root not in shallow or below.count("/") <= 1:
            return None
    return "this commit changes no file under the ADR roots and no adrguard setting: nothing to do"


def hook_has_work(root: Path, config: Config, passed: Sequence[str]) -> str | None:
    """For hooks other than the check (``index --write --hook``): why there is nothing to do
    in this commit, or None."""
    require_work_tree(root)
    _head, changes = staged_changes(root)
    search = search_roots(root, config)
    rel = {p for p in (repo_relative(root, f) for f in passed) if p}
    return nothing_to_check(config, search, changes, rel)


# --- what a change leaves ------------------------------------------------------------------------


def _touched(changes: Sequence[FileChange]) -> frozenset[str]:
    return frozenset(p for c in changes for p in (c.path, c.old_path) if p)


def _renamed(changes: Sequence[FileChange]) -> dict[str, str]:
    return {c.old_path: c.path for c in changes if c.status == "R" and c.old_path}


def _previous_at_head(root: Path, cfg: Config, found: Discovery) -> dict[str, bytes]:
    """Generated indexes HEAD holds that the work tree has lost (ADR401). Asked of git only
    when an index file git tracks is missing from the work tree (a deletion that is staged
    already is judged by the hook, --changed and --base, which compare with HEAD)."""
    if not found.uses_git:
        return {}

    names = {join_root(r, n) for r in found.roots for n in AUTO_NAMES} - set(found.other_texts)
    tracked = frozenset(found.file_list) if names else frozenset()
    gone = [p for p in names if p in tracked and not (root / p).exists()]
    if not gone:
        return {}
    from adrguard.api.generated import lost_indexes

    return lost_indexes(root, cfg, found.roots, found.other_texts)


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

    corpus = keep_mirrors(corpus, before.mirrors)

    gone = {
        p: t
        for p, t in before.other_texts.items()
        if p not in corpus.other_texts and p.rsplit("/", 1)[-1] in AUTO_NAMES
    }
    return replace(corpus, previous_texts=gone) if gone else corpus


def keep_mirrors(corpus: Corpus, mirrors: Mapping[str, str]) -> Corpus:
    """``corpus`` with the files ``mirrors`` names (translation mirrors of another state of
    the repository, such as the base of a change) left out of the records again, as mirrors."""
    again = {d.path: mirrors[d.path] for d in corpus.decisions if d.path in mirrors}
    if not again:
        return corpus
    return replace(
        corpus,
        decisions=tuple(d for d in corpus.decisions if d.path not in again),
        skipped=tuple(sorted({*corpus.skipped, *again})),
        mirrors={**corpus.mirrors, **again},
    )
