"""Regular expressions compiled when first used, not when their module is imported.

``re.compile`` runs Python code (the parser and compiler of :mod:`re`): about 0.2 ms a pattern,
and adrguard's modules define a few hundred at module level, most of which a given run never
uses (a pre-commit hook parses one record; a warm ``check`` parses none). :func:`lazy` returns a
stand-in that compiles the pattern on the first attribute it is asked for and then keeps the
compiled pattern's methods and attributes as its own, so later calls cost what they cost on the
compiled pattern. It is a constant of the module that defines it, compiled from a literal we
ship: no input is memoised (ADR 12, ADR 40).

A stand-in is not a :class:`re.Pattern`: pass ``X.pattern`` (not ``X``) to ``re.sub`` or
``re.compile``, and do not test it with ``isinstance``. Reading ``X.pattern`` compiles nothing,
so a pattern built from another's source does not compile that one.
"""

from __future__ import annotations

import re
from typing import AnyStr, cast

_KEPT = ("search", "match", "fullmatch", "finditer", "findall", "sub", "subn", "split",
         "scanner", "pattern", "flags", "groups", "groupindex")


class _Lazy:
    def __init__(self, source: str | bytes, flags: int) -> None:
        self._source = source
        self._flags = flags
        self.pattern = source  # what the compiled pattern's would be: reading it compiles nothing

    def __getattr__(self, name: str) -> object:  # only for names not set yet
        if name.startswith("__"):
            raise AttributeError(name)
        compiled = re.compile(self._source, self._flags)
        for attr in _KEPT:
            setattr(self, attr, getattr(compiled, attr))
        return getattr(compiled, name)

    def __repr__(self) -> str:
        return f"lazy({self._source!r}, {self._flags!r})"


def lazy(source: AnyStr, flags: int = 0) -> re.Pattern[AnyStr]:
    """``re.compile(source, flags)``, compiled when first used (see the module docstring)."""
    return cast("re.Pattern[AnyStr]", _Lazy(source, flags))
