"""Reporters: pure functions from a :class:`Report` and a :class:`ReportContext` to text.

``REPORTERS`` is the registry the CLI's ``--format NAME[:PATH]`` chooses from. Every output is
byte-deterministic: no timestamps, no absolute paths, findings in report order.
"""

from __future__ import annotations

from collections.abc import Callable

from adrguard.core.findings import Report
from adrguard.reporters import github, json, markdown, sarif, text
from adrguard.reporters.context import (
    DecisionInfo,
    ReportContext,
    context_for,
    decisions_of,
    default_context,
    describe,
)

Reporter = Callable[[Report, ReportContext], str]

REPORTERS: dict[str, Reporter] = {
    "text": text.render,
    "json": json.render,
    "markdown": markdown.render,
    "github": github.render,
    "sarif": sarif.render,
}

__all__ = [
    "REPORTERS",
    "DecisionInfo",
    "ReportContext",
    "Reporter",
    "context_for",
    "decisions_of",
    "default_context",
    "describe",
]
