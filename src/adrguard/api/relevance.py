"""Whether the pre-commit hook has anything to judge: a commit that touches no file under an ADR
root (configured or detected, whatever its name) and none of adrguard's own settings is passed
over at once."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from adrguard.config import Config
from adrguard.core.model import FileChange

if TYPE_CHECKING:
    from adrguard.adapters.roots import Search

# Files whose change can change any verdict: adrguard's config, the ADR tools' settings that
# discovery reads, the baseline and the impact manifest.
SETTINGS = (".adrguard.toml", "pyproject.toml", ".adr-dir", ".log4brains.yml")


def settings_paths(config: Config) -> set[str]:
    from adrguard.core.gate.baseline import DEFAULT_PATH
    from adrguard.core.options import manifest_path

    paths = {*SETTINGS, DEFAULT_PATH, manifest_path(config.options)}
    if config.source and not config.source.startswith("/"):
        paths.add(config.source)
    return paths


def nothing_to_check(
    config: Config, search: Search, changes: Sequence[FileChange], passed: Collection[str]
) -> str | None:
    """Why the hook can stop here (None: it must check). ``changes``: what the commit changes
    (from git, deletions included); ``passed``: the files pre-commit passed."""
    from adrguard.adapters.layout import longest_first, root_of

    roots = tuple(r.path for r in search.roots)
    if not roots:
        return "no ADR folder in this repository: nothing to check"
    touched = {p for c in changes for p in (c.path, c.old_path) if p} | set(passed)
    if touched & settings_paths(config):
        return None
    ordered = longest_first(roots)
    shallow = {r.path for r in search.roots if r.shallow}
    for path in touched:
        root = root_of(path, ordered)
        if root is None:
            continue
        below = path if root == "." else path[len(root) + 1 :]
        if root not in shallow or below.count("/") <= 1:
            return None
    return "this commit changes no file under the ADR roots and no adrguard setting: nothing to do"


def hook_has_work(root: Path, config: Config, passed: Sequence[str]) -> str | None:
    """For hooks other than the check (``index --write --hook``): why there is nothing to do
    in this commit, or None."""
    from adrguard.adapters.git import require_work_tree, staged_changes
    from adrguard.api.pipeline.corpus import search_roots
    from adrguard.api.pipeline.targets import repo_relative

    require_work_tree(root)
    _head, changes = staged_changes(root)
    search = search_roots(root, config, required=False)
    rel = {p for p in (repo_relative(root, f) for f in passed) if p}
    return nothing_to_check(config, search, changes, rel)
