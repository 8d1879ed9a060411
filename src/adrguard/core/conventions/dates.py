"""How a record's date is written: its family, its value, and whether it is impossible or
ambiguous. Pure: no I/O.

Families: ``iso`` (``2024-05-22``, ``2024-05``, ``2024``, with a time or a note after it),
``human`` (month names: ``June 19, 2018``, ``7 April 2020``, ``May 2023``), ``numeric``
(``05/02/2018``, ``2017/11/22``, ``22.11.2017``, ``05-02-2018``; dotted dates are read day
first), ``compact`` (``20171122``), ``cjk`` (``2017年11月22日``) and ``unknown``. A date in a
template's brackets (``[2025-03-07]``) or with a note after it (``2025.09.02 (PR #46)``) is read
as the date it holds.
"""

from __future__ import annotations

import datetime as dt
import re
from collections import Counter
from collections.abc import Iterable

import msgspec

from adrguard.core.lazyre import lazy

_ISO = lazy(
    r"^(\d{4})-(\d{2})(?:-(\d{2}))?"
    r"(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,]\d+)?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?)?"
    r"(?=$|[^\d/.-]|\.(?!\d))"  # a note or a decoration may follow: "2024-05-22 (back dated)"
)
_YEAR = lazy(r"^(\d{4})\.?$")
_COMPACT = lazy(r"^(\d{4})(\d{2})(\d{2})$")
_NUMERIC = lazy(r"^(\d{1,4})([/.-])(\d{1,2})\2(\d{1,4})\.?$")
_CJK = lazy(r"^(\d{4})\s*年\s*(\d{1,2})\s*月(?:\s*(\d{1,2})\s*日)?$")
_MONTHS = {
    name: i + 1
    for i, names in enumerate(
        (
            "january jan janvier janv januar enero ene janeiro gennaio",
            "february feb février févr februar febrero fevereiro febbraio",
            "march mar mars märz marzo março",
            "april apr avril abril aprile",
            "may mai mayo maio maggio",
            "june jun juin juni junio junho giugno",
            "july jul juillet juli julio julho luglio",
            "august aug août agosto",
            "september sep sept septembre septiembre setembro settembre",
            "october oct octobre oktober octubre outubro ottobre",
            "november nov novembre noviembre novembro",
            "december dec décembre dezember diciembre dezembro dicembre",
        )
    )
    for name in names.split()
}
_HUMAN = lazy(
    r"^(?:(?P<d1>\d{1,2})(?:st|nd|rd|th)?\.?\s+(?:de\s+)?)?(?P<month>[^\W\d_]+)\.?"
    r"(?:\s+(?P<d2>\d{1,2})(?:st|nd|rd|th)?)?,?\s+(?:de\s+)?(?P<year>\d{4})\.?$",
    re.I,
)
_DASHED = lazy(  # 29-Oct-2019, 25-November-2018
    r"^(?P<d1>\d{1,2})-(?P<month>[^\W\d_]+)\.?-(?P<year>\d{4})$(?P<d2>)?", re.I
)
FAMILY_PICTURE = {
    "iso": "ISO dates (YYYY-MM-DD)",
    "human": "dates with month names (June 19, 2018)",
    "numeric": "numeric dates with slashes or dots",
    "compact": "compact dates (YYYYMMDD)",
    "cjk": "dates with 年, 月 and 日",
}


class Reading(msgspec.Struct, frozen=True):
    """What a written date says."""

    written: str
    family: str  # iso | human | numeric | compact | unknown
    value: dt.date | None = None  # None when impossible, ambiguous, month precision or unknown
    problem: str = ""  # "" | "impossible" | "ambiguous"
    readings: tuple[dt.date, ...] = ()  # the possible values of an ambiguous or impossible date
    day_first: bool | None = None  # numeric d/m/y (True) or m/d/y (False), when it shows

def _date(y: int, m: int, d: int) -> dt.date | None:
    try:
        return dt.date(y, m, d)
    except ValueError:
        return None


_DECORATED_MAX = 80  # a decorated date is short: longer text is not read past (linear time)
_WRAPPED = lazy(r"^[\[{<(]\s*([^\[\]{}<>()]+?)\s*[\]}>)]$")  # [2025-03-07]
_NOTE = lazy(r"^(.*?\d)\.?\s*(?:\([^()]*\)|\[[^\[\]]*\]|[-–—]\s.*)$")  # 2025.09.02 (PR #4)
# A mark before a date (``<2018-08-31``, ``~2021-03``, ``*2025-02-07*``, ``ca. 2019-05-01``).
_MARKED = lazy(r"^(?:[<>≤≥~≈*_]+|(?:c|ca|circa|approx)\.?\s+)\s*(\d[^*_]*?)[*_]*$", re.I)


def _clock(hour: str | None, minute: str | None, second: str | None) -> bool:
    """Whether a written time of day can be one (no time at all is fine; 60 s: a leap second)."""
    if hour is None or minute is None:
        return True
    return int(hour) <= 23 and int(minute) <= 59 and (second is None or int(second) <= 60)


def read(written: str) -> Reading:
    """What a written date says. Decoration around a date is not part of it: the template's
    brackets kept around a value (``[2025-03-07]``), a note after it (``2025.09.02 (PR #46)``,
    ``2024-05-22 — revised``) and a mark before it (``<2018-08-31``, ``*2025-02-07``, ``ca.
    2019-05-01``) are read past."""
    text = " ".join(written.strip().split())
    found = _read(text)
    if found.family != "unknown" or len(text) > _DECORATED_MAX:
        return found
    for pattern in (_WRAPPED, _NOTE, _MARKED):
        m = pattern.match(text)
        inner = _read(m.group(1)) if m else None
        if inner is not None and inner.family != "unknown":
            return Reading(
                text, inner.family, inner.value, inner.problem, inner.readings, inner.day_first
            )
    return found


def _plain_iso(text: str) -> bool:
    """Whether ``text`` is exactly ``YYYY-MM-DD`` in ASCII digits (most dates): what
    :data:`_ISO` would match whole, with no time, read without it."""
    return (len(text) == 10 and text[4] == "-" and text[7] == "-" and text.isascii()
            and (text[:4] + text[5:7] + text[8:]).isdecimal())


def _read(text: str) -> Reading:
    if _plain_iso(text):
        return _iso_day(text, int(text[:4]), int(text[5:7]), int(text[8:]))
    m = _ISO.match(text)
    if m and not _clock(m.group(4), m.group(5), m.group(6)):
        return Reading(text, "iso", problem="impossible")  # 2024-01-01 25:99:99
    if m:
        y, mo = int(m.group(1)), int(m.group(2))
        if m.group(3) is None:
            ok = 1 <= mo <= 12
            return Reading(text, "iso", problem="" if ok else "impossible")
        return _iso_day(text, y, mo, int(m.group(3)))
    if _YEAR.match(text):
        return Reading(text, "iso")
    m = _COMPACT.match(text)
    if m:
        value = _date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
        return Reading(text, "compact", value, "" if value else "impossible")
    m = _NUMERIC.match(text)
    if m:
        return _numeric(text, m)
    m = _CJK.match(text)
    if m:
        if m.group(3) is None:
            return Reading(text, "cjk", problem="" if 1 <= int(m.group(2)) <= 12 else "impossible")
        value = _date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
        return Reading(text, "cjk", value, "" if value else "impossible")
    m = _HUMAN.match(text) or _DASHED.match(text)
    if m and m.group("month").casefold() in _MONTHS:
        month = _MONTHS[m.group("month").casefold()]
        written_day = m.group("d1") or m.group("d2")
        if written_day is None:
            return Reading(text, "human")
        value = _date(int(m.group("year")), month, int(written_day))
        return Reading(text, "human", value, "" if value else "impossible")
    return Reading(text, "unknown")


def _iso_day(text: str, y: int, mo: int, day: int) -> Reading:
    value = _date(y, mo, day)
    if value is not None:
        return Reading(text, "iso", value)
    swapped = _date(y, day, mo)
    return Reading(text, "iso", problem="impossible", readings=(swapped,) if swapped else ())


def _numeric(text: str, m: re.Match[str]) -> Reading:
    a, b, c = m.group(1), m.group(3), m.group(4)
    if len(a) == 4 and len(c) <= 2:  # year first: 2017/11/22, or ISO without padding: 2020-1-5
        value = _date(int(a), int(b), int(c))
        return Reading(text, "numeric", value, "" if value else "impossible")
    if len(c) not in (2, 4) or len(a) > 2:
        return Reading(text, "unknown")
    year = int(c) if len(c) == 4 else 2000 + int(c)
    first, second = int(a), int(b)
    day_first = _date(year, second, first)
    month_first = _date(year, first, second)
    shows = None if first == second else (True if first > 12 else (False if second > 12 else None))
    if m.group(2) == "." and day_first is not None:  # dotted dates are day first (22.11.2017)
        month_first = None
    options = tuple(dict.fromkeys(v for v in (day_first, month_first) if v is not None))
    if not options:
        return Reading(text, "numeric", problem="impossible")
    if len(c) != 4 or len(options) > 1:
        return Reading(text, "numeric", problem="ambiguous", readings=options, day_first=shows)
    return Reading(text, "numeric", options[0], day_first=shows)


SETTLED = 0.75  # share of a log's telling numeric dates (a day over 12) that settles its order


class DateHabit(msgspec.Struct, frozen=True):
    """The date family a log writes: ``count`` of ``total`` dated records use ``family``."""

    family: str
    count: int
    total: int
    day_first: bool | None  # the order three quarters of the log's telling dates show, if any
    example: str = ""  # a date of the family as the log writes it

    @property
    def learned(self) -> bool:
        """The log writes one family more often than all others together."""
        return self.total > 0 and 2 * self.count > self.total


def learn(readings: Iterable[Reading]) -> DateHabit:
    listed = [r for r in readings if r.family != "unknown"]
    counts = Counter(r.family for r in listed)
    orders = Counter(r.day_first for r in listed if r.day_first is not None)
    day_first = None
    if orders:  # the order three quarters or more of the log's telling dates show
        top, shown = orders.most_common(1)[0]
        day_first = top if shown >= SETTLED * sum(orders.values()) else None
    if not counts:
        return DateHabit("iso", 0, 0, day_first)
    family, count = counts.most_common(1)[0]
    if 2 * count <= len(listed):  # no family holds a majority: ISO is the default
        family, count = "iso", counts.get("iso", 0)
    example = next((r.written for r in listed if r.family == family), "")
    return DateHabit(family, count, len(listed), day_first, example)
