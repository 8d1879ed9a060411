"""Parsed records for a list of sources: reused from an earlier corpus (the base of a change
shares most records with its head), read from the record cache
(:mod:`adrguard.adapters.cache.store`, in the user's cache folder), or parsed
(:func:`adrguard.api.pipeline.parsing.parse_all`) and then stored. A cache never changes a
result: every entry is keyed by the bytes and everything the parse depends on, and a damaged or
foreign entry is a miss."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from msgspec import structs

from adrguard.adapters.cache.keys import (
    Uncacheable,
    options_key,
    parser_signature,
    record_key,
    source_stamp,
)
from adrguard.adapters.cache.store import Pack, Store, digest, key
from adrguard.api.pipeline.helpers import Ahead
from adrguard.config import Config
from adrguard.core.cancel import Token
from adrguard.core.model import (
    Corpus,
    Decision,
    FactValues,
    Mention,
    RecordFacts,
    SourceFile,
)


def parse_sources(
    sources: Sequence[SourceFile],
    config: Config,
    store: Store | None = None,
    reuse: Mapping[str, Decision] | None = None,
    place: Path | None = None,
    cancel: Token | None = None,
    keys_out: dict[str, bytes] | None = None,
    *,
    write: bool = True,
    parsed_from: Mapping[str, bytes | None] | None = None,
    ahead: Ahead | None = None,
) -> list[Decision]:
    """Every source parsed, in order: from ``reuse`` or the cache when they hold it, else by
    :func:`adrguard.api.pipeline.parsing.parse_all` (and then stored). The records of one place
    (a work tree) are kept together in one pack of the store. ``cancel``: checked between
    records. ``keys_out``: filled with each cached or stored record's entry (by path).
    ``write=False``: the pack of ``place`` is only read, for sources that are not that work
    tree (the tree before its change: the bytes a change replaced were often checked there
    before); nothing parsed is kept. ``ahead``: parse helpers started ahead of the run (ADR
    64), for :func:`~adrguard.api.pipeline.parsing.parse_all`."""
    from adrguard.api.pipeline.parsing import parse_all
    from adrguard.core.serialize import decode  # imported once, not once per record

    pack: Pack | None = None
    signature = b""
    if store is not None and place is not None:
        with contextlib.suppress(Uncacheable):  # an option it cannot key: parse, keep nothing
            signature = digest(parser_signature(), options_key(config.options))
            pack = store.pack(key("records", signature, os.fspath(place)))
    out: list[Decision | None] = [None] * len(sources)
    todo: list[int] = []
    keys: dict[int, bytes] = {}
    hashed: dict[int, Any] = {}  # a missed record's bytes, hashed for its key
    for i, src in enumerate(sources):
        data = src.data
        if data is None or (pack is None and not reuse):  # nothing to look up
            todo.append(i)
            continue
        old = reuse.get(src.path) if reuse else None
        if old is not None and _same(old, src) and _unchanged(old, data, parsed_from):
            out[i] = old
            continue
        if pack is not None:
            keys[i], content = record_key(signature, data, src.path, src.root, src.archived)
            out[i] = _cached(pack.get(keys[i]), src, decode)
            if out[i] is None:
                hashed[i] = content
        if out[i] is None:
            todo.append(i)
    # A warm run finds every record in the cache: the parser is then never imported.
    fresh = (
        parse_all(
            [_hashed(sources[i], hashed.get(i)) for i in todo],
            config.options,
            encoded=pack is not None and write,
            jobs=config.jobs,
            cancel=cancel,
            ahead=ahead,
        )
        if todo
        else []
    )
    for i, (decision, blob) in zip(todo, fresh, strict=True):
        out[i] = decision
        if pack is not None and write and blob is not None and i in keys:
            pack.put(keys[i], blob)
    if pack is not None and write:
        pack.save()
    if keys_out is not None and write:
        keys_out.update((sources[i].path, k) for i, k in keys.items() if out[i] is not None)
    return [d for d in out if d is not None]


def _hashed(src: SourceFile, content: Any) -> SourceFile:
    """``src`` with the digest of its bytes its key was made with (the parser's
    ``Decision.sha256`` of bytes without a carriage return), so they are not hashed again."""
    if content is None or src.data is None or b"\r" in src.data:
        return src
    return structs.replace(src, sha256=content.hexdigest())


# --- record facts (ADR 44) ----------------------------------------------------------------


def _facts_pack(config: Config, place: Path) -> str:
    """The name of the pack of ``place``'s record facts: everything a record's entry depends
    on, plus the rules' code (each file by size and modification time, as the parser's) and
    the installed RE2 (the rules match ids with it), neither of which the record's key
    covers."""
    from importlib.util import find_spec

    rules = Path(__file__).resolve().parents[2] / "rules"
    spec = find_spec("re2")
    re2 = source_stamp(Path(spec.origin).parent) if spec and spec.origin else ["no re2"]
    return key("facts", digest(parser_signature(), options_key(config.options)),
               *source_stamp(rules), *re2, os.fspath(place))


def load_facts(
    store: Store, config: Config, place: Path, decisions: Sequence[Decision],
    keys: Mapping[str, bytes],
) -> RecordFacts:
    """The record facts the store holds for ``decisions`` (each by its entry, ``keys``); an
    entry that does not decode to facts of the stored shape is a miss."""
    import msgspec

    pack = store.pack(_facts_pack(config, place))
    records: dict[str, Decision] = {}
    blobs: dict[str, bytes] = {}
    for d in decisions:
        entry = keys.get(d.path)
        blob = pack.get(entry) if entry is not None else None
        if blob is not None:
            records[d.path], blobs[d.path] = d, blob
    decoder = msgspec.msgpack.Decoder(FactValues)
    by_name = msgspec.msgpack.Decoder(dict[str, msgspec.Raw])  # each value left encoded
    value = msgspec.msgpack.Decoder(list[Mention] | bool)

    def decode(blob: bytes) -> FactValues | None:
        try:
            return decoder.decode(blob)
        except (msgspec.DecodeError, msgspec.ValidationError):
            return None

    # Each blob taken apart by name once a run, its values left encoded: a map of strings to
    # msgspec.Raw holds nothing the cyclic collector tracks (ADR 47), unlike decoded facts.
    split: dict[bytes, dict[str, msgspec.Raw]] = {}

    def decode_fact(blob: bytes, name: str) -> list[Mention] | bool | None:
        """The fact ``name`` alone: each rule decodes the fact it reads, not the others."""
        try:
            named = split.get(blob)
            if named is None:
                named = split[blob] = by_name.decode(blob)
            raw = named.get(name)
            return None if raw is None else value.decode(raw)
        except (msgspec.DecodeError, msgspec.ValidationError):
            return None

    return RecordFacts(keys=keys, place=os.fspath(place), records=records, blobs=blobs,
                       decode=decode, decode_fact=decode_fact)


def keep_facts(corpus: Corpus, config: Config, store: Store) -> None:
    """Store the record facts the run computed (:attr:`RecordFacts.fresh`) beside those the
    store held, in the run's ``store`` (the one the corpus was read with: its pack of facts is
    read once a run): the next run reads them instead of computing them again. Facts that
    would not come back from MessagePack exactly (a number beyond 64 bits) are not stored."""
    facts = corpus.facts
    if facts is None or not facts.fresh or facts.place is None:
        return
    new = {path: (d, values) for path, (d, values) in facts.fresh.items()
           if path in facts.keys and corpus.by_path.get(path) is d}
    if not new:
        return
    import msgspec

    pack = store.pack(_facts_pack(config, Path(facts.place)))
    for path, entry in facts.keys.items():  # every record of the corpus stays in the pack
        if path not in new:
            pack.get(entry)
    for path, (d, values) in sorted(new.items()):
        try:
            blob = msgspec.msgpack.encode({**facts.known(d), **values})
        except (TypeError, ValueError, OverflowError, UnicodeError):
            continue
        pack.put(facts.keys[path], blob)
    pack.save()


def _same(d: Decision, src: SourceFile) -> bool:
    return d.path == src.path and d.root == src.root and d.archived == src.archived


def _cached(blob: bytes | None, src: SourceFile,
            decode: Callable[[bytes], Decision]) -> Decision | None:
    """The record ``blob`` holds when it decodes (:func:`adrguard.core.serialize.decode`) and
    is the one asked for."""
    if blob is None:
        return None
    try:
        hit = decode(blob)
    except ValueError:
        return None
    return hit if _same(hit, src) else None


def _unchanged(old: Decision, data: bytes,
               parsed_from: Mapping[str, bytes | None] | None) -> bool:
    """Whether ``data`` holds the content ``old`` was parsed from (its bytes with line ends
    normalised, which ``Decision.sha256`` digests): compared with the bytes ``old`` was parsed
    from when ``parsed_from`` has them (the same object, or a comparison that hashes nothing),
    else by the digest."""
    known = parsed_from.get(old.path) if parsed_from is not None else None
    if known is None:
        return old.sha256 == _content_sha(data)
    if known == data:
        return True
    if b"\r" not in known and b"\r" not in data:
        return False
    return known.replace(b"\r\n", b"\n") == data.replace(b"\r\n", b"\n")


def _content_sha(data: bytes) -> str:
    """``Decision.sha256`` of a file's bytes (line ends normalised, as the parser does)."""
    import hashlib

    if b"\r" not in data:
        return hashlib.sha256(data).hexdigest()
    return hashlib.sha256(data.replace(b"\r\n", b"\n")).hexdigest()
