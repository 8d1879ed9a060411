"""The façade every front end uses (CLI, MCP server, GitHub Action helper)."""

from __future__ import annotations

from adrguard.api.check import CheckResult, check, check_result
from adrguard.api.corpus import (
    build_corpus,
    load,
    load_corpus,
    load_with,
    resolve_root,
)

__all__ = [
    "CheckResult",
    "build_corpus",
    "check",
    "check_result",
    "load",
    "load_corpus",
    "load_with",
    "resolve_root",
]
