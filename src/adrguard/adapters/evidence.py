"""Read the files ``adrguard verify`` needs: the fitness manifest, evidence files, the drift
baseline, and tracked files that fitness rules scan.

Every path is repository-relative and is read only when it is a regular file inside the
repository (:func:`adrguard.pathguard.read_problem`): an absolute path, a ``..``, a control
character, git's own folder, or a symlink that resolves outside the work tree is refused; a
FIFO never blocks; a file above the size limit is not read. What stops a file being read is
returned as a reason (a rule without its input is ``unknown``), never raised.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from adrguard.adapters.reading import read_bytes

NOT_FOUND = "not found"


def read_file(repo_root: Path, rel: str, max_size: int) -> tuple[bytes | None, str | None]:
    """``(data, None)`` or ``(None, why)`` for one repo-relative path named by a person or a
    manifest (not by git): every folder on the way must stay inside the repository too."""
    from adrguard.pathguard import read_problem

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
