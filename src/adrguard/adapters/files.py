"""Find the decision records of a repository and read them as bytes.

Inside a git work tree the files are what ``git ls-files`` lists (tracked and staged: what the
next commit holds); elsewhere the file system is walked. Decoding and NUL checks are the
parser's job; reading (:mod:`.reading`) reports only what stops a file being read (a symlink out
of the repository, a permission error, a size above ``max-file-size``) in ``SourceFile.error``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec

from adrguard.adapters.cache.keys import module_stamp, parser_signature
from adrguard.adapters.cache.store import key
from adrguard.adapters.git import refusal, state_digest, tracked_files, untracked_files
from adrguard.adapters.layout import Plan, classify, longest_first, other_text_paths, root_of
from adrguard.adapters.reading import read_bytes
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
from adrguard.core.rootnames import is_numbered

if TYPE_CHECKING:
    from adrguard.adapters.cache.store import Store

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
CONFIG_HINT = (
    'set roots = ["path/to/adrs"] in .adrguard.toml or under [tool.adrguard] in pyproject.toml'
)


class Discovery(msgspec.Struct, frozen=True):
    """Everything discovery found. Paths are repo-relative POSIX strings, sorted."""

    sources: list[SourceFile]  # candidate records, sorted by path
    repo_files: frozenset[str]  # every file of the repository (tracked files inside git)
    roots: tuple[str, ...]  # ADR roots, repo-relative ("." for the repository root)
    skipped: tuple[str, ...]  # markdown files under roots left out (indexes, templates, parts)
    other_texts: dict[str, bytes]  # index / CURRENT files under roots, by repo-relative path
    uses_git: bool = False  # files came from git (``git ls-files``, or a revision's tree)
    # markdown under the roots that git does not track (and does not ignore); read as records
    # when ``untracked_checked`` (manual runs), else only named in a note
    untracked: tuple[str, ...] = ()
    file_list: Sequence[str] = ()  # ``repo_files`` as listed (sorted)
    untracked_checked: bool = False
    search: Search = msgspec.field(default_factory=lambda: Search(()))  # the roots and why
    # translation mirrors (also in ``skipped``): path -> the mirror folder or record it belongs to
    mirrors: Mapping[str, str] = msgspec.field(default_factory=dict)

    @property
    def shallow_roots(self) -> frozenset[str]:
        return frozenset(r.path for r in self.search.roots if r.shallow)


def discover(
    repo_root: Path,
    config: Config,
    store: Store | None = None,
    *,
    untracked: bool = False,
    extra_roots: Sequence[str] = (),
) -> Discovery:
    """Find the ADR roots, enumerate the files, classify and read the records. ``repo_root`` is
    resolved already (see :func:`adrguard.api.resolve_root`); ``store`` keeps git listings.
    ``untracked`` (manual runs) also reads the files under the roots that git neither tracks nor
    ignores; ``extra_roots`` are folders to check as roots for this run (``adrguard check
    DIR``)."""
    base = Path(os.path.abspath(repo_root))
    real_base = os.path.realpath(base)
    listing = _git_listing(base, store)
    unreadable: list[tuple[str, str]] = []
    files = walk(base, unreadable=unreadable) if listing is None else listing
    git_top = listing is not None
    search = find_roots(base, config, files, extra_roots, store=store)
    roots = tuple(r.path for r in search.roots)
    shallow = frozenset(r.path for r in search.roots if r.shallow)
    archive = tuple(config.archive_dirs)
    new_files = _new_files(base, roots, shallow, files, archive) if git_top else []
    visible = sorted({*files, *new_files}) if (untracked and new_files) else files
    plan = _classified(visible, roots, config, shallow, store)
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
        _under_roots(new_files, roots, shallow, config, mirror_keys(plan.mirrors))
        if git_top else ()
    )
    return Discovery(
        sources=sources,
        repo_files=file_set,
        roots=roots,
        skipped=plan.skipped,
        other_texts=others,
        uses_git=git_top,
        untracked=pending,
        file_list=visible,
        untracked_checked=untracked and bool(pending),
        search=search,
        mirrors=plan.mirrors,
    )


class Layout(msgspec.Struct, frozen=True):
    """Discovery without reading a record: the roots, the records (and whether each is archived)
    and the paths of the other texts under the roots (indexes, CURRENT views)."""

    search: Search
    plan: Plan
    others: frozenset[str]
    files: Sequence[str]


def plan_layout(repo_root: Path, config: Config, store: Store | None = None) -> Layout:
    """The layout of the log as :func:`discover` classifies it (tracked files inside git),
    without reading the records; no root at all is an empty layout, not an error."""
    base = Path(os.path.abspath(repo_root))
    listing = _git_listing(base, store)
    files = walk(base) if listing is None else listing
    search = find_roots(base, config, files, required=False, store=store)
    roots = tuple(r.path for r in search.roots)
    shallow = frozenset(r.path for r in search.roots if r.shallow)
    plan = classify(files, roots, config, shallow=shallow)
    others = other_text_paths(frozenset(files), roots, plan, config, shallow)
    return Layout(search, plan, frozenset(others), files)


def mirror_keys(mirrors: Mapping[str, str]) -> dict[str, str]:
    """A plan's ``mirrors`` (path -> mirror folder, or translated record) as ``classify`` takes
    them, to classify part of a listing the way the whole listing was."""
    return {
        (m if path.startswith(m + "/") else path): m for path, m in mirrors.items()
    }


# --- roots ------------------------------------------------------------------------------


def find_roots(
    base: Path,
    config: Config,
    files: Sequence[str] | None = None,
    extra: Sequence[str] = (),
    *,
    required: bool = True,
    store: Store | None = None,
) -> Search:
    """The configured roots, else the detected ones (:mod:`adrguard.adapters.roots`), plus the
    ``extra`` folders given for this run. No root at all is a one-line ``UserError`` that says
    where adrguard looked. ``files``: the repository's files when listed already."""
    real_base = os.path.realpath(base)
    if config.roots:
        search = Search(configured(base, config))
    else:
        listed = files if files is not None else _git_listing(base, store)
        if listed is None:
            listed = walk(base)
        search = detect(base, listed, config, store)
    roots = list(search.roots)
    for entry in extra:
        path = normalise(entry, base, "the command line")
        if not is_dir_inside(base / path, real_base):
            raise UserError(f"{entry} is not a folder inside {base}")
        holds_root = any(r.path != "." and r.path.startswith(path + "/") for r in roots)
        if path != "." and not holds_root and not covered(path, roots):
            roots.append(Root(path, "given on the command line (for this run)"))
    if not roots and required:
        raise UserError(
            f"no ADR folder found in {base} (looked for {search.looked()}); {CONFIG_HINT}"
        )
    return Search(tuple(sorted(roots, key=lambda r: r.path)), search.examined)


# --- enumeration ------------------------------------------------------------------------


def _git_listing(base: Path, store: Store | None) -> list[str] | None:
    """The tracked files below base inside a git work tree, else None (also when
    git cannot be used there). With a ``store`` the answer is kept, keyed by the bytes of the git
    index and config (:func:`adrguard.adapters.git.state_digest`): an unchanged repository then
    needs no git process."""
    top = next((d for d in (base, *base.parents) if (d / ".git").exists()), None)
    if top is None:
        return None  # not a repository: no need to start git at all
    entry: str | None = None
    if store is not None:
        digest = state_digest(top)
        entry = key("git-files", digest, str(base)) if digest else None
    if entry is not None and store is not None:
        hit = _decode_listing(store.get(entry))
        if hit is not None:
            return hit
    files = tracked_files(base)
    if files is None:
        _refused(base, top)  # a .git that git will not read is an error, never a silent walk
        return None
    if entry is not None and store is not None:
            store.put(entry, msgspec.msgpack.encode(files))
    return files


def _classified(
    files: Sequence[str],
    roots: tuple[str, ...],
    config: Config,
    shallow: frozenset[str],
    store: Store | None,
) -> Plan:
    """:func:`adrguard.adapters.layout.classify` of the listing; with a ``store`` the plan is
    kept, keyed by everything it depends on: the listing itself, the roots, the excludes and
    archive folders, and the code (adrguard's core, by the parser's signature, and the layout
    module). Editing a record changes none of them, so the next run does not classify every
    file again; a damaged entry is a miss."""
    if store is None:
        return classify(files, roots, config, shallow=shallow)
    layout = module_stamp(_LAYOUT_SOURCE)
    if layout is None:
        return classify(files, roots, config, shallow=shallow)
    asked = (list(files), roots, sorted(shallow), config.exclude, config.archive_dirs)
    entry = key("layout plan", parser_signature(), layout, msgspec.msgpack.encode(asked))
    data = store.get(entry)
    if data is not None:
        try:
            return msgspec.msgpack.decode(data, type=Plan)
        except (msgspec.DecodeError, msgspec.ValidationError):
            pass
    plan = classify(files, roots, config, shallow=shallow)
    store.put(entry, msgspec.msgpack.encode(plan))
    return plan


_LAYOUT_SOURCE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "layout.py")



def _decode_listing(data: bytes | None) -> list[str] | None:
    if data is None:
        return None
    try:
        return msgspec.msgpack.decode(data, type=list[str])
    except (msgspec.DecodeError, msgspec.ValidationError):
        return None


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
    why = refusal(base)
    if why is None:
        return
    hint = ""
    if "dubious ownership" in why or "safe.directory" in why:
        hint = (f"; run adrguard as the repository's owner, or trust it with "
                f"`git config --global --add safe.directory {top}`")
    raise UserError(f"git refuses the repository at {top}: {why}{hint}")


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
    base: Path,
    roots: Sequence[str],
    shallow: frozenset[str],
    tracked: Sequence[str],
    archive: Sequence[str] = (),
) -> list[str]:
    """Files under the roots that git neither tracks nor ignores. The roots are listed on disk
    first; git is asked which of the files it does not track it ignores only when there are
    some (so an unchanged log costs no git process)."""
    known = frozenset(tracked)
    on_disk: set[str] = set()
    for root in roots:
        start = "" if root == "." else root
        listed = _shallow_files(base, start, archive) if root in shallow else walk(base, start)
        on_disk.update(p for p in listed if p not in known)
    if not on_disk:
        return []
    return [p for p in untracked_files(base, sorted(set(roots))) if p in on_disk]


def _shallow_files(base: Path, folder: str, archive: Sequence[str] = ()) -> list[str]:
    """The files of a root found by content: directly in it, in its numbered folders, or in
    its archive folders."""
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
        elif is_numbered(name) or name in archive:
            out.extend(walk(base, rel))
    return out


def _under_roots(
    paths: Sequence[str],
    roots: Sequence[str],
    shallow: frozenset[str],
    config: Config,
    mirrors: Mapping[str, str],
) -> tuple[str, ...]:
    """The files among ``paths`` that would be records under the roots."""
    if not paths:
        return ()
    plan = classify(paths, roots, config, shallow=shallow, mirrors=mirrors)
    return tuple(p for p, _, _ in plan.records)


def _other_texts(
    real_base: str,
    files: frozenset[str],
    roots: Sequence[str],
    plan: Plan,
    config: Config,
    shallow: frozenset[str] = frozenset(),
) -> dict[str, bytes]:
    out: dict[str, bytes] = {}
    for path in sorted(other_text_paths(files, roots, plan, config, shallow)):
        got = read_bytes(real_base, path, config.options.max_file_size)
        if got is not None and got[0] is not None:
            out[path] = got[0]
    return out
