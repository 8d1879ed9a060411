"""Settings are declared once (:mod:`adrguard.core.settings`): the checked-in JSON Schema is
generated from the declaration, and the keys, levels and names every command shares come from it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import msgspec
import pytest
from settingtables import keys, subtables

from adrguard.config import Config, from_mapping
from adrguard.core.errors import UserError
from adrguard.core.findings import Severity
from adrguard.core.schemas import load_schema, schema_dir
from adrguard.core.settings import DEFAULTS, FAIL_ON, ConfigTable
from adrguard.core.settings_schema import config_schema, config_schema_text

ROOT = Path(__file__).resolve().parents[2]


def test_the_checked_in_schema_is_the_generated_one() -> None:
    checked_in = (schema_dir() / "config.schema.json").read_text(encoding="utf-8")
    assert checked_in == config_schema_text(), "run: python scripts/config_schema.py"


def test_the_regeneration_script_says_whether_the_file_is_current() -> None:
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "config_schema.py"), "--check"],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr


def test_every_key_of_every_table_is_in_the_schema() -> None:
    schema = config_schema()
    assert set(schema["properties"]) == set(keys(ConfigTable))
    for name, table in subtables(ConfigTable).items():
        assert set(schema["properties"][name]["properties"]) == set(keys(table)), name
    assert schema["properties"]["fail-on"]["enum"] == list(FAIL_ON)
    assert [FAIL_ON.index(s.label) for s in Severity] == [int(s) for s in Severity]


def test_defaults_come_from_the_declaration() -> None:
    assert Config().profile == DEFAULTS.profile == load_schema("config.schema.json")[
        "properties"]["profile"]["default"]
    assert Config().fail_on == DEFAULTS.fail_on
    assert Config().archive_dirs == tuple(DEFAULTS.archive_dirs) == ("archive",)
    built = from_mapping({"archive-dirs": ["old", "attic"]})
    assert built.archive_dirs == built.options.archive_dirs == ("old", "attic")


def test_an_integer_written_as_a_float_is_read_as_the_integer() -> None:
    built = from_mapping({"max-file-size": 2048.0, "citations": {"max-file-size": 10.0}})
    assert built.options.max_file_size == 2048 and isinstance(built.options.max_file_size, int)
    assert built.citations.max_file_size == 10


def test_a_nested_unknown_key_names_the_closest_key_of_its_table() -> None:
    with pytest.raises(UserError, match=r"unknown key 'verify.polcy' \(did you mean 'policy'\?\)"):
        from_mapping({"verify": {"polcy": "enforce"}}, ".adrguard.toml")
    with pytest.raises(UserError, match=r"invalid value at fail-on: 'sometimes' is not one of "
                                        r"\['none', 'note', 'warning', 'error'\]"):
        from_mapping({"fail-on": "sometimes"}, ".adrguard.toml")


def test_the_docs_describe_every_key_of_the_declaration() -> None:
    import re

    page = (ROOT / "docs" / "configuration.md").read_text(encoding="utf-8")
    rows = set(re.findall(r"^\| `([a-z-]+)` \|", page, flags=re.MULTILINE))
    tables = set(subtables(ConfigTable))
    assert rows == set(keys(ConfigTable)) - tables
    assert all(f"[{name}]" in page for name in tables)


def test_the_keys_check_reads_each_tables_keys_as_the_declaration_names_them() -> None:
    """The unknown-key check takes a table's keys from the struct (``__struct_encode_fields__``,
    no annotations resolved): they are the declaration's keys, in order, for every table, and a
    file without tables is checked without resolving any."""
    tables: list[type[msgspec.Struct]] = [ConfigTable, *subtables(ConfigTable).values()]
    for table in tables:
        assert table.__struct_encode_fields__ == keys(table), table.__name__
    with pytest.raises(UserError, match=r"unknown key 'rots' \(did you mean 'roots'\?\)"):
        from_mapping({"rots": ["docs/adr"]}, ".adrguard.toml")
    assert from_mapping({"roots": ["docs/adr"], "index": {}}).options is not None


def test_the_declarations_annotations_are_built_on_import_not_kept_as_strings() -> None:
    """msgspec reads these annotations on every validation (every check, the hook): kept as
    strings (``from __future__ import annotations``) each would be compiled and evaluated then
    (issue 30). Every table's annotations are types already."""
    tables = [ConfigTable, *subtables(ConfigTable).values()]
    assert len(tables) > 1
    for table in tables:
        annotations = {k: v for k, v in table.__annotations__.items() if not k.startswith("_")}
        assert annotations, table
        assert not [k for k, v in annotations.items() if isinstance(v, str)], table
