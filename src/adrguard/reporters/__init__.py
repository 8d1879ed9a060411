"""Reporters: pure functions from a :class:`Report` and a :class:`ReportContext` to text.

``REPORTERS`` is the ``check`` kind of the one registry of output formats
(:mod:`adrguard.reporters.formats`), which the CLI's ``--format NAME[:PATH]`` chooses from.
Every output is byte-deterministic: no timestamps, no absolute paths, findings in report order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping

from adrguard.core.findings import Report
from adrguard.reporters.context import (
    DecisionInfo,
    ReportContext,
    context_for,
    decisions_of,
    default_context,
    describe,
)
from adrguard.reporters.formats import entries, names, renderer

Reporter = Callable[[Report, ReportContext], str]

# Derived from the one registry of output formats (adrguard.reporters.formats), kind "check".
# Formats that read the rule catalogue (``ReportContext.rules``/``descriptions``); the others
# can be given ``default_context(catalogue=False)``, which spares importing every rule.
NEEDS_CATALOGUE: frozenset[str] = frozenset(f.name for f in entries("check") if f.catalogue)


class _Reporters(Mapping[str, Reporter]):
    """``REPORTERS``: the ``check`` formats of the registry as a read-only mapping that imports
    a reporter's module on first use."""

    def __getitem__(self, name: str) -> Reporter:
        if name not in names("check"):
            raise KeyError(name)
        render: Reporter = renderer("check", name)
        return render

    def __iter__(self) -> Iterator[str]:
        return iter(names("check"))

    def __len__(self) -> int:
        return len(names("check"))

    def __repr__(self) -> str:
        return f"REPORTERS({', '.join(names('check'))})"


REPORTERS: Mapping[str, Reporter] = _Reporters()

__all__ = [
    "NEEDS_CATALOGUE",
    "REPORTERS",
    "DecisionInfo",
    "ReportContext",
    "Reporter",
    "context_for",
    "decisions_of",
    "default_context",
    "describe",
]
