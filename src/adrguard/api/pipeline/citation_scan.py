"""The citation scan of a repository, cached: the pipeline step after the corpus is built
(what front ends say about citations is :mod:`adrguard.api.citation_answers`).

:func:`scan_found` reads the files discovery listed (:mod:`adrguard.adapters.citing` chooses
them) and scans each with :class:`adrguard.core.citations.scan.Scanner`. Results are kept in the
record cache (the user's cache folder, never the work tree), one pack per work tree, each entry
keyed by the SHA-256 of the file's bytes, its path and the scanner's signature (adrguard's core
source, the library versions and the repository's citation scheme): an unchanged file is never
scanned twice, and a cache entry can never change a result.

When ``check`` scans: ``citations.enabled = true`` always, ``false`` never; by default when the
repository has at most :data:`AUTO_MAX_FILES` files to scan (docs/citations.md gives the
measurements behind the number). Commands that ask about citations (``citations``, ``show``,
``list --format json``, ``search adr:N``, ``impact``, the MCP tools) scan unless turned off.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec
from msgspec.structs import replace

from adrguard.adapters.cache.keys import module_stamp, parser_signature
from adrguard.adapters.cache.store import Pack, digest, key
from adrguard.adapters.git import blobs_at
from adrguard.api.pipeline import scan_share
from adrguard.api.pipeline.scan_share import decode, encode, entry_of
from adrguard.config import Config
from adrguard.core.cancel import Token, checkpoint
from adrguard.core.citations.resolve import scheme_of
from adrguard.core.citations.scan import Outcome, Scanner, Scheme
from adrguard.core.citations.syntax import syntax_of
from adrguard.core.model import ChangeSet, Citations, CitingFile, Corpus
from adrguard.core.parse import formats

if TYPE_CHECKING:
    from adrguard.adapters.cache.store import Store
    from adrguard.adapters.files import Discovery
    from adrguard.api.pipeline.helpers import Ahead

AUTO_MAX_FILES = 20_000
CHECK = "check"  # scan as check does: by the config, or when the repository is small enough
ASKED = "asked"  # scan unless the config turns citations off


def wanted(config: Config, mode: str | None, candidates: int) -> bool:
    """Whether a run in ``mode`` scans ``candidates`` files."""
    if mode is None or config.citations.enabled is False:
        return False
    if config.citations.enabled or mode == ASKED:
        return True
    return candidates <= AUTO_MAX_FILES


def scan_found(
    found: Discovery,
    config: Config,
    corpus: Corpus,
    store: Store | None,
    place: Path,
    mode: str,
    cancel: Token | None,
    ahead: Ahead | None = None,
) -> Citations | None:
    """The citations in the files ``found`` lists outside the ADR roots (read from the work
    tree at ``place``); None when ``mode`` and the config say not to scan. ``cancel`` is
    checked between files. ``ahead``: helpers started ahead of the run that still wait (ADR
    66): a large scan is shared with them (:mod:`adrguard.api.pipeline.scan_share`)."""
    chosen, skipped = _selected(found.file_list, config, corpus, store)
    if not wanted(config, mode, len(chosen)):
        return None
    return _scan(place, chosen, config, corpus, store, skipped, cancel, ahead)


def _selected(
    files: Sequence[str], config: Config, corpus: Corpus, store: Store | None
) -> tuple[list[str], dict[str, int]]:
    """The paths :func:`adrguard.adapters.citing.select` chooses from ``files`` (every file
    but the records, generated files and ADR roots), and how many it left out and why. With a
    ``store`` the answer is kept, keyed by everything it depends on (the listing, the roots,
    the records' paths, the ``[citations]`` options and the code): an edit changes none of
    them, so the next run does not choose again; a damaged entry is a miss."""
    from adrguard.adapters.citing import select

    records = {*corpus.by_path, *corpus.other_texts, *corpus.skipped}

    def chosen() -> tuple[list[str], dict[str, int]]:
        found, skipped = select(files, corpus.roots, config.citations, records)
        return [p for p, _ in found], skipped

    if store is None:
        return chosen()
    code = module_stamp(_SELECT_SOURCE)
    if code is None:
        return chosen()
    asked = (list(files), corpus.roots, sorted(records), config.citations)
    entry = key("citation selection", parser_signature(), code, msgspec.msgpack.encode(asked))
    data = store.get(entry)
    if data is not None:
        try:
            return msgspec.msgpack.decode(data, type=tuple[list[str], dict[str, int]])
        except (msgspec.DecodeError, msgspec.ValidationError):
            pass
    paths, skipped = chosen()
    store.put(entry, msgspec.msgpack.encode((paths, skipped)))
    return paths, skipped


# the module that chooses the files (adrguard's core is in the parser's signature)
_SELECT_SOURCE = os.path.join(
    os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
    "adapters", "citing.py")



def scan_bytes(config: Config, corpus: Corpus, files: Mapping[str, bytes]) -> Citations:
    """The citations in ``files`` (repo-relative path -> bytes: a change's files at a commit);
    the same selection rules apply, nothing is cached."""
    from adrguard.adapters.citing import select

    records = {*corpus.by_path, *corpus.other_texts, *corpus.skipped}
    chosen, skipped = select(sorted(files), corpus.roots, config.citations, records)
    scanner = Scanner(scheme_of(corpus))
    out: list[CitingFile] = []
    limit = config.citations.max_file_size
    for path, syntax in chosen:
        data = files[path]
        if len(data) > limit:
            skipped["too-large"] = skipped.get("too-large", 0) + 1
            continue
        outcome = scanner.scan(path, data, syntax)
        _tally(outcome, out, skipped)
    return Citations(tuple(out), len(chosen), skipped, frozenset(files))


def scan_changed(
    repo_root: Path, config: Config, corpus: Corpus, changes: ChangeSet, rev: str | None
) -> Corpus:
    """``corpus`` with the citations of the files ``changes`` adds or modifies (as the work
    tree holds them, or as commit ``rev`` does): what ``impact`` needs to count a changed file
    that cites a decision as governed by it. Unchanged when citations are turned off."""
    if config.citations.enabled is False:
        return corpus
    paths = sorted({c.path for c in changes.changes if c.status != "D"})
    wanted = [p for p in paths if syntax_of(p) is not None]
    if rev is not None:
        files = blobs_at(repo_root, rev, wanted) if wanted else {}
    else:
        from adrguard.adapters.citing import Reader

        reader = Reader(os.path.realpath(repo_root), config.citations.max_file_size)
        files = {}
        for path in wanted:
            got = reader.read(path)
            if got is not None and got[0] is not None:
                files[path] = got[0]
    return replace(corpus, citations=scan_bytes(config, corpus, files))


def _scan(
    place: Path,
    paths: Sequence[str],
    config: Config,
    corpus: Corpus,
    store: Store | None,
    skipped: dict[str, int],
    cancel: Token | None = None,
    ahead: Ahead | None = None,
) -> Citations:
    from adrguard.adapters.citing import Reader

    scheme = _scheme(corpus, store)
    scanner = Scanner(scheme)
    cache = _Cache(store, place, scheme.key()) if store is not None else None
    real_base = os.path.realpath(place)
    limit = config.citations.max_file_size
    reader = Reader(real_base, limit)

    def here(path: str) -> Outcome | str | None:
        """What scanning one file here gives: nothing (deleted from the work tree, or a
        folder), why it was not read, or its outcome (from the cache, else scanned)."""
        checkpoint(cancel)
        got = reader.read(path)
        if got is None:
            return None
        data, why = got
        if data is None:
            return why or "unreadable"
        outcome = cache.get(path, data) if cache is not None else None
        if outcome is None:
            outcome = scanner.scan(path, data, cancel=cancel)
            if cache is not None:
                cache.put(outcome)
        return outcome

    # helpers started ahead that still wait scan stripes of the files (ADR 66)
    parties, shared = scan_share.start(ahead, paths, real_base, scheme, limit,
                                       cache.signature if cache is not None else b"")
    theirs = {k for _helper, k in shared}
    results: dict[int, Outcome | str | None] = {}
    try:
        for i, path in enumerate(paths):
            if i % parties not in theirs:
                results[i] = here(path)
        for helper, k in shared:
            stripe = range(k, len(paths), parties)
            answer = scan_share.answer(helper, cancel, len(stripe))
            if answer is None:  # the helper failed: its files are scanned here
                results.update((i, here(paths[i])) for i in stripe)
                continue
            for i, got in zip(stripe, answer, strict=True):
                if got is None or isinstance(got, str):
                    results[i] = got
                    continue
                entry, blob = got
                outcome = decode(blob, paths[i])
                if outcome is None:  # not exactly an outcome of this file: scanned here
                    results[i] = here(paths[i])
                    continue
                if cache is not None and entry:
                    cache.keep(entry, blob)
                results[i] = outcome
    finally:  # what was scanned before a cancellation is kept for the next run
        for helper, _k in shared:
            helper.stop()
        if cache is not None:
            cache.save()
    out: list[CitingFile] = []
    scanned = 0
    for i in range(len(paths)):  # in the order of the list, however the files were shared
        result = results[i]
        if result is None:
            continue
        if isinstance(result, str):
            skipped[result] = skipped.get(result, 0) + 1
            continue
        scanned += 1
        _tally(result, out, skipped)
    return Citations(tuple(out), scanned, skipped)


def _scheme(corpus: Corpus, store: Store | None) -> Scheme:
    """:func:`adrguard.core.citations.resolve.scheme_of` the corpus; with a ``store`` its
    prefixes and widths are kept, keyed by what they are worked out from (each record's path,
    root and id, the roots, and adrguard's core by the parser's signature): an edit that
    changes none of them (most edits) does not take every record's name apart for it again."""
    if store is None:
        return scheme_of(corpus)
    asked = ([(d.path, d.root, d.id) for d in corpus.decisions], corpus.roots)
    entry = key("citation scheme", parser_signature(), msgspec.msgpack.encode(asked))
    data = store.get(entry)
    if data is not None:
        try:
            prefixes, widths = msgspec.msgpack.decode(
                data, type=tuple[tuple[str, ...], tuple[int, ...]])
        except (msgspec.DecodeError, msgspec.ValidationError):
            pass
        else:
            return Scheme(prefixes, tuple(corpus.roots), corpus.repository, widths)
    scheme = scheme_of(corpus)
    store.put(entry, msgspec.msgpack.encode((scheme.prefixes, scheme.widths)))
    return scheme


def _tally(outcome: Outcome, out: list[CitingFile], skipped: dict[str, int]) -> None:
    if outcome.file is not None:
        out.append(outcome.file)
    elif outcome.skipped is not None:
        skipped[outcome.skipped] = skipped.get(outcome.skipped, 0) + 1


class _Cache:
    """The scan results of one work tree in one pack of the record cache."""

    def __init__(self, store: Store, place: Path, scheme: str) -> None:
        self.signature = digest(parser_signature(), "citations", scheme)
        self.pack = Pack(store, key("citations", self.signature, os.fspath(place)))
        self.entry = b""

    def get(self, path: str, data: bytes) -> Outcome | None:
        self.entry = entry_of(self.signature, path, data)
        blob = self.pack.get(self.entry)
        return None if blob is None else decode(blob, path)

    def put(self, outcome: Outcome) -> None:
        self.pack.put(self.entry, encode(outcome))

    def keep(self, entry: bytes, blob: bytes) -> None:
        """Store what a helper scanned (ADR 66): its entry, its encoded outcome."""
        self.pack.put(entry, blob)

    def save(self) -> None:
        self.pack.save()


def with_citations(corpus: Corpus, found: Citations | None) -> Corpus:
    return corpus if found is None else formats.same_names(
        corpus, replace(corpus, citations=found))
