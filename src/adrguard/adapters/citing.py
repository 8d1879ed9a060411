"""Which files of the repository the citation scan reads, and reading them.

The files are discovery's own listing (``Discovery.file_list``: what git tracks, or the walk
outside git), never a second git listing. Left out: everything below an ADR root (records cite
each other through the graph), files of no known comment syntax (:mod:`adrguard.core.citations
.syntax`, which leaves out images, archives and data files), vendored folders, lock files,
test data (fixtures, golden files, snapshots), minified and generated code, and adrguard's
own settings; then the ``citations.include`` and
``citations.exclude`` globs. Reading is :func:`adrguard.adapters.reading.read_bytes`: never a
symlink out of the repository, never more than ``citations.max-file-size``.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Collection, Sequence

from adrguard.adapters.layout import longest_first, root_of
from adrguard.core.citations.syntax import Syntax, syntax_of
from adrguard.core.options import CitationOptions
from adrguard.pathguard import is_inside

# Folders that hold other people's code or build output, wherever they are.
VENDORED_DIRS = frozenset(
    {
        "vendor",
        "vendors",
        "node_modules",
        "bower_components",
        "jspm_packages",
        "third_party",
        "third-party",
        "thirdparty",
        "3rdparty",
        "external_libs",
        "site-packages",
        ".yarn",
        ".pnp",
        "Pods",
        "Carthage",
        "dist",
        ".git",
        ".hg",
        ".svn",
    }
)
# Folders of test data: example files (golden outputs, fixtures) whose ids are samples.
FIXTURE_DIRS = frozenset(
    {
        "fixtures",
        "__fixtures__",
        "testdata",
        "test-data",
        "test_data",
        "golden",
        "goldens",
        "__snapshots__",
        "snapshots",
    }
)
LOCK_FILES = frozenset(
    {
        "package-lock.json",
        "npm-shrinkwrap.json",
        "pnpm-lock.yaml",
        "yarn.lock",
        "go.sum",
        "cargo.lock",
        "poetry.lock",
        "pipfile.lock",
        "gemfile.lock",
        "composer.lock",
        "uv.lock",
        "pdm.lock",
        "flake.lock",
        "mix.lock",
        "podfile.lock",
        "packages.lock.json",
        "pubspec.lock",
        ".adrguard.toml",  # adrguard's own settings name rule codes (ADR204), not decisions
    }
)
GENERATED_SUFFIXES = (
    ".lock",
    ".min.js",
    ".min.css",
    ".min.mjs",
    "_pb2.py",
    "_pb2.pyi",
    "_pb2_grpc.py",
    ".pb.go",
    ".pb.cc",
    ".pb.h",
    ".pb.swift",
    ".g.dart",
    ".freezed.dart",
    ".designer.cs",
    ".g.cs",
    ".generated.ts",
    ".generated.js",
    ".generated.go",
    ".generated.cs",
    "-generated.ts",
)


def builtin_exclusion(path: str) -> str | None:
    """Why the built-in rules leave ``path`` out (``vendored``, ``fixtures``, ``lock``,
    ``generated``), or None."""
    parts = path.split("/")
    if any(p in VENDORED_DIRS for p in parts[:-1]):
        return "vendored"
    if any(p in FIXTURE_DIRS for p in parts[:-1]):
        return "fixtures"
    name = parts[-1].casefold()
    if name in LOCK_FILES:
        return "lock"
    if name.endswith(GENERATED_SUFFIXES):
        return "generated"
    return None


def select(
    files: Sequence[str],
    roots: Sequence[str],
    options: CitationOptions,
    records: Collection[str] = (),
) -> tuple[list[tuple[str, Syntax]], dict[str, int]]:
    """The files to scan (with their syntax), sorted, and how many were left out and why.
    ``records``: the paths of records and generated files (left out even below a root ``.``)."""
    ordered = longest_first([r for r in roots if r != "."])
    skipped: dict[str, int] = {}
    out: list[tuple[str, Syntax]] = []
    for path in files:
        if path in records or (ordered and root_of(path, ordered) is not None):
            continue
        syntax = syntax_of(path)
        if syntax is None:
            continue
        why = builtin_exclusion(path)
        if why is not None:
            skipped[why] = skipped.get(why, 0) + 1
            continue
        out.append((path, syntax))
    if options.include or options.exclude:
        out = _globbed(out, options, skipped)
    return out, skipped


def _globbed(
    found: list[tuple[str, Syntax]], options: CitationOptions, skipped: dict[str, int]
) -> list[tuple[str, Syntax]]:
    from adrguard.core.impact.globs import GlobSet

    paths = [p for p, _ in found]
    lists = [list(options.include) or ["**"]]
    if options.exclude:
        lists.append(list(options.exclude))
    matched = GlobSet(lists).match(paths)
    included = frozenset(matched[0])
    excluded = frozenset(matched[1]) if options.exclude else frozenset()
    kept = [(p, s) for p, s in found if p in included and p not in excluded]
    left = len(found) - len(kept)
    if left:
        skipped["config"] = skipped.get("config", 0) + left
    return kept


class Reader:
    """Reads the files the scan chose from the work tree at ``real_base`` (resolved): only
    regular files, never a symlink (its target, when tracked, is read under its own name),
    never a file below a folder that resolves outside the repository; each folder is resolved
    once. :meth:`read` gives ``(data, None)``, ``(None, reason)`` or None (gone, a folder)."""

    def __init__(self, real_base: str, max_size: int) -> None:
        self.real_base = real_base
        self.max_size = max_size
        self._folders: dict[str, bool] = {"": True}
        self._reals: dict[str, str] = {"": real_base}  # folder -> where it resolves

    def _folder_inside(self, folder: str) -> bool:
        found = self._folders.get(folder)
        if found is None:
            found = self._folders[folder] = is_inside(self._real(folder), self.real_base)
        return found

    def _real(self, folder: str) -> str:
        """Where ``folder`` resolves: its parent's resolution plus its name when it is no
        symlink (one ``lstat``), else ``os.path.realpath`` of that; the same answer as the
        realpath of the whole path, each component looked at once per run."""
        todo: list[str] = []
        while folder not in self._reals:
            todo.append(folder)
            folder = folder.rpartition("/")[0]
        real = self._reals[folder]
        for folder in reversed(todo):
            candidate = real + os.sep + folder.rpartition("/")[2]
            try:
                plain = not stat.S_ISLNK(os.lstat(candidate).st_mode)
            except OSError:
                plain = False
            real = self._reals[folder] = candidate if plain else os.path.realpath(candidate)
        return real

    def read(self, path: str) -> tuple[bytes | None, str | None] | None:
        folder, _, _name = path.rpartition("/")
        if not self._folder_inside(folder):
            return None, "outside"
        full = self.real_base + os.sep + path
        try:  # one open that refuses a symlink and never blocks on a FIFO
            fd = os.open(full, _NO_FOLLOW)
        except FileNotFoundError:
            return None
        except OSError:
            return _why_not(full)
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode):
                return None if stat.S_ISDIR(st.st_mode) else (None, "not-regular")
            if st.st_size > self.max_size:
                return None, "too-large"
            data = os.read(fd, st.st_size)
            while len(data) < st.st_size:  # a short read: read on to the size
                more = os.read(fd, st.st_size - len(data))
                if not more:
                    break
                data += more
            return data, None
        except OSError:
            return None, "unreadable"
        finally:
            os.close(fd)


_NO_FOLLOW = (
    os.O_RDONLY
    | getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_BINARY", 0)
)


def _why_not(full: str) -> tuple[None, str] | None:
    """Why a file could not be opened: a symlink (O_NOFOLLOW refused it), gone, or else."""
    try:
        st = os.lstat(full)
    except FileNotFoundError:
        return None
    except OSError:
        return None, "unreadable"
    if stat.S_ISLNK(st.st_mode):
        return None, "symlink"
    return None if stat.S_ISDIR(st.st_mode) else (None, "unreadable")
