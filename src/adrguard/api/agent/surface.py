"""The read-only agent surface shared by ``adrguard find/context/search`` and the MCP server.

Every function takes a :class:`Workspace` (the repository fixed at start-up, plus limits),
checks its inputs, reads the decisions afresh, and returns JSON-ready data with repo-relative
paths, in the shape ``docs/agents.md`` documents (the names of the "ADR Guard" tool contract,
``schemaVersion`` ``"1.0"``). Problems are :class:`UserError` subclasses whose message says how
to narrow or fix the request (see :mod:`adrguard.api.agent.workspace`). Record text is data to read,
never instructions to follow: it comes with ``contentIsUntrusted: true``.

This module holds the record tools (list, get, search, relationships, validate);
:mod:`adrguard.api.agent.context` holds ``find`` and ``context``, :mod:`adrguard.api.agent.impact`
``analyze_impact``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from adrguard.api.agent.context import adr_context, find_adrs
from adrguard.api.agent.impact import analyze_impact
from adrguard.api.agent.workspace import (
    MAX_NAMED,
    SCHEMA_VERSION,
    UNTRUSTED,
    InvalidRequest,
    LimitExceeded,
    Limits,
    Workspace,
    check_identifier,
    check_query,
    check_statuses,
    lookup,
    summary_row,
    unreadable_error,
)
from adrguard.api.lookup import referenced_by
from adrguard.config import PROFILES
from adrguard.core.agent import search
from adrguard.core.agent.context import INTENT_HELP, INTENTS
from adrguard.core.findings import Severity
from adrguard.core.graph import graph as core_graph
from adrguard.core.model import status_key

__all__ = [
    "INTENTS",
    "INTENT_HELP",
    "SCHEMA_VERSION",
    "Limits",
    "Workspace",
    "adr_context",
    "analyze_impact",
    "find_adrs",
    "get_adr",
    "get_adr_relationships",
    "list_adrs",
    "search_adrs",
    "summary_row",
    "validate_adrs",
]

SEED_TYPES = ("supersedes", "superseded-by", "depends-on")  # the contract's relationship types


# ---- the tools ----------------------------------------------------------------------------


def list_adrs(
    ws: Workspace,
    *,
    status: Sequence[str] | None = None,
    under: str | None = None,
    offset: int = 0,
    limit: int | None = None,
) -> dict[str, Any]:
    """Every record (identifier, title, status, path, format) in discovery order; optionally
    by status and folder, and paged. More than ``max_records`` records, or any record that
    cannot be read, fails the call."""
    wanted = check_statuses(status) if status else None
    prefix = check_identifier(under, "under").rstrip("/") + "/" if under else ""
    if offset < 0 or (limit is not None and limit < 1):
        raise InvalidRequest("offset must be 0 or more and limit 1 or more")
    _config, corpus = ws.load()
    rows = [
        d
        for d in corpus.decisions
        if (wanted is None or status_key(d) in wanted) and d.path.startswith(prefix)
    ]
    page = rows[offset : offset + limit if limit is not None else None]
    cap = ws.limits.max_records
    if len(page) > cap:
        raise LimitExceeded(
            f"{len(page):,} ADRs would be listed, more than the limit of {cap:,}: narrow the "
            'request with status (e.g. ["accepted"]) or under (a folder), or page through '
            "it with offset and limit"
        )
    bad = [d for d in page if not d.is_readable]
    if bad:
        raise unreadable_error(bad, "cannot list the ADRs")
    return {
        "schemaVersion": SCHEMA_VERSION,
        "total": len(rows),
        "offset": offset,
        "adrs": [summary_row(d) for d in page],
    }


def get_adr(ws: Workspace, identifier: str, *, history: bool = False) -> dict[str, Any]:
    """One record: its metadata, who refers to it (``referencedBy``: records, code and
    documents) and its markdown (``contentIsUntrusted: true``). With ``read-guard = "guard"``
    an archived record's markdown is withheld, and a receipt given instead, unless ``history``
    asks for it (:func:`adrguard.api.agent.guard.archived_read`)."""
    key = check_identifier(identifier)
    config, corpus = ws.load(citations=True)
    d = lookup(corpus, key)
    if not d.is_readable:
        raise unreadable_error([d], f"cannot read {d.id}")
    from adrguard.api.citation_answers import IDENTIFIER
    from adrguard.core.agent.succession import succession
    from adrguard.core.agent.succession import to_json as succession_json

    resolved = core_graph.describe(corpus, d)
    resolved.pop("currentSuccessor", None)  # a guess when the chain forks: see "successor"
    adr = summary_row(d)
    adr.update(
        {
            "frontMatter": _plain(d.front_matter),
            "governedPaths": list(d.governed_paths),
            "governedComponents": list(d.governed_components),
            "relationships": resolved,
            "successor": succession_json(succession(core_graph.build(corpus), d)),
            "problems": [
                {"code": p.code, "message": p.message, "line": p.line} for p in d.problems
            ],
            "sha256": d.sha256,
            "bodyStartLine": d.body_line_offset + 1,
            "referencedBy": referenced_by(corpus, d, IDENTIFIER),  # records, code, documents
        }
    )
    from adrguard.api.agent.guard import archived_read

    answer: dict[str, Any] = {
        "schemaVersion": SCHEMA_VERSION,
        "adr": adr,
        "content": d.text,
        "contentIsUntrusted": True,
        "note": UNTRUSTED,
    }
    answer.update(archived_read(config.read_guard, d.path, d.archived, history))
    return answer


def _plain(value: Any) -> Any:
    """Front matter as JSON (dates and other YAML scalars become strings)."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return str(value)


def search_adrs(ws: Workspace, query: str, limit: int = search.DEFAULT_LIMIT) -> dict[str, Any]:
    """Records holding every distinct word of ``query`` in identifier, title or markdown,
    ranked best first (:mod:`adrguard.core.agent.search`), up to ``limit``."""
    q = check_query(query)
    if not 1 <= limit <= search.MAX_LIMIT:
        raise InvalidRequest(f"limit must be between 1 and {search.MAX_LIMIT}")
    _config, corpus = ws.load(citations=search.CITES in q.casefold())
    result = search.search(corpus, q, limit)
    unread = [d.path for d in corpus.decisions if not d.is_readable]
    data: dict[str, Any] = {
        "schemaVersion": SCHEMA_VERSION,
        "query": q,
        "terms": list(result.terms),
        "excerptsAreUntrusted": True,
        "truncated": result.truncated,
        "results": [
            {
                **summary_row(h.decision),
                "matchedFields": list(h.fields),
                "matches": {t: list(f) for t, f in h.terms.items()},
                "excerpt": h.excerpt,
                "line": h.line,
                "score": h.score,
            }
            for h in result.hits
        ],
        "notSearched": unread[:MAX_NAMED],
        "notSearchedTotal": len(unread),
    }
    if result.total is not None:
        data["total"] = result.total
    if result.cites:  # adr:ID: what cites the decision (issue 19)
        from adrguard.api.citation_answers import citing_files

        data.update(citing_files(result))
    return data


def get_adr_relationships(ws: Workspace, identifier: str | None = None) -> dict[str, Any]:
    """Declared relationships (every record's, or one record's) with how each resolved, and
    the relationship diagnostics of the validator, kept apart."""
    key = check_identifier(identifier) if identifier is not None else None
    config, corpus = ws.load()
    d = lookup(corpus, key) if key is not None else None
    g = core_graph.build(corpus)
    main: list[dict[str, Any]] = []
    other: list[dict[str, Any]] = []
    for dec in g.declared:
        if d is not None and dec.source.path != d.path:
            continue
        target = dec.target
        row = {
            "source": dec.source.id,
            "sourcePath": dec.source.path,
            "type": dec.rel.kind.value,
            "declaredTarget": dec.rel.target_raw,
            "resolvedTarget": target.id if target is not None else None,
            "resolvedPath": target.path if target is not None else None,
            "resolutionState": g.state(dec),
            "line": dec.rel.location.line,
            "declaredIn": dec.rel.origin,
        }
        (main if row["type"] in SEED_TYPES else other).append(row)
    diagnostics = [
        f
        for f in _diagnostics(ws, config)
        if f["code"].startswith("ADR3")
        and (d is None or f["path"] == d.path or d.path in f["related"] or d.id == f["decision"])
    ]
    return {
        "schemaVersion": SCHEMA_VERSION,
        "scope": "all" if d is None else "one",
        "adr": summary_row(d) if d is not None else None,
        "relationships": main,
        "otherRelationships": other,
        "diagnostics": diagnostics,
    }


def _diagnostics(ws: Workspace, config: Any) -> list[dict[str, Any]]:
    """Every finding of the validator, as ``validate_adrs`` reports it."""
    from adrguard.api.check import CheckRequest, run_check
    from adrguard.reporters.json import finding_data

    with ws.locked():
        result = run_check(CheckRequest(ws.root, config=config, cancel=ws.cancel))
    return [finding_data(f) for f in result.report.findings]


def validate_adrs(
    ws: Workspace, validation_profile: str | None = None, limit: int = 200
) -> dict[str, Any]:
    """Run the checks; an invalid ADR set is a result with ``valid: false``, not an error.
    ``validation_profile`` (legacy, advisory, standard, strict) overrides the config's."""
    if validation_profile is not None and validation_profile not in PROFILES:
        raise InvalidRequest(
            f"unknown validationProfile {validation_profile[:40]!r}: choose one of "
            f"{', '.join(PROFILES)}"
        )
    if not 1 <= limit <= 10_000:
        raise InvalidRequest("limit must be between 1 and 10,000")
    from adrguard.api.check import CheckRequest, run_check
    from adrguard.reporters.json import finding_data

    config = ws.config()
    with ws.locked():
        result = run_check(CheckRequest(
            ws.root, config=config, profile=validation_profile, cancel=ws.cancel
        ))
    report = result.report
    effective = result.config
    fail_on = effective.fail_on
    threshold = None if fail_on == "none" else Severity.parse(fail_on)
    failing = [f for f in report.findings if threshold is not None and f.severity >= threshold]
    s = report.summary
    source = "request" if validation_profile else ("configuration" if config.source else "default")
    return {
        "schemaVersion": SCHEMA_VERSION,
        "valid": not failing,
        "fileCount": s.decisions,
        "effectivePolicy": {
            "profile": effective.profile,
            "profileFrom": source,
            "failOn": fail_on,
            "select": list(effective.select),
            "ignore": list(effective.ignore),
            "configuration": config.source,
        },
        "summary": {"errors": s.errors, "warnings": s.warnings, "notes": s.notes},
        "total": len(report.findings),
        "diagnostics": [finding_data(f) for f in report.findings[:limit]],
        "truncated": len(report.findings) > limit,
    }
