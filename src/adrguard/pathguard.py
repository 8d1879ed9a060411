"""Where adrguard may read and write: the one path guard.

In CI the repository is the pull request, so a path its configuration names (an index, a CURRENT
view or manifest, a baseline, the drift baseline, a template, a schema, the fitness manifest, an
evidence file, an archive folder) is hostile, and so is every symlink it commits. Every such
path goes through this module before adrguard touches it:

* :func:`write_problem`: a file adrguard writes in the work tree (``index --write``, ``current
  stamp``, ``baseline``, ``verify --write-baseline``, ``new``, ``archive apply``). It must be
  a plain repo-relative path (:mod:`adrguard.core.relpath`: not absolute, no ``..``, no ``.git``
  segment), every folder on the way must be a real folder (never a symlink, even one that stays
  inside), the file itself must not be a symlink or a folder, and nothing on the way may lie
  in one of the repository's git folders (``.git``, the folder a ``.git`` file names, a
  worktree's common folder), where git would run or trust what we wrote.
* :func:`read_problem`: a file adrguard reads because configuration named it. The same lexical
  rules; a symlink is followed only when it resolves inside the work tree and outside every git
  folder (a pull request may link one of its own files; never ``.git/config``, which holds the
  job's token after ``actions/checkout``).
* :func:`output_problem`: a report path given on the command line (``--format NAME:PATH``,
  ``--out``). Where it goes is the user's choice, but a symlink met inside the work tree is the
  pull request's, so it is refused.
* :func:`cache_problem`: a cache folder named by configuration that lives in the repository must
  be inside the user's cache folder, where no pull request can plant an entry.

Each returns why the path is refused (a sentence that follows the path), or None.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Sequence
from pathlib import Path

from adrguard.core import relpath


def is_inside(path: str, folder: str) -> bool:
    """Whether the real path ``path`` lies in (or is) the real folder ``folder``."""
    folder = folder.rstrip(os.sep) or os.sep
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def git_folders(repo_root: Path | str) -> tuple[str, ...]:
    """The real paths of the repository's own git folders: ``.git`` when it is a folder; when
    it is a file (a linked worktree, a submodule, ``--separate-git-dir``), the folder its
    ``gitdir:`` line names and that folder's ``commondir``. Read without starting git."""
    dot = os.path.join(os.fspath(repo_root), ".git")
    found: list[str] = []
    try:
        st = os.stat(dot)
    except OSError:
        return ()
    if stat.S_ISDIR(st.st_mode):
        found.append(os.path.realpath(dot))
    elif stat.S_ISREG(st.st_mode) and st.st_size <= 4096:
        try:
            with open(dot, "rb") as fh:
                line = fh.read(4096).decode("utf-8", "replace").strip()
        except OSError:
            return ()
        if line.startswith("gitdir:"):
            gitdir = os.path.realpath(os.path.join(os.fspath(repo_root), line[7:].strip()))
            found.append(gitdir)
            try:
                with open(os.path.join(gitdir, "commondir"), "rb") as fh:
                    common = fh.read(4096).decode("utf-8", "replace").strip()
                found.append(os.path.realpath(os.path.join(gitdir, common)))
            except OSError:
                pass
    return tuple(found)


def in_git_folder(real: str, repo_root: Path | str) -> bool:
    """Whether the real path ``real`` lies in one of the git folders of ``repo_root``'s work
    tree (its own, or a ``.git`` below it: a submodule's, a nested repository's)."""
    return _in_git_folder(real, os.path.realpath(repo_root), git_folders(repo_root))


def _in_git_folder(real: str, real_root: str, folders: Sequence[str]) -> bool:
    if any(is_inside(real, g) for g in folders):
        return True
    if is_inside(real, real_root) and real != real_root:
        below = os.path.relpath(real, real_root).split(os.sep)
        return any(relpath.is_git_name(p) for p in below)
    return False


def _leads(link: str, real_root: str) -> str:
    """Where the symlink ``link`` leads, said relative to the repository."""
    real = os.path.realpath(link)
    if is_inside(real, real_root):
        return f"(to {os.path.relpath(real, real_root)}, inside the repository)"
    return f"(it resolves outside the repository, to {real})"


def write_problem(repo_root: Path | str, rel: str) -> str | None:
    """Why adrguard must not write the repo-relative ``rel`` (None when it may). Nothing is
    followed: each existing component is looked at with ``lstat``."""
    lexical = relpath.problem(rel)
    if lexical is not None:
        return lexical
    parts = relpath.normalise(rel).split("/")
    root = os.fspath(repo_root)
    real_root = os.path.realpath(root)
    here = root
    for depth, part in enumerate(parts):
        here = os.path.join(here, part)
        shown = "/".join(parts[: depth + 1])
        last = depth == len(parts) - 1
        try:
            st = os.lstat(here)
        except FileNotFoundError:
            break  # what is missing is created below a real folder
        except OSError as exc:
            return f"{shown} cannot be looked at: {exc.strerror or exc}"
        if stat.S_ISLNK(st.st_mode):
            if last:
                return (f"{shown} is a symlink; adrguard writes only regular files (replace the "
                        "link by a file)")
            return (f"{shown} is a symlink {_leads(here, real_root)}; adrguard never writes "
                    "through a symlinked folder (make it a real folder, or name another path)")
        if last:
            if stat.S_ISDIR(st.st_mode):
                return f"{shown} is a directory, not a file"
        elif not stat.S_ISDIR(st.st_mode):
            return f"{shown} is not a folder"
    folders = git_folders(root)
    existing = here if os.path.lexists(here) else os.path.dirname(here)
    while not os.path.lexists(existing) and existing != root:
        existing = os.path.dirname(existing)
    if _in_git_folder(os.path.realpath(existing), real_root, folders):
        return f"{rel} lies in one of git's own folders: adrguard never writes there"
    return None


def read_problem(repo_root: Path | str, rel: str) -> str | None:
    """Why adrguard must not read the repo-relative ``rel`` that configuration or a person
    named (None when it may; a missing file is for the reader to say)."""
    lexical = relpath.problem(rel)
    if lexical is not None:
        return lexical
    root = os.fspath(repo_root)
    real_root = os.path.realpath(root)
    full = os.path.join(root, *relpath.normalise(rel).split("/"))
    real = os.path.realpath(full)
    outside = not is_inside(real, real_root)
    if outside or _in_git_folder(real, real_root, git_folders(root)):
        where = "outside the repository" if outside else "into git's own folder (.git)"
        folder = os.path.realpath(os.path.dirname(full))
        if os.path.islink(full) and not _in_git_folder(folder, real_root, ()) and \
                is_inside(folder, real_root):
            return (f"{rel}: symlink points {where}, to {real}; a symlink out of the "
                    "repository is never followed")
        return (f"{rel}: a folder on its path is a symlink out of the repository (it leads "
                f"{where}, to {real}): not followed")
    return None


def output_problem(path: Path | str, repo_root: Path | str) -> str | None:
    """Why a report must not be written to ``path``, a path given on the command line (None
    when it may). Its folders are resolved as the operating system will; a symlink met in a
    folder inside the work tree ``repo_root`` was committed there (or could have been), so it is
    refused. Outside the work tree, symlinks are the user's own. The file itself is
    :func:`adrguard.adapters.write.write_atomic`'s to judge (it never follows a symlink)."""
    real_root = os.path.realpath(repo_root)
    text = os.fspath(path)
    here = os.getcwd() if not os.path.isabs(text) else os.sep
    parts = [p for p in text.split(os.sep) if p not in ("", ".")]
    budget = 64  # symlinks followed outside the work tree before giving up (a loop)
    for depth, part in enumerate(parts[:-1]):  # the file itself: write_atomic never follows it
        if part == "..":
            here = os.path.dirname(here)
            continue
        candidate = os.path.join(here, part)
        if not os.path.islink(candidate):
            here = candidate
            continue
        if is_inside(os.path.realpath(here), real_root):
            shown = os.path.join(*parts[: depth + 1])
            shown = shown if not os.path.isabs(text) else os.sep + shown
            return (f"{shown} is a symlinked folder inside the repository "
                    f"{_leads(candidate, real_root)}; adrguard never writes through a symlink a "
                    "repository holds (write the report elsewhere)")
        budget -= 1
        if budget < 0:
            return "too many symlinks on the way"
        here = os.path.realpath(candidate)
    return None


def cache_problem(directory: Path | str, user_cache: Path | str) -> str | None:
    """Why the repository's configuration may not name ``directory`` as the cache folder (None
    when it may): it must resolve inside ``user_cache``, the user's own cache folder."""
    real = os.path.realpath(os.path.expanduser(os.fspath(directory)))
    home = os.path.realpath(user_cache)
    if is_inside(real, home) and real != home:
        return None
    return (f"resolves to {real}, outside your cache folder {home}; a repository's "
            "configuration may only choose a folder inside it")
