"""Impact: git history → ChangeSet → :func:`adrguard.core.impact.analysis.analyse`.

The change set is the one ``check --base`` judges
(:func:`adrguard.api.pipeline.sources.build_changes`): the merge base of base and head
(``base...head``), the files changed since it, and the corpus as it was at the merge base.
"""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path
from typing import NamedTuple

from adrguard.adapters import git
from adrguard.api.pipeline.citation_scan import scan_changed
from adrguard.api.pipeline.corpus import resolve_root
from adrguard.api.pipeline.sources import build_changes, head_corpus, resolve_head
from adrguard.config import Config
from adrguard.core.errors import UserError
from adrguard.core.impact.analysis import Impact, analyse, configured_statuses
from adrguard.core.impact.mapping import manifest_of


def impact(
    repo_root: Path | str | None = None,
    *,
    base: str,
    head: str | None = None,
    config: Config,
    statuses: Collection[str] | None = None,
    deepen: bool = False,
) -> Impact:
    """The decisions a change touches (``adrguard impact``). ``statuses`` that govern default
    to the config's ``impact.statuses``, else accepted."""
    root = resolve_root(repo_root)
    git.require_repo(root)
    resolved = resolve_head(root, head)  # once: the corpus, the change and the scan share it
    corpus = head_corpus(root, config, resolved)
    changes = build_changes(root, config, base, resolved, corpus=corpus, deepen=deepen)
    corpus = scan_changed(root, config, corpus, changes, resolved.other)  # a file citing a decision
    manifest = manifest_of(corpus, config.options)
    wanted = configured_statuses(config.options) if statuses is None else statuses
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
    if _has_merge_base(root, wanted):
        return Reached(wanted)
    if not git.is_shallow(root):
        raise git.no_merge_base_error(root, wanted, "HEAD")
    target = f"origin/{branch}" if branch else wanted
    merge, fetched = git.deepen_until_merge_base(root, target, "HEAD")
    return Reached(wanted if _has_merge_base(root, wanted) else target, fetched, merge)


def _has_merge_base(root: Path, ref: str) -> bool:
    try:
        base = git.resolve_commit(root, ref, "base")
    except UserError:
        return False
    head = git.resolve_commit(root, "HEAD", "head")
    return git.merge_base(root, base, head) is not None
