"""Read one file of the repository as bytes, safely: never following a symlink out of the
repository, never blocking on a FIFO, never reading more than ``max-file-size``. What stops a
file being read is returned as a reason (it becomes an ADR001 finding), never raised.

:func:`read_file` reads a path a person or a manifest names (``adrguard verify``'s manifest,
evidence files and drift baseline): an absolute path, a ``..``, a control character, git's own
folder or a folder on the way that leaves the repository is refused first
(:func:`adrguard.pathguard.read_problem`). :func:`read_tracked` reads the tracked files fitness
rules scan."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable
from pathlib import Path

from adrguard.pathguard import is_inside, read_problem

SYMLINK_OUTSIDE = "symlink points outside the repository: not followed"
# never block on a FIFO swapped in after lstat; binary mode on Windows
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
# Where open() can refuse a symlink, regular files are read without a separate lstat.
_FAST_FLAGS = _OPEN_FLAGS | os.O_NOFOLLOW if hasattr(os, "O_NOFOLLOW") else 0


def read_bytes(real_base: str, path: str, max_size: int) -> tuple[bytes | None, str | None] | None:
    """``(data, None)``, ``(None, why)`` or None when there is nothing to read (a missing file
    or a directory). Never follows a symlink out of ``real_base``; never blocks on a FIFO."""
    full = real_base + os.sep + path  # path is repo-relative with "/" (fine on Windows too)
    if _FAST_FLAGS:
        # The common case in three system calls: open (refusing a symlink), fstat, read.
        # Anything else (a symlink, a folder, a FIFO, an error, a file that grew) goes the
        # careful way below, which decides what to say about it.
        try:
            fd = os.open(full, _FAST_FLAGS)
        except OSError:
            return _read_careful(full, real_base, max_size)
        try:
            st = os.fstat(fd)
            if stat.S_ISREG(st.st_mode) and st.st_size <= max_size:
                data = os.read(fd, st.st_size + 1)
                if len(data) <= st.st_size:
                    return data, None
        except OSError:
            pass
        finally:
            os.close(fd)
    return _read_careful(full, real_base, max_size)


def _read_careful(
    full: str, real_base: str, max_size: int
) -> tuple[bytes | None, str | None] | None:
    try:
        st = os.lstat(full)
    except FileNotFoundError:
        return None  # tracked but deleted from the work tree (not staged): not in the commit
    except OSError as exc:
        return None, f"cannot read file: {exc.strerror or exc}"
    if stat.S_ISLNK(st.st_mode):
        if not is_inside(os.path.realpath(full), real_base):
            return None, SYMLINK_OUTSIDE
        try:
            st = os.stat(full)
        except FileNotFoundError:
            return None, "symlink target does not exist"
        except OSError as exc:
            return None, f"cannot read file: {exc.strerror or exc}"
    if stat.S_ISDIR(st.st_mode):
        return None  # a folder named like a file (x.md) or a submodule
    if not stat.S_ISREG(st.st_mode):
        return None, "not a regular file"
    if st.st_size > max_size:
        return None, too_large(st.st_size, max_size)
    try:  # os.open/os.read: a third of the cost of open().read() on many small files
        fd = os.open(full, _OPEN_FLAGS)
    except PermissionError:
        return None, "cannot read file: permission denied"
    except OSError as exc:
        return None, f"cannot read file: {exc.strerror or exc}"
    try:
        chunks = [os.read(fd, min(st.st_size, max_size) + 1)]
        total = len(chunks[0])
        while st.st_size < total <= max_size:  # the file grew after lstat: read on to EOF
            chunk = os.read(fd, max_size + 1 - total)
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
    except OSError as exc:
        return None, f"cannot read file: {exc.strerror or exc}"
    finally:
        os.close(fd)
    if total > max_size:
        return None, too_large(total, max_size)
    return b"".join(chunks), None


def too_large(size: int, limit: int) -> str:
    return f"file is {size:,} bytes, larger than the {limit:,}-byte limit (max-file-size); not read"


NOT_FOUND = "not found"


def read_file(repo_root: Path, rel: str, max_size: int) -> tuple[bytes | None, str | None]:
    """``(data, None)`` or ``(None, why)`` for one repo-relative path named by a person or a
    manifest (not by git): every folder on the way must stay inside the repository too."""
    problem = read_problem(repo_root, rel)
    if problem is not None:
        return None, problem
    real_base = os.path.realpath(repo_root)
    full = os.path.join(real_base, *rel.split("/"))
    got = read_bytes(real_base, rel, max_size)
    if got is None:
        return None, NOT_FOUND if not os.path.isdir(full) else "a folder, not a file"
    return got


def read_tracked(
    repo_root: Path, paths: Iterable[str], max_size: int
) -> dict[str, tuple[bytes | None, str | None]]:
    """Tracked files (as git lists them: no folder on the way is a symlink git followed), each
    as ``(data, None)`` or ``(None, why)``."""
    real_base = os.path.realpath(repo_root)
    out: dict[str, tuple[bytes | None, str | None]] = {}
    for rel in paths:
        got = read_bytes(real_base, rel, max_size)
        out[rel] = (None, "deleted from the work tree") if got is None else got
    return out
