"""Atomic writes: a temp file in the target's directory, then ``os.replace``.

Only explicit commands write (``index --write``, ``current stamp``, ``--format NAME:PATH``).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def write_atomic(path: Path, text: str | bytes, *, durable: bool = True) -> None:
    """Replace ``path`` with ``text`` (UTF-8, exactly as given: no newline translation).
    ``durable=False`` skips the fsync: for caches, which a crash may leave torn but never
    wrong (a torn entry does not decode, so it is a miss)."""
    data = text.encode("utf-8") if isinstance(text, str) else text
    target = Path(path)
    directory = target.parent if str(target.parent) else Path(".")
    directory.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            if durable:
                os.fsync(fh.fileno())
        if target.exists():
            os.chmod(tmp, target.stat().st_mode & 0o7777)
        else:
            os.chmod(tmp, 0o644)
        os.replace(tmp, target)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


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
    if real_parent != real_root and not real_parent.startswith(real_root.rstrip(os.sep) + os.sep):
        return f"{rel} resolves outside the repository through a symlinked folder"
    return None
