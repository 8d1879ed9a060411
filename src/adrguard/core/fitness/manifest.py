"""The fitness manifest (``.adrguard-fitness.json``): model and validation. Pure.

A manifest lists rules, each tied to the decision it enforces. Every problem that makes it
unusable is a :class:`FitnessManifestError` carrying the place (line and column) and what to
change: ``adrguard verify`` stops with it (exit 2), ``adrguard check`` reports it as ADR701.
Problems of single rules that need the corpus (an unknown or inactive decision) or that keep
one rule from running (an evidence path outside the repository) are not raised here: the
rules ADR702-ADR704 and :mod:`adrguard.api.verify` judge them from the parsed manifest.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from adrguard.core import relpath
from adrguard.core.errors import UserError
from adrguard.core.fitness.pointer import pointer_problem
from adrguard.core.impact.globs import glob_problem
from adrguard.core.impact.mapping import Locator, ManifestSyntax, closest, load_manifest_json
from adrguard.core.options import DEFAULT_FITNESS_MANIFEST
from adrguard.core.saferegex import UnsafePattern, compile_user
from adrguard.core.schemas import validator

SCHEMA = "fitness.schema.json"
DEFAULT_PATH = DEFAULT_FITNESS_MANIFEST
KINDS = ("evidence", "forbidden-text", "required-paths", "forbidden-paths", "forbidden-import")
MAX_EVIDENCE_FILES = 20  # evidence files one run reads (and one rule may name)
_TOP_KEYS = ("$schema", "schemaVersion", "rules")
_COMMON = ("id", "decision", "kind", "description")
_KIND_KEYS: Mapping[str, tuple[str, ...]] = {
    "evidence": ("evidence", "pointer", "op", "value", "measure"),
    "forbidden-text": ("paths", "pattern"),
    "required-paths": ("paths",),
    "forbidden-paths": ("paths",),
    "forbidden-import": ("paths", "modules", "ignoreTypeChecking"),
}
_GLOB_META = frozenset("*?[")
Parts = tuple[str | int, ...]


class FitnessManifestError(UserError):
    """The fitness manifest cannot be used. ``str()`` is ``path:line:column: what to fix``;
    ``line``, ``column`` and ``detail`` (the message without the place) are kept apart for a
    finding."""

    def __init__(self, path: str, line: int, column: int, detail: str) -> None:
        super().__init__(f"{path}:{line}:{column}: {detail}")
        self.path = path
        self.line = line
        self.column = column
        self.detail = detail


@dataclass(frozen=True, slots=True)
class FitnessRule:
    """One rule as the manifest states it (globs and paths stripped)."""

    id: str
    decision: str  # as written: an id, a number or a path
    kind: str
    description: str | None
    line: int  # where the rule's "id" value is
    decision_line: int
    decision_column: int
    evidence: tuple[str, ...] = ()
    evidence_places: tuple[tuple[int, int], ...] = ()  # line and column of each evidence path
    pointer: str = ""
    op: str = "=="
    value: Any = None
    measure: str = "value"
    paths: tuple[str, ...] = ()
    pattern: str = ""
    modules: tuple[str, ...] = ()
    ignore_type_checking: bool = False


@dataclass(frozen=True)
class FitnessManifest:
    path: str
    rules: tuple[FitnessRule, ...]

    def evidence_files(self) -> tuple[str, ...]:
        """Every evidence path the rules name, in order of first mention."""
        return tuple(dict.fromkeys(p for r in self.rules for p in r.evidence))


def outside_repository(path: str) -> str | None:
    """Why an evidence path can never name a file of the repository (None when it can)."""
    if path.startswith(("/", "\\")) or re.match(r"^[A-Za-z]:[\\/]", path):
        return "an absolute path: write it relative to the repository root"
    if ".." in re.split(r"[\\/]", path):
        return "a path that climbs out of the repository with '..': write it relative to its root"
    if any(c < " " or c == "\x7f" for c in path):
        return "a path with a control character (NUL, newline, ...): remove it"
    if any(relpath.is_git_name(p) for p in re.split(r"[\\/]", path)):
        return "a path in git's own folder (.git), which adrguard never reads"
    return None


def evidence_outside(rule: FitnessRule) -> Iterator[tuple[int, int, str]]:
    """(line, column, message) of each evidence file of ``rule`` outside the repository: what
    ``verify`` refuses the manifest for and ADR704 reports."""
    for name, (line, column) in zip(rule.evidence, rule.evidence_places, strict=True):
        problem = outside_repository(name)
        if problem is not None:
            yield line, column, f"rule {rule.id!r}: evidence {name!r} is {problem}"


def parse_manifest(path: str, data: bytes) -> FitnessManifest:
    """Validate and load a fitness manifest; :class:`FitnessManifestError` on the first
    problem."""
    try:
        text, obj = load_manifest_json(data)
    except ManifestSyntax as exc:
        raise FitnessManifestError(path, exc.line or 1, exc.column or 1, exc.message) from None
    where = _Where(path, Locator(path, text))
    if not isinstance(obj, dict):
        raise where.error((), "the manifest must be a JSON object")
    _check_keys(obj, where)
    _check_schema(obj, where)
    rules = tuple(_rule(raw, i, where) for i, raw in enumerate(obj["rules"]))
    seen: dict[str, int] = {}
    for i, rule in enumerate(rules):
        if rule.id in seen:
            raise where.error(("rules", i, "id"), f"rule id {rule.id!r} is used twice (also "
                              f"rule {seen[rule.id] + 1}); give every rule its own id")
        seen[rule.id] = i
    return FitnessManifest(path, rules)


class _Where:
    def __init__(self, path: str, locator: Locator) -> None:
        self.path = path
        self.locator = locator

    def position(self, parts: Parts) -> tuple[int, int]:
        return self.locator.position(parts)

    def error(self, parts: Parts, detail: str) -> FitnessManifestError:
        line, column = self.locator.position(parts)
        return FitnessManifestError(self.path, line, column, detail)


def _check_keys(obj: Mapping[str, Any], where: _Where) -> None:
    for key in obj:
        if key not in _TOP_KEYS:
            raise where.error((key,), f"unknown key {key!r}{closest(key, list(_TOP_KEYS))}; "
                              f"allowed: {', '.join(_TOP_KEYS[1:])}")
    rules = obj.get("rules")
    if not isinstance(rules, list):
        return
    for i, raw in enumerate(rules):
        if not isinstance(raw, dict):
            continue
        kind = raw.get("kind")
        if isinstance(kind, str) and kind not in KINDS:
            raise where.error(("rules", i, "kind"), f"unknown kind {kind!r}"
                              f"{closest(kind, list(KINDS))}; kinds: {', '.join(KINDS)}")
        allowed = _COMMON + _KIND_KEYS.get(kind, ()) if isinstance(kind, str) else ()
        for key in raw:
            if allowed and key not in allowed:
                raise where.error(("rules", i, key), f"unknown key {key!r} in a {kind} rule"
                                  f"{closest(key, list(allowed))}; allowed: {', '.join(allowed)}")


def _check_schema(obj: Mapping[str, Any], where: _Where) -> None:
    errors = sorted(validator(SCHEMA).iter_errors(dict(obj)), key=lambda e: list(map(str, e.path)))
    if not errors:
        return
    err = min(errors, key=lambda e: (where.position(tuple(e.path)), -len(e.path)))
    parts = tuple(err.path)
    label = "/".join(str(p) for p in parts) or "(top level)"
    message = err.message
    if err.validator == "const" and parts == ("schemaVersion",):
        message = f"schemaVersion {err.instance!r} is not supported; use 1"
    elif err.validator == "required" and not parts:
        message = f'{message}: a manifest is {{"schemaVersion": 1, "rules": [...]}}'
    elif err.validator == "pattern" and parts[-1:] == ("id",):
        message = ("a rule id is 1-100 letters, digits, '.', '_' or '-', starting with a letter "
                   "or digit")
    elif err.validator == "pattern":
        message = f"{err.instance!r} is not a dotted module name (a.b, a.*, a.**)"
    raise where.error(parts, f"{label}: {message}")


def _rule(raw: Mapping[str, Any], i: int, where: _Where) -> FitnessRule:
    kind = raw["kind"]
    at: Parts = ("rules", i)
    line = where.position((*at, "id"))[0]
    d_line, d_col = where.position((*at, "decision"))
    common = {
        "id": raw["id"],
        "decision": raw["decision"].strip(),
        "kind": kind,
        "description": raw.get("description"),
        "line": line,
        "decision_line": d_line,
        "decision_column": d_col,
    }
    if kind == "evidence":
        return FitnessRule(**common, **_evidence_fields(raw, at, where))
    paths = tuple(g.strip() for g in raw["paths"])
    for j, glob in enumerate(paths):
        problem = glob_problem(glob)
        if problem is not None:
            raise where.error((*at, "paths", j), f"glob {glob!r}: {problem}")
    if all(g.startswith("!") for g in paths):
        raise where.error((*at, "paths"), "every glob is a '!negation': name the paths first")
    if kind == "forbidden-text":
        try:
            compile_user(raw["pattern"], line_local=True)
        except UnsafePattern as exc:
            raise where.error((*at, "pattern"), f"pattern cannot be used: {exc}") from None
        return FitnessRule(**common, paths=paths, pattern=raw["pattern"])
    if kind == "forbidden-import":
        return FitnessRule(**common, paths=paths, modules=tuple(raw["modules"]),
                           ignore_type_checking=bool(raw.get("ignoreTypeChecking", False)))
    return FitnessRule(**common, paths=paths)


def _evidence_fields(raw: Mapping[str, Any], at: Parts, where: _Where) -> dict[str, Any]:
    given = raw["evidence"]
    files = (given,) if isinstance(given, str) else tuple(given)
    places: list[tuple[int, int]] = []
    for j, name in enumerate(files):
        parts: Parts = (*at, "evidence") if isinstance(given, str) else (*at, "evidence", j)
        if _GLOB_META.intersection(name):
            raise where.error(parts, f"evidence {name!r}: a file path, not a glob: name each "
                              "file")
        if name != name.strip():
            raise where.error(parts, f"evidence {name!r}: leading or trailing blanks")
        places.append(where.position(parts))
    if len(set(files)) != len(files):
        raise where.error((*at, "evidence"), "an evidence file is named twice")
    pointer = raw["pointer"]

    problem = pointer_problem(pointer)
    if problem is not None:
        raise where.error((*at, "pointer"), f"pointer {pointer!r}: {problem}")
    op, value = raw["op"], raw["value"]
    measure = raw.get("measure", "value")
    problem = _operand_problem(op, value, measure)
    if problem is not None:
        raise where.error((*at, "value"), problem)
    return {"evidence": files, "evidence_places": tuple(places), "pointer": pointer, "op": op,
            "value": value, "measure": measure}


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _operand_problem(op: str, value: Any, measure: str) -> str | None:
    if op in ("in", "not-in"):
        if not isinstance(value, list) or not value:
            return f"op {op!r} needs a non-empty array as value (the allowed values)"
        members = value
    else:
        members = [value]
    if op in ("<", "<=", ">", ">=") and not _is_number(value):
        return f"op {op!r} needs a number as value, not {json.dumps(value)[:60]}"
    if measure == "length" and not all(
        isinstance(m, int) and not isinstance(m, bool) and m >= 0 for m in members
    ):
        return "measure 'length' compares a count: the value must be a whole number (0 or more)"
    return None
