"""The typed models accept nothing their JSON Schemas reject (jsonschema stays the contract),
name exactly the schemas' keys, and accept the valid files real projects write."""

from __future__ import annotations

import datetime as dt
from typing import Any

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from adrguard.core.schemas import load_schema, validator
from adrguard.core.typed import (
    AiTable,
    ConfigTable,
    CurrentTable,
    ImpactTable,
    IndexTable,
    ManifestFile,
    MappingEntry,
    VerifyTable,
    conforms,
)

CONFIG = "config.schema.json"
MANIFEST = "impact-manifest.schema.json"


def _keys(model: type[msgspec.Struct]) -> set[str]:
    return set(model.__struct_encode_fields__)


def test_models_name_exactly_the_schema_keys() -> None:
    config = load_schema(CONFIG)["properties"]
    assert _keys(ConfigTable) == set(config)
    for name, model in (("index", IndexTable), ("current", CurrentTable), ("impact", ImpactTable),
                        ("verify", VerifyTable), ("ai", AiTable)):
        assert _keys(model) == set(config[name]["properties"]), name
    manifest = load_schema(MANIFEST)["properties"]
    assert _keys(ManifestFile) == set(manifest)
    assert _keys(MappingEntry) == set(manifest["mappings"]["items"]["properties"])


SCALARS = st.one_of(
    st.sampled_from(["", "x", "docs/adr", "legacy", "strict", "none", "note", "error", "accepted"]),
    st.sampled_from([0, 1, -1, 2, 1.0, 0.5, True, False, None, dt.date(2024, 1, 2)]),
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.dictionaries(st.sampled_from(["a", "paths", "enabled", "view", "x"]), inner, max_size=3),
    ),
    max_leaves=6,
)


def _tables(keys: list[str], sub: dict[str, list[str]]) -> st.SearchStrategy[dict[str, Any]]:
    value = st.one_of(VALUES, *(st.dictionaries(st.sampled_from(v), VALUES) for v in sub.values()))
    return st.dictionaries(st.sampled_from(keys), value, max_size=5)


CONFIG_KEYS = sorted(load_schema(CONFIG)["properties"])
SUB = {k: sorted(load_schema(CONFIG)["properties"][k]["properties"]) for k in ("index", "current", "impact", "verify")}


@settings(max_examples=400, deadline=None)
@given(_tables(CONFIG_KEYS, SUB))
def test_config_model_accepts_nothing_the_schema_rejects(data: dict[str, Any]) -> None:
    if conforms(data, ConfigTable):
        assert validator(CONFIG).is_valid(data), data


STRINGS = st.lists(st.sampled_from(["", "src/**", "api", 1]), max_size=3)
MAPPING = st.fixed_dictionaries(
    {"decision": st.one_of(st.sampled_from(["ADR-0001", ""]), VALUES)},
    optional={"paths": st.one_of(STRINGS, VALUES), "components": st.one_of(STRINGS, VALUES),
              "note": st.one_of(st.just("n"), VALUES), "extra": VALUES},
)
MANIFESTS = st.fixed_dictionaries(
    {"schemaVersion": st.sampled_from([1, 1, 1, 1.0, True, 2, "1"])},
    optional={
        "$schema": st.one_of(st.just("x"), VALUES),
        "components": st.one_of(st.dictionaries(st.sampled_from(["api", "db"]), STRINGS), VALUES),
        "mappings": st.one_of(st.lists(MAPPING, max_size=3), VALUES),
        "other": VALUES,
    },
)


@settings(max_examples=800, deadline=None)
@given(MANIFESTS)
def test_manifest_model_accepts_nothing_the_schema_rejects(data: dict[str, Any]) -> None:
    if conforms(data, ManifestFile):
        assert validator(MANIFEST).is_valid(data), data


def test_valid_files_take_the_typed_path() -> None:
    configs: list[dict[str, Any]] = [
        {},
        {"roots": ["docs/adr", "services/*/docs/adr"], "extend-exclude": ["docs/adr/zh/**"]},
        {"profile": "strict", "ignore": ["ADR107"], "fail-on": "warning", "cache": False},
        {"severity": {"ADR501": "note"}, "per-file-ignores": {"docs/adr/0001-*.md": ["ADR104"]}},
        {"statuses": {"on hold": "proposed"}, "status-headings": ["Stato"], "max-file-size": 9},
        {"index": {"enabled": True, "columns": ["number", "title"]}, "current": {"view": "C.md"}},
        {"impact": {"statuses": ["accepted", "proposed"]}, "cache-dir": "~/.cache/x"},
    ]
    for data in configs:
        assert conforms(data, ConfigTable) and validator(CONFIG).is_valid(data), data
    manifest: dict[str, Any] = {
        "$schema": "x",
        "schemaVersion": 1,
        "components": {"api": ["src/api/**"]},
        "mappings": [{"decision": "ADR-0001", "paths": ["src/**"], "note": "n"},
                     {"decision": "ADR-0002", "components": ["api"]}],
    }
    assert conforms(manifest, ManifestFile) and validator(MANIFEST).is_valid(manifest)
    assert not conforms({"schemaVersion": 1, "mappings": [{"decision": "x"}]}, ManifestFile)


def test_the_manifests_models_annotations_are_types_not_strings() -> None:
    """msgspec reads these annotations on every run with an impact manifest; strings would be
    compiled and evaluated then (issue 30)."""
    from adrguard.core.typed import ManifestFile, MappingEntry

    for model in (ManifestFile, MappingEntry):
        assert model.__annotations__
        assert not [k for k, v in model.__annotations__.items() if isinstance(v, str)], model
