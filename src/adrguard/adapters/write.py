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
"""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Sequence
from pathlib import Path


class UnsafeTarget(OSError):
    """adrguard will not write there; ``str()`` says why and what to do."""

    def __init__(self, path: Path | str, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.strerror = reason
        self.filename = str(path)


def is_inside(path: str, folder: str) -> bool:
    """Whether the real path ``path`` lies in (or is) the real folder ``folder``."""
    folder = folder.rstrip(os.sep) or os.sep
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


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


def write_atomic(
    path: Path, text: str | bytes, *, durable: bool = True, within: Sequence[Path] = ()
) -> None:
    """Write ``text`` (UTF-8, exactly as given: no newline translation) to ``path`` as the
    module docstring says; :class:`UnsafeTarget` when it must not. ``durable=False`` skips the
    fsync: for caches, which a crash may leave torn but never wrong (a torn entry does not
    decode, so it is a miss)."""
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
            if durable:
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


def unsafe_target(repo_root: Path, rel: str) -> str | None:
    """Why adrguard must not write ``repo_root/rel`` (None when it may): the path is a symlink,
    a directory, or its folder resolves outside the repository. Nothing is followed."""
    target = Path(repo_root) / rel
    if target.is_symlink():
        return (
            f"{rel} is a symlink; adrguard writes only regular files (replace the link by a file)"
        )
    if target.is_dir():
        return f"{rel} is a directory, not a file"
    real_root = os.path.realpath(repo_root)
    real_parent = os.path.realpath(target.parent)
    if not is_inside(real_parent, real_root):
        return f"{rel} resolves outside the repository through a symlinked folder"
    return None
