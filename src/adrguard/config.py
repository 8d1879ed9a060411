"""Configuration: ``.adrguard.toml`` or ``[tool.adrguard]`` in ``pyproject.toml``.

First found wins, never merged: ``--config FILE`` > ``.adrguard.toml`` > ``pyproject.toml`` >
built-in defaults. :func:`from_mapping` is pure; :func:`load_config` reads the file.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from adrguard.core.errors import UserError
from adrguard.core.findings import Severity
from adrguard.core.options import (
    DEFAULT_REQUIRED_SECTIONS,
    DEFAULT_STATUS_HEADINGS,
    DEFAULT_STATUS_SYNONYMS,
    Options,
)

DEFAULT_ROOTS: tuple[str, ...] = (
    "docs/adr",
    "docs/adrs",
    "docs/decisions",
    "doc/adr",
    "docs/architecture/decisions",
    "adr",
    "decisions",
    "architecture-decision-record",
)

DEFAULT_EXCLUDE: tuple[str, ...] = (
    "README.md",
    "readme.md",
    "index.md",
    "INDEX.md",
    "CURRENT.md",
    "template*.md",
    "*-template.md",
    "*-TEMPLATE.md",
    "0000-*template*",
    "0000-*TEMPLATE*",
    "*XXX*",
    "*xxx*",
    # templates named in other languages (French modèle, German Vorlage, Spanish plantilla)
    "0000-*modele*",
    "0000-*modèle*",
    "modele*.md",
    "0000-*vorlage*",
    "vorlage*.md",
    "0000-*plantilla*",
    "plantilla*.md",
)

PROFILES = ("legacy", "advisory", "standard", "strict")
FAIL_ON = ("none", "note", "warning", "error")

SCHEMA_PATH = "config.schema.json"


@dataclass(frozen=True)
class Config:
    """The configuration in effect (see the module docstring for where it comes from)."""

    source: str | None = None  # where it came from (for -v), None = defaults
    roots: tuple[str, ...] = ()  # empty = auto-detect DEFAULT_ROOTS
    exclude: tuple[str, ...] = DEFAULT_EXCLUDE
    archive_dirs: tuple[str, ...] = ("archive",)
    profile: str = "standard"
    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    severity: Mapping[str, Severity] = field(default_factory=dict)
    per_file_ignores: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    fail_on: str = "error"
    cache: bool = True
    options: Options = field(default_factory=Options)

    def with_overrides(self, **changes: Any) -> Config:
        clean = {k: v for k, v in changes.items() if v is not None}
        return replace(self, **clean)


def _schema() -> dict[str, Any]:
    from adrguard.core.schemas import load_schema

    return load_schema(SCHEMA_PATH)


def _closest(key: str, valid: list[str]) -> str:
    import difflib

    match = difflib.get_close_matches(key, valid, n=1, cutoff=0.5)
    return f" (did you mean {match[0]!r}?)" if match else ""


def _check_keys(
    data: Mapping[str, Any], schema: Mapping[str, Any], where: str, prefix: str
) -> None:
    props = schema.get("properties", {})
    if schema.get("additionalProperties", True) is False:
        for key in data:
            if key not in props:
                raise UserError(
                    f"{where}: unknown key {prefix + key!r}{_closest(key, sorted(props))}; "
                    "see docs/configuration.md for every key"
                )
    for key, value in data.items():
        sub = props.get(key)
        if isinstance(value, Mapping) and isinstance(sub, Mapping) and sub.get("type") == "object":
            _check_keys(value, sub, where, f"{prefix}{key}.")


_NOTES = frozenset({"description", "title", "$schema", "$id", "$defs"})
_TYPES: dict[str, type] = {"string": str, "boolean": bool, "integer": int, "object": dict}


def _surely_valid(value: Any, schema: Mapping[str, Any], root: Mapping[str, Any]) -> bool:
    """True only when ``value`` certainly satisfies ``schema`` (the subset of JSON Schema the
    config schema uses); anything unusual answers False and gets the full validator. This
    spares every run importing jsonschema (the largest part of start-up) for a valid config."""
    ref = schema.get("$ref")
    if isinstance(ref, str):
        if not ref.startswith("#/$defs/") or len(schema) - len(_NOTES & schema.keys()) != 1:
            return False
        target = root.get("$defs", {}).get(ref[len("#/$defs/") :])
        return isinstance(target, Mapping) and _surely_valid(value, target, root)
    for key, rule in schema.items():
        if key in _NOTES:
            continue
        if key == "type":
            kind = ("array" if rule == "array" else _TYPES.get(rule)) if type(rule) is str else None
            if kind == "array":
                if type(value) is not list:
                    return False
            elif kind is None or type(value) is not kind:
                return False
        elif key == "enum":
            if type(value) is not str or type(rule) is not list or value not in rule:
                return False
        elif key == "minLength":
            if type(value) is not str or len(value) < rule:
                return False
        elif key == "minimum":
            if type(value) is not int or type(rule) is not int or value < rule:
                return False
        elif key == "items":
            if type(value) is not list or not all(_surely_valid(v, rule, root) for v in value):
                return False
        elif key in ("properties", "additionalProperties"):
            if not _object_surely_valid(value, schema, root):
                return False
        else:
            return False
    return True


def _object_surely_valid(value: Any, schema: Mapping[str, Any], root: Mapping[str, Any]) -> bool:
    if type(value) is not dict:
        return False
    props = schema.get("properties", {})
    extra = schema.get("additionalProperties", True)
    for key, item in value.items():
        sub = props.get(key, extra)
        if sub is False or type(key) is not str:
            return False
        if sub is not True and not (isinstance(sub, Mapping) and _surely_valid(item, sub, root)):
            return False
    return True


def validate_mapping(data: Mapping[str, Any], where: str) -> None:
    """Reject unknown keys (naming the closest valid one) and wrong types."""
    schema = _schema()
    _check_keys(data, schema, where, "")
    if _surely_valid(dict(data), schema, schema):
        return
    from adrguard.core.schemas import validator

    errors = sorted(validator(SCHEMA_PATH).iter_errors(dict(data)), key=lambda e: list(e.path))
    if errors:
        err = errors[0]
        path = ".".join(str(p) for p in err.path) or "(top level)"
        raise UserError(f"{where}: invalid value at {path}: {err.message}")


def _codes(values: Any) -> tuple[str, ...]:
    return tuple(str(v).strip() for v in values or ())


def from_mapping(
    data: Mapping[str, Any], source: str | None = None, base_dir: Path | None = None
) -> Config:
    """Build a Config from an already-parsed mapping. Pure apart from reading the
    ``frontmatter-schema`` file named by the config (relative to ``base_dir``)."""
    where = source or "configuration"
    validate_mapping(data, where)
    opts: dict[str, Any] = {}
    if "statuses" in data:
        syn = dict(DEFAULT_STATUS_SYNONYMS)
        syn.update({str(k).casefold(): str(v) for k, v in data["statuses"].items()})
        opts["status_synonyms"] = syn
    if "status-headings" in data:
        opts["status_headings"] = tuple(
            dict.fromkeys(
                [*DEFAULT_STATUS_HEADINGS, *(h.casefold() for h in data["status-headings"])]
            )
        )
    if "required-sections" in data:
        req = dict(DEFAULT_REQUIRED_SECTIONS)
        req.update(
            {k: tuple(s.casefold() for s in v) for k, v in data["required-sections"].items()}
        )
        opts["required_sections"] = req
        opts["sections_configured"] = tuple(sorted(data["required-sections"]))
    for key, attr in (
        ("filename-pattern", "filename_pattern"),
        ("decision-id-pattern", "decision_id_pattern"),
    ):
        if key in data:
            try:
                re.compile(data[key])
            except re.error as exc:
                raise UserError(
                    f"{where}: {key} is not a valid regular expression: {exc}"
                ) from None
            opts[attr] = data[key]
    for key, attr in (
        ("require-status", "require_status"),
        ("supersession-both-sides", "supersession_both_sides"),
    ):
        if key in data:
            opts[attr] = bool(data[key])
    if "date-format" in data:
        opts["date_format"] = _date_format(data["date-format"], where)
    if "archive-dirs" in data:
        opts["archive_dirs"] = tuple(data["archive-dirs"])
    if "max-file-size" in data:
        opts["max_file_size"] = int(data["max-file-size"])
    for key in ("index", "current", "impact"):
        if key in data:
            opts[key] = dict(data[key])
    if "frontmatter-schema" in data:
        opts["frontmatter_schema"] = _load_fm_schema(data["frontmatter-schema"], base_dir, where)

    severity: dict[str, Severity] = {}
    for code, sev in (data.get("severity") or {}).items():
        try:
            severity[code] = Severity.parse(sev)
        except ValueError as exc:
            raise UserError(f"{where}: severity.{code}: {exc}") from None
    exclude = tuple(data["exclude"]) if "exclude" in data else DEFAULT_EXCLUDE
    exclude += tuple(data.get("extend-exclude", ()))
    return Config(
        source=source,
        roots=tuple(data.get("roots", ())),
        exclude=exclude,
        archive_dirs=tuple(data.get("archive-dirs", ("archive",))),
        profile=data.get("profile", "standard"),
        select=_codes(data.get("select")),
        ignore=_codes(data.get("ignore")),
        severity=severity,
        per_file_ignores={k: _codes(v) for k, v in (data.get("per-file-ignores") or {}).items()},
        fail_on=data.get("fail-on", "error"),
        cache=bool(data.get("cache", True)),
        options=Options(**opts),
    )


def _date_format(value: str, where: str) -> str:
    """A strftime format that writes a year and reads back what it wrote (``%Y-%m-%d``,
    ``%B %d, %Y``, ``%Y-%m``)."""
    import datetime as dt

    sample = dt.date(2001, 11, 22)
    try:
        dt.datetime.strptime(sample.strftime(value), value)
        ok = "%Y" in value or "%y" in value
    except ValueError:
        ok = False
    if not ok:
        raise UserError(
            f"{where}: date-format {value!r} is not a strftime format with a year that reads "
            "back what it writes (for example '%Y-%m-%d' or '%B %d, %Y')"
        )
    return value


def _load_fm_schema(name: str, base_dir: Path | None, where: str) -> dict[str, Any]:
    import json

    path = (base_dir or Path.cwd()) / name
    try:
        loaded = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise UserError(
            f"{where}: frontmatter-schema {name!r} cannot be read as JSON: {exc}"
        ) from None
    if not isinstance(loaded, dict):
        raise UserError(f"{where}: frontmatter-schema {name!r} must hold a JSON object")
    return loaded


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as fh:
            return tomllib.load(fh)
    except OSError as exc:
        raise UserError(f"cannot read config {path}: {exc.strerror or exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise UserError(f"{path.name}: not valid TOML: {exc}") from None


def find_config(repo_root: Path) -> tuple[Path, dict[str, Any]] | None:
    """The first config file that exists, with its adrguard table (first found wins)."""
    dedicated = repo_root / ".adrguard.toml"
    if dedicated.is_file():
        return dedicated, _read_toml(dedicated)
    pyproject = repo_root / "pyproject.toml"
    if pyproject.is_file():
        data = _read_toml(pyproject)
        table = data.get("tool", {}).get("adrguard")
        if isinstance(table, dict):
            return pyproject, table
    return None


def load_config(repo_root: Path, explicit: Path | None = None) -> Config:
    if explicit is not None:
        if not explicit.is_file():
            raise UserError(f"config file {explicit} does not exist; check the --config path")
        data = _read_toml(explicit)
        if explicit.name == "pyproject.toml":
            data = data.get("tool", {}).get("adrguard", {})
        return from_mapping(data, _display(explicit, repo_root), explicit.parent)
    found = find_config(repo_root)
    if found is None:
        return Config()
    path, data = found
    label = _display(path, repo_root)
    if path.name == "pyproject.toml":
        label += " [tool.adrguard]"
    return from_mapping(data, label, path.parent)


def _display(path: Path, repo_root: Path) -> str:
    try:
        return path.resolve().relative_to(repo_root.resolve()).as_posix()
    except ValueError:
        return str(path)
