"""The one place that talks to git.

- :mod:`~adrguard.adapters.git.command`: the runner every git command goes through, and
  :class:`GitError`, the one error of a failed command (a one-line ``UserError`` with the fix:
  exit 2); the work tree's top and whether git refuses it.
- :mod:`~adrguard.adapters.git.worktree`: the files git tracks and those it does not, what the
  next commit changes, renames since a commit (no gitpython: ``git ls-files -z``).
- :mod:`~adrguard.adapters.git.tree`: what a commit holds (the one ``git ls-tree -z`` parser)
  and the contents of its files (gitpython's object database, imported only to read objects).
- :mod:`~adrguard.adapters.git.history`: refs, merge bases, deepening a shallow clone, diffs.
- :mod:`~adrguard.adapters.git.moves`: ``git mv``, ``add`` and ``rm --cached`` for archive moves.
"""

from __future__ import annotations

from adrguard.adapters.git.command import (
    GitError,
    find_repo_root,
    refusal,
    require_repo,
    require_work_tree,
)
from adrguard.adapters.git.history import (
    deepen_until_merge_base,
    diff_changes,
    diff_with_ids,
    is_shallow,
    list_refs,
    merge_base,
    no_merge_base_error,
    resolve_commit,
    span,
)
from adrguard.adapters.git.moves import add, forget, git_dir, is_ignored, move, tracked
from adrguard.adapters.git.tree import (
    blobs_at,
    files_at,
    ls_tree,
    object_ids,
    paths_at,
    read_blobs,
)
from adrguard.adapters.git.worktree import (
    EMPTY_TREE,
    head_commit,
    local_diff,
    renames_since,
    staged_changes,
    state_digest,
    tracked_files,
    untracked_files,
)

__all__ = [
    "EMPTY_TREE", "GitError", "add", "blobs_at", "deepen_until_merge_base", "diff_changes",
    "diff_with_ids", "files_at", "find_repo_root", "forget", "git_dir", "head_commit", "is_ignored",
    "is_shallow", "list_refs", "local_diff", "ls_tree", "merge_base", "move", "no_merge_base_error",
    "object_ids", "paths_at", "read_blobs", "refusal", "renames_since", "require_repo",
    "require_work_tree", "resolve_commit", "span", "staged_changes", "state_digest", "tracked",
    "tracked_files", "untracked_files",
]
