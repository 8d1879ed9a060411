"""What the guard knows about a log: its roots, its archive folder names, every record (and
whether it is archived) and the navigation files (INDEX, CURRENT, README under the roots).

Built by discovery (the same classification ``adrguard check`` makes), so "archived" means what
it means everywhere else: a record in an archive folder (``archive-dirs``) below an ADR root,
never any folder that happens to be called ``archive``. Paths are repo-relative POSIX strings.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from enum import StrEnum

from adrguard.core.lazyre import lazy

MARKDOWN = (".md", ".markdown")


class PathState(StrEnum):
    """What a path is to the log."""

    OUTSIDE = "outside"  # not below an ADR root and not a record: not the guard's business
    ACTIVE = "active"  # a record that is not archived
    ARCHIVED = "archived"  # a record in an archive folder of its root
    NAVIGATION = "navigation"  # INDEX, CURRENT, README and the like under a root
    OTHER = "other"  # anything else below a root (images, templates, folders)


class LogLayout:
    """The log as the guard sees it (a plain class, not a dataclass: see :mod:`.policy`)."""

    __slots__ = ("_folded", "_ordered", "archive_dirs", "navigation", "records", "roots")

    def __init__(
        self,
        roots: Iterable[str],
        archive_dirs: Iterable[str] = ("archive",),
        records: Mapping[str, bool] | None = None,
        navigation: Iterable[str] = (),
    ) -> None:
        self.roots = tuple(roots)  # ADR roots, repo-relative ("." for the repository root)
        self.archive_dirs = tuple(archive_dirs)
        self.records: Mapping[str, bool] = dict(records or {})  # tracked record -> archived
        self.navigation = frozenset(navigation)
        self._ordered = tuple(sorted(self.roots, key=lambda r: (r == ".", -len(r))))
        self._folded: dict[str, str] | None = None

    def root_of(self, path: str) -> str | None:
        """The most specific root ``path`` is below (or is)."""
        for root in self._ordered:
            if root == "." or path == root or path.startswith(root + "/"):
                return root
        return None

    def state(self, path: str) -> PathState:
        archived = self.records.get(path)
        if archived is not None:
            return PathState.ARCHIVED if archived else PathState.ACTIVE
        if path in self.navigation:
            return PathState.NAVIGATION
        root = self.root_of(path)
        if root is None:
            return PathState.OUTSIDE
        if self._in_archive(path, root) and path.casefold().endswith(MARKDOWN):
            # markdown in an archive folder that git does not list (yet): judged by the same
            # layout rule discovery applies to listed files
            return PathState.ARCHIVED
        return PathState.OTHER

    def _in_archive(self, path: str, root: str) -> bool:
        rel = path if root == "." else path[len(root) + 1 :]
        folders = rel.split("/")[:-1]
        return not set(folders).isdisjoint(self.archive_dirs)

    def same_path(self, path: str) -> str | None:
        """The listed record or navigation file that ``path`` names with other letter case
        (for file systems that ignore case; the caller confirms it is the same file)."""
        if self._folded is None:
            self._folded = {p.casefold(): p for p in (*self.records, *self.navigation)}
        hit = self._folded.get(path.casefold())
        return hit if hit is not None and hit != path else None

    def records_in(self, scope: str) -> list[str]:
        """The records at or below ``scope`` ("." is the whole repository), sorted."""
        if scope in (".", ""):
            return sorted(self.records)
        prefix = scope.rstrip("/") + "/"
        return sorted(p for p in self.records if p == scope or p.startswith(prefix))

    def matching(self, pattern: str) -> list[str]:
        """The records and navigation files a shell wildcard (``*``, ``?``, ``[...]``; none of
        them crosses a ``/``) names, sorted. Nothing is listed on disk: only what the log holds."""
        regex = _wildcard(pattern)
        if regex is None:
            return []
        return sorted(p for p in (*self.records, *self.navigation) if regex.fullmatch(p))


def _wildcard(pattern: str) -> re.Pattern[str] | None:
    """A shell wildcard as a regex: ``*`` and ``?`` never match ``/``; ``[...]`` is a class
    (``[!...]`` negated). None when a bracket is not closed (the shell then takes it literally,
    and so does the caller)."""
    out: list[str] = []
    i, n = 0, len(pattern)
    while i < n:
        c = pattern[i]
        if c == "*":
            out.append("[^/]*")
        elif c == "?":
            out.append("[^/]")
        elif c == "[":
            j = pattern.find("]", i + 2 if pattern[i + 1 : i + 2] in ("!", "^", "]") else i + 1)
            if j < 0:
                return None
            body = pattern[i + 1 : j]
            negate = body[:1] in ("!", "^")
            body = body[1:] if negate else body
            escaped = "".join("\\" + ch if ch in "\\^]" else ch for ch in body)
            out.append(f"(?!/)[^{escaped}]" if negate else f"[{escaped}]")
            i = j
        else:
            out.append(re.escape(c))
        i += 1
    return re.compile("".join(out))


def has_wildcard(text: str) -> bool:
    return any(c in text for c in "*?[")


_BRACE = lazy(r"\{([^{}]*,[^{}]*)\}")


def braces(text: str, limit: int) -> list[str] | None:
    """``a{b,c}d`` -> ``abd``, ``acd`` (the shell's and ripgrep's alternatives, innermost
    first); None when there would be more than ``limit`` of them."""
    todo, done = [text], []
    while todo:
        item = todo.pop()
        m = _BRACE.search(item)
        if m is None:
            done.append(item)
        else:
            head, tail = item[: m.start()], item[m.end() :]
            todo.extend(head + part + tail for part in m.group(1).split(","))
        if len(todo) + len(done) > limit:
            return None
    return sorted(done)
