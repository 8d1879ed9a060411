"""The JSON Schemas in ``schemas/`` (shipped in the wheel as ``adrguard/schemas``).

Package data, not user files: reading them is the one file access core allows. Validators are
built once per schema and reused (building one costs ~4 ms; reusing it ~40 µs).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from jsonschema.protocols import Validator


def schema_dir() -> Path:
    packaged = Path(__file__).resolve().parent.parent / "schemas"
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parents[3] / "schemas"  # source checkout / editable install


@cache
def load_schema(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((schema_dir() / name).read_text(encoding="utf-8"))
    return data


@cache
def validator(name: str) -> Validator:
    from jsonschema import validators

    schema = load_schema(name)  # our own, checked against its metaschema by the tests
    return validators.validator_for(schema)(schema)
