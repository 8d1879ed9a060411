"""What every front end says about citations: one citation as a row, the counts per record,
how much the scan read, the agent's ``citing`` fields and ``adrguard citations`` itself. The
scan is :mod:`adrguard.api.pipeline.citation_scan`; who relies on one record is
:func:`adrguard.api.lookup.referenced_by`."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from adrguard.api.lookup import decision_row, find_decision
from adrguard.api.pipeline.citation_scan import ASKED
from adrguard.api.pipeline.corpus import load_with
from adrguard.config import Config
from adrguard.core.citations.resolve import Cited, index
from adrguard.core.errors import UserError
from adrguard.core.graph import graph
from adrguard.core.model import Citations, Corpus, Decision

if TYPE_CHECKING:
    from adrguard.core.agent.search import SearchResult

IDENTIFIER = "identifier"  # a record's id in the agent answers (the MCP tool contract)


def cited_row(cited: Cited, ident: str = "id") -> dict[str, Any]:
    """One citation as JSON (``schemas/citations.schema.json``); ``ident``: the name of a
    record's id (``identifier`` in the agent answers, as the MCP tool contract names it)."""
    c = cited.citation
    d = cited.decision
    return {
        "path": cited.path,
        "line": c.line,
        "column": c.column,
        "kind": cited.file.kind,
        "form": c.form,
        "text": c.text,
        "excerpt": c.excerpt,
        "state": cited.state,
        "decision": _ref(d, ident) if d is not None else None,
        "candidates": [x.id for x in cited.decisions] if len(cited.decisions) > 1 else [],
    }


def _ref(d: Decision, ident: str = "id") -> dict[str, Any]:
    return {
        ident: d.id,
        "title": d.title,
        "status": d.status.value if d.status is not None else None,
        "path": d.path,
    }


def citations_of(corpus: Corpus, d: Decision | None = None) -> list[Cited]:
    """Every citation of the corpus's scan, or those of one record."""
    found = index(corpus)
    if d is None:
        return list(found.all)
    return list(found.by_decision.get(d.path, ()))


def counts(corpus: Corpus) -> dict[str, dict[str, int]]:
    """Record path -> how many records, code files and documents refer to it."""
    g = graph.build(corpus)
    out: dict[str, dict[str, int]] = {}
    for d in corpus.decisions:
        files = {(c.path, c.file.kind) for c in index(corpus).by_decision.get(d.path, ())}
        out[d.path] = {
            "decisions": len(g.referenced_by.get(d.path, ())),
            "code": sum(1 for _, kind in files if kind == "code"),
            "doc": sum(1 for _, kind in files if kind == "doc"),
        }
    return out


def summary(found: Citations | None) -> dict[str, Any]:
    """How much the scan read (for JSON outputs)."""
    if found is None:
        return {"scanned": 0, "skipped": {}, "enabled": False}
    return {"scanned": found.scanned, "skipped": dict(sorted(found.skipped.items())),
            "enabled": True}


def report(
    repo_root: Path,
    config: Config,
    key: str | None = None,
    *,
    kind: str | None = None,
    state: str | None = None,
) -> dict[str, Any]:
    """``adrguard citations [ID]``: every citation, or those of one record (``key``: an id,
    number or path), optionally of one kind (code, doc) or state (resolved, unknown,
    ambiguous)."""
    if config.citations.enabled is False:
        raise UserError(
            "citations are turned off (citations.enabled = false in the config): remove the "
            "setting, or set it to true, to scan code and documents for citations"
        )
    corpus = load_with(repo_root, config, citations=ASKED)
    d = find_decision(corpus, key) if key is not None else None
    found = [
        c for c in citations_of(corpus, d)
        if (kind is None or c.file.kind == kind) and (state is None or c.state == state)
    ]
    return {
        "schemaVersion": 1,
        "decision": decision_row(d) if d is not None else None,
        **summary(corpus.citations),
        "total": len(found),
        "files": len({c.path for c in found}),
        "citations": [cited_row(c) for c in found],
    }


def citing_files(result: SearchResult) -> dict[str, Any]:
    """The fields ``search adr:ID`` adds to the agent answer (records named ``identifier``, as
    the MCP tool contract names them): the decisions asked about and the files citing them."""
    return {
        "cites": [_ref(d, IDENTIFIER) for d in result.cited],
        "citationTotal": result.citation_total,
        "citations": [cited_row(c, IDENTIFIER) for c in result.citations],
    }
