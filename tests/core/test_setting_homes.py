"""Every setting of the declaration (``adrguard.core.settings``) has exactly one runtime home:
given in a file, it changes one field of the :class:`~adrguard.config.Config` that
``from_mapping`` builds (or of the options, tables and provider settings inside it), and no
runtime field is fed by no setting (issue 29). Found by reading each setting on its own and
comparing the result with the defaults, not from a hand-written map of fields."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import msgspec
import pytest
from settingtables import keys, subtables

from adrguard.config import Config, from_mapping
from adrguard.core.settings import ConfigTable

# A value other than the default for every key of the declaration (a new setting fails
# test_every_setting_has_a_sample until it has one, and then must find its one home).
SAMPLES: dict[str, Any] = {
    "roots": ["docs/decisions"],
    "exclude": ["drafts/**"],
    "extend-exclude": ["docs/adr/zh/**"],
    "archive-dirs": ["retired"],
    "profile": "strict",
    "select": ["ADR101"],
    "ignore": ["ADR102"],
    "fail-on": "warning",
    "severity": {"ADR101": "note"},
    "per-file-ignores": {"docs/adr/0001-*.md": ["ADR101"]},
    "statuses": {"blessed by the council": "accepted"},
    "status-headings": ["state of play"],
    "required-sections": {"nygard": ["context"]},
    "filename-pattern": r"^\d{4}-[a-z-]+\.md$",
    "require-status": True,
    "date-format": "%d.%m.%Y",
    "supersession-both-sides": False,
    "decision-id-pattern": r"\bDEC-(\d{1,5})\b",
    "max-file-size": 4096,
    "frontmatter-schema": "schema.json",
    "cache": False,
    "cache-dir": "/var/tmp/adrguard-elsewhere",
    "template": "docs/adr/template.md",
    "new-status": "accepted",
    "repository-url": "https://github.com/example/project/tree/main",
    "read-guard": "warn",
    "index.enabled": True,
    "index.path": "README.md",
    "index.paths": {"docs/adr": "LIST.md"},
    "index.columns": ["id", "title"],
    "index.template": "docs/adr/index-template.md",
    "current.view": "NOW.md",
    "current.manifest": "now.sources.json",
    "current.statuses": ["proposed"],
    "current.include": ["docs/adr/**"],
    "current.exclude": ["docs/adr/old/**"],
    "impact.manifest": "impact.json",
    "impact.statuses": ["proposed"],
    "citations.enabled": True,
    "citations.include": ["src/**"],
    "citations.exclude": ["src/vendor/**"],
    "citations.max-file-size": 2048,
    "verify.rules": "fitness.json",
    "verify.baseline": "drift.json",
    "verify.policy": "enforce",
    "verify.max-evidence-size": 4096,
    "ai.provider": "openai-compatible",
    "ai.model": "another-model",
    "ai.base-url": "http://127.0.0.1:8080/v1",
    "ai.api-key-env": "LOCAL_API_KEY",
    "ai.timeout": 30.0,
    "ai.threshold": 0.5,
    "ai.cache-ttl": 60,
}
# [ai] needs its provider and model together: each [ai] key is read on top of this table.
AI = {"provider": "anthropic", "model": "a-model"}

# Runtime fields that no key of the file feeds: where the settings came from, what the command
# line or the library caller says, and what the run derives alongside a setting.
NOT_SETTINGS = {
    "source",  # where the settings came from
    "repository_config",  # whether that file is inside the repository
    "jobs",  # parse processes: the command line's
    "options.today",  # --today
    "options.extra",  # library callers' own options
    "options.sections_configured",  # which formats required-sections set (with that key)
}
COMPANIONS = {"required-sections": {"options.sections_configured"}}


def declared_keys() -> list[str]:
    out = [k for k in keys(ConfigTable) if k not in subtables(ConfigTable)]
    for name, table in subtables(ConfigTable).items():
        out += [f"{name}.{k}" for k in keys(table)]
    return out


def _names(value: Any) -> tuple[str, ...]:
    """The field names of a dataclass or a msgspec struct (``()`` for any other value)."""
    if isinstance(value, msgspec.Struct):
        return tuple(f.name for f in msgspec.structs.fields(value))
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return tuple(f.name for f in dataclasses.fields(value))
    return ()


def leaves(value: Any, prefix: str = "") -> Iterator[tuple[str, Any]]:
    """Every runtime field below ``value`` (a dataclass or a msgspec struct), by dotted path;
    the tables of :mod:`adrguard.core.options` are walked into, any other value is one field."""
    for name in _names(value):
        inner = getattr(value, name)
        path = prefix + name
        if _names(inner) and type(inner).__module__ == "adrguard.core.options":
            yield from leaves(inner, path + ".")
        else:
            yield path, dict(inner) if isinstance(inner, Mapping) else inner


def read(data: dict[str, Any], folder: Path) -> dict[str, Any]:
    return dict(leaves(from_mapping(data, base_dir=folder, inside=(folder,))))


def mapping_for(key: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """(the file with ``key``'s sample, the file without it)."""
    table, _, sub = key.partition(".")
    if not sub:
        return {key: SAMPLES[key]}, {}
    base = {"ai": dict(AI)} if table == "ai" else {}
    given = {table: {**(AI if table == "ai" else {}), sub: SAMPLES[key]}}
    return given, base


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "schema.json").write_text(json.dumps({"type": "object"}), encoding="utf-8")
    return tmp_path


def test_every_setting_has_a_sample() -> None:
    assert sorted(SAMPLES) == sorted(declared_keys())
    for key, value in SAMPLES.items():  # each sample is a value the declaration accepts
        table, _, sub = key.partition(".")
        data = {table: {**(AI if table == "ai" else {}), sub: value}} if sub else {key: value}
        msgspec.convert(data, ConfigTable, strict=False)


@pytest.mark.parametrize("key", sorted(SAMPLES))
def test_a_setting_has_exactly_one_runtime_home(key: str, folder: Path) -> None:
    given, base = mapping_for(key)
    before, after = read(base, folder), read(given, folder)
    changed = {path for path in after if after[path] != before[path]}
    homes = changed - COMPANIONS.get(key, set())
    assert len(homes) == 1, f"{key} changes {sorted(changed) or 'nothing'}"
    assert not homes & NOT_SETTINGS


def test_every_runtime_field_is_some_setting_s_home(folder: Path) -> None:
    homes: set[str] = set()
    for key in SAMPLES:
        given, base = mapping_for(key)
        before, after = read(base, folder), read(given, folder)
        changed = {path for path in after if after[path] != before[path]}
        homes |= changed - COMPANIONS.get(key, set())
    fields = set(dict(leaves(Config())))
    assert fields - homes == NOT_SETTINGS


def declared_defaults() -> dict[str, Any]:
    """The keys whose declaration gives a default, with it."""
    out: dict[str, Any] = {}
    tables: dict[str, type[msgspec.Struct]] = {
        "": ConfigTable, **{f"{k}.": t for k, t in subtables(ConfigTable).items()}}
    for prefix, table in tables.items():
        for f in msgspec.structs.fields(table):
            if f.default is not msgspec.UNSET and f.default is not msgspec.NODEFAULT:
                out[prefix + f.encode_name] = f.default
            elif f.default_factory is not msgspec.NODEFAULT:
                out[prefix + f.encode_name] = f.default_factory()
    return out


def test_the_runtime_defaults_are_the_declaration_s(folder: Path) -> None:
    defaults = declared_defaults()
    assert {"max-file-size", "citations.max-file-size", "ai.timeout", "profile"} <= set(defaults)
    runtime = dict(leaves(Config()))
    for key, value in defaults.items():
        given, base = mapping_for(key)
        before, after = read(base, folder), read(given, folder)
        (home,) = {p for p in after if after[p] != before[p]} - COMPANIONS.get(key, set())
        expected = tuple(value) if isinstance(value, list) else value
        assert runtime[home] == expected, key
