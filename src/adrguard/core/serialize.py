"""Decision <-> bytes for the record cache: MessagePack through msgspec's typed codec. Pure.

Decoding is typed by :class:`~adrguard.core.model.Decision` itself, so an entry that does not
have exactly the model's shape raises :class:`ValueError` (the cache then parses the file
again). Never pickle: loading an entry never runs code.

Every field of a Decision has a fixed type except ``front_matter``, which holds whatever the
YAML said. MessagePack round-trips strings, integers that fit in 64 bits, floats, booleans,
nulls, lists and maps with string keys exactly; a record whose front matter holds anything else
(``!!binary`` bytes, a ``!!set``, an ``!!omap``'s tuples, a big integer, an explicit
``!!timestamp``) is not encoded at all (:func:`encode` returns None): it is parsed on every run,
so a cached run never reports differently from a cold one.
"""

from __future__ import annotations

from typing import Any

import msgspec

from adrguard.core.model import Decision

_ENCODER = msgspec.msgpack.Encoder()
_DECODER = msgspec.msgpack.Decoder(Decision)
_SCALARS = (str, float, bool, type(None))
_INT_MIN, _INT_MAX = -(2**63), 2**64 - 1  # what MessagePack can hold
_MAX_DEPTH = 64


def _faithful(value: Any, depth: int = 0) -> bool:
    """Whether ``value`` comes back from MessagePack as an equal value of the same types."""
    kind = type(value)
    if kind in _SCALARS:
        return True
    if kind is int:
        return bool(_INT_MIN <= value <= _INT_MAX)
    if depth > _MAX_DEPTH:
        return False
    if kind is list:
        return all(_faithful(v, depth + 1) for v in value)
    if kind is dict:
        return all(type(k) is str and _faithful(v, depth + 1) for k, v in value.items())
    return False


def encode(decision: Decision) -> bytes | None:
    """The record as bytes, or None when it would not come back exactly as it is."""
    if type(decision.front_matter) is not dict or not _faithful(decision.front_matter):
        return None
    try:
        return _ENCODER.encode(decision)
    except (TypeError, ValueError, OverflowError, UnicodeError):  # e.g. a lone surrogate
        return None


def decode(data: bytes) -> Decision:
    """The record ``data`` holds; ``ValueError`` when it is not exactly a Decision."""
    try:
        decision: Decision = _DECODER.decode(data)
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        raise ValueError(str(exc)) from None
    return decision
