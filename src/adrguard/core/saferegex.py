"""Regular expressions that come from the repository, matched in linear time.

Every pattern a user (or a pull request) supplies goes through :func:`compile_user`:
``filename-pattern`` and ``decision-id-pattern`` from the config, the ``pattern`` and
``patternProperties`` of a ``frontmatter-schema`` (see :mod:`adrguard.core.schemas`). Patterns
are compiled by RE2 (the ``google-re2`` package), whose matching time is linear in the text by
construction: ``(a+)+$`` cannot backtrack, because RE2 never backtracks. Python's own ``re``
would take hours on that pattern and 40 characters of text.

RE2 has no back-references and no look-around (they are what makes backtracking necessary), and
its ``\\b``, ``\\d`` and ``\\w`` are ASCII. A pattern RE2 cannot compile is refused with
:class:`UnsafePattern`, whose message says why; it never falls back to ``re``.

``line_local=True`` compiles a pattern that is matched against whole records as if line by line:
no match spans a line break (RE2's ``never_nl``) and ``^``/``$`` match at every line's start and
end, so one pass over a body finds exactly what a search of each line would.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Protocol

MAX_PATTERN = 4096  # characters: a longer pattern is refused before RE2 sees it
MAX_PROGRAM_MEMORY = 8 << 20  # bytes RE2 may use for one compiled pattern


class UnsafePattern(ValueError):
    """A user-supplied pattern adrguard will not run; ``str()`` is the reason."""


class Match(Protocol):
    def group(self, *groups: int | str) -> Any: ...

    def groups(self, default: Any = None) -> tuple[Any, ...]: ...

    def start(self, group: int = 0) -> int: ...

    def end(self, group: int = 0) -> int: ...


class Regex:
    """A compiled user pattern: ``search``, ``match``, ``fullmatch`` and ``finditer`` as in
    :mod:`re` (over a whole string or bytes: no ``pos``, whose cost RE2's binding makes linear
    in the text per call)."""

    __slots__ = ("_program", "line_local", "pattern")

    def __init__(self, pattern: str, program: Any, line_local: bool) -> None:
        self.pattern = pattern
        self.line_local = line_local
        self._program = program

    @property
    def groups(self) -> int:
        return int(self._program.groups)

    def search(self, text: str | bytes) -> Match | None:
        found: Match | None = self._program.search(text)
        return found

    def match(self, text: str | bytes) -> Match | None:
        found: Match | None = self._program.match(text)
        return found

    def fullmatch(self, text: str | bytes) -> Match | None:
        found: Match | None = self._program.fullmatch(text)
        return found

    def finditer(self, text: str | bytes) -> Iterator[Match]:
        found: Iterator[Match] = self._program.finditer(text)
        return found

    def __repr__(self) -> str:
        return f"Regex({self.pattern!r})"


def compile_user(pattern: str, *, line_local: bool = False) -> Regex:
    """``pattern`` compiled by RE2; :class:`UnsafePattern` with the reason when it cannot be."""
    import re2

    if not isinstance(pattern, str):
        raise UnsafePattern("a pattern must be a string")
    if len(pattern) > MAX_PATTERN:
        raise UnsafePattern(f"the pattern is {len(pattern):,} characters long; the limit is "
                            f"{MAX_PATTERN:,}")
    if "\\Z" in pattern.replace("\\\\", ""):
        raise UnsafePattern("write \\z for the end of the text (\\Z is Python-only)")
    options = re2.Options()
    options.log_errors = False
    options.max_mem = MAX_PROGRAM_MEMORY
    source = pattern
    if line_local:
        options.never_nl = True
        source = "(?m)" + pattern
    try:
        program = re2.compile(source, options)
    except re2.error as exc:
        raise UnsafePattern(_reason(exc)) from None
    return Regex(pattern, program, line_local)


def pattern_problem(pattern: str, *, line_local: bool = False) -> str | None:
    """Why :func:`compile_user` refuses ``pattern`` (None when it accepts it)."""
    try:
        compile_user(pattern, line_local=line_local)
    except UnsafePattern as exc:
        return str(exc)
    return None


def _reason(exc: BaseException) -> str:
    raw = exc.args[0] if exc.args else exc
    text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else str(raw)
    hint = ""
    if "invalid perl operator" in text or "invalid escape sequence" in text:
        hint = " (look-around and back-references are not supported: they need backtracking)"
    elif "too large" in text or "bad repetition" in text:
        hint = " (the pattern is too large to run in linear time)"
    return f"RE2 cannot use this pattern: {text}{hint}"
