"""Decision <-> JSON-safe data, for the parse cache. Pure.

JSON, not pickle: the cache lives in the work tree, and a pull request could commit one, so
loading it must never execute anything. Decoding validates shapes and raises ``ValueError`` on
anything unexpected; the cache then ignores the entry and parses the file again.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import enum
import operator
import types
import typing
from collections.abc import Mapping
from functools import cache
from typing import Any

from adrguard.core import model

_DATACLASSES: dict[str, type[Any]] = {
    cls.__name__: cls
    for cls in vars(model).values()
    if isinstance(cls, type) and dataclasses.is_dataclass(cls)
}


def _encode_value(value: Any) -> Any:
    if isinstance(value, enum.Enum):
        return value.value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return [_encode_value(getattr(value, f.name)) for f in dataclasses.fields(value)]
    if isinstance(value, (list, tuple)):
        return [_encode_value(v) for v in value]
    if isinstance(value, Mapping):
        return {"$map": [[_encode_value(k), _encode_value(v)] for k, v in value.items()]}
    if isinstance(value, dt.datetime):
        return {"$datetime": value.isoformat()}
    if isinstance(value, dt.date):
        return {"$date": value.isoformat()}
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return {"$str": str(value)}  # anything exotic from YAML keeps its text


_PLAIN = frozenset({str, int, float, bool, type(None)})
_FIELD_NAMES: dict[type[Any], tuple[str, ...]] = {
    cls: tuple(f.name for f in dataclasses.fields(cls)) for cls in _DATACLASSES.values()
}


def _encode_fast(value: Any) -> Any:
    """:func:`_encode_value` with the common types (model classes, plain values, tuples)
    dispatched on their exact type first; anything else goes the general way."""
    kind = type(value)
    if kind in _PLAIN:
        return value
    names = _FIELD_NAMES.get(kind)
    if names is not None:
        return [_encode_fast(getattr(value, n)) for n in names]
    if kind is tuple or kind is list:
        return [_encode_fast(v) for v in value]
    return _encode_value(value)


def encode(decision: model.Decision) -> list[Any]:
    data: list[Any] = _encode_fast(decision)
    return data


def _decode_any(value: Any) -> Any:
    """Front matter values: plain JSON plus the tagged forms above."""
    if isinstance(value, list):
        return [_decode_any(v) for v in value]
    if isinstance(value, dict):
        if "$map" in value:
            return {_decode_any(k): _decode_any(v) for k, v in value["$map"]}
        if "$date" in value:
            return dt.date.fromisoformat(value["$date"])
        if "$datetime" in value:
            return dt.datetime.fromisoformat(value["$datetime"])
        if "$str" in value:
            return str(value["$str"])
        raise ValueError("unknown tagged value")
    return value


Decoder = typing.Callable[[Any], Any]


def _check(kind: type[Any]) -> Decoder:
    def run(value: Any) -> Any:
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise ValueError(f"expected {kind.__name__}")
        return value

    return run


def _optional(inner: Decoder) -> Decoder:
    return lambda value: None if value is None else inner(value)


def _tuple_of(inner: Decoder) -> Decoder:
    def run(value: Any) -> Any:
        if not isinstance(value, list):
            raise ValueError("expected a list")
        return tuple([inner(v) for v in value])

    return run


def _mapping(value: Any) -> Any:
    decoded = _decode_any(value)
    if not isinstance(decoded, dict):
        raise ValueError("expected a mapping")
    return decoded


@cache
def _decoder(hint: Any) -> Decoder:
    """Build (once per type) a function that decodes a value of that type."""
    origin = typing.get_origin(hint)
    if hint is Any:
        return _decode_any
    if origin in (typing.Union, types.UnionType):
        options = [a for a in typing.get_args(hint) if a is not type(None)]
        return _optional(_decoder(options[0]))
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return _dataclass_decoder(hint)
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return hint
    if origin is tuple:
        return _tuple_of(_decoder(typing.get_args(hint)[0]))
    if origin is not None and issubclass(origin, Mapping):
        return _mapping
    if hint in (str, int, bool, float):
        return _check(hint)
    return _decode_any


_SIMPLE = (str, int, bool, float)


def _dataclass_decoder(cls: type[Any]) -> Decoder:
    hints = typing.get_type_hints(cls, vars(model))
    names = [f.name for f in dataclasses.fields(cls)]
    count = len(names)
    # Plain fields are checked by exact type in one loop (JSON yields exact types; a bool is
    # never accepted as an int); the others go through their decoders.
    simple = [(i, hints[n]) for i, n in enumerate(names) if hints[n] in _SIMPLE]
    others: list[tuple[int, Decoder]] = []
    resolved: list[bool] = []

    def run(value: Any) -> Any:
        if not resolved:  # resolved lazily: fields may refer to classes defined later
            others.extend(
                (i, _decoder(hints[n])) for i, n in enumerate(names) if hints[n] not in _SIMPLE
            )
            resolved.append(True)
        if type(value) is not list or len(value) != count:
            raise ValueError(f"bad {cls.__name__} record")
        for i, kind in simple:
            if type(value[i]) is not kind:
                raise ValueError(f"expected {kind.__name__}")
        return _build(cls, value, others)

    return run


def _build(cls: type[Any], value: list[Any], convert: list[tuple[int, Decoder]]) -> Any:
    """``cls`` from a checked positional record, decoding the fields that need it."""
    if not convert:
        return cls(*value)
    args = list(value)
    for i, dec in convert:
        args[i] = dec(args[i])
    return cls(*args)


def decode_dataclass(value: Any, cls: Any) -> Any:
    return _decoder(cls)(value)


# -- the fast path --------------------------------------------------------------------------
# A record from the cache almost always has exactly the JSON types its fields expect. The fast
# decoders check that with a few C-level calls per object (the types of all plain fields at
# once) and build the object positionally; on any surprise they hand the value to the general
# decoders above, which accept or refuse it exactly as they always did.

_MISSING = object()


def _fast_optional(kind: type[Any], slow: Decoder) -> Decoder:
    def run(value: Any) -> Any:
        return value if value is None or type(value) is kind else slow(value)

    return run


def _fast_enum(cls: type[enum.Enum]) -> Decoder:
    table = {member.value: member for member in cls}

    def run(value: Any) -> Any:  # called with a str only (checked before)
        found = table.get(value, _MISSING)
        return cls(value) if found is _MISSING else found

    return run


def _fast_optional_enum(cls: type[enum.Enum], slow: Decoder) -> Decoder:
    table = {member.value: member for member in cls}

    def run(value: Any) -> Any:
        if value is None:
            return None
        found = table.get(value, _MISSING) if type(value) is str else _MISSING
        return slow(value) if found is _MISSING else found

    return run


def _fast_strings(slow: Decoder) -> Decoder:
    def run(value: Any) -> Any:  # called with a list only (checked before)
        if not value:
            return ()
        if all(type(v) is str for v in value):
            return tuple(value)
        return slow(value)

    return run


def _fast_tuple(cls: Any) -> Decoder:
    item = _fast_dataclass(cls)
    plain = _PLAIN_LAYOUT.get(cls)
    if plain is not None:  # every field plain: build each item inline
        slow_item = _decoder(cls)

        def run_plain(value: Any) -> Any:  # called with a list only (checked before)
            return tuple(
                [
                    cls(*v) if type(v) is list and tuple(map(type, v)) == plain else slow_item(v)
                    for v in value
                ]
            )

        return run_plain
    return lambda value: tuple([item(v) for v in value])


_PLAIN_LAYOUT: dict[type[Any], tuple[type[Any], ...]] = {}


@cache
def _fast_dataclass(cls: Any) -> Decoder:
    """A decoder for ``cls`` that checks every plain field in one go (see above)."""
    slow = _decoder(cls)
    hints = typing.get_type_hints(cls, vars(model))
    names = [f.name for f in dataclasses.fields(cls)]
    count = len(names)
    checked: list[int] = []  # positions whose JSON type is known exactly
    expect: list[type[Any]] = []
    convert: list[tuple[int, Decoder]] = []
    for i, name in enumerate(names):
        hint = hints[name]
        origin = typing.get_origin(hint)
        args = [a for a in typing.get_args(hint) if a is not type(None)]
        if hint in _SIMPLE:
            checked.append(i)
            expect.append(hint)
        elif isinstance(hint, type) and issubclass(hint, enum.Enum):
            checked.append(i)
            expect.append(str)
            convert.append((i, _fast_enum(hint)))
        elif origin in (typing.Union, types.UnionType) and args[0] in _SIMPLE:
            convert.append((i, _fast_optional(args[0], _decoder(hint))))
        elif (
            origin in (typing.Union, types.UnionType)
            and isinstance(args[0], type)
            and issubclass(args[0], enum.Enum)
        ):
            convert.append((i, _fast_optional_enum(args[0], _decoder(hint))))
        elif origin is tuple and typing.get_args(hint)[0] is str:
            checked.append(i)
            expect.append(list)
            convert.append((i, _fast_strings(_decoder(hint))))
        elif origin is tuple and dataclasses.is_dataclass(typing.get_args(hint)[0]):
            checked.append(i)
            expect.append(list)
            convert.append((i, _fast_tuple(typing.get_args(hint)[0])))
        elif isinstance(hint, type) and dataclasses.is_dataclass(hint):
            checked.append(i)
            expect.append(list)
            convert.append((i, _fast_dataclass(hint)))
        else:  # mappings, Any, anything else: the general decoder
            convert.append((i, _decoder(hint)))
    kinds = tuple(expect)
    if all(hints[n] in _SIMPLE for n in names):
        _PLAIN_LAYOUT[cls] = kinds
    pick = operator.itemgetter(*checked) if len(checked) > 1 else None
    if pick is None:
        return slow

    def run(value: Any) -> Any:
        if type(value) is not list or len(value) != count or tuple(map(type, pick(value))) != kinds:
            return slow(value)
        return _build(cls, value, convert)

    return run


def decode(data: Any) -> model.Decision:
    decision: model.Decision = _fast_dataclass(model.Decision)(data)
    return decision


def model_signature() -> str:
    """Changes whenever a model field changes, so a cache from another layout is ignored."""
    parts = [
        f"{name}:{fields}"
        for name, cls in sorted(_DATACLASSES.items())
        for fields in [",".join(f.name for f in dataclasses.fields(cls))]
    ]
    return "|".join(parts)
