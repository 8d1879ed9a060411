"""Typed models of the files we validate on every run, checked with msgspec. Pure.

Importing jsonschema costs more than a whole check of a small repository, and a configuration
or impact manifest is valid on almost every run. These models (msgspec's public ``convert``,
strict) accept a subset of what the JSON Schemas in ``schemas/`` accept: a value a model accepts
is valid, and anything else is validated by jsonschema against the schema, which stays the
contract and writes the error message. ``tests/core/test_typed.py`` checks that every model
accepts nothing its schema rejects, and names the same keys.

No ``from __future__ import annotations``, as in :mod:`adrguard.core.settings`: msgspec reads
these annotations on every run with an impact manifest, and strings would be compiled then.
"""

from collections.abc import Mapping
from typing import Any, Literal

import msgspec
from msgspec import UNSET, Struct, UnsetType

# The configuration's models are its declaration (:mod:`adrguard.core.settings`); the impact
# manifest's live here.
from adrguard.core.settings import (
    AiTable,
    CitationsTable,
    ConfigTable,
    CurrentTable,
    ImpactTable,
    IndexTable,
    Text,
    Texts,
    VerifyTable,
)

__all__ = [
    "AiTable",
    "CitationsTable",
    "ConfigTable",
    "CurrentTable",
    "ImpactTable",
    "IndexTable",
    "ManifestFile",
    "MappingEntry",
    "VerifyTable",
    "conforms",
]


class MappingEntry(Struct, forbid_unknown_fields=True):
    decision: Text
    paths: Texts | UnsetType = UNSET
    components: Texts | UnsetType = UNSET
    note: str | UnsetType = UNSET


class ManifestFile(Struct, forbid_unknown_fields=True):
    """``.adrguard-impact.json``."""

    schemaVersion: Literal[1]  # the JSON key
    schema: str | UnsetType = msgspec.field(default=UNSET, name="$schema")
    components: dict[str, Texts] | UnsetType = UNSET
    mappings: list[MappingEntry] | UnsetType = UNSET


def conforms(data: Mapping[str, Any], model: type[Struct]) -> bool:
    """Whether ``data`` is an instance of ``model`` (strict: no coercion of any kind)."""
    try:
        value = msgspec.convert(dict(data), type=model, strict=True)
    except msgspec.ValidationError:
        return False
    if isinstance(value, ManifestFile) and not isinstance(value.mappings, UnsetType):
        # the schema's anyOf: a mapping names paths, components or both
        return all(
            not (isinstance(m.paths, UnsetType) and isinstance(m.components, UnsetType))
            for m in value.mappings
        )
    return True
