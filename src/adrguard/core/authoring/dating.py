"""Write a date the way a log writes its dates: the same family, order, separators, padding,
month names and ordinal suffixes as an example the log wrote. Pure.

The example's date parts are found by position (year, month, day, ordinal suffix) and replaced
in place, so every other character of the example (commas, ``de``, spaces, ``年``) is kept.
Month names are written in English, in the example's case and length; an example with month
names of another language, or one whose parts cannot be told apart, gives ISO (``2024-05-31``).
"""

from __future__ import annotations

import datetime as dt
import re

from adrguard.core.lazyre import lazy

_MONTHS = (
    "January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December",
)
_ENGLISH = {m.casefold(): i for i, m in enumerate(_MONTHS, 1)} | {
    m[:3].casefold(): i for i, m in enumerate(_MONTHS, 1)
} | {"sept": 9}
_ISO_DAY = lazy(r"^(?P<y>\d{4})-(?P<m>\d{2})-(?P<d>\d{2})")
_ISO_MONTH = lazy(r"^(?P<y>\d{4})-(?P<m>\d{2})(?!\d|-\d)")
_COMPACT = lazy(r"^(?P<y>\d{4})(?P<m>\d{2})(?P<d>\d{2})$")
_CJK = lazy(r"^(?P<y>\d{4})(\s*年\s*)(?P<m>\d{1,2})(\s*月)(?:(\s*)(?P<d>\d{1,2})(\s*日))?$")
_NUMERIC = lazy(r"^(?P<a>\d{1,4})(?P<s>[/.-])(?P<b>\d{1,2})(?P=s)(?P<c>\d{2}|\d{4})\.?$")
_HUMAN = lazy(
    r"^(?:(?P<d1>\d{1,2})(?P<o1>st|nd|rd|th)?\.?\s+(?:de\s+)?)?(?P<month>[^\W\d_]+)\.?"
    r"(?:\s+(?P<d2>\d{1,2})(?P<o2>st|nd|rd|th)?)?,?\s+(?:de\s+)?(?P<y>\d{4})\.?$",
    re.I,
)


def ordinal(day: int) -> str:
    if 10 <= day % 100 <= 20:
        return "th"
    return {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")


def _number(value: int, written: str) -> str:
    """``value`` as wide as ``written`` was when it was zero-padded (``05`` -> ``07``)."""
    return f"{value:02d}" if len(written) == 2 and written.startswith("0") else str(value)


def _two(value: int, written: str) -> str:
    """A part of a numeric date (``22.11.2017``): two digits when the example wrote two, as such
    logs write ``05.01.2018`` too; as written otherwise (``5/1/2018``)."""
    return f"{value:02d}" if len(written) == 2 else str(value)


def _cased(text: str, like: str) -> str:
    if like.isupper() and len(like) > 1:
        return text.upper()
    if like[:1].islower():
        return text.lower()
    return text


def _replace(example: str, parts: list[tuple[int, int, str]]) -> str:
    out, pos = [], 0
    for start, end, text in sorted(parts):
        out.append(example[pos:start])
        out.append(text)
        pos = end
    out.append(example[pos:])
    return "".join(out)


def _span(m: re.Match[str], group: str, text: str) -> list[tuple[int, int, str]]:
    return [(m.start(group), m.end(group), text)] if m.group(group) is not None else []


def write_like(example: str, day: dt.date, day_first: bool | None = None) -> str:
    """``day`` written like ``example`` (a date the log wrote); ISO when the example's layout
    is not one this module can reproduce. ``day_first`` orders a numeric example whose order
    it does not show itself (``05/02/2018``)."""
    text = " ".join(example.strip().split())
    m = _ISO_DAY.match(text)
    if m:
        return day.isoformat()
    m = _ISO_MONTH.match(text)
    if m:
        return f"{day.year:04d}-{day.month:02d}"
    if _COMPACT.match(text):
        return day.strftime("%Y%m%d")
    m = _CJK.match(text)
    if m:
        parts = [(m.start("y"), m.end("y"), str(day.year))]
        parts += _span(m, "m", _number(day.month, m.group("m")))
        parts += _span(m, "d", _number(day.day, m.group("d") or ""))
        return _replace(text, parts)
    m = _NUMERIC.match(text)
    if m:
        return _numeric(text, m, day, day_first)
    m = _HUMAN.match(text)
    if m and m.group("month").casefold() in _ENGLISH:
        return _human(text, m, day)
    return day.isoformat()


def _numeric(text: str, m: re.Match[str], day: dt.date, day_first: bool | None) -> str:
    a, b, c = m.group("a"), m.group("b"), m.group("c")
    year = str(day.year) if len(c) == 4 else f"{day.year % 100:02d}"
    if len(a) == 4:  # 2017/11/22
        parts = [(m.start("a"), m.end("a"), str(day.year)),
                 (m.start("b"), m.end("b"), _two(day.month, b)),
                 (m.start("c"), m.end("c"), _two(day.day, c))]
        return _replace(text, parts)
    if m.group("s") == "." or int(a) > 12:  # dotted dates are day first (22.11.2017)
        first = True
    elif int(b) > 12:
        first = False
    elif day_first is not None:
        first = day_first
    else:
        return day.isoformat()  # the example does not show its order
    d_val, m_val = (day.day, day.month) if first else (day.month, day.day)
    parts = [(m.start("a"), m.end("a"), _two(d_val, a)),
             (m.start("b"), m.end("b"), _two(m_val, b)),
             (m.start("c"), m.end("c"), year)]
    return _replace(text, parts)


def _human(text: str, m: re.Match[str], day: dt.date) -> str:
    written = m.group("month")
    name = _MONTHS[day.month - 1]
    if len(written) <= 4 and written.casefold() != name.casefold():  # an abbreviation
        name = "Sept" if day.month == 9 and written.casefold() == "sept" else name[:3]
    parts = [(m.start("month"), m.end("month"), _cased(name, written)),
             (m.start("y"), m.end("y"), str(day.year))]
    for d_group, o_group in (("d1", "o1"), ("d2", "o2")):
        if m.group(d_group) is not None:
            parts.append((m.start(d_group), m.end(d_group), _number(day.day, m.group(d_group))))
            if m.group(o_group) is not None:
                parts.append(
                    (m.start(o_group), m.end(o_group), _cased(ordinal(day.day), m.group(o_group)))
                )
    return _replace(text, parts)
