"""The one way adrguard writes a file: :func:`write_atomic`.

Only explicit commands write (``index --write``, ``current stamp``, ``--format NAME:PATH``, the
Action's ``sarif-file``). Whatever the path names decides how:

* nothing there, or a regular file: a temp file in the same folder, then ``os.replace`` (a
  reader never sees half a file; a hard link to a file elsewhere is replaced, never written);
* a character or block device, or a FIFO (``/dev/null``, ``/dev/stdout``, a named pipe): written
  through, opened without following a symlink, never replaced;
* a symlink, a directory or a socket: refused with :class:`UnsafeTarget`. A symlink committed
  in a pull request must never make adrguard write, or replace, a file elsewhere.

``within`` (the Action: the workspace and ``$RUNNER_TEMP``) also refuses a path whose folder
resolves outside every one of the given folders.

Where a path may be written at all is :mod:`adrguard.pathguard`'s to say, before this is
called: :func:`adrguard.pathguard.write_problem` for a file of the work tree,
:func:`adrguard.pathguard.output_problem` for a path given on the command line.
"""

from __future__ import annotations

import contextlib
import os
import stat
import sys
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path

from adrguard.core.errors import UserError
from adrguard.pathguard import is_inside, write_problem


class UnsafeTarget(OSError):
    """adrguard will not write there; ``str()`` says why and what to do."""

    def __init__(self, path: Path | str, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.strerror = reason
        self.filename = str(path)


def target_problem(path: Path, within: Sequence[Path] = ()) -> str | None:
    """Why :func:`write_atomic` refuses ``path`` (None when it may write it). Nothing is
    followed: the last component is looked at with ``lstat``."""
    try:
        st: os.stat_result | None = os.lstat(path)
    except FileNotFoundError:
        st = None
    except OSError as exc:
        return exc.strerror or str(exc)
    if st is not None:
        if stat.S_ISLNK(st.st_mode):
            return "is a symlink; adrguard never writes through or replaces a symlink " \
                   "(write to a regular path instead)"
        if stat.S_ISDIR(st.st_mode):
            return "is a directory, not a file"
        if stat.S_ISSOCK(st.st_mode):
            return "is a socket, not a file"
    if within:
        real = os.path.realpath(Path(path).parent if str(Path(path).parent) else Path("."))
        if not any(is_inside(real, os.path.realpath(folder)) for folder in within):
            places = " or ".join(str(folder) for folder in within)
            return f"resolves to {real}, outside {places}; write the file inside {places}"
    return None


def _is_special(path: Path) -> bool:
    try:
        mode = os.lstat(path).st_mode
    except OSError:
        return False
    return stat.S_ISCHR(mode) or stat.S_ISBLK(mode) or stat.S_ISFIFO(mode)


def write_atomic(path: Path, text: str | bytes, *, within: Sequence[Path] = ()) -> None:
    """Write ``text`` (UTF-8, exactly as given: no newline translation, synced to disk) to
    ``path`` as the module docstring says; :class:`UnsafeTarget` when it must not."""
    data = text.encode("utf-8") if isinstance(text, str) else text
    target = Path(path)
    problem = target_problem(target, within)
    if problem is not None:
        raise UnsafeTarget(target, problem)
    if _is_special(target):
        _write_through(target, data)
        return
    directory = target.parent if str(target.parent) else Path(".")
    directory.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        try:
            mode = os.lstat(target).st_mode & 0o7777
        except FileNotFoundError:
            mode = 0o644
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def _write_through(target: Path, data: bytes) -> None:
    """Write into a device or FIFO as it is: no create, no truncate of anything else, and
    ``O_NOFOLLOW`` so a symlink swapped in meanwhile is refused rather than followed."""
    flags = os.O_WRONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(target, flags)
    with os.fdopen(fd, "wb") as fh:
        fh.write(data)


def write_in_repo(repo_root: Path, rel: str, text: str | bytes) -> None:
    """Write ``text`` to the repo-relative ``rel`` of the work tree, once
    :func:`adrguard.pathguard.write_problem` allows it (:class:`UnsafeTarget` when it does not):
    how every file of the work tree is written."""
    problem = write_problem(repo_root, rel)
    if problem is not None:
        raise UnsafeTarget(rel, problem)
    write_atomic(Path(repo_root) / rel, text)


def write_if_changed(repo_root: Path, rel: str, text: str, what: str) -> bool:
    """Write ``text`` to the repo-relative ``rel`` as :func:`write_in_repo` does, unless the
    file already holds exactly this text; False when it did. ``what`` names the file in a
    refusal; a refusal or a failed write is a :class:`UserError`."""
    why = write_problem(repo_root, rel)
    if why is not None:
        raise UserError(f"refusing to write {what} {rel}: {why}")
    target = Path(repo_root) / rel
    try:
        if target.is_file() and target.read_bytes() == text.encode("utf-8"):
            return False
        write_in_repo(repo_root, rel, text)
    except OSError as exc:
        raise UserError(f"cannot write {rel}: {exc.strerror or exc}") from None
    return True


class Busy(OSError):
    """Another process holds the lock (``str()`` names the lock file)."""


@contextlib.contextmanager
def exclusive(lock: Path) -> Iterator[None]:
    """Hold an exclusive lock on the file ``lock`` (created if missing, never deleted: a
    waiting process may be about to open it) for the ``with`` block; :class:`Busy` at once when
    another process holds it. The operating system drops the lock when its holder exits, so a
    killed writer never leaves a stale lock behind."""
    lock.parent.mkdir(parents=True, exist_ok=True)
    flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(lock, flags, 0o600)
    try:
        try:
            _lock(fd)
        except OSError:
            raise Busy(f"{lock} is locked by another process") from None
        yield
    finally:
        os.close(fd)  # closing the descriptor releases the lock


def _lock(fd: int) -> None:
    if sys.platform == "win32":
        import msvcrt

        msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
    else:
        import fcntl

        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
