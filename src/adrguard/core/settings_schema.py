"""``schemas/config.schema.json``, generated from the declaration in :mod:`.settings`. Pure.

The checked-in file is what jsonschema validates against and what editors read; a test keeps it
equal to :func:`config_schema_text`, and ``python scripts/config_schema.py`` rewrites it after a
setting changes. Types map as JSON Schema draft 2020-12 spells them; a Literal keeps the order it
is declared in (jsonschema's "is not one of [...]" lists it so).
"""

from __future__ import annotations

import json
import types
from typing import Annotated, Any, Literal, Union, get_args, get_origin, get_type_hints

import msgspec
from msgspec import NODEFAULT, UNSET, Meta, Struct, UnsetType

from adrguard.core.settings import ConfigTable

SCHEMA_ID = "https://github.com/adrguard/adrguard/schemas/config.schema.json"
DRAFT = "https://json-schema.org/draft/2020-12/schema"

_SCALARS = {bool: "boolean", int: "integer", float: "number", str: "string"}
_STRING_LIMITS = (("min_length", "minLength"), ("max_length", "maxLength"), ("pattern", "pattern"))
_ARRAY_LIMITS = (("min_length", "minItems"), ("max_length", "maxItems"))
_NUMBER_LIMITS = (("ge", "minimum"), ("gt", "exclusiveMinimum"), ("le", "maximum"),
                  ("lt", "exclusiveMaximum"))


def _limits(kind: str, metas: list[Meta]) -> dict[str, Any]:
    table = {"string": _STRING_LIMITS, "array": _ARRAY_LIMITS}.get(kind, _NUMBER_LIMITS)
    out: dict[str, Any] = {}
    for meta in metas:
        for attr, word in table:
            value = getattr(meta, attr)
            if value is not None:
                out[word] = value
    return out


def _type(hint: Any) -> dict[str, Any]:
    metas: list[Meta] = []
    while get_origin(hint) is Annotated:
        hint, *extra = get_args(hint)
        metas = [m for m in extra if isinstance(m, Meta)] + metas
    if get_origin(hint) in (Union, types.UnionType):
        kept = [a for a in get_args(hint) if a is not UnsetType]
        if len(kept) != 1:
            raise TypeError(f"a setting has one type besides UNSET, not {hint!r}")
        out = _type(kept[0])
    elif isinstance(hint, type) and issubclass(hint, Struct):
        out = _table(hint)
    elif get_origin(hint) is Literal:
        out = {"enum": list(get_args(hint))}
    elif get_origin(hint) is list:
        out = {"type": "array", "items": _type(get_args(hint)[0])}
    elif get_origin(hint) is dict:
        out = {"type": "object", "additionalProperties": _type(get_args(hint)[1])}
    elif hint in _SCALARS:
        out = {"type": _SCALARS[hint]}
    else:
        raise TypeError(f"no JSON Schema for the setting type {hint!r}")
    if "type" in out and out["type"] != "object":
        out.update(_limits(out["type"], metas))
    described = [m.description for m in metas if m.description]
    if described:
        out["description"] = described[-1]
    return out


def _table(model: type[Struct]) -> dict[str, Any]:
    hints = get_type_hints(model, include_extras=True)
    props: dict[str, Any] = {}
    required: list[str] = []
    for field in msgspec.structs.fields(model):
        prop = _type(hints[field.name])
        default = (field.default_factory() if field.default_factory is not NODEFAULT
                   else field.default)
        if default is NODEFAULT:
            required.append(field.encode_name)
        elif default is not UNSET:
            prop["default"] = default
        props[field.encode_name] = prop
    out: dict[str, Any] = {"type": "object"}
    doc = " ".join((model.__doc__ or "").split())
    if doc:
        out["description"] = doc
    out["additionalProperties"] = False
    if required:
        out["required"] = required
    out["properties"] = props
    return out


def config_schema() -> dict[str, Any]:
    """The JSON Schema of the configuration, from :class:`~.settings.ConfigTable`."""
    body = _table(ConfigTable)
    title = body.pop("description")
    return {"$schema": DRAFT, "$id": SCHEMA_ID, "title": title, **body}


def config_schema_text() -> str:
    """:func:`config_schema` as the checked-in file holds it."""
    return json.dumps(config_schema(), indent=2, ensure_ascii=False) + "\n"
