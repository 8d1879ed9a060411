"""What the guard needs before every tool call — the configured mode and the log's layout
(:class:`~adrguard.core.guard.layout.LogLayout`) — without parsing a record.

The hook runs before every tool call, so the answer is kept in the record cache (the user's cache
folder, :mod:`adrguard.adapters.cache.store`) under a key of everything it is made from: adrguard's
version, the repository, the bytes of its configuration file, and the git index and git
configuration (:func:`adrguard.adapters.git.state_digest`, the key of the cached ``git
ls-files``). The few working-tree files root detection reads besides (``.adr-dir``,
``.log4brains.yml``, the records sampled in folders found by content, a front-matter schema) are
listed in the entry with their size and modification time and checked on every use. A warm call
reads the configuration file, the git index and one cache entry; a cold one loads the
configuration and classifies the tracked files as ``adrguard check`` does. A cache never changes
a result: a missing, damaged or stale entry is built again.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from adrguard import __version__
from adrguard.adapters.cache import store as cache
from adrguard.adapters.cache.store import key
from adrguard.adapters.files import plan_layout
from adrguard.adapters.git import state_digest
from adrguard.config import load_config, parse_toml, read_config_file, tool_table
from adrguard.core.errors import UserError
from adrguard.core.guard.layout import LogLayout
from adrguard.core.guard.policy import Mode

if TYPE_CHECKING:
    from adrguard.adapters.cache.store import Store

FORMAT = "adrguard-guard-setup 1"
MODES = tuple(m.value for m in Mode)


class SetupError(UserError):
    """The guard cannot know the log: ``mode`` is the configured mode when it could still be
    read (None when even that failed)."""

    def __init__(self, message: str, mode: Mode | None) -> None:
        super().__init__(message)
        self.mode = mode


class Setup(NamedTuple):
    mode: Mode
    layout: LogLayout
    source: str | None  # the configuration file, repo-relative (None: the defaults)
    cached: bool = False  # came from the cache


class _ConfigFile(NamedTuple):
    path: Path | None
    raw: bytes
    table: dict[str, Any]


def load_setup(top: Path, *, cache: bool = True) -> tuple[Setup, Path | None]:
    """The mode and layout of the repository whose work tree is ``top`` (resolved), and the
    cache folder (for the session counters; None when the cache is off, or ``cache`` is False).
    Raises :class:`SetupError` when the configuration or the repository cannot be used."""
    found = _config_file(top)
    folder = _cache_folder(found.table, top) if cache else None
    store = _open(folder)
    try:
        entry = _key(top, found) if store is not None else None
        if entry is not None and store is not None:
            hit = _decode(store.get(entry), top)
            if hit is not None:
                return hit, folder
        setup, deps = _build(top, found, store)
        if entry is not None and store is not None:
            store.put(entry, _encode(setup, deps, top))
        return setup, folder if store is not None else None
    finally:
        if store is not None:
            store.close()


def configured_mode(table: dict[str, Any]) -> Mode | None:
    value = table.get("read-guard", "off")
    return Mode(value) if isinstance(value, str) and value in MODES else None


def _config_file(top: Path) -> _ConfigFile:
    """The first configuration file (``.adrguard.toml``, else ``[tool.adrguard]`` of
    pyproject.toml) as bytes and as a table; refused like :func:`adrguard.config.find_config`
    refuses it (a symlink out of the repository, not a file, too large, not TOML)."""
    for name in (".adrguard.toml", "pyproject.toml"):
        path = top / name
        if not (path.is_file() or path.is_symlink()):
            continue
        try:
            raw = read_config_file(path, (top,), f"config {name}")
            table = parse_toml(raw, name)
            if name == "pyproject.toml":
                adrguard = tool_table(table, path)
                if adrguard is None:
                    continue
                table = adrguard
        except UserError as exc:
            raise SetupError(str(exc), None) from None
        return _ConfigFile(path, raw, table)
    return _ConfigFile(None, b"", {})


def _cache_folder(table: dict[str, Any], top: Path) -> Path | None:
    """The cache folder, chosen as for every command (:func:`adrguard.adapters.cache.store.
    folder_for`: never inside the repository, and a ``cache-dir`` of the repository's
    configuration only inside the user's cache folder); none when the configuration or
    ``ADRGUARD_NO_CACHE`` turns the cache off, or when the folder cannot be used (a guard
    without a cache still judges every call)."""
    setting = table.get("cache-dir")
    try:
        return cache.folder_for(table.get("cache") is not False,
                                setting if isinstance(setting, str) and setting else None,
                                top, from_repository=True)
    except UserError:
        return None


def _open(folder: Path | None) -> Store | None:
    if folder is None:
        return None

    return cache.Store.open(folder)


def _key(top: Path, found: _ConfigFile) -> str | None:
    repo = next((d for d in (top, *top.parents) if (d / ".git").exists()), None)
    digest = state_digest(repo) if repo is not None else None
    if digest is None:
        return None  # not a plain git repository: the layout is made on every call
    where = str(found.path.relative_to(top)) if found.path is not None else ""
    return key(FORMAT, __version__, str(top), digest, where, found.raw)


def _build(top: Path, found: _ConfigFile, store: Store | None) -> tuple[Setup, list[str]]:
    mode = configured_mode(found.table)
    try:
        config = load_config(top)
    except UserError as exc:
        raise SetupError(str(exc), mode) from None
    mode = Mode(config.read_guard)
    source = config.source
    if mode is Mode.OFF:
        return Setup(mode, LogLayout(()), source), []

    try:
        plan = plan_layout(top, config, store)
    except UserError as exc:
        raise SetupError(str(exc), mode) from None
    records = {path: archived for path, _root, archived in plan.plan.records}
    layout = LogLayout(
        roots=tuple(r.path for r in plan.search.roots),
        archive_dirs=tuple(config.archive_dirs),
        records=records,
        navigation=plan.others,
    )
    return Setup(mode, layout, source), _dependencies(plan, found, top)


def _dependencies(plan: Any, found: _ConfigFile, top: Path) -> list[str]:
    """The working-tree files (other than the config file and the git index, which are in the
    key) whose content root detection read: tool settings, the records sampled by content, a
    front-matter schema."""
    deps = [p for p in (".adr-dir", ".log4brains.yml") if p in plan.files]
    examined = set(plan.search.examined)
    if examined:
        for path in plan.files:
            folder = path.rpartition("/")[0] or "."
            parent = folder.rpartition("/")[0] or "."
            if (folder in examined or parent in examined) and path.lower().endswith(
                (".md", ".markdown")
            ):
                deps.append(path)
    schema = found.table.get("frontmatter-schema")
    if isinstance(schema, str) and found.path is not None:
        named = Path(os.path.normpath(found.path.parent / schema))
        if named.is_relative_to(top):  # else outside the repository: load_config refused it
            deps.append(named.relative_to(top).as_posix())
    return deps


def _stamp(top: Path, path: str) -> list[int] | None:
    try:
        st = os.stat(top / path)
    except OSError:
        return None
    return [st.st_size, st.st_mtime_ns, st.st_ino]


def _encode(setup: Setup, deps: list[str], top: Path) -> bytes:
    layout = setup.layout
    data = {
        "format": FORMAT,
        "mode": setup.mode.value,
        "source": setup.source,
        "roots": list(layout.roots),
        "archiveDirs": list(layout.archive_dirs),
        "records": sorted([p, a] for p, a in layout.records.items()),
        "navigation": sorted(layout.navigation),
        "deps": [[p, _stamp(top, p)] for p in deps],
    }
    return json.dumps(data, separators=(",", ":")).encode("utf-8")


def _decode(data: bytes | None, top: Path) -> Setup | None:
    if data is None:
        return None
    try:
        raw = json.loads(data)
        if raw.get("format") != FORMAT:
            return None
        for path, stamp in raw["deps"]:
            if _stamp(top, path) != stamp:
                return None
        layout = LogLayout(
            roots=tuple(raw["roots"]),
            archive_dirs=tuple(raw["archiveDirs"]),
            records={p: bool(a) for p, a in raw["records"]},
            navigation=frozenset(raw["navigation"]),
        )
        return Setup(Mode(raw["mode"]), layout, raw["source"], cached=True)
    except (ValueError, TypeError, KeyError, AttributeError):
        return None
