"""What an archive move asks of git: ``git mv`` (the move is staged, like a person's ``git
mv``), where the repository keeps its private files (the recovery log goes there, outside the
work tree), and whether git ignores a path (a plan file is written only where it does). """

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from adrguard.adapters.git.command import GitError, decode_path, run
from adrguard.core.errors import UserError
from adrguard.pathguard import write_problem


def git_dir(repo_root: Path) -> Path:
    """The repository's private folder (``.git``, or a worktree's folder inside it)."""

    try:
        out = run(repo_root, "rev-parse", "--absolute-git-dir")
    except GitError as exc:
        raise UserError(
            f"{repo_root} is not inside a git work tree ({exc.reason}): archive moves "
            "are made with git mv; run them in a clone"
        ) from None
    return Path(out.decode("utf-8", "surrogateescape").strip())


def is_ignored(repo_root: Path, rel: str) -> bool:
    """Whether git ignores ``rel`` (relative to ``repo_root``), tracked or not."""

    try:
        run(repo_root, "check-ignore", "-q", "--no-index", "--", rel)
    except GitError:
        return False
    return True


def tracked(repo_root: Path, paths: Iterable[str]) -> set[str]:
    """The paths among ``paths`` that git tracks (in its index)."""

    wanted = sorted(set(paths))
    if not wanted:
        return set()
    try:
        out = run(repo_root, "ls-files", "-z", "--cached", "--", *wanted)
    except GitError:
        return set()
    return {decode_path(p) for p in out.split(b"\0") if p} & set(wanted)


def add(repo_root: Path, paths: Iterable[str]) -> None:
    """``git add -- PATHS``: files a move creates are staged like the moved files."""
    _index_command(repo_root, "add", paths)


def forget(repo_root: Path, paths: Iterable[str]) -> None:
    """``git rm --cached``: unstage files a restore removes (absent entries are fine)."""
    _index_command(repo_root, "rm", paths)


def _index_command(repo_root: Path, verb: str, paths: Iterable[str]) -> None:

    wanted = sorted(set(paths))
    if not wanted:
        return
    for rel in wanted:
        why = write_problem(repo_root, rel)
        if why is not None:
            raise UserError(f"refusing to {verb} {rel}: {why}")
    args = ("add", "--") if verb == "add" else ("rm", "-q", "--cached", "--ignore-unmatch", "--")
    try:
        run(repo_root, *args, *wanted)
    except GitError as exc:
        raise exc.saying(f"git {verb} {' '.join(wanted)} failed: {exc.reason}") from None


def move(repo_root: Path, source: str, target: str) -> None:
    """``git mv -- SOURCE TARGET``: the file moves and the move is staged. The target's folder
    must exist. Refused when either path is a symlink or resolves outside the repository
    through a symlinked folder (git would follow it)."""

    for rel in (source, target):
        why = write_problem(repo_root, rel)
        if why is not None:
            raise UserError(f"refusing to move {source} to {target}: {why}")
    try:
        run(repo_root, "mv", "--", source, target)
    except GitError as exc:
        raise exc.saying(f"git mv {source} {target} failed: {exc.reason}") from None
