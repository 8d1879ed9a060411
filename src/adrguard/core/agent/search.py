"""``adrguard search``: a deterministic, case-insensitive AND of whitespace-separated terms over
each record's identifier, title and markdown. Pure.

Every distinct term must occur (as a substring, case-insensitively) in at least one of the three
fields. The markdown searched is bounded: records larger than ``max-file-size`` are never read.

Results are ranked, best first (ties in discovery order: id, then path), by a score that is
BM25 over the markdown (each term weighs by how rare it is among the records, and counts by how
often it occurs in a record, relative to the record's length) plus the term's weight again for
a match in the title (:data:`TITLE_BOOST`) and in the identifier (:data:`ID_BOOST`): a record
*about* the words comes before one that mentions them. The first ``limit`` are returned, with
the number of records that matched. Each result names the fields each term matched and carries
a short excerpt of the markdown around the place where the most terms occur together, in the
prose rather than in a heading (so not the record's title line) when the prose has a match,
else the matching heading line alone; none when only the identifier or title matched. Not a
semantic search.

A term ``adr:ID`` (``adr:0004``, ``adr:ADR-0004``, ``adr:docs/adr/0004-x.md``) asks what cites
that decision: the records that refer to it (unranked: in discovery order, up to ``limit``), and
the code and documents that cite it (when the corpus was scanned for citations); the other
terms must then occur in a record as above, or in a citing file's path or cited line. An id no
record has finds the citations of that unknown number.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from adrguard.core.citations.resolve import UNKNOWN, index
from adrguard.core.graph import graph
from adrguard.core.lazyre import lazy
from adrguard.core.model import Corpus, Decision

if TYPE_CHECKING:
    from adrguard.core.citations.resolve import Cited

DEFAULT_LIMIT = 20
MAX_LIMIT = 100
EXCERPT_CHARS = 160
FIELDS = ("identifier", "title", "markdown")
TITLE_BOOST = 2.0  # a term in the title counts as much as twice its weight
ID_BOOST = 1.0
K1, B = 1.2, 0.75  # BM25's usual constants
MAX_PLACES = 64  # occurrences of each term (4x that in all) weighed for the excerpt


@dataclass(frozen=True, slots=True)
class SearchHit:
    """A record holding every word of the query."""

    decision: Decision
    fields: tuple[str, ...]  # fields where at least one term matched, in FIELDS order
    terms: dict[str, tuple[str, ...]]  # term -> fields it matched
    excerpt: str | None  # plain text around the best markdown match (None: only id/title)
    line: int  # file line of the excerpt (1 when there is none)
    score: float = 0.0  # the rank (higher first); 0 for the unranked adr:ID results


@dataclass(frozen=True, slots=True)
class SearchResult:
    """The records a search found (and, for ``adr:ID``, the files that cite the decision)."""

    query: str
    terms: tuple[str, ...]
    hits: tuple[SearchHit, ...]
    truncated: bool  # another record matched after the limit was reached
    total: int | None = None  # records that matched (ranked searches; None: not counted)
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
    if not terms:
        return SearchResult(query, terms, (), False, 0)
    hits = [h for h in (_match(d, terms) for d in corpus.decisions) if h is not None]
    ranked = rank(hits, terms, corpus.decisions)
    return SearchResult(query, terms, tuple(ranked[:limit]), len(ranked) > limit, len(ranked))


def rank(hits: Sequence[SearchHit], terms: tuple[str, ...],
         decisions: Sequence[Decision]) -> list[SearchHit]:
    """``hits`` scored (see the module docstring) and sorted best first; a stable sort keeps
    discovery order among equal scores."""
    readable = [d for d in decisions if d.is_readable]
    count = max(len(readable), 1)
    average = sum(len(d.text) for d in readable) / count or 1.0
    holding = {t: sum(1 for h in hits if "markdown" in h.terms[t]) for t in terms}
    weight = {t: math.log(1 + (count - n + 0.5) / (n + 0.5)) for t, n in holding.items()}
    scored = []
    for h in hits:
        text = h.decision.text.casefold()
        norm = K1 * (1 - B + B * len(h.decision.text) / average)
        score = 0.0
        for t in terms:
            fields = h.terms[t]
            if "markdown" in fields:
                tf = text.count(t)
                score += weight[t] * tf * (K1 + 1) / (tf + norm)
            if "title" in fields:
                score += weight[t] * TITLE_BOOST
            if "identifier" in fields:
                score += weight[t] * ID_BOOST
        scored.append(replace(h, score=round(score, 4)))
    return sorted(scored, key=lambda h: -h.score)


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
_KEY_NUMBER = lazy(r"^(?:[a-z]{2,10}[-_ ]?)?#?0*(\d{1,6})$", re.IGNORECASE)


def _citing(
    corpus: Corpus, query: str, terms: tuple[str, ...], cites: tuple[str, ...], limit: int
) -> SearchResult:
    """``adr:ID`` terms: records that refer to every named decision and files that cite it."""
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
    return SearchResult(query, terms, tuple(hits), truncated, cites=cites, cited=tuple(cited),
                        citations=shown, citation_total=total)


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
        pos = best_place(texts["markdown"], body_terms)
        excerpt = (heading_at(d.text, pos) if _in_heading(texts["markdown"], pos)
                   else excerpt_at(d.text, pos))
        line = d.text.count("\n", 0, pos) + 1 + d.body_line_offset
    return SearchHit(d, fields, per_term, excerpt, line)


def _places(text: str, term: str) -> list[int]:
    """Where ``term`` occurs in ``text``, the first :data:`MAX_PLACES` times."""
    out: list[int] = []
    at = text.find(term)
    while at >= 0 and len(out) < MAX_PLACES:
        out.append(at)
        at = text.find(term, at + len(term))
    return out


def _in_heading(text: str, pos: int) -> bool:
    start = text.rfind("\n", 0, pos) + 1
    return text[start:pos + 1].lstrip(" \t>").startswith("#")


def best_place(text: str, terms: Sequence[str], width: int = EXCERPT_CHARS) -> int:
    """The offset in ``text`` (casefolded markdown) to centre an excerpt on: the occurrence
    whose excerpt window holds the most distinct terms; among those, one outside a heading
    line when there is one (the title line repeats the title, which the result shows
    already), then the earliest."""
    places = sorted((p, t) for t in terms for p in _places(text, t))[:MAX_PLACES * 4]
    best: tuple[int, bool, int] | None = None
    for pos, _term in places:
        start = max(0, pos - width // 3)
        end = start + width
        held = len({t for p, t in places if start <= p and p + len(t) <= end})
        key = (-held, _in_heading(text, pos), pos)
        if best is None or key < best:
            best = key
    return best[2] if best is not None else 0


def heading_at(text: str, pos: int, width: int = EXCERPT_CHARS) -> str:
    """The heading line holding ``pos``, alone (a heading match: not the text after it)."""
    start = text.rfind("\n", 0, pos) + 1
    end = text.find("\n", pos)
    line = " ".join(text[start:end if end >= 0 else len(text)].split())
    return line if len(line) <= width else line[: width - 1] + "…"


def excerpt_at(text: str, pos: int, width: int = EXCERPT_CHARS) -> str:
    """About ``width`` characters of ``text`` around ``pos`` on one line, with ``…`` where cut."""
    start = max(0, pos - width // 3)
    end = min(len(text), start + width)
    piece = " ".join(text[start:end].split())
    return ("…" if start > 0 else "") + piece + ("…" if end < len(text) else "")
