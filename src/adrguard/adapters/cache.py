"""The caches in ``.adrguard_cache/``: parsed records keyed by content, tool and config, and
(see the end of this module and ADR 8) whole check results and git listings.

Keyed by the SHA-256 of each file's bytes, the tool version, the model layout and a hash of the
configuration — never by mtime, which CI checkouts reset. The file is JSON (never pickle: a pull
request could commit a cache, and loading it must not run code). A corrupt, foreign or
mismatched cache is ignored and rebuilt, never trusted. Writes are atomic; the folder carries a
CACHEDIR.TAG and its own ``.gitignore``. This folder is the only thing ``check`` ever writes, and
``--no-cache`` (or ``cache = false``) turns that off.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import zlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from adrguard import __version__
from adrguard.core.model import Decision

CACHE_DIR = ".adrguard_cache"
FORMAT = 1
TAG = "Signature: 8a477f597d28d172789f06886806bc55\n# adrguard parse cache: safe to delete.\n"


def content_hash(data: bytes | None) -> str:
    return hashlib.sha256(data).hexdigest() if data is not None else ""


def code_signature() -> str:
    """A hash of the parser's own source, so a changed parser never reuses old results (the
    version alone does not change between development builds)."""
    core = Path(__file__).resolve().parent.parent / "core"
    digest = hashlib.sha256()
    for path in sorted(core.glob("*.py")):
        digest.update(path.name.encode("utf-8") + b"\0" + path.read_bytes())
    return digest.hexdigest()


def cache_key(config_fingerprint: str) -> str:
    from adrguard.core.serialize import model_signature

    raw = "\0".join(
        [__version__, str(FORMAT), model_signature(), code_signature(), config_fingerprint]
    )
    return hashlib.sha256(raw.encode("utf-8")).hexdigest()[:24]


SHARDS = 32  # parse-cache files for a large corpus: an edit rewrites one of them
SHARD_MIN = 1000  # records below which the parse cache is one file


def shard_of(path: str, shards: int) -> int:
    """The parse-cache file a record's entry lives in: a stable function of its path, so an
    edited record rewrites the same small file."""
    return zlib.crc32(path.encode("utf-8", "surrogateescape")) % shards if shards > 1 else 0


@dataclass
class ParseCache:
    """Parsed records by path, in one JSON file (``parse-<key>.json``) or, for a corpus of
    :data:`SHARD_MIN` records or more, in :data:`SHARDS` files (``parse-<key>.<NN>.json``) by a
    hash of the path; only the files whose entries changed are written again."""

    directory: Path
    key: str
    entries: dict[str, list[Any]]  # path -> [sha256, root, archived, encoded decision]
    shards: int = 1
    dirty: set[int] = field(default_factory=set)  # shards to write

    @classmethod
    def open(cls, repo_root: Path, config_fingerprint: str, records: int = 0) -> ParseCache:
        directory = repo_root / CACHE_DIR
        key = cache_key(config_fingerprint)
        shards = SHARDS if records >= SHARD_MIN else 1
        entries: dict[str, list[Any]] = {}
        for shard in range(shards):
            path = directory / _shard_name(key, shard, shards)
            try:
                if path.is_symlink() or not path.is_file():
                    continue
                loaded = json.loads(path.read_bytes())
            except (OSError, ValueError, RecursionError):
                continue
            if (
                isinstance(loaded, dict)
                and loaded.get("format") == FORMAT
                and loaded.get("key") == key
                and isinstance(loaded.get("entries"), dict)
            ):
                got: dict[str, Any] = loaded["entries"]
                if shards > 1:  # an entry filed under the wrong shard is not ours
                    got = {p: e for p, e in got.items() if shard_of(p, shards) == shard}
                entries.update(got)
        return cls(directory=directory, key=key, entries=entries, shards=shards)

    def get(self, path: str, sha: str, root: str, archived: bool) -> Decision | None:
        from adrguard.core.serialize import decode

        entry = self.entries.get(path)
        if not isinstance(entry, list) or len(entry) != 4 or entry[:3] != [sha, root, archived]:
            return None
        try:
            decision = decode(entry[3])
        except (ValueError, TypeError, KeyError, IndexError, AttributeError):
            return None
        return decision if decision.path == path else None

    def put(self, path: str, sha: str, root: str, archived: bool, decision: Decision) -> None:
        from adrguard.core.serialize import encode

        self.put_encoded(path, sha, root, archived, encode(decision))

    def put_encoded(self, path: str, sha: str, root: str, archived: bool, data: Any) -> None:
        """Store a record already encoded with :func:`adrguard.core.serialize.encode`."""
        self.entries[path] = [sha, root, archived, data]
        self.dirty.add(shard_of(path, self.shards))

    def retain(self, paths: set[str]) -> None:
        for p in set(self.entries) - paths:
            del self.entries[p]
            self.dirty.add(shard_of(p, self.shards))

    def save(self) -> None:
        """Write the shards whose entries changed, and remove the files of other keys or
        layouts; a failure to write is never an error."""
        if not self.dirty:
            return
        from adrguard.adapters.write import write_atomic

        mine = {_shard_name(self.key, i, self.shards) for i in range(self.shards)}
        try:
            if not _prepare(self.directory):
                return
            for old in self.directory.glob("parse-*.json"):
                if old.name not in mine:
                    old.unlink(missing_ok=True)
            parts: list[dict[str, list[Any]]] = [{} for _ in range(self.shards)]
            for path, entry in self.entries.items():
                parts[shard_of(path, self.shards)][path] = entry
            for shard in sorted(self.dirty):
                body = {"format": FORMAT, "key": self.key, "entries": parts[shard]}
                write_atomic(
                    self.directory / _shard_name(self.key, shard, self.shards),
                    json.dumps(body, separators=(",", ":"), ensure_ascii=False),
                    durable=False,
                )
        except OSError:
            return
        self.dirty.clear()


def _shard_name(key: str, shard: int, shards: int) -> str:
    return f"parse-{key}.json" if shards == 1 else f"parse-{key}.{shard:02d}.json"


def _prepare(directory: Path) -> bool:
    """Create the cache folder with its CACHEDIR.TAG and .gitignore; False for a symlink."""
    if directory.is_symlink():
        return False
    directory.mkdir(exist_ok=True)
    _ensure_marker(directory / "CACHEDIR.TAG", TAG)
    _ensure_marker(directory / ".gitignore", "# created by adrguard\n*\n")
    return True


def _ensure_marker(path: Path, text: str) -> None:
    if not path.exists():
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text)


def config_fingerprint(options: Mapping[str, Any]) -> str:
    """A stable hash of whatever settings change how a file parses."""
    raw = json.dumps(options, sort_keys=True, default=repr)
    return hashlib.sha256(raw.encode("utf-8")).hexdigest()


def cpu_count() -> int:
    return (
        len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    )


# --- whole results and git listings ---------------------------------------------------------
#
# An unchanged repository re-checked must cost little more than reading its files. Two more
# entries live beside the parse cache, under the same rules (JSON, keyed by content, ignored when
# anything about them is off): the last ``check`` report, keyed by a digest of every input the
# engine sees, and the last ``git ls-files`` listing, keyed by the bytes of the git index.


def package_signature() -> str:
    """A hash of every module of adrguard: any change to the code is a new key."""
    return _package_signature()


@functools.cache
def _package_signature() -> str:
    package = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
    names: list[str] = []  # os.walk, not Path.rglob: a third of the cost, paid on every run
    for folder, dirs, files in os.walk(package):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        rel = os.path.relpath(folder, package).replace(os.sep, "/")
        names += [f if rel == "." else f"{rel}/{f}" for f in files if f.endswith(".py")]
    digest = hashlib.sha256(f"{__version__}\0{FORMAT}\0".encode())
    for name in sorted(names):
        with open(os.path.join(package, name), "rb") as fh:
            data = fh.read()
        digest.update(name.encode("utf-8") + b"\0")
        digest.update(hashlib.sha256(data).digest())
    return digest.hexdigest()


def _full_key(key: str) -> str:
    return f"{__version__}:{package_signature()}:{key}"


def enabled(repo_root: Path | None, cache_setting: bool) -> bool:
    return bool(cache_setting and repo_root is not None and not os.environ.get("ADRGUARD_NO_CACHE"))


def load_entry(repo_root: Path, name: str, key: str) -> Any:
    """The ``value`` stored under ``name`` when its key matches, else None (never raises)."""
    path = repo_root / CACHE_DIR / f"{name}.json"
    try:
        if path.is_symlink() or not path.is_file():
            return None
        loaded = json.loads(path.read_bytes())
    except (OSError, ValueError, RecursionError):
        return None
    if (
        not isinstance(loaded, dict)
        or loaded.get("format") != FORMAT
        or loaded.get("key") != _full_key(key)
    ):
        return None
    return loaded.get("value")


def save_entry(repo_root: Path, name: str, key: str, value: Any) -> None:
    """Store ``value`` under ``name`` (one entry per name); a failure to write is never an error."""
    from adrguard.adapters.write import write_atomic

    directory = repo_root / CACHE_DIR
    body = {"format": FORMAT, "key": _full_key(key), "value": value}
    try:
        if not _prepare(directory):
            return
        write_atomic(
            directory / f"{name}.json",
            json.dumps(body, separators=(",", ":"), ensure_ascii=False),
            durable=False,
        )
    except (OSError, ValueError):
        return
