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
import warnings
from bisect import bisect_left
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from itertools import islice
from typing import TYPE_CHECKING, Any

import msgspec

from adrguard.core.lazyre import lazy

if TYPE_CHECKING:
    from adrguard.core.model import Corpus

_META = frozenset("*?[\\")
_DRIVE_LETTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")  # `C:/`, `c:\`
_DRIVE_ENDS = frozenset((":/", ":\\"))


def _pattern_class() -> Any:
    import pathspec

    try:
        return pathspec.lookup_pattern("gitignore")
    except KeyError:  # pathspec < 1.0
        return pathspec.lookup_pattern("gitwildmatch")


# One run's compiled globs (ADR 44): a glob's body -> its matcher (None: a comment, an empty
# pattern), or why it cannot be compiled. The manifest's check, the front matter's and the
# matching of one run share it (kept on the corpus: ``Corpus.derived``, never process-wide), so
# a glob written many times is compiled once per run.
Compiled = dict[str, "_Matcher | str | None"]


def compiled_globs(corpus: Corpus) -> Compiled:
    """The :data:`Compiled` globs of ``corpus``'s run."""
    return corpus.derived("compiled globs", dict)


def glob_problem(glob: str, memo: Compiled | None = None) -> str | None:
    """Why ``glob`` is not a usable repo-relative gitwildmatch glob, or None when it is.
    ``memo``: the run's compiled globs (:func:`compiled_globs`)."""
    return _place_problem(glob) or syntax_problem(glob, memo)


def _place_problem(glob: str) -> str | None:
    """Why ``glob`` names no place inside the repository (empty, absolute, ``..``)."""
    body = glob[1:] if glob.startswith("!") else glob
    if not body.strip():
        return "an empty glob matches nothing"
    if body.startswith(("/", "\\")) or (body[:1] in _DRIVE_LETTERS and body[1:3] in _DRIVE_ENDS):
        return "absolute paths are not allowed: write the path relative to the repository root"
    if ".." in body.replace("\\", "/").split("/"):
        return "'..' escapes the repository: write the path relative to the repository root"
    return None


def syntax_problem(glob: str, memo: Compiled | None = None) -> str | None:
    """Why pathspec cannot compile ``glob`` as a ``.gitignore`` line (None when it can): the
    check for exclude lists, where ``/x`` anchors at the root as in ``.gitignore``."""
    body = glob[1:] if glob.startswith("!") else glob
    if not body.strip():
        return "an empty glob matches nothing"
    try:
        matcher = _compiled(body, memo)
    except ValueError as exc:
        return f"not a valid gitwildmatch glob ({exc})"
    if matcher is None:
        return "the glob is a comment or empty and matches nothing"
    return None


# A regex pathspec wrote for a literal folder (``^src/a/``) or a literal path (``^src/a(?:/|$)``)
_LITERAL = lazy(r"\^((?:\\.|[^\\.^$*+?()\[\]{}|])+?)(/|\(\?:/\|\$\))")
_UNESCAPE = lazy(r"\\(.)", re.DOTALL)
_WORD_ESCAPE = lazy(r"\\\w")  # ``\d``, ``\1``: an escape ``re`` may refuse or read as a class


class _Matcher(msgspec.Struct, frozen=True):
    prefix: str  # every match starts with it ("" = may match anywhere)
    regex: re.Pattern[str] | None  # None: everything under ``prefix`` matches (a folder)
    exact: str | None = None  # a literal path: it, and everything below it, match
    name: tuple[str, ...] | None = None  # a name at any depth (:func:`_any_depth_name`)


_PLAIN = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./")


def _plain_folder(body: str) -> str | None:
    """``src/billing/**``, a folder named by plain names (ASCII letters, digits, ``_``, ``-``,
    ``.``; no name of dots alone) and everything below it: its prefix ``src/billing/``, which
    is what pathspec's regex for such a glob says (``^src/billing/``), without asking
    pathspec (ADR 44). None for any other glob."""
    if not body.endswith("/**"):
        return None
    head = body[:-3]
    if not head or not _PLAIN.issuperset(head):
        return None
    if any(not name.strip(".") for name in head.split("/")):  # empty, ".", ".."
        return None
    return head + "/"


_NAME_CHARS = _PLAIN - {"/"}
_WORD_CHARS = _PLAIN - {"/", "."}


def _any_depth_name(body: str) -> tuple[str, ...] | None:
    """``**/test_*.py``, ``*.sql``, ``Dockerfile``: one name of plain characters (as in
    :func:`_plain_folder`, at least one of them a letter, a digit, ``_`` or ``-``) with at
    most one ``*``, alone or after ``**/``. Such a glob matches a path that has the name as
    one of its parts, at any depth, as pathspec's regex for it says
    (``^(?:.+/)?test_[^/]*\\.py(?:/|$)``), so it is answered without asking pathspec:
    the name split at its ``*`` (one part: no ``*``). None for any other glob."""
    name = body[3:] if body.startswith("**/") else body
    if name.count("*") > 1 or not _WORD_CHARS.intersection(name):
        return None
    if not _NAME_CHARS.issuperset(name.replace("*", "")):
        return None
    return tuple(name.split("*"))


def _names_match(path: str, name: tuple[str, ...]) -> bool:
    """Whether a part of ``path`` is ``name`` (:func:`_any_depth_name`), as its regex
    ``^(?:.+/)?NAME(?:/|$)`` says: some text before the part's ``/`` (a path that starts with
    ``/`` has none before its second part), and the last part may end in one newline that
    ``$`` steps over."""
    parts = path.split("/")
    last = len(parts) - 1
    for i, part in enumerate(parts):
        if i == 1 and not parts[0]:
            continue
        if _fits(part, name) or (i == last and part.endswith("\n") and _fits(part[:-1], name)):
            return True
    return False


def _fits(part: str, name: tuple[str, ...]) -> bool:
    if len(name) == 1:
        return part == name[0]
    head, tail = name
    return len(part) >= len(head) + len(tail) and part.startswith(head) and part.endswith(tail)


def _matcher(body: str) -> _Matcher | None:
    """How to match a glob (without its ``!``); ValueError when pathspec rejects it. A plain
    folder's glob (:func:`_plain_folder`) and a name at any depth (:func:`_any_depth_name`)
    are answered without pathspec."""
    folder = _plain_folder(body)
    if folder is not None:
        return _Matcher(folder, None)
    name = _any_depth_name(body)
    if name is not None:
        return _Matcher("", None, name=name)
    return _translated(body)


def _translated(body: str) -> _Matcher | None:
    """How to match a glob, from the regex pathspec writes for it.

    A literal path or folder (``src/billing/**``: the regex is ``^`` and plain or escaped
    characters, then ``/`` or ``(?:/|$)``) is matched without its regex, and that regex is not
    compiled either when it escapes no word character: it holds no class, group, repetition,
    back-reference or unknown escape, so ``re`` accepts it (ADR 44)."""
    try:
        regex, include = _pattern_class().pattern_to_regex(body)
        if include is None or regex is None:
            return None
        literal = _LITERAL.fullmatch(regex)
        if literal is not None and not _WORD_ESCAPE.search(literal.group(1)):
            return _literal(literal)
        with warnings.catch_warnings():  # `[[:alpha:]]`: "possible nested set" is no news
            warnings.simplefilter("ignore", FutureWarning)
            compiled = re.compile(regex, re.DOTALL)  # `[z-a]` fails only here
    except Exception as exc:  # pathspec's own error classes, and re.error
        raise ValueError(_reason(exc)) from None
    if literal is not None:
        return _literal(literal)
    return _Matcher(literal_prefix(body), compiled)


def _literal(literal: re.Match[str]) -> _Matcher:
    path = _UNESCAPE.sub(r"\1", literal.group(1))
    if literal.group(2) == "/":
        return _Matcher(path + "/", None)
    return _Matcher(path, None, exact=path)


def _compiled(body: str, memo: Compiled | None) -> _Matcher | None:
    """:func:`_matcher`, answered from ``memo`` when it holds ``body`` (and kept there)."""
    if memo is None:
        return _matcher(body)
    if body in memo:
        found = memo[body]
    else:
        try:
            found = _matcher(body)
        except ValueError as exc:
            found = str(exc)
        memo[body] = found
    if isinstance(found, str):
        raise ValueError(found)
    return found


def _reason(exc: BaseException) -> str:
    text = str(exc)
    if isinstance(exc, re.error) and "bad character range" in text:
        return f"{exc.msg}: a range in brackets must go from low to high, as [a-z]"
    return text


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
    """Ordered glob lists compiled once (each distinct glob once, kept on this set: no
    process-wide cache); :meth:`match` gives each list's matching paths. Globs that
    :func:`glob_problem` rejects are left out. ``memo``: the run's compiled globs
    (:func:`compiled_globs`)."""

    def __init__(self, lists: Sequence[Sequence[str]], memo: Compiled | None = None) -> None:
        self._bodies: dict[str, int] = {}
        self._matchers: list[_Matcher] = []
        self._lists: list[tuple[tuple[int, bool], ...]] = []
        rejected: set[str] = set()
        for globs in lists:
            entries: list[tuple[int, bool]] = []
            for glob in globs:
                include = not glob.startswith("!")
                body = glob if include else glob[1:]
                if body not in self._bodies and body not in rejected:
                    matcher = self._compile(glob, body, memo)
                    if matcher is None:
                        rejected.add(body)
                    else:
                        self._bodies[body] = len(self._matchers)
                        self._matchers.append(matcher)
                if body in self._bodies:
                    entries.append((self._bodies[body], include))
            self._lists.append(tuple(entries))

    @staticmethod
    def _compile(glob: str, body: str, memo: Compiled | None) -> _Matcher | None:
        if _place_problem(glob) is not None:
            return None
        try:
            return _compiled(body, memo)
        except ValueError:
            return None

    def match(self, paths: Iterable[str]) -> list[tuple[str, ...]]:
        """For every list, the paths it matches, sorted."""
        hits = self._hits(sorted(set(paths)))
        return [self._evaluate(entries, hits) for entries in self._lists]

    def matches_any(self, paths: Iterable[str]) -> list[bool]:
        """For every list, whether it matches at least one of ``paths``. Globs of lists
        without negations stop at their first hit."""
        ordered = sorted(set(paths))
        plain = [all(inc for _b, inc in entries) for entries in self._lists]
        needed = {b for entries, ok in zip(self._lists, plain, strict=True) if not ok
                  for b, _inc in entries}
        hits = self._hits(ordered, first_only=True, skip=needed)
        if needed:  # globs of lists with negations: every hit counts
            full = self._hits(ordered, only=needed)
            hits = [full[i] if i in needed else found for i, found in enumerate(hits)]
        return [
            any(hits[b] for b, _inc in entries) if ok else bool(self._evaluate(entries, hits))
            for entries, ok in zip(self._lists, plain, strict=True)
        ]

    @staticmethod
    def _evaluate(
        entries: tuple[tuple[int, bool], ...], hits: list[tuple[str, ...]]
    ) -> tuple[str, ...]:
        included = [b for b, inc in entries if inc and hits[b]]
        plain = all(inc for _b, inc in entries)
        if len(included) == 1 and plain:
            return hits[included[0]]  # already sorted: no union, no negation
        candidates = set().union(*(hits[b] for b in included))
        if candidates and not plain:
            sets = {b: frozenset(hits[b]) for b, _inc in entries}
            candidates = {p for p in candidates if _last_match_includes(p, entries, sets)}
        return tuple(sorted(candidates))

    def _hits(
        self,
        ordered: list[str],
        first_only: bool = False,
        only: Collection[int] | None = None,
        skip: Collection[int] = (),
    ) -> list[tuple[str, ...]]:
        """Per distinct glob, the paths it matches, in ``ordered``'s (sorted) order (with
        ``first_only``, at most the first); ``only``/``skip`` limit the globs matched."""
        hits: list[tuple[str, ...]] = [()] * len(self._bodies)
        for idx, m in enumerate(self._matchers):
            if idx in skip or (only is not None and idx not in only):
                continue
            scope = _slice(ordered, m.prefix) if m.prefix else ordered
            if m.regex is not None:
                found: Iterable[str] = filter(m.regex.search, scope)
            elif m.name is not None:
                found = _named(scope, m.name)
            elif m.exact is not None:
                below = m.exact + "/"
                found = (p for p in scope if p == m.exact or p.startswith(below))
            else:
                found = scope
            hits[idx] = tuple(islice(found, 1)) if first_only else tuple(found)
        return hits


def _named(paths: Iterable[str], name: tuple[str, ...]) -> Iterator[str]:
    """The paths that have ``name`` as a part (:func:`_names_match`); a path without the
    name's longest piece is passed over by a substring test."""
    key = max(name, key=len)
    return (p for p in paths if key in p and _names_match(p, name))


def _slice(ordered: list[str], prefix: str) -> list[str]:
    return ordered[bisect_left(ordered, prefix) : bisect_left(ordered, prefix + "\U0010ffff")]


def _last_match_includes(
    path: str, entries: tuple[tuple[int, bool], ...], sets: Mapping[int, frozenset[str]]
) -> bool:
    for body, include in reversed(entries):
        if path in sets[body]:
            return include
    return False


def match_globs(globs: Sequence[str], paths: Iterable[str]) -> tuple[str, ...]:
    """The paths one ordered glob list matches, sorted."""
    return GlobSet([globs]).match(paths)[0]
