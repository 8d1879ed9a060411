"""The work tree and the index against HEAD: the files git tracks and those it does not, what a
commit will change and renames since a commit. Listing runs git itself, never gitpython (a
plain ``check`` of a work tree loads no git library)."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable, Sequence
from pathlib import Path

import msgspec

from adrguard.adapters.git.command import (
    GitError,
    decode_path,
    find_repo_root,
    require_work_tree,
    run,
)
from adrguard.adapters.git.history import diff_changes, diff_with_ids
from adrguard.core.errors import UserError
from adrguard.core.model import FileChange

# Variables that move the repository, its index or its config away from ``<top>/.git``.
_LOCATION_VARIABLES = ("GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR", "GIT_CEILING_DIRECTORIES",
                       "GIT_DISCOVERY_ACROSS_FILESYSTEM", "GIT_OBJECT_DIRECTORY",
                       "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_NAMESPACE")  # fmt: skip


def state_digest(top: Path) -> str | None:
    """A digest of what ``git ls-files`` depends on (the index and the repository's config
    files), read without starting git, or None when the repository is not a
    plain one that this shortcut covers (a ``.git`` file, ``GIT_DIR`` and the like, another
    index file, ``core.worktree`` or includes in its config).
    Callers key cached listings on it: the same index bytes list the same files."""
    if any(name in os.environ for name in _LOCATION_VARIABLES) or any(
        name.startswith("GIT_CONFIG") for name in os.environ
    ):
        return None
    git_dir = top / ".git"
    if git_dir.is_symlink() or not git_dir.is_dir() or not (git_dir / "HEAD").is_file():
        return None
    index_file = os.environ.get("GIT_INDEX_FILE")  # git sets it for hooks: fine if it is ours
    if index_file is not None:
        try:
            if not os.path.samefile(index_file, git_dir / "index"):
                return None
        except OSError:
            return None
    digest = hashlib.sha256(str(top).encode("utf-8", "surrogateescape") + b"\0")
    home = Path(os.environ.get("HOME", "/nonexistent"))
    xdg = Path(os.environ.get("XDG_CONFIG_HOME") or home / ".config")
    for part in (git_dir / "index", git_dir / "config", home / ".gitconfig", xdg / "git/config"):
        try:
            data = part.read_bytes()
        except FileNotFoundError:
            data = b"<absent>"
        except OSError:
            return None
        lowered = data.lower()
        if part == git_dir / "config" and (b"worktree" in lowered or b"include" in lowered):
            return None
        digest.update(hashlib.sha256(data).digest())
    return digest.hexdigest()


def tracked_files(where: Path) -> list[str] | None:
    """Tracked and staged files below ``where`` (``git ls-files``, ``-z`` safe), relative to
    it, sorted; None when git cannot list them there (not a work tree, no git, a repository
    git refuses to use)."""
    try:
        out = run(where, "ls-files", "-z", "--cached")
    except UserError:
        return None
    return sorted({decode_path(p) for p in out.split(b"\0") if p})


# git's empty tree: the "before" of a repository without commits
EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"


def untracked_files(base: Path, below: Sequence[str] = (".",)) -> list[str]:
    """Files below ``base`` (in the folders ``below``, relative to it) that git neither tracks
    nor ignores, relative to ``base``, sorted."""
    try:
        out = run(base, "ls-files", "-z", "--others", "--exclude-standard", "--", *below)
    except GitError:
        return []
    return sorted(decode_path(p) for p in out.split(b"\0") if p)


def head_commit(base: Path) -> str | None:
    """The commit HEAD names, or None in a repository without commits."""
    try:
        out = run(base, "rev-parse", "--verify", "-q", "HEAD^{commit}")
    except GitError:
        return None
    return out.decode("ascii").strip() or None


class LocalDiff(msgspec.Struct, frozen=True):
    """A change not committed yet (:func:`local_diff`)."""

    head: str  # the commit it starts from (git's empty tree when there is none)
    changes: list[FileChange]
    before: dict[str, str | None] | None  # the ids at ``head`` (history.diff_with_ids)


def local_diff(base: Path, staged: bool) -> LocalDiff:
    """What the next commit changes (``staged``: the index against HEAD, as
    :func:`staged_changes`) or everything not committed yet (the work tree, staged or not,
    and untracked files that git does not ignore), with the object ids of the files before
    it; a one-line ``UserError`` unless ``base`` is inside a git work tree
    (:func:`require_work_tree`). The work tree's top and HEAD come from one ``git rev-parse``."""
    found = _top_and_head(base)
    if found is None:
        require_work_tree(base)
        top, head = None, head_commit(base) or EMPTY_TREE
    else:
        top, head = found
    if staged:
        changes, _notes, before = diff_with_ids(base, head, cached=True)
        return LocalDiff(head, changes, before)
    changes, _notes, before = diff_with_ids(base, head)
    known = {c.path for c in changes}
    new = [p for p in _from_top(base, untracked_files(base), top) if p not in known]
    return LocalDiff(head, changes + [FileChange("A", p) for p in new], before)


def _top_and_head(base: Path) -> tuple[Path, str] | None:
    """The top of the work tree around ``base`` and the commit HEAD names, from one
    ``git rev-parse`` (as :func:`find_repo_root` and :func:`head_commit` give them); None
    when that does not give both (no commit yet, not a work tree, no git)."""
    try:
        out = run(base, "rev-parse", "--show-toplevel", "--verify", "-q", "HEAD^{commit}")
    except UserError:
        return None
    lines = out.decode("utf-8", "surrogateescape").split("\n")
    if len(lines) != 3 or lines[2] or not lines[0].strip() or not lines[1].strip():
        return None
    return Path(lines[0].strip()), lines[1].strip()


def staged_changes(base: Path) -> tuple[str, list[FileChange]]:
    """What the next commit changes (the index against HEAD) and the commit it starts from
    (git's empty tree when there is none)."""
    head = head_commit(base) or EMPTY_TREE
    return head, diff_changes(base, head, cached=True)[0]


def _from_top(base: Path, paths: Iterable[str], top: Path | None = None) -> list[str]:
    """Paths relative to ``base`` made relative to the top of the work tree (as git diff
    reports them); ``top``: that top, when known."""
    top = top or find_repo_root(base)
    if top is None:
        return list(paths)
    prefix = Path(os.path.realpath(base)).relative_to(os.path.realpath(top)).as_posix()
    return [p if prefix in ("", ".") else f"{prefix}/{p}" for p in paths]


def renames_since(base: Path, rev: str) -> dict[str, str]:
    """Old path -> new path for every file git sees renamed from ``rev`` to the work tree."""
    try:
        changes = diff_changes(base, rev)[0]
    except UserError:
        return {}
    return {c.old_path: c.path for c in changes if c.status == "R" and c.old_path}
