"""The baseline file (``.adrguard-baseline.json``): read, validate, write atomically.

A file that does not parse or fails ``schemas/baseline.schema.json`` is a one-line
``UserError`` (exit 2) that says how to regenerate it; a baseline never silently stops working.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path

from adrguard.adapters.reading import SYMLINK_OUTSIDE, read_bytes
from adrguard.core.errors import UserError
from adrguard.core.gate.baseline import Entry, from_json, to_json
from adrguard.pathguard import read_problem

SCHEMA = "baseline.schema.json"
MAX_SIZE = 64 * 1024 * 1024  # a baseline of a million findings is still far below this
# How to recover from a damaged file: `adrguard baseline` replaces it (it reads the old file only
# to follow renames, and a file it cannot read gives it nothing to follow).
FIX = "write it afresh with `adrguard baseline` (which replaces it), or run with --no-baseline"


def parse(data: bytes, shown: str) -> tuple[list[Entry], str | None]:
    """Entries and commit of a baseline file's bytes; ``shown`` names it in errors."""
    from adrguard.core.schemas import load_json, validator

    fix = FIX
    try:
        doc = load_json(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise UserError(f"{shown} is not valid JSON ({exc}); {fix}") from None
    error = next(iter(validator(SCHEMA).iter_errors(doc)), None)
    if error is not None:
        where = "/".join(str(p) for p in error.absolute_path) or "the top level"
        raise UserError(f"{shown}: {error.message} at {where}; {fix}")
    return from_json(doc)


def read(repo_root: Path, rel: str) -> tuple[list[Entry], str | None] | None:
    """The baseline at ``repo_root/rel``, or None when there is none. A symlink out of the
    repository is refused, like every file adrguard reads."""
    problem = read_problem(repo_root, rel)
    if problem is not None:
        raise UserError(f"refusing to read the baseline {rel}: {problem}")
    got = read_bytes(os.path.realpath(repo_root), rel, MAX_SIZE)
    if got is None:
        return None
    data, why = got
    if data is None:
        if why == SYMLINK_OUTSIDE:
            raise UserError(f"refusing to read {rel}: it is a symlink out of the repository")
        raise UserError(f"cannot read {rel}: {why}")
    return parse(data, rel)


def render(entries: Sequence[Entry], commit: str | None) -> str:
    return json.dumps(to_json(entries, commit), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def write(repo_root: Path, rel: str, entries: Sequence[Entry], commit: str | None) -> bool:
    """Write the baseline atomically; False when the file already holds exactly this text."""
    from adrguard.adapters.write import write_if_changed

    return write_if_changed(repo_root, rel, render(entries, commit), "the baseline")
