"""``adrguard search``: a deterministic, case-insensitive AND of whitespace-separated terms over
each record's identifier, title and markdown. Pure.

Every distinct term must occur (as a substring, case-insensitively) in at least one of the three
fields. The markdown searched is bounded: records larger than ``max-file-size`` are never read.
Results name the fields each term matched and carry a short excerpt around the first markdown
match (none when only the identifier or title matched). Order: discovery order (id, then path);
the search stops once ``limit`` records matched, and says whether another one would have.
This is not a ranking, and not a semantic search.
"""

from __future__ import annotations

from dataclasses import dataclass

from adrguard.core.model import Corpus, Decision

DEFAULT_LIMIT = 20
MAX_LIMIT = 100
EXCERPT_CHARS = 160
FIELDS = ("identifier", "title", "markdown")


@dataclass(frozen=True, slots=True)
class SearchHit:
    """A record holding every word of the query."""

    decision: Decision
    fields: tuple[str, ...]  # fields where at least one term matched, in FIELDS order
    terms: dict[str, tuple[str, ...]]  # term -> fields it matched
    excerpt: str | None  # plain text around the first markdown match (None: only id/title)
    line: int  # file line of the excerpt (1 when there is none)


@dataclass(frozen=True, slots=True)
class SearchResult:
    """The records a search found."""

    query: str
    terms: tuple[str, ...]
    hits: tuple[SearchHit, ...]
    truncated: bool  # another record matched after the limit was reached


def terms_of(query: str) -> tuple[str, ...]:
    """Distinct casefolded terms, in the order written."""
    seen: dict[str, None] = {}
    for word in query.split():
        seen.setdefault(word.casefold(), None)
    return tuple(seen)


def search(corpus: Corpus, query: str, limit: int = DEFAULT_LIMIT) -> SearchResult:
    """Records matching every term of ``query``; ``limit`` must be 1..MAX_LIMIT."""
    if not 1 <= limit <= MAX_LIMIT:
        raise ValueError(f"limit must be between 1 and {MAX_LIMIT}")
    terms = terms_of(query)
    hits: list[SearchHit] = []
    truncated = False
    if terms:
        for d in corpus.decisions:  # discovery order: sorted by id, then path
            hit = _match(d, terms)
            if hit is None:
                continue
            if len(hits) == limit:
                truncated = True
                break
            hits.append(hit)
    return SearchResult(query, terms, tuple(hits), truncated)


def _match(d: Decision, terms: tuple[str, ...]) -> SearchHit | None:
    texts = {
        "identifier": d.id.casefold(),
        "title": (d.title or "").casefold(),
        "markdown": d.text.casefold(),
    }
    per_term: dict[str, tuple[str, ...]] = {}
    for term in terms:
        found = tuple(f for f in FIELDS if term in texts[f])
        if not found:
            return None
        per_term[term] = found
    fields = tuple(f for f in FIELDS if any(f in v for v in per_term.values()))
    excerpt, line = None, 1
    body_terms = [t for t, v in per_term.items() if "markdown" in v]
    if body_terms:
        pos = min(texts["markdown"].find(t) for t in body_terms)
        excerpt = excerpt_at(d.text, pos)
        line = d.text.count("\n", 0, pos) + 1 + d.body_line_offset
    return SearchHit(d, fields, per_term, excerpt, line)


def excerpt_at(text: str, pos: int, width: int = EXCERPT_CHARS) -> str:
    """About ``width`` characters of ``text`` around ``pos`` on one line, with ``…`` where cut."""
    start = max(0, pos - width // 3)
    end = min(len(text), start + width)
    piece = " ".join(text[start:end].split())
    return ("…" if start > 0 else "") + piece + ("…" if end < len(text) else "")
