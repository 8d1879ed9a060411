"""What an entry of the record cache (:mod:`adrguard.adapters.cache.store`) is keyed by:
everything a parse depends on.

A record's entry is keyed by a SHA-256 over its bytes, path, root and archive flag, and the
parser's signature (:func:`parser_signature`: adrguard's version and parser source, the pyromark,
PyYAML, msgspec and Python versions), with the parse options (:func:`options_key`). Other answers
kept in the store write what they depend on out canonically (:func:`canonical`); a value that
cannot be written out faithfully is :class:`Uncacheable`: nothing is kept, never a guess.
"""

from __future__ import annotations

import enum
import errno
import functools
import hashlib
import json
import os
import sys
from collections.abc import Mapping
from dataclasses import fields, is_dataclass
from pathlib import Path
from typing import Any

import msgspec

from adrguard import __version__
from adrguard.adapters.cache.store import FORMAT, digest, key
from adrguard.core.model import Decision
from adrguard.core.options import Options, Vocabulary

RECORD_KEY = b"record key 2\0"  # the layout of a record's key (a new layout: a new tag)


def record_key(
    signature: bytes, data: bytes, path: str, root: str, archived: bool
) -> tuple[bytes, Any]:
    """(the key of one record's entry, the SHA-256 of the record's bytes alone): one hash of
    the bytes, then of the path, root and archive flag (each ended by a NUL: paths hold none),
    the bytes' length (8 bytes), the layout's tag and the parser's signature (of fixed length,
    so the text reads back from its end unambiguously). The second is the hash object of the
    bytes before the rest was added: its ``hexdigest()`` is the record's ``Decision.sha256``
    when the bytes hold no carriage return, so a record parsed after a miss is not hashed a
    second time (:attr:`adrguard.core.model.SourceFile.sha256`)."""
    content = hashlib.sha256(data)
    whole = content.copy()
    names = f"{path}\0{root}\0{'a' if archived else ''}\0".encode("utf-8", "surrogateescape")
    whole.update(names + len(data).to_bytes(8, "big") + RECORD_KEY + signature)
    return whole.digest(), content


class Uncacheable(Exception):
    """A value :func:`canonical` cannot write out faithfully."""


def canonical(value: Any) -> Any:
    """``value`` as plain JSON-able data that two equal values write out the same way in any
    process (sets sorted, mappings as sorted pairs, dataclasses by every compared field, a
    record by path, root, archive flag and content digest, the options by :func:`options_key`
    and the day). :class:`Uncacheable` otherwise."""
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, enum.Enum):
        return [type(value).__name__, canonical(value.value)]
    if isinstance(value, (int, float)):
        return [type(value).__name__, repr(value)]
    if isinstance(value, bytes):
        return ["bytes", digest(value).hex()]
    if isinstance(value, Decision):
        if not value.sha256:
            raise Uncacheable("a record without a content digest")
        return ["record", value.path, value.root, value.archived, value.sha256]
    if isinstance(value, Vocabulary):
        return ["vocabulary", canonical(dict(value))]
    if isinstance(value, Options):  # written out once a run (options_key), and the day apart
        return ["options", options_key(value), canonical(value.today)]
    if is_dataclass(value) and not isinstance(value, type):
        return [type(value).__name__,
                [[f.name, canonical(getattr(value, f.name))] for f in fields(value) if f.compare]]
    if isinstance(value, msgspec.Struct):
        return _struct(value)
    if isinstance(value, (tuple, list)):
        return [type(value).__name__, [canonical(v) for v in value]]
    if isinstance(value, (set, frozenset)):
        items = [canonical(v) for v in value]
        return ["set", sorted(items, key=_quoted if all(map(_plain, items)) else order)]
    if isinstance(value, Mapping):
        pairs = [[canonical(k), canonical(v)] for k, v in value.items()]
        plain = all(_plain(k) for k, _v in pairs)
        return ["map", sorted(pairs, key=_quoted_key if plain else order)]
    raise Uncacheable(f"cannot key a {type(value).__name__}")


def _struct(value: msgspec.Struct) -> list[Any]:
    """A struct by its type's name and every field (every field of a struct is compared)."""
    return [type(value).__name__, [[name, canonical(getattr(value, name))]
                                   for name in value.__struct_fields__]]


# Sorting by :func:`order` writes every item out as JSON. A string JSON writes as it is, in
# quotes (nothing to escape: no quote, backslash or control character), sorts the same by
# itself followed by the closing quote, without writing anything out.
def _plain(item: Any) -> bool:
    return isinstance(item, str) and item.isprintable() and '"' not in item and "\\" not in item


def _quoted(item: str) -> str:
    return item + '"'


def _quoted_key(pair: list[Any]) -> str:
    """A pair of a mapping by its key (the keys of a mapping differ, so the key decides)."""
    return f'{pair[0]}"'


def order(item: Any) -> str:
    """A canonical value as one string (the form keys and sorting use)."""
    return json.dumps(item, sort_keys=True, ensure_ascii=False)


def options_key(options: Options) -> str:
    """The parse options, canonically: what a parsed record (the record cache), its facts and a
    sampled file's answer (root detection) depend on besides the file and the code. ``today``
    only matters to rules (ADR109): leaving it out keeps parsed records valid from one day to
    the next. :class:`Uncacheable` when an option cannot be written out faithfully. Worked out
    once per run (kept on the options)."""
    return options.derived("options key", lambda: json.dumps(
        _struct(msgspec.structs.replace(options, today=None)), ensure_ascii=True))


@functools.cache
def parser_signature() -> str:
    """adrguard's version and parser source (every module of ``core``, by :func:`source_stamp`),
    the installed libraries that parse and encode (pyromark, PyYAML, msgspec) and Python's
    version."""
    core = Path(__file__).resolve().parents[2] / "core"
    parts: list[str | bytes] = [FORMAT, __version__, sys.version, sys.platform]
    parts += [_installed(name) for name in ("pyromark", "yaml", "msgspec")]
    parts += source_stamp(core)
    return key(*parts)


def source_stamp(folder: Path) -> list[str]:
    """Each Python file below ``folder``: its relative path, size and modification time. A
    changed file is another stamp, by the test Python itself uses to decide that a module's
    cached bytecode is stale (size and modification time), so a stamp that still matches
    means Python runs the old code too; this reads no file (reading and hashing them cost
    more than a warm hook spends on its records)."""
    found: list[tuple[tuple[str, ...], str]] = []
    _python_files(os.fspath(folder), (), found)
    out = []
    for parts, path in sorted(found):  # by parts, as ``sorted(folder.rglob("*.py"))``
        st = os.stat(path)
        out.append(f"{'/'.join(parts)} {st.st_size} {st.st_mtime_ns}")
    return out


def module_stamp(source: str) -> str | None:
    """One module's source by size and modification time (as :func:`source_stamp` stamps each
    file): for an answer kept in the store that a module outside ``core`` works out; None when
    the file cannot be read (an install without sources: such an answer is not kept)."""
    try:
        st = os.stat(source)
    except OSError:
        return None
    return f"{st.st_size} {st.st_mtime_ns}"


def _python_files(folder: str, parts: tuple[str, ...],
                  out: list[tuple[tuple[str, ...], str]]) -> None:
    """What ``Path(folder).rglob("*.py")`` yields, by one ``os.scandir`` a folder (pathlib
    lists each folder twice and matches each name by a regex): every entry whose name ends in
    ``.py``, and the same below every subfolder that is not a symlink; a folder that cannot
    be listed holds nothing. ``out`` gets each one's parts below the top and its path."""
    try:
        with os.scandir(folder) as listing:
            entries = list(listing)
    except PermissionError:
        return
    for entry in entries:
        if entry.name.endswith(".py"):
            out.append(((*parts, entry.name), entry.path))
    for entry in entries:
        try:
            below = entry.is_dir() and not entry.is_symlink()
        except OSError as exc:
            if exc.errno not in _IGNORED_ERRNOS:
                raise
            below = False
        if below:
            _python_files(entry.path, (*parts, entry.name), out)


# the errors pathlib's glob passes over when it asks whether an entry is a folder
_IGNORED_ERRNOS = frozenset((errno.ENOENT, errno.ENOTDIR, errno.EBADF, errno.ELOOP))


def installed(name: str) -> str:
    """:func:`_installed`: which copy of the library ``name`` is installed."""
    return _installed(name)


def _installed(name: str) -> str:
    """Which copy of a library is installed: its folder and the name, size and modification
    time of each of its files. Another version (or a reinstall) writes other files, so it is
    another key; this reads no library code (importing them, or importlib.metadata, costs more
    than a warm run spends parsing)."""
    from importlib.util import find_spec

    spec = find_spec(name)
    if spec is None or spec.origin is None:
        return f"{name}: absent"
    folder = os.path.dirname(spec.origin)
    parts = [f"{name}: {folder}"]
    with os.scandir(folder) as entries:
        for entry in sorted(entries, key=lambda e: e.name):
            if entry.is_file():
                st = entry.stat()
                parts.append(f"{entry.name} {st.st_size} {st.st_mtime_ns}")
    return "\n".join(parts)
