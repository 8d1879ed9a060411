"""The impact manifest (``.adrguard-impact.json``): model and validation. Pure.

A manifest names components (``{name: [globs]}``) and maps decisions to paths and components.
Every problem is a :class:`ManifestError` whose message starts ``path:line:column:`` and says
what to change: the manifest is configuration, so a broken one stops the run (exit 2).
"""

from __future__ import annotations

import contextlib
import difflib
import json
from bisect import bisect_right
from collections.abc import Mapping
from typing import Any

import msgspec

from adrguard.core.errors import UserError
from adrguard.core.impact.globs import Compiled, compiled_globs, glob_problem
from adrguard.core.model import Corpus
from adrguard.core.options import Options, manifest_path
from adrguard.core.schemas import load_json, validator

SCHEMA = "impact-manifest.schema.json"
_TOP_KEYS = ("$schema", "schemaVersion", "components", "mappings")
_MAPPING_KEYS = ("decision", "paths", "components", "note")
_SPACE = " \t\r\n\ufeff"  # what JSON allows between tokens (and a byte-order mark)
_SCALAR_END = ",]} \t\r\n"  # what ends a number, true, false or null


def space_end(text: str, i: int) -> int:
    """Where the blanks from ``i`` on end (short runs: a loop costs what a pattern does)."""
    n = len(text)
    while i < n and text[i] in _SPACE:
        i += 1
    return i


def scalar_end(text: str, i: int) -> int:
    """Where the scalar (a number, ``true``, ``false``, ``null``) from ``i`` on ends."""
    n = len(text)
    while i < n and text[i] not in _SCALAR_END:
        i += 1
    return i


class ManifestError(UserError):
    """The impact manifest cannot be used; the message names the place and the fix."""


class MappingEntry(msgspec.Struct, frozen=True):
    decision: str  # as written: an id or a repo-relative path
    paths: tuple[str, ...]  # globs as written, ``!glob`` negations included
    components: tuple[str, ...]
    note: str | None
    line: int  # line of the mapping's "decision" value
    column: int = 1


class Manifest(msgspec.Struct, frozen=True):
    path: str
    components: Mapping[str, tuple[str, ...]] = msgspec.field(default_factory=dict)
    mappings: tuple[MappingEntry, ...] = ()
    component_lines: Mapping[str, int] = msgspec.field(default_factory=dict)

    def globs(self, entry: MappingEntry) -> tuple[str, ...]:
        """The entry's ordered glob list: its components' globs, then its own paths."""
        out: list[str] = []
        for name in entry.components:
            out.extend(self.components.get(name, ()))
        out.extend(entry.paths)
        return tuple(out)


def manifest_of(corpus: Corpus, options: Options) -> Manifest | None:
    """The corpus's impact manifest (discovery keeps its bytes in ``other_texts``), parsed;
    None when the repository has none. Parsed once per corpus (kept on it: the ADR5xx rules
    of one run all ask)."""
    path = manifest_path(options)
    data = corpus.other_texts.get(path)
    if data is None:
        return None
    return corpus.derived(_derived_name(path),
                          lambda: parse_manifest(path, bytes(data), compiled_globs(corpus)))


def _derived_name(path: str) -> str:
    return f"impact manifest {path}"


def parsed_manifest(corpus: Corpus, options: Options) -> Manifest | None:
    """The manifest :func:`manifest_of` parsed for ``corpus`` so far (None when it has not,
    or when the manifest was not valid): what a record cache may keep for its bytes."""
    found = corpus.derived_so_far(_derived_name(manifest_path(options)))
    return found if isinstance(found, Manifest) else None


def give_manifest(corpus: Corpus, options: Options, manifest: Manifest) -> None:
    """Hand ``corpus`` the manifest :func:`parse_manifest` made from exactly the bytes its
    ``other_texts`` hold (a record cache kept it, ADR 53): :func:`manifest_of` then answers
    with it instead of parsing those bytes again. The caller vouches for the bytes; the path
    must be the one ``options`` name."""
    path = manifest_path(options)
    if manifest.path != path or path not in corpus.other_texts:
        raise ValueError(f"a manifest of {manifest.path} given for {path}")
    corpus.derived(_derived_name(path), lambda: manifest)


def parse_manifest(path: str, data: bytes, memo: Compiled | None = None) -> Manifest:
    """Validate and load a manifest; raise :class:`ManifestError` on the first problem.
    ``memo``: the run's compiled globs (:func:`~adrguard.core.impact.globs.compiled_globs`);
    without it, each distinct glob is still compiled once."""
    memo = {} if memo is None else memo
    try:
        text, obj = load_manifest_json(data)
    except ManifestSyntax as exc:
        place = f"{path}:{exc.line}:{exc.column}" if exc.line is not None else path
        raise ManifestError(f"{place}: {exc.message}") from None
    where = _Locator(path, text)
    if not isinstance(obj, dict):
        raise ManifestError(f"{where.at(())}: the manifest must be a JSON object")
    _check_unknown_keys(obj, where)
    _check_schema(obj, where)
    components = {str(k): tuple(v) for k, v in obj.get("components", {}).items()}
    for name, globs in components.items():
        for i, glob in enumerate(globs):
            _check_glob(glob, where, ("components", name, i), memo)
    entries: list[MappingEntry] = []
    for i, raw in enumerate(obj.get("mappings", [])):
        for j, glob in enumerate(raw.get("paths", [])):
            _check_glob(glob, where, ("mappings", i, "paths", j), memo)
        for j, name in enumerate(raw.get("components", [])):
            if name not in components:
                hint = _closest(name, list(components)) or ' (declare it under "components")'
                place = where.at(("mappings", i, "components", j))
                raise ManifestError(f"{place}: unknown component {name!r}{hint}")
        line, column = where.position(("mappings", i, "decision"))
        entries.append(
            MappingEntry(
                decision=raw["decision"].strip(),
                paths=tuple(g.strip() for g in raw.get("paths", [])),
                components=tuple(raw.get("components", [])),
                note=raw.get("note"),
                line=line,
                column=column,
            )
        )
    return Manifest(
        path=path,
        components={k: tuple(g.strip() for g in v) for k, v in components.items()},
        mappings=tuple(entries),
        component_lines={k: where.position(("components", k))[0] for k in components},
    )


class ManifestSyntax(ValueError):
    """The bytes of a JSON manifest are not a document adrguard reads: ``message`` says what
    to change, at ``line`` and ``column`` (None: the file as a whole)."""

    def __init__(self, message: str, line: int | None = None, column: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column


def load_manifest_json(data: bytes) -> tuple[str, Any]:
    """The text and the JSON value of a manifest (the impact and the fitness manifest): UTF-8,
    a BOM allowed, every key of an object once; :class:`ManifestSyntax` on the first problem."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ManifestSyntax(f"not UTF-8 (byte {exc.start}); save it as UTF-8") from None
    try:
        return text, load_json(text, object_pairs_hook=_reject_duplicates)
    except json.JSONDecodeError as exc:
        raise ManifestSyntax(f"not valid JSON ({exc.msg}); fix the syntax there", exc.lineno,
                             exc.colno) from None
    except _DuplicateKey as exc:
        raise ManifestSyntax(f"key {exc.args[0]!r} appears twice; keep one") from None
    except (RecursionError, ValueError):
        raise ManifestSyntax("nested too deeply (or a number too long) to be a manifest") from None


class _DuplicateKey(ValueError):
    pass


def _reject_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    for key, value in pairs:
        if key in seen:
            raise _DuplicateKey(key)
        seen[key] = value
    return seen


def _closest(key: str, valid: list[str]) -> str:
    match = difflib.get_close_matches(key, valid, n=1, cutoff=0.5)
    return f" (did you mean {match[0]!r}?)" if match else ""


def _check_unknown_keys(obj: Mapping[str, Any], where: _Locator) -> None:
    for key in obj:
        if key not in _TOP_KEYS:
            raise ManifestError(
                f"{where.at((key,))}: unknown key {key!r}{_closest(key, list(_TOP_KEYS))}; "
                f"allowed: {', '.join(_TOP_KEYS[1:])}"
            )
    mappings = obj.get("mappings")
    if isinstance(mappings, list):
        for i, entry in enumerate(mappings):
            if not isinstance(entry, dict):
                continue
            for key in entry:
                if key not in _MAPPING_KEYS:
                    raise ManifestError(
                        f"{where.at(('mappings', i, key))}: unknown key {key!r} in a mapping"
                        f"{_closest(key, list(_MAPPING_KEYS))}; allowed: {', '.join(_MAPPING_KEYS)}"
                    )


def _check_schema(obj: Mapping[str, Any], where: _Locator) -> None:
    """Valid when the typed model accepts it (see :mod:`adrguard.core.typed`), else jsonschema
    says what is wrong and where."""
    from adrguard.core.typed import ManifestFile, conforms

    if conforms(obj, ManifestFile):
        return

    errors = sorted(validator(SCHEMA).iter_errors(dict(obj)), key=lambda e: list(map(str, e.path)))
    if not errors:
        return
    err = errors[0]
    parts = tuple(err.path)
    label = "/".join(str(p) for p in parts) or "(top level)"
    message = err.message
    if err.validator == "anyOf" and parts[:1] == ("mappings",):
        message = 'a mapping needs "paths" or "components" (or both)'
    elif err.validator == "const" and parts == ("schemaVersion",):
        message = f"schemaVersion {err.instance!r} is not supported; use 1"
    elif err.validator == "required" and not parts:
        message = '"schemaVersion": 1 is required'
    raise ManifestError(f"{where.at(parts)}: {label}: {message}")


def _check_glob(
    glob: str, where: _Locator, parts: tuple[str | int, ...], memo: Compiled
) -> None:
    problem = glob_problem(glob.strip(), memo)
    if problem is not None:
        raise ManifestError(f"{where.at(parts)}: glob {glob!r}: {problem}")


class _Locator:
    """Line and column of every value in a JSON text that ``json.loads`` accepted.

    The first walk records the places at most three levels deep (what a valid manifest asks
    for: each mapping's keys, each component) and steps over deeper values with the C
    decoder; the first question about a deeper place walks everything.
    """

    _SHALLOW = 3

    def __init__(self, path: str, text: str) -> None:
        self.path = path
        self.text = text
        self._line_starts = [0]
        end = text.find("\n")
        while end >= 0:
            self._line_starts.append(end + 1)
            end = text.find("\n", end + 1)
        self._skip_value = json.JSONDecoder().raw_decode
        self._walk(self._SHALLOW)

    def _walk(self, depth: int) -> None:
        self._pos: dict[tuple[str | int, ...], int] = {}
        self._depth = depth
        with contextlib.suppress(IndexError, ValueError, RecursionError):  # positions: a nicety
            self._value(0, ())

    def position(self, parts: tuple[str | int, ...]) -> tuple[int, int]:
        if len(parts) > self._depth:
            self._walk(len(self.text) + 1)  # deeper than any value can be
        while parts and parts not in self._pos:
            parts = parts[:-1]
        index = self._pos.get(parts, 0)
        line = bisect_right(self._line_starts, index)
        return line, index - self._line_starts[line - 1] + 1

    def at(self, parts: tuple[str | int, ...]) -> str:
        line, column = self.position(parts)
        return f"{self.path}:{line}:{column}"

    def _skip(self, i: int) -> int:
        return space_end(self.text, i)

    def _string(self, i: int) -> tuple[str, int]:
        value, end = self._skip_value(self.text, i)  # a JSON string, decoded in C
        return str(value), int(end)

    def _value(self, i: int, parts: tuple[str | int, ...]) -> int:
        i = self._skip(i)
        self._pos.setdefault(parts, i)
        char = self.text[i]
        if char == '"':
            return self._string(i)[1]
        if char not in "{[":
            return scalar_end(self.text, i)
        if len(parts) >= self._depth:  # nothing inside is recorded: step over it in C
            return int(self._skip_value(self.text, i)[1])
        closing = "}" if char == "{" else "]"
        i = self._skip(i + 1)
        index = 0
        while self.text[i] != closing:
            if char == "{":
                key, after = self._string(i)
                self._pos[(*parts, key)] = i
                i = self._value(self._skip(after) + 1, (*parts, key))
            else:
                i = self._value(i, (*parts, index))
                index += 1
            i = self._skip(i)
            if self.text[i] == ",":
                i = self._skip(i + 1)
        return i + 1


# Shared with the other JSON manifest adrguard reads (core/fitness/manifest.py): positions of
# values and the closest valid key suggested (and load_manifest_json: duplicate keys refused).
Locator = _Locator
closest = _closest
