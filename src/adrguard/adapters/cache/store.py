"""Where the record cache lives, when a run uses it, and its store: entries in the user's cache
folder, by content.

Where (:func:`folder_for`, the one cache policy): ``ADRGUARD_CACHE_DIR``, else the ``cache-dir``
setting, else ``$XDG_CACHE_HOME/adrguard``, else ``~/.cache/adrguard`` — never inside the
repository being checked, so nothing a pull request commits can be read as a cache entry; and a
``cache-dir`` the repository's own configuration sets must lie inside the user's cache folder
(``$XDG_CACHE_HOME`` or ``~/.cache``), so a pull request cannot point the cache at a folder it
can fill (a second checkout, a shared ``/tmp``). ``--no-cache``, ``cache = false`` or
``ADRGUARD_NO_CACHE`` turn it off. When: a run opens the store at most once, when one of its
steps first asks (:class:`RunStore`), and closes it once at its end.

Entries are keyed by what they depend on (:mod:`adrguard.adapters.cache.keys`). The records of
one work tree live in one :class:`Pack` (a base file and a small delta), because creating a file
per record costs more than parsing it. Files are named by keys, opened relative to the cache
folder without following symlinks, written to a temporary name and renamed; a file or entry that
is missing, damaged, a symlink or for another record is a miss. A cache never changes a result:
a failure to read or write it only costs time.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import stat
from pathlib import Path
from typing import TYPE_CHECKING

from adrguard.core.errors import UserError
from adrguard.pathguard import cache_problem, is_inside

if TYPE_CHECKING:
    from adrguard.config import Config

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


def looks_cold(off: bool) -> bool:
    """Whether a run's record cache is probably empty, judged before anything else is read (a
    hint for speed alone, ADR 64: a wrong guess costs time, never a result): the cache is off
    (``off``: ``--no-cache``; ``ADRGUARD_NO_CACHE``), or the folder it is in when no
    ``cache-dir`` setting chooses another holds no entries yet (a first run, a fresh CI
    runner)."""
    if off or os.environ.get("ADRGUARD_NO_CACHE"):
        return True
    folder = _folder(os.environ.get("ADRGUARD_CACHE_DIR"), None)
    try:
        return not (folder / ENTRIES).is_dir()
    except (OSError, RuntimeError):  # no home folder to expand: the cache is off
        return True


def open_store(config: Config, repo_root: Path) -> Store | None:
    """The record cache's store for a run in ``repo_root``, or None when it is off
    (``--no-cache``, ``cache = false``, ``ADRGUARD_NO_CACHE``) or cannot be used (the one
    policy: :func:`folder_for`). Whatever is in the work tree may come from a pull request, so
    the cache is never inside it: a chosen folder there (``cache-dir``, ``ADRGUARD_CACHE_DIR``)
    is a configuration error, and the default one (a repository of the home folder) means
    running without a cache. A ``cache-dir`` set by the repository's own configuration must
    also lie inside the user's cache folder (:mod:`adrguard.pathguard`)."""
    directory = folder_for(config.cache, config.cache_dir, repo_root, config.source,
                           from_repository=config.repository_config)
    if directory is None:
        return None
    return Store.open(directory)


class RunStore:
    """The store of one run in ``repo_root``: decided and opened (:func:`open_store`) when a
    step first asks for it, at most once whatever it answered, and closed once when the run
    ends (:meth:`close`). A run that never asks never decides, as before one store a run: a
    cache setting it cannot use is an error only where a step reads the cache."""

    def __init__(self, config: Config, repo_root: Path) -> None:
        self._config, self._root = config, repo_root
        self._asked = False
        self._store: Store | None = None

    def get(self) -> Store | None:
        """The store (None: the run goes without a cache)."""
        if not self._asked:
            self._store = open_store(self._config, self._root)
            self._asked = True
        return self._store

    def close(self) -> None:
        if self._store is not None:
            self._store.close()
            self._store = None


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
