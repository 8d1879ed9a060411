"""Which markdown files under the ADR roots are records: one-folder-per-record layouts,
archive folders and the configured excludes (gitwildmatch). Pure: works on path strings."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any, NamedTuple

import msgspec

from adrguard.config import Config
from adrguard.core.options import fitness_path, manifest_path
from adrguard.core.parse.formats import template_name
from adrguard.core.parse.mirrors import find_mirrors, mirror_of
from adrguard.core.rootnames import is_numbered

MARKDOWN_SUFFIXES = (".md", ".markdown")
RECORD_README = frozenset({"readme.md", "readme.markdown"})  # casefolded
# Files under a root that rules read as text (indexes, CURRENT views and manifests).
OTHER_TEXT_NAMES = frozenset(
    {"README.md", "readme.md", "index.md", "INDEX.md", "CURRENT.md", "CURRENT.sources.json"}
)
_OTHER_TEXT_SUFFIXES = tuple(OTHER_TEXT_NAMES)  # a cheap first test (endswith, in C)


class Plan(msgspec.Struct, frozen=True):
    """The records found under the roots, and the markdown files skipped."""

    records: list[tuple[str, str, bool]]  # (path, root, archived), sorted by path
    skipped: tuple[str, ...]
    # translation mirrors (also in ``skipped``): path -> the mirror it belongs to
    # (:func:`adrguard.core.parse.mirrors.find_mirrors`)
    mirrors: Mapping[str, str] = msgspec.field(default_factory=dict)


class _Excluder:
    """The configured excludes (gitwildmatch, through pathspec). For the README.md of a
    one-folder-per-record layout the index-name patterns ("README.md") do not apply: that README
    is the record itself (:meth:`record`, built when a log has such a README: most have
    none, and each spec compiles a pattern)."""

    def __init__(self, patterns: Sequence[str]) -> None:
        self.patterns = patterns
        self.any = _Spec(patterns)
        self._record: _Spec | None = None

    def record(self, path: str, rel: str) -> bool:
        if self._record is None:
            kept = [p for p in self.patterns if not _is_index_name(p)]
            self._record = _Spec(kept) if len(kept) != len(self.patterns) else self.any
        return self._record(path, rel)


class _Spec:
    """Excludes matched as pathspec matches them: a pattern naming a file or folder (no slash
    but a trailing one) against the path below the root, a pattern with a path against that and
    the repo-relative path. With a negation (``!``) order matters: every pattern is matched
    against both, in one spec."""

    def __init__(self, patterns: Sequence[str]) -> None:
        if any(p.lstrip().startswith("!") for p in patterns):
            named, rest = [], list(patterns)
        else:
            named = [p for p in patterns if "/" not in p.rstrip("/")]
            rest = [p for p in patterns if "/" in p.rstrip("/")]
        self.names: Any = (_Names.of(named) or _pathspec(named)) if named else None
        self.paths = _pathspec(rest) if rest else None

    def __call__(self, path: str, rel: str) -> bool:
        if self.names is not None and self.names.match_file(rel):
            return True
        return self.paths is not None and bool(
            self.paths.match_file(rel) or self.paths.match_file(path)
        )


def _pathspec(patterns: Iterable[str]) -> Any:
    import pathspec

    return pathspec.GitIgnoreSpec.from_lines(list(patterns))


# What a name pattern may hold to be matched without pathspec: no slash, escape, character
# class, ``?`` or ``**``; no leading ``!`` or ``#`` and no surrounding blanks (gitignore gives
# those a meaning of their own). The built-in excludes are all such patterns.
_NOT_SIMPLE = frozenset("/\\?[]")


def _simple(pattern: str) -> bool:
    return (
        bool(pattern)
        and pattern == pattern.strip()
        and not pattern.startswith(("!", "#"))
        and "**" not in pattern
        and _NOT_SIMPLE.isdisjoint(pattern)
    )


class _Names:
    """Name patterns (``README.md``, ``*XXX*``) matched as pathspec matches them, without
    importing it: gitignore matches such a pattern against every part of a path (``*`` within
    one part), so a path matches when one of its parts does. A path pathspec would first
    rewrite (a leading ``/`` or ``./``, a backslash) or whose line-based regex would read
    differently (a line break), and the empty path, go to pathspec itself."""

    def __init__(self, patterns: Sequence[str]) -> None:
        import re

        self.patterns = tuple(patterns)
        self.part = re.compile(
            "|".join("[^/]*".join(map(re.escape, p.split("*"))) for p in patterns)
        )
        self.spec: Any = None

    @classmethod
    def of(cls, patterns: Sequence[str]) -> _Names | None:
        return cls(patterns) if all(map(_simple, patterns)) else None

    def match_file(self, path: str) -> bool:
        if not path or path.startswith(("/", "./")) or "\n" in path or "\\" in path:
            if self.spec is None:
                self.spec = _pathspec(self.patterns)
            return bool(self.spec.match_file(path))
        fullmatch = self.part.fullmatch
        return any(fullmatch(part) for part in path.split("/"))


def _name_matches(pattern: str, name: str) -> bool:
    """Whether one part of a path matches a simple pattern (``*``: any run of characters):
    the pattern's pieces in order, the first at the start and the last at the end."""
    first, *rest = pattern.split("*")
    if not rest:
        return name == pattern
    *middle, last = rest
    if len(name) < len(first) + len(last) or not name.startswith(first) \
            or not name.endswith(last):
        return False
    at, end = len(first), len(name) - len(last)
    for piece in middle:
        found = name.find(piece, at, end)
        if found < 0:
            return False
        at = found + len(piece)
    return True


def _is_index_name(pattern: str) -> bool:
    """A pattern naming a README file (it would also exclude per-record README.md files)."""
    if _simple(pattern):
        def matches(name: str) -> bool:
            return _name_matches(pattern, name)
    else:
        matches = _pathspec([pattern]).match_file
    return bool(matches("README.md") or matches("readme.md")) and not bool(
        matches("0001-record.md")
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
    """A folder is one record when it has a README and either its name is numbered or dated
    (``0007-x/``, ``2023-03-02-x/``, ``CIP-0036/``) or the README is its only markdown file."""
    if not any(i.casefold() in RECORD_README for i in inner):
        return False
    return name[:1].isdigit() or is_numbered(name) or len(inner) == 1


def _shallow_member(parts: Sequence[str], archive: Sequence[str]) -> bool:
    """A folder of a root found by content that may hold its records: the root, a numbered
    record folder, the root's archive folder, or a numbered record folder in it."""
    if parts and parts[0] in archive:
        parts = parts[1:]
    return not parts or (len(parts) == 1 and is_numbered(parts[0]))


class _Folder(NamedTuple):
    """What :func:`classify` needs to know about a folder, worked out once for its files."""

    root: str
    rel: str  # the folder below the root ("" for the root itself)
    record_folder: str | None  # the one-folder-per-record candidate holding its files
    archived: bool
    shallow: bool = False  # a root found by content: only numbered names directly in it


def _folder(
    path: str,
    folder: str,
    ordered: Sequence[str],
    archive: Sequence[str],
    shallow: Collection[str] = (),
) -> _Folder | None:
    root = root_of(path, ordered)  # the same for every file of the folder
    if root is None:
        return None
    rel = folder if root == "." else folder[len(root) + 1 :]
    parts = rel.split("/") if rel else []
    is_shallow = root in shallow
    if is_shallow and not _shallow_member(parts, archive):
        return None  # below a root found by content, but not one of its record folders
    return _Folder(
        root=root,
        rel=rel,
        record_folder=_record_folder([*parts, ""], archive) if parts else None,
        archived=bool(parts) and not set(parts).isdisjoint(archive),
        shallow=is_shallow,
    )


def classify(
    files: Iterable[str],
    roots: Sequence[str],
    config: Config,
    *,
    shallow: Collection[str] = (),
    mirrors: Mapping[str, str] | None = None,
) -> Plan:
    """Split the markdown files under the roots into records and skipped files. In a
    ``shallow`` root (found by content) only numbered or dated names directly in it, and
    numbered one-folder-per-record folders, are records; its other markdown files are
    skipped. Translation mirrors (``mirrors``: found in ``files`` unless given, see
    :func:`adrguard.core.parse.mirrors.find_mirrors`) are skipped too, and listed."""
    if mirrors is None:
        mirrors = find_mirrors(files := list(files), roots)
    mirrored: dict[str, str] = {}
    ordered = longest_first(roots)
    archive = tuple(config.archive_dirs)
    excluder = _Excluder(config.exclude)
    known: dict[str, _Folder | None] = {}
    found: list[tuple[str, str, _Folder]] = []
    folders: dict[tuple[str, str], list[str]] = {}
    for path in files:
        if not path.lower().endswith(MARKDOWN_SUFFIXES):
            continue
        where, _, name = path.rpartition("/")
        if where in known:
            info = known[where]
        else:
            info = known[where] = _folder(path, where, ordered, archive, shallow)
        if info is None:
            continue
        if mirrors and (mirror := mirror_of(path, mirrors)) is not None:
            mirrored[path] = mirror if mirror != path else mirrors[path]  # folder, or original
            continue
        rel = f"{info.rel}/{name}" if info.rel else name
        found.append((path, rel, info))
        if info.record_folder is not None:
            inner = rel[len(info.record_folder) + 1 :]
            folders.setdefault((info.root, info.record_folder), []).append(inner)
    per_record = {
        key for key, inner in folders.items() if _is_record_folder(key[1].rsplit("/", 1)[-1], inner)
    }
    records: list[tuple[str, str, bool]] = []
    skipped: list[str] = []
    for path, rel, info in found:
        folder = info.record_folder
        if folder is not None and (info.root, folder) in per_record:
            is_readme = rel[len(folder) + 1 :].casefold() in RECORD_README
            if is_readme and not excluder.record(path, rel):
                records.append((path, info.root, info.archived))
            else:
                skipped.append(path)  # a part of a record (renaming.md), or excluded
        elif excluder.any(path, rel) or (
            info.shallow
            and (info.rel not in ("", *archive) or not is_numbered(path.rsplit("/", 1)[-1]))
        ):
            skipped.append(path)
        else:
            records.append((path, info.root, info.archived))
    records.sort()
    skipped.extend(mirrored)
    return Plan(records=records, skipped=tuple(sorted(skipped)), mirrors=mirrored)


def longest_first(roots: Sequence[str]) -> list[str]:
    """Roots in the order a path is matched against them: the most specific first."""
    return sorted(roots, key=lambda r: (r == ".", -len(r)))


def other_text_paths(
    files: frozenset[str],
    roots: Sequence[str],
    plan: Plan,
    config: Config,
    shallow: Collection[str] = frozenset(),
) -> set[str]:
    """Index and CURRENT files under the roots (in a shallow root: directly in it), the log's
    templates (skipped files named as templates: a record that follows one is held to its
    sections), the configured index/CURRENT paths and the impact and fitness manifests, records
    excepted: the texts rules read besides the records."""
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
    wanted.update(p for p in plan.skipped if p.endswith(MARKDOWN_SUFFIXES) and template_name(p))
    return wanted - records


def _configured_paths(roots: Sequence[str], config: Config) -> set[str]:
    def joined(root: str, rel: str) -> str:
        return rel if root in ("", ".") else f"{root}/{rel}"

    names = [
        config.options.index.path,
        config.options.current.view,
        config.options.current.manifest,
    ]

    out: set[str] = {manifest_path(config.options)}  # the impact manifest (ADR502-ADR504)
    out.add(fitness_path(config.options))  # the fitness manifest (ADR701-ADR704)
    for name in names:
        if name:
            out.add(name.lstrip("/"))
            out.update(joined(r, name) for r in roots)
    for root, name in config.options.index.paths.items():
        if name:
            out.update({name.lstrip("/"), joined(str(root).strip("/"), name)})
    return out
