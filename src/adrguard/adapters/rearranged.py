"""The work tree as it would be after an archive move: a source for the one pipeline.

Built from the work tree's discovery without touching a file: the moved files are listed (and
classified) at their new paths with their bytes, the files whose links a plan rewrites carry
their new bytes. The corpus it yields is what ``adrguard check``, the index and the CURRENT
comparison would see after the move, so a plan can say what the move changes before anyone
makes it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from adrguard.adapters.files import Discovery, mirror_keys
from adrguard.adapters.layout import classify, other_text_paths
from adrguard.config import Config
from adrguard.core.model import SourceFile

if TYPE_CHECKING:
    from adrguard.adapters.cache import Store


@dataclass(frozen=True)
class Rearranged:
    """``found`` (the work tree's discovery) with the files of ``moves`` (old path -> new path)
    moved, and ``contents`` (new path -> bytes) replacing what those files hold."""

    root: Path
    found: Discovery
    moves: Mapping[str, str]
    contents: Mapping[str, bytes]

    def discover(self, config: Config, store: Store | None = None) -> Discovery:
        found, moves = self.found, self.moves
        back = {new: old for old, new in moves.items()}
        listing = sorted({moves.get(p, p) for p in found.file_list or sorted(found.repo_files)})
        shallow = found.shallow_roots
        plan = classify(
            listing, found.roots, config, shallow=shallow, mirrors=mirror_keys(found.mirrors)
        )
        read = {s.path: s for s in found.sources}
        sources: list[SourceFile] = []
        for path, root, archived in plan.records:
            data = self.contents.get(path)
            if data is not None:
                sources.append(SourceFile(path, root, data, None, archived))
                continue
            before = read.get(back.get(path, path))
            if before is not None:
                sources.append(SourceFile(path, root, before.data, before.error, archived))
        names = other_text_paths(frozenset(listing), found.roots, plan, config, shallow)
        texts: dict[str, bytes] = {}
        for path in sorted(names):
            data = self.contents.get(path)
            if data is None:
                data = found.other_texts.get(back.get(path, path))
            if data is not None:
                texts[path] = data
        return Discovery(
            sources=sorted(sources, key=lambda s: s.path),
            repo_files=frozenset(listing),
            roots=found.roots,
            skipped=plan.skipped,
            other_texts=texts,
            uses_git=found.uses_git,
            untracked=tuple(moves.get(p, p) for p in found.untracked),
            file_list=listing,
            untracked_checked=found.untracked_checked,
            search=found.search,
            mirrors=plan.mirrors,
        )
