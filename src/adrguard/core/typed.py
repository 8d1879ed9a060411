"""Typed models of the files we validate on every run, checked with msgspec. Pure.

Importing jsonschema costs more than a whole check of a small repository, and a configuration
or impact manifest is valid on almost every run. These models (msgspec's public ``convert``,
strict) accept a subset of what the JSON Schemas in ``schemas/`` accept: a value a model accepts
is valid, and anything else is validated by jsonschema against the schema, which stays the
contract and writes the error message. ``tests/core/test_typed.py`` checks that every model
accepts nothing its schema rejects, and names the same keys.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal

import msgspec
from msgspec import UNSET, Meta, Struct, UnsetType

Text = Annotated[str, Meta(min_length=1)]
Texts = list[Text]
Positive = Annotated[int, Meta(ge=1)]


class _Table(Struct, forbid_unknown_fields=True, rename="kebab"):
    pass


class IndexTable(_Table):
    enabled: bool | UnsetType = UNSET
    path: str | UnsetType = UNSET
    paths: dict[str, str] | UnsetType = UNSET
    columns: Texts | UnsetType = UNSET
    template: str | UnsetType = UNSET


class CurrentTable(_Table):
    view: str | UnsetType = UNSET
    manifest: str | UnsetType = UNSET
    statuses: Texts | UnsetType = UNSET
    include: Texts | UnsetType = UNSET
    exclude: Texts | UnsetType = UNSET


class ImpactTable(_Table):
    manifest: str | UnsetType = UNSET
    statuses: Texts | UnsetType = UNSET


class CitationsTable(_Table):
    enabled: bool | UnsetType = UNSET
    include: Texts | UnsetType = UNSET
    exclude: Texts | UnsetType = UNSET
    max_file_size: Positive | UnsetType = UNSET


class VerifyTable(_Table):
    rules: str | UnsetType = UNSET
    baseline: str | UnsetType = UNSET
    policy: Literal["advisory", "enforce"] | UnsetType = UNSET
    max_evidence_size: Positive | UnsetType = UNSET


Url = Annotated[str, Meta(min_length=1, max_length=512, pattern="^[Hh][Tt][Tt][Pp][Ss]?://")]
VariableName = Annotated[str, Meta(pattern="^[A-Za-z_][A-Za-z0-9_]{0,127}$")]


class AiTable(_Table):
    provider: Literal["openai-compatible", "anthropic"]
    model: Annotated[str, Meta(min_length=1, max_length=200)]
    base_url: Url | UnsetType = UNSET
    api_key_env: VariableName | UnsetType = UNSET
    timeout: Annotated[float, Meta(gt=0, le=300)] | UnsetType = UNSET
    threshold: Annotated[float, Meta(ge=0, le=1)] | UnsetType = UNSET
    cache_ttl: Annotated[int, Meta(ge=0, le=86400)] | UnsetType = UNSET


class ConfigTable(_Table):
    """``.adrguard.toml``, or ``[tool.adrguard]`` in pyproject.toml."""

    roots: Texts | UnsetType = UNSET
    exclude: Texts | UnsetType = UNSET
    extend_exclude: Texts | UnsetType = UNSET
    archive_dirs: Texts | UnsetType = UNSET
    profile: Literal["legacy", "advisory", "standard", "strict"] | UnsetType = UNSET
    select: Texts | UnsetType = UNSET
    ignore: Texts | UnsetType = UNSET
    fail_on: Literal["none", "note", "warning", "error"] | UnsetType = UNSET
    severity: dict[str, Literal["note", "warning", "error"]] | UnsetType = UNSET
    per_file_ignores: dict[str, Texts] | UnsetType = UNSET
    statuses: (
        dict[str, Literal["proposed", "accepted", "rejected", "deprecated", "superseded", "draft"]]
        | UnsetType
    ) = UNSET
    status_headings: Texts | UnsetType = UNSET
    required_sections: dict[str, Texts] | UnsetType = UNSET
    filename_pattern: str | UnsetType = UNSET
    require_status: bool | UnsetType = UNSET
    date_format: Annotated[str, Meta(min_length=2)] | UnsetType = UNSET
    supersession_both_sides: bool | UnsetType = UNSET
    decision_id_pattern: str | UnsetType = UNSET
    max_file_size: Positive | UnsetType = UNSET
    frontmatter_schema: str | UnsetType = UNSET
    cache: bool | UnsetType = UNSET
    cache_dir: Text | UnsetType = UNSET
    template: Text | UnsetType = UNSET
    new_status: Text | UnsetType = UNSET
    repository_url: Text | UnsetType = UNSET
    read_guard: Literal["off", "warn", "guard"] | UnsetType = UNSET
    index: IndexTable | UnsetType = UNSET
    current: CurrentTable | UnsetType = UNSET
    impact: ImpactTable | UnsetType = UNSET
    citations: CitationsTable | UnsetType = UNSET
    verify: VerifyTable | UnsetType = UNSET
    ai: AiTable | UnsetType = UNSET


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
