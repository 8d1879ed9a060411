"""What a commit holds: its tree as ``git ls-tree -z`` lists it (one parser for every caller)
and the contents of its files (read from git's object database through gitpython, imported
only here and only when an object is read)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from adrguard.adapters.git.command import GitError, decode_path, run


@dataclass(frozen=True, slots=True)
class Entry:
    """One row of ``git ls-tree``: ``kind`` is ``blob`` (a file or symlink), ``tree`` or
    ``commit`` (a submodule)."""

    mode: str
    kind: str
    sha: str
    path: str


def ls_tree(repo_root: Path, rev: str, paths: Iterable[str] = (), *,
            recursive: bool = True) -> Iterator[Entry]:
    """The entries of commit ``rev`` (every file with ``recursive``; only ``paths`` when some
    are given: files, or folders listed whole with ``recursive``). A bad ``rev`` is a
    :class:`GitError`."""
    wanted = sorted(set(paths))
    args = ["ls-tree", "-z", "--full-tree", *(["-r"] if recursive else []), rev]
    try:
        out = run(repo_root, *args, *(["--", *wanted] if wanted else []))
    except GitError as exc:
        raise exc.saying(f"git ls-tree {rev[:12]} failed: {exc.reason}") from None
    for row in out.split(b"\0"):
        meta, tab, raw = row.partition(b"\t")
        parts = meta.split(b" ")
        if tab and len(parts) == 3:
            yield Entry(parts[0].decode("ascii"), parts[1].decode("ascii"),
                        parts[2].decode("ascii"), decode_path(raw))


def files_at(repo_root: Path, rev: str) -> dict[str, str]:
    """Every blob path at ``rev`` mapped to its object id."""
    return {e.path: e.sha for e in ls_tree(repo_root, rev) if e.kind == "blob"}


def paths_at(repo_root: Path, rev: str, under: list[str]) -> set[str]:
    """Every path commit ``rev`` holds below the folders ``under`` (everything for ``.``)."""
    scope = [] if not under or "." in under else under
    return {e.path for e in ls_tree(repo_root, rev, scope)}


def object_ids(repo_root: Path, rev: str, paths: Iterable[str]) -> dict[str, str]:
    """Git's object id of each of the files ``paths`` at commit ``rev`` (absent ones left
    out)."""
    wanted = sorted(set(paths))
    if not wanted:
        return {}
    return {e.path: e.sha for e in ls_tree(repo_root, rev, wanted, recursive=False)
            if e.kind == "blob"}


def blobs_at(repo_root: Path, rev: str, paths: Iterable[str]) -> dict[str, bytes]:
    """The files among ``paths`` as commit ``rev`` holds them (absent ones are left out)."""
    shas = object_ids(repo_root, rev, paths)
    data = read_blobs(repo_root, list(shas.values()))
    return {path: data[sha] for path, sha in shas.items()}


def read_blobs(repo_root: Path, shas: list[str]) -> dict[str, bytes]:
    """Object contents by id, through one ``git cat-file --batch`` process (gitpython's
    object database)."""
    if not shas:
        return {}
    import git

    try:
        repo = git.Repo(str(repo_root))
    except (git.InvalidGitRepositoryError, git.NoSuchPathError):
        raise GitError(f"{repo_root} is not inside a git repository") from None
    try:
        return {sha: repo.odb.stream(bytes.fromhex(sha)).read() for sha in dict.fromkeys(shas)}
    except (ValueError, git.GitCommandError) as exc:
        why = " ".join(str(getattr(exc, "stderr", "") or exc).split())[:200]
        raise GitError(f"cannot read objects from {repo_root}: {why}") from None
    finally:
        repo.close()
