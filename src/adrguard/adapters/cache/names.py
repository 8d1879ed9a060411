"""What each record's name says (its record name, whether it is a folder record, its id parts:
:class:`adrguard.core.parse.formats.Names`), kept in the record cache's store
(:mod:`adrguard.adapters.cache.store`) for the next run of the same code (ADR 53).

Each answer depends on the file's path and root alone, and the store keeps it with that path and
root, so an answer read back is the one the run would work out. The entry of a work tree is
keyed by the code that works the answers out (the parser's signature: adrguard's version and
every module of ``core``) and the work tree; a run that took apart a name the entry did not hold
writes the entry again with the answers for the files it found. An entry that does not decode
is a miss. A cache never changes a result.
"""

from __future__ import annotations

import os
from collections.abc import Collection
from pathlib import Path

import msgspec

from adrguard.adapters.cache.keys import parser_signature
from adrguard.adapters.cache.store import Store, key
from adrguard.core.parse.formats import KnownName, Names

FORMAT = "1"


def _entry(place: Path) -> str:
    return key("record names", FORMAT, parser_signature(), os.fspath(place))


def recall(store: Store, place: Path) -> Names:
    """The names of the work tree at ``place``, with the answers the store keeps learned."""
    names = Names()
    blob = store.get(_entry(place))
    if blob is not None:
        try:
            known = msgspec.msgpack.decode(blob, type=list[KnownName])
        except (msgspec.DecodeError, msgspec.ValidationError):
            return names
        names.learn(known)
    return names


def keep(store: Store, place: Path, names: Names, paths: Collection[str]) -> None:
    """Store the answers ``names`` holds for the files ``paths`` when the run took apart a
    name the store did not hold."""
    if not names.grown:
        return
    known = [k for k in names.known() if k[0] in paths]
    store.put(_entry(place), msgspec.msgpack.encode(known))
