"""The one pipeline: a source (work tree or git revision) → discover → read → parse → Corpus.

Every front end (CLI, MCP server, the action) and every command that reads records (check and
``--base``, impact, index, current, list, show, graph, find, context, ...) builds its corpus
with :func:`load_corpus`. Parsed records come from the record cache
(:mod:`adrguard.adapters.cache`) when it holds them.
"""

from __future__ import annotations

import os
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from adrguard.adapters.cache import Store
from adrguard.adapters.files import Discovery
from adrguard.adapters.roots import Search
from adrguard.adapters.source import Source, WorkTree
from adrguard.config import Config, load_config
from adrguard.core.errors import UserError
from adrguard.core.findings import Report
from adrguard.core.formats import non_record_type
from adrguard.core.model import Corpus, Decision, SourceFile


def resolve_root(repo_root: Path | str | None) -> Path:
    """The directory given, or else the top of the git work tree around the current directory
    (found by walking up to ``.git``, without starting git), or else the current directory.
    Resolved once here; everything below takes it as it is."""
    if repo_root is None:
        start = Path.cwd().resolve()
        return next((d for d in (start, *start.parents) if (d / ".git").exists()), start)
    root = Path(repo_root)
    if not root.exists():
        raise UserError(f"--repo {root} does not exist")
    if not root.is_dir():
        raise UserError(f"--repo {root} is not a directory")
    return root.resolve()


def open_store(config: Config, repo_root: Path) -> Store | None:
    """The record cache for this run, or None when it is off (``--no-cache``, ``cache = false``,
    ``ADRGUARD_NO_CACHE``) or cannot be used. Whatever is in the work tree may come from a pull
    request, so the cache is never inside it: a chosen folder there (``cache-dir``,
    ``ADRGUARD_CACHE_DIR``) is a configuration error, and the default one (a repository of the
    home folder) means running without a cache."""
    if not config.cache or os.environ.get("ADRGUARD_NO_CACHE"):
        return None
    from adrguard.adapters import cache

    directory = cache.cache_dir(config.cache_dir)
    real, top = os.path.realpath(directory), os.path.realpath(repo_root)
    if real == top or real.startswith(top.rstrip(os.sep) + os.sep):
        if not (os.environ.get("ADRGUARD_CACHE_DIR") or config.cache_dir):
            return None  # the default folder: nobody chose it
        raise UserError(
            f"the cache folder {directory} is inside the repository {repo_root}: set cache-dir "
            "(or ADRGUARD_CACHE_DIR) to a folder outside it, or run with --no-cache"
        )
    return cache.Store.open(directory)


def search_roots(
    repo_root: Path, config: Config, *, extra: Sequence[str] = (), required: bool = True
) -> Search:
    """The ADR roots of the work tree and why each is one, without reading any record (the
    hooks decide from them whether a commit concerns them); the git listing this needs comes
    from the record cache when it holds it."""
    from adrguard.adapters.files import find_roots

    store = open_store(config, repo_root)
    try:
        return find_roots(repo_root, config, extra=extra, required=required, store=store)
    finally:
        if store is not None:
            store.close()


def load_corpus(source: Source, config: Config, *, reuse: Corpus | None = None) -> Corpus:
    """The corpus ``source`` holds. Records of ``reuse`` with the same path, root, archive flag
    and bytes are taken as they are (the base of a change shares most records with its head)."""
    return read_source(source, config, reuse=reuse)[1]


def read_source(
    source: Source, config: Config, *, reuse: Corpus | None = None
) -> tuple[Discovery, Corpus]:
    """:func:`load_corpus`, with what discovery found (the roots and why, untracked files)."""
    # Records of a revision are not cached: the head's records (``reuse``) hold almost all of them.
    work_tree = isinstance(source, WorkTree)
    store = open_store(config, source.root) if work_tree else None
    try:
        found = source.discover(config, store)
        return found, corpus_of(found, config, store, reuse, source.root if work_tree else None)
    finally:
        if store is not None:
            store.close()


def load_with(
    repo_root: Path, config: Config, *, untracked: bool = True, extra_roots: Sequence[str] = ()
) -> Corpus:
    """The corpus of the work tree at ``repo_root`` (already resolved). ``untracked`` (manual
    commands) also reads the records git neither tracks nor ignores yet, like ``adrguard
    check`` does; ``extra_roots`` are folders checked as roots for this run."""
    return load_corpus(WorkTree(repo_root, untracked, tuple(extra_roots)), config)


def load(
    repo_root: Path | str | None = None, config_path: Path | None = None, *, untracked: bool = True
) -> tuple[Config, Corpus]:
    root = resolve_root(repo_root)
    config = load_config(root, config_path)
    return config, load_with(root, config, untracked=untracked)


def corpus_of(
    found: Discovery,
    config: Config,
    store: Store | None = None,
    reuse: Corpus | None = None,
    place: Path | None = None,
) -> Corpus:
    """Parse what discovery found into the corpus (cached by ``place``: see
    :func:`parse_sources`)."""
    return build_corpus(
        parse_sources(found.sources, config, store, reuse.by_path if reuse else None, place),
        roots=found.roots,
        repo_files=found.repo_files,
        other_texts=found.other_texts,
        skipped=found.skipped,
        repo_url=found.repo_url,
        untracked=found.untracked,
        shallow_roots=found.shallow_roots,
    )


def parse_sources(
    sources: Sequence[SourceFile],
    config: Config,
    store: Store | None = None,
    reuse: Mapping[str, Decision] | None = None,
    place: Path | None = None,
) -> list[Decision]:
    """Every source parsed, in order: from ``reuse`` or the cache when they hold it, else by
    :func:`adrguard.api.parsing.parse_all` (and then stored). The records of one place (a work
    tree) are kept together in one pack of the store."""
    import hashlib

    from adrguard.adapters.cache import Pack, digest, key, parser_signature, record_digest
    from adrguard.api.parsing import parse_all

    pack: Pack | None = None
    signature = b""
    if store is not None and place is not None:
        signature = digest(parser_signature(), _options_key(config))
        pack = Pack(store, key("records", signature, os.fspath(place)))
    out: list[Decision | None] = [None] * len(sources)
    todo: list[int] = []
    keys: dict[int, bytes] = {}
    for i, src in enumerate(sources):
        data = src.data
        if data is None or (pack is None and not reuse):  # nothing to look up
            todo.append(i)
            continue
        sha = hashlib.sha256(data).digest()
        old = reuse.get(src.path) if reuse else None
        if old is not None and _same(old, src) and old.sha256 == _content_sha(data, sha):
            out[i] = old
            continue
        if pack is not None:
            keys[i] = record_digest(signature, sha, src.path, src.root, src.archived)
            out[i] = _cached(pack.get(keys[i]), src)
        if out[i] is None:
            todo.append(i)
    fresh = parse_all(
        [sources[i] for i in todo], config.options, encoded=pack is not None, jobs=config.jobs
    )
    for i, (decision, blob) in zip(todo, fresh, strict=True):
        out[i] = decision
        if pack is not None and blob is not None and i in keys:
            pack.put(keys[i], blob)
    if pack is not None:
        pack.save()
    return [d for d in out if d is not None]


def _same(d: Decision, src: SourceFile) -> bool:
    return (d.path, d.root, d.archived) == (src.path, src.root, src.archived)


def _cached(blob: bytes | None, src: SourceFile) -> Decision | None:
    """The record ``blob`` holds when it decodes and is the one asked for."""
    from adrguard.core.serialize import decode

    if blob is None:
        return None
    try:
        hit = decode(blob)
    except ValueError:
        return None
    return hit if _same(hit, src) else None


def _content_sha(data: bytes, sha: bytes) -> str:
    """``Decision.sha256`` of a file's bytes (line ends normalised, as the parser does)."""
    if b"\r" not in data:
        return sha.hex()
    import hashlib

    return hashlib.sha256(data.replace(b"\r\n", b"\n")).hexdigest()


def _options_key(config: Config) -> str:
    """The parse options, canonically. ``today`` only matters to rules (ADR109): leaving it
    out keeps parsed records valid from one day to the next."""
    import json
    from dataclasses import fields, is_dataclass

    def plain(value: object) -> object:
        if is_dataclass(value) and not isinstance(value, type):
            return plain({f.name: getattr(value, f.name) for f in fields(value)})
        if isinstance(value, Mapping):
            return [[str(k), plain(v)] for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))]
        if isinstance(value, list | tuple):
            return [plain(v) for v in value]
        if value is None or isinstance(value, str | int | float | bool):
            return value
        return repr(value)

    return json.dumps(plain(replace(config.options, today=None)), ensure_ascii=True)


def build_corpus(
    decisions: list[Decision],
    *,
    roots: Sequence[str],
    repo_files: Collection[str],
    other_texts: Mapping[str, bytes],
    skipped: Sequence[str],
    repo_url: str | None,
    untracked: Sequence[str] = (),
    shallow_roots: Collection[str] = (),
    previous_texts: Mapping[str, bytes] | None = None,
) -> Corpus:
    # A document whose front matter declares a non-decision type (a supplement, a guide) is
    # skipped like an index or a template.
    others = [d.path for d in decisions if d.front_matter and non_record_type(d.front_matter)]
    if others:
        dropped = set(others)
        decisions = [d for d in decisions if d.path not in dropped]
        skipped = sorted({*skipped, *others})
    ordered = tuple(sorted(decisions, key=lambda d: (d.id, d.path)))
    return Corpus(
        decisions=ordered,
        roots=tuple(roots),
        repo_files=frozenset(repo_files),
        other_texts=dict(other_texts),
        skipped=tuple(skipped),
        repo_url=repo_url,
        untracked=tuple(untracked),
        shallow_roots=frozenset(shallow_roots),
        previous_texts=dict(previous_texts or {}),
    )


@dataclass(frozen=True)
class CheckResult:
    """A report, the effective config it was made with, the corpus it was made from and what
    discovery found (the roots and why, for ``-v``; None when the corpus came from git)."""

    report: Report
    config: Config
    corpus: Corpus
    found: Discovery | None = None
    skipped_run: str | None = None  # why nothing was checked (the hook: nothing relevant)

    @property
    def repo_url(self) -> str | None:
        return self.corpus.repo_url

    @property
    def untracked(self) -> tuple[str, ...]:
        return self.corpus.untracked
