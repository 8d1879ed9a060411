"""The decision graph and the relationship table for front ends (CLI, MCP, the action)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from adrguard.api.corpus import load, load_with, resolve_root
from adrguard.api.lookup import find_decision
from adrguard.config import Config
from adrguard.core.errors import UserError
from adrguard.core.findings import Finding
from adrguard.core.graph import graph as core_graph
from adrguard.core.model import Corpus
from adrguard.reporters import graph as render
from adrguard.reporters.mermaid import too_large


def _load(
    repo_root: Path | str | None, config_path: Path | None, config: Config | None
) -> tuple[Config, Corpus]:
    if config is None:
        return load(repo_root, config_path)
    return config, load_with(resolve_root(repo_root), config)


@dataclass(frozen=True)
class GraphText:
    text: str
    nodes: int
    edges: int
    omitted: int = 0  # records without a relationship left out (draw them with everything)
    too_large: str | None = None  # why Mermaid would refuse ``text`` (mermaid format only)


def graph_text(
    repo_root: Path | str | None = None,
    *,
    config_path: Path | None = None,
    config: Config | None = None,
    fmt: str = "mermaid",
    focus: str | None = None,
    depth: int | None = None,
    everything: bool = False,
) -> GraphText:
    """The records that have relationships (every record with ``everything``), or one record's
    neighbourhood, as ``mermaid``, ``dot`` or ``json``."""
    if fmt not in render.FORMATS:
        raise UserError(f"unknown graph format {fmt!r}: choose one of {', '.join(render.FORMATS)}")
    if depth is not None and depth < 0:
        raise UserError("--depth must be 0 or more")
    if depth is not None and focus is None:
        raise UserError("--depth needs --focus ID")
    if everything and focus is not None:
        raise UserError("--all and --focus exclude each other: --focus draws a neighbourhood")
    _config, corpus = _load(repo_root, config_path, config)
    centre = find_decision(corpus, focus) if focus is not None else None
    v = render.view(core_graph.build(corpus), centre, depth, everything=everything)
    text = render.render(fmt, v)
    large = too_large(text, len(v.edges)) if fmt == "mermaid" else None
    return GraphText(text, len(v.nodes), len(v.edges), v.omitted, large)


def graph_data(
    repo_root: Path | str | None = None,
    *,
    config_path: Path | None = None,
    config: Config | None = None,
    focus: str | None = None,
    depth: int | None = None,
    everything: bool = False,
) -> dict[str, Any]:
    """The graph as the JSON-ready mapping described by ``schemas/graph.schema.json``."""
    _config, corpus = _load(repo_root, config_path, config)
    centre = find_decision(corpus, focus) if focus is not None else None
    return render.to_data(render.view(core_graph.build(corpus), centre, depth,
                                      everything=everything))


@dataclass(frozen=True)
class Relationships:
    decision: str | None
    rows: list[dict[str, Any]]
    findings: tuple[Finding, ...]

    def to_json(self) -> str:
        return render.render_relationships_json(self.rows, self.findings, self.decision)

    def to_text(self) -> str:
        return render.render_relationships_text(self.rows, self.findings)


def relationships(
    repo_root: Path | str | None = None,
    *,
    config_path: Path | None = None,
    config: Config | None = None,
    decision: str | None = None,
) -> Relationships:
    """Every declared relationship with its resolution state, plus the ADR3xx findings
    (the config's severities, ignores and suppressions apply)."""
    from adrguard import engine

    cfg, corpus = _load(repo_root, config_path, config)
    g = core_graph.build(corpus)
    only = find_decision(corpus, decision) if decision is not None else None
    rows = render.relationship_rows(g, only)
    report = engine.run(corpus, replace(cfg, select=("ADR3",)))
    findings = report.findings
    if only is not None:
        findings = tuple(
            f
            for f in findings
            if f.location.path == only.path or f.decision_id == only.id or only.id in f.related
        )
    return Relationships(only.id if only is not None else None, rows, findings)
