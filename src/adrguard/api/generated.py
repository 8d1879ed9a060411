"""Generated files, the I/O side: read the index and CURRENT files from disk, compare them with
what core computes, and write them atomically (``index --write``, ``current stamp`` and
``current init``). Nothing here deletes or renames a record."""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from msgspec.structs import replace

from adrguard.adapters.git import blobs_at
from adrguard.adapters.reading import SYMLINK_OUTSIDE, read_bytes
from adrguard.adapters.write import write_in_repo
from adrguard.config import Config
from adrguard.core.errors import UserError
from adrguard.core.generated import current, index, manifest, region
from adrguard.core.generated.current import CurrentState as CurrentState
from adrguard.core.generated.index import IndexState as IndexState
from adrguard.core.model import Corpus
from adrguard.pathguard import read_problem, write_problem


def _read(
    repo_root: Path, paths: Iterable[str], max_size: int, *, strict: bool = True
) -> dict[str, bytes]:
    """The regular files among ``paths``. Symlinks inside the repository are read; a symlink
    out of it or into git's folder is never followed (``strict``: refused), and a folder counts
    as absent."""
    real = os.path.realpath(repo_root)
    out: dict[str, bytes] = {}
    for path in sorted(set(paths)):
        problem = read_problem(repo_root, path)
        if problem is not None:
            if strict:
                raise UserError(f"refusing to read {path}: {problem}")
            continue
        got = read_bytes(real, path, max_size)
        if strict and got is not None and got[1] == SYMLINK_OUTSIDE:
            raise UserError(f"refusing to read {path}: it is a symlink out of the repository")
        if got is not None and got[0] is not None:
            out[path] = got[0]
    return out


def _refuse_unsafe(repo_root: Path, paths: Iterable[str]) -> None:
    for path in sorted(set(paths)):
        why = write_problem(repo_root, path)
        if why is not None:
            raise UserError(f"refusing to use {path}: {why}")


def _write(repo_root: Path, path: str, text: str) -> None:
    """Write a generated file atomically; a failure is the user's error, named by its path."""
    try:
        write_in_repo(repo_root, path, text)
    except OSError as exc:
        raise UserError(f"cannot write {path}: {exc.strerror or exc}") from None


# --- INDEX ------------------------------------------------------------------------------


def _index_candidates(corpus: Corpus, config: Config) -> set[str]:
    cfg = index.settings(config.options)
    names = {*index.AUTO_NAMES, *(n for n in (cfg.path,) if n), *cfg.paths.values()}
    folders = set(corpus.roots)
    for d in corpus.decisions:
        if d.archived:
            folders.add(index.archive_folder(d, config.options.archive_dirs))
    return {region.join_root(folder, name) for folder in folders for name in names}


def lost_indexes(
    repo_root: Path, config: Config, roots: Sequence[str], texts: Mapping[str, bytes]
) -> dict[str, bytes]:
    """The generated indexes (with markers) of the roots that ``HEAD`` holds and the work tree
    no longer has: ADR401 reports them, ``index --write`` regenerates them under their name."""
    cfg = index.settings(config.options)
    if cfg.enabled is False:
        return {}
    names = {*index.AUTO_NAMES, *(n for n in (cfg.path,) if n), *cfg.paths.values()}
    gone = {region.join_root(r, n) for r in roots for n in names} - set(texts)
    gone = {p for p in gone if not (repo_root / p).exists()}
    if not gone:
        return {}
    try:
        held = blobs_at(repo_root, "HEAD", gone)
    except UserError:
        return {}
    return {p: d for p, d in held.items() if region.find_markers(region.normalise(d)).found}


def index_states(
    repo_root: Path, config: Config, corpus: Corpus, *, recover: bool = False
) -> list[index.IndexState]:
    """Every index compared with what ``index --write`` would write. An index path that is a
    symlink (or reached through a symlinked folder) is refused. With ``recover`` (``--write``)
    a generated index that HEAD holds and the work tree lost keeps its name."""
    candidates = _index_candidates(corpus, config)
    texts = _read(repo_root, candidates, config.options.max_file_size, strict=False)
    if recover and (repo_root / ".git").exists() and not corpus.previous_texts:
        lost = lost_indexes(repo_root, config, corpus.roots, texts)
        if lost:
            corpus = replace(corpus, previous_texts=lost)
    states = index.evaluate(corpus, config.options, texts)
    _refuse_unsafe(repo_root, (s.target.path for s in states))
    return states


def index_enabled(config: Config) -> bool:
    return index.settings(config.options).enabled is not False


@dataclass(frozen=True)
class IndexWrites:
    """What ``index --write`` did: the files written, the indexes it left alone because their
    log has not opted in (each with how to opt in), and the ones it cannot regenerate."""

    written: tuple[str, ...] = ()
    left: tuple[str, ...] = ()  # notes: not opted in, left alone
    problems: tuple[str, ...] = ()  # broken markers: nothing was written


def write_indexes(
    repo_root: Path, config: Config, corpus: Corpus, *, init: bool = False
) -> IndexWrites:
    """Regenerate the indexes the logs opted into: a stale one, and a missing one of a root
    that opted in (configured, or an index of the root has or had the markers). Nothing else is
    created or touched unless ``init`` (the opt-in): then an index written by hand gets the
    marked table appended, and a root without an index gets one. An index with broken markers
    is a problem of the log, not an error of the command: nothing is written, and it is said
    (``problems``). Never deletes or renames a record."""
    states = index_states(repo_root, config, corpus, recover=True)
    broken = tuple(f"{s.message}; fix the markers by hand (exactly one start and one end "
                   "marker, outside code fences); nothing was written"
                   for s in states if s.kind == "malformed" and (s.required or init))
    if broken:
        return IndexWrites(problems=broken)
    todo: list[index.IndexState] = []
    left: list[str] = []
    for s in states:
        if s.expected is None or s.kind == "fresh":
            continue
        if s.kind == "stale" or init or (s.kind == "missing" and s.required):
            todo.append(s)
        elif s.kind in ("unmanaged", "missing") and not s.target.archive:
            left.append(_adopt_hint(s))
    written: list[str] = []
    for s in todo:
        _write(repo_root, s.target.path, s.expected or "")
        written.append(s.target.path)
    return IndexWrites(tuple(written), tuple(left))


def _adopt_hint(state: index.IndexState) -> str:
    """Why an index was left alone, and how the log opts in (``index --write --init``)."""
    path = state.target.path
    if state.kind == "missing":
        return (f"{state.target.root} has no generated index, so none is created; "
                f"`adrguard index --write --init` creates {path} (or set `[index] path`)")
    name = path.rsplit("/", 1)[-1]
    return (
        f"{path} is written by hand (no {region.MARK_START} markers), so it is left alone; "
        f"`adrguard index --write --init` appends the generated table to it, or set "
        f"`[index] path` to another file name"
        + (" (index.md and INDEX.md are one file on case-insensitive checkouts)"
           if name == "index.md" else "")
    )


# --- CURRENT ----------------------------------------------------------------------------


def _roots(corpus: Corpus, wanted: Sequence[str]) -> list[str]:
    if not wanted:
        return list(corpus.roots)
    clean = [w.strip().strip("/") or "." for w in wanted]
    unknown = [w for w in clean if w not in corpus.roots]
    if unknown:
        raise UserError(f"{unknown[0]} is not an ADR root; roots: {', '.join(corpus.roots)}")
    return clean


def current_texts(repo_root: Path, config: Config, corpus: Corpus) -> dict[str, bytes]:
    """The CURRENT views and manifests of every root, as bytes, by path."""
    cfg = current.settings(config.options)
    paths = {region.join_root(r, n) for r in corpus.roots for n in (cfg.view, cfg.manifest)}
    return _read(repo_root, paths, config.options.max_file_size)


def current_states(
    repo_root: Path, config: Config, corpus: Corpus, roots: Sequence[str] = ()
) -> list[current.CurrentState]:
    wanted = set(_roots(corpus, roots))
    texts = current_texts(repo_root, config, corpus)
    return [s for s in current.evaluate(corpus, config.options, texts) if s.root in wanted]


@dataclass(frozen=True)
class Written:
    path: str
    changed: bool  # False: the file already held exactly this text (or exists and was kept)


def stamp_current(
    repo_root: Path, config: Config, corpus: Corpus, roots: Sequence[str] = ()
) -> list[Written]:
    """Record what each CURRENT.md was reviewed against. Coverage values and locators already
    in the manifest are kept; new members get ``open``. A corrupt or newer manifest, or a view
    still marked as a draft, is refused before anything is written."""
    cfg = current.settings(config.options)
    texts = current_texts(repo_root, config, corpus)
    chosen = _roots(corpus, roots)
    views = {r: region.join_root(r, cfg.view) for r in chosen}
    todo = [r for r in chosen if views[r] in texts]
    if not todo:
        raise UserError(
            f"no {cfg.view} in {', '.join(chosen)}; create a draft with `adrguard current init`, "
            "review it, then stamp"
        )
    plans: list[tuple[str, str, bytes | None]] = []
    for root in todo:
        view, mpath = views[root], region.join_root(root, cfg.manifest)
        if current.DRAFT_MARK in region.normalise(texts[view]):
            raise UserError(
                f"{view} is still marked as a draft ({current.DRAFT_MARK}): review it, delete "
                "the marker, then stamp; nothing was written"
            )
        previous = None
        old = texts.get(mpath)
        if old is not None:
            previous, problem = manifest.parse_manifest(old, root, view, corpus)
            if previous is None:
                raise UserError(f"{mpath} {problem}; nothing was written")
        text = manifest.dump(current.build_manifest(corpus, config.options, root, texts, previous))
        plans.append((mpath, text, old))
    _refuse_unsafe(repo_root, (p for p, _, _ in plans))
    out: list[Written] = []
    for mpath, text, old in plans:
        changed = old is None or old != text.encode("utf-8")
        if changed:
            _write(repo_root, mpath, text)
        out.append(Written(mpath, changed))
    return out


def init_current(
    repo_root: Path, config: Config, corpus: Corpus, roots: Sequence[str] = ()
) -> list[Written]:
    """A draft CURRENT.md for each root that has none; an existing view is never overwritten."""
    cfg = current.settings(config.options)
    texts = current_texts(repo_root, config, corpus)
    out: list[Written] = []
    for root in _roots(corpus, roots):
        view = region.join_root(root, cfg.view)
        if view in texts or (repo_root / view).exists() or (repo_root / view).is_symlink():
            out.append(Written(view, False))
            continue
        _refuse_unsafe(repo_root, [view])
        _write(repo_root, view, current.skeleton(corpus, config.options, root, texts))
        out.append(Written(view, True))
    return out
