"""The façade every front end uses (CLI, MCP server, GitHub Action helper)."""

from __future__ import annotations

from adrguard.api.corpus import Loaded, build_corpus, check, load, load_with, resolve_root

__all__ = ["Loaded", "build_corpus", "check", "load", "load_with", "resolve_root"]
