"""Which markdown files under the ADR roots are records: one-folder-per-record layouts,
archive folders and the configured excludes (gitwildmatch). Pure: works on path strings."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from adrguard.config import Config

MARKDOWN_SUFFIXES = (".md", ".markdown")
RECORD_README = frozenset({"readme.md", "readme.markdown"})  # casefolded


@dataclass(frozen=True)
class Plan:
    """The records found under the roots, and the markdown files skipped."""

    records: list[tuple[str, str, bool]]  # (path, root, archived), sorted by path
    skipped: tuple[str, ...]


class _Excluder:
    """The configured excludes (gitwildmatch, through pathspec). For the README.md of a
    one-folder-per-record layout the index-name patterns ("README.md") do not apply: that README
    is the record itself."""

    def __init__(self, patterns: Sequence[str]) -> None:
        self.any = _Spec(patterns)
        kept = [p for p in patterns if not _is_index_name(p)]
        self.record = _Spec(kept) if len(kept) != len(patterns) else self.any


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
        self.names = _pathspec(named) if named else None
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


def _is_index_name(pattern: str) -> bool:
    """A pattern naming a README file (it would also exclude per-record README.md files)."""
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


def _folder(
    path: str, folder: str, ordered: Sequence[str], archive: Sequence[str]
) -> _Folder | None:
    root = root_of(path, ordered)  # the same for every file of the folder
    if root is None:
        return None
    rel = folder if root == "." else folder[len(root) + 1 :]
    parts = rel.split("/") if rel else []
    return _Folder(
        root=root,
        rel=rel,
        record_folder=_record_folder([*parts, ""], archive) if parts else None,
        archived=bool(parts) and not set(parts).isdisjoint(archive),
    )


def classify(files: Iterable[str], roots: Sequence[str], config: Config) -> Plan:
    """Split the markdown files under the roots into records and skipped files."""
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
            info = known[where] = _folder(path, where, ordered, archive)
        if info is None:
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
        elif excluder.any(path, rel):
            skipped.append(path)
        else:
            records.append((path, info.root, info.archived))
    records.sort()
    return Plan(records=records, skipped=tuple(sorted(skipped)))


def longest_first(roots: Sequence[str]) -> list[str]:
    """Roots in the order a path is matched against them: the most specific first."""
    return sorted(roots, key=lambda r: (r == ".", -len(r)))
