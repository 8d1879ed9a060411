"""The JSON Schemas in ``schemas/`` (shipped in the wheel as ``adrguard/schemas``), and
:func:`load_json`, the one way a JSON file they describe (or any JSON input) is decoded.

Package data, not user files: reading them is the one file access core allows. Nothing is
kept between calls (no process-wide memo in core, ADR 36): reading a schema and building its
validator costs about 0.3 ms, and a run validates each kind of file once (a manifest read by
several rules is kept on the corpus by whoever reads it).

JSON input is bounded before it is decoded: :func:`load_json` measures how deeply arrays and
objects nest in one linear pass (C-speed string operations, no backtracking) and refuses more
than :data:`MAX_DEPTH` levels with a ``ValueError``, as it refuses a syntax error, so neither
``json`` nor a schema validator ever recurses without bound on a file a pull request wrote.
"""

from __future__ import annotations

import json
from itertools import accumulate
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from jsonschema.protocols import Validator


def schema_dir() -> Path:
    packaged = Path(__file__).resolve().parent.parent / "schemas"
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parents[3] / "schemas"  # source checkout / editable install


def load_schema(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((schema_dir() / name).read_text(encoding="utf-8"))
    return data


def validator(name: str) -> Validator:
    from jsonschema import validators

    schema = load_schema(name)  # our own, checked against its metaschema by the tests
    return validators.validator_for(schema)(schema)


MAX_DEPTH = 64  # nesting of arrays and objects any JSON input may have
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}
_NOT_BRACKET = {c: None for c in range(128) if chr(c) not in _STEP}


class NestingError(ValueError):
    """JSON nested deeper than the limit (a ``ValueError``, like a syntax error)."""


def nesting(text: str) -> int:
    """How deeply the arrays and objects of the JSON ``text`` nest (for invalid JSON, a number
    the decoder then refuses anyway). Linear: escapes and strings are cut out with
    ``str.replace`` and ``str.split``, then the brackets that are left are summed."""
    cleaned = text.replace("\\\\", "").replace('\\"', "")  # \\ first, as the decoder reads
    outside = "".join(cleaned.split('"')[::2])  # even pieces lie outside every string
    brackets = outside.translate(_NOT_BRACKET)
    brackets = "".join(c for c in brackets if c in _STEP) if not brackets.isascii() else brackets
    return max(accumulate(map(_STEP.__getitem__, brackets)), default=0)


def load_json(
    text: str | bytes, *, limit: int = MAX_DEPTH, **options: Any
) -> Any:
    """``json.loads(text, **options)`` once :func:`nesting` is at most ``limit``;
    :class:`NestingError` (a ``ValueError``) when it is deeper, and any decoder error as the
    ``ValueError`` ``json`` raises (a ``RecursionError`` never escapes)."""
    if isinstance(text, bytes):
        text = text.decode("utf-8")
    depth = nesting(text)
    if depth > limit:
        raise NestingError(f"nested {depth} levels deep; at most {limit} are read")
    try:
        return json.loads(text, **options)
    except RecursionError:
        raise NestingError(f"nested too deeply; at most {limit} levels are read") from None
