"""The read-only agent surface shared by ``adrguard find/context/search`` and the MCP server.

Every function takes a :class:`Workspace` (the repository fixed at start-up, plus limits),
checks its inputs, reads the decisions afresh, and returns JSON-ready data with repo-relative
paths. Problems are :class:`UserError`s whose message says how to narrow or fix the request.
Record text is returned inside ``{"markdown": ..., "contentIsUntrusted": true}``: it is data to
read, never instructions to follow.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from adrguard.api.lookup import decision_row, find_part
from adrguard.api.workspace import (
    MAX_IDENTIFIER,
    UNTRUSTED,
    Limits,
    Workspace,
    bounded,
    check_identifier,
    check_paths,
    check_query,
    check_statuses,
)
from adrguard.config import PROFILES
from adrguard.core.agent import context as ctx_mod
from adrguard.core.agent import retrieval, search
from adrguard.core.errors import UserError
from adrguard.core.impact.analysis import configured_statuses, status_key
from adrguard.core.impact.mapping import manifest_of

__all__ = [
    "Limits",
    "Workspace",
    "adr_context",
    "analyze_impact",
    "find_adrs",
    "get_adr",
    "get_adr_relationships",
    "list_adrs",
    "search_adrs",
    "validate_adrs",
]


# ---- the tools ----------------------------------------------------------------------------


def list_adrs(
    ws: Workspace,
    *,
    status: Sequence[str] | None = None,
    under: str | None = None,
    offset: int = 0,
    limit: int | None = None,
) -> dict[str, Any]:
    """Every record (id, title, status, path), optionally by status and folder, paged."""
    wanted = check_statuses(status) if status else None
    prefix = check_identifier(under, "under").rstrip("/") + "/" if under else ""
    if offset < 0 or (limit is not None and limit < 1):
        raise UserError("offset must be 0 or more and limit 1 or more")
    _config, corpus = ws.load()
    rows = [
        d
        for d in corpus.decisions
        if (wanted is None or status_key(d) in wanted) and d.path.startswith(prefix)
    ]
    page = rows[offset : offset + limit if limit is not None else None]
    cap = ws.limits.max_records
    if len(page) > cap:
        raise UserError(
            f"{len(page):,} records match, more than the limit of {cap:,} per response: narrow "
            "with status (e.g. accepted), under (a folder) or offset/limit"
        )
    data = {
        "total": len(rows),
        "offset": offset,
        "records": [decision_row(d) for d in page],
    }
    return bounded(ws, data, "narrow with status, under or a smaller limit")


def get_adr(ws: Workspace, adr_id: str) -> dict[str, Any]:
    """One record: metadata, resolved relationships and its markdown (marked untrusted)."""
    key = check_identifier(adr_id, "id")
    _config, corpus = ws.load(citations=True)
    d, _part = find_part(corpus, key)
    from adrguard.api.citations import referenced_by
    from adrguard.core.graph import graph as core_graph

    data = decision_row(d)
    data.update(
        {
            "governedPaths": list(d.governed_paths),
            "governedComponents": list(d.governed_components),
            "relationships": core_graph.describe(corpus, d),
            "problems": [p.message for p in d.problems],
            "sha256": d.sha256,
            "content": {"markdown": d.text, "contentIsUntrusted": True, "note": UNTRUSTED},
        }
    )
    data["referencedBy"] = referenced_by(corpus, d)  # records, code and documents (issue 19)
    return bounded(ws, data, f"read it in parts with adr_context (id {d.id})")


def search_adrs(ws: Workspace, query: str, limit: int = search.DEFAULT_LIMIT) -> dict[str, Any]:
    """Records matching every word of ``query`` in id, title or body."""
    q = check_query(query)
    if not 1 <= limit <= search.MAX_LIMIT:
        raise UserError(f"limit must be between 1 and {search.MAX_LIMIT}")
    _config, corpus = ws.load(citations=search.CITES in q.casefold())
    result = search.search(corpus, q, limit)
    data = {
        "query": q,
        "terms": list(result.terms),
        "total": result.total,
        "excerptsAreUntrusted": True,
        "results": [
            {
                **decision_row(h.decision),
                "fields": list(h.fields),
                "matches": {t: list(f) for t, f in h.terms.items()},
                "excerpt": h.excerpt,
                "line": h.line,
            }
            for h in result.hits
        ],
    }
    if result.cites:  # adr:ID: what cites the decision (issue 19)
        from adrguard.api.citations import citing_files

        data.update(citing_files(result))
    return bounded(ws, data, "lower limit or add words to the query")


def get_adr_relationships(ws: Workspace, adr_id: str) -> dict[str, Any]:
    """Declared relationships of one record with their resolution state, and its successor."""
    key = check_identifier(adr_id, "id")
    _config, corpus = ws.load()
    d, _part = find_part(corpus, key)
    from adrguard.core.graph import graph as core_graph

    g = core_graph.build(corpus)
    declared = [
        {
            "kind": dec.rel.kind.value,
            "target": dec.rel.target_raw,
            "resolved": dec.target.id if dec.target is not None else None,
            "resolvedPath": dec.target.path if dec.target is not None else None,
            "state": g.state(dec),
            "line": dec.rel.location.line,
        }
        for dec in g.declared
        if dec.source.path == d.path
    ]
    succ = g.current_successor(d)
    data = {
        **decision_row(d),
        "declared": declared,
        "resolved": core_graph.describe(corpus, d),
        "currentSuccessor": decision_row(succ) if succ is not None else None,
    }
    return bounded(ws, data, "ask for one record at a time")


def validate_adrs(ws: Workspace, profile: str = "standard", limit: int = 200) -> dict[str, Any]:
    """Run the checks; an invalid ADR set is a result with ``valid: false``, not an error."""
    if profile not in PROFILES:
        raise UserError(f"unknown profile {profile!r}: choose one of {', '.join(PROFILES)}")
    if not 1 <= limit <= 10_000:
        raise UserError("limit must be between 1 and 10,000")
    from adrguard.api.check import check_result
    from adrguard.core.findings import Severity
    from adrguard.reporters.json import finding_data

    with ws.lock:
        result = check_result(ws.root, config=ws.config(), profile=profile)
    report = result.report
    fail_on = result.config.fail_on
    threshold = None if fail_on == "none" else Severity.parse(fail_on)
    failing = [f for f in report.findings if threshold is not None and f.severity >= threshold]
    s = report.summary
    data = {
        "valid": not failing,
        "profile": profile,
        "failOn": fail_on,
        "summary": {
            "decisions": s.decisions,
            "errors": s.errors,
            "warnings": s.warnings,
            "notes": s.notes,
        },
        "total": len(report.findings),
        "findings": [finding_data(f) for f in report.findings[:limit]],
        "truncated": len(report.findings) > limit,
    }
    return bounded(ws, data, "lower limit, or use a laxer profile")


def find_adrs(
    ws: Workspace,
    *,
    paths: Sequence[str] = (),
    topic: str | None = None,
    status: Sequence[str] | None = None,
    limit: int = 10,
) -> dict[str, Any]:
    """The decisions that apply to ``paths`` and/or ``topic``, best first, each with why."""
    rels = check_paths(paths)
    q = check_query(topic, "topic") if topic is not None else None
    if not rels and q is None:
        raise UserError("give paths (the files being edited) or a topic, or both")
    if not 1 <= limit <= 100:
        raise UserError("limit must be between 1 and 100")
    asked = check_statuses(status) if status else None
    config, corpus = ws.load()
    wanted = asked or configured_statuses(config.options)
    manifest = manifest_of(corpus, config.options)
    result = retrieval.find(corpus, manifest, paths=rels, topic=q, statuses=wanted, limit=limit)
    data = {
        "paths": rels,
        "topic": q,
        "statuses": sorted(wanted),
        "total": result.total,
        "results": [hit_row(h) for h in result.hits],
        "notes": list(result.notes),
        "heldBack": result.held_back,
    }
    return bounded(ws, data, "lower limit")


def adr_context(
    ws: Workspace,
    *,
    adr_id: str | None = None,
    paths: Sequence[str] = (),
    topic: str | None = None,
    status: Sequence[str] | None = None,
    cursor: str | None = None,
    max_units: int | None = None,
    max_chars: int | None = None,
) -> dict[str, Any]:
    """Decision units for one record, or for what ``find`` returns, under the budget."""
    key = check_identifier(adr_id, "id") if adr_id is not None else None
    rels = check_paths(paths)
    q = check_query(topic, "topic") if topic is not None else None
    if cursor is not None and (
        len(cursor) > MAX_IDENTIFIER or not re.fullmatch(r"[A-Za-z0-9_-]+", cursor)
    ):
        raise UserError("the cursor is not one adrguard made: pass the cursor exactly as returned")
    if key is None and not rels and q is None:
        raise UserError("give an id, paths or a topic")
    asked = check_statuses(status) if status else None
    units = max_units if max_units is not None else ws.limits.max_units
    chars = max_chars if max_chars is not None else ws.limits.max_chars
    config, corpus = ws.load()
    wanted = asked or configured_statuses(config.options)
    warnings: list[str] = []
    part: int | None = None
    if key is not None:
        d, part = find_part(corpus, key)
        seeds = [(d, "requested")]
        if status_key(d) == "superseded":
            warnings.append(f"{d.id} is superseded: its current successor comes first")
    else:
        manifest = manifest_of(corpus, config.options)
        found = retrieval.find(corpus, manifest, paths=rels, topic=q, statuses=wanted, limit=100)
        seeds = [(h.decision, _why(h)) for h in found.hits]
        warnings.extend(found.notes)
    request = json.dumps([key, rels, q, sorted(wanted), units, chars])
    res = ctx_mod.build(
        corpus,
        seeds,
        request=request,
        max_units=units,
        max_chars=chars,
        cursor=cursor,
        part=part,
        warnings=warnings,
    )
    data = {
        "units": [ctx_mod.unit_json(u) for u in res.units],
        "contentIsUntrusted": True,
        "note": UNTRUSTED,
        "totalUnits": res.total_units,
        "leftOut": res.left_out,
        "cursor": res.cursor,
        "corpusFingerprint": res.fingerprint,
        "warnings": list(res.warnings),
        "codePoints": res.code_points,
        "bytes": res.bytes,
        "maxUnits": res.max_units,
        "maxChars": res.max_chars,
    }
    return bounded(ws, data, "lower max_chars or max_units")


def hit_row(hit: retrieval.Hit) -> dict[str, Any]:
    """A ``find`` result: the record's row, its score and why it matched."""
    return {
        **decision_row(hit.decision),
        "score": hit.score,
        "reasons": [r.to_json() for r in hit.reasons],
    }


def _why(hit: retrieval.Hit) -> str:
    r = hit.reasons[0]
    return f"matched {r.kind} {r.detail}" + (f" ({r.path})" if r.path else "")


def analyze_impact(ws: Workspace, base: str, head: str | None = None) -> dict[str, Any]:
    """The decisions a change (merge base of ``base`` and head .. head) touches."""
    refs = [check_identifier(base, "base")] + ([check_identifier(head, "head")] if head else [])
    for ref in refs:
        if ref.startswith("-") or not re.fullmatch(r"[\w./@^~{}+-]+", ref):
            raise UserError(f"{ref[:80]!r} is not a git revision: give a branch, tag or commit")
    from adrguard.api.impact import impact
    from adrguard.core.impact.analysis import to_json

    with ws.lock:
        result = impact(ws.root, base=refs[0], head=refs[1] if head else None, config=ws.config())
    return bounded(ws, to_json(result), "compare a smaller range (a closer base)")
