"""The record cache: parsed records (and git listings) in the user's cache folder, by content.

Where: ``ADRGUARD_CACHE_DIR``, else the ``cache-dir`` setting, else ``$XDG_CACHE_HOME/adrguard``,
else ``~/.cache/adrguard`` — never inside the repository being checked, so nothing a pull request
commits can be read as a cache entry; and a ``cache-dir`` the repository's own configuration
sets must lie inside the user's cache folder (``$XDG_CACHE_HOME`` or ``~/.cache``), so a pull
request cannot point the cache at a folder it can fill (a second checkout, a shared ``/tmp``).
``--no-cache``, ``cache = false`` or ``ADRGUARD_NO_CACHE`` turn it off.

A record's entry is keyed by a SHA-256 over everything the parse depends on: its bytes, path,
root and archive flag, and the parser's signature (adrguard's version and parser source, the
pyromark, PyYAML, msgspec and Python versions, the parse options). The entries of one work tree
live in one :class:`Pack` (a base file and a small delta), because creating a file per record
costs more than parsing it. Files are named by keys, opened relative to the cache folder without
following symlinks, written to a temporary name and renamed; a file or entry that is missing,
damaged, a symlink or for another record is a miss. A cache never changes a result: a failure to
read or write it only costs time.
"""

from __future__ import annotations

import contextlib
import enum
import errno
import functools
import hashlib
import json
import os
import stat
import sys
from collections.abc import Mapping
from dataclasses import fields, is_dataclass
from pathlib import Path
from typing import Any

import msgspec

from adrguard import __version__
from adrguard.core.errors import UserError
from adrguard.core.model import Decision
from adrguard.core.options import Options, Vocabulary
from adrguard.pathguard import cache_problem, is_inside

FORMAT = b"adrguard-cache 1\n"
TAG = "Signature: 8a477f597d28d172789f06886806bc55\n# adrguard cache: safe to delete.\n"
ENTRIES = "v1"  # folder of the entries (a new layout gets a new name)
MAX_ENTRY = 64 * 1024 * 1024
_DIR_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0)
_READ_FLAGS = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
_WRITE_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)


def supported() -> bool:
    """Whether this platform can open files relative to a folder without following symlinks
    (elsewhere the cache stays off)."""
    return (
        hasattr(os, "O_NOFOLLOW")
        and hasattr(os, "O_DIRECTORY")
        and os.open in os.supports_dir_fd
        and os.mkdir in os.supports_dir_fd
        and os.rename in os.supports_dir_fd  # os.replace takes the same dir_fd arguments
    )


def _folder(chosen: str | None, setting: str | None) -> Path:
    """``chosen`` (``ADRGUARD_CACHE_DIR``), else the ``cache-dir`` setting, else
    ``$XDG_CACHE_HOME/adrguard``, else ``~/.cache/adrguard``."""
    explicit = chosen or setting
    if explicit:
        return Path(explicit).expanduser()
    return user_cache_home() / "adrguard"


def folder_for(
    enabled: bool,
    setting: str | None,
    repo_root: Path,
    source: str | None = None,
    *,
    from_repository: bool,
) -> Path | None:
    """The one cache policy, for every user of the cache (the record cache, the model's answers,
    the read guard's setup and session counters): the folder of a run in ``repo_root``, or None
    to run without a cache. ``enabled``: what the configuration says (``--no-cache`` and
    ``cache = false`` turn it off); ``ADRGUARD_NO_CACHE`` turns it off too. Only this module
    reads the cache's environment.

    Whatever is in the work tree may come from a pull request, so: a chosen folder inside the
    work tree (``setting``, ``ADRGUARD_CACHE_DIR``) is a :class:`UserError`, the default one
    there (a repository of the home folder) means no cache, and a ``setting`` from a
    configuration file inside the repository (``from_repository``; ``source`` names it) must
    resolve inside the user's cache folder (:func:`adrguard.pathguard.cache_problem`), else a
    :class:`UserError`."""
    if not enabled or os.environ.get("ADRGUARD_NO_CACHE"):
        return None

    chosen = os.environ.get("ADRGUARD_CACHE_DIR")  # read once for this choice
    directory = _folder(chosen, setting)
    if setting and from_repository and not chosen:
        problem = cache_problem(directory, user_cache_home())
        if problem is not None:
            raise UserError(
                f"{source or 'configuration'}: cache-dir {setting!r} {problem}; choose one "
                "there, set ADRGUARD_CACHE_DIR, or run with --no-cache"
            )
    if is_inside(os.path.realpath(directory), os.path.realpath(repo_root)):
        if not (chosen or setting):
            return None  # the default folder: nobody chose it
        raise UserError(
            f"the cache folder {directory} is inside the repository {repo_root}: set cache-dir "
            "(or ADRGUARD_CACHE_DIR) to a folder outside it, or run with --no-cache"
        )
    return directory


def user_cache_home() -> Path:
    """The user's cache folder: ``$XDG_CACHE_HOME`` (when absolute), else ``~/.cache``."""
    xdg = os.environ.get("XDG_CACHE_HOME")
    return Path(xdg) if xdg and os.path.isabs(xdg) else Path.home() / ".cache"


def digest(*parts: str | bytes) -> bytes:
    """A SHA-256 over the parts (each length-prefixed, so different part lists never collide)."""
    hasher = hashlib.sha256()
    for part in parts:
        data = part.encode("utf-8", "surrogateescape") if isinstance(part, str) else part
        hasher.update(b"%d:" % len(data))
        hasher.update(data)
    return hasher.digest()


def key(*parts: str | bytes) -> str:
    """:func:`digest` in hex: the name of a file in the store."""
    return digest(*parts).hex()


class Store:
    """Entries below one cache folder; every call fails quietly (a miss, or nothing written)."""

    def __init__(self, top: int) -> None:
        self._top = top  # descriptor of the ENTRIES folder
        self._dirs: dict[str, int] = {}
        self._packs: dict[str, Pack] = {}

    @classmethod
    def open(cls, directory: Path) -> Store | None:
        """The store in ``directory`` (created with its CACHEDIR.TAG), or None when it cannot be
        used. ``directory`` itself may be a symlink (the user chose it); nothing below is
        followed."""
        if not supported():
            return None
        try:
            os.makedirs(directory, mode=0o700, exist_ok=True)
            top = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
        except OSError:
            return None
        try:
            _write_tag(top)
            entries = _subdir(top, ENTRIES)
        except OSError:
            entries = None
        finally:
            os.close(top)
        return None if entries is None else cls(entries)

    def close(self) -> None:
        for fd in self._dirs.values():
            os.close(fd)
        self._dirs.clear()
        self._packs.clear()
        if self._top >= 0:
            os.close(self._top)
            self._top = -1

    def pack(self, name: str) -> Pack:
        """The pack ``name`` of this store, read once while the store is open: several reads of
        one run (the work tree, then the tree before its change) share what it holds."""
        pack = self._packs.get(name)
        if pack is None:
            pack = self._packs[name] = Pack(self, name)
        return pack

    def _folder(self, name: str) -> int | None:
        fd = self._dirs.get(name)
        if fd is None:
            try:
                fd = _subdir(self._top, name)
            except OSError:
                return None
            self._dirs[name] = fd
        return fd

    def get(self, entry: str) -> bytes | None:
        """The value stored under the key ``entry``, or None."""
        folder = self._folder(entry[:2])
        if folder is None:
            return None
        try:
            fd = os.open(entry[2:], _READ_FLAGS, dir_fd=folder)
        except OSError:
            return None
        head = FORMAT + entry.encode("ascii") + b"\n"
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_ENTRY:
                return None
            # the header, then the value in a read of its own (no copy of a large pack)
            if _read_exactly(fd, len(head)) != head:
                return None
            return _read_exactly(fd, st.st_size - len(head))
        except OSError:
            return None
        finally:
            os.close(fd)

    def put(self, entry: str, value: bytes) -> None:
        """Store ``value`` under the key ``entry``: a temporary file, then a rename."""
        folder = self._folder(entry[:2])
        if folder is None:
            return
        name = entry[2:]
        tmp = f".{name}.{os.getpid()}.{os.urandom(4).hex()}.tmp"
        try:
            fd = os.open(tmp, _WRITE_FLAGS, 0o600, dir_fd=folder)
        except OSError:
            return
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(FORMAT + entry.encode("ascii") + b"\n")
                fh.write(value)  # not joined to the header: a pack is tens of megabytes
            os.replace(tmp, name, src_dir_fd=folder, dst_dir_fd=folder)
        except OSError:
            with contextlib.suppress(OSError):
                os.unlink(tmp, dir_fd=folder)

    def drop(self, entry: str) -> None:
        """Remove the entry ``entry`` (nothing when it is not there)."""
        folder = self._folder(entry[:2])
        if folder is not None:
            with contextlib.suppress(OSError):
                os.unlink(entry[2:], dir_fd=folder)


class Answers:
    """Model answers kept for a while (issue 31), in the same store as the records.

    One entry per question (its name: :func:`adrguard.core.agent.judge.cache_key`, a hash of the
    context, the candidate ids, the provider, endpoint and model), holding when it was stored,
    each candidate's content digest and the validated judgments. An entry older than the TTL,
    stored "in the future" (the clock went back), damaged, or made when any candidate's content
    was different is dropped, and the question is asked again. Neither the key nor the prompt
    is stored."""

    FORMAT = 1

    def __init__(self, store: Store) -> None:
        self._store = store

    @staticmethod
    def _entry(name: str) -> str:
        return key("answers", name)

    def get(
        self, name: str, digests: dict[str, str], now: float, ttl: float
    ) -> list[dict[str, object]] | None:
        """The judgments stored for ``name`` if still good (see the class docstring)."""
        import json

        entry = self._entry(name)
        blob = self._store.get(entry)
        if blob is None:
            return None
        try:
            data = json.loads(blob)
            stored = float(data["stored"])
            same = data["v"] == self.FORMAT and data["digests"] == digests
            judgments = data["judgments"]
            good = same and isinstance(judgments, list) and 0 <= now - stored < ttl
        except (ValueError, KeyError, TypeError, RecursionError):
            good = False
        if not good:
            self._store.drop(entry)
            return None
        return [j for j in judgments if isinstance(j, dict)]

    def put(
        self, name: str, digests: dict[str, str], now: float, judgments: list[dict[str, object]]
    ) -> None:
        import json

        data = {"v": self.FORMAT, "stored": now, "digests": digests, "judgments": judgments}
        self._store.put(self._entry(name), json.dumps(data, sort_keys=True).encode("utf-8"))

    def close(self) -> None:
        """Close the store it lives in."""
        self._store.close()


def record_digest(signature: bytes, data: bytes, path: str, root: str, archived: bool) -> bytes:
    """The key of one record's entry: a SHA-256 of the parser's signature (of fixed length), the
    path, root and archive flag, each ended by a NUL (paths hold none), then the record's bytes.
    One hash of it all: a hash of the bytes hashed again with the rest cost a second hash
    object per record (a few thousand instructions each), for the same strength."""
    names = f"{path}\0{root}\0{'a' if archived else ''}\0".encode("utf-8", "surrogateescape")
    return hashlib.sha256(signature + names + data).digest()


class Pack:
    """The cached records of one corpus: entry digest -> encoded record, kept in two files of
    the store, a base and a delta. Reading a corpus's records is two file reads. A run that
    added records (or stopped using some) writes only the delta while it stays small (an edit
    rewrites a few kilobytes, not the whole corpus), else the base again with exactly this run's
    records, so the pack never grows beyond the corpus by more than an eighth."""

    def __init__(self, store: Store, name: str) -> None:
        self._store, self._name, self._delta = store, name, key(name, "delta")
        self._base = _decode_pack(store.get(self._name))
        delta = store.get(self._delta)
        self._has_delta = bool(delta)
        self._old = {**self._base, **_decode_pack(delta)}
        self._used: dict[bytes, bytes] = {}
        self._added = False

    def get(self, entry: bytes) -> bytes | None:
        blob = self._old.get(entry)
        if blob is not None:
            self._used[entry] = blob
        return blob

    def put(self, entry: bytes, blob: bytes) -> None:
        self._used[entry] = blob
        self._added = True

    def save(self) -> None:
        if not self._added and len(self._used) == len(self._old):
            return
        import msgspec

        base = self._base
        fresh = {k: v for k, v in self._used.items() if base.get(k) is not v}
        stale = len(base) - (len(self._used) - len(fresh))  # in the base, not used any more
        if len(fresh) + stale <= len(base) // 8:
            self._store.put(self._delta, msgspec.msgpack.encode(fresh))
        else:
            self._store.put(self._name, msgspec.msgpack.encode(self._used))
            if self._has_delta:  # folded into the base now
                self._store.put(self._delta, msgspec.msgpack.encode({}))


def _decode_pack(data: bytes | None) -> dict[bytes, bytes]:
    if data is None:
        return {}
    import msgspec

    try:
        return msgspec.msgpack.decode(data, type=dict[bytes, bytes])
    except (msgspec.DecodeError, msgspec.ValidationError):
        return {}


def _read_exactly(fd: int, size: int) -> bytes | None:
    """``size`` bytes from ``fd`` (None when the file ends sooner, e.g. cut short meanwhile)."""
    data = os.read(fd, size) if size > 0 else b""
    while 0 < len(data) < size:  # a short read: rare, so the copy is too
        more = os.read(fd, size - len(data))
        if not more:
            break
        data += more
    return data if len(data) == size else None


def _subdir(parent: int, name: str) -> int:
    """A folder below ``parent`` (created if missing), opened without following a symlink."""
    try:
        return os.open(name, _DIR_FLAGS, dir_fd=parent)
    except FileNotFoundError:
        with contextlib.suppress(FileExistsError):
            os.mkdir(name, 0o700, dir_fd=parent)
        return os.open(name, _DIR_FLAGS, dir_fd=parent)


def _write_tag(top: int) -> None:
    """CACHEDIR.TAG (https://bford.info/cachedir/), so backup tools skip the folder."""
    try:
        fd = os.open("CACHEDIR.TAG", _WRITE_FLAGS, 0o644, dir_fd=top)
    except FileExistsError:
        return
    with os.fdopen(fd, "w", encoding="ascii") as fh:
        fh.write(TAG)


# --- what a parse depends on: canonical values, the parser's signature -------------------------


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
    core = Path(__file__).resolve().parent.parent / "core"
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
