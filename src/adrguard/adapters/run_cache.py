"""The findings of a rule run over a corpus that does not change between runs, kept in the
record cache's store (:mod:`adrguard.adapters.cache`).

The pre-commit hook runs the rules twice: over the staged corpus, and over the corpus as the
last commit holds it, to tell a finding the commit causes from one that was there before
(:mod:`adrguard.api.gate`). The second corpus is the same commit after commit until the next
one, so its findings are kept here. An entry is keyed by everything the run depends on:

* adrguard's code (the parser's signature, and the source files of the rules, the engine and
  the configuration);
* the configuration, every field, written out canonically (:func:`canonical`);
* the corpus, every field: a record by its path, root, archive flag and the SHA-256 of its
  bytes (the parse depends on nothing else but the configuration and the code, which the key
  holds too: the same equivalence the record cache keys by), everything else written out.

A value the canonical form does not know makes the run uncacheable (it runs), never a guess. One
entry per work tree and purpose: a new key replaces the old entry, so the store does not grow
with every commit. A damaged or foreign entry is a miss; a cache never changes a result.
"""

from __future__ import annotations

import enum
import functools
import json
from collections.abc import Callable, Mapping
from dataclasses import fields, is_dataclass
from pathlib import Path
from typing import Any

import msgspec

from adrguard.adapters.cache import Store, digest, key, parser_signature, source_stamp
from adrguard.core.findings import Finding, Severity
from adrguard.core.model import Corpus, Decision, Location
from adrguard.core.options import Vocabulary

FORMAT = 1
_FINDING = ("code", "name", "severity", "message", "location", "decision_id", "related")
_LOCATION = ("path", "line", "column")


class Uncacheable(Exception):
    """A value :func:`canonical` cannot write out faithfully."""


@functools.cache
def code_signature() -> str:
    """The parser's signature and the source of everything else a rule run executes: the
    rules, the engine and the configuration (:func:`adrguard.adapters.cache.source_stamp`)."""
    top = Path(__file__).resolve().parent.parent
    config = (top / "config.py").stat()
    return key(parser_signature(), *source_stamp(top / "rules"), *source_stamp(top / "engine"),
               f"config.py {config.st_size} {config.st_mtime_ns}")


def canonical(value: Any) -> Any:
    """``value`` as plain JSON-able data that two equal values write out the same way in any
    process (sets sorted, mappings as sorted pairs, dataclasses by every compared field and
    msgspec structs by every field, a record by path, root, archive flag and content digest).
    :class:`Uncacheable` otherwise."""
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, enum.Enum):
        return [type(value).__name__, canonical(value.value)]
    if isinstance(value, (int, float)):
        return [type(value).__name__, repr(value)]
    if isinstance(value, bytes):
        return ["bytes", digest(value).hex()]
    if isinstance(value, Decision):
        if not value.sha256:
            raise Uncacheable("a record without a content digest")
        return ["record", value.path, value.root, value.archived, value.sha256]
    if isinstance(value, Vocabulary):
        return ["vocabulary", canonical(dict(value))]
    if is_dataclass(value) and not isinstance(value, type):
        return [type(value).__name__,
                [[f.name, canonical(getattr(value, f.name))] for f in fields(value) if f.compare]]
    if isinstance(value, msgspec.Struct):  # every field of a struct is compared
        return [type(value).__name__, [[f.name, canonical(getattr(value, f.name))]
                                       for f in msgspec.structs.fields(value)]]
    if isinstance(value, (tuple, list)):
        return [type(value).__name__, [canonical(v) for v in value]]
    if isinstance(value, (set, frozenset)):
        return ["set", sorted((canonical(v) for v in value), key=_order)]
    if isinstance(value, Mapping):
        pairs = [[canonical(k), canonical(v)] for k, v in value.items()]
        return ["map", sorted(pairs, key=_order)]
    raise Uncacheable(f"cannot key a {type(value).__name__}")


def _order(item: Any) -> str:
    return json.dumps(item, sort_keys=True, ensure_ascii=False)


def findings_of(
    store: Store | None,
    place: Path,
    purpose: str,
    corpus: Corpus,
    config: object,
    run: Callable[[], tuple[Finding, ...]],
) -> tuple[Finding, ...]:
    """``run()`` (the findings of a rule run over ``corpus`` with ``config``), from the store
    when an earlier run in the work tree ``place`` for the same ``purpose`` stored them under
    the same key; else run and stored."""
    if store is None:
        return run()
    try:
        entry_key = key(code_signature(), _order(canonical(config)), _order(canonical(corpus)))
    except (Uncacheable, RecursionError, ValueError, TypeError):
        return run()
    entry = key("findings", FORMAT.to_bytes(2, "big"), purpose, str(place))
    found = _decode(store.get(entry), entry_key)
    if found is not None:
        return found
    findings = run()
    blob = _encode(findings, entry_key)
    if blob is not None:
        store.put(entry, blob)
    return findings


def _encode(findings: tuple[Finding, ...], entry_key: str) -> bytes | None:
    if tuple(f.name for f in msgspec.structs.fields(Finding)) != _FINDING or tuple(
            f.name for f in msgspec.structs.fields(Location)) != _LOCATION:
        return None  # a new field: this format would drop it
    rows = [[f.code, f.name, int(f.severity), f.message, f.location.path, f.location.line,
             f.location.column, f.decision_id, list(f.related)] for f in findings]
    return json.dumps({"key": entry_key, "findings": rows}).encode("utf-8")


def _decode(blob: bytes | None, entry_key: str) -> tuple[Finding, ...] | None:
    if blob is None:
        return None
    try:
        data = json.loads(blob)
        if data["key"] != entry_key:
            return None
        return tuple(
            Finding(code, name, Severity(severity), message, Location(path, line, column),
                    decision_id, tuple(related))
            for code, name, severity, message, path, line, column, decision_id, related
            in data["findings"]
        )
    except (ValueError, KeyError, TypeError, RecursionError):
        return None
