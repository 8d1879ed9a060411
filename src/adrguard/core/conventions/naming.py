"""The file-name scheme of a log, learned from its records' names. Pure: no I/O.

A record's name (its file name, or its folder's name for ``<folder>/README.md`` records) is
split into parts: an optional letter prefix (``adr-``, ``ADR``, ``DR``, ``scs-``), a sequence
number (and its width) or a date (``2023-03-02``, ``20230302``), a separator, a slug and the
extension. The *structure* (numbered or dated or plain, the prefix, folder or file) decides
where a record sorts and how tools find it; the *style* (``_`` or ``-`` between words, the
extension's case) is cosmetic. :func:`learn` measures both over a log.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

import msgspec

from adrguard.core.lazyre import lazy
from adrguard.core.parse import formats

_DATED = lazy(r"^(\d{4}-\d{2}-\d{2}|\d{8})(?=$|[-_ .])")
_NUMBERED = lazy(r"^([A-Za-z]{0,12}?)([-_ ]?)(\d{1,9})(?=$|[-_ .])")
_HARMFUL = lazy(r"[#?%\x00-\x1f\x7f]")
STRONG = 0.75  # share of a log's records that makes a habit a convention


class Name(msgspec.Struct, frozen=True):
    """One record name split into its parts."""

    shown: str  # the file name, or the folder name of a folder record
    folder: bool
    kind: str  # numbered | dated | plain
    prefix: str  # letters before the number, as written
    prefix_sep: str
    digits: str  # the number as written ("0012"), "" when there is none
    date: str  # the date as written, "" when there is none
    slug: str
    ext: str  # as written, "" for folders

    @property
    def structure(self) -> tuple[object, ...]:
        """What decides sorting and lookup: kind, prefix (any case), folder, date style."""
        date_style = "compact" if self.date.isdigit() else ("dashed" if self.date else "")
        return (self.kind, self.prefix.casefold(), self.prefix_sep, self.folder, date_style)

    @property
    def pattern(self) -> str:
        """A readable picture of the structure and style: ``ADR-NNN-slug.md``."""
        if self.kind == "numbered":
            head = f"{self.prefix}{self.prefix_sep}{'N' * max(len(self.digits), 1)}"
        elif self.kind == "dated":
            head = "YYYYMMDD" if self.date.isdigit() else "YYYY-MM-DD"
        else:
            head = ""
        slug = "slug" if self.slug else ""
        if head and slug:
            sep = self.word_sep or "-"
            body = f"{head}{sep}{slug}"
        else:
            body = head or slug or self.shown
        return f"{body}/README.md" if self.folder else f"{body}{self.ext}"

    @property
    def word_sep(self) -> str:
        """The character between words of the slug: ``-``, ``_``, `` `` or ``""``."""
        counts = [(self.slug.count(c), c) for c in "-_ "]
        count, sep = max(counts)
        return sep if count else ""

    @property
    def harmful(self) -> str:
        """Characters that break a relative link to this record (``#``, ``?``, ``%``)."""
        shown = self.shown
        if shown.isprintable() and "#" not in shown and "?" not in shown and "%" not in shown:
            return ""  # nothing _HARMFUL matches (its controls are not printable)
        return "".join(dict.fromkeys(_HARMFUL.findall(shown)))


def _may_be_dated(stem: str) -> bool:
    """Whether :data:`_DATED` can match: ``YYYY-MM-DD`` has its dashes in place, ``YYYYMMDD``
    is eight digits."""
    return (len(stem) >= 10 and stem[4] == "-" and stem[7] == "-") or stem[:8].isdecimal()


def _leading_number(stem: str) -> str | None:
    """What :data:`_NUMBERED` reads from a name that starts with a digit: the digits (any
    script's, as ``\\d``), when there are at most nine and the name ends or goes on with ``-``,
    ``_``, a space or a dot after them; else None (the pattern cannot match: no letters can
    come before a digit, and fewer digits leave a digit after them)."""
    k = 0
    while k < len(stem) and stem[k].isdecimal():
        k += 1
    if k > 9 or (k < len(stem) and stem[k] not in "-_ ."):
        return None
    return stem[:k]


def split(path: str, root: str, names: formats.Names | None = None) -> Name:
    """The parts of a record's name. ``names``: the run's record names (the same answers,
    each worked out once a run)."""
    if names is None:
        names = formats.Names()
    folder = names.is_folder_record(path, root)
    file_name = formats.path_parts(path)[0]
    stem = names.record_name(path, root)
    shown = stem if folder else file_name
    ext = "" if folder else file_name[len(stem) :]
    m = _DATED.match(stem) if _may_be_dated(stem) else None
    if m:
        rest = stem[m.end() :]
        return Name(shown, folder, "dated", "", "", "", m.group(1), rest.lstrip("-_ ."), ext)
    if stem[:1].isdecimal():  # most names: a number first, read without the pattern
        digits = _leading_number(stem)
        if digits is None:
            return Name(shown, folder, "plain", "", "", "", "", stem, ext)
        rest = stem[len(digits) :]
        return Name(shown, folder, "numbered", "", "", digits, "", rest.lstrip("-_ ."), ext)
    m = _NUMBERED.match(stem)
    if m:
        rest = stem[m.end() :]
        return Name(
            shown, folder, "numbered", m.group(1), m.group(2), m.group(3), "",
            rest.lstrip("-_ ."), ext,
        )
    return Name(shown, folder, "plain", "", "", "", "", stem, ext)


class Habit(msgspec.Struct, frozen=True):
    """What ``count`` of ``total`` names do; a convention when the share is at least STRONG."""

    value: object
    count: int
    total: int
    example: str = ""

    @property
    def holds(self) -> bool:
        return self.total > 0 and self.count >= STRONG * self.total

    def __str__(self) -> str:
        return f"{self.count} of {self.total}"


def _habit(values: Iterable[tuple[object, str]]) -> Habit:
    counts: Counter[object] = Counter()
    examples: dict[object, str] = {}
    for value, example in values:
        counts[value] += 1
        examples.setdefault(value, example)
    if not counts:
        return Habit(None, 0, 0)
    value, count = counts.most_common(1)[0]
    return Habit(value, count, sum(counts.values()), examples[value])


class Scheme(msgspec.Struct, frozen=True):
    """The naming habits of one log."""

    structure: Habit  # Name.structure; example: a pattern such as "ADR-NNN-slug.md"
    width: Habit  # digit count of numbered names
    padded: bool  # numbered names are zero-padded to a fixed width
    word_sep: Habit
    ext: Habit

    def width_harm(self, name: Name) -> bool:
        """A zero-padded number of another width sorts out of order (``00011`` among
        ``0001``..``0012``; ``12`` among ``0001``..``0013``)."""
        if name.kind != "numbered" or not self.padded or not self.width.holds:
            return False
        if name.structure != self.structure.value:
            return False
        width = self.width.value
        assert isinstance(width, int)
        size = len(name.digits)
        return size < width or (size > width and name.digits.startswith("0"))


def learn(names: Iterable[Name]) -> Scheme:
    listed = list(names)
    structure = _habit((n.structure, n.pattern) for n in listed)
    numbered = [n for n in listed if n.kind == "numbered" and n.structure == structure.value]
    width = _habit((len(n.digits), n.digits) for n in numbered)
    padded = any(len(n.digits) > 1 and n.digits.startswith("0") for n in numbered)
    slugged = [n for n in listed if n.slug]
    return Scheme(
        structure=structure,
        width=width,
        padded=padded,
        word_sep=_habit((n.word_sep, n.shown) for n in slugged if n.word_sep),
        ext=_habit((n.ext, n.shown) for n in listed if not n.folder),
    )
