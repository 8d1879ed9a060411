"""What ``adrguard check PATH...`` names, and what a run that found nothing says.

* a path that does not exist is a usage error (exit 2);
* a folder that is not inside an ADR root is checked as a root for this run;
* a file outside every root is a usage error that says so (and how to check it);
* a run that finds no decision record at all is a usage error that says where it looked.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec

from adrguard.adapters.layout import longest_first as longest_first
from adrguard.adapters.layout import root_of as root_of
from adrguard.core.errors import UserError
from adrguard.core.wording import plural

if TYPE_CHECKING:
    from adrguard.adapters.files import Discovery


class Targets(msgspec.Struct, frozen=True):
    """The paths given, repo-relative, and which of them are folders."""

    paths: tuple[str, ...] = ()
    folders: tuple[str, ...] = ()


def resolve(root: Path, paths: Sequence[str]) -> Targets:
    rels: list[str] = []
    folders: list[str] = []
    for given in paths:
        p = Path(given)
        full = p if p.is_absolute() else Path.cwd() / p
        if not full.exists() and not full.is_symlink():
            raise UserError(f"{given}: no such file or folder: give a file or folder inside {root}")
        try:
            rel = full.resolve().relative_to(root).as_posix()
        except ValueError:
            raise UserError(f"{given} is outside the repository root {root}") from None
        rel = "." if rel in ("", ".") else rel
        rels.append(rel)
        if full.is_dir():
            folders.append(rel)
    return Targets(tuple(rels), tuple(folders))


def check_files(targets: Targets, found: Discovery) -> None:
    """Every file named must lie in an ADR root."""
    ordered = longest_first(found.roots)
    records = {s.path for s in found.sources}
    for rel in targets.paths:
        if rel in targets.folders or rel in records or rel in found.skipped:
            continue
        root = root_of(rel, ordered)
        if root is None or (root in found.shallow_roots and "/" in rel[len(root) + 1 :]):
            raise UserError(
                f"{rel} is not inside an ADR root (roots: {', '.join(found.roots)}): check its "
                "folder with `adrguard check FOLDER`, or add the folder to `roots` in the config"
            )


def no_decisions(found: Discovery) -> UserError:
    """The error of a run that found ADR folders but no record in them."""
    skipped = found.skipped
    detail = (f"{plural(len(skipped), 'markdown file')} skipped as indexes or templates"
              if skipped else "no markdown files")
    where = "; ".join(f"{r.path} ({r.why})" for r in found.search.roots)
    return UserError(
        f"no decision records found: looked in {where}, which hold {detail}; "
        "add records, or point `roots` in .adrguard.toml at the folder that holds them"
    )


def repo_relative(root: Path, path: str) -> str:
    """A path pre-commit passes (relative to the current directory) as repo-relative; "" when
    it is outside the repository."""
    p = Path(path)
    full = p if p.is_absolute() else Path.cwd() / p
    try:
        return full.resolve().relative_to(root).as_posix()
    except (ValueError, OSError):
        return ""
