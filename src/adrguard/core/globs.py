"""Gitwildmatch globs (pathspec), matched in bulk.

Many ordered glob lists (one per mapping) are matched against many paths at once without
looping paths × patterns: every distinct glob is compiled once, globs are grouped by their
literal directory prefix, and each group only scans the slice of the sorted paths that starts
with that prefix (found by bisection). Globs without a prefix (``*.sql``, ``**/api``) scan
every path through ``filter`` with the compiled regex, which runs in C.

Inside one list the last glob that matches a path decides, as in ``.gitignore``: ``!glob``
takes a path back out.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable, Iterable, Sequence
from functools import cache
from typing import Any

_META = frozenset("*?[\\")


def _pattern_class() -> Callable[[str], Any]:
    import pathspec

    try:
        return pathspec.lookup_pattern("gitignore")
    except KeyError:  # pathspec < 1.0
        return pathspec.lookup_pattern("gitwildmatch")


def glob_problem(glob: str) -> str | None:
    """Why ``glob`` is not a usable repo-relative gitwildmatch glob, or None when it is."""
    body = glob[1:] if glob.startswith("!") else glob
    if not body.strip():
        return "an empty glob matches nothing"
    if body.startswith(("/", "\\")) or re.match(r"^[A-Za-z]:[\\/]", body):
        return "absolute paths are not allowed: write the path relative to the repository root"
    if ".." in re.split(r"[\\/]", body):
        return "'..' escapes the repository: write the path relative to the repository root"
    try:
        compiled = _compile(body)
    except ValueError as exc:
        return f"not a valid gitwildmatch glob ({exc})"
    if compiled is None:
        return "the glob is a comment or empty and matches nothing"
    return None


@cache
def _compile(body: str) -> re.Pattern[str] | None:
    """The regex of a glob without its ``!``; ValueError when pathspec rejects it."""
    try:
        pattern = _pattern_class()(body)
    except Exception as exc:  # pathspec raises its own error classes, all ValueError-like
        raise ValueError(str(exc)) from None
    if pattern.include is None or pattern.regex is None:
        return None
    return re.compile(pattern.regex.pattern, re.DOTALL)


def literal_prefix(body: str) -> str:
    """A string every path the glob matches starts with ("" when it can match anywhere)."""
    trimmed = body.rstrip("/")
    if "/" not in trimmed:  # no inner slash: matches at any depth
        return ""
    segments = trimmed.lstrip("/").split("/")
    literal: list[str] = []
    for seg in segments:
        if _META.intersection(seg):
            break
        literal.append(seg)
    if len(literal) == len(segments):
        return "/".join(literal)
    return "/".join(literal) + "/" if literal else ""


class GlobSet:
    """Ordered glob lists compiled once; :meth:`match` gives each list's matching paths."""

    def __init__(self, lists: Sequence[Sequence[str]]) -> None:
        self._bodies: dict[str, int] = {}
        self._lists: list[tuple[tuple[int, bool], ...]] = []
        for globs in lists:
            entries: list[tuple[int, bool]] = []
            for glob in globs:
                include = not glob.startswith("!")
                body = glob if include else glob[1:]
                if glob_problem(glob) is not None:
                    continue
                entries.append((self._bodies.setdefault(body, len(self._bodies)), include))
            self._lists.append(tuple(entries))

    def match(self, paths: Iterable[str]) -> list[tuple[str, ...]]:
        """For every list, the sorted paths it matches."""
        ordered = sorted(set(paths))
        hits = self._hits(ordered)
        out: list[tuple[str, ...]] = []
        for entries in self._lists:
            included = [hits[b] for b, inc in entries if inc]
            candidates: set[str] = set().union(*included)
            if candidates and not all(inc for _b, inc in entries):
                candidates = {p for p in candidates if _last_match_includes(p, entries, hits)}
            out.append(tuple(sorted(candidates)))
        return out

    def _hits(self, ordered: list[str]) -> list[frozenset[str]]:
        by_prefix: dict[str, list[tuple[int, re.Pattern[str]]]] = {}
        for body, idx in self._bodies.items():
            rx = _compile(body)
            if rx is not None:
                by_prefix.setdefault(literal_prefix(body), []).append((idx, rx))
        hits: list[frozenset[str]] = [frozenset()] * len(self._bodies)
        for prefix, group in by_prefix.items():
            scope = ordered if not prefix else _slice(ordered, prefix)
            for idx, rx in group:
                hits[idx] = frozenset(filter(rx.search, scope))
        return hits


def _slice(ordered: list[str], prefix: str) -> list[str]:
    return ordered[bisect_left(ordered, prefix) : bisect_left(ordered, prefix + "\U0010ffff")]


def _last_match_includes(
    path: str, entries: tuple[tuple[int, bool], ...], hits: list[frozenset[str]]
) -> bool:
    for body, include in reversed(entries):
        if path in hits[body]:
            return include
    return False


def match_globs(globs: Sequence[str], paths: Iterable[str]) -> tuple[str, ...]:
    """The paths one ordered glob list matches."""
    return GlobSet([globs]).match(paths)[0]
