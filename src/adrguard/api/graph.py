"""The decision graph and the relationship table for front ends (CLI, MCP, the action)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from msgspec.structs import replace

from adrguard import __version__
from adrguard.api.check import CheckRequest, run_check
from adrguard.api.lookup import find_decision
from adrguard.api.pipeline.corpus import load, load_with, resolve_root
from adrguard.config import Config
from adrguard.core.errors import UserError
from adrguard.core.findings import Finding
from adrguard.core.graph import graph as core_graph
from adrguard.core.graph.graph import build as build
from adrguard.core.model import Corpus
from adrguard.reporters import graph as render
from adrguard.reporters.formats import names
from adrguard.reporters.graph import too_large
from adrguard.reporters.graph_html import MermaidScript, href, render_html


def _load(repo_root: Path | str | None, config: Config | None) -> tuple[Config, Corpus]:
    if config is None:
        return load(repo_root)
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
    config: Config | None = None,
    fmt: str = "mermaid",
    focus: str | None = None,
    depth: int | None = None,
    everything: bool = False,
    page_dir: Path | None = None,
    mermaid_js: Path | None = None,
) -> GraphText:
    """The records that have relationships (every record with ``everything``), or one record's
    neighbourhood, as ``mermaid``, ``dot``, ``json`` or ``html`` (one page that Mermaid draws
    in a browser: nodes link to their records relative to ``page_dir``, the folder the page
    is written to, by default the repository; ``mermaid_js``: a local ``mermaid.min.js`` to
    inline instead of loading Mermaid from its CDN)."""
    formats = names("graph")
    if fmt not in formats:
        raise UserError(f"unknown graph format {fmt!r}: choose one of {', '.join(formats)}")
    if mermaid_js is not None and fmt != "html":
        raise UserError("--mermaid-js is for --format html (the page that draws the graph)")
    script = mermaid_script(mermaid_js) if fmt == "html" else None
    if depth is not None and depth < 0:
        raise UserError("--depth must be 0 or more")
    if depth is not None and focus is None:
        raise UserError("--depth needs --focus ID")
    if everything and focus is not None:
        raise UserError("--all and --focus exclude each other: --focus draws a neighbourhood")
    _config, corpus = _load(repo_root, config)
    centre = find_decision(corpus, focus) if focus is not None else None
    v = render.view(core_graph.build(corpus), centre, depth, everything=everything)
    if script is not None:
        root = resolve_root(repo_root)
        links = record_links(root, page_dir or root, (d.path for d in v.nodes))
        text = render_html(v, links, script, version=__version__)
    else:
        text = render.render(fmt, v)
    large = too_large(text, len(v.edges)) if fmt == "mermaid" else None
    return GraphText(text, len(v.nodes), len(v.edges), v.omitted, large)


MAX_MERMAID_JS = 32 * 1024 * 1024


def mermaid_script(path: Path | None) -> MermaidScript:
    """Mermaid for the HTML page: from its CDN, or the local browser build at ``path``
    (``mermaid.min.js``; read here and inlined in the page)."""
    if path is None:
        return MermaidScript()
    if path.suffix == ".mjs":
        raise UserError(f"--mermaid-js {path}: an ES module build; give the browser build, "
                        "dist/mermaid.min.js (or dist/mermaid.js) of the mermaid package")
    try:
        if not path.is_file():
            raise UserError(f"--mermaid-js {path}: not a file; give Mermaid's browser build, "
                            "e.g. node_modules/mermaid/dist/mermaid.min.js")
        if path.stat().st_size > MAX_MERMAID_JS:
            raise UserError(f"--mermaid-js {path}: larger than {MAX_MERMAID_JS >> 20} MB, "
                            "which is not mermaid.min.js")
        code = path.read_bytes()
    except OSError as exc:
        raise UserError(f"cannot read --mermaid-js {path}: {exc.strerror or exc}") from None
    if b"mermaid" not in code:
        raise UserError(f"--mermaid-js {path} does not look like Mermaid (the word mermaid "
                        "does not occur in it): give node_modules/mermaid/dist/mermaid.min.js")
    return MermaidScript(code=code, name=path.name)


def record_links(repo_root: Path, page_dir: Path, paths: Iterable[str]) -> dict[str, str]:
    """Each record's path (repository-relative) as a URL relative to ``page_dir``,
    percent-encoded (:func:`adrguard.reporters.graph_html.href`: a ``:`` in a file name never
    makes a scheme)."""
    import os

    base = os.path.realpath(page_dir)
    root = os.path.realpath(repo_root)
    out = {}
    for path in paths:
        target = os.path.join(root, *path.split("/"))
        try:
            rel = os.path.relpath(target, base)
        except ValueError:  # another drive (Windows): an absolute file URL
            out[path] = Path(target).as_uri()
            continue
        out[path] = href(rel.replace(os.sep, "/"))
    return out


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
    config: Config | None = None,
    decision: str | None = None,
) -> Relationships:
    """Every declared relationship with its resolution state, plus the ADR3xx findings
    (the config's severities, ignores and suppressions apply)."""
    cfg, corpus = _load(repo_root, config)
    g = core_graph.build(corpus)
    only = find_decision(corpus, decision) if decision is not None else None
    rows = render.relationship_rows(g, only)
    report = run_check(CheckRequest(corpus=corpus, config=replace(cfg, select=("ADR3",)))).report
    findings = report.findings
    if only is not None:
        findings = tuple(
            f
            for f in findings
            if f.location.path == only.path or f.decision_id == only.id or only.id in f.related
        )
    return Relationships(only.id if only is not None else None, rows, findings)
