"""Numbers other changes claim: the records other refs (or open pull requests) add, which of
this change's records they collide with, and the next number no one has taken. Pure.

Two branches that each add ``0042-*.md`` both pass alone and collide after the second merge.
A :class:`Claims` holds what the other side adds, and for each other side the records of this
side that are new since the two parted (the records of this change). A record of this change
collides with a claimed record of the same ADR root that has its number (or its id, for logs
without numbers), unless both are the same file with the same content (a branch stacked on
this one).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from adrguard.core.model import Corpus, Decision


@dataclass(frozen=True, slots=True)
class Claimed:
    """A record another ref or pull request adds."""

    source: str  # the ref (refs/remotes/origin/pr/17) or the pull request ("pull request #17")
    label: str  # how messages name the source: "origin/pr/17", "pull request #17 (Use Kafka)"
    path: str
    root: str
    number: int | None
    id: str
    title: str | None = None
    blob: str = ""  # git's object id of the file, when known


@dataclass(frozen=True)
class Claims:
    """What the other sources add, and for each source the records of this side that are new
    since it parted from this one (``new_here``: source -> record paths). ``blobs``: git's
    object ids of this side's new records (to tell a stacked copy from a collision)."""

    claimed: tuple[Claimed, ...] = ()
    new_here: Mapping[str, frozenset[str]] = field(default_factory=dict)
    blobs: Mapping[str, str] = field(default_factory=dict)
    sources: tuple[str, ...] = ()  # every source looked at, in order (also those adding nothing)
    notes: tuple[str, ...] = ()  # sources skipped, and why (a ref a glob matched that is no kin)

    def numbers(self, root: str) -> set[int]:
        return {c.number for c in self.claimed if c.root == root and c.number is not None}


@dataclass(frozen=True, slots=True)
class Collision:
    """A record of this change that takes a number (or id) another source also adds."""

    decision: Decision
    claimed: Claimed
    next_free: int | None


def next_number(corpus: Corpus, root: str, claims: Claims | None = None,
                also: Iterable[int] = ()) -> int:
    """The next free number of ``root``'s log: one more than the highest number its records
    (archived ones included) and the other sources' records have, and than ``also`` (the
    numbers a log writes after the date of its dated names)."""
    taken = {d.number for d in corpus.decisions if d.root == root and d.number is not None}
    taken.update(also)
    if claims is not None:
        taken |= claims.numbers(root)
    return max(taken, default=0) + 1


def _same(d: Decision, c: Claimed) -> bool:
    if d.root != c.root:
        return False
    if d.number is not None and c.number is not None:
        return d.number == c.number
    return d.number is None and c.number is None and d.id.casefold() == c.id.casefold()


def collisions(corpus: Corpus, claims: Claims) -> list[Collision]:
    """Every (record of this change, claimed record) pair that takes the same number or id,
    with the next number free of both."""
    out: list[Collision] = []
    for c in claims.claimed:
        mine = claims.new_here.get(c.source, frozenset())
        for d in corpus.decisions:
            if d.path not in mine or not _same(d, c):
                continue
            if d.path == c.path and c.blob and claims.blobs.get(d.path) == c.blob:
                continue  # the same file with the same content: one branch holds the other's
            nxt = next_number(corpus, d.root, claims) if d.number is not None else None
            out.append(Collision(d, c, nxt))
    return out


def summary(claims: Claims) -> list[tuple[str, list[Claimed]]]:
    """Each source with the records it adds, in the order the sources were given."""
    by_source: dict[str, list[Claimed]] = {s: [] for s in claims.sources}
    for c in claims.claimed:
        by_source.setdefault(c.source, []).append(c)
    return [(s, sorted(v, key=lambda c: (c.number is None, c.number or 0, c.path)))
            for s, v in by_source.items()]


def merge(parts: Iterable[Claims]) -> Claims:
    claimed: list[Claimed] = []
    new_here: dict[str, frozenset[str]] = {}
    blobs: dict[str, str] = {}
    sources: list[str] = []
    notes: list[str] = []
    for part in parts:
        claimed.extend(part.claimed)
        new_here.update(part.new_here)
        blobs.update(part.blobs)
        sources.extend(s for s in part.sources if s not in sources)
        notes.extend(part.notes)
    return Claims(tuple(claimed), new_here, blobs, tuple(sources), tuple(notes))
