"""Each citation tied to the record it names, and what that record's status means for it.

An id names the record with that number in the logs its prefix belongs to (``ADR`` and a bare
number: every log; a learned prefix such as ``DR``: the logs whose file names use it). Several
logs with the number: the log nearest the citing file wins (``services/a/docs/adr`` for
``services/a/src/x.py``); still several, the citation is ambiguous. A link names the record at
its path; a link to a file below a root that is no record (the log's README) cites nothing.
Pure; the index is computed once per corpus (:meth:`Corpus.derived`).
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable, Mapping
from functools import cached_property

import msgspec

from adrguard.core.citations.scan import GENERIC_PREFIXES, Scheme
from adrguard.core.graph import graph as graph_mod
from adrguard.core.model import Citation, CitingFile, Corpus, Decision, Status
from adrguard.core.parse import formats, ids

RESOLVED = "resolved"
UNKNOWN = "unknown"
AMBIGUOUS = "ambiguous"


class Cited(msgspec.Struct, frozen=True):
    """One citation and the records it names (none: unknown; several: ambiguous)."""

    file: CitingFile
    citation: Citation
    decisions: tuple[Decision, ...]

    @property
    def state(self) -> str:
        if not self.decisions:
            return UNKNOWN
        return RESOLVED if len(self.decisions) == 1 else AMBIGUOUS

    @property
    def decision(self) -> Decision | None:
        return self.decisions[0] if len(self.decisions) == 1 else None

    @property
    def path(self) -> str:
        return self.file.path


def scheme_of(corpus: Corpus) -> Scheme:
    """The citation scheme a corpus implies: ``ADR`` plus the id prefixes its records' file
    names and ids use, its roots and its web URL."""
    prefixes = set(GENERIC_PREFIXES)
    widths: set[int] = set()
    names = formats.names_of(corpus)
    for d in corpus.decisions:
        prefix = names.name_id(d.path, d.root).prefix
        if prefix:
            prefixes.add(prefix)
        token = ids.id_token(d.id)
        if token is not None:
            prefixes.add(token[0])
        width = _padded_width(names.record_name(d.path, d.root))
        if width:
            widths.add(width)
    return Scheme(tuple(sorted(prefixes)), tuple(corpus.roots), corpus.repository,
                  tuple(sorted(widths)))


def _padded_width(name: str) -> int:
    """The width of a zero-padded record number at the start of a name (after an id prefix):
    4 for ``0004-x`` and ``ADR-0004-x``, 0 for ``4-x`` or a name without a number."""
    rest = name.lstrip("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ").lstrip("-_ .")
    digits = len(rest) - len(rest.lstrip("0123456789"))
    return digits if digits >= 2 and rest.startswith("0") else 0


class Index:
    """Every citation of the corpus's scan, resolved; by cited record and by citing file."""

    def __init__(self, corpus: Corpus) -> None:
        self.corpus = corpus
        found = corpus.citations
        files = found.files if found is not None else ()
        out: list[Cited] = []
        for f in files:
            seen: set[tuple[int, str]] = set()
            for c in f.citations:
                hits = self.resolve(f.path, c)
                if hits is None:
                    continue
                key = (c.line, hits[0].path if len(hits) == 1 else f"{c.prefix}:{c.number}")
                if key in seen:
                    continue  # the id and the link of one markdown link name one record
                seen.add(key)
                out.append(Cited(f, c, hits))
        self.all: tuple[Cited, ...] = tuple(out)

    @cached_property
    def by_decision(self) -> Mapping[str, tuple[Cited, ...]]:
        """Record path -> the citations that name it (resolved ones only)."""
        out: dict[str, list[Cited]] = {}
        for cited in self.all:
            if cited.decision is not None:
                out.setdefault(cited.decision.path, []).append(cited)
        return {k: tuple(v) for k, v in out.items()}

    @cached_property
    def by_file(self) -> Mapping[str, tuple[Cited, ...]]:
        out: dict[str, list[Cited]] = {}
        for cited in self.all:
            out.setdefault(cited.path, []).append(cited)
        return {k: tuple(v) for k, v in out.items()}

    @cached_property
    def _prefix_roots(self) -> Mapping[str, frozenset[str]]:
        """Learned prefix -> the roots whose records use it."""
        out: dict[str, set[str]] = {}
        names = formats.names_of(self.corpus)
        for d in self.corpus.decisions:
            prefix = names.name_id(d.path, d.root).prefix
            if prefix:
                out.setdefault(prefix, set()).add(d.root)
            token = ids.id_token(d.id)
            if token is not None:
                out.setdefault(token[0], set()).add(d.root)
        return {k: frozenset(v) for k, v in out.items()}

    def resolve(self, path: str, c: Citation) -> tuple[Decision, ...] | None:
        """The records ``c`` (in the file at ``path``) names; None when it names no decision
        at all (a link to the log's README)."""
        if c.target is not None:
            resolver = graph_mod.build(self.corpus).resolver
            hit = resolver.decision_at(c.target)
            if hit is not None:
                return (hit,)
            if resolver.exists(c.target) or c.target in self.corpus.other_texts:
                return None  # a file below the root that is no record
            name = posixpath.basename(c.target)
            return () if ids.parse_name(name).number is not None else None
        if c.number is None:
            return None
        prefix = c.prefix
        if not prefix or prefix in GENERIC_PREFIXES:
            roots = self.corpus.roots
        else:
            roots = tuple(sorted(self._prefix_roots.get(prefix, ())))
        hits = [d for r in roots for d in self.corpus.by_number.get((r, c.number), ())]
        if len(hits) > 1:
            hits = _nearest(path, hits)
        return tuple(hits)


def _nearest(path: str, hits: list[Decision]) -> list[Decision]:
    """The records of the log nearest ``path``: the root sharing the most leading folders with
    it, then the shallowest root (a top-level log before a module's); active records before
    archived ones."""
    active = [d for d in hits if not d.archived] or hits
    folders = path.split("/")[:-1]

    def rank(d: Decision) -> tuple[int, int]:
        parts = [] if d.root == "." else d.root.split("/")
        shared = 0
        for a, b in zip(folders, parts, strict=False):
            if a != b:
                break
            shared += 1
        return shared, -len(parts)

    best = max(rank(d) for d in active)
    return [d for d in active if rank(d) == best]


def index(corpus: Corpus) -> Index:
    """The resolved citations of ``corpus`` (empty when it was not scanned), built once."""
    return corpus.derived("citations", lambda: Index(corpus))


class Standing(msgspec.Struct, frozen=True):
    """Whether a cited record is in force, and if not what replaced it."""

    state: str  # "in-force" | "superseded" | "rejected" | "deprecated" | "other"
    successor: Decision | None = None  # the end of the supersession chain


def standing(corpus: Corpus, d: Decision) -> Standing:
    """Superseded (by status, or by an accepted successor), rejected, deprecated, or not.
    Resolved once per record and run: kept on the corpus, from the graph's chain ends."""
    memo: dict[str, Standing] = corpus.derived("standings", dict)
    found = memo.get(d.path)
    if found is None:
        found = memo[d.path] = _standing(graph_mod.build(corpus), d)
    return found


def _standing(g: graph_mod.Graph, d: Decision) -> Standing:
    succ = g.current_successor(d)
    if d.status is Status.SUPERSEDED or (succ is not None and succ.status is Status.ACCEPTED):
        return Standing("superseded", succ)
    if d.status is Status.REJECTED:
        return Standing("rejected")
    if d.status is Status.DEPRECATED:
        return Standing("deprecated", succ)
    if d.status is Status.ACCEPTED:
        return Standing("in-force")
    return Standing("other")


def line_successors(corpus: Corpus) -> LineSuccessors:
    """The run's :class:`LineSuccessors`, built once (a rule asking for every citation takes
    it once and asks it)."""
    return corpus.derived("line-successors", lambda: LineSuccessors(corpus))


class LineSuccessors:
    """Whether the line of a citation also cites a record that supersedes the one it names,
    directly or through others (``ADR-0004, replaced by ADR-0009``): :meth:`holds`, for every
    citation of a run in linear time.

    Only the records cited on a line beside another record matter (the *shared* ones): each
    gets a bit, and every record of the supersession graph the set of shared records that
    supersede it, as an integer bit set, built once over the graph's strongly connected
    components in reverse topological order. Members of a supersession cycle supersede each
    other and themselves, so a line citing only such a record also holds. A citation then
    costs one AND of its record's set and its line's bits."""

    def __init__(self, corpus: Corpus) -> None:
        lines: dict[tuple[str, int], set[str]] = {}
        for cited in index(corpus).all:
            if cited.decision is not None:
                lines.setdefault((cited.path, cited.citation.line), set()).add(
                    cited.decision.path)
        shared = sorted({p for paths in lines.values() if len(paths) > 1 for p in paths})
        bit = {p: 1 << i for i, p in enumerate(shared)}
        self.lines = {key: _bits(paths, bit) for key, paths in lines.items() if len(paths) > 1}
        self.later, self.cyclic = _later(graph_mod.build(corpus), bit)

    def holds(self, cited: Cited) -> bool:
        d = cited.decision
        if d is None:
            return False
        mask = self.lines.get((cited.path, cited.citation.line))
        if mask is None:  # the only record its line cites
            return d.path in self.cyclic
        return bool(self.later.get(d.path, 0) & mask)


def _bits(paths: Iterable[str], bit: Mapping[str, int]) -> int:
    out = 0
    for p in paths:
        out |= bit.get(p, 0)
    return out


def _later(g: graph_mod.Graph, bit: Mapping[str, int]) -> tuple[dict[str, int], frozenset[str]]:
    """Record path -> the bits of the shared records that supersede it, through any chain;
    and the records on a supersession cycle."""
    succ = {
        target: tuple(p for p in sources if p != target)
        for target, sources in g.in_edges["supersedes"].items()
    }
    later: dict[str, int] = {}
    cyclic: set[str] = set()
    # Tarjan emits each component after every component it reaches: successors come first.
    for component in graph_mod.strongly_connected(sorted(succ), succ):
        members = set(component)
        mask = 0
        for member in component:
            for s in succ.get(member, ()):
                if s not in members:
                    mask |= bit.get(s, 0) | later.get(s, 0)
        if len(component) > 1:
            mask |= _bits(component, bit)
            cyclic.update(component)
        for member in component:
            later[member] = mask
    return later, frozenset(cyclic)


def cited_by(corpus: Corpus, paths: Iterable[str]) -> list[tuple[Decision, tuple[str, ...]]]:
    """The records the files ``paths`` cite, each with those of the files that cite it (in
    record path order); nothing when the corpus was not scanned for citations."""
    if corpus.citations is None:
        return []
    by_file = index(corpus).by_file
    out: dict[str, tuple[Decision, set[str]]] = {}
    for path in paths:
        for cited in by_file.get(path, ()):
            d = cited.decision
            if d is not None:
                out.setdefault(d.path, (d, set()))[1].add(path)
    return [(d, tuple(sorted(files))) for _, (d, files) in sorted(out.items())]
