"""Parsed records for a list of sources: reused from an earlier corpus (the base of a change
shares most records with its head), read from the record cache (:mod:`adrguard.adapters.cache`,
in the user's cache folder), or parsed (:func:`adrguard.api.pipeline.parsing.parse_all`) and then
stored. A cache never changes a result: every entry is keyed by the bytes and everything the parse
depends on, and a damaged or foreign entry is a miss."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Mapping, Sequence
from pathlib import Path

from adrguard.adapters import cache
from adrguard.adapters.cache import (
    Pack,
    Store,
    Uncacheable,
    digest,
    key,
    options_key,
    parser_signature,
    record_digest,
)
from adrguard.config import Config
from adrguard.core.cancel import Token
from adrguard.core.model import Decision, SourceFile


def open_store(config: Config, repo_root: Path) -> Store | None:
    """The record cache for this run, or None when it is off (``--no-cache``, ``cache = false``,
    ``ADRGUARD_NO_CACHE``) or cannot be used (the one policy:
    :func:`adrguard.adapters.cache.folder_for`). Whatever is in the work tree may come from a pull
    request, so the cache is never inside it: a chosen folder there (``cache-dir``,
    ``ADRGUARD_CACHE_DIR``) is a configuration error, and the default one (a repository of the
    home folder) means running without a cache. A ``cache-dir`` set by the repository's own
    configuration must also lie inside the user's cache folder (:mod:`adrguard.pathguard`)."""
    directory = cache.folder_for(config.cache, config.cache_dir, repo_root, config.source,
                                 from_repository=config.repository_config)
    if directory is None:
        return None
    return cache.Store.open(directory)


def parse_sources(
    sources: Sequence[SourceFile],
    config: Config,
    store: Store | None = None,
    reuse: Mapping[str, Decision] | None = None,
    place: Path | None = None,
    cancel: Token | None = None,
) -> list[Decision]:
    """Every source parsed, in order: from ``reuse`` or the cache when they hold it, else by
    :func:`adrguard.api.pipeline.parsing.parse_all` (and then stored). The records of one place
    (a work tree) are kept together in one pack of the store. ``cancel``: checked between
    records."""
    import hashlib

    from adrguard.api.pipeline.parsing import parse_all

    pack: Pack | None = None
    signature = b""
    if store is not None and place is not None:
        with contextlib.suppress(Uncacheable):  # an option it cannot key: parse, keep nothing
            signature = digest(parser_signature(), options_key(config.options))
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
    # A warm run finds every record in the cache: the parser is then never imported.
    fresh = (
        parse_all(
            [sources[i] for i in todo],
            config.options,
            encoded=pack is not None,
            jobs=config.jobs,
            cancel=cancel,
        )
        if todo
        else []
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
