"""Where records come from: the work tree, or the files of one git revision.

Both sides of the port answer one question, ``discover(config, store) -> Discovery``: the ADR
roots, the files of the repository, the records classified under the roots (the same
:func:`adrguard.adapters.layout.classify` for both) with their bytes, the index, CURRENT and
manifest texts, and what was skipped. Everything after that (parse, corpus, rules) is one path.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from adrguard.adapters.files import Discovery
from adrguard.config import DEFAULT_ROOTS, Config
from adrguard.core.errors import UserError
from adrguard.core.model import SourceFile

if TYPE_CHECKING:
    from adrguard.adapters.cache import Store


class Source(Protocol):
    """A place records are read from."""

    @property
    def root(self) -> Path: ...

    def discover(self, config: Config, store: Store | None = None) -> Discovery: ...


@dataclass(frozen=True)
class WorkTree:
    """The files as they are on disk (tracked and staged ones inside git; see
    :func:`adrguard.adapters.files.discover`). ``root`` is resolved already."""

    root: Path

    def discover(self, config: Config, store: Store | None = None) -> Discovery:
        from adrguard.adapters.files import discover

        return discover(self.root, config, store)


@dataclass(frozen=True)
class Revision:
    """The files of commit ``rev``, read from git objects (the work tree is not touched).
    ``roots`` fixes the ADR roots (the head's, when the base of a change is read)."""

    root: Path
    rev: str
    roots: tuple[str, ...] = ()

    def discover(self, config: Config, store: Store | None = None) -> Discovery:
        from adrguard.adapters import files, git, layout

        blobs = git.files_at(self.root, self.rev)
        roots = self.roots or _roots_at(self.root, config, blobs)
        listing = sorted(blobs)
        plan = layout.classify(listing, roots, config)
        records = {p for p, _root, _arch in plan.records}
        others = sorted(files.other_text_paths(frozenset(blobs), roots, plan, config) - records)
        data = git.read_blobs(self.root, [blobs[p] for p in [*sorted(records), *others]])
        limit = config.options.max_file_size
        sources: list[SourceFile] = []
        for path, root, archived in plan.records:
            raw = data[blobs[path]]
            if len(raw) > limit:
                why = files.too_large(len(raw), limit) + f" (at {self.rev[:12]})"
                sources.append(SourceFile(path, root, None, why, archived))
            else:
                sources.append(SourceFile(path, root, raw, None, archived))
        texts = {p: data[blobs[p]] for p in others if len(data[blobs[p]]) <= limit}
        return Discovery(
            sources=sources,
            repo_files=frozenset(blobs),
            roots=roots,
            skipped=plan.skipped,
            other_texts=texts,
            repo_url=None,
            uses_git=True,
            file_list=listing,
        )


def _roots_at(repo_root: Path, config: Config, blobs: Collection[str]) -> tuple[str, ...]:
    """The roots discovery finds in the work tree, else (when they are gone from it) the
    configured or default roots that hold files at the revision."""
    from adrguard.adapters.files import find_roots

    try:
        return find_roots(repo_root, config)
    except UserError:
        candidates = config.roots or DEFAULT_ROOTS
        return tuple(r for r in candidates if any(p.startswith(f"{r}/") for p in blobs))
