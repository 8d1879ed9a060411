"""Core value types: what a decision record is once read and parsed.

Everything here is immutable, pure and cheap to build. Paths are repository-relative POSIX
strings; lines and columns are 1-based.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from functools import cached_property
from typing import Any, TypeVar, cast

import msgspec

from adrguard.core.adrformat import GENERIC
from adrguard.core.repository import Repository

T = TypeVar("T")


class Status(enum.StrEnum):
    """Normalised status of a decision. ``None`` on a Decision means "no status stated"."""

    PROPOSED = "proposed"
    ACCEPTED = "accepted"
    REJECTED = "rejected"
    DEPRECATED = "deprecated"
    SUPERSEDED = "superseded"
    DRAFT = "draft"
    UNKNOWN = "unknown"  # stated, but not in the vocabulary


INACTIVE_STATUSES = frozenset({Status.REJECTED, Status.DEPRECATED, Status.SUPERSEDED})
# the status words ``--status`` and ``impact.statuses`` accept; "none": records that state no status
STATUS_CHOICES = ("accepted", "proposed", "draft", "deprecated", "superseded", "rejected",
                  "unknown", "none")


class RelKind(enum.StrEnum):
    SUPERSEDES = "supersedes"
    SUPERSEDED_BY = "superseded-by"
    DEPENDS_ON = "depends-on"
    AMENDS = "amends"
    AMENDED_BY = "amended-by"
    RELATES_TO = "relates-to"
    IN_FAVOUR_OF = "in-favour-of"


class Location(msgspec.Struct, frozen=True, order=True):
    """A position in a file: repository-relative path, 1-based line and column."""

    path: str
    line: int = 1
    column: int = 1

    def __str__(self) -> str:
        return f"{self.path}:{self.line}"


class SourceFile(msgspec.Struct, frozen=True):
    """A file as the files adapter read it. ``data`` is None when ``error`` says why."""

    path: str  # repo-relative POSIX path
    root: str  # repo-relative ADR root this file was found under ("." for the repo root)
    data: bytes | None
    error: str | None = None  # read problem (symlink out of repo, too large, unreadable, ...)
    archived: bool = False
    # the hex SHA-256 of ``data`` when its reader took it already ("" when not): the parser
    # then does not hash the bytes again (it uses it only for bytes without a carriage return,
    # whose digest is the record's ``Decision.sha256``)
    sha256: str = ""


class Problem(msgspec.Struct, frozen=True, array_like=True):
    """A reading/parsing problem found while parsing (becomes ADR001 or ADR002)."""

    code: str  # "ADR001" | "ADR002"
    message: str
    line: int = 1


class StatusStatement(msgspec.Struct, frozen=True, array_like=True):
    """One place where a record states its status."""

    raw: str
    status: Status
    line: int
    source: str  # "front-matter" | "section" | "line" | "bullet" | "heading"


class Section(msgspec.Struct, frozen=True, array_like=True):
    """A heading of a record and the text below it."""

    title: str
    level: int
    line: int  # line of the heading
    end_line: int  # last line of the section's content (before the next heading of any level)
    text: str  # plain text of the content up to the next heading of any level
    anchor: str = ""  # GitHub slug of the heading


class Link(msgspec.Struct, frozen=True, array_like=True):
    """A link in a record's body (or an image, autolink or HTML link)."""

    target: str  # destination exactly as written (after reference resolution)
    text: str  # plain link text
    line: int
    column: int = 1
    kind: str = "inline"  # inline | reference | autolink | image | html
    is_image: bool = False


class Relationship(msgspec.Struct, frozen=True, array_like=True):
    """A declared relationship from one record to another (supersedes, amends, ...)."""

    kind: RelKind
    source_id: str
    target_raw: str  # as written: a link destination, an id, a slug
    location: Location
    text: str = ""  # link text, when the target came from a link
    origin: str = "body"  # "front-matter" | "body" | "status"


class Comment(msgspec.Struct, frozen=True, array_like=True):
    """An HTML comment in the body (suppressions live in these)."""

    text: str
    line: int


class Decision(msgspec.Struct, frozen=True, array_like=True):
    """One decision record as parsed: metadata, sections, links, relationships."""

    id: str
    path: str
    root: str
    number: int | None = None
    title: str | None = None
    title_raw: str | None = None
    title_line: int = 1
    status: Status | None = None
    status_raw: str | None = None
    status_line: int = 1
    statuses: tuple[StatusStatement, ...] = ()
    date: str | None = None  # as written
    date_line: int = 1
    format: str = GENERIC  # a name of adrguard.core.adrformat.FORMATS (GENERIC: none known)
    front_matter: Mapping[str, Any] = msgspec.field(default_factory=dict)
    front_matter_lines: Mapping[str, int] = msgspec.field(default_factory=dict)  # key -> line
    sections: tuple[Section, ...] = ()
    links: tuple[Link, ...] = ()
    relationships: tuple[Relationship, ...] = ()
    comments: tuple[Comment, ...] = ()
    governed_paths: tuple[str, ...] = ()
    governed_components: tuple[str, ...] = ()
    sha256: str = ""
    archived: bool = False
    text: str = ""  # decoded markdown without front matter ("" when unreadable)
    body_line_offset: int = 0  # lines taken by front matter before ``text``
    problems: tuple[Problem, ...] = ()
    title_number: int | None = None  # number written in the H1 / front-matter title

    @property
    def location(self) -> Location:
        return Location(self.path, 1, 1)

    @property
    def is_readable(self) -> bool:
        return not self.problems or not any(p.code == "ADR001" for p in self.problems)

    def section(self, title: str) -> Section | None:
        folded = title.casefold()
        for s in self.sections:
            if s.title.casefold() == folded:
                return s
        return None


class FileChange(msgspec.Struct, frozen=True):
    """One changed file between a base and a head (git's name-status)."""

    status: str  # "A" added, "M" modified, "D" deleted, "R" renamed, "T" type change
    path: str
    old_path: str | None = None


class ChangeSet(msgspec.Struct, frozen=True):
    """What changed between a base and a head (built by adapters/git, consumed by rules)."""

    base: str
    head: str
    merge_base: str
    changes: tuple[FileChange, ...]
    base_corpus: Corpus | None = None
    notes: tuple[str, ...] = ()
    base_commit: str = ""  # the commit ``base`` named (``merge_base`` may differ)
    head_commit: str = ""  # the commit ``head`` named


class Citation(msgspec.Struct, frozen=True):
    """One place a file outside the ADR roots names a decision (see :mod:`adrguard.core.citations`).

    ``form``: ``id`` (``ADR-0004`` in prose or a comment), ``link`` (a path into an ADR root),
    ``front-matter`` (an ``adrs:`` key) or ``table`` (a row or field labelled ADRs). A link
    carries the repo-relative ``target``; the others the id ``prefix`` (casefolded, "" for a
    bare number) and ``number``."""

    line: int
    column: int
    form: str
    text: str  # as written: "ADR-0004", "../adr/0004-x.md", "0004"
    excerpt: str  # the line, shortened (untrusted: neutralise before printing)
    prefix: str = ""
    number: int | None = None
    target: str | None = None
    quoted: bool = False  # inside inline code (`ADR-0004`): mentioned as an example


class Waiver(msgspec.Struct, frozen=True):
    """An ``adrguard-disable`` comment in a citing file: its text from the directive word on,
    the line it is on and, for ``-next-line``, the line it covers (None: nothing follows)."""

    text: str
    line: int
    target_line: int | None = None


class CitingFile(msgspec.Struct, frozen=True):
    """A file outside the ADR roots that cites decisions (or holds suppression comments)."""

    path: str
    kind: str  # "code" | "doc"
    citations: tuple[Citation, ...] = ()
    waivers: tuple[Waiver, ...] = ()
    title: str | None = None  # a markdown document's title (core.citations.document)
    date: str | None = None  # and the date it states, as written


class Citations(msgspec.Struct, frozen=True):
    """What the citation scan found: the citing files (sorted by path), how many files it
    read, and, when it covered only some files (``paths``), which ones."""

    files: tuple[CitingFile, ...] = ()
    scanned: int = 0
    skipped: Mapping[str, int] = msgspec.field(default_factory=dict)  # reason -> files
    paths: frozenset[str] | None = None  # None: every file the scan selects


def status_key(d: Decision) -> str:
    """The record's normalised status as a word (``accepted``), ``none`` when it states none:
    how statuses are filtered, grouped and written out."""
    return d.status.value if d.status is not None else "none"


K = TypeVar("K", bound=Hashable)


def grouped(decisions: Iterable[Decision], key: Callable[[Decision], K], *,
            shared: bool = False) -> dict[K, tuple[Decision, ...]]:
    """``key`` -> the decisions that have it, in order, the keys in the order first met: what
    grouping into lists and making each a tuple gives, with a list made only for a key that
    several decisions share (most keys name one record; fewer objects for the collector).
    ``shared``: only the keys several decisions share."""
    first: dict[K, Decision] = {}
    more: dict[K, list[Decision]] = {}
    for d in decisions:
        k = key(d)
        seen = first.get(k)
        if seen is None:
            first[k] = d
        else:
            group = more.get(k)
            if group is None:
                more[k] = [seen, d]
            else:
                group.append(d)
    if shared:
        return {k: tuple(more[k]) for k in first if k in more}
    return {k: tuple(more[k]) if k in more else (d,) for k, d in first.items()}


class Corpus(msgspec.Struct, frozen=True, dict=True):
    """Every decision found, plus what rules need to know about the repository."""

    decisions: tuple[Decision, ...]  # sorted by (id, path)
    roots: tuple[str, ...] = ()
    repo_files: frozenset[str] = frozenset()  # every tracked file (repo-relative)
    # index/CURRENT files etc.
    other_texts: Mapping[str, bytes] = msgspec.field(default_factory=dict)
    skipped: tuple[str, ...] = ()  # files under roots skipped by excludes (indexes, templates)
    # the repository's web URL and default branch, when configured (never from a git remote):
    # which URLs name files of the work tree (adrguard.core.repository)
    repository: Repository | None = None
    untracked: tuple[str, ...] = ()  # markdown under roots that git does not track
    # roots found by content: only numbered or dated files directly in them are records
    shallow_roots: frozenset[str] = frozenset()
    # generated files (indexes) that HEAD or the base of the change held and the work tree no
    # longer has, by path (ADR401: a generated index that is gone)
    previous_texts: Mapping[str, bytes] = msgspec.field(default_factory=dict)
    # code and documents outside the roots that cite decisions (None: not scanned)
    citations: Citations | None = None
    # translation mirrors, left out of the records (and listed in ``skipped``): path -> the
    # mirror folder, or the translated file, it belongs to (adrguard.core.parse.mirrors)
    mirrors: Mapping[str, str] = msgspec.field(default_factory=dict)
    # what the rules computed from single records in earlier runs, from the record cache
    # (None: nothing cached; the rules compute every fact). Not part of the corpus's meaning:
    # no code compares corpora, and a struct field cannot be left out of equality.
    facts: RecordFacts | None = None

    @cached_property
    def by_path(self) -> Mapping[str, Decision]:
        return {d.path: d for d in self.decisions}

    @cached_property
    def by_id(self) -> Mapping[str, tuple[Decision, ...]]:
        return grouped(self.decisions, lambda d: d.id.casefold())

    @cached_property
    def by_number(self) -> Mapping[tuple[str, int], tuple[Decision, ...]]:
        """(root, number) -> decisions; several roots are separate namespaces."""
        return grouped((d for d in self.decisions if d.number is not None),
                       lambda d: (d.root, cast(int, d.number)))

    @cached_property
    def repo_dirs(self) -> frozenset[str]:
        dirs: set[str] = {""}
        for f in self.repo_files:  # up from the file's folder to one already known (with its
            folder = f.rpartition("/")[0]  # parents): each folder is added once
            while folder not in dirs:
                dirs.add(folder)
                folder = folder.rpartition("/")[0]
        return frozenset(dirs)

    @cached_property
    def _derived(self) -> dict[str, Any]:
        return {}

    def derived(self, name: str, compute: Callable[[], T]) -> T:
        """State derived from this corpus alone (its graph, its keyword index), computed on
        first use and kept on the corpus: it lives exactly as long as the corpus does."""
        memo = self._derived
        if name not in memo:
            memo[name] = compute()
        return cast(T, memo[name])

    def derived_so_far(self, name: str) -> Any:
        """What :meth:`derived` computed under ``name`` so far (None when nothing yet)."""
        return self._derived.get(name)

    def find(self, key: str) -> tuple[Decision, ...]:
        """Decisions whose id (case-insensitive) or path equals ``key``."""
        if key in self.by_path:
            return (self.by_path[key],)
        return self.by_id.get(key.casefold(), ())

    def __iter__(self) -> Iterator[Decision]:
        return iter(self.decisions)

    def __len__(self) -> int:
        return len(self.decisions)


# The shapes of record facts, as stored: ids a rule found in one record, each (where: a body
# line or a link's place, the offset there, the id as written, its number, a flag: for ADR204,
# whether the id is a link's text); or a yes or no about the record (ADR107: whether its name
# matches ``filename-pattern``).
Mention = tuple[int, int, str, int | None, bool]
FactValues = dict[str, list[Mention] | bool]


class RecordFacts:
    """Facts the rules compute from one record alone, kept in the record cache (ADR 44).

    A record fact depends on nothing but what the record cache's key covers (the record's
    bytes, path, root and archive flag, and the parse options) and the rules' code: the
    mentions of decision ids ADR204 finds in a record's text. :meth:`get` answers from what an
    earlier run stored for exactly this record (the same :class:`Decision` object the corpus
    holds), else computes the fact and keeps it in :attr:`fresh`, which the run then stores.
    A stored fact comes back from the cache equal to the computed one and of the same types,
    so a run with the cache reports exactly what a run without it reports."""

    __slots__ = ("_blobs", "_decode", "_decode_fact", "_known", "_records", "fresh", "keys",
                 "place")

    def __init__(
        self,
        known: Mapping[str, tuple[Decision, Mapping[str, Any]]] | None = None,
        keys: Mapping[str, bytes] | None = None,
        place: str | None = None,
        *,
        records: Mapping[str, Decision] | None = None,
        blobs: Mapping[str, bytes] | None = None,
        decode: Callable[[bytes], Mapping[str, Any] | None] | None = None,
        decode_fact: Callable[[bytes, str], Any] | None = None,
    ) -> None:
        self._known = dict(known or {})  # path -> (the record, its stored facts by name)
        # Facts as the cache stores them (``blobs``, of exactly the records ``records``),
        # decoded (``decode``: None for an entry that does not decode) each time a rule asks
        # and never kept: a thousand records' facts held decoded for the whole run would only
        # feed the cyclic collector. ``decode_fact`` (when given) decodes only the fact a rule
        # asks for (None when the blob holds none or it does not decode): the pipeline's takes
        # each blob apart by name once a run and leaves the other facts encoded, so a record's
        # facts are decoded about once a run however many rules ask (ADR 57).
        self._records = dict(records or {})
        self._blobs = dict(blobs or {})
        self._decode = decode
        self._decode_fact = decode_fact
        self.fresh: dict[str, tuple[Decision, dict[str, Any]]] = {}  # computed by this run
        self.keys = dict(keys or {})  # path -> the record's entry in the cache
        self.place = place  # the work tree the records were read from

    def get(self, d: Decision, name: str, kind: type[T], compute: Callable[[], T]) -> T:
        """The fact ``name`` of ``d``: stored (when it is a ``kind``), or computed now (and kept
        for storing)."""
        stored = self._stored_fact(d, name)
        if isinstance(stored, kind):
            return stored
        fresh = self.fresh.get(d.path)
        if fresh is None or fresh[0] is not d:
            fresh = self.fresh[d.path] = (d, {})
        elif name in fresh[1]:
            return cast(T, fresh[1][name])
        value = fresh[1][name] = compute()
        return value

    def known(self, d: Decision) -> Mapping[str, Any]:
        """The facts stored for exactly ``d`` (empty when none were)."""
        return self._stored(d) or {}

    def _stored_fact(self, d: Decision, name: str) -> Any:
        """The stored fact ``name`` of exactly ``d`` (None when none is stored)."""
        known = self._known.get(d.path)
        if known is not None:
            return known[1].get(name) if known[0] is d else None
        if self._decode_fact is None:
            stored = self._stored(d)
            return None if stored is None else stored.get(name)
        blob = self._blobs.get(d.path) if self._records.get(d.path) is d else None
        return None if blob is None else self._decode_fact(blob, name)

    def _stored(self, d: Decision) -> Mapping[str, Any] | None:
        known = self._known.get(d.path)
        if known is not None:
            return known[1] if known[0] is d else None
        if self._decode is None or self._records.get(d.path) is not d:
            return None
        blob = self._blobs.get(d.path)
        return None if blob is None else self._decode(blob)
