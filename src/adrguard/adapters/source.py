"""Where records come from: the work tree, the files of one git revision, the work tree with
the files a change touches as a commit holds them, or the work tree as an archive move would
leave it (:class:`Rearranged`: built from the work tree's discovery without touching a file,
the moved files listed and classified at their new paths with their bytes, the files whose
links a plan rewrites with their new bytes).

Every side of the port answers one question, ``discover(config, store) -> Discovery``: the ADR
roots, the files of the repository, the records classified under the roots (the same
:func:`adrguard.adapters.layout.classify` for all) with their bytes, the index, CURRENT and
manifest texts, and what was skipped. Everything after that (parse, corpus, rules) is one path.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

import msgspec

from adrguard.adapters import git
from adrguard.adapters.files import Discovery, discover, find_roots, mirror_keys
from adrguard.adapters.layout import Plan, classify, other_text_paths
from adrguard.adapters.reading import too_large
from adrguard.adapters.roots import Root, Search
from adrguard.config import DEFAULT_ROOTS, Config
from adrguard.core.errors import UserError
from adrguard.core.model import SourceFile
from adrguard.core.parse.mirrors import find_mirrors, mirror_of

if TYPE_CHECKING:
    from adrguard.adapters.cache.store import Store


class Source(Protocol):
    """A place records are read from."""

    @property
    def root(self) -> Path: ...

    def discover(self, config: Config, store: Store | None = None) -> Discovery: ...


class WorkTree(msgspec.Struct, frozen=True):
    """The files as they are on disk (tracked and staged ones inside git; see
    :func:`adrguard.adapters.files.discover`). ``root`` is resolved already. ``untracked``
    (manual runs) also reads the records git neither tracks nor ignores; ``extra_roots`` are
    folders checked as roots for this run (``adrguard check DIR``)."""

    root: Path
    untracked: bool = False
    extra_roots: tuple[str, ...] = ()

    def discover(self, config: Config, store: Store | None = None) -> Discovery:
        return discover(
            self.root, config, store, untracked=self.untracked, extra_roots=self.extra_roots
        )


class Revision(msgspec.Struct, frozen=True):
    """The files of commit ``rev``, read from git objects (the work tree is not touched).
    ``roots`` fixes the ADR roots and ``shallow`` those of them found by content (the head's,
    when the base of a change is read)."""

    root: Path
    rev: str
    roots: tuple[str, ...] = ()
    shallow: frozenset[str] = frozenset()

    def discover(self, config: Config, store: Store | None = None) -> Discovery:
        blobs = git.files_at(self.root, self.rev)
        if self.roots:
            roots, shallow = self.roots, self.shallow
        else:
            roots, shallow = _roots_at(self.root, config, blobs)
        listing = sorted(blobs)
        plan = classify(listing, roots, config, shallow=shallow)
        others = other_text_paths(frozenset(blobs), roots, plan, config, shallow)
        wanted = [p for p, _root, _arch in plan.records] + sorted(others)
        data = git.read_blobs(self.root, [blobs[p] for p in wanted])
        sources, texts = _read(config, plan, others, {p: data[blobs[p]] for p in wanted}, self.rev)
        return Discovery(
            sources=sources,
            repo_files=frozenset(blobs),
            roots=roots,
            skipped=plan.skipped,
            other_texts=texts,
            uses_git=True,
            file_list=listing,
            search=Search(tuple(Root(r, f"an ADR root at {self.rev[:12]}", r in shallow)
                                for r in roots)),
            mirrors=plan.mirrors,
        )


class Amended(msgspec.Struct, frozen=True):
    """What commit ``rev`` holds, built from ``found`` (the work tree's discovery) by reading
    from git only the files a change touches: ``now`` (their paths in the work tree) are
    dropped, ``then`` (their paths at ``rev``) are read from git objects. The tree before an
    uncommitted change (the pre-commit hook, ``check --changed``) costs a few blobs, not a
    read of every record."""

    root: Path
    rev: str
    found: Discovery
    now: frozenset[str]
    then: frozenset[str]
    ids: Mapping[str, str | None] | None = None  # object ids at ``rev`` by path (None: a
    # submodule), as the change's diff names them: ``then`` is read without ``git ls-tree``

    def discover(self, config: Config, store: Store | None = None) -> Discovery:
        found, now = self.found, self.now
        old = self._then()

        shallow = found.shallow_roots
        repo_files = (found.repo_files - now) | old.keys()
        # what the revision's own files say is a translation mirror, on top of the work tree's
        # judgement: a record the change deletes is the evidence that its zh/ copy mirrors it
        keys = {**mirror_keys(found.mirrors), **find_mirrors(sorted(repo_files), found.roots)}
        plan = classify(sorted(old), found.roots, config, shallow=shallow, mirrors=keys)
        others = other_text_paths(frozenset(old), found.roots, plan, config, shallow)
        sources, texts = _read(config, plan, others, old, self.rev)
        kept = [s for s in found.sources if s.path not in now]
        mirrored = {s.path: m for s in kept if (m := mirror_of(s.path, keys)) is not None}
        return Discovery(
            sources=sorted([*(s for s in kept if s.path not in mirrored), *sources],
                           key=lambda s: s.path),
            repo_files=frozenset(repo_files),
            roots=found.roots,
            skipped=tuple(sorted((set(found.skipped) - now) | set(plan.skipped) | set(mirrored))),
            other_texts={**{p: t for p, t in found.other_texts.items() if p not in now}, **texts},
            uses_git=True,
            file_list=sorted(repo_files),
            search=found.search,
            mirrors={
                **{p: m for p, m in found.mirrors.items() if p not in now}, **plan.mirrors,
                **{p: (m if m != p else keys[p]) for p, m in mirrored.items()},
            },
        )

    def _then(self) -> dict[str, bytes]:
        """The files ``then`` names as ``rev`` holds them (absent ones and submodules left
        out): read by the object ids the diff gave when it gave one for each, else listed by
        ``git ls-tree`` first."""
        if not self.then:
            return {}
        ids = self.ids
        if ids is None or not self.then <= ids.keys():
            return git.blobs_at(self.root, self.rev, self.then)
        shas = {p: sha for p in sorted(self.then) if (sha := ids[p]) is not None}
        data = git.read_blobs(self.root, list(shas.values()))
        return {p: data[sha] for p, sha in shas.items()}


class Rearranged(msgspec.Struct, frozen=True):
    """The work tree as it would be after an archive move, so a plan can say what the move
    changes before anyone makes it: ``found`` (the work tree's discovery) with the files of
    ``moves`` (old path -> new path) moved, and ``contents`` (new path -> bytes) replacing what
    those files hold."""

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


def _read(
    config: Config, plan: Plan, others: Collection[str], data: Mapping[str, bytes], rev: str
) -> tuple[list[SourceFile], dict[str, bytes]]:
    """The records of ``plan`` and the texts ``others`` from ``data`` (a revision's bytes):
    a file above ``max-file-size`` is a read error that names the revision."""
    limit = config.options.max_file_size
    sources: list[SourceFile] = []
    for path, root, archived in plan.records:
        raw = data[path]
        if len(raw) > limit:
            why = too_large(len(raw), limit) + f" (at {rev[:12]})"
            sources.append(SourceFile(path, root, None, why, archived))
        else:
            sources.append(SourceFile(path, root, raw, None, archived))
    texts = {p: data[p] for p in sorted(others) if p in data and len(data[p]) <= limit}
    return sources, texts


def _roots_at(
    repo_root: Path, config: Config, blobs: Collection[str]
) -> tuple[tuple[str, ...], frozenset[str]]:
    """The roots discovery finds in the work tree (and which of them are shallow), else (when
    they are gone from it) the configured or default roots that hold files at the revision."""
    try:
        search = find_roots(repo_root, config)
    except UserError:
        candidates = config.roots or DEFAULT_ROOTS
        held = tuple(r for r in candidates if any(p.startswith(f"{r}/") for p in blobs))
        return held, frozenset()
    return tuple(r.path for r in search.roots), frozenset(r.path for r in search.roots if r.shallow)
