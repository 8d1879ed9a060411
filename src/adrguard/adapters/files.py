"""Find the decision records of a repository and read them as bytes.

Inside a git work tree the files are what ``git ls-files`` lists (tracked and staged: what the
next commit holds); elsewhere the file system is walked. Decoding and NUL checks are the
parser's job; this module reports only what stops a file being read (a symlink out of the
repository, a permission error, a size above ``max-file-size``) in ``SourceFile.error``.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from adrguard.adapters.layout import Plan, classify, longest_first, root_of
from adrguard.adapters.roots import (
    Root,
    Search,
    configured,
    covered,
    detect,
    is_dir_inside,
    normalise,
)
from adrguard.config import Config
from adrguard.core.errors import UserError
from adrguard.core.model import SourceFile

# Files under a root that rules read as text (indexes, CURRENT views and manifests).
OTHER_TEXT_NAMES = frozenset(
    {"README.md", "readme.md", "index.md", "INDEX.md", "CURRENT.md", "CURRENT.sources.json"}
)
_OTHER_TEXT_SUFFIXES = tuple(OTHER_TEXT_NAMES)  # a cheap first test (endswith, in C)
# Folders never walked outside git (tool caches, dependencies, other VCS data).
WALK_SKIP_DIRS = frozenset(
    {
        ".git",
        ".hg",
        ".svn",
        ".venv",
        "venv",
        "node_modules",
        "__pycache__",
        ".tox",
        ".nox",
        ".mypy_cache",
        ".pytest_cache",
        ".ruff_cache",
        ".adrguard_cache",
    }
)
SYMLINK_OUTSIDE = "symlink points outside the repository: not followed"
CONFIG_HINT = (
    'set roots = ["path/to/adrs"] in .adrguard.toml or under [tool.adrguard] in pyproject.toml'
)
_GLOB = re.compile(r"[*?\[]")
# never block on a FIFO swapped in after lstat; binary mode on Windows
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
# Where open() can refuse a symlink, regular files are read without a separate lstat.
_FAST_FLAGS = _OPEN_FLAGS | os.O_NOFOLLOW if hasattr(os, "O_NOFOLLOW") else 0


@dataclass(frozen=True)
class Discovery:
    """Everything discovery found. Paths are repo-relative POSIX strings, sorted."""

    sources: list[SourceFile]  # candidate records, sorted by path
    repo_files: frozenset[str]  # every file of the repository (tracked files inside git)
    roots: tuple[str, ...]  # ADR roots, repo-relative ("." for the repository root)
    skipped: tuple[str, ...]  # markdown files under roots left out (indexes, templates, parts)
    other_texts: dict[str, bytes]  # index / CURRENT files under roots, by repo-relative path
    repo_url: str | None  # web URL of the ``origin`` remote, when there is one
    uses_git: bool = False  # files came from ``git ls-files``
    # markdown under the roots that git does not track (and does not ignore); read as records
    # when ``untracked_checked`` (manual runs), else only named in a note
    untracked: tuple[str, ...] = ()
    file_list: Sequence[str] = ()  # ``repo_files`` as listed (sorted, or nearly: cheap to sort)
    # False when git tracks files in the cache folder: a pull request could have committed a
    # forged cache (the keys are content hashes anyway anyone can compute), so it is not read.
    cache_trusted: bool = True
    untracked_checked: bool = False
    search: Search = field(default_factory=lambda: Search(()))  # the roots and why

    @property
    def shallow_roots(self) -> frozenset[str]:
        return frozenset(r.path for r in self.search.roots if r.shallow)


def discover(
    repo_root: Path,
    config: Config,
    *,
    untracked: bool = False,
    extra_roots: Sequence[str] = (),
    require_roots: bool = True,
) -> Discovery:
    """Find the ADR roots, enumerate the files, classify and read the records. ``untracked``
    (manual runs) also reads the files under the roots that git neither tracks nor ignores;
    ``extra_roots`` are folders to check as roots for this run (``adrguard check DIR``)."""
    base = Path(repo_root)
    real_base = os.path.realpath(base)
    listing = _git_listing(base, config.cache)
    url: str | None = None
    unreadable: list[tuple[str, str]] = []
    if listing is None:
        files = walk(base, unreadable=unreadable)
    else:
        files, url = listing
    git_top = listing is not None
    search = find_roots(base, config, files, extra_roots, required=require_roots)
    roots = tuple(r.path for r in search.roots)
    shallow = frozenset(r.path for r in search.roots if r.shallow)
    new_files = _new_files(base, roots, shallow, files) if git_top else []
    visible = sorted({*files, *new_files}) if (untracked and new_files) else files
    plan = classify(visible, roots, config, shallow=shallow)
    max_size = config.options.max_file_size
    sources: list[SourceFile] = []
    for path, root, archived in plan.records:  # the hot loop of a warm run: kept flat
        got = read_bytes(real_base, path, max_size)
        if got is not None:
            sources.append(SourceFile(path, root, got[0], got[1], archived))
    sources.extend(_unreadable_folders(unreadable, roots))
    file_set = frozenset(visible)
    others = _other_texts(real_base, file_set, roots, plan, config, shallow)
    pending = (
        _under_roots(new_files, roots, shallow, config) if git_top else ()
    )
    return Discovery(
        sources=sources,
        repo_files=file_set,
        roots=roots,
        skipped=plan.skipped,
        other_texts=others,
        repo_url=url,
        uses_git=git_top,
        untracked=pending,
        file_list=visible,
        cache_trusted=not (git_top and _tracks_cache(files)),
        untracked_checked=untracked and bool(pending),
        search=search,
    )


def _tracks_cache(files: list[str]) -> bool:
    """Whether git tracks anything in the cache folder (see ``Discovery.cache_trusted``)."""
    from adrguard.adapters.cache import CACHE_DIR  # loaded already by the listing

    prefix = CACHE_DIR + "/"
    return any(p.startswith(prefix) for p in files)


# --- roots ------------------------------------------------------------------------------


def find_roots(
    base: Path,
    config: Config,
    files: Sequence[str] | None = None,
    extra: Sequence[str] = (),
    *,
    required: bool = True,
) -> Search:
    """The configured roots, else the detected ones (:mod:`adrguard.adapters.roots`), plus the
    ``extra`` folders given for this run. No root at all is a one-line ``UserError`` that says
    where adrguard looked."""
    real_base = os.path.realpath(base)
    if config.roots:
        search = Search(configured(base, config))
    else:
        listed = files if files is not None else _listing_for_roots(base)
        search = detect(base, listed, config)
    roots = list(search.roots)
    for entry in extra:
        path = normalise(entry, base, "the command line")
        if not _is_dir_inside(base / path, real_base):
            raise UserError(f"{entry} is not a folder inside {base}")
        holds_root = any(r.path != "." and r.path.startswith(path + "/") for r in roots)
        if path != "." and not holds_root and not covered(path, roots):
            roots.append(Root(path, "given on the command line (for this run)"))
    if not roots and required:
        raise UserError(
            f"no ADR folder found in {base} (looked for {search.looked()}); {CONFIG_HINT}"
        )
    return Search(tuple(sorted(roots, key=lambda r: r.path)), search.examined)


def _listing_for_roots(base: Path) -> list[str]:
    listing = _git_listing(base, True)
    return walk(base) if listing is None else listing[0]


def _is_dir_inside(path: Path, real_base: str) -> bool:
    return is_dir_inside(path, real_base)


def _inside(real_path: str, real_base: str) -> bool:
    return real_path == real_base or real_path.startswith(real_base.rstrip(os.sep) + os.sep)


# --- enumeration ------------------------------------------------------------------------


def _git_listing(base: Path, use_cache: bool) -> tuple[list[str], str | None] | None:
    """``(tracked files below base, remote URL)`` inside a git work tree, else None. The answer
    is kept in the cache keyed by the index and config bytes (see
    :func:`adrguard.adapters.git.state_digest`), so an unchanged repository needs no git."""
    from adrguard.adapters import cache

    here = base.resolve()
    top = next((d for d in (here, *here.parents) if (d / ".git").exists()), None)
    if top is None:
        return None  # not a repository: no need to start git at all
    key: str | None = None
    if cache.enabled(base, use_cache):
        from adrguard.adapters.git import state_digest

        digest = state_digest(top)
        key = f"{digest}:{here}" if digest else None
    if key is not None:
        hit = cache.load_entry(base, "git-files", key)
        if _valid_listing(hit):
            return list(hit[0]), hit[1]
    git_top = _git_top(base)
    if git_top is None:
        _refused(base, top)
        return None
    from adrguard.adapters.git import remote_url

    files = _tracked_below(base, git_top)
    url = remote_url(base)
    if key is not None and git_top.resolve() == top:
        cache.save_entry(base, "git-files", key, [files, url])
    return files, url


def _unreadable_folders(found: list[tuple[str, str]], roots: Sequence[str]) -> list[SourceFile]:
    """A folder under an ADR root that cannot be read is reported (ADR001), never skipped:
    the records in it would silently go unchecked."""
    ordered = longest_first(roots)
    out: list[SourceFile] = []
    for path, reason in sorted(found):
        root = path if path in roots else root_of(path, ordered)
        if root is not None:
            out.append(SourceFile(path, root, None, f"the folder cannot be read ({reason}); "
                                  "its records were not checked"))
    return out


def _refused(base: Path, top: Path) -> None:
    """A ``.git`` that git will not read is a UserError, never a silent walk of the files."""
    try:
        from adrguard.adapters.git import refusal
    except ImportError:  # gitpython without a git executable: walk the file system
        return
    why = refusal(base)
    if why is None:
        return
    hint = ""
    if "dubious ownership" in why or "safe.directory" in why:
        hint = (f"; run adrguard as the repository's owner, or trust it with "
                f"`git config --global --add safe.directory {top}`")
    raise UserError(f"git refuses the repository at {top}: {why}{hint}")


def _valid_listing(value: object) -> bool:
    if not (
        isinstance(value, list)
        and len(value) == 2
        and isinstance(value[0], list)
        and (value[1] is None or isinstance(value[1], str))
    ):
        return False
    try:
        "".join(value[0])  # every item a string: checked in C, 20,000 paths in a millisecond
    except TypeError:
        return False
    return True


def _git_top(base: Path) -> Path | None:
    """The git work tree around ``base`` (which has a ``.git`` above it) when git can be used
    there, else None."""
    try:
        from adrguard.adapters.git import find_repo_root
    except ImportError:  # gitpython without a git executable
        return None
    return find_repo_root(base)


def _tracked_below(base: Path, top: Path) -> list[str]:
    """Tracked files below ``base``, relative to ``base`` (which may be below the top)."""
    from adrguard.adapters.git import tracked_files

    files = tracked_files(base)
    prefix = Path(os.path.realpath(base)).relative_to(os.path.realpath(top)).as_posix()
    if prefix in ("", "."):
        return files
    cut = prefix + "/"
    return [f[len(cut) :] for f in files if f.startswith(cut)]


def walk(base: Path, start: str = "", unreadable: list[tuple[str, str]] | None = None) -> list[str]:
    """Every file (and symlink) below ``base``/``start``, sorted; symlinked folders and the
    folders in WALK_SKIP_DIRS are not entered. Folders that cannot be read are appended to
    ``unreadable`` as ``(path, reason)``."""
    out: list[str] = []
    stack = [start]
    while stack:
        rel_dir = stack.pop()
        try:
            with os.scandir(os.path.join(base, rel_dir) if rel_dir else base) as it:
                entries = list(it)
        except FileNotFoundError:
            continue  # vanished while we walked
        except OSError as exc:
            if unreadable is not None:
                unreadable.append((rel_dir or ".", exc.strerror or type(exc).__name__))
            continue
        for entry in entries:
            rel = f"{rel_dir}/{entry.name}" if rel_dir else entry.name
            try:
                is_dir = entry.is_dir(follow_symlinks=False)
            except OSError:
                continue
            if is_dir:
                if entry.name not in WALK_SKIP_DIRS:
                    stack.append(rel)
            else:
                out.append(rel)
    out.sort()
    return out


def _new_files(
    base: Path, roots: Sequence[str], shallow: frozenset[str], tracked: Sequence[str]
) -> list[str]:
    """Files under the roots that git neither tracks nor ignores. The roots are listed on disk
    first; git is asked which of the files it does not track it ignores only when there are
    some (so an unchanged log costs no git process)."""
    from adrguard.adapters.cache import CACHE_DIR

    known = frozenset(tracked)
    prefix = CACHE_DIR + "/"
    on_disk: set[str] = set()
    for root in roots:
        start = "" if root == "." else root
        listed = _shallow_files(base, start) if root in shallow else walk(base, start)
        on_disk.update(p for p in listed if p not in known and not p.startswith(prefix))
    if not on_disk:
        return []
    from adrguard.adapters.gitwork import untracked_files

    return [p for p in untracked_files(base, sorted(set(roots))) if p in on_disk]


def _shallow_files(base: Path, folder: str) -> list[str]:
    """The files of a root found by content: directly in it, or in its numbered folders."""
    from adrguard.core.rootnames import is_numbered

    try:
        with os.scandir(os.path.join(base, folder) if folder else base) as it:
            entries = [(e.name, e.is_dir(follow_symlinks=False)) for e in it]
    except OSError:
        return []
    out: list[str] = []
    for name, is_dir in entries:
        rel = f"{folder}/{name}" if folder else name
        if not is_dir:
            out.append(rel)
        elif is_numbered(name):
            out.extend(walk(base, rel))
    return out


def _under_roots(
    paths: Sequence[str], roots: Sequence[str], shallow: frozenset[str], config: Config
) -> tuple[str, ...]:
    """The files among ``paths`` that would be records under the roots."""
    if not paths:
        return ()
    return tuple(p for p, _, _ in classify(paths, roots, config, shallow=shallow).records)


# --- reading ----------------------------------------------------------------------------


def read_bytes(real_base: str, path: str, max_size: int) -> tuple[bytes | None, str | None] | None:
    """``(data, None)``, ``(None, why)`` or None when there is nothing to read (a missing file
    or a directory). Never follows a symlink out of ``real_base``; never blocks on a FIFO."""
    full = real_base + os.sep + path  # path is repo-relative with "/" (fine on Windows too)
    if _FAST_FLAGS:
        # The common case in three system calls: open (refusing a symlink), fstat, read.
        # Anything else (a symlink, a folder, a FIFO, an error, a file that grew) goes the
        # careful way below, which decides what to say about it.
        try:
            fd = os.open(full, _FAST_FLAGS)
        except OSError:
            return _read_careful(full, real_base, max_size)
        try:
            st = os.fstat(fd)
            if stat.S_ISREG(st.st_mode) and st.st_size <= max_size:
                data = os.read(fd, st.st_size + 1)
                if len(data) <= st.st_size:
                    return data, None
        except OSError:
            pass
        finally:
            os.close(fd)
    return _read_careful(full, real_base, max_size)


def _read_careful(
    full: str, real_base: str, max_size: int
) -> tuple[bytes | None, str | None] | None:
    try:
        st = os.lstat(full)
    except FileNotFoundError:
        return None  # tracked but deleted from the work tree (not staged): not in the commit
    except OSError as exc:
        return None, f"cannot read file: {exc.strerror or exc}"
    if stat.S_ISLNK(st.st_mode):
        if not _inside(os.path.realpath(full), real_base):
            return None, SYMLINK_OUTSIDE
        try:
            st = os.stat(full)
        except FileNotFoundError:
            return None, "symlink target does not exist"
        except OSError as exc:
            return None, f"cannot read file: {exc.strerror or exc}"
    if stat.S_ISDIR(st.st_mode):
        return None  # a folder named like a file (x.md) or a submodule
    if not stat.S_ISREG(st.st_mode):
        return None, "not a regular file"
    if st.st_size > max_size:
        return None, _too_large(st.st_size, max_size)
    try:  # os.open/os.read: a third of the cost of open().read() on many small files
        fd = os.open(full, _OPEN_FLAGS)
    except PermissionError:
        return None, "cannot read file: permission denied"
    except OSError as exc:
        return None, f"cannot read file: {exc.strerror or exc}"
    try:
        chunks = [os.read(fd, min(st.st_size, max_size) + 1)]
        total = len(chunks[0])
        while st.st_size < total <= max_size:  # the file grew after lstat: read on to EOF
            chunk = os.read(fd, max_size + 1 - total)
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
    except OSError as exc:
        return None, f"cannot read file: {exc.strerror or exc}"
    finally:
        os.close(fd)
    if total > max_size:
        return None, _too_large(total, max_size)
    return b"".join(chunks), None


def _too_large(size: int, limit: int) -> str:
    return f"file is {size:,} bytes, larger than the {limit:,}-byte limit (max-file-size); not read"


def _other_texts(
    real_base: str,
    files: frozenset[str],
    roots: Sequence[str],
    plan: Plan,
    config: Config,
    shallow: frozenset[str] = frozenset(),
) -> dict[str, bytes]:
    """Index and CURRENT files under the roots (and the configured index/CURRENT paths)."""
    records = {p for p, _, _ in plan.records}
    ordered = longest_first(roots)
    wanted = {
        p
        for p in files
        if p.endswith(_OTHER_TEXT_SUFFIXES)
        and p.rsplit("/", 1)[-1] in OTHER_TEXT_NAMES
        and (root := root_of(p, ordered)) is not None
        and (root not in shallow or p.count("/") == (0 if root == "." else root.count("/") + 1))
    }
    wanted.update(p for p in _configured_paths(roots, config) if p in files)
    out: dict[str, bytes] = {}
    for path in sorted(wanted - records):
        got = read_bytes(real_base, path, config.options.max_file_size)
        if got is not None and got[0] is not None:
            out[path] = got[0]
    return out


def _configured_paths(roots: Sequence[str], config: Config) -> set[str]:
    def joined(root: str, rel: str) -> str:
        return rel if root in ("", ".") else f"{root}/{rel}"

    names = [
        config.options.index.get("path"),
        config.options.current.get("view"),
        config.options.current.get("manifest"),
    ]
    from adrguard.core.options import manifest_path

    out: set[str] = {manifest_path(config.options)}  # the impact manifest (ADR502-ADR504)
    for name in names:
        if isinstance(name, str) and name:
            out.add(name.lstrip("/"))
            out.update(joined(r, name) for r in roots)
    mapping = config.options.index.get("paths") or {}
    if isinstance(mapping, dict):
        for root, name in mapping.items():
            if isinstance(name, str) and name:
                out.update({name.lstrip("/"), joined(str(root).strip("/"), name)})
    return out
