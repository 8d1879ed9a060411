"""A record in one sentence: what ``list`` and ``list_adrs`` show as ``summary``, and what a
model judging relevance reads (:func:`candidate_summary`). Pure.

The summary is the first sentence of the section that carries the decision — found by meaning,
the way the structure rules find it (``Decision``, ``Decision Outcome``, ``Entscheidung``,
``Proposal``, ...: :mod:`adrguard.core.conventions.sections`) — and, in a record without one,
the first sentence of the first section with prose that is not the title, a status or a date.
A record whose only prose stands below its title (after lines such as ``Date: ...``) gets
that prose's first sentence.
A sentence ends at ``.``, ``!`` or ``?`` followed by a space (not after a common abbreviation,
an initial or a number) or at ``。！？``; the text is on one line, and a sentence longer than
:data:`MAX_SUMMARY` code points is cut at a word, with ``…``.
"""

from __future__ import annotations

from collections.abc import Iterator

from adrguard.core.conventions.sections import OWN_NAMES, STAND_INS, fold
from adrguard.core.lazyre import lazy
from adrguard.core.model import Decision, Section

MAX_SUMMARY = 200  # code points of ``summary``
_END = lazy(r"[.!?](?=[\s\"')\]]|$)|[。！？]")
_WORDS = "e.g i.e etc vs cf approx incl esp al fig no nr ca resp z.b d.h u.a bzw usw ggf vgl"
_ABBREVIATIONS = frozenset(_WORDS.split(" ")) | {"dr", "mr", "ms", "mrs", "st", "jr", "sr"}
_NOT_PROSE = frozenset(
    {"status", "date", "dates", "deciders", "decision makers", "technical story", "metadata",
     "authors", "author", "owner", "owners", "tags", "table of contents", "contents", "toc"}
)
_LABELLED = lazy(r"^\W*[\w .\-/]{1,40}:(?:\s|$)")  # "Date: 2021", "Status: accepted"
_CONTROL = lazy(r"[\x00-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]")


def first_sentence(text: str, limit: int = MAX_SUMMARY) -> str | None:
    """The first sentence of ``text`` on one line (None when there is no text)."""
    flat = " ".join(_CONTROL.sub(" ", text).split())
    if not flat:
        return None
    for m in _END.finditer(flat, 0, min(len(flat), limit)):
        end = m.end()
        if m.group() == "." and _abbreviation(flat, m.start()):
            continue
        if end < 12 and end < len(flat) and m.group() in ".!?":  # "1.", "Note.": too short
            continue
        return flat[:end]
    if len(flat) <= limit:
        return flat
    cut = flat[: limit - 1]
    space = cut.rfind(" ")
    return (cut[:space] if space > limit // 2 else cut).rstrip(" ,;:-") + "…"


def _abbreviation(text: str, dot: int) -> bool:
    """Whether the dot at ``dot`` ends an abbreviation, an initial or a number's part."""
    start = dot
    while start > 0 and (text[start - 1].isalnum() or text[start - 1] == "."):
        start -= 1
    word = text[start:dot].casefold()
    if word in _ABBREVIATIONS or (len(word) == 1 and word.isalpha()):
        return True
    after = text[dot + 1 : dot + 2]
    return bool(word) and word[-1].isdigit() and after.isdigit()


def decision_section(d: Decision) -> Section | None:
    """The section that carries the decision: one of its own names first (``Decision``,
    ``Decision Outcome``, ...), then a stand-in (``Proposal``, ``Outcome``, ...); the first of
    each, in the record's order."""
    own = OWN_NAMES["decision"]
    stand_in = STAND_INS["decision"]
    found: Section | None = None
    for s in d.sections:
        name = fold(s.title)
        if name in own or name.rstrip("s") in own:
            return s
        if found is None and name in stand_in:
            found = s
    return found


def _prose_sections(d: Decision) -> Iterator[Section]:
    for s in d.sections:
        name = fold(s.title)
        if d.title is not None and name == fold(d.title):
            continue  # the title heading: its text is the preamble (often the status and date)
        if name not in _NOT_PROSE:
            yield s


def summary(d: Decision, limit: int = MAX_SUMMARY) -> str | None:
    """The decision's first sentence (see the module docstring); None when the record has no
    prose at all."""
    section = decision_section(d)
    if section is not None:
        found = first_sentence(section.text, limit)
        if found:
            return found
    for s in _prose_sections(d):
        found = first_sentence(s.text, limit)
        if found:
            return found
    for s in d.sections[:1]:  # all the prose is below the title: skip its "Label: value" lines
        kept = [line for line in s.text.split("\n") if not _LABELLED.match(line)]
        found = first_sentence("\n".join(kept), limit)
        if found:
            return found
    return None


def candidate_summary(d: Decision, limit: int) -> str:
    """What a model judging relevance reads of a record besides its title: the decision's
    first sentences, then the first sentence of its context and of any "applies when" or
    "anti-patterns" section, within ``limit`` code points (never the whole record)."""
    parts: list[str] = []
    section = decision_section(d)
    if section is not None:
        found = first_sentence(section.text, limit // 2)
        if found:
            parts.append(f"Decision: {found}")
    for s in d.sections:
        name = fold(s.title)
        label = None
        if name in OWN_NAMES["context"] or name in STAND_INS["context"]:
            label = "Context"
        elif name in ("applies when", "when it applies", "applicability", "scope"):
            label = "Applies when"
        elif name in ("anti patterns", "antipatterns", "anti pattern"):
            label = "Anti-patterns"
        if label is None or any(p.startswith(label + ":") for p in parts):
            continue
        text = s.text if label == "Context" else "; ".join(s.text.split("\n"))
        found = first_sentence(text, limit // 3)
        if found:
            parts.append(f"{label}: {found}")
    if not parts:
        found = summary(d, limit)
        if found:
            parts.append(found)
    text = " ".join(parts)
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"
