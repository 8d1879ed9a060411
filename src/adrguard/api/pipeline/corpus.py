"""The one pipeline: a source (work tree, git revision, or the work tree amended by a change)
→ discover → read → parse → Corpus.

Every front end (CLI, MCP server, the action) and every command that reads records (check and
``--base``, impact, index, current, list, show, graph, find, context, ...) builds its corpus
with :func:`load_corpus` (or :func:`read_source`, which also returns what discovery found).
Parsed records come from :func:`adrguard.api.pipeline.records.parse_sources`: reused, from the
record cache, or parsed.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from pathlib import Path

from adrguard.adapters.cache import names as name_cache
from adrguard.adapters.cache.store import RunStore, Store
from adrguard.adapters.files import Discovery, find_roots
from adrguard.adapters.roots import Search
from adrguard.adapters.source import Source, WorkTree
from adrguard.api.pipeline.citation_scan import scan_found, with_citations
from adrguard.api.pipeline.helpers import Ahead
from adrguard.api.pipeline.records import load_facts, parse_sources
from adrguard.config import Config, load_config
from adrguard.core.cancel import Token, checkpoint
from adrguard.core.conventions.kinds import non_records
from adrguard.core.errors import UserError
from adrguard.core.model import Corpus, Decision
from adrguard.core.parse import formats
from adrguard.core.parse.formats import non_record_type, template_name
from adrguard.core.parse.mirrors import translation_of
from adrguard.core.repository import Repository


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


def search_roots(
    repo_root: Path, config: Config, *, extra: Sequence[str] = (), cache: RunStore | None = None
) -> Search:
    """The ADR roots of the work tree and why each is one (none is no error), without reading
    any record (the hooks decide from them whether a commit concerns them); the git listing
    this needs comes from the record cache when it holds it. ``cache``: the store of the run,
    which reads the records next (else one opened and closed here)."""
    run = RunStore(config, repo_root) if cache is None else cache
    try:
        return find_roots(repo_root, config, extra=extra, required=False, store=run.get())
    finally:
        if cache is None:
            run.close()


def load_corpus(
    source: Source,
    config: Config,
    *,
    reuse: Corpus | None = None,
    citations: str | None = None,
    cancel: Token | None = None,
) -> Corpus:
    """The corpus ``source`` holds. Records of ``reuse`` with the same path, root, archive flag
    and bytes are taken as they are (the base of a change shares most records with its head).
    ``citations`` (``"check"`` or ``"asked"``, see :mod:`adrguard.api.pipeline.citation_scan`):
    also scan the work tree's other files for citations of decisions."""
    return read_source(source, config, reuse=reuse, citations=citations, cancel=cancel)[1]


def read_source(
    source: Source,
    config: Config,
    *,
    reuse: Corpus | None = None,
    citations: str | None = None,
    cancel: Token | None = None,
    cache: RunStore | None = None,
    reuse_found: Discovery | None = None,
    ahead: Ahead | None = None,
) -> tuple[Discovery, Corpus]:
    """:func:`load_corpus`, with what discovery found (the roots and why, untracked files).
    ``cancel``: a cancellation token, checked between records and files (see
    :mod:`adrguard.core.cancel`). ``cache``: the store of the run, for its several reads (else
    the work tree's read opens and closes one); a source that is not the work tree then takes
    the records the work tree's pack holds, and keeps nothing. ``reuse_found``: what discovery
    found for ``reuse`` (its records were parsed from those reads): a record read with the same
    bytes is taken from ``reuse`` without hashing them again. ``ahead``: parse helpers started
    ahead of the run (ADR 64)."""
    # Records of a revision are not cached: the head's records (``reuse``) hold almost all of them.
    work_tree = isinstance(source, WorkTree)
    run = RunStore(config, source.root) if cache is None and work_tree else cache
    store = run.get() if run is not None else None
    try:
        found = source.discover(config, store if work_tree else None)
        checkpoint(cancel)
        place = source.root if work_tree else None
        corpus = corpus_of(found, config, store, reuse, place, citations=citations, cancel=cancel,
                           lookup=None if work_tree else source.root, reuse_found=reuse_found,
                           ahead=ahead)
        return found, corpus
    finally:
        if run is not None and cache is None:
            run.close()


def load_with(
    repo_root: Path,
    config: Config,
    *,
    untracked: bool = True,
    extra_roots: Sequence[str] = (),
    citations: str | None = None,
    cancel: Token | None = None,
) -> Corpus:
    """The corpus of the work tree at ``repo_root`` (already resolved). ``untracked`` (manual
    commands) also reads the records git neither tracks nor ignores yet, like ``adrguard
    check`` does; ``extra_roots`` are folders checked as roots for this run."""
    source = WorkTree(repo_root, untracked, tuple(extra_roots))
    return load_corpus(source, config, citations=citations, cancel=cancel)


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
    *,
    citations: str | None = None,
    cancel: Token | None = None,
    lookup: Path | None = None,
    reuse_found: Discovery | None = None,
    ahead: Ahead | None = None,
) -> Corpus:
    """Parse what discovery found into the corpus (cached by ``place``: see
    :func:`parse_sources`; without a place, ``lookup`` names a work tree whose cached records
    are read, not written); with ``citations``, scan the work tree at ``place`` for citations
    (:func:`adrguard.api.pipeline.citation_scan.scan_found`). ``reuse``: a corpus whose records
    are taken when the bytes are the same (``reuse_found``: what its records were parsed from,
    see :func:`read_source`). ``ahead``: parse helpers started ahead of the run (ADR 64); those
    the parse leaves waiting share a large citation scan (ADR 66)."""
    keys: dict[str, bytes] = {}
    names = name_cache.recall(store, place) if store is not None and place is not None else None
    parsed_from = ({s.path: s.data for s in reuse_found.sources}
                   if reuse is not None and reuse_found is not None else None)
    corpus = build_corpus(
        parse_sources(found.sources, config, store, reuse.by_path if reuse else None,
                      place if place is not None else lookup, cancel, keys,
                      write=place is not None, parsed_from=parsed_from, ahead=ahead),
        roots=found.roots,
        repo_files=found.repo_files,
        other_texts=found.other_texts,
        skipped=found.skipped,
        repository=config.repository,
        untracked=found.untracked,
        shallow_roots=found.shallow_roots,
        mirrors=found.mirrors,
        names=names,
    )
    if store is not None and place is not None and keys:
        from msgspec.structs import replace

        corpus = formats.same_names(corpus, replace(
            corpus, facts=load_facts(store, config, place, corpus.decisions, keys)))
    if citations is None or place is None:
        return corpus
    return with_citations(
        corpus, scan_found(found, config, corpus, store, place, citations, cancel, ahead))


def build_corpus(
    decisions: list[Decision],
    *,
    roots: Sequence[str],
    repo_files: Collection[str],
    other_texts: Mapping[str, bytes],
    skipped: Sequence[str],
    repository: Repository | None = None,
    untracked: Sequence[str] = (),
    shallow_roots: Collection[str] = (),
    mirrors: Mapping[str, str] | None = None,
    names: formats.Names | None = None,
) -> Corpus:
    # A document whose front matter declares a non-decision type (a supplement, a guide) is
    # skipped like an index or a template; so is a file that its name calls a template in any
    # case (``TEMPLATE.md``, ``_template.md``), and an index, a part of a record or an example
    # found by its content (:mod:`adrguard.core.conventions.kinds`). One that declares itself a
    # translation (`translation-of:`) is a mirror.
    mirrored = dict(mirrors or {})
    mirrored.update(
        (d.path, d.path) for d in decisions if d.front_matter and translation_of(d.front_matter)
    )
    others = [
        d.path
        for d in decisions
        if (d.front_matter and non_record_type(d.front_matter)) or template_name(d.path)
    ]
    if names is None:  # the corpus keeps it: each name is taken apart once a run
        names = formats.Names()
    others += non_records((d for d in decisions if d.path not in others), names)
    if others or len(mirrored) != len(mirrors or {}):
        dropped = {*others, *mirrored}
        decisions = [d for d in decisions if d.path not in dropped]
        skipped = sorted({*skipped, *dropped})
    ordered = tuple(sorted(decisions, key=lambda d: (d.id, d.path)))
    corpus = Corpus(
        decisions=ordered,
        roots=tuple(roots),
        repo_files=frozenset(repo_files),
        other_texts=dict(other_texts),
        skipped=tuple(skipped),
        repository=repository,
        untracked=tuple(untracked),
        shallow_roots=frozenset(shallow_roots),
        mirrors=mirrored,
    )
    formats.names_of(corpus, names)
    return corpus
