"""``adrguard find``: which decisions apply to the files being edited and/or a topic. Pure.

Layers, in this order:

1. path and component match: the paths given against every governor (front matter
   ``affected-paths``/``affected-components`` and the impact manifest, as ``impact`` reads them);
   a path that *is* a record matches that record;
2. status filter: only the statuses asked for (accepted by default);
3. graph expansion: a superseded match brings its current successor (only when its chain has
   one end: an ambiguous successor is reported in the notes, never picked), and every match
   brings what it depends on;
4. keyword ranking (BM25 over title and body) for the topic, and for the words of the paths
   when no governor maps anything (so ``find`` works with no mappings at all).

Every hit says why it matched (path, glob, component, term, successor, dependency) and its
score; ties are broken by id and path, so the order is deterministic. Each hit also carries a
deterministic confidence from 0 to 1 and the fields that matched (:func:`keyword_confidence`),
and :func:`narrow` gives the candidates a model may judge (layers 1 to 3, never the whole log).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field

from adrguard.core.graph import graph as graph_mod
from adrguard.core.impact.analysis import DEFAULT_STATUSES, governors, resolve
from adrguard.core.impact.globs import GlobSet, match_globs
from adrguard.core.impact.mapping import Manifest
from adrguard.core.lazyre import lazy
from adrguard.core.model import Corpus, Decision, status_key

PATH_SCORE = 10.0  # per path a record governs; keyword scores rarely reach it
TITLE_WEIGHT = 3  # a title word counts as this many body words
K1, B = 1.2, 0.75
_WORD = lazy(r"\w+", re.UNICODE)
_STOP = "a an and are as at be by for from has have how i in is it its of on or that the this to "
_STOP += "we what when which will with use using used our not no do does should can"
STOPWORDS = frozenset(_STOP.split(" "))
# Path words that say nothing about a topic.
_NOISE = "src lib libs app apps main index test tests spec specs pkg internal cmd docs doc md py "
_NOISE += "ts js tsx jsx go rs java kt rb json yaml yml toml txt cfg ini html css scss sh"
PATH_NOISE = frozenset(_NOISE.split(" "))


@dataclass(frozen=True, slots=True)
class Reason:
    """Why a record was found (a path, glob, component, term, ...)."""

    kind: str  # path | glob | component | record | term | successor | dependency
    detail: str  # the glob, the term, the record id that led here
    path: str | None = None  # the input path this reason is about
    via: str | None = None  # front-matter | manifest (for glob/component)

    def to_json(self) -> dict[str, str]:
        out = {"kind": self.kind, "detail": self.detail}
        if self.path is not None:
            out["path"] = self.path
        if self.via is not None:
            out["via"] = self.via
        return out


@dataclass(frozen=True, slots=True)
class Hit:
    """A record found, with its score and reasons, the keyword confidence (0–1) and the
    fields that matched (:func:`keyword_confidence`)."""

    decision: Decision
    score: float
    reasons: tuple[Reason, ...]
    confidence: float = 0.0
    fields: tuple[str, ...] = ()

    @property
    def governs(self) -> bool:
        """Whether the record governs an input path by declaration (the record itself, a
        glob or a component of its front matter or of the mapping file)."""
        return any(r.kind in DECLARED for r in self.reasons)


@dataclass(frozen=True)
class FindResult:
    """The records found for files and/or a topic."""

    hits: tuple[Hit, ...]
    total: int  # hits before the limit
    notes: tuple[str, ...] = ()
    held_back: dict[str, int] = field(default_factory=dict)  # status -> records left out
    terms: tuple[str, ...] = ()  # the words ranked (the topic's, or the paths')


DECLARED = frozenset({"record", "glob", "component"})  # reasons that say a record governs a path
# Keyword confidence (docs/agents.md): a record that is the path itself 1.0; a declared glob or
# component 0.9; words only: coverage × (1 − e^(−BM25/3)) × 0.85, so words alone never reach
# what a declaration says; a current successor as much as the record it replaces; a
# dependency half of what depends on it.
CONF_RECORD, CONF_DECLARED, CONF_WORDS = 1.0, 0.9, 0.85


def keyword_confidence(
    d: Decision, reasons: Sequence[Reason], words: float, terms: Sequence[str]
) -> tuple[float, tuple[str, ...]]:
    """The deterministic confidence of a keyword hit and the fields that matched:
    ``path`` (the record itself), ``affected-paths`` / ``affected-components`` (front matter),
    ``manifest`` (the mapping file), ``title`` / ``body`` (topic words), ``successor``,
    ``depends-on``. ``words``: the BM25 score of the topic words alone."""
    fields: dict[str, None] = {}
    confidence = 0.0
    matched = {r.detail for r in reasons if r.kind == "term"}
    for r in reasons:
        if r.kind == "record":
            fields["path"] = None
            confidence = max(confidence, CONF_RECORD)
        elif r.kind in ("glob", "component"):
            if r.via == "manifest":
                fields["manifest"] = None
            else:
                fields["affected-paths" if r.kind == "glob" else "affected-components"] = None
            confidence = max(confidence, CONF_DECLARED)
        elif r.kind == "successor":
            fields["successor"] = None
        elif r.kind == "dependency":
            fields["depends-on"] = None
    if matched:
        title = set(tokens(d.title or ""))
        for t in sorted(matched):
            fields["title" if t in title else "body"] = None
        coverage = len(matched) / max(1, len(set(terms)))
        strength = 1 - math.exp(-max(0.0, words) / 3)
        confidence = max(confidence, CONF_WORDS * coverage * strength)
    return round(min(1.0, confidence), 2), tuple(fields)


def tokens(text: str) -> list[str]:
    """Casefolded words without stopwords; a trailing plural ``s`` is dropped."""
    out: list[str] = []
    for word in _WORD.findall(text.casefold()):
        if word in STOPWORDS or word.isdigit():
            continue
        if len(word) > 4 and word.endswith("s") and not word.endswith(("ss", "is", "us")):
            word = word[:-1]
        out.append(word)
    return out


def path_terms(paths: Iterable[str]) -> list[str]:
    """Topic words in file paths: ``infra/modules/vpc/main.tf`` -> infra, module, vpc, tf."""
    words: dict[str, None] = {}
    for p in paths:
        for w in tokens(re.sub(r"[/._\-]+", " ", p)):
            if w not in PATH_NOISE and len(w) > 1:
                words.setdefault(w, None)
    return list(words)


class Bm25:
    """BM25 over title (weighted) and body of every record."""

    def __init__(self, decisions: Sequence[Decision]) -> None:
        self.docs: list[Counter[str]] = []
        for d in decisions:
            bag = Counter(tokens(d.text))
            for w in tokens(d.title or ""):
                bag[w] += TITLE_WEIGHT
            self.docs.append(bag)
        self.lengths = [sum(bag.values()) for bag in self.docs]
        self.avg = (sum(self.lengths) / len(self.docs)) if self.docs else 1.0
        self.df: Counter[str] = Counter()
        for bag in self.docs:
            self.df.update(bag.keys())

    def score(self, i: int, terms: Sequence[str]) -> tuple[float, tuple[str, ...]]:
        bag, n = self.docs[i], len(self.docs)
        total, hit = 0.0, []
        for t in terms:
            tf = bag.get(t, 0)
            if not tf:
                continue
            idf = math.log(1 + (n - self.df[t] + 0.5) / (self.df[t] + 0.5))
            norm = tf + K1 * (1 - B + B * self.lengths[i] / (self.avg or 1.0))
            total += idf * tf * (K1 + 1) / norm
            hit.append(t)
        return total, tuple(hit)


def _glob_reasons(
    corpus: Corpus,
    manifest: Manifest | None,
    via: str,
    decision: str,
    globs: Sequence[str],
    path: str,
) -> list[Reason]:
    """Which globs (and components) of one governor match ``path``."""
    components = manifest.components if manifest is not None else {}
    names: list[str] = []
    if via == "front-matter":
        names = list(corpus.by_path[decision].governed_components)
    elif manifest is not None:
        names = [n for m in manifest.mappings if m.decision == decision for n in m.components]
    out: list[Reason] = []
    seen: set[str] = set()
    for name in names:
        for g in components.get(name, ()):
            if not g.startswith("!") and match_globs([g], [path]):
                out.append(Reason("component", f"{name}: {g}", path, via))
                seen.add(g)
    for g in globs:
        if g not in seen and not g.startswith("!") and match_globs([g], [path]):
            out.append(Reason("glob", g, path, via))
            seen.add(g)
    return out or [Reason("glob", ", ".join(globs), path, via)]


def _path_matches(
    corpus: Corpus, manifest: Manifest | None, paths: Sequence[str]
) -> tuple[dict[str, tuple[Decision, float, list[Reason]]], list[str], bool]:
    found: dict[str, tuple[Decision, float, list[Reason]]] = {}
    notes: list[str] = []

    def add(d: Decision, score: float, reasons: list[Reason]) -> None:
        entry = found.setdefault(d.path, (d, 0.0, []))
        found[d.path] = (d, entry[1] + score, entry[2] + reasons)

    for p in paths:
        if p in corpus.by_path:
            add(corpus.by_path[p], PATH_SCORE, [Reason("record", p, p)])
    govs, problems = governors(corpus, manifest)
    notes.extend(problems)
    matched = GlobSet([g.globs for g in govs]).match(paths) if govs else []
    for gov, files in zip(govs, matched, strict=True):
        if not files:
            continue
        if gov.via == "front-matter":
            targets: tuple[Decision, ...] = (corpus.by_path[gov.decision],)
        else:
            targets = resolve(corpus, gov.decision)
            if len(targets) != 1:
                what = "no record" if not targets else "several records"
                notes.append(f"{gov.location}: mapping {gov.decision!r} names {what}; skipped")
                continue
        for f in files:
            reasons = _glob_reasons(corpus, manifest, gov.via, gov.decision, gov.globs, f)
            add(targets[0], PATH_SCORE, reasons)
    return found, notes, bool(govs)


def find(
    corpus: Corpus,
    manifest: Manifest | None = None,
    *,
    paths: Sequence[str] = (),
    topic: str | None = None,
    statuses: Collection[str] = DEFAULT_STATUSES,
    limit: int = 10,
) -> FindResult:
    """Decisions for ``paths`` and/or ``topic``, best first."""
    from adrguard.core.agent.succession import CURRENT, succession

    wanted = frozenset(statuses)
    scored, notes, mapped = _path_matches(corpus, manifest, list(paths))
    terms = tokens(topic or "")
    if paths and not mapped:
        notes.append("no decision maps any paths: ranked by the words of the paths instead")
        terms += [t for t in path_terms(paths) if t not in terms]
    elif paths and not scored:
        notes.append("no mapping covers these paths: ranked by the words of the paths instead")
        terms += [t for t in path_terms(paths) if t not in terms]
    words: dict[str, float] = {}
    if terms:
        index = corpus.derived("bm25", lambda: Bm25(corpus.decisions))  # built once, kept on it
        for i, d in enumerate(corpus.decisions):
            value, hit = index.score(i, terms)
            if value > 0:
                entry = scored.get(d.path, (d, 0.0, []))
                reasons = entry[2] + [Reason("term", t) for t in hit]
                scored[d.path] = (d, entry[1] + value, reasons)
                words[d.path] = value

    g = graph_mod.build(corpus)
    results: dict[str, tuple[Decision, float, list[Reason]]] = {}
    confidence: dict[str, float] = {}
    held: dict[str, set[str]] = {}

    def take(d: Decision, score: float, reasons: list[Reason], conf: float) -> None:
        if status_key(d) not in wanted:
            held.setdefault(status_key(d), set()).add(d.path)
            return
        entry = results.setdefault(d.path, (d, 0.0, []))
        results[d.path] = (d, max(entry[1], score), entry[2] + reasons)
        confidence[d.path] = max(confidence.get(d.path, 0.0), conf)

    for d, score, reasons in sorted(scored.values(), key=lambda e: (-e[1], e[0].id, e[0].path)):
        own, _fields = keyword_confidence(d, reasons, words.get(d.path, 0.0), terms)
        chain = succession(g, d)
        succ = chain.successor if chain.state == CURRENT else None
        note = chain.describe(d)
        if note is not None and note not in notes:
            notes.append(note)
        if succ is not None and succ.path != d.path:
            take(succ, score, [Reason("successor", d.id), *reasons], own)
        take(d, score, reasons, own)
        if status_key(d) in wanted:
            for target in g.out_edges["depends-on"].get(d.path, ()):
                if target != d.path:
                    dep = g.decision(target)
                    take(dep, score / 2, [Reason("dependency", d.id)], round(own / 2, 2))
    if held:
        parts = ", ".join(f"{len(n)} {s}" for s, n in sorted(held.items()))
        notes.append(
            f"left out for their status: {parts} (only {', '.join(sorted(wanted))} asked for; "
            "widen with --status)"
        )
    ordered = sorted(results.values(), key=lambda e: (-round(e[1], 6), e[0].id, e[0].path))
    hits = []
    for d, score, reasons in ordered[:limit]:
        kept = tuple(dict.fromkeys(reasons))
        _conf, fields = keyword_confidence(d, kept, words.get(d.path, 0.0), terms)
        hits.append(Hit(d, round(score, 4), kept, round(confidence[d.path], 2), fields))
    counts = {s: len(n) for s, n in sorted(held.items())}
    return FindResult(tuple(hits), len(ordered), tuple(notes), counts, tuple(terms))


def explain(hit: Hit) -> str:
    """Why a keyword hit was found, in one line (the ``reason`` of a keyword result)."""
    parts: list[str] = []
    declared = [r for r in hit.reasons if r.kind in DECLARED]
    if declared:
        r = declared[0]
        how = "is" if r.kind == "record" else f"by {r.kind} {r.detail}"
        via = f" in the {'mapping file' if r.via == 'manifest' else r.via}" if r.via else ""
        more = len({x.path for x in declared}) - 1
        tail = f" and {more} more path{'s' if more > 1 else ''}" if more > 0 else ""
        parts.append(f"governs {r.path} ({how}{via}){tail}" if r.kind != "record" else
                     f"is {r.path}")
    for r in hit.reasons:
        if r.kind == "successor":
            parts.append(f"current successor of {r.detail}")
            break
    deps = [r.detail for r in hit.reasons if r.kind == "dependency"]
    if deps:
        parts.append(f"{', '.join(dict.fromkeys(deps))} depends on it")
    terms = list(dict.fromkeys(r.detail for r in hit.reasons if r.kind == "term"))
    if terms:
        shown = ", ".join(terms[:6]) + (f" (+{len(terms) - 6})" if len(terms) > 6 else "")
        where = " and ".join(f for f in hit.fields if f in ("title", "body"))
        parts.append(f"its {where or 'text'} mentions {shown}")
    return "; ".join(parts) or "listed by its status"


@dataclass(frozen=True)
class Narrowed:
    """The records a model may judge: what survived layers 1 to 3, at most ``cap``.

    ``layer``: ``paths`` when some record governs an input path (then the candidates are those
    records, their current successors and what they depend on), else ``status`` (every record of
    the wanted statuses, those the keywords rank first). ``survivors`` counts the records before
    the cap; ``keyword`` is the deterministic answer (the fallback)."""

    candidates: tuple[Hit, ...]
    layer: str
    survivors: int
    keyword: FindResult


def narrow(
    corpus: Corpus,
    manifest: Manifest | None = None,
    *,
    paths: Sequence[str] = (),
    topic: str | None = None,
    statuses: Collection[str] = DEFAULT_STATUSES,
    limit: int = 10,
    cap: int = 24,
) -> Narrowed:
    """The candidates of layers 1–3 for ``paths`` and/or ``topic`` (see :class:`Narrowed`), and
    the keyword answer limited to ``limit``."""
    every = find(
        corpus, manifest, paths=paths, topic=topic, statuses=statuses,
        limit=len(corpus.decisions) + 1,
    )
    keyword = FindResult(
        every.hits[:limit], every.total, every.notes, every.held_back, every.terms
    )
    graph_kinds = DECLARED | {"successor", "dependency"}
    linked = [h for h in every.hits if any(r.kind in graph_kinds for r in h.reasons)]
    if linked:
        return Narrowed(tuple(linked[:cap]), "paths", len(linked), keyword)
    wanted = frozenset(statuses)
    ranked = list(every.hits)
    seen = {h.decision.path for h in ranked}
    for d in corpus.decisions:  # sorted by (id, path)
        if d.path not in seen and status_key(d) in wanted:
            ranked.append(Hit(d, 0.0, ()))
    return Narrowed(tuple(ranked[:cap]), "status", len(ranked), keyword)
