"""The work tree and the index against HEAD: untracked files, what a commit will change, renames
since a commit and files as HEAD holds them. Built on :mod:`adrguard.adapters.git` (imported
lazily, like it: gitpython is slow to import)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

from adrguard.core.errors import UserError
from adrguard.core.model import FileChange

# git's empty tree: the "before" of a repository without commits
EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"


def untracked_files(base: Path, below: Sequence[str] = (".",)) -> list[str]:
    """Files below ``base`` (in the folders ``below``, relative to it) that git neither tracks
    nor ignores, relative to ``base``, sorted."""
    import git

    from adrguard.adapters.git import decode_path, run_git

    try:
        out = run_git(base, "ls-files", "-z", "--others", "--exclude-standard", "--", *below)
    except git.GitCommandError:
        return []
    return sorted(decode_path(p) for p in out.split(b"\0") if p)


def head_commit(base: Path) -> str | None:
    """The commit HEAD names, or None in a repository without commits."""
    import git

    from adrguard.adapters.git import run_git

    try:
        out = run_git(base, "rev-parse", "--verify", "-q", "HEAD^{commit}")
    except git.GitCommandError:
        return None
    return out.decode("ascii").strip() or None


def staged_changes(base: Path) -> tuple[str, list[FileChange]]:
    """What the next commit changes (the index against HEAD) and the commit it starts from
    (git's empty tree when there is none)."""
    from adrguard.adapters.revisions import diff_changes

    head = head_commit(base) or EMPTY_TREE
    return head, diff_changes(base, head, cached=True)[0]


def worktree_changes(base: Path) -> tuple[str, list[FileChange]]:
    """Everything not committed yet (the work tree, staged or not, and untracked files that
    git does not ignore) against HEAD, and the commit it starts from."""
    from adrguard.adapters.revisions import diff_changes

    head = head_commit(base) or EMPTY_TREE
    changes = diff_changes(base, head)[0]
    known = {c.path for c in changes}
    new = [p for p in _from_top(base, untracked_files(base)) if p not in known]
    return head, changes + [FileChange("A", p) for p in new]


def _from_top(base: Path, paths: Iterable[str]) -> list[str]:
    """Paths relative to ``base`` made relative to the top of the work tree (as git diff
    reports them)."""
    import os

    from adrguard.adapters.git import find_repo_root

    top = find_repo_root(base)
    if top is None:
        return list(paths)
    prefix = Path(os.path.realpath(base)).relative_to(os.path.realpath(top)).as_posix()
    return [p if prefix in ("", ".") else f"{prefix}/{p}" for p in paths]


def renames_since(base: Path, rev: str) -> dict[str, str]:
    """Old path -> new path for every file git sees renamed from ``rev`` to the work tree."""
    from adrguard.adapters.revisions import diff_changes

    try:
        changes = diff_changes(base, rev)[0]
    except UserError:
        return {}
    return {c.old_path: c.path for c in changes if c.status == "R" and c.old_path}


def blobs_at(base: Path, rev: str, paths: Iterable[str]) -> dict[str, bytes]:
    """The files among ``paths`` as commit ``rev`` holds them (absent ones are left out)."""
    import git

    from adrguard.adapters.git import decode_path, read_blobs, run_git

    wanted = sorted(set(paths))
    if not wanted:
        return {}
    try:
        out = run_git(base, "ls-tree", "-z", "--full-tree", rev, "--", *wanted)
    except git.GitCommandError:
        return {}
    shas: dict[str, str] = {}
    for entry in out.split(b"\0"):
        meta, _, raw = entry.partition(b"\t")
        parts = meta.split(b" ")
        if len(parts) == 3 and parts[1] == b"blob":
            shas[decode_path(raw)] = parts[2].decode("ascii")
    data = read_blobs(base, list(shas.values()))
    return {path: data[sha] for path, sha in shas.items()}


def require_work_tree(base: Path) -> None:
    """A one-line ``UserError`` unless ``base`` is inside a git work tree."""
    from adrguard.adapters.git import find_repo_root

    if find_repo_root(base) is None:
        raise UserError(
            f"{base} is not inside a git work tree: --changed and the pre-commit hook judge "
            "what git would commit; run `adrguard check` to check every record"
        )
