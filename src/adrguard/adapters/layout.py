"""Which markdown files under the ADR roots are records: one-folder-per-record layouts,
archive folders and the configured excludes (gitwildmatch). Pure: works on path strings."""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from adrguard.config import Config
from adrguard.core.rootnames import is_numbered

MARKDOWN_SUFFIXES = (".md", ".markdown")
RECORD_README = frozenset({"readme.md", "readme.markdown"})  # casefolded
_NAMED = re.compile(r"\(\?P<\w+>")


@dataclass(frozen=True)
class Plan:
    """The records found under the roots, and the markdown files skipped."""

    records: list[tuple[str, str, bool]]  # (path, root, archived), sorted by path
    skipped: tuple[str, ...]


class _Excluder:
    """The configured excludes (gitwildmatch) matched against the path below the root and the
    repo-relative path. For the README.md of a one-folder-per-record layout the index-name
    patterns ("README.md") do not apply: that README is the record itself."""

    def __init__(self, patterns: Sequence[str]) -> None:
        self.any = _matcher(patterns)
        kept = [p for p in patterns if not _is_index_name(p)]
        self.record = _matcher(kept) if len(kept) != len(patterns) else self.any


def _pathspec(patterns: Iterable[str]) -> Any:
    import pathspec

    lines = list(patterns)
    try:
        return pathspec.PathSpec.from_lines("gitignore", lines)
    except (KeyError, LookupError):  # pathspec < 1.0 names it "gitwildmatch"
        return pathspec.PathSpec.from_lines("gitwildmatch", lines)


_ANY_DIR, _DIR_OR_END = "^(?:.+/)?", "(?:/|$)"
_PLAIN_SPECIALS = frozenset("/\\[]!#")


def _simple_regex(pattern: str) -> str | None:
    """The regex pathspec writes for a plain file-name glob (letters, ``*`` and ``?`` only:
    ``README.md``, ``0000-*template*``), written here without importing pathspec (start-up
    time; every default exclude is one). None for any other pattern: pathspec handles it."""
    if (
        not pattern
        or "**" in pattern
        or not pattern.strip("*?")
        or not _PLAIN_SPECIALS.isdisjoint(pattern)
        or any(c.isspace() for c in pattern)
    ):
        return None
    body = "".join("[^/]*" if c == "*" else "[^/]" if c == "?" else re.escape(c) for c in pattern)
    return f"{_ANY_DIR}{body}{_DIR_OR_END}"


def _names_only(patterns: Sequence[str]) -> list[str] | None:
    """The name regexes of the patterns when every one is plain (see :func:`_simple_regex`)."""
    names: list[str] = []
    for p in patterns:
        text = _simple_regex(p)
        if text is None:
            return None
        names.append(text.removeprefix(_ANY_DIR))
    return names


def _matcher(patterns: Sequence[str]) -> _Matcher:
    """A predicate over (repo path, path below the root). Without negations the patterns are
    joined into two regexes (a name regex tried on each part below the root, a path regex):
    pathspec tries them one by one, which is 20 times slower on 10,000 files."""
    plain = _names_only(patterns)
    if plain is not None:
        return _Matcher(plain, [])
    spec = _pathspec(patterns)
    used = [p for p in spec.patterns if p.include is not None]
    if any(not p.include for p in used) or any(not hasattr(p, "regex") for p in used):
        return _Matcher([], [], spec)
    names: list[str] = []
    paths: list[str] = []
    for p in used:
        text = _NAMED.sub("(?:", p.regex.pattern)
        rest = text.removeprefix(_ANY_DIR)
        core = rest.removesuffix(_DIR_OR_END).replace("[^/]", "")
        if text.startswith(_ANY_DIR) and "/" not in core:
            names.append(rest)
        else:
            paths.append(text)
    return _Matcher(names, paths)


class _Matcher:
    """``(path, rel) -> excluded``: a name regex tried on each part of ``rel``, a path regex
    tried on ``rel`` and ``path``, or (with negations) pathspec itself. :meth:`in_file` takes
    the verdict on the folder parts, worked out once per folder (see :func:`classify`)."""

    def __init__(self, names: list[str], paths: list[str], spec: Any = None) -> None:
        self.name_rx = re.compile("|".join(f"(?:{n})" for n in names)) if names else None
        self.path_rx = re.compile("|".join(f"(?:{n})" for n in paths)) if paths else None
        self.spec = spec

    def __call__(self, path: str, rel: str) -> bool:
        parts = rel.split("/")
        return self.in_file(path, rel, parts[-1], self.in_folder(parts[:-1]))

    def in_folder(self, parts: Sequence[str]) -> bool:
        """Whether a folder part (below the root) matches a name pattern."""
        rx = self.name_rx
        return rx is not None and any(rx.match(part) for part in parts)

    def in_file(self, path: str, rel: str, name: str, folder_hit: bool) -> bool:
        if self.spec is not None:
            return bool(self.spec.match_file(rel) or self.spec.match_file(path))
        if folder_hit or (self.name_rx is not None and self.name_rx.match(name)):
            return True
        rx = self.path_rx
        return rx is not None and bool(rx.match(rel) or rx.match(path))


def _is_index_name(pattern: str) -> bool:
    """A pattern naming a README file (it would also exclude per-record README.md files)."""
    plain = _simple_regex(pattern)
    if plain is not None:
        rx = re.compile(plain)
        return bool(rx.match("README.md") or rx.match("readme.md")) and not rx.match(
            "0001-record.md"
        )
    spec = _pathspec([pattern])
    return bool(spec.match_file("README.md") or spec.match_file("readme.md")) and not bool(
        spec.match_file("0001-record.md")
    )


def root_of(path: str, roots_longest_first: Sequence[str]) -> str | None:
    for root in roots_longest_first:
        if root == "." or path.startswith(root + "/"):
            return root
    return None


def _record_folder(parts: Sequence[str], archive_dirs: Sequence[str]) -> str | None:
    """The folder that would hold a one-folder-per-record record: directly below the root,
    or directly below an archive folder."""
    if parts[0] in archive_dirs:
        return f"{parts[0]}/{parts[1]}" if len(parts) >= 3 else None
    return parts[0] if len(parts) >= 2 else None


def _is_record_folder(name: str, inner: Sequence[str]) -> bool:
    """A folder is one record when it has a README and either its name starts with a digit
    (``0007-x/``, ``2023-03-02-x/``) or the README is its only markdown file."""
    if not any(i.casefold() in RECORD_README for i in inner):
        return False
    return name[:1].isdigit() or len(inner) == 1


class _Folder(NamedTuple):
    """What :func:`classify` needs to know about a folder, worked out once for its files."""

    root: str
    rel: str  # the folder below the root ("" for the root itself)
    record_folder: str | None  # the one-folder-per-record candidate holding its files
    archived: bool
    hit_any: bool  # a folder part matches an exclude name (all patterns)
    hit_record: bool  # the same, for the patterns that apply to a record's README
    shallow: bool = False  # a root found by content: only numbered names directly in it


def _folder(
    path: str,
    folder: str,
    ordered: Sequence[str],
    archive: Sequence[str],
    excluder: _Excluder,
    shallow: Collection[str] = (),
) -> _Folder | None:
    root = root_of(path, ordered)  # the same for every file of the folder
    if root is None:
        return None
    rel = folder if root == "." else folder[len(root) + 1 :]
    parts = rel.split("/") if rel else []
    is_shallow = root in shallow
    if is_shallow and (len(parts) > 1 or (parts and not is_numbered(parts[0]))):
        return None  # below a root found by content, but not one of its record folders
    return _Folder(
        root=root,
        rel=rel,
        record_folder=_record_folder([*parts, ""], archive) if parts else None,
        archived=bool(parts) and not set(parts).isdisjoint(archive),
        hit_any=excluder.any.in_folder(parts),
        hit_record=excluder.record.in_folder(parts),
        shallow=is_shallow,
    )


def classify(
    files: Iterable[str],
    roots: Sequence[str],
    config: Config,
    *,
    shallow: Collection[str] = (),
) -> Plan:
    """Split the markdown files under the roots into records and skipped files. In a
    ``shallow`` root (found by content) only numbered or dated names directly in it, and
    numbered one-folder-per-record folders, are records; its other markdown files are
    skipped."""
    ordered = longest_first(roots)
    archive = tuple(config.archive_dirs)
    excluder = _Excluder(config.exclude)
    known: dict[str, _Folder | None] = {}
    found: list[tuple[str, str, str, _Folder]] = []
    folders: dict[tuple[str, str], list[str]] = {}
    for path in files:
        if not path.lower().endswith(MARKDOWN_SUFFIXES):
            continue
        where, _, name = path.rpartition("/")
        if where in known:
            info = known[where]
        else:
            info = known[where] = _folder(path, where, ordered, archive, excluder, shallow)
        if info is None:
            continue
        rel = f"{info.rel}/{name}" if info.rel else name
        found.append((path, name, rel, info))
        if info.record_folder is not None:
            inner = rel[len(info.record_folder) + 1 :]
            folders.setdefault((info.root, info.record_folder), []).append(inner)
    per_record = {
        key for key, inner in folders.items() if _is_record_folder(key[1].rsplit("/", 1)[-1], inner)
    }
    records: list[tuple[str, str, bool]] = []
    skipped: list[str] = []
    for path, name, rel, info in found:
        folder = info.record_folder
        if folder is not None and (info.root, folder) in per_record:
            is_readme = rel[len(folder) + 1 :].casefold() in RECORD_README
            if is_readme and not excluder.record.in_file(path, rel, name, info.hit_record):
                records.append((path, info.root, info.archived))
            else:
                skipped.append(path)  # a part of a record (renaming.md), or excluded
        elif excluder.any.in_file(path, rel, name, info.hit_any) or (
            info.shallow and (info.rel or not is_numbered(name))
        ):
            skipped.append(path)
        else:
            records.append((path, info.root, info.archived))
    records.sort()
    return Plan(records=records, skipped=tuple(sorted(skipped)))


def longest_first(roots: Sequence[str]) -> list[str]:
    """Roots in the order a path is matched against them: the most specific first."""
    return sorted(roots, key=lambda r: (r == ".", -len(r)))
