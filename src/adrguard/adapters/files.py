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
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from adrguard.adapters.layout import MARKDOWN_SUFFIXES, Plan, classify, longest_first, root_of
from adrguard.config import DEFAULT_ROOTS, Config
from adrguard.core.errors import UserError
from adrguard.core.model import SourceFile

if TYPE_CHECKING:
    from adrguard.adapters.cache import Store

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
    uses_git: bool = False  # files came from git (``git ls-files``, or a revision's tree)
    untracked: tuple[str, ...] = ()  # markdown under roots on disk but not in the git index
    file_list: Sequence[str] = ()  # ``repo_files`` as listed (sorted)


def discover(repo_root: Path, config: Config, store: Store | None = None) -> Discovery:
    """Find the ADR roots, enumerate the files, classify and read the records. ``repo_root`` is
    resolved already (see :func:`adrguard.api.resolve_root`); ``store`` keeps git listings."""
    base = Path(os.path.abspath(repo_root))
    real_base = os.path.realpath(base)
    roots = find_roots(base, config)
    listing = _git_listing(base, store)
    url: str | None = None
    if listing is None:
        files = walk(base)
    else:
        files, url = listing
    git_top = listing is not None
    plan = classify(files, roots, config)
    max_size = config.options.max_file_size
    sources: list[SourceFile] = []
    for path, root, archived in plan.records:  # the hot loop of a warm run: kept flat
        got = read_bytes(real_base, path, max_size)
        if got is not None:
            sources.append(SourceFile(path, root, got[0], got[1], archived))
    file_set = frozenset(files)
    records = {p for p, _, _ in plan.records}
    others: dict[str, bytes] = {}
    for path in sorted(other_text_paths(file_set, roots, plan, config) - records):
        got = read_bytes(real_base, path, max_size)
        if got is not None and got[0] is not None:
            others[path] = got[0]
    untracked = _untracked(base, roots, file_set) if git_top else ()
    return Discovery(
        sources=sources,
        repo_files=file_set,
        roots=roots,
        skipped=plan.skipped,
        other_texts=others,
        repo_url=url,
        uses_git=git_top,
        untracked=untracked,
        file_list=files,
    )


# --- roots ------------------------------------------------------------------------------


def find_roots(base: Path, config: Config) -> tuple[str, ...]:
    """Configured roots (globs match directories), else every default root that exists."""
    real_base = os.path.realpath(base)
    if not config.roots:
        found = [r for r in DEFAULT_ROOTS if _is_dir_inside(base / r, real_base)]
        if not found:
            raise UserError(
                f"no ADR folder found in {base} (looked for {', '.join(DEFAULT_ROOTS)}); "
                f"{CONFIG_HINT}"
            )
        return tuple(found)
    where = config.source or "configuration"
    roots: list[str] = []
    for entry in config.roots:
        name = _normalise_root(entry, base, where)
        if _GLOB.search(name):
            matches = sorted(
                rel
                for p in base.glob(name)
                if ".git" not in (rel := p.relative_to(base).as_posix()).split("/")
                and _is_dir_inside(p, real_base)
            )
        else:
            matches = [name] if _is_dir_inside(base / name, real_base) else []
        if not matches:
            raise UserError(
                f"{where}: roots entry {entry!r} matches no folder in {base}; "
                "fix `roots` (paths and globs are relative to the repository root)"
            )
        roots.extend(m for m in matches if m not in roots)
    return tuple(roots)


def _normalise_root(entry: str, base: Path, where: str) -> str:
    text = entry.strip().replace("\\", "/")
    if os.path.isabs(text):
        try:
            text = Path(text).resolve().relative_to(base.resolve()).as_posix()
        except ValueError:
            raise UserError(f"{where}: roots entry {entry!r} is outside {base}") from None
    parts = [p for p in text.split("/") if p not in ("", ".")]
    if ".." in parts:
        raise UserError(f"{where}: roots entry {entry!r} must stay inside the repository (no '..')")
    return "/".join(parts) or "."


def _is_dir_inside(path: Path, real_base: str) -> bool:
    return path.is_dir() and _inside(os.path.realpath(path), real_base)


def _inside(real_path: str, real_base: str) -> bool:
    return real_path == real_base or real_path.startswith(real_base.rstrip(os.sep) + os.sep)


# --- enumeration ------------------------------------------------------------------------


def _git_listing(base: Path, store: Store | None) -> tuple[list[str], str | None] | None:
    """``(tracked files below base, remote URL)`` inside a git work tree, else None (also when
    git cannot be used there). With a ``store`` the answer is kept, keyed by the bytes of the git
    index and config (:func:`adrguard.adapters.git.state_digest`): an unchanged repository then
    needs neither gitpython nor a git process."""
    top = next((d for d in (base, *base.parents) if (d / ".git").exists()), None)
    if top is None:
        return None  # not a repository: no need to start git at all
    entry: str | None = None
    if store is not None:
        from adrguard.adapters.cache import key
        from adrguard.adapters.git import state_digest

        digest = state_digest(top)
        entry = key("git-listing", digest, str(base)) if digest else None
    if entry is not None and store is not None:
        hit = _decode_listing(store.get(entry))
        if hit is not None:
            return hit
    try:
        from adrguard.adapters.git import remote_url, tracked_files
    except ImportError:  # gitpython without a git executable
        return None
    files = tracked_files(base)
    if files is None:
        return None
    url = remote_url(base)
    if entry is not None and store is not None:
        import msgspec

        store.put(entry, msgspec.msgpack.encode((files, url)))
    return files, url


def _decode_listing(data: bytes | None) -> tuple[list[str], str | None] | None:
    if data is None:
        return None
    import msgspec

    try:
        return msgspec.msgpack.decode(data, type=tuple[list[str], str | None])
    except (msgspec.DecodeError, msgspec.ValidationError):
        return None


def walk(base: Path, start: str = "") -> list[str]:
    """Every file (and symlink) below ``base``/``start``, sorted; symlinked folders and the
    folders in WALK_SKIP_DIRS are not entered."""
    out: list[str] = []
    stack = [start]
    while stack:
        rel_dir = stack.pop()
        try:
            with os.scandir(os.path.join(base, rel_dir) if rel_dir else base) as it:
                entries = list(it)
        except OSError:
            continue  # unreadable or vanished folder
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


def _untracked(base: Path, roots: Sequence[str], tracked: frozenset[str]) -> tuple[str, ...]:
    found: set[str] = set()
    for root in roots:
        for rel in walk(base, "" if root == "." else root):
            if rel not in tracked and rel.lower().endswith(MARKDOWN_SUFFIXES):
                found.add(rel)
    return tuple(sorted(found))


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
        return None, too_large(st.st_size, max_size)
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
        return None, too_large(total, max_size)
    return b"".join(chunks), None


def too_large(size: int, limit: int) -> str:
    return f"file is {size:,} bytes, larger than the {limit:,}-byte limit (max-file-size); not read"


def other_text_paths(
    files: frozenset[str], roots: Sequence[str], plan: Plan, config: Config
) -> set[str]:
    """Index and CURRENT files under the roots, the configured index/CURRENT paths and the
    impact manifest: the texts rules read besides the records."""
    ordered = longest_first(roots)
    wanted = {
        p
        for p in files
        if p.endswith(_OTHER_TEXT_SUFFIXES)
        and p.rsplit("/", 1)[-1] in OTHER_TEXT_NAMES
        and root_of(p, ordered) is not None
    }
    wanted.update(p for p in _configured_paths(roots, config) if p in files)
    return wanted


def _configured_paths(roots: Sequence[str], config: Config) -> set[str]:
    def joined(root: str, rel: str) -> str:
        return rel if root in ("", ".") else f"{root}/{rel}"

    names = [
        config.options.index.path,
        config.options.current.view,
        config.options.current.manifest,
    ]
    from adrguard.core.options import manifest_path

    out: set[str] = {manifest_path(config.options)}  # the impact manifest (ADR502-ADR504)
    for name in names:
        if name:
            out.add(name.lstrip("/"))
            out.update(joined(r, name) for r in roots)
    for root, name in config.options.index.paths.items():
        if name:
            out.update({name.lstrip("/"), joined(str(root).strip("/"), name)})
    return out
