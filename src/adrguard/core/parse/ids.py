"""Record ids: what a record's file name says about it, and how text names a record.

A numbered name is ``<prefix><separator><number>`` with an optional version
(``0012-x``, ``adr-05``, ``ADR007-x``, ``DR008-x``, ``std-0002-v2-x``), or a date followed by
a number of three digits or more (``2021-06-05_001-x``, a dated blog's sequence): the prefix
is the log's own id prefix (``ADR``, ``DR``, ``RFC``, ``KEP``...). A log's prefixes are
learned from its file names, so ``Superseded by DR008`` names record 8 of a log whose files are
``DRnnn-*.md``, and a title that repeats the record's own id (``# DR002: Title``,
``# API-001: Title``) is listed without it.
"""

from __future__ import annotations

import re

import msgspec

from adrguard.core.lazyre import lazy

_DATED = lazy(r"^(?:\d{8}|\d{4}-\d{2}-\d{2})(?:[-_ .]|$)")
# A sequence number after the date (``2021-06-05_001-slug``): three digits or more, so that a
# slug that starts with a small number (``2022-05-01-3-tier-design``) is not read as one.
# A year and a month as the name's number (``202012-receive-split``, ``2013-10-gen``): a date,
# not a sequence.
_YEAR_MONTH = lazy(r"^(?:199\d|20\d\d|2100)[-_.]?(?:0[1-9]|1[0-2])(?=[-_ .]|$)")
_DATED_NUMBER = lazy(r"^(?:\d{8}|\d{4}-\d{2}-\d{2})[-_ .](?P<number>\d{3,6})(?=$|[-_ .])")
_NUMBERED = lazy(
    r"^(?:(?P<prefix>[a-z]{2,10})[-_ ]?)?(?P<number>\d{1,6})"
    r"(?:[-_.]v(?P<version>\d{1,4}))?(?=$|[-_ .])",
    re.I,
)
_GENERIC_PREFIXES = frozenset({"adr", "decision", "record"})  # the "ADR-0007" id family
# An id written in text: ``ADR-0042``, ``DR008``, ``KEP 2``, ``rfc_12`` (letters, then digits).
_ID_TOKEN = lazy(r"^(?P<prefix>[a-z]{2,10})[-_ #]?0*(?P<number>\d{1,6})$", re.I)
_TITLE_ID = lazy(
    r"^(?P<open>\[)?(?P<prefix>[a-z]{2,10})[-_ #]?0*(?P<number>\d{1,6})(?:[-_.]v\d{1,4})?"
    r"(?(open)\])(?:(?P<mark>\s*[:.)\-–—])\s*|\s+(?=\S))",
    re.I,
)
# A bare id in text: ``ADR-0042``, ``DR008``, ``KEP-0002`` (a capitalised prefix: the resolver
# decides whether it is this log's), ``#12``, a log4brains ``20200925-slug``, and lists
# (``ADRs 60 and 61``).
# Its ends are ASCII word boundaries, so an id written against CJK text counts (``ADR-0003を``).
ID_IN_TEXT = lazy(
    r"(?<![0-9A-Za-z_])(?P<prefix>(?i:adr|rfc)|[A-Z]{2,10})(?P<plural>s)?[-_ #]?"
    r"(?P<number>\d{1,6})(?![0-9A-Za-z_])"
    r"(?P<more>(?:\s*(?:,|and|&|or)\s*\d{1,6}(?![0-9A-Za-z_]))*)"
    r"|(?<![\w/])#\d+\b|\b\d{8}-[a-z0-9-]+\b"
)
_MORE_NUMBERS = lazy(r"\d+")


class NameId(msgspec.Struct, frozen=True):
    """The id parts of a record name: prefix (casefolded, "" when none), number, version."""

    prefix: str = ""
    number: int | None = None
    version: int | None = None

    @property
    def id(self) -> str | None:
        """``ADR-0012``, ``DR-0008``, ``STD-0002-v2``; None for an unnumbered name."""
        if self.number is None:
            return None
        family = "ADR" if self.prefix in _GENERIC_PREFIXES or not self.prefix else self.prefix
        suffix = f"-v{self.version}" if self.version is not None else ""
        return f"{family.upper()}-{self.number:04d}{suffix}"


def parse_name(name: str) -> NameId:
    """``0012-x`` -> 12, ``adr-05`` -> ("adr", 5), ``std-0002-v2-x`` -> ("std", 2, 2), a number
    after a date ``2021-06-05_001-x`` -> 1; nothing for dated names without one (``2023-03-02-x``,
    ``20230302-x``, a year and month ``202012-x`` or ``2013-10-x``) and names without a
    number."""
    if _may_be_dated(name) and (_DATED.match(name) or _YEAR_MONTH.match(name)):
        dated = _DATED_NUMBER.match(name)
        return NameId(number=int(dated.group("number"))) if dated else NameId()
    m = _NUMBERED.match(name)
    if m is None:
        return NameId()
    version = m.group("version")
    return NameId(
        (m.group("prefix") or "").casefold(),
        int(m.group("number")),
        int(version) if version is not None else None,
    )


def _may_be_dated(name: str) -> bool:
    """What any match of ``_DATED`` or ``_YEAR_MONTH`` needs: eight digits first, a hyphen
    after the fourth digit and after the seventh character, or a year of 19xx, 20xx or 21xx
    first. Most record names (``0012-use-x``) have none, and neither pattern is compiled."""
    if name[:2] in ("19", "20", "21"):
        return True
    return (name[4:5] == "-" and name[7:8] == "-") or name[:8].isdecimal()


def id_token(text: str) -> tuple[str, int] | None:
    """``DR008`` -> ("dr", 8), ``ADR-0042`` -> ("adr", 42); None for anything else."""
    m = _ID_TOKEN.match(text.strip())
    if m is None:
        return None
    return m.group("prefix").casefold(), int(m.group("number"))


def strip_own_id(title: str, own: NameId) -> tuple[str, int | None]:
    """(title, number written) without a leading id in the record's own scheme: the prefix of
    its file name (``DR002: Title`` for ``DR002-x.md``), or its number followed by a mark
    (``API-001: Title`` for ``0001-x.md``). Anything else is left alone."""
    if own.number is None:
        return title, None
    # A match has a digit among its first 13 characters (``[``, ten letters, a separator): an
    # ASCII title without one there has no id, and the pattern stays uncompiled.
    head = title[:13]
    if head.isascii() and not any(c.isdigit() for c in head):
        return title, None
    m = _TITLE_ID.match(title)
    if m is None or m.end() >= len(title):
        return title, None
    prefix, number = m.group("prefix").casefold(), int(m.group("number"))
    marked = m.group("mark") or m.group("open")
    if (own.prefix and prefix == own.prefix) or (number == own.number and marked):
        return title[m.end() :].strip(), number
    return title, None


def in_text(text: str) -> list[str]:
    """The bare ids written in ``text`` (a list such as ``ADRs 60 and 61`` gives two)."""
    return [t for m in ID_IN_TEXT.finditer(text) for t in of_match(m)]


def of_match(m: re.Match[str]) -> list[str]:
    """The ids one :data:`ID_IN_TEXT` match names."""
    prefix, more = m.group("prefix"), m.group("more")
    if not prefix:
        return [m.group(0)]
    if not more:
        return [m.group(0) if not m.group("plural") else f"{prefix} {m.group('number')}"]
    return [f"{prefix} {n}" for n in (m.group("number"), *_MORE_NUMBERS.findall(more))]
