"""``adrguard baseline``: write or shrink the baseline file. The only code that writes it."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from adrguard.adapters import baseline as store
from adrguard.adapters.git import head_commit, renames_since
from adrguard.api.check import check_result
from adrguard.api.pipeline.corpus import resolve_root
from adrguard.config import Config
from adrguard.core.errors import UserError
from adrguard.core.findings import INTERNAL_ERROR
from adrguard.core.gate import baseline as bl


@dataclass(frozen=True)
class Written:
    """What ``adrguard baseline`` did."""

    path: str
    entries: int  # entries in the file now
    added: int  # findings added as entries
    dropped: int  # entries removed (their finding no longer occurs)
    renamed: int  # entries moved to the new path of a file git reports renamed
    changed: bool  # False: the file already held exactly this


def write_baseline(
    repo_root: Path | str | None = None,
    *,
    config: Config | None = None,
    path: str | None = None,
    update: bool = False,
    add: bool = False,
) -> Written:
    """Record the current findings. Without ``update`` the file is written afresh from every
    finding; with ``update`` the entries whose finding no longer occurs are dropped, entries of
    files git reports renamed follow them, and new findings are added only with ``add``."""
    root = resolve_root(repo_root)
    rel = path or bl.DEFAULT_PATH
    findings = tuple(  # an internal error (ADR000) is a bug to report, never a known finding
        f
        for f in check_result(root, config=config, baseline=False).report.findings
        if f.code != INTERNAL_ERROR[0]
    )
    try:
        current = store.read(root, rel)
    except UserError:
        if update:  # keeping entries needs the old file
            raise
        current = None  # written afresh: a damaged file is simply replaced
    if update and current is None:
        raise UserError(f"no baseline at {rel} to update: run `adrguard baseline` to write one")
    commit = head_commit(root) if (Path(root) / ".git").exists() else None
    renamed = 0
    old: list[bl.Entry] = []
    if current is not None:
        old, since = current
        start = since or commit
        moves = renames_since(root, start) if start else {}
        renamed = sum(1 for e in old if e.path in moves)
        old = bl.follow_renames(old, moves)
    result = bl.match(findings, old)
    if update:
        entries = bl.updated(findings, old, add=add)
        added = len(result.new) if add else 0
    else:
        entries = bl.entries_of(findings)
        added = len(result.new)
    changed = store.write(root, rel, entries, commit)
    return Written(rel, len(entries), added, len(result.unmatched), renamed, changed)
