"""Evidence documents: JSON read safely, values found by RFC 6901 JSON Pointer, compared. Pure.

An evidence file comes from a CI step (or from whoever opened the pull request), so reading it
refuses what could make a value ambiguous or a run expensive: invalid UTF-8, duplicate keys
(which value counts?), ``NaN``/``Infinity`` (not JSON) and numbers too large for a float
(``1e400`` would be Infinity), numbers too long to convert, nesting deeper than
:data:`MAX_DEPTH`. Each refusal is a reason, never an exception: the rule that needed the file
is ``unknown``.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from adrguard.core.lazyre import lazy
from adrguard.core.schemas import NestingError, load_json
from adrguard.core.wording import plural

MAX_DEPTH = 64  # nesting of arrays and objects an evidence file may have
_TOKEN_ESCAPE = lazy(r"~(?![01])")
_INDEX = lazy(r"0|[1-9][0-9]*")


@dataclass(frozen=True, slots=True)
class Document:
    """One evidence file: its JSON value, or why there is none."""

    path: str
    value: Any = None
    problem: str | None = None


class _Refused(ValueError):
    pass


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _Refused(f"key {key!r} appears twice in one object, so its value is ambiguous")
        out[key] = value
    return out


def _constant(name: str) -> Any:
    raise _Refused(f"{name} is not a JSON number")


def _float(text: str) -> float:
    """A JSON number with a fraction or exponent; one too large for a float (``1e400``) would
    become Infinity, which the comparison would then treat as a real value: refused."""
    value = float(text)
    if not math.isfinite(value):
        raise _Refused(f"{text[:40]} is too large a number to compare (it would be Infinity)")
    return value


def load_document(path: str, data: bytes) -> Document:
    """The JSON value of ``data``, or the reason it cannot be used."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        return Document(path, problem=f"not UTF-8 (byte {exc.start})")
    try:
        value = load_json(text, limit=MAX_DEPTH, object_pairs_hook=_pairs,
                          parse_constant=_constant, parse_float=_float)
    except json.JSONDecodeError as exc:
        return Document(path, problem=f"not valid JSON ({exc.msg} at line {exc.lineno}, "
                                      f"column {exc.colno})")
    except _Refused as exc:
        return Document(path, problem=str(exc))
    except (RecursionError, NestingError):
        return Document(path, problem=f"nested deeper than {MAX_DEPTH} levels")
    except ValueError as exc:  # e.g. an integer longer than Python converts
        return Document(path, problem=f"not usable JSON ({str(exc)[:120]})")
    if _depth_over(value, MAX_DEPTH):
        return Document(path, problem=f"nested deeper than {MAX_DEPTH} levels")
    return Document(path, value=value)


def _depth_over(value: Any, limit: int) -> bool:
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            if depth > limit:
                return True
            children = item.values() if isinstance(item, dict) else item
            stack.extend((c, depth + 1) for c in children if isinstance(c, dict | list))
    return False


def pointer_problem(pointer: str) -> str | None:
    """Why ``pointer`` is not an RFC 6901 JSON Pointer (None when it is)."""
    if pointer and not pointer.startswith("/"):
        return "a JSON Pointer is empty (the whole document) or starts with '/', as /totals/x"
    if _TOKEN_ESCAPE.search(pointer):
        return "'~' must be written ~0, and '/' inside a key ~1"
    return None


def tokens(pointer: str) -> tuple[str, ...]:
    """The reference tokens of a valid pointer, unescaped (``~1`` → ``/``, then ``~0`` → ``~``)."""
    if not pointer:
        return ()
    return tuple(t.replace("~1", "/").replace("~0", "~") for t in pointer[1:].split("/"))


@dataclass(frozen=True, slots=True)
class Found:
    value: Any = None
    problem: str | None = None  # why there is no value at the pointer


def resolve(document: Any, pointer: str) -> Found:
    """The value ``pointer`` names in ``document``, or where the walk stopped and why."""
    current = document
    walked = ""
    for token in tokens(pointer):
        step = walked + "/" + token.replace("~", "~0").replace("/", "~1")
        if isinstance(current, dict):
            if token not in current:
                return Found(problem=f"no key {token!r} at {walked or 'the top level'}")
            current = current[token]
        elif isinstance(current, list):
            if not _INDEX.fullmatch(token):
                return Found(problem=f"{walked or 'the top level'} is an array: {token!r} is not "
                                     "an index")
            index = int(token)
            if index >= len(current):
                where = walked or "the top level"
                return Found(problem=f"{where} has {plural(len(current), 'item')}: no "
                                     f"index {index}")
            current = current[index]
        else:
            return Found(problem=f"{walked or 'the top level'} is {type_name(current)}, which "
                                 "has no members")
        walked = step
    return Found(value=current)


def type_name(value: Any) -> str:
    """A JSON type with its article: ``a number``, ``an array``, ``null``."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    return "an array" if isinstance(value, list) else "an object"


def _kind(value: Any) -> str:
    return type_name(value).split()[-1]


def same(a: Any, b: Any) -> bool:
    """JSON equality: ``1 == 1.0``, but ``true`` is not ``1``; arrays and objects deeply."""
    if _kind(a) != _kind(b):
        return False
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return bool(a == b)


def compare(actual: Any, op: str, expected: Any) -> bool | str:
    """Whether ``actual op expected`` holds, or why the two cannot be compared (a wrong type
    is never a pass, nor a violation)."""
    if op in ("<", "<=", ">", ">="):
        if _kind(expected) != "number":  # the manifest refuses it; never a verdict
            return f"cannot order by {type_name(expected)}"
        if _kind(actual) != "number":
            return f"expected a number, found {type_name(actual)}"
        if op == "<":
            return bool(actual < expected)
        if op == "<=":
            return bool(actual <= expected)
        return bool(actual > expected) if op == ">" else bool(actual >= expected)
    members: Sequence[Any] = expected if op in ("in", "not-in") else [expected]
    kinds = {_kind(m) for m in members}
    if "null" not in kinds and _kind(actual) not in kinds:
        wanted = " or ".join(sorted(kinds))
        return f"expected {wanted}, found {type_name(actual)}"
    hit = any(same(actual, m) for m in members)
    return hit if op in ("==", "in") else not hit


def measured(value: Any, measure: str) -> Found:
    """``value`` itself, or its length (items of an array or object, characters of a string)."""
    if measure != "length":
        return Found(value=value)
    if isinstance(value, list | dict | str):
        return Found(value=len(value))
    return Found(problem=f"measure 'length' needs an array, object or string, found "
                         f"{type_name(value)}")
