"""How a log writes its records, as data, and the built-in styles of each format. Pure.

A :class:`Style` says everything the renderer (:mod:`.render`) and the editor (:mod:`.edit`)
need: the file name, the front matter, the H1, where the status and the date are written and in
which words, the sections, and where and how relations (``Supersedes``, ``Amended by``) go.
:mod:`.learn` fills one in from a log's records; the styles here are for an empty log and for
``--format``: adr-tools' Nygard layout, MADR 2 (bullets), MADR 3 and 4 (front matter) and
log4brains (MADR 2 bullets with dated names).
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from adrguard.core.adrformat import DEFAULT_WRITTEN
from adrguard.core.authoring import wording
from adrguard.core.authoring.names import NameStyle
from adrguard.core.authoring.tables import Table
from adrguard.core.conventions.sections import fold


@dataclass(frozen=True, slots=True)
class Line:
    """Where and how a log writes one field (the status, the date).

    ``where``: ``front-matter`` (``label`` is the key), ``section`` (``label`` is the heading
    line, ``## Status``; the value is a paragraph below it), ``line`` (``label`` is the text
    before the value, ``* Status: ``, ``Date: ``, ``**Status:** ``; ``after`` what follows it)
    or ``table`` (a row of the metadata table :attr:`Style.table`)."""

    where: str
    label: str
    after: str = ""


@dataclass(frozen=True, slots=True)
class Place:
    """Where a log writes relation lines (``Supersedes [..](..)``, ``Amended by [..](..)``).

    ``status``: a paragraph in the Status section, after the status (adr-tools); ``section``: in
    the section ``heading`` (``## Links``), as a ``bullet`` item or a paragraph; ``header``:
    beside the status line, with its ``bullet``; ``front-matter``: a key per relation kind."""

    where: str = "status"
    heading: str = ""
    bullet: str = ""
    keys: tuple[tuple[str, str], ...] = ()  # (relation kind, front-matter key as written)
    value: str = "id"  # what a front-matter key holds: id | path | link | number

    def key(self, kind: str) -> str:
        return dict(self.keys).get(kind, kind)


@dataclass(frozen=True)
class Style:
    """What a new record looks like in one log."""

    format: str = DEFAULT_WRITTEN
    names: NameStyle = field(default_factory=NameStyle)
    # (key, role, value): role title | status | date | number | constant (value written as is)
    front_matter: tuple[tuple[str, str, object], ...] = ()
    h1: str | None = "{number}. {title}"  # None: no H1 (the title is in the front matter)
    fm_title: str = "{title}"  # the front-matter title, when a key has the title role
    status: Line = field(default_factory=lambda: Line("section", "## Status"))
    status_also: Line | None = None  # a Status section stating it again (after front matter)
    date: Line | None = field(default_factory=lambda: Line("line", "Date: "))
    date_example: str = ""  # a date as the log writes it ("": ISO)
    day_first: bool | None = None
    header: tuple[str, ...] = ("date",)  # the line fields between the H1 and the first section
    header_gap: bool = True  # a blank line between two header lines
    sections: tuple[tuple[int, str], ...] = (
        (2, "Status"), (2, "Context"), (2, "Decision"), (2, "Consequences"),
    )
    words: Mapping[str, str] = field(default_factory=dict)  # status -> as the log writes it
    casing: str = "title"  # how status words the log never wrote are cased: title|lower|upper
    language: str = "en"  # the language of the log's status words (vocabulary.LANGUAGES)
    table: Table | None = None  # the metadata table the status is stated in (status "table")
    # a Status section of dated entries: (the markup before an entry, a date as the log writes
    # them, the text between the date and the word); () when the log writes no such entries
    status_dated: tuple[str, ...] = ()
    place: Place = field(default_factory=Place)
    link: str = "numbered-title"  # link text of a relation: numbered-title | id | stem | title
    id_text: str = "ADR-{number:04d}"  # how the log writes a record's id in a link or a key
    inline_successor: bool = True  # a superseded status names its successor
    # which records say so: both | old (only "Superseded by") | new (only "Supersedes")
    sides: str = "both"
    amend_sides: str = "both"  # the same for amendments ("Amended by" / "Amends")
    learned: bool = False  # False: a built-in style (an empty log, or --format)

    def word(self, status: str) -> str:
        """The word for ``status`` (a :class:`~adrguard.core.model.Status` value) as the log
        writes it, else the word of the log's language in the log's casing."""
        written = self.words.get(status)
        if written:
            return written
        return cased(wording.default_word(self.language, status), self.casing)

    def writes(self, new_side: bool, amend: bool = False) -> bool:
        """Whether the log writes the relation in the new record (``new_side``) or in the old
        one."""
        sides = self.amend_sides if amend else self.sides
        return sides == "both" or sides == ("new" if new_side else "old")

    def superseded_by(self, target: str) -> str | None:
        """``Superseded by [5. X](0005-x.md)`` in the log's words and language (``superseded
        by``, ``⌛️ Superseded by``, ``Remplacé par``); None in a language whose form the
        parser would not read back (the status word is then written alone)."""
        form = wording.successor_form(self.language)
        if not form:
            return None
        word = self.word("superseded")
        out = []
        for literal, name, _spec, _conv in string.Formatter().parse(form):
            out.append(literal.upper() if word.isupper() else literal)
            if name == "word":
                out.append(word)
            elif name == "target":
                out.append(target)
        return "".join(out)


def cased(word: str, casing: str) -> str:
    if not word:
        return word
    if casing == "upper":
        return word.upper()
    if casing == "lower":
        return word.lower()
    return word[:1].upper() + word[1:]


_MADR_SECTIONS = (
    (2, "Context and Problem Statement"), (2, "Considered Options"), (2, "Decision Outcome"),
)
BUILT_IN: Mapping[str, Style] = {
    DEFAULT_WRITTEN: Style(),
    "madr2": Style(
        format="madr2",
        h1="{title}",
        status=Line("line", "* Status: "),
        date=Line("line", "* Date: "),
        header=("status", "date"),
        header_gap=False,
        sections=(*_MADR_SECTIONS, (2, "Links")),
        casing="lower",
        place=Place("section", "## Links", "* "),
        link="id",
    ),
    "madr3": Style(
        format="madr3",
        front_matter=(("status", "status", None), ("date", "date", None)),
        h1="{title}",
        status=Line("front-matter", "status"),
        date=Line("front-matter", "date"),
        header=(),
        sections=(*_MADR_SECTIONS, (3, "Consequences"), (2, "More Information")),
        casing="lower",
        place=Place("section", "## More Information"),
        link="id",
    ),
}
BUILT_IN = {
    **BUILT_IN,
    "madr4": replace(
        BUILT_IN["madr3"],
        format="madr4",
        sections=(*_MADR_SECTIONS, (3, "Consequences"), (3, "Confirmation"),
                  (2, "More Information")),
    ),
    "log4brains": replace(
        BUILT_IN["madr2"],
        format="log4brains",
        names=NameStyle(kind="dated", compact_date=True),
        status=Line("line", "- Status: "),
        date=Line("line", "- Date: "),
        place=Place("section", "## Links", "- "),
        link="stem",
    ),
}


def built_in(fmt: str) -> Style:
    return BUILT_IN.get(fmt, BUILT_IN[DEFAULT_WRITTEN])


# What to write below an English heading of a new record (the author replaces it). Headings
# in other languages, and headings of no known meaning, are left empty.
_ASK_CONTEXT = "What is the issue that motivates this decision, and what constrains it?"
_ASK_DECISION = "What do we decide to do, and why this option?"
_ASK_CONSEQUENCES = ("What becomes easier or harder because of this decision, and which risks "
                     "must we manage?")
_PROMPTS = {
    "context": _ASK_CONTEXT,
    "context and problem statement": _ASK_CONTEXT,
    "problem statement": _ASK_CONTEXT,
    "background": _ASK_CONTEXT,
    "decision": _ASK_DECISION,
    "decision outcome": _ASK_DECISION,
    "consequences": _ASK_CONSEQUENCES,
    "positive consequences": "What becomes easier because of this decision?",
    "negative consequences": "What becomes harder, and which risks must we manage?",
    "considered options": "Which options did we consider?",
    "options considered": "Which options did we consider?",
    "decision drivers": "Which forces and concerns shape this decision?",
    "confirmation": "How will we confirm that the decision is followed?",
}


def prompt(heading: str) -> str:
    """A one-line question for the author to replace, or "" (the section is left empty)."""
    key = fold(heading)
    return _PROMPTS.get(key) or _PROMPTS.get(key.removesuffix("s"), "")
