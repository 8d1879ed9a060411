"""``find`` and ``context``: which decisions apply, and their text within a budget.

``find_adrs`` answers with the response metadata of a relevance query: ``method`` (``ai`` when a
configured model judged the narrowed candidates, else ``keyword``: :mod:`.agentrelevance`),
``cached`` (for ``ai``: the model's answer came from the answer cache; for ``keyword``: the
records parsed for an earlier request of the same workspace were reused because no file
changed), ``latency_ms`` (the request's time: the one field that differs between two runs of
the same request, so it is never part of a comparison or fingerprint) and ``ai`` (what the
degradation ladder decided). Each result has a ``confidence`` (0–1) and a ``reason``.

``adr_context`` never guesses: a record whose successor is ambiguous is answered with the
candidates, none of them chosen; each ADR root's ``CURRENT.md`` is reported ``fresh``, ``stale``
(with the members that changed), ``invalid`` or ``absent`` against its ``CURRENT.sources.json``;
with no selector it returns the log's index within the budget.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Sequence
from typing import Any

from adrguard.api.agent import relevance
from adrguard.api.agent.workspace import (
    MAX_IDENTIFIER,
    MAX_NAMED,
    SCHEMA_VERSION,
    UNTRUSTED,
    ConfigurationError,
    InvalidRequest,
    Workspace,
    check_identifier,
    check_paths,
    check_query,
    check_statuses,
    governing_statuses,
    summary_row,
)
from adrguard.api.lookup import find_part
from adrguard.config import Config
from adrguard.core.agent import context as ctx_mod
from adrguard.core.agent import judge, retrieval, selectors
from adrguard.core.errors import UserError
from adrguard.core.graph import graph as graph_mod
from adrguard.core.impact.mapping import Manifest, ManifestError, manifest_of
from adrguard.core.model import STATUS_CHOICES, Corpus, Decision, status_key

MAX_CANDIDATES = judge.MAX_CANDIDATES


def find_adrs(
    ws: Workspace,
    *,
    paths: Sequence[str] = (),
    topic: str | None = None,
    status: Sequence[str] | None = None,
    limit: int = 10,
    no_ai: bool = False,
) -> dict[str, Any]:
    """The decisions that apply to ``paths`` and/or ``topic``, best first, each with why and a
    confidence; ``no_ai``: never ask a model (keyword results, said so)."""
    started = time.monotonic()
    rels = check_paths(paths)
    q = check_query(topic, "topic") if topic is not None else None
    if not rels and q is None:
        raise InvalidRequest("give paths (the files being edited) or a topic, or both")
    if not 1 <= limit <= 100:
        raise InvalidRequest("limit must be between 1 and 100")
    asked = check_statuses(status) if status else None
    loaded = ws.snapshot()
    config, corpus = loaded.config, loaded.corpus
    wanted = asked or governing_statuses(config)
    narrowed, judged, ranked = _relevance(ws, config, corpus, rels, q, wanted, limit, no_ai)
    result = narrowed.keyword
    return {
        "schemaVersion": SCHEMA_VERSION,
        "method": judged.method,
        "cached": judged.cached if judged.method == relevance.AI else loaded.reused,
        "latency_ms": round((time.monotonic() - started) * 1000),
        "paths": rels,
        "topic": q,
        "statuses": sorted(wanted),
        "total": len(ranked) if judged.method == relevance.AI else result.total,
        "results": [hit_row(h, extra) for h, extra in ranked[:limit]],
        "notes": [*judged.notes, *result.notes],
        "warnings": judged.warnings,
        "ai": judged.meta,
        "heldBack": result.held_back,
    }


def _relevance(
    ws: Workspace,
    config: Config,
    corpus: Corpus,
    rels: list[str],
    topic: str | None,
    wanted: frozenset[str],
    limit: int,
    no_ai: bool,
) -> tuple[retrieval.Narrowed, relevance.Judged, list[tuple[retrieval.Hit, dict[str, Any]]]]:
    """Narrow, let the model judge when the ladder says so, and rank."""
    narrowed = retrieval.narrow(
        corpus,
        _manifest(corpus, config),
        paths=rels,
        topic=topic,
        statuses=wanted,
        limit=limit,
        cap=MAX_CANDIDATES,
    )
    judged = relevance.judge_relevance(
        config, ws.root, narrowed, topic, no_ai=no_ai, clock=ws.clock, cancel=ws.cancel
    )
    return narrowed, judged, relevance.rank(judged, narrowed, config.ai.threshold)


def hit_row(hit: retrieval.Hit, extra: dict[str, Any] | None = None) -> dict[str, Any]:
    """A ``find`` result: the record's summary, its score, why it matched, and its
    ``confidence``, ``reason``, ``matchedFields`` and ``judgedBy``."""
    return {
        **summary_row(hit.decision),
        "score": hit.score,
        "reasons": [r.to_json() for r in hit.reasons],
        **(extra if extra is not None else relevance.rank_keyword(hit)),
    }


def _manifest(corpus: Corpus, config: Config) -> Manifest | None:
    try:
        return manifest_of(corpus, config.options)
    except ManifestError as exc:
        raise ConfigurationError(str(exc)) from None


def adr_context(
    ws: Workspace,
    *,
    identifier: str | None = None,
    paths: Sequence[str] = (),
    topic: str | None = None,
    status: Sequence[str] | None = None,
    cursor: str | None = None,
    max_units: int | None = None,
    max_chars: int | None = None,
    intent: str | None = None,
    domain: str | None = None,
    iteration: str | None = None,
    no_ai: bool = False,
) -> dict[str, Any]:
    """Decision units for one record (``identifier``), for what ``find`` returns (``paths``,
    ``topic``), for a ``domain`` or an ``iteration``, or, with no selector, the log's index;
    planned for ``intent`` (``current``, ``rationale``, ``history``: see
    :mod:`adrguard.core.agent.context`); always under the budget."""
    key = check_identifier(identifier) if identifier is not None else None
    rels = check_paths(paths)
    q = check_query(topic, "topic") if topic is not None else None
    dom = check_query(domain, "domain") if domain is not None else None
    itr = check_query(iteration, "iteration") if iteration is not None else None
    goal = intent or ctx_mod.CURRENT
    if goal not in ctx_mod.INTENTS:
        raise InvalidRequest(
            f"unknown intent {goal[:40]!r}: choose {', '.join(ctx_mod.INTENTS)}"
        )
    if cursor is not None and (
        len(cursor) > MAX_IDENTIFIER or not re.fullmatch(r"[A-Za-z0-9_-]+", cursor)
    ):
        raise InvalidRequest("the cursor is not one adrguard made: pass it exactly as returned")
    asked = check_statuses(status) if status else None
    units = max_units if max_units is not None else ws.limits.max_units
    chars = max_chars if max_chars is not None else ws.limits.max_chars
    if units < 1:
        raise InvalidRequest("max-units (maxUnits) must be at least 1")
    if chars < ctx_mod.MIN_CHARS:
        raise InvalidRequest(f"max-chars (maxChars) must be at least {ctx_mod.MIN_CHARS:,}")
    if key is not None and (rels or q or dom or itr):
        raise InvalidRequest(
            "give an identifier, or paths/topic/domain/iteration to select records, not both"
        )
    config, corpus = ws.load()
    freshness, warnings = _freshness(ws, config, corpus)
    selecting = bool(rels or q or dom or itr)
    if key is None and not selecting:
        if goal != ctx_mod.CURRENT:
            raise InvalidRequest(
                f"the {goal} intent needs a record: give an identifier, paths, a topic, a "
                "domain or an iteration"
            )
        return _overview(corpus, asked, cursor, chars, freshness, warnings)
    wanted = asked or governing_statuses(config)
    part: int | None = None
    succession: dict[str, Any] | None = None
    judged: relevance.Judged | None = None
    if key is not None:
        try:
            d, part = find_part(corpus, key)
        except UserError as exc:
            raise InvalidRequest(str(exc)) from None
        seeds = [(d, "requested")]
        from adrguard.core.agent.succession import succession as chain_of
        from adrguard.core.agent.succession import to_json

        chain = chain_of(graph_mod.build(corpus), d)
        succession = to_json(chain)
        if chain.successor is not None and goal == ctx_mod.CURRENT:
            warnings.insert(0, f"{d.id} is superseded: its current successor comes first")
    else:
        seeds, judged, notes = _select(ws, config, corpus, rels, q, dom, itr, wanted, no_ai)
        warnings.extend(notes)
    warnings[:0] = ctx_mod.succession_notes(corpus, [s for s, _ in seeds])
    request = json.dumps([key, rels, q, sorted(wanted), units, chars, goal, dom, itr])
    try:  # what it refuses is the request: a cursor of another request, a part out of range
        res = ctx_mod.build(
            corpus,
            seeds,
            request=request,
            max_units=units,
            max_chars=chars,
            cursor=cursor,
            part=part,
            warnings=list(dict.fromkeys(warnings)),
            intent=goal,
            in_force=wanted,
        )
    except UserError as exc:
        raise InvalidRequest(str(exc)) from None
    return {
        "schemaVersion": SCHEMA_VERSION,
        "mode": "record" if key is not None else "selection",
        "intent": goal,
        "method": judged.method if judged is not None else relevance.KEYWORD,
        "ai": judged.meta if judged is not None else None,
        "units": [ctx_mod.unit_json(u) for u in res.units],
        "index": [],
        "contentIsUntrusted": True,
        "note": UNTRUSTED,
        "successor": succession,
        "freshness": freshness,
        "totalUnits": res.total_units,
        "leftOut": res.left_out,
        "cursor": res.cursor,
        "corpusFingerprint": res.fingerprint,
        "warnings": list(res.warnings),
        **_sizes(res.code_points, res.bytes, res.tokens),
        "maxUnits": res.max_units,
        "maxChars": res.max_chars,
    }


def _select(
    ws: Workspace,
    config: Config,
    corpus: Corpus,
    rels: list[str],
    topic: str | None,
    domain: str | None,
    iteration: str | None,
    wanted: frozenset[str],
    no_ai: bool,
) -> tuple[list[tuple[Decision, str]], relevance.Judged | None, list[str]]:
    """The records a selection names, best first, with why; the model's judgment when one
    was asked; warnings and notes."""
    notes: list[str] = []
    scope: set[str] | None = None
    if domain is not None or iteration is not None:
        for what, value in (("domain", domain), ("iteration", iteration)):
            if value is None:
                continue
            known = selectors.known(corpus, what, config.archive_dirs)
            if selectors.slug(value) not in known:
                listed = ", ".join(known[:20]) or "none"
                raise InvalidRequest(
                    f"no record states the {what} {value[:80]!r} (the {what}s this log states: "
                    f"{listed}); see docs/agents.md for what is read"
                )
        chosen = selectors.select(
            corpus, domain=domain, iteration=iteration, archive_dirs=config.archive_dirs
        )
        scope = {d.path for d in chosen if status_key(d) in wanted}
        if not scope:
            notes.append(
                f"no record of the statuses {', '.join(sorted(wanted))} in this selection "
                f"({len(chosen)} with other statuses: widen with --status)"
            )
    if not rels and topic is None:
        picked = [d for d in corpus.decisions if scope is not None and d.path in scope]
        return [(d, _selector_why(domain, iteration)) for d in picked], None, notes
    _narrowed, judged, ranked = _relevance(ws, config, corpus, rels, topic, wanted, 100, no_ai)
    rows = [(h, extra) for h, extra in ranked if scope is None or h.decision.path in scope]
    notes += judged.notes + judged.warnings
    notes += list(_narrowed.keyword.notes)
    return [(h.decision, _why(h, extra)) for h, extra in rows], judged, notes


def _selector_why(domain: str | None, iteration: str | None) -> str:
    parts = [f"domain {domain}" if domain is not None else "",
             f"iteration {iteration}" if iteration is not None else ""]
    return "in " + " and ".join(p for p in parts if p)


def _overview(
    corpus: Corpus,
    asked: frozenset[str] | None,
    cursor: str | None,
    chars: int,
    freshness: list[dict[str, Any]],
    warnings: list[str],
) -> dict[str, Any]:
    wanted = asked or frozenset(STATUS_CHOICES)
    records = [d for d in corpus.decisions if status_key(d) in wanted]
    request = json.dumps(["overview", sorted(wanted), chars])
    try:
        res = ctx_mod.overview(
            corpus, records, request=request, max_chars=chars, cursor=cursor, warnings=warnings
        )
    except UserError as exc:
        raise InvalidRequest(str(exc)) from None
    index = []
    for d in res.rows:
        ident, title, state, path = ctx_mod.row_fields(d)
        index.append({"identifier": ident, "title": title or None, "status": state, "path": path})
    return {
        "schemaVersion": SCHEMA_VERSION,
        "mode": "overview",
        "units": [],
        "index": index,
        "contentIsUntrusted": True,
        "note": UNTRUSTED,
        "successor": None,
        "freshness": freshness,
        "totalUnits": res.total,
        "leftOut": res.left_out,
        "cursor": res.cursor,
        "corpusFingerprint": res.fingerprint,
        "warnings": list(res.warnings),
        **_sizes(res.code_points, res.bytes, res.tokens),
        "maxUnits": 0,
        "maxChars": res.max_chars,
    }


def _sizes(code_points: int, size: int, tokens: int) -> dict[str, Any]:
    return {
        "codePoints": code_points,
        "bytes": size,
        "tokensEstimate": tokens,
        "tokensEstimateMethod": ctx_mod.TOKEN_METHOD,
    }


def _why(hit: retrieval.Hit, extra: dict[str, Any] | None = None) -> str:
    if extra is not None and extra.get("judgedBy") == relevance.AI:
        return f"judged relevant by the model ({extra['confidence']:.2f}): {extra['reason']}"
    if not hit.reasons:
        return "listed by its status"
    r = hit.reasons[0]
    return f"matched {r.kind} {r.detail}" + (f" ({r.path})" if r.path else "")


def _freshness(
    ws: Workspace, config: Config, corpus: Corpus
) -> tuple[list[dict[str, Any]], list[str]]:
    """Each ADR root's CURRENT view against its sources manifest, and warnings for the ones
    an agent must not take as current."""
    from adrguard.api.generated import current_states

    try:
        states = {s.root: s for s in current_states(ws.root, config, corpus)}
    except UserError as exc:
        raise ConfigurationError(str(exc)) from None
    out: list[dict[str, Any]] = []
    warnings: list[str] = []
    for root in corpus.roots:
        st = states.get(root)
        if st is None:
            out.append(
                {
                    "root": root,
                    "state": "absent",
                    "view": None,
                    "manifest": None,
                    "changed": [],
                    "changedTotal": 0,
                    "reasons": [],
                }
            )
            continue
        codes = {r.code for r in st.reasons}
        if st.fresh:
            state = "fresh"
        elif st.manifest is None and "ADR405" in codes:
            state = "invalid"
        elif st.manifest is None:
            state = "absent"
        else:
            state = "stale"
        changed = [
            {"identifier": r.decision_id, "code": r.code, "message": r.message}
            for r in st.reasons
            if r.decision_id is not None
        ]
        out.append(
            {
                "root": root,
                "state": state,
                "view": st.view,
                "manifest": st.manifest_path,
                "changed": changed[:MAX_NAMED],
                "changedTotal": len(changed),
                "reasons": [r.message for r in st.reasons[:MAX_NAMED]],
            }
        )
        if state == "stale":
            ids = ", ".join(c["identifier"] for c in changed[:5]) or "the view itself"
            more = f" and {len(changed) - 5} more" if len(changed) > 5 else ""
            warnings.append(
                f"{st.view} is stale: {ids}{more} changed since it was reviewed; read the "
                "records, not the view"
            )
        elif state == "invalid":
            warnings.append(f"{st.manifest_path} cannot be used: {st.view} is not verified")
    return out, warnings
