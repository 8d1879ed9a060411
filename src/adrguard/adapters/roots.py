"""Where a repository keeps its decision records: the configured roots, else the roots found by
name, by the ADR tools' own settings, and by content. Every root comes with why it was chosen
(``adrguard check -v`` prints it); detection is bounded (folders examined, files read) and
deterministic (sorted, no clocks).

The judgements on names and parsed records are pure (:mod:`adrguard.core.rootnames`); this
module lists folders and reads the few files the content test needs. With the record cache's
store, how many of a folder's sampled files read like records is kept, keyed by everything the
parse depends on (the parser's signature, the parse options, each file's path, folder and
bytes): a warm run of a log found by content then parses nothing.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec

from adrguard.adapters.cache.keys import Uncacheable, options_key, parser_signature
from adrguard.adapters.cache.store import digest, key
from adrguard.adapters.reading import read_bytes
from adrguard.config import DEFAULT_ROOTS, Config
from adrguard.core import rootnames
from adrguard.core.errors import UserError
from adrguard.core.model import SourceFile
from adrguard.core.relpath import is_git_name
from adrguard.pathguard import is_inside

if TYPE_CHECKING:
    from adrguard.adapters.cache.store import Store

MARKDOWN = (".md", ".markdown")
RECORD_README = frozenset({"readme.md", "readme.markdown"})
MIN_NUMBERED = 3  # numbered or dated markdown files a folder needs before its content is read
SAMPLE = 8  # files read per candidate folder
MAX_CANDIDATES = 64  # candidate folders examined by content
READ_LIMIT = 64 * 1024  # bytes of each sampled file that are parsed
_GLOB = frozenset("*?[")  # a configured root holding one of them is a glob


class Root(msgspec.Struct, frozen=True):
    """An ADR root: repo-relative folder ("." for the repository root) and why it is one.

    ``shallow`` roots were found by content: their records are the numbered or dated markdown
    files directly in the folder (and numbered one-folder-per-record subfolders); other files
    there (README.md, CONTRIBUTING.md) and other subfolders are not part of the log."""

    path: str
    why: str
    shallow: bool = False


class Search(msgspec.Struct, frozen=True):
    """The outcome of root detection: the roots, and what was looked at (for messages)."""

    roots: tuple[Root, ...]
    examined: tuple[str, ...] = ()  # candidate folders whose content was read, sorted

    def looked(self) -> str:
        """Where detection looked, in one clause (for "found nothing" errors)."""
        names = ", ".join(sorted(rootnames.LOG_NAMES - {"decision-log"})[:6])
        text = (
            f"folders named {names}, ... (any case) at the top or below a docs folder; "
            ".adr-dir and .log4brains.yml; folders of numbered markdown files that read like "
            "decision records"
        )
        if self.examined:
            shown = ", ".join(self.examined[:5]) + (" ..." if len(self.examined) > 5 else "")
            text += f" (read samples of {shown}: none looked like a log)"
        return text


def is_dir_inside(path: Path, real_base: str) -> bool:
    return path.is_dir() and is_inside(os.path.realpath(path), real_base)


# --- configured roots -------------------------------------------------------------------------


def normalise(entry: str, base: Path, where: str) -> str:
    """A roots entry as a repo-relative POSIX path; absolute paths inside ``base`` allowed."""
    text = entry.strip().replace("\\", "/")
    if os.path.isabs(text):
        try:
            text = Path(text).resolve().relative_to(base.resolve()).as_posix()
        except ValueError:
            raise UserError(f"{where}: roots entry {entry!r} is outside {base}") from None
    parts = [p for p in text.split("/") if p not in ("", ".")]
    if ".." in parts:
        raise UserError(f"{where}: roots entry {entry!r} must stay inside the repository (no '..')")
    if any(is_git_name(p) for p in parts):
        raise UserError(f"{where}: roots entry {entry!r} is inside git's own folder (.git), "
                        "which adrguard never reads or writes; name a folder of the work tree")
    return "/".join(parts) or "."


def configured(base: Path, config: Config) -> tuple[Root, ...]:
    """The configured roots (globs match folders); an entry that matches nothing is an error."""
    real_base = os.path.realpath(base)
    where = config.source or "configuration"
    roots: list[Root] = []
    for entry in config.roots:
        name = normalise(entry, base, where)
        if not _GLOB.isdisjoint(name):
            matches = sorted(
                rel
                for p in base.glob(name)
                if ".git" not in (rel := p.relative_to(base).as_posix()).split("/")
                and is_dir_inside(p, real_base)
            )
        else:
            matches = [name] if is_dir_inside(base / name, real_base) else []
        if not matches:
            raise UserError(
                f"{where}: roots entry {entry!r} matches no folder in {base}; "
                "fix `roots` (paths and globs are relative to the repository root)"
            )
        for m in matches:
            if all(r.path != m for r in roots):
                roots.append(Root(m, f"configured in {where} ({entry})"))
    return tuple(roots)


# --- detection --------------------------------------------------------------------------------


def _folders(files: Iterable[str]) -> dict[str, list[str]]:
    """Folder -> names of the markdown files directly in it, for every folder holding some."""
    out: dict[str, list[str]] = {}
    for path in files:
        if path.lower().endswith(MARKDOWN):
            folder, _, name = path.rpartition("/")
            out.setdefault(folder or ".", []).append(name)
    return out


def _ancestors(folder: str) -> Iterable[str]:
    parts = folder.split("/")
    for i in range(1, len(parts) + 1):
        yield "/".join(parts[:i])


def covered(path: str, roots: Sequence[Root]) -> bool:
    """Inside (or equal to) a root that takes every file below it, or equal to any root."""
    return any(
        path == r.path
        or (not r.shallow and (r.path == "." or path.startswith(r.path + "/")))
        for r in roots
    )


def _tool_roots(base: Path, real_base: str, files: frozenset[str]) -> list[Root]:
    """Folders the ADR tools themselves were told to use: adr-tools' ``.adr-dir`` and
    log4brains' ``.log4brains.yml`` (``project.adrFolder``, ``packages[].adrFolder``)."""
    found: list[tuple[str, str]] = []
    if ".adr-dir" in files:
        text = _read_text(base / ".adr-dir", 4096)
        first = text.strip().splitlines()[0] if text.strip() else ""
        found.append((first, "named in .adr-dir (adr-tools)"))
    if ".log4brains.yml" in files:
        for folder in _log4brains_folders(_read_text(base / ".log4brains.yml", 65536)):
            found.append((folder, "named in .log4brains.yml (log4brains)"))
    out: list[Root] = []
    for raw, why in found:
        try:
            path = normalise(raw, base, why)
        except UserError:
            continue
        if path != "." and is_dir_inside(base / path, real_base):
            out.append(Root(path, why))
    return out


def _log4brains_folders(text: str) -> list[str]:
    """The ``adrFolder`` values of a ``.log4brains.yml``; a file YAML cannot load, or nested
    deeper than any log4brains configuration is (flow brackets counted, quotes or not, before
    loading; a loader's recursion caught after), names none."""
    import yaml

    if _flow_depth(text) > _YAML_DEPTH:
        return []
    try:
        data = yaml.safe_load(text)
    except (yaml.YAMLError, RecursionError, ValueError):
        return []
    if not isinstance(data, dict):
        return []
    out: list[str] = []
    project = data.get("project")
    if isinstance(project, dict) and isinstance(project.get("adrFolder"), str):
        out.append(project["adrFolder"])
        packages = project.get("packages")
    else:
        packages = data.get("packages")
    for pkg in packages if isinstance(packages, list) else []:
        if isinstance(pkg, dict) and isinstance(pkg.get("adrFolder"), str):
            out.append(pkg["adrFolder"])
    return out


_YAML_DEPTH = 64


def _flow_depth(text: str) -> int:
    """How deeply ``[``/``{`` nest in ``text``, counting every bracket (an over-estimate)."""
    from itertools import accumulate

    steps = {"[": 1, "{": 1, "]": -1, "}": -1}
    brackets = [steps[c] for c in text if c in steps]
    return max(accumulate(brackets), default=0)


def _read_text(path: Path, limit: int) -> str:
    got = read_bytes(os.path.dirname(os.path.realpath(path)), path.name, limit)
    if got is None or got[0] is None:
        return ""
    return got[0].decode("utf-8", "replace")


def _named(folders: dict[str, list[str]]) -> list[Root]:
    """Folders named like a decision log that hold markdown (directly or below)."""
    holding: set[str] = set()
    for folder in folders:
        holding.update(_ancestors(folder) if folder != "." else ())
    children = _children(folders)
    return [
        Root(f, f"named like a decision log ({f.rsplit('/', 1)[-1]}/)")
        for f in sorted(holding)
        if rootnames.is_log_name(f.rsplit("/", 1)[-1])
        and rootnames.named_root(f, bool(_numbered(f, folders, children)))
    ]


def _children(folders: dict[str, list[str]]) -> dict[str, list[str]]:
    """Folder -> names of its direct subfolders that hold markdown themselves."""
    out: dict[str, list[str]] = {}
    for folder in folders:
        if folder != ".":
            parent, _, name = folder.rpartition("/")
            out.setdefault(parent or ".", []).append(name)
    return out


def _numbered(
    folder: str, folders: dict[str, list[str]], children: dict[str, list[str]]
) -> list[str]:
    """The numbered markdown files directly in ``folder`` plus the README.md of its numbered
    record folders (one folder per record)."""
    out = [n for n in folders.get(folder, ()) if rootnames.is_numbered(n)]
    for sub in children.get(folder, ()):
        if rootnames.is_numbered(sub):
            inner = folders[sub if folder == "." else f"{folder}/{sub}"]
            out.extend(f"{sub}/{n}" for n in inner if n.casefold() in RECORD_README)
    return out


def _candidates(
    folders: dict[str, list[str]], chosen: Sequence[Root]
) -> list[tuple[str, list[str]]]:
    children = _children(folders)
    found: list[tuple[str, list[str]]] = []
    for folder in {*folders, *children}:
        parts = [] if folder == "." else folder.split("/")
        if parts and not rootnames.is_searchable(parts):
            continue
        if covered(folder, chosen):
            continue
        numbered = _numbered(folder, folders, children)
        if len(numbered) >= MIN_NUMBERED:
            found.append((folder, numbered))
    # the folders with the most numbered files first, then by path: bounded and deterministic
    found.sort(key=lambda item: (-len(item[1]), item[0]))
    return sorted(found[:MAX_CANDIDATES])


def _by_content(
    base: Path,
    real_base: str,
    config: Config,
    candidates: list[tuple[str, list[str]]],
    store: Store | None = None,
) -> list[Root]:
    if not candidates:
        return []

    signature = _sample_signature(config) if store is not None else None
    out: list[Root] = []
    for folder, numbered in candidates:
        picked = rootnames.sample(numbered, SAMPLE)
        sources: list[SourceFile] = []
        for name in picked:
            path = name if folder == "." else f"{folder}/{name}"
            got = read_bytes(real_base, path, config.options.max_file_size)
            if got is None or got[0] is None:
                continue
            sources.append(SourceFile(path, folder, got[0][:READ_LIMIT]))
        looks = _looks(sources, config, store, signature)
        if looks >= 2 and looks * 3 >= len(picked) * 2:
            out.append(
                Root(
                    folder,
                    f"{len(numbered)} numbered or dated markdown files; {looks} of the "
                    f"{len(picked)} read look like decision records",
                    shallow=True,
                )
            )
    return out


def _sample_signature(config: Config) -> bytes | None:
    """What a sampled file's answer depends on besides its path, folder and bytes: the parser's
    signature, the parse options (as the record cache keys records) and this module. None when
    the options cannot be written out faithfully (then nothing is kept)."""
    try:
        options = options_key(config.options)
    except Uncacheable:
        return None
    # this module counts the answers: keyed by its size and mtime, as the parser's source is
    here = Path(__file__).stat()
    return digest("root-sample", parser_signature(), options, f"{here.st_size} {here.st_mtime_ns}")


def _looks(
    sources: Sequence[SourceFile], config: Config, store: Store | None, signature: bytes | None
) -> int:
    """How many of ``sources`` (one folder's sample) read like decision records: kept in
    ``store`` under the signature and every source's path, folder and SHA-256, so a sample
    whose files did not change is never parsed again; a damaged entry is a miss."""
    entry: str | None = None
    if store is not None and signature is not None:
        import hashlib

        parts: list[str | bytes] = [signature]
        for src in sources:
            parts += [src.path, src.root, hashlib.sha256(src.data or b"").digest()]
        entry = key(*parts)
        hit = store.get(entry)
        if hit is not None and hit.isdigit() and int(hit) <= len(sources):
            return int(hit)
    from adrguard.core.parse.record import parse

    looks = sum(1 for src in sources if rootnames.looks_like_record(parse(src, config.options)))
    if entry is not None and store is not None:
        store.put(entry, b"%d" % looks)
    return looks


def detect(
    base: Path, files: Sequence[str], config: Config, store: Store | None = None
) -> Search:
    """Roots by tool settings, by name and by content (see the module docstring), with nested
    roots dropped where an enclosing root already takes their files. ``store``: the record
    cache's, which keeps the content test's answers."""
    real_base = os.path.realpath(base)
    folders = _folders(files)
    chosen: list[Root] = []
    empty = [  # the usual names, present but still empty (a new log): roots all the same
        Root(r, f"named like a decision log ({r.rsplit('/', 1)[-1]}/); no records yet")
        for r in DEFAULT_ROOTS
        if is_dir_inside(base / r, real_base)
    ]
    for root in (*_tool_roots(base, real_base, frozenset(files)), *_named(folders), *empty):
        if not covered(root.path, chosen):
            chosen = [r for r in chosen if not covered(r.path, [root])] + [root]
    candidates = _candidates(folders, chosen)
    chosen.extend(_by_content(base, real_base, config, candidates, store))
    chosen.sort(key=lambda r: r.path)
    examined = tuple(sorted(f for f, _ in candidates))
    return Search(tuple(chosen), examined)
