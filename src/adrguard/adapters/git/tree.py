"""What a commit holds: its tree as ``git ls-tree -z`` lists it (one parser for every caller)
and the contents of its files (read from git's object database by one ``git cat-file --batch``
process)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

import msgspec

from adrguard.adapters.git.command import GitError, decode_path, run


class Entry(msgspec.Struct, frozen=True):
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
    """Object contents by id, through one ``git cat-file --batch`` process. An id git does not
    hold (or that is not one) is a :class:`GitError`."""
    wanted = list(dict.fromkeys(shas))
    if not wanted:
        return {}
    bad = next((s for s in wanted if not _is_object_id(s)), None)
    if bad is not None:
        raise GitError(f"cannot read objects from {repo_root}: {bad[:80]!r} is not an object id")
    try:
        out = run(repo_root, "cat-file", "--batch", stdin="".join(f"{s}\n" for s in wanted)
                  .encode("ascii"))
    except GitError as exc:
        raise exc.saying(f"cannot read objects from {repo_root}: {exc.reason}") from None
    found: dict[str, bytes] = {}
    pos = 0
    for sha in wanted:  # "<id> <type> <size>\n<contents>\n", or "<id> missing\n"
        end = out.find(b"\n", pos)
        header = out[pos:end if end >= 0 else len(out)].split(b" ")
        if end < 0 or len(header) != 3 or not header[2].isdigit():
            why = b" ".join(header[1:]).decode("ascii", "replace") or "no answer"
            raise GitError(f"cannot read objects from {repo_root}: {sha[:12]} {why}")
        size = int(header[2])
        found[sha] = out[end + 1:end + 1 + size]
        pos = end + 2 + size
    return found


def _is_object_id(text: str) -> bool:
    return len(text) in (40, 64) and all(c in "0123456789abcdef" for c in text.lower())
