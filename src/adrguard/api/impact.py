"""Change sets and impact: git history → ChangeSet → :func:`adrguard.core.impact.analysis.analyse`.

``build_changes`` is what ``check --base`` and ``impact`` share: the merge base of base and
head (``base...head``), the files changed since it (``-z`` safe, renames with their old path),
and the corpus as it was at the merge base, parsed with the same config as discovery.
"""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path
from typing import NamedTuple

from adrguard.api.pipeline.corpus import load_corpus, load_with, resolve_root
from adrguard.config import Config, load_config
from adrguard.core.cancel import Token
from adrguard.core.errors import UserError
from adrguard.core.impact.analysis import Impact, analyse, configured_statuses
from adrguard.core.impact.mapping import manifest_of
from adrguard.core.model import ChangeSet, Corpus
from adrguard.core.wording import plural


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
    from adrguard.adapters.source import Revision

    shallow = reuse.shallow_roots if reuse is not None and roots else frozenset()
    return load_corpus(Revision(repo_root, rev, roots, shallow), config, reuse=reuse)


def build_changes(
    repo_root: Path,
    config: Config,
    base: str,
    head: str | None = None,
    *,
    corpus: Corpus | None = None,
    deepen: bool = False,
) -> ChangeSet:
    """What changed from the merge base of ``base`` and ``head`` (default ``HEAD``) to head,
    with the corpus at the merge base. ``deepen`` fetches more history in shallow clones."""
    from adrguard.adapters import git

    head_ref = head or "HEAD"
    head_sha = git.resolve_commit(repo_root, head_ref, "head")
    try:
        base_sha = git.resolve_commit(repo_root, base, "base")
    except UserError:
        if not deepen or not git.is_shallow(repo_root):
            raise
        base_sha = ""  # --deepen fetches it
    merge = git.merge_base(repo_root, base_sha, head_sha) if base_sha else None
    notes: list[str] = []
    if merge is None:
        if not deepen or not git.is_shallow(repo_root):
            raise git.no_merge_base_error(repo_root, base, head_ref)
        merge, fetched = git.deepen_until_merge_base(repo_root, base, head_ref)
        notes.append(f"--deepen fetched more history ({plural(fetched, 'fetch', 'fetches')}) "
                     "to find the merge base")
        base_sha = git.resolve_commit(repo_root, base, "base")
        head_sha = git.resolve_commit(repo_root, head_ref, "head")
    if base_sha == head_sha:
        notes.append(f"base {base} and head {head_ref} are the same commit: nothing changed")
    elif merge != base_sha:
        notes.append(
            f"{base} is not an ancestor of {head_ref}: compared against their merge base "
            f"{merge[:12]}, so only what {head_ref} changed since it branched counts"
        )
    changes, diff_notes = git.diff_changes(repo_root, merge, head_sha)
    roots = corpus.roots if corpus is not None else ()
    return ChangeSet(
        base=base,
        head=head_ref,
        merge_base=merge,
        changes=tuple(changes),
        base_corpus=corpus_at(repo_root, config, merge, roots, reuse=corpus),
        notes=tuple(notes + diff_notes),
        base_commit=base_sha,
        head_commit=head_sha,
    )


def other_head(repo_root: Path, head: str | None) -> str | None:
    """The commit ``head`` names when it is not the one checked out (None: the work tree is
    the head of the change)."""
    from adrguard.adapters import git

    if head is None:
        return None
    wanted = git.resolve_commit(repo_root, head, "head")
    return None if wanted == git.resolve_commit(repo_root, "HEAD", "head") else wanted


def head_corpus(
    repo_root: Path, config: Config, head: str | None, cancel: Token | None = None
) -> Corpus:
    """The corpus ``head`` describes: the work tree for no head (or a head naming the commit
    checked out), else the files of that commit. ``cancel``: checked while the work tree's
    records are parsed."""
    other = other_head(repo_root, head)
    if other is not None:
        return corpus_at(repo_root, config, other)
    return load_with(repo_root, config, untracked=False, cancel=cancel)  # what git will commit


def impact(
    repo_root: Path | str | None = None,
    *,
    base: str,
    head: str | None = None,
    config_path: Path | None = None,
    config: Config | None = None,
    statuses: Collection[str] | None = None,
    deepen: bool = False,
) -> Impact:
    """The decisions a change touches (``adrguard impact``). ``statuses`` that govern default
    to the config's ``impact.statuses``, else accepted."""
    from adrguard.adapters import git
    from adrguard.api.pipeline.citation_scan import scan_changed

    root = resolve_root(repo_root)
    cfg = config if config is not None else load_config(root, config_path)
    git.require_repo(root)
    corpus = head_corpus(root, cfg, head)
    changes = build_changes(root, cfg, base, head, corpus=corpus, deepen=deepen)
    other = other_head(root, head)
    corpus = scan_changed(root, cfg, corpus, changes, other)  # a file citing a decision
    manifest = manifest_of(corpus, cfg.options)
    wanted = configured_statuses(cfg.options) if statuses is None else statuses
    return analyse(corpus, changes, manifest, wanted)


class Reached(NamedTuple):
    """The base a pull request is measured against, and what it took to reach it."""

    base: str
    fetched: int = 0  # fetches of more history (a shallow clone)
    merge_base: str = ""  # found by fetching ("" when the history was there)


def reach_base(root: Path, wanted: str, branch: str = "") -> Reached:
    """``wanted`` when it shares history with HEAD; in a shallow clone, fetch more history
    until it does (the base branch ``origin/BRANCH`` when ``wanted`` still has none). A
    :class:`~adrguard.core.errors.UserError` when there is no merge base."""
    from adrguard.adapters import git

    if _has_merge_base(root, wanted):
        return Reached(wanted)
    if not git.is_shallow(root):
        raise git.no_merge_base_error(root, wanted, "HEAD")
    target = f"origin/{branch}" if branch else wanted
    merge, fetched = git.deepen_until_merge_base(root, target, "HEAD")
    return Reached(wanted if _has_merge_base(root, wanted) else target, fetched, merge)


def _has_merge_base(root: Path, ref: str) -> bool:
    from adrguard.adapters import git

    try:
        base = git.resolve_commit(root, ref, "base")
    except UserError:
        return False
    head = git.resolve_commit(root, "HEAD", "head")
    return git.merge_base(root, base, head) is not None
