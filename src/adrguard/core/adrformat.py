"""The ADR formats adrguard knows, one entry each: how a record of it is recognised, which
sections it must have, and whether ``adrguard new --format`` writes it. Pure.

``FORMATS`` is the one list. The parser recognises a record's format by asking each entry's
``detect`` in ``rank`` order (:func:`adrguard.core.parse.formats.detect`), the required-sections
rules (ADR104, ADR105) read ``sections`` (through ``Options.required_sections``, which the
``required-sections`` setting extends), and ``new`` offers the entries that ``write``: the style
it writes one in is the authoring style of the same name
(:data:`adrguard.core.authoring.style.BUILT_IN`, which a test keeps equal to them).

Adding an ADR format: one entry here (its name, label, detect, sections), its built-in style in
``core/authoring/style.py`` when ``new`` should write it, a test made from a record of it, and a
line in docs/authoring.md.
"""

from __future__ import annotations

from collections.abc import Callable

import msgspec


class Signals(msgspec.Struct, frozen=True):
    """What the parser saw of a record, which a format's ``detect`` reads."""

    name: str  # the file name
    sections: frozenset[str]  # section titles, casefolded
    labels: frozenset[str]  # header bullet labels (``* Status: x``), casefolded
    keys: frozenset[str]  # front matter keys, casefolded
    madr_sections: bool  # "Context and Problem Statement" or "Decision Outcome" is a section
    bullets: bool  # the header is MADR 2's bullets (status, deciders, technical story...)
    dated_name: bool  # the name starts with a compact date (20240102-...)


class AdrFormat(msgspec.Struct, frozen=True):
    """One ADR format."""

    name: str  # as the parser, the config (required-sections) and ``new --format`` spell it
    label: str  # for people
    rank: int  # detection order: the first entry whose detect is true is the record's format
    detect: Callable[[Signals], bool]
    sections: tuple[str, ...]  # required sections, casefolded ("a|b" accepts either)
    writes: bool = True  # ``adrguard new --format NAME`` writes it


_MADR = ("context and problem statement", "decision outcome")
_MADR3_KEYS = frozenset({"status", "date", "deciders", "consulted", "informed"})

FORMATS: tuple[AdrFormat, ...] = (
    AdrFormat(
        "nygard", "Michael Nygard's layout (adr-tools)", 5,
        lambda s: ("status" in s.sections and ("context" in s.sections
                                               or "decision" in s.sections))
        or {"context", "decision", "consequences"} <= s.sections,
        ("context", "decision", "consequences"),
    ),
    AdrFormat(
        "madr2", "MADR 2 (header bullets)", 4,
        lambda s: s.bullets and (s.madr_sections or "deciders" in s.labels
                                 or "technical story" in s.labels),
        _MADR,
    ),
    AdrFormat(
        "madr3", "MADR 3 (front matter)", 3,
        lambda s: (bool(s.keys & _MADR3_KEYS)
                   and (s.madr_sections or not s.sections & {"context", "status"}))
        or (s.madr_sections and not s.bullets),
        _MADR,
    ),
    AdrFormat(
        "madr4", "MADR 4 (front matter, Confirmation)", 2,
        lambda s: "decision-makers" in s.keys or ("confirmation" in s.sections
                                                  and s.madr_sections),
        _MADR,
    ),
    AdrFormat(
        "log4brains", "log4brains (MADR 2 bullets, dated names)", 1,
        lambda s: s.bullets and s.dated_name,
        _MADR,
    ),
    AdrFormat("generic", "any other layout", 99, lambda s: True, (), writes=False),
)

GENERIC = "generic"  # the format of a record no other entry recognises
DEFAULT_WRITTEN = "nygard"  # what ``new`` writes in an empty log

DETECTION_ORDER: tuple[AdrFormat, ...] = tuple(sorted(FORMATS, key=lambda f: f.rank))
WRITTEN: tuple[str, ...] = tuple(f.name for f in FORMATS if f.writes)  # new --format choices
REQUIRED_SECTIONS = {f.name: f.sections for f in FORMATS}


def recognise(signals: Signals) -> str:
    """The name of the first format, in detection order, whose ``detect`` accepts a record."""
    for fmt in DETECTION_ORDER:
        if fmt.detect(signals):
            return fmt.name
    return GENERIC
