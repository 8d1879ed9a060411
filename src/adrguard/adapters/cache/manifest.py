"""The impact manifest as :func:`adrguard.core.impact.mapping.parse_manifest` made it, kept in
the record cache's store (:mod:`adrguard.adapters.cache.store`) by exactly what it is made from
(ADR 53).

An edit of one record leaves the manifest's bytes as they were, yet every run parsed and
validated them again (the JSON, the positions of its values, the schema, every glob). An
entry is keyed by the manifest's path and bytes and by the code that reads them: the
parser's signature (adrguard's version and every module of ``core``, where the parse lives)
and the installed pathspec (it compiles the globs). Only a manifest that parsed is kept; a
manifest with a problem is parsed on every run, so the rule reports it as before. An entry
that does not decode to a manifest of that path is a miss. A cache never changes a result.
"""

from __future__ import annotations

import msgspec

from adrguard.adapters.cache.keys import installed, parser_signature
from adrguard.adapters.cache.store import Store, key
from adrguard.core.impact import mapping
from adrguard.core.model import Corpus
from adrguard.core.options import Options, manifest_path

FORMAT = "1"


def _entry(path: str, data: bytes) -> str:
    return key("impact manifest", FORMAT, parser_signature(), installed("pathspec"), path, data)


def recall(store: Store, corpus: Corpus, options: Options) -> bool:
    """Give ``corpus`` the manifest the store keeps for the bytes it holds; whether it did."""
    path = manifest_path(options)
    data = corpus.other_texts.get(path)
    if data is None:
        return False
    blob = store.get(_entry(path, bytes(data)))
    if blob is None:
        return False
    try:
        manifest = msgspec.msgpack.decode(blob, type=mapping.Manifest)
    except (msgspec.DecodeError, msgspec.ValidationError):
        return False
    if manifest.path != path:
        return False
    mapping.give_manifest(corpus, options, manifest)
    return True


def keep(store: Store, corpus: Corpus, options: Options) -> None:
    """Store the manifest the run parsed for ``corpus`` (nothing when it parsed none)."""
    manifest = mapping.parsed_manifest(corpus, options)
    data = corpus.other_texts.get(manifest_path(options))
    if manifest is None or data is None:
        return
    store.put(_entry(manifest.path, bytes(data)), msgspec.msgpack.encode(manifest))
