"""The findings of a rule run over a corpus that does not change between runs, kept in the
record cache's store (:mod:`adrguard.adapters.cache.store`).

The pre-commit hook runs the rules twice: over the staged corpus, and over the corpus as the
last commit holds it, to tell a finding the commit causes from one that was there before
(:mod:`adrguard.api.gate`). The second corpus is the same commit after commit until the next
one, so its findings are kept here. An entry is keyed by everything the run depends on:

* adrguard's code (the parser's signature, and the source files of the rules, the engine and
  the configuration);
* the configuration, every field, written out canonically
  (:func:`adrguard.adapters.cache.keys.canonical`);
* the corpus, every field: a record by its path, root, archive flag and the SHA-256 of its
  bytes (the parse depends on nothing else but the configuration and the code, which the key
  holds too: the same equivalence the record cache keys by), everything else written out.

A value the canonical form does not know makes the run uncacheable (it runs), never a guess. One
entry per work tree and purpose: a new key replaces the old entry, so the store does not grow
with every commit. A damaged or foreign entry is a miss; a cache never changes a result.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from pathlib import Path

import msgspec

from adrguard.adapters.cache.keys import (
    Uncacheable,
    canonical,
    order,
    parser_signature,
    source_stamp,
)
from adrguard.adapters.cache.store import Store, key
from adrguard.core.findings import Finding, Severity
from adrguard.core.model import Corpus, Location

FORMAT = 1
_FINDING = ("code", "name", "severity", "message", "location", "decision_id", "related")
_LOCATION = ("path", "line", "column")


@functools.cache
def code_signature() -> str:
    """The parser's signature and the source of everything else a rule run executes: the
    rules, the engine and the configuration (:func:`adrguard.adapters.cache.keys.source_stamp`)."""
    top = Path(__file__).resolve().parents[2]
    config = (top / "config.py").stat()
    return key(parser_signature(), *source_stamp(top / "rules"), *source_stamp(top / "engine"),
               f"config.py {config.st_size} {config.st_mtime_ns}")


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
        entry_key = key(code_signature(), order(canonical(config)), order(canonical(corpus)))
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
