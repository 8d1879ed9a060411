"""A struct declared ``gc=False`` is never tracked by the cycle collector, so a reference cycle
through one would never be freed. Such a declaration is allowed only for a type whose fields
cannot lead back to it: plain values, tuples and lists of them, scalar-only frozen structs and
other untracked structs, and the parser's ``Body`` (bytes and numbers). This test reads every
struct of ``src/`` and holds each ``gc=False`` one to that rule (ADR 48)."""

from __future__ import annotations

import importlib
import pkgutil
import types
import typing
from typing import Any, Literal, Union, get_args, get_origin

import msgspec

import adrguard
from adrguard.core.parse.document import Block, Body

ATOMS: frozenset[Any] = frozenset({int, str, bytes, bool, float, type(None)})
SEQUENCES: frozenset[Any] = frozenset({tuple, list, frozenset})


def _structs() -> list[type[msgspec.Struct]]:
    for info in pkgutil.walk_packages(adrguard.__path__, "adrguard."):
        if info.name.endswith("__main__") or info.name.startswith(
                ("adrguard.mcp", "adrguard.adapters.models")):
            continue  # runs the CLI; optional extras (no parser type lives there)
        importlib.import_module(info.name)
    found: list[type[msgspec.Struct]] = []
    todo: list[type[msgspec.Struct]] = list(msgspec.Struct.__subclasses__())
    while todo:
        cls = todo.pop()
        todo.extend(cls.__subclasses__())
        if cls.__module__.startswith("adrguard."):
            found.append(cls)
    return found


def _untracked(cls: type[msgspec.Struct]) -> bool:
    return cls.__struct_config__.gc is False


def _safe(hint: Any, seen: set[Any]) -> bool:
    """Whether a value of type ``hint`` can never hold a reference back to a container."""
    if hint in ATOMS or hint is Body:
        return True
    origin = get_origin(hint)
    if origin is Literal:
        return all(type(value) in ATOMS for value in get_args(hint))
    if origin in (Union, types.UnionType):
        return all(_safe(arg, seen) for arg in get_args(hint))
    if origin in SEQUENCES:
        return all(arg is Ellipsis or _safe(arg, seen) for arg in get_args(hint))
    if isinstance(hint, type) and issubclass(hint, msgspec.Struct):
        if hint in seen:
            return False  # a type that can hold itself can close a cycle
        if not (_untracked(hint) or hint.__struct_config__.frozen):
            return False
        return _fields_safe(hint, seen | {hint})
    return False


def _fields_safe(cls: type[msgspec.Struct], seen: set[Any]) -> bool:
    hints = typing.get_type_hints(cls)
    return all(_safe(hints[name], seen) for name in cls.__struct_fields__)


def test_every_untracked_struct_holds_only_what_cannot_lead_back_to_it() -> None:
    untracked = [cls for cls in _structs() if _untracked(cls)]
    assert Block in untracked  # the parser's blocks are the reason for the rule
    unsafe = [f"{cls.__module__}.{cls.__qualname__}" for cls in untracked
              if not _fields_safe(cls, {cls})]
    assert unsafe == []


def test_the_body_holds_bytes_and_numbers_only() -> None:
    body = Body(b"# Title\n\ntext\n", 3)
    values = [getattr(body, name) for name in Body.__slots__]
    assert [type(value) for value in values] == [bytes, tuple, int, list]
    assert all(type(item) is int for item in body.starts)
    assert all(type(item) is int for item in body.last)
    body.column(5)
    assert all(type(item) is int for item in body.last)


class _Loop(msgspec.Struct, gc=False):
    children: list[_Loop]


class _Open(msgspec.Struct, gc=False):
    payload: dict[str, Any]


class _Mutable(msgspec.Struct):
    words: list[str]


class _Holder(msgspec.Struct, gc=False):
    inner: _Mutable


class _Plain(msgspec.Struct, gc=False):
    start: int
    words: tuple[str, ...]
    kind: Literal["a", "b"] | None = None


def test_the_rule_refuses_a_struct_that_could_hold_itself_or_anything() -> None:
    assert not _fields_safe(_Loop, {_Loop})  # could hold itself
    assert not _fields_safe(_Open, {_Open})  # could hold anything
    assert not _fields_safe(_Holder, {_Holder})  # a tracked, mutable struct inside
    assert not _safe(Any, set())
    assert _fields_safe(_Plain, {_Plain})
