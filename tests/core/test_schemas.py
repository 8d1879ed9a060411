"""Every JSON Schema we ship is a valid schema of its own draft (checked here, once, rather
than in every run that validates a file)."""

from __future__ import annotations

import pytest
from jsonschema import validators

from adrguard.core.schemas import load_schema, schema_dir, validator

NAMES = sorted(p.name for p in schema_dir().glob("*.schema.json"))


def test_the_schemas_are_found() -> None:
    assert "config.schema.json" in NAMES and "impact-manifest.schema.json" in NAMES


@pytest.mark.parametrize("name", NAMES)
def test_shipped_schema_is_valid(name: str) -> None:
    schema = load_schema(name)
    validators.validator_for(schema).check_schema(schema)
    assert not validator(name).is_valid(42)  # every file we read or write is a JSON object
