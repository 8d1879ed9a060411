"""Relevance for ``find`` and ``context``: the narrowed candidates, and — when a provider is
configured — the model's judgment of them (issue 31).

The order of work is seed 003's: paths and components, the status filter and the graph narrow
the log (:func:`adrguard.core.agent.retrieval.narrow`); only then may a model judge the
survivors, and only the topic and the candidates' bounded summaries are sent
(:mod:`adrguard.core.agent.judge`). The degradation ladder decides whether to ask: ``--no-ai``
(``noAi``) answers with keywords and says so; no provider answers with keywords silently; a
provider that is down, slow, rate-limited or answers garbage gives keyword results and a warning
that says why. An answer is reused for ``cache-ttl`` seconds from the user's cache folder (the
record cache's, never the work tree) unless a candidate's content changed.

:func:`rank` turns the judgments into the answer's results: a record the model rated at or above
the threshold is listed with its confidence and reason; a record that governs an input path by
declaration stays listed whatever the model said (the model ranks and explains it, it cannot
remove it); the rest is left out.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from adrguard.adapters.cache.answers import Answers
from adrguard.adapters.cache.store import open_store
from adrguard.config import Config
from adrguard.core.agent import judge
from adrguard.core.agent.retrieval import Hit, Narrowed, explain
from adrguard.core.cancel import Token, checkpoint
from adrguard.core.model import status_key

KEYWORD = "keyword"
AI = "ai"


@dataclass
class Judged:
    """How the relevance question was answered."""

    method: str  # ai | keyword
    state: str  # judge.ASK's outcomes: answered, cached, off, unconfigured, failed, ...
    cached: bool = False  # the model's answer came from the answer cache
    judgments: dict[str, judge.Judgment] = field(default_factory=dict)  # record path -> word
    notes: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)  # the answer's "ai" object


def candidates_of(hits: tuple[Hit, ...]) -> tuple[list[judge.Candidate], dict[str, Hit]]:
    """The candidates a model sees (an id unique among them: the record's id, or its path when
    several candidates share it) and the hit each names."""
    from adrguard.core.agent.summary import candidate_summary

    counts: dict[str, int] = {}
    for h in hits:
        counts[h.decision.id] = counts.get(h.decision.id, 0) + 1
    out: list[judge.Candidate] = []
    named: dict[str, Hit] = {}
    for h in hits:
        d = h.decision
        ident = d.id if counts[d.id] == 1 else d.path
        out.append(
            judge.Candidate(
                ident,
                d.title or "",
                status_key(d),
                candidate_summary(d, judge.MAX_SUMMARY),
                d.sha256,
            )
        )
        named[ident] = h
    return out, named


def judge_relevance(
    config: Config,
    root: Path,
    narrowed: Narrowed,
    topic: str | None,
    *,
    no_ai: bool = False,
    clock: Callable[[], float] = time.time,
    cancel: Token | None = None,
) -> Judged:
    """Ask the configured model about ``narrowed``'s candidates, or say why not. ``cancel``: the
    run's token (:mod:`adrguard.core.cancel`), checked before the request is sent and after the
    answer arrives, so a call its caller gave up on sends nothing and caches nothing."""
    opts = config.ai
    configured = opts.provider is not None and bool(opts.model)
    meta: dict[str, Any] = {
        "provider": opts.provider,
        "model": opts.model,
        "threshold": opts.threshold,
        "narrowedBy": narrowed.layer,
        "survivors": narrowed.survivors,
        "candidates": 0,
        "judged": 0,
        "belowThreshold": 0,
        "outside": [],
    }
    cands, named = candidates_of(narrowed.candidates)
    key: str | None = None
    key_missing = destination = None
    ep: judge.Endpoint | None = None
    if configured and not no_ai and opts.provider is not None:
        ep = judge.endpoint(
            opts.provider, opts.base_url, opts.api_key_env, os.environ.get(judge.ENV_BASE_URL)
        )
        if ep.key_env is not None:
            key = os.environ.get(ep.key_env) or None
            key_missing = None if key else ep.key_env
        destination = judge.destination_problem(ep, sends_key=key is not None)
    step = judge.plan(
        configured=configured,
        no_ai=no_ai,
        has_topic=bool(topic),
        candidates=len(cands),
        key_missing=key_missing,
        destination=destination,
    )
    if not step.ask or ep is None or topic is None or opts.model is None:
        return _keyword(step, meta)
    from adrguard.adapters.models import open_provider

    provider = open_provider(ep, opts.model, key, opts.timeout)
    ck = judge.cache_key(topic, cands, provider)
    digests = dict(ck.digests)
    meta["candidates"] = len(cands)
    store = _answers_store(config, root) if opts.cache_ttl > 0 else None
    try:
        stored = store.get(ck.name, digests, clock(), opts.cache_ttl) if store else None
        cached = stored is not None
        if stored is not None:
            answer = _from_cache(stored, cands)
        else:
            try:
                checkpoint(cancel)
                completion = provider.complete(judge.build_prompt(topic, cands))
                checkpoint(cancel)
                answer = judge.parse_answer(
                    completion.text, cands, truncated=completion.truncated
                )
            except (judge.ProviderError, judge.AnswerError) as exc:
                return _keyword(judge.fallback(exc, opts.timeout), meta)
            if store is not None:
                rows: list[dict[str, object]] = [
                    {"id": j.id, "confidence": j.confidence, "reason": j.reason}
                    for j in answer.judgments
                ]
                store.put(ck.name, digests, clock(), rows)
    finally:
        if store is not None:
            store.close()
    judgments = {named[j.id].decision.path: j for j in answer.judgments}
    meta["judged"] = len(judgments)
    meta["belowThreshold"] = sum(1 for j in answer.judgments if j.confidence < opts.threshold)
    meta["outside"] = list(answer.outside[:20])
    notes = []
    if answer.outside:
        notes.append(
            f"the model named {len(answer.outside)} record(s) that were not among the "
            "candidates; ignored"
        )
    state = judge.CACHED if cached else judge.ANSWERED
    return Judged(AI, state, cached, judgments, notes, [], {"state": state, **meta})


def _keyword(step: judge.Plan, meta: dict[str, Any]) -> Judged:
    return Judged(
        KEYWORD,
        step.state,
        notes=[step.note] if step.note else [],
        warnings=[step.warning] if step.warning else [],
        meta={"state": step.state, **meta},
    )


def _answers_store(config: Config, root: Path) -> Answers | None:
    """The answer cache in the record cache's folder (same policy: off with ``--no-cache``,
    ``cache = false`` or ``ADRGUARD_NO_CACHE``; never inside the repository)."""
    store = open_store(config, root)
    return None if store is None else Answers(store)


def _from_cache(rows: list[dict[str, object]], cands: list[judge.Candidate]) -> judge.Answer:
    """A cached answer, validated again like a fresh one (a damaged entry is not trusted)."""
    import json

    try:
        return judge.parse_answer(json.dumps({"relevant": rows}), cands)
    except judge.AnswerError:
        return judge.Answer(())


def rank(judged: Judged, narrowed: Narrowed, threshold: float) -> list[tuple[Hit, dict[str, Any]]]:
    """The results, best first: each hit with its ``confidence``, ``reason``, ``matchedFields``
    and ``judgedBy`` (see the module docstring for what is kept)."""
    if judged.method != AI:
        return [(h, rank_keyword(h)) for h in narrowed.keyword.hits]
    rows: list[tuple[Hit, dict[str, Any]]] = []
    for h in narrowed.candidates:
        j = judged.judgments.get(h.decision.path)
        if j is not None and (j.confidence >= threshold or h.governs):
            rows.append(
                (
                    h,
                    {
                        "confidence": j.confidence,
                        "reason": j.reason,
                        "matchedFields": list(h.fields),
                        "judgedBy": AI,
                    },
                )
            )
        elif j is None and h.governs:
            rows.append((h, rank_keyword(h)))
    order = {h.decision.path: i for i, h in enumerate(narrowed.candidates)}
    rows.sort(key=lambda r: (-r[1]["confidence"], order[r[0].decision.path]))
    return rows


def rank_keyword(h: Hit) -> dict[str, Any]:
    """The relevance fields of a keyword result."""
    return {
        "confidence": h.confidence,
        "reason": explain(h),
        "matchedFields": list(h.fields),
        "judgedBy": KEYWORD,
    }
