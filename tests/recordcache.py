"""Read and forge the record cache's files in tests (``ADRGUARD_CACHE_DIR`` is a temporary
folder: see conftest.py). Importable from any test, like gitrepo.py."""

from __future__ import annotations

import os
from pathlib import Path

import msgspec

from adrguard.adapters.cache import store as cache_mod
from adrguard.core.model import Decision, FactValues


def store_dir() -> Path:
    return Path(os.environ["ADRGUARD_CACHE_DIR"])


def files(top: Path | None = None) -> list[Path]:
    """Every entry file of the store (packs, git listings)."""
    base = (top or store_dir()) / cache_mod.ENTRIES
    return sorted(p for p in base.glob("*/*") if p.is_file() and not p.is_symlink())


def header(path: Path) -> bytes:
    return cache_mod.FORMAT + (path.parent.name + path.name).encode() + b"\n"


def read_pack(path: Path) -> dict[bytes, bytes] | None:
    """The entries of a pack file, or None when the file is not a pack."""
    body = path.read_bytes()[len(header(path)) :]
    try:
        return msgspec.msgpack.decode(body, type=dict[bytes, bytes])
    except (msgspec.DecodeError, msgspec.ValidationError):
        return None


def write_pack(path: Path, entries: dict[bytes, bytes]) -> None:
    path.write_bytes(header(path) + msgspec.msgpack.encode(entries))


def _decodes(blob: bytes, kind: object) -> bool:
    try:
        msgspec.msgpack.decode(blob, type=kind)
    except (msgspec.DecodeError, msgspec.ValidationError):
        return False
    return True


def record_packs(top: Path | None = None) -> list[Path]:
    """The packs of records (not of record facts, nor git listings)."""
    return [p for p in files(top)
            if (entries := read_pack(p)) and all(_decodes(b, Decision) for b in entries.values())]


def facts_packs(top: Path | None = None) -> list[Path]:
    """The packs of record facts (ADR 44)."""
    return [p for p in files(top)
            if (entries := read_pack(p)) and all(_decodes(b, FactValues) for b in entries.values())]


def records(top: Path | None = None) -> dict[str, tuple[Path, bytes]]:
    """Where each cached record is: its path -> (pack file, entry key)."""
    out: dict[str, tuple[Path, bytes]] = {}
    for path in record_packs(top):
        for key, blob in (read_pack(path) or {}).items():
            d = msgspec.msgpack.decode(blob, type=Decision)
            out[d.path] = (path, key)
    return out


def forge(path: Path, key: bytes, **changes: object) -> None:
    """Rewrite one entry as a well-formed record that says something else."""
    entries = read_pack(path)
    assert entries is not None
    d = msgspec.msgpack.decode(entries[key], type=Decision)
    entries[key] = msgspec.msgpack.encode(msgspec.structs.replace(d, **changes))
    write_pack(path, entries)
