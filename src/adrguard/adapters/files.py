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

from adrguard.adapters.layout import MARKDOWN_SUFFIXES, Plan, classify, longest_first, root_of
from adrguard.config import DEFAULT_ROOTS, Config
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
    untracked: tuple[str, ...] = ()  # markdown under roots on disk but not in the git index
    file_list: Sequence[str] = ()  # ``repo_files`` as listed (sorted, or nearly: cheap to sort)
    # False when git tracks files in the cache folder: a pull request could have committed a
    # forged cache (the keys are content hashes anyone can compute), so it is not read.
    cache_trusted: bool = True


def discover(repo_root: Path, config: Config) -> Discovery:
    """Find the ADR roots, enumerate the files, classify and read the records."""
    base = Path(repo_root)
    real_base = os.path.realpath(base)
    roots = find_roots(base, config)
    listing = _git_listing(base, config.cache)
    url: str | None = None
    unreadable: list[tuple[str, str]] = []
    if listing is None:
        files = walk(base, unreadable=unreadable)
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
    sources.extend(_unreadable_folders(unreadable, roots))
    file_set = frozenset(files)
    others = _other_texts(real_base, file_set, roots, plan, config)
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
        cache_trusted=not (git_top and _tracks_cache(files)),
    )


def _tracks_cache(files: list[str]) -> bool:
    """Whether git tracks anything in the cache folder (see ``Discovery.cache_trusted``)."""
    from adrguard.adapters.cache import CACHE_DIR  # loaded already by the listing

    prefix = CACHE_DIR + "/"
    return any(p.startswith(prefix) for p in files)


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
    real_base: str, files: frozenset[str], roots: Sequence[str], plan: Plan, config: Config
) -> dict[str, bytes]:
    """Index and CURRENT files under the roots (and the configured index/CURRENT paths)."""
    records = {p for p, _, _ in plan.records}
    ordered = longest_first(roots)
    wanted = {
        p
        for p in files
        if p.endswith(_OTHER_TEXT_SUFFIXES)
        and p.rsplit("/", 1)[-1] in OTHER_TEXT_NAMES
        and root_of(p, ordered) is not None
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
