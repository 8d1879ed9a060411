"""Reporters: pure functions from a :class:`Report` and a :class:`ReportContext` to text.

``REPORTERS`` is the registry the CLI's ``--format NAME[:PATH]`` chooses from. Every output is
byte-deterministic: no timestamps, no absolute paths, findings in report order.
"""

from __future__ import annotations

import importlib
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

Reporter = Callable[[Report, ReportContext], str]

# --format name -> the module in adrguard.reporters whose ``render`` writes it.
REPORTER_MODULES: Mapping[str, str] = {
    "text": "text",
    "concise": "concise",
    "json": "json",
    "markdown": "markdown",
    "github": "github",
    "sarif": "sarif",
}

# Formats that read the rule catalogue (``ReportContext.rules``/``descriptions``); the others
# can be given ``default_context(catalogue=False)``, which spares importing every rule.
NEEDS_CATALOGUE: frozenset[str] = frozenset({"sarif"})
# Formats that name decisions (``ReportContext.decisions``); the others get an empty mapping.
NEEDS_DECISIONS: frozenset[str] = frozenset({"markdown"})


class _Reporters(Mapping[str, Reporter]):
    """``REPORTERS``: a read-only mapping that imports a reporter's module on first use."""

    def __getitem__(self, name: str) -> Reporter:
        module = REPORTER_MODULES[name]
        render: Reporter = importlib.import_module(f"adrguard.reporters.{module}").render
        return render

    def __iter__(self) -> Iterator[str]:
        return iter(REPORTER_MODULES)

    def __len__(self) -> int:
        return len(REPORTER_MODULES)

    def __repr__(self) -> str:
        return f"REPORTERS({', '.join(REPORTER_MODULES)})"


REPORTERS: Mapping[str, Reporter] = _Reporters()

__all__ = [
    "NEEDS_CATALOGUE",
    "NEEDS_DECISIONS",
    "REPORTERS",
    "DecisionInfo",
    "ReportContext",
    "Reporter",
    "context_for",
    "decisions_of",
    "default_context",
    "describe",
]
