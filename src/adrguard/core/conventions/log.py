"""What one log (the records under one ADR root) does by habit, learned from its records.

Convention rules judge a record against the log it belongs to, not against adrguard's defaults:
the file-name scheme (:mod:`.naming`), the date family (:mod:`.dates`), whether records state a
status, which required sections the log writes (:mod:`.sections`), and which of its records
are sign-posts. A :class:`Log` computes each habit once, on first use; the rule context
keeps one per root. Pure: no I/O.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from functools import cached_property

import msgspec

from adrguard.core.adrformat import GENERIC
from adrguard.core.conventions import dates, naming
from adrguard.core.conventions.naming import STRONG
from adrguard.core.conventions.sections import Requirement, heading_keys, pseudo_headings
from adrguard.core.lazyre import lazy
from adrguard.core.model import Corpus, Decision
from adrguard.core.parse import formats

MIN_LEARN = 3  # a log needs this many records before it can set aside a default requirement
_SIGNPOST_WORDS = 80
_URL = lazy(r"https?://|\]\(")


def log_order(d: Decision) -> tuple[bool, int, str]:
    """Records in the order they were written: by number, else by (dated) path."""
    return (d.number is None, d.number or 0, d.path)


def states_status(d: Decision) -> bool:
    return d.status is not None or bool(d.statuses)


def is_signpost(d: Decision) -> bool:
    """A sign-post: a short record with no sections and no status that points elsewhere (a
    decision kept in another system, listed here so the log stays complete)."""
    if states_status(d) or any(s.level > 1 for s in d.sections):
        return False
    body = " ".join(s.text for s in d.sections) if d.sections else d.text
    return len(body.split()) <= _SIGNPOST_WORDS and bool(_URL.search(d.text) or d.links)


class StatusHabit(msgspec.Struct, frozen=True):
    """Whether a log states statuses: in most records (``since == 0``), in every record written
    after it adopted them (``since`` = the first such record's position in log order), or not
    (``since is None``)."""

    stated: int
    total: int
    since: int | None
    first: str = ""  # path of the record from which statuses are stated


def status_habit(records: Sequence[Decision]) -> StatusHabit:
    stated = [states_status(d) for d in records]
    total, count = len(stated), sum(stated)
    if total and count >= STRONG * total:
        return StatusHabit(count, total, 0, records[0].path)
    suffix = count
    for i, flag in enumerate(stated):  # the earliest point after which the log states statuses
        rest = total - i
        if flag and rest >= MIN_LEARN and suffix >= STRONG * rest:
            return StatusHabit(suffix, rest, i, records[i].path)
        suffix -= flag
    return StatusHabit(count, total, None)


class Log:
    """The records of one ADR root and the habits learned from them (each computed once)."""

    def __init__(
        self, root: str, decisions: Iterable[Decision], names: formats.Names | None = None
    ) -> None:
        self.root = root
        self._record_names = names if names is not None else formats.Names()  # the run's
        self.all = tuple(sorted(decisions, key=log_order))
        self.records = tuple(d for d in self.all if d.is_readable)
        self._by_path = {d.path: d for d in self.records}
        self._names: dict[str, naming.Name] = {}
        self._heading_keys: dict[str, frozenset[str]] = {}
        self._record_keys: dict[tuple[str, bool], frozenset[str]] = {}
        self._titles_keys: dict[tuple[str, ...], frozenset[str]] = {}
        self._pseudo: dict[str, tuple[str, ...]] = {}
        self._shares: dict[str, tuple[int, int]] = {}
        self._dates: dict[str, dates.Reading] = {}

    @property
    def label(self) -> str:
        return "the repository root" if self.root in ("", ".") else self.root

    @cached_property
    def signposts(self) -> frozenset[str]:
        return frozenset(d.path for d in self.records if is_signpost(d))

    @cached_property
    def substantive(self) -> tuple[Decision, ...]:
        """Readable records that are not sign-posts: what habits are learned from."""
        return tuple(d for d in self.records if d.path not in self.signposts)

    @cached_property
    def _positions(self) -> dict[str, int]:
        return {d.path: i for i, d in enumerate(self.substantive)}

    def position(self, d: Decision) -> int:
        """The record's place among :attr:`substantive` in log order (-1 when it is not one)."""
        return self._positions.get(d.path, -1)

    # -- names and dates ------------------------------------------------------------------
    @cached_property
    def scheme(self) -> naming.Scheme:
        return naming.learn(self.name_of(d) for d in self.all)

    @cached_property
    def structures(self) -> Counter[tuple[object, ...]]:
        """How many of the log's names share each structure (:attr:`naming.Name.structure`)."""
        return Counter(self.name_of(d).structure for d in self.all)

    @cached_property
    def harmful_names(self) -> int:
        """How many of the log's names carry a character that ends a link's path."""
        return sum(1 for d in self.all if self.name_of(d).harmful)

    def name_of(self, d: Decision) -> naming.Name:
        name = self._names.get(d.path)
        if name is None:
            name = self._names[d.path] = naming.split(d.path, d.root, self._record_names)
        return name

    @cached_property
    def date_habit(self) -> dates.DateHabit:
        return dates.learn(self.date_of(d) for d in self.records if d.date)

    def date_of(self, d: Decision) -> dates.Reading:
        """The record's date read once (the habit and the rules both ask; by the date as
        written: a log repeats its dates)."""
        raw = d.date or ""
        found = self._dates.get(raw)
        if found is None:
            found = self._dates[raw] = dates.read(raw)
        return found

    # -- statuses and formats -------------------------------------------------------------
    @cached_property
    def statuses(self) -> StatusHabit:
        return status_habit(self.substantive)

    @cached_property
    def dominant_format(self) -> str | None:
        """The format most records were detected as (a majority), for records of no format."""
        counts = Counter(d.format for d in self.substantive if d.format != GENERIC)
        if not counts:
            return None
        fmt, count = counts.most_common(1)[0]
        return fmt if 2 * count >= len(self.substantive) else None

    # -- sections -------------------------------------------------------------------------
    def headings(self, d: Decision) -> tuple[str, ...]:
        """Every heading of the record except its title."""
        return tuple(s.title for s in d.sections if s.line != d.title_line or s.level > 1)

    def carries(self, d: Decision, requirement: Requirement, own: bool = False) -> bool:
        """Whether a heading or a bold pseudo-heading of the record carries the requirement
        (with ``own``: under one of the section's own names)."""
        if requirement.carried_by_keys(self._keys(d, False), own):
            return True
        return requirement.carried_by_keys(self._keys(d, True), own)

    def missing(self, d: Decision, requirements: Iterable[Requirement]) -> list[Requirement]:
        """The requirements that nothing in the record carries (:meth:`carries` of each, with
        the record's keys looked up once; its pseudo-headings only when a heading falls short)."""
        keys = self._keys(d, False)
        found = [r for r in requirements if keys.isdisjoint(r.names)]
        if found:
            pseudo = self._keys(d, True)
            found = [r for r in found if pseudo.isdisjoint(r.names)]
        return found

    def share(self, requirement: Requirement) -> tuple[int, int]:
        """(records that write the section under one of its own names, substantive records)."""
        return self.shares((requirement,))[requirement.entry]

    def shares(self, requirements: Iterable[Requirement]) -> dict[str, tuple[int, int]]:
        """:meth:`share` of each requirement (by its entry), those not yet counted counted
        together in one pass over the records."""
        wanted = list(requirements)
        todo: dict[str, frozenset[str]] = {}
        for r in wanted:
            if r.entry not in self._shares:
                todo.setdefault(r.entry, r.own)
        if todo:
            counts = dict.fromkeys(todo, 0)
            for d in self.substantive:
                keys = self._keys(d, False)
                pseudo: frozenset[str] | None = None
                for entry, own in todo.items():
                    if keys.isdisjoint(own):
                        if pseudo is None:
                            pseudo = self._keys(d, True)
                        if pseudo.isdisjoint(own):
                            continue
                    counts[entry] += 1
            total = len(self.substantive)
            for entry, count in counts.items():
                self._shares[entry] = (count, total)
        return {r.entry: self._shares[r.entry] for r in wanted}

    def _keys(self, d: Decision, pseudo: bool) -> frozenset[str]:
        """Every name the record's headings (or its bold pseudo-headings) may carry."""
        found = self._record_keys.get((d.path, pseudo))
        if found is None:
            titles = self._pseudo_headings(d) if pseudo else self.headings(d)
            found = self._titles_keys.get(titles)  # a log repeats its sets of headings
            if found is None:
                found = self._titles_keys[titles] = frozenset().union(
                    *map(self._heading, titles))
            self._record_keys[(d.path, pseudo)] = found
        return found

    def _heading(self, title: str) -> frozenset[str]:
        keys = self._heading_keys.get(title)
        if keys is None:
            keys = self._heading_keys[title] = heading_keys(title)
        return keys

    def _pseudo_headings(self, d: Decision) -> tuple[str, ...]:
        found = self._pseudo.get(d.path)
        if found is None:
            text = d.text  # no bold line, no pseudo-heading
            bold = starts_a_line_bold(text)
            found = self._pseudo[d.path] = tuple(pseudo_headings(d.text)) if bold else ()
        return found


def starts_a_line_bold(text: str) -> bool:
    """Whether a line of ``text`` starts with ``**`` or ``__`` after at most three spaces or
    tabs, found from where ``**`` and ``__`` occur: only the
    first of a line can follow that little, and a line without one is not read."""
    for mark in ("**", "__"):
        at = text.find(mark)
        while at != -1:
            line_start = text.rfind("\n", 0, at) + 1
            lead = at - line_start
            if lead <= 3 and text.count(" ", line_start, at) + text.count("\t", line_start, at) \
                    == lead:
                return True
            line_end = text.find("\n", at)
            if line_end == -1:
                break
            at = text.find(mark, line_end + 1)
    return False


def logs_of(corpus: Corpus) -> dict[str, Log]:
    """The :class:`Log` of every ADR root of ``corpus`` that holds a record."""
    members: dict[str, list[Decision]] = {}
    for d in corpus.decisions:
        members.setdefault(d.root, []).append(d)
    names = formats.names_of(corpus)
    return {r: Log(r, ds, names) for r, ds in members.items()}


def unstated_by_habit(log: Log, require_status: bool | None) -> frozenset[str]:
    """Paths of the records of ``log`` that state no status where the log does not ask for one
    (the ADR102 reading): every such record when ``require_status`` is False or the log states
    no statuses by habit, those written before the log adopted statuses otherwise; none when
    ``require_status`` is True."""
    if require_status:
        return frozenset()
    habit = log.statuses
    return frozenset(
        d.path for d in log.records
        if not states_status(d)
        and (require_status is False or habit.since is None or log.position(d) < habit.since)
    )
