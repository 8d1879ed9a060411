"""``adrguard search``: a deterministic, case-insensitive AND of whitespace-separated terms over
each record's identifier, title and markdown. Pure.

Every distinct term must occur (as a substring, case-insensitively) in at least one of the three
fields. The markdown searched is bounded: records larger than ``max-file-size`` are never read.
Results name the fields each term matched and carry a short excerpt around the first markdown
match (none when only the identifier or title matched). Order: discovery order (id, then path);
the search stops once ``limit`` records matched, and says whether another one would have.
This is not a ranking, and not a semantic search.

A term ``adr:ID`` (``adr:0004``, ``adr:ADR-0004``, ``adr:docs/adr/0004-x.md``) asks what cites
that decision: the records that refer to it (in discovery order, up to ``limit``), and the code
and documents that cite it (when the corpus was scanned for citations); the other terms must
then occur in a record as above, or in a citing file's path or cited line. An id no record has
finds the citations of that unknown number.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from adrguard.core.model import Corpus, Decision

if TYPE_CHECKING:
    from adrguard.core.citations.resolve import Cited

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
    """The records a search found (and, for ``adr:ID``, the files that cite the decision)."""

    query: str
    terms: tuple[str, ...]
    hits: tuple[SearchHit, ...]
    truncated: bool  # another record matched after the limit was reached
    cites: tuple[str, ...] = ()  # the ``adr:`` terms, as written
    cited: tuple[Decision, ...] = ()  # the records they name
    citations: tuple[Cited, ...] = ()  # code and documents citing them (up to the limit)
    citation_total: int = 0


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
    cites = tuple(
        dict.fromkeys(
            w[len(CITES) :]
            for w in query.split()
            if w.casefold().startswith(CITES) and len(w) > len(CITES)
        )
    )
    terms = tuple(t for t in terms_of(query) if not t.startswith(CITES))
    if cites:
        return _citing(corpus, query, terms, cites, limit)
    hits, truncated = _first(corpus.decisions, terms, limit, _match) if terms else ([], False)
    return SearchResult(query, terms, tuple(hits), truncated)


def _first(
    decisions: Iterable[Decision],
    terms: tuple[str, ...],
    limit: int,
    match: Callable[[Decision, tuple[str, ...]], SearchHit | None],
) -> tuple[list[SearchHit], bool]:
    """The first ``limit`` hits in discovery order, and whether another record matched."""
    hits: list[SearchHit] = []
    for d in decisions:  # discovery order: sorted by id, then path
        hit = match(d, terms)
        if hit is None:
            continue
        if len(hits) == limit:
            return hits, True
        hits.append(hit)
    return hits, False


CITES = "adr:"
_KEY_NUMBER = re.compile(r"^(?:[a-z]{2,10}[-_ ]?)?#?0*(\d{1,6})$", re.IGNORECASE)


def _citing(
    corpus: Corpus, query: str, terms: tuple[str, ...], cites: tuple[str, ...], limit: int
) -> SearchResult:
    """``adr:ID`` terms: records that refer to every named decision and files that cite it."""
    from adrguard.core.citations.resolve import UNKNOWN, index
    from adrguard.core.graph import graph

    found = index(corpus)
    g = graph.build(corpus)
    cited: list[Decision] = []
    records: set[str] | None = None
    files: list[Cited] | None = None
    for key in cites:
        targets = _named(corpus, key)
        cited.extend(targets)
        number = _KEY_NUMBER.match(key)
        if targets:
            refs = {p for d in targets for p in g.referenced_by.get(d.path, ())}
            mine = [c for d in targets for c in found.by_decision.get(d.path, ())]
        else:  # no record: who cites that unknown number
            n = int(number.group(1)) if number else None
            refs = set()
            mine = [c for c in found.all if c.state == UNKNOWN and c.citation.number == n]
        records = refs if records is None else records & refs
        kept = {(c.path, c.citation.line) for c in mine}
        files = mine if files is None else [c for c in files if (c.path, c.citation.line) in kept]
    referring = [d for d in corpus.decisions if d.path in (records or ())]

    def hit_of(d: Decision, words: tuple[str, ...]) -> SearchHit | None:
        return _match(d, words) if words else _mention(d, cited)

    hits, truncated = _first(referring, terms, limit, hit_of)
    wanted = [
        c
        for c in files or ()
        if all(t in c.path.casefold() or t in c.citation.excerpt.casefold() for t in terms)
    ]
    shown, total = tuple(wanted[:limit]), len(wanted)
    return SearchResult(query, terms, tuple(hits), truncated, cites, tuple(cited), shown, total)


def _named(corpus: Corpus, key: str) -> list[Decision]:
    """The records ``adr:KEY`` names: an id or path, else a number (active records first)."""
    hits = list(corpus.find(key))
    if not hits:
        m = _KEY_NUMBER.match(key)
        if m:
            n = int(m.group(1))
            numbered = [d for d in corpus.decisions if d.number == n]
            hits = [d for d in numbered if not d.archived] or numbered
    return hits


def _mention(d: Decision, cited: list[Decision]) -> SearchHit:
    """A record found because it refers to a cited one: the excerpt is its first mention in the
    markdown (none when it refers only in its front matter or through a path we cannot spot)."""
    body = d.text.casefold()
    marks = [m for c in cited for m in (c.id.casefold(), c.path.rsplit("/", 1)[-1].casefold())]
    found = [pos for pos in (body.find(m) for m in marks) if pos >= 0]
    if not found:
        return SearchHit(d, (), {}, None, 1)
    pos = min(found)
    line = d.text.count("\n", 0, pos) + 1 + d.body_line_offset
    return SearchHit(d, ("markdown",), {}, excerpt_at(d.text, pos), line)


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
